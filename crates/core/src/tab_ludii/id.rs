//! Position ids: the whole state on one line (the format is documented at `State::from_id`).

use std::fmt::Write as _;

use crate::game::{EndReason, GameState, Outcome, PositionIdError};
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::ruleset::{Preset, Ruleset};
use super::state::State;
use super::state::squares_of;
use super::tracks::{self, ENEMY_AT, HOME_AT, MAX_SQUARES, NONE, row_mask};

/// Writes the id of a state.
pub(super) fn write(s: &State) -> String {
    let n = s.rules.columns();
    let mut id = String::new();
    for row in 0..4u8 {
        if row > 0 {
            id.push('/');
        }
        let mut tokens: Vec<String> = Vec::new();
        let mut empty = 0;
        for col in 0..n {
            let sq = row * n + col;
            match s.unit_at(sq) {
                None => empty += 1,
                Some((p, count)) => {
                    if empty > 0 {
                        tokens.push(empty.to_string());
                        empty = 0;
                    }
                    let letter = match (p, s.is_locked(sq)) {
                        (Player::One, false) => 'W',
                        (Player::Two, false) => 'B',
                        (Player::One, true) => 'w',
                        (Player::Two, true) => 'b',
                    };
                    tokens.push(if count == 1 {
                        letter.to_string()
                    } else {
                        format!("{letter}{count}")
                    });
                }
            }
        }
        if empty > 0 {
            tokens.push(empty.to_string());
        }
        id.push_str(&tokens.join(","));
    }
    id.push('/');
    match (s.over, s.throw) {
        (Some(o), _) => {
            let _ = write!(id, "over:{}", o.reason.name());
        }
        (None, None) => id.push_str(seat(s.to_move)),
        (None, Some(t)) => {
            let _ = write!(id, "{}:{t}", seat(s.to_move));
        }
    }
    if s.rules.game() == Preset::Tab {
        id.push_str(if s.main_phase { "/main" } else { "/opening" });
    }
    let _ = write!(
        id,
        "/{},{}/{},{}",
        s.turn, s.decisions, s.scores[0], s.scores[1]
    );
    if s.rules.game() == Preset::Tab {
        let n = usize::from(n);
        for p in 0..2 {
            id.push('/');
            id.push_str(&run_length(&s.counts[p][HOME_AT..HOME_AT + 2 * n]));
            id.push('/');
            id.push_str(&run_length(&s.counts[p][ENEMY_AT..ENEMY_AT + 3 * n]));
        }
    }
    id
}

fn seat(p: Player) -> &'static str {
    match p {
        Player::One => "white",
        Player::Two => "black",
    }
}

/// `1,1,1,0,0` → `1x3,0x2`.
fn run_length(values: &[i32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        let k = values[i..].iter().take_while(|&&x| x == v).count();
        out.push(if k == 1 {
            v.to_string()
        } else {
            format!("{v}x{k}")
        });
        i += k;
    }
    out.join(",")
}

