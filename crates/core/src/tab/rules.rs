//! Tâb rulesets: the three presets and every named rule option (research §9, project decisions).

use crate::game::PositionIdError;
use crate::grid::{HYDE_COLUMNS, HYDE_COLUMNS_TEXT, MAX_COLUMNS};
use crate::options::{
    ConstText, OptionDef, ValueError, Values, choice_enum, choice_option, int_in, int_option,
};
use crate::player::Player;
use crate::ruleset::{Beginning, Ruleset as RulesetTrait, RulesetError, ruleset_strings};
use crate::sticks::StickOdds;

use super::State;

/// The default of `throw_cap` (L-18): the throws one turn may take.
///
/// With fair sticks a throw gives another (1, 4 or 6) with probability 6/16, so a turn reaches
/// 100 throws and would go on with probability (3/8)^100, about 2·10^-43: never in practice.
/// With biased sticks the chance can approach 1 (`p_white=254/255` gives another throw 98% of
/// the time), and there the cap does stop games.
pub const DEFAULT_THROW_CAP: u8 = 100;

/// The largest `throw_cap` accepted. Pending throws are counted in a byte per throw value, and
/// with accumulated throws (L-5) every throw of a turn is pending when its move phase begins.
pub const MAX_THROW_CAP: u8 = 200;

/// The named presets of the Tâb family.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Egyptian Tâb after Lane 1836 (research §3).
    Lane,
    /// at-Tâb wa-d-Dukk after Hyde 1694 (research §4).
    Hyde,
    /// The modern 4×10 rules page (research §5).
    Modern,
}

impl Preset {
    /// Every preset, in the order `qasab rules` lists them.
    pub const ALL: [Preset; 3] = [Preset::Lane, Preset::Hyde, Preset::Modern];

    /// The ruleset name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Lane => "tab",
            Preset::Hyde => "tab-hyde",
            Preset::Modern => "tab-modern",
        }
    }

    /// The preset's ruleset, with every option at its default.
    pub fn ruleset(self) -> Ruleset {
        let lane = Ruleset {
            preset: self,
            columns: 9,
            pieces: 0,
            odds: StickOdds::FAIR,
            opening: Opening::UntilTab,
            timing: Timing::Accumulate,
            throw_use: ThrowUse::CompulsoryWithExemptions,
            bank: Bank::AfterAllConverted,
            conversion: Conversion::OneStep,
            tabs_reserved: true,
            land_on_unconverted: false,
            passing: Passing::Free,
            track: Track::Loop,
            enemy_entry: EnemyEntry::Once,
            enemy_row: EnemyRow::Freeze,
            stacking: Stacking::Anywhere,
            split: Split::PeelOne,
            reduction: Reduction::SquareVisited,
            survivor: Survivor::Mover,
            end: End::Elimination,
            no_progress: 100,
            turn_cap: 2000,
            throw_cap: DEFAULT_THROW_CAP,
            limit_result: LimitResult::Draw,
        };
        match self {
            Preset::Lane => lane,
            Preset::Hyde => Ruleset {
                preset: self,
                columns: 13,
                opening: Opening::Normal,
                throw_use: ThrowUse::Compulsory,
                bank: Bank::None,
                tabs_reserved: false,
                passing: Passing::NoOwnInHomeRow,
                track: Track::OneWay,
                enemy_row: EnemyRow::LowestPriority,
                stacking: Stacking::MiddleRows,
                split: Split::Detach,
                reduction: Reduction::Off,
                end: End::MostCaptures,
                limit_result: LimitResult::Captures,
                ..lane
            },
            Preset::Modern => Ruleset {
                preset: self,
                columns: 10,
                throw_use: ThrowUse::Optional,
                bank: Bank::None,
                enemy_row: EnemyRow::FreezeExit,
                reduction: Reduction::PositionalRows,
                ..lane
            },
        }
    }

    fn columns_ok(self, n: u8) -> bool {
        match self {
            Preset::Lane => (7..=MAX_COLUMNS).contains(&n) && n % 2 == 1,
            // Hyde's sizes (H-1).
            Preset::Hyde => HYDE_COLUMNS.contains(&n),
            Preset::Modern => (7..=MAX_COLUMNS).contains(&n),
        }
    }

    fn columns_expected(self) -> String {
        match self {
            Preset::Lane => format!("an odd number from 7 to {MAX_COLUMNS}"),
            Preset::Hyde => HYDE_COLUMNS_TEXT.into(),
            Preset::Modern => format!("a number from 7 to {MAX_COLUMNS}"),
        }
    }
}

