//! Rulesets and their canonical strings.
//!
//! A ruleset is written `name(key=value,...)`, as OpenSpiel writes game strings. The canonical
//! form lists, in the ruleset's documented option order, only the options whose value differs
//! from the preset's default, and drops the parentheses when there are none: `tihbat`,
//! `tihbat(seeds=5,cycle=own-side)`. Parsing accepts any order, spaces after commas, and explicit
//! default values; printing the parsed value gives the canonical form, which parses back to the
//! same ruleset.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use thiserror::Error;

use crate::game::{GameState, PositionIdError};
use crate::player::Player;

pub use crate::options::OptionDoc;
use crate::options::{self, ApplyError, OptionDef, ValueError, Values};

/// A ruleset: the immutable rules of one game with all its options (OpenSpiel's `Game`).
///
/// `Display` prints the canonical string and `FromStr` reads any valid string; they round-trip.
pub trait Ruleset:
    Clone
    + fmt::Debug
    + PartialEq
    + Eq
    + Hash
    + fmt::Display
    + FromStr<Err = RulesetError>
    + Send
    + Sync
    + 'static
{
    /// The state type of this game.
    type State: GameState<Ruleset = Self>;

    /// The preset's name (`tihbat`).
    fn name(&self) -> &'static str;

    /// One line saying what the game is.
    fn title(&self) -> &'static str;

    /// The options in documented (canonical) order, each declared once: parsing, the
    /// canonical string and the option documentation all come from these.
    fn option_defs() -> &'static [OptionDef<Self>];

    /// The ruleset of this preset with every option at its default.
    fn defaults(&self) -> Self;

    /// Checks the combination of options (each value already being one its option takes).
    ///
    /// # Errors
    /// [`RulesetError::Invalid`] saying why.
    fn check(&self) -> Result<(), RulesetError> {
        Ok(())
    }

    /// A fuller refusal of a key that is not an option of this ruleset, where the game has one
    /// (the Ludii presets explain the keys of the other Tâb presets).
    fn unknown_option(&self, key: &str) -> Option<RulesetError> {
        let _ = key;
        None
    }

    /// The options' documentation, in documented order.
    fn options() -> Vec<OptionDoc> {
        Self::option_defs().iter().map(OptionDef::doc).collect()
    }

    /// The current value of an option as text, `None` for an unknown key.
    fn option_value(&self, key: &str) -> Option<String> {
        Self::option_defs()
            .iter()
            .find(|d| d.key == key)
            .map(|d| (d.get)(self))
    }

    /// The preset's default value of an option as text.
    fn default_value(&self, key: &str) -> Option<String> {
        self.defaults().option_value(key)
    }

    /// Every value of every option that takes one of a fixed set of values, as `(key, value)`
    /// in documented order (numeric options are not listed). Whether a value is allowed with a
    /// preset's other options is for parsing to say.
    fn choice_values() -> Vec<(&'static str, &'static str)> {
        Self::option_defs()
            .iter()
            .flat_map(|d| match d.values {
                Values::Choice(names) => names.iter().map(|&v| (d.key, v)).collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// The initial state of a game under these rules.
    fn initial_state(&self) -> Self::State;

    /// Reads a position id ([`GameState::position_id`]) into a state under these rules.
    ///
    /// # Errors
    /// [`PositionIdError`] naming the problem, including a position these rules cannot reach
    /// (wrong number of pieces, say).
    fn state_from_id(&self, id: &str) -> Result<Self::State, PositionIdError>;

    /// The name of a seat ("south", "north"; "white", "black").
    fn seat_name(&self, p: Player) -> &'static str;

    /// The rules in plain language, with the option values in force and the source of each rule.
    fn rules_text(&self) -> String;

    /// Who makes the first move: a seat, or whoever wins an opening of throws.
    fn beginning(&self) -> Beginning;

    /// The seat with a given name, accepting any case.
    fn seat_by_name(&self, name: &str) -> Option<Player> {
        Player::ALL
            .into_iter()
            .find(|&p| self.seat_name(p).eq_ignore_ascii_case(name))
    }
}

/// Who makes the first move of a game ([`Ruleset::beginning`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beginning {
    /// This seat moves first.
    Seat(Player),
    /// An opening decides: the seats throw in turn, `first` first, and whoever first throws
    /// `throw` (in words: "a tâb (a throw of 1)", "a 1") makes the first move.
    FirstToThrow {
        /// The seat that throws first in the opening.
        first: Player,
        /// The throw that ends the opening, in words.
        throw: &'static str,
    },
}

/// Writes the canonical string of a ruleset: its name, then the options that differ from the
/// preset's defaults in documented order.
pub fn write_canonical<R: Ruleset>(r: &R, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    options::write_canonical(f, r.name(), R::option_defs(), r, &r.defaults())
}

/// Reads a ruleset string of a game whose presets are `presets`, each given by its defaults:
/// the string's name picks the preset whose [`Ruleset::name`] it is, and its options are
/// applied to that preset's defaults ([`RulesetString::apply`]).
///
/// # Errors
/// [`RulesetError::Syntax`] for a malformed string, [`RulesetError::UnknownName`] listing the
/// presets' names, or the first error of applying the options.
pub(crate) fn parse_preset<R: Ruleset>(s: &str, presets: &[R]) -> Result<R, RulesetError> {
    let parsed = RulesetString::parse(s)?;
    let Some(base) = presets.iter().find(|r| r.name() == parsed.name) else {
        return Err(RulesetError::UnknownName {
            name: parsed.name.to_string(),
            valid: presets.iter().map(Ruleset::name).collect(),
        });
    };
    parsed.apply(base.clone())
}

/// Implements `Display` (the canonical string, [`write_canonical`]) and `FromStr` (the
/// options applied to the named preset's defaults, [`parse_preset`]) for a game's ruleset
/// type, which states only its presets, each by its defaults, in the order an unknown name's
/// error lists them: `ruleset_strings!(Ruleset, presets: [Ruleset::default()]);`.
macro_rules! ruleset_strings {
    ($ty:ty, presets: $presets:expr) => {
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                $crate::ruleset::write_canonical(self, f)
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::ruleset::RulesetError;

            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                $crate::ruleset::parse_preset(s, &$presets)
            }
        }
    };
}
pub(crate) use ruleset_strings;

