//! The game metrics of a variant study: what one game leaves behind ([`GameLog`] →
//! [`GameStats`]), and the estimates over many games with their 95% intervals ([`Metrics`]).
//!
//! The names and definitions follow Ludii's game metrics (Stephenson, Piette, Soemers and
//! Browne, the `Evaluation` module of Ludii) wherever Ludii has the metric; `docs/study.md`
//! gives each definition and says where ours differs. In short:
//!
//! * the *state evaluation* is the static evaluation of the game ([`crate::eval::Evaluate`],
//!   with fitted weights where the game has them) turned into a chance of winning for each seat,
//!   `p = (1 + v) / 2` for the first seat and `1 − p` for the second, taken before every action
//!   (chance outcomes included), where Ludii runs a short UCT search before every move;
//! * a lead change is counted between consecutive states only (Ludii also counts the first
//!   state, against an empty set of leaders);
//! * `DecisivenessMoves` is a real fraction (Ludii divides two integers).
//!
//! # Intervals
//! The games of a study come in *units* of two that share their throws with the seats swapped
//! (see [`crate::play::arena`]), so the unit, not the game, is the independent observation. A rate
//! (a share of games, or a score) gets [`crate::play::stats::score_interval`], Wilson's interval on
//! the effective number of games; every other mean gets the normal interval
//! `m ± 1.96 s / √u` over the unit means; a standard deviation `σ` gets `σ ± 1.96 σ / √(2(n−1))`
//! over the `n` games. Balance is `1 − |d|` for the mean difference `d` of the seats' win
//! rates, and its interval is the image of `d`'s normal interval.

use qasab_core::StickStats;
use serde::{Deserialize, Serialize};

use crate::play::stats::{Z95, score_interval};

/// Everything about one game that the metrics read, as it is recorded during play.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameLog {
    /// The winning seat (0 first, 1 second), `None` for a draw or a game stopped by a limit.
    pub winner: Option<u8>,
    /// Whether a safety limit stopped the game (a Ludii timeout).
    pub truncated: bool,
    /// Whether a safety limit stopped the game where both sides hold a sanctuary (a unit no
    /// enemy piece can ever reach and that its owner never has to move): a draw under perfect
    /// play, which the rules force (docs/ENDGAMES.md, "Fortresses"). `None` where the game's
    /// ending does not make sanctuaries decisive (`end=most-captures`, the games without
    /// them).
    pub forced_draw: Option<bool>,
    /// Turns played.
    pub turns: u32,
    /// Actions applied, chance outcomes included.
    pub actions: u32,
    /// The number of legal moves at each decision of a player, in order.
    pub legal: Vec<u32>,
    /// The first seat's chance of winning, by the state evaluation, before each action.
    pub evals: Vec<f64>,
    /// The stick statistics of a game with throws.
    pub sticks: Option<StickStats>,
}

/// What the metrics keep of one game: the [`GameLog`] reduced to a few numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStats {
    /// The winning seat (0 or 1), if any.
    pub winner: Option<u8>,
    /// Stopped by a safety limit.
    pub truncated: bool,
    /// Stopped by a safety limit in a draw the rules force ([`GameLog::forced_draw`]).
    #[serde(default)]
    pub forced_draw: Option<bool>,
    /// Turns played.
    pub turns: u32,
    /// Actions applied.
    pub actions: u32,
    /// Decisions by a player.
    pub decisions: u32,
    /// Decisions with more than one legal move.
    pub choices: u32,
    /// Legal moves summed over the decisions.
    pub legal: u64,
    /// States evaluated (one before each action).
    pub states: u32,
    /// Changes of the leading seat between consecutive states.
    pub lead_changes: u32,
    /// The sum over both seats of the variance of the seat's evaluation over the game.
    pub stability: f64,
    /// The mean over the states of how far the eventual winner's evaluation is below the
    /// leader's (both seats count as winners of a game without a winner).
    pub drama: f64,
    /// For a game with a winner: the highest evaluation the loser ever had, and the share of
    /// the game played before the winner's evaluation first rose above it.
    pub decisiveness: Option<Decisiveness>,
    /// The stick statistics of a game with throws.
    pub sticks: Option<StickStats>,
}

/// Ludii's decisiveness of one decided game.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decisiveness {
    /// The highest evaluation of the losing seat over the game.
    pub threshold: f64,
    /// The index of the first state at which the winner's evaluation exceeds the threshold,
    /// divided by the number of states (1 if it never does).
    pub moves: f64,
}

