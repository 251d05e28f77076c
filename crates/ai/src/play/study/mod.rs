//! The variant laboratory behind `qasab study`: many games under each variant of a ruleset,
//! and what they say about the game ([`metrics`]).
//!
//! # Variants
//! A study is a list of [`Variant`]s, each a ruleset. [`vary`] makes them as the product of
//! option values on top of one base ruleset (`--vary reduction=off,square-landed --vary
//! columns=7..11`); they may also be any list of ruleset strings, of different games.
//!
//! # Games
//! Each variant plays [`StudySpec::games`] games between the two players, in *pairs*: the two
//! games of a pair draw the same throws with the players' seats swapped ([`crate::play::arena`]).
//! With a skill check it also plays [`StudySpec::skill_games`] games of the strong player
//! against the weak one.
//! The pairs are played in chunks of [`CHUNK_PAIRS`]; a chunk is the unit of work that a
//! study keeps (`qasab study` stores each in SQLite) and that a run stopped halfway does not
//! repeat.
//!
//! # Seeds
//! A variant's seed is `derive_seed(S, h)` for the study seed `S` and the 64-bit FNV-1a hash
//! `h` of the variant's canonical ruleset string, so a variant plays the same games in every
//! study with the same seed and players, whatever other variants it is studied with. Its main
//! match is the arena pairing (0, 1) of [`PairSeeds::new`] under the seed
//! `derive_seed(variant seed, 0)`, and its skill match the same under `derive_seed(variant
//! seed, 1)`. A chunk's games depend on nothing else, so the results do not depend on the
//! number of threads, on the order in which chunks are played, or on interruptions.

pub mod metrics;

use std::collections::BTreeMap;

use qasab_core::{AnyRuleset, GameState, Player, Ruleset, RulesetError, Turn, with_ruleset};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::eval::EvalWeights;
use crate::play::arena::{PairSeeds, play_pair_to_end, player_base_seed};
use crate::play::simulate::{Distribution, nearest_rank};
use crate::play::stalls::Verdict;
use crate::play::stats::{EloDifference, elo_difference, score_interval};
use crate::players::{Playable, PreparedAgent};
use crate::rng::derive_seed;
use crate::spec::AgentError;
use metrics::{Estimate, GameLog, GameStats, Metrics};

/// Game pairs in one chunk of work.
pub const CHUNK_PAIRS: u64 = 8;

/// The most games per variant and match.
pub const MAX_GAMES: u64 = 1_000_000;

/// The most variants in one study.
pub const MAX_VARIANTS: usize = 10_000;

/// One variant of a study.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The ruleset.
    pub rules: AnyRuleset,
    /// The values of the varied options, in the order of the axes (empty for a variant given
    /// as a ruleset string).
    pub values: Vec<(String, String)>,
}

impl Variant {
    /// A short name: the varied values (`reduction=off, columns=7`), or the canonical ruleset
    /// string when nothing was varied.
    pub fn label(&self) -> String {
        if self.values.is_empty() {
            self.rules.to_string()
        } else {
            self.values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// Why a study cannot be run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum StudyError {
    /// A `--vary` axis is not of the form `KEY=V1,V2,...`.
    #[error("--vary {given}: {reason}")]
    VarySyntax {
        /// The axis as given.
        given: String,
        /// What is wrong.
        reason: String,
    },
    /// A varied value, or a combination of them, is not a ruleset.
    #[error("--vary {assignment}: {refusal}")]
    Variant {
        /// The option values that make the variant (`reduction=off, columns=8`).
        assignment: String,
        /// The ruleset's refusal.
        refusal: RulesetError,
    },
    /// The same option is varied twice.
    #[error("--vary {key} is given more than once")]
    DuplicateAxis {
        /// The key.
        key: String,
    },
    /// No variants, or too many.
    #[error("a study needs from 1 to {MAX_VARIANTS} variants; got {given}")]
    Variants {
        /// The number given.
        given: usize,
    },
    /// The games per variant are odd or too many.
    #[error(
        "games per variant must be an even number up to {MAX_GAMES} (each pair plays both seatings with the same throws); got {given}"
    )]
    Games {
        /// The number given.
        given: u64,
    },
    /// No games, and no exact value to give instead.
    #[error(
        "--games 0 gives only the exact solver values, which exist for tihbat only; {ruleset} needs games"
    )]
    NoGames {
        /// The variant without a solver.
        ruleset: String,
    },
    /// A player's spec does not suit a variant.
    #[error("{role} player {spec} in {ruleset}: {refusal}")]
    Player {
        /// Which player (`first`, `second`, `strong`, `weak`).
        role: &'static str,
        /// The spec.
        spec: String,
        /// The variant's ruleset.
        ruleset: String,
        /// Why it was refused.
        refusal: Box<AgentError>,
    },
}

