//! Game records: a versioned text format holding the ruleset string and every action.
//!
//! A record is enough to reproduce a game exactly: the actions include the chance outcomes, so
//! replaying never consults a random generator. The format (version 1) is line-based UTF-8:
//!
//! ```text
//! qasab-record 1
//! ruleset tihbat(seeds=3)
//! info south random(seed=7)
//! info north solver
//! actions
//! 1 south A3
//! 2 north C4
//! 3 south B4
//! end north-wins 0 12 board-empty
//! ```
//!
//! * The first line names the format and its version.
//! * `ruleset` (required, once) gives the canonical ruleset string.
//! * `info KEY VALUE` lines are free metadata (players, seed, date); replay ignores them.
//! * `actions` starts the numbered action list. Each line is `N ACTOR ACTION`: the 1-based
//!   action number, who acts (a seat name, or `chance`), and the action in the game's notation.
//! * `end` closes the record: `end unfinished` for a game stopped before its end, otherwise
//!   `end RESULT SCORE1 SCORE2 REASON` with `RESULT` one of `SEAT-wins` or `draw`, the final
//!   scores in seat order and the [`EndReason`] name. Replay checks that the game ends exactly so.
//! * Blank lines and lines starting with `#` are ignored.
//!
//! A record without its `end` line is truncated and rejected.

use std::fmt::Write as _;

use thiserror::Error;

use crate::game::{Action, ActionError, EndReason, GameState, Turn};
use crate::ruleset::{Ruleset, RulesetError};

/// The first word of a record.
pub const MAGIC: &str = "qasab-record";
/// The format version written and read by this build.
pub const VERSION: u32 = 1;

/// A record read from text, checked for syntax but not yet replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The ruleset string as written.
    pub ruleset: String,
    /// The line number of the `ruleset` line.
    pub ruleset_line: usize,
    /// `info` lines, in order.
    pub info: Vec<(String, String)>,
    /// The actions, in order.
    pub actions: Vec<RecordedAction>,
    /// How the record says the game ended.
    pub end: RecordedEnd,
    /// The line number of the `end` line.
    pub end_line: usize,
}

/// One action line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedAction {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The actor: a seat name or `chance`.
    pub actor: String,
    /// The action text.
    pub text: String,
}

/// The `end` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedEnd {
    /// The game was stopped before its end.
    Unfinished,
    /// The game ended.
    Finished {
        /// The winner's seat name, or `None` for a draw.
        winner: Option<String>,
        /// Final scores in seat order.
        scores: [u32; 2],
        /// Why the game ended.
        reason: EndReason,
    },
}

/// A record that cannot be read or replayed, with the line at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}{kind}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
pub struct RecordError {
    /// The 1-based line number, or 0 when the problem is not on one line.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// The file holds nothing.
    #[error("the record is empty")]
    Empty,
    /// The first line is not `qasab-record N`.
    #[error("not a qasab record: the first line must be '{MAGIC} {VERSION}'")]
    NotARecord,
    /// A version this build cannot read.
    #[error("record version {0} is not supported; this build reads version {VERSION}")]
    Version(String),
    /// No `ruleset` line before `actions`.
    #[error("the ruleset line is missing before 'actions'")]
    MissingRuleset,
    /// Two `ruleset` lines.
    #[error("a second ruleset line")]
    DuplicateRuleset,
    /// The ruleset string is invalid.
    #[error("{0}")]
    Ruleset(RulesetError),
    /// A line that does not belong where it is.
    #[error("unexpected line '{0}'")]
    UnexpectedLine(String),
    /// A malformed action line.
    #[error("bad action line '{0}': expected 'N ACTOR ACTION', e.g. '1 south A7'")]
    BadActionLine(String),
    /// Action numbers must count 1, 2, 3, ...
    #[error("action number {found} out of sequence; expected {expected}")]
    ActionNumber {
        /// The number expected.
        expected: usize,
        /// The number found.
        found: String,
    },
    /// The actor is not the one whose turn it is.
    #[error("the action is attributed to '{found}' but {expected} acts here")]
    WrongActor {
        /// Who should act.
        expected: String,
        /// Who the record names.
        found: String,
    },
    /// The action is not legal or not readable.
    #[error("{0}")]
    Action(String),
    /// An action after the game ended.
    #[error("action after the end of the game ({0})")]
    AfterEnd(String),
    /// A malformed `end` line.
    #[error("bad end line '{0}': expected 'end unfinished' or 'end RESULT SCORE SCORE REASON'")]
    BadEnd(String),
    /// The `end` line disagrees with the replayed game.
    #[error("the record says '{recorded}' but the replayed game {actual}")]
    EndMismatch {
        /// What the record says.
        recorded: String,
        /// What replaying gives.
        actual: String,
    },
    /// The file stops before its `end` line.
    #[error("the record is truncated: no 'end' line after the last action")]
    Truncated,
    /// Text after the `end` line.
    #[error("text after the end line")]
    TrailingText,
}

