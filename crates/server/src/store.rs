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
//! operating-system crash (`NORMAL` would survive only the first). The cost, one sync per
//! action, is small beside the pace of a game.

use std::path::Path;

use rusqlite::{Connection, params};

/// The schema version written to `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    ruleset  TEXT NOT NULL,
    seat1    TEXT NOT NULL,
    seat2    TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    token1   TEXT,
    token2   TEXT,
    created  INTEGER NOT NULL
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
    /// The secret seed of the game's throws and computer players.
    pub seed: u64,
    /// The SHA-256 of each human seat's token, hex; `None` for a computer seat.
    pub token_hashes: [Option<String>; 2],
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
}

/// The open database.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (or creates) the database at `path` and its tables.
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
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(&format!("PRAGMA user_version={SCHEMA_VERSION}"))?;
        Ok(Store { conn })
    }

    /// Stores a new game with its first actions (those of an imported record), in one
    /// transaction.
    ///
    /// # Errors
    /// A SQLite error; nothing is stored then.
    pub fn insert_game(&mut self, row: &GameRow, actions: &[String]) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, ruleset, seat1, seat2, seed, token1, token2, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
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
            ],
        )?;
        {
            let mut insert =
                tx.prepare("INSERT INTO actions (game, idx, action) VALUES (?1, ?2, ?3)")?;
            for (i, a) in actions.iter().enumerate() {
                insert.execute(params![row.id, i as i64, a])?;
            }
        }
        tx.commit()
    }

    /// Appends the action at `index` of a game.
    ///
    /// # Errors
    /// A SQLite error, including an index already taken.
    pub fn append_action(
        &mut self,
        game: &str,
        index: usize,
        action: &str,
    ) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT INTO actions (game, idx, action) VALUES (?1, ?2, ?3)",
            params![game, index as i64, action],
        )?;
        Ok(())
    }

    /// Deletes the actions of a game from `len` on.
    ///
    /// # Errors
    /// A SQLite error.
    pub fn truncate_actions(&mut self, game: &str, len: usize) -> rusqlite::Result<()> {
        self.conn.execute(
            "DELETE FROM actions WHERE game = ?1 AND idx >= ?2",
            params![game, len as i64],
        )?;
        Ok(())
    }

    /// Every game with its actions in order, oldest game first.
    ///
    /// # Errors
    /// A SQLite error.
    pub fn load_all(&self) -> rusqlite::Result<Vec<(GameRow, Vec<String>)>> {
        let mut games = self.conn.prepare(
            "SELECT id, ruleset, seat1, seat2, seed, token1, token2, created
             FROM games ORDER BY created, id",
        )?;
        let rows = games
            .query_map([], |r| {
                Ok(GameRow {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    seats: [r.get(2)?, r.get(3)?],
                    seed: r.get::<_, i64>(4)? as u64,
                    token_hashes: [r.get(5)?, r.get(6)?],
                    created: r.get(7)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut actions = self
            .conn
            .prepare("SELECT action FROM actions WHERE game = ?1 ORDER BY idx")?;
        rows.into_iter()
            .map(|row| {
                let list = actions
                    .query_map([&row.id], |r| r.get(0))?
                    .collect::<rusqlite::Result<Vec<String>>>()?;
                Ok((row, list))
            })
            .collect()
    }
}
