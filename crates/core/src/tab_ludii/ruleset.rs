//! The two Ludii presets, their options and their canonical strings.

use crate::game::{PositionIdError, Weighted};
use crate::grid::HYDE_COLUMNS;
use crate::options::{ConstText, OptionDef, ValueError, Values, int_option};
use crate::player::Player;
use crate::ruleset::{
    Beginning, Ruleset as RulesetTrait, RulesetError, parse_int_in, ruleset_strings,
};
use crate::sticks::{StickOdds, Throw};

use super::State;

/// The name of the preset that plays Ludii's `Tab.lud`.
pub const TAB_NAME: &str = "tab-ludii";
/// The name of the preset that plays Ludii's `At-Tab wa-d-Dukk.lud`.
pub const HYDE_NAME: &str = "tab-hyde-ludii";

/// Ludii's default limit of turns per player (ludii-rules.md, "Shared: the throw").
pub const LUDII_TURN_CAP: u32 = 1250;
/// Ludii's default limit of moves (decisions) per game.
pub const LUDII_MOVE_CAP: u32 = 10_000;
/// The largest `turn_cap` accepted.
pub const MAX_TURN_CAP: u32 = 1_000_000;
/// The largest `move_cap` accepted.
pub const MAX_MOVE_CAP: u32 = 1_000_000;

/// Which Ludii game a ruleset plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// `Tab.lud` (after Lane 1836): stacks, a shared middle loop, Ludii's opening phase.
    Tab,
    /// `At-Tab wa-d-Dukk.lud` (DLP ruleset 760, after Hyde 1694): one-way tracks, locked
    /// pieces, kings in the middle rows, scores.
    Hyde,
}

impl Preset {
    /// The preset's ruleset name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Tab => TAB_NAME,
            Preset::Hyde => HYDE_NAME,
        }
    }

    /// The board sizes Ludii offers for this game, the default first.
    pub const fn column_choices(self) -> &'static [u8] {
        match self {
            Preset::Tab => &[7, 9, 11, 13, 15],
            Preset::Hyde => &HYDE_COLUMNS,
        }
    }

    /// The default number of columns (Ludii's default option).
    pub const fn default_columns(self) -> u8 {
        self.column_choices()[0]
    }

    /// The Ludii file the preset reproduces.
    pub const fn lud_file(self) -> &'static str {
        match self {
            Preset::Tab => "Tab.lud",
            Preset::Hyde => "At-Tab wa-d-Dukk.lud",
        }
    }
}

/// One of Ludii's tracks on a board ([`Ruleset::ludii_tracks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedTrack {
    /// Ludii's name of the track (`HomeTrack1`, `MiddleTrack`, `Track2`, ...).
    pub name: &'static str,
    /// The player whose track it is; `None` for Tab's shared middle loop.
    pub owner: Option<Player>,
    /// True for a loop (the middle loop goes round).
    pub looped: bool,
    /// The squares in track order.
    pub squares: Vec<u8>,
}

/// A ruleset of one of the Ludii presets: the game, the board size, the stick bias and
/// Ludii's limits. Everything else is fixed: these presets reproduce Ludii's rules exactly.
///
/// Built by parsing (`"tab-ludii(columns=9)".parse()`) or with [`Ruleset::new`] and the
/// `with_*` methods, which check every value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    preset: Preset,
    columns: u8,
    p_white: StickOdds,
    turn_cap: u32,
    move_cap: u32,
    /// The throws' weights under `p_white`, and their sum (kept to avoid recomputing them at
    /// every throw).
    weights: [Weighted<Throw>; 5],
    denominator: u32,
}

