//! Games on disk: a SQLite file holding every game's setup and every action accepted.
//!
//! A game is its row in `games` (ruleset string, seats, secret seed, hashes of the seat tokens)
//! plus its rows in `actions`, in order. Nothing else is stored: the state is rebuilt by
//! replaying the actions through the core, so the file never holds a rule's result that a
//! later build could disagree with.
//!
//! Durability: the database runs in WAL mode with `synchronous=FULL`, and every action is
//! committed before the request that made it is answered. In WAL mode `FULL` syncs the log at
//! every commit, so an acknowledged action survives a killed server and also a power cut or an
//! operating-system crash (`NORMAL` would survive only the first).
//!
//! Group commit: one thread ([`Writer`]) owns the connection that writes. Writes that arrive
//! while it syncs wait, and the next transaction commits all of them with one sync; each
//! write is answered only after that commit, so durability is kept and many games at once cost
//! one sync per batch rather than one per action. Each write of a batch runs in a savepoint of
//! its own, so a failing write fails alone. Reads (a game asked for that is not in memory) use
//! another connection, which WAL lets read while the writer writes.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

/// The schema version written to `PRAGMA user_version`.
/// Version 2 added `games.hints`.
const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    ruleset  TEXT NOT NULL,
    seat1    TEXT NOT NULL,
    seat2    TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    token1   TEXT,
    token2   TEXT,
    created  INTEGER NOT NULL,
    hints    INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS actions (
    game    TEXT NOT NULL REFERENCES games(id),
    idx     INTEGER NOT NULL,
    action  TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
";

/// A game's setup as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game id.
    pub id: String,
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The seats in seat order: `human` or an agent spec.
    pub seats: [String; 2],
    /// The secret seed of the game's computer players (the throws come from the operating
    /// system's random source).
    pub seed: u64,
    /// The SHA-256 of each human seat's token, hex; `None` for a computer seat.
    pub token_hashes: [Option<String>; 2],
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// Whether hints may be asked in the game.
    pub hints: bool,
}

/// The open database.
pub struct Store {
    conn: Connection,
}

/// One change of the database, as the [`Writer`] takes it.
#[derive(Clone, Debug)]
pub enum Write {
    /// A new game with its first actions (those of an imported record).
    Insert {
        /// The game's setup.
        row: GameRow,
        /// Its first actions.
        actions: Vec<String>,
    },
    /// Actions of a game from `index` on: an action and the throws after it, stored together.
    Append {
        /// The game id.
        game: String,
        /// The index of the first action.
        index: usize,
        /// The actions in canonical notation, in order.
        actions: Vec<String>,
    },
    /// Deletes the actions of a game from `len` on (an undo).
    Truncate {
        /// The game id.
        game: String,
        /// The length kept.
        len: usize,
    },
}

const SELECT_GAME: &str =
    "SELECT id, ruleset, seat1, seat2, seed, token1, token2, created, hints FROM games";

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        ruleset: r.get(1)?,
        seats: [r.get(2)?, r.get(3)?],
        seed: r.get::<_, i64>(4)? as u64,
        token_hashes: [r.get(5)?, r.get(6)?],
        created: r.get(7)?,
        hints: r.get(8)?,
    })
}

