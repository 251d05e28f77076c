//! The endgame tables of a server ([`Config::tables`](crate::Config::tables)): every table of
//! the directory, read once at the start and grouped by ruleset. A game of a ruleset that has
//! tables gives them to its computer seats and its hints ([`crate::game::Game::set_tables`]).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use qasab_ai::search::endgame::{TableFile, TableSet};
use qasab_core::AnyRuleset;

/// The tables by canonical ruleset string. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Tables(Arc<HashMap<String, Arc<TableSet>>>);

impl Tables {
    /// Every table in `dir` (`*.qeg`, each checked as [`TableFile::open`] checks it), by the
    /// ruleset its header names; none without a directory. A table of a ruleset this build
    /// cannot read is left out, with a line on stderr.
    ///
    /// # Errors
    /// The directory cannot be read, or one of its tables is damaged.
    pub(crate) fn open(dir: Option<&Path>) -> anyhow::Result<Tables> {
        let Some(dir) = dir else {
            return Ok(Tables::default());
        };
        let shown = dir.display();
        let mut named = BTreeSet::new();
        for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {shown}"))? {
            let path = entry
                .with_context(|| format!("cannot read {shown}"))?
                .path();
            if path.extension().is_some_and(|x| x == "qeg") {
                named.insert(TableFile::open(&path)?.header.ruleset);
            }
        }
        let mut by_ruleset = HashMap::new();
        for ruleset in named {
            let rules: AnyRuleset = match ruleset.parse() {
                Ok(rules) => rules,
                Err(e) => {
                    eprintln!("qasab serve: endgame tables of {ruleset} left out: {e}");
                    continue;
                }
            };
            let set = TableSet::open_dir(dir, &rules)?;
            by_ruleset.insert(rules.to_string(), Arc::new(set));
        }
        Ok(Tables(Arc::new(by_ruleset)))
    }

    /// The tables of `rules`, if there are any.
    pub(crate) fn of(&self, rules: &AnyRuleset) -> Option<Arc<TableSet>> {
        self.0.get(&rules.to_string()).cloned()
    }

    /// The rulesets that have tables, in order.
    pub(crate) fn rulesets(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.0.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}
