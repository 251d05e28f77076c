//! A toy game whose tree is written out by hand, node by node, so that the values of its
//! positions are known exactly: searches are checked against them.

use std::fmt;
use std::str::FromStr;

use qasab_ai::Evaluate;
use qasab_core::options::OptionDef;
use qasab_core::{
    ByPlayer, ChanceError, EndReason, GameState, InvalidState, MoveError, Outcome, Player,
    PositionIdError, Ruleset, RulesetError, Turn, Weighted,
};

/// A node of a toy game tree, addressed by its index in a static table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Toy {
    /// A player chooses a letter; each leads to a node.
    Decide(Player, &'static [(char, usize)]),
    /// Chance: (outcome, weight, next node).
    Chance(&'static [(u8, u32, usize)]),
    /// The end: the winner by score, and whether a safety limit stopped the game.
    End(Option<Player>, bool),
}

/// The rules of a toy game: its tree, whose node 0 is the start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ToyRules(pub &'static [Toy]);

/// A position of a toy game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ToyState {
    /// The game's tree.
    pub rules: ToyRules,
    /// The node reached.
    pub at: usize,
    /// Actions since the start (or since the last move back to node 0).
    pub actions: u32,
}

impl fmt::Display for ToyRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("toy")
    }
}

impl FromStr for ToyRules {
    type Err = RulesetError;
    fn from_str(s: &str) -> Result<Self, RulesetError> {
        Err(RulesetError::UnknownName {
            name: s.into(),
            valid: vec![],
        })
    }
}

impl Ruleset for ToyRules {
    type State = ToyState;
    fn name(&self) -> &'static str {
        "toy"
    }
    fn title(&self) -> &'static str {
        "a game tree written out by hand"
    }
    fn option_defs() -> &'static [OptionDef<ToyRules>] {
        &[]
    }
    fn defaults(&self) -> ToyRules {
        *self
    }
    fn initial_state(&self) -> ToyState {
        ToyState {
            rules: *self,
            at: 0,
            actions: 0,
        }
    }
    fn state_from_id(&self, id: &str) -> Result<ToyState, PositionIdError> {
        Err(PositionIdError {
            game: "toy",
            id: id.into(),
            why: "toy games have no ids".into(),
        })
    }
    fn seat_name(&self, p: Player) -> &'static str {
        ["one", "two"][p.index()]
    }
    fn rules_text(&self) -> String {
        self.title().into()
    }

    fn beginning(&self) -> qasab_core::Beginning {
        qasab_core::Beginning::Seat(Player::One)
    }
}

impl serde::Serialize for ToyState {
    fn serialize<Ser: serde::Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        s.serialize_u64(self.at as u64)
    }
}

impl GameState for ToyState {
    type Ruleset = ToyRules;
    type Move = char;
    type Chance = u8;

    fn ruleset(&self) -> &ToyRules {
        &self.rules
    }
    fn turn(&self) -> Turn {
        match self.rules.0[self.at] {
            Toy::Decide(p, _) => Turn::Player(p),
            Toy::Chance(_) => Turn::Chance,
            Toy::End(winner, truncated) => Turn::Over(Outcome {
                winner,
                scores: ByPlayer::from_fn(|p| u32::from(winner == Some(p))),
                reason: if truncated {
                    EndReason::NoProgress
                } else {
                    EndReason::Elimination
                },
            }),
        }
    }
    fn legal_moves(&self, out: &mut Vec<char>) {
        out.clear();
        if let Toy::Decide(_, m) = self.rules.0[self.at] {
            out.extend(m.iter().map(|&(c, _)| c));
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<Weighted<u8>>) -> u32 {
        out.clear();
        if let Toy::Chance(o) = self.rules.0[self.at] {
            out.extend(
                o.iter()
                    .map(|&(outcome, weight, _)| Weighted { outcome, weight }),
            );
        }
        out.iter().map(|w| w.weight).sum()
    }
    fn play_unchecked(&mut self, m: char) {
        let Toy::Decide(_, moves) = self.rules.0[self.at] else {
            panic!("not a decision")
        };
        self.at = moves.iter().find(|&&(c, _)| c == m).expect("legal").1;
        // A move back to the start starts the game afresh, so that a toy can repeat a state.
        self.actions = if self.at == 0 { 0 } else { self.actions + 1 };
    }
    fn apply_chance_unchecked(&mut self, c: u8) {
        let Toy::Chance(outs) = self.rules.0[self.at] else {
            panic!("not chance")
        };
        self.at = outs.iter().find(|&&(o, _, _)| o == c).expect("listed").2;
        self.actions += 1;
    }
    fn parse_move(&self, text: &str) -> Result<char, MoveError> {
        Err(MoveError::Syntax {
            text: text.into(),
            expected: "nothing".into(),
        })
    }
    fn parse_chance(&self, text: &str) -> Result<u8, ChanceError> {
        Err(ChanceError::Syntax {
            text: text.into(),
            expected: "nothing".into(),
        })
    }
    /// A win scores 1 ("a capture"), so that `rollout=captures` can be tested.
    fn scores(&self) -> ByPlayer<u32> {
        match self.turn() {
            Turn::Over(o) => o.scores,
            _ => ByPlayer::default(),
        }
    }
    fn turns(&self) -> u32 {
        self.actions
    }
    fn actions(&self) -> u32 {
        self.actions
    }
    fn render(&self) -> String {
        format!("node {}", self.at)
    }
    fn position_id(&self) -> String {
        self.at.to_string()
    }
    fn validate(&self) -> Result<(), InvalidState> {
        if self.at < self.rules.0.len() {
            Ok(())
        } else {
            Err(InvalidState::new(format!(
                "the tree has no node {}",
                self.at
            )))
        }
    }
    fn describe_move(&self, m: char) -> String {
        m.to_string()
    }
}

/// A toy position is worth its node's index / 100 to One before the end: a value the
/// tests can recognise.
impl Evaluate for ToyState {
    fn evaluate(&self, p: Player) -> f64 {
        let v = match self.turn() {
            Turn::Over(o) => qasab_ai::eval::terminal_value(&o, Player::One),
            _ => self.at as f64 / 100.0,
        };
        if p == Player::One { v } else { -v }
    }
}
