//! Command-line arguments.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Qasab: Tâb and Tihbat engine, players and tools.
///
/// A ruleset is written name(key=value,...), e.g. tihbat or tihbat(seeds=5,cycle=own-side).
/// `qasab rules` lists every ruleset and option.
#[derive(Parser, Debug)]
#[command(name = "qasab", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the rules of a ruleset, or every ruleset with its options.
    Rules {
        /// A ruleset string; omit to list every ruleset.
        ruleset: Option<String>,
    },
    /// Play a game in the terminal, against the computer or between two people.
    Play(PlayArgs),
    /// Serve games over HTTP: a JSON API (see docs/server.md), games kept in SQLite.
    Serve(ServeArgs),
    /// Play many games between two players on all cores and report statistics.
    Simulate(SimulateArgs),
    /// Rate players: a round robin with paired throws, scores, Elo differences and a ladder.
    Arena(ArenaArgs),
    /// Report arenas of the same players played with different seeds as one: the scores,
    /// intervals and ladder over all their games, from their `qasab arena --json` reports.
    ArenaMerge(ArenaMergeArgs),
    /// Measure what each variant of a ruleset does to the game: balance, length, decisions,
    /// drama, skill, with 95% intervals, charts and a report (see docs/study.md).
    Study(StudyArgs),
    /// Train an evaluation network for a ruleset of the Tâb family by self-play, TD(λ) (see
    /// docs/training.md): the weights, a checkpoint to resume from, and the learning curve.
    Train(TrainArgs),
    /// Analyse a game record: every decision against a player's best move (with marks for
    /// doubtful moves, mistakes and blunders), and the luck of every throw.
    Analyse(AnalyseArgs),
    /// Replay and check a game record.
    Replay {
        /// The record file.
        file: PathBuf,
        /// Print only the result, not every move.
        #[arg(long)]
        quiet: bool,
    },
    /// Solve Tihbat exactly: the value of the start and of every first move.
    Solve(SolveArgs),
    /// Exact endgame tables of the Tâb family: build, probe, verify and describe them.
    #[command(subcommand)]
    Endgame(EndgameCommand),
    /// Measure random playouts per second and the solver's time.
    Bench(BenchArgs),
    /// List the legal decisions, or the chance outcomes with their weights, at a position.
    Moves(MovesArgs),
    /// Apply actions to a position and print the position id that results.
    Apply(ApplyArgs),
    /// Count the game tree from a position (perft), to pin move generation.
    Perft(PerftArgs),
    /// Replay Ludii's recorded Tab or At-Tab games (a gzip JSON-Lines trace) with
    /// tab-ludii or tab-hyde-ludii, comparing every decision. Exits with status 1 if any
    /// decision, end or winner differs.
    LudiiReplay {
        /// The trace file (.jsonl.gz).
        trace: PathBuf,
        /// Print one JSON object: games, decisions, mismatches, first_mismatches.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The ruleset.
    pub ruleset: String,
    /// A position id (default: the start).
    #[arg(long)]
    pub position: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ApplyArgs {
    /// The ruleset.
    pub ruleset: String,
    /// A position id (default: the start).
    #[arg(long)]
    pub position: Option<String>,
    /// Actions in order: moves in the game's notation, throws as their value.
    #[arg(required = true)]
    pub actions: Vec<String>,
    /// Print the resulting state as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The ruleset.
    pub ruleset: String,
    /// A position id (default: the start).
    #[arg(long)]
    pub position: Option<String>,
    /// The deepest depth to count (every depth from 1 is printed).
    #[arg(long)]
    pub depth: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The ruleset, e.g. tihbat or tihbat(seeds=5).
    pub ruleset: String,
    #[arg(long, value_name = "PLAYER", help = seat_help("South", "tihbat"))]
    pub south: Option<String>,
    #[arg(long, value_name = "PLAYER", help = seat_help("North", "tihbat"))]
    pub north: Option<String>,
    #[arg(long, value_name = "PLAYER", help = seat_help("White", "the Tab family"))]
    pub white: Option<String>,
    #[arg(long, value_name = "PLAYER", help = seat_help("Black", "the Tab family"))]
    pub black: Option<String>,
    /// Seed for the game's throws and the computer players' choices; the same seed and the
    /// same moves give the same game [default: a fresh seed from the operating system, printed
    /// at the start and kept in the record].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the game record to this file (kept up to date after every move).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// The player that answers `hint`, with a seed of its own drawn from the game's (default:
    /// the game's strongest player).
    #[arg(long, value_name = "PLAYER")]
    pub hint: Option<String>,
    /// A directory of endgame tables (`qasab endgame build`; default: the directory in the
    /// environment variable QASAB_TABLES): where one holds the position, the computer players
    /// play and the hint ranks the moves by their exact values.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

/// The help of a seat's flag of `qasab play`: the players of the registry, by name.
fn seat_help(seat: &str, game: &str) -> String {
    format!(
        "Player for {seat} ({game}): human, or a computer player: {}, with options in \
         parentheses such as mcts(level=3) or random(seed=3); or {} (the game's default \
         player, which `qasab rules RULESET` names). Which games each plays, and its options: \
         docs/players.md",
        qasab_ai::players::AGENT_NAMES.join(", "),
        qasab_ai::players::STRONGEST
    )
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on. The loopback by default: put the server on a public address
    /// only behind a proxy that you trust.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The SQLite database of the games, created if missing; a restarted server resumes every
    /// game in it.
    #[arg(long, default_value = "qasab.db")]
    pub db: PathBuf,
    /// Games one client address may create or import a minute.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub games_per_minute: u32,
    /// WebSockets that may watch one game at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
    pub sockets_per_game: u32,
    /// Hints one client address may ask for a minute.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub hints_per_minute: u32,
    /// Worker threads for computer moves and hints, the most that think at once [default: one
    /// fewer than the machine's cores, at least 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub compute_workers: Option<u32>,
    /// Hints that may wait for a worker; beyond it hints get 503 with Retry-After (computer
    /// seats' moves always queue: against a person ahead of hints, between computers taking
    /// turns with them).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
    pub compute_queue: u32,
    /// The most time a computer player may think per move (its `time=`), in milliseconds;
    /// specs asking for more get 422.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub max_think_ms: u64,
    /// The most threads a computer player may use (its `threads=`); specs asking for more get
    /// 422.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub max_threads: u64,
    /// Games kept in memory; others are read back from the database when asked for.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games_in_memory: u32,
    /// A game between two computer players advances while it was read within this many
    /// seconds (or a WebSocket watches it); otherwise it pauses.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub watch_window: u64,
    /// The least time between two decisions of a game between two computer players, in
    /// milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub computer_pace_ms: u64,
    // Connections, timeouts and client addresses (docs/server.md, "Limits").
    /// Seconds a client has to send a request's headers; then the connection is closed (idle
    /// keep-alive connections too).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub header_timeout: u64,
    /// Seconds a client has to send a request's body after its headers; then 408.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub body_timeout: u64,
    /// Seconds after which a WebSocket from which nothing arrived (no message, no answer to
    /// the server's pings, sent every quarter of this, at most every 30 s) is closed.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 120,
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub ws_idle_timeout: u64,
    /// TCP connections open at once, WebSockets included; one more is answered with 503.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// A reverse proxy (an IP address or a CIDR range; repeatable) whose X-Forwarded-For
    /// header names the client. Without it the header is ignored.
    #[arg(
        long = "trust-proxy",
        value_name = "ADDR",
        value_parser = qasab_server::proxy::parse_network
    )]
    pub trust_proxy: Vec<qasab_server::IpNet>,
    /// Serve the variant studies from this directory (index.json and a directory per study, as
    /// docs/variants/) instead of the copy compiled in, read afresh at each request: to preview
    /// a study before committing it.
    #[arg(long, value_name = "DIR")]
    pub variants: Option<PathBuf>,
    /// A directory of endgame tables (`qasab endgame build`; default: the directory in the
    /// environment variable QASAB_TABLES), read at the start: where one holds the position,
    /// the computer seats play and the hints rank the moves by their exact values.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The game record (as written by `qasab play --record` or `qasab arena --records`). Give
    /// several records, or a directory of .qrec files, for every player's totals over them.
    #[arg(required = true, num_args = 1.., value_name = "RECORD")]
    pub records: Vec<PathBuf>,
    /// The player that rates the moves (default: the game's strongest, e.g. mcts or solver).
    #[arg(long)]
    pub agent: Option<String>,
    /// Seed of the rating player's own choices (its searches).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads for several records (0 = all cores). The results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// A directory of endgame tables (`qasab endgame build`; default: the directory in the
    /// environment variable QASAB_TABLES): where one holds the position, the moves are rated
    /// by their exact values and a mark is an exact error.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The ruleset.
    pub ruleset: String,
    #[command(flatten)]
    pub play: SimulatedGames,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The games of a simulation (`qasab simulate`, `qasab endgame stalls`): the same arguments
/// give the same games.
#[derive(Args, Debug)]
pub struct SimulatedGames {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The two players in seat order, comma-separated: e.g. random,solver.
    #[arg(long, default_value = "random,random")]
    pub players: String,
    /// Base seed; game g uses a seed derived from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (0 = all cores). The results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// A directory of endgame tables (`qasab endgame build`; default: the directory in the
    /// environment variable QASAB_TABLES): where one holds the position, both players play
    /// by its exact values.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ArenaMergeArgs {
    /// The reports: files written by `qasab arena --json`, of one ruleset and the same players
    /// in the same order, each with its own seed.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object, as `qasab arena --json` does, with the seeds merged.
    #[arg(long)]
    pub json: bool,
    /// Also draw the ladder (each player's Elo rating with its 95% interval) as an SVG chart
    /// in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The ruleset (write it before --players, which takes the words up to the next option).
    pub ruleset: String,
    /// Two or more players: specs such as random, solver, random(seed=3) or strongest (the
    /// game's default player), separated by spaces or commas. A spec given twice plays as two players, labelled spec#1 and spec#2.
    #[arg(long, num_args = 1.., required = true, value_name = "SPEC")]
    pub players: Vec<String>,
    /// Games per pairing: an even number, half with each seating.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// The arena seed: every throw and every player's seed is derived from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (0 = all cores). The results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also draw the ladder (each player's Elo rating with its 95% interval) as an SVG chart
    /// in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also write every game's record into DIR (made if missing; it must be empty), one
    /// file a game: pairing-P-pair-K-game-G.qrec, numbered from 1.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// A directory of endgame tables (`qasab endgame build`; default: the directory in the
    /// environment variable QASAB_TABLES): where one holds the position, every player plays
    /// by its exact values.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The ruleset to train on (tab, tab-hyde, tab-modern, tab-ludii, tab-hyde-ludii, with
    /// options); ignored with --resume, which goes on with the checkpoint's.
    #[arg(required_unless_present = "resume")]
    pub ruleset: Option<String>,
    /// Self-play games in all (a resumed run plays up to this many).
    #[arg(long)]
    pub games: Option<u64>,
    /// The run's seed: the initial weights and every game's throws are derived from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Where the trained network goes (safetensors). Beside it: FILE's stem with
    /// .best.safetensors (the network at the curve's best point so far),
    /// .checkpoint.safetensors (to resume), .curve.json and .curve.svg (the learning curve).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Worker threads (0 = all cores). The weights do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Go on with the run saved in this checkpoint.
    #[arg(long, value_name = "CHECKPOINT")]
    pub resume: Option<PathBuf>,
    /// Games per batch (played by the network as it stands, then learnt from).
    #[arg(long, default_value_t = 32)]
    pub batch: u64,
    /// λ of the λ-return (0: one-step targets; 1: the game's result).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Adam's step size [default: 0.001]. With --resume, the run goes on at this rate from
    /// its next game (a lower rate late in a run), recorded in the checkpoint and the
    /// network; without it, at the checkpoint's.
    #[arg(long)]
    pub rate: Option<f32>,
    /// The units of the two hidden layers.
    #[arg(long, default_value = "128,32", value_name = "H1,H2")]
    pub hidden: String,
    /// Games between two points of the learning curve (0: no curve).
    #[arg(long, default_value_t = 1000)]
    pub curve_every: u64,
    /// Game pairs against greedy, with paired throws, at each point of the curve.
    #[arg(long, default_value_t = 100)]
    pub curve_pairs: u64,
    /// One network for the whole family: each game plays a reading drawn from its boards and
    /// rule options, on the encoding that reads them all (tab-v3); the curve is measured on
    /// RULESET. Only for a new run (a checkpoint says whether its run is one).
    #[arg(long, conflicts_with = "resume")]
    pub across: bool,
    /// Start from the weights of this network instead of random ones (fine-tuning: the
    /// cheap way to a network of one reading, from the preset's or the family's). It must
    /// read RULESET; its encoding and layer sizes are kept, the optimiser starts afresh.
    #[arg(long, value_name = "NETWORK", conflicts_with_all = ["resume", "hidden"])]
    pub start: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct StudyArgs {
    /// The base ruleset; every variant is it with the --vary values on top.
    #[arg(
        required_unless_present_any = ["variants", "redraw"],
        conflicts_with_all = ["variants", "redraw"]
    )]
    pub ruleset: Option<String>,
    /// An option to vary, KEY=V1,V2,... or KEY=A..B for integers; give it several times to
    /// study the product of the values.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub vary: Vec<String>,
    /// A file listing the variants instead: one ruleset string per line (blank lines and lines
    /// starting with # are skipped).
    #[arg(long, value_name = "FILE", conflicts_with = "vary")]
    pub variants: Option<PathBuf>,
    /// The two players, seated both ways round with the same throws.
    #[arg(long, default_value = "greedy,greedy", value_name = "A,B")]
    pub players: String,
    /// A skill check for every variant: the strong player against the weak one.
    #[arg(long, value_name = "STRONG,WEAK")]
    pub skill: Option<String>,
    /// Games per variant: an even number; 0 gives only the exact solver values (tihbat).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Games per variant in the skill check (default: as many as --games).
    #[arg(long, value_name = "N", requires = "skill")]
    pub skill_games: Option<u64>,
    /// The study seed: every throw and every player's seed is derived from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (0 = all cores). The results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Keep the games in DIR/study.sqlite (a run stopped and started again continues where it
    /// was) and write results.csv, results.json, SVG charts and report.html there.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Play at most N chunks of games in this run, then stop; run again to continue (needs
    /// --out).
    #[arg(long, value_name = "N", requires = "out")]
    pub chunks: Option<u64>,
    /// Print the results as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Play nothing: draw the charts and report.html of the study in DIR again from its
    /// results.json (after a change to how charts are drawn).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["variants", "out", "chunks", "json"])]
    pub redraw: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A tihbat ruleset.
    #[arg(default_value = "tihbat")]
    pub ruleset: String,
    /// Solve seeds=A..B (inclusive) instead, and print a table.
    #[arg(long, value_name = "A..B")]
    pub sweep: Option<String>,
    /// Analyse this position instead of the start: a position id, e.g. 2,9,9,8/0,0/north/1/7.7.7.7s
    /// (the moves played and the repetition history may be left out: 2,9,9,8/0,0/north).
    #[arg(long, conflicts_with = "sweep")]
    pub position: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The ruleset to measure; omit to measure every ruleset's default.
    pub ruleset: Option<String>,
    /// Seconds of playouts per measurement.
    #[arg(long, default_value_t = 2.0, conflicts_with = "search")]
    pub seconds: f64,
    /// Seed of the playouts, or of the positions and the players with --search.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Measure a player's decisions instead of random playouts: over a fixed seeded set of
    /// positions (decisions of random games, 40 to 120 decisions in), the time a decision
    /// takes, and for mcts the iterations and network evaluations a second, on one search
    /// thread and on all (see docs/PERFORMANCE.md).
    #[arg(long)]
    pub search: bool,
    /// With --search: the player (default: strongest, the ruleset's default player). A spec
    /// that sets threads= is measured with those threads only.
    #[arg(long, value_name = "SPEC", requires = "search")]
    pub player: Option<String>,
    /// With --search: the positions, one decision in each.
    #[arg(long, default_value_t = 20, requires = "search")]
    pub positions: usize,
    /// Print a JSON array.
    #[arg(long)]
    pub json: bool,
}