/// Reads an id under `rules`; with `check`, the position must be one that can stand under
/// them. Without, the id of an essence (whose counts are cut) reads back.
pub(super) fn read(rules: Ruleset, id: &str, check: bool) -> Result<State, PositionIdError> {
    let err = |why: String| PositionIdError {
        game: rules.game().name(),
        id: id.to_string(),
        why,
    };
    let tab = rules.game() == Preset::Tab;
    let fields: Vec<&str> = id.trim().split('/').collect();
    let expected = if tab { 12 } else { 7 };
    if fields.len() != expected {
        return Err(err(format!(
            "expected {expected} '/'-separated fields (4 rows, status, {}counters, scores{}), found {}",
            if tab { "phase, " } else { "" },
            if tab { ", 4 track-count lists" } else { "" },
            fields.len()
        )));
    }
    let n = rules.columns();
    let mut s = State::new(rules);
    s.occ = [0, 0];
    s.count = [0; MAX_SQUARES];
    s.locked = 0;
    for (row, text) in fields[..4].iter().enumerate() {
        read_row(&mut s, row as u8, text).map_err(|why| err(format!("row {}: {why}", row + 1)))?;
    }
    let mut f = 4;
    let status = fields[f].trim();
    f += 1;
    let mut over_reason = None;
    if let Some(reason) = status.strip_prefix("over:") {
        over_reason = Some(
            reason
                .parse::<EndReason>()
                .map_err(|e| err(format!("status: {e}")))?,
        );
    } else {
        let (side, throw) = match status.split_once(':') {
            Some((side, t)) => (
                side,
                Some(
                    t.parse::<Throw>()
                        .map_err(|e| err(format!("status: {e}")))?,
                ),
            ),
            None => (status, None),
        };
        s.to_move = match side {
            "white" => Player::One,
            "black" => Player::Two,
            other => {
                return Err(err(format!(
                    "status '{other}' is not white, black, white:T, black:T or over:REASON"
                )));
            }
        };
        s.throw = throw;
    }
    if tab {
        s.main_phase = match fields[f].trim() {
            "opening" => false,
            "main" => true,
            other => return Err(err(format!("phase '{other}' is not opening or main"))),
        };
        f += 1;
    }
    let [turn, decisions] = pair::<u32>(fields[f]).ok_or_else(|| {
        err(format!(
            "counters '{}' must be TURN,DECISIONS (two whole numbers)",
            fields[f]
        ))
    })?;
    f += 1;
    if turn == 0 {
        return Err(err("Ludii's turn numbers start at 1".into()));
    }
    s.turn = turn;
    s.decisions = decisions;
    s.scores = pair::<u8>(fields[f])
        .ok_or_else(|| err(format!("scores '{}' must be two numbers 0-255", fields[f])))?;
    f += 1;
    if tab {
        let nu = usize::from(n);
        for p in 0..2 {
            let home = expand(fields[f], 2 * nu)
                .map_err(|why| err(format!("{} home-track counts: {why}", seat_of(p))))?;
            s.counts[p][HOME_AT..HOME_AT + 2 * nu].copy_from_slice(&home);
            let enemy = expand(fields[f + 1], 3 * nu)
                .map_err(|why| err(format!("{} enemy-track counts: {why}", seat_of(p))))?;
            s.counts[p][ENEMY_AT..ENEMY_AT + 3 * nu].copy_from_slice(&enemy);
            f += 2;
        }
    }
    set_outcome(&mut s, over_reason).map_err(&err)?;
    if check {
        validate(&s).map_err(err)?;
        debug_assert_eq!(s.actions(), 2 * s.decisions + u32::from(s.throw.is_some()));
    }
    Ok(s)
}

fn seat_of(p: usize) -> &'static str {
    if p == 0 { "white's" } else { "black's" }
}

fn pair<T: std::str::FromStr>(text: &str) -> Option<[T; 2]> {
    let (a, b) = text.trim().split_once(',')?;
    Some([a.trim().parse().ok()?, b.trim().parse().ok()?])
}

/// Expands `1x3,0x2` into exactly `len` values.
fn expand(text: &str, len: usize) -> Result<Vec<i32>, String> {
    let mut out = Vec::with_capacity(len);
    for token in text.trim().split(',') {
        let token = token.trim();
        let (v, k) = match token.split_once('x') {
            Some((v, k)) => (v, k.parse::<usize>().ok().filter(|&k| k >= 1)),
            None => (token, Some(1)),
        };
        let (Ok(v), Some(k)) = (v.parse::<i32>(), k) else {
            return Err(format!("'{token}' is not a value or VALUExCOUNT"));
        };
        if out.len() + k > len {
            return Err(format!("more than {len} values (one per track index)"));
        }
        out.extend(std::iter::repeat_n(v, k));
    }
    if out.len() != len {
        return Err(format!(
            "{} values, expected {len} (one per track index)",
            out.len()
        ));
    }
    Ok(out)
}

