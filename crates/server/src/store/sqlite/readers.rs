//! A few read-only connections: in WAL mode readers never block the writer or each other.

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicUsize, Ordering},
};

use anyhow::anyhow;
use rusqlite::Connection;

use crate::store::{StoreError, StoreResult};

#[derive(Clone)]
pub struct Readers {
    connections: Arc<Vec<Mutex<Connection>>>,
    next: Arc<AtomicUsize>,
}

impl Readers {
    pub fn new(connections: Vec<Connection>) -> Readers {
        assert!(!connections.is_empty(), "at least one reader connection");
        Readers {
            connections: Arc::new(connections.into_iter().map(Mutex::new).collect()),
            next: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub async fn read<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let readers = self.clone();
        tokio::task::spawn_blocking(move || {
            let index = readers.next.fetch_add(1, Ordering::Relaxed) % readers.connections.len();
            // A panic while holding the lock cannot leave a read half-done: reads change nothing.
            let conn = readers.connections[index]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            work(&conn)
        })
        .await
        .map_err(|err| StoreError::Backend(anyhow!("sqlite read task failed: {err}")))?
    }
}