/// `qasab endgame` subcommands.
#[derive(Subcommand, Debug)]
pub enum EndgameCommand {
    /// Solve every position reachable from the given positions (or every position with at most
    /// the given pieces) exactly, and write the table.
    Build(EndgameBuildArgs),
    /// The exact value of a position, and of every decision at a player's turn.
    Probe {
        /// A table file.
        file: PathBuf,
        /// A position id of the table's ruleset.
        position: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check a table: its checksum, its positions rebuilt from its seeds, and every value
    /// against one Bellman step from its successors' values.
    Verify {
        /// A table file.
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// What a table holds: positions, wins, losses and draws, the longest forced win, how it was
    /// built.
    Stats {
        /// A table file.
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Two tables of one ruleset side by side (built with two caps, say): how much the values
    /// of the positions both hold differ.
    Compare {
        /// A table file.
        first: PathBuf,
        /// Another table file of the same ruleset.
        second: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play the games `qasab simulate` plays and classify each one a safety limit stops: a draw
    /// the rules force (both sides hold a sanctuary), a side that cannot lose, or a game the
    /// players left unfinished.
    Stalls(EndgameStallsArgs),
}

/// Arguments of `qasab endgame stalls`.
#[derive(Args, Debug)]
pub struct EndgameStallsArgs {
    /// The ruleset of the games to play (not with --records).
    #[arg(required_unless_present = "records", conflicts_with = "records")]
    pub ruleset: Option<String>,
    /// Read the games from these record files, or every file of these directories (as
    /// `qasab arena --records DIR` writes them), instead of playing them.
    #[arg(long, num_args = 1.., value_name = "PATH", conflicts_with_all = ["games", "players", "seed", "threads", "tables"])]
    pub records: Vec<PathBuf>,
    /// The games to play: those `qasab simulate` plays with the same arguments.
    #[command(flatten)]
    pub play: SimulatedGames,
    /// Classify each stop by the exact values of the endgame tables in DIR. The players do
    /// not consult them, so the games are those played without (with --tables, the players
    /// consult those tables, which then classify the stops).
    #[arg(long, value_name = "DIR")]
    pub exact: Option<PathBuf>,
    /// Print one JSON object, with every stopped game's final position id.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `qasab endgame build`.
#[derive(Args, Debug)]
pub struct EndgameBuildArgs {
    /// A ruleset of the Tâb family, e.g. tab-ludii or "tab(columns=7)".
    pub ruleset: String,
    /// A position id at a throw; the table holds every position reachable from it (repeat for
    /// several).
    #[arg(
        long = "from",
        value_name = "POSITION_ID",
        required_unless_present = "pieces",
        conflicts_with = "pieces"
    )]
    pub from: Vec<String>,
    /// Every position with at most W white and B black pieces on the board (tab-ludii; one
    /// piece a side for tab, tab-hyde and tab-modern).
    #[arg(long, value_name = "W,B")]
    pub pieces: Option<String>,
    /// The table file to write.
    #[arg(long, default_value = "endgame.qeg")]
    pub out: PathBuf,
    /// Worker threads for expanding positions (0 = all cores). The table does not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Banked tâbs beyond this many count as this many (L-8); the values show where more stop
    /// mattering.
    #[arg(long, default_value_t = qasab_core::EssenceCaps::default().bank)]
    pub bank_cap: u16,
    /// Ludii's track counts (LT-6) beyond this size count as this size.
    #[arg(long, default_value_t = qasab_core::EssenceCaps::default().counts)]
    pub count_cap: i32,
    /// A turn's pending throws of one kind beyond this many, while it throws on, count as this
    /// many (accumulated throws, L-5); build with two caps to see where more stop mattering.
    #[arg(long, default_value_t = qasab_core::EssenceCaps::default().pending)]
    pub pending_cap: u8,
    /// The most positions the table may hold.
    #[arg(long, default_value_t = 20_000_000)]
    pub max_positions: usize,
    /// The most memory the build may take, in MB (default: the memory the operating system
    /// reports available); the build stops with the reason when it would need more.
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// Go on with a stopped build from its progress file (OUT.partial), if there is one.
    #[arg(long)]
    pub resume: bool,
    /// Write the build's progress to OUT.partial this often, so that a stopped build can be
    /// resumed (0: after every batch of positions). The file goes once the table is written.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub checkpoint_every: u64,
    /// Keep no progress file.
    #[arg(long, conflicts_with = "resume")]
    pub no_checkpoint: bool,
    /// Print the table's statistics as JSON.
    #[arg(long)]
    pub json: bool,
}