impl Store {
    /// Opens (or creates) the database at `path` and its tables, bringing a file of an older
    /// schema up to date.
    ///
    /// # Errors
    /// A SQLite error, or a file written by a newer schema.
    pub fn open(path: &Path) -> anyhow::Result<Store> {
        let conn = Connection::open(path)?;
        let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            anyhow::bail!("{}: cannot use WAL mode (got {mode})", path.display());
        }
        conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            anyhow::bail!(
                "{}: written by a newer qasab (schema {version}; this build knows {SCHEMA_VERSION})",
                path.display()
            );
        }
        if version == 1 {
            // Games stored before the setting get its default: hints on where a computer player
            // takes part, off between two people. In one transaction with the new version, so
            // that an interrupted upgrade is made again from the start.
            conn.execute_batch(
                "BEGIN;
                 ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 1;
                 UPDATE games SET hints = 0 WHERE seat1 = 'human' AND seat2 = 'human';
                 PRAGMA user_version=2;
                 COMMIT;",
            )?;
        }
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(&format!("PRAGMA user_version={SCHEMA_VERSION}"))?;
        Ok(Store { conn })
    }

    /// A second connection to the same file, for reading while the writer writes.
    ///
    /// # Errors
    /// A SQLite error.
    pub fn reader(path: &Path) -> rusqlite::Result<Store> {
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(Store { conn })
    }

    /// Makes `writes` in one transaction, each in a savepoint of its own: the answer has one
    /// result per write, and a write that fails leaves no trace while the others are kept.
    ///
    /// # Errors
    /// If the transaction cannot begin or commit; then none of the writes is stored.
    pub fn write_batch(&mut self, writes: &[Write]) -> rusqlite::Result<Vec<rusqlite::Result<()>>> {
        let mut tx = self.conn.transaction()?;
        let mut results = Vec::with_capacity(writes.len());
        for w in writes {
            let mut sp = tx.savepoint()?;
            let result = apply_write(&sp, w);
            if result.is_ok() {
                sp.commit()?;
            } else {
                sp.rollback()?;
            }
            results.push(result);
        }
        tx.commit()?;
        Ok(results)
    }

    /// The ids of every game, oldest first.
    ///
    /// # Errors
    /// A SQLite error.
    pub fn game_ids(&self) -> rusqlite::Result<Vec<String>> {
        self.conn
            .prepare("SELECT id FROM games ORDER BY created, id")?
            .query_map([], |r| r.get(0))?
            .collect()
    }

    /// A game with its actions in order, or `None` if there is no such game.
    ///
    /// # Errors
    /// A SQLite error.
    pub fn load_game(&self, id: &str) -> rusqlite::Result<Option<(GameRow, Vec<String>)>> {
        let row = self
            .conn
            .prepare_cached(&format!("{SELECT_GAME} WHERE id = ?1"))?
            .query_row([id], game_row)
            .optional()?;
        let Some(row) = row else {
            return Ok(None);
        };
        let actions = self
            .conn
            .prepare_cached("SELECT action FROM actions WHERE game = ?1 ORDER BY idx")?
            .query_map([id], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(Some((row, actions)))
    }
}

fn apply_write(conn: &Connection, w: &Write) -> rusqlite::Result<()> {
    match w {
        Write::Insert { row, actions } => {
            conn.execute(
                "INSERT INTO games (id, ruleset, seat1, seat2, seed, token1, token2, created, hints)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    row.id,
                    row.ruleset,
                    row.seats[0],
                    row.seats[1],
                    // SQLite integers are signed: the seed's bits are stored as an i64.
                    row.seed as i64,
                    row.token_hashes[0],
                    row.token_hashes[1],
                    row.created,
                    row.hints,
                ],
            )?;
            let mut insert =
                conn.prepare_cached("INSERT INTO actions (game, idx, action) VALUES (?1, ?2, ?3)")?;
            for (i, a) in actions.iter().enumerate() {
                insert.execute(params![row.id, i as i64, a])?;
            }
        }
        Write::Append {
            game,
            index,
            actions,
        } => {
            let mut insert =
                conn.prepare_cached("INSERT INTO actions (game, idx, action) VALUES (?1, ?2, ?3)")?;
            for (i, a) in actions.iter().enumerate() {
                insert.execute(params![game, (index + i) as i64, a])?;
            }
        }
        Write::Truncate { game, len } => {
            conn.prepare_cached("DELETE FROM actions WHERE game = ?1 AND idx >= ?2")?
                .execute(params![game, *len as i64])?;
        }
    }
    Ok(())
}

/// The most writes committed in one transaction.
const BATCH: usize = 512;

/// A write waiting for the writer, with where to send its result.
type Request = (Write, tokio::sync::oneshot::Sender<rusqlite::Result<()>>);

/// The thread that owns the writing connection and commits writes in groups. Cheap to clone;
/// the thread stops when the last clone is dropped.
#[derive(Clone)]
pub struct Writer {
    requests: std::sync::mpsc::Sender<Request>,
}

impl Writer {
    /// Starts the writer thread with `store`.
    ///
    /// # Errors
    /// If the operating system cannot start a thread.
    pub fn start(mut store: Store) -> std::io::Result<Writer> {
        let (requests, queue) = std::sync::mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("qasab-db-writer".into())
            .spawn(move || {
                while let Ok(first) = queue.recv() {
                    let mut batch = vec![first];
                    while batch.len() < BATCH {
                        match queue.try_recv() {
                            Ok(more) => batch.push(more),
                            Err(_) => break,
                        }
                    }
                    let (writes, replies): (Vec<Write>, Vec<_>) = batch.into_iter().unzip();
                    match store.write_batch(&writes) {
                        Ok(results) => {
                            for (reply, result) in replies.into_iter().zip(results) {
                                let _ = reply.send(result);
                            }
                        }
                        Err(e) => {
                            let text = e.to_string();
                            for reply in replies {
                                let _ = reply.send(Err(rusqlite::Error::ToSqlConversionFailure(
                                    format!("the transaction failed: {text}").into(),
                                )));
                            }
                        }
                    }
                }
            })?;
        Ok(Writer { requests })
    }

