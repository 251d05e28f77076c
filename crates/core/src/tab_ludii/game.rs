//! The [`GameState`] of both presets: turns, legal moves and chance, applying actions,
//! reading a typed move (with the reason an illegal one is refused), position ids and the
//! serialised form.

use crate::game::{
    ChanceError, GameState, InvalidState, MoveError, PositionIdError, Turn, Weighted, describe_turn,
};
use crate::grid::LANE_CASE_NOTE;
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::moves::{Move, Step, parse_loose};
use super::ruleset::{Preset, Ruleset};
use super::state::{State, bit, squares_of};

impl GameState for State {
    type Ruleset = Ruleset;
    type Move = Move;
    type Chance = Throw;

    fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    #[inline]
    fn turn(&self) -> Turn {
        match (self.over, self.throw) {
            (Some(o), _) => Turn::Over(o),
            (None, None) => Turn::Chance,
            (None, Some(_)) => Turn::Player(self.to_move),
        }
    }

    fn chance_player(&self) -> Option<Player> {
        (self.over.is_none() && self.throw.is_none()).then_some(self.to_move)
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        match (self.over, self.throw) {
            (None, Some(t)) => self.generate(t, out),
            _ => out.clear(),
        }
    }

    #[inline]
    fn chance_outcomes(&self, out: &mut Vec<Weighted<Throw>>) -> u32 {
        if self.over.is_some() || self.throw.is_some() {
            out.clear();
            return 0;
        }
        // S-1: four two-sided sticks; 0 whites counts 6.
        let (weights, total) = self.rules.throw_weights();
        // A caller that reuses its buffer usually has these very outcomes in it already;
        // rewriting them would only stall the reads that follow.
        if out.as_slice() != weights {
            out.clear();
            out.extend_from_slice(weights);
        }
        total
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let throw = self.throw.expect("a move is played after a throw");
        if let Move::Step(s) = m {
            let n = self.columns();
            let (f, t) = (s.from.square(n), s.to.square(n));
            match self.rules.game() {
                Preset::Tab => self.play_tab(f, t),
                Preset::Hyde => self.play_hyde(f, t, s.part),
            }
        }
        self.finish_decision(throw);
    }

    #[inline]
    fn apply_chance_unchecked(&mut self, c: Throw) {
        debug_assert!(self.over.is_none() && self.throw.is_none());
        self.throw = Some(c);
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let Some(throw) = self.throw.filter(|_| self.over.is_none()) else {
            return Err(MoveError::NotPlayersTurn(describe_turn(self.turn())));
        };
        let text = text.trim();
        let syntax = |expected: String| MoveError::Syntax {
            text: text.to_string(),
            expected,
        };
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let loose = parse_loose(text).map_err(|why| {
            syntax(format!(
                "{why}; expected T:FROM-TO (e.g. 3:a1-d1), T:FROM-TO*N, FROM-TO or pass"
            ))
        })?;
        let mut legal = Vec::new();
        self.generate(throw, &mut legal);
        let Some(l) = loose else {
            return if legal == [Move::Pass] {
                Ok(Move::Pass)
            } else {
                Err(illegal(format!(
                    "a piece can move (e.g. {}), so you may not pass",
                    legal[0]
                )))
            };
        };
        let n = self.columns();
        if l.lane && n != 9 {
            return Err(syntax(format!(
                "Lane's letters name squares only on 9 columns; this board has {n}, so write coordinates such as a1"
            )));
        }
        for c in [l.from, l.to] {
            if c.col >= n {
                return Err(syntax(format!(
                    "{} is off the board: it has {n} columns",
                    c.coordinate()
                )));
            }
        }
        if let Some(t) = l.throw.filter(|&t| t != throw) {
            return Err(illegal(format!("the throw to play is {throw}, not {t}")));
        }
        let st = Step {
            throw,
            from: l.from,
            to: l.to,
            part: l.part,
            lane: n == 9,
        };
        let m = Move::Step(st);
        if legal.contains(&m) {
            return Ok(m);
        }
        let why = self.why_illegal(throw, &st, &legal);
        // Lane's letters differ by case between the two halves of the board: a move that is
        // legal with its letters in the other case is what was meant.
        let (from, to) = (st.from.other_case(), st.to.other_case());
        let meant = [(from, to), (from, Some(st.to)), (Some(st.from), to)]
            .into_iter()
            .filter(|_| st.lane)
            .filter_map(|(f, t)| {
                Some(Move::Step(Step {
                    from: f?,
                    to: t?,
                    ..st
                }))
            })
            .find(|alt| legal.contains(alt));
        Err(illegal(match meant {
            Some(m) => format!("{why}; did you mean {m}? {LANE_CASE_NOTE}"),
            None => why,
        }))
    }

    fn parse_chance(&self, text: &str) -> Result<Throw, ChanceError> {
        if self.turn() != Turn::Chance {
            return Err(ChanceError::NotChanceTurn(describe_turn(self.turn())));
        }
        text.parse::<Throw>().map_err(|e| ChanceError::Syntax {
            text: text.trim().to_string(),
            expected: e.to_string(),
        })
    }

    fn scores(&self) -> ByPlayer<u32> {
        self.score_pair()
    }

    /// Ludii's turn count: the turn in progress, numbered from 1 at the first throw; a turn
    /// begins whenever the mover changes. 0 before the first action.
    fn turns(&self) -> u32 {
        if self.actions() == 0 { 0 } else { self.turn }
    }

