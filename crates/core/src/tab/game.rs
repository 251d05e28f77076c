//! The [`GameState`] implementation: turns, decisions, notation in context, the board picture.

use std::fmt::Write as _;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::game::{ChanceError, GameState, InvalidState, MoveError, Turn, Weighted, describe_turn};
use crate::grid::{LANE_CASE_NOTE, Square};
use crate::player::{ByPlayer, Player};
use crate::ruleset::Ruleset as _;
use crate::sticks::Throw;
use crate::view::{Draw, Drawing};

use super::board::{MAXP, OFF, Phase};
use super::movegen::MoveList;
use super::moves::{FORM, Move, NO_PIECE, Play};
use super::rules::{EnemyRow, Ruleset, ThrowUse};
use super::state::State;
use super::track::{NONE, dests};

impl State {

    /// Stick statistics of the game so far.
    pub fn stats(&self) -> super::board::Stats {
        self.stats
    }

    /// The square of every piece of `p`, in piece-number order (`None` once off the board).
    pub fn piece_squares(&self, p: Player) -> Vec<Option<Square>> {
        (0..usize::from(self.rules.piece_count()))
            .map(|i| {
                let sq = self.pieces[p.index()][i].sq;
                (sq != OFF).then_some(Square(sq))
            })
            .collect()
    }

    /// Pieces on the board, per side.
    pub fn pieces_on_board(&self) -> ByPlayer<u32> {
        ByPlayer::new(u32::from(self.alive[0]), u32::from(self.alive[1]))
    }

    /// Pieces removed by stack reductions, per side.
    pub fn removed(&self) -> ByPlayer<u32> {
        ByPlayer::new(u32::from(self.removed[0]), u32::from(self.removed[1]))
    }

    /// Banked tâbs, per side.
    pub fn banked(&self) -> ByPlayer<u32> {
        ByPlayer::new(u32::from(self.bank[0]), u32::from(self.bank[1]))
    }

    /// Throws waiting to be played, in value order.
    pub fn pending(&self) -> Vec<Throw> {
        Throw::ALL
            .into_iter()
            .flat_map(|t| std::iter::repeat_n(t, usize::from(self.pending.get(t.index()))))
            .collect()
    }

    /// How many throws of `t` are waiting to be played (without allocating, unlike
    /// [`State::pending`]).
    #[inline]
    pub fn pending_count(&self, t: Throw) -> u32 {
        u32::from(self.pending.get(t.index()))
    }

    /// Piece `i` of `p` (0-based, in piece-number order), or `None` once it is off the board or
    /// if `p` has no such piece. Read-only, for evaluations.
    #[inline]
    pub fn piece(&self, p: Player, i: u8) -> Option<PieceView> {
        if i >= self.rules.piece_count() {
            return None;
        }
        let piece = &self.pieces[p.index()][usize::from(i)];
        (piece.sq != OFF).then(|| PieceView {
            square: Square(piece.sq),
            converted: piece.converted(),
            entered_enemy_row: piece.entered(),
        })
    }

    /// The squares where `p` has a unit, as a mask: bit `s` for square `s`. Read-only, for
    /// evaluations that visit the occupied squares only.
    #[inline]
    pub fn occupied(&self, p: Player) -> u128 {
        self.occ[p.index()]
    }

    /// The owner of the unit on `sq` and its number of pieces, if the square is occupied.
    #[inline]
    pub fn unit_at(&self, sq: Square) -> Option<(Player, u32)> {
        if usize::from(sq.0) >= self.grid().len() {
            return None;
        }
        self.owner(sq.0).map(|p| (p, self.mask(sq.0).count_ones()))
    }

    /// Whether the stack on `sq` is dissolved (L-14, `split=dissolve`): its pieces stand
    /// together but move one by one. False for an empty square or a single piece.
    #[inline]
    pub fn is_dissolved(&self, sq: Square) -> bool {
        usize::from(sq.0) < self.grid().len()
            && self.mask(sq.0).count_ones() > 1
            && self.dissolved(sq.0)
    }

