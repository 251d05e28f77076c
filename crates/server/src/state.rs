//! The server's state ([`AppState`]): the open database, the games in memory and the pool of
//! computer work, and what changes a game (creating it, its moves, storing them, taking back).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, anyhow};
use qasab_ai::players::Limits;
use qasab_core::Player;

use crate::auth;
use crate::compute::{Compute, Priority};
use crate::config::Config;
use crate::error::AppError;
use crate::game::{self, Game, GameError, Next, StateView};
use crate::limit::RateLimiter;
use crate::store::{GameRow, Store, Write, Writer};
use crate::studies;
use crate::tables::Tables;

/// Updates a slow watcher may fall behind by before it misses some (it then reloads the game).
const UPDATES_KEPT: usize = 64;

/// One game in memory: its stored setup and its live state.
pub(crate) struct GameSlot {
    pub(crate) row: GameRow,
    pub(crate) game: tokio::sync::Mutex<Game>,
    /// Held while the server plays the game's throws and computer moves, so that one task at
    /// a time does it.
    advancing: tokio::sync::Mutex<()>,
    /// Set while a background task advances the game, so that reads wake it only once.
    waking: AtomicBool,
    /// The index of the game's state after each change (an action or an undo), for whoever
    /// watches the game live.
    pub(crate) updates: tokio::sync::broadcast::Sender<usize>,
    /// The WebSockets watching the game now.
    pub(crate) sockets: AtomicUsize,
    /// When the game was last asked for, in milliseconds of the server's clock.
    last_seen: AtomicU64,
    /// True if a person holds a seat.
    has_person: bool,
}

impl GameSlot {
    fn new(row: GameRow, game: Game) -> GameSlot {
        GameSlot {
            has_person: row.seats.iter().any(|s| s == "human"),
            row,
            game: tokio::sync::Mutex::new(game),
            advancing: tokio::sync::Mutex::new(()),
            waking: AtomicBool::new(false),
            updates: tokio::sync::broadcast::channel(UPDATES_KEPT).0,
            sockets: AtomicUsize::new(0),
            last_seen: AtomicU64::new(0),
        }
    }

    /// Tells the watchers that the game changed; nobody watching is not an error.
    fn changed(&self, index: usize) {
        let _ = self.updates.send(index);
    }

    /// The human seat whose token this is.
    pub(crate) fn seat_of(&self, token: &str) -> Option<Player> {
        let hash = auth::hash_token(token);
        Player::ALL.into_iter().find(|p| {
            self.row.token_hashes[p.index()]
                .as_deref()
                .is_some_and(|h| auth::constant_time_eq(h, &hash))
        })
    }
}

pub(crate) struct Shared {
    config: Config,
    limits: Limits,
    /// The endgame tables of [`Config::tables`], by ruleset.
    tables: Tables,
    writer: Writer,
    /// The connection that reads games back into memory.
    reader: Arc<Mutex<Store>>,
    games: RwLock<HashMap<String, Arc<GameSlot>>>,
    pub(crate) compute: Compute,
    /// Turns of games between two computer players to have a move queued or under way: as
    /// many as the workers.
    watched_turns: tokio::sync::Semaphore,
    /// The server's clock, for the games' `last_seen`.
    started: Instant,
    limiter: Mutex<RateLimiter>,
    /// The budget of hints per client address.
    pub(crate) hint_limiter: Mutex<RateLimiter>,
    /// The answer of `GET /api/rulesets`, built at its first request (its default seats
    /// depend on the limits).
    pub(crate) presets: std::sync::OnceLock<serde_json::Value>,
}

/// The server's state: the open database and the games in memory. Cheap to clone.
#[derive(Clone)]
pub struct AppState(pub(crate) Arc<Shared>);

/// A new game's seat, as the creation answer gives it.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct CreatedSeat {
    /// The seat's name.
    pub seat: &'static str,
    /// `human` or the computer player's spec: for a seat asked as null, the player the
    /// server picked.
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
    /// The game's state after the server's first throws and computer moves (in a game between
    /// two computer players, as it starts: its moves come while it is watched).
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

