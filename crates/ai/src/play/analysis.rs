//! Analysis of a played game: the quality of every decision and the luck of every throw.
//!
//! Each decision is compared with the best one an agent finds there: the *loss* of a move is
//! the best move's value minus the chosen move's value, both from the mover's point of view and
//! in the agent's units ([`ValueKind`]). A loss at or above a threshold marks the move as
//! doubtful, a mistake or a blunder ([`Thresholds`]). A decision with one legal move is
//! forced and is not judged. A rating player with the endgame tables
//! ([`crate::players::tables::WithTables`]) rates the decisions a table holds by their exact
//! results ([`ValueKind::ExactResult`]): each decision says the kind of its values, so a mark
//! there is an exact error.
//!
//! The luck of a throw is the value of the position after it minus the average value over every
//! outcome of that throw, weighted by its exact probability, for the player who threw. Values
//! come from a static evaluation, so luck costs a few evaluations per throw and does not depend
//! on the agent's search.

use qasab_core::{Action, GameState, Player, Turn, Weighted};
use serde::Serialize;
use thiserror::Error;

use crate::agent::{Agent, ValueKind};

/// How bad a move is, by its loss against the best move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// A small loss (`?!`).
    Doubtful,
    /// A clear loss (`?`).
    Mistake,
    /// A large loss (`??`).
    Blunder,
}

impl Mark {
    /// The annotation symbol used in reports.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Doubtful => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The smallest losses that mark a move, in the units of the agent's values.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// The smallest loss of a doubtful move.
    pub doubtful: f64,
    /// The smallest loss of a mistake.
    pub mistake: f64,
    /// The smallest loss of a blunder.
    pub blunder: f64,
}

impl Thresholds {
    /// The thresholds for values of `kind`.
    ///
    /// Estimates lie in `[-1, 1]` (the mover's expected result, a win counting 1): 0.04, 0.08 and
    /// 0.16, the equity steps backgammon analysers use, read as fractions of a game; the
    /// tables' exact results are on the same scale and marked alike. Exact and
    /// approximate margins count counters captured: one counter is doubtful, two a mistake,
    /// four a blunder.
    pub fn for_kind(kind: ValueKind) -> Thresholds {
        match kind {
            ValueKind::Estimate | ValueKind::ExactResult => Thresholds {
                doubtful: 0.04,
                mistake: 0.08,
                blunder: 0.16,
            },
            ValueKind::ExactMargin | ValueKind::ApproximateMargin => Thresholds {
                doubtful: 1.0,
                mistake: 2.0,
                blunder: 4.0,
            },
        }
    }

    /// The mark of a move that loses `loss`, if any.
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.doubtful {
            Some(Mark::Doubtful)
        } else {
            None
        }
    }
}

/// The review of one decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview<M> {
    /// The action's number in the record, from 1.
    pub action: usize,
    /// The player who moved.
    pub player: Player,
    /// The move played.
    pub played: M,
    /// The number of legal moves.
    pub choices: usize,
    /// The best move the agent found (the played move when it is as good).
    pub best: M,
    /// The agent's value of the played move, for the mover.
    pub played_value: f64,
    /// The agent's value of the best move, for the mover.
    pub best_value: f64,
    /// `best_value - played_value`, never negative.
    pub loss: f64,
    /// The mark, if the loss reaches a threshold; `None` for forced moves.
    pub mark: Option<Mark>,
    /// What the values of this decision mean: [`ValueKind::ExactResult`] where the endgame
    /// tables rated it, else the rating player's kind; `None` for a forced move, which is not
    /// rated.
    #[serde(serialize_with = "serialize_opt_kind")]
    pub kind: Option<ValueKind>,
}

