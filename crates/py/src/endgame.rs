//! `qasab.endgame`: exact endgame tables (docs/ENDGAMES.md), built, read and probed from
//! Python.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use qasab_ai::search::endgame::{
    self, BuildSpec, Checkpoint, EndgameError, Probe, TableFile, TableSet, file as table_file,
};
use qasab_core::AnyRuleset;

use crate::{PyState, QasabError, parse_ruleset};

pyo3::create_exception!(
    qasab._qasab,
    NotInTableError,
    QasabError,
    "The position is not in the endgame table (nor, at a player's turn, an end of its turn)."
);

fn error(e: EndgameError) -> PyErr {
    match e {
        EndgameError::NotInTable(_) => NotInTableError::new_err(e.to_string()),
        e => QasabError::new_err(e.to_string()),
    }
}

fn answer<'py>(
    py: Python<'py>,
    state: Option<&PyState>,
    p: &Probe,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", p.player.index())?;
    d.set_item("chance", p.chance)?;
    d.set_item("value", p.value)?;
    d.set_item("value_if_limits_win", p.value_hi)?;
    d.set_item("win", p.win)?;
    d.set_item("loss", p.loss)?;
    d.set_item(
        "draw",
        p.win.zip(p.loss).map(|(w, l)| (1.0 - w - l).max(0.0)),
    )?;
    let moves = pyo3::types::PyList::empty(py);
    for m in &p.moves {
        let item = PyDict::new(py);
        item.set_item("move", &m.text)?;
        if let Some(state) = state {
            let id = state
                .inner
                .string_to_action(&m.text)
                .map_err(QasabError::new_err)?;
            item.set_item("action", id)?;
        }
        item.set_item("value", m.value)?;
        moves.append(item)?;
    }
    d.set_item("moves", moves)?;
    Ok(d)
}

/// Probes `state` in the table file or directory of tables `tables`: a dict with the player to
/// throw or to move (`player`), whether it is a chance node, the exact `value` for him (+1 a
/// win, -1 a loss, 0 play that never ends), at a chance node his chances to `win`, to `loss`
/// and of a `draw`, and at a player's turn every legal decision with its action id and value.
#[pyfunction]
#[pyo3(signature = (state, tables))]
pub(crate) fn endgame_probe<'py>(
    py: Python<'py>,
    state: &PyState,
    tables: PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    let rules: AnyRuleset = parse_ruleset(&state.inner.ruleset())?;
    let probe = probe_id(&rules, &state.inner.state().position_id(), &tables)?;
    answer(py, Some(state), &probe)
}

/// As `endgame_probe`, for the position `position_id` of `ruleset` (without action ids).
#[pyfunction]
pub(crate) fn endgame_probe_position<'py>(
    py: Python<'py>,
    ruleset: &str,
    position_id: &str,
    tables: PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = parse_ruleset(ruleset)?;
    let probe = probe_id(&rules, position_id, &tables)?;
    answer(py, None, &probe)
}

fn probe_id(rules: &AnyRuleset, id: &str, tables: &std::path::Path) -> PyResult<Probe> {
    if tables.is_dir() {
        TableSet::open_dir(tables, rules)
            .and_then(|set| set.probe(id))
            .map_err(error)
    } else {
        let table = TableFile::open(tables).map_err(error)?;
        endgame::probe(&table, rules, id).map_err(error)
    }
}

/// The sanctuaries of `state` (docs/ENDGAMES.md, "Fortresses"): a dict from each side's name
/// to the squares of its units that no enemy piece can ever reach and that it never has to
/// move, or `None` for a game or an ending where they decide nothing.
#[pyfunction]
pub(crate) fn endgame_sanctuaries<'py>(
    py: Python<'py>,
    state: &PyState,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    sanctuaries(
        py,
        &state.inner.ruleset(),
        &state.inner.state().position_id(),
    )
}

/// As `endgame_sanctuaries`, for the position `position_id` of `ruleset`.
#[pyfunction]
pub(crate) fn endgame_sanctuaries_position<'py>(
    py: Python<'py>,
    ruleset: &str,
    position_id: &str,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    sanctuaries(py, ruleset, position_id)
}

