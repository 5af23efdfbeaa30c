//! `sync-bench --binary NEW --compare OLD`: two builds of the server side by side on the push
//! and pull figures only, to tell whether a change helped. The full bench measures so much else
//! between two push figures that the noise (±15 % between rounds) hides a 5-10 % change; here
//! each configuration gets a fresh server with the same users, the two builds alternate in every
//! round, and nothing else runs.

use std::{path::Path, time::Duration};

use crate::{ours, ours_rate, stats::spread, with_couriers};

/// Users (and connections) for the 16-connection figure.
const USERS: usize = 16;
/// Pushes before the figure: the first seconds of a fresh database are faster (small tables).
const WARM_UP: Duration = Duration::from_secs(1);

/// Pulls of the ten-year history timed per round; the fastest is kept (the others waited on
/// something else the machine did).
const PULLS: usize = 3;

/// One build's figures in one round.
struct Figures {
    /// Pushes per second, 16 connections, batch 1.
    sixteen: f64,
    /// Pushes per second, one connection, batch 1.
    one: f64,
    /// Seconds for a new device to pull ten years of varied days (3,650 entries), fastest of
    /// [`PULLS`].
    pull: f64,
}

/// One build on a fresh server: 16 connections, then one connection (both batch 1), then the
/// pull of ten years.
async fn figures(binary: &Path, run_for: Duration) -> Figures {
    let server = ours::start(binary, None).await;
    let cookies = ours::sign_up(&server.base, USERS, USERS).await;
    let users = with_couriers(&server.base, cookies).await;
    ours_rate(&server.base, &users, USERS, 1, WARM_UP).await;
    let sixteen = ours_rate(&server.base, &users, USERS, 1, run_for).await;
    let one = ours_rate(&server.base, &users, 1, 1, run_for).await;
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
            old_figures.sixteen,
            new_figures.sixteen,
            (new_figures.sixteen / old_figures.sixteen - 1.0) * 100.0,
            old_figures.one,
            new_figures.one,
            (new_figures.one / old_figures.one - 1.0) * 100.0,
            old_figures.pull * 1000.0,
            new_figures.pull * 1000.0,
            (new_figures.pull / old_figures.pull - 1.0) * 100.0,
        );
        sixteen.push(new_figures.sixteen / old_figures.sixteen);
        one.push(new_figures.one / old_figures.one);
        pull.push(new_figures.pull / old_figures.pull);
    }
    for (figure, ratios) in [
        ("pushes per second, 16 connections", &sixteen),
        ("pushes per second, one connection", &one),
        ("pull time, ten years (below 1 is faster)", &pull),
    ] {
        let (min, median, max) = spread(ratios);
        println!("new / old, {figure}: median {median:.3} (min {min:.3}, max {max:.3})");
    }
}
