//! Caps on open event streams per session and per user (in this process). A new stream beyond
//! a cap closes the oldest one rather than being refused: the newest stream is the device
//! that is really there (an older one is most likely a dead connection left behind by a
//! network change), and only the session's or user's own streams are ever closed. The web
//! client reopens a stream the server ended, and pulls every 30 s regardless.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::oneshot;
use uuid::Uuid;

#[derive(Clone, Default)]
pub struct Streams {
    inner: Arc<Mutex<Registry>>,
}

#[derive(Default)]
struct Registry {
    next_id: u64,
    /// Each user's open streams, oldest first.
    by_user: HashMap<Uuid, Vec<Entry>>,
}

struct Entry {
    id: u64,
    token_hash: String,
    close: oneshot::Sender<()>,
}

/// One open stream's place in the registry; dropping it (the stream ended) frees the place.
pub struct StreamTicket {
    id: u64,
    user_id: Uuid,
    streams: Streams,
    /// Resolves when a newer stream displaced this one.
    pub displaced: oneshot::Receiver<()>,
}

#[derive(Clone, Copy, Debug)]
pub struct StreamCaps {
    pub per_session: usize,
    pub per_user: usize,
}

impl Streams {
    /// Registers a new stream, closing the oldest ones of the session and then of the user
    /// beyond `caps`.
    pub fn open(&self, user_id: Uuid, token_hash: &str, caps: StreamCaps) -> StreamTicket {
        let (close, displaced) = oneshot::channel();
        let mut registry = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let id = registry.next_id;
        registry.next_id += 1;
        let open = registry.by_user.entry(user_id).or_default();
        open.push(Entry {
            id,
            token_hash: token_hash.to_owned(),
            close,
        });
        let session_count = open.iter().filter(|e| e.token_hash == token_hash).count();
        for _ in caps.per_session.max(1)..session_count {
            if let Some(oldest) = open.iter().position(|e| e.token_hash == token_hash) {
                let _ = open.remove(oldest).close.send(());
            }
        }
        while open.len() > caps.per_user.max(1) {
            let _ = open.remove(0).close.send(());
        }
        drop(registry);
        StreamTicket {
            id,
            user_id,
            streams: self.clone(),
            displaced,
        }
    }

    /// Open streams of one user (for tests and logs).
    pub fn count(&self, user_id: Uuid) -> usize {
        let registry = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        registry.by_user.get(&user_id).map_or(0, Vec::len)
    }
}

impl Drop for StreamTicket {
    fn drop(&mut self) {
        let mut registry = self
            .streams
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(open) = registry.by_user.get_mut(&self.user_id) {
            open.retain(|e| e.id != self.id);
            if open.is_empty() {
                registry.by_user.remove(&self.user_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPS: StreamCaps = StreamCaps {
        per_session: 2,
        per_user: 3,
    };

    #[test]
    fn the_oldest_stream_of_the_session_then_of_the_user_is_closed() {
        let streams = Streams::default();
        let user = Uuid::now_v7();
        let mut a1 = streams.open(user, "a", CAPS);
        let mut a2 = streams.open(user, "a", CAPS);
        let mut a3 = streams.open(user, "a", CAPS);
        assert!(
            a1.displaced.try_recv().is_ok(),
            "oldest of the session closed"
        );
        assert!(a2.displaced.try_recv().is_err());
        assert_eq!(streams.count(user), 2);
        let mut b1 = streams.open(user, "b", CAPS);
        assert_eq!(streams.count(user), 3);
        let _b2 = streams.open(user, "b", CAPS);
        assert!(a2.displaced.try_recv().is_ok(), "oldest of the user closed");
        assert!(a3.displaced.try_recv().is_err());
        assert!(b1.displaced.try_recv().is_err());
        assert_eq!(streams.count(user), 3);
        drop((a1, a2, a3, b1));
        assert_eq!(streams.count(user), 1, "ended streams free their place");
        assert_eq!(
            streams.count(Uuid::now_v7()),
            0,
            "other users are untouched"
        );
    }
}
