//! Why games stop at a safety limit: the games of a simulation that a limit stops (L-18),
//! each final position classified by its sanctuaries (docs/ENDGAMES.md, "Fortresses").
//!
//! A side that holds a sanctuary (a unit no enemy piece can ever reach and that it never has
//! to move) can never lose; when both sides hold one, the game is a draw under perfect play,
//! whatever the throws: the rules, not the players, stop it. A stop where neither side holds
//! one is a game that the players did not finish, not one the rules forbid finishing.

use std::sync::Arc;

use qasab_core::{ByPlayer, Player, Ruleset, Sanctuary, Turn};
use serde::Serialize;

use crate::play::simulate::simulate_ends;
use crate::players::Playable;
use crate::search::endgame::TableSet;
use crate::spec::AgentError;

/// What the sanctuaries say of a stopped game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both sides hold a sanctuary: a draw under perfect play, forced by the rules.
    Draw,
    /// This side holds a sanctuary and the other does not: it can never lose; whether it
    /// could win is not decided here.
    CannotLose(Player),
    /// Neither side holds one: nothing in the position stops either side from winning.
    Open,
    /// The game's ending does not make a sanctuary decisive (`end=most-captures`), or the game
    /// does not look for them.
    NotAnalysed,
}

impl Verdict {
    /// The verdict of a position's sanctuaries.
    pub fn of(sanctuaries: Option<&ByPlayer<Vec<Sanctuary>>>) -> Verdict {
        let Some(s) = sanctuaries else {
            return Verdict::NotAnalysed;
        };
        match (s[Player::One].is_empty(), s[Player::Two].is_empty()) {
            (false, false) => Verdict::Draw,
            (false, true) => Verdict::CannotLose(Player::One),
            (true, false) => Verdict::CannotLose(Player::Two),
            (true, true) => Verdict::Open,
        }
    }

    /// Its name in reports: `draw`, `white-cannot-lose` (with the ruleset's seat names),
    /// `open`, `not-analysed`.
    pub fn name<R: Ruleset>(self, rules: &R) -> String {
        match self {
            Verdict::Draw => "draw".into(),
            Verdict::CannotLose(p) => format!("{}-cannot-lose", rules.seat_name(p)),
            Verdict::Open => "open".into(),
            Verdict::NotAnalysed => "not-analysed".into(),
        }
    }
}

/// One game stopped by a limit.
#[derive(Clone, Debug, Serialize)]
pub struct Stall {
    /// The game's number in the simulation (0-based; `qasab simulate` plays the same game),
    /// or among the records read.
    pub game: u64,
    /// The record the game was read from, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// The limit that stopped it.
    pub reason: String,
    /// Turns played.
    pub turns: u32,
    /// The final position's id.
    pub position: String,
    /// Pieces on the board, White's then Black's.
    pub material: Option<[u8; 2]>,
    /// Each side's sanctuaries (square and pieces), White's then Black's.
    pub sanctuaries: Option<[Vec<Sanctuary>; 2]>,
    /// The pieces each side has outside its sanctuaries. A side that cannot lose and has some
    /// can play for a win with them at no risk.
    pub free: Option<[u8; 2]>,
    /// What they decide ([`Verdict::name`]).
    pub verdict: String,
    /// What the endgame tables say of it, if tables were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactStop>,
    #[serde(skip)]
    kind: Verdict,
}

/// What the endgame tables say of a stopped game: the chances under optimal play from the
/// start of the turn the limit cut off ([`qasab_core::Essence::beyond_limit`]), and what
/// they decide.
#[derive(Clone, Debug, Serialize)]
pub struct ExactStop {
    /// The player to throw at that start (the ruleset's seat name).
    pub thrower: String,
    /// The chances, if a table holds the position.
    pub chances: Option<Chances>,
    /// `proven-draw` (under optimal play the game never ends: the limit stops a draw),
    /// `white-can-win` or `black-can-win` (that side wins with some chance under optimal
    /// play, the other never: a win thrown away), `either-can-win`, or `beyond-tables` (no
    /// table holds the position); with the ruleset's seat names.
    pub verdict: String,
}