/// Why a ruleset string was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RulesetError {
    /// The string is not of the form `name(key=value,...)`.
    #[error(
        "bad ruleset string '{input}': {message}; expected name(key=value,...), e.g. tihbat(seeds=5)"
    )]
    Syntax {
        /// The string given.
        input: String,
        /// What is wrong.
        message: String,
    },
    /// No ruleset has this name.
    #[error("unknown ruleset '{name}'; valid rulesets: {}", valid.join(", "))]
    UnknownName {
        /// The name given.
        name: String,
        /// The valid names.
        valid: Vec<&'static str>,
    },
    /// The ruleset has no option with this key.
    #[error("{ruleset} has no option '{key}'; valid options: {}", valid.join(", "))]
    UnknownKey {
        /// The ruleset.
        ruleset: &'static str,
        /// The key given.
        key: String,
        /// The valid keys.
        valid: Vec<&'static str>,
    },
    /// The value is not one the option accepts.
    #[error("{ruleset} option {key}={value} is not valid; expected {expected}")]
    BadValue {
        /// The ruleset.
        ruleset: &'static str,
        /// The option.
        key: &'static str,
        /// The value given.
        value: String,
        /// The accepted values.
        expected: String,
    },
    /// The same key was given twice.
    #[error("{ruleset} option '{key}' is given more than once")]
    DuplicateKey {
        /// The ruleset.
        ruleset: &'static str,
        /// The repeated key.
        key: String,
    },
    /// Each value is valid but the combination is not.
    #[error("{ruleset}: {reason}")]
    Invalid {
        /// The ruleset.
        ruleset: &'static str,
        /// Why the combination is rejected.
        reason: String,
    },
}

/// A ruleset string split into its name and `key=value` pairs, not yet checked against any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetString<'a> {
    /// The ruleset name.
    pub name: &'a str,
    /// The options in the order given.
    pub options: Vec<(&'a str, &'a str)>,
}

