//! Every game of Qasab behind one type: the dynamic game that every front end (the command
//! line, the server, the Python package) speaks to.
//!
//! The games are listed once, in the registry below ([`games!`](crate::games)); from it come
//! [`AnyRuleset`], [`AnyState`] and [`AnyAction`], the ruleset names, and the dispatch macros
//! [`with_ruleset!`](crate::with_ruleset) and [`with_state!`](crate::with_state). Adding a
//! game means writing its module (a ruleset and a state implementing [`Ruleset`],
//! [`GameState`], [`ActionIds`], [`Observe`] and [`Draw`](crate::view::Draw), all in the game's
//! own folder) and adding one line to the registry, which also declares the module; a game
//! whose board is of a new kind also adds its variant to [`Drawing`].
//!
//! Generic code is written over the traits; these types dispatch once, by a `match`, to it.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use crate::actions::{ActionIdError, ActionIds};
use crate::game::{
    Action, ActionError, ActionOf, GameState, InvalidState, Outcome, ParseActionError,
    PositionIdError, StickStats, Turn,
};
use crate::observe::Observe;
use crate::player::{ByPlayer, Player};
use crate::record::{self, Record, RecordError};
use crate::ruleset::{OptionDoc, Ruleset, RulesetError, RulesetString};
use crate::view::Drawing;

/// The registry of games: each line is the variant of the dynamic types, the game's module
/// (which holds its `Ruleset` and `State`), and its preset names in the order `qasab rules`
/// lists them. Calls the macro `$callback` with the list and the tokens after `;`.
#[doc(hidden)]
#[macro_export]
macro_rules! games {
    ($callback:ident; $($args:tt)*) => {
        $crate::$callback! {
            [
                Tab tab ["tab", "tab-hyde", "tab-modern"],
                TabLudii tab_ludii ["tab-ludii", "tab-hyde-ludii"],
                Tihbat tihbat ["tihbat"],
            ]
            $($args)*
        }
    };
}

/// Declares the games' modules from the registry: `pub mod <module>;` for each game, in the
/// module that calls `games!(__game_modules;)`. The core declares its games' rules with it in
/// `lib.rs`, and a crate above declares its own per-game modules with it (the AI's
/// `games/`), so that the registry line is the only place a new game is named.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_modules {
    ([$($variant:ident $module:ident [$($name:literal),+],)+]) => {
        $(pub mod $module;)+
    };
}

