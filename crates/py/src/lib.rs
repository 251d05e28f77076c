//! Python bindings of Qasab (`qasab._qasab`): OpenSpiel-style games and states over the Rust
//! rules core.
//!
//! A thin layer: every rule, action id and observation comes from `qasab-core`
//! ([`ActionIds`](qasab_core::ActionIds), the observations, the record format), through the
//! core's dynamic game ([`AnyGame`]) and the dynamic players ([`AnyPlayer`]); this crate only
//! converts values and errors to Python.

use std::sync::{Mutex, OnceLock};

mod endgame;
mod jobs;
mod net;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use qasab_ai::play::simulate::GameSummary;
use qasab_ai::players::{AnyAgent, AnyPlayer, Playable};
use qasab_core::game::describe_turn;
use qasab_core::{
    ActionIdError, AnyAction, AnyGame, AnyRuleset, AnyState, MoveError, ParseActionError, Player,
    Ruleset, Turn, with_ruleset,
};

create_exception!(
    _qasab,
    QasabError,
    PyValueError,
    "The base class of Qasab's errors (a ValueError)."
);
create_exception!(
    _qasab,
    IllegalActionError,
    QasabError,
    "An action id or text that is not legal in the state."
);
create_exception!(
    _qasab,
    RulesetError,
    QasabError,
    "A ruleset string that names no ruleset or has a bad option."
);
create_exception!(
    _qasab,
    AgentError,
    QasabError,
    "An agent spec that names no player or has a bad option for the ruleset."
);
create_exception!(
    _qasab,
    NetworkError,
    QasabError,
    "A network file that cannot be read or written, whose tensors have the wrong shapes, or \
     that was made for other inputs than the ruleset's."
);
create_exception!(
    _qasab,
    SerializationError,
    QasabError,
    "A serialized state (a game record) that cannot be read or replayed."
);

/// OpenSpiel's player id of a chance node.
const CHANCE_PLAYER: i32 = -1;
/// OpenSpiel's player id once the game is over.
const TERMINAL_PLAYER: i32 = -4;

/// A state with the actions (and their ids) applied since the initial state.
#[derive(Clone)]
struct Tracked {
    game: AnyGame,
    ids: Vec<u32>,
    /// The legal moves by id at a player's turn, once asked for: a loop that reads the legal
    /// ids and then applies one generates the moves once.
    legal: OnceLock<Result<Vec<(u32, AnyAction)>, ActionIdError>>,
}

impl Tracked {
    fn new(rules: &AnyRuleset) -> Tracked {
        Tracked {
            game: AnyGame::new(rules),
            ids: Vec::new(),
            legal: OnceLock::new(),
        }
    }

    /// The state a record reaches, with the ids of its actions.
    fn from_record(text: &str) -> Result<Tracked, String> {
        let replayed = AnyGame::from_record(text).map_err(|e| e.to_string())?;
        let mut t = Tracked::new(replayed.ruleset());
        for &a in replayed.actions() {
            let id = t.state().action_id(a).map_err(|e| e.to_string())?;
            // Replayed and checked by the record's replay.
            t.game.apply_unchecked(a).map_err(|e| e.to_string())?;
            t.ids.push(id);
        }
        Ok(t)
    }

    fn state(&self) -> &AnyState {
        self.game.state()
    }

    fn ruleset(&self) -> String {
        self.game.ruleset().to_string()
    }

    fn turn(&self) -> Turn {
        self.state().turn()
    }

    /// The legal moves by id, generated once per state.
    fn legal_by_id(&self) -> Result<&[(u32, AnyAction)], ActionIdError> {
        self.legal
            .get_or_init(|| self.state().legal_moves_by_id())
            .as_deref()
            .map_err(Clone::clone)
    }

    fn legal_actions(&self) -> Result<Vec<u32>, ActionIdError> {
        match self.turn() {
            Turn::Player(_) => Ok(self.legal_by_id()?.iter().map(|&(id, _)| id).collect()),
            _ => self.state().legal_ids(),
        }
    }

