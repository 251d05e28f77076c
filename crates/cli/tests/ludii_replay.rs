//! `qasab ludii-replay` on Ludii's sample traces (Tab on 7, 9 and 13 columns, At-Tab on 13):
//! every decision must match, and bad input must give a one-line error.

use std::io::Write as _;
use std::path::PathBuf;

mod common;

use common::qasab;

fn trace(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ludii-traces")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ludii-replay-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Gzip-compresses `text` into a temporary trace file.
fn gz(name: &str, text: &str) -> String {
    let path = temp(name);
    let mut e = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap();
    path.to_string_lossy().into_owned()
}

fn fails(args: &[&str], message: &str) {
    let o = qasab(args);
    assert_eq!(o.code, 1, "qasab {args:?} should fail: {}", o.stdout);
    assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
    assert!(
        o.stderr.contains(message),
        "expected '{message}' in: {}",
        o.stderr
    );
    assert_eq!(o.stderr.lines().count(), 1, "one line: {}", o.stderr);
}

#[test]
fn every_sample_trace_replays_with_no_mismatch() {
    for (file, ruleset, games, decisions) in [
        ("tab-7-sample.jsonl.gz", "tab-ludii", 30, 1985),
        ("tab-9-sample.jsonl.gz", "tab-ludii(columns=9)", 30, 3120),
        ("tab-13-sample.jsonl.gz", "tab-ludii(columns=13)", 30, 4992),
        ("at-tab-13-sample.jsonl.gz", "tab-hyde-ludii", 30, 8956),
    ] {
        let o = qasab(&["ludii-replay", &trace(file), "--json"]);
        assert_eq!(o.code, 0, "{file}: {}{}", o.stdout, o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v["ruleset"], ruleset, "{file}");
        assert_eq!(v["games"], games, "{file}");
        assert_eq!(v["decisions"], decisions, "{file}");
        assert_eq!(v["mismatches"], 0, "{file}: {}", v["first_mismatches"]);
        assert_eq!(v["first_mismatches"], serde_json::json!([]));
    }
    let text = qasab(&["ludii-replay", &trace("tab-7-sample.jsonl.gz")]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout
            .contains("30 games, 1985 decisions, 0 mismatches"),
        "{}",
        text.stdout
    );
}

/// The first lines of a real trace: the header, game 0's line and its first step.
fn head(lines: usize) -> Vec<String> {
    let f = std::fs::File::open(trace("tab-7-sample.jsonl.gz")).unwrap();
    use std::io::BufRead as _;
    std::io::BufReader::new(flate2::read::GzDecoder::new(f))
        .lines()
        .take(lines)
        .map(Result::unwrap)
        .collect()
}

#[test]
fn a_changed_decision_is_reported_and_fails_the_run() {
    // Game 0 of the 7-column sample, with the first step's throw changed from 3 to 1: Ludii's
    // pass is still legal, but White then throws again where Ludii hands the turn to Black.
    let mut lines = Vec::new();
    let f = std::fs::File::open(trace("tab-7-sample.jsonl.gz")).unwrap();
    use std::io::BufRead as _;
    for line in std::io::BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
        let line = line.unwrap();
        let end = line.contains("\"type\":\"end\"");
        lines.push(line);
        if end {
            break;
        }
    }
    lines[2] = lines[2].replacen("\"throw\":3", "\"throw\":1", 1);
    let path = gz("changed.jsonl.gz", &(lines.join("\n") + "\n"));
    let o = qasab(&["ludii-replay", &path, "--json"]);
    assert_eq!(o.code, 1);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["games"], 1);
    assert!(v["mismatches"].as_u64().unwrap() >= 1);
    let first = &v["first_mismatches"][0];
    assert_eq!(
        (first["game"].as_u64(), first["step"].as_u64()),
        (Some(0), Some(1))
    );
    assert!(
        first["description"].as_str().unwrap().contains("mover"),
        "{first}"
    );
    assert!(v["first_mismatches"].as_array().unwrap().len() <= 20);
    assert!(o.stderr.starts_with("error: ") && o.stderr.contains("mismatches with Ludii"));
    assert_eq!(o.stderr.lines().count(), 1);
}

#[test]
fn bad_input_gets_a_one_line_error() {
    fails(
        &["ludii-replay", "/nonexistent/trace.jsonl.gz"],
        "cannot read /nonexistent/trace.jsonl.gz",
    );
    let plain = temp("plain.jsonl");
    std::fs::write(&plain, "{\"type\":\"header\"}\n").unwrap();
    fails(
        &["ludii-replay", plain.to_str().unwrap()],
        "is not a gzip file",
    );
    let h = head(3);
    fails(
        &[
            "ludii-replay",
            &gz("json.jsonl.gz", &format!("{}\n{{oops\n", h[0])),
        ],
        "line 2: bad trace line",
    );
    fails(
        &[
            "ludii-replay",
            &gz("nohead.jsonl.gz", &format!("{}\n", h[1])),
        ],
        "line 1: the trace must start with a header line",
    );
    let chess = h[0].replacen("\"game\":\"Tab\"", "\"game\":\"Chess\"", 1);
    fails(
        &["ludii-replay", &gz("chess.jsonl.gz", &format!("{chess}\n"))],
        "line 1: unknown game 'Chess'",
    );
    let board = h[0].replacen("\"cols\":7", "\"cols\":8", 1);
    fails(
        &["ludii-replay", &gz("cols.jsonl.gz", &format!("{board}\n"))],
        "valid column counts: 7, 9, 11, 13, 15",
    );
    fails(
        &[
            "ludii-replay",
            &gz("cut.jsonl.gz", &format!("{}\n{}\n{}\n", h[0], h[1], h[2])),
        ],
        "stops in the middle of game 0",
    );
    fails(
        &["ludii-replay", &gz("empty.jsonl.gz", "")],
        "the trace is empty",
    );
    let skipped = h[2].replacen("\"step\":0", "\"step\":5", 1);
    fails(
        &[
            "ludii-replay",
            &gz("skip.jsonl.gz", &format!("{}\n{}\n{skipped}\n", h[0], h[1])),
        ],
        "line 3: expected step 0 of game 0, found step 5",
    );
    let corrupt = temp("corrupt.jsonl.gz");
    let mut bytes = std::fs::read(trace("tab-7-sample.jsonl.gz")).unwrap();
    bytes.truncate(5000);
    std::fs::write(&corrupt, bytes).unwrap();
    let o = qasab(&["ludii-replay", corrupt.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.starts_with("error: ") && o.stderr.contains("line "),
        "{}",
        o.stderr
    );
    assert_eq!(o.stderr.lines().count(), 1);
}
