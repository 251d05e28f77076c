//! Qasab's web server: games of every ruleset over a JSON API, kept in SQLite.
//!
//! [`AppState::open`] opens the database and replays every stored game through the core;
//! [`app`] builds the router (tests call it with `tower::ServiceExt::oneshot`, without a
//! socket) from the list of routes that [`routes`] gives; [`run`] serves it (and [`serve`] on
//! a runtime the caller owns). The API is described in `docs/server.md` and, as an OpenAPI
//! document generated from the handlers and their types ([`openapi`]), at
//! `GET /api/openapi.json`.
//!
//! # Concurrency
//! Each game sits behind its own async mutex, so requests about one game are applied in
//! order while other games go on. A computer player's decision runs on the blocking pool
//! (`tokio::task::spawn_blocking`) with the game unlocked: views stay readable while it
//! thinks, and a move computed for a state that an undo has since replaced is dropped. Every
//! change of a game runs in a task of its own, so a client that hangs up mid-request never
//! leaves a change half made. Database writes also run on the blocking pool.

pub mod auth;
pub mod error;
pub mod game;
pub mod limit;
pub mod openapi;
pub mod store;
/// The web page and the reads it needs.
mod web;

mod api;
mod hint;
mod ws;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, anyhow};
use qasab_core::Player;

use crate::error::AppError;
use crate::game::{Game, GameError, Next, StateView};
use crate::limit::RateLimiter;
use crate::store::{GameRow, Store};

pub use api::{app, routes};

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
}

impl Default for Config {
    /// 1 MiB bodies and 30 games a minute. A Tâb game stopped by the default turn cap (2,000
    /// turns, a few actions each, one short line per action) has a record of a few hundred
    /// KiB at most. 32 sockets a game and 60 hints a minute.
    fn default() -> Self {
        Config {
            body_limit: 1024 * 1024,
            games_per_minute: 30,
            sockets_per_game: 32,
            hints_per_minute: 60,
        }
    }
}

/// Updates a slow watcher may fall behind by before it misses some (it then reloads the game).
const UPDATES_KEPT: usize = 64;

/// One game in memory: its stored setup and its live state.
struct GameSlot {
    row: GameRow,
    game: tokio::sync::Mutex<Game>,
    /// Held while the server plays the game's throws and computer moves, so that one task at
    /// a time does it.
    advancing: tokio::sync::Mutex<()>,
    /// The index of the game's state after each change (an action or an undo), for whoever
    /// watches the game live.
    updates: tokio::sync::broadcast::Sender<usize>,
    /// The WebSockets watching the game now.
    sockets: std::sync::atomic::AtomicUsize,
}

