//! `sync-bench --only pocketbase [--compare OLD]`: the two push goals of issue 30 against
//! PocketBase alone (16 connections at batch 1, one connection at batch 10), a quick look at a
//! lever. The full run measures memory, the ceilings, 64 connections, pokes and the pull between
//! them; here each round starts every side afresh (ours, PocketBase and, with `--compare`, the
//! old build) and runs each figure on every side in an order that rotates with the round, so
//! drift over the run falls on all of them alike.

use std::{path::Path, sync::Arc};

use crate::{
    Args, Measured, OursUsers, days::Ids, measured_rate, ours, pocketbase::PocketBase,
    pocketbase_rate, stats::Table, stats::Target, stats::Unit, with_couriers,
};

/// Users (and connections) for the 16-connection figure.
const USERS: usize = 16;
/// The figures: (connections, batch).
const FIGURES: [(usize, usize); 2] = [(16, 1), (1, 10)];

/// One of our builds, started on a fresh directory with its users.
struct Ours {
    server: bench::served::Server,
    users: OursUsers,
    _dir: tempfile::TempDir,
}

async fn start_ours(binary: &Path) -> Ours {
    let dir = tempfile::tempdir().unwrap();
    let server = ours::start_in(binary, dir.path(), &[("METRICS_ENABLED", "true")]).await;
    let cookies = ours::sign_up(&server.base, USERS, USERS).await;
    let users = with_couriers(&server.base, cookies).await;
    Ours {
        server,
        users,
        _dir: dir,
    }
}

pub async fn round(args: &Args, round: usize, pocketbase: &Path, table: &mut Table) {
    let run_for = args.run_for;
    let new = start_ours(&args.binary).await;
    let old = match &args.compare {
        Some(binary) => Some(start_ours(binary).await),
        None => None,
    };
    let pb = Arc::new(PocketBase::start(pocketbase).await);
    let pb_users = Arc::new(pb.sign_up(USERS, USERS).await);
    let sides = if old.is_some() { 3 } else { 2 };
    for (connections, batch) in FIGURES {
        let mut ours_figures = [Measured::default(); 2];
        let mut theirs = 0.0;
        for turn in 0..sides {
            match (turn + round) % sides {
                0 => {
                    ours_figures[0] = measured_rate(
                        &new.server,
                        &new.users,
                        connections,
                        batch,
                        Ids::TimeOrdered,
                        run_for,
                    )
                    .await;
                }
                1 => theirs = pocketbase_rate(&pb, &pb_users, connections, batch, run_for).await,
                _ => {
                    let old = old.as_ref().expect("a third side is the old build");
                    ours_figures[1] = measured_rate(
                        &old.server,
                        &old.users,
                        connections,
                        batch,
                        Ids::TimeOrdered,
                        run_for,
                    )
                    .await;
                }
            }
        }
        let [ours, old_figures] = ours_figures;
        let detail = |m: Measured| {
            format!(
                "{:.0}/s, {} pushes per commit, {} µs CPU per mutation",
                m.rate,
                m.per_commit.map_or("?".to_owned(), |n| format!("{n:.1}")),
                m.cpu_per_mutation
                    .map_or("?".to_owned(), |n| format!("{n:.0}"))
            )
        };
        println!(
            "    ({connections} connections, batch {batch}: ours {}, PocketBase {theirs:.0}/s{})",
            detail(ours),
            if old.is_some() {
                format!(", old build {}", detail(old_figures))
            } else {
                String::new()
            }
        );
        let figure = format!("Push {connections} conn batch {batch}");
        table.record(
            &format!("{figure}: ours / PocketBase"),
            "PocketBase, same client",
            Target::AtLeast(5.0),
            Unit::Ratio,
            ours.rate / theirs,
        );
        if old.is_some() {
            table.record(
                &format!("{figure}: old build / PocketBase"),
                "PocketBase, same client",
                Target::None,
                Unit::Ratio,
                old_figures.rate / theirs,
            );
            table.record(
                &format!("{figure}: this build / the old build"),
                "--compare OLD, same round",
                Target::None,
                Unit::Ratio,
                ours.rate / old_figures.rate,
            );
            if let Some((a, b)) = ours.cpu_per_mutation.zip(old_figures.cpu_per_mutation) {
                table.record(
                    &format!("{figure}: CPU per mutation, this build / the old build"),
                    "user+system time (/proc/PID/stat) over the writer's jobs",
                    Target::None,
                    Unit::Ratio,
                    a / b,
                );
            }
        }
    }
}
