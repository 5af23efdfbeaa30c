//! `delivery-tracker`: serve the app (default) or run an operator command.

use std::{
    io::{IsTerminal, Write},
    net::SocketAddr,
    path::PathBuf,
    process::ExitCode,
    time::Duration,
};

use clap::{Args, Parser, Subcommand};
use domain::Role;
use server::words::counted;
use server::{
    AppState,
    config::{Config, ConfigError, DatabaseTarget},
    startup, store,
};
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
    about = "Self-hosted, offline-first delivery log",
    after_help = "With no command, `serve`. Every setting is an environment variable (or a line \
                  in .env in the working directory); `delivery-tracker serve --help` lists the \
                  server's."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The settings an operator command needs to find the data: shown in its help and taken as
/// flags too. Everything else it uses comes from the environment, as for `serve`.
#[derive(Args, Clone)]
struct DataArgs {
    /// The server's data directory (SQLite database and uploaded files).
    #[arg(long, env = "DATA_DIR", default_value = "./data", global = true)]
    data_dir: PathBuf,
    /// The server's database, when not SQLite in DATA_DIR (`postgres://…`).
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    database_url: Option<String>,
}

/// Said under the help of every command that names a user.
const USER_HELP: &str = "USER is an e-mail, a phone number (national numbers are read in \
                         PHONE_DEFAULT_REGION, GB by default) or a user id from `users list`. \
                         Storage settings (STORAGE, S3_*) come from the environment, as for \
                         `serve`.";

