//! `delivery-tracker`: serve the app (default) or run an operator command.

use std::{io::IsTerminal, path::PathBuf, process::ExitCode, time::Duration};

use clap::{Parser, Subcommand};
use domain::Role;
use server::{
    AppState,
    config::{Config, DatabaseTarget},
    store,
};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// jemalloc for the server's own allocations (SQLite's C code keeps the system malloc). With
/// glibc's malloc, allocating and freeing was 8.6 % of the server's CPU at 16 connections, 1.3 %
/// of it merging small free chunks before each request's new 8 KB read buffer
/// (`malloc_consolidate`); with jemalloc the server pushed 11.8 % more at 16 connections and 5 %
/// more at one (`sync-bench --compare`, median of 4 rounds). Its default configuration gives
/// allocations of 8 MiB and more (the argon2 buffers, see auth/password.rs) back to the system
/// as soon as they are freed. Measured and not taken: mimalloc, which kept freed argon2 buffers
/// resident (47 MB idle).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[derive(Parser)]
#[command(
    name = "delivery-tracker",
    version,
    about = "Self-hosted, offline-first delivery log"
)]
struct Cli {
    #[command(flatten)]
    config: Config,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web app and API (the default).
    Serve,
    /// Manage users.
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Write a consistent copy of the database and stored files, with a manifest of
    /// checksums, to one archive (tar + gzip). Safe while the server runs.
    Backup {
        /// The archive to write (it appears only once complete).
        #[arg(long)]
        out: PathBuf,
    },
    /// Restore an archive from `backup` into a new or empty DATA_DIR, after verifying every
    /// checksum.
    Restore {
        /// The archive to restore.
        archive: PathBuf,
    },
    /// Ask the server listening on LISTEN (on this machine) for /healthz: exit 0 when it
    /// answers 200, 1 otherwise. For container HEALTHCHECKs, where there is no curl.
    Healthcheck {
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 5)]
        timeout: u64,
    },
    /// Read contact-form messages.
    Messages {
        #[command(subcommand)]
        command: MessagesCommand,
    },
}

