//! A build's progress kept on disk, so that a stopped build goes on where it stopped
//! (docs/ENDGAMES.md, "Long builds").
//!
//! The file holds the graph built so far, the fingerprints that number its positions, and the
//! positions still waiting to be expanded (as the ids of their essences). A build resumed from
//! it expands the same positions in the same order as one that never stopped, so the table is
//! the same. The file names what it is a build of (a digest of the ruleset, the caps, the
//! turn cap and the seeds) and ends with the SHA-256 of all that comes before; a file of
//! another build, or a damaged one, is refused with the reason.
//!
//! Layout, little-endian: the magic `QASABPT1`, the 32-byte identity, then `expanded` (u64),
//! the seconds spent so far (f64), `limits` (u8), the node count n (u64) and per node its key (16 bytes), thrower (u8: 1
//! White, 2 Black), pieces (two u8) and fingerprint (u128); the node throws (count, then
//! start and end as u32 and the expected throws as f64, one per expanded node); the throws
//! (count, then weight f64, chooser u8: 0 none, 1 White, 2 Black, start and end u32); the
//! targets (count, then u32 each); the waiting ids (count, then each as a u32 length and its
//! UTF-8 bytes); and the digest.

use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use qasab_core::Player;
use sha2::{Digest, Sha256};

use super::EndgameError;
use super::nodes::{Graph, Throw};
use crate::search::hash::BuildPassHasher;

const MAGIC: &[u8; 8] = b"QASABPT1";

/// Where and how often a build keeps its progress.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The file of the stopped build.
    pub path: PathBuf,
    /// How often the progress is written: after the first batch of positions expanded once
    /// this much time has passed since the last write (zero: after every batch). The graph
    /// is also written when it is complete, before the values are solved, if any write was
    /// due by then.
    pub every: Duration,
    /// Go on from the file if it exists (else start afresh); without it, an existing file is
    /// refused rather than overwritten.
    pub resume: bool,
}

impl Checkpoint {
    /// The progress file of a build that writes the table `out`: `out` with `.partial` added.
    pub fn beside(out: &Path, every: Duration, resume: bool) -> Checkpoint {
        let mut path = out.as_os_str().to_owned();
        path.push(".partial");
        Checkpoint {
            path: path.into(),
            every,
            resume,
        }
    }

    /// Removes the progress file, if there is one: done once the table is written.
    ///
    /// # Errors
    /// The file exists and cannot be removed.
    pub fn remove(&self) -> Result<(), EndgameError> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&self.path, e)),
            _ => Ok(()),
        }
    }
}

/// The partial build, as read back.
pub(super) struct Partial {
    pub graph: Graph,
    pub index: HashMap<u128, u32, BuildPassHasher>,
    pub waiting: Vec<Box<str>>,
    pub expanded: usize,
    /// The seconds the build had taken when the file was written.
    pub seconds: f64,
}