    /// How the enemy-row rule (L-11, H-12) holds the unit on `sq` now: `Some(true)` if it
    /// stands in its owner's enemy home row and may not move at all (`enemy_row=freeze` while
    /// its owner has a piece in his home row, `opponent-home-empty` while the enemy has one in
    /// his), `Some(false)` if it may move along that row but not leave it (`freeze-exit`,
    /// `freeze-exit-unless-one-stack`), `None` if the rule does not hold it (or the square is
    /// empty). `lowest-priority` holds no unit by itself and is not reported.
    #[inline]
    pub fn enemy_row_hold(&self, sq: Square) -> Option<bool> {
        if usize::from(sq.0) >= self.grid().len() {
            return None;
        }
        let p = self.owner(sq.0)?;
        if self.row_of(sq.0) != self.enemy_row(p) {
            return None;
        }
        let home = self.home_occupied(p);
        match self.rules.enemy_row {
            EnemyRow::Freeze if home => Some(true),
            EnemyRow::OpponentHomeEmpty if self.home_occupied(!p) => Some(true),
            EnemyRow::FreezeExit if home => Some(false),
            EnemyRow::FreezeExitUnlessOneStack if home && !self.home_on_one_square(p) => {
                Some(false)
            }
            _ => None,
        }
    }

    /// The number of `p`'s pieces not yet converted (L-9c).
    pub fn unconverted(&self, p: Player) -> u32 {
        self.unconv[p.index()].count_ones()
    }

    /// Turns played in a row without a capture, conversion or reduction (the L-18 counter).
    pub fn turns_without_progress(&self) -> u32 {
        u32::from(self.no_progress)
    }

    /// The player whose turn it is, throwing or playing his throws; `None` during the opening
    /// (L-4) and once the game is over.
    #[inline]
    pub fn player_in_turn(&self) -> Option<Player> {
        match self.phase {
            Phase::Throwing { player } | Phase::Moving { player } => Some(player),
            Phase::Opening { .. } | Phase::Over => None,
        }
    }

    /// Whether the player in turn ([`State::player_in_turn`]) throws again before his turn
    /// ends: he is still throwing (L-5), or, with interleaved throws, the throw he is playing
    /// gives another.
    pub fn throws_to_come(&self) -> bool {
        match self.phase {
            Phase::Throwing { .. } => true,
            Phase::Moving { .. } => self.extra,
            Phase::Opening { .. } | Phase::Over => false,
        }
    }

    /// The plays `p` could make with the single throw `t` on this board, as if `t` were his
    /// only throw and he were to move now: the rules' own generator, with every rule that
    /// decides a play (conversion, reserved tâbs, frozen units, passing, landing, splits,
    /// reductions and survivors, lowest priority), but no banking, declining or ending.
    /// Appended to `out` after clearing it, in move order. Read-only: evaluations use it to
    /// ask what a throw could do for either player without touching the position.
    pub fn throw_plays(&self, p: Player, t: Throw, out: &mut Vec<Move>) {
        out.clear();
        self.plays_into(p, t, &mut MoveList::new(self, out));
    }

    /// Where a unit of `p` standing on `from` would be `steps` squares on along `p`'s track
    /// (1 to 6 steps): the main way and, when the way crosses the branch into the enemy home
    /// row (L-2, L-10), the way through that row. `None` where the track ends (the one-way
    /// track, H-8) or for a step count or square out of range. Geometry only: it does not say
    /// whether a unit may make the move (for that, [`State::throw_plays`]).
    #[inline]
    pub fn track_destinations(&self, p: Player, from: Square, steps: u8) -> [Option<Square>; 2] {
        if !(1..=6).contains(&steps) || usize::from(from.0) >= self.grid().len() {
            return [None, None];
        }
        let [main, alt] = dests(self.rules.columns, self.rules.track, p)[usize::from(from.0)]
            [usize::from(steps) - 1];
        let sq = |s: u8| (s != NONE).then_some(Square(s));
        [sq(main), sq(alt)]
    }

    /// [`State::track_destinations`] for each throw of [`Throw::ALL`] in order, read at once:
    /// for evaluations that ask it of every unit (`None`s for a square off the board).
    #[inline]
    pub fn throw_destinations(&self, p: Player, from: Square) -> [[Option<Square>; 2]; 5] {
        let mut out = [[None; 2]; 5];
        if usize::from(from.0) >= self.grid().len() {
            return out;
        }
        let row = &dests(self.rules.columns, self.rules.track, p)[usize::from(from.0)];
        let sq = |s: u8| (s != NONE).then_some(Square(s));
        for (o, t) in out.iter_mut().zip(Throw::ALL) {
            let [main, alt] = row[usize::from(t.value()) - 1];
            *o = [sq(main), sq(alt)];
        }
        out
    }