fn err(line: usize, kind: RecordErrorKind) -> RecordError {
    RecordError { line, kind }
}

impl RecordError {
    /// The error for a bad ruleset string on line `line`.
    pub(crate) fn ruleset(line: usize, e: RulesetError) -> RecordError {
        err(line, RecordErrorKind::Ruleset(e))
    }
}

impl Record {
    /// Reads a record's text. Only the syntax is checked; see [`replay`] for the rules.
    ///
    /// # Errors
    /// [`RecordError`] with the line number and the problem.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let (n, first) = lines.next().ok_or_else(|| err(0, RecordErrorKind::Empty))?;
        let mut words = first.split_whitespace();
        if words.next() != Some(MAGIC) {
            return Err(err(n, RecordErrorKind::NotARecord));
        }
        match words.next() {
            Some(v) if v == VERSION.to_string() && words.next().is_none() => {}
            Some(v) => return Err(err(n, RecordErrorKind::Version(v.to_string()))),
            None => return Err(err(n, RecordErrorKind::NotARecord)),
        }
        let mut ruleset = None;
        let mut info = Vec::new();
        let mut in_actions = false;
        let mut actions = Vec::new();
        let mut last_line = n;
        for (n, line) in lines.by_ref() {
            last_line = n;
            let (word, rest) = line
                .split_once(char::is_whitespace)
                .map_or((line, ""), |(w, r)| (w, r.trim()));
            if !in_actions {
                match word {
                    "ruleset" if ruleset.is_some() => {
                        return Err(err(n, RecordErrorKind::DuplicateRuleset));
                    }
                    "ruleset" if !rest.is_empty() => ruleset = Some((n, rest.to_string())),
                    "info" => {
                        let (k, v) = rest
                            .split_once(char::is_whitespace)
                            .map_or((rest, ""), |(k, v)| (k, v.trim()));
                        if k.is_empty() {
                            return Err(err(n, RecordErrorKind::UnexpectedLine(line.to_string())));
                        }
                        info.push((k.to_string(), v.to_string()));
                    }
                    "actions" if rest.is_empty() => {
                        if ruleset.is_none() {
                            return Err(err(n, RecordErrorKind::MissingRuleset));
                        }
                        in_actions = true;
                    }
                    _ => return Err(err(n, RecordErrorKind::UnexpectedLine(line.to_string()))),
                }
                continue;
            }
            if word == "end" {
                let end = parse_end(rest)
                    .ok_or_else(|| err(n, RecordErrorKind::BadEnd(line.to_string())))?;
                if let Some((m, _)) = lines.next() {
                    return Err(err(m, RecordErrorKind::TrailingText));
                }
                let (ruleset_line, ruleset) = ruleset.unwrap_or_default();
                return Ok(Record {
                    ruleset,
                    ruleset_line,
                    info,
                    actions,
                    end,
                    end_line: n,
                });
            }
            let parts: Vec<&str> = line.splitn(3, char::is_whitespace).collect();
            let [num, actor, action] = parts.as_slice() else {
                return Err(err(n, RecordErrorKind::BadActionLine(line.to_string())));
            };
            let expected = actions.len() + 1;
            if num.parse::<usize>().ok() != Some(expected) {
                return Err(err(
                    n,
                    RecordErrorKind::ActionNumber {
                        expected,
                        found: num.to_string(),
                    },
                ));
            }
            actions.push(RecordedAction {
                line: n,
                actor: actor.to_string(),
                text: action.trim().to_string(),
            });
        }
        if in_actions {
            Err(err(last_line, RecordErrorKind::Truncated))
        } else if ruleset.is_none() {
            Err(err(last_line, RecordErrorKind::MissingRuleset))
        } else {
            Err(err(last_line, RecordErrorKind::Truncated))
        }
    }
}

fn parse_end(rest: &str) -> Option<RecordedEnd> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    match w.as_slice() {
        ["unfinished"] => Some(RecordedEnd::Unfinished),
        [result, a, b, reason] => {
            let winner = if *result == "draw" {
                None
            } else {
                Some(result.strip_suffix("-wins")?.to_string())
            };
            Some(RecordedEnd::Finished {
                winner,
                scores: [a.parse().ok()?, b.parse().ok()?],
                reason: reason.parse().ok()?,
            })
        }
        _ => None,
    }
}

