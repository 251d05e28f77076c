//! The endgame tables a command plays or rates with (`--tables DIR`, or the directory in
//! `QASAB_TABLES`), and the notes that say so in its report.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, anyhow};
use qasab_ai::search::endgame::{TABLES_ENV, TableSet};
use qasab_core::AnyRuleset;

/// The endgame tables of `rules` in `dir`, or in the directory named by `QASAB_TABLES` when no
/// directory is given; `None` when neither is, or the game has no tables.
///
/// # Errors
/// The directory cannot be read or holds a damaged table.
pub fn tables_for(dir: Option<&Path>, rules: &AnyRuleset) -> Result<Option<Arc<TableSet>>> {
    let from_env = std::env::var_os(TABLES_ENV).map(PathBuf::from);
    let Some(dir) = dir.map(Path::to_path_buf).or(from_env) else {
        return Ok(None);
    };
    tables_in("--tables", &dir, rules)
}

/// The endgame tables of `rules` in `dir`, given by the flag `flag` (named in errors); `None`
/// when it holds none of the ruleset.
///
/// # Errors
/// The directory cannot be read or holds a damaged table.
pub fn tables_in(flag: &str, dir: &Path, rules: &AnyRuleset) -> Result<Option<Arc<TableSet>>> {
    let set = TableSet::open_dir(dir, rules).map_err(|e| anyhow!("{flag}: {e}"))?;
    if set.is_empty() {
        eprintln!("no endgame table of {rules} in {}", dir.display());
        return Ok(None);
    }
    Ok(Some(Arc::new(set)))
}

/// Adds the files of `tables`, if any, to a command's JSON report as `tables`: what the players
/// (or the rating player) consulted. Without tables the report is left as it is.
pub fn note_tables_json(report: &mut serde_json::Value, tables: Option<&Arc<TableSet>>) {
    if let Some(t) = tables {
        report["tables"] = serde_json::json!(t.files().collect::<Vec<_>>());
    }
}

/// The line that ends a command's text report when it used endgame tables, saying what it
/// used them for (`used`); nothing without.
///
/// # Errors
/// Standard output cannot be written.
pub fn note_tables_text(tables: Option<&Arc<TableSet>>, used: &str) -> Result<()> {
    if let Some(t) = tables {
        outln!(
            "Endgame tables {}: {used}.",
            t.files().collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}