/// The option keys of the other Tâb presets, rejected here with what Ludii does on each point:
/// (key, Tab.lud, At-Tab wa-d-Dukk.lud).
const FIXED: &[(&str, &str, &str)] = &[
    (
        "pieces",
        "Ludii places one piece on every square of each home row",
        "Ludii places one piece on every square of each home row",
    ),
    (
        "opening",
        "Ludii's players pass until someone throws a 1, which is played as a pass, gives another throw and starts the main phase for both",
        "Ludii has no opening phase; each locked piece needs a 1 to move",
    ),
    (
        "throw_timing",
        "Ludii plays every throw at once: one throw, then one move",
        "Ludii plays every throw at once: one throw, then one move",
    ),
    (
        "throw_use",
        "Ludii's moves are compulsory; a player passes only when nothing can move",
        "Ludii's moves are compulsory; a player passes only when nothing can move",
    ),
    (
        "tab_bank",
        "Ludii never keeps a throw for later",
        "Ludii never keeps a throw for later",
    ),
    (
        "conversion",
        "Ludii has no conversion: after the opening every piece may move",
        "in Ludii a locked piece moves one step with a 1, which unlocks it",
    ),
    (
        "tabs_reserved",
        "Ludii never reserves 1s",
        "Ludii lets a 1 move any piece, locked or not",
    ),
    (
        "land_on_unconverted",
        "Ludii stacks a moving piece on any own piece",
        "Ludii forbids landing on an own piece outside the two middle rows",
    ),
    (
        "passing",
        "Ludii lets pieces pass one another freely",
        "Ludii lets pieces pass one another; only landing on an own piece outside the middle rows is forbidden",
    ),
    (
        "track",
        "Ludii's pieces circulate round the two middle rows after leaving home (a loop)",
        "Ludii's track runs one way to the end of the opponent's home row; a throw past its end cannot be played",
    ),
    (
        "enemy_entry",
        "Ludii lets a stack enter the opponent's home row while the opponent still has a piece there, and its track-index bookkeeping keeps a piece that came back from entering again",
        "Ludii's track ends in the opponent's home row",
    ),
    (
        "enemy_row",
        "Ludii never freezes a piece in the opponent's home row",
        "in Ludii a unit in the opponent's home row may move only once the opponent has no piece left in its own home row",
    ),
    (
        "stacking",
        "Ludii stacks own pieces on any square",
        "Ludii forms kings only in the two middle rows",
    ),
    (
        "split",
        "Ludii's stacks always move whole",
        "a Ludii king moves whole, or as many of its pieces as the throw when the throw is one less than its size",
    ),
    (
        "reduction",
        "Ludii never reduces a stack",
        "Ludii never reduces a king",
    ),
    (
        "survivor",
        "Ludii never reduces a stack, so no survivor is chosen",
        "Ludii never reduces a king, so no survivor is chosen",
    ),
    (
        "end",
        "Ludii ends the game after a move that hands the turn to a player with no pieces; the mover wins",
        "Ludii ends the game when every piece stands in its opposing home row or the player who moved has no pieces; the higher score wins",
    ),
    (
        "no_progress",
        "Ludii has no no-progress rule, only its turn and move limits (turn_cap, move_cap)",
        "Ludii has no no-progress rule, only its turn and move limits (turn_cap, move_cap)",
    ),
    (
        "limit_result",
        "a game stopped by Ludii's limits has no winner",
        "a game stopped by Ludii's limits has no winner",
    ),
];

/// The sizes of `columns=` by preset, from [`Preset::column_choices`]:
/// `tab-ludii: 7|9|11|13|15; tab-hyde-ludii: 13|19|21|29`.
const COLUMNS_VALUES: &str = {
    const TEXT: ConstText<64> = ConstText::new()
        .push("tab-ludii: ")
        .list_u8(Preset::Tab.column_choices(), "|", "|")
        .push("; tab-hyde-ludii: ")
        .list_u8(Preset::Hyde.column_choices(), "|", "|");
    TEXT.as_str()
};

