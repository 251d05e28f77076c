//! Tihbat ruleset options (research §6.4, rules T-1..T-9) and its canonical string.

use crate::game::PositionIdError;
use crate::options::{OptionDef, ValueError, Values, choice_enum, choice_option, int_option};
use crate::player::Player;
use crate::ruleset::{Beginning, Ruleset as RulesetTrait, ruleset_strings};

use super::State;

/// The ruleset name.
pub const NAME: &str = "tihbat";

/// Largest `seeds` value. A pit then holds at most `4 × 60 = 240` counters, which fits a byte.
pub const MAX_SEEDS: u8 = 60;

/// Largest occurrence count accepted by `repetition=N`.
pub const MAX_REPETITION: u8 = 50;

choice_enum!(
    /// Whether a capture also takes the preceding own pit (T-4, ambiguity D1).
    pub Chain {
        /// Only the pit of the last counter is captured (default; Mancala World).
        None = "none",
        /// After a capture, the preceding pit is captured too if it is the mover's and holds
        /// 2, 4, 6 or 8 (the seed's label "owareChainOwnSideOnly").
        OwnSide = "own-side",
    }
);

choice_enum!(
    /// What happens to the origin pit on the second and later laps (T-3, ambiguity D2).
    pub Origin {
        /// The origin is sown on every lap (default; Ludii's `includeSelf`).
        Sow = "sow",
        /// The origin receives only the first counter; later laps skip it.
        Skip = "skip",
    }
);

choice_enum!(
    /// What a pit holding a single counter may do (T-5, ambiguity D3).
    pub Singleton {
        /// The counter goes back into its own pit: a null move that passes the turn (default).
        Null = "null",
        /// Sowing a single counter is illegal while the mover has a larger pit; with nothing larger
        /// the mover passes.
        Illegal = "illegal",
        /// The single counter is sown into the next pit.
        Forward = "forward",
    }
);

choice_enum!(
    /// What happens when the player to move has no counters (T-6, ambiguity D4).
    pub EmptySide {
        /// The player passes until counters reach his pits (default; seed text).
        Pass = "pass",
        /// The game ends and each player takes the counters on his own side.
        End = "end",
    }
);

choice_enum!(
    /// How the counters left on the board are divided when a position repeats (T-7, §7).
    pub CycleSplit {
        /// Equally: each player adds half of them (default; seed text, Allis/Romein–Bal awari).
        Equal = "equal",
        /// Each player takes the counters in his own pits (Abapa-style human rule).
        OwnSide = "own-side",
    }
);

/// Every Tihbat option, in documented (canonical) order.
const OPTION_DEFS: &[OptionDef<Ruleset>] = &[
    int_option!(seeds: u8, "seeds", 1..=MAX_SEEDS, "", "T-2", "counters in each pit at the start"),
    choice_option!(
        Chain,
        chain,
        "chain",
        "T-4, D1",
        "none: only the pit of the last counter is captured; own-side: the preceding pit \
         is captured too when it is the mover's and holds 2, 4, 6 or 8"
    ),
    choice_option!(
        Origin,
        origin,
        "origin",
        "T-3, D2",
        "whether the emptied pit is sown again on the second and later laps"
    ),
    choice_option!(
        Singleton,
        singleton,
        "singleton",
        "T-5, D3",
        "a pit with one counter: null puts it back (the turn passes); illegal forbids it \
         while a larger pit exists; forward sows it into the next pit"
    ),
    choice_option!(
        EmptySide,
        empty,
        "empty",
        "T-6, D4",
        "a player with no counters passes, or the game ends with each side keeping its \
         own counters"
    ),
    OptionDef {
        key: "repetition",
        values: Values::Text("first | 2..=50"),
        help: "the game ends when a position (pits and side to move) occurs for the second \
               time (first), or for the N-th time",
        rules: "T-7, D5",
        get: |r| match r.repetition {
            2 => "first".into(),
            n => n.to_string(),
        },
        set: |r, v| {
            r.repetition = if v == "first" {
                2
            } else {
                v.parse::<u8>()
                    .ok()
                    .filter(|n| (2..=MAX_REPETITION).contains(n))
                    .ok_or_else(|| {
                        ValueError::Expected(format!(
                            "'first' or an occurrence count from 2 to {MAX_REPETITION} \
                             (2 is the same as first)"
                        ))
                    })?
            };
            Ok(())
        },
    },
    choice_option!(
        CycleSplit,
        cycle,
        "cycle",
        "T-7, §7",
        "at a repetition the counters left are divided equally, or each player takes the \
         counters on his side"
    ),
    OptionDef {
        key: "first",
        values: Values::Choice(&["south", "north"]),
        help: "who moves first",
        rules: "T-2, D6",
        get: |r| SEATS[r.first.index()].into(),
        set: |r, v| {
            r.first = match v {
                "south" => Player::One,
                "north" => Player::Two,
                _ => return Err(ValueError::Expected("south | north".into())),
            };
            Ok(())
        },
    },
];

