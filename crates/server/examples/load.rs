//! A load benchmark of `qasab serve`, and a check that a killed server loses no acknowledged
//! action. Not a test: it measures, and its figures go to `docs/PERFORMANCE.md`.
//!
//! ```text
//! cargo build --release -p qasab-cli
//! cargo run --release -p qasab-server --example load -- [--games 320] [--concurrency 64]
//!     [--max-actions 300] [--kill-after 3000] [--seed 1] [--flooders 0] [--think-ms 0]
//!     [--reply-games 0] [--ruleset tab] [--bin target/release/qasab]
//! ```
//!
//! It starts the real server binary as a child process on a free loopback port with a fresh
//! database, then plays many games at once between two people, each taking random legal
//! actions over HTTP (one keep-alive connection per game), and reports games/s, actions/s and
//! the action latency. Then it does it again on another fresh database and kills the server
//! (SIGKILL) once `--kill-after` actions have been acknowledged, restarts it on the same
//! database, and checks that every acknowledged action is in the restarted server's games at
//! its index. Errors (any answer but 200/201 before the kill) and lost actions must be 0; the
//! exit status says whether they are.
//!
//! With `--flooders N`, N more clients load the server's computer players during the
//! throughput phase, each without pause: it watches a game between two `mcts(time=500)`
//! players (reading it every 100 ms, so that it keeps going) and asks for `mcts(time=500)`
//! hints in a game of its own, one after another, waiting 50 ms after a refusal. The people's
//! action latency is then measured under that load.
//!
//! With `--think-ms MS`, each player waits MS milliseconds before each action, as a person
//! would; without it the players act back to back, and the latency is mostly the queue of
//! `--concurrency` players waiting for the server.
//!
//! With `--reply-games N`, it measures instead what a person playing the computer waits for:
//! N games of `--ruleset` (default `tab`), one at a time, of a person taking random legal
//! actions against the game's default computer player (a `null` seat, the server's choice, as
//! the page's default opponent), the person first in every other game. A wait runs from the
//! person's action that hands the turn to the computer (or the game's creation, when the
//! computer begins) until a reading of the game, every 5 ms, finds the person to act again or
//! the game over, if the computer acted in between: the computer's whole turn, its throws
//! included, as the server answers it (the page's pacing of the steps it shows is not
//! counted). Waits p50, p90 and the longest, and the computer's actions a turn.
//!
//! It also reports the size of the answers: of each answer to an action, and of each game's
//! view (`GET /api/games/{id}`, read once, untimed, when the player leaves the game).
//!
//! A player reads only the fields it uses from each answer (the index, the turn and the legal
//! actions' notation), skipping the rest rather than building a tree of JSON values, so that
//! the load generator spends little of the CPU it shares with the server.

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpStream;

/// The command line.
#[derive(Clone, Debug)]
struct Options {
    games: usize,
    concurrency: usize,
    max_actions: usize,
    kill_after: usize,
    seed: u64,
    flooders: usize,
    think_ms: u64,
    reply_games: usize,
    ruleset: String,
    bin: PathBuf,
}

impl Options {
    fn parse() -> Result<Options> {
        let mut o = Options {
            games: 320,
            concurrency: 64,
            max_actions: 300,
            kill_after: 3000,
            seed: 1,
            flooders: 0,
            think_ms: 0,
            reply_games: 0,
            ruleset: "tab".into(),
            bin: PathBuf::from("target/release/qasab"),
        };
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let value = args.next().ok_or_else(|| anyhow!("{flag} needs a value"))?;
            let number = || {
                value
                    .parse::<usize>()
                    .with_context(|| format!("{flag} {value}"))
            };
            match flag.as_str() {
                "--games" => o.games = number()?,
                "--concurrency" => o.concurrency = number()?.max(1),
                "--max-actions" => o.max_actions = number()?.max(1),
                "--kill-after" => o.kill_after = number()?,
                "--seed" => o.seed = number()? as u64,
                "--flooders" => o.flooders = number()?,
                "--think-ms" => o.think_ms = number()? as u64,
                "--reply-games" => o.reply_games = number()?,
                "--ruleset" => o.ruleset = value,
                "--bin" => o.bin = PathBuf::from(&value),
                _ => bail!(
                    "unknown option {flag}; options: --games --concurrency --max-actions \
                     --kill-after --seed --flooders --think-ms --reply-games --ruleset --bin"
                ),
            }
        }
        Ok(o)
    }
}

