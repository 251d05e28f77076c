//! Position ids: one line holding the whole Tâb state, histories and pending throws included.
//!
//! Fields, separated by `/`:
//!
//! 1. the phase: `open:w` (White throws next in the opening), `throw:w`, `move:w` (`move:w+`
//!    when, with interleaved throws, the throw being played gives another), or
//!    `over:REASON:WINNER` (`w`, `b` or `-`);
//! 2. the pending throws as digits (`113`), or `-`;
//! 3. White's pieces, 4. Black's pieces, in piece-number order, comma-separated. A piece is
//!    `x` when it is off the board, otherwise its square, then `.` and its marks when it has
//!    any: `c` converted, `e` has been in the enemy home row, the rows it has seen (1–4), and
//!    `v` with its visited squares in hexadecimal when a reduction rule keeps them. A piece
//!    that has not moved is just its square;
//! 5. banked tâbs, 6. pieces captured, 7. pieces lost to reductions: `white.black`;
//! 8. counters: `turns.turns-without-progress.opening-throws.actions`;
//! 9. statistics: `throws.tab-turns.conversions.reductions.banked.turn-had-tab.turn-progress`;
//! 10. dissolved squares, comma-separated, or `-`.
//!
//! The start of `tab`: `open:w/-/A,B,C,D,E,F,G,H,I/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/0.0.0.0/0.0.0.0.0.0.0/-`.

use std::fmt::Write as _;
use std::str::FromStr;

use crate::game::{EndReason, Outcome, PositionIdError};
use crate::grid::Square;
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::board::{CONVERTED, ENTERED, OFF, Phase, Piece, Position, ROWS_SHIFT, Stats};
use super::rules::{Reduction, Ruleset};
use super::state::State;

fn side(p: Player) -> char {
    if p == Player::One { 'w' } else { 'b' }
}

/// The id of a state.
pub(crate) fn write(s: &State) -> String {
    let grid = s.grid();
    let mut id = String::new();
    match s.phase {
        Phase::Opening { thrower } => {
            let _ = write!(id, "open:{}", side(thrower));
        }
        Phase::Throwing { player } => {
            let _ = write!(id, "throw:{}", side(player));
        }
        Phase::Moving { player } => {
            let _ = write!(
                id,
                "move:{}{}",
                side(player),
                if s.extra { "+" } else { "" }
            );
        }
        Phase::Over => {
            let o = s.over.expect("an ended game has an outcome");
            let _ = write!(
                id,
                "over:{}:{}",
                o.reason.name(),
                o.winner.map_or('-', side)
            );
        }
    }
    id.push('/');
    let pending = s.pending();
    if pending.is_empty() {
        id.push('-');
    }
    for t in pending {
        let _ = write!(id, "{t}");
    }
    for p in Player::ALL {
        id.push('/');
        for k in 0..s.rules.piece_count() {
            if k > 0 {
                id.push(',');
            }
            let piece = &s.pieces[p.index()][usize::from(k)];
            if piece.sq == OFF {
                id.push('x');
                continue;
            }
            id.push_str(&grid.name(Square(piece.sq)));
            let fresh = fresh_piece(s, p, k);
            if *piece == fresh {
                continue;
            }
            id.push('.');
            if piece.converted() {
                id.push('c');
            }
            if piece.entered() {
                id.push('e');
            }
            for r in 0..4 {
                if piece.rows() & (1 << r) != 0 {
                    let _ = write!(id, "{}", r + 1);
                }
            }
            if s.rules.tracks_squares() {
                let _ = write!(id, "v{:x}", piece.visited());
            }
        }
    }
    let pair = |a: [u16; 2]| format!("{}.{}", a[0], a[1]);
    let st = &s.stats;
    let _ = write!(
        id,
        "/{}/{}/{}/{}.{}.{}.{}/{}.{}.{}.{}.{}.{}.{}/",
        pair(s.bank),
        pair(s.captured),
        pair(s.removed),
        s.turns,
        s.no_progress,
        s.opening_throws,
        s.actions,
        st.throws,
        st.tab_turns,
        st.conversions,
        st.reductions,
        st.banked,
        u8::from(st.turn_tab),
        u8::from(st.turn_progress),
    );
    let dissolved: Vec<String> = grid
        .squares()
        .filter(|sq| s.dissolved(sq.0) && s.mask(sq.0).count_ones() > 1)
        .map(|sq| grid.name(sq))
        .collect();
    if dissolved.is_empty() {
        id.push('-');
    } else {
        id.push_str(&dissolved.join(","));
    }
    id
}