/// Defines the dynamic types from the registry.
#[doc(hidden)]
#[macro_export]
macro_rules! __define_any {
    ([$($variant:ident $module:ident [$($name:literal),+],)+]) => {
        /// The names of every ruleset, in the order `qasab rules` lists them.
        pub const RULESET_NAMES: &[&str] = &[$($($name),+),+];

        /// Any ruleset of any game.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum AnyRuleset {
            $(
                #[doc = concat!("A ruleset of [`crate::", stringify!($module), "`].")]
                $variant($crate::$module::Ruleset),
            )+
        }

        /// A state of any game.
        ///
        /// The states are kept inline, not boxed, although a Tâb state is much larger than a
        /// Tihbat state: a front end clones and replaces states at every action, and a box
        /// would add an allocation each time.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyState {
            $(
                #[doc = concat!("A state of [`crate::", stringify!($module), "`].")]
                $variant($crate::$module::State),
            )+
        }

        /// An action of any game: a move or a chance outcome.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum AnyAction {
            $(
                #[doc = concat!("An action of [`crate::", stringify!($module), "`].")]
                $variant($crate::game::ActionOf<$crate::$module::State>),
            )+
        }

        impl AnyRuleset {
            /// The ruleset of a preset name, with its options at their defaults.
            fn preset_by_name(name: &str) -> Option<AnyRuleset> {
                $(
                    if [$($name),+].contains(&name) {
                        return name.parse().ok().map(AnyRuleset::$variant);
                    }
                )+
                None
            }

            /// Parses a ruleset string of the game that has `name`.
            fn parse_game(name: &str, text: &str) -> Option<Result<AnyRuleset, RulesetError>> {
                $(
                    if [$($name),+].contains(&name) {
                        return Some(text.parse().map(AnyRuleset::$variant));
                    }
                )+
                None
            }

            /// The options of this ruleset's game.
            pub fn options(&self) -> Vec<OptionDoc> {
                match self {
                    $(AnyRuleset::$variant(_) => $crate::$module::Ruleset::options(),)+
                }
            }

            /// The initial state of a game under these rules.
            pub fn initial_state(&self) -> AnyState {
                match self {
                    $(AnyRuleset::$variant(r) => AnyState::$variant(r.initial_state()),)+
                }
            }

            /// Reads a position id into a state under these rules (every state read is valid,
            /// [`GameState::validate`]).
            ///
            /// # Errors
            /// [`PositionIdError`] naming the problem.
            pub fn state_from_id(&self, id: &str) -> Result<AnyState, PositionIdError> {
                Ok(match self {
                    $(AnyRuleset::$variant(r) => AnyState::$variant(r.state_from_id(id)?),)+
                })
            }

            /// Replays a parsed record whose ruleset is this game's; its final state and actions.
            fn replay(&self, rec: &Record) -> Result<(AnyState, Vec<AnyAction>), RecordError> {
                match self {
                    $(AnyRuleset::$variant(_) => {
                        let r = record::replay::<$crate::$module::State>(rec)?;
                        Ok((
                            AnyState::$variant(r.state),
                            r.actions.into_iter().map(AnyAction::$variant).collect(),
                        ))
                    })+
                }
            }
        }

        impl AnyState {
            /// Applies `action`, an action of this state's game that is legal here (as
            /// [`AnyState::parse_action`] gives), without checking it again.
            ///
            /// # Errors
            /// [`ActionError`] for an action of another game.
            pub fn apply_unchecked(&mut self, action: AnyAction) -> Result<(), ActionError> {
                match (self, action) {
                    $(
                        (AnyState::$variant(s), AnyAction::$variant(a)) => {
                            match a {
                                Action::Move(m) => s.play_unchecked(m),
                                Action::Chance(c) => s.apply_chance_unchecked(c),
                            }
                            Ok(())
                        }
                    )+
                    #[allow(unreachable_patterns)]
                    (s, a) => Err(other_game(s, a)),
                }
            }

            /// Applies `action` if it is legal; otherwise leaves the state unchanged and says why.
            ///
            /// # Errors
            /// [`ActionError`] with the game's explanation, or for an action of another game.
            pub fn try_apply(&mut self, action: AnyAction) -> Result<(), ActionError> {
                match (self, action) {
                    $((AnyState::$variant(s), AnyAction::$variant(a)) => s.try_apply(a),)+
                    #[allow(unreachable_patterns)]
                    (s, a) => Err(other_game(s, a)),
                }
            }

            /// What `action` does in this state, in words, without naming the actor.
            pub fn describe(&self, action: AnyAction) -> String {
                match (self, action) {
                    $(
                        (AnyState::$variant(s), AnyAction::$variant(a)) => match a {
                            Action::Move(m) => s.describe_move(m),
                            Action::Chance(c) => s.describe_chance(c),
                        },
                    )+
                    #[allow(unreachable_patterns)]
                    (_, a) => a.to_string(),
                }
            }

            /// The id of `action` in this state: a legal move's id, or a chance outcome's id.
            ///
            /// # Errors
            /// [`ActionIdError`] for a move that is not legal here.
            pub fn action_id(&self, action: AnyAction) -> Result<u32, ActionIdError> {
                match (self, action) {
                    $(
                        (AnyState::$variant(s), AnyAction::$variant(a)) => match a {
                            Action::Move(m) => s.move_id(m),
                            Action::Chance(c) => {
                                Ok(<$crate::$module::State as ActionIds>::chance_id(c))
                            }
                        },
                    )+
                    #[allow(unreachable_patterns)]
                    (_, a) => Err(ActionIdError::MoveNotLegal(a.to_string())),
                }
            }

            /// The action with id `id` at this turn: a legal move at a player's turn, an outcome
            /// at a chance turn.
            ///
            /// # Errors
            /// [`ActionIdError`] for an id out of range or not legal now.
            pub fn action_from_id(&self, id: i64) -> Result<AnyAction, ActionIdError> {
                Ok(match self {
                    $(AnyState::$variant(s) => AnyAction::$variant(match s.turn() {
                        Turn::Chance => Action::Chance(s.chance_from_id(id)?),
                        _ => Action::Move(s.move_from_id(id)?),
                    }),)+
                })
            }

            /// The legal actions of the turn: the moves at a player's turn (sorted), the chance
            /// outcomes with their weights at a chance turn, nothing at the end; and at a chance
            /// turn the denominator of the weights.
            pub fn legal_actions(&self) -> (Option<u32>, Vec<(AnyAction, Option<u32>)>) {
                match self {
                    $(AnyState::$variant(s) => match s.turn() {
                        Turn::Chance => {
                            let mut outs = Vec::new();
                            let total = s.chance_outcomes(&mut outs);
                            let list = outs
                                .iter()
                                .map(|w| (AnyAction::$variant(Action::Chance(w.outcome)), Some(w.weight)))
                                .collect();
                            (Some(total), list)
                        }
                        Turn::Player(_) => {
                            let mut moves = Vec::new();
                            s.legal_moves(&mut moves);
                            let list = moves
                                .into_iter()
                                .map(|m| (AnyAction::$variant(Action::Move(m)), None))
                                .collect();
                            (None, list)
                        }
                        Turn::Over(_) => (None, Vec::new()),
                    },)+
                }
            }

            /// The chance outcomes of a chance turn by id, ascending, with their probabilities.
            pub fn chance_probabilities(&self) -> Vec<(u32, f64)> {
                match self {
                    $(AnyState::$variant(s) => {
                        let mut outs = Vec::new();
                        let total = s.chance_outcomes(&mut outs);
                        let mut list: Vec<(u32, f64)> = outs
                            .iter()
                            .map(|w| {
                                (
                                    <$crate::$module::State as ActionIds>::chance_id(w.outcome),
                                    f64::from(w.weight) / f64::from(total),
                                )
                            })
                            .collect();
                        list.sort_by_key(|&(id, _)| id);
                        list
                    })+
                }
            }

            /// Writes the record of the game played from the initial state with `actions`
            /// (this state's game), with `info` lines.
            ///
            /// # Errors
            /// [`ActionError`] if an action is of another game or not legal at its point.
            pub fn write_record(
                rules: &AnyRuleset,
                actions: &[AnyAction],
                info: &[(String, String)],
            ) -> Result<String, ActionError> {
                match rules {
                    $(AnyRuleset::$variant(r) => {
                        let typed = actions
                            .iter()
                            .map(|&a| match a {
                                AnyAction::$variant(a) => Ok(a),
                                #[allow(unreachable_patterns)]
                                other => Err(other_game(&rules.initial_state(), other)),
                            })
                            .collect::<Result<Vec<_>, _>>()?;
                        record::try_write_record::<$crate::$module::State>(r, &typed, info)
                    })+
                }
            }

            /// The board, ready to draw; `last` is the last chance outcome of the game with its
            /// description, if any.
            pub fn drawing(&self, last: Option<(AnyAction, String)>) -> Drawing {
                match self {
                    $(AnyState::$variant(s) => {
                        let last = last.and_then(|(a, d)| match a {
                            AnyAction::$variant(Action::Chance(c)) => Some((c, d)),
                            _ => None,
                        });
                        $crate::view::Draw::drawing(s, last)
                    })+
                }
            }
        }

        $(
            impl Registered for $crate::$module::State {
                fn ruleset_of(r: &AnyRuleset) -> Option<&$crate::$module::Ruleset> {
                    match r {
                        AnyRuleset::$variant(r) => Some(r),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }

                fn state_of(s: &AnyState) -> Option<&$crate::$module::State> {
                    match s {
                        AnyState::$variant(s) => Some(s),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }

                fn into_any(self) -> AnyState {
                    AnyState::$variant(self)
                }

                fn action_of(a: AnyAction) -> Option<$crate::game::ActionOf<Self>> {
                    match a {
                        AnyAction::$variant(a) => Some(a),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }

                fn action_into_any(a: $crate::game::ActionOf<Self>) -> AnyAction {
                    AnyAction::$variant(a)
                }
            }
        )+

        impl AnyAction {
            /// The game's module name, for messages.
            fn game(&self) -> &'static str {
                match self {
                    $(AnyAction::$variant(_) => stringify!($module),)+
                }
            }

            /// True for a chance outcome, false for a player's move.
            pub fn is_chance(&self) -> bool {
                match self {
                    $(AnyAction::$variant(a) => matches!(a, Action::Chance(_)),)+
                }
            }
        }

        impl fmt::Display for AnyAction {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(AnyAction::$variant(a) => a.fmt(f),)+
                }
            }
        }

        impl Serialize for AnyAction {
            /// The structured form of the move or chance outcome, as the game serialises it.
            fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
                match self {
                    $(AnyAction::$variant(a) => match a {
                        Action::Move(m) => m.serialize(serializer),
                        Action::Chance(c) => c.serialize(serializer),
                    },)+
                }
            }
        }

        impl Serialize for AnyState {
            /// The game's own JSON form of the state.
            fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
                $crate::with_state!(self, s => s.serialize(serializer))
            }
        }
    };
}

