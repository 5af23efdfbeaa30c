//! Background housekeeping started by `serve` (DESIGN.md §6b): guests nobody has used for
//! GUEST_INACTIVE_DAYS are deleted with their records, sessions and files, replay records
//! older than APPLIED_MUTATIONS_RETENTION_DAYS are pruned, and receipt photos that no live
//! expense lists are removed after a grace period. Work goes in bounded batches so the
//! database (SQLite's one writer) is never held for long.

use std::time::Duration;

use domain::time_fmt::duration_ms;

use crate::{
    auth::session::SessionManager,
    config::quotas::QuotaConfig,
    files::{FileStore, ReceiptKey},
    store::DynStore,
};

/// Guests deleted per store call (each takes its records with it).
const GUEST_BATCH: u32 = 100;
/// Replay records deleted per store call.
const PRUNE_BATCH: u32 = 5_000;
/// Orphaned receipts removed per store call (each is an object to delete too).
const RECEIPT_BATCH: u32 = 100;
/// A receipt usually uploads after its expense was pushed, but may arrive first (a device
/// offline since, or an expense parked for a fix): a week covers that.
pub const ORPHAN_RECEIPT_GRACE: Duration = Duration::from_secs(7 * 86_400);

/// What one sweep removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub guests: u64,
    pub files: u64,
    pub replay_records: u64,
    /// Receipt photos no live expense listed.
    pub orphan_receipts: u64,
}

/// One sweep as of `now_ms`. A file that cannot be removed is logged and left (its owner is
/// gone, so nothing can reach it); a store failure ends the sweep until the next run.
pub async fn sweep(
    store: &DynStore,
    files: &FileStore,
    config: &QuotaConfig,
    now_ms: i64,
) -> anyhow::Result<SweepReport> {
    let mut report = SweepReport::default();
    let inactive_before = now_ms.saturating_sub(duration_ms(config.guest_inactivity()));
    loop {
        let gone = store
            .delete_inactive_guests(inactive_before, GUEST_BATCH)
            .await?;
        report.guests += gone.len() as u64;
        for user_id in &gone {
            match files.delete_user_files(*user_id).await {
                Ok(removed) => report.files += removed,
                Err(err) => {
                    tracing::warn!(%user_id, error = format!("{err:#}"), "deleted guest's files were not removed");
                }
            }
        }
        if gone.len() < GUEST_BATCH as usize {
            break;
        }
        tokio::task::yield_now().await;
    }
    let applied_before = now_ms.saturating_sub(duration_ms(config.applied_mutations_retention()));
    loop {
        let pruned = store
            .prune_applied_mutations(applied_before, PRUNE_BATCH)
            .await?;
        report.replay_records += pruned;
        if pruned < u64::from(PRUNE_BATCH) {
            break;
        }
        tokio::task::yield_now().await;
    }
    let created_before = now_ms.saturating_sub(duration_ms(ORPHAN_RECEIPT_GRACE));
    loop {
        let orphans = store
            .delete_orphan_receipts(created_before, RECEIPT_BATCH)
            .await?;
        report.orphan_receipts += orphans.len() as u64;
        for (user_id, record) in &orphans {
            if let Err(err) = files.delete(&ReceiptKey::of(*user_id, record)).await {
                tracing::warn!(%user_id, receipt = %record.id, error = format!("{err:#}"), "orphaned receipt photo was not removed");
            }
        }
        if orphans.len() < RECEIPT_BATCH as usize {
            break;
        }
        tokio::task::yield_now().await;
    }
    Ok(report)
}

/// Sweeps now and every SWEEP_INTERVAL_SECS (expired sessions too), logging what went.
pub fn start(
    sessions: SessionManager,
    store: DynStore,
    files: FileStore,
    config: QuotaConfig,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(config.sweep_interval());
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match sessions.sweep().await {
                Ok(0) => {}
                Ok(removed) => tracing::info!(removed, "expired sessions removed"),
                Err(err) => tracing::warn!(error = ?err, "session sweep failed"),
            }
            match sweep(&store, &files, &config, domain::time_fmt::now_ms()).await {
                Ok(report) if report == SweepReport::default() => {}
                Ok(report) => tracing::info!(
                    guests = report.guests,
                    files = report.files,
                    replay_records = report.replay_records,
                    orphan_receipts = report.orphan_receipts,
                    "housekeeping: inactive guests deleted, old replay records pruned, orphaned receipts removed"
                ),
                Err(err) => tracing::warn!(error = format!("{err:#}"), "housekeeping sweep failed"),
            }
        }
    })
}