/// The luck of one throw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowReview<C> {
    /// The action's number in the record, from 1.
    pub action: usize,
    /// The player who threw.
    pub player: Player,
    /// The outcome.
    pub outcome: C,
    /// The value after the outcome minus the expected value over all outcomes, for the thrower.
    pub luck: f64,
}

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerSummary {
    /// Decisions made.
    pub decisions: usize,
    /// Decisions with a single legal move, not judged.
    pub forced: usize,
    /// The sum of the losses.
    pub total_loss: f64,
    /// The mean loss per judged decision.
    pub mean_loss: f64,
    /// Doubtful moves.
    pub doubtful: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Judged decisions rated by their exact results, from the endgame tables
    /// ([`ValueKind::ExactResult`]).
    pub exact: usize,
    /// Marked moves per judged decision.
    pub error_rate: f64,
    /// Throws made.
    pub throws: usize,
    /// The sum of the luck of the player's throws.
    pub luck: f64,
    /// The mean luck per throw.
    pub mean_luck: f64,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis<M, C> {
    /// What the move values mean: the rating player's kind, or
    /// [`ValueKind::ExactResult`] if the endgame tables rated every judged decision. Each
    /// decision says its own ([`MoveReview::kind`]).
    #[serde(serialize_with = "serialize_kind")]
    pub value_kind: ValueKind,
    /// The thresholds of [`Analysis::value_kind`], used for marks (exact results and estimates
    /// share theirs).
    pub thresholds: Thresholds,
    /// Every decision, in order.
    pub moves: Vec<MoveReview<M>>,
    /// Every throw that belongs to a player, in order.
    pub throws: Vec<ThrowReview<C>>,
    /// Totals for Player One and Player Two.
    pub players: [PlayerSummary; 2],
}

/// The name of a kind of value in reports: `exact-margin`, `approximate-margin`, `estimate`,
/// `exact-result`.
pub fn kind_name(k: ValueKind) -> &'static str {
    match k {
        ValueKind::ExactMargin => "exact-margin",
        ValueKind::ApproximateMargin => "approximate-margin",
        ValueKind::Estimate => "estimate",
        ValueKind::ExactResult => "exact-result",
    }
}

fn serialize_kind<S: serde::Serializer>(k: &ValueKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind_name(*k))
}

fn serialize_opt_kind<S: serde::Serializer>(
    k: &Option<ValueKind>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match k {
        Some(k) => s.serialize_str(kind_name(*k)),
        None => s.serialize_none(),
    }
}

/// Why a game could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The agent gives no move values.
    #[error("player {agent} does not rate moves; analyse with a player that does (e.g. {suggest})")]
    NoValues {
        /// The agent's spec.
        agent: String,
        /// A player that rates moves for this game.
        suggest: String,
    },
    /// The agent rated a position without the move played there.
    #[error("player {agent} gave no value for move {mv} at action {action}")]
    MissingMove {
        /// The agent's spec.
        agent: String,
        /// The move.
        mv: String,
        /// The action number, from 1.
        action: usize,
    },
    /// An action of the record is not legal where it stands.
    #[error("action {action} ({what}) is not legal there")]
    Illegal {
        /// The action number, from 1.
        action: usize,
        /// The action as text.
        what: String,
    },
}

/// Analyses the game that starts at `start` and plays `actions`.
///
/// `agent` rates every decision (see [`Agent::evaluate`]); `value(state, player)` is a static
/// evaluation used for luck; `suggest` names a player that rates moves, for the error when
/// `agent` does not; `progress` is called once per action.
///
/// # Errors
/// [`AnalysisError`].
pub fn analyse<S: GameState>(
    start: &S,
    actions: &[Action<S::Move, S::Chance>],
    agent: &mut dyn Agent<S>,
    value: &dyn Fn(&S, Player) -> f64,
    suggest: &str,
    progress: &dyn Fn(),
) -> Result<Analysis<S::Move, S::Chance>, AnalysisError> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut throws = Vec::new();
    let mut legal = Vec::new();
    let mut outcomes: Vec<Weighted<S::Chance>> = Vec::new();
    for (i, &action) in actions.iter().enumerate() {
        let number = i + 1;
        let illegal = || AnalysisError::Illegal {
            action: number,
            what: match action {
                Action::Move(m) => m.to_string(),
                Action::Chance(c) => c.to_string(),
            },
        };
        match (state.turn(), action) {
            (Turn::Player(p), Action::Move(m)) => {
                state.legal_moves(&mut legal);
                if legal.binary_search(&m).is_err() {
                    return Err(illegal());
                }
                let review = review_move(&state, p, m, legal.len(), number, agent, suggest)?;
                moves.push(review);
                state.play_unchecked(m);
            }
            (Turn::Chance, Action::Chance(c)) => {
                let denominator = state.chance_outcomes(&mut outcomes);
                if !outcomes.iter().any(|w| w.outcome == c) {
                    return Err(illegal());
                }
                if let Some(p) = state.chance_player() {
                    let mut expected = 0.0;
                    let mut chosen = 0.0;
                    for w in &outcomes {
                        let mut next = state.clone();
                        next.apply_chance_unchecked(w.outcome);
                        let v = value(&next, p);
                        expected += v * f64::from(w.weight) / f64::from(denominator);
                        if w.outcome == c {
                            chosen = v;
                        }
                    }
                    throws.push(ThrowReview {
                        action: number,
                        player: p,
                        outcome: c,
                        luck: chosen - expected,
                    });
                }
                state.apply_chance_unchecked(c);
            }
            _ => return Err(illegal()),
        }
        progress();
    }
    // The rating player's own kind: that of the first decision the tables did not rate.
    let kinds = || moves.iter().filter_map(|r: &MoveReview<S::Move>| r.kind);
    let value_kind = kinds()
        .find(|&k| k != ValueKind::ExactResult)
        .or_else(|| kinds().next())
        .unwrap_or(ValueKind::Estimate);
    let thresholds = Thresholds::for_kind(value_kind);
    for r in &mut moves {
        if let Some(k) = r.kind {
            r.mark = Thresholds::for_kind(k).mark(r.loss);
        }
    }
    let players = Player::ALL.map(|p| summarise(p, &moves, &throws));
    Ok(Analysis {
        value_kind,
        thresholds,
        moves,
        throws,
        players,
    })
}