/// The seats that lead at a state whose first seat's chance is `p`: bit 0 the first seat,
/// bit 1 the second, both at exactly one half.
fn leaders(p: f64) -> u8 {
    if p > 0.5 {
        1
    } else if p < 0.5 {
        2
    } else {
        3
    }
}

/// The population variance of `xs` (0 for fewer than two values).
fn variance(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let (n, sum) = xs.clone().fold((0usize, 0.0), |(n, s), x| (n + 1, s + x));
    if n < 2 {
        return 0.0;
    }
    let mean = sum / n as f64;
    xs.map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64
}

impl GameLog {
    /// The game's contribution to the metrics (see the module docs for each definition).
    pub fn stats(&self) -> GameStats {
        let evals = &self.evals;
        let states = evals.len() as u32;
        let lead_changes = evals
            .windows(2)
            .filter(|w| leaders(w[0]) != leaders(w[1]))
            .count() as u32;
        let stability = variance(evals.iter().copied()) + variance(evals.iter().map(|p| 1.0 - p));
        let seat_eval = |seat: u8, p: f64| if seat == 0 { p } else { 1.0 - p };
        let drama = if evals.is_empty() {
            0.0
        } else {
            let behind = |p: f64| match self.winner {
                Some(w) => p.max(1.0 - p) - seat_eval(w, p),
                // Both seats rank first: the mean of their distances from the leader.
                None => (2.0 * p - 1.0).abs() / 2.0,
            };
            evals.iter().map(|&p| behind(p)).sum::<f64>() / f64::from(states)
        };
        let decisiveness = self.winner.filter(|_| !evals.is_empty()).map(|w| {
            let threshold = evals
                .iter()
                .map(|&p| seat_eval(1 - w, p))
                .fold(f64::NEG_INFINITY, f64::max);
            let first = evals
                .iter()
                .position(|&p| seat_eval(w, p) > threshold)
                .unwrap_or(evals.len());
            Decisiveness {
                threshold,
                moves: first as f64 / f64::from(states),
            }
        });
        GameStats {
            winner: self.winner,
            truncated: self.truncated,
            forced_draw: self.forced_draw,
            turns: self.turns,
            actions: self.actions,
            decisions: self.legal.len() as u32,
            choices: self.legal.iter().filter(|&&n| n > 1).count() as u32,
            legal: self.legal.iter().map(|&n| u64::from(n)).sum(),
            states,
            lead_changes,
            stability,
            drama,
            decisiveness,
            sticks: self.sticks,
        }
    }
}

/// A statistic with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// The 95% interval `[lo, hi]`.
    pub ci95: [f64; 2],
}

impl Estimate {
    /// A rate (the mean of unit means, each a share of the unit's two games) with the Wilson
    /// interval on the effective number of games.
    pub fn rate(units: &[f64]) -> Estimate {
        let s = score_interval(units, 2);
        Estimate {
            value: if units.is_empty() { 0.0 } else { s.score },
            ci95: s.ci95,
        }
    }

    /// A mean of unit means with its normal interval, clamped to `bounds`.
    pub fn mean(units: &[f64], bounds: (f64, f64)) -> Estimate {
        let m = units.len() as f64;
        if units.is_empty() {
            return Estimate {
                value: 0.0,
                ci95: [bounds.0, bounds.1],
            };
        }
        let mean = units.iter().sum::<f64>() / m;
        let half = if units.len() < 2 {
            f64::INFINITY
        } else {
            let var = units.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (m - 1.0);
            Z95 * (var / m).sqrt()
        };
        Estimate {
            value: mean,
            ci95: [(mean - half).max(bounds.0), (mean + half).min(bounds.1)],
        }
    }

    /// The (population) standard deviation of the `n` values, with its large-sample
    /// interval `σ ± 1.96 σ / √(2(n − 1))`.
    pub fn sd(values: &[f64]) -> Estimate {
        let n = values.len() as f64;
        let sd = variance(values.iter().copied()).sqrt();
        let half = if values.len() < 2 {
            f64::INFINITY
        } else {
            Z95 * sd / (2.0 * (n - 1.0)).sqrt()
        };
        Estimate {
            value: sd,
            ci95: [(sd - half).max(0.0), sd + half],
        }
    }

