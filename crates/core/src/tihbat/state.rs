//! The playable Tihbat state: position, ruleset, repetition history (T-6..T-8).

use std::fmt::Write as _;

use thiserror::Error;

use crate::game::{
    ChanceError, EndReason, GameState, InvalidState, MoveError, NoChance, Outcome, PositionIdError,
    Turn, Weighted, describe_turn,
};
use crate::player::{ByPlayer, Player};
use crate::ruleset::Ruleset as _;
use crate::view::{Draw, Drawing};

use super::position::{Move, Pit, Position, sow};
use super::ruleset::{CycleSplit, EmptySide, Ruleset, Singleton};

/// A Tihbat game in progress.
///
/// Equality compares the ruleset, the position, the ply count and the repetition history.
/// Serialises as `{"position": ID, "pits": [..], "captured": [..], "to_move": SIDE}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    rules: Ruleset,
    pos: Position,
    plies: u32,
    over: Option<Outcome>,
    /// Keys of the positions since the last capture, the current one last (T-7).
    history: Vec<u64>,
}

impl serde::Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("position", &self.position_id())?;
        map.serialize_entry("pits", &self.pos.pits)?;
        map.serialize_entry("captured", &self.pos.captured.into_array())?;
        map.serialize_entry("to_move", self.rules.seat_name(self.pos.to_move))?;
        map.serialize_entry("plies", &self.plies)?;
        map.end()
    }
}

/// A position that cannot start a game under a ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("position {position} is not valid under {ruleset}: {why}")]
pub struct SetupError {
    position: String,
    ruleset: String,
    why: String,
}

impl State {
    /// The initial state of `rules`.
    pub fn new(rules: Ruleset) -> State {
        let pos = Position::start(&rules);
        let mut history = Vec::with_capacity(32);
        history.push(pos.key());
        State {
            rules,
            pos,
            plies: 0,
            over: None,
            history,
        }
    }

    /// A game starting from `pos`, with an empty history and the fewest moves played that fit
    /// the position: 0 at the start, otherwise 1 or 2, by the side to move.
    ///
    /// # Errors
    /// [`SetupError`] unless the counters on the board plus those captured make `4 × seeds`, and
    /// each capture total is even (every capture takes 2, 4, 6 or 8).
    pub fn from_position(rules: Ruleset, pos: Position) -> Result<State, SetupError> {
        let err = |why: String| SetupError {
            position: pos.to_string(),
            ruleset: rules.to_string(),
            why,
        };
        let total = pos.on_board() + u32::from(pos.captured.one) + u32::from(pos.captured.two);
        if total != rules.total() {
            return Err(err(format!(
                "it holds {total} counters in all, the ruleset {}",
                rules.total()
            )));
        }
        if pos.captured.one % 2 == 1 || pos.captured.two % 2 == 1 {
            return Err(err("captures are always even".into()));
        }
        let mut s = State {
            rules,
            pos,
            plies: Self::fewest_plies(&rules, &pos),
            over: None,
            history: Vec::with_capacity(32),
        };
        s.history.push(pos.key());
        s.over = s.ending_now(0);
        Ok(s)
    }

    /// The fewest moves that can have been played to reach `pos`, judged by the start and the
    /// side to move alone: 0 at the start, otherwise 1 if the second player is to move and 2 if
    /// the first is (every move, a pass included, hands the turn over, T-2, T-6).
    fn fewest_plies(rules: &Ruleset, pos: &Position) -> u32 {
        if *pos == Position::start(rules) {
            0
        } else if pos.to_move == rules.first {
            2
        } else {
            1
        }
    }

