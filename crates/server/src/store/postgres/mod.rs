//! PostgreSQL store, for running several server processes on one database.

mod accounts;
mod contact;
mod identities;
mod invoices;
mod ops;
mod phone;
mod plans;
mod relay;
mod sessions;
mod sync;

use anyhow::Context;
use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::{NoTls, error::SqlState};
use uuid::Uuid;

// sync.rs reads the profile row with it.
use self::accounts::user_from_row;
use super::{
    PreparedMutation, PullPage, PushOutcome, StoreError, StoreResult, SyncStore,
    migrations::POSTGRES,
};

const POOL_SIZE: usize = 16;
/// Serialises migrations when several processes start at once.
const MIGRATION_LOCK_KEY: i64 = 0x6465_6c69_7665_7279; // "delivery"

pub struct PgStore {
    pool: Pool,
    /// For connections of its own (the signal relay's LISTEN).
    config: tokio_postgres::Config,
}

impl PgStore {
    pub async fn connect(url: &str) -> anyhow::Result<PgStore> {
        let config: tokio_postgres::Config = url
            .parse()
            .context("DATABASE_URL is not a valid PostgreSQL URL")?;
        Self::from_config(config).await
    }

    pub async fn from_config(config: tokio_postgres::Config) -> anyhow::Result<PgStore> {
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager).max_size(POOL_SIZE).build()?;
        let store = PgStore { pool, config };
        store
            .migrate()
            .await
            .context("migrating the PostgreSQL schema")?;
        Ok(store)
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        let mut client = self.pool.get().await?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK_KEY])
            .await?;
        let outcome = async {
            client
                .batch_execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (
                         version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
                )
                .await?;
            for migration in POSTGRES {
                let tx = client.transaction().await?;
                let applied = tx
                    .query_opt("SELECT 1 FROM schema_migrations WHERE version = $1", &[
                        &migration.version,
                    ])
                    .await?
                    .is_some();
                if !applied {
                    tx.batch_execute(migration.sql)
                        .await
                        .with_context(|| format!("applying migration {}", migration.name))?;
                    tx.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        &[&migration.version, &migration.name, &domain::time_fmt::now_ms()],
                    )
                    .await?;
                    tracing::info!(migration = migration.name, "applied PostgreSQL migration");
                }
                tx.commit().await?;
            }
            anyhow::Ok(())
        }
        .await;
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK_KEY])
            .await?;
        outcome
    }

    async fn client(&self) -> StoreResult<deadpool_postgres::Object> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Backend(e.into()))
    }
}

pub(super) fn db_err(err: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(err.into())
}

/// Tries at a push before a deadlock or serialisation failure is reported.
const PUSH_ATTEMPTS: u32 = 3;

/// A transaction PostgreSQL failed only because of what ran beside it: running it again works.
fn is_retryable(err: &anyhow::Error) -> bool {
    err.downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::code)
        .is_some_and(|code| {
            *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE
        })
}

fn unique_or(err: tokio_postgres::Error, what: &'static str) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        db_err(err)
    }
}

#[async_trait]
impl SyncStore for PgStore {
    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        max_records: i64,
    ) -> StoreResult<PushOutcome> {
        let mut client = self.client().await?;
        let mut attempt = 1;
        loop {
            let tx = client.transaction().await.map_err(db_err)?;
            let outcome =
                match sync::push(&tx, user_id, mutations.clone(), now_ms, max_records).await {
                    Ok(outcome) => tx.commit().await.map(|()| outcome).map_err(db_err),
                    Err(err) => Err(err),
                };
            // Two accounts pushing the same new ids in opposite orders wait on each other's
            // uncommitted rows; PostgreSQL breaks the cycle by failing one transaction, which
            // is then simply run again (it now sees the other's rows: `not-owner`).
            match outcome {
                Err(StoreError::Backend(err)) if attempt < PUSH_ATTEMPTS && is_retryable(&err) => {
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
        let mut client = self.client().await?;
        sync::pull(&mut client, user_id, cursor, limit).await
    }

    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT change_seq FROM users WHERE id = $1", &[&user_id])
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }
}