impl GameSlot {
    fn new(row: GameRow, game: Game) -> GameSlot {
        GameSlot {
            row,
            game: tokio::sync::Mutex::new(game),
            advancing: tokio::sync::Mutex::new(()),
            updates: tokio::sync::broadcast::channel(UPDATES_KEPT).0,
            sockets: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Tells the watchers that the game changed; nobody watching is not an error.
    fn changed(&self, index: usize) {
        let _ = self.updates.send(index);
    }

    /// The human seat whose token this is.
    fn seat_of(&self, token: &str) -> Option<Player> {
        let hash = auth::hash_token(token);
        Player::ALL.into_iter().find(|p| {
            self.row.token_hashes[p.index()]
                .as_deref()
                .is_some_and(|h| auth::constant_time_eq(h, &hash))
        })
    }
}

struct Shared {
    config: Config,
    store: Arc<Mutex<Store>>,
    games: RwLock<HashMap<String, Arc<GameSlot>>>,
    limiter: Mutex<RateLimiter>,
    /// The budget of hints per client address.
    hint_limiter: Mutex<RateLimiter>,
}

/// The server's state: the open database and every game. Cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// A new game's seat, as the creation answer gives it.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct CreatedSeat {
    /// The seat's name.
    pub seat: &'static str,
    /// `human` or the computer player's spec.
    pub player: String,
    /// The seat's secret token (human seats only); shown this once and never again.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub token: Option<String>,
    /// The seat's link for a browser, carrying the token after `#` so that it never reaches
    /// a server log (human seats only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub link: Option<String>,
}

/// The answer to creating or importing a game.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct CreatedGame {
    /// The game id.
    pub id: String,
    /// The seats in seat order, with the tokens of the human seats.
    #[schema(min_items = 2, max_items = 2)]
    pub seats: Vec<CreatedSeat>,
    /// The link for spectators, who can watch but not act.
    pub spectator: String,
    /// The game's state after the server's first throws and computer moves.
    pub state: StateView,
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

pub(crate) fn poisoned<T>(_: T) -> AppError {
    AppError::Internal(anyhow!("a lock was poisoned by an earlier panic"))
}

/// Rebuilds a stored game by replaying its actions.
fn rebuild(row: &GameRow, actions: &[String]) -> Result<Game, GameError> {
    let mut game = game::new_game(&row.ruleset, &row.seats, row.seed)?;
    for (i, a) in actions.iter().enumerate() {
        game.apply(a)
            .map_err(|e| GameError::Record(format!("action {i} '{a}': {e}")))?;
    }
    Ok(game)
}

impl AppState {
    /// Opens the database at `path` (creating it if needed) and rebuilds every stored game by
    /// replaying its actions through the core. A game that no longer replays (a rule changed
    /// since it was stored) is reported on stderr and left out; it stays in the file.
    ///
    /// Blocking: call it before serving, or on the blocking pool.
    ///
    /// # Errors
    /// If the database cannot be opened or read.
    pub fn open(path: &Path, config: Config) -> anyhow::Result<AppState> {
        let store = Store::open(path)
            .with_context(|| format!("cannot open database {}", path.display()))?;
        let mut games = HashMap::new();
        for (row, actions) in store.load_all()? {
            match rebuild(&row, &actions) {
                Ok(game) => {
                    games.insert(row.id.clone(), Arc::new(GameSlot::new(row, game)));
                }
                Err(e) => eprintln!("qasab serve: game {} not loaded: {e}", row.id),
            }
        }
        Ok(AppState(Arc::new(Shared {
            limiter: Mutex::new(RateLimiter::new(config.games_per_minute)),
            hint_limiter: Mutex::new(RateLimiter::new(config.hints_per_minute)),
            config,
            store: Arc::new(Mutex::new(store)),
            games: RwLock::new(games),
        })))
    }

    /// The number of games in memory.
    pub fn game_count(&self) -> usize {
        self.0.games.read().map_or(0, |g| g.len())
    }

    /// Plays the pending throws and computer moves of every game, in the background: after a
    /// restart, the games that were waiting for the server go on.
    pub fn resume(&self) {
        let slots: Vec<Arc<GameSlot>> = match self.0.games.read() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for slot in slots {
            let state = self.clone();
            tokio::spawn(async move {
                if let Err(e) = state.advance(&slot).await {
                    eprintln!("qasab serve: game {}: {e}", slot.row.id);
                }
            });
        }
    }

    /// Watches a game: the receiver gets the state index after every change (an action, a
    /// throw, a computer move or an undo). The basis of live updates to a game's viewers.
    ///
    /// # Errors
    /// [`AppError::NotFound`] for an unknown game.
    pub fn subscribe(&self, id: &str) -> Result<tokio::sync::broadcast::Receiver<usize>, AppError> {
        Ok(self.slot(id)?.updates.subscribe())
    }

    fn config(&self) -> &Config {
        &self.0.config
    }

    fn slot(&self, id: &str) -> Result<Arc<GameSlot>, AppError> {
        self.0
            .games
            .read()
            .map_err(poisoned)?
            .get(id)
            .cloned()
            .ok_or_else(|| AppError::NotFound(format!("no game with id '{id}'")))
    }

    /// Runs a database operation on the blocking pool.
    async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, AppError> {
        let store = self.0.store.clone();
        tokio::task::spawn_blocking(move || {
            let mut store = store.lock().map_err(poisoned)?;
            f(&mut store).map_err(AppError::from)
        })
        .await?
    }

    /// Takes one game from the creation budget of `client`.
    fn check_rate(&self, client: std::net::IpAddr) -> Result<(), AppError> {
        let mut limiter = self.0.limiter.lock().map_err(poisoned)?;
        if limiter.allow(client, std::time::Instant::now()) {
            Ok(())
        } else {
            Err(AppError::TooManyRequests(format!(
                "too many new games from this address: at most {} a minute",
                self.config().games_per_minute
            )))
        }
    }