    /// Whether the play `m` would reduce the moving stack to one piece on arrival (L-15, M-9).
    /// False for anything but a play of a stack of the player to move.
    pub fn play_reduces(&self, m: Move) -> bool {
        let Move::Play(play) = m else {
            return false;
        };
        let grid = self.grid();
        let (Some(from), Some(to)) = (play.from.square(grid), play.to.and_then(|t| t.square(grid)))
        else {
            return false;
        };
        let Some(p) = self.owner(from.0) else {
            return false;
        };
        let group = if play.pieces == 0 {
            self.mask(from.0)
        } else {
            play.pieces & self.mask(from.0)
        };
        self.reduces(p, group, from.0, to.0)
    }

    /// Whether the whole unit on `from`, were it to arrive on `to`, would be reduced to one
    /// piece (L-15, M-9): what the reduction rule reads of its pieces' histories. False for an
    /// empty square, a single piece, or a square off the board. Read-only, for evaluations.
    #[inline]
    pub fn unit_reduces(&self, from: Square, to: Square) -> bool {
        let len = self.grid().len();
        if usize::from(from.0) >= len || usize::from(to.0) >= len {
            return false;
        }
        let Some(p) = self.owner(from.0) else {
            return false;
        };
        self.reduces(p, self.mask(from.0), from.0, to.0)
    }

    /// Why a typed play is not legal, for the one-line message.
    /// The legal move that the play `typed` names (with its throw, or any throw that fits when
    /// `throw_given` is false, and with its suffixes, or any when it has none); else every
    /// legal move it may name (none, or several).
    fn find_play(
        &self,
        typed: &Play,
        throw_given: bool,
        legal: &[Move],
    ) -> Result<Move, Vec<Move>> {
        let same_square =
            |a: super::moves::Spot, b: super::moves::Spot| a.row == b.row && a.col == b.col;
        let matches = |q: &Play| {
            (!throw_given || q.throw == typed.throw)
                && same_square(q.from, typed.from)
                && match (q.to, typed.to) {
                    (Some(a), Some(b)) => same_square(a, b),
                    (None, None) => true,
                    _ => false,
                }
                && (typed.pieces == 0 || q.pieces == typed.pieces)
                && (typed.survivor == NO_PIECE || q.survivor == typed.survivor)
                && (!typed.dissolve || q.dissolve)
        };
        let exact: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Play(q) if matches(q) && q.pieces == typed.pieces && q.survivor == typed.survivor && q.dissolve == typed.dissolve))
            .collect();
        if exact.len() == 1 {
            return Ok(exact[0]);
        }
        let loose: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Play(q) if matches(q)))
            .collect();
        match loose.as_slice() {
            [m] => Ok(*m),
            _ => Err(loose),
        }
    }

    /// `typed` with its Lane letters in the other case: both squares, then the first, then
    /// the second (for a coordinate, nothing).
    fn other_cases(typed: &Play) -> Vec<Play> {
        let from = typed.from.other_case();
        let to = typed.to.and_then(|t| t.other_case());
        let mut alts = Vec::new();
        if let (Some(f), Some(t)) = (from, to) {
            alts.push(Play {
                from: f,
                to: Some(t),
                ..*typed
            });
        }
        if let Some(f) = from {
            alts.push(Play { from: f, ..*typed });
        }
        if let Some(t) = to {
            alts.push(Play {
                to: Some(t),
                ..*typed
            });
        }
        alts
    }

    fn why_not(&self, p: Player, play: &Play, legal: &[Move]) -> String {
        let grid = self.grid();
        let Some(from) = play.from.square(grid) else {
            return format!("{} is not on the 4x{} board", play.from, self.rules.columns);
        };
        let name = grid.name(from);
        let seat = self.rules.seat_name(p);
        if self.owner(from.0) != Some(p) {
            return format!("there is no {seat} piece on {name}");
        }
        let t = play.throw;
        if self.pending.get(t.index()) == 0 && !(t.is_tab() && self.bank[p.index()] > 0) {
            let pending = self.pending();
            return if pending.is_empty() {
                "no throw is pending".into()
            } else {
                format!(
                    "no {t} is pending (pending: {})",
                    pending
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            };
        }
        let mask = self.mask(from.0);
        let unconverted = (0..MAXP)
            .filter(|&i| mask & (1 << i) != 0)
            .any(|i| !self.pieces[p.index()][i].converted());
        if unconverted && !t.is_tab() {
            return format!(
                "the piece on {name} is not converted yet: only a tab (1) can move it (L-9c)"
            );
        }
        let same: Vec<String> = legal
            .iter()
            .filter(
                |m| matches!(m, Move::Play(q) if q.throw == t && q.from.square(grid) == Some(from)),
            )
            .map(|m| m.to_string())
            .take(6)
            .collect();
        if same.is_empty() {
            format!(
                "the {t} cannot move the unit on {name}: it is blocked, frozen, or must be used elsewhere"
            )
        } else {
            format!("with {t} the unit on {name} can play {}", same.join(" or "))
        }
    }
}