    fn apply_action(&mut self, id: i64) -> Result<(), ActionIdError> {
        let action = match self.turn() {
            Turn::Chance => self.state().action_from_id(id)?,
            _ => {
                let legal = self.legal_by_id()?;
                match u32::try_from(id)
                    .ok()
                    .and_then(|id| legal.binary_search_by_key(&id, |&(x, _)| x).ok())
                {
                    Some(i) => legal[i].1,
                    // Out of range or not legal: the core says which.
                    None => self.state().action_from_id(id)?,
                }
            }
        };
        self.legal = OnceLock::new();
        // The action came from the legal list, or the chance outcomes by id.
        self.game
            .apply_unchecked(action)
            .expect("an action of the state's game");
        // In range: action_from_id checked it.
        self.ids.push(id as u32);
        Ok(())
    }

    fn action_to_string(&self, id: i64) -> Result<String, ActionIdError> {
        Ok(self.state().action_from_id(id)?.to_string())
    }

    /// The id of an action written in the game's notation, for whoever is to act
    /// ([`AnyState::parse_action`]: read once, legal).
    fn string_to_action(&self, text: &str) -> Result<u32, String> {
        let state = self.state();
        let action = state.parse_action(text).map_err(|e| match e {
            // At the end of the game, the error a move gets there ("no move can be made now").
            ParseActionError::Over(o) => {
                MoveError::NotPlayersTurn(describe_turn(Turn::Over(o))).to_string()
            }
            e => e.to_string(),
        })?;
        state.action_id(action).map_err(|e| e.to_string())
    }

    fn serialize(&self) -> String {
        self.game.record(&[])
    }
}

/// A numpy array of `dtype` and `shape` holding `values`, written as their native-endian
/// bytes into a bytearray that the array then owns (one copy; no Python object per value).
fn numpy_array<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    values: &[T],
    to_bytes: impl Fn(T) -> [u8; N],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let mut bytes = Vec::with_capacity(values.len() * N);
    for &v in values {
        bytes.extend_from_slice(&to_bytes(v));
    }
    let buffer = PyByteArray::new(py, &bytes);
    let np = py.import("numpy")?;
    np.call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (PyTuple::new(py, shape)?,))
}

fn illegal(e: impl ToString) -> PyErr {
    IllegalActionError::new_err(e.to_string())
}

fn player_id(p: Player) -> i32 {
    p.index() as i32
}

fn parse_ruleset(text: &str) -> PyResult<AnyRuleset> {
    text.parse::<AnyRuleset>()
        .map_err(|e| RulesetError::new_err(e.to_string()))
}

/// A game: one ruleset with its action space and observation shape.
#[pyclass(module = "qasab._qasab", name = "Game", frozen)]
struct PyGame {
    rules: AnyRuleset,
}

#[pymethods]
impl PyGame {
    /// The size of the move id space (chance outcomes are numbered apart).
    fn num_distinct_actions(&self) -> u32 {
        self.rules.num_distinct_actions()
    }

    /// The number of distinct chance outcomes: 5 throws for Tâb, 0 for Tihbat.
    fn max_chance_outcomes(&self) -> u32 {
        self.rules.max_chance_outcomes()
    }