choice_enum!(
    /// How the game starts (L-4, H-5).
    pub Opening {
        /// Players throw one stick throw each, alternately, until one throws a tâb; that tâb
        /// starts his first turn (Lane).
        UntilTab = "until-tab",
        /// Ordinary turns from the start, White first (Hyde).
        Normal = "normal",
    }
);

choice_enum!(
    /// When throws are played (L-5, L-6).
    pub Timing {
        /// Throw until a 2 or 3, then play the recorded throws in any order (Lane, Hyde, modern).
        Accumulate = "accumulate",
        /// Play each throw at once, then throw again after a 1, 4 or 6 (Ludii's model).
        Interleaved = "interleaved",
    }
);

choice_enum!(
    /// Whether a usable throw must be played (L-7, H-4, M-5).
    pub ThrowUse {
        /// Compulsory, except a tâb that may be banked and a throw whose only moves reduce a
        /// stack; the exemptions are judged when the move phase ends, on the throws still
        /// pending then (L-7 as written): such a throw is never declined early.
        CompulsoryWithExemptions = "compulsory-with-exemptions",
        /// The same exemptions, but a throw whose only moves reduce a stack may be declined as
        /// soon as that is so, before the other throws are played (L-7, a reading of "the
        /// player is not required to utilize a throw leading to such move").
        CompulsoryWithEarlyDecline = "compulsory-with-early-decline",
        /// Every throw may be left unplayed (modern page).
        Optional = "optional",
        /// Every usable throw must be played (Hyde).
        Compulsory = "compulsory",
    }
);

choice_enum!(
    /// Saving tâbs for later turns (L-8).
    pub Bank {
        /// Once all of a player's pieces are converted, his unplayed tâbs are banked.
        AfterAllConverted = "after-all-converted",
        /// No banking.
        None = "none",
    }
);

choice_enum!(
    /// What a conversion (unlocking) tâb does (L-9c, H-6).
    pub Conversion {
        /// It moves the piece one step and converts it.
        OneStep = "one-step",
        /// It converts the piece where it stands.
        InPlace = "in-place",
    }
);

choice_enum!(
    /// Which pieces block a move in the home rows (A13, H-7).
    pub Passing {
        /// Pieces may pass any piece.
        Free = "free",
        /// A move may not pass or land on one's own piece while inside one's own home row (Hyde).
        NoOwnInHomeRow = "no-own-in-home-row",
        /// The same, in both home rows.
        NoOwnInHomeRows = "no-own-in-home-rows",
        /// No piece of either side may be passed inside one's own home row.
        NoneInHomeRow = "none-in-home-row",
    }
);

choice_enum!(
    /// The track (L-2, H-8).
    pub Track {
        /// Home row, then round the two middle rows for ever, with one detour through the
        /// enemy home row (Lane).
        Loop = "loop",
        /// Home row, second row, third row, enemy home row, and the end (Hyde).
        OneWay = "one-way",
    }
);

choice_enum!(
    /// When a piece may enter the enemy home row (L-10, A8).
    pub EnemyEntry {
        /// Once per piece (no member of the unit may have been there).
        Once = "once",
        /// Once per piece, and only while the enemy still has a piece in his home row (Ludii).
        OnceWhileOccupied = "once-while-occupied",
    }
);

choice_enum!(
    /// Restrictions on pieces in the enemy home row (L-11, A7, H-12).
    pub EnemyRow {
        /// A unit there cannot move at all while its owner has a piece in his own home row.
        Freeze = "freeze",
        /// It may move within the row but not leave it while its owner's home row is occupied.
        FreezeExit = "freeze-exit",
        /// As freeze-exit, but it may also leave when the owner's home-row pieces stand on one
        /// square.
        FreezeExitUnlessOneStack = "freeze-exit-unless-one-stack",
        /// A unit there may use a throw only if no unit outside the row can use it (Hyde).
        LowestPriority = "lowest-priority",
        /// It may move only when the opponent has no piece left in his own home row (Ludii's
        /// at-Tâb).
        OpponentHomeEmpty = "opponent-home-empty",
        /// No restriction.
        Free = "free",
    }
);

