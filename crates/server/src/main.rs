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
    /// works once when SMTP_URL and PUBLIC_URL are set, otherwise prints it.
    Invite {
        /// The address to invite.
        email: String,
        /// Days the link works.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=30))]
        days: u32,
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
    match runtime.block_on(run(cli)) {
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
            let summary = server::backup::create(&config, &out).await?;
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
