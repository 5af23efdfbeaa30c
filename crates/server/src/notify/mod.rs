//! "Something changed" signals for a user's other devices, and "this session ended" signals
//! that close an event stream at once. A leaf below the store and the sync handlers: the
//! store's relay carries these signals, the handlers raise and receive them. In process, a
//! signal goes straight to the streams it concerns (streams.rs: a change to that user's
//! streams, a session's end to that session's), so a push costs nothing for other users'
//! streams; with PostgreSQL a relay carries them to every other server process too
//! (LISTEN/NOTIFY, store/postgres/relay.rs). Both a session's end and a change to a user row
//! also drop the resolved sessions cached for them (auth/session_cache.rs). Streams also re-check their session periodically
//! and clients pull every 30 s, so a lost signal only delays a change.

pub mod streams;

use std::sync::{Arc, OnceLock};

use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use crate::auth::session_cache::SessionCache;

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
}

#[derive(Clone)]
pub struct Notifier {
    closing: watch::Sender<bool>,
    /// Where signals raised here go to reach other processes, once a relay is running.
    relay: Arc<OnceLock<mpsc::Sender<Signal>>>,
    /// Open event streams, capped per session and per user.
    pub streams: streams::Streams,
    /// Resolved sessions, shared with the session manager.
    sessions: SessionCache,
}

impl Notifier {
    pub fn new(sessions: SessionCache) -> Notifier {
        Notifier {
            closing: watch::channel(false).0,
            relay: Arc::new(OnceLock::new()),
            streams: Default::default(),
            sessions,
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
        if let Some(relay) = self.relay.get() {
            // A full relay queue drops the signal: the periodic re-check still catches it.
            let _ = relay.try_send(signal.clone());
        }
        self.deliver(signal);
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
            Signal::UserChanged { user_id } => self.sessions.forget_user(user_id),
        }
    }

    /// Another process committed to the database without a signal this process can read (the
    /// admin CLI on SQLite): nothing cached about sessions or users can be trusted any more.
    /// Streams find their own way (they re-check their session and cursor).
    pub fn outside_change(&self) {
        self.sessions.forget_all();
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