    /// A bound on the players' decisions in one game (chance outcomes not counted), proved
    /// from the ruleset's limits: the turn and throw caps of Lane's, Hyde's and the modern
    /// Tâb (L-18), Ludii's move cap, or Tihbat's count of positions.
    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }

    /// Always 2.
    fn num_players(&self) -> u32 {
        2
    }

    /// A loss: -1.
    fn min_utility(&self) -> f64 {
        -1.0
    }

    /// A win: +1.
    fn max_utility(&self) -> f64 {
        1.0
    }

    /// The returns of a game sum to 0 (a zero-sum game).
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// The shape of `State.observation_tensor()`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.rules.observation_shape()
    }

    /// The number of values in the observation tensor.
    fn observation_tensor_size(&self) -> usize {
        self.observation_tensor_shape().iter().product()
    }

    /// The initial state.
    fn new_initial_state(&self) -> PyState {
        PyState {
            inner: Tracked::new(&self.rules),
        }
    }

    /// The state a serialized game (a record, `State.serialize()`) reaches.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let state = deserialize_state(text)?;
        if state.inner.ruleset() != self.rules.to_string() {
            return Err(SerializationError::new_err(format!(
                "the record is of {}, not of {}",
                state.inner.ruleset(),
                self.rules
            )));
        }
        Ok(state)
    }

    /// The game's type as OpenSpiel describes it, as a dict: `short_name` (the preset),
    /// `long_name` (the title), `ruleset`, `dynamics` ("sequential"), `chance_mode`
    /// ("explicit_stochastic", or "deterministic" for Tihbat), `information` ("perfect"),
    /// `utility` ("zero_sum"), `reward_model` ("terminal"), `min_num_players` and
    /// `max_num_players` (2), and the `provides_*` flags.
    fn get_type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("short_name", self.rules.name())?;
        d.set_item("long_name", self.rules.title())?;
        d.set_item("ruleset", self.rules.to_string())?;
        d.set_item("dynamics", "sequential")?;
        let chance = if self.max_chance_outcomes() > 0 {
            "explicit_stochastic"
        } else {
            "deterministic"
        };
        d.set_item("chance_mode", chance)?;
        d.set_item("information", "perfect")?;
        d.set_item("utility", "zero_sum")?;
        d.set_item("reward_model", "terminal")?;
        d.set_item("min_num_players", 2)?;
        d.set_item("max_num_players", 2)?;
        d.set_item("provides_information_state_string", false)?;
        d.set_item("provides_information_state_tensor", false)?;
        d.set_item("provides_observation_string", true)?;
        d.set_item("provides_observation_tensor", true)?;
        Ok(d)
    }

    /// The preset name (`tab`, `tihbat`, ...).
    fn name(&self) -> &'static str {
        self.rules.name()
    }

    /// The canonical ruleset string.
    fn ruleset(&self) -> String {
        self.rules.to_string()
    }

    /// The spec of the strongest computer player measured on this ruleset, the default
    /// opponent and hint player of `qasab play` and the server: `Agent(game.strongest_player(),
    /// game)` plays it.
    fn strongest_player(&self) -> &'static str {
        AnyPlayer::strongest(&self.rules)
    }

    /// One line saying what the game is.
    fn title(&self) -> &'static str {
        self.rules.title()
    }

    /// The rules in plain language.
    fn rules_text(&self) -> String {
        self.rules.rules_text()
    }

    /// The option values in force, as `{key: value}`.
    fn parameters(&self) -> Vec<(String, String)> {
        self.rules
            .options()
            .iter()
            .filter_map(|o| Some((o.key.to_string(), self.rules.option_value(o.key)?)))
            .collect()
    }

    fn __str__(&self) -> String {
        self.rules.to_string()
    }

    fn __repr__(&self) -> String {
        format!("qasab.load_game({:?})", self.rules.to_string())
    }

    fn __eq__(&self, other: &PyGame) -> bool {
        self.rules == other.rules
    }

    /// Pickling: the game is loaded again from its ruleset string.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = py.import("qasab._qasab")?.getattr("load_game")?;
        Ok((load, (self.rules.to_string(),)))
    }
}

/// A state of a game, with OpenSpiel's meanings.
#[pyclass(module = "qasab._qasab", name = "State")]
struct PyState {
    inner: Tracked,
}

#[pymethods]
impl PyState {
    /// The player to move (0 or 1), -1 at a chance node, -4 once the game is over.
    fn current_player(&self) -> i32 {
        match self.inner.turn() {
            Turn::Chance => CHANCE_PLAYER,
            Turn::Player(p) => player_id(p),
            Turn::Over(_) => TERMINAL_PLAYER,
        }
    }

    /// True at a chance node (a throw of the sticks is due).
    fn is_chance_node(&self) -> bool {
        self.inner.turn() == Turn::Chance
    }