/// A game of the registry: its types as members of the dynamic ones. Generic code over one
/// game reaches [`AnyRuleset`], [`AnyState`] and [`AnyAction`] through these projections, with
/// no downcast; the registry implements it for every game.
pub trait Registered: GameState + ActionIds + Observe + crate::view::Draw {
    /// The game's ruleset inside `r`, if `r` is of this game.
    fn ruleset_of(r: &AnyRuleset) -> Option<&Self::Ruleset>;
    /// The game's state inside `s`, if `s` is of this game.
    fn state_of(s: &AnyState) -> Option<&Self>;
    /// The state as a dynamic state.
    fn into_any(self) -> AnyState;
    /// The game's action inside `a`, if `a` is of this game.
    fn action_of(a: AnyAction) -> Option<ActionOf<Self>>;
    /// The action as a dynamic action.
    fn action_into_any(a: ActionOf<Self>) -> AnyAction;
}

/// Dispatches a `match` over one of the dynamic types from the registry.
#[doc(hidden)]
#[macro_export]
macro_rules! __match_any {
    ([$($variant:ident $module:ident [$($name:literal),+],)+] $ty:ident ($any:expr) $r:ident ($body:expr)) => {
        match $any {
            $($crate::any::$ty::$variant($r) => $body,)+
        }
    };
}