impl RecordedEnd {
    /// The `end` line of a game in `state`.
    pub fn of<S: GameState>(state: &S) -> RecordedEnd {
        match state.turn() {
            Turn::Over(o) => RecordedEnd::Finished {
                winner: o.winner.map(|p| state.ruleset().seat_name(p).to_string()),
                scores: o.scores.into_array(),
                reason: o.reason,
            },
            _ => RecordedEnd::Unfinished,
        }
    }
}

impl std::fmt::Display for RecordedEnd {
    /// The text after `end`: `unfinished`, or `RESULT SCORE SCORE REASON`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordedEnd::Unfinished => f.write_str("unfinished"),
            RecordedEnd::Finished {
                winner,
                scores,
                reason,
            } => {
                match winner {
                    Some(w) => write!(f, "{w}-wins")?,
                    None => f.write_str("draw")?,
                }
                write!(f, " {} {} {}", scores[0], scores[1], reason.name())
            }
        }
    }
}

/// The actor name at a turn: the seat name, or `chance`.
pub fn actor_name<S: GameState>(state: &S) -> Option<&'static str> {
    match state.turn() {
        Turn::Chance => Some("chance"),
        Turn::Player(p) => Some(state.ruleset().seat_name(p)),
        Turn::Over(_) => None,
    }
}

/// Writes the record of a game played from `rules.initial_state()` with `actions`.
///
/// # Panics
/// If an action is not legal at its point of the game; records are written only from games the
/// engine played.
pub fn write_record<S: GameState>(
    rules: &S::Ruleset,
    actions: &[Action<S::Move, S::Chance>],
    info: &[(String, String)],
) -> String {
    try_write_record::<S>(rules, actions, info).expect("a recorded action must be legal")
}

/// Writes the record of a game played from `rules.initial_state()` with `actions`, checking
/// every action.
///
/// # Errors
/// [`ActionError`] for the first action that is not legal at its point of the game.
pub fn try_write_record<S: GameState>(
    rules: &S::Ruleset,
    actions: &[Action<S::Move, S::Chance>],
    info: &[(String, String)],
) -> Result<String, ActionError> {
    let mut state = rules.initial_state();
    let mut out = String::new();
    let _ = writeln!(out, "{MAGIC} {VERSION}");
    let _ = writeln!(out, "ruleset {rules}");
    for (k, v) in info {
        let _ = writeln!(out, "info {k} {v}");
    }
    let _ = writeln!(out, "actions");
    for (i, a) in actions.iter().enumerate() {
        let actor = actor_name(&state).unwrap_or("nobody");
        let _ = writeln!(out, "{} {actor} {a}", i + 1);
        state.try_apply(*a)?;
    }
    let _ = writeln!(out, "end {}", RecordedEnd::of(&state));
    Ok(out)
}

/// A replayed record: the typed actions and the final state.
#[derive(Clone, Debug)]
pub struct Replay<S: GameState> {
    /// The ruleset.
    pub rules: S::Ruleset,
    /// Every action, in order.
    pub actions: Vec<Action<S::Move, S::Chance>>,
    /// The state after the last action.
    pub state: S,
}

/// Replays a parsed record under its ruleset, checking every action and the `end` line.
///
/// # Errors
/// [`RecordError`] naming the first line at fault: a bad ruleset, an action by the wrong actor,
/// an unreadable or illegal action, an action after the end, or an `end` line that does not
/// match the game.
pub fn replay<S: GameState>(record: &Record) -> Result<Replay<S>, RecordError> {
    let rules: S::Ruleset = record
        .ruleset
        .parse()
        .map_err(|e| err(record.ruleset_line, RecordErrorKind::Ruleset(e)))?;
    let mut state = rules.initial_state();
    let mut actions = Vec::with_capacity(record.actions.len());
    for ra in &record.actions {
        let fail = |kind| err(ra.line, kind);
        let action = match state.turn() {
            Turn::Over(o) => {
                return Err(fail(RecordErrorKind::AfterEnd(o.reason.describe().into())));
            }
            Turn::Chance => {
                if ra.actor != "chance" {
                    return Err(fail(RecordErrorKind::WrongActor {
                        expected: "chance".into(),
                        found: ra.actor.clone(),
                    }));
                }
                Action::Chance(
                    state
                        .parse_chance(&ra.text)
                        .map_err(|e| fail(RecordErrorKind::Action(e.to_string())))?,
                )
            }
            Turn::Player(p) => {
                let seat = rules.seat_name(p);
                if ra.actor != seat {
                    return Err(fail(RecordErrorKind::WrongActor {
                        expected: seat.into(),
                        found: ra.actor.clone(),
                    }));
                }
                let m = state
                    .parse_move(&ra.text)
                    .map_err(|e| fail(RecordErrorKind::Action(e.to_string())))?;
                // The record must hold the full notation, not a shorthand.
                if m.to_string() != ra.text {
                    return Err(fail(RecordErrorKind::Action(format!(
                        "'{}' must be written in full as '{m}'",
                        ra.text
                    ))));
                }
                Action::Move(m)
            }
        };
        // Read by parse_move or parse_chance, the action is legal.
        state.apply_unchecked(action);
        actions.push(action);
    }
    let actual = RecordedEnd::of(&state);
    if record.end != actual {
        let recorded = record.end.to_string();
        let actual = match state.turn() {
            Turn::Over(_) => format!("ends '{actual}'"),
            Turn::Chance => "is not over: a chance event is due".into(),
            Turn::Player(p) => format!("is not over: {} is to move", rules.seat_name(p)),
        };
        return Err(err(
            record.end_line,
            RecordErrorKind::EndMismatch { recorded, actual },
        ));
    }
    Ok(Replay {
        rules,
        actions,
        state,
    })
}

