//! Ludii's recorded games, replayed against the presets decision by decision.
//!
//! The presets claim to play exactly Ludii's rules; this module is how that claim is checked.
//! Ludii records a run of games as a trace of JSON Lines: a header line (the game, the board,
//! Ludii's tracks and limits), then for each game a `game` line, one `step` line per decision
//! and an `end` line. The types below are those lines, deserialised with serde; the rules core
//! does no I/O, so reading, decompressing and parsing the file is the caller's work (`qasab
//! ludii-replay` does it), and the [`Replayer`] is fed the parsed lines one at a time.
//!
//! At every step the recorded throw is forced, our position (mover, Ludii's turn number, Tab's
//! phase, the board, At-Tab's scores) and our legal moves (as a set: Ludii lists some moves
//! twice) are compared with Ludii's, and Ludii's chosen move is played. At each `end` the
//! decision count, the winner, the end type and (At-Tab) the scores and the final board are
//! compared. The header's tracks are compared with [`Ruleset::ludii_tracks`]. Every difference
//! is a [`Mismatch`]; a trace that cannot be followed at all (lines out of order, values that
//! mean nothing) is a [`ReplayError`].
//!
//! The type names are part of the error messages serde gives for a malformed line ("expected
//! struct StepLine"), so they are kept as they are.
//!
//! # Example
//! ```
//! use qasab_core::tab_ludii::trace::{Dice, GameLine, Header, LegalLine, Line, Replayer, StepLine};
//!
//! let header = Header {
//!     game: "Tab".into(),
//!     options: vec!["Board size/7".into()],
//!     rows: 4,
//!     cols: 7,
//!     tracks: Vec::new(),
//!     max_turns: 1250,
//!     max_moves: 10000,
//! };
//! let start: Vec<[i64; 4]> = (0..7)
//!     .map(|c| [c, 1, 1, 0])
//!     .chain((21..28).map(|c| [c, 2, 1, 0]))
//!     .collect();
//! // White's first throw, a 3, is played as a pass in Tab's opening.
//! let step = StepLine {
//!     g: 0,
//!     step: 0,
//!     mover: 1,
//!     phase: 0,
//!     turn: 1,
//!     dice: Dice { throw: 3 },
//!     pieces: start,
//!     scores: None,
//!     legal: vec![LegalLine { from: -1, to: -1, count: 0, pass: true }],
//!     chosen: 0,
//! };
//! let mut replayer = Replayer::new();
//! replayer.feed(&Line::Header(header)).unwrap();
//! replayer.feed(&Line::Game(GameLine { g: 0 })).unwrap();
//! replayer.feed(&Line::Step(step)).unwrap();
//! assert!(replayer.mismatches().is_empty());
//! // The trace stops in the middle of game 0: no report.
//! assert!(replayer.finish().is_err());
//! ```

use std::collections::BTreeSet;

use serde::Deserialize;
use thiserror::Error;

use crate::game::{GameState, Turn};
use crate::player::Player;
use crate::ruleset::{Ruleset as _, RulesetError};
use crate::sticks::Throw;

use super::moves::{Cell, Move, Step};
use super::ruleset::{Preset, Ruleset};
use super::state::State;

/// One line of a trace, told apart by its `type` field.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Line {
    /// The first line: the game and the board.
    Header(Header),
    /// The start of a game.
    Game(GameLine),
    /// One decision of the game.
    Step(StepLine),
    /// The end of a game.
    End(EndLine),
}

/// The header line: which game Ludii played, on what board and with which limits.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// Ludii's name of the game: `Tab` or `At-Tab wa-d-Dukk`.
    pub game: String,
    /// Ludii's options, as written in the trace (`Board size/7`); shown, not read.
    #[serde(default)]
    pub options: Vec<String>,
    /// Rows of the board (4 for every Tâb board).
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// Ludii's tracks on this board, compared with ours; none skips the comparison.
    #[serde(default)]
    pub tracks: Vec<TrackLine>,
    /// Ludii's turn limit per player (`turn_cap`).
    pub max_turns: u32,
    /// Ludii's decision limit per game (`move_cap`).
    pub max_moves: u32,
}