    /// True once the game is over.
    fn is_terminal(&self) -> bool {
        matches!(self.inner.turn(), Turn::Over(_))
    }

    /// True if the game was stopped by a safety limit (a turn cap or no progress), not by
    /// its rules.
    fn is_truncated(&self) -> bool {
        self.inner
            .turn()
            .outcome()
            .is_some_and(|o| o.is_truncated())
    }

    /// The legal action ids, ascending: move ids at a player's turn, chance outcome ids at a
    /// chance node, none at the end.
    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        self.inner
            .legal_actions()
            .map_err(|e| QasabError::new_err(e.to_string()))
    }

    /// A list of `num_distinct_actions()` 0/1 values, 1 for the legal move ids (at a chance
    /// node, of `max_chance_outcomes()` values for the outcome ids).
    fn legal_actions_mask(&self) -> PyResult<Vec<u8>> {
        let size = match self.inner.turn() {
            Turn::Chance => self.chance_space(),
            _ => self.inner.game.ruleset().num_distinct_actions(),
        };
        let mut mask = vec![0u8; size as usize];
        for id in self.legal_actions()? {
            mask[id as usize] = 1;
        }
        Ok(mask)
    }

    /// Applies a legal action id. Raises IllegalActionError otherwise.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.inner.apply_action(action).map_err(illegal)
    }

    /// The chance outcomes as `(action, probability)`, from the exact integer weights; empty
    /// unless at a chance node.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.inner.state().chance_probabilities()
    }

    /// +1 for the winner, -1 for the loser, 0 each for a draw; 0 before the end.
    fn returns(&self) -> Vec<f64> {
        match self.inner.turn() {
            Turn::Over(o) => [Player::One, Player::Two]
                .map(|p| f64::from(o.return_for(p)))
                .to_vec(),
            _ => vec![0.0, 0.0],
        }
    }

    /// The rewards of the last action: the returns at the end, 0 before (rewards come only
    /// at the end of these games).
    fn rewards(&self) -> Vec<f64> {
        self.returns()
    }

    /// The return of one player.
    fn player_return(&self, player: i32) -> PyResult<f64> {
        let r = self.returns();
        usize::try_from(player)
            .ok()
            .and_then(|p| r.get(p).copied())
            .ok_or_else(|| QasabError::new_err(format!("player {player} is not 0 or 1")))
    }

    /// The observation tensor as a numpy float32 array of `observation_tensor_shape()`. The
    /// state is public, so `player` changes nothing.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = player;
        let mut observation = Vec::new();
        self.inner.state().observation(&mut observation);
        numpy_array(
            py,
            &observation,
            f32::to_ne_bytes,
            "float32",
            &self.inner.game.ruleset().observation_shape(),
        )
    }

    /// The picture of the position (the state is public, so `player` changes nothing).
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, player: Option<i32>) -> String {
        let _ = player;
        self.inner.state().render()
    }

    /// The action in the game's notation (`3:K-N`, `bank`, `A7`; a throw's value at a chance
    /// node). `player` is accepted for OpenSpiel's signature and ignored.
    #[pyo3(signature = (action, player=None))]
    fn action_to_string(&self, action: i64, player: Option<i32>) -> PyResult<String> {
        let _ = player;
        self.inner.action_to_string(action).map_err(illegal)
    }

    /// The id of an action written in the game's notation (shorthands accepted).
    #[pyo3(signature = (text, player=None))]
    fn string_to_action(&self, text: &str, player: Option<i32>) -> PyResult<u32> {
        let _ = player;
        self.inner.string_to_action(text).map_err(illegal)
    }

    /// An independent copy.
    fn clone(&self) -> PyState {
        PyState {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// Pickling: the state is rebuilt by `qasab.deserialize_state` from its game record.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let rebuild = py.import("qasab._qasab")?.getattr("deserialize_state")?;
        Ok((rebuild, (self.inner.serialize(),)))
    }

    /// The action ids applied since the initial state, chance outcomes included.
    fn history(&self) -> Vec<u32> {
        self.inner.ids.clone()
    }

    /// The number of actions applied so far.
    fn move_number(&self) -> usize {
        self.inner.ids.len()
    }

    /// The game record (the project's record format), which `qasab.deserialize_state` reads.
    fn serialize(&self) -> String {
        self.inner.serialize()
    }

    /// The canonical ruleset string.
    fn ruleset(&self) -> String {
        self.inner.ruleset()
    }

    /// The game of this state.
    fn get_game(&self) -> PyResult<PyGame> {
        Ok(PyGame {
            rules: parse_ruleset(&self.inner.ruleset())?,
        })
    }

    /// The one-line position id (the whole state, as the core writes it).
    fn position_id(&self) -> String {
        self.inner.state().position_id()
    }

    /// The state as JSON text, as the core serializes it.
    ///
    /// Raises `SerializationError` if the core cannot serialize it (never expected), rather
    /// than returning text that is not the state.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(self.inner.state())
            .map_err(|e| SerializationError::new_err(e.to_string()))
    }

    /// The board model as a dict, as the web page draws it: for Tâb, `kind` "tab", the rows of
    /// squares (each with its name, row, column, home seat and unit: owner, pieces,
    /// unconverted, entered_enemy_row, dissolved, frozen, held), the pending throws, the bank,
    /// the pieces on the board, unconverted and removed, and the last throw; for Tihbat,
    /// `kind` "tihbat", the rows of pits and the captures.
    fn drawing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.inner.game.drawing())
            .map_err(|e| SerializationError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The picture of the position.
    #[pyo3(name = "to_string")]
    fn picture(&self) -> String {
        self.inner.state().render()
    }

    fn __str__(&self) -> String {
        self.inner.state().render()
    }

    fn __repr__(&self) -> String {
        format!(
            "<qasab.State {} {}>",
            self.inner.ruleset(),
            self.inner.state().position_id()
        )
    }
}

