//! The store as a running service: liveness, the cross-process signal relay, housekeeping.

use async_trait::async_trait;
use uuid::Uuid;

use super::StoreResult;
use crate::notify::{Notifier, Signal};

/// Store-side gauges for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreGauges {
    pub database_size_bytes: i64,
    /// Contact messages whose e-mail copy is still to be sent (or retried).
    pub mail_queue_pending: i64,
    /// SQLite's single writer: the commits it made and the jobs they carried (their quotient
    /// is the writes that share each fsync). `None` on PostgreSQL.
    pub write_commits: Option<WriteCommits>,
}

/// How many commits a single writer made and how many jobs they carried in all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteCommits {
    pub commits: u64,
    pub jobs: u64,
}

/// What keeps the service running rather than serving one user: the liveness probe, the signal
/// relay between server processes, and the housekeeping sweeps.
#[async_trait]
pub trait OpsStore: Send + Sync {
    /// Cheap liveness probe for `/healthz`.
    async fn ping(&self) -> StoreResult<()>;
    /// The database's size and the e-mails waiting to go, read when `/metrics` is scraped.
    async fn gauges(&self) -> StoreResult<StoreGauges>;
    /// Carries `notifier`'s signals to and from other server processes sharing this store,
    /// when the backend can (PostgreSQL LISTEN/NOTIFY). A single-process backend has nothing
    /// to relay.
    fn start_signal_relay(&self, _notifier: Notifier) -> Option<tokio::task::JoinHandle<()>> {
        None
    }
    /// Tells the running server processes about a change made outside them (the admin CLI),
    /// where the backend can carry it (PostgreSQL NOTIFY). SQLite needs nothing: its servers
    /// notice other processes' commits themselves (`start_signal_relay`).
    async fn announce(&self, _signal: Signal) -> StoreResult<()> {
        Ok(())
    }
    /// Deletes up to `limit` guests (no e-mail, password, phone or OpenID identity) with no
    /// activity since `inactive_before_ms`: created, signed in, changed and every session last
    /// used before it. Their records, replay records and sessions go with them. Returns their
    /// ids, so their files can be removed too.
    async fn delete_inactive_guests(
        &self,
        inactive_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<Uuid>>;
    /// Deletes up to `limit` replay records (`applied_mutations`) applied before
    /// `applied_before_ms`; returns how many went.
    async fn prune_applied_mutations(&self, applied_before_ms: i64, limit: u32)
    -> StoreResult<u64>;
}
