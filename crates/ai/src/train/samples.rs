//! The states learnt, and the bytes that carry them from the machines that play the
//! self-play games to the learner.

use qasab_core::Player;

use crate::eval::net::encode::Features;
use crate::train::options::TrainError;

/// A state learnt: its inputs and its target for the side they describe.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The inputs.
    pub features: Features,
    /// The λ-return, for the side the inputs describe.
    pub target: f32,
    /// The side the inputs describe.
    pub us: Player,
}

/// Games of samples (as `self_play_games` plays them) as bytes, to send to the learner:
/// every number little-endian, `f32` bit for bit. Per game its number of samples (`u32`), then per sample
/// its inputs' size and number of non-zero inputs (`u32` each), each non-zero input's index
/// (`u32`) and value (`f32`), the target (`f32`) and the side (`u8`, 0 for the first seat).
pub fn samples_to_bytes(games: &[Vec<Sample>]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    for game in games {
        out.extend_from_slice(&(game.len() as u32).to_le_bytes());
        for s in game {
            let active = s.features.active();
            out.extend_from_slice(&(s.features.size() as u32).to_le_bytes());
            out.extend_from_slice(&(active.len() as u32).to_le_bytes());
            for &(i, v) in active {
                out.extend_from_slice(&i.to_le_bytes());
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&s.target.to_le_bytes());
            out.push(s.us.index() as u8);
        }
    }
    out
}

/// Games of samples back from [`samples_to_bytes`].
///
/// # Errors
/// [`TrainError::Options`] for bytes that are not games of samples.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Vec<Sample>>, TrainError> {
    let bad = || TrainError::Options("the self-play games' bytes are cut short or corrupt".into());
    let mut at = 0usize;
    let word = |at: &mut usize| -> Result<[u8; 4], TrainError> {
        let w = bytes.get(*at..*at + 4).ok_or_else(bad)?;
        *at += 4;
        Ok(w.try_into().expect("four bytes"))
    };
    let games = u32::from_le_bytes(word(&mut at)?);
    let mut out = Vec::new();
    for _ in 0..games {
        let n = u32::from_le_bytes(word(&mut at)?);
        let mut game = Vec::new();
        for _ in 0..n {
            let size = u32::from_le_bytes(word(&mut at)?) as usize;
            let active = u32::from_le_bytes(word(&mut at)?);
            let mut features = Features::new(size);
            for _ in 0..active {
                let i = u32::from_le_bytes(word(&mut at)?);
                let v = f32::from_le_bytes(word(&mut at)?);
                if i as usize >= size {
                    return Err(bad());
                }
                features.push(i, v);
            }
            let target = f32::from_le_bytes(word(&mut at)?);
            let us = match bytes.get(at) {
                Some(0) => Player::One,
                Some(1) => Player::Two,
                _ => return Err(bad()),
            };
            at += 1;
            game.push(Sample {
                features,
                target,
                us,
            });
        }
        out.push(game);
    }
    if at != bytes.len() {
        return Err(bad());
    }
    Ok(out)
}