impl PyState {
    fn chance_space(&self) -> u32 {
        self.inner.game.ruleset().max_chance_outcomes()
    }
}

/// The game of a ruleset string (`"tab(columns=9)"`). Raises RulesetError if it names no
/// ruleset or has a bad option.
#[pyfunction]
fn load_game(ruleset: &str) -> PyResult<PyGame> {
    Ok(PyGame {
        rules: parse_ruleset(ruleset)?,
    })
}

/// The state a serialized game (`State.serialize()`, a game record) reaches. Raises
/// SerializationError if the text is not a record of a legal game.
#[pyfunction]
fn deserialize_state(text: &str) -> PyResult<PyState> {
    let inner = Tracked::from_record(text).map_err(SerializationError::new_err)?;
    Ok(PyState { inner })
}

/// The names of every ruleset.
#[pyfunction]
fn ruleset_names() -> Vec<&'static str> {
    qasab_core::RULESET_NAMES.to_vec()
}

/// A computer player (`"mcts(iterations=2000)"`, `"greedy"`, `"expectimax(level=2)"`,
/// `"random"`, `"solver"` for Tihbat) for one game. `step(state)` returns its action id at a
/// player's turn, computed without the GIL.
#[pyclass(module = "qasab._qasab", name = "Agent")]
struct PyAgent {
    /// The agent; the mutex makes it `Sync`, and a step holds it alone.
    agent: Mutex<AnyAgent>,
    ruleset: String,
}

#[pymethods]
impl PyAgent {
    /// The agent `spec` for `game` (a Game or a ruleset string), seeded with the spec's
    /// `seed=` if given, else `seed`. Raises AgentError for a bad spec.
    #[new]
    #[pyo3(signature = (spec, game, seed=0))]
    fn new(spec: &str, game: &Bound<'_, PyAny>, seed: u64) -> PyResult<PyAgent> {
        let rules = match game.cast::<PyGame>() {
            Ok(g) => g.get().rules.clone(),
            Err(_) => parse_ruleset(&game.extract::<String>()?)?,
        };
        let player =
            AnyPlayer::new(spec, &rules).map_err(|e| AgentError::new_err(e.to_string()))?;
        Ok(PyAgent {
            agent: Mutex::new(player.make(seed)),
            ruleset: rules.to_string(),
        })
    }