    /// Reads a position id: `pits/captures/side`, optionally followed by `/plies` and by
    /// `/seen`, the positions since the last capture before the current one, oldest first, each
    /// as `A.B.C.D` and `s` or `n` for the side to move (`7.7.7.7s,2.9.9.8n`). Without `plies`,
    /// the count is the fewest that fit the position (0 at the start, else 1 or 2 by the side
    /// to move).
    ///
    /// # Errors
    /// [`PositionIdError`] for bad syntax, a position these rules cannot reach, or a history
    /// that does not belong to the position (another number of counters on the board, or a
    /// position already repeated to the end of the game).
    pub fn from_id(rules: Ruleset, id: &str) -> Result<State, PositionIdError> {
        let err = |why: String| PositionIdError {
            game: super::NAME,
            id: id.to_string(),
            why,
        };
        let parts: Vec<&str> = id.trim().split('/').collect();
        if !(3..=5).contains(&parts.len()) {
            return Err(err(
                "expected pits/captures/side[/plies[/seen]], e.g. 7,7,7,7/0,0/south".into(),
            ));
        }
        let pos: Position = parts[..3]
            .join("/")
            .parse()
            .map_err(|e: super::ParsePositionError| err(e.to_string()))?;
        let mut state = State::from_position(rules, pos).map_err(|e| err(e.to_string()))?;
        if let Some(p) = parts.get(3) {
            state.plies = p
                .trim()
                .parse()
                .map_err(|_| err(format!("plies '{p}' is not a number")))?;
        }
        if let Some(seen) = parts.get(4).filter(|s| !s.trim().is_empty()) {
            let mut keys = Vec::new();
            for entry in seen.split(',') {
                let entry = entry.trim();
                let (pits, side) = match entry.strip_suffix('s') {
                    Some(p) => (p, Player::One),
                    None => match entry.strip_suffix('n') {
                        Some(p) => (p, Player::Two),
                        None => {
                            return Err(err(format!("seen position '{entry}' must end in s or n")));
                        }
                    },
                };
                let v: Vec<u8> = pits
                    .split('.')
                    .map(|x| x.parse::<u8>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| err(format!("bad seen position '{entry}'")))?;
                let [a, b, c, d] = v.as_slice() else {
                    return Err(err(format!("seen position '{entry}' needs four pits")));
                };
                let p = Position {
                    pits: [*a, *b, *c, *d],
                    captured: pos.captured,
                    to_move: side,
                };
                if p.on_board() != pos.on_board() {
                    return Err(err(format!(
                        "seen position '{entry}' has another number of counters on the board"
                    )));
                }
                keys.push(p.key());
            }
            keys.push(pos.key());
            for (i, &k) in keys.iter().enumerate() {
                if keys[..i].iter().filter(|&&j| j == k).count() + 1
                    >= usize::from(rules.repetition)
                    && i + 1 < keys.len()
                {
                    return Err(err(
                        "a seen position repeats often enough to have ended the game".into(),
                    ));
                }
            }
            state.history = keys;
            let before = state.history.len() - 1;
            let seen_before = state.history[..before]
                .iter()
                .filter(|&&k| k == pos.key())
                .count();
            state.over = state.ending_now(seen_before);
        }
        state.validate().map_err(|e| err(e.why))?;
        Ok(state)
    }

