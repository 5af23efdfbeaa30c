//! PostgreSQL: the server's push rate on PostgreSQL against pgbench (`-M prepared`) running
//! the statements one push runs (crates/server/src/store/postgres/sync.rs, plus the relay's
//! NOTIFY) on tables with today's columns and keys, in a schema of its own.

use std::process::Command;

use crate::days::Ids;

/// The database to use: `TEST_DATABASE_URL`, else the local socket's `delivery_test`; `None`
/// when psql cannot reach it.
pub fn database_url() -> Option<String> {
    let url = std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| {
        "postgresql:///delivery_test?host=/var/run/postgresql&user=root".into()
    });
    psql(&url, None, "SELECT 1").then_some(url)
}

/// pgbench: `PGBENCH`, else PostgreSQL 15's, else the one on PATH.
pub fn pgbench() -> Option<String> {
    [
        std::env::var("PGBENCH").ok(),
        Some("/usr/lib/postgresql/15/bin/pgbench".into()),
        Some("pgbench".into()),
    ]
    .into_iter()
    .flatten()
    .find(|path| {
        Command::new(path)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Runs `sql` with psql (search_path set to `schema` when given); whether it succeeded.
pub fn psql(url: &str, schema: Option<&str>, sql: &str) -> bool {
    let mut command = Command::new("psql");
    command.args([url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql]);
    if let Some(schema) = schema {
        command.env("PGOPTIONS", format!("-c search_path={schema}"));
    }
    command.output().is_ok_and(|out| {
        if !out.status.success() {
            eprintln!("psql: {}", String::from_utf8_lossy(&out.stderr));
        }
        out.status.success()
    })
}

/// A new empty schema; returns its name.
pub fn new_schema(url: &str, prefix: &str) -> String {
    let schema = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
    assert!(psql(url, None, &format!("CREATE SCHEMA {schema}")));
    schema
}

pub fn drop_schema(url: &str, schema: &str) {
    psql(
        url,
        None,
        &format!("DROP SCHEMA IF EXISTS {schema} CASCADE"),
    );
}

/// `url` with its search_path set to `schema`, for the server's DATABASE_URL.
pub fn url_with_schema(url: &str, schema: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}options=-c%20search_path%3D{schema}")
}

/// Today's tables, and `users` users whose ids pgbench derives from its client number.
pub fn create_pgbench_tables(url: &str, schema: &str, users: usize) {
    let ddl = format!(
        "CREATE TABLE users (
             id UUID PRIMARY KEY, email TEXT UNIQUE, password_hash TEXT, display_name TEXT,
             is_anonymous BOOLEAN NOT NULL DEFAULT TRUE, created_at BIGINT NOT NULL DEFAULT 0,
             change_seq BIGINT NOT NULL DEFAULT 0, record_count BIGINT NOT NULL DEFAULT 0);
         CREATE TABLE records (
             kind TEXT NOT NULL, id UUID NOT NULL,
             user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
             version BIGINT NOT NULL, deleted BOOLEAN NOT NULL DEFAULT FALSE, content TEXT,
             created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
             PRIMARY KEY (kind, id));
         CREATE INDEX records_by_user_version ON records (user_id, version);
         CREATE TABLE applied_mutations (
             user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
             mutation_id TEXT NOT NULL, result TEXT NOT NULL, applied_at BIGINT NOT NULL,
             PRIMARY KEY (user_id, mutation_id));
         CREATE INDEX applied_mutations_by_time ON applied_mutations (applied_at);
         INSERT INTO users (id) SELECT md5('u' || n)::uuid FROM generate_series(0, {users}) n;"
    );
    assert!(psql(url, Some(schema), &ddl), "pgbench tables");
}

/// A UUIDv7-shaped id as SQL, like the web app's (`days::new_id`): the transaction's start in
/// milliseconds, then random bits from `seed`. `now()` is the same in every statement of the
/// push, so the replay and ownership checks probe the very id the inserts then write. Not
/// `clock_timestamp()`: a volatile function in a WHERE clause keeps PostgreSQL off the index
/// (75 pushes/s instead of 3,000).
fn time_ordered(seed: &str) -> String {
    format!(
        "(lpad(to_hex((extract(epoch FROM now()) * 1000)::bigint), 12, '0') || substr(md5({seed}), 13))::uuid"
    )
}

/// How pgbench sends a push's statements.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Script {
    /// One statement, then its answer, then the next: as the server did before issue 30.
    StepByStep,
    /// In the two round trips our server's push takes (store/postgres/pipelined_push.rs): BEGIN,
    /// the lock and every read, then every write, COMMIT and the NOTIFY, each group in one
    /// pgbench pipeline. The reads stay one statement per mutation, as in `StepByStep`.
    Pipelined,
}

