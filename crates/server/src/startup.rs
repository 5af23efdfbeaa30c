//! What `serve` checks and says as it starts: the port is taken first (before migrations touch
//! the database), with the address named when it cannot be; settings that would fail quietly
//! later are warned about; one line says what is on; and the last lines say where to open the
//! app and what to do there first.

use std::{io, net::SocketAddr};

use anyhow::anyhow;
use tokio::net::TcpListener;

use crate::{
    config::{Config, DatabaseTarget, SmsSenderKind, StorageKind},
    healthcheck::probe_address,
};

/// The tokio runtime `serve` and the operator commands run on. On SQLite one core belongs to
/// the writer thread (it commits every write, see store/sqlite/writer.rs), so the runtime gets
/// one worker fewer than the machine has cores, at least one. On two cores a second worker
/// only traded places with the writer thread: at 16 connections one worker cost 0.45x the
/// context switches and about 0.9x the CPU a push (`sync-bench --only pocketbase --compare`,
/// interleaved rounds). PostgreSQL does its work in its own processes: a worker
/// per core. `TOKIO_WORKER_THREADS` overrides both.
pub fn runtime(config: &Config) -> io::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if std::env::var_os("TOKIO_WORKER_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        builder.worker_threads(worker_threads(cores, config));
    }
    builder.build()
}

fn worker_threads(cores: usize, config: &Config) -> usize {
    match config.database.target(&config.data_dir) {
        Ok(DatabaseTarget::Sqlite(_)) => cores.saturating_sub(1).max(1),
        _ => cores,
    }
}

/// Listens on `listen`, or says which address could not be had and what to do about it.
pub async fn bind(listen: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(listen).await.map_err(|err| {
        let port = listen.port();
        let hint = match err.kind() {
            io::ErrorKind::AddrInUse => format!(
                ": another program (perhaps another Delivery Tracker) already listens there. Stop \
                 it (`ss -ltnp 'sport = :{port}'` names it), or set LISTEN to a free port"
            ),
            io::ErrorKind::PermissionDenied => format!(
                ": ports below 1024 need root. Listen on a higher port (LISTEN=127.0.0.1:8080) \
                 behind a proxy that has port {port}"
            ),
            io::ErrorKind::AddrNotAvailable => {
                ": no network interface of this machine has that address (`ip addr` lists them)"
                    .to_owned()
            }
            _ => String::new(),
        };
        anyhow!("cannot listen on {listen} (LISTEN): {err}{hint}")
    })
}

/// Warns about settings that work at start and fail later where nobody is looking.
pub fn warn_about(config: &Config) {
    if let Some(warning) = config.http.plain_http_warning() {
        tracing::warn!("{warning}");
    }
}

/// One line saying what this server has switched on, in place of the whole configuration.
pub fn log_summary(config: &Config) {
    tracing::info!(
        database = database(config).as_str(),
        files = files(config).as_str(),
        sign_in = sign_in(config).as_str(),
        sign_ups = if config.signups.signups_open {
            "open"
        } else {
            "closed"
        },
        public_url = config
            .http
            .public_origin()
            .ok()
            .flatten()
            .as_deref()
            .unwrap_or("unset"),
        contact_email = on_off(config.smtp.smtp_url.is_some()),
        payments = on_off(config.billing.stripe_secret_key.is_some()),
        backups = backups(config).as_str(),
        metrics = on_off(config.metrics.metrics_enabled),
        "starting"
    );
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

fn database(config: &Config) -> String {
    match config.database.target(&config.data_dir) {
        Ok(DatabaseTarget::Sqlite(path)) => format!("SQLite {}", absolute(&path)),
        Ok(DatabaseTarget::Postgres(url)) => url.parse::<tokio_postgres::Config>().map_or_else(
            |_| "PostgreSQL".into(),
            |c| crate::store::postgres::describe(&c),
        ),
        Err(_) => "unknown".into(),
    }
}

fn files(config: &Config) -> String {
    match config.storage.storage {
        StorageKind::Local => absolute(&config.files_dir()),
        StorageKind::S3 => format!(
            "S3 bucket {}",
            config.storage.s3_bucket.as_deref().unwrap_or("?")
        ),
    }
}

fn sign_in(config: &Config) -> String {
    let mut ways = vec!["e-mail".to_owned()];
    match config.phone.sms_sender {
        Some(SmsSenderKind::Log) => ways.push("phone (codes in the log)".into()),
        Some(SmsSenderKind::Http) => ways.push("phone".into()),
        None => {}
    }
    if config.oidc.oidc_issuer.is_some() {
        ways.push(config.oidc.oidc_label.clone());
    }
    if config.signups.guests_enabled {
        ways.push("guest".into());
    }
    ways.join(", ")
}

fn backups(config: &Config) -> String {
    let backup = &config.backup;
    backup.backup_dir.as_ref().map_or_else(
        || "off".into(),
        |dir| {
            format!(
                "every {} h to {}, keeping {}",
                backup.backup_interval_hours,
                absolute(dir),
                backup.backup_keep
            )
        },
    )
}

fn absolute(path: &std::path::Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_owned())
        .display()
        .to_string()
}

