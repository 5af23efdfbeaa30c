//! Push throughput: `connections` clients, each its own user on its own keep-alive
//! connection, pushing back to back; counted over a fixed window after a short warm-up (so
//! connecting is not measured).

use std::{
    future::Future,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use crate::wire::Connection;

const WARMUP: Duration = Duration::from_millis(300);

/// Mutations per second to the server at `addr`. `push(wire, connection, sent)` sends one
/// push on `wire` for connection number `connection`, which has sent `sent` mutations so
/// far, and hands back the connection and how many it sent.
pub async fn push_rate<F, Fut>(
    addr: std::net::SocketAddr,
    connections: usize,
    run_for: Duration,
    push: F,
) -> f64
where
    F: Fn(Connection, usize, usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = (Connection, usize)> + Send + 'static,
{
    let push = Arc::new(push);
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> = (0..connections)
        .map(|connection| {
            let (push, done, stop) = (push.clone(), done.clone(), stop.clone());
            tokio::spawn(async move {
                let mut wire = Connection::new(addr);
                let mut sent = 0;
                while !stop.load(Ordering::Relaxed) {
                    let n;
                    (wire, n) = push(wire, connection, sent).await;
                    sent += n;
                    done.fetch_add(n as u64, Ordering::Relaxed);
                }
            })
        })
        .collect();
    tokio::time::sleep(WARMUP).await;
    let (before, started) = (done.load(Ordering::Relaxed), Instant::now());
    tokio::time::sleep(run_for).await;
    let (after, took) = (done.load(Ordering::Relaxed), started.elapsed());
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    (after - before) as f64 / took.as_secs_f64()
}