/// Reads and replays a record of any game whose ruleset type is `S::Ruleset`.
///
/// # Errors
/// As [`Record::parse`] and [`replay`].
pub fn replay_text<S: GameState>(text: &str) -> Result<Replay<S>, RecordError> {
    replay(&Record::parse(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tihbat;

    const GOOD: &str = "qasab-record 1\nruleset tihbat(seeds=1)\ninfo south human\nactions\n1 south A1\n2 north C1\nend draw 2 2 repetition\n";

    fn replay_err(text: &str) -> RecordError {
        replay_text::<tihbat::State>(text).unwrap_err()
    }

    #[test]
    fn a_good_record_replays() {
        let r = replay_text::<tihbat::State>(GOOD).unwrap();
        assert_eq!(r.actions.len(), 2);
        assert_eq!(
            r.state.turn().outcome().unwrap().reason,
            EndReason::Repetition
        );
    }

    #[test]
    fn comments_and_blank_lines_are_ignored() {
        let text = format!(
            "# a game\n\n{}",
            GOOD.replace("actions\n", "actions\n\n# opening\n")
        );
        assert!(replay_text::<tihbat::State>(&text).is_ok());
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases: &[(&str, usize, &str)] = &[
            ("", 0, "empty"),
            ("hello\n", 1, "not a qasab record"),
            ("qasab-record 2\n", 1, "version 2 is not supported"),
            ("qasab-record 1\nactions\n", 2, "ruleset line is missing"),
            (
                "qasab-record 1\nruleset tihbat(seeds=0)\nactions\nend unfinished\n",
                2,
                "from 1 to 60",
            ),
            (
                "qasab-record 1\nruleset tihbat\nruleset tihbat\n",
                3,
                "second ruleset",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n1 south A7\n",
                4,
                "truncated",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n2 south A7\nend unfinished\n",
                4,
                "out of sequence",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n1 north C7\nend unfinished\n",
                4,
                "south acts here",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n1 south A6\nend unfinished\n",
                4,
                "holds 7 counters, not 6",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n1 south a\nend unfinished\n",
                4,
                "written in full as 'A7'",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n1 south A7\nend draw 0 0 repetition\n",
                5,
                "is not over: north is to move",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\nend unfinished\nmore\n",
                5,
                "after the end line",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\nend sideways\n",
                4,
                "bad end line",
            ),
            (
                "qasab-record 1\nruleset tihbat\nactions\n1 south\nend unfinished\n",
                4,
                "bad action line",
            ),
        ];
        for &(text, line, what) in cases {
            let e = replay_err(text);
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(what), "{text:?}: {e}");
        }
        let after_end = GOOD.replace("end draw", "3 south A1\nend draw");
        assert!(
            replay_err(&after_end)
                .to_string()
                .contains("after the end of the game")
        );
        let wrong_end = GOOD.replace("end draw 2 2", "end south-wins 3 1");
        assert!(
            replay_err(&wrong_end)
                .to_string()
                .contains("ends 'draw 2 2 repetition'")
        );
    }

    #[test]
    fn written_records_read_back() {
        let rules = tihbat::Ruleset::with_seeds(1);
        let actions = [Action::Move(tihbat::Move::Sow {
            pit: tihbat::Pit::A,
            count: 1,
        })];
        let text = write_record::<tihbat::State>(&rules, &actions, &[("seed".into(), "3".into())]);
        assert!(text.ends_with("end unfinished\n"), "{text}");
        let r = Record::parse(&text).unwrap();
        assert_eq!(r.info, vec![("seed".to_string(), "3".to_string())]);
        assert_eq!(replay::<tihbat::State>(&r).unwrap().actions, actions);
    }
}