/// Chances under optimal play, from a position at a throw.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Chances {
    /// White's (the first seat's) chance to win.
    pub white: f64,
    /// Black's (the second seat's) chance to win.
    pub black: f64,
    /// The chance that play never ends.
    pub never_ends: f64,
}

/// A chance below this counts as none (the tables store 32-bit values).
const NONE: f64 = 1e-6;

impl ExactStop {
    /// What `tables` say of `end`, a state a limit stopped; `None` for a game without tables.
    fn of<S: Playable>(rules: &S::Ruleset, tables: &TableSet, end: &S) -> Option<ExactStop> {
        let (thrower, chances) = S::limit_chances(tables, end)?;
        let chances = chances.map(|[white, black]| Chances {
            white,
            black,
            never_ends: (1.0 - white - black).max(0.0),
        });
        let verdict = match chances {
            None => "beyond-tables".to_string(),
            Some(c) => match (c.white > NONE, c.black > NONE) {
                (false, false) => "proven-draw".to_string(),
                (true, false) => format!("{}-can-win", rules.seat_name(Player::One)),
                (false, true) => format!("{}-can-win", rules.seat_name(Player::Two)),
                (true, true) => "either-can-win".to_string(),
            },
        };
        Some(ExactStop {
            thrower: rules.seat_name(thrower).to_string(),
            chances,
            verdict,
        })
    }
}

/// The stopped games of a simulation and what their final positions decide.
#[derive(Clone, Debug, Serialize)]
pub struct StallReport {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The players, in seat order, and the simulation's seed; `None` for games read from
    /// records.
    pub simulation: Option<([String; 2], u64)>,
    /// Games played or read.
    pub games: u64,
    /// Games stopped by a limit.
    pub stopped: u64,
    /// Stopped games that are draws under perfect play (both sides hold a sanctuary).
    pub draws: u64,
    /// Stopped games where only White (first) or only Black (second) holds a sanctuary.
    pub cannot_lose: [u64; 2],
    /// Of those, the games where that side also has pieces outside its sanctuaries, free to
    /// attack at no risk.
    pub cannot_lose_with_free_pieces: [u64; 2],
    /// Stopped games where neither side holds one.
    pub open: u64,
    /// Stopped games not analysed (see [`Verdict::NotAnalysed`]).
    pub not_analysed: u64,
    /// With endgame tables: how many stopped games each verdict of [`ExactStop`] has, by
    /// name, in order of first appearance.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exact: Vec<(String, u64)>,
    /// Every stopped game, in game order.
    pub stalls: Vec<Stall>,
}

impl Stall {
    /// What the sanctuaries decide.
    pub fn verdict(&self) -> Verdict {
        self.kind
    }
}

/// The endgame tables of [`stalls`]: those the players consult, and those that judge the
/// stops (by default the players').
#[derive(Clone, Copy, Debug, Default)]
pub struct StallTables<'a> {
    /// The tables the players consult as they play.
    pub players: Option<&'a Arc<TableSet>>,
    /// The tables that judge the stops; with these alone the games are those played without
    /// tables.
    pub exact: Option<&'a Arc<TableSet>>,
}

/// Plays the games `qasab simulate` plays with these arguments (the players consulting
/// `tables.players` first, if given) and classifies each one that a safety limit stops, by
/// its sanctuaries and by the exact values of the judging tables, if any.
///
/// # Errors
/// [`AgentError`] if a spec is invalid for the ruleset.
pub fn stalls<S: Playable>(
    rules: &S::Ruleset,
    specs: [&str; 2],
    tables: StallTables<'_>,
    games: u64,
    seed: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<StallReport, AgentError> {
    let ends = simulate_ends::<S>(rules, specs, tables.players, games, seed, threads, tick)?;
    let judge = tables.exact.or(tables.players).map(|t| &**t);
    let stalls: Vec<Stall> = ends
        .iter()
        .enumerate()
        .filter_map(|(g, end)| stall_of(rules, g as u64, end, judge))
        .collect();
    Ok(StallReport::new(
        rules.to_string(),
        Some((specs.map(str::to_string), seed)),
        games,
        stalls,
    ))
}

impl StallReport {
    /// The report of `stalls` found among `games` games (of a simulation, or read from
    /// records).
    pub fn new(
        ruleset: String,
        simulation: Option<([String; 2], u64)>,
        games: u64,
        stalls: Vec<Stall>,
    ) -> StallReport {
        let count =
            |f: &dyn Fn(Verdict) -> bool| stalls.iter().filter(|s| f(s.kind)).count() as u64;
        StallReport {
            ruleset,
            simulation,
            games,
            stopped: stalls.len() as u64,
            draws: count(&|v| v == Verdict::Draw),
            cannot_lose: Player::ALL.map(|p| count(&|v| v == Verdict::CannotLose(p))),
            cannot_lose_with_free_pieces: Player::ALL.map(|p| {
                stalls
                    .iter()
                    .filter(|s| {
                        s.kind == Verdict::CannotLose(p) && s.free.is_some_and(|f| f[p.index()] > 0)
                    })
                    .count() as u64
            }),
            open: count(&|v| v == Verdict::Open),
            not_analysed: count(&|v| v == Verdict::NotAnalysed),
            exact: {
                let mut counts: Vec<(String, u64)> = Vec::new();
                for e in stalls.iter().filter_map(|s| s.exact.as_ref()) {
                    match counts.iter_mut().find(|(v, _)| *v == e.verdict) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((e.verdict.clone(), 1)),
                    }
                }
                counts
            },
            stalls,
        }
    }
}