/// Splits one `--vary` axis, `KEY=V1,V2,...`, into its key and values; an integer range
/// `A..B` (or `A..=B`) stands for every integer from A to B.
///
/// # Errors
/// [`StudyError::VarySyntax`] naming the problem.
pub fn parse_axis(text: &str) -> Result<(String, Vec<String>), StudyError> {
    let bad = |reason: &str| StudyError::VarySyntax {
        given: text.to_string(),
        reason: reason.to_string(),
    };
    let (key, values) = text
        .split_once('=')
        .ok_or_else(|| bad("expected KEY=V1,V2,... (or KEY=A..B for integers)"))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(bad("the key is missing"));
    }
    let mut out = Vec::new();
    for v in values.split(',').map(str::trim) {
        if v.is_empty() {
            return Err(bad("an empty value (two commas, or a trailing comma)"));
        }
        if let Some((a, b)) = v.split_once("..") {
            let b = b.strip_prefix('=').unwrap_or(b);
            let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) else {
                return Err(bad(&format!("'{v}' is not a range of integers A..B")));
            };
            if a > b || b - a >= MAX_VARIANTS as u32 {
                return Err(bad(&format!("the range '{v}' is empty or too long")));
            }
            out.extend((a..=b).map(|n| n.to_string()));
        } else {
            out.push(v.to_string());
        }
    }
    if let Some(dup) = out.iter().enumerate().find(|(i, v)| out[..*i].contains(v)) {
        return Err(bad(&format!("the value '{}' is given twice", dup.1)));
    }
    Ok((key.to_string(), out))
}

/// The variants that vary `axes` on top of `base`: the product of the values, the first axis
/// outermost. With no axes, the base alone.
///
/// # Errors
/// [`StudyError`] for a repeated axis, too many variants, or a value or combination the
/// ruleset refuses (naming the values).
pub fn vary(base: &AnyRuleset, axes: &[(String, Vec<String>)]) -> Result<Vec<Variant>, StudyError> {
    for (i, (k, _)) in axes.iter().enumerate() {
        if axes[..i].iter().any(|(j, _)| j == k) {
            return Err(StudyError::DuplicateAxis { key: k.clone() });
        }
    }
    let total = axes
        .iter()
        .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
        .filter(|&n| (1..=MAX_VARIANTS).contains(&n))
        .ok_or(StudyError::Variants {
            given: axes.iter().map(|(_, v)| v.len()).product(),
        })?;
    let base_text = base.to_string();
    let parsed = qasab_core::ruleset::split_spec(&base_text).expect("a canonical ruleset string");
    (0..total)
        .map(|mut n| {
            let mut values = vec![(String::new(), String::new()); axes.len()];
            for (slot, (k, vs)) in values.iter_mut().zip(axes).rev() {
                *slot = (k.clone(), vs[n % vs.len()].clone());
                n /= vs.len();
            }
            let mut options: Vec<(&str, &str)> = parsed
                .options
                .iter()
                .filter(|(k, _)| !values.iter().any(|(v, _)| v == k))
                .copied()
                .collect();
            options.extend(values.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            let text = format!(
                "{}({})",
                parsed.name,
                options
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let rules = text
                .parse::<AnyRuleset>()
                .map_err(|refusal| StudyError::Variant {
                    assignment: values
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    refusal,
                })?;
            Ok(Variant { rules, values })
        })
        .collect()
}

/// One match of a variant: the main players, or the skill check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Match {
    /// The two players of `--players`, seated both ways round.
    Main,
    /// The strong player against the weak one.
    Skill,
}

impl Match {
    /// The name stored with a chunk.
    pub const fn name(self) -> &'static str {
        match self {
            Match::Main => "main",
            Match::Skill => "skill",
        }
    }
}

/// One chunk of work: game pairs `first .. first + pairs` of one match of one variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkKey {
    /// The variant's index in the study.
    pub variant: usize,
    /// The match.
    pub game: Match,
    /// The first game pair.
    pub first: u64,
    /// The number of game pairs.
    pub pairs: u64,
}

/// The games of one chunk, in pair order: for each pair, the game with the first player (or
/// the strong one) in the first seat, then the other.
pub type ChunkGames = Vec<[GameStats; 2]>;