    /// Checks that the state can occur under its rules: the counters add up to `4 × seeds`
    /// with even capture totals (T-4); with no move played the game is at its start, with
    /// `first` to move (T-2); every move hands the turn over, so the side to move is `first`
    /// exactly when an even number of moves has been played; the history of positions since
    /// the last capture ends at the current one and each of its positions follows the one
    /// before by a legal move that captures nothing, before which the game had not ended (T-6,
    /// T-7); the move count covers that history; and the outcome is the one the position and
    /// its history give.
    ///
    /// The move count stops at `u32::MAX` (playing on leaves it there), so at that value it
    /// says "at least" and the side to move is not judged by it.
    ///
    /// # Errors
    /// [`InvalidState`] naming the first fact that does not hold.
    pub fn validate(&self) -> Result<(), InvalidState> {
        let err = |why: String| Err(InvalidState::new(why));
        let total = self.pos.on_board()
            + u32::from(self.pos.captured.one)
            + u32::from(self.pos.captured.two);
        if total != self.rules.total() {
            return err(format!(
                "it holds {total} counters in all, the ruleset {}",
                self.rules.total()
            ));
        }
        if self.pos.captured.one % 2 == 1 || self.pos.captured.two % 2 == 1 {
            return err("captures are always even (T-4)".into());
        }
        let Some((&first, rest)) = self.history.split_first() else {
            return err("the history holds at least the current position".into());
        };
        if self.history.last() != Some(&self.pos.key()) {
            return err("the history does not end at the current position".into());
        }
        let plies = self.history.len() as u64 - 1;
        if u64::from(self.plies) < plies {
            return err(format!(
                "{} moves played cannot make a history of {} positions",
                self.plies,
                self.history.len()
            ));
        }
        let start = Position::start(&self.rules);
        let seat = |p: Player| self.rules.seat_name(p);
        if self.plies == 0 && self.pos != start {
            return err(format!(
                "with no move played the game is at its start, {start}, with {} to move (T-2)",
                seat(self.rules.first)
            ));
        }
        let even = self.plies.is_multiple_of(2);
        if self.plies < u32::MAX && (self.pos.to_move == self.rules.first) != even {
            let expected = if even {
                self.rules.first
            } else {
                !self.rules.first
            };
            return err(format!(
                "after {} moves {} is to move: {} moved first and every move, a pass included, hands the turn over (T-2, T-6)",
                self.plies,
                seat(expected),
                seat(self.rules.first)
            ));
        }
        // Replay the history from its first position: each next position must be reached by
        // a legal move without a capture (a capture starts a new history).
        let (pits, to_move) = Position::unpack_key(first);
        let start = Position {
            pits,
            captured: self.pos.captured,
            to_move,
        };
        let mut replay = match State::from_position(self.rules, start) {
            Ok(s) => s,
            Err(e) => return err(e.to_string()),
        };
        let mut moves = Vec::new();
        for (i, &key) in rest.iter().enumerate() {
            if replay.over.is_some() {
                return err(format!(
                    "the game ended at seen position {} of the history, which has more",
                    i + 1
                ));
            }
            replay.legal_moves(&mut moves);
            let next = moves.iter().find_map(|&m| {
                let mut s = replay.clone();
                s.play_unchecked(m);
                (s.pos.key() == key && s.pos.captured == replay.pos.captured).then_some(s)
            });
            let Some(mut next) = next else {
                let (p, side) = Position::unpack_key(key);
                let side = if side == Player::One { 's' } else { 'n' };
                return err(format!(
                    "seen position {} ({}.{}.{}.{}{side}) does not follow the one before by a move without a capture",
                    i + 2,
                    p[0],
                    p[1],
                    p[2],
                    p[3]
                ));
            };
            next.plies = replay.plies + 1;
            replay = next;
        }
        if replay.over != self.over {
            return err(match self.over {
                Some(o) => format!("the game is not over by {} here", o.reason.describe()),
                None => "the game is over in this position and its history".into(),
            });
        }
        Ok(())
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.pos
    }

    /// Keys of the positions seen since the last capture, oldest first; the last is the current
    /// position ([`Position::key`]).
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times the current position has occurred since the last capture (at least 1).
    pub fn occurrences(&self) -> usize {
        let key = self.pos.key();
        self.history.iter().filter(|&&k| k == key).count()
    }

    /// Number of moves played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Whether the game ends at the current position, given that it has occurred `seen_before`
    /// times before (T-6, T-7).
    fn ending_now(&self, seen_before: usize) -> Option<Outcome> {
        let pos = &self.pos;
        let board = pos.on_board();
        let captured = pos.captured.map(u32::from);
        if board == 0 {
            return Some(Outcome::by_score(captured, EndReason::BoardEmpty));
        }
        if seen_before + 1 >= usize::from(self.rules.repetition) {
            let split = match self.rules.cycle {
                CycleSplit::Equal => ByPlayer::new(board / 2, board - board / 2),
                CycleSplit::OwnSide => ByPlayer::from_fn(|p| pos.side(p)),
            };
            let scores = ByPlayer::new(captured.one + split.one, captured.two + split.two);
            return Some(Outcome::by_score(scores, EndReason::Repetition));
        }
        if self.rules.empty == EmptySide::End && pos.side(pos.to_move) == 0 {
            let scores = ByPlayer::from_fn(|p| captured[p] + pos.side(p));
            return Some(Outcome::by_score(scores, EndReason::EmptySide));
        }
        None
    }