/// Splits a `name(key=value,...)` string (rulesets, agent specs) into its parts; the error is a
/// phrase saying what is wrong.
///
/// # Errors
/// A description of the first problem.
pub fn split_spec(input: &str) -> Result<RulesetString<'_>, String> {
    let s = input.trim();
    if s.is_empty() {
        return Err("it is empty".into());
    }
    let (name, rest) = match s.find('(') {
        Some(i) => (s[..i].trim(), Some(&s[i + 1..])),
        None => (s, None),
    };
    if name.is_empty() {
        return Err("the name is missing".into());
    }
    if let Some(c) = name.chars().find(|&c| !is_name_char(c)) {
        return Err(format!("unexpected character '{c}' in the name"));
    }
    let mut options = Vec::new();
    if let Some(rest) = rest {
        let Some(body) = rest.trim_end().strip_suffix(')') else {
            return Err("missing ')' at the end".into());
        };
        if body.contains('(') || body.contains(')') {
            return Err("unbalanced parentheses".into());
        }
        if !body.trim().is_empty() {
            for part in body.split(',') {
                let Some((k, v)) = part.split_once('=') else {
                    let part = part.trim();
                    return Err(if part.is_empty() {
                        "an empty option (two commas, or a trailing comma)".into()
                    } else {
                        format!("option '{part}' has no '=value'")
                    });
                };
                let (k, v) = (k.trim(), v.trim());
                if k.is_empty() || !k.chars().all(is_name_char) {
                    return Err(format!("bad option key '{k}'"));
                }
                if v.is_empty() || !v.chars().all(is_value_char) {
                    return Err(format!("bad value '{v}' for option '{k}'"));
                }
                options.push((k, v));
            }
        }
    }
    Ok(RulesetString { name, options })
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn is_value_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')
}

impl<'a> RulesetString<'a> {
    /// Splits `name` or `name(key=value,...)`. Surrounding spaces and spaces around `,`, `=`
    /// and the parentheses are allowed.
    ///
    /// # Errors
    /// [`RulesetError::Syntax`] naming the first problem.
    pub fn parse(input: &'a str) -> Result<Self, RulesetError> {
        split_spec(input).map_err(|message| RulesetError::Syntax {
            input: input.to_string(),
            message,
        })
    }

    /// Applies the options to `base`, a preset's defaults, and checks the combination
    /// ([`Ruleset::check`]).
    ///
    /// # Errors
    /// The first [`RulesetError`] met: an unknown or repeated key, a bad value, or a
    /// combination the ruleset refuses.
    pub fn apply<R: Ruleset>(&self, mut base: R) -> Result<R, RulesetError> {
        let ruleset = base.name();
        options::apply(&mut base, R::option_defs(), &self.options).map_err(|e| match e {
            ApplyError::DuplicateKey(key) => RulesetError::DuplicateKey { ruleset, key },
            ApplyError::UnknownKey(key) => {
                base.unknown_option(&key)
                    .unwrap_or_else(|| RulesetError::UnknownKey {
                        ruleset,
                        key,
                        valid: R::option_defs().iter().map(|d| d.key).collect(),
                    })
            }
            ApplyError::Value { key, value, error } => match error {
                ValueError::Expected(expected) => RulesetError::BadValue {
                    ruleset,
                    key,
                    value,
                    expected,
                },
                ValueError::Refused(reason) => RulesetError::Invalid { ruleset, reason },
            },
        })?;
        base.check()?;
        Ok(base)
    }
}

/// Reads an integer in `lo..=hi`.
///
/// # Errors
/// [`RulesetError::BadValue`] giving the range.
pub fn parse_int_in(
    ruleset: &'static str,
    key: &'static str,
    value: &str,
    lo: u32,
    hi: u32,
) -> Result<u32, RulesetError> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| RulesetError::BadValue {
            ruleset,
            key,
            value: value.to_string(),
            expected: format!("an integer from {lo} to {hi}"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_names_and_options() {
        let r = RulesetString::parse(" tihbat( seeds = 5 , chain=own-side ) ").unwrap();
        assert_eq!(r.name, "tihbat");
        assert_eq!(r.options, vec![("seeds", "5"), ("chain", "own-side")]);
        assert_eq!(RulesetString::parse("tihbat()").unwrap().options, vec![]);
        assert_eq!(
            RulesetString::parse("tab(p_white=9/16)").unwrap().options,
            vec![("p_white", "9/16")]
        );
    }

    #[test]
    fn rejects_malformed_strings() {
        for bad in [
            "",
            "(",
            "tihbat(",
            "tihbat(seeds)",
            "tihbat(seeds=)",
            "tihbat(=5)",
            "tihbat(a=1,)",
            "tihbat(a=1,,b=2)",
            "tih bat",
            "tihbat(a=1))",
            "tihbat((a=1)",
            "tihbat(a=1)x",
            "tihbat(a=b c)",
        ] {
            let e = RulesetString::parse(bad).unwrap_err();
            assert!(matches!(e, RulesetError::Syntax { .. }), "{bad}: {e}");
        }
    }
}
