//! `qasab ludii-replay`: replays Ludii's recorded games and compares them decision by decision.
//!
//! The trace is gzip-compressed JSON Lines: a `header`, then per game a `game` line, one
//! `step` line per decision and an `end` line. At every step the recorded throw is forced, our
//! position (mover, Ludii's turn number, Tab's phase, the board, At-Tab's scores) and our legal
//! moves (as a set) are compared with Ludii's, and Ludii's chosen move is played. At each `end`
//! the decision count, the winner, the end type and (At-Tab) the scores are compared.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use flate2::read::MultiGzDecoder;
use qasab_core::sticks::Throw;
use qasab_core::tab_ludii::{Cell, Move, Preset, Ruleset, State, Step};
use qasab_core::{GameState, Player, Ruleset as _, Turn};
use serde::Deserialize;
use serde_json::json;

/// Mismatches listed in the JSON report.
const JSON_MISMATCHES: usize = 20;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Line {
    Header(Header),
    Game(GameLine),
    Step(StepLine),
    End(EndLine),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Header {
    game: String,
    #[serde(default)]
    options: Vec<String>,
    rows: u32,
    cols: u32,
    #[serde(default)]
    tracks: Vec<TrackLine>,
    max_turns: u32,
    max_moves: u32,
}

#[derive(Deserialize)]
struct TrackLine {
    name: String,
    sites: Vec<i64>,
}

#[derive(Deserialize)]
struct GameLine {
    g: u32,
}

#[derive(Deserialize)]
struct Dice {
    throw: u8,
}

#[derive(Deserialize)]
struct StepLine {
    g: u32,
    step: u32,
    mover: u8,
    phase: u32,
    turn: u32,
    dice: Dice,
    pieces: Vec<[i64; 4]>,
    scores: Option<[u32; 2]>,
    legal: Vec<LegalLine>,
    chosen: usize,
}

#[derive(Deserialize)]
struct LegalLine {
    from: i64,
    to: i64,
    count: i64,
    pass: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EndLine {
    g: u32,
    winner: u8,
    end_type: String,
    decisions: u32,
    scores: Option<[u32; 2]>,
    pieces: Vec<[i64; 4]>,
}

/// One difference between our game and Ludii's.
struct Mismatch {
    game: Option<u32>,
    step: Option<u32>,
    what: String,
}

/// The game being replayed.
struct Current {
    g: u32,
    state: State,
    /// Steps seen so far.
    steps: u32,
    /// Set when the games can no longer be followed; the rest of its steps are skipped.
    lost: bool,
}

struct Replayer {
    rules: Ruleset,
    games: u32,
    decisions: u64,
    mismatches: Vec<Mismatch>,
    current: Option<Current>,
}

pub fn run(file: &Path, json: bool) -> Result<ExitCode> {
    let name = file.display().to_string();
    let mut f = File::open(file).with_context(|| format!("cannot read {name}"))?;
    let mut magic = [0u8; 2];
    let got = f
        .read(&mut magic)
        .with_context(|| format!("cannot read {name}"))?;
    if got < 2 || magic != [0x1f, 0x8b] {
        bail!("{name} is not a gzip file (expected a gzip-compressed JSON Lines trace)");
    }
    let f = File::open(file).with_context(|| format!("cannot read {name}"))?;
    let reader = BufReader::new(MultiGzDecoder::new(BufReader::new(f)));
    let mut replayer: Option<Replayer> = None;
    let mut header_text = String::new();
    for (i, line) in reader.lines().enumerate() {
        let n = i + 1;
        let at = |e: &dyn std::fmt::Display| anyhow!("{name}: line {n}: {e}");
        let line = line.map_err(|e| at(&format!("cannot read the gzip data: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Line =
            serde_json::from_str(&line).map_err(|e| at(&format!("bad trace line: {e}")))?;
        match (parsed, replayer.as_mut()) {
            (Line::Header(h), None) => {
                header_text = format!("{} {}", h.game, h.options.join(" "));
                replayer = Some(Replayer::new(&h).map_err(|e| at(&e))?);
            }
            (Line::Header(_), Some(_)) => return Err(at(&"a second header line")),
            (_, None) => return Err(at(&"the trace must start with a header line")),
            (Line::Game(g), Some(r)) => r.start(g.g).map_err(|e| at(&e))?,
            (Line::Step(s), Some(r)) => r.step(&s).map_err(|e| at(&e))?,
            (Line::End(e), Some(r)) => r.end(&e).map_err(|e| at(&e))?,
        }
    }
    let Some(r) = replayer else {
        bail!("{name}: the trace is empty (no header line)");
    };
    if let Some(c) = &r.current {
        bail!(
            "{name}: the trace stops in the middle of game {} (no end line)",
            c.g
        );
    }
    if json {
        let first: Vec<_> = r
            .mismatches
            .iter()
            .take(JSON_MISMATCHES)
            .map(|m| json!({"game": m.game, "step": m.step, "description": m.what}))
            .collect();
        let v = json!({
            "file": name,
            "ruleset": r.rules.to_string(),
            "games": r.games,
            "decisions": r.decisions,
            "mismatches": r.mismatches.len(),
            "first_mismatches": first,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!("{name}: {} as {}", header_text.trim(), r.rules);
        for m in &r.mismatches {
            let game = m.game.map_or("-".to_string(), |g| g.to_string());
            let step = m.step.map_or("-".to_string(), |s| s.to_string());
            outln!("  mismatch: game {game}, step {step}: {}", m.what);
        }
        outln!(
            "{} games, {} decisions, {} mismatches",
            r.games,
            r.decisions,
            r.mismatches.len()
        );
    }
    if r.mismatches.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        bail!(
            "{} mismatches with Ludii in {name} (first: {})",
            r.mismatches.len(),
            r.mismatches[0].what
        )
    }
}

impl Replayer {
    fn new(h: &Header) -> Result<Replayer, String> {
        let preset = match h.game.as_str() {
            "Tab" => Preset::Tab,
            "At-Tab wa-d-Dukk" => Preset::Hyde,
            other => {
                return Err(format!(
                    "unknown game '{other}'; expected Tab or At-Tab wa-d-Dukk"
                ));
            }
        };
        if h.rows != 4 {
            return Err(format!("a board of {} rows; Tâb boards have 4", h.rows));
        }
        let columns = u8::try_from(h.cols).map_err(|_| format!("{} columns", h.cols))?;
        let rules = Ruleset::new(preset, columns)
            .and_then(|r| r.with_caps(h.max_turns, h.max_moves))
            .map_err(|e| e.to_string())?;
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
                    what: format!(
                        "Ludii's track {} is not ours ({})",
                        ours.name,
                        theirs.map_or("missing".to_string(), |t| format!("{:?}", t.sites))
                    ),
                });
            }
        }
        Ok(Replayer {
            rules,
            games: 0,
            decisions: 0,
            mismatches,
            current: None,
        })
    }

    fn start(&mut self, g: u32) -> Result<(), String> {
        if let Some(c) = &self.current {
            return Err(format!("game {g} starts before game {} ended", c.g));
        }
        self.current = Some(Current {
            g,
            state: self.rules.initial_state(),
            steps: 0,
            lost: false,
        });
        Ok(())
    }

    fn mismatch(&mut self, step: Option<u32>, what: String) {
        let game = self.current.as_ref().map(|c| c.g);
        self.mismatches.push(Mismatch { game, step, what });
    }

    fn step(&mut self, s: &StepLine) -> Result<(), String> {
        let rules = self.rules;
        let Some(c) = self.current.as_mut() else {
            return Err("a step line outside a game".into());
        };
        if s.g != c.g || s.step != c.steps {
            return Err(format!(
                "expected step {} of game {}, found step {} of game {}",
                c.steps, c.g, s.step, s.g
            ));
        }
        c.steps += 1;
        self.decisions += 1;
        if c.lost {
            return Ok(());
        }
        let throw = Throw::from_value(s.dice.throw)
            .ok_or_else(|| format!("throw {} is not 1, 2, 3, 4 or 6", s.dice.throw))?;
        let mover = player(s.mover).ok_or_else(|| format!("mover {} is not 1 or 2", s.mover))?;
        let chosen = s
            .legal
            .get(s.chosen)
            .ok_or_else(|| format!("chosen move {} is not in the legal list", s.chosen))?;
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

    fn end(&mut self, e: &EndLine) -> Result<(), String> {
        let Some(c) = self.current.as_ref() else {
            return Err("an end line outside a game".into());
        };
        if e.g != c.g {
            return Err(format!("end of game {} inside game {}", e.g, c.g));
        }
        if e.decisions != c.steps {
            return Err(format!(
                "the end line counts {} decisions, the game has {} steps",
                e.decisions, c.steps
            ));
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
