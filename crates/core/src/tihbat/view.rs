//! The Tihbat board model ([`Draw`]): the four pits.

use crate::game::{GameState, NoChance};
use crate::ruleset::Ruleset as _;
use crate::view::{Draw, Drawing, PitDrawing, TihbatDrawing};

use super::position::Pit;
use super::state::State;

impl Draw for State {
    fn drawing(&self, _: Option<(NoChance, String)>) -> Drawing {
        Drawing::Tihbat(pits(self))
    }
}

fn pits(s: &State) -> TihbatDrawing {
    let rules = s.ruleset();
    let pos = s.position();
    let pit = |p: Pit| PitDrawing {
        name: p.letter(),
        owner: rules.seat_name(p.owner()),
        counters: u32::from(pos.pits[p.index()]),
    };
    use Pit::{A, B, C, D};
    TihbatDrawing {
        rows: vec![vec![pit(D), pit(C)], vec![pit(A), pit(B)]],
        captured: [u32::from(pos.captured.one), u32::from(pos.captured.two)],
    }
}
