//! Helpers shared by the network tests.

use qasab_ai::play::driver::{ChanceSource, play_out, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_core::{Player, Ruleset, Turn};

/// States met in a few seeded random games of `rules`, every `every`th action.
pub fn sample_states<S: Playable>(rules: &S::Ruleset, games: u64, every: usize) -> Vec<S> {
    let mut states = Vec::new();
    for seed in 0..games {
        let mut agents = Player::ALL.map(|p| {
            PreparedAgent::<S>::new("random", rules)
                .unwrap()
                .make(seat_seed(seed, p))
        });
        let mut chance = ChanceSource::new(seed);
        let mut k = 0usize;
        play_out(rules.initial_state(), &mut agents, &mut chance, |s, _| {
            if k.is_multiple_of(every) && !matches!(s.turn(), Turn::Over(_)) {
                states.push(s.clone());
            }
            k += 1;
        });
    }
    states
}