fn io(path: &Path, e: std::io::Error) -> EndgameError {
    EndgameError::Io {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// A writer that keeps the SHA-256 of what passes through it.
struct Hashing<W> {
    inner: W,
    digest: Sha256,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.digest.update(bytes);
        self.inner.write_all(bytes)
    }
    fn u8(&mut self, v: u8) -> std::io::Result<()> {
        self.put(&[v])
    }
    fn u32(&mut self, v: u32) -> std::io::Result<()> {
        self.put(&v.to_le_bytes())
    }
    fn u64(&mut self, v: u64) -> std::io::Result<()> {
        self.put(&v.to_le_bytes())
    }
    fn f64(&mut self, v: f64) -> std::io::Result<()> {
        self.put(&v.to_le_bytes())
    }
}

fn player_code(p: Option<Player>) -> u8 {
    match p {
        None => 0,
        Some(Player::One) => 1,
        Some(Player::Two) => 2,
    }
}

/// Writes the build's progress to `path`, through a file beside it renamed into place, so a
/// build stopped while writing leaves the previous file whole.
pub(super) fn save<'a>(
    path: &Path,
    identity: &[u8; 32],
    g: &Graph,
    index: &HashMap<u128, u32, BuildPassHasher>,
    waiting: impl ExactSizeIterator<Item = &'a str>,
    expanded: usize,
    seconds: f64,
) -> Result<(), EndgameError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp).map_err(|e| io(&tmp, e))?;
    let mut w = Hashing {
        inner: BufWriter::with_capacity(1 << 20, file),
        digest: Sha256::new(),
    };
    let mut fps = vec![0u128; g.len()];
    for (&fp, &i) in index {
        fps[i as usize] = fp;
    }
    let write = |w: &mut Hashing<BufWriter<std::fs::File>>| -> std::io::Result<()> {
        w.put(MAGIC)?;
        w.put(identity)?;
        w.u64(expanded as u64)?;
        w.f64(seconds)?;
        w.u8(u8::from(g.limits))?;
        w.u64(g.len() as u64)?;
        for (((key, &thrower), &(white, black)), fp) in
            g.keys.iter().zip(&g.throwers).zip(&g.material).zip(&fps)
        {
            w.put(key)?;
            w.u8(player_code(Some(thrower)))?;
            w.put(&[white, black])?;
            w.put(&fp.to_le_bytes())?;
        }
        w.u64(g.node_throws.len() as u64)?;
        for (&(a, b), &t) in g.node_throws.iter().zip(&g.throw_count) {
            w.u32(a)?;
            w.u32(b)?;
            w.f64(t)?;
        }
        w.u64(g.throws.len() as u64)?;
        for t in &g.throws {
            w.f64(t.weight)?;
            w.u8(player_code(t.chooser))?;
            w.u32(t.start)?;
            w.u32(t.end)?;
        }
        w.u64(g.targets.len() as u64)?;
        for &t in &g.targets {
            w.u32(t)?;
        }
        w.u64(waiting.len() as u64)?;
        for id in waiting {
            w.u32(id.len() as u32)?;
            w.put(id.as_bytes())?;
        }
        let digest = std::mem::take(&mut w.digest).finalize();
        w.inner.write_all(&digest)?;
        w.inner.flush()?;
        w.inner.get_ref().sync_all()
    };
    write(&mut w).map_err(|e| io(&tmp, e))?;
    drop(w);
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))
}

/// A reader that keeps the SHA-256 of what it reads, and says what it was reading when the
/// file ends early.
struct Reading<R> {
    inner: R,
    digest: Sha256,
}

impl<R: Read> Reading<R> {
    fn take(&mut self, buf: &mut [u8]) -> Result<(), String> {
        self.inner
            .read_exact(buf)
            .map_err(|e| format!("it ends early ({e})"))?;
        self.digest.update(&*buf);
        Ok(())
    }
    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut b = [0u8; N];
        self.take(&mut b)?;
        Ok(b)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.bytes::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.bytes()?))
    }
    /// A count of items of `size` bytes each, refused if the file cannot hold that many.
    fn count(&mut self, size: u64, room: u64) -> Result<usize, String> {
        let n = self.u64()?;
        if n.checked_mul(size).is_none_or(|b| b > room) {
            return Err(format!("a count of {n} runs past its end"));
        }
        Ok(n as usize)
    }
}

fn player_of(code: u8) -> Result<Option<Player>, String> {
    match code {
        0 => Ok(None),
        1 => Ok(Some(Player::One)),
        2 => Ok(Some(Player::Two)),
        c => Err(format!("a player code of {c}")),
    }
}