/// Runs an expression generic over [`Ruleset`] for the concrete ruleset inside an
/// [`AnyRuleset`]: `with_ruleset!(any, r => play(r))`. The binding is a reference when `any`
/// is one.
#[macro_export]
macro_rules! with_ruleset {
    ($any:expr, $r:ident => $body:expr) => {
        $crate::games!(__match_any; AnyRuleset ($any) $r ($body))
    };
}

/// Runs an expression generic over [`GameState`] for the concrete state inside an
/// [`AnyState`]: `with_state!(any, s => s.position_id())`.
#[macro_export]
macro_rules! with_state {
    ($any:expr, $s:ident => $body:expr) => {
        $crate::games!(__match_any; AnyState ($any) $s ($body))
    };
}

games!(__define_any;);

/// The error for an action of another game than the state's.
fn other_game(state: &AnyState, action: AnyAction) -> ActionError {
    ActionError::OtherGame {
        action: action.to_string(),
        game: action.game(),
        state: state.ruleset().name(),
    }
}

impl AnyRuleset {
    /// The default ruleset of each name, in [`RULESET_NAMES`] order.
    pub fn presets() -> Vec<AnyRuleset> {
        RULESET_NAMES
            .iter()
            .map(|n| AnyRuleset::preset_by_name(n).expect("presets parse"))
            .collect()
    }

