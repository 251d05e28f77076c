//! `qasab serve`: the web server's JSON API (the `qasab-server` crate does the work).

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::ServeArgs;

pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    qasab_server::run(args.addr, &args.db)?;
    Ok(ExitCode::SUCCESS)
}
