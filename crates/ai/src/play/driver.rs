//! Playing whole games between agents.

use qasab_core::{
    Action, AnyAction, AnyState, GameState, Player, Registered, Turn, Weighted, with_state,
};

use crate::agent::Agent;
use crate::rng::{GameRng, derive_seed, pick_weighted, rng_from_seed};

/// Draws chance outcomes for a game from its seed (stream 0, see [`crate::rng`]).
#[derive(Clone, Debug)]
pub struct ChanceSource {
    rng: GameRng,
}

impl ChanceSource {
    /// The chance source of the game with seed `game_seed`.
    pub fn new(game_seed: u64) -> Self {
        ChanceSource {
            rng: rng_from_seed(derive_seed(game_seed, 0)),
        }
    }

    /// Draws an outcome at a chance turn, with probability weight / denominator.
    ///
    /// # Panics
    /// If it is not a chance turn.
    pub fn draw<S: GameState>(
        &mut self,
        state: &S,
        buf: &mut Vec<Weighted<S::Chance>>,
    ) -> S::Chance {
        state.chance_outcomes(buf);
        let i = pick_weighted(&mut self.rng, buf.iter().map(|w| w.weight));
        buf[i].outcome
    }

    /// Draws the outcome of a chance turn of a dynamic state; `None` at any other turn.
    pub fn draw_any(&mut self, state: &AnyState) -> Option<AnyAction> {
        (state.turn() == Turn::Chance).then(|| with_state!(state, s => self.draw_registered(s)))
    }

    fn draw_registered<S: Registered>(&mut self, state: &S) -> AnyAction {
        S::action_into_any(Action::Chance(self.draw(state, &mut Vec::new())))
    }
}

/// The default seed of the agent in `seat` for the game with seed `game_seed`.
pub fn seat_seed(game_seed: u64, seat: Player) -> u64 {
    derive_seed(game_seed, 1 + seat.index() as u64)
}

/// Plays a game from `state` to its end.
///
/// `agents[0]` plays [`Player::One`], `agents[1]` [`Player::Two`]. Every action is passed to
/// `on_action` with the state before it. Returns the final state.
///
/// # Panics
/// If an agent returns an illegal move (a bug in the agent).
pub fn play_out<S: GameState>(
    mut state: S,
    agents: &mut [Box<dyn Agent<S>>; 2],
    chance: &mut ChanceSource,
    mut on_action: impl FnMut(&S, Action<S::Move, S::Chance>),
) -> S {
    let mut buf = Vec::new();
    loop {
        let action = match state.turn() {
            Turn::Over(_) => return state,
            Turn::Chance => Action::Chance(chance.draw(&state, &mut buf)),
            Turn::Player(p) => {
                let m = agents[p.index()].choose(&state);
                debug_assert!(state.is_legal(m), "agent chose an illegal move {m}");
                Action::Move(m)
            }
        };
        on_action(&state, action);
        match action {
            Action::Move(m) => state.play_unchecked(m),
            Action::Chance(c) => state.apply_chance_unchecked(c),
        }
    }
}