    fn actions(&self) -> u32 {
        2 * self.decisions + u32::from(self.throw.is_some())
    }

    fn describe_chance(&self, t: Throw) -> String {
        let who = if self.over.is_none() && self.throw.is_none() {
            self.seat(self.to_move)
        } else {
            "nobody"
        };
        format!("{who} throws {t} ({})", t.name())
    }

    fn stick_stats(&self) -> Option<crate::game::StickStats> {
        let t = &self.tally;
        Some(crate::game::StickStats {
            turns: t.turns,
            throws: t.throws,
            tab_turns: t.tab_turns,
            captures: u32::from(self.scores[0]) + u32::from(self.scores[1]),
            conversions: t.freed,
            // Ludii's rules have no stack reduction and no bank.
            reductions: 0,
            banked: 0,
        })
    }

    fn render(&self) -> String {
        super::text::render(self)
    }

    fn position_id(&self) -> String {
        super::id::write(self)
    }

    fn validate(&self) -> Result<(), InvalidState> {
        super::id::validate(self).map_err(InvalidState::new)
    }

    fn describe_move(&self, m: Move) -> String {
        super::text::describe_move(self, m)
    }
}

impl State {
    /// Reads a position id ([`GameState::position_id`]) under `rules`.
    ///
    /// Fields are separated by `/`:
    ///
    /// * four board rows, from White's home row (row 1) to Black's (row 4), each a comma-separated
    ///   list of squares from column `a` on: `W` or `B` (a single piece), `W3` (three pieces: a Tab
    ///   stack or an At-Tab king), `w`/`b` (a locked At-Tab piece), or a number of empty squares;
    /// * the status: `white` or `black` to throw, `white:3` to play a 3, or `over:REASON` with an
    ///   end reason (`elimination`, `no-more-captures`, `turn-cap`);
    /// * Tab only: the phase, `opening` or `main`;
    /// * Ludii's turn number and the decisions made: `TURN,DECISIONS`;
    /// * the scores (Tab: pieces captured), White's first: `0,0`;
    /// * Tab only: Ludii's track-index counts, White's home track, White's enemy track, Black's
    ///   home track, Black's enemy track, each by track index as comma-separated values where
    ///   `VxK` repeats `V` `K` times.
    ///
    /// The start of `tab-ludii`:
    /// `W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21`.
    ///
    /// # Errors
    /// [`PositionIdError`] for bad syntax or a position these rules cannot hold.
    pub fn from_id(rules: Ruleset, id: &str) -> Result<State, PositionIdError> {
        super::id::read(rules, id, true)
    }
}

impl serde::Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[derive(serde::Serialize)]
        struct Unit {
            square: String,
            owner: &'static str,
            pieces: u8,
            locked: bool,
        }
        let board: Vec<Unit> = squares_of(self.occ[0] | self.occ[1])
            .filter_map(|s| {
                let (owner, pieces) = self.unit_at(s)?;
                Some(Unit {
                    square: self.name(s),
                    owner: self.seat(owner),
                    pieces,
                    locked: self.is_locked(s),
                })
            })
            .collect();
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("position", &self.position_id())?;
        map.serialize_entry("ruleset", &self.rules.to_string())?;
        let to_move = self.over.is_none().then(|| self.seat(self.to_move));
        map.serialize_entry("to_move", &to_move)?;
        map.serialize_entry("throw", &self.throw)?;
        if self.rules.game() == Preset::Tab {
            map.serialize_entry("phase", if self.main_phase { "main" } else { "opening" })?;
        }
        map.serialize_entry("board", &board)?;
        map.serialize_entry("scores", &self.scores)?;
        map.serialize_entry("turns", &self.turns())?;
        map.serialize_entry("decisions", &self.decisions)?;
        map.end()
    }
}

impl State {
    /// Why a well-formed step is not legal now (one line).
    fn why_illegal(&self, throw: Throw, st: &Step, legal: &[Move]) -> String {
        let n = self.columns();
        let v = throw.value();
        if legal == [Move::Pass] {
            return if !self.main_phase {
                "in the opening nobody moves until someone throws a 1; pass".into()
            } else {
                format!("nothing can move with a {v}; pass")
            };
        }
        let f = st.from.square(n);
        let me = self.to_move;
        match self.unit_at(f) {
            None => return format!("{} is empty", self.name(f)),
            Some((owner, _)) if owner != me => {
                return format!("{} holds {}'s pieces", self.name(f), self.seat(owner));
            }
            Some(_) => {}
        }
        if self.rules.game() == Preset::Hyde {
            if self.is_locked(f) && v != 1 {
                return format!(
                    "the piece on {} is locked: it moves only with a 1",
                    self.name(f)
                );
            }
            let opp = !me;
            let home = self.home_row(opp.index());
            if home & bit(f) != 0 && self.occ[opp.index()] & home != 0 {
                return format!(
                    "a unit in {}'s home row may move only once {} has no piece left there",
                    self.seat(opp),
                    self.seat(opp)
                );
            }
        }
        let from_here: Vec<String> = legal
            .iter()
            .filter(|m| m.step().is_some_and(|s| s.from == st.from))
            .map(|m| m.to_string())
            .collect();
        if from_here.is_empty() {
            format!("nothing on {} can move with a {v}", self.name(f))
        } else {
            format!(
                "from {} a {v} allows only {}",
                self.name(f),
                from_here.join(" or ")
            )
        }
    }
}
