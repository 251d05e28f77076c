//! Player specs: a player is written like a ruleset, `random`, `random(seed=7)`,
//! `mcts(level=3)`. Each agent takes an explicit seed: the `seed=` key of its spec, or else the
//! seed the game driver derives for its seat (see [`crate::rng`]).

use std::fmt;

use qasab_core::ruleset::split_spec;
use thiserror::Error;

/// A parsed agent spec: a name and `key=value` options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent name.
    pub name: String,
    /// Options in the order given.
    pub options: Vec<(String, String)>,
}

/// Why an agent spec was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AgentError {
    /// Not of the form `name(key=value,...)`.
    #[error("bad player spec '{spec}': {message}; expected e.g. random or random(seed=7)")]
    Syntax {
        /// The spec.
        spec: String,
        /// What is wrong.
        message: String,
    },
    /// No agent has this name.
    #[error("unknown player '{name}'; valid players: {}", valid.join(", "))]
    UnknownAgent {
        /// The name given.
        name: String,
        /// The valid names.
        valid: Vec<&'static str>,
    },
    /// The agent has no such option.
    #[error("player {agent} has no option '{key}'; valid options: {}", valid.join(", "))]
    UnknownKey {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
        /// Valid keys.
        valid: Vec<&'static str>,
    },
    /// A bad option value.
    #[error("player {agent} option {key}={value} is not valid; expected {expected}")]
    BadValue {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// The agent cannot play this ruleset.
    #[error("player {agent} cannot play {ruleset}: {why}")]
    NotAvailable {
        /// The agent.
        agent: String,
        /// The ruleset.
        ruleset: String,
        /// Why.
        why: String,
    },
}

impl AgentSpec {
    /// Parses `name` or `name(key=value,...)`.
    ///
    /// # Errors
    /// [`AgentError::Syntax`].
    pub fn parse(spec: &str) -> Result<AgentSpec, AgentError> {
        let s = split_spec(spec).map_err(|message| AgentError::Syntax {
            spec: spec.to_string(),
            message,
        })?;
        for (i, (k, _)) in s.options.iter().enumerate() {
            if s.options[..i].iter().any(|(k2, _)| k2 == k) {
                return Err(AgentError::Syntax {
                    spec: spec.to_string(),
                    message: format!("option '{k}' is given twice"),
                });
            }
        }
        Ok(AgentSpec {
            name: s.name.to_string(),
            options: s
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        })
    }

    /// Checks that every key is one of `valid`.
    ///
    /// # Errors
    /// [`AgentError::UnknownKey`] for the first other key.
    pub fn check_keys(&self, valid: &[&'static str]) -> Result<(), AgentError> {
        match self
            .options
            .iter()
            .find(|(k, _)| !valid.contains(&k.as_str()))
        {
            Some((k, _)) => Err(AgentError::UnknownKey {
                agent: self.name.clone(),
                key: k.clone(),
                valid: valid.to_vec(),
            }),
            None => Ok(()),
        }
    }

    /// The value of option `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `seed=` option, if given.
    ///
    /// # Errors
    /// [`AgentError::BadValue`] if it is not a `u64`.
    pub fn seed(&self) -> Result<Option<u64>, AgentError> {
        match self.get("seed") {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| AgentError::BadValue {
                agent: self.name.clone(),
                key: "seed".into(),
                value: v.into(),
                expected: "an integer from 0 to 18446744073709551615".into(),
            }),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.options.is_empty() {
            let opts: Vec<String> = self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", opts.join(","))?;
        }
        Ok(())
    }
}