/// One push of `batch` entries as a pgbench script: the user's counters locked, per mutation
/// the replay check, the ownership check, the insert and the replay record, the counters
/// written, COMMIT, then the change signal the relay sends.
fn script(batch: usize, content: &str, ids: Ids, way: Script) -> String {
    let new_id = |seed: &str| match ids {
        Ids::TimeOrdered => time_ordered(seed),
        Ids::Random => format!("md5({seed})::uuid"),
    };
    // pgbench sends variables as parameters of unknown type: cast them.
    let user = "md5('u' || :client_id::text)::uuid";
    // An E'' literal with every colon as \x3a: pgbench reads `:word` as a variable even
    // inside quotes (`"startTime":"07:15"`).
    let content = content
        .replace('\\', "\\\\")
        .replace('\'', "''")
        .replace(':', "\\x3a");
    let mut s = String::new();
    for k in 0..batch {
        s += &format!("\\set m{k} random(1, 9000000000000000000)\n");
    }
    // Step by step, every per-mutation statement is in `writes`, in the server's order.
    let (mut reads, mut writes) = (String::new(), String::new());
    for k in 0..batch {
        let id = new_id(&format!("'e' || :client_id::text || '.' || :m{k}::text"));
        let mutation = format!(
            "{}::text",
            new_id(&format!("'m' || :client_id::text || '.' || :m{k}::text"))
        );
        let replay_check = format!(
            "SELECT result FROM applied_mutations WHERE user_id = {user} AND mutation_id = {mutation};\n"
        );
        let owner_check = format!(
            "SELECT user_id = {user}, deleted FROM records WHERE kind = 'entry' AND id = {id};\n"
        );
        let insert = format!(
            "INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at) VALUES ('entry', {id}, {user}, :m{k}::bigint, E'{content}' IS NULL, E'{content}', 1, 1) ON CONFLICT (kind, id) DO NOTHING;\n"
        );
        let replay_record = format!(
            "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at) VALUES ({user}, {mutation}, '{{\"status\":\"applied\"}}', 1);\n"
        );
        match way {
            Script::StepByStep => {
                writes += &(replay_check + &owner_check + &insert + &replay_record);
            }
            Script::Pipelined => {
                reads += &(replay_check + &owner_check);
                writes += &(insert + &replay_record);
            }
        }
    }
    let lock =
        format!("SELECT change_seq, record_count FROM users WHERE id = {user} FOR UPDATE;\n");
    let counters = format!(
        "UPDATE users SET change_seq = change_seq + {batch}, record_count = record_count + {batch} WHERE id = {user};\n"
    );
    let notify = "SELECT pg_notify('delivery_tracker_signals', 'bench');\n";
    match way {
        Script::StepByStep => {
            s += &format!("BEGIN;\n{lock}{writes}{counters}COMMIT;\n{notify}");
        }
        Script::Pipelined => {
            s += &format!(
                "\\startpipeline\nBEGIN;\n{lock}{reads}\\endpipeline\n\\startpipeline\n{writes}{counters}COMMIT;\n{notify}\\endpipeline\n"
            );
        }
    }
    s
}

/// pgbench's mutations per second: `clients` connections, `seconds` long, batch `batch`.
// Each argument is one setting of pgbench's run, named at every call.
#[allow(clippy::too_many_arguments)]
pub fn pgbench_rate(
    pgbench: &str,
    url: &str,
    schema: &str,
    clients: usize,
    batch: usize,
    seconds: u64,
    content: &str,
    ids: Ids,
    way: Script,
) -> Option<f64> {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), script(batch, content, ids, way)).unwrap();
    let out = Command::new(pgbench)
        .env("PGOPTIONS", format!("-c search_path={schema}"))
        .args([
            "-n",
            "-M",
            "prepared",
            "-c",
            &clients.to_string(),
            "-j",
            "2",
        ])
        .args(["-T", &seconds.to_string(), "-f"])
        .arg(file.path())
        .arg(url)
        .output()
        .ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        eprintln!(
            "pgbench failed: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    // "tps = 1234.5 (without initial connection time)"
    let tps: f64 = stdout
        .lines()
        .find(|l| l.starts_with("tps = "))?
        .trim_start_matches("tps = ")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(tps * batch as f64)
}

/// `url` naming the database `name` instead of its own (host and options kept).
pub fn with_database(url: &str, name: &str) -> String {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let path = after_scheme
        + url[after_scheme..]
            .find('/')
            .unwrap_or(url.len() - after_scheme);
    let end = url[path..].find('?').map_or(url.len(), |i| path + i);
    format!("{}/{name}{}", &url[..path], &url[end..])
}

/// Whether the database `name` exists.
fn database_exists(url: &str, name: &str) -> bool {
    let out = Command::new("psql")
        .args([url, "-Atc"])
        .arg(format!(
            "SELECT 1 FROM pg_database WHERE datname = '{name}'"
        ))
        .output()
        .expect("psql");
    String::from_utf8_lossy(&out.stdout).trim() == "1"
}

