//! Counters and gauges for `/metrics`, written out in the Prometheus text format by hand (a
//! few lines of text need no crate). [`Metrics`] is counted into by the access log, the sync
//! handlers and the event stream; [`endpoint`] serves it.

pub mod endpoint;

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicI64, AtomicU64, Ordering::Relaxed},
    },
};

use domain::sync::{MutationResult, MutationStatus};

use crate::store::StoreGauges;

/// Status classes counted per route: 1xx to 5xx.
const CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

#[derive(Default)]
pub struct Metrics {
    /// Requests by route template and status class. Route templates are finite (the router's,
    /// plus `fallback`), so the map is bounded.
    requests: Mutex<BTreeMap<String, [u64; CLASSES.len()]>>,
    sync_pushes: AtomicU64,
    sync_pulls: AtomicU64,
    mutations_applied: AtomicU64,
    mutations_rejected: AtomicU64,
    event_streams_open: AtomicI64,
}

impl Metrics {
    pub fn request(&self, route: &str, status: u16) {
        let Some(class) = (status / 100).checked_sub(1).map(usize::from) else {
            return;
        };
        if class >= CLASSES.len() {
            return;
        }
        let mut requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        match requests.get_mut(route) {
            Some(counts) => counts[class] += 1,
            None => {
                let mut counts = [0; CLASSES.len()];
                counts[class] = 1;
                requests.insert(route.to_owned(), counts);
            }
        }
    }

    /// One accepted push and the outcome of each of its mutations.
    pub fn pushed(&self, results: &[MutationResult]) {
        self.sync_pushes.fetch_add(1, Relaxed);
        let applied = results
            .iter()
            .filter(|r| r.status == MutationStatus::Applied)
            .count() as u64;
        self.mutations_applied.fetch_add(applied, Relaxed);
        self.mutations_rejected
            .fetch_add(results.len() as u64 - applied, Relaxed);
    }

    pub fn pulled(&self) {
        self.sync_pulls.fetch_add(1, Relaxed);
    }

    /// Counts an event stream as open until the guard is dropped (the stream ended or its
    /// client went away).
    pub fn stream_opened(self: &Arc<Self>) -> StreamGuard {
        self.event_streams_open.fetch_add(1, Relaxed);
        StreamGuard(self.clone())
    }

    /// The text exposition, version 0.0.4.
    pub fn render(&self, store: Option<StoreGauges>) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP http_requests_total HTTP requests answered, by route template and status class.\n\
             # TYPE http_requests_total counter\n",
        );
        {
            let requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
            for (route, counts) in requests.iter() {
                for (class, count) in CLASSES.iter().zip(counts) {
                    if *count > 0 {
                        let route = escape(route);
                        let _ = writeln!(
                            out,
                            "http_requests_total{{route=\"{route}\",status=\"{class}\"}} {count}"
                        );
                    }
                }
            }
        }
        let mut metric = |name: &str, kind: &str, help: &str, value: String| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        metric(
            "sync_pushes_total",
            "counter",
            "Sync pushes accepted.",
            self.sync_pushes.load(Relaxed).to_string(),
        );
        metric(
            "sync_pulls_total",
            "counter",
            "Sync pulls answered.",
            self.sync_pulls.load(Relaxed).to_string(),
        );
        metric(
            "event_streams_open",
            "gauge",
            "Event streams (server-sent events) open now.",
            self.event_streams_open.load(Relaxed).to_string(),
        );
        if let Some(store) = store {
            metric(
                "database_size_bytes",
                "gauge",
                "Size of the database.",
                store.database_size_bytes.to_string(),
            );
            metric(
                "mail_queue_pending",
                "gauge",
                "Contact e-mails waiting to be sent or retried.",
                store.mail_queue_pending.to_string(),
            );
            if let Some(writes) = store.write_commits {
                metric(
                    "sqlite_write_commits_total",
                    "counter",
                    "Commits (each one fsync) made by the SQLite writer.",
                    writes.commits.to_string(),
                );
                metric(
                    "sqlite_write_jobs_total",
                    "counter",
                    "Writes (a push is one) carried by those commits.",
                    writes.jobs.to_string(),
                );
            }
        }
        let _ = writeln!(
            out,
            "# HELP sync_mutations_total Pushed mutations by outcome.\n\
             # TYPE sync_mutations_total counter\n\
             sync_mutations_total{{outcome=\"applied\"}} {}\n\
             sync_mutations_total{{outcome=\"rejected\"}} {}",
            self.mutations_applied.load(Relaxed),
            self.mutations_rejected.load(Relaxed),
        );
        out
    }
}

/// Keeps one event stream counted in `event_streams_open`.
pub struct StreamGuard(Arc<Metrics>);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.event_streams_open.fetch_sub(1, Relaxed);
    }
}

/// A label value: backslash, quote and newline escaped (route templates have none today).
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_requests_by_route_and_class_and_streams_while_open() {
        let metrics = Arc::new(Metrics::default());
        metrics.request("/api/v1/sync/push", 200);
        metrics.request("/api/v1/sync/push", 201);
        metrics.request("/api/v1/sync/push", 422);
        metrics.request("fallback", 999); // not a status: not counted
        metrics.pushed(&[
            MutationResult::applied("a"),
            MutationResult::rejected("b", "validation", "bad"),
        ]);
        let guard = metrics.stream_opened();
        let text = metrics.render(None);
        assert!(
            text.contains("http_requests_total{route=\"/api/v1/sync/push\",status=\"2xx\"} 2\n")
        );
        assert!(
            text.contains("http_requests_total{route=\"/api/v1/sync/push\",status=\"4xx\"} 1\n")
        );
        assert!(!text.contains("fallback"), "{text}");
        assert!(text.contains("sync_pushes_total 1\n"));
        assert!(text.contains("sync_mutations_total{outcome=\"applied\"} 1\n"));
        assert!(text.contains("sync_mutations_total{outcome=\"rejected\"} 1\n"));
        assert!(text.contains("event_streams_open 1\n"));
        drop(guard);
        assert!(metrics.render(None).contains("event_streams_open 0\n"));
    }
}