/// One of Ludii's tracks in the header.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TrackLine {
    /// Ludii's name of the track (`HomeTrack1`, ...), as in [`NamedTrack`](super::NamedTrack).
    pub name: String,
    /// Its sites in order.
    pub sites: Vec<i64>,
}

/// The line that starts a game.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct GameLine {
    /// The game's number in the trace.
    pub g: u32,
}

/// The sticks of a step.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Dice {
    /// The throw: 1, 2, 3, 4 or 6.
    pub throw: u8,
}

/// One decision: the position before it as Ludii sees it, Ludii's legal moves and its choice.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct StepLine {
    /// The game's number.
    pub g: u32,
    /// The decision's number in the game, from 0.
    pub step: u32,
    /// The player to move: 1 or 2.
    pub mover: u8,
    /// Tab's phase: 0 in the opening, 1 after it.
    pub phase: u32,
    /// Ludii's turn number.
    pub turn: u32,
    /// The throw.
    pub dice: Dice,
    /// The board: `[site, owner, count, state]` for every occupied site.
    pub pieces: Vec<[i64; 4]>,
    /// At-Tab's scores, if recorded.
    pub scores: Option<[u32; 2]>,
    /// Ludii's legal moves for the throw (a move may be listed twice).
    pub legal: Vec<LegalLine>,
    /// The index in `legal` of the move Ludii played.
    pub chosen: usize,
}

/// One of Ludii's legal moves.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct LegalLine {
    /// The site moved from (−1 for a pass).
    pub from: i64,
    /// The site moved to (−1 for a pass).
    pub to: i64,
    /// The pieces moved: fewer than the unit's size for a partial move.
    pub count: i64,
    /// Whether the move is a pass.
    pub pass: bool,
}

/// The line that ends a game: how Ludii's game ended.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EndLine {
    /// The game's number.
    pub g: u32,
    /// The winner: 1 or 2, or 0 for none.
    pub winner: u8,
    /// `NaturalEnd` when the rules ended the game, else the limit that stopped it.
    pub end_type: String,
    /// The decisions of the game; must equal its step lines.
    pub decisions: u32,
    /// At-Tab's final scores, if recorded.
    pub scores: Option<[u32; 2]>,
    /// The final board, as in [`StepLine::pieces`].
    pub pieces: Vec<[i64; 4]>,
}

/// One difference between our game and Ludii's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The game it was found in (`None` for the header's tracks).
    pub game: Option<u32>,
    /// The step it was found at (the decision count for the end of a game; `None` for the
    /// header's tracks).
    pub step: Option<u32>,
    /// What differs, in words.
    pub description: String,
}

