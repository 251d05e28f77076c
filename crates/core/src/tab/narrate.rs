//! The game told in words: what a throw or a decision does ([`GameState::describe_move`],
//! [`GameState::describe_chance`]) and what it leaves unused ([`GameState::narrate_move`],
//! [`GameState::narrate_chance`]).

use std::fmt::Write as _;

use crate::game::GameState;
use crate::player::Player;
use crate::ruleset::Ruleset as _;
use crate::sticks::Throw;

use super::board::{MAXP, Phase};
use super::moves::{Move, NO_PIECE};
use super::state::State;

impl State {
    /// The piece numbers of a mask, for messages ("3" or "2, 5").
    fn numbers(mask: u32) -> String {
        (0..32)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What became of the throws `left` pending with `p` after an action, when the turn goes
    /// on without them (`after` is the state after the action): the tabs banked (L-8), and the
    /// throws that no unit of his could use, with the reason when it is plain (L-9c). `None`
    /// while he still plays or throws with them, or once the game is over.
    fn unused_throws(&self, p: Player, left: &[Throw], after: &State) -> Option<String> {
        let still_moving = matches!(after.phase, Phase::Moving { player } if player == p);
        if left.is_empty() || after.over.is_some() || still_moving || !after.pending.is_empty() {
            return None;
        }
        let who = self.rules.seat_name(p);
        let banks = after.may_bank(p);
        let mut lost: Vec<Throw> = left
            .iter()
            .copied()
            .filter(|t| !(banks && t.is_tab()))
            .collect();
        lost.dedup();
        let banked = left.iter().filter(|t| banks && t.is_tab()).count();
        let mut notes = Vec::new();
        if !lost.is_empty() {
            let names: Vec<String> = lost.iter().map(|t| format!("the {t}")).collect();
            let names = match names.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            };
            let i = p.index();
            let why = if after.alive[i] > 0
                && after.unconv[i].count_ones() == u32::from(after.alive[i])
                && !lost.iter().any(|t| t.is_tab())
            {
                format!("every {who} piece still waits for a tab to convert it (L-9c)")
            } else {
                format!(
                    "no {who} unit can move with {}",
                    if lost.len() == 1 { "it" } else { "them" }
                )
            };
            notes.push(format!("{who} cannot use {names}: {why}"));
        }
        if banked > 0 {
            notes.push(format!(
                "{banked} tab{} banked (L-8)",
                if banked == 1 { "" } else { "s" }
            ));
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// What a throw is, said once: who throws it and what follows (another throw, the
    /// beginning of the game).
    pub(super) fn chance_text(&self, t: Throw) -> String {
        let who = match self.phase {
            Phase::Opening { thrower: p } | Phase::Throwing { player: p } => {
                self.rules.seat_name(p)
            }
            _ => "nobody",
        };
        let again = if matches!(self.phase, Phase::Opening { .. }) {
            if t.is_tab() { ", and begins" } else { "" }
        } else if t.throws_again() {
            ", and throws again"
        } else {
            ""
        };
        format!("{who} throws {t} ({}){again}", t.name())
    }

    /// [`GameState::narrate_chance`]: the throw, and what became of throws that cannot be
    /// used; the opening throws say that they decide who begins (L-4).
    pub(super) fn chance_narration(&self, t: Throw) -> String {
        let plain = self.describe_chance(t);
        match self.phase {
            // L-4: the opening throws decide who begins.
            Phase::Opening { .. } if !t.is_tab() => format!(
                "{plain} to decide who begins: not a tab{}",
                if self.opening_throws == 0 {
                    " (whoever first throws a tab begins, L-4)"
                } else {
                    ""
                }
            ),
            Phase::Throwing { player } => {
                let mut left = self.pending();
                left.push(t);
                left.sort_by_key(|t| t.index());
                let mut after = *self;
                after.apply_chance_unchecked(t);
                match self.unused_throws(player, &left, &after) {
                    Some(note) => format!("{plain}; {note}"),
                    None => plain,
                }
            }
            _ => plain,
        }
    }

    /// [`GameState::narrate_move`]: the move, and what became of the throws left.
    pub(super) fn move_narration(&self, m: Move) -> String {
        let plain = self.describe_move(m);
        let Phase::Moving { player } = self.phase else {
            return plain;
        };
        let used = match m {
            Move::Play(play) => play.throw,
            Move::Decline(t) => t,
            Move::Bank => Throw::TAB,
            // The player ends the move phase himself, and its description says so.
            Move::End => return plain,
        };
        let mut left = self.pending();
        // A tab played from the bank leaves the pending throws as they were.
        if let Some(i) = left.iter().position(|&t| t == used) {
            left.remove(i);
        }
        let mut after = *self;
        after.play_unchecked(m);
        match self.unused_throws(player, &left, &after) {
            Some(note) => format!("{plain}; {note}"),
            None => plain,
        }
    }

    /// [`GameState::describe_move`]: what a decision does, in words.
    pub(super) fn move_text(&self, m: Move) -> String {
        let Phase::Moving { player: p } = self.phase else {
            return m.to_string();
        };
        match m {
            Move::Bank => "banks a tab (L-8)".into(),
            Move::Decline(t) => format!("leaves the {t} unplayed"),
            Move::End => {
                let tabs = usize::from(self.pending.get(Throw::TAB.index()));
                if tabs > 0 && self.may_bank(p) {
                    format!(
                        "ends the move phase and banks {tabs} tab{}",
                        if tabs == 1 { "" } else { "s" }
                    )
                } else {
                    "ends the move phase".into()
                }
            }
            Move::Play(play) => {
                let grid = self.grid();
                let Some(from) = play.from.square(grid) else {
                    return m.to_string();
                };
                let all = self.mask(from.0);
                let group = if play.pieces == 0 { all } else { play.pieces };
                let unit = match group.count_ones() {
                    1 => "the piece".to_string(),
                    k => format!("the stack of {k}"),
                };
                let unconverted = (0..MAXP)
                    .filter(|&i| group & (1 << i) != 0)
                    .any(|i| !self.pieces[p.index()][i].converted());
                let mut text = match (play.to, unconverted, play.dissolve) {
                    (None, true, _) => {
                        format!("converts {unit} on {} where it stands", grid.name(from))
                    }
                    (None, false, _) => format!("dissolves the stack on {}", grid.name(from)),
                    (Some(to), conv, dissolve) => {
                        let to_sq = to.square(grid).unwrap_or(from);
                        let mut t = String::new();
                        if dissolve {
                            let _ = write!(t, "dissolves the stack on {} and ", grid.name(from));
                        }
                        if conv {
                            let _ = write!(
                                t,
                                "converts and moves {unit} from {} to {}",
                                grid.name(from),
                                grid.name(to_sq)
                            );
                        } else if play.pieces != 0 && group != all {
                            let _ = write!(
                                t,
                                "moves piece{} {} of the stack on {} to {}",
                                if group.count_ones() == 1 { "" } else { "s" },
                                Self::numbers(group),
                                grid.name(from),
                                grid.name(to_sq)
                            );
                        } else {
                            let _ = write!(
                                t,
                                "moves {unit} from {} to {}",
                                grid.name(from),
                                grid.name(to_sq)
                            );
                        }
                        if let Some(o) = self.owner(to_sq.0).filter(|&o| o != p) {
                            let k = self.mask(to_sq.0).count_ones();
                            let _ = write!(
                                t,
                                ", captures {k} {} piece{}",
                                self.rules.seat_name(o),
                                if k == 1 { "" } else { "s" }
                            );
                        }
                        if play.survivor != NO_PIECE {
                            let _ = write!(
                                t,
                                ", is reduced to piece {} ({})",
                                play.survivor + 1,
                                self.piece_name(p, play.survivor)
                            );
                        }
                        t
                    }
                };
                let _ = write!(text, " with a {}", play.throw);
                text
            }
        }
    }
}
