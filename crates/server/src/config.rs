//! The limits of a server ([`Config`]).

use std::time::Duration;

pub use ipnet::IpNet;
use qasab_ai::players::Limits;

/// Limits of a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The largest request body accepted, in bytes (larger ones get 413).
    pub body_limit: usize,
    /// Games a client address may create or import a minute (more get 429).
    pub games_per_minute: u32,
    /// WebSockets that may watch one game at once (more get 429).
    pub sockets_per_game: usize,
    /// Hints a client address may ask for a minute (more get 429).
    pub hints_per_minute: u32,
    /// Worker threads for computer moves and hints: at most this many think at once. Also the
    /// most games between two computer players that have a move queued or under way at once.
    pub compute_workers: usize,
    /// Hints that may wait for a worker before more are refused (503); computer seats' moves
    /// always queue: in games with a person ahead of hints, in games between computers taking
    /// turns with them.
    pub compute_queue: usize,
    /// The most time a computer player may be given per move (`time=`), in milliseconds.
    pub max_think_ms: u64,
    /// The most threads a computer player may use (`threads=`).
    pub max_threads: u64,
    /// Games kept in memory; the least recently used others are dropped and read back from
    /// the database when asked for.
    pub games_in_memory: usize,
    /// A game between two computer players advances while it was read this recently (or a
    /// WebSocket watches it).
    pub watch_window: Duration,
    /// The least time between two decisions of a game between two computer players.
    pub computer_pace: Duration,
    // Connections, timeouts and client addresses (docs/server.md, "Connections and timeouts").
    /// Time a client has to send a request's headers, from the connection's opening or the end
    /// of its last answer; then the connection is closed. Also ends idle keep-alive
    /// connections.
    pub header_timeout: Duration,
    /// Time a client has to send a request's whole body, from the end of its headers; then
    /// the request gets 408.
    pub body_timeout: Duration,
    /// A WebSocket from which nothing (no message, no pong) arrived for this long is closed.
    pub ws_idle_timeout: Duration,
    /// How often the server pings a WebSocket, so that a live client has something to answer
    /// within [`Config::ws_idle_timeout`]; keep it well below that.
    pub ws_ping_interval: Duration,
    /// TCP connections open at once (WebSockets included); the server answers one more with
    /// 503 and closes it.
    pub max_connections: usize,
    /// Peers trusted to say, in `X-Forwarded-For`, which client they forward (reverse
    /// proxies); empty: the header is ignored and the client is the connection's peer.
    pub trusted_proxies: Vec<IpNet>,
    /// A directory of variant studies (the layout of `docs/variants/`) to serve instead of the
    /// copy compiled into the binary, read at each request; `None`: the compiled copy.
    pub variants: Option<std::path::PathBuf>,
    /// A directory of endgame tables (`qasab endgame build`), read at the start: where one of
    /// a game's ruleset holds the position, its computer seats play and its hints rank the
    /// moves by their exact values. `None`: no tables.
    pub tables: Option<std::path::PathBuf>,
}

impl Default for Config {
    /// 1 MiB bodies and 30 games a minute. A Tâb game stopped by the default turn cap (2,000
    /// turns, a few actions each, one short line per action) has a record of a few hundred
    /// KiB at most. 32 sockets a game and 60 hints a minute. One worker fewer than the
    /// machine's cores (at least one), 32 waiting hints, 2 s and one thread a move; 1,000 games
    /// in memory; games between computers watched within 30 s, one decision a second. 10 s for
    /// headers, 30 s for a body (1 MiB at 35 KB/s), WebSockets pinged every 30 s and closed
    /// after 120 s of silence, 1024 connections, and no trusted proxy. The variant studies
    /// compiled into the binary, and no endgame tables.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Config {
            body_limit: 1024 * 1024,
            games_per_minute: 30,
            sockets_per_game: 32,
            hints_per_minute: 60,
            compute_workers: cores.saturating_sub(1).max(1),
            compute_queue: 32,
            max_think_ms: 2_000,
            max_threads: 1,
            games_in_memory: 1_000,
            watch_window: Duration::from_secs(30),
            computer_pace: Duration::from_secs(1),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            ws_idle_timeout: Duration::from_secs(120),
            ws_ping_interval: Duration::from_secs(30),
            max_connections: 1024,
            trusted_proxies: Vec::new(),
            variants: None,
            tables: None,
        }
    }
}

impl Config {
    /// The limits of a computer player on this server: the per-move time and threads of the
    /// configuration; the rest are those of any host ([`Limits::host`]).
    pub fn limits(&self) -> Limits {
        Limits::host("the server", self.max_think_ms, self.max_threads)
    }
}

/// The longest timeout taken as given (a year): a longer one is cut to it, so that no
/// deadline overflows the clock.
pub(crate) const LONGEST_TIMEOUT: Duration = Duration::from_secs(365 * 24 * 3600);