    /// Makes a write; the answer comes once it is committed.
    ///
    /// # Errors
    /// The write's SQLite error, or that of its transaction.
    pub async fn write(&self, w: Write) -> rusqlite::Result<()> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let gone =
            || rusqlite::Error::ToSqlConversionFailure("the database writer has stopped".into());
        self.requests.send((w, tx)).map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            ruleset: "tihbat".into(),
            seats: ["human".into(), "human".into()],
            seed: 1,
            token_hashes: [None, None],
            created: 0,
            hints: false,
        }
    }

    fn append(game: &str, index: usize) -> Write {
        Write::Append {
            game: game.into(),
            index,
            actions: vec![format!("a{index}")],
        }
    }

    #[test]
    fn a_failing_write_fails_alone_in_its_batch() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("g.db")).unwrap();
        store
            .write_batch(&[Write::Insert {
                row: row("g"),
                actions: vec![],
            }])
            .unwrap()
            .remove(0)
            .unwrap();
        let results = store
            .write_batch(&[append("g", 0), append("g", 0), append("g", 1)])
            .unwrap();
        assert!(results[0].is_ok() && results[1].is_err() && results[2].is_ok());
        let (_, actions) = store.load_game("g").unwrap().unwrap();
        assert_eq!(actions, ["a0", "a1"]);
        assert!(store.load_game("h").unwrap().is_none());
    }

    #[tokio::test]
    async fn concurrent_writes_are_all_committed_and_answered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.db");
        let writer = Writer::start(Store::open(&path).unwrap()).unwrap();
        writer
            .write(Write::Insert {
                row: row("g"),
                actions: vec![],
            })
            .await
            .unwrap();
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..200 {
            let w = writer.clone();
            tasks.spawn(async move { w.write(append("g", i)).await });
        }
        while let Some(r) = tasks.join_next().await {
            r.unwrap().unwrap();
        }
        let (_, actions) = Store::reader(&path)
            .unwrap()
            .load_game("g")
            .unwrap()
            .unwrap();
        assert_eq!(actions.len(), 200);
    }

    #[test]
    fn a_version_1_file_gets_hints_off_between_two_people_and_on_against_the_computer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, seat1 TEXT NOT NULL,
                 seat2 TEXT NOT NULL, seed INTEGER NOT NULL, token1 TEXT, token2 TEXT,
                 created INTEGER NOT NULL);
                 CREATE TABLE actions (game TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
                 action TEXT NOT NULL, PRIMARY KEY (game, idx)) WITHOUT ROWID;
                 INSERT INTO games VALUES ('people', 'tihbat', 'human', 'human', 7, NULL, NULL, 0);
                 INSERT INTO games VALUES ('first', 'tihbat', 'human', 'solver', 8, NULL, NULL, 0);
                 INSERT INTO games VALUES ('second', 'tab', 'greedy', 'human', 9, NULL, NULL, 0);
                 INSERT INTO games VALUES ('computers', 'tab', 'random', 'greedy', 10, NULL, NULL, 0);
                 PRAGMA user_version=1;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let hints = |id: &str| store.load_game(id).unwrap().unwrap().0.hints;
        assert!(!hints("people"));
        assert!(hints("first") && hints("second") && hints("computers"));
        assert_eq!(store.load_game("people").unwrap().unwrap().0.seed, 7);
        let version: i64 = store
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        // Opening it again changes nothing.
        drop(store);
        let store = Store::open(&path).unwrap();
        assert!(!store.load_game("people").unwrap().unwrap().0.hints);
    }

    #[test]
    fn an_action_and_the_throws_after_it_are_one_write() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("g.db")).unwrap();
        let insert = Write::Insert {
            row: row("g"),
            actions: vec!["a0".into()],
        };
        let append = Write::Append {
            game: "g".into(),
            index: 1,
            actions: vec!["a1".into(), "a2".into(), "a3".into()],
        };
        let results = store.write_batch(&[insert, append]).unwrap();
        assert!(results.iter().all(Result::is_ok));
        let (_, actions) = store.load_game("g").unwrap().unwrap();
        assert_eq!(actions, ["a0", "a1", "a2", "a3"]);
        // A write whose second action clashes with another write stores neither of its own.
        let clash = Write::Append {
            game: "g".into(),
            index: 4,
            actions: vec!["a4".into(), "a5".into()],
        };
        let clash_too = Write::Append {
            game: "g".into(),
            index: 5,
            actions: vec!["b5".into()],
        };
        let results = store.write_batch(&[clash_too, clash]).unwrap();
        assert!(results[0].is_ok() && results[1].is_err());
        let (_, actions) = store.load_game("g").unwrap().unwrap();
        assert_eq!(actions, ["a0", "a1", "a2", "a3", "b5"]);
    }
}
