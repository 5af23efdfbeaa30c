//! Crash test: the real binary is SIGKILLed at random points while clients push, then
//! restarted on the same data directory. Every acknowledged write must survive and no
//! mutation may take effect twice. Seeded: set CRASH_SEED to replay a run.

use crate::common;

use std::{
    path::Path,
    process::Child,
    sync::{Arc, Mutex},
    time::Duration,
};

use common::binary::free_port;

use rand::{Rng, SeedableRng, rngs::StdRng};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

const CLIENTS: usize = 4;
const PUSHES_PER_CLIENT: usize = 40;
const KILLS: usize = 6;

fn start_server(data_dir: &Path, port: u16) -> Child {
    common::binary::start_binary(
        data_dir,
        port,
        &[("AUTH_RATE_LIMIT_PER_MINUTE", "100000")],
        None,
    )
}

/// What one client intends, push by push. Each client owns its entries and never touches a
/// deleted one, so every mutation changes state exactly once: the user's final change
/// sequence must equal the number of mutations.
fn plan(rng: &mut StdRng) -> (Vec<Vec<Value>>, usize) {
    let mut live: Vec<String> = Vec::new();
    let mut pushes = Vec::new();
    let mut mutations = 0;
    for push in 0..PUSHES_PER_CLIENT {
        let size = if rng.gen_bool(0.5) {
            1
        } else {
            rng.gen_range(2..=10)
        };
        let mut batch = Vec::new();
        for i in 0..size {
            let roll: f64 = rng.r#gen();
            let mutation_id = Uuid::new_v4().to_string();
            if roll < 0.15 && !live.is_empty() {
                let entry = live.swap_remove(rng.gen_range(0..live.len()));
                batch.push(
                    json!({"id": mutation_id, "name": "entry.delete", "args": {"id": entry}}),
                );
            } else {
                let entry = if roll < 0.45 && !live.is_empty() {
                    live[rng.gen_range(0..live.len())].clone()
                } else {
                    let id = Uuid::now_v7().to_string();
                    live.push(id.clone());
                    id
                };
                let stops: i64 = rng.gen_range(0..=200);
                batch.push(json!({"id": mutation_id, "name": "entry.put", "args": {
                    "id": entry, "date": "2025-03-21", "stops": stops, "extra": 0,
                    "notes": format!("push {push} item {i}"), "total": stops * 198}}));
            }
            mutations += 1;
        }
        pushes.push(batch);
    }
    (pushes, mutations)
}

/// Expected final state per entry: None = deleted, Some(args) = last put.
fn expected_state(pushes: &[Vec<Value>]) -> std::collections::HashMap<String, Option<Value>> {
    let mut state = std::collections::HashMap::new();
    for mutation in pushes.iter().flatten() {
        let id = mutation["args"]["id"].as_str().unwrap().to_owned();
        if mutation["name"] == "entry.delete" {
            state.insert(id, None);
        } else {
            state.insert(id, Some(mutation["args"].clone()));
        }
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_writes_survive_sigkill_exactly_once() {
    let seed: u64 = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().r#gen());
    println!("crash test seed {seed} (CRASH_SEED={seed} to replay)");
    let mut rng = StdRng::seed_from_u64(seed);

    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let server = Arc::new(Mutex::new(start_server(dir.path(), port)));
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();

    let cookie = common::binary::guest_cookie(&http, &base).await;

    let plans: Vec<(Vec<Vec<Value>>, usize)> = (0..CLIENTS).map(|_| plan(&mut rng)).collect();
    let total_mutations: usize = plans.iter().map(|p| p.1).sum();
    let kill_delays: Vec<u64> = (0..KILLS).map(|_| rng.gen_range(10..120)).collect();

    // Clients: push in order; on any failure retry the same push (same mutation ids).
    let acked = Arc::new(Mutex::new(0usize));
    let mut clients = Vec::new();
    for (client, (pushes, _)) in plans.iter().cloned().enumerate() {
        let (http, base, cookie, acked) =
            (http.clone(), base.clone(), cookie.clone(), acked.clone());
        clients.push(tokio::spawn(async move {
            for batch in pushes {
                loop {
                    let sent = http
                        .post(format!("{base}/api/v1/sync/push"))
                        .header("cookie", &cookie)
                        .json(&json!({"clientId": format!("client-{client}"), "mutations": batch}))
                        .send()
                        .await;
                    // Any failure (refused connection, reset, a body cut off by the kill)
                    // means "not acknowledged": retry the same push.
                    if let Ok(response) = sent
                        && response.status() == StatusCode::OK
                        && let Ok(body) = response.json::<Value>().await
                    {
                        let results = body["results"].as_array().unwrap();
                        assert_eq!(results.len(), batch.len());
                        assert!(results.iter().all(|r| r["status"] == "applied"), "{body}");
                        *acked.lock().unwrap() += batch.len();
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }));
    }

    // The killer: SIGKILL at random moments, restart on the same data.
    let mut kills_done = 0;
    for delay in kill_delays {
        tokio::time::sleep(Duration::from_millis(delay)).await;
        if clients.iter().all(tokio::task::JoinHandle::is_finished) {
            break;
        }
        let data_dir = dir.path().to_owned();
        let server = server.clone();
        tokio::task::spawn_blocking(move || {
            let mut child = server.lock().unwrap();
            child.kill().unwrap(); // SIGKILL: no graceful shutdown, no flush
            child.wait().unwrap();
            *child = start_server(&data_dir, port);
        })
        .await
        .unwrap();
        kills_done += 1;
    }
    for client in clients {
        tokio::time::timeout(Duration::from_secs(120), client)
            .await
            .expect("clients finish")
            .unwrap();
    }
    println!("killed the server {kills_done} times during {total_mutations} mutations");
    assert!(kills_done > 0, "the server was never killed mid-run");
    assert_eq!(*acked.lock().unwrap(), total_mutations);

    // Read back everything the user has, after the starter records every account begins with.
    let starters = domain::defaults::STARTER_RECORDS;
    let mut changes = Vec::new();
    let mut cursor = starters;
    loop {
        let page: Value = http
            .get(format!(
                "{base}/api/v1/sync/pull?cursor={cursor}&limit=1000"
            ))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        changes.extend(page["changes"].as_array().unwrap().iter().cloned());
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    // Exactly once: one state change per mutation, no more (a re-applied replay) and no
    // fewer (a lost acknowledged write).
    assert_eq!(
        usize::try_from(cursor - starters).unwrap(),
        total_mutations,
        "seed {seed}: change count differs from mutations"
    );

    let mut expected = std::collections::HashMap::new();
    for (pushes, _) in &plans {
        expected.extend(expected_state(pushes));
    }
    assert_eq!(
        changes.len(),
        expected.len(),
        "seed {seed}: one record per entry, no duplicates"
    );
    for change in &changes {
        let id = change["id"].as_str().unwrap();
        match expected
            .get(id)
            .unwrap_or_else(|| panic!("seed {seed}: unknown record {id}"))
        {
            None => assert_eq!(
                change["deleted"], true,
                "seed {seed}: {id} should be deleted"
            ),
            Some(args) => {
                assert_eq!(change["deleted"], false, "seed {seed}: {id} should be live");
                for field in ["stops", "notes", "total"] {
                    assert_eq!(
                        change["data"][field], args[field],
                        "seed {seed}: {id} {field}"
                    );
                }
            }
        }
    }
    server.lock().unwrap().kill().ok();
}