fn read_row(s: &mut State, row: u8, text: &str) -> Result<(), String> {
    let n = s.rules.columns();
    let hyde = s.rules.game() == Preset::Hyde;
    let mut col = 0u8;
    for token in text.trim().split(',') {
        let token = token.trim();
        let fits = |k: u8| -> Result<(), String> {
            if u32::from(col) + u32::from(k) > u32::from(n) {
                Err(format!("more than {n} squares"))
            } else {
                Ok(())
            }
        };
        if let Ok(k) = token.parse::<u8>() {
            if k == 0 {
                return Err("an empty run of 0 squares".into());
            }
            fits(k)?;
            col += k;
            continue;
        }
        let mut chars = token.chars();
        let letter = chars.next().ok_or("an empty square token")?;
        let (player, locked) = match letter {
            'W' => (0, false),
            'B' => (1, false),
            'w' | 'b' if hyde => (usize::from(letter == 'b'), true),
            _ => {
                return Err(format!(
                    "'{token}' is not a square: expected W, B, W3, B3{}, or a number of empty squares",
                    if hyde { ", w, b (locked)" } else { "" }
                ));
            }
        };
        let rest = chars.as_str();
        let count = if rest.is_empty() {
            1
        } else {
            rest.parse::<u8>()
                .ok()
                .filter(|&c| c >= 1 && rest.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| format!("'{token}': the number of pieces must be 1 or more"))?
        };
        if locked && count != 1 {
            return Err(format!("'{token}': a locked square holds a single piece"));
        }
        fits(1)?;
        let sq = row * n + col;
        s.occ[player] |= 1u128 << sq;
        s.count[usize::from(sq)] = count;
        if locked {
            s.locked |= 1u128 << sq;
        }
        col += 1;
    }
    if col != n {
        return Err(format!("{col} squares, the board has {n} columns"));
    }
    Ok(())
}

/// Sets the outcome of a state read as over by `over`, or says why it cannot have ended so.
fn set_outcome(s: &mut State, over: Option<EndReason>) -> Result<(), String> {
    let Some(reason) = over else {
        s.over = None;
        return Ok(());
    };
    s.to_move = Player::One;
    s.over = Some(outcome(s, reason)?);
    Ok(())
}

/// The outcome of a game over by `reason` in this position, if it can have ended so.
fn outcome(s: &State, reason: EndReason) -> Result<Outcome, String> {
    let rules = s.rules;
    let tab = rules.game() == Preset::Tab;
    let pieces = [s.pieces(Player::One), s.pieces(Player::Two)];
    let scores = ByPlayer::new(u32::from(s.scores[0]), u32::from(s.scores[1]));
    let capped =
        u64::from(s.turn) >= 2 * u64::from(rules.turn_cap()) || s.decisions >= rules.move_cap();
    Ok(match (reason, tab) {
        (EndReason::Elimination, true) => {
            let winner = match pieces {
                [0, b] if b > 0 => Player::Two,
                [a, 0] if a > 0 => Player::One,
                _ => {
                    return Err(
                        "a Tab game ends by elimination when exactly one side has no pieces".into(),
                    );
                }
            };
            Outcome {
                winner: Some(winner),
                scores,
                reason,
            }
        }
        (EndReason::Elimination, false) if pieces.contains(&0) => Outcome::by_score(scores, reason),
        (EndReason::NoMoreCaptures, false)
            if s.hyde_end_reason(Player::One) == Some(EndReason::NoMoreCaptures) =>
        {
            Outcome::by_score(scores, reason)
        }
        (EndReason::TurnCap, _) if capped => Outcome {
            winner: None,
            scores,
            reason,
        },
        _ => {
            return Err(format!(
                "the game cannot have ended by {} here",
                reason.describe()
            ));
        }
    })
}

