//! The rules in plain language, the board picture and move descriptions.

use std::fmt::Write as _;

use crate::game::{GameState, Turn};
use crate::grid::Grid;
use crate::player::Player;
use crate::ruleset::Ruleset as _;

use super::moves::Move;
use super::ruleset::{Preset, Ruleset};
use super::state::State;
use crate::view::{Draw, Drawing};

/// Plain-language rules for `qasab rules tab-ludii(...)` and `tab-hyde-ludii(...)`.
pub(super) fn rules_text(r: &Ruleset) -> String {
    let mut s = String::new();
    let n = r.columns();
    let _ = writeln!(s, "{}", r.title());
    let _ = writeln!(s, "Ruleset: {r}");
    let _ = writeln!(
        s,
        "Every rule below is Ludii's ({}, Ludii 1.3.13), checked move by move against recorded Ludii games.",
        r.game().lud_file()
    );
    let _ = writeln!(s);
    let mut rule = |id: &str, text: String, source: &str| {
        let _ = writeln!(s, "{id}  {text}");
        let _ = writeln!(s, "      [Ludii 1.3.13, {source}]");
    };
    let bias = if r.p_white() == crate::sticks::StickOdds::FAIR {
        "fair sticks: 1 = 4/16, 2 = 6/16, 3 = 4/16, 4 = 1/16, 6 = 1/16".to_string()
    } else {
        format!("each stick falls white with probability {}", r.p_white())
    };
    rule(
        "S-1",
        format!(
            "Four two-sided sticks; a throw counts the white sides, and no white side counts 6 ({bias}). \
             Each throw is played at once by one move or pass; a 1, 4 or 6 gives another throw."
        ),
        "both games' dice and turn",
    );
    match r.game() {
        Preset::Tab => {
            rule(
                "LT-1",
                format!(
                    "A board of 4 rows of {n} squares. White starts with one piece on every square of row 1, \
                     Black on every square of row 4. (columns={n})"
                ),
                "Tab.lud",
            );
            rule(
                "LT-2",
                "Opening: while nobody has thrown a 1, the only move is a pass, and a 4 or 6 gives no \
                 other throw. The first 1 is also played as a pass; it gives the same player another \
                 throw and ends the opening for both players."
                    .into(),
                "Tab.lud",
            );
            rule(
                "LT-3",
                "Three tracks: the home track (own home row, then back along the next row), the middle \
                 loop shared by both players (row 2 right to left, row 3 left to right, round again; \
                 White's view), and the enemy track (row 3, the opponent's home row back, then row 3 \
                 again to its end). Black's tracks are the point reflection of White's."
                    .into(),
                "Tab.lud",
            );
            rule(
                "LT-4",
                "A move takes the whole stack on a square as many steps as the throw along any track that \
                 holds the square and is long enough. A destination reached along two tracks is one move. \
                 Landing on own pieces stacks them; stacks never split and are never reduced. Moves are \
                 compulsory."
                    .into(),
                "Tab.lud",
            );
            rule(
                "LT-5",
                "Along the enemy track a stack may leave a square outside the opponent's home row only \
                 while the opponent still has a piece in its home row. Pieces in the opponent's home row \
                 are never frozen."
                    .into(),
                "Tab.lud",
            );
            rule(
                "LT-6",
                "Ludii's track-index bookkeeping decides where on the home and enemy tracks a stack \
                 starts: for each track and player a count of pieces at every track index. A move from a \
                 square starts at its first index with a positive count (none: no move along that \
                 track); moving a stack subtracts its size there and adds it at the destination's first \
                 later index; arriving from off a track adds one; a capture subtracts one at every index \
                 of the square. So a piece that came back from the enemy row cannot enter it again."
                    .into(),
                "Tab.lud: its track-index bookkeeping",
            );
            rule(
                "LT-7",
                "Landing on enemy pieces removes the whole enemy stack; the mover takes the square."
                    .into(),
                "Tab.lud",
            );
            rule(
                "LT-8",
                "After the opening a move made with a 1, 4 or 6 gives the same player another throw."
                    .into(),
                "Tab.lud",
            );
            rule(
                "LT-9",
                "The game ends after a move that hands the turn to a player with no pieces left: the \
                 mover wins. So a player who takes the last enemy piece with a 1, 4 or 6 throws and moves \
                 on until a 2 or 3."
                    .into(),
                "Tab.lud",
            );
            rule("LT-10", limits(r), "its default limits");
        }
        Preset::Hyde => {
            rule(
                "LH-1",
                format!(
                    "A board of 4 rows of {n} squares. Each player has {n} pieces, one on every square of \
                     its home row (White row 1, Black row 4). (columns={n})"
                ),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-2",
                "One track per player: its home row left to right, row 2 back, row 3 forward, then the \
                 opponent's home row back (White's view; Black's track is the point reflection). A throw \
                 that would go past the end of the track cannot be played."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-3",
                "Every piece starts locked; a locked piece moves only with a 1. Every move leaves its \
                 destination unlocked."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-4",
                "A unit (a piece, or a king of several) moves as many steps as the throw. Onto an empty \
                 square or enemy pieces the whole unit moves, and when the throw is one less than the \
                 unit's size, a move of just that many of its pieces is also allowed. Onto an own unit in \
                 the two middle rows exactly one piece moves and joins it, making or growing a king. Onto \
                 an own unit elsewhere there is no move. Moves are compulsory."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-5",
                "A unit in the opponent's home row may move only once the opponent has no piece left in \
                 its own home row."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-6",
                "Landing on enemy pieces removes all of them (a whole king too) and scores 1, whatever \
                 their number."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-7",
                "When nothing can move the only move is a pass. After a move or pass made with a 1, 4 or \
                 6 the same player throws again."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule(
                "LH-8",
                "The game ends after any move when every piece of both players stands in its opposing \
                 home row, or when the player who moved has no pieces. The higher score wins; equal \
                 scores draw."
                    .into(),
                "At-Tab wa-d-Dukk.lud",
            );
            rule("LH-9", limits(r), "its default limits");
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Differences from Ludii's files: Black's tracks are computed from the board size ({}); \
         a move Ludii lists twice is listed once.",
        match r.game() {
            Preset::Tab => "Ludii's 15-column board starts Black's home track one square early",
            Preset::Hyde => "Ludii's file gives Black's track for 13 columns only",
        }
    );
    s
}

/// The last rule of both presets (LT-10, LH-9): Ludii's limits of turns and moves.
fn limits(r: &Ruleset) -> String {
    format!(
        "Ludii's limits: after {} turns of each player, or {} moves, the game stops with no \
         winner. (turn_cap={}, move_cap={})",
        r.turn_cap(),
        r.move_cap(),
        r.turn_cap(),
        r.move_cap()
    )
}

/// The board, whose turn, the pending throw and the scores.
pub(super) fn render(s: &State) -> String {
    let rules = s.rules();
    // The squares from the board model ([`crate::view`]), as the web page draws them.
    let Drawing::Tab(board) = Draw::drawing(s, None) else {
        unreachable!("a Ludii state draws a Tab board")
    };
    let n = rules.columns();
    let grid = Grid::new(n);
    let mut out = String::new();
    let mut header = String::from("     ");
    for col in 0..n {
        let file = grid.coordinate(grid.at(0, col));
        let _ = write!(header, "{:^4} ", file.trim_end_matches('1'));
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for row in (0..4u8).rev() {
        let _ = write!(out, "  {} |", row + 1);
        for q in &board.rows[usize::from(3 - row)] {
            let text = q.unit.as_ref().map_or_else(String::new, |u| u.text());
            let _ = write!(out, "{text:^4}|");
        }
        let note = match row {
            0 => "  white's home row",
            3 => "  black's home row",
            _ => "",
        };
        if n == 9 {
            let letters: Vec<String> = (0..n).map(|c| grid.name(grid.at(row, c))).collect();
            let _ = write!(out, "  {}", letters.join(" "));
        }
        let _ = writeln!(out, "{note}");
    }
    if n == 9 {
        let _ = writeln!(out, "  (Lane's letters on the right)");
    }
    if rules.game() == Preset::Hyde {
        let _ = writeln!(
            out,
            "  W/B: a piece, W3: a king of 3, w/b: a locked piece (needs a 1)"
        );
    } else {
        let _ = writeln!(out, "  W/B: a piece, W3: a stack of 3");
    }
    let seat = |p: Player| rules.seat_name(p);
    let score_word = match rules.game() {
        Preset::Tab => "captured",
        Preset::Hyde => "score",
    };
    let sc = s.scores();
    let _ = writeln!(
        out,
        "  {score_word}: white {}, black {}; Ludii turn {}, {} decision{}",
        sc.one,
        sc.two,
        s.ludii_turn(),
        s.decisions(),
        if s.decisions() == 1 { "" } else { "s" }
    );
    match s.turn() {
        Turn::Chance => {
            let _ = write!(out, "  {} to throw", seat(s.to_move));
            if !s.in_main_phase() {
                let _ = write!(out, " (opening: nobody moves until someone throws a 1)");
            }
            let _ = writeln!(out);
        }
        Turn::Player(p) => {
            let t = s.pending_throw().map_or(0, |t| t.value());
            let _ = writeln!(out, "  {} threw {t} and is to move", seat(p));
        }
        Turn::Over(o) => {
            let result = match o.winner {
                Some(w) => format!("{} wins", seat(w)),
                None if o.is_truncated() => "no winner".to_string(),
                None => "draw".to_string(),
            };
            let _ = writeln!(
                out,
                "  Game over: {result}, white {} - black {} ({})",
                o.scores.one,
                o.scores.two,
                o.reason.describe()
            );
        }
    }
    out
}

fn pieces(k: u8) -> String {
    if k == 1 {
        "1 piece".into()
    } else {
        format!("{k} pieces")
    }
}

/// What a move does, without naming the mover.
pub(super) fn describe_move(s: &State, m: Move) -> String {
    let rules = s.rules();
    let n = rules.columns();
    let throw = s.pending_throw();
    let again = |t: crate::sticks::Throw| match rules.game() {
        Preset::Tab if !s.in_main_phase() => t.is_tab(),
        _ => t.throws_again(),
    };
    let Move::Step(st) = m else {
        let mut d = if !s.in_main_phase() {
            "passes (the opening: nobody moves until someone throws a 1)".to_string()
        } else {
            "passes: nothing can move".to_string()
        };
        if let Some(t) = throw {
            if !s.in_main_phase() && t.is_tab() {
                d = "passes with the first 1, which ends the opening; throws again".into();
            } else if again(t) {
                d.push_str("; throws again");
            }
        }
        return d;
    };
    let (f, t) = (st.from.square(n), st.to.square(n));
    let Some((me, size)) = s.unit_at(f) else {
        return format!("{m} (not legal here)");
    };
    let moving = if st.part == 0 { size } else { st.part };
    let unit = match (rules.game(), size) {
        (_, 1) => "the piece".to_string(),
        (Preset::Tab, k) => format!("the stack of {k}"),
        (Preset::Hyde, k) if st.part > 0 => format!("{} of the king of {k}", pieces(st.part)),
        (Preset::Hyde, k) => format!("the king of {k}"),
    };
    let verb = if s.is_locked(f) {
        "unlocks and moves"
    } else {
        "moves"
    };
    let mut d = format!("{verb} {unit} from {} to {}", s.name(f), s.name(t));
    match s.unit_at(t) {
        Some((owner, k)) if owner == me => {
            let _ = write!(
                d,
                ", {} {k} there (now {})",
                match rules.game() {
                    Preset::Tab => "stacking on the",
                    Preset::Hyde => "joining the",
                },
                pieces(k + moving)
            );
        }
        Some((owner, k)) => {
            let _ = write!(d, ", capturing {} of {}", pieces(k), rules.seat_name(owner));
            if rules.game() == Preset::Hyde {
                d.push_str(" (+1)");
            }
        }
        None => {}
    }
    let enemy_row = if me == Player::One { 3 } else { 0 };
    if t / n == enemy_row && f / n != enemy_row {
        let _ = write!(d, ", into {}'s home row", rules.seat_name(!me));
    }
    if throw.is_some_and(again) {
        d.push_str("; throws again");
    }
    d
}
