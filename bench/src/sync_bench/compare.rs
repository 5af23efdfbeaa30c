//! `sync-bench --binary NEW --compare OLD`: two builds of the server side by side on the push
//! and pull figures only, to tell whether a change helped. The full bench measures so much else
//! between two push figures that the noise (±15 % between rounds) hides a 5-10 % change; here
//! each configuration gets a fresh server with the same users, the two builds alternate in every
//! round, and nothing else runs.

use std::{path::Path, time::Duration};

use crate::{Measured, days::Ids, measured_rate, ours, ours_rate, stats::spread, with_couriers};

/// Users (and connections) for the 16-connection figure.
const USERS: usize = 16;
/// Pushes before the figure: the first seconds of a fresh database are faster (small tables).
const WARM_UP: Duration = Duration::from_secs(1);

/// Pulls of the ten-year history timed per round; the fastest is kept (the others waited on
/// something else the machine did).
const PULLS: usize = 3;

/// One build's figures in one round.
struct Figures {
    /// 16 connections, batch 1: pushes per second and the server's CPU time per push.
    sixteen: Measured,
    /// One connection, batch 1.
    one: Measured,
    /// Seconds for a new device to pull ten years of varied days (3,650 entries), fastest of
    /// [`PULLS`].
    pull: f64,
}

/// One build on a fresh server: 16 connections, then one connection (both batch 1), then the
/// pull of ten years.
async fn figures(binary: &Path, run_for: Duration) -> Figures {
    let dir = tempfile::tempdir().unwrap();
    let server = ours::start_in(binary, dir.path(), &[("METRICS_ENABLED", "true")]).await;
    let cookies = ours::sign_up(&server.base, USERS, USERS).await;
    let users = with_couriers(&server.base, cookies).await;
    ours_rate(&server.base, &users, USERS, 1, WARM_UP).await;
    let sixteen = measured_rate(&server, &users, USERS, 1, Ids::TimeOrdered, run_for).await;
    let one = measured_rate(&server, &users, 1, 1, Ids::TimeOrdered, run_for).await;
    let history = ours::user_with_history(&server.base).await;
    let mut pull = f64::INFINITY;
    for _ in 0..PULLS {
        let (took, _, changes) = ours::pull_history(&server.base, &history).await;
        assert!(changes > 0, "the history pull returned nothing");
        pull = pull.min(took.as_secs_f64());
    }
    Figures { sixteen, one, pull }
}

pub async fn run(new: &Path, old: &Path, rounds: usize, run_for: Duration) {
    println!(
        "Push and pull figures, {} (new) against {} (old): {rounds} rounds of {} s, a fresh server each",
        new.display(),
        old.display(),
        run_for.as_secs()
    );
    let (mut sixteen, mut one, mut pull) = (Vec::new(), Vec::new(), Vec::new());
    // The server's CPU time per push, new / old: on a busy machine the rates swing by several
    // times between rounds, the CPU a push costs far less.
    let (mut sixteen_cpu, mut one_cpu) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternate which build goes first, so drift falls on both.
        let (new_figures, old_figures) = if round % 2 == 0 {
            let new_figures = figures(new, run_for).await;
            (new_figures, figures(old, run_for).await)
        } else {
            let old_figures = figures(old, run_for).await;
            (figures(new, run_for).await, old_figures)
        };
        println!(
            "round {}: 16 conn {:.0} -> {:.0}/s ({:+.1} %), 1 conn {:.0} -> {:.0}/s ({:+.1} %), pull {:.1} -> {:.1} ms ({:+.1} %)",
            round + 1,
            old_figures.sixteen.rate,
            new_figures.sixteen.rate,
            (new_figures.sixteen.rate / old_figures.sixteen.rate - 1.0) * 100.0,
            old_figures.one.rate,
            new_figures.one.rate,
            (new_figures.one.rate / old_figures.one.rate - 1.0) * 100.0,
            old_figures.pull * 1000.0,
            new_figures.pull * 1000.0,
            (new_figures.pull / old_figures.pull - 1.0) * 100.0,
        );
        sixteen.push(new_figures.sixteen.rate / old_figures.sixteen.rate);
        one.push(new_figures.one.rate / old_figures.one.rate);
        let cpu = |new: Measured, old: Measured| new.cpu_per_mutation.zip(old.cpu_per_mutation);
        if let Some((new, old)) = cpu(new_figures.sixteen, old_figures.sixteen) {
            sixteen_cpu.push(new / old);
        }
        if let Some((new, old)) = cpu(new_figures.one, old_figures.one) {
            one_cpu.push(new / old);
        }
        pull.push(new_figures.pull / old_figures.pull);
    }
    for (figure, ratios) in [
        ("pushes per second, 16 connections", &sixteen),
        ("pushes per second, one connection", &one),
        ("pull time, ten years (below 1 is faster)", &pull),
        (
            "server CPU per push, 16 connections (below 1 is less)",
            &sixteen_cpu,
        ),
        (
            "server CPU per push, one connection (below 1 is less)",
            &one_cpu,
        ),
    ] {
        if ratios.is_empty() {
            continue;
        }
        let (min, median, max) = spread(ratios);
        println!("new / old, {figure}: median {median:.3} (min {min:.3}, max {max:.3})");
    }
}
