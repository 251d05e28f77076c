//! The Tihbat rules in plain language, with the options in force and their sources.

use std::fmt::Write as _;

use crate::player::Player;

use super::ruleset::{Chain, CycleSplit, EmptySide, Origin, Ruleset, Singleton};

/// Plain-language rules for `qasab rules tihbat(...)`.
pub(crate) fn rules_text(r: &Ruleset) -> String {
    let mut s = String::new();
    let first = if r.first == Player::One {
        "South"
    } else {
        "North"
    };
    let n = r.seeds;
    let _ = writeln!(
        s,
        "Tihbat: a 2x2 mancala of Taourirt, north-eastern Morocco"
    );
    let _ = writeln!(s, "Ruleset: {r}");
    let _ = writeln!(s);
    let mut rule = |id: &str, text: String, source: &str| {
        let _ = writeln!(s, "{id}  {text}");
        let _ = writeln!(s, "      [{source}]");
    };
    rule(
        "T-1",
        "Two rows of two pits, no stores. South owns A and B, North owns C and D. \
         Sowing runs anticlockwise: A -> B -> C -> D -> A."
            .into(),
        "Mancala World, after Kinast 2006",
    );
    rule(
        "T-2",
        format!(
            "{n} counters in each pit ({} in all). {first} moves first. (seeds={n}, first={})",
            4 * u32::from(n),
            first.to_lowercase()
        ),
        "seeds: Mancala World; who starts: project default, the sources are silent",
    );
    let origin = match r.origin {
        Origin::Sow => "On later laps the emptied pit is sown again. (origin=sow)",
        Origin::Skip => "On later laps the emptied pit is skipped. (origin=skip)",
    };
    rule(
        "T-3",
        format!(
            "On your turn take all the counters of one of your pits and sow them one by one, \
             anticlockwise, starting with the pit you emptied. One lap only. {origin}"
        ),
        "Mancala World and the seed text; later laps: Ludii's includeSelf default",
    );
    let chain = match r.chain {
        Chain::None => "Only that pit is captured. (chain=none)",
        Chain::OwnSide => {
            "Then, if the pit before it is also yours and holds 2, 4, 6 or 8, it is captured too. \
             (chain=own-side)"
        }
    };
    rule(
        "T-4",
        format!(
            "If the last counter lands in one of your own pits and that pit then holds 2, 4, 6 \
             or 8 counters, you capture them. {chain}"
        ),
        "Mancala World; the chain option from the seed's label owareChainOwnSideOnly",
    );
    let single = match r.singleton {
        Singleton::Null => {
            "A single counter goes back into its own pit: the board is unchanged and the turn passes. (singleton=null)"
        }
        Singleton::Illegal => {
            "A single counter may not be sown while your other pit holds more; if neither pit holds more than one, you pass. (singleton=illegal)"
        }
        Singleton::Forward => "A single counter is sown into the next pit. (singleton=forward)",
    };
    rule(
        "T-5",
        single.into(),
        "the literal rule gives the null move; the others are options",
    );
    let empty = match r.empty {
        EmptySide::Pass => {
            "If both your pits are empty you pass until counters reach them. (empty=pass)"
        }
        EmptySide::End => {
            "If both your pits are empty the game ends; each player takes the counters on his own side. (empty=end)"
        }
    };
    rule(
        "T-6",
        format!("{empty} The game ends when every counter is captured."),
        "seed text only",
    );
    let when = if r.repetition == 2 {
        "for the second time (the first repetition)".to_string()
    } else {
        format!("for the {}th time", r.repetition)
    };
    let split = match r.cycle {
        CycleSplit::Equal => {
            "each player adds half of the counters left on the board (cycle=equal)"
        }
        CycleSplit::OwnSide => "each player adds the counters in his own pits (cycle=own-side)",
    };
    rule(
        "T-7",
        format!(
            "When a position (the four pits and the side to move) occurs {when} since the last \
             capture, the game ends and {split}."
        ),
        "seed text only; own-side division after the Abapa awari rules",
    );
    rule(
        "T-8",
        "The player who captured more counters wins; equal totals are a draw.".into(),
        "Mancala World",
    );
    s
}
