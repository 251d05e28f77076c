//! Every ruleset of Qasab behind one type, chosen by name from a ruleset string.

use std::fmt;
use std::str::FromStr;

use crate::ruleset::{OptionDoc, Ruleset, RulesetError, RulesetString};
use crate::{tab, tab_ludii, tihbat};

/// The names of every ruleset, in the order `qasab rules` lists them.
pub const RULESET_NAMES: &[&str] = &[
    "tab",
    "tab-hyde",
    "tab-modern",
    tab_ludii::TAB_NAME,
    tab_ludii::HYDE_NAME,
    tihbat::NAME,
];

/// Any ruleset of any game.
///
/// Generic code is written over [`Ruleset`]; [`with_ruleset!`](crate::with_ruleset) dispatches
/// once from this enum to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyRuleset {
    /// Tâb: `tab`, `tab-hyde`, `tab-modern`.
    Tab(tab::Ruleset),
    /// Tihbat.
    Tihbat(tihbat::Ruleset),
    /// Tâb or at-Tâb wa-d-Dukk as Ludii plays them (`tab-ludii`, `tab-hyde-ludii`).
    TabLudii(tab_ludii::Ruleset),
}

impl AnyRuleset {
    /// The default ruleset of each name, in [`RULESET_NAMES`] order.
    pub fn presets() -> Vec<AnyRuleset> {
        RULESET_NAMES
            .iter()
            .map(|n| n.parse().expect("presets parse"))
            .collect()
    }

    /// The preset name.
    pub fn name(&self) -> &'static str {
        crate::with_ruleset!(self, r => r.name())
    }

    /// One line saying what the game is.
    pub fn title(&self) -> &'static str {
        crate::with_ruleset!(self, r => r.title())
    }

    /// The options of this ruleset's game.
    pub fn options(&self) -> Vec<OptionDoc> {
        match self {
            AnyRuleset::Tab(_) => tab::Ruleset::options(),
            AnyRuleset::Tihbat(_) => tihbat::Ruleset::options(),
            AnyRuleset::TabLudii(_) => tab_ludii::Ruleset::options(),
        }
    }

    /// The value of an option in force.
    pub fn option_value(&self, key: &str) -> Option<String> {
        crate::with_ruleset!(self, r => r.option_value(key))
    }

    /// The preset default of an option.
    pub fn default_value(&self, key: &str) -> Option<String> {
        crate::with_ruleset!(self, r => r.default_value(key))
    }

    /// The rules in plain language.
    pub fn rules_text(&self) -> String {
        crate::with_ruleset!(self, r => r.rules_text())
    }
}

impl fmt::Display for AnyRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::with_ruleset!(self, r => r.fmt(f))
    }
}

impl FromStr for AnyRuleset {
    type Err = RulesetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parsed = RulesetString::parse(s)?;
        match parsed.name {
            tihbat::NAME => Ok(AnyRuleset::Tihbat(s.parse()?)),
            "tab" | "tab-hyde" | "tab-modern" => Ok(AnyRuleset::Tab(s.parse()?)),
            tab_ludii::TAB_NAME | tab_ludii::HYDE_NAME => Ok(AnyRuleset::TabLudii(s.parse()?)),
            other => Err(RulesetError::UnknownName {
                name: other.to_string(),
                valid: RULESET_NAMES.to_vec(),
            }),
        }
    }
}

/// Runs an expression generic over [`Ruleset`] for the concrete ruleset inside an
/// [`AnyRuleset`]: `with_ruleset!(any, r => play(r))`. The binding is a reference.
#[macro_export]
macro_rules! with_ruleset {
    ($any:expr, $r:ident => $body:expr) => {
        match $any {
            $crate::AnyRuleset::Tab($r) => $body,
            $crate::AnyRuleset::Tihbat($r) => $body,
            $crate::AnyRuleset::TabLudii($r) => $body,
        }
    };
}
