//! PostgreSQL store, for running several server processes on one database.

mod accounts;
mod contact;
mod identities;
mod ops;
mod phone;
mod plans;
mod receipts;
mod relay;
mod sessions;
mod sync;

use anyhow::Context;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::{NoTls, error::SqlState};

// sync.rs reads the profile row with it.
use self::accounts::user_from_row;
use super::{StoreError, StoreResult, migrations::POSTGRES};

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
            let applied: Vec<(i64, String)> = client
                .query("SELECT version, name FROM schema_migrations", &[])
                .await?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            crate::store::migrations::check_applied(
                &applied,
                POSTGRES,
                "the PostgreSQL database",
            )?;
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

fn unique_or(err: tokio_postgres::Error, what: &'static str) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        db_err(err)
    }
}