/// The options of both presets, in documented (canonical) order.
const OPTION_DEFS: &[OptionDef<Ruleset>] = &[
    OptionDef {
        key: "columns",
        values: Values::Text(COLUMNS_VALUES),
        help: "the board size: Ludii's 'Board size' option",
        rules: "LT-1, LH-1",
        get: |r| r.columns.to_string(),
        set: |r, v| {
            let n = v.parse::<u8>().map_err(|_| r.bad_columns(v))?;
            *r = r.with_columns(n).map_err(|_| r.bad_columns(v))?;
            Ok(())
        },
    },
    OptionDef {
        key: "p_white",
        values: Values::Text("a fraction a/b or a decimal"),
        help: "the chance that one stick falls white side up (Ludii's sticks are fair: 1/2)",
        rules: "S-1",
        get: |r| r.p_white.to_string(),
        set: |r, v| {
            let odds: StickOdds = v.parse().map_err(|e| {
                ValueError::Expected(format!(
                    "a fraction a/b or a decimal strictly between 0 and 1 ({e})"
                ))
            })?;
            *r = r.with_p_white(odds);
            Ok(())
        },
    },
    int_option!(
        turn_cap: u32,
        "turn_cap",
        1..=MAX_TURN_CAP,
        "",
        "LT-10, LH-9",
        "Ludii's turn limit per player; a game that reaches it stops with no winner"
    ),
    int_option!(
        move_cap: u32,
        "move_cap",
        1..=MAX_MOVE_CAP,
        "",
        "LT-10, LH-9",
        "Ludii's move limit (decisions per game); a game that reaches it stops with no winner"
    ),
];

impl Ruleset {
    /// The preset with Ludii's defaults: its default board, fair sticks, 1250 turns per player
    /// and 10000 moves.
    pub fn preset(preset: Preset) -> Ruleset {
        let (weights, denominator) = StickOdds::FAIR.weights();
        Ruleset {
            preset,
            columns: preset.default_columns(),
            p_white: StickOdds::FAIR,
            turn_cap: LUDII_TURN_CAP,
            move_cap: LUDII_MOVE_CAP,
            weights,
            denominator,
        }
    }

    /// The preset on a board of `columns` columns.
    ///
    /// # Errors
    /// [`RulesetError::Invalid`] if Ludii does not offer that board size for the game.
    pub fn new(preset: Preset, columns: u8) -> Result<Ruleset, RulesetError> {
        Ruleset::preset(preset).with_columns(columns)
    }

    /// The same rules on a board of `columns` columns.
    ///
    /// # Errors
    /// [`RulesetError::Invalid`] listing the valid sizes.
    pub fn with_columns(mut self, columns: u8) -> Result<Ruleset, RulesetError> {
        if !self.preset.column_choices().contains(&columns) {
            return Err(RulesetError::Invalid {
                ruleset: self.preset.name(),
                reason: self.columns_refusal(&columns.to_string()),
            });
        }
        self.columns = columns;
        Ok(self)
    }

    /// The same rules with sticks that fall white with probability `p_white`.
    pub fn with_p_white(mut self, p_white: StickOdds) -> Ruleset {
        self.p_white = p_white;
        (self.weights, self.denominator) = p_white.weights();
        self
    }

    /// The weights of the throws 1, 2, 3, 4 and 6, and their sum (S-1).
    #[inline]
    pub fn throw_weights(&self) -> (&[Weighted<Throw>; 5], u32) {
        (&self.weights, self.denominator)
    }

    /// The same rules with other limits.
    ///
    /// # Errors
    /// [`RulesetError::BadValue`] if a cap is 0 or above a million.
    pub fn with_caps(mut self, turn_cap: u32, move_cap: u32) -> Result<Ruleset, RulesetError> {
        let name = self.preset.name();
        self.turn_cap = parse_int_in(name, "turn_cap", &turn_cap.to_string(), 1, MAX_TURN_CAP)?;
        self.move_cap = parse_int_in(name, "move_cap", &move_cap.to_string(), 1, MAX_MOVE_CAP)?;
        Ok(self)
    }

