//! The table file: a header, the positions' keys and values in key order, and a checksum
//! (the format is documented in docs/ENDGAMES.md).
//!
//! ```text
//! "QASAB-EG"            8 bytes, the magic
//! version               u32, little-endian (1)
//! header length H       u32
//! header                H bytes of JSON (Header)
//! padding               zero bytes to a multiple of 8
//! N entries of 32 bytes, by key: key (16 bytes), then four f32: value, value with the limits
//!                       counted as the mover's wins, chance to win, chance to lose (the
//!                       mover's: the player to throw)
//! checksum              SHA-256 of every byte before it (32 bytes)
//! ```

use std::io::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::EndgameError;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"QASAB-EG";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// Bytes of one entry.
pub const ENTRY: usize = 32;

/// What a table holds and how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// How the positions were chosen: `"pieces"` (every position with at most `pieces` on the
    /// board) or `"from"` (every position reachable from `seeds`).
    pub domain: String,
    /// White's and Black's most pieces on the board.
    pub pieces: [u8; 2],
    /// The seed positions' ids (`from` tables), to rebuild the positions from; empty for a
    /// `pieces` table, whose seeds are every placement of up to `pieces`.
    pub seeds: Vec<String>,
    /// The bank cap of the positions' essence.
    pub bank_cap: u16,
    /// The cap on Ludii's track counts in the positions' essence.
    pub count_cap: i32,
    /// The cap on a turn's pending throws of one kind while it throws on (accumulated throws,
    /// L-5) in the positions' essence; a file that does not give it has none (255).
    #[serde(default = "no_pending_cap")]
    pub pending_cap: u8,
    /// How positions are keyed.
    pub index: String,
    /// Positions in the table.
    pub positions: u64,
    /// The value iteration's stopping tolerance.
    pub tolerance: f64,
    /// The largest change of a value in the last sweep.
    pub residual: f64,
    /// Whether a safety limit (a turn's throw cap) can end play from some position, so that
    /// the two values bound the true one.
    pub limits: bool,
    /// Seconds the build took.
    pub build_seconds: f64,
    /// Positions the player to throw wins for certain.
    pub wins: u64,
    /// Positions he loses for certain.
    pub losses: u64,
    /// Positions where play never ends, for certain (neither side can force the end).
    pub draws: u64,
    /// The rest: the throws decide.
    pub mixed: u64,
    /// The largest expected number of throws a certain win takes, the winner hurrying and the
    /// loser delaying; `None` if no position is a certain win.
    pub longest_win_throws: Option<f64>,
}

fn no_pending_cap() -> u8 {
    u8::MAX
}

impl Header {
    /// The bounds of the positions' essence.
    pub fn caps(&self) -> qasab_core::EssenceCaps {
        qasab_core::EssenceCaps {
            bank: self.bank_cap,
            counts: self.count_cap,
            pending: self.pending_cap,
        }
    }
}

/// The index scheme of version 1.
pub const INDEX: &str = "sha256-128 of the essence's position id, sorted";

/// One position's stored values, for the player to throw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The value (+1 a win, −1 a loss, 0 play that never ends), a safety limit counted as
    /// the mover's loss.
    pub value: f32,
    /// The value with a safety limit counted as the mover's win.
    pub value_hi: f32,
    /// The chance to win under optimal play.
    pub win: f32,
    /// The chance to lose under optimal play.
    pub loss: f32,
}

/// What the player to throw is sure of under optimal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// He wins for certain.
    Win,
    /// He loses for certain.
    Loss,
    /// Play never ends, for certain.
    Draw,
    /// The throws decide.
    Mixed,
}

impl Entry {
    /// The two values as `p` sees them when `thrower` is to throw: the value with the limits
    /// counted as `p`'s losses, and as his wins.
    pub fn bounds_for(&self, thrower: qasab_core::Player, p: qasab_core::Player) -> (f64, f64) {
        let (v, vh) = (f64::from(self.value), f64::from(self.value_hi));
        if thrower == p { (v, vh) } else { (-vh, -v) }
    }

    /// What the player to throw is sure of, the chances read to within 1e-6 (the files store
    /// 32-bit floats).
    pub fn certainty(&self) -> Certainty {
        if self.win >= 1.0 - 1e-6 {
            Certainty::Win
        } else if self.loss >= 1.0 - 1e-6 {
            Certainty::Loss
        } else if self.win <= 1e-6 && self.loss <= 1e-6 {
            Certainty::Draw
        } else {
            Certainty::Mixed
        }
    }
}