    /// The preset name.
    pub fn name(&self) -> &'static str {
        crate::with_ruleset!(self, r => r.name())
    }

    /// One line saying what the game is.
    pub fn title(&self) -> &'static str {
        crate::with_ruleset!(self, r => r.title())
    }

    /// The value of an option in force.
    pub fn option_value(&self, key: &str) -> Option<String> {
        crate::with_ruleset!(self, r => r.option_value(key))
    }

    /// The preset default of an option.
    pub fn default_value(&self, key: &str) -> Option<String> {
        crate::with_ruleset!(self, r => r.default_value(key))
    }

    /// The rules in plain language.
    pub fn rules_text(&self) -> String {
        crate::with_ruleset!(self, r => r.rules_text())
    }

    /// Who makes the first move.
    pub fn beginning(&self) -> crate::ruleset::Beginning {
        crate::with_ruleset!(self, r => r.beginning())
    }

    /// The name of a seat.
    pub fn seat_name(&self, p: Player) -> &'static str {
        crate::with_ruleset!(self, r => r.seat_name(p))
    }

    /// The seat with a given name, in any case.
    pub fn seat_by_name(&self, name: &str) -> Option<Player> {
        crate::with_ruleset!(self, r => r.seat_by_name(name))
    }

    /// The size of the move id space ([`ActionIds::num_distinct_actions`]).
    pub fn num_distinct_actions(&self) -> u32 {
        crate::with_ruleset!(self, r => game_sizes(r).0)
    }

    /// The number of distinct chance outcomes ([`ActionIds::max_chance_outcomes`]).
    pub fn max_chance_outcomes(&self) -> u32 {
        crate::with_ruleset!(self, r => game_sizes(r).1)
    }

    /// The shape of an observation tensor ([`Observe::observation_shape`]).
    pub fn observation_shape(&self) -> Vec<usize> {
        crate::with_ruleset!(self, r => shape(r))
    }

    /// A bound on the players' decisions in one game ([`ActionIds::max_game_length`]).
    pub fn max_game_length(&self) -> u64 {
        crate::with_ruleset!(self, r => game_sizes(r).2)
    }
}

/// The sizes of a game's action space: distinct moves, chance outcomes, the game length bound.
fn game_sizes<R: Ruleset>(rules: &R) -> (u32, u32, u64)
where
    R::State: ActionIds,
{
    (
        R::State::num_distinct_actions(rules),
        R::State::max_chance_outcomes(rules),
        R::State::max_game_length(rules),
    )
}

/// The shape of a game's observation tensor.
fn shape<R: Ruleset>(rules: &R) -> Vec<usize>
where
    R::State: Observe,
{
    R::State::observation_shape(rules)
}

impl fmt::Display for AnyRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::with_ruleset!(self, r => r.fmt(f))
    }
}

impl FromStr for AnyRuleset {
    type Err = RulesetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parsed = RulesetString::parse(s)?;
        AnyRuleset::parse_game(parsed.name, s).unwrap_or_else(|| {
            Err(RulesetError::UnknownName {
                name: parsed.name.to_string(),
                valid: RULESET_NAMES.to_vec(),
            })
        })
    }
}

impl AnyState {
    /// The ruleset this state is played under.
    pub fn ruleset(&self) -> AnyRuleset {
        crate::games!(__state_ruleset; self)
    }

    /// Who acts next.
    pub fn turn(&self) -> Turn {
        crate::with_state!(self, s => s.turn())
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.turn().outcome()
    }