    /// The game played.
    #[inline]
    pub const fn game(&self) -> Preset {
        self.preset
    }

    /// The number of columns (squares per row).
    #[inline]
    pub const fn columns(&self) -> u8 {
        self.columns
    }

    /// The number of squares of the board.
    #[inline]
    pub const fn squares(&self) -> usize {
        4 * self.columns as usize
    }

    /// The stick bias.
    #[inline]
    pub const fn p_white(&self) -> StickOdds {
        self.p_white
    }

    /// Ludii's turn limit per player.
    #[inline]
    pub const fn turn_cap(&self) -> u32 {
        self.turn_cap
    }

    /// Ludii's move limit per game.
    #[inline]
    pub const fn move_cap(&self) -> u32 {
        self.move_cap
    }

    /// The board geometry and square names.
    #[inline]
    pub const fn grid(&self) -> crate::grid::Grid {
        crate::grid::Grid::new(self.columns)
    }

    /// Ludii's tracks, by Ludii's names, as this ruleset lays them out on its board (square
    /// indices are Ludii's site numbers). Black's tracks are computed from the board size.
    pub fn ludii_tracks(&self) -> Vec<NamedTrack> {
        let n = usize::from(self.columns);
        let track = |name, owner, looped, squares: &[u8]| NamedTrack {
            name,
            owner,
            looped,
            squares: squares.to_vec(),
        };
        match self.preset {
            Preset::Tab => {
                let t = super::tracks::tab(self.columns);
                vec![
                    track("HomeTrack1", Some(Player::One), false, &t.home[0][..2 * n]),
                    track("HomeTrack2", Some(Player::Two), false, &t.home[1][..2 * n]),
                    track("MiddleTrack", None, true, &t.middle[..2 * n]),
                    track(
                        "EnemyTrack1",
                        Some(Player::One),
                        false,
                        &t.enemy[0][..3 * n],
                    ),
                    track(
                        "EnemyTrack2",
                        Some(Player::Two),
                        false,
                        &t.enemy[1][..3 * n],
                    ),
                ]
            }
            Preset::Hyde => {
                let t = super::tracks::hyde(self.columns);
                vec![
                    track("Track1", Some(Player::One), false, &t.track[0][..4 * n]),
                    track("Track2", Some(Player::Two), false, &t.track[1][..4 * n]),
                ]
            }
        }
    }

    /// Why `columns=value` is refused: the sizes Ludii offers for the game.
    fn columns_refusal(&self, value: &str) -> String {
        let valid: Vec<String> = self
            .preset
            .column_choices()
            .iter()
            .map(u8::to_string)
            .collect();
        format!(
            "columns={value} is not a board Ludii offers for {}; valid column counts: {}",
            self.preset.lud_file(),
            valid.join(", ")
        )
    }

    fn bad_columns(&self, value: &str) -> ValueError {
        ValueError::Refused(self.columns_refusal(value))
    }
}

impl Default for Ruleset {
    /// `tab-ludii` on 7 columns.
    fn default() -> Self {
        Ruleset::preset(Preset::Tab)
    }
}

impl RulesetTrait for Ruleset {
    type State = State;