/// The lines printed once the server is ready, ending with where to open it and what to do
/// there first. `users` is how many accounts exist (none yet: sign up).
pub fn welcome(local: SocketAddr, config: &Config, users: u64) -> Vec<String> {
    let listening = format!("Delivery Tracker listening on http://{local}");
    let url = config
        .http
        .public_origin()
        .ok()
        .flatten()
        .unwrap_or_else(|| format!("http://{}", probe_address(local)));
    let first_step = match (users, config.signups.signups_open) {
        (0, true) => "and choose Sign Up to create the first account",
        (0, false) => {
            "(sign-ups are closed and there is no account yet: create one with \
             `delivery-tracker users create EMAIL` or send a sign-up link with \
             `delivery-tracker users invite EMAIL`)"
        }
        (_, _) => "and sign in",
    };
    let on_this_machine = if local.ip().is_unspecified() && config.http.public_url.is_none() {
        " on this machine"
    } else {
        ""
    };
    vec![
        listening,
        format!("Open {url} in a browser{on_this_machine} {first_step}."),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sqlite_writer_thread_keeps_a_core_of_its_own() {
        let sqlite = Config::for_data_dir("/srv/dt");
        assert_eq!(worker_threads(2, &sqlite), 1);
        assert_eq!(worker_threads(8, &sqlite), 7);
        assert_eq!(worker_threads(1, &sqlite), 1, "never none");
        let mut postgres = Config::for_data_dir("/srv/dt");
        postgres.database.database_url = Some("postgres://db.example/dt".into());
        assert_eq!(worker_threads(2, &postgres), 2);
    }

    #[test]
    fn the_last_line_says_where_to_go_and_what_to_do_first() {
        let config = Config::for_data_dir("/srv/dt");
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let lines = welcome(local, &config, 0);
        assert_eq!(
            lines[0],
            "Delivery Tracker listening on http://127.0.0.1:8080"
        );
        assert_eq!(
            lines[1],
            "Open http://127.0.0.1:8080 in a browser and choose Sign Up to create the first account."
        );
        assert_eq!(
            welcome(local, &config, 3)[1],
            "Open http://127.0.0.1:8080 in a browser and sign in."
        );
        let mut public = Config::for_data_dir("/srv/dt");
        public.http.public_url = Some("https://tracker.example.com/".into());
        assert_eq!(
            welcome("0.0.0.0:8080".parse().unwrap(), &public, 1)[1],
            "Open https://tracker.example.com in a browser and sign in."
        );
        assert_eq!(
            welcome("0.0.0.0:8080".parse().unwrap(), &config, 1)[1],
            "Open http://127.0.0.1:8080 in a browser on this machine and sign in."
        );
    }

    #[tokio::test]
    async fn a_port_in_use_is_named_with_what_to_do() {
        let taken = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = taken.local_addr().unwrap();
        let why = bind(address).await.unwrap_err().to_string();
        assert!(
            why.contains(&format!("cannot listen on {address}"))
                && why.contains("LISTEN")
                && why.contains(&format!("sport = :{}", address.port())),
            "{why}"
        );
    }
}