choice_enum!(
    /// Where own pieces may stack (L-13, H-9).
    pub Stacking {
        /// Anywhere.
        Anywhere = "anywhere",
        /// Only in the two middle rows; landing on an own unit elsewhere is illegal (Hyde).
        MiddleRows = "middle-rows",
    }
);

choice_enum!(
    /// Breaking up a stack (L-14, H-10).
    pub Split {
        /// A tâb moves one piece of the stack one step (Lane).
        PeelOne = "peel-one",
        /// A tâb dissolves the stack: its pieces stay and move one by one afterwards.
        Dissolve = "dissolve",
        /// A tâb dissolves the stack and moves one of its pieces one step.
        DissolveMoveOne = "dissolve-move-one",
        /// A throw v smaller than the stack detaches v pieces, which move v steps (Hyde).
        Detach = "detach",
        /// Only a throw of size − 1 detaches, that many pieces (Ludii's at-Tâb).
        DetachRemainderOne = "detach-remainder-one",
        /// Stacks never split.
        Never = "never",
    }
);

choice_enum!(
    /// When a moving stack is reduced to one piece (L-15, M-9, project decision 1).
    pub Reduction {
        /// It moves to a square where one of its pieces has stood or passed before.
        SquareVisited = "square-visited",
        /// It moves into another row that one of its pieces has been in before.
        RowEntered = "row-entered",
        /// It moves to a square where one of its pieces has come to rest before.
        SquareLanded = "square-landed",
        /// It goes from its owner's third row back to his second row, or leaves the enemy row.
        PositionalRows = "positional-rows",
        /// Never.
        Off = "off",
    }
);

choice_enum!(
    /// Who survives a reduction (L-15, A11).
    pub Survivor {
        /// The mover chooses.
        Mover = "mover",
        /// The piece that has travelled furthest (most squares visited; lowest number on ties).
        Oldest = "oldest",
    }
);

choice_enum!(
    /// How the game is won (L-17, H-13).
    pub End {
        /// By taking every enemy piece.
        Elimination = "elimination",
        /// By having captured more pieces when no capture is possible any more (Hyde).
        MostCaptures = "most-captures",
    }
);

choice_enum!(
    /// The result of a game stopped by a safety limit (L-18). It is reported as truncated.
    pub LimitResult {
        /// No winner.
        Draw = "draw",
        /// The player with more pieces on the board wins.
        Material = "material",
        /// The player who captured more wins.
        Captures = "captures",
    }
);

/// The sizes of `columns=` by preset, from [`MAX_COLUMNS`] and [`HYDE_COLUMNS`]:
/// `tab: odd 7..=29; tab-hyde: 13, 19, 21, 29; tab-modern: 7..=29`.
const COLUMNS_VALUES: &str = {
    const TEXT: ConstText<80> = ConstText::new()
        .push("tab: odd 7..=")
        .number(MAX_COLUMNS as u64, false)
        .push("; tab-hyde: ")
        .list_u8(&HYDE_COLUMNS, ", ", ", ")
        .push("; tab-modern: 7..=")
        .number(MAX_COLUMNS as u64, false);
    TEXT.as_str()
};

