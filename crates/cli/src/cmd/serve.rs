//! `qasab serve`: the web server's JSON API (the `qasab-server` crate does the work).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;

use crate::cli::ServeArgs;

pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    let defaults = qasab_server::Config::default();
    let config = qasab_server::Config {
        games_per_minute: args.games_per_minute,
        sockets_per_game: args.sockets_per_game as usize,
        hints_per_minute: args.hints_per_minute,
        compute_workers: args
            .compute_workers
            .map_or(defaults.compute_workers, |w| w as usize),
        compute_queue: args.compute_queue as usize,
        max_think_ms: args.max_think_ms,
        max_threads: args.max_threads,
        games_in_memory: args.games_in_memory as usize,
        watch_window: Duration::from_secs(args.watch_window),
        computer_pace: Duration::from_millis(args.computer_pace_ms),
        header_timeout: Duration::from_secs(args.header_timeout),
        body_timeout: Duration::from_secs(args.body_timeout),
        ws_idle_timeout: Duration::from_secs(args.ws_idle_timeout),
        ws_ping_interval: ws_ping_interval(args.ws_idle_timeout),
        max_connections: args.max_connections as usize,
        trusted_proxies: args.trust_proxy.clone(),
        variants: args.variants.clone(),
        // As the other commands find them: the option, else the environment's directory.
        tables: (args.tables.clone())
            .or_else(|| std::env::var_os(qasab_ai::search::endgame::TABLES_ENV).map(Into::into)),
        ..defaults
    };
    qasab_server::run(args.addr, &args.db, config)?;
    Ok(ExitCode::SUCCESS)
}

/// Pings every quarter of the WebSocket idle timeout, at most every 30 s: a live client has
/// several chances to answer before it counts as gone.
fn ws_ping_interval(idle_secs: u64) -> Duration {
    (Duration::from_secs(idle_secs) / 4).min(Duration::from_secs(30))
}