/// Why a trace cannot be replayed: lines out of order, or values that name nothing in the
/// presets. Unlike a [`Mismatch`], it stops the replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A header line after the first line.
    #[error("a second header line")]
    SecondHeader,
    /// A first line that is not a header.
    #[error("the trace must start with a header line")]
    NoHeader,
    /// The header names a game other than Tab or At-Tab wa-d-Dukk.
    #[error("unknown game '{0}'; expected Tab or At-Tab wa-d-Dukk")]
    UnknownGame(String),
    /// The header's board does not have 4 rows.
    #[error("a board of {0} rows; Tâb boards have 4")]
    Rows(u32),
    /// The header's column count is out of range.
    #[error("{0} columns")]
    Columns(u32),
    /// The header's board or limits are not those of a preset.
    #[error(transparent)]
    Ruleset(#[from] RulesetError),
    /// A game line before the previous game's end line.
    #[error("game {game} starts before game {current} ended")]
    GameNotEnded {
        /// The game starting.
        game: u32,
        /// The game still being replayed.
        current: u32,
    },
    /// A step line between games.
    #[error("a step line outside a game")]
    StepOutsideGame,
    /// A step line that is not the next step of the current game.
    #[error("expected step {expected} of game {current}, found step {step} of game {game}")]
    StepOutOfOrder {
        /// The step expected next.
        expected: u32,
        /// The game being replayed.
        current: u32,
        /// The step found.
        step: u32,
        /// The game of the step found.
        game: u32,
    },
    /// A throw that the sticks cannot make.
    #[error("throw {0} is not 1, 2, 3, 4 or 6")]
    Throw(u8),
    /// A mover that is not player 1 or 2.
    #[error("mover {0} is not 1 or 2")]
    Mover(u8),
    /// A chosen move beyond the legal list.
    #[error("chosen move {0} is not in the legal list")]
    Chosen(usize),
    /// An end line between games.
    #[error("an end line outside a game")]
    EndOutsideGame,
    /// An end line of another game than the current one.
    #[error("end of game {game} inside game {current}")]
    EndOfOtherGame {
        /// The game the end line names.
        game: u32,
        /// The game being replayed.
        current: u32,
    },
    /// An end line whose decision count is not the number of step lines.
    #[error("the end line counts {decisions} decisions, the game has {steps} steps")]
    DecisionCount {
        /// The decisions the end line counts.
        decisions: u32,
        /// The step lines of the game.
        steps: u32,
    },
    /// No line at all.
    #[error("the trace is empty (no header line)")]
    Empty,
    /// The trace ends inside a game.
    #[error("the trace stops in the middle of game {0} (no end line)")]
    Unfinished(u32),
}

/// What a replay found: the trace's game, the ruleset it was replayed with, the counts and
/// every mismatch in the order found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Ludii's name of the game, from the header.
    pub game: String,
    /// Ludii's options, from the header.
    pub options: Vec<String>,
    /// The preset with the header's board and limits.
    pub ruleset: Ruleset,
    /// Games replayed.
    pub games: u32,
    /// Decisions (step lines) replayed, including those skipped once a game was lost.
    pub decisions: u64,
    /// Every difference found.
    pub mismatches: Vec<Mismatch>,
}