fn sanctuaries<'py>(
    py: Python<'py>,
    ruleset: &str,
    id: &str,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let rules: AnyRuleset = parse_ruleset(ruleset)?;
    let found = qasab_core::endgame::sanctuaries_of(&rules, id)
        .map_err(|e| QasabError::new_err(e.to_string()))?;
    let Some(found) = found else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    for p in qasab_core::Player::ALL {
        let squares: Vec<&str> = found[p].iter().map(|s| s.square.as_str()).collect();
        d.set_item(rules.seat_name(p), squares)?;
    }
    Ok(Some(d))
}

/// Builds the table of every position reachable from the positions `seeds` (ids, each at a
/// throw), or with `pieces` = (W, B) of every position with at most those pieces, under
/// `ruleset`; writes it to `out` and returns its header as JSON text. The build stops with
/// the reason past `max_memory_mb` megabytes (default: the memory available). `pending_cap`
/// bounds a turn's pending throws of one kind while it throws on (default: the command's).
/// With `checkpoint_every` (seconds), the build keeps its progress in `out` + `.partial`, and
/// `resume` goes on from it; the file goes once the table is written.
#[pyfunction]
#[pyo3(signature = (ruleset, seeds, out, bank_cap, count_cap, max_positions, pieces=None, max_memory_mb=None, pending_cap=None, checkpoint_every=None, resume=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn endgame_build(
    py: Python<'_>,
    ruleset: &str,
    seeds: Vec<String>,
    out: PathBuf,
    bank_cap: u16,
    count_cap: i32,
    max_positions: usize,
    pieces: Option<(u8, u8)>,
    max_memory_mb: Option<u64>,
    pending_cap: Option<u8>,
    checkpoint_every: Option<f64>,
    resume: bool,
) -> PyResult<String> {
    let rules = parse_ruleset(ruleset)?;
    let every = checkpoint_every
        .map(|s| {
            std::time::Duration::try_from_secs_f64(s).map_err(|_| {
                QasabError::new_err(format!(
                    "checkpoint_every: {s} is not a number of seconds (0 or more)"
                ))
            })
        })
        .transpose()?;
    if resume && every.is_none() {
        return Err(QasabError::new_err(
            "resume: a build resumes from its progress file; give checkpoint_every too",
        ));
    }
    let checkpoint = every.map(|every| Checkpoint::beside(&out, every, resume));
    let spec = BuildSpec {
        seeds,
        pieces: pieces.map(|(w, b)| [w, b]),
        bank_cap,
        count_cap,
        pending_cap: pending_cap.unwrap_or(qasab_core::EssenceCaps::default().pending),
        max_positions,
        max_bytes: endgame::memory_bound(max_memory_mb),
        checkpoint: checkpoint.clone(),
        ..BuildSpec::default()
    };
    let built = py
        .detach(|| endgame::build(&rules, &spec, &mut |_| {}))
        .map_err(error)?;
    table_file::write(&out, &built.header, built.entries).map_err(error)?;
    if let Some(c) = &checkpoint {
        c.remove().map_err(error)?;
    }
    serde_json::to_string(&built.header).map_err(|e| QasabError::new_err(e.to_string()))
}

/// The header of a table file as JSON text, after checking the file.
#[pyfunction]
pub(crate) fn endgame_header(path: PathBuf) -> PyResult<String> {
    let table = TableFile::open(&path).map_err(error)?;
    serde_json::to_string(&table.header).map_err(|e| QasabError::new_err(e.to_string()))
}

/// Verifies a table file (docs/ENDGAMES.md): returns the positions checked and the largest
/// difference from one Bellman step; raises `QasabError` naming what fails.
#[pyfunction]
pub(crate) fn endgame_verify(py: Python<'_>, path: PathBuf) -> PyResult<(usize, f64)> {
    let table = TableFile::open(&path).map_err(error)?;
    let shown = path.display().to_string();
    let report = py
        .detach(|| endgame::verify(&table, &shown))
        .map_err(error)?;
    Ok((report.positions, report.max_error))
}
