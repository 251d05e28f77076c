//! The two seats of a game and a container indexed by them.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

use serde::{Deserialize, Serialize};

/// One of the two players.
///
/// `One` is the player whose home row or pits are drawn at the bottom: South in Tihbat, White in
/// Tâb. Which of the two moves first is a ruleset option, not a property of the seat. Each game
/// names its seats (see [`crate::Ruleset::seat_name`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Player {
    /// The first seat (index 0).
    One,
    /// The second seat (index 1).
    Two,
}

impl Player {
    /// Both players in seat order.
    pub const ALL: [Player; 2] = [Player::One, Player::Two];

    /// The seat index, 0 or 1 (OpenSpiel's player id).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with seat index `i`, if `i` is 0 or 1.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::One),
            1 => Some(Player::Two),
            _ => None,
        }
    }

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }
}

impl Not for Player {
    type Output = Player;
    #[inline]
    fn not(self) -> Player {
        self.opponent()
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::One => "player 1",
            Player::Two => "player 2",
        })
    }
}

/// A value for each player, indexed by [`Player`].
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct ByPlayer<T> {
    /// The value for [`Player::One`].
    pub one: T,
    /// The value for [`Player::Two`].
    pub two: T,
}

impl<T> ByPlayer<T> {
    /// Builds the container from the two values in seat order.
    pub const fn new(one: T, two: T) -> Self {
        ByPlayer { one, two }
    }

    /// Builds the container by calling `f` for each player in seat order.
    pub fn from_fn(mut f: impl FnMut(Player) -> T) -> Self {
        let one = f(Player::One);
        let two = f(Player::Two);
        ByPlayer { one, two }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByPlayer<U> {
        ByPlayer {
            one: f(self.one),
            two: f(self.two),
        }
    }

    /// The two values as an array in seat order.
    pub fn into_array(self) -> [T; 2] {
        [self.one, self.two]
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: Player) -> &T {
        match p {
            Player::One => &self.one,
            Player::Two => &self.two,
        }
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: Player) -> &mut T {
        match p {
            Player::One => &mut self.one,
            Player::Two => &mut self.two,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for p in Player::ALL {
            assert_eq!(!!p, p);
            assert_ne!(!p, p);
            assert_eq!(Player::from_index(p.index()), Some(p));
        }
        assert_eq!(Player::from_index(2), None);
    }

    #[test]
    fn by_player_indexes_by_seat() {
        let mut b = ByPlayer::new(1, 2);
        b[Player::Two] += 5;
        assert_eq!(b[Player::One], 1);
        assert_eq!(b[Player::Two], 7);
        assert_eq!(b.map(|x| x * 2).into_array(), [2, 14]);
    }
}
