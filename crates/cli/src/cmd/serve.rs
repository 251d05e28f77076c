//! `qasab serve`: the web server's JSON API (the `qasab-server` crate does the work).

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::ServeArgs;

pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    let config = qasab_server::Config {
        games_per_minute: args.games_per_minute,
        sockets_per_game: args.sockets_per_game as usize,
        hints_per_minute: args.hints_per_minute,
        ..qasab_server::Config::default()
    };
    qasab_server::run(args.addr, &args.db, config)?;
    Ok(ExitCode::SUCCESS)
}
