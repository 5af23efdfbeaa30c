//! The one task that checks open event streams against the database, for the whole process:
//! streams never read the database themselves. It runs when the registry has streams due
//! (notify/streams.rs: another process committed, the relay reconnected or others lost signals,
//! a user row changed) and on a slow timer, and does two batched reads however many streams are
//! open: their sessions by token hash, their users' change sequences by id. Streams whose
//! session is gone, expired or not their user's close; users whose sequence moved get the usual
//! per-user poke, so only their streams wake.
//!
//! Session expiry by time is left to the timer (`EVENTS_RECHECK_SECONDS`, 60 s by default)
//! rather than a deadline in each stream: the idle bound slides with every request the device
//! makes, so a deadline fixed when the stream opened would be wrong, and keeping it right would
//! take a read per stream again. Expiry is counted in days, so a stream outliving it by up to a
//! minute changes nothing, and the device's own requests meanwhile are already refused.

use std::{collections::HashSet, time::Duration};

use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::{AppState, notify::streams::OpenSession};

/// Starts the check; it runs until aborted (the server's end).
pub fn start(state: &AppState) -> JoinHandle<()> {
    let state = state.clone();
    let every = Duration::from_secs(u64::from(
        state.config.sessions.events_recheck_seconds.max(1),
    ));
    tokio::spawn(async move {
        let streams = state.notifier.streams.clone();
        let mut timer = tokio::time::interval(every);
        timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        timer.reset(); // the first tick would otherwise fire at once
        loop {
            tokio::select! {
                () = streams.check_wanted() => {}
                _ = timer.tick() => streams.check_all(),
            }
            let due = streams.take_due();
            if !due.is_empty() {
                check(&state, &due).await;
            }
        }
    })
}

/// Closes the streams of `due` sessions that ended and pokes users whose data moved. A read
/// that fails leaves the streams as they are: the next check decides.
async fn check(state: &AppState, due: &[OpenSession]) {
    let streams = &state.notifier.streams;
    match state.sessions.ended_among(due).await {
        Ok(ended) if !ended.is_empty() => {
            let ended: HashSet<&str> = ended.iter().map(String::as_str).collect();
            streams.end_sessions(|token_hash| ended.contains(token_hash));
        }
        Ok(_) => {}
        Err(err) => tracing::warn!(error = %err, "open event streams' sessions not checked"),
    }
    let users: Vec<Uuid> = due
        .iter()
        .map(|s| s.user_id)
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    match state.store.change_cursors(&users).await {
        Ok(cursors) => {
            for (user_id, cursor) in cursors {
                streams.changed(user_id, cursor);
            }
        }
        Err(err) => tracing::warn!(error = %err, "open event streams' change cursors not checked"),
    }
}
