//! The evaluation's options of the players that evaluate: `eval=` (which weights) and
//! `weights=FILE` (a network from a file), each declared once.

use qasab_core::options::{OptionDef, ValueError, Values};

use crate::eval::EvalWeights;

/// The settings of a search player while its spec is read, for its `eval=` option
/// ([`eval_option`]): the weights, and whether the game has fitted ones.
pub trait EvalSetting {
    /// The weights chosen so far.
    fn eval(&self) -> EvalWeights;
    /// Chooses the weights.
    fn set_eval(&mut self, weights: EvalWeights);
    /// Whether the game has fitted weights ([`Evaluate::FITTED`](crate::eval::Evaluate::FITTED)).
    fn fitted(&self) -> bool;
    /// Whether the game has networks ([`Evaluate::NET`](crate::eval::Evaluate::NET)).
    fn net(&self) -> bool;
    /// What the spec says of the evaluation so far.
    fn source(&mut self) -> &mut EvalSource;
}

/// What a spec says of the evaluation beyond the weights: the `eval=` it gives, if any, and
/// the network file of `weights=FILE`, read once by [`weights_option`] and used when the
/// player is made (`players`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalSource {
    /// The weights `eval=` names, if the spec gives it.
    pub given: Option<EvalWeights>,
    /// The network file of `weights=FILE`, if the spec gives it.
    pub file: Option<String>,
}

/// Search options that carry the weights of their evaluation (`expectimax`'s and `mcts`'s in
/// their `eval` field, by `with_eval!`; `greedy`'s are the
/// weights alone).
pub trait WithEval {
    /// The weights.
    fn weights(&self) -> EvalWeights;
    /// Sets the weights.
    fn set_weights(&mut self, weights: EvalWeights);
}

/// `greedy`'s options are its weights.
impl WithEval for EvalWeights {
    fn weights(&self) -> EvalWeights {
        *self
    }

    fn set_weights(&mut self, weights: EvalWeights) {
        *self = weights;
    }
}

/// Implements [`WithEval`] for search options whose weights are their `eval` field.
macro_rules! with_eval {
    ($options:ty) => {
        impl $crate::eval::options::WithEval for $options {
            fn weights(&self) -> $crate::eval::EvalWeights {
                self.eval
            }

            fn set_weights(&mut self, weights: $crate::eval::EvalWeights) {
                self.eval = weights;
            }
        }
    };
}
pub(crate) use with_eval;

/// A search player's options while its spec is read: the options, and whether the game has
/// fitted weights and networks (for `eval=`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings<O> {
    /// The options.
    pub options: O,
    /// Whether the game has fitted weights.
    pub fitted: bool,
    /// Whether the game has networks.
    pub net: bool,
    /// What the spec says of the evaluation beyond the weights.
    pub source: EvalSource,
}

impl<O: WithEval> EvalSetting for SearchSettings<O> {
    fn eval(&self) -> EvalWeights {
        self.options.weights()
    }

    fn set_eval(&mut self, weights: EvalWeights) {
        self.options.set_weights(weights);
    }

    fn fitted(&self) -> bool {
        self.fitted
    }

    fn net(&self) -> bool {
        self.net
    }

    fn source(&mut self) -> &mut EvalSource {
        &mut self.source
    }
}

/// The `eval=` option of `greedy`, `expectimax` and `mcts`, declared once: `hand`, or `fitted`
/// on a game that has fitted weights ([`EvalWeights::parse_for`]).
pub const fn eval_option<T: EvalSetting>() -> OptionDef<T> {
    OptionDef {
        key: "eval",
        values: Values::Choice(&["hand", "fitted", "net"]),
        help: "the static evaluation: hand or fitted weights (fitted only on the Tab family), \
               or the network (the Tab family and the Ludii presets, on their default boards)",
        rules: "",
        get: |s| s.eval().name().into(),
        set: |s, v| {
            let weights = EvalWeights::parse_for(v, s.fitted(), s.net())?;
            s.set_eval(weights);
            s.source().given = Some(weights);
            Ok(())
        },
    }
}

/// The key of the network file option, `weights=FILE`, which a host may refuse
/// (`players::FILE_OPTIONS`).
pub const WEIGHTS_KEY: &str = "weights";

/// The `weights=FILE` option, declared once for `greedy`, `expectimax`, `mcts` (which then
/// evaluate with the network in the file instead of the shipped one: it sets `eval=net`) and
/// `net` (which plays with it), each with its own `help`. The file is kept in the settings'
/// [`EvalSource`] and read when the player is made (`players`), not while its spec
/// is read.
pub const fn weights_option<T: EvalSetting>(help: &'static str) -> OptionDef<T> {
    OptionDef {
        key: WEIGHTS_KEY,
        values: Values::Text("a safetensors file of a network"),
        help,
        rules: "",
        get: |_| String::new(),
        // An empty file name never gets here: the spec's parser refuses empty values.
        set: |s, v| {
            if !s.net() {
                return Err(ValueError::Expected(
                    "no file: this game has no network (only the Tab family and the Ludii \
                     presets have)"
                        .into(),
                ));
            }
            s.set_eval(EvalWeights::NET);
            s.source().file = Some(v.to_string());
            Ok(())
        },
    }
}

/// The help of `weights=` for the search players.
pub const SEARCH_WEIGHTS_HELP: &str = "evaluate with this network (trained by qasab train, or \
                                       elsewhere on the same encoding) instead of the shipped \
                                       one; sets eval=net";