impl Report {
    /// Whether our games matched Ludii's at every decision.
    pub fn conforms(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// Replays a trace fed one line at a time, keeping the game being replayed and the mismatches
/// found so far.
///
/// The first line must be the header; it chooses the preset. A game that can no longer be
/// followed (our game ended first, or Ludii's chosen move is not legal for us) is reported
/// once and the rest of its steps are only counted.
#[derive(Clone, Debug, Default)]
pub struct Replayer {
    /// Everything after the header; `None` before it.
    run: Option<Run>,
}

/// The replay once the header is read.
#[derive(Clone, Debug)]
struct Run {
    game: String,
    options: Vec<String>,
    rules: Ruleset,
    games: u32,
    decisions: u64,
    mismatches: Vec<Mismatch>,
    current: Option<Current>,
}

/// The game being replayed.
#[derive(Clone, Debug)]
struct Current {
    g: u32,
    state: State,
    /// Steps seen so far.
    steps: u32,
    /// Set when the games can no longer be followed; the rest of its steps are skipped.
    lost: bool,
}

impl Replayer {
    /// A replayer waiting for the header line.
    pub fn new() -> Self {
        Self::default()
    }

    /// Replays one line: the header chooses the preset, a `game` line starts a game, a `step`
    /// line is compared and played, an `end` line is compared and ends the game. Differences
    /// are recorded as mismatches.
    ///
    /// # Errors
    /// A [`ReplayError`] when the line cannot be replayed where it stands (out of order, or a
    /// value the presets do not know); the replayer should not be fed further.
    pub fn feed(&mut self, line: &Line) -> Result<(), ReplayError> {
        match (line, self.run.as_mut()) {
            (Line::Header(h), None) => {
                self.run = Some(Run::new(h)?);
                Ok(())
            }
            (Line::Header(_), Some(_)) => Err(ReplayError::SecondHeader),
            (_, None) => Err(ReplayError::NoHeader),
            (Line::Game(g), Some(r)) => r.start(g.g),
            (Line::Step(s), Some(r)) => r.step(s),
            (Line::End(e), Some(r)) => r.end(e),
        }
    }

    /// The mismatches found so far, in order.
    pub fn mismatches(&self) -> &[Mismatch] {
        self.run.as_ref().map_or(&[], |r| &r.mismatches)
    }

    /// Ends the replay and reports it.
    ///
    /// # Errors
    /// [`ReplayError::Empty`] if no header was fed, [`ReplayError::Unfinished`] if the last
    /// game has no end line.
    pub fn finish(self) -> Result<Report, ReplayError> {
        let r = self.run.ok_or(ReplayError::Empty)?;
        if let Some(c) = &r.current {
            return Err(ReplayError::Unfinished(c.g));
        }
        Ok(Report {
            game: r.game,
            options: r.options,
            ruleset: r.rules,
            games: r.games,
            decisions: r.decisions,
            mismatches: r.mismatches,
        })
    }
}

impl Run {
    fn new(h: &Header) -> Result<Run, ReplayError> {
        let preset = match h.game.as_str() {
            "Tab" => Preset::Tab,
            "At-Tab wa-d-Dukk" => Preset::Hyde,
            other => return Err(ReplayError::UnknownGame(other.into())),
        };
        if h.rows != 4 {
            return Err(ReplayError::Rows(h.rows));
        }
        let columns = u8::try_from(h.cols).map_err(|_| ReplayError::Columns(h.cols))?;
        let rules = Ruleset::new(preset, columns)?.with_caps(h.max_turns, h.max_moves)?;
        let mut mismatches = Vec::new();
        for ours in rules.ludii_tracks() {
            let theirs = h.tracks.iter().find(|t| t.name == ours.name);
            let same = theirs.is_some_and(|t| {
                t.sites.len() == ours.squares.len()
                    && t.sites
                        .iter()
                        .zip(&ours.squares)
                        .all(|(&a, &b)| a == i64::from(b))
            });
            if !same && !h.tracks.is_empty() {
                mismatches.push(Mismatch {
                    game: None,
                    step: None,
                    description: format!(
                        "Ludii's track {} is not ours ({})",
                        ours.name,
                        theirs.map_or("missing".to_string(), |t| format!("{:?}", t.sites))
                    ),
                });
            }
        }
        Ok(Run {
            game: h.game.clone(),
            options: h.options.clone(),
            rules,
            games: 0,
            decisions: 0,
            mismatches,
            current: None,
        })
    }

    fn start(&mut self, g: u32) -> Result<(), ReplayError> {
        if let Some(c) = &self.current {
            return Err(ReplayError::GameNotEnded {
                game: g,
                current: c.g,
            });
        }
        self.current = Some(Current {
            g,
            state: self.rules.initial_state(),
            steps: 0,
            lost: false,
        });
        Ok(())
    }

    fn mismatch(&mut self, step: Option<u32>, description: String) {
        let game = self.current.as_ref().map(|c| c.g);
        self.mismatches.push(Mismatch {
            game,
            step,
            description,
        });
    }

    fn step(&mut self, s: &StepLine) -> Result<(), ReplayError> {
        let rules = self.rules;
        let Some(c) = self.current.as_mut() else {
            return Err(ReplayError::StepOutsideGame);
        };
        if s.g != c.g || s.step != c.steps {
            return Err(ReplayError::StepOutOfOrder {
                expected: c.steps,
                current: c.g,
                step: s.step,
                game: s.g,
            });
        }
        c.steps += 1;
        self.decisions += 1;
        if c.lost {
            return Ok(());
        }
        let throw = Throw::from_value(s.dice.throw).ok_or(ReplayError::Throw(s.dice.throw))?;
        let mover = player(s.mover).ok_or(ReplayError::Mover(s.mover))?;
        let chosen = s.legal.get(s.chosen).ok_or(ReplayError::Chosen(s.chosen))?;
        let step = Some(s.step);
        let state = c.state;
        let mut problems = Vec::new();
        if state.turn() != Turn::Chance {
            let what = match state.turn() {
                Turn::Over(o) => format!(
                    "Ludii plays on, but our game ended after {} decisions ({})",
                    state.decisions(),
                    o.reason.describe()
                ),
                _ => "our game is not at a throw".into(),
            };
            c.lost = true;
            self.mismatch(step, what);
            return Ok(());
        }
        if state.mover() != mover {
            problems.push(format!(
                "Ludii's mover is player {}, ours {}",
                s.mover,
                state.mover().index() + 1
            ));
        }
        if state.ludii_turn() != s.turn {
            problems.push(format!(
                "Ludii's turn number is {}, ours {}",
                s.turn,
                state.ludii_turn()
            ));
        }
        if rules.game() == Preset::Tab && u32::from(state.in_main_phase()) != s.phase {
            problems.push(format!(
                "Ludii is in phase {}, we are in the {} phase",
                s.phase,
                if state.in_main_phase() {
                    "main"
                } else {
                    "opening"
                }
            ));
        }
        if let Some(d) = board_difference(&state, &s.pieces) {
            problems.push(d);
        }
        if let Some(sc) = s.scores
            && rules.game() == Preset::Hyde
        {
            let ours = state.scores().into_array();
            if ours != sc {
                problems.push(format!("Ludii's scores are {sc:?}, ours {ours:?}"));
            }
        }
        let mut state = state;
        state.apply_chance_unchecked(throw);
        let mut ours = Vec::new();
        state.legal_moves(&mut ours);
        let ours: BTreeSet<Move> = ours.into_iter().collect();
        let mut theirs = BTreeSet::new();
        let mut unreadable = Vec::new();
        for l in &s.legal {
            match to_move(&state, throw, l) {
                Some(m) => {
                    theirs.insert(m);
                }
                None => unreadable.push(format!("{}-{}*{}", l.from, l.to, l.count)),
            }
        }
        if !unreadable.is_empty() {
            problems.push(format!(
                "Ludii's moves {} name no unit of ours",
                unreadable.join(", ")
            ));
        }
        if ours != theirs {
            let only = |a: &BTreeSet<Move>, b: &BTreeSet<Move>| -> String {
                let v: Vec<String> = a.difference(b).map(|m| m.to_string()).collect();
                if v.is_empty() {
                    "none".into()
                } else {
                    v.join(" ")
                }
            };
            problems.push(format!(
                "throw {throw}: legal moves differ; only Ludii's: {}; only ours: {}",
                only(&theirs, &ours),
                only(&ours, &theirs)
            ));
        }
        for p in problems {
            self.mismatch(step, p);
        }
        let Some(c) = self.current.as_mut() else {
            return Ok(());
        };
        match to_move(&state, throw, chosen).filter(|m| state.is_legal(*m)) {
            Some(m) => {
                state.play_unchecked(m);
                c.state = state;
            }
            None => {
                c.lost = true;
                let what = format!(
                    "Ludii's chosen move {}-{}*{} is not legal here; the rest of the game is skipped",
                    chosen.from, chosen.to, chosen.count
                );
                self.mismatch(step, what);
            }
        }
        Ok(())
    }

    fn end(&mut self, e: &EndLine) -> Result<(), ReplayError> {
        let Some(c) = self.current.as_ref() else {
            return Err(ReplayError::EndOutsideGame);
        };
        if e.g != c.g {
            return Err(ReplayError::EndOfOtherGame {
                game: e.g,
                current: c.g,
            });
        }
        if e.decisions != c.steps {
            return Err(ReplayError::DecisionCount {
                decisions: e.decisions,
                steps: c.steps,
            });
        }
        let (state, lost) = (c.state, c.lost);
        let step = Some(e.decisions);
        self.games += 1;
        if !lost {
            match state.turn() {
                Turn::Over(o) => {
                    let winner = o.winner.map_or(0, |p| p.index() as u8 + 1);
                    if winner != e.winner {
                        self.mismatch(
                            step,
                            format!("Ludii's winner is {}, ours {winner}", e.winner),
                        );
                    }
                    let natural = e.end_type == "NaturalEnd";
                    if natural == o.is_truncated() {
                        self.mismatch(
                            step,
                            format!(
                                "Ludii's game ended by {}, ours {}",
                                e.end_type,
                                o.reason.describe()
                            ),
                        );
                    }
                    if let Some(sc) = e.scores
                        && self.rules.game() == Preset::Hyde
                        && o.scores.into_array() != sc
                    {
                        self.mismatch(
                            step,
                            format!(
                                "Ludii's final scores are {sc:?}, ours {:?}",
                                o.scores.into_array()
                            ),
                        );
                    }
                    if let Some(d) = board_difference(&state, &e.pieces) {
                        self.mismatch(step, format!("final board: {d}"));
                    }
                }
                _ => self.mismatch(
                    step,
                    format!(
                        "Ludii's game ended after {} decisions, ours goes on",
                        e.decisions
                    ),
                ),
            }
        }
        self.current = None;
        Ok(())
    }
}

/// Ludii's player number (1 or 2) as a player.
fn player(n: u8) -> Option<Player> {
    Player::from_index(usize::from(n).checked_sub(1)?)
}

/// Our move for one of Ludii's legal moves: passes are `pass`; a count below the unit's size
/// is a partial move.
fn to_move(state: &State, throw: Throw, l: &LegalLine) -> Option<Move> {
    if l.pass {
        return Some(Move::Pass);
    }
    let rules = state.rules();
    let n = rules.columns();
    let squares = i64::try_from(rules.squares()).ok()?;
    if !(0..squares).contains(&l.from) || !(0..squares).contains(&l.to) {
        return None;
    }
    let (from, to) = (l.from as u8, l.to as u8);
    let (_, size) = state.unit_at(from)?;
    let part = if l.count == i64::from(size) {
        0
    } else {
        u8::try_from(l.count).ok().filter(|&k| k >= 1 && k < size)?
    };
    Some(Move::Step(Step {
        throw,
        from: Cell::of(from, n),
        to: Cell::of(to, n),
        part,
        lane: n == 9,
    }))
}

/// How our board differs from Ludii's `[site, owner, count, state]` list, if it does. At-Tab's
/// state 1 is a locked piece; Tab's state marks squares and decides nothing, so it is not
/// compared.
fn board_difference(state: &State, pieces: &[[i64; 4]]) -> Option<String> {
    let hyde = state.rules().game() == Preset::Hyde;
    let mut theirs: Vec<(i64, i64, i64, bool)> = pieces
        .iter()
        .map(|&[site, owner, count, st]| (site, owner, count, hyde && st == 1))
        .collect();
    theirs.sort_unstable();
    let ours: Vec<(i64, i64, i64, bool)> = (0..state.rules().squares() as u8)
        .filter_map(|sq| {
            let (p, c) = state.unit_at(sq)?;
            Some((
                i64::from(sq),
                p.index() as i64 + 1,
                i64::from(c),
                hyde && state.is_locked(sq),
            ))
        })
        .collect();
    if ours == theirs {
        return None;
    }
    let show = |v: &[(i64, i64, i64, bool)], other: &[(i64, i64, i64, bool)]| -> String {
        let d: Vec<String> = v
            .iter()
            .filter(|x| !other.contains(x))
            .map(|&(s, o, c, l)| format!("{s}:P{o}x{c}{}", if l { " locked" } else { "" }))
            .collect();
        if d.is_empty() {
            "none".into()
        } else {
            d.join(" ")
        }
    };
    Some(format!(
        "boards differ; only Ludii's: {}; only ours: {}",
        show(&theirs, &ours),
        show(&ours, &theirs)
    ))
}

#[cfg(test)]
mod tests;