/// Rebuilds a stored game by replaying its actions, with the endgame tables of its ruleset.
fn rebuild(
    row: &GameRow,
    actions: &[String],
    limits: &Limits,
    tables: &Tables,
) -> Result<Game, GameError> {
    let mut game = game::new_game(&row.ruleset, &row.seats, row.seed, limits)?;
    game.set_hints(row.hints);
    game.set_tables(tables.of(game.rules()));
    for (i, a) in actions.iter().enumerate() {
        game.apply(a)
            .map_err(|e| GameError::Record(format!("action {i} '{a}': {e}")))?;
    }
    Ok(game)
}

impl AppState {
    /// Opens the database at `path` (creating it if needed) and checks every stored game by
    /// replaying its actions through the core. A game that no longer replays (a rule changed
    /// since it was stored) is reported on stderr; it stays in the file. The games that wait
    /// for the server with a person at the table (a throw, or the computer's reply) are kept
    /// in memory for [`AppState::resume`]; the others are read again when asked for.
    ///
    /// Blocking: call it before serving, or on the blocking pool.
    ///
    /// # Errors
    /// If the database cannot be opened or read, a thread cannot be started,
    /// [`Config::variants`] names a directory without a valid `index.json`, or
    /// [`Config::tables`] a directory that cannot be read or holds a damaged table.
    pub fn open(path: &Path, config: Config) -> anyhow::Result<AppState> {
        if let Some(dir) = &config.variants {
            studies::check_dir(dir).context("the directory of variant studies")?;
        }
        let tables =
            Tables::open(config.tables.as_deref()).context("the directory of endgame tables")?;
        let store = Store::open(path)
            .with_context(|| format!("cannot open database {}", path.display()))?;
        let reader = Store::reader(path)
            .with_context(|| format!("cannot open database {} to read", path.display()))?;
        let limits = config.limits();
        let mut games = HashMap::new();
        for id in reader.game_ids()? {
            let Some((row, actions)) = reader.load_game(&id)? else {
                continue;
            };
            match rebuild(&row, &actions, &limits, &tables) {
                Ok(game) => {
                    let waits = matches!(game.next(), Next::Chance | Next::Computer(_));
                    let slot = GameSlot::new(row, game);
                    if waits && slot.has_person {
                        games.insert(id, Arc::new(slot));
                    }
                }
                Err(e) => eprintln!("qasab serve: game {id} not loaded: {e}"),
            }
        }
        let compute = Compute::new(
            config.compute_workers,
            config.compute_queue,
            Duration::from_millis(config.max_think_ms),
        )
        .context("cannot start the computer players' threads")?;
        Ok(AppState(Arc::new(Shared {
            limiter: Mutex::new(RateLimiter::new(config.games_per_minute)),
            hint_limiter: Mutex::new(RateLimiter::new(config.hints_per_minute)),
            limits,
            tables,
            writer: Writer::start(store).context("cannot start the database writer")?,
            reader: Arc::new(Mutex::new(reader)),
            games: RwLock::new(games),
            watched_turns: tokio::sync::Semaphore::new(compute.workers()),
            compute,
            started: Instant::now(),
            presets: std::sync::OnceLock::new(),
            config,
        })))
    }

    /// The number of games in memory.
    pub fn game_count(&self) -> usize {
        self.0.games.read().map_or(0, |g| g.len())
    }

    /// Computer tasks waiting for a worker now.
    pub fn queued_tasks(&self) -> usize {
        self.0.compute.queued()
    }

    /// Computer tasks being worked on now.
    pub fn running_tasks(&self) -> usize {
        self.0.compute.running()
    }

    /// Plays the pending throws and computer replies of every game in memory, in the
    /// background: after a restart, the games where a person waits for the server go on.
    pub fn resume(&self) {
        let slots: Vec<Arc<GameSlot>> = match self.0.games.read() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for slot in slots {
            self.wake(&slot);
        }
    }