/// The classification of game `g`'s final position `end`, if a limit stopped it, with what
/// the endgame tables `tables` say of it if they are given.
pub fn stall_of<S: Playable>(
    rules: &S::Ruleset,
    g: u64,
    end: &S,
    tables: Option<&TableSet>,
) -> Option<Stall> {
    let Turn::Over(o) = end.turn() else {
        return None;
    };
    if !o.reason.is_truncation() {
        return None;
    }
    let sanctuaries = S::sanctuaries(end);
    let kind = Verdict::of(sanctuaries.as_ref());
    let material = S::material(end);
    let free = material.zip(sanctuaries.as_ref()).map(|(m, s)| {
        Player::ALL.map(|p| {
            let kept: u8 = s[p].iter().map(|u| u.pieces).sum();
            m[p].saturating_sub(kept)
        })
    });
    Some(Stall {
        game: g,
        record: None,
        reason: o.reason.name().to_string(),
        turns: end.turns(),
        position: end.position_id(),
        material: material.map(|m| m.into_array()),
        free,
        verdict: kind.name(rules),
        exact: tables.and_then(|t| ExactStop::of(rules, t, end)),
        kind,
        sanctuaries: sanctuaries.map(|s| s.into_array()),
    })
}

/// A point of a game where what the sanctuaries decide changes: from the position after
/// action `action` (1-based; 0 for the start) on.
#[derive(Clone, Debug, Serialize)]
pub struct FortressChange {
    /// The action after which it holds (0: from the start).
    pub action: usize,
    /// The squares of each side's sanctuaries, White's then Black's.
    pub sanctuaries: [Vec<String>; 2],
    /// What they decide ([`Verdict::name`]).
    pub verdict: String,
}

/// Every change of the sanctuaries along a game played from `start` by `actions` (assumed
/// legal, as a replayed record's are): when a side comes to hold one, when both do, when one
/// is given up. Empty for a game that does not look for them.
pub fn fortress_changes<S: Playable>(
    rules: &S::Ruleset,
    start: &S,
    actions: &[qasab_core::ActionOf<S>],
) -> Vec<FortressChange> {
    let squares = |found: &ByPlayer<Vec<Sanctuary>>| {
        found
            .clone()
            .into_array()
            .map(|side| side.into_iter().map(|u| u.square).collect::<Vec<_>>())
    };
    let mut state = start.clone();
    let mut last: Option<[Vec<String>; 2]> = None;
    let mut out = Vec::new();
    for i in 0..=actions.len() {
        if i > 0 {
            state.apply_unchecked(actions[i - 1]);
        }
        let Some(found) = S::sanctuaries(&state) else {
            return out;
        };
        let now = squares(&found);
        let empty = now.iter().all(Vec::is_empty);
        if last.as_ref() != Some(&now) && !(last.is_none() && empty) {
            out.push(FortressChange {
                action: i,
                verdict: Verdict::of(Some(&found)).name(rules),
                sanctuaries: now.clone(),
            });
        }
        last = Some(now);
    }
    out
}
