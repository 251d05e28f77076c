//! Memory stays flat however many games are created: only active games are kept in memory.
//! (A file of its own, so that no other test shares the process whose memory is measured.)

mod common;

use std::sync::Arc;

use common::*;
use qasab_server::Config;
use serde_json::json;

/// The resident memory of this process, in KiB (Linux; elsewhere `None`).
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Creates `n` games, 100 at a time.
async fn create_games(s: &Arc<Server>, n: usize) {
    for _ in 0..n / 100 {
        let mut batch = tokio::task::JoinSet::new();
        for _ in 0..100 {
            let s = s.clone();
            batch.spawn(async move {
                s.create_with(json!({"ruleset": "tab", "seats": ["human", "human"]}))
                    .await
            });
        }
        while let Some(done) = batch.join_next().await {
            done.unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_stays_flat_over_20000_games() {
    let s = Arc::new(Server::with(Config {
        games_per_minute: u32::MAX,
        games_in_memory: 500,
        ..Config::default()
    }));
    create_games(&s, 5_000).await;
    let warm = resident_kib();
    create_games(&s, 15_000).await;
    let after = resident_kib();
    assert!(s.state.game_count() <= 500, "{}", s.state.game_count());
    if let (Some(warm), Some(after)) = (warm, after) {
        // Kept in memory, the last 15,000 games would take about 100 MiB.
        let grown = after.saturating_sub(warm);
        eprintln!("resident memory: {warm} KiB after 5,000 games, {after} KiB after 20,000");
        assert!(
            grown < 16 * 1024,
            "resident memory grew by {grown} KiB over 15,000 games"
        );
    }
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    let stored: i64 = conn
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, 20_000);
}
