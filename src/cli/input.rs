//! Iterating over every record of every input named on the command line.

use sudobench::format::{Reader, Record};

/// A record, or an error already formatted with its place (`FILE:LINE: message` for a
/// malformed record, `FILE: message` for a source that cannot be opened).
pub type Input = Result<Record, String>;

/// Every record of every file in order; no files means standard input.
pub struct Inputs {
    /// The files not opened yet, last first.
    rest: Vec<String>,
    current: Option<Reader>,
}

/// The files named, or standard input (`-`) when none is: what `solve`, `count`, `verify`
/// and `cnf` read.
pub fn or_stdin(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    }
}

/// Every record of every file in order; no files means standard input.
pub fn inputs(files: &[String]) -> Inputs {
    let mut rest = or_stdin(files);
    rest.reverse();
    Inputs {
        rest,
        current: None,
    }
}

impl Iterator for Inputs {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            if let Some(reader) = &mut self.current {
                match reader.next() {
                    Some(item) => return Some(item.map_err(|e| e.to_string())),
                    None => self.current = None,
                }
            }
            let path = self.rest.pop()?;
            match Reader::open(&path) {
                Ok(reader) => self.current = Some(reader),
                Err(e) => return Some(Err(e.to_string())),
            }
        }
    }
}