    /// Why `pit` cannot be sown now, if it cannot.
    fn sow_problem(&self, pit: Pit, count: Option<u8>) -> Option<String> {
        let mover = self.pos.to_move;
        let n = self.pos.pits[pit.index()];
        if pit.owner() != mover {
            return Some(format!(
                "pit {pit} belongs to {}",
                self.rules.seat_name(pit.owner())
            ));
        }
        if n == 0 {
            return Some(format!("pit {pit} is empty"));
        }
        if let Some(c) = count.filter(|&c| c != n) {
            return Some(format!(
                "pit {pit} holds {n} counter{}, not {c}",
                if n == 1 { "" } else { "s" }
            ));
        }
        if n == 1 && self.rules.singleton == Singleton::Illegal {
            let [x, y] = Pit::of(mover);
            let other = if x == pit { y } else { x };
            return Some(if self.pos.pits[other.index()] > 1 {
                format!(
                    "a single counter may not be sown while pit {other} holds more (singleton=illegal)"
                )
            } else {
                "a single counter may not be sown (singleton=illegal); you must pass".to_string()
            });
        }
        None
    }
}

impl GameState for State {
    type Ruleset = Ruleset;
    type Move = Move;
    type Chance = NoChance;

    fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    #[inline]
    fn turn(&self) -> Turn {
        match self.over {
            Some(o) => Turn::Over(o),
            None => Turn::Player(self.pos.to_move),
        }
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.over.is_some() {
            out.clear();
        } else {
            self.pos.moves(&self.rules, out);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<Weighted<Self::Chance>>) -> u32 {
        out.clear();
        0
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let mover = self.pos.to_move;
        if let Move::Sow { pit, .. } = m {
            let s = sow(&self.rules, self.pos.pits, pit);
            self.pos.pits = s.pits;
            if s.captured > 0 {
                self.pos.captured[mover] += s.captured;
                // T-7: a capture lowers the counters on the board; no earlier position can recur.
                self.history.clear();
            }
        }
        self.pos.to_move = !mover;
        // Saturates: no game played comes near, and an id read with the largest count plays on.
        self.plies = self.plies.saturating_add(1);
        let key = self.pos.key();
        let seen_before = self.history.iter().filter(|&&k| k == key).count();
        self.history.push(key);
        self.over = self.ending_now(seen_before);
    }

    fn apply_chance_unchecked(&mut self, c: Self::Chance) {
        match c {}
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.over.is_some() {
            return Err(MoveError::NotPlayersTurn(describe_turn(self.turn())));
        }
        let (pit, count) = Move::parse_loose(text).map_err(|why| MoveError::Syntax {
            text: text.trim().to_string(),
            expected: why.to_string(),
        })?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let illegal = |reason: String| MoveError::Illegal {
            text: text.trim().to_string(),
            reason,
        };
        match pit {
            None if legal == [Move::Pass] => Ok(Move::Pass),
            None => Err(illegal(format!(
                "you can sow {}, so you may not pass",
                legal
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ))),
            Some(pit) => match self.sow_problem(pit, count) {
                Some(why) => Err(illegal(why)),
                None => Ok(Move::Sow {
                    pit,
                    count: self.pos.pits[pit.index()],
                }),
            },
        }
    }

    fn parse_chance(&self, text: &str) -> Result<Self::Chance, ChanceError> {
        let _ = text;
        Err(ChanceError::NotChanceTurn(
            "tihbat has no chance events".into(),
        ))
    }

    fn scores(&self) -> ByPlayer<u32> {
        self.pos.captured.map(u32::from)
    }

    fn turns(&self) -> u32 {
        self.plies
    }

    fn actions(&self) -> u32 {
        self.plies
    }

    fn render(&self) -> String {
        let p = &self.pos;
        // The pits from the board model ([`crate::view`]), as the web page draws them: North's
        // D C, then South's A B.
        let Drawing::Tihbat(board) = Draw::drawing(self, None) else {
            unreachable!("a Tihbat state draws pits")
        };
        let counters = |row: usize, i: usize| board.rows[row][i].counters;
        let (d, c, a, b) = (
            counters(0, 0),
            counters(0, 1),
            counters(1, 0),
            counters(1, 1),
        );
        let marker = |side: Player| match self.turn() {
            Turn::Player(q) if q == side => "  <- to move",
            _ => "",
        };
        let mut s = String::new();
        let _ = writeln!(s, "          D      C");
        let _ = writeln!(s, "       +------+------+");
        let _ = writeln!(
            s,
            " North | {d:>4} | {c:>4} |  captured {:>3}{}",
            p.captured.two,
            marker(Player::Two)
        );
        let _ = writeln!(s, "       +------+------+");
        let _ = writeln!(
            s,
            " South | {a:>4} | {b:>4} |  captured {:>3}{}",
            p.captured.one,
            marker(Player::One)
        );
        let _ = writeln!(s, "       +------+------+");
        let _ = writeln!(
            s,
            "          A      B        (sowing A -> B -> C -> D -> A)"
        );
        if let Turn::Over(o) = self.turn() {
            let _ = writeln!(s, "{}", describe_outcome(&self.rules, &o));
        }
        s
    }

    fn validate(&self) -> Result<(), InvalidState> {
        State::validate(self)
    }

    fn position_id(&self) -> String {
        let mut id = format!("{}/{}", self.pos, self.plies);
        let earlier = &self.history[..self.history.len() - 1];
        if !earlier.is_empty() {
            id.push('/');
            for (i, &k) in earlier.iter().enumerate() {
                let (p, side) = Position::unpack_key(k);
                let side = if side == Player::One { 's' } else { 'n' };
                let sep = if i == 0 { "" } else { "," };
                let _ = write!(id, "{sep}{}.{}.{}.{}{side}", p[0], p[1], p[2], p[3]);
            }
        }
        id
    }

    fn describe_move(&self, m: Move) -> String {
        match m {
            Move::Pass => "passes: no counter can be sown".to_string(),
            Move::Sow { pit, count } => {
                let s = sow(&self.rules, self.pos.pits, pit);
                let capture = if s.captured > 0 {
                    format!(", captures {}", s.captured)
                } else {
                    String::new()
                };
                if count == 1 && s.last == pit {
                    format!("puts the single counter of {pit} back (a null move)")
                } else {
                    format!(
                        "sows {count} from {pit}, last counter in {}{capture}",
                        s.last
                    )
                }
            }
        }
    }
}

/// One line describing how a game ended, with seat names.
pub(crate) fn describe_outcome(rules: &Ruleset, o: &Outcome) -> String {
    let result = match o.winner {
        Some(w) => format!("{} wins", rules.seat_name(w)),
        None => "draw".to_string(),
    };
    format!(
        "Game over: {result}, south {} - north {} ({})",
        o.scores.one,
        o.scores.two,
        o.reason.describe()
    )
}

/// Tihbat has no tables of this kind: its exact solver covers every position.
impl crate::endgame::Tabled for State {}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(rules: Ruleset, id: &str) -> State {
        State::from_position(rules, id.parse().unwrap()).unwrap()
    }

