//! Figures gathered over rounds and the closing table: one row per goal of issue 15, its
//! reference, min/median/max over the rounds and whether the median meets the goal.

/// What a goal asks of its median.
#[derive(Clone, Copy)]
pub enum Target {
    AtLeast(f64),
    AtMost(f64),
    /// Printed for comparison; no goal.
    None,
}

/// How a figure prints.
#[derive(Clone, Copy)]
pub enum Unit {
    /// ours / reference.
    Ratio,
    /// Megabytes (10⁶ bytes) of resident memory.
    Mb,
    /// A plain quantity (pushes per commit).
    Count,
}

struct Row {
    goal: String,
    reference: String,
    target: Target,
    unit: Unit,
    values: Vec<f64>,
}

#[derive(Default)]
pub struct Table {
    rows: Vec<Row>,
    skipped: Vec<String>,
}

impl Table {
    /// Adds one round's value of `goal` (rows keep the order they first appeared in), and
    /// prints it at once so a run that dies later still shows what it measured.
    pub fn record(&mut self, goal: &str, reference: &str, target: Target, unit: Unit, value: f64) {
        println!("    {goal}: {}", format(unit, value));
        if let Some(row) = self.rows.iter_mut().find(|r| r.goal == goal) {
            row.values.push(value);
            return;
        }
        self.rows.push(Row {
            goal: goal.to_owned(),
            reference: reference.to_owned(),
            target,
            unit,
            values: vec![value],
        });
    }

    /// A section that could not run here, named in the table so its absence is plain.
    pub fn skip(&mut self, why: &str) {
        println!("SKIPPED: {why}");
        if !self.skipped.iter().any(|s| s == why) {
            self.skipped.push(why.to_owned());
        }
    }

    pub fn print(&self, rounds: usize) {
        println!("\n## Issue 15 goals: min / median / max over {rounds} interleaved rounds\n");
        println!("| goal | reference | min | median | max | goal met |");
        println!("|---|---|---|---|---|---|");
        for row in &self.rows {
            let (min, median, max) = spread(&row.values);
            let met = match row.target {
                Target::AtLeast(goal) => yes_no(median >= goal, &format!("≥ {goal}")),
                Target::AtMost(goal) => yes_no(median <= goal, &format!("≤ {goal}")),
                Target::None => "(no goal)".to_owned(),
            };
            println!(
                "| {} | {} | {} | {} | {} | {met} |",
                row.goal,
                row.reference,
                format(row.unit, min),
                format(row.unit, median),
                format(row.unit, max),
            );
        }
        for why in &self.skipped {
            println!("| SKIPPED | {why} | | | | |");
        }
    }
}

fn yes_no(met: bool, goal: &str) -> String {
    format!("{} ({goal})", if met { "yes" } else { "no" })
}

fn format(unit: Unit, value: f64) -> String {
    match unit {
        Unit::Ratio => format!("{value:.2}×"),
        Unit::Mb => format!("{value:.1} MB"),
        Unit::Count => format!("{value:.1}"),
    }
}

/// Min, median (mean of the middle two for an even count) and max.
pub fn spread(values: &[f64]) -> (f64, f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])
    };
    (sorted[0], median, sorted[n - 1])
}