/// LT-6: Tab's track-index counts of `p`, who has lost `lost` pieces, fit the board.
///
/// For a square, call its count the sum of `p`'s counts at its indices on the one track of
/// `p`'s that holds it (the home track holds `p`'s first two rows, the enemy track the other
/// two). A move of a stack of `c` takes `c` from its square's count (or nothing, when no index
/// of the square is positive, and then the count is not above 0) and gives the destination
/// `c` (or 1 arriving from the other track, or nothing); it never raises a square's count
/// above its pieces by more than before. A capture of `k` pieces takes 1 from every index of
/// the square (2 on a square with two), so it leaves a count at most `k - 1` above the
/// nothing left there. Hence the counts exceed the pieces on their squares by at most the
/// pieces `p` has lost, in total. And a side that has lost nothing and has no stack has
/// never had one (stacks never split, LT-4), so every move of it took 1 from a positive
/// count and gave 1: its counts are exactly its pieces, none negative.
fn check_track_counts(s: &State, p: Player, lost: u8) -> Result<(), String> {
    let n = s.rules.columns();
    let t = tracks::tab(n);
    let me = p.index();
    let mine = |sq: usize| {
        if s.occ[me] & (1u128 << sq) != 0 {
            i64::from(s.count[sq])
        } else {
            0
        }
    };
    let singles = squares_of(s.occ[me]).all(|sq| s.count[usize::from(sq)] == 1);
    let exact = lost == 0 && singles;
    let mut excess = 0i64;
    for sq in 0..4 * usize::from(n) {
        let mut slots: Vec<usize> = Vec::with_capacity(2);
        let h = t.home_index[me][sq];
        if h != NONE {
            slots.push(HOME_AT + usize::from(h));
        } else {
            for e in t.enemy_index[me][sq] {
                if e != NONE {
                    slots.push(ENEMY_AT + usize::from(e));
                }
            }
        }
        let counted: i64 = slots.iter().map(|&i| i64::from(s.counts[me][i])).sum();
        let pieces = mine(sq);
        if exact && (counted != pieces || slots.iter().any(|&i| s.counts[me][i] < 0)) {
            return Err(format!(
                "{} has lost no piece and has no stack, so it has never had one (stacks never split) and its track counts are its pieces: {} holds {pieces} of them but is counted {} (LT-6)",
                seat(p),
                s.name(sq as u8),
                slots
                    .iter()
                    .map(|&i| s.counts[me][i].to_string())
                    .collect::<Vec<_>>()
                    .join(" + ")
            ));
        }
        excess += (counted - pieces).max(0);
    }
    if excess > i64::from(lost) {
        return Err(format!(
            "{}'s track counts exceed its pieces on their squares by {excess} in all, but only a capture leaves a count above the pieces, by at most the pieces taken less one, and {} has lost {lost} (LT-6)",
            seat(p),
            seat(p)
        ));
    }
    Ok(())
}

/// Ludii's counters: the turn number starts at 1 and grows by one when the mover changes,
/// after a decision, so it is at most the decisions plus one, and the side to move is White
/// on odd turns; in Tab's opening every decision is a pass that hands the turn over (a 1
/// would have ended the opening), so the turn is the decisions plus one (the decisions, in a
/// game stopped by a limit in the opening, whose last decision did not move the turn on);
/// and a game stops at Ludii's limits (LT-10, LH-9), so the counters never pass them.
fn check_counters(s: &State) -> Result<(), String> {
    let rules = s.rules;
    if s.turn == 0 {
        return Err("Ludii's turn numbers start at 1".into());
    }
    if u64::from(s.turn) > u64::from(s.decisions) + 1 {
        return Err(format!(
            "turn {} after {} decisions: the turn number grows by one at most per decision",
            s.turn, s.decisions
        ));
    }
    if rules.game() == Preset::Tab && !s.main_phase {
        let expected = u64::from(s.decisions) + u64::from(s.over.is_none());
        if u64::from(s.turn) != expected {
            return Err(format!(
                "turn {} after {} decisions in the opening: each was a pass that handed the turn over (LT-2), so the turn is {expected}",
                s.turn, s.decisions
            ));
        }
    }
    if s.over.is_none() {
        let expected = if s.turn % 2 == 1 {
            Player::One
        } else {
            Player::Two
        };
        if s.to_move != expected {
            return Err(format!(
                "turn {} is {}'s: White has the first turn and the turn number grows exactly when the mover changes",
                s.turn,
                seat(expected)
            ));
        }
    }
    if s.decisions > rules.move_cap() || u64::from(s.turn) > 2 * u64::from(rules.turn_cap()) {
        return Err(
            "the counters are past Ludii's limits, where the game stops (LT-10, LH-9)".into(),
        );
    }
    Ok(())
}