    fn name(&self) -> &'static str {
        self.preset.name()
    }

    fn title(&self) -> &'static str {
        match self.preset {
            Preset::Tab => "Tab as Ludii plays it (Tab.lud, after Lane 1836), move for move",
            Preset::Hyde => {
                "At-Tab wa-d-Dukk as Ludii plays it (DLP ruleset 760, after Hyde 1694), move for move"
            }
        }
    }

    fn option_defs() -> &'static [OptionDef<Ruleset>] {
        OPTION_DEFS
    }

    fn defaults(&self) -> Ruleset {
        Ruleset::preset(self.preset)
    }

    /// The keys of the other Tâb presets are refused with what Ludii does on each point.
    fn unknown_option(&self, key: &str) -> Option<RulesetError> {
        let &(_, tab, hyde) = FIXED.iter().find(|(k, _, _)| *k == key)?;
        let (what, other) = match self.preset {
            Preset::Tab => (tab, "tab"),
            Preset::Hyde => (hyde, "tab-hyde"),
        };
        Some(RulesetError::Invalid {
            ruleset: self.preset.name(),
            reason: format!(
                "option '{key}' cannot be set: this preset reproduces Ludii's rules \
                 exactly, and {what}; use {other} to change it"
            ),
        })
    }

    fn initial_state(&self) -> State {
        State::new(*self)
    }

    fn state_from_id(&self, id: &str) -> Result<State, PositionIdError> {
        State::from_id(*self, id)
    }

    fn seat_name(&self, p: Player) -> &'static str {
        match p {
            Player::One => "white",
            Player::Two => "black",
        }
    }

    fn rules_text(&self) -> String {
        super::text::rules_text(self)
    }

    /// LT-2: in Tab, every move is a pass until someone throws a 1, White throwing first; At-Tab
    /// has no opening.
    fn beginning(&self) -> Beginning {
        match self.game() {
            Preset::Tab => Beginning::FirstToThrow {
                first: Player::One,
                throw: "a 1",
            },
            Preset::Hyde => Beginning::Seat(Player::One),
        }
    }
}

ruleset_strings!(
    Ruleset,
    presets: [Ruleset::preset(Preset::Tab), Ruleset::preset(Preset::Hyde)]
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The board sizes in the help come from `Preset::column_choices`, and read as they
    /// always have.
    #[test]
    fn the_board_sizes_in_the_help_are_the_presets_choices() {
        assert_eq!(
            COLUMNS_VALUES,
            "tab-ludii: 7|9|11|13|15; tab-hyde-ludii: 13|19|21|29"
        );
        assert_eq!(Preset::Hyde.column_choices(), HYDE_COLUMNS);
    }

    #[test]
    fn defaults_print_as_bare_names() {
        assert_eq!(Ruleset::default().to_string(), "tab-ludii");
        let hyde: Ruleset = "tab-hyde-ludii(columns=13)".parse().unwrap();
        assert_eq!(hyde.to_string(), "tab-hyde-ludii");
        assert_eq!(hyde.columns(), 13);
        let r: Ruleset = "tab-ludii(move_cap=500, columns=9, p_white=0.55)"
            .parse()
            .unwrap();
        assert_eq!(
            r.to_string(),
            "tab-ludii(columns=9,p_white=11/20,move_cap=500)"
        );
    }

    #[test]
    fn every_fixed_key_is_explained_for_both_presets() {
        for (key, _, _) in FIXED {
            for name in [TAB_NAME, HYDE_NAME] {
                let e = format!("{name}({key}=x)")
                    .parse::<Ruleset>()
                    .unwrap_err()
                    .to_string();
                assert!(e.contains("reproduces Ludii's rules exactly"), "{e}");
                let other = if name == TAB_NAME {
                    "use tab "
                } else {
                    "use tab-hyde "
                };
                assert!(e.contains(other), "{e}");
            }
        }
    }

    #[test]
    fn bad_values_list_the_choices() {
        let e = "tab-ludii(columns=8)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("7, 9, 11, 13, 15"), "{e}");
        let e = "tab-hyde-ludii(columns=7)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("13, 19, 21, 29"), "{e}");
        let e = "tab-ludii(colums=7)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("valid options: columns, p_white, turn_cap, move_cap"),
            "{e}"
        );
        let e = "tab-ludii(turn_cap=0)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("from 1 to 1000000"), "{e}");
        let e = "tab-ludii(p_white=1)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("p_white"), "{e}");
        assert!(Ruleset::new(Preset::Hyde, 29).is_ok());
        assert!(Ruleset::default().with_caps(0, 5).is_err());
    }
}
