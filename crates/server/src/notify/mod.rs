//! "Something changed" signals for a user's other devices, and "this session ended" signals
//! that close an event stream at once. A leaf below the store, auth and the sync handlers (it
//! imports none of them; tests/integration/module_loops.rs keeps it so): the store's relay carries these
//! signals, the handlers raise and receive them. In process, a
//! signal goes straight to the streams it concerns (streams.rs: a change to that user's
//! streams, a session's end to that session's), so a push costs nothing for other users'
//! streams; with PostgreSQL a relay carries them to every other server process too
//! (LISTEN/NOTIFY, store/postgres/relay.rs). Both a session's end and a change to a user row
//! also drop the resolved sessions cached for them (auth/session_cache.rs, through [`Forgets`]).
//!
//! Streams do not poll. Where a signal may be missing (another process committed without one,
//! the relay was down or dropped signals, a user row changed), the open streams concerned are
//! checked against the database in one batch (sync/stream_check.rs), and a slow timer bounds the
//! rest (a session expiring by time); clients also pull every 30 s.

pub mod streams;

use std::sync::{
    Arc, OnceLock,
    atomic::{AtomicBool, Ordering},
};

use tokio::sync::{mpsc, watch};
use uuid::Uuid;

/// What a signal makes this process forget: the resolved sessions cached for the session
/// manager (auth/session_cache.rs implements it; notify sits below auth and names no cache).
pub trait Forgets: Send + Sync {
    fn forget_session(&self, token_hash: &str);
    fn forget_user(&self, user_id: Uuid);
    fn forget_all(&self);
}

#[derive(Debug, Clone)]
pub enum Signal {
    Changed {
        user_id: Uuid,
        cursor: i64,
    },
    SessionEnded {
        token_hash: String,
    },
    /// A user row changed (role, password, profile, plan) or is gone: their cached sessions go.
    UserChanged {
        user_id: Uuid,
    },
    /// Another process dropped signals on their way here (its relay queue was full or its
    /// connection failed mid-send): trust nothing cached and check every open stream.
    Lost,
}

#[derive(Clone)]
pub struct Notifier {
    closing: watch::Sender<bool>,
    /// Where signals raised here go to reach other processes, once a relay is running.
    relay: Arc<OnceLock<mpsc::Sender<Signal>>>,
    /// Set when a signal for other processes was dropped; the relay then sends them `Lost`.
    lost: Arc<AtomicBool>,
    /// Open event streams, capped per session and per user.
    pub streams: streams::Streams,
    /// Resolved sessions, shared with the session manager.
    sessions: Arc<dyn Forgets>,
}

impl Notifier {
    pub fn new(sessions: impl Forgets + 'static) -> Notifier {
        Notifier {
            closing: watch::channel(false).0,
            relay: Arc::new(OnceLock::new()),
            lost: Arc::default(),
            streams: Default::default(),
            sessions: Arc::new(sessions),
        }
    }

    pub fn changed(&self, user_id: Uuid, cursor: i64) {
        self.raise(Signal::Changed { user_id, cursor });
    }

    pub fn session_ended(&self, token_hash: String) {
        self.raise(Signal::SessionEnded { token_hash });
    }

    /// The one call after any store write to a user row (role, password, profile, plan,
    /// deletion): every process stops using what it cached about the user's sessions.
    pub fn user_changed(&self, user_id: Uuid) {
        self.raise(Signal::UserChanged { user_id });
    }

    fn raise(&self, signal: Signal) {
        if let Some(relay) = self.relay.get()
            && let Err(mpsc::error::TrySendError::Full(_)) = relay.try_send(signal.clone())
        {
            // Other processes miss this one: the relay tells them so once it has room.
            self.signal_lost();
        }
        self.deliver(signal);
    }

    /// A signal meant for other processes did not reach the relay's connection.
    pub fn signal_lost(&self) {
        self.lost.store(true, Ordering::Relaxed);
    }

    /// Whether signals were lost since the last call (the relay then sends `Lost`).
    pub fn take_lost(&self) -> bool {
        self.lost.swap(false, Ordering::Relaxed)
    }

    /// A signal another process raised: delivered to this process's streams only.
    pub fn deliver_from_elsewhere(&self, signal: Signal) {
        self.deliver(signal);
    }

    fn deliver(&self, signal: Signal) {
        match signal {
            Signal::Changed { user_id, cursor } => self.streams.changed(user_id, cursor),
            Signal::SessionEnded { token_hash } => {
                self.sessions.forget_session(&token_hash);
                self.streams.end_session(&token_hash);
            }
            Signal::UserChanged { user_id } => {
                self.sessions.forget_user(user_id);
                // Their sessions may have gone with the change (a deletion, a password reset by
                // the admin CLI) and their records may have moved (a plan change).
                self.streams.check_user(user_id);
            }
            Signal::Lost => self.outside_change(),
        }
    }

    /// Another process committed to the database without a signal this process can read (the
    /// admin CLI on SQLite), or signals may have been lost (the relay reconnected): nothing
    /// cached about sessions or users can be trusted any more, and every open stream is checked.
    pub fn outside_change(&self) {
        self.sessions.forget_all();
        self.streams.check_all();
    }

    /// Sends every signal raised from now on to `relay` as well. Only the first call counts.
    pub fn attach_relay(&self, relay: mpsc::Sender<Signal>) {
        let _ = self.relay.set(relay);
    }

    /// Changes when the server starts shutting down.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Ends every open stream, so a graceful shutdown does not wait on them forever.
    pub fn close_all(&self) {
        let _ = self.closing.send(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notify::streams::StreamCaps;

    /// Nothing cached: these tests are about the streams.
    struct NoCache;

    impl Forgets for NoCache {
        fn forget_session(&self, _token_hash: &str) {}
        fn forget_user(&self, _user_id: Uuid) {}
        fn forget_all(&self) {}
    }

    const CAPS: StreamCaps = StreamCaps {
        per_session: 4,
        per_user: 16,
    };

    #[test]
    fn a_signal_the_relay_had_no_room_for_is_marked_lost_once() {
        let notifier = Notifier::new(NoCache);
        let (relay, mut queue) = mpsc::channel(1);
        notifier.attach_relay(relay);
        notifier.changed(Uuid::now_v7(), 1);
        assert!(!notifier.take_lost(), "the queue had room");
        notifier.changed(Uuid::now_v7(), 2);
        assert!(notifier.take_lost(), "the second one was dropped");
        assert!(!notifier.take_lost(), "and it is reported once");
        assert!(queue.try_recv().is_ok());
    }

    #[test]
    fn lost_signals_and_user_changes_make_streams_due_for_a_check() {
        let notifier = Notifier::new(NoCache);
        let (sam, kim) = (Uuid::now_v7(), Uuid::now_v7());
        let _sam = notifier.streams.open(sam, "sam", CAPS);
        let _kim = notifier.streams.open(kim, "kim", CAPS);
        notifier.user_changed(sam);
        let due = notifier.streams.take_due();
        assert_eq!(
            due.iter().map(|s| s.user_id).collect::<Vec<_>>(),
            [sam],
            "only the changed user's streams"
        );
        notifier.deliver_from_elsewhere(Signal::Lost);
        assert_eq!(notifier.streams.take_due().len(), 2, "every stream");
    }
}