fn no_values<S: GameState>(agent: &dyn Agent<S>, suggest: &str) -> AnalysisError {
    AnalysisError::NoValues {
        agent: agent.spec(),
        suggest: suggest.to_string(),
    }
}

/// Reviews move `m` of player `p` at `state`, with the kind of the agent's values there; a
/// forced move needs no agent.
fn review_move<S: GameState>(
    state: &S,
    p: Player,
    m: S::Move,
    choices: usize,
    action: usize,
    agent: &mut dyn Agent<S>,
    suggest: &str,
) -> Result<MoveReview<S::Move>, AnalysisError> {
    if choices == 1 {
        return Ok(MoveReview {
            action,
            player: p,
            played: m,
            choices,
            best: m,
            played_value: 0.0,
            best_value: 0.0,
            loss: 0.0,
            mark: None,
            kind: None,
        });
    }
    let eval = agent
        .evaluate(state)
        .ok_or_else(|| no_values(agent, suggest))?;
    let (best, best_value) = eval
        .moves
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or_else(|| AnalysisError::MissingMove {
            agent: agent.spec(),
            mv: m.to_string(),
            action,
        })?;
    let played_value = eval
        .moves
        .iter()
        .find(|(mv, _)| *mv == m)
        .map(|&(_, v)| v)
        .ok_or_else(|| AnalysisError::MissingMove {
            agent: agent.spec(),
            mv: m.to_string(),
            action,
        })?;
    let (best, best_value) = if played_value >= best_value {
        (m, played_value)
    } else {
        (best, best_value)
    };
    Ok(MoveReview {
        action,
        player: p,
        played: m,
        choices,
        best,
        played_value,
        best_value,
        loss: best_value - played_value,
        mark: None,
        kind: Some(eval.kind),
    })
}

/// The totals of player `p`.
fn summarise<M, C>(p: Player, moves: &[MoveReview<M>], throws: &[ThrowReview<C>]) -> PlayerSummary {
    let mut s = PlayerSummary::default();
    for r in moves.iter().filter(|r| r.player == p) {
        s.decisions += 1;
        if r.choices == 1 {
            s.forced += 1;
            continue;
        }
        s.total_loss += r.loss;
        if r.kind == Some(ValueKind::ExactResult) {
            s.exact += 1;
        }
        match r.mark {
            Some(Mark::Doubtful) => s.doubtful += 1,
            Some(Mark::Mistake) => s.mistakes += 1,
            Some(Mark::Blunder) => s.blunders += 1,
            None => {}
        }
    }
    for t in throws.iter().filter(|t| t.player == p) {
        s.throws += 1;
        s.luck += t.luck;
    }
    s.set_means();
    s
}

impl PlayerSummary {
    /// Adds `other`'s counts and sums to these, and sets the means of the whole.
    pub fn add(&mut self, other: &PlayerSummary) {
        self.decisions += other.decisions;
        self.forced += other.forced;
        self.total_loss += other.total_loss;
        self.doubtful += other.doubtful;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
        self.exact += other.exact;
        self.throws += other.throws;
        self.luck += other.luck;
        self.set_means();
    }

    /// The means from the counts and sums: per judged decision and per throw (0 without any).
    fn set_means(&mut self) {
        let judged = self.decisions - self.forced;
        self.mean_loss = per(self.total_loss, judged);
        self.error_rate = per(
            (self.doubtful + self.mistakes + self.blunders) as f64,
            judged,
        );
        self.mean_luck = per(self.luck, self.throws);
    }
}

