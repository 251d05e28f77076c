//! The `qasab` command. Thin: parse the arguments, run the command, report errors.

use std::process::ExitCode;

use clap::Parser;

/// `println!` that returns write errors (a closed pipe) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

/// `print!` that returns write errors instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)?
    }};
}

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