/// A study: the variants, the players and the games.
#[derive(Clone, Debug)]
pub struct StudySpec {
    /// The variants.
    pub variants: Vec<Variant>,
    /// The two players of the main match.
    pub players: [String; 2],
    /// The strong and the weak player of the skill check, if any.
    pub skill: Option<[String; 2]>,
    /// Games per variant in the main match: an even number, 0 for the exact values only
    /// (Tihbat).
    pub games: u64,
    /// Games per variant in the skill check: an even number, at least 2 with a skill check.
    pub skill_games: u64,
    /// The study seed.
    pub seed: u64,
}

/// The 64-bit FNV-1a hash of a string: a variant's stream in the study seed.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl StudySpec {
    /// Checks the study: the number of variants and games, and every player against every
    /// variant.
    ///
    /// # Errors
    /// The first [`StudyError`] met.
    pub fn check(&self) -> Result<(), StudyError> {
        let n = self.variants.len();
        if !(1..=MAX_VARIANTS).contains(&n) {
            return Err(StudyError::Variants { given: n });
        }
        if self.games % 2 == 1 || self.games > MAX_GAMES {
            return Err(StudyError::Games { given: self.games });
        }
        let skill_games = self.skill_games;
        if self.skill.is_some()
            && (skill_games == 0 || skill_games % 2 == 1 || skill_games > MAX_GAMES)
        {
            return Err(StudyError::Games { given: skill_games });
        }
        for v in &self.variants {
            if self.games == 0 {
                if crate::search::solver::solvable(&v.rules).is_none() {
                    return Err(StudyError::NoGames {
                        ruleset: v.rules.to_string(),
                    });
                }
                continue;
            }
            let roles = [("first", &self.players[0]), ("second", &self.players[1])]
                .into_iter()
                .chain(
                    self.skill
                        .iter()
                        .flat_map(|[s, w]| [("strong", s), ("weak", w)]),
                );
            for (role, spec) in roles {
                with_ruleset!(&v.rules, r => check_player(r, spec)).map_err(|refusal| {
                    StudyError::Player {
                        role,
                        spec: spec.clone(),
                        ruleset: v.rules.to_string(),
                        refusal: Box::new(refusal),
                    }
                })?;
            }
        }
        Ok(())
    }

    /// The seed of variant `v`'s match `game` (see the module docs).
    fn match_seed(&self, v: usize, game: Match) -> u64 {
        let variant = derive_seed(self.seed, fnv1a(&self.variants[v].rules.to_string()));
        derive_seed(variant, game as u64)
    }

    /// The two players of a match, in order A, B (`None` for a skill check the study lacks).
    pub fn match_players(&self, game: Match) -> Option<[&str; 2]> {
        match game {
            Match::Main => Some([self.players[0].as_str(), self.players[1].as_str()]),
            Match::Skill => self.skill.as_ref().map(|[s, w]| [s.as_str(), w.as_str()]),
        }
    }

    /// Every chunk of the study, variant by variant.
    pub fn chunks(&self) -> Vec<ChunkKey> {
        let matches: &[Match] = if self.skill.is_some() {
            &[Match::Main, Match::Skill]
        } else {
            &[Match::Main]
        };
        let mut out = Vec::new();
        for variant in 0..self.variants.len() {
            for &game in matches {
                let pairs = match game {
                    Match::Main => self.games / 2,
                    Match::Skill => self.skill_games / 2,
                };
                let mut first = 0;
                while first < pairs {
                    let n = CHUNK_PAIRS.min(pairs - first);
                    out.push(ChunkKey {
                        variant,
                        game,
                        first,
                        pairs: n,
                    });
                    first += n;
                }
            }
        }
        out
    }

    /// Plays one chunk.
    ///
    /// # Panics
    /// If the study was not checked ([`StudySpec::check`]) or the key is not one of its chunks.
    pub fn run_chunk(&self, key: &ChunkKey) -> ChunkGames {
        self.try_run_chunk(key).expect("a checked spec")
    }

    /// Plays one chunk of a study that may not have been checked: a player that the chunk's
    /// variant refuses is an error.
    ///
    /// # Errors
    /// [`StudyError::Player`] for a spec the variant refuses.
    ///
    /// # Panics
    /// If the key is not one of the study's chunks.
    pub fn try_run_chunk(&self, key: &ChunkKey) -> Result<ChunkGames, StudyError> {
        let players = self.match_players(key.game).expect("a match of the study");
        let seed = self.match_seed(key.variant, key.game);
        let rules = &self.variants[key.variant].rules;
        with_ruleset!(rules, r => play_chunk(r, players, seed, key)).map_err(|(i, refusal)| {
            let role = match (key.game, i) {
                (Match::Main, 0) => "first",
                (Match::Main, _) => "second",
                (Match::Skill, 0) => "strong",
                (Match::Skill, _) => "weak",
            };
            StudyError::Player {
                role,
                spec: players[i].to_string(),
                ruleset: rules.to_string(),
                refusal: Box::new(refusal),
            }
        })
    }

    /// The report of the study from its chunks (every chunk of [`StudySpec::chunks`], in any
    /// order) and the exact values of its variants ([`solver_values`]; empty when none).
    ///
    /// # Panics
    /// If a chunk is missing.
    pub fn report(
        &self,
        chunks: &BTreeMap<ChunkKey, ChunkGames>,
        solver: &[Option<SolverValue>],
    ) -> StudyReport {
        let variants = self
            .variants
            .iter()
            .enumerate()
            .map(|(v, variant)| {
                let games = |game: Match| -> Vec<[GameStats; 2]> {
                    chunks
                        .iter()
                        .filter(|(k, _)| k.variant == v && k.game == game)
                        .flat_map(|(_, g)| g.iter().cloned())
                        .collect()
                };
                let main = games(Match::Main);
                assert_eq!(main.len() as u64 * 2, self.games, "missing chunks");
                let skill = self
                    .skill
                    .as_ref()
                    .map(|_| skill_report(&games(Match::Skill)));
                VariantReport::new(variant, &main, skill, solver.get(v).cloned().flatten())
            })
            .collect();
        StudyReport {
            base: self
                .variants
                .first()
                .map(|v| v.rules.name().to_string())
                .unwrap_or_default(),
            varied: self
                .variants
                .first()
                .map(|v| v.values.iter().map(|(k, _)| k.clone()).collect())
                .unwrap_or_default(),
            players: self.players.clone(),
            skill: self.skill.as_ref().map(|[s, w]| SkillPlayers {
                strong: s.clone(),
                weak: w.clone(),
            }),
            games: self.games,
            skill_games: if self.skill.is_some() {
                self.skill_games
            } else {
                0
            },
            seed: self.seed,
            variants,
        }
    }
}