/// One player's totals over several analysed games, as `qasab analyse` reports them for many
/// records: his results and the sum of his [`PlayerSummary`]s.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerTotals {
    /// The player's label (the record's `info` line for the seat, else the seat's name).
    pub player: String,
    /// Games analysed.
    pub games: usize,
    /// Games the rules ended: the score counts these.
    pub finished: usize,
    /// Points in the finished games: a win 1, a draw or a truncated game ½.
    pub points: f64,
    /// Points per finished game.
    pub score: f64,
    /// The sum of his summaries, its means over all his decisions and throws.
    #[serde(flatten)]
    pub sums: PlayerSummary,
    /// The loss per game.
    pub loss_per_game: f64,
    /// The luck per game.
    pub luck_per_game: f64,
}

impl PlayerTotals {
    /// No games yet, for the player labelled `player`.
    pub fn new(player: &str) -> PlayerTotals {
        PlayerTotals {
            player: player.to_string(),
            ..PlayerTotals::default()
        }
    }

    /// Adds one game: the player's summary in it and his points there, `None` if the game was
    /// not finished.
    pub fn add(&mut self, s: &PlayerSummary, points: Option<f64>) {
        self.games += 1;
        if let Some(p) = points {
            self.finished += 1;
            self.points += p;
        }
        self.sums.add(s);
        let per_game = |x: f64| x / self.games as f64;
        self.score = per(self.points, self.finished);
        self.loss_per_game = per_game(self.sums.total_loss);
        self.luck_per_game = per_game(self.sums.luck);
    }
}

/// `x / n`, 0 when `n` is 0.
fn per(x: f64, n: usize) -> f64 {
    if n == 0 { 0.0 } else { x / n as f64 }
}

/// The score of a player against another from their losses alone, with values from −1 to +1
/// ([`ValueKind::Estimate`]): `½ + (other's loss − own loss) / 2`, the losses per game, clamped to
/// 0..1. A loss of `L` gives away `L / 2` of a win on average and the luck of the throws
/// averages zero, so over games with both seats this is the expected score as far as the
/// rating player sees; against a player who loses `L` a game, one who loses nothing would
/// score `½ + L / 2`.
pub fn score_from_losses(own_loss_per_game: f64, other_loss_per_game: f64) -> f64 {
    (0.5 + (other_loss_per_game - own_loss_per_game) / 2.0).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(
        decisions: usize,
        forced: usize,
        loss: f64,
        marks: [usize; 3],
        luck: f64,
    ) -> PlayerSummary {
        PlayerSummary {
            decisions,
            forced,
            total_loss: loss,
            doubtful: marks[0],
            mistakes: marks[1],
            blunders: marks[2],
            throws: decisions,
            luck,
            ..PlayerSummary::default()
        }
    }

    #[test]
    fn totals_sum_the_games_and_score_the_finished_ones() {
        let mut t = PlayerTotals::new("net");
        t.add(&summary(10, 2, 0.4, [1, 0, 1], 0.5), Some(1.0));
        t.add(&summary(6, 0, 0.2, [0, 1, 0], -0.1), Some(0.5));
        t.add(&summary(4, 4, 0.0, [0, 0, 0], 0.2), None);
        assert_eq!(t.player, "net");
        let u = &t.sums;
        assert_eq!((t.games, t.finished, u.decisions, u.forced), (3, 2, 20, 6));
        assert_eq!(
            (u.doubtful, u.mistakes, u.blunders, u.throws),
            (1, 1, 1, 20)
        );
        assert!((t.points - 1.5).abs() < 1e-12 && (t.score - 0.75).abs() < 1e-12);
        assert!((u.total_loss - 0.6).abs() < 1e-12);
        assert!((t.loss_per_game - 0.2).abs() < 1e-12);
        assert!((u.mean_loss - 0.6 / 14.0).abs() < 1e-12);
        assert!((u.error_rate - 3.0 / 14.0).abs() < 1e-12);
        assert!((t.luck_per_game - 0.2).abs() < 1e-12);
        assert!((u.mean_luck - 0.6 / 20.0).abs() < 1e-12);
        let empty = PlayerTotals::new("x");
        assert_eq!((empty.score, empty.sums.mean_loss), (0.0, 0.0));
    }

    #[test]
    fn the_score_from_losses_gives_each_loss_half_a_win() {
        assert!((score_from_losses(0.04, 0.2) - 0.58).abs() < 1e-12);
        assert!((score_from_losses(0.0, 0.2) - 0.6).abs() < 1e-12);
        assert!((score_from_losses(0.2, 0.0) - 0.4).abs() < 1e-12);
        assert_eq!(score_from_losses(0.1, 0.1), 0.5);
        assert_eq!(score_from_losses(0.0, 5.0), 1.0);
        assert_eq!(score_from_losses(5.0, 0.0), 0.0);
    }
}
