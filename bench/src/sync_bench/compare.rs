//! `sync-bench --binary NEW --compare OLD`: two builds of the server side by side on the push
//! figures only, to tell whether a change helped. The full bench measures so much else between
//! two push figures that the noise (±15 % between rounds) hides a 5-10 % change; here each
//! configuration gets a fresh server with the same users, the two builds alternate in every
//! round, and nothing else runs.

use std::{path::Path, time::Duration};

use crate::{ours, ours_rate, stats::spread, with_couriers};

/// Users (and connections) for the 16-connection figure.
const USERS: usize = 16;
/// Pushes before the figure: the first seconds of a fresh database are faster (small tables).
const WARM_UP: Duration = Duration::from_secs(1);

/// Pushes per second of one build: 16 connections, then one connection, both batch 1.
async fn push_figures(binary: &Path, run_for: Duration) -> (f64, f64) {
    let server = ours::start(binary, None).await;
    let cookies = ours::sign_up(&server.base, USERS, USERS).await;
    let users = with_couriers(&server.base, cookies).await;
    ours_rate(&server.base, &users, USERS, 1, WARM_UP).await;
    let sixteen = ours_rate(&server.base, &users, USERS, 1, run_for).await;
    let one = ours_rate(&server.base, &users, 1, 1, run_for).await;
    (sixteen, one)
}

pub async fn run(new: &Path, old: &Path, rounds: usize, run_for: Duration) {
    println!(
        "Push figures, {} (new) against {} (old): {rounds} rounds of {} s, a fresh server each",
        new.display(),
        old.display(),
        run_for.as_secs()
    );
    let (mut sixteen, mut one) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternate which build goes first, so drift falls on both.
        let (new_figures, old_figures) = if round % 2 == 0 {
            let new_figures = push_figures(new, run_for).await;
            (new_figures, push_figures(old, run_for).await)
        } else {
            let old_figures = push_figures(old, run_for).await;
            (push_figures(new, run_for).await, old_figures)
        };
        println!(
            "round {}: 16 conn {:.0} -> {:.0}/s ({:+.1} %), 1 conn {:.0} -> {:.0}/s ({:+.1} %)",
            round + 1,
            old_figures.0,
            new_figures.0,
            (new_figures.0 / old_figures.0 - 1.0) * 100.0,
            old_figures.1,
            new_figures.1,
            (new_figures.1 / old_figures.1 - 1.0) * 100.0,
        );
        sixteen.push(new_figures.0 / old_figures.0);
        one.push(new_figures.1 / old_figures.1);
    }
    for (figure, ratios) in [("16 connections", &sixteen), ("one connection", &one)] {
        let (min, median, max) = spread(ratios);
        println!("new / old, {figure}: median {median:.3} (min {min:.3}, max {max:.3})");
    }
}