/// Reads the partial build at `path`, if it is one of the build named by `identity`.
pub(super) fn load(path: &Path, identity: &[u8; 32]) -> Result<Partial, EndgameError> {
    let corrupt = |why: String| EndgameError::Corrupt {
        path: path.display().to_string(),
        why: format!("not a sound partial build: {why}"),
    };
    let file = std::fs::File::open(path).map_err(|e| io(path, e))?;
    let room = file.metadata().map_err(|e| io(path, e))?.len();
    let mut r = Reading {
        inner: BufReader::with_capacity(1 << 20, file),
        digest: Sha256::new(),
    };
    let magic: [u8; 8] = r.bytes().map_err(&corrupt)?;
    if &magic != MAGIC {
        return Err(corrupt("it does not start as one".into()));
    }
    let found: [u8; 32] = r.bytes().map_err(&corrupt)?;
    if &found != identity {
        return Err(EndgameError::Corrupt {
            path: path.display().to_string(),
            why: "a stopped build of another table (its ruleset, caps or positions differ); \
                  delete it to start this one"
                .into(),
        });
    }
    let read = |r: &mut Reading<BufReader<std::fs::File>>| -> Result<Partial, String> {
        let expanded = r.u64()? as usize;
        let seconds = r.f64()?;
        let mut g = Graph {
            limits: r.u8()? != 0,
            ..Graph::default()
        };
        let n = r.count(16 + 1 + 2 + 16, room)?;
        let mut index = HashMap::with_capacity_and_hasher(n, BuildPassHasher::default());
        for i in 0..n {
            g.keys.push(r.bytes()?);
            g.throwers
                .push(player_of(r.u8()?)?.ok_or("a node without a thrower")?);
            let [a, b] = r.bytes::<2>()?;
            g.material.push((a, b));
            let fp = u128::from_le_bytes(r.bytes()?);
            if index.insert(fp, i as u32).is_some() {
                return Err("two nodes with one fingerprint".into());
            }
        }
        let expansions = r.count(16, room)?;
        if expansions != expanded || expanded > n {
            return Err(format!(
                "{expansions} expansions for {expanded} expanded of {n} positions"
            ));
        }
        for _ in 0..expansions {
            g.node_throws.push((r.u32()?, r.u32()?));
            g.throw_count.push(r.f64()?);
        }
        let throws = r.count(17, room)?;
        for _ in 0..throws {
            g.throws.push(Throw {
                weight: r.f64()?,
                chooser: player_of(r.u8()?)?,
                start: r.u32()?,
                end: r.u32()?,
            });
        }
        let targets = r.count(4, room)?;
        for _ in 0..targets {
            g.targets.push(r.u32()?);
        }
        let waiting_count = r.count(4, room)?;
        if expanded + waiting_count != n {
            return Err(format!(
                "{expanded} expanded and {waiting_count} waiting of {n} positions"
            ));
        }
        let mut waiting = Vec::with_capacity(waiting_count);
        for _ in 0..waiting_count {
            let len = r.u32()? as usize;
            if len as u64 > room {
                return Err("a position id runs past its end".into());
            }
            let mut id = vec![0u8; len];
            r.take(&mut id)?;
            let id = String::from_utf8(id).map_err(|_| "a position id that is not UTF-8")?;
            waiting.push(id.into_boxed_str());
        }
        // The ranges must lie within what was read.
        for &(a, b) in &g.node_throws {
            if a > b || b as usize > g.throws.len() {
                return Err("a node's throws out of range".into());
            }
        }
        for t in &g.throws {
            if t.start > t.end || t.end as usize > g.targets.len() {
                return Err("a throw's targets out of range".into());
            }
        }
        let bad_target = g.targets.iter().any(|&t| {
            matches!(super::nodes::Target::unpack(t), super::nodes::Target::Node(i) if i as usize >= n)
        });
        if bad_target {
            return Err("a target beyond the positions".into());
        }
        Ok(Partial {
            graph: g,
            index,
            waiting,
            expanded,
            seconds,
        })
    };
    let partial = read(&mut r).map_err(&corrupt)?;
    let digest = r.digest.finalize();
    let mut stored = [0u8; 32];
    r.inner
        .read_exact(&mut stored)
        .map_err(|_| corrupt("it ends before its checksum".into()))?;
    if stored[..] != digest[..] {
        return Err(corrupt("its checksum does not match its contents".into()));
    }
    let mut rest = [0u8; 1];
    if r.inner.read(&mut rest).map_err(|e| io(path, e))? != 0 {
        return Err(corrupt("bytes follow its checksum".into()));
    }
    Ok(partial)
}