/// Every option of the Tâb family, in documented (canonical) order.
const OPTION_DEFS: &[OptionDef<Ruleset>] = &[
    OptionDef {
        key: "columns",
        values: Values::Text(COLUMNS_VALUES),
        help: "columns of the 4xN board (and pieces per side)",
        rules: "L-1, H-1, M-1",
        get: |r| r.columns.to_string(),
        // The range of any preset; `Ruleset::validate` checks the preset's own sizes.
        set: |r, v| {
            r.columns = int_in(v, 3, MAX_COLUMNS as u32)? as u8;
            Ok(())
        },
    },
    OptionDef {
        key: "pieces",
        values: Values::Text("all | 1..=columns"),
        help: "pieces per side, on the first squares of each track (Lane: 'sometimes ... the first four')",
        rules: "L-3, A15",
        get: |r| match r.pieces {
            0 => "all".into(),
            n => n.to_string(),
        },
        set: |r, v| {
            r.pieces = if v == "all" {
                0
            } else {
                int_in(v, 1, MAX_COLUMNS as u32).map_err(|_| {
                    ValueError::Expected("all or a number from 1 to the number of columns".into())
                })? as u8
            };
            Ok(())
        },
    },
    OptionDef {
        key: "p_white",
        values: Values::Text("a/b or decimal in (0,1)"),
        help: "chance that a stick falls white side up; weights stay exact",
        rules: "S-1",
        get: |r| r.odds.to_string(),
        set: |r, v| {
            r.odds = v
                .parse()
                .map_err(|e: crate::sticks::ParseOddsError| ValueError::Expected(e.to_string()))?;
            Ok(())
        },
    },
    choice_option!(
        Opening,
        opening,
        "opening",
        "L-4, H-5, M-3",
        "throw alternately until a tab, or ordinary turns from the start"
    ),
    choice_option!(
        Timing,
        timing,
        "throw_timing",
        "L-5, L-6, A5",
        "throw until a 2 or 3 then play in any order, or play each throw at once"
    ),
    choice_option!(
        ThrowUse,
        throw_use,
        "throw_use",
        "L-7, A3, H-4, M-5",
        "whether a usable throw must be played"
    ),
    choice_option!(
        Bank,
        bank,
        "tab_bank",
        "L-8, A4",
        "bank unplayed tabs once every piece is converted"
    ),
    choice_option!(
        Conversion,
        conversion,
        "conversion",
        "L-9c, A1, H-6",
        "a conversion tab moves the piece one step, or converts it where it stands"
    ),
    choice_option!(
        bool,
        tabs_reserved,
        "tabs_reserved",
        "L-9c, A2, B9",
        "while a piece is unconverted, every tab must convert one"
    ),
    choice_option!(
        bool,
        land_on_unconverted,
        "land_on_unconverted",
        "L-9c, A1",
        "whether a move may end on one's own unconverted pieces"
    ),
    choice_option!(
        Passing,
        passing,
        "passing",
        "A13, H-7, B4",
        "which pieces block a move inside the home rows"
    ),
    choice_option!(
        Track,
        track,
        "track",
        "L-2, L-12, H-8, B3",
        "circulate in the middle rows with one visit to the enemy row, or run once to the end"
    ),
    choice_option!(
        EnemyEntry,
        enemy_entry,
        "enemy_entry",
        "L-10, A8, A9",
        "each piece enters the enemy home row once; optionally only while the enemy has a piece there"
    ),
    choice_option!(
        EnemyRow,
        enemy_row,
        "enemy_row",
        "L-11, A7, H-12, B5, M-7",
        "what a unit in the enemy home row may do while its own home row is occupied"
    ),
    choice_option!(
        Stacking,
        stacking,
        "stacking",
        "L-13, H-9, B7",
        "where own pieces may land on each other"
    ),
    choice_option!(
        Split,
        split,
        "split",
        "L-14, A12, H-10, B1",
        "how a stack is broken up"
    ),
    choice_option!(
        Reduction,
        reduction,
        "reduction",
        "L-15, A10, M-9",
        "when a moving stack is reduced to one piece"
    ),
    choice_option!(
        Survivor,
        survivor,
        "survivor",
        "L-15, A11",
        "which piece survives a reduction"
    ),
    choice_option!(
        End,
        end,
        "end",
        "L-17, H-13, M-12",
        "win by taking every enemy piece, or by capturing more"
    ),
    int_option!(no_progress: u16, "no_progress", 0..=10_000, " (0 = off)", "L-18", "turns without a capture, conversion or reduction that stop the game (truncated)"),
    int_option!(turn_cap: u16, "turn_cap", 1..=65_535, "", "L-18", "turns after which the game stops (truncated)"),
    int_option!(throw_cap: u8, "throw_cap", 1..=MAX_THROW_CAP, "", "L-18", "throws in one turn after which a throw that gives another stops the game (truncated)"),
    choice_option!(
        LimitResult,
        limit_result,
        "limit_result",
        "L-18",
        "who wins a game stopped by a limit: nobody, more pieces, or more captures"
    ),
];