    /// Watches a game: the receiver gets the state index after every change (an action, a
    /// throw, a computer move or an undo). The basis of live updates to a game's viewers.
    ///
    /// # Errors
    /// [`AppError::NotFound`] for an unknown game.
    pub async fn subscribe(
        &self,
        id: &str,
    ) -> Result<tokio::sync::broadcast::Receiver<usize>, AppError> {
        Ok(self.slot(id).await?.updates.subscribe())
    }

    pub(crate) fn config(&self) -> &Config {
        &self.0.config
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.0.limits
    }

    /// The rulesets that have endgame tables on this server, in order.
    pub fn table_rulesets(&self) -> Vec<&str> {
        self.0.tables.rulesets()
    }

    fn now_ms(&self) -> u64 {
        self.0.started.elapsed().as_millis() as u64
    }

    /// The game `id`, from memory or else from the database; marks it as seen, and sets it
    /// going if it waits for the server.
    pub(crate) async fn slot(&self, id: &str) -> Result<Arc<GameSlot>, AppError> {
        let found = self.0.games.read().map_err(poisoned)?.get(id).cloned();
        let slot = match found {
            Some(slot) => slot,
            None => self.load(id).await?,
        };
        slot.last_seen.store(self.now_ms(), Ordering::Release);
        // Woken if it waits for a throw or a computer move, or if it is locked now (the task
        // then finds out, once the lock is free).
        let waits = slot.game.try_lock().map_or(true, |g| {
            matches!(g.next(), Next::Chance | Next::Computer(_))
        });
        if waits {
            self.wake(&slot);
        }
        Ok(slot)
    }