/// The grown database on PostgreSQL (`grown.rs` says what it holds), made once under the name
/// `bench30_grown_{key}` with the server's own migrations: a template for every round's copies.
pub async fn grown_seed(
    binary: &std::path::Path,
    url: &str,
    size: crate::grown::Size,
    key: &str,
) -> String {
    let name = format!("bench30_grown_{key}");
    if database_exists(url, &name) {
        println!("Grown PostgreSQL database: {name} (cached)");
        return name;
    }
    let partial = format!("{name}_partial");
    assert!(psql(
        url,
        None,
        &format!("DROP DATABASE IF EXISTS {partial}")
    ));
    assert!(psql(url, None, &format!("CREATE DATABASE {partial}")));
    let partial_url = with_database(url, &partial);
    drop(crate::ours::start(binary, Some(&partial_url)).await);
    let started = std::time::Instant::now();
    let (users, per_user) = (size.users, size.records / size.users);
    let now = domain::time_fmt::now_ms();
    let first = now - 3 * 365 * 86_400_000;
    let step = (now - first) / i64::try_from(per_user).unwrap();
    let replays_from = now - 90 * 86_400_000;
    let content = crate::days::day(0)
        .entry_args(&[crate::days::new_id()])
        .to_string();
    // Ids time-ordered like the web app's, a user's from its first moment; rows in time order.
    let user_id = |u: &str| {
        format!(
            "(lpad(to_hex({first} - 1000 + {u} % 1000), 12, '0') || substr(md5('user' || {u}), 13))::uuid"
        )
    };
    let sql = format!(
        "INSERT INTO users (id, email, is_anonymous, created_at, last_login, updated_at,
                            change_seq, record_count)
         SELECT {uid}, 'driver' || u || '@grown.bench.test', FALSE, {first}, {now}, {now},
                {per_user}, {per_user}
         FROM generate_series(0, {last_user}) u;
         INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at)
         SELECT 'entry', (lpad(to_hex(t), 12, '0') || substr(md5('r' || n || '.' || u), 13))::uuid,
                {uid}, n + 1, FALSE, $c${content}$c$, t, t
         FROM generate_series(0, {last_n}) n, generate_series(0, {last_user}) u,
              LATERAL (SELECT {first} + n::bigint * {step} + u AS t) moment
         ORDER BY n, u;
         INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
         SELECT user_id, (lpad(to_hex(created_at), 12, '0') || substr(md5('m' || id::text), 13))::uuid::text,
                '{{\"status\":\"applied\"}}', created_at
         FROM records WHERE created_at >= {replays_from} ORDER BY created_at;
         UPDATE users SET replay_count = held.count
         FROM (SELECT user_id, count(*) FROM applied_mutations GROUP BY user_id) held
         WHERE users.id = held.user_id;",
        uid = user_id("u"),
        last_user = users - 1,
        last_n = per_user - 1,
    );
    assert!(psql(&partial_url, None, &sql), "seeding {partial}");
    assert!(psql(&partial_url, None, "VACUUM ANALYZE"));
    assert!(psql(
        url,
        None,
        &format!("ALTER DATABASE {partial} RENAME TO {name}")
    ));
    println!(
        "Grown PostgreSQL database: {name} made in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    name
}

/// A new database copied from the template `seed`; returns its name. (A server that just
/// stopped may still be leaving the template: the copy is tried again for a few seconds.)
pub fn copy_database(url: &str, seed: &str) -> String {
    let name = format!("bench30_copy_{}", uuid::Uuid::new_v4().simple());
    for _ in 0..50 {
        if psql(
            url,
            None,
            &format!("CREATE DATABASE {name} TEMPLATE {seed} STRATEGY FILE_COPY"),
        ) {
            return name;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    panic!("could not copy the template database {seed}");
}

pub fn drop_database(url: &str, name: &str) {
    psql(
        url,
        None,
        &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
    );
}

/// CPU seconds so far of each PostgreSQL backend connected to the database `name`, by pid.
pub fn backend_cpu(url: &str, name: &str) -> std::collections::HashMap<u32, f64> {
    let out = Command::new("psql")
        .args([url, "-Atc"])
        .arg(format!(
            "SELECT pid FROM pg_stat_activity WHERE datname = '{name}'"
        ))
        .output()
        .expect("psql");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|pid| pid.trim().parse().ok())
        .map(|pid| (pid, bench::served::proc_cpu_seconds(pid)))
        .collect()
}

/// The users pgbench's script pushes as (`md5('u' || client_id)`), added to a grown copy.
pub fn add_pgbench_users(url: &str, clients: usize) {
    assert!(psql(
        url,
        None,
        &format!(
            "INSERT INTO users (id, is_anonymous, created_at, last_login, updated_at)
             SELECT md5('u' || n)::uuid, TRUE, 0, 0, 0 FROM generate_series(0, {clients}) n"
        )
    ));
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn a_url_names_another_database() {
        assert_eq!(
            with_database(
                "postgresql:///delivery_test?host=/var/run/postgresql&user=root",
                "x"
            ),
            "postgresql:///x?host=/var/run/postgresql&user=root"
        );
        assert_eq!(
            with_database("postgres://u:p@h:5432/db", "x"),
            "postgres://u:p@h:5432/x"
        );
        assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
    }
}