    /// Ludii's Balance, `1 − |d|`, from the units' differences `d` between the first and the
    /// second seat's win rates, with the image of `d`'s normal interval.
    pub fn balance(differences: &[f64]) -> Estimate {
        let d = Estimate::mean(differences, (-1.0, 1.0));
        let [lo, hi] = d.ci95;
        let nearest = if lo <= 0.0 && hi >= 0.0 {
            0.0
        } else {
            lo.abs().min(hi.abs())
        };
        Estimate {
            value: 1.0 - d.value.abs(),
            ci95: [1.0 - lo.abs().max(hi.abs()), 1.0 - nearest],
        }
    }
}

/// Every metric of one variant's games, in Ludii's names. A metric the games cannot give (the
/// stick statistics of a game without sticks, decisiveness without a decided game) is `None`,
/// and left out of the JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Metrics {
    /// `1 − |w₁ − w₂|` for the seats' win rates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<Estimate>,
    /// The share of games the first seat wins.
    #[serde(rename = "AdvantageP1")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advantage_p1: Option<Estimate>,
    /// The share of games with a winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion: Option<Estimate>,
    /// The share of games drawn by the rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawishness: Option<Estimate>,
    /// The share of games stopped by a safety limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeouts: Option<Estimate>,
    /// The share of games stopped by a safety limit in a draw the rules force: both sides
    /// hold a sanctuary ([`GameLog::forced_draw`]). Left out where it is not analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced_draw_stops: Option<Estimate>,
    /// The share of games stopped by a safety limit in a position that is no forced draw: a
    /// win thrown away, or one the sanctuaries do not decide. Timeouts is this plus
    /// ForcedDrawStops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_stops: Option<Estimate>,
    /// Mean turns per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_turns: Option<Estimate>,
    /// Standard deviation of the turns per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_turns_std_dev: Option<Estimate>,
    /// Mean actions per game, chance outcomes included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_actions: Option<Estimate>,
    /// Standard deviation of the actions per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_actions_std_dev: Option<Estimate>,
    /// The share of a game's decisions with more than one legal move (mean over games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision_moves: Option<Estimate>,
    /// The mean number of legal moves at a decision (mean over games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branching_factor: Option<Estimate>,
    /// Changes of the leading seat per state (mean over games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lead_change: Option<Estimate>,
    /// The summed variance of the seats' evaluations over a game (mean over games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stability: Option<Estimate>,
    /// How far the eventual winner trails the leader, per state (mean over games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drama: Option<Estimate>,
    /// The share of a decided game played before the winner's evaluation first exceeds the
    /// highest the loser ever had (mean over decided games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisiveness: Option<Estimate>,
    /// The highest evaluation the loser ever had (mean over decided games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisiveness_threshold: Option<Estimate>,
    /// Pieces captured per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<Estimate>,
    /// Pieces converted per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversions: Option<Estimate>,
    /// Stacks reduced per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reductions: Option<Estimate>,
    /// Tâbs banked per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banked: Option<Estimate>,
    /// Stick throws per turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throws_per_turn: Option<Estimate>,
    /// The share of turns with a tâb.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_turn_share: Option<Estimate>,
    /// The strong player's score against the weak one, minus ½ (the skill check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_gap: Option<Estimate>,
}