/// A small generator for the random choices (splitmix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// The server as a child process.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    /// Starts `bin serve` on a free loopback port and waits until it answers.
    async fn start(bin: &Path, db: &Path) -> Result<Server> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let child = Command::new(bin)
            .arg("serve")
            .arg("--addr")
            .arg(addr.to_string())
            .arg("--db")
            .arg(db)
            .args(["--games-per-minute", "1000000"])
            .args(["--hints-per-minute", "1000000"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .with_context(|| {
                format!(
                    "cannot start {}; build it with cargo build --release -p qasab-cli",
                    bin.display()
                )
            })?;
        let mut server = Server { child, addr };
        for _ in 0..600 {
            if let Ok(mut c) = Client::connect(addr).await
                && let Ok((200, _)) = c.call("GET", "/api/rulesets", None, None).await
            {
                return Ok(server);
            }
            if let Some(status) = server.child.try_wait()? {
                bail!("the server exited: {status}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        bail!("the server did not answer within 30 s")
    }

    /// SIGKILL, as a crash would.
    fn kill(mut self) -> Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

/// One keep-alive HTTP/1.1 connection.
struct Client {
    addr: SocketAddr,
    sender: SendRequest<Full<Bytes>>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Result<Client> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, conn) = http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(Client { addr, sender })
    }

    /// A request; its status and JSON answer.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value)> {
        let (status, answer, _) = self.call_sized(method, path, token, body).await?;
        Ok((status, answer))
    }

    /// A request; its status, JSON answer and the answer's size in bytes.
    async fn call_sized(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value, usize)> {
        let (status, bytes) = self.call_bytes(method, path, token, body).await?;
        Ok((
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            bytes.len(),
        ))
    }

    /// Plays `action` at `index` in game `id` with a seat's `token`; the answer's bytes.
    async fn act(&mut self, id: &str, token: &str, action: &str, index: usize) -> Result<Bytes> {
        let (status, next) = self
            .call_bytes(
                "POST",
                &format!("/api/games/{id}/actions"),
                Some(token),
                Some(&json!({"action": action, "index": index})),
            )
            .await?;
        if status != 200 {
            bail!(
                "game {id}: action {action} at {index}: {status} {}",
                String::from_utf8_lossy(&next)
            );
        }
        Ok(next)
    }

    /// A request; its status and the answer's bytes.
    async fn call_bytes(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Bytes)> {
        let mut req = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string());
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let body = match body {
            Some(b) => {
                req = req.header("content-type", "application/json");
                Full::new(Bytes::from(b.to_string()))
            }
            None => Full::new(Bytes::new()),
        };
        self.sender.ready().await?;
        let res = self.sender.send_request(req.body(body)?).await?;
        let status = res.status().as_u16();
        let bytes = res.into_body().collect().await?.to_bytes();
        Ok((status, bytes))
    }
}

/// The part of a game's state that a player reads: the rest of the answer is skipped, not
/// built as a tree of JSON values, so that the load generator spends little of the CPU it
/// shares with the server.
#[derive(Deserialize)]
struct Brief {
    index: usize,
    turn: TurnBrief,
    legal: Vec<LegalBrief>,
}

#[derive(Deserialize)]
struct TurnBrief {
    kind: String,
    #[serde(default)]
    seat: Option<String>,
}

#[derive(Deserialize)]
struct LegalBrief {
    action: String,
}

/// What the players of one run did.
#[derive(Default)]
struct Tally {
    /// Games played to their end, and games left at the action cap.
    finished: usize,
    capped: usize,
    /// Acknowledged actions by game: (index, action).
    acked: HashMap<String, Vec<(usize, String)>>,
    latencies: Vec<Duration>,
    /// The size of each answer to an action, in bytes.
    answer_bytes: Vec<usize>,
    /// The size of each game's view (`GET /api/games/{id}`) read once at its end (or at the
    /// action cap), in bytes; not timed.
    view_bytes: Vec<usize>,
    /// Unexpected answers or failures while the server was meant to be up.
    errors: Vec<String>,
}