    /// South sows one counter from pit A, then North one from pit C.
    fn sow_a_then_c(s: &mut State) {
        for pit in [Pit::A, Pit::C] {
            s.play_unchecked(Move::Sow { pit, count: 1 });
        }
    }

    #[test]
    fn null_moves_by_both_sides_repeat_the_position() {
        let r = Ruleset::with_seeds(2);
        let mut s = state(r, "1,0,1,0/6,0/south");
        s.play_unchecked(Move::Sow {
            pit: Pit::A,
            count: 1,
        });
        assert_eq!(s.turn(), Turn::Player(Player::Two));
        s.play_unchecked(Move::Sow {
            pit: Pit::C,
            count: 1,
        });
        let o = s.turn().outcome().expect("over by repetition");
        assert_eq!(o.reason, EndReason::Repetition);
        assert_eq!(o.scores, ByPlayer::new(7, 1));
        assert_eq!(o.winner, Some(Player::One));
    }

    #[test]
    fn own_side_split_at_repetition() {
        // South holds 1 on the board, North 3: own-side gives 4+1 and 0+3, equal 4+2 and 0+2.
        for (cycle, scores) in [(CycleSplit::OwnSide, (5, 3)), (CycleSplit::Equal, (6, 2))] {
            let r = Ruleset {
                cycle,
                ..Ruleset::with_seeds(2)
            };
            let mut s = state(r, "1,0,1,2/4,0/south");
            sow_a_then_c(&mut s);
            assert_eq!(
                s.turn().outcome().unwrap().scores,
                ByPlayer::new(scores.0, scores.1)
            );
        }
    }