    /// Reads the text of an action for whoever is to act: a move in the game's notation (with
    /// the shorthand a prompt allows) at a player's turn, an outcome at a chance turn. The
    /// action returned is legal; apply it with [`AnyState::apply_unchecked`].
    ///
    /// # Errors
    /// [`ParseActionError`] with the game's explanation, or at the end of the game.
    pub fn parse_action(&self, text: &str) -> Result<AnyAction, ParseActionError> {
        crate::games!(__parse_action; self, text)
    }

    /// Reads and applies the text of an action ([`AnyState::parse_action`]); returns the
    /// action in full notation.
    ///
    /// # Errors
    /// As [`AnyState::parse_action`].
    pub fn apply_text(&mut self, text: &str) -> Result<AnyAction, ParseActionError> {
        let action = self.parse_action(text)?;
        self.apply_unchecked(action)
            .expect("a parsed action belongs to the state's game");
        Ok(action)
    }

    /// Scores so far.
    pub fn scores(&self) -> ByPlayer<u32> {
        crate::with_state!(self, s => s.scores())
    }

    /// Turns begun so far.
    pub fn turns(&self) -> u32 {
        crate::with_state!(self, s => s.turns())
    }

    /// Actions applied so far.
    pub fn actions(&self) -> u32 {
        crate::with_state!(self, s => s.actions())
    }

    /// The picture of the position for a terminal.
    pub fn render(&self) -> String {
        crate::with_state!(self, s => s.render())
    }

    /// The position id.
    pub fn position_id(&self) -> String {
        crate::with_state!(self, s => s.position_id())
    }

    /// Checks that the state is one its ruleset can reach ([`GameState::validate`]).
    ///
    /// # Errors
    /// [`InvalidState`] naming the first fact that does not hold.
    pub fn validate(&self) -> Result<(), InvalidState> {
        crate::with_state!(self, s => s.validate())
    }

    /// Stick statistics, for games with stick throws.
    pub fn stick_stats(&self) -> Option<StickStats> {
        crate::with_state!(self, s => s.stick_stats())
    }

    /// At a chance turn, the player whose throw it is.
    pub fn chance_player(&self) -> Option<Player> {
        crate::with_state!(self, s => s.chance_player())
    }

    /// The actor at this turn: the seat name, or `chance`; `None` at the end.
    pub fn actor(&self) -> Option<&'static str> {
        crate::with_state!(self, s => record::actor_name(s))
    }

    /// The observation tensor, flattened ([`Observe::observation`]).
    pub fn observation(&self, out: &mut Vec<f32>) {
        crate::with_state!(self, s => s.observation(out))
    }

    /// The legal moves at a player's turn with their ids, ascending by id (empty at other
    /// turns).
    ///
    /// # Errors
    /// [`ActionIdError`] if a move has no id (a ruleset whose moves overflow their slot).
    pub fn legal_moves_by_id(&self) -> Result<Vec<(u32, AnyAction)>, ActionIdError> {
        crate::with_state!(self, s => moves_by_id(s))
    }

    /// The ids of the legal actions at this turn, ascending: the legal moves' ids at a player's
    /// turn, the outcomes' ids at a chance turn.
    ///
    /// # Errors
    /// [`ActionIdError`] if a move has no id (a ruleset whose moves overflow their slot).
    pub fn legal_ids(&self) -> Result<Vec<u32>, ActionIdError> {
        crate::with_state!(self, s => s.legal_ids())
    }
}

/// [`AnyState::legal_moves_by_id`] for one game.
fn moves_by_id<S: Registered>(state: &S) -> Result<Vec<(u32, AnyAction)>, ActionIdError> {
    if state.turn().player().is_none() {
        return Ok(Vec::new());
    }
    Ok(state
        .legal_moves_by_id()?
        .into_iter()
        .map(|(id, m)| (id, S::action_into_any(Action::Move(m))))
        .collect())
}