impl GameState for State {
    type Ruleset = Ruleset;
    type Move = Move;
    type Chance = Throw;

    fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    #[inline]
    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Opening { .. } | Phase::Throwing { .. } => Turn::Chance,
            Phase::Moving { player } => Turn::Player(player),
            Phase::Over => Turn::Over(self.over.expect("an ended game has an outcome")),
        }
    }

    fn chance_player(&self) -> Option<Player> {
        match self.phase {
            Phase::Opening { thrower } => Some(thrower),
            Phase::Throwing { player } => Some(player),
            _ => None,
        }
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal_moves_into(out);
    }

    fn chance_outcomes(&self, out: &mut Vec<Weighted<Throw>>) -> u32 {
        out.clear();
        match self.phase {
            Phase::Opening { .. } | Phase::Throwing { .. } => {
                let (weights, total) = self.rules.odds.weights();
                out.extend(weights);
                total
            }
            _ => 0,
        }
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        self.apply_move(m);
    }

    #[inline]
    fn play_picked(&mut self, moves: &mut Vec<Move>, pick: impl FnOnce(usize) -> usize) {
        match self.kept_code(pick) {
            Ok(()) => {}
            Err(pick) => crate::game::play_picked_from_list(self, moves, pick),
        }
    }

    #[inline]
    fn apply_picked_chance(
        &mut self,
        outs: &mut Vec<Weighted<Throw>>,
        pick: impl FnOnce(&[Weighted<Throw>]) -> usize,
    ) {
        // A throw is picked from the weights as they are (a constant table for fair sticks),
        // without listing them into `outs`.
        if matches!(self.phase, Phase::Opening { .. } | Phase::Throwing { .. }) {
            let (weights, _) = self.rules.odds.weights();
            let c = weights[pick(&weights)].outcome;
            self.apply_throw(c);
            return;
        }
        self.chance_outcomes(outs);
        let c = outs[pick(outs)].outcome;
        self.apply_chance_unchecked(c);
    }

    #[inline]
    fn apply_chance_unchecked(&mut self, c: Throw) {
        self.apply_throw(c);
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let Phase::Moving { player: p } = self.phase else {
            return Err(MoveError::NotPlayersTurn(describe_turn(self.turn())));
        };
        let text = text.trim();
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let syntax = || MoveError::Syntax {
            text: text.to_string(),
            expected: FORM.into(),
        };
        // A play may be typed without its throw ("K-N") when only one throw fits.
        let (m, throw_given) = if !text.contains(':') && text.contains('-') {
            (
                format!("1:{text}").parse::<Move>().map_err(|_| syntax())?,
                false,
            )
        } else {
            (text.parse::<Move>().map_err(|_| syntax())?, true)
        };
        let Move::Play(typed) = m else {
            return if legal.contains(&m) {
                Ok(m)
            } else {
                Err(illegal(match m {
                    Move::Bank => "no tab can be banked now (L-8: only once every piece is converted, and `end` banks the last one)".into(),
                    Move::Decline(t) => match self.rules.throw_use {
                        ThrowUse::CompulsoryWithExemptions => format!("under throw_use=compulsory-with-exemptions no throw is declined before the move phase ends (L-7): play the other throws, then `end` leaves the {t} if it need not be played"),
                        ThrowUse::Compulsory => format!("under throw_use=compulsory the {t} cannot be declined (L-7)"),
                        _ => format!("the {t} cannot be declined now (L-7)"),
                    },
                    _ => "the move phase cannot end while a throw must still be played (L-7)".into(),
                }))
            };
        };
        match self.find_play(&typed, throw_given, &legal) {
            Ok(m) => Ok(m),
            Err(loose) if loose.is_empty() => {
                let why = self.why_not(p, &typed, &legal);
                // Lane's letters differ by case between the two halves of the board: a move
                // that is legal with its letters in the other case is what was meant.
                let meant = Self::other_cases(&typed)
                    .into_iter()
                    .find_map(|alt| self.find_play(&alt, throw_given, &legal).ok());
                Err(illegal(match meant {
                    Some(m) => format!("{why}; did you mean {m}? {LANE_CASE_NOTE}"),
                    None => why,
                }))
            }
            Err(loose) => Err(illegal(format!(
                "it is ambiguous: say which of {}",
                loose
                    .iter()
                    .take(8)
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    fn parse_chance(&self, text: &str) -> Result<Throw, ChanceError> {
        if !matches!(self.phase, Phase::Opening { .. } | Phase::Throwing { .. }) {
            return Err(ChanceError::NotChanceTurn(describe_turn(self.turn())));
        }
        text.parse::<Throw>().map_err(|e| ChanceError::Syntax {
            text: text.trim().to_string(),
            expected: e.to_string(),
        })
    }

    fn scores(&self) -> ByPlayer<u32> {
        ByPlayer::new(u32::from(self.captured[0]), u32::from(self.captured[1]))
    }

    fn turns(&self) -> u32 {
        self.turns
    }

    fn actions(&self) -> u32 {
        self.actions
    }

    fn render(&self) -> String {
        let mut s = String::new();
        // The board from the board model ([`crate::view`]), as the web page draws it.
        let Drawing::Tab(board) = Draw::drawing(self, None) else {
            unreachable!("a Tab state draws a Tab board")
        };
        for squares in &board.rows {
            let row = squares.first().map_or(0, |q| q.row);
            let label = match row {
                4 => "  black home",
                1 => "  white home",
                _ => "",
            };
            let _ = write!(s, "     ");
            for q in squares {
                let _ = write!(s, "{:<5}", q.name);
            }
            let _ = writeln!(s, "{label}");
            let _ = write!(s, "  {row}  ");
            for q in squares {
                let text = q
                    .unit
                    .as_ref()
                    .map_or_else(|| ".".to_string(), |u| u.text());
                let _ = write!(s, "{text:<5}");
            }
            let _ = writeln!(s);
        }
        let _ = writeln!(
            s,
            "  (W/B: converted piece; w/b: not yet converted; a number: a stack; ': has been in the enemy row; ~: dissolved)"
        );
        for p in Player::ALL {
            let i = p.index();
            let _ = writeln!(
                s,
                "  {:<5}  on board {:>2} ({} unconverted)  captured {:>2}  lost to reductions {}  banked tabs {}",
                self.rules.seat_name(p),
                self.alive[i],
                self.unconv[i].count_ones(),
                self.captured[i],
                self.removed[i],
                self.bank[i]
            );
        }
        let pending: Vec<String> = self
            .pending()
            .iter()
            .map(|t| format!("{t} ({})", t.name()))
            .collect();
        let status = match self.phase {
            Phase::Opening { thrower } => format!(
                "opening: {} throws; the first tab starts the game",
                self.rules.seat_name(thrower)
            ),
            Phase::Throwing { player } => format!(
                "turn {}: {} throws",
                self.turns,
                self.rules.seat_name(player)
            ),
            Phase::Moving { player } => format!(
                "turn {}: {} to move",
                self.turns,
                self.rules.seat_name(player)
            ),
            Phase::Over => match self.over {
                Some(o) => {
                    let result = match o.winner {
                        Some(w) => format!("{} wins", self.rules.seat_name(w)),
                        None => "no winner".into(),
                    };
                    let truncated = if o.is_truncated() { ", truncated" } else { "" };
                    format!(
                        "game over: {result} ({}{truncated}); captures white {} - black {}",
                        o.reason.describe(),
                        o.scores.one,
                        o.scores.two
                    )
                }
                None => "game over".into(),
            },
        };
        let _ = write!(s, "  {status}");
        if !pending.is_empty() {
            let _ = write!(s, "; pending throws: {}", pending.join(", "));
        }
        let _ = writeln!(s, "; turns without progress {}", self.no_progress);
        s
    }

    fn stick_stats(&self) -> Option<crate::game::StickStats> {
        let s = &self.stats;
        Some(crate::game::StickStats {
            turns: self.turns,
            throws: s.throws,
            tab_turns: s.tab_turns,
            captures: u32::from(self.captured[0]) + u32::from(self.captured[1]),
            conversions: s.conversions,
            reductions: s.reductions,
            banked: s.banked,
        })
    }

    fn describe_chance(&self, t: Throw) -> String {
        self.chance_text(t)
    }

    fn narrate_chance(&self, t: Throw) -> String {
        self.chance_narration(t)
    }

    fn narrate_move(&self, m: Move) -> String {
        self.move_narration(m)
    }

    fn describe_move(&self, m: Move) -> String {
        self.move_text(m)
    }

    fn position_id(&self) -> String {
        super::id::write(self)
    }

    fn validate(&self) -> Result<(), InvalidState> {
        State::validate(self)
    }

}

impl Serialize for State {
    /// The JSON form: the position id plus the position spelled out.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct PieceJson {
            piece: u32,
            start: String,
            square: Option<String>,
            converted: bool,
            entered_enemy_row: bool,
            rows_seen: Vec<u8>,
            visited: Vec<String>,
        }
        let grid = self.grid();
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("position", &self.position_id())?;
        let turn = match self.phase {
            Phase::Opening { .. } => "opening",
            Phase::Throwing { .. } => "chance",
            Phase::Moving { .. } => "player",
            Phase::Over => "over",
        };
        map.serialize_entry("phase", turn)?;
        if let Phase::Opening { thrower: p }
        | Phase::Throwing { player: p }
        | Phase::Moving { player: p } = self.phase
        {
            map.serialize_entry("player", self.rules.seat_name(p))?;
        }
        map.serialize_entry("pending", &self.pending())?;
        for p in Player::ALL {
            let i = p.index();
            let list: Vec<PieceJson> = (0..self.rules.piece_count())
                .map(|k| {
                    let piece = &self.pieces[i][usize::from(k)];
                    PieceJson {
                        piece: u32::from(k) + 1,
                        start: self.piece_name(p, k),
                        square: (piece.sq != OFF).then(|| grid.name(Square(piece.sq))),
                        converted: piece.converted(),
                        entered_enemy_row: piece.entered(),
                        rows_seen: (0..4)
                            .filter(|r| piece.rows() & (1 << r) != 0)
                            .map(|r| r + 1)
                            .collect(),
                        visited: grid
                            .squares()
                            .filter(|s| piece.visited() & (1u128 << s.0) != 0)
                            .map(|s| grid.name(s))
                            .collect(),
                    }
                })
                .collect();
            map.serialize_entry(self.rules.seat_name(p), &list)?;
        }
        map.serialize_entry("banked", &self.bank)?;
        map.serialize_entry("captured", &self.captured)?;
        map.serialize_entry("removed", &self.removed)?;
        map.serialize_entry("turns", &self.turns)?;
        map.serialize_entry("turns_without_progress", &self.no_progress)?;
        map.serialize_entry("actions", &self.actions)?;
        if let Some(o) = self.over {
            map.serialize_entry("outcome", &o)?;
        }
        map.end()
    }
}

/// What an evaluation reads about one piece on the board ([`State::piece`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceView {
    /// The square it stands on.
    pub square: Square,
    /// Whether a tâb has converted it (L-9c): only converted pieces move with other throws.
    pub converted: bool,
    /// Whether it has been in the enemy home row (L-10): it may not enter again.
    pub entered_enemy_row: bool,
}