/// The seats' names, South first.
const SEATS: [&str; 2] = ["south", "north"];

/// A complete Tihbat ruleset. `Ruleset::default()` is the research default.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    /// Counters in each pit at the start (T-2). Default 7.
    pub seeds: u8,
    /// Chain capture (T-4). Default [`Chain::None`].
    pub chain: Chain,
    /// The origin pit on later laps (T-3). Default [`Origin::Sow`].
    pub origin: Origin,
    /// Single-counter moves (T-5). Default [`Singleton::Null`].
    pub singleton: Singleton,
    /// A player without counters (T-6). Default [`EmptySide::Pass`].
    pub empty: EmptySide,
    /// The occurrence of a position that ends the game (T-7): 2 means the first repetition.
    pub repetition: u8,
    /// Division of the counters left at a repetition (T-7). Default [`CycleSplit::Equal`].
    pub cycle: CycleSplit,
    /// Who moves first (T-2). Default South ([`Player::One`]).
    pub first: Player,
}

impl Default for Ruleset {
    fn default() -> Self {
        Ruleset {
            seeds: 7,
            chain: Chain::None,
            origin: Origin::Sow,
            singleton: Singleton::Null,
            empty: EmptySide::Pass,
            repetition: 2,
            cycle: CycleSplit::Equal,
            first: Player::One,
        }
    }
}

impl Ruleset {
    /// The research defaults with `seeds` counters per pit.
    ///
    /// # Panics
    /// If `seeds` is 0 or above [`MAX_SEEDS`].
    pub fn with_seeds(seeds: u8) -> Self {
        assert!(
            (1..=MAX_SEEDS).contains(&seeds),
            "seeds must be 1..={MAX_SEEDS}"
        );
        Ruleset {
            seeds,
            ..Ruleset::default()
        }
    }

    /// Total number of counters in the game.
    pub fn total(&self) -> u32 {
        4 * u32::from(self.seeds)
    }
}

impl RulesetTrait for Ruleset {
    type State = State;

    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "Tihbat: a 2x2 mancala from Morocco; sowing starts in the emptied pit; even captures up to 8 on your own side"
    }

    fn option_defs() -> &'static [OptionDef<Ruleset>] {
        OPTION_DEFS
    }

    fn defaults(&self) -> Ruleset {
        Ruleset::default()
    }

    fn initial_state(&self) -> State {
        State::new(*self)
    }

    fn state_from_id(&self, id: &str) -> Result<State, PositionIdError> {
        State::from_id(*self, id)
    }

    fn seat_name(&self, p: Player) -> &'static str {
        SEATS[p.index()]
    }

    fn rules_text(&self) -> String {
        super::text::rules_text(self)
    }

    fn beginning(&self) -> Beginning {
        Beginning::Seat(self.first)
    }
}

ruleset_strings!(Ruleset, presets: [Ruleset::default()]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_prints_as_bare_name() {
        assert_eq!(Ruleset::default().to_string(), "tihbat");
        assert_eq!("tihbat()".parse::<Ruleset>().unwrap(), Ruleset::default());
        assert_eq!(
            "tihbat(seeds=7,repetition=2)"
                .parse::<Ruleset>()
                .unwrap()
                .to_string(),
            "tihbat"
        );
    }

    #[test]
    fn canonical_order_is_documented_order() {
        let r: Ruleset = "tihbat(first=north, cycle=own-side, seeds=3, repetition=3)"
            .parse()
            .unwrap();
        assert_eq!(
            r.to_string(),
            "tihbat(seeds=3,repetition=3,cycle=own-side,first=north)"
        );
        assert_eq!(r.to_string().parse::<Ruleset>().unwrap(), r);
    }

    #[test]
    fn errors_name_the_valid_choices() {
        let e = "tihbat(chain=all)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("none | own-side"), "{e}");
        let e = "tihbat(seed=3)".parse::<Ruleset>().unwrap_err().to_string();
        assert!(e.contains("valid options: seeds, chain, origin"), "{e}");
        let e = "tihbat(seeds=0)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("from 1 to 60"), "{e}");
        let e = "tihbat(repetition=1)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("'first'"), "{e}");
        let e = "tihbat(seeds=3,seeds=4)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than once"), "{e}");
        let e = "mancala".parse::<Ruleset>().unwrap_err().to_string();
        assert!(e.contains("unknown ruleset 'mancala'"), "{e}");
    }
}