/// The ruleset of an [`AnyState`].
#[doc(hidden)]
#[macro_export]
macro_rules! __state_ruleset {
    ([$($variant:ident $module:ident [$($name:literal),+],)+] $state:expr) => {
        match $state {
            $($crate::any::AnyState::$variant(s) => {
                $crate::any::AnyRuleset::$variant($crate::GameState::ruleset(s).clone())
            })+
        }
    };
}

/// [`AnyState::parse_action`].
#[doc(hidden)]
#[macro_export]
macro_rules! __parse_action {
    ([$($variant:ident $module:ident [$($name:literal),+],)+] $state:expr, $text:expr) => {
        match $state {
            $($crate::any::AnyState::$variant(s) => {
                $crate::GameState::parse_action(s, $text).map($crate::any::AnyAction::$variant)
            })+
        }
    };
}

/// A game in progress with its history: the initial state's ruleset, every action applied,
/// and the state they lead to. What front ends keep of a game (records, undo, history).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyGame {
    rules: AnyRuleset,
    state: AnyState,
    actions: Vec<AnyAction>,
}

impl AnyGame {
    /// A new game under `rules`.
    pub fn new(rules: &AnyRuleset) -> AnyGame {
        AnyGame {
            rules: rules.clone(),
            state: rules.initial_state(),
            actions: Vec::new(),
        }
    }

    /// The game a record describes, replayed and checked.
    ///
    /// # Errors
    /// [`RecordError`] naming the line at fault.
    pub fn from_record(text: &str) -> Result<AnyGame, RecordError> {
        let rec = Record::parse(text)?;
        let rules: AnyRuleset = rec
            .ruleset
            .parse()
            .map_err(|e| RecordError::ruleset(rec.ruleset_line, e))?;
        let (state, actions) = rules.replay(&rec)?;
        Ok(AnyGame {
            rules,
            state,
            actions,
        })
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &AnyRuleset {
        &self.rules
    }

    /// The current state.
    pub fn state(&self) -> &AnyState {
        &self.state
    }

    /// Every action applied, in order.
    pub fn actions(&self) -> &[AnyAction] {
        &self.actions
    }

    /// Applies a legal action of this game (as [`AnyState::parse_action`] gives).
    ///
    /// # Errors
    /// [`ActionError`] for an action of another game.
    pub fn apply_unchecked(&mut self, action: AnyAction) -> Result<(), ActionError> {
        self.state.apply_unchecked(action)?;
        self.actions.push(action);
        Ok(())
    }

    /// Applies an action if it is legal.
    ///
    /// # Errors
    /// [`ActionError`] with the game's explanation.
    pub fn try_apply(&mut self, action: AnyAction) -> Result<(), ActionError> {
        self.state.try_apply(action)?;
        self.actions.push(action);
        Ok(())
    }

    /// Takes the game back to its first `len` actions (nothing if it has no more).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.actions.len() {
            return;
        }
        self.actions.truncate(len);
        let mut state = self.rules.initial_state();
        for &a in &self.actions {
            // Each was legal at its point when first applied, so it is again.
            let _ = state.apply_unchecked(a);
        }
        self.state = state;
    }

    /// The board model of the current state ([`AnyState::drawing`]), with the game's last
    /// throw and its description.
    pub fn drawing(&self) -> Drawing {
        let last = self
            .actions
            .iter()
            .rposition(AnyAction::is_chance)
            .map(|i| {
                let mut before = self.rules.initial_state();
                for &a in &self.actions[..i] {
                    let _ = before.apply_unchecked(a);
                }
                (self.actions[i], before.describe(self.actions[i]))
            });
        self.state.drawing(last)
    }

    /// The game record, with `info` lines (`info KEY VALUE`).
    pub fn record(&self, info: &[(String, String)]) -> String {
        AnyState::write_record(&self.rules, &self.actions, info)
            .expect("the actions of a game are legal and of its ruleset")
    }
}
