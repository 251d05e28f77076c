//! Player specs: a player is written like a ruleset, `random`, `random(seed=7)`,
//! `mcts(level=3)`. Each agent takes an explicit seed: the `seed=` key of its spec, or else the
//! seed the game driver derives for its seat (see [`crate::rng`]).

use std::fmt;

use qasab_core::options::{ApplyError, Choice, OptionDef, ValueError, Values, apply};
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
            Some(v) => parse_seed(v).map(Some).map_err(|e| AgentError::BadValue {
                agent: self.name.clone(),
                key: "seed".into(),
                value: v.into(),
                expected: match e {
                    ValueError::Expected(x) | ValueError::Refused(x) => x,
                },
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

/// Applies a spec's options to `target` through `defs`, the player's option definitions, with
/// the machinery of ruleset options ([`qasab_core::options::apply`]): every key must be one of
/// them; then each given option is set, in the definitions' order.
///
/// # Errors
/// [`AgentError::UnknownKey`] listing the keys in documented order, or
/// [`AgentError::BadValue`] for the first value refused.
pub fn apply_options<T>(
    spec: &AgentSpec,
    defs: &[OptionDef<T>],
    target: &mut T,
) -> Result<(), AgentError> {
    let keys: Vec<&'static str> = defs.iter().map(|d| d.key).collect();
    spec.check_keys(&keys)?;
    // In the definitions' order, so that a level is set before what it presets.
    let given: Vec<(&str, &str)> = defs
        .iter()
        .filter_map(|d| spec.get(d.key).map(|v| (d.key, v)))
        .collect();
    apply(target, defs, &given).map_err(|e| match e {
        ApplyError::Value { key, value, error } => AgentError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value,
            expected: match error {
                ValueError::Expected(x) | ValueError::Refused(x) => x,
            },
        },
        // Neither can happen: the keys were checked, and a parsed spec has each key once.
        ApplyError::UnknownKey(key) | ApplyError::DuplicateKey(key) => AgentError::UnknownKey {
            agent: spec.name.clone(),
            key,
            valid: keys.clone(),
        },
    })
}

/// Reads a choice option's value by the names its type declares (the core's [`Choice`]);
/// another value is refused as "one of: a, b, c".
///
/// # Errors
/// [`ValueError::Expected`] listing the names.
pub fn one_of<T: Choice>(text: &str) -> Result<T, ValueError> {
    T::parse(text).map_err(|_| ValueError::Expected(format!("one of: {}", T::NAMES.join(", "))))
}

/// As [`one_of`] for a choice between two names, refused as "a or b".
///
/// # Errors
/// [`ValueError::Expected`] naming both.
pub fn either<T: Choice>(text: &str) -> Result<T, ValueError> {
    T::parse(text).map_err(|_| ValueError::Expected(T::NAMES.join(" or ")))
}

/// The value of a switch option (`transpositions=on`): `on` or `off`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Switch(pub bool);

impl Choice for Switch {
    const CHOICES: &'static [(&'static str, Switch)] =
        &[("on", Switch(true)), ("off", Switch(false))];
    const NAMES: &'static [&'static str] = &["on", "off"];
}

/// What a player spends, as its options set it: on each move (time, iterations, threads,
/// states visited), and once, when it is prepared (the size of the game an exact solver
/// solves, a file it reads). A host's `Limits` are checked against it
/// (`Limits::check`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Milliseconds a move (`time=`), for a player with a time budget.
    pub time_ms: Option<Spend>,
    /// Search iterations a move (`iterations=`, or those of a level).
    pub iterations: Option<Spend>,
    /// Threads a move uses (`threads=`).
    pub threads: Option<Spend>,
    /// States a move may visit (`nodes=`, or those of a level).
    pub nodes: Option<Spend>,
    /// The counters per pit of the Tihbat game that an exact solver solves when it is
    /// prepared.
    pub solver_seeds: Option<u32>,
    /// A file of the host that the player reads when it is prepared: the option that names it,
    /// as the spec writes it (`weights=mine.safetensors`).
    pub file: Option<String>,
}

/// An amount a player spends, with the option that sets it (for messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spend {
    /// The amount, in the unit of the [`Cost`] field.
    pub amount: u64,
    /// The option that sets it, as a spec writes it (`time=500`, `level=5`).
    pub set_by: String,
}

impl Spend {
    /// `amount`, set by the option `set_by`.
    pub fn new(amount: u64, set_by: impl Into<String>) -> Spend {
        Spend {
            amount,
            set_by: set_by.into(),
        }
    }

    /// The amount of option `key` set to it (`time=500`).
    pub fn option(key: &str, amount: u64) -> Spend {
        Spend::new(amount, format!("{key}={amount}"))
    }
}

/// Reads a player's `seed=` value.
///
/// # Errors
/// [`ValueError::Expected`] giving the range of a `u64`.
pub fn parse_seed(text: &str) -> Result<u64, ValueError> {
    text.parse()
        .map_err(|_| ValueError::Expected(format!("an integer from 0 to {}", u64::MAX)))
}

/// The `seed=` option every player takes: checked here, used by whoever makes the agent
/// ([`AgentSpec::seed`]).
pub const fn seed_option<T>() -> OptionDef<T> {
    OptionDef {
        key: "seed",
        values: Values::Text("an integer from 0 to 18446744073709551615"),
        help: "the player's own seed; without it the game derives one for the player's seat",
        rules: "",
        get: |_| String::new(),
        set: |_, v| parse_seed(v).map(|_| ()),
    }
}

/// Splits a comma-separated list of specs, keeping commas inside parentheses:
/// `random(seed=1),solver` → `["random(seed=1)", "solver"]`.
pub fn split_specs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::split_specs;

    #[test]
    fn specs_split_at_top_level_commas() {
        assert_eq!(split_specs("random,solver"), vec!["random", "solver"]);
        assert_eq!(
            split_specs("random(seed=1,x=2), solver"),
            vec!["random(seed=1,x=2)", "solver"]
        );
        assert_eq!(split_specs("random"), vec!["random"]);
    }
}
