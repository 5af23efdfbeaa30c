//! "Something changed" signals for a user's other devices, and "this session ended" signals
//! that close an event stream at once. A leaf below the store and the sync handlers: the
//! store's relay carries these signals, the handlers raise and receive them. In-process broadcast; with PostgreSQL a relay carries
//! them to every other server process too (LISTEN/NOTIFY, store/postgres/relay.rs). Streams
//! also re-check their session periodically and clients pull every 30 s, so a lost signal
//! only delays a change.

pub mod streams;

use std::sync::{Arc, OnceLock};

use tokio::sync::{broadcast, mpsc, watch};
use uuid::Uuid;

const CAPACITY: usize = 1_024;

#[derive(Debug, Clone)]
pub enum Signal {
    Changed { user_id: Uuid, cursor: i64 },
    SessionEnded { token_hash: String },
}

#[derive(Clone)]
pub struct Notifier {
    signals: broadcast::Sender<Signal>,
    closing: watch::Sender<bool>,
    /// Where signals raised here go to reach other processes, once a relay is running.
    relay: Arc<OnceLock<mpsc::Sender<Signal>>>,
    /// Open event streams, capped per session and per user.
    pub streams: streams::Streams,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            signals: broadcast::channel(CAPACITY).0,
            closing: watch::channel(false).0,
            relay: Arc::new(OnceLock::new()),
            streams: Default::default(),
        }
    }
}

impl Notifier {
    pub fn changed(&self, user_id: Uuid, cursor: i64) {
        self.raise(Signal::Changed { user_id, cursor });
    }

    pub fn session_ended(&self, token_hash: String) {
        self.raise(Signal::SessionEnded { token_hash });
    }

    fn raise(&self, signal: Signal) {
        if let Some(relay) = self.relay.get() {
            // A full relay queue drops the signal: the periodic re-check still catches it.
            let _ = relay.try_send(signal.clone());
        }
        // No receivers is fine: nobody is listening.
        let _ = self.signals.send(signal);
    }

    /// A signal another process raised: delivered to this process's streams only.
    pub fn deliver_from_elsewhere(&self, signal: Signal) {
        let _ = self.signals.send(signal);
    }

    /// Sends every signal raised from now on to `relay` as well. Only the first call counts.
    pub fn attach_relay(&self, relay: mpsc::Sender<Signal>) {
        let _ = self.relay.set(relay);
    }

    pub fn subscribe(&self) -> (broadcast::Receiver<Signal>, watch::Receiver<bool>) {
        (self.signals.subscribe(), self.closing.subscribe())
    }

    /// Ends every open stream, so a graceful shutdown does not wait on them forever.
    pub fn close_all(&self) {
        let _ = self.closing.send(true);
    }
}
