//! The `sudobench` command line. All the work happens in [`cli`]; this maps its result to the
//! documented exit codes: 0 all fine, 1 some puzzle failed or had an error, 2 the command
//! could not run or go on (a usage error, an output that cannot be written).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("sudobench: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