/// Writes a table: entries are sorted by key here.
///
/// # Errors
/// The file cannot be written.
pub fn write(
    path: &Path,
    header: &Header,
    mut entries: Vec<([u8; 16], Entry)>,
) -> Result<(), EndgameError> {
    entries.sort_by_key(|e| e.0);
    let json = serde_json::to_vec(header).expect("a header serialises");
    let mut out = Vec::with_capacity(64 + json.len() + entries.len() * ENTRY);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    while out.len() % 8 != 0 {
        out.push(0);
    }
    for (key, e) in &entries {
        out.extend_from_slice(key);
        for x in [e.value, e.value_hi, e.win, e.loss] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    let io = |e: std::io::Error| EndgameError::Io {
        path: path.display().to_string(),
        why: e.to_string(),
    };
    let tmp = path.with_extension("partial");
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(&out).map_err(io)?;
    f.sync_all().map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// A table read into memory, its checksum checked.
#[derive(Clone, Debug)]
pub struct TableFile {
    /// The header.
    pub header: Header,
    bytes: Vec<u8>,
    entries_at: usize,
}

impl TableFile {
    /// Reads and checks a table file.
    ///
    /// # Errors
    /// [`EndgameError::Corrupt`] naming what is wrong, or [`EndgameError::Io`].
    pub fn open(path: &Path) -> Result<TableFile, EndgameError> {
        let bytes = std::fs::read(path).map_err(|e| EndgameError::Io {
            path: path.display().to_string(),
            why: e.to_string(),
        })?;
        Self::from_bytes(bytes).map_err(|why| EndgameError::Corrupt {
            path: path.display().to_string(),
            why,
        })
    }

    /// Checks and reads a table's bytes.
    ///
    /// # Errors
    /// What is wrong with them, in one line.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<TableFile, String> {
        if bytes.len() < 16 + 32 || &bytes[..8] != MAGIC {
            return Err("not a Qasab endgame table (no QASAB-EG header)".into());
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(format!(
                "format version {version}; this build reads version {VERSION}"
            ));
        }
        let h = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        let body = bytes.len() - 32;
        if 16 + h > body {
            return Err(format!(
                "truncated: the header says {h} bytes, the file is shorter"
            ));
        }
        let header: Header = serde_json::from_slice(&bytes[16..16 + h])
            .map_err(|e| format!("the header is not valid: {e}"))?;
        let entries_at = (16 + h).div_ceil(8) * 8;
        let expected = (header.positions as usize)
            .checked_mul(ENTRY)
            .and_then(|n| n.checked_add(entries_at))
            .ok_or("the header's position count is impossible")?;
        if expected != body {
            return Err(format!(
                "truncated or padded: {} positions need {} bytes before the checksum, the file has {body}",
                header.positions, expected
            ));
        }
        let sum = Sha256::digest(&bytes[..body]);
        if sum.as_slice() != &bytes[body..] {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let file = TableFile {
            header,
            bytes,
            entries_at,
        };
        for i in 1..file.len() {
            if file.key(i - 1) >= file.key(i) {
                return Err(format!("entries out of key order at {i}"));
            }
        }
        Ok(file)
    }

    /// Positions in the file.
    pub fn len(&self) -> usize {
        self.header.positions as usize
    }

    /// Whether the file holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn key(&self, i: usize) -> &[u8] {
        let at = self.entries_at + i * ENTRY;
        &self.bytes[at..at + 16]
    }

    /// Entry `i`, in key order.
    pub fn entry(&self, i: usize) -> ([u8; 16], Entry) {
        let at = self.entries_at + i * ENTRY;
        let f = |k: usize| {
            f32::from_le_bytes(
                self.bytes[at + 16 + 4 * k..at + 20 + 4 * k]
                    .try_into()
                    .expect("4 bytes"),
            )
        };
        let mut key = [0; 16];
        key.copy_from_slice(&self.bytes[at..at + 16]);
        (
            key,
            Entry {
                value: f(0),
                value_hi: f(1),
                win: f(2),
                loss: f(3),
            },
        )
    }

    /// The entry of `key`, by binary search.
    pub fn find(&self, key: &[u8; 16]) -> Option<Entry> {
        let (mut a, mut b) = (0, self.len());
        while a < b {
            let m = (a + b) / 2;
            match self.key(m).cmp(key.as_slice()) {
                std::cmp::Ordering::Less => a = m + 1,
                std::cmp::Ordering::Greater => b = m,
                std::cmp::Ordering::Equal => return Some(self.entry(m).1),
            }
        }
        None
    }
}