#[derive(Subcommand)]
enum Command {
    /// Serve the web app and API (the default).
    Serve {
        #[command(flatten)]
        config: Box<Config>,
    },
    /// Manage users.
    #[command(after_help = USER_HELP)]
    Users {
        #[command(flatten)]
        data: DataArgs,
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Write a consistent copy of the database and stored files, with a manifest of
    /// checksums, to one archive (tar + gzip). Safe while the server runs.
    Backup {
        /// The archive to write (it appears only once complete).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Restore an archive from `backup` into a new or empty DATA_DIR, after verifying every
    /// checksum.
    Restore {
        /// The archive to restore.
        archive: PathBuf,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Ask the server listening on LISTEN (on this machine) for /healthz: exit 0 when it
    /// answers 200, 1 otherwise. For container HEALTHCHECKs, where there is no curl.
    Healthcheck {
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 5)]
        timeout: u64,
        /// The server's listen address (a wildcard address is asked on loopback).
        #[arg(long, env = "LISTEN", default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
    },
    /// Read contact-form messages.
    Messages {
        #[command(flatten)]
        data: DataArgs,
        #[command(subcommand)]
        command: MessagesCommand,
    },
    /// Print the record kinds' contract (fields, types, bounds, references, starter records
    /// and the OpenAPI document) that the web app is generated from: for
    /// web/src/sync/contract.json.
    #[command(hide = true)]
    Contract,
}

#[derive(Subcommand)]
enum MessagesCommand {
    /// Show the newest messages, newest first.
    List {
        /// How many messages to show.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
}

#[derive(Subcommand)]
enum UsersCommand {
    /// List every user: id, e-mail, phone, plan, guest or account, created, display name.
    List,
    /// Set a user's plan (free or pro); it takes effect at once.
    #[command(alias = "set-role", after_help = USER_HELP)]
    SetPlan {
        /// The user's e-mail, phone number or id.
        user: String,
        #[arg(value_parser = ["free", "pro"])]
        plan: String,
    },
    /// Delete a user and everything of theirs: records, receipts, pictures, sessions and
    /// sign-in identities. Cannot be undone.
    #[command(after_help = USER_HELP)]
    Delete {
        /// The user's e-mail, phone number or id.
        user: String,
        /// Confirms the deletion (required).
        #[arg(long)]
        yes: bool,
    },
    /// Set a new random password for an e-mail account and end all its sessions; prints the
    /// password once.
    #[command(after_help = USER_HELP)]
    ResetPassword {
        /// The user's e-mail, phone number or id.
        user: String,
    },
    /// Create an e-mail account (also while SIGNUPS_OPEN=false). Prints a temporary password,
    /// to be changed at first sign-in, unless --password-stdin gives one.
    Create {
        /// The new account's e-mail address.
        email: String,
        /// Read the password from the first line of standard input instead.
        #[arg(long)]
        password_stdin: bool,
        /// The display name.
        #[arg(long)]
        name: Option<String>,
    },
    /// Invite an e-mail address to sign up (also while SIGNUPS_OPEN=false): e-mails a link that
    /// works once when the server can send mail, otherwise prints it.
    Invite {
        /// The address to invite.
        email: String,
        /// Days the link works.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=30))]
        days: u32,
    },
}

impl Command {
    /// Every setting the command runs with. `serve` takes them all as flags; the operator
    /// commands take the data settings as flags and the rest from the environment alone.
    fn config(&self) -> Result<Config, clap::Error> {
        let data = match self {
            Command::Serve { config } => return Ok(config.as_ref().clone()),
            Command::Users { data, .. }
            | Command::Backup { data, .. }
            | Command::Restore { data, .. }
            | Command::Messages { data, .. } => Some(data),
            Command::Healthcheck { .. } | Command::Contract => None,
        };
        let mut config = Config::from_env()?;
        if let Some(data) = data {
            config.data_dir.clone_from(&data.data_dir);
            config.database.database_url.clone_from(&data.database_url);
        }
        if let Command::Healthcheck { listen, .. } = self {
            config.http.listen = *listen;
        }
        Ok(config)
    }
}

fn main() -> ExitCode {
    if let Err(err) = load_dotenv() {
        eprintln!("configuration error: {err}");
        return ExitCode::from(2);
    }
    let command = match Cli::parse().command {
        Some(command) => command,
        None => Command::Serve {
            config: Box::new(Config::from_env().unwrap_or_else(|err| err.exit())),
        },
    };
    let config = command.config().unwrap_or_else(|err| err.exit());
    init_tracing(&config.log_format);
    if let Err(err) = config.validate() {
        eprintln!("{err}");
        return ExitCode::from(2);
    }
    let runtime = startup::runtime(&config).expect("tokio runtime");
    let outcome = runtime.block_on(run(command, config));
    // Work left on blocking threads (a backup stopped by a signal) ends with the process
    // rather than holding it up.
    runtime.shutdown_background();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            // Settings refused only once they are tried (BACKUP_DIR) exit as refused settings do.
            if err.downcast_ref::<ConfigError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

async fn run(command: Command, config: Config) -> anyhow::Result<()> {
    match command {
        Command::Serve { .. } => serve(config).await,
        // Backup and restore work on files, never through an opened store: opening would
        // create and migrate a database where there must be none (restore), or where only a
        // copy is wanted (backup).
        Command::Backup { out, .. } => {
            let summary = server::backup::create_unless_interrupted(&config, &out).await?;
            print_notes(&summary.notes);
            println!(
                "backup written to {}: {}{}, {} of files",
                out.display(),
                if summary.database { "database, " } else { "" },
                counted(summary.files, "file", "files"),
                counted(summary.bytes, "byte", "bytes")
            );
            Ok(())
        }
        Command::Restore { archive, .. } => {
            let summary = server::backup::restore(&config, &archive).await?;
            print_notes(&summary.notes);
            println!(
                "restored into {}: {}{}",
                config.data_dir.display(),
                if summary.database { "database, " } else { "" },
                counted(summary.files, "file", "files")
            );
            Ok(())
        }
        Command::Users { command, .. } => users(&config, command).await,
        Command::Contract => {
            use std::io::Write;
            std::io::stdout()
                .lock()
                .write_all(server::registry::contract::text().as_bytes())?;
            Ok(())
        }
        Command::Healthcheck { timeout, .. } => {
            server::healthcheck::probe(config.http.listen, Duration::from_secs(timeout)).await?;
            println!("ok");
            Ok(())
        }
        Command::Messages {
            command: MessagesCommand::List { limit },
            ..
        } => {
            let store = open_existing(&config).await?;
            server::admin::list_messages(&store, limit, &mut std::io::stdout().lock()).await
        }
    }
}

/// Checks and takes everything it can before the database is touched (the port, BACKUP_DIR),
/// so a refused start changes nothing; then migrates, says what is on, and serves.
async fn serve(config: Config) -> anyhow::Result<()> {
    server::http::connections::raise_open_file_limit();
    let listener = startup::bind(config.http.listen).await?;
    if let Some(dir) = &config.backup.backup_dir {
        server::backup::schedule::check_writable(dir)?;
    }
    let store = store::open(&config).await?;
    startup::log_summary(&config);
    startup::warn_about(&config);
    let users = store.count_users().await?;
    let local = listener.local_addr()?;
    let welcome = startup::welcome(local, &config, users);
    let state = AppState::new(config, store)?;
    server::serve_announced(listener, state, shutdown_signal(), || {
        // Not println!: a closed stdout (`serve | head -1`, a supervisor gone) panics it, and
        // the server must serve on whatever became of its terminal.
        let mut stdout = std::io::stdout().lock();
        for line in welcome {
            let _ = writeln!(stdout, "{line}");
        }
        let _ = stdout.flush();
    })
    .await?;
    Ok(())
}

async fn users(config: &Config, command: UsersCommand) -> anyhow::Result<()> {
    let store = open_existing(config).await?;
    let region = config.phone.phone_default_region;
    match command {
        UsersCommand::List => {
            server::admin::list_users(&store, &mut std::io::stdout().lock()).await?;
        }
        UsersCommand::SetPlan { user, plan } => {
            let plan: Role = plan.parse().map_err(anyhow::Error::msg)?;
            let user = server::admin::set_role(&store, &user, region, plan).await?;
            println!(
                "{} is now on the {plan} plan",
                server::admin::describe(&user)
            );
        }
        UsersCommand::Delete { user, yes } => {
            if !yes {
                anyhow::bail!("deleting a user cannot be undone: add --yes to confirm");
            }
            let files = server::files::FileStore::from_config(config)?;
            let (user, removed) = server::admin::delete_user(&store, &files, &user, region).await?;
            println!(
                "deleted {} with all their data and {}",
                server::admin::describe(&user),
                counted(removed, "file", "files")
            );
        }
        UsersCommand::ResetPassword { user } => {
            let (user, password, ended) =
                server::admin::reset_password(&store, &user, region).await?;
            println!(
                "{} now signs in with this temporary password ({} ended):\n\n    \
                 {password}\n\nPass it on privately; the app asks them to choose a new one \
                 before anything else.",
                server::admin::describe(&user),
                counted(ended, "session", "sessions")
            );
        }
        UsersCommand::Create {
            email,
            password_stdin,
            name,
        } => {
            let first = if password_stdin {
                server::admin::FirstPassword::Given(read_password_line()?)
            } else {
                server::admin::FirstPassword::Temporary
            };
            let (user, temporary) =
                server::admin::create_user(&store, &email, name.as_deref(), first).await?;
            match temporary {
                Some(password) => println!(
                    "created {} with this temporary password:\n\n    {password}\n\nPass it on \
                     privately; the app asks them to choose a new one before anything else.",
                    server::admin::describe(&user)
                ),
                None => println!(
                    "created {}; it signs in with the password given",
                    server::admin::describe(&user)
                ),
            }
        }
        UsersCommand::Invite { email, days } => invite(config, &store, &email, days).await?,
    }
    Ok(())
}

/// `users invite`: e-mailed when links can be (SMTP and PUBLIC_URL), printed otherwise.
async fn invite(
    config: &Config,
    store: &store::DynStore,
    email: &str,
    days: u32,
) -> anyhow::Result<()> {
    use server::auth::email_links::{LinkMail, fallback_origin, messages};
    let mail = LinkMail::from_config(config)?;
    let public = config.http.public_origin()?;
    let origin = match (&mail, &public) {
        (Some(mail), _) => mail.origin.clone(),
        (None, Some(origin)) => origin.clone(),
        (None, None) => fallback_origin(config.http.listen),
    };
    let invitation = server::admin::invite_user(store, email, days, &origin).await?;
    let until = domain::time_fmt::rfc3339_from_ms(invitation.expires_at_ms);
    if let Some(mail) = mail {
        let message = messages::invitation(
            mail.mailer.from(),
            &invitation.email,
            &invitation.url,
            &mail.origin,
            invitation.expires_at_ms,
        )?;
        if let Err(why) = mail.mailer.send(message).await {
            anyhow::bail!(
                "could not e-mail the invitation to {} ({why}). The link works all the same \
                 (once, until {until}); pass it on yourself:\n\n    {}\n",
                invitation.email.as_str(),
                invitation.url
            );
        }
        println!(
            "e-mailed an invitation to {}: the link works once, until {until}",
            invitation.email.as_str()
        );
        return Ok(());
    }
    println!(
        "invitation for {} (it works once, until {until}):\n\n    {}\n\nPass it on to them; it \
         opens a sign-up page for that address, even with sign-ups closed.",
        invitation.email.as_str(),
        invitation.url
    );
    if public.is_none() {
        println!(
            "note: PUBLIC_URL is not set, so the link names LISTEN's address; set PUBLIC_URL to \
             the address your users open."
        );
    }
    Ok(())
}

/// The first line of standard input, without its line ending (for `--password-stdin`).
fn read_password_line() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    let password = line.trim_end_matches(['\r', '\n']).to_owned();
    if password.is_empty() {
        anyhow::bail!("--password-stdin: standard input held no password");
    }
    Ok(password)
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
/// cannot be read or parsed stops the start rather than being half applied; a working directory
/// this user may not even look into (an admin command run with `sudo -u` from /root) holds no
/// `.env` it could mean.
fn load_dotenv() -> Result<(), String> {
    match std::fs::symlink_metadata(".env") {
        Err(err) if err.kind() == std::io::ErrorKind::PermissionDenied => return Ok(()),
        _ => {}
    }
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