impl Metrics {
    /// Every metric with its name (as serialised), in the documented order.
    pub fn entries(&self) -> [(&'static str, Option<Estimate>); 25] {
        [
            ("Balance", self.balance),
            ("AdvantageP1", self.advantage_p1),
            ("Completion", self.completion),
            ("Drawishness", self.drawishness),
            ("Timeouts", self.timeouts),
            ("ForcedDrawStops", self.forced_draw_stops),
            ("OpenStops", self.open_stops),
            ("DurationTurns", self.duration_turns),
            ("DurationTurnsStdDev", self.duration_turns_std_dev),
            ("DurationActions", self.duration_actions),
            ("DurationActionsStdDev", self.duration_actions_std_dev),
            ("DecisionMoves", self.decision_moves),
            ("BranchingFactor", self.branching_factor),
            ("LeadChange", self.lead_change),
            ("Stability", self.stability),
            ("Drama", self.drama),
            ("Decisiveness", self.decisiveness),
            ("DecisivenessThreshold", self.decisiveness_threshold),
            ("Captures", self.captures),
            ("Conversions", self.conversions),
            ("Reductions", self.reductions),
            ("Banked", self.banked),
            ("ThrowsPerTurn", self.throws_per_turn),
            ("TabTurnShare", self.tab_turn_share),
            ("SkillGap", self.skill_gap),
        ]
    }

    /// Whether the metric is a share of games or states (shown as a percentage).
    pub fn is_share(name: &str) -> bool {
        matches!(
            name,
            "AdvantageP1"
                | "Completion"
                | "Drawishness"
                | "Timeouts"
                | "ForcedDrawStops"
                | "OpenStops"
                | "DecisionMoves"
                | "TabTurnShare"
        )
    }
}

/// The mean of `f` over the games of each unit where it is defined, one value per unit that
/// has any.
fn unit_means(units: &[[GameStats; 2]], f: impl Fn(&GameStats) -> Option<f64>) -> Vec<f64> {
    units
        .iter()
        .filter_map(|u| {
            let xs: Vec<f64> = u.iter().filter_map(&f).collect();
            (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
        })
        .collect()
}

/// A share of `part` in `whole` (0 for an empty whole).
fn share(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

impl Metrics {
    /// The metrics of a variant's games in units of two (see the module docs). With no units
    /// every metric is `None`.
    pub fn of(units: &[[GameStats; 2]]) -> Metrics {
        if units.is_empty() {
            return Metrics::default();
        }
        let won = |seat: u8| move |g: &GameStats| Some(f64::from(u8::from(g.winner == Some(seat))));
        let rate =
            |f: &dyn Fn(&GameStats) -> Option<f64>| Some(Estimate::rate(&unit_means(units, f)));
        // A rate over the games where it is defined, if any.
        let analysed = |f: &dyn Fn(&GameStats) -> Option<f64>| {
            let u = unit_means(units, f);
            (!u.is_empty()).then(|| Estimate::rate(&u))
        };
        let mean = |f: &dyn Fn(&GameStats) -> Option<f64>, bounds: (f64, f64)| {
            let u = unit_means(units, f);
            (!u.is_empty()).then(|| Estimate::mean(&u, bounds))
        };
        let any = (0.0, f64::INFINITY);
        let unit = (0.0, 1.0);
        let games: Vec<&GameStats> = units.iter().flatten().collect();
        let sd = |f: fn(&GameStats) -> u32| {
            let v: Vec<f64> = games.iter().map(|g| f64::from(f(g))).collect();
            Some(Estimate::sd(&v))
        };
        let stick =
            |f: fn(&StickStats) -> u32| move |g: &GameStats| g.sticks.map(|s| f64::from(f(&s)));
        let differences = unit_means(units, |g: &GameStats| {
            Some(won(0)(g).unwrap_or(0.0) - won(1)(g).unwrap_or(0.0))
        });
        Metrics {
            balance: Some(Estimate::balance(&differences)),
            advantage_p1: rate(&won(0)),
            completion: rate(&|g| Some(f64::from(u8::from(g.winner.is_some())))),
            drawishness: rate(&|g| Some(f64::from(u8::from(g.winner.is_none() && !g.truncated)))),
            timeouts: rate(&|g| Some(f64::from(u8::from(g.truncated)))),
            forced_draw_stops: analysed(&|g| g.forced_draw.map(|f| f64::from(u8::from(f)))),
            open_stops: analysed(&|g| {
                g.forced_draw
                    .map(|f| f64::from(u8::from(g.truncated && !f)))
            }),
            duration_turns: mean(&|g| Some(f64::from(g.turns)), any),
            duration_turns_std_dev: sd(|g| g.turns),
            duration_actions: mean(&|g| Some(f64::from(g.actions)), any),
            duration_actions_std_dev: sd(|g| g.actions),
            decision_moves: mean(
                &|g| (g.decisions > 0).then(|| share(g.choices, g.decisions)),
                unit,
            ),
            branching_factor: mean(
                &|g| (g.decisions > 0).then(|| g.legal as f64 / f64::from(g.decisions)),
                any,
            ),
            lead_change: mean(
                &|g| (g.states > 0).then(|| share(g.lead_changes, g.states)),
                unit,
            ),
            stability: mean(&|g| Some(g.stability), any),
            drama: mean(&|g| Some(g.drama), unit),
            decisiveness: mean(&|g| g.decisiveness.map(|d| d.moves), unit),
            decisiveness_threshold: mean(&|g| g.decisiveness.map(|d| d.threshold), unit),
            captures: mean(&stick(|s| s.captures), any),
            conversions: mean(&stick(|s| s.conversions), any),
            reductions: mean(&stick(|s| s.reductions), any),
            banked: mean(&stick(|s| s.banked), any),
            throws_per_turn: mean(
                &|g| {
                    g.sticks
                        .filter(|s| s.turns > 0)
                        .map(|s| share(s.throws, s.turns))
                },
                any,
            ),
            tab_turn_share: mean(
                &|g| {
                    g.sticks
                        .filter(|s| s.turns > 0)
                        .map(|s| share(s.tab_turns, s.turns))
                },
                unit,
            ),
            skill_gap: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// A decided game: the first seat wins after trailing once.
    fn won() -> GameLog {
        GameLog {
            winner: Some(0),
            truncated: false,
            forced_draw: None,
            turns: 2,
            actions: 4,
            legal: vec![1, 3, 2],
            evals: vec![0.5, 0.6, 0.4, 0.7],
            sticks: None,
        }
    }

    /// A drawn game.
    fn drawn() -> GameLog {
        GameLog {
            winner: None,
            truncated: false,
            forced_draw: None,
            turns: 4,
            actions: 2,
            legal: vec![],
            evals: vec![0.5, 0.8],
            sticks: None,
        }
    }

    #[test]
    fn one_decided_game_by_hand() {
        let s = won().stats();
        // Leaders: both, first, second, first: three changes in four states.
        assert_eq!((s.states, s.lead_changes), (4, 3));
        // Mean 0.55; squared deviations 0.0025, 0.0025, 0.0225, 0.0225; twice for both seats.
        assert!(close(s.stability, 0.025), "{}", s.stability);
        // The winner trails only at 0.4, by 0.6 - 0.4.
        assert!(close(s.drama, 0.05), "{}", s.drama);
        // The loser's best is 0.6; the winner first passes it at the fourth state.
        let d = s.decisiveness.unwrap();
        assert!(close(d.threshold, 0.6) && close(d.moves, 0.75), "{d:?}");
        assert_eq!((s.decisions, s.choices, s.legal), (3, 2, 6));
    }

    #[test]
    fn a_drawn_game_by_hand() {
        let s = drawn().stats();
        assert_eq!(s.lead_changes, 1);
        // Both seats rank first: half the gap between them, 0 then 0.3.
        assert!(close(s.drama, 0.15), "{}", s.drama);
        assert_eq!(s.decisiveness, None);
        // 0.5 and 0.8: variance 0.0225 for each seat.
        assert!(close(s.stability, 0.045), "{}", s.stability);
    }

    #[test]
    fn a_game_that_never_leaves_a_tie_is_decided_at_its_end() {
        let s = GameLog {
            winner: Some(1),
            evals: vec![0.5, 0.5],
            ..won()
        }
        .stats();
        assert_eq!(s.decisiveness.unwrap().moves, 1.0);
        assert_eq!(s.lead_changes, 0);
    }

    #[test]
    fn normal_and_balance_intervals_by_hand() {
        let m = Estimate::mean(&[1.0, 3.0], (0.0, f64::INFINITY));
        // Mean 2, sample sd √2, half-width 1.96 √2 / √2.
        assert!(close(m.value, 2.0) && close(m.ci95[0], 2.0 - Z95) && close(m.ci95[1], 2.0 + Z95));
        let b = Estimate::balance(&[0.5, -0.5]);
        // d has mean 0 and half-width 1.96 √(0.5 / 2) = 0.98: balance 1, at worst 1 - 0.98.
        assert!(close(b.value, 1.0) && close(b.ci95[1], 1.0), "{b:?}");
        assert!(close(b.ci95[0], 1.0 - Z95 * 0.5), "{b:?}");
        let one_sided = Estimate::balance(&[0.5, 0.5, 0.5]);
        assert!(
            close(one_sided.value, 0.5)
                && close(one_sided.ci95[0], 0.5)
                && close(one_sided.ci95[1], 0.5)
        );
        let sd = Estimate::sd(&[2.0, 4.0]);
        assert!(close(sd.value, 1.0) && close(sd.ci95[1], 1.0 + Z95 / 2f64.sqrt()));
    }

    #[test]
    fn metrics_of_two_units_by_hand() {
        let (a, b) = (won().stats(), drawn().stats());
        let m = Metrics::of(&[[a.clone(), b.clone()], [b, a]]);
        let v = |e: Option<Estimate>| e.unwrap().value;
        assert!(close(v(m.advantage_p1), 0.5));
        assert!(close(v(m.completion), 0.5));
        assert!(close(v(m.drawishness), 0.5));
        assert!(close(v(m.timeouts), 0.0));
        assert!(close(v(m.balance), 0.5));
        // Every unit lasts 2 + 4 turns: no spread at all.
        assert_eq!(m.duration_turns.unwrap().ci95, [3.0, 3.0]);
        assert!(close(v(m.duration_actions), 3.0));
        // The drawn game has no decisions, so each unit's share is the decided game's 2/3.
        assert!(close(v(m.decision_moves), 2.0 / 3.0));
        assert!(close(v(m.branching_factor), 2.0));
        // Lead changes per state: 3/4 and 1/2.
        assert!(close(v(m.lead_change), 0.625));
        assert!(close(v(m.drama), 0.1));
        assert!(close(v(m.decisiveness), 0.75));
        assert!(close(v(m.decisiveness_threshold), 0.6));
        // Population standard deviation of 2, 4, 4, 2 turns.
        assert!(close(v(m.duration_turns_std_dev), 1.0));
        assert_eq!(m.captures, None);
        assert_eq!(m.skill_gap, None);
        // No game looked for sanctuaries: the stops are not split.
        assert_eq!((m.forced_draw_stops, m.open_stops), (None, None));
    }

    #[test]
    fn stops_split_into_forced_draws_and_the_rest() {
        let stop = |forced| {
            GameLog {
                winner: None,
                truncated: true,
                forced_draw: Some(forced),
                ..drawn()
            }
            .stats()
        };
        let ended = GameLog {
            forced_draw: Some(false),
            ..won()
        }
        .stats();
        // Four games: one forced draw, one other stop, two that end by the rules.
        let m = Metrics::of(&[[stop(true), ended.clone()], [stop(false), ended]]);
        let v = |e: Option<Estimate>| e.unwrap().value;
        assert!(close(v(m.timeouts), 0.5));
        assert!(close(v(m.forced_draw_stops), 0.25));
        assert!(close(v(m.open_stops), 0.25));
    }

    #[test]
    fn stick_metrics_come_from_the_stick_statistics() {
        let sticks = StickStats {
            turns: 10,
            throws: 15,
            tab_turns: 4,
            captures: 6,
            conversions: 8,
            reductions: 1,
            banked: 2,
        };
        let g = GameLog {
            sticks: Some(sticks),
            ..won()
        }
        .stats();
        let m = Metrics::of(&[[g.clone(), g]]);
        let v = |e: Option<Estimate>| e.unwrap().value;
        assert!(close(v(m.captures), 6.0) && close(v(m.conversions), 8.0));
        assert!(close(v(m.reductions), 1.0) && close(v(m.banked), 2.0));
        assert!(close(v(m.throws_per_turn), 1.5) && close(v(m.tab_turn_share), 0.4));
    }

    #[test]
    fn entries_name_every_metric_as_it_is_serialised() {
        let e = Some(Estimate {
            value: 0.25,
            ci95: [0.0, 0.5],
        });
        let mut all = Metrics::default();
        for f in [
            &mut all.balance,
            &mut all.advantage_p1,
            &mut all.completion,
            &mut all.drawishness,
            &mut all.timeouts,
            &mut all.forced_draw_stops,
            &mut all.open_stops,
            &mut all.duration_turns,
            &mut all.duration_turns_std_dev,
            &mut all.duration_actions,
            &mut all.duration_actions_std_dev,
            &mut all.decision_moves,
            &mut all.branching_factor,
            &mut all.lead_change,
            &mut all.stability,
            &mut all.drama,
            &mut all.decisiveness,
            &mut all.decisiveness_threshold,
            &mut all.captures,
            &mut all.conversions,
            &mut all.reductions,
            &mut all.banked,
            &mut all.throws_per_turn,
            &mut all.tab_turn_share,
            &mut all.skill_gap,
        ] {
            *f = e;
        }
        let json = serde_json::to_value(&all).unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut names: Vec<&str> = all.entries().iter().map(|(n, _)| *n).collect();
        keys.sort_unstable();
        names.sort_unstable();
        assert_eq!(keys, names);
        // A metric the games cannot give is left out, and read back as absent.
        let none = serde_json::to_value(Metrics::default()).unwrap();
        assert_eq!(none, serde_json::json!({}));
        let back: Metrics = serde_json::from_value(json).unwrap();
        assert_eq!(back, all);
    }
}
