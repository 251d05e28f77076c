//! The rules of a Tâb ruleset in plain language, with the options in force and the sources.

use std::fmt::Write as _;

use crate::grid::HYDE_COLUMNS_TEXT;
use crate::ruleset::Ruleset as _;

use super::rules::{
    Bank, Conversion, End, EnemyEntry, EnemyRow, LimitResult, Opening, Passing, Preset, Reduction,
    Ruleset, Split, Stacking, Survivor, ThrowUse, Timing, Track,
};

/// The order in which the rules are printed: the order in which a player learns them. The
/// board, the track and the pieces; the sticks, who begins and a turn; conversion, capture and
/// the end of the game; then stacks, the enemy home row, which throws must be played, the bank
/// and the safety limits. The ids keep their numbers (the sources' order).
pub(crate) const LEARNING_ORDER: [&str; 17] = [
    "L-1", "L-2", "L-3", "S-1", "L-4", "L-5", "L-9c", "L-16", "L-17", "L-13", "L-14", "L-15",
    "L-10", "L-11", "L-7", "L-8", "L-18",
];

/// Plain-language rules for `qasab rules tab(...)`.
pub(crate) fn rules_text(r: &Ruleset) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", r.title());
    let _ = writeln!(s, "Ruleset: {r}");
    let _ = writeln!(s);
    let n = r.columns;
    let pieces = r.piece_count();
    // The rules are stated in the order of their ids below and printed in LEARNING_ORDER.
    let mut rules: Vec<(&str, String, String)> = Vec::new();
    let mut rule = |id: &'static str, text: String, source: &str| {
        rules.push((id, text, source.to_string()));
    };
    let names = if n == 9 {
        "Lane's letters: White's home row A-I, then K-S, k-s, and Black's home row a-i"
    } else {
        "coordinates: columns a, b, c, ... and rows 1-4 from White's side"
    };
    rule(
        "S-1",
        format!(
            "Four sticks, white on one side. A throw counts the white sides: 1 (tab), 2, 3, 4; none white counts 6. A 1, 4 or 6 gives another throw. Each stick falls white with probability {} (p_white).",
            r.odds
        ),
        "Lane 1836; Wikipedia; Hyde via the Digital Ludeme Project",
    );
    rule(
        "L-1",
        format!("A board of 4 rows and {n} columns (columns={n}). Squares are named with {names}."),
        &format!("Wikipedia (Lane); Hyde: {HYDE_COLUMNS_TEXT}; modern page: 10"),
    );
    rule(
        "L-3",
        format!(
            "Each player has {pieces} pieces (pieces={}), on the first squares of his home row; White's on row 1, Black's on row 4. Every piece starts unconverted.",
            if r.pieces == 0 {
                "all".to_string()
            } else {
                r.pieces.to_string()
            }
        ),
        "Wikipedia; Lane",
    );
    rule("L-4", match r.opening {
        Opening::UntilTab => "The players throw alternately, one throw each, until one throws a tab; other throws count for nothing. That tab is the first throw of his first turn, and he throws on. (opening=until-tab)".into(),
        Opening::Normal => "White begins with an ordinary turn; pieces cannot move before a tab is thrown. (opening=normal)".into(),
    }, "Lane; Carter's notes; Hyde (H-5)");
    rule("L-5", match r.timing {
        Timing::Accumulate => "A turn: throw, and throw again after a 1, 4 or 6, until a 2 or 3; then play the throws one at a time in any order, each throw wholly by one unit (a piece or a stack). (throw_timing=accumulate)".into(),
        Timing::Interleaved => "A turn: throw and play that throw at once; after a 1, 4 or 6 throw again. (throw_timing=interleaved)".into(),
    }, "Lane; Bell; modern page; DLP (Hyde). The interleaved timing is Ludii's model");
    rule("L-7", match r.throw_use {
        ThrowUse::CompulsoryWithExemptions => "A throw that can be played must be played, except a tab that may be banked and a throw whose only moves reduce a stack. The exemptions are judged when the move phase ends: the player may end it (end) only when no throw still pending both must and can be played. (throw_use=compulsory-with-exemptions)".into(),
        ThrowUse::CompulsoryWithEarlyDecline => "A throw that can be played must be played, except a tab that may be banked and a throw whose only moves reduce a stack, which may be declined at once (decline:N), before the other throws are played. (throw_use=compulsory-with-early-decline)".into(),
        ThrowUse::Optional => "Any throw may be left unplayed. (throw_use=optional)".into(),
        ThrowUse::Compulsory => "A throw that can be played must be played. (throw_use=compulsory)".into(),
    }, "Wikipedia (exemption for reducing moves); modern page: optional; Hyde/Ludii: compulsory");
    rule("L-8", match r.bank {
        Bank::AfterAllConverted => "Once all of a player's pieces are converted, tabs he does not play are banked and can be played later as throws of 1. (tab_bank=after-all-converted)".into(),
        Bank::None => "Unplayed throws are lost. (tab_bank=none)".into(),
    }, "Wikipedia: 'allowed to save tab throws for later use'");
    rule(
        "L-9c",
        format!(
            "An unconverted piece moves only with a tab, which converts it {}.{} {}",
            match r.conversion {
                Conversion::OneStep => "and moves it one step (conversion=one-step)",
                Conversion::InPlace => "where it stands (conversion=in-place)",
            },
            if r.tabs_reserved {
                " While a player has an unconverted piece, every tab he plays must convert one if it can. (tabs_reserved=true)"
            } else {
                " Tabs may be used for any move. (tabs_reserved=false)"
            },
            if r.land_on_unconverted {
                "A move may end on one's own unconverted pieces. (land_on_unconverted=true)"
            } else {
                "No move may end on one's own unconverted pieces. (land_on_unconverted=false)"
            },
        ),
        "Wikipedia; Carter; Hyde's unlocking (H-6)",
    );
    rule("L-2", match r.track {
        Track::Loop => "White moves along his home row, back along the second row, along the third row; from its end he goes round the two middle rows again or, once per piece, into Black's home row, which he leaves into the third row. Black's track is the mirror image. No piece returns to its own home row. (track=loop)".into(),
        Track::OneWay => "Each piece runs once along its home row, the second row, the third row and the enemy's home row, and stops at its end; a throw that would go further cannot be played. (track=one-way)".into(),
    }, "Wikipedia (Lane); Hyde (H-8)");
    rule("L-10", match r.enemy_entry {
        EnemyEntry::Once => "A unit may enter the enemy home row only if none of its pieces has been there before. (enemy_entry=once)".into(),
        EnemyEntry::OnceWhileOccupied => "A unit may enter the enemy home row once per piece, and only while the enemy still has a piece there. (enemy_entry=once-while-occupied)".into(),
    }, "Wikipedia; Ludii's Tab.lud");
    rule("L-11", match r.enemy_row {
        EnemyRow::Freeze => "A unit in the enemy home row cannot move at all while its owner has a piece in his own home row. (enemy_row=freeze)".into(),
        EnemyRow::FreezeExit => "A unit in the enemy home row may move along it but not leave it while its owner has a piece in his own home row. (enemy_row=freeze-exit)".into(),
        EnemyRow::FreezeExitUnlessOneStack => "As freeze-exit, but it may also leave when its owner's home-row pieces stand on one square. (enemy_row=freeze-exit-unless-one-stack)".into(),
        EnemyRow::LowestPriority => "A unit in the enemy home row may use a throw only if no unit outside it can. (enemy_row=lowest-priority)".into(),
        EnemyRow::OpponentHomeEmpty => "A unit in the enemy home row may move only when the enemy has no piece left in his home row. (enemy_row=opponent-home-empty)".into(),
        EnemyRow::Free => "Units in the enemy home row move freely. (enemy_row=free)".into(),
    }, "Wikipedia; modern page; Ludii; Hyde (H-12)");
    rule(
        "L-13",
        format!(
            "A piece that lands on its own pieces joins them in a stack, which moves as one unit. {} {}",
            match r.stacking {
                Stacking::Anywhere => "Stacks may form anywhere. (stacking=anywhere)",
                Stacking::MiddleRows =>
                    "Stacks (kings) form only in the two middle rows; landing on an own unit elsewhere is not allowed. (stacking=middle-rows)",
            },
            match r.passing {
                Passing::Free => "Pieces may pass over any piece. (passing=free)",
                Passing::NoOwnInHomeRow =>
                    "A move may not pass or land on an own piece inside one's own home row. (passing=no-own-in-home-row)",
                Passing::NoOwnInHomeRows =>
                    "A move may not pass or land on an own piece inside either home row. (passing=no-own-in-home-rows)",
                Passing::NoneInHomeRow =>
                    "A move may not pass any piece, or land on an own piece, inside one's own home row. (passing=none-in-home-row)",
            }
        ),
        "Wikipedia; modern page; Hyde (H-7, H-9)",
    );
    rule("L-14", match r.split {
        Split::PeelOne => "A tab may move one piece of a stack one step; the rest stay. (split=peel-one)".into(),
        Split::Dissolve => "A tab dissolves a stack: its pieces stay and move one by one afterwards. (split=dissolve)".into(),
        Split::DissolveMoveOne => "A tab dissolves a stack and moves one of its pieces one step. (split=dissolve-move-one)".into(),
        Split::Detach => "A throw smaller than a stack may detach that many pieces, which move together. (split=detach)".into(),
        Split::DetachRemainderOne => "A throw of one less than a stack's size may move that many pieces, leaving one. (split=detach-remainder-one)".into(),
        Split::Never => "Stacks never split. (split=never)".into(),
    }, "Wikipedia: 'a tab throw can be used to break up a stack'; Hyde (H-10); Ludii");
    rule(
        "L-15",
        format!(
            "{} {}",
            match r.reduction {
                Reduction::SquareVisited =>
                    "A stack that moves to a square where one of its pieces has stood or passed before is reduced to one piece; the others leave the board. (reduction=square-visited)",
                Reduction::RowEntered =>
                    "A stack that moves into another row that one of its pieces has been in before is reduced to one piece. (reduction=row-entered)",
                Reduction::SquareLanded =>
                    "A stack that moves to a square where one of its pieces has come to rest before is reduced to one piece. (reduction=square-landed)",
                Reduction::PositionalRows =>
                    "A stack that goes from its owner's third row back to his second row, or leaves the enemy home row, is reduced to one piece. (reduction=positional-rows)",
                Reduction::Off => "Stacks are never reduced. (reduction=off)",
            },
            if r.reduction == Reduction::Off {
                ""
            } else {
                match r.survivor {
                    Survivor::Mover => "The mover chooses the piece that stays. (survivor=mover)",
                    Survivor::Oldest => {
                        "The piece that started furthest along the track stays. (survivor=oldest)"
                    }
                }
            }
        ),
        "Wikipedia ('a square where one of the pieces has been before'; later 'row'); modern page",
    );
    rule(
        "L-16",
        "A unit that lands on enemy pieces captures all of them; passing over never captures."
            .into(),
        "Wikipedia; modern page; Hyde",
    );
    rule("L-17", match r.end {
        End::Elimination => "The player who takes all of the enemy's pieces wins. (end=elimination)".into(),
        End::MostCaptures => "The game ends when a player has no pieces, when every piece stands in its enemy's home row, or when no piece can move; the player who captured more wins, equal is a draw. (end=most-captures)".into(),
    }, "Wikipedia; Hyde (H-13)");
    rule(
        "L-18",
        format!(
            "Safety limits: the game stops after {} turns without a capture, conversion or reduction, after {} turns, after 1000 opening throws, or {}. A stopped game is truncated: {}.",
            if r.no_progress == 0 {
                "any number of".to_string()
            } else {
                r.no_progress.to_string()
            },
            r.turn_cap,
            match r.timing {
                Timing::Accumulate => format!(
                    "when a turn that has thrown {} times would throw again (throw_cap={})",
                    r.throw_cap, r.throw_cap
                ),
                Timing::Interleaved => format!(
                    "when a throw would give another after {} throws in the game (turn_cap x throw_cap, throw_cap={})",
                    r.interleaved_throw_limit(),
                    r.throw_cap
                ),
            },
            match r.limit_result {
                LimitResult::Draw => "nobody wins (limit_result=draw)",
                LimitResult::Material =>
                    "the player with more pieces on the board wins (limit_result=material)",
                LimitResult::Captures =>
                    "the player who captured more wins (limit_result=captures)",
            }
        ),
        "project decision; the sources are silent",
    );
    rules.sort_by_key(|(id, ..)| LEARNING_ORDER.iter().position(|o| o == id));
    for (id, text, source) in rules {
        let _ = writeln!(s, "{id:<6}{text}");
        let _ = writeln!(s, "      [{source}]");
    }
    if r.preset == Preset::Lane && *r == Preset::Lane.ruleset() {
        let _ = writeln!(
            s,
            "\nThese are Lane's rules as the project reads them; every choice above is a ruleset option."
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule is printed once, in the learning order, whatever the options.
    #[test]
    fn rules_print_in_the_learning_order() {
        for preset in Preset::ALL {
            let text = rules_text(&preset.ruleset());
            let ids: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split_whitespace().next())
                .filter(|w| w.starts_with("L-") || w.starts_with("S-"))
                .collect();
            assert_eq!(ids, LEARNING_ORDER, "{}", preset.name());
        }
    }
}