    /// Creates a game with `actions` already played (an import), stores it, plays the
    /// server's throws and computer moves, and returns the seats' tokens and the state.
    async fn create(
        &self,
        ruleset: String,
        seats: Option<[String; 2]>,
        actions: Vec<String>,
    ) -> Result<CreatedGame, AppError> {
        let seats = match seats {
            Some(s) => s,
            None => game::default_seats(&ruleset)?,
        };
        let seed = auth::new_seed().map_err(AppError::Internal)?;
        // Preparing a player can take a moment (the Tihbat solver solves the ruleset).
        let (game, seats) = tokio::task::spawn_blocking(move || {
            let mut game = game::new_game(&ruleset, &seats, seed)?;
            for (i, a) in actions.iter().enumerate() {
                game.apply(a)
                    .map_err(|e| GameError::Record(format!("action {}: {e}", i + 1)))?;
            }
            Ok::<_, GameError>((game, seats))
        })
        .await??;
        let mut tokens: [Option<String>; 2] = [None, None];
        for p in Player::ALL {
            if seats[p.index()].trim() == "human" {
                tokens[p.index()] = Some(auth::new_token().map_err(AppError::Internal)?);
            }
        }
        let row = GameRow {
            id: auth::new_game_id().map_err(AppError::Internal)?,
            ruleset: game.ruleset(),
            seats: seats.clone().map(|s| s.trim().to_string()),
            seed,
            token_hashes: tokens.clone().map(|t| t.map(|t| auth::hash_token(&t))),
            created: now_secs(),
        };
        let stored = game.action_texts();
        let names = game.seat_names();
        let slot = Arc::new(GameSlot::new(row.clone(), game));
        {
            let row = row.clone();
            self.db(move |s| s.insert_game(&row, &stored)).await?;
        }
        self.0
            .games
            .write()
            .map_err(poisoned)?
            .insert(row.id.clone(), slot.clone());
        self.advance(&slot).await?;
        let id = row.id.clone();
        let seats = Player::ALL
            .into_iter()
            .map(|p| CreatedSeat {
                seat: names[p.index()],
                player: row.seats[p.index()].clone(),
                link: tokens[p.index()]
                    .as_ref()
                    .map(|t| format!("/play/{id}#token={t}")),
                token: tokens[p.index()].clone(),
            })
            .collect();
        let state = slot.game.lock().await.view();
        Ok(CreatedGame {
            spectator: format!("/play/{id}"),
            id,
            seats,
            state,
        })
    }

    /// Plays the game's throws and computer moves until a person is to move or the game ends,
    /// committing each before the next.
    async fn advance(&self, slot: &Arc<GameSlot>) -> Result<(), AppError> {
        let _turn = slot.advancing.lock().await;
        loop {
            let mut game = slot.game.lock().await;
            match game.next() {
                Next::Human(_) | Next::Over => return Ok(()),
                Next::Chance => {
                    let Some(throw) = game.throw() else {
                        return Ok(());
                    };
                    self.commit(slot, &mut game, &throw).await?;
                }
                Next::Computer(_) => {
                    let Some(job) = game.computer_job() else {
                        return Ok(());
                    };
                    let version = game.version();
                    drop(game);
                    let chosen = tokio::task::spawn_blocking(job).await?;
                    let mut game = slot.game.lock().await;
                    if game.version() != version {
                        // An undo replaced the state while the computer thought.
                        continue;
                    }
                    self.commit(slot, &mut game, &chosen).await?;
                }
            }
        }
    }

    /// Applies an action in memory, then stores it; if storing fails the game is taken back.
    async fn commit(&self, slot: &GameSlot, game: &mut Game, text: &str) -> Result<(), AppError> {
        let index = game.index();
        let canonical = game.apply(text)?;
        let id = slot.row.id.clone();
        if let Err(e) = self
            .db(move |s| s.append_action(&id, index, &canonical))
            .await
        {
            game.truncate(index);
            return Err(e);
        }
        slot.changed(game.index());
        Ok(())
    }
}

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
    eprintln!(
        "qasab serve: {} games from {}; listening on http://{}",
        state.game_count(),
        db.display(),
        listener.local_addr()?
    );
    state.resume();
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}