    /// The agent's action id in `state` (a player's turn of the agent's ruleset).
    fn step(&mut self, py: Python<'_>, state: &PyState) -> PyResult<u32> {
        if state.inner.ruleset() != self.ruleset {
            return Err(QasabError::new_err(format!(
                "the agent plays {}, the state is of {}",
                self.ruleset,
                state.inner.ruleset()
            )));
        }
        let turn = state.inner.turn();
        if turn.player().is_none() {
            return Err(QasabError::new_err(format!(
                "an agent moves only at a player's turn, and {}",
                qasab_core::game::describe_turn(turn)
            )));
        }
        let agent = self
            .agent
            .get_mut()
            .map_err(|_| QasabError::new_err("the agent failed in an earlier step"))?;
        let s = state.inner.state();
        let action = py
            .detach(|| agent.choose(s))
            .ok_or_else(|| QasabError::new_err("the state is of another game than the agent's"))?;
        s.action_id(action)
            .map_err(|e| QasabError::new_err(e.to_string()))
    }

    /// The agent's spec string, with its seed.
    fn spec(&self) -> String {
        self.agent
            .lock()
            .map(|a| a.spec())
            .unwrap_or_else(|_| "poisoned".into())
    }

    fn __repr__(&self) -> String {
        format!("qasab.Agent({:?}, {:?})", self.spec(), self.ruleset)
    }
}

fn simulate_typed<R: Ruleset>(
    rules: &R,
    players: [&str; 2],
    tables: Option<&std::sync::Arc<qasab_ai::search::endgame::TableSet>>,
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<Vec<GameSummary>, String>
where
    R::State: Playable,
{
    qasab_ai::play::simulate::simulate::<R::State>(
        rules,
        players,
        tables,
        games,
        seed,
        threads,
        &|| {},
    )
    .map_err(|e| e.to_string())
}

/// Plays `games` games between two agent specs (seat order) in Rust on `threads` threads
/// (0 = all cores), without the GIL. Returns a dict of numpy arrays, one entry per game:
/// `winner` (int8: 0, 1, or -1 for a draw), `scores` (int64, shape (games, 2)), `turns`,
/// `actions` (int64), `truncated` (bool) and `reason` (int8, an index into `end_reasons()`).
/// Every player probes the endgame tables of the ruleset in the directory `tables` (default:
/// the directory named by `QASAB_TABLES`, if set) wherever they hold the position.
#[pyfunction]
#[pyo3(signature = (ruleset, players=(String::from("random"), String::from("random")), games=100, seed=0, threads=0, tables=None))]
fn simulate<'py>(
    py: Python<'py>,
    ruleset: &str,
    players: (String, String),
    games: u64,
    seed: u64,
    threads: usize,
    tables: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let rules = parse_ruleset(ruleset)?;
    let specs = [players.0.as_str(), players.1.as_str()];
    let dir = tables.or_else(|| {
        std::env::var_os(qasab_ai::search::endgame::TABLES_ENV).map(std::path::PathBuf::from)
    });
    let tables = match dir {
        Some(dir) => {
            let set = qasab_ai::search::endgame::TableSet::open_dir(&dir, &rules)
                .map_err(|e| QasabError::new_err(e.to_string()))?;
            (!set.is_empty()).then(|| std::sync::Arc::new(set))
        }
        None => None,
    };
    let summaries = py
        .detach(|| {
            with_ruleset!(&rules, r => simulate_typed(r, specs, tables.as_ref(), games, seed, threads))
        })
        .map_err(AgentError::new_err)?;
    let n = summaries.len();
    let out = pyo3::types::PyDict::new(py);
    let winner: Vec<i8> = summaries
        .iter()
        .map(|g| g.winner.map_or(-1, |p| p.index() as i8))
        .collect();
    out.set_item(
        "winner",
        numpy_array(py, &winner, i8::to_ne_bytes, "int8", &[n])?,
    )?;
    let scores: Vec<i64> = summaries
        .iter()
        .flat_map(|g| g.scores.map(i64::from))
        .collect();
    out.set_item(
        "scores",
        numpy_array(py, &scores, i64::to_ne_bytes, "int64", &[n, 2])?,
    )?;
    let turns: Vec<i64> = summaries.iter().map(|g| i64::from(g.turns)).collect();
    out.set_item(
        "turns",
        numpy_array(py, &turns, i64::to_ne_bytes, "int64", &[n])?,
    )?;
    let actions: Vec<i64> = summaries.iter().map(|g| i64::from(g.actions)).collect();
    out.set_item(
        "actions",
        numpy_array(py, &actions, i64::to_ne_bytes, "int64", &[n])?,
    )?;
    let truncated: Vec<u8> = summaries
        .iter()
        .map(|g| u8::from(g.reason.is_truncation()))
        .collect();
    out.set_item(
        "truncated",
        numpy_array(py, &truncated, u8::to_ne_bytes, "bool", &[n])?,
    )?;
    let reason: Vec<i8> = summaries
        .iter()
        .map(|g| {
            qasab_core::EndReason::ALL
                .iter()
                .position(|r| *r == g.reason)
                .map_or(-1, |i| i as i8)
        })
        .collect();
    out.set_item(
        "reason",
        numpy_array(py, &reason, i8::to_ne_bytes, "int8", &[n])?,
    )?;
    Ok(out)
}