fn check_player<R: Ruleset>(rules: &R, spec: &str) -> Result<(), AgentError>
where
    R::State: Playable,
{
    PreparedAgent::<R::State>::new(spec, rules).map(|_| ())
}

/// Plays the pairs of one chunk of a variant's match under the match seed `seed`.
/// A player it cannot prepare is an error with the player's index.
fn play_chunk<R: Ruleset>(
    rules: &R,
    players: [&str; 2],
    seed: u64,
    key: &ChunkKey,
) -> Result<ChunkGames, (usize, AgentError)>
where
    R::State: Playable,
{
    let [a, b] =
        [0, 1].map(|i| PreparedAgent::<R::State>::new(players[i], rules).map_err(|e| (i, e)));
    let agents = [a?, b?];
    let bases = [0, 1].map(|p| player_base_seed(seed, p, agents[p].seed));
    let makers = [&agents[0].maker, &agents[1].maker];
    Ok((key.first..key.first + key.pairs)
        .map(|k| {
            let seeds = PairSeeds::new(seed, [0, 1], bases, k);
            let mut logs: [GameLog; 2] = Default::default();
            let mut buf = Vec::new();
            let ends = play_pair_to_end(rules, makers, &seeds, |g, s, _| {
                record(&mut logs[g], s, &mut buf);
            });
            let mut g = 0;
            ends.map(|end| {
                let log = &mut logs[g];
                g += 1;
                let outcome = end.turn().outcome().expect("a finished game");
                log.winner = outcome.winner.map(|p| p.index() as u8);
                log.truncated = outcome.is_truncated();
                log.forced_draw = match Verdict::of(R::State::sanctuaries(&end).as_ref()) {
                    Verdict::NotAnalysed => None,
                    v => Some(log.truncated && v == Verdict::Draw),
                };
                log.turns = end.turns();
                log.actions = end.actions();
                log.sticks = end.stick_stats();
                log.stats()
            })
        })
        .collect())
}

