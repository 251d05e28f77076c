//! Qasab's web server: games of every ruleset over a JSON API, kept in SQLite.
//!
//! [`AppState::open`] opens the database and replays every stored game through the core;
//! [`app`] builds the router (tests call it with `tower::ServiceExt::oneshot`, without a
//! socket) from the list of routes that [`routes`] gives; [`run`] serves it (and [`serve`] on
//! a runtime the caller owns, [`serve_on`] on a listener the caller bound). The API is
//! described in `docs/server.md` and, as an OpenAPI document generated from the handlers and
//! their types ([`openapi`]), at `GET /api/openapi.json`.
//!
//! # Concurrency
//! Each game sits behind its own async mutex, so requests about one game are applied in
//! order while other games go on. Every change of a game runs in a task of its own, so a
//! client that hangs up mid-request never leaves a change half made.
//!
//! # Bounded work
//! Computer moves and hints run on the [`compute`] pool: a fixed number of worker threads
//! taking tasks from one queue, each task within the per-move limits of [`Config`]. A full
//! queue refuses hints (503 with `Retry-After`); a hint whose client has gone is cancelled. A
//! game between a person and the computer gets the computer's reply at once, ahead of all
//! other computer work. A game between two computer players advances only while someone
//! watches it (an open WebSocket, or a read of the game within [`Config::watch_window`]), at
//! most one decision per [`Config::computer_pace`], and only as many such games as there are
//! workers think at once (the others wait their turn): left alone it pauses, and it goes on
//! when someone looks again.
//!
//! Database writes go to one writer thread that commits the writes of concurrent requests
//! together ([`store::Writer`]), so thinking never delays storing a person's move. An action
//! and the throws that follow it are stored as one write, committed before the answer.
//!
//! # Memory
//! Only games in use are kept in memory: at most [`Config::games_in_memory`] (more only while
//! that many are busy), the least recently used others dropped. A game asked for that is not
//! in memory is read from the database and rebuilt by replaying its actions.

pub mod auth;
pub mod compute;
pub mod error;
pub mod game;
pub mod limit;
pub mod openapi;
pub mod proxy;
pub mod store;
pub mod variants;
/// The web page and the reads it needs.
mod web;

mod answers;
mod api;
mod config;
mod early;
mod extract;
mod hint;
mod net;
mod route;
mod router;
mod state;
mod studies;
mod tables;
mod views;
mod ws;

use std::net::SocketAddr;
use std::path::Path;

use anyhow::Context;

pub use config::{Config, IpNet};
pub use net::serve_on;
pub use router::{app, routes};
pub use state::{AppState, CreatedGame, CreatedSeat};

/// Serves the API on `addr` with the database at `db` until Ctrl-C, on a runtime of its own
/// (what `qasab serve` calls).
///
/// # Errors
/// If the runtime cannot start, the database cannot be opened or the address cannot be bound.
pub fn run(addr: SocketAddr, db: &Path, config: Config) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(serve(addr, db, config))
}

/// Serves the API on `addr` with the database at `db` until Ctrl-C, on the current runtime.
///
/// # Errors
/// If the database cannot be opened or the address cannot be bound.
pub async fn serve(addr: SocketAddr, db: &Path, config: Config) -> anyhow::Result<()> {
    let path = db.to_path_buf();
    let state = tokio::task::spawn_blocking(move || AppState::open(&path, config))
        .await
        .context("opening the database")??;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    if let Some(dir) = &state.config().tables {
        match state.table_rulesets().as_slice() {
            [] => eprintln!("qasab serve: no endgame table in {}", dir.display()),
            names => eprintln!(
                "qasab serve: endgame tables of {} from {}",
                names.join(", "),
                dir.display()
            ),
        }
    }
    eprintln!(
        "qasab serve: {} games waiting for the server in {}; listening on http://{}",
        state.game_count(),
        db.display(),
        listener.local_addr()?
    );
    state.resume();
    serve_on(listener, state, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await;
    Ok(())
}
