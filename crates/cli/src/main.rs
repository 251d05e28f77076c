//! The `qasab` command. Thin: parse the arguments, run the command, report errors.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod cmd;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cmd::run(args) {
        Ok(code) => code,
        Err(err) => {
            // A closed pipe (e.g. `qasab rules | head`) is not an error worth reporting.
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