/// Shared state of a run.
struct Run {
    addr: SocketAddr,
    rulesets: Vec<String>,
    options: Options,
    next_game: AtomicUsize,
    acked: AtomicUsize,
    /// Set when the server is about to be killed: failures from then on are expected.
    killing: AtomicBool,
}

/// Plays one game between two people with random legal actions, up to the action cap.
async fn play_game(run: &Run, n: usize, tally: &mut Tally) -> Result<()> {
    let mut rng = Rng(run.options.seed ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let ruleset = &run.rulesets[n % run.rulesets.len()];
    let mut client = Client::connect(run.addr).await?;
    let (status, created) = client
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"ruleset": ruleset, "seats": ["human", "human"]})),
        )
        .await?;
    if status != 201 {
        bail!("creating {ruleset}: {status} {created}");
    }
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let tokens: HashMap<String, String> = created["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| Some((s["seat"].as_str()?.into(), s["token"].as_str()?.into())))
        .collect();
    let mut state: Brief = serde_json::from_value(created["state"].clone())
        .with_context(|| format!("game {id}: reading its state"))?;
    let mut played = 0;
    loop {
        let over = state.turn.kind == "over";
        if over || played == run.options.max_actions {
            if over {
                tally.finished += 1;
            } else {
                tally.capped += 1;
            }
            let (status, _, size) = client
                .call_sized("GET", &format!("/api/games/{id}"), None, None)
                .await?;
            if status != 200 {
                bail!("game {id}: reading its view: {status}");
            }
            tally.view_bytes.push(size);
            return Ok(());
        }
        let seat = state.turn.seat.as_deref().unwrap_or_default();
        let token = tokens
            .get(seat)
            .ok_or_else(|| anyhow!("game {id}: no token for the seat to move ({seat})"))?;
        if state.legal.is_empty() {
            bail!("game {id}: no legal action at {}", state.index);
        }
        let choice = rng.below(state.legal.len());
        let action = std::mem::take(&mut state.legal[choice].action);
        let index = state.index;
        if run.options.think_ms > 0 {
            tokio::time::sleep(Duration::from_millis(run.options.think_ms)).await;
        }
        let started = Instant::now();
        let next = client.act(&id, token, &action, index).await?;
        let parsed: Brief = serde_json::from_slice(&next)
            .with_context(|| format!("game {id}: the answer to action {action} at {index}"))?;
        // As before: from sending the action to having read its answer.
        tally.latencies.push(started.elapsed());
        tally.answer_bytes.push(next.len());
        tally
            .acked
            .entry(id.clone())
            .or_default()
            .push((index, action));
        run.acked.fetch_add(1, Ordering::Relaxed);
        played += 1;
        state = parsed;
    }
}

/// Runs the games with `concurrency` players at once until all are played (or the server
/// is killed); merges what every player saw.
async fn play_all(run: Arc<Run>) -> Tally {
    let mut tasks = Vec::new();
    for _ in 0..run.options.concurrency {
        let run = run.clone();
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            loop {
                let n = run.next_game.fetch_add(1, Ordering::Relaxed);
                if n >= run.options.games {
                    break;
                }
                if let Err(e) = play_game(&run, n, &mut tally).await {
                    if run.killing.load(Ordering::Relaxed) {
                        break;
                    }
                    tally.errors.push(format!("{e:#}"));
                }
            }
            tally
        }));
    }
    let mut all = Tally::default();
    for t in tasks {
        match t.await {
            Ok(t) => {
                all.finished += t.finished;
                all.capped += t.capped;
                all.acked.extend(t.acked);
                all.latencies.extend(t.latencies);
                all.answer_bytes.extend(t.answer_bytes);
                all.view_bytes.extend(t.view_bytes);
                all.errors.extend(t.errors);
            }
            Err(e) => all.errors.push(format!("a player panicked: {e}")),
        }
    }
    all
}

/// What the flooders got: hints answered, hints refused (503), other answers.
#[derive(Default)]
struct Flood {
    answered: AtomicUsize,
    refused: AtomicUsize,
    other: AtomicUsize,
}