/// Notes the state before an action: its evaluation, and at a decision the number of legal
/// moves.
fn record<S: Playable>(log: &mut GameLog, state: &S, buf: &mut Vec<S::Move>) {
    let weights = if S::FITTED {
        EvalWeights::Fitted
    } else {
        EvalWeights::Hand
    };
    log.evals
        .push((1.0 + state.evaluate_with(Player::One, weights)) / 2.0);
    if let Turn::Player(_) = state.turn() {
        buf.clear();
        state.legal_moves(buf);
        log.legal.push(buf.len() as u32);
    }
}

/// The strong and the weak player of a skill check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillPlayers {
    /// The strong player's spec.
    pub strong: String,
    /// The weak player's spec.
    pub weak: String,
}

/// The skill check of one variant: the strong player's score against the weak one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillReport {
    /// Games played.
    pub games: u64,
    /// The strong player's mean score (win 1, draw or truncated game ½) with its interval.
    pub score: Estimate,
    /// The same as an Elo difference.
    pub elo: Estimate,
}

/// The exact value of a variant's start, for the player who moves first (Tihbat), or why the
/// solver has none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverValue {
    /// The first player's margin under perfect play, in counters.
    Value(i32),
    /// Why there is no exact value.
    Error(String),
}

/// The distribution of game length, in turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lengths {
    /// The shortest game.
    pub min: u32,
    /// 10th percentile.
    pub p10: u32,
    /// First quartile.
    pub q1: u32,
    /// Median.
    pub median: u32,
    /// Third quartile.
    pub q3: u32,
    /// 90th percentile.
    pub p90: u32,
    /// The longest game.
    pub max: u32,
    /// Mean.
    pub mean: f64,
    /// Standard deviation.
    pub sd: f64,
}

impl Lengths {
    /// The distribution of `values` (nearest-rank percentiles, as [`Distribution`]); `None`
    /// when empty.
    pub fn of(values: &[u32]) -> Option<Lengths> {
        if values.is_empty() {
            return None;
        }
        let d = Distribution::of(values);
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        Some(Lengths {
            min: d.min,
            p10: d.p10,
            q1: nearest_rank(&sorted, 0.25),
            median: d.median,
            q3: nearest_rank(&sorted, 0.75),
            p90: d.p90,
            max: d.max,
            mean: d.mean,
            sd: d.sd,
        })
    }
}

/// What a study found about one variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantReport {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// A short name ([`Variant::label`]).
    pub label: String,
    /// The varied options' values.
    pub values: BTreeMap<String, String>,
    /// The seats' names, first seat first.
    pub seats: [String; 2],
    /// Games of the main match.
    pub games: u64,
    /// Wins per seat.
    pub wins: [u64; 2],
    /// Games drawn by the rules.
    pub draws: u64,
    /// Games stopped by a safety limit.
    pub timeouts: u64,
    /// Each seat's win rate with its interval.
    pub win_rates: Option<[Estimate; 2]>,
    /// The metrics.
    pub metrics: Metrics,
    /// The distribution of game length in turns.
    pub lengths: Option<Lengths>,
    /// The skill check.
    pub skill: Option<SkillReport>,
    /// The exact value of the start (Tihbat).
    pub solver: Option<SolverValue>,
}

impl VariantReport {
    fn new(
        variant: &Variant,
        main: &[[GameStats; 2]],
        skill: Option<SkillReport>,
        solver: Option<SolverValue>,
    ) -> VariantReport {
        let games: Vec<&GameStats> = main.iter().flatten().collect();
        let wins = [0, 1].map(|s| games.iter().filter(|g| g.winner == Some(s)).count() as u64);
        let seat_rate = |s: u8| {
            let units: Vec<f64> = main
                .iter()
                .map(|u| u.iter().filter(|g| g.winner == Some(s)).count() as f64 / 2.0)
                .collect();
            Estimate::rate(&units)
        };
        let mut metrics = Metrics::of(main);
        metrics.skill_gap = skill.as_ref().map(|s| Estimate {
            value: s.score.value - 0.5,
            ci95: [s.score.ci95[0] - 0.5, s.score.ci95[1] - 0.5],
        });
        let lengths: Vec<u32> = games.iter().map(|g| g.turns).collect();
        let rules = &variant.rules;
        VariantReport {
            ruleset: rules.to_string(),
            label: variant.label(),
            values: variant.values.iter().cloned().collect(),
            seats: Player::ALL.map(|p| with_ruleset!(rules, r => r.seat_name(p)).to_string()),
            games: games.len() as u64,
            wins,
            draws: games
                .iter()
                .filter(|g| g.winner.is_none() && !g.truncated)
                .count() as u64,
            timeouts: games.iter().filter(|g| g.truncated).count() as u64,
            win_rates: (!main.is_empty()).then(|| [seat_rate(0), seat_rate(1)]),
            metrics,
            lengths: Lengths::of(&lengths),
            skill,
            solver,
        }
    }
}

