//! Varied working days for pushes and pulls: ten years of consecutive dates, stops, extras,
//! notes of different lengths, three couriers (and the default one), counts and hours on some
//! days. The same day is sent to our server as an `entry.put` and to PocketBase as a record
//! with the same fields, so neither side gets easier data.

use serde_json::{Value, json};
use uuid::Uuid;

/// Ten years of days, one entry each.
pub const HISTORY_DAYS: usize = 3_650;

const NOTES: [&str; 8] = [
    "",
    "Rain all afternoon",
    "Van 3, route 14B; two parcels back to depot",
    "Covered Sam's round as well, long day but paid the extra",
    "Traffic on the A40",
    "New estate off Mill Lane: no numbers on half the doors, asked at the shop",
    "Short day",
    "Bank holiday rate agreed with the depot manager, check the invoice",
];

pub struct Day {
    pub id: String,
    pub date: String,
    /// Index into the user's couriers; `None` is the default courier (no courierId sent).
    pub courier: Option<usize>,
    pub stops: i64,
    pub extra: i64,
    pub total: i64,
    pub notes: String,
    pub counts: Option<(i64, i64, i64)>,
    pub hours: Option<(String, String)>,
}

/// A new id as the web app makes one for a record or an outbox mutation: a UUIDv7, time-ordered
/// (`web/src/sync/ids.ts`). The shape matters to SQLite: time-ordered keys append to the end of
/// their B-tree, where random ones dirty a page each.
pub fn new_id() -> String {
    Uuid::now_v7().to_string()
}

/// Which ids a pushing client makes for its records and mutations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ids {
    /// UUIDv7, as the web app sends: each new key lands at the end of its B-tree.
    TimeOrdered,
    /// UUIDv4, as an import, an old client or another tool may send: each new key lands on a
    /// random leaf of a grown index.
    Random,
}

impl Ids {
    pub fn new_id(self) -> String {
        match self {
            Ids::TimeOrdered => Uuid::now_v7().to_string(),
            Ids::Random => Uuid::new_v4().to_string(),
        }
    }

    /// For table rows: "v7" or "v4".
    pub fn label(self) -> &'static str {
        match self {
            Ids::TimeOrdered => "v7 ids",
            Ids::Random => "v4 ids",
        }
    }
}

/// Day number `i` of the history (0 = 2016-01-01); `i` also drives every other field.
pub fn day(i: usize) -> Day {
    let n = i64::try_from(i).expect("small index");
    let stops = 40 + (n * 37) % 160;
    let extra = ((n * 53) % 7) * 125;
    let rate = 150 + (n % 3) * 12;
    let note = NOTES[i % NOTES.len()];
    Day {
        id: new_id(),
        date: civil_date(16_801 + n),
        courier: match i % 4 {
            3 => None,
            c => Some(c),
        },
        stops,
        extra,
        total: stops * rate + extra,
        notes: if note.is_empty() {
            String::new()
        } else {
            format!("{note} (#{i})")
        },
        counts: i.is_multiple_of(2).then(|| (stops + n % 11, n % 5, n % 3)),
        hours: (i % 3 != 1).then(|| {
            (
                format!("{:02}:{:02}", 7 + n % 3, (n * 5) % 60),
                format!("{:02}:{:02}", 15 + n % 4, (n * 7) % 60),
            )
        }),
    }
}

impl Day {
    /// The `entry.put` arguments for our server; `couriers` are ids the user already holds.
    pub fn entry_args(&self, couriers: &[String]) -> Value {
        let mut args = json!({"id": self.id, "date": self.date, "stops": self.stops,
                              "extra": self.extra, "notes": self.notes, "total": self.total});
        if let Some(c) = self.courier {
            args["courierId"] = json!(couriers[c % couriers.len()]);
            args["rateCardId"] = Value::Null;
            if let Some((parcels, collections, failed)) = self.counts {
                args["parcels"] = json!(parcels);
                args["collections"] = json!(collections);
                args["failed"] = json!(failed);
            }
            if let Some((start, finish)) = &self.hours {
                args["startTime"] = json!(start);
                args["finishTime"] = json!(finish);
            }
        }
        args
    }

    /// The same day as a PocketBase record of `owner`; `couriers` as for `entry_args`.
    pub fn record(&self, owner: &str, couriers: &[String]) -> Value {
        let mut record = json!({"owner": owner, "date": self.date, "stops": self.stops,
                                "extra": self.extra, "notes": self.notes, "total": self.total,
                                "courier": self.courier.map(|c| couriers[c % couriers.len()].clone())});
        if let Some((parcels, collections, failed)) = self.counts {
            record["parcels"] = json!(parcels);
            record["collections"] = json!(collections);
            record["failed"] = json!(failed);
        }
        if let Some((start, finish)) = &self.hours {
            record["startTime"] = json!(start);
            record["finishTime"] = json!(finish);
        }
        record
    }
}

/// Three couriers' `courier.put` mutations (ids are returned for `Day::entry_args`).
pub fn courier_mutations() -> (Vec<String>, Vec<Value>) {
    let names = ["Evri", "DPD", "Amazon Flex"];
    let ids: Vec<String> = names.iter().map(|_| new_id()).collect();
    let mutations = names
        .iter()
        .zip(&ids)
        .map(|(name, id)| {
            json!({"id": new_id(), "name": "courier.put",
                   "args": {"id": id, "name": name, "colour": "#dc0032", "periodKind": "weekly",
                            "periodAnchor": "2000-01-02", "arrearsWeeks": 0}})
        })
        .collect();
    (ids, mutations)
}

/// `YYYY-MM-DD` of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn day_numbers_become_calendar_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(16_801), "2016-01-01");
        assert_eq!(civil_date(16_801 + 59), "2016-02-29");
        assert_eq!(civil_date(16_801 + 3_649), "2025-12-28");
    }
}