/// One flooding client, until `stop`: it watches a game between two computer players and
/// asks for hints without pause.
async fn flood(addr: SocketAddr, stop: Arc<AtomicBool>, flood: Arc<Flood>) -> Result<()> {
    let mut client = Client::connect(addr).await?;
    let thinker = "mcts(time=500)";
    let (status, watched) = client
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"ruleset": "tab", "seats": [thinker, thinker]})),
        )
        .await?;
    if status != 201 {
        bail!("creating a game between computers: {status} {watched}");
    }
    let (status, hinted) = client
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"ruleset": "tab", "seats": ["human", "human"], "hints": true})),
        )
        .await?;
    if status != 201 {
        bail!("creating a game with hints: {status} {hinted}");
    }
    let watched = format!("/api/games/{}", watched["id"].as_str().unwrap_or_default());
    let hint = format!(
        "/api/games/{}/hint",
        hinted["id"].as_str().unwrap_or_default()
    );
    let body = json!({"index": hinted["state"]["index"], "agent": thinker});
    let mut watcher = Client::connect(addr).await?;
    let watching = {
        let stop = stop.clone();
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let _ = watcher.call("GET", &watched, None, None).await;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    while !stop.load(Ordering::Relaxed) {
        let (status, _) = client.call("POST", &hint, None, Some(&body)).await?;
        match status {
            200 => flood.answered.fetch_add(1, Ordering::Relaxed),
            503 => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                flood.refused.fetch_add(1, Ordering::Relaxed)
            }
            _ => flood.other.fetch_add(1, Ordering::Relaxed),
        };
    }
    let _ = watching.await;
    Ok(())
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// The mean of sizes in bytes, in KB (1,000 bytes).
fn mean_kb(sizes: &[usize]) -> f64 {
    if sizes.is_empty() {
        return 0.0;
    }
    sizes.iter().sum::<usize>() as f64 / sizes.len() as f64 / 1000.0
}

/// The `p` quantile of sizes in bytes (nearest rank), in KB.
fn quantile_kb(sizes: &mut [usize], p: f64) -> f64 {
    if sizes.is_empty() {
        return 0.0;
    }
    sizes.sort_unstable();
    let i = ((sizes.len() - 1) as f64 * p).round() as usize;
    sizes[i] as f64 / 1000.0
}

async fn rulesets(addr: SocketAddr) -> Result<Vec<String>> {
    let (_, list) = Client::connect(addr)
        .await?
        .call("GET", "/api/rulesets", None, None)
        .await?;
    Ok(list
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["name"].as_str().map(str::to_string))
        .collect())
}