#[derive(Subcommand)]
enum MessagesCommand {
    /// Show the newest messages, newest first.
    List {
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
}

#[derive(Subcommand)]
enum UsersCommand {
    /// List every user.
    List,
    /// Set a user's plan.
    SetRole {
        /// The user's e-mail, phone number (+44…) or id.
        user: String,
        #[arg(value_parser = ["free", "pro"])]
        role: String,
    },
    /// Delete a user and everything of theirs: records, receipts, pictures, sessions and
    /// sign-in identities. Cannot be undone.
    Delete {
        /// The user's e-mail, phone number (+44…) or id.
        user: String,
        /// Confirms the deletion (required).
        #[arg(long)]
        yes: bool,
    },
    /// Set a new random password for an e-mail account and end all its sessions; prints the
    /// password once.
    ResetPassword {
        /// The user's e-mail, phone number (+44…) or id.
        user: String,
    },
}

fn main() -> ExitCode {
    if let Err(err) = load_dotenv() {
        eprintln!("configuration error: {err}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    init_tracing(&cli.config.log_format);
    if let Err(err) = cli.config.validate() {
        eprintln!("{err}");
        return ExitCode::from(2);
    }
    let runtime = tokio::runtime::Runtime::new().expect("tokio runtime");
    let outcome = runtime.block_on(run(cli));
    // Work left on blocking threads (a backup stopped by a signal) ends with the process
    // rather than holding it up.
    runtime.shutdown_background();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config).await,
        // Backup and restore work on files, never through an opened store: opening would
        // create and migrate a database where there must be none (restore), or where only a
        // copy is wanted (backup).
        Command::Backup { out } => {
            let summary = server::backup::create_unless_interrupted(&config, &out).await?;
            print_notes(&summary.notes);
            println!(
                "backup written to {}: {}{} file(s), {} bytes of files",
                out.display(),
                if summary.database { "database, " } else { "" },
                summary.files,
                summary.bytes
            );
            Ok(())
        }
        Command::Restore { archive } => {
            let summary = server::backup::restore(&config, &archive).await?;
            print_notes(&summary.notes);
            println!(
                "restored into {}: {}{} file(s)",
                config.data_dir.display(),
                if summary.database { "database, " } else { "" },
                summary.files
            );
            Ok(())
        }
        Command::Users { command } => users(&config, command).await,
        Command::Healthcheck { timeout } => {
            server::healthcheck::probe(config.http.listen, Duration::from_secs(timeout)).await?;
            println!("ok");
            Ok(())
        }
        Command::Messages {
            command: MessagesCommand::List { limit },
        } => {
            let store = open_existing(&config).await?;
            server::admin::list_messages(&store, limit, &mut std::io::stdout().lock()).await
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let store = store::open(&config).await?;
    server::http::connections::raise_open_file_limit();
    let listener = TcpListener::bind(config.http.listen).await?;
    tracing::info!(config = ?config, "starting");
    println!(
        "Delivery Tracker listening on http://{}",
        listener.local_addr()?
    );
    let state = AppState::new(config, store)?;
    server::serve(listener, state, shutdown_signal()).await?;
    Ok(())
}

async fn users(config: &Config, command: UsersCommand) -> anyhow::Result<()> {
    let store = open_existing(config).await?;
    let region = config.phone.phone_default_region;
    match command {
        UsersCommand::List => {
            server::admin::list_users(&store, &mut std::io::stdout().lock()).await?;
        }
        UsersCommand::SetRole { user, role } => {
            let role: Role = role.parse().map_err(anyhow::Error::msg)?;
            let user = server::admin::set_role(&store, &user, region, role).await?;
            println!("{} is now {role}", server::admin::describe(&user));
        }
        UsersCommand::Delete { user, yes } => {
            if !yes {
                anyhow::bail!("deleting a user cannot be undone: add --yes to confirm");
            }
            let files = server::files::FileStore::from_config(config)?;
            let (user, removed) = server::admin::delete_user(&store, &files, &user, region).await?;
            println!(
                "deleted {} with all their data and {removed} file(s)",
                server::admin::describe(&user)
            );
        }
        UsersCommand::ResetPassword { user } => {
            let (user, password, ended) =
                server::admin::reset_password(&store, &user, region).await?;
            println!(
                "{} now signs in with this temporary password ({ended} session(s) ended):\n\n    \
                 {password}\n\nPass it on privately; the app asks them to choose a new one \
                 before anything else.",
                server::admin::describe(&user)
            );
        }
    }
    Ok(())
}

/// The store for an operator command. On SQLite the database must already exist: a command
/// run from the wrong directory would otherwise create an empty one there and report that it
/// holds nothing.
async fn open_existing(config: &Config) -> anyhow::Result<store::DynStore> {
    if let DatabaseTarget::Sqlite(path) = config.database.target(&config.data_dir)?
        && !path.exists()
    {
        anyhow::bail!(
            "no database at {}: set DATA_DIR (or DATABASE_URL) to the server's, or start the \
             server once to create it",
            path.display()
        );
    }
    store::open(config).await
}

/// Reads `.env` from the working directory, if there is one, into the environment before the
/// configuration is parsed. A variable already set is never replaced, so the precedence is:
/// flag, then the real environment, then `.env`, then the default. Only the working directory
/// is looked in (not its parents), so which file counts is never a surprise. A `.env` that
/// cannot be read or parsed stops the start rather than being half applied.
fn load_dotenv() -> Result<(), String> {
    match dotenvy::from_path(".env") {
        Ok(()) => Ok(()),
        Err(err) if err.not_found() => Ok(()),
        Err(err) => Err(format!(".env in the working directory: {err}")),
    }
}

fn print_notes(notes: &[String]) {
    for note in notes {
        println!("note: {note}");
    }
}

fn init_tracing(format: &str) {
    let filter = EnvFilter::try_from_env("LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only on a terminal: a log file or journald would keep the escape codes.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    if format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = terminate => {} }
    tracing::info!("shutting down");
}