/// A piece as it stands at the start.
fn fresh_piece(s: &State, p: Player, k: u8) -> Piece {
    let start = State::new(s.rules);
    start.pieces[p.index()][usize::from(k)]
}

fn numbers<const N: usize, T: FromStr>(text: &str) -> Option<[T; N]> {
    let v: Vec<T> = text
        .split('.')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    v.try_into().ok()
}

/// Reads an id under `rules`.
pub(crate) fn parse(rules: Ruleset, id: &str) -> Result<State, PositionIdError> {
    read(rules, id, true)
}

/// Reads an id under `rules`; with `check`, the state as a whole must be one the rules can
/// reach. Without, the id of an essence (which drops counters the checks read) reads back.
pub(crate) fn read(rules: Ruleset, id: &str, check: bool) -> Result<State, PositionIdError> {
    let err = |why: String| PositionIdError {
        game: "tab",
        id: id.to_string(),
        why,
    };
    let f: Vec<&str> = id.trim().split('/').collect();
    if f.len() != 10 {
        return Err(err(format!(
            "it has {} '/'-separated fields, not 10 (see docs/notation.md)",
            f.len()
        )));
    }
    let mut state = State::new(rules);
    let s: &mut Position = &mut state;
    let grid = s.grid();
    let who = |c: &str| match c {
        "w" => Ok(Player::One),
        "b" => Ok(Player::Two),
        other => Err(err(format!("'{other}' is not w or b"))),
    };
    let mut outcome: Option<(EndReason, Option<Player>)> = None;
    s.extra = false;
    s.phase = match f[0].split(':').collect::<Vec<_>>().as_slice() {
        ["open", p] => Phase::Opening { thrower: who(p)? },
        ["throw", p] => Phase::Throwing { player: who(p)? },
        ["move", p] => {
            let (p, extra) = match p.strip_suffix('+') {
                Some(q) => (q, true),
                None => (*p, false),
            };
            s.extra = extra;
            Phase::Moving { player: who(p)? }
        }
        ["over", reason, winner] => {
            let reason: EndReason = reason
                .parse()
                .map_err(|e: crate::game::UnknownNameError| err(e.to_string()))?;
            let winner = if *winner == "-" {
                None
            } else {
                Some(who(winner)?)
            };
            outcome = Some((reason, winner));
            Phase::Over
        }
        _ => {
            return Err(err(format!(
                "phase '{}' is not open:w, throw:w, move:w or over:REASON:WINNER",
                f[0]
            )));
        }
    };
    s.pending = super::board::Pending::NONE;
    if f[1] != "-" {
        for c in f[1].chars() {
            let t = c
                .to_digit(10)
                .and_then(|d| Throw::from_value(d as u8))
                .ok_or_else(|| err(format!("pending throw '{c}' is not 1, 2, 3, 4 or 6")))?;
            // A turn holds at most `throw_cap` throws (checked below); a count must fit a byte.
            if s.pending.total() >= u32::from(super::rules::MAX_THROW_CAP) {
                return Err(err(format!(
                    "more than {} pending throws",
                    super::rules::MAX_THROW_CAP
                )));
            }
            s.pending.add(t.index());
        }
    }
    s.board = [0; crate::grid::MAX_SQUARES];
    let n = usize::from(rules.piece_count());
    for p in Player::ALL {
        let tokens: Vec<&str> = f[2 + p.index()].split(',').collect();
        if tokens.len() != n {
            return Err(err(format!(
                "{} has {} pieces listed; {rules} has {n}",
                rules_seat(p),
                tokens.len()
            )));
        }
        let mut alive = 0;
        for (k, token) in tokens.iter().enumerate() {
            let piece = &mut s.pieces[p.index()][k];
            if *token == "x" {
                *piece = Piece {
                    sq: OFF,
                    ..Piece::default()
                };
                continue;
            }
            let (square, marks) = match token.split_once('.') {
                Some((a, b)) => (a, Some(b)),
                None => (*token, None),
            };
            let sq = grid.parse(square).map_err(|e| err(e.to_string()))?;
            if s.board[sq.0 as usize] != 0 && (s.board[sq.0 as usize] >> 31 != p.index() as u32) {
                return Err(err(format!("{} holds pieces of both sides", grid.name(sq))));
            }
            let start = State::new(rules).pieces[p.index()][k];
            let mut new = if marks.is_none() {
                start
            } else {
                Piece {
                    sq: sq.0,
                    ..Piece::default()
                }
            };
            new.sq = sq.0;
            if let Some(marks) = marks {
                let (flags, visited) = match marks.split_once('v') {
                    Some((a, v)) => (a, Some(v)),
                    None => (marks, None),
                };
                for c in flags.chars() {
                    match c {
                        'c' => new.flags |= CONVERTED,
                        'e' => new.flags |= ENTERED,
                        '1'..='4' => new.flags |= 1 << (ROWS_SHIFT + c as u8 - b'1'),
                        other => {
                            return Err(err(format!("unknown mark '{other}' in piece '{token}'")));
                        }
                    }
                }
                if let Some(v) = visited {
                    if !rules.tracks_squares() {
                        return Err(err(format!(
                            "piece '{token}' lists visited squares, which {rules} does not keep"
                        )));
                    }
                    let bits = u128::from_str_radix(v, 16)
                        .map_err(|_| err(format!("bad visited squares in '{token}'")))?;
                    if bits >> grid.len() != 0 {
                        return Err(err(format!(
                            "visited squares of '{token}' are off the board"
                        )));
                    }
                    new.lo = bits as u64;
                    new.hi = (bits >> 64) as u64;
                } else if rules.tracks_squares() {
                    return Err(err(format!(
                        "piece '{token}' needs its visited squares (v...) under reduction={}",
                        reduction_name(rules.reduction)
                    )));
                }
            }
            *piece = new;
            alive += 1;
            s.board[sq.0 as usize] |= (1 << k) | if p == Player::Two { 1 << 31 } else { 0 };
        }
        s.alive[p.index()] = alive;
    }
    let pair = |i: usize, what: &str| {
        numbers::<2, u16>(f[i])
            .ok_or_else(|| err(format!("{what} '{}' is not two numbers a.b", f[i])))
    };
    s.bank = pair(4, "banked tabs")?;
    s.captured = pair(5, "captures")?;
    s.removed = pair(6, "reductions")?;
    let [turns, np, opening, actions] = numbers::<4, u32>(f[7])
        .ok_or_else(|| err(format!("counters '{}' are not four numbers", f[7])))?;
    s.turns = turns;
    s.no_progress =
        u16::try_from(np).map_err(|_| err("turns without progress out of range".into()))?;
    s.opening_throws =
        u16::try_from(opening).map_err(|_| err("opening throws out of range".into()))?;
    s.actions = actions;
    let [
        throws,
        tab_turns,
        conversions,
        reductions,
        banked,
        turn_tab,
        turn_progress,
    ] = numbers::<7, u32>(f[8])
        .ok_or_else(|| err(format!("statistics '{}' are not seven numbers", f[8])))?;
    s.stats = Stats {
        throws,
        tab_turns,
        conversions,
        reductions,
        banked,
        turn_tab: turn_tab != 0,
        turn_progress: turn_progress != 0,
    };
    if f[9] != "-" {
        for name in f[9].split(',') {
            let sq = grid.parse(name).map_err(|e| err(e.to_string()))?;
            if s.mask(sq.0).count_ones() < 2 {
                return Err(err(format!(
                    "{name} is marked dissolved but holds fewer than two pieces"
                )));
            }
            s.board[sq.0 as usize] |= 1 << 30;
        }
    }
    s.over = outcome.map(|(reason, winner)| Outcome {
        winner,
        scores: ByPlayer::new(u32::from(s.captured[0]), u32::from(s.captured[1])),
        reason,
    });
    s.derive_caches();
    // Everything read; now the state as a whole must be one the rules can reach.
    if check {
        state.validate().map_err(|e| err(e.why))?;
    }
    Ok(state)
}

fn rules_seat(p: Player) -> &'static str {
    if p == Player::One { "white" } else { "black" }
}

fn reduction_name(r: Reduction) -> &'static str {
    match r {
        Reduction::SquareVisited => "square-visited",
        Reduction::SquareLanded => "square-landed",
        Reduction::RowEntered => "row-entered",
        Reduction::PositionalRows => "positional-rows",
        Reduction::Off => "off",
    }
}