/// The names of the end reasons, indexed by the `reason` codes of `simulate`.
#[pyfunction]
fn end_reasons() -> Vec<&'static str> {
    qasab_core::EndReason::ALL
        .iter()
        .map(|r| r.name())
        .collect()
}

/// The compiled part of the `qasab` package.
#[pymodule]
fn _qasab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("QasabError", py.get_type::<QasabError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RulesetError", py.get_type::<RulesetError>())?;
    m.add("SerializationError", py.get_type::<SerializationError>())?;
    m.add("AgentError", py.get_type::<AgentError>())?;
    m.add("NetworkError", py.get_type::<NetworkError>())?;
    m.add("ArgumentError", py.get_type::<jobs::ArgumentError>())?;
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(end_reasons, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(deserialize_state, m)?)?;
    m.add_function(wrap_pyfunction!(ruleset_names, m)?)?;
    // qasab.distributed wraps these (python/qasab/distributed/).
    m.add_class::<jobs::PyJob>()?;
    m.add_class::<jobs::PyResults>()?;
    m.add_class::<jobs::PyTrainer>()?;
    m.add_function(wrap_pyfunction!(jobs::self_play_games_bytes, m)?)?;
    // qasab.net wraps these (python/qasab/net.py).
    m.add_function(wrap_pyfunction!(net::net_training_data, m)?)?;
    m.add_function(wrap_pyfunction!(net::net_encode, m)?)?;
    m.add_function(wrap_pyfunction!(net::net_encoding, m)?)?;
    m.add_function(wrap_pyfunction!(net::net_value, m)?)?;
    m.add_function(wrap_pyfunction!(net::net_save_network, m)?)?;
    // qasab.endgame wraps these (python/qasab/endgame.py).
    m.add("NotInTableError", py.get_type::<endgame::NotInTableError>())?;
    m.add_function(wrap_pyfunction!(endgame::endgame_probe, m)?)?;
    m.add_function(wrap_pyfunction!(endgame::endgame_probe_position, m)?)?;
    m.add_function(wrap_pyfunction!(endgame::endgame_build, m)?)?;
    m.add_function(wrap_pyfunction!(endgame::endgame_header, m)?)?;
    m.add_function(wrap_pyfunction!(endgame::endgame_verify, m)?)?;
    m.add_function(wrap_pyfunction!(endgame::endgame_sanctuaries, m)?)?;
    m.add_function(wrap_pyfunction!(endgame::endgame_sanctuaries_position, m)?)?;
    Ok(())
}
