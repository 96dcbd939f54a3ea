//! Iterating over every record of every input named on the command line.

use sudobench::format::{Reader, Record};

/// A record, or an error already formatted with its place (`FILE:LINE: message` for a
/// malformed record, `FILE: message` for a source that cannot be opened).
pub type Input = Result<Record, String>;

/// Every record of every file in order; no files means standard input.
pub fn inputs(files: &[String]) -> impl Iterator<Item = Input> {
    let files: Vec<String> = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    };
    files
        .into_iter()
        .flat_map(|path| -> Box<dyn Iterator<Item = Input>> {
            match Reader::open(&path) {
                Ok(reader) => Box::new(reader.map(|item| item.map_err(|e| e.to_string()))),
                Err(e) => Box::new(std::iter::once(Err(e.to_string()))),
            }
        })
}