    #[test]
    fn third_occurrence_under_repetition_three() {
        let r = Ruleset {
            repetition: 3,
            ..Ruleset::with_seeds(2)
        };
        let mut s = state(r, "1,0,1,0/6,0/south");
        for _ in 0..2 {
            assert!(s.turn().player().is_some());
            sow_a_then_c(&mut s);
        }
        assert_eq!(s.turn().outcome().unwrap().reason, EndReason::Repetition);
        assert_eq!(s.occurrences(), 3);
    }

    #[test]
    fn empty_side_passes_or_ends() {
        let mut s = state(Ruleset::with_seeds(1), "0,0,2,0/2,0/south");
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        assert_eq!(moves, vec![Move::Pass]);
        s.play_unchecked(Move::Pass);
        assert_eq!(s.turn(), Turn::Player(Player::Two));
        let end = Ruleset {
            empty: EmptySide::End,
            ..Ruleset::with_seeds(1)
        };
        let s = state(end, "0,0,2,0/2,0/south");
        let o = s.turn().outcome().unwrap();
        assert_eq!(
            (o.reason, o.scores, o.winner),
            (EndReason::EmptySide, ByPlayer::new(2, 2), None)
        );
    }

    #[test]
    fn capturing_everything_ends_the_game() {
        let mut s = state(Ruleset::with_seeds(1), "1,3,0,0/0,0/south");
        let fwd = Ruleset {
            singleton: Singleton::Forward,
            ..Ruleset::with_seeds(1)
        };
        s.play_unchecked(Move::Sow {
            pit: Pit::B,
            count: 3,
        }); // B,C,D: nothing
        assert!(s.turn().player().is_some());
        let mut s = state(fwd, "1,3,0,0/0,0/south");
        s.play_unchecked(Move::Sow {
            pit: Pit::A,
            count: 1,
        });
        let o = s.turn().outcome().unwrap();
        assert_eq!(
            (o.reason, o.scores),
            (EndReason::BoardEmpty, ByPlayer::new(4, 0))
        );
    }

    #[test]
    fn parse_move_explains_illegal_input() {
        let s = State::new(Ruleset::default());
        assert_eq!(
            s.parse_move("a").unwrap(),
            Move::Sow {
                pit: Pit::A,
                count: 7
            }
        );
        assert_eq!(
            s.parse_move(" B7 ").unwrap(),
            Move::Sow {
                pit: Pit::B,
                count: 7
            }
        );
        let e = s.parse_move("C").unwrap_err().to_string();
        assert!(e.contains("belongs to north"), "{e}");
        let e = s.parse_move("A6").unwrap_err().to_string();
        assert!(e.contains("holds 7 counters, not 6"), "{e}");
        let e = s.parse_move("pass").unwrap_err().to_string();
        assert!(e.contains("A7 or B7"), "{e}");
        let e = s.parse_move("x").unwrap_err().to_string();
        assert!(e.contains("pit letter"), "{e}");
    }

    #[test]
    fn setup_is_validated() {
        let r = Ruleset::default();
        assert!(State::from_position(r, "7,7,7,7/0,0/south".parse().unwrap()).is_ok());
        assert!(State::from_position(r, "7,7,7,6/0,0/south".parse().unwrap()).is_err());
        assert!(State::from_position(r, "7,7,7,6/1,0/south".parse().unwrap()).is_err());
    }
}