    /// Reads a game from the database into memory.
    async fn load(&self, id: &str) -> Result<Arc<GameSlot>, AppError> {
        let unknown = || AppError::NotFound(format!("no game with id '{id}'"));
        // Ids are 16 hex digits: anything else is not looked up.
        if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(unknown());
        }
        let reader = self.0.reader.clone();
        let limits = self.0.limits.clone();
        let tables = self.0.tables.clone();
        let key = id.to_string();
        let loaded = tokio::task::spawn_blocking(move || {
            let found = reader.lock().map_err(poisoned)?.load_game(&key)?;
            Ok::<_, AppError>(found.map(|(row, actions)| {
                let game = rebuild(&row, &actions, &limits, &tables);
                (row, game)
            }))
        })
        .await??;
        let Some((row, game)) = loaded else {
            return Err(unknown());
        };
        let game = game.map_err(|e| {
            eprintln!("qasab serve: game {id} not loaded: {e}");
            AppError::NotFound(format!(
                "game '{id}' is stored but no longer replays under this version's rules"
            ))
        })?;
        let slot = Arc::new(GameSlot::new(row, game));
        Ok(self.keep(slot))
    }

    /// Puts a game in memory, unless another request put it there first (that one is
    /// returned), and drops the least recently used idle games above the limit.
    fn keep(&self, slot: Arc<GameSlot>) -> Arc<GameSlot> {
        let Ok(mut games) = self.0.games.write() else {
            return slot;
        };
        let kept = games
            .entry(slot.row.id.clone())
            .or_insert_with(|| slot)
            .clone();
        let limit = self.config().games_in_memory.max(1);
        if games.len() > limit {
            // Idle: held by nobody but the map (no request, no task, no socket).
            let mut idle: Vec<(u64, String)> = games
                .iter()
                .filter(|(_, s)| Arc::strong_count(s) == 1)
                .map(|(id, s)| (s.last_seen.load(Ordering::Acquire), id.clone()))
                .collect();
            // Down to nine tenths of the limit, so that the scan is not made on every load.
            let excess = games.len() - limit * 9 / 10;
            if idle.len() > excess {
                idle.select_nth_unstable(excess);
                idle.truncate(excess);
            }
            for (_, id) in idle {
                games.remove(&id);
            }
        }
        kept
    }

    /// Sets the game's throws and computer moves going in the background, unless a task
    /// already does it.
    fn wake(&self, slot: &Arc<GameSlot>) {
        if slot.waking.swap(true, Ordering::AcqRel) {
            return;
        }
        let state = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            if let Err(e) = state.advance(&slot).await {
                eprintln!("qasab serve: game {}: {e}", slot.row.id);
            }
            slot.waking.store(false, Ordering::Release);
        });
    }

    /// True while someone watches the game: an open WebSocket, or a read within the window.
    fn watched(&self, slot: &GameSlot) -> bool {
        slot.sockets.load(Ordering::Acquire) > 0
            || self
                .now_ms()
                .saturating_sub(slot.last_seen.load(Ordering::Acquire))
                < self.config().watch_window.as_millis() as u64
    }

    /// Takes one game from the creation budget of `client`.
    pub(crate) fn check_rate(&self, client: std::net::IpAddr) -> Result<(), AppError> {
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
    /// server's throws and computer moves up to a person's decision, and returns the seats'
    /// tokens and the state. `hints` missing: on if a computer player takes part, off in a game
    /// between two people.
    pub(crate) async fn create(
        &self,
        ruleset: String,
        seats: Option<[Option<String>; 2]>,
        actions: Vec<String>,
        hints: Option<bool>,
    ) -> Result<CreatedGame, AppError> {
        let seats = seats.unwrap_or([Some("human".into()), None]);
        let seed = auth::new_seed().map_err(AppError::Internal)?;
        let limits = self.limits().clone();
        // Preparing a player can take a moment (the Tihbat solver solves the ruleset).
        let (mut game, seats) = tokio::task::spawn_blocking(move || {
            let seats = game::fill_seats(&ruleset, seats, &limits)?;
            let mut game = game::new_game(&ruleset, &seats, seed, &limits)?;
            for (i, a) in actions.iter().enumerate() {
                game.apply(a)
                    .map_err(|e| GameError::Record(format!("action {}: {e}", i + 1)))?;
            }
            // What plays, as stored: `strongest` is kept as the player it stood for.
            let seats = game.specs().clone();
            Ok::<_, GameError>((game, seats))
        })
        .await??;
        let hints = hints.unwrap_or_else(|| seats.iter().any(|s| s != "human"));
        game.set_hints(hints);
        game.set_tables(self.0.tables.of(game.rules()));
        let mut tokens: [Option<String>; 2] = [None, None];
        for p in Player::ALL {
            if seats[p.index()] == "human" {
                tokens[p.index()] = Some(auth::new_token().map_err(AppError::Internal)?);
            }
        }
        let row = GameRow {
            id: auth::new_game_id().map_err(AppError::Internal)?,
            ruleset: game.ruleset(),
            seats,
            seed,
            token_hashes: tokens.clone().map(|t| t.map(|t| auth::hash_token(&t))),
            created: now_secs(),
            hints,
        };
        let stored = game.action_texts();
        let names = game.seat_names();
        let slot = Arc::new(GameSlot::new(row.clone(), game));
        slot.last_seen.store(self.now_ms(), Ordering::Release);
        self.0
            .writer
            .write(Write::Insert {
                row: row.clone(),
                actions: stored,
            })
            .await?;
        let slot = self.keep(slot);
        if slot.has_person {
            self.advance(&slot).await?;
        } else {
            self.wake(&slot);
        }
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
    /// storing each decision with the throws after it before the next. A game between two
    /// computer players goes on only while watched, one decision per
    /// [`Config::computer_pace`], and waits for one of the turns of such games
    /// (`watched_turns`) before it asks for a decision.
    pub(crate) async fn advance(&self, slot: &Arc<GameSlot>) -> Result<(), AppError> {
        let _turn = slot.advancing.lock().await;
        let mut last_decision: Option<Instant> = None;
        // Held from before a decision of a game between computers is asked for until it is
        // stored.
        let mut watched_turn = None;
        loop {
            let mut game = slot.game.lock().await;
            match game.next() {
                Next::Human(_) | Next::Over => return Ok(()),
                Next::Chance => {
                    let index = game.index();
                    self.commit_from(slot, &mut game, index).await?;
                    if game.index() == index {
                        // No outcome to throw (not a state the core makes).
                        return Ok(());
                    }
                }
                Next::Computer(_) => {
                    let priority = if slot.has_person {
                        Priority::Owed
                    } else {
                        if !self.watched(slot) {
                            return Ok(());
                        }
                        if let Some(at) = last_decision {
                            let wait = self.config().computer_pace.saturating_sub(at.elapsed());
                            if !wait.is_zero() {
                                drop(game);
                                tokio::time::sleep(wait).await;
                                continue;
                            }
                        }
                        if watched_turn.is_none() {
                            drop(game);
                            watched_turn = Some(
                                self.0
                                    .watched_turns
                                    .acquire()
                                    .await
                                    .map_err(AppError::internal)?,
                            );
                            // The game may have changed, or lost its watchers, meanwhile.
                            continue;
                        }
                        Priority::Watched
                    };
                    // A person waits for the computer's whole turn; a game between computers
                    // goes one decision at a time, at its pace.
                    let Some(job) = game.computer_job(slot.has_person) else {
                        return Ok(());
                    };
                    let version = game.version();
                    drop(game);
                    let chosen = self
                        .0
                        .compute
                        .submit(priority, job)
                        .map_err(|_| {
                            AppError::Internal(anyhow!("the computer queue refused a move"))
                        })?
                        .await
                        .map_err(AppError::internal)?;
                    last_decision = Some(Instant::now());
                    let mut game = slot.game.lock().await;
                    if game.version() != version {
                        // An undo replaced the state while the computer thought.
                        watched_turn = None;
                        continue;
                    }
                    if chosen.is_empty() {
                        return Err(AppError::Internal(anyhow!(
                            "the computer player found no move at {}",
                            version.0
                        )));
                    }
                    let index = game.index();
                    for action in chosen {
                        if let Err(e) = game.play(action) {
                            game.truncate(index);
                            return Err(e.into());
                        }
                    }
                    self.commit_from(slot, &mut game, index).await?;
                    watched_turn = None;
                }
            }
        }
    }

    /// Applies a person's action, given in the game's notation, and the server's throws after
    /// it, and stores them ([`AppState::commit_from`]).
    pub(crate) async fn commit(
        &self,
        slot: &GameSlot,
        game: &mut Game,
        text: &str,
    ) -> Result<(), AppError> {
        let index = game.index();
        game.apply(text)?;
        self.commit_from(slot, game, index).await
    }

    /// Plays the throws that come next, then stores every action from `index` on (a decision
    /// already applied in memory and those throws) as one write, committed before it returns:
    /// one sync for the lot rather than one per action. If storing fails the game is taken
    /// back to `index`.
    async fn commit_from(
        &self,
        slot: &GameSlot,
        game: &mut Game,
        index: usize,
    ) -> Result<(), AppError> {
        let thrown = self.throw_all(game);
        let actions = game.action_texts_from(index);
        if let Err(e) = thrown {
            game.truncate(index);
            return Err(e);
        }
        if actions.is_empty() {
            return Ok(());
        }
        let write = Write::Append {
            game: slot.row.id.clone(),
            index,
            actions,
        };
        if let Err(e) = self.0.writer.write(write).await {
            game.truncate(index);
            return Err(e.into());
        }
        slot.changed(game.index());
        Ok(())
    }

    /// Plays the game's throws while the sticks are to be thrown, each drawn from fresh bits
    /// of the operating system's random source.
    fn throw_all(&self, game: &mut Game) -> Result<(), AppError> {
        while game.next() == Next::Chance {
            let fresh = auth::new_seed().map_err(AppError::Internal)?;
            let Some(throw) = game.throw(fresh) else {
                break;
            };
            game.play(throw)?;
        }
        Ok(())
    }

    /// Takes a game back to its first `len` actions, on disk and then in memory.
    pub(crate) async fn take_back(
        &self,
        slot: &GameSlot,
        game: &mut Game,
        len: usize,
    ) -> Result<(), AppError> {
        self.0
            .writer
            .write(Write::Truncate {
                game: slot.row.id.clone(),
                len,
            })
            .await?;
        game.truncate(len);
        slot.changed(len);
        Ok(())
    }
}
