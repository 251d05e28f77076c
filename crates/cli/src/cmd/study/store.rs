//! Where a study keeps its games: `DIR/study.sqlite`, one row per chunk of game pairs.
//!
//! A chunk is named by its variant's canonical ruleset string, its match with the match's two
//! players (`main:greedy,greedy`, `skill:mcts(level=2),greedy`), its first game pair and its
//! number of pairs; its games are stored as JSON, which gives every number back exactly. The
//! seed and the program version that the games depend on are kept once in `meta`: a run with
//! another seed is refused rather than mixed in. Variants, games and players may change
//! between runs: the chunks already played that the study needs are reused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use qasab_ai::play::study::{ChunkGames, ChunkKey, StudySpec};
use rusqlite::{Connection, OptionalExtension, params};

/// The store of one study directory.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// What the stored games depend on besides the chunk and its players: the seed and the program.
pub fn identity(spec: &StudySpec) -> String {
    serde_json::json!({
        "seed": spec.seed,
        "version": env!("CARGO_PKG_VERSION"),
    })
    .to_string()
}

impl Store {
    /// Opens (or creates) `dir/study.sqlite` for `spec`.
    ///
    /// # Errors
    /// If the file cannot be opened, or holds a study with other players, seed or version.
    pub fn open(dir: &Path, spec: &StudySpec) -> Result<Store> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join("study.sqlite");
        let conn =
            Connection::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS chunks (
                 ruleset TEXT NOT NULL, game TEXT NOT NULL, first INTEGER NOT NULL,
                 pairs INTEGER NOT NULL, games TEXT NOT NULL,
                 PRIMARY KEY (ruleset, game, first, pairs));",
        )
        .with_context(|| format!("{} is not a study store", path.display()))?;
        let wanted = identity(spec);
        let stored: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'identity'", [], |r| {
                r.get(0)
            })
            .optional()?;
        match stored {
            None => {
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('identity', ?1)",
                    params![wanted],
                )?;
            }
            Some(s) if s == wanted => {}
            Some(s) => bail!(
                "{} holds a study with another seed or program version ({s}); this one is {wanted}: choose another --out, or delete the file to start again",
                path.display()
            ),
        }
        Ok(Store { conn, path })
    }

    /// The chunks of `spec` already stored.
    ///
    /// # Errors
    /// If the file cannot be read or a row is corrupt.
    pub fn load(&self, spec: &StudySpec) -> Result<BTreeMap<ChunkKey, ChunkGames>> {
        let mut stmt = self.conn.prepare(
            "SELECT games FROM chunks WHERE ruleset = ?1 AND game = ?2 AND first = ?3 AND pairs = ?4",
        )?;
        let mut out = BTreeMap::new();
        for key in spec.chunks() {
            let row: Option<String> = stmt
                .query_row(Self::params(spec, &key), |r| r.get(0))
                .optional()?;
            if let Some(text) = row {
                let games: ChunkGames = serde_json::from_str(&text).with_context(|| {
                    format!(
                        "{}: a corrupt chunk of {}",
                        self.path.display(),
                        spec.variants[key.variant].rules
                    )
                })?;
                if games.len() as u64 != key.pairs {
                    bail!(
                        "{}: a chunk of {} holds {} pairs instead of {}",
                        self.path.display(),
                        spec.variants[key.variant].rules,
                        games.len(),
                        key.pairs
                    );
                }
                out.insert(key, games);
            }
        }
        Ok(out)
    }

    fn params(spec: &StudySpec, key: &ChunkKey) -> (String, String, i64, i64) {
        let [a, b] = spec.match_players(key.game).expect("a match of the study");
        (
            spec.variants[key.variant].rules.to_string(),
            format!("{}:{a},{b}", key.game.name()),
            key.first as i64,
            key.pairs as i64,
        )
    }

    /// Stores one chunk (committed at once, so that an interrupted run keeps it).
    ///
    /// # Errors
    /// If the row cannot be written.
    pub fn save(&self, spec: &StudySpec, key: &ChunkKey, games: &ChunkGames) -> Result<()> {
        let (ruleset, game, first, pairs) = Self::params(spec, key);
        self.conn
            .execute(
                "INSERT OR REPLACE INTO chunks (ruleset, game, first, pairs, games) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![ruleset, game, first, pairs, serde_json::to_string(games)?],
            )
            .with_context(|| format!("cannot write to {}", self.path.display()))?;
        Ok(())
    }
}
