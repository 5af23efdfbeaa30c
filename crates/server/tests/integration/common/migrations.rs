//! Databases written before a migration: the schema of every migration below a version, with
//! rows as that schema held them, opened as a store (opening migrates to the latest).

use std::sync::Arc;

use server::store::{
    postgres::PgStore,
    sqlite::{SqliteStore, Synchronous},
};

use super::{Backend, TestStore};

/// The migrations of one backend below `version`, in order, as (version, name, SQL).
fn migrations_before(backend: &str, version: i64) -> Vec<(i64, String, String)> {
    let dir = format!("{}/migrations/{backend}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let number: i64 = name[..4].parse().unwrap();
            (number, name, std::fs::read_to_string(path).unwrap())
        })
        .filter(|(number, _, _)| *number < version)
        .collect()
}

/// The schema just before migration `version` (recorded as applied), then `rows`.
fn script(backend: &str, version: i64, rows: &str) -> String {
    let mut script = String::from(
        "CREATE TABLE schema_migrations (
             version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);",
    );
    for (number, name, sql) in migrations_before(backend, version) {
        script.push_str(&sql);
        script.push_str(&format!(
            ";\nINSERT INTO schema_migrations (version, name, applied_at) \
             VALUES ({number}, '{name}', 0);\n"
        ));
    }
    script + rows
}

/// A store opened on a database holding `rows` in the schema before migration `version`
/// (the same SQL runs on both backends), or None when no PostgreSQL is configured.
pub async fn store_before(backend: Backend, version: i64, rows: &str) -> Option<TestStore> {
    match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("old.db");
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(&script("sqlite", version, rows))
                .unwrap();
            drop(conn);
            let store = SqliteStore::open(&path, Synchronous::Normal).await.unwrap();
            Some(TestStore {
                store: Arc::new(store),
                dir,
            })
        }
        Backend::Postgres => {
            let config = super::fresh_postgres_schema().await?;
            let (client, connection) = config.connect(tokio_postgres::NoTls).await.unwrap();
            let running = tokio::spawn(connection);
            client
                .batch_execute(&script("postgres", version, rows))
                .await
                .unwrap();
            drop(client);
            let _ = running.await;
            let store = PgStore::from_config(config).await.unwrap();
            Some(TestStore {
                store: Arc::new(store),
                dir: tempfile::tempdir().unwrap(),
            })
        }
    }
}