/// Checks that the state can occur under its rules: the pieces and scores add up, locked
/// pieces stand on their home rows, nothing has moved in Tab's opening, Tab's track-index
/// counts fit the pieces, the counters agree with each other and the side to move and are
/// within Ludii's limits, and the outcome (or its absence) is the one this position gives.
pub(super) fn validate(s: &State) -> Result<(), String> {
    let rules = s.rules;
    let n = rules.columns();
    let tab = rules.game() == Preset::Tab;
    let grid_len = 4 * usize::from(n);
    if (s.occ[0] | s.occ[1]) >> grid_len != 0 || s.occ[0] & s.occ[1] != 0 {
        return Err("the squares of the two sides overlap or leave the board".into());
    }
    for sq in 0..grid_len as u8 {
        let occupied = (s.occ[0] | s.occ[1]) & (1u128 << sq) != 0;
        if occupied != (s.count[usize::from(sq)] > 0) {
            return Err("the piece counts do not agree with the squares held".into());
        }
    }
    if s.locked & !(s.occ[0] | s.occ[1]) != 0 {
        return Err("a locked square holds no piece".into());
    }
    let pieces = [s.pieces(Player::One), s.pieces(Player::Two)];
    for p in Player::ALL {
        let on_board = pieces[p.index()];
        if on_board > u32::from(n) {
            return Err(format!(
                "{} has {on_board} pieces; each side has {n}",
                seat(p)
            ));
        }
        let lost = u32::from(n) - on_board;
        let score = u32::from(s.scores[(!p).index()]);
        let (ok, what) = if tab {
            (
                score == lost,
                "captured exactly the pieces the other side lost",
            )
        } else {
            (
                score <= lost && (lost == 0 || score >= 1),
                "scored one per capture, at most one per piece lost",
            )
        };
        if !ok {
            return Err(format!(
                "the scores do not fit the board: {} must have {what}",
                seat(!p)
            ));
        }
    }
    for sq in squares_of(s.locked) {
        if s.count[usize::from(sq)] != 1 {
            return Err("a locked square holds a single piece".into());
        }
        let home = if s.occ[0] & (1u128 << sq) != 0 { 0 } else { 3 };
        if row_mask(n, home) & (1u128 << sq) == 0 {
            return Err("a locked piece stands only on its own home row".into());
        }
    }
    if tab && s.locked != 0 {
        return Err("only At-Tab locks pieces".into());
    }
    if tab && !s.main_phase {
        let start = State::new(rules);
        if s.occ != start.occ || s.count != start.count || s.counts != start.counts {
            return Err("in the opening no piece has moved yet".into());
        }
    }
    if !tab && !s.main_phase {
        return Err("At-Tab has no opening phase".into());
    }
    if tab {
        for p in Player::ALL {
            check_track_counts(s, p, n - pieces[p.index()] as u8)?;
        }
    }
    match s.over {
        None => {
            if s.decisions >= rules.move_cap()
                || u64::from(s.turn) > 2 * u64::from(rules.turn_cap())
            {
                return Err("the game would have stopped at Ludii's limits".into());
            }
            let ended = if tab {
                pieces[s.to_move.index()] == 0
            } else {
                pieces == [0, 0]
                    || s.hyde_end_reason(Player::One) == Some(EndReason::NoMoreCaptures)
            };
            if ended {
                return Err("the game is over in this position; write over:REASON".into());
            }
        }
        Some(o) => {
            if s.throw.is_some() || s.to_move != Player::One {
                return Err("a finished game has no throw to play and nobody to move".into());
            }
            if outcome(s, o.reason)? != o {
                return Err(format!(
                    "the outcome does not fit a game over by {} here",
                    o.reason.describe()
                ));
            }
        }
    }
    check_counters(s)
}
