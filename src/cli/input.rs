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
    /// Records already passed on that came from a gzip member that then failed its check.
    suspect: u64,
}

/// Every record of every file in order; no files means standard input.
pub fn inputs(files: &[String]) -> Inputs {
    let mut rest: Vec<String> = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    };
    rest.reverse();
    Inputs {
        rest,
        current: None,
        suspect: 0,
    }
}

impl Inputs {
    /// Whether the next input can be had without waiting for more bytes (see
    /// [`Reader::line_ready`]); false between files, where opening the next one may wait.
    pub fn ready(&self) -> bool {
        self.current.as_ref().is_some_and(Reader::line_ready)
    }

    /// The summary's note on the records handed out so far that came from a gzip member that
    /// failed its check after them (each such failure's error names them): empty when there
    /// are none.
    pub fn suspect_note(&self) -> String {
        match self.suspect {
            0 => String::new(),
            n => format!(
                "; {n} of them from a gzip member that failed its check: do not trust those"
            ),
        }
    }
}

impl Iterator for Inputs {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            if let Some(reader) = &mut self.current {
                match reader.next() {
                    Some(item) => {
                        return Some(item.map_err(|e| {
                            self.suspect += e.kind.suspect_records();
                            e.to_string()
                        }))
                    }
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
