//! "Something changed" signals for a user's other devices, and "this session ended" signals
//! that close an event stream at once. In-process broadcast: with several server processes
//! each stream also re-checks its session periodically and clients pull every 30 s.

use tokio::sync::{broadcast, watch};
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
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            signals: broadcast::channel(CAPACITY).0,
            closing: watch::channel(false).0,
        }
    }
}

impl Notifier {
    pub fn changed(&self, user_id: Uuid, cursor: i64) {
        // No receivers is fine: nobody is listening.
        let _ = self.signals.send(Signal::Changed { user_id, cursor });
    }

    pub fn session_ended(&self, token_hash: String) {
        let _ = self.signals.send(Signal::SessionEnded { token_hash });
    }

    pub fn subscribe(&self) -> (broadcast::Receiver<Signal>, watch::Receiver<bool>) {
        (self.signals.subscribe(), self.closing.subscribe())
    }

    /// Ends every open stream, so a graceful shutdown does not wait on them forever.
    pub fn close_all(&self) {
        let _ = self.closing.send(true);
    }
}