/// The throughput phase; returns the number of errors.
async fn throughput(options: &Options, dir: &Path) -> Result<usize> {
    let server = Server::start(&options.bin, &dir.join("load.db")).await?;
    let run = Arc::new(Run {
        addr: server.addr,
        rulesets: rulesets(server.addr).await?,
        options: options.clone(),
        next_game: AtomicUsize::new(0),
        acked: AtomicUsize::new(0),
        killing: AtomicBool::new(false),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let flooded = Arc::new(Flood::default());
    let flooders: Vec<_> = (0..options.flooders)
        .map(|_| tokio::spawn(flood(server.addr, stop.clone(), flooded.clone())))
        .collect();
    if options.flooders > 0 {
        // Let the flood reach its full strength first.
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let started = Instant::now();
    let mut tally = play_all(run.clone()).await;
    let seconds = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    for f in flooders {
        if let Ok(Err(e)) = f.await {
            tally.errors.push(format!("a flooder: {e:#}"));
        }
    }
    server.kill()?;
    tally.latencies.sort();
    let actions = tally.latencies.len();
    let games = tally.finished + tally.capped;
    println!(
        "throughput: {} rulesets ({}), {} games ({} to the end, {} stopped at {} actions), \
         {} at a time",
        run.rulesets.len(),
        run.rulesets.join(", "),
        games,
        tally.finished,
        tally.capped,
        options.max_actions,
        options.concurrency
    );
    println!(
        "  {seconds:.1} s: {:.1} games/s, {:.0} actions/s ({actions} actions); action latency \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; errors {}",
        games as f64 / seconds,
        actions as f64 / seconds,
        percentile(&tally.latencies, 0.5),
        percentile(&tally.latencies, 0.99),
        percentile(&tally.latencies, 1.0),
        tally.errors.len()
    );
    println!(
        "  answer sizes: an action's mean {:.1} KB (p50 {:.1} KB, p99 {:.1} KB); a game's view \
         at its end mean {:.1} KB (p50 {:.1} KB)",
        mean_kb(&tally.answer_bytes),
        quantile_kb(&mut tally.answer_bytes, 0.5),
        quantile_kb(&mut tally.answer_bytes, 0.99),
        mean_kb(&tally.view_bytes),
        quantile_kb(&mut tally.view_bytes, 0.5),
    );
    if options.flooders > 0 {
        println!(
            "  under {} flooders: {} hints answered, {} refused (503), {} other answers",
            options.flooders,
            flooded.answered.load(Ordering::Relaxed),
            flooded.refused.load(Ordering::Relaxed),
            flooded.other.load(Ordering::Relaxed)
        );
    }
    for e in tally.errors.iter().take(5) {
        println!("  error: {e}");
    }
    Ok(tally.errors.len())
}

/// The crash phase; returns the number of errors and of lost actions.
async fn crash(options: &Options, dir: &Path) -> Result<(usize, usize)> {
    let db = dir.join("crash.db");
    let server = Server::start(&options.bin, &db).await?;
    let run = Arc::new(Run {
        addr: server.addr,
        rulesets: rulesets(server.addr).await?,
        options: Options {
            // Enough games that the load is still running at the kill.
            games: usize::MAX,
            ..options.clone()
        },
        next_game: AtomicUsize::new(0),
        acked: AtomicUsize::new(0),
        killing: AtomicBool::new(false),
    });
    let players = tokio::spawn(play_all(run.clone()));
    while run.acked.load(Ordering::Relaxed) < options.kill_after {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    run.killing.store(true, Ordering::Relaxed);
    server.kill()?;
    let tally = players.await?;
    let acked: usize = tally.acked.values().map(Vec::len).sum();

    let restarted = Server::start(&options.bin, &db).await?;
    let mut client = Client::connect(restarted.addr).await?;
    let mut lost = 0;
    let mut errors = tally.errors.clone();
    for (id, actions) in &tally.acked {
        let (status, game) = client
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await?;
        if status != 200 {
            errors.push(format!("game {id} after the restart: {status} {game}"));
            lost += actions.len();
            continue;
        }
        // A view lists only the last actions: every one is read in pages.
        let mut stored: Vec<Value> = Vec::new();
        loop {
            let (status, page) = client
                .call(
                    "GET",
                    &format!("/api/games/{id}/actions?from={}", stored.len()),
                    None,
                    None,
                )
                .await?;
            let more = page["actions"].as_array().cloned().unwrap_or_default();
            if status != 200 || more.is_empty() {
                break;
            }
            stored.extend(more);
        }
        for (index, action) in actions {
            if stored.get(*index).and_then(|a| a["action"].as_str()) != Some(action.as_str()) {
                lost += 1;
            }
        }
    }
    restarted.kill()?;
    println!(
        "crash: SIGKILL after {acked} acknowledged actions in {} games ({} at a time); \
         restarted on the same database: lost actions {lost}, errors {}",
        tally.acked.len(),
        options.concurrency,
        errors.len()
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
    Ok((errors.len(), lost))
}

/// What a person's games against the computer gave (`--reply-games`).
#[derive(Default)]
struct Replies {
    /// Each wait for the computer's turn.
    waits: Vec<Duration>,
    /// The computer's actions in each of those turns.
    actions: Vec<usize>,
    finished: usize,
    capped: usize,
    /// The computer's player, as the server names it.
    computer: String,
}

/// How often a person's client reads the game while the computer thinks.
const POLL: Duration = Duration::from_millis(5);

/// What a person's client reads of the game: as [`Brief`], with the seat of each action it
/// lists (the answer to an action lists the actions from that one on, the computer's reply
/// included; a view lists the last hundred).
#[derive(Deserialize)]
struct Seen {
    index: usize,
    turn: TurnBrief,
    legal: Vec<LegalBrief>,
    actions: Vec<SeenAction>,
}

#[derive(Deserialize)]
struct SeenAction {
    index: usize,
    seat: String,
}

/// One game of a person with random legal actions against the game's default computer
/// player, the person first if `g` is even.
async fn reply_game(addr: SocketAddr, options: &Options, g: usize, r: &mut Replies) -> Result<()> {
    let mut rng = Rng(options.seed ^ (g as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut client = Client::connect(addr).await?;
    let seats = if g.is_multiple_of(2) {
        json!(["human", null])
    } else {
        json!([null, "human"])
    };
    // The wait under way: since when, and from which action on the computer's are counted.
    let mut waiting = Some((Instant::now(), 0));
    let (status, created) = client
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"ruleset": options.ruleset, "seats": seats})),
        )
        .await?;
    if status != 201 {
        bail!("creating {}: {status} {created}", options.ruleset);
    }
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let seats = created["seats"].as_array().cloned().unwrap_or_default();
    let (seat, token) = seats
        .iter()
        .find_map(|s| {
            Some((
                s["seat"].as_str()?.to_string(),
                s["token"].as_str()?.to_string(),
            ))
        })
        .ok_or_else(|| anyhow!("game {id}: no person's seat"))?;
    if let Some(c) = seats.iter().find(|s| s["token"].is_null()) {
        r.computer = c["player"].as_str().unwrap_or_default().to_string();
    }
    let path = format!("/api/games/{id}");
    let mut state: Seen = serde_json::from_value(created["state"].clone())
        .with_context(|| format!("game {id}: reading its state"))?;
    let mut played = 0;
    loop {
        let over = state.turn.kind == "over";
        let mine = state.turn.seat.as_deref() == Some(seat.as_str());
        if (over || mine)
            && let Some((since, from)) = waiting.take()
        {
            let theirs = state
                .actions
                .iter()
                .filter(|a| a.index >= from && a.seat != seat)
                .count();
            if theirs > 0 {
                r.waits.push(since.elapsed());
                r.actions.push(theirs);
            }
        }
        if over {
            r.finished += 1;
            return Ok(());
        }
        if !mine {
            // The computer's turn is not over yet: read the game again shortly.
            tokio::time::sleep(POLL).await;
            let (status, bytes) = client.call_bytes("GET", &path, None, None).await?;
            if status != 200 {
                bail!("game {id}: reading it: {status}");
            }
            state = serde_json::from_slice(&bytes)
                .with_context(|| format!("game {id}: reading its view"))?;
            continue;
        }
        if played == options.max_actions {
            r.capped += 1;
            return Ok(());
        }
        if state.legal.is_empty() {
            bail!("game {id}: no legal action at {}", state.index);
        }
        let choice = rng.below(state.legal.len());
        let action = std::mem::take(&mut state.legal[choice].action);
        let index = state.index;
        waiting = Some((Instant::now(), index + 1));
        let next = client.act(&id, &token, &action, index).await?;
        state = serde_json::from_slice(&next)
            .with_context(|| format!("game {id}: the answer to action {action}"))?;
        played += 1;
    }
}

/// The reply phase (`--reply-games`); returns the number of errors.
async fn replies(options: &Options, dir: &Path) -> Result<usize> {
    let server = Server::start(&options.bin, &dir.join("reply.db")).await?;
    let mut r = Replies::default();
    let mut errors = Vec::new();
    for g in 0..options.reply_games {
        if let Err(e) = reply_game(server.addr, options, g, &mut r).await {
            errors.push(format!("{e:#}"));
        }
    }
    server.kill()?;
    r.waits.sort();
    let mean_actions = r.actions.iter().sum::<usize>() as f64 / r.actions.len().max(1) as f64;
    println!(
        "replies: {} games of {} against {} ({} to the end, {} stopped at {} of the person's \
         actions), one at a time",
        r.finished + r.capped,
        options.ruleset,
        r.computer,
        r.finished,
        r.capped,
        options.max_actions
    );
    println!(
        "  {} waits for the computer's turn: p50 {:.0} ms, p90 {:.0} ms, longest {:.0} ms; \
         {mean_actions:.1} actions of the computer a turn; errors {}",
        r.waits.len(),
        percentile(&r.waits, 0.5),
        percentile(&r.waits, 0.9),
        percentile(&r.waits, 1.0),
        errors.len()
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
    Ok(errors.len())
}

#[tokio::main]
async fn main() -> Result<ExitCode> {
    let options = Options::parse()?;
    let dir = tempfile::tempdir()?;
    if options.reply_games > 0 {
        let errors = replies(&options, dir.path()).await?;
        return Ok(if errors == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let errors = throughput(&options, dir.path()).await?;
    let (crash_errors, lost) = crash(&options, dir.path()).await?;
    Ok(if errors + crash_errors + lost == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