/// A complete Tâb ruleset: a preset with every option.
///
/// Build one with [`Preset::ruleset`] or parse a string (`tab(columns=13,reduction=row-entered)`).
/// Fields are public for reading; a ruleset parsed from a string is always valid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    /// The preset whose defaults the other fields start from.
    pub preset: Preset,
    /// Columns of the board (L-1).
    pub columns: u8,
    /// Pieces per side; 0 means one per column (L-3).
    pub pieces: u8,
    /// Stick bias (S-1).
    pub odds: StickOdds,
    /// L-4.
    pub opening: Opening,
    /// L-5, L-6.
    pub timing: Timing,
    /// L-7.
    pub throw_use: ThrowUse,
    /// L-8.
    pub bank: Bank,
    /// L-9c.
    pub conversion: Conversion,
    /// L-9c.2: tâbs must convert while a piece is unconverted.
    pub tabs_reserved: bool,
    /// L-9c.3.
    pub land_on_unconverted: bool,
    /// A13, H-7.
    pub passing: Passing,
    /// L-2, H-8.
    pub track: Track,
    /// L-10.
    pub enemy_entry: EnemyEntry,
    /// L-11, H-12.
    pub enemy_row: EnemyRow,
    /// L-13, H-9.
    pub stacking: Stacking,
    /// L-14, H-10.
    pub split: Split,
    /// L-15.
    pub reduction: Reduction,
    /// L-15.
    pub survivor: Survivor,
    /// L-17, H-13.
    pub end: End,
    /// L-18: turns without progress; 0 = no limit.
    pub no_progress: u16,
    /// L-18: the turn cap.
    pub turn_cap: u16,
    /// L-18: the throws one turn may take: a turn that has thrown `throw_cap` times and would
    /// throw again stops the game. With `throw_timing=interleaved`, where a position keeps no
    /// count of its turn's throws, it caps the game's throws after the opening instead, at
    /// `turn_cap × throw_cap`. At most [`MAX_THROW_CAP`].
    pub throw_cap: u8,
    /// L-18.
    pub limit_result: LimitResult,
}

impl Default for Ruleset {
    fn default() -> Self {
        Preset::Lane.ruleset()
    }
}

impl Ruleset {
    /// With `throw_timing=interleaved`: the throws after the opening (the first tâb counted)
    /// from which a throw that gives another stops the game instead (L-18), `turn_cap ×
    /// throw_cap`.
    pub fn interleaved_throw_limit(&self) -> u32 {
        u32::from(self.turn_cap) * u32::from(self.throw_cap)
    }

    /// Pieces per side.
    pub fn piece_count(&self) -> u8 {
        if self.pieces == 0 {
            self.columns
        } else {
            self.pieces
        }
    }

    /// Whether a rule reads each piece's visited squares.
    pub(crate) fn tracks_squares(&self) -> bool {
        matches!(
            self.reduction,
            Reduction::SquareVisited | Reduction::SquareLanded
        )
    }

    /// Checks the combination of options.
    ///
    /// # Errors
    /// [`RulesetError::Invalid`] saying why.
    pub fn validate(&self) -> Result<(), RulesetError> {
        let name = self.preset.name();
        let invalid = |reason: String| {
            Err(RulesetError::Invalid {
                ruleset: name,
                reason,
            })
        };
        if !self.preset.columns_ok(self.columns) {
            return invalid(format!(
                "columns={} is not valid; {name} takes {}",
                self.columns,
                self.preset.columns_expected()
            ));
        }
        if self.pieces > self.columns {
            return invalid(format!(
                "pieces={} is more than the {} squares of a home row",
                self.pieces, self.columns
            ));
        }
        if self.track == Track::OneWay {
            if self.enemy_entry == EnemyEntry::OnceWhileOccupied {
                return invalid("enemy_entry=once-while-occupied needs track=loop: on a one-way track the enemy row is the end of the track and cannot be closed".into());
            }
            if matches!(
                self.enemy_row,
                EnemyRow::FreezeExit | EnemyRow::FreezeExitUnlessOneStack
            ) {
                return invalid("enemy_row=freeze-exit needs track=loop: a one-way track never leaves the enemy row".into());
            }
            if self.reduction == Reduction::PositionalRows {
                return invalid("reduction=positional-rows needs track=loop: it reduces stacks that go round the loop or leave the enemy row".into());
            }
        }
        if self.turn_cap == 0 {
            return invalid("turn_cap must be at least 1".into());
        }
        Ok(())
    }
}