/// The skill check from its games: the strong player sits first in the first game of a pair.
fn skill_report(units: &[[GameStats; 2]]) -> SkillReport {
    let strong_score = |g: &GameStats, seat: u8| {
        if g.truncated {
            0.5
        } else {
            match g.winner {
                None => 0.5,
                Some(w) if w == seat => 1.0,
                Some(_) => 0.0,
            }
        }
    };
    let scores: Vec<f64> = units
        .iter()
        .map(|[a, b]| (strong_score(a, 0) + strong_score(b, 1)) / 2.0)
        .collect();
    let s = score_interval(&scores, 2);
    let elo: EloDifference = elo_difference(s.score, s.ci95, units.len() as f64 * 2.0);
    SkillReport {
        games: units.len() as u64 * 2,
        score: Estimate {
            value: s.score,
            ci95: s.ci95,
        },
        elo: Estimate {
            value: elo.elo,
            ci95: elo.ci95,
        },
    }
}

/// Who ran a study and how: the players, the games and the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyReport {
    /// The first variant's preset name (`tab`).
    pub base: String,
    /// The varied options, in axis order (empty for a list of rulesets).
    pub varied: Vec<String>,
    /// The main match's players.
    pub players: [String; 2],
    /// The skill check's players.
    pub skill: Option<SkillPlayers>,
    /// Games per variant in the main match.
    pub games: u64,
    /// Games per variant in the skill check (0 without one).
    pub skill_games: u64,
    /// The study seed.
    pub seed: u64,
    /// One report per variant, in the study's order.
    pub variants: Vec<VariantReport>,
}

/// The exact value of the start of every Tihbat variant (`None` for the other games). Variants
/// that differ only in `seeds` share one solve up to the largest of them; where that solve
/// fails (a level without a positional solution), each is solved alone, so that the smaller
/// ones still get their value.
pub fn solver_values(variants: &[Variant]) -> Vec<Option<SolverValue>> {
    use qasab_core::tihbat::Ruleset as Tihbat;
    let tihbat = |v: &Variant| crate::search::solver::solvable(&v.rules).copied();
    let mut groups: BTreeMap<String, (Tihbat, Vec<usize>)> = BTreeMap::new();
    for (i, v) in variants.iter().enumerate() {
        if let Some(r) = tihbat(v) {
            let key = Tihbat { seeds: 1, ..r }.to_string();
            let entry = groups.entry(key).or_insert((r, Vec::new()));
            entry.0.seeds = entry.0.seeds.max(r.seeds);
            entry.1.push(i);
        }
    }
    let mut out = vec![None; variants.len()];
    let value = |solver: &crate::Solver, r: &Tihbat| {
        let start = r.initial_state();
        let to_move = start
            .turn()
            .player()
            .expect("the start has a player to move");
        match solver.value([r.seeds; 4], to_move) {
            Some(v) => SolverValue::Value(v),
            None => SolverValue::Error("the solver has no value for the start".into()),
        }
    };
    for (largest, members) in groups.values() {
        let shared = crate::Solver::up_to(*largest, largest.total());
        for &i in members {
            let r = tihbat(&variants[i]).expect("a tihbat variant");
            out[i] = Some(match &shared {
                Ok(s) => value(s, &r),
                Err(_) => match crate::Solver::new(r) {
                    Ok(s) => value(&s, &r),
                    Err(e) => SolverValue::Error(e.to_string()),
                },
            });
        }
    }
    out
}

/// The JSON of a study as `qasab study --json` prints it (and `results.json` holds it): the
/// command that made it, then the report.
pub fn json_with_command(report: &StudyReport, command: &str) -> String {
    #[derive(Serialize)]
    struct Output<'a> {
        command: &'a str,
        #[serde(flatten)]
        report: &'a StudyReport,
    }
    serde_json::to_string_pretty(&Output { command, report }).expect("a report serialises")
}

/// Words joined into one command line, each quoted for a POSIX shell where it needs it.
pub fn shell_words(words: &[String]) -> String {
    let quote = |a: &str| {
        let plain = !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-./=,:@%+".contains(c));
        if plain {
            a.to_string()
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}