impl RulesetTrait for Ruleset {
    type State = State;

    fn name(&self) -> &'static str {
        self.preset.name()
    }

    fn title(&self) -> &'static str {
        match self.preset {
            Preset::Lane => "Tab: the Egyptian stick-dice running-fight game as Lane saw it (1836)",
            Preset::Hyde => "at-Tab wa-d-Dukk: the game as Hyde described it (1694)",
            Preset::Modern => "Tab on a 4x10 board, after the modern rules page",
        }
    }

    fn option_defs() -> &'static [OptionDef<Ruleset>] {
        OPTION_DEFS
    }

    fn defaults(&self) -> Ruleset {
        self.preset.ruleset()
    }

    fn check(&self) -> Result<(), RulesetError> {
        self.validate()
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

    /// L-4: the opening's first throw is White's.
    fn beginning(&self) -> Beginning {
        match self.opening {
            Opening::UntilTab => Beginning::FirstToThrow {
                first: Player::One,
                throw: "a tâb (a throw of 1)",
            },
            Opening::Normal => Beginning::Seat(Player::One),
        }
    }
}

ruleset_strings!(Ruleset, presets: Preset::ALL.map(Preset::ruleset));

#[cfg(test)]
mod tests {
    use super::*;

    /// The board sizes in the help come from the constants (`MAX_COLUMNS`, `HYDE_COLUMNS`),
    /// and read as they always have.
    #[test]
    fn the_board_sizes_in_the_help_are_the_constants() {
        assert_eq!(
            COLUMNS_VALUES,
            "tab: odd 7..=29; tab-hyde: 13, 19, 21, 29; tab-modern: 7..=29"
        );
        assert_eq!(Preset::Hyde.columns_expected(), "13, 19, 21 or 29");
        assert_eq!(
            Preset::Lane.columns_expected(),
            format!("an odd number from 7 to {MAX_COLUMNS}")
        );
        for n in 0..=MAX_COLUMNS + 1 {
            let size = format!(", {n}, ");
            assert_eq!(
                Preset::Hyde.columns_ok(n),
                format!(", {}, ", HYDE_COLUMNS_TEXT.replace(" or", ",")).contains(&size),
                "{n}"
            );
        }
    }

    #[test]
    fn every_choice_value_is_a_documented_key_that_some_preset_accepts() {
        let values = Ruleset::choice_values();
        assert!(values.len() > 40);
        for (k, v) in values {
            assert!(OPTION_DEFS.iter().any(|o| o.key == k), "{k} is documented");
            assert!(
                Preset::ALL
                    .iter()
                    .any(|p| format!("{}({k}={v})", p.name()).parse::<Ruleset>().is_ok()),
                "{k}={v} is accepted by some preset"
            );
        }
    }

    #[test]
    fn presets_print_as_their_names_and_round_trip() {
        for p in Preset::ALL {
            let r = p.ruleset();
            assert_eq!(r.to_string(), p.name());
            assert_eq!(p.name().parse::<Ruleset>(), Ok(r));
            r.validate().unwrap();
        }
        let r: Ruleset = "tab(reduction=row-entered, columns=13)".parse().unwrap();
        assert_eq!(r.to_string(), "tab(columns=13,reduction=row-entered)");
        let r: Ruleset = "tab(p_white=0.5625)".parse().unwrap();
        assert_eq!(r.to_string(), "tab(p_white=9/16)");
    }

    #[test]
    fn bad_options_are_explained() {
        let e = |s: &str| s.parse::<Ruleset>().unwrap_err().to_string();
        assert!(e("tab(columns=8)").contains("an odd number from 7 to 29"));
        assert!(e("tab-hyde(columns=15)").contains("13, 19, 21 or 29"));
        assert!(e("tab(split=halve)").contains("peel-one | dissolve"));
        assert!(e("tab(pieces=12)").contains("more than the 9 squares"));
        assert!(e("tab-hyde(enemy_entry=once-while-occupied)").contains("needs track=loop"));
        assert!(e("tab(p_white=1)").contains("strictly between 0 and 1"));
        assert!(e("tab(colour=red)").contains("valid options: columns, pieces"));
        assert!(e("tabb").contains("valid rulesets: tab, tab-hyde, tab-modern"));
    }
}
