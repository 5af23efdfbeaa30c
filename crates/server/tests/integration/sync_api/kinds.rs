//! The table of record kinds the shared scenarios run over: one row per kind in
//! `server::registry::KINDS` (`every_registered_kind_has_a_row` fails while one has none). A row
//! says how to write a valid record of its kind, what a pull then returns, an edit and what it
//! returns, bad input and the refusal it gets, and the records it points at.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{common::TestApp, mutation, new_id, statuses};

/// One record kind, as the scenarios see it.
pub struct Row {
    /// `kind` on the wire; the mutations are `<kind>.put` and `<kind>.delete`.
    pub kind: &'static str,
    /// The content fields naming other records, in the registry's order.
    pub references: &'static [Ref],
    /// The arguments of a valid put of record `id`, pointing at the account's `Targets`.
    pub valid: fn(&str, &Targets) -> Value,
    /// What a pull returns as that record's `data`, without the timestamps.
    pub stored: fn(&Targets) -> Value,
    /// A put of the same record with other content.
    pub edit: fn(&str, &Targets) -> Value,
    /// What a pull returns after the edit, without the timestamps (write-once kinds refuse it).
    pub edited: fn(&Targets) -> Value,
    /// Bad puts and how each is refused (all `validation`).
    pub invalid: fn(&Targets) -> Vec<Invalid>,
    /// Every field of `valid` is required: a put leaving any one out is refused.
    pub every_field_required: bool,
    /// Exactly one of `references` names a record, the others null (evidence belongs to one
    /// day, line or query): `valid` points through the first, the scenarios through each in
    /// turn.
    pub one_of_references: bool,
}

/// A content field naming a record of another (or the same) kind.
pub struct Ref {
    pub field: &'static str,
    pub kind: &'static str,
    /// Null points at nothing and is fine.
    pub nullable: bool,
    /// Which of the account's `Targets` it points at: its kind's, unless two fields of a row
    /// point at the same kind and must name different records (a query's statement check and
    /// the later one that carries the money paid back).
    pub target: &'static str,
}

const fn to(field: &'static str, kind: &'static str, nullable: bool) -> Ref {
    Ref {
        field,
        kind,
        nullable,
        target: kind,
    }
}

/// A reference to another record of `kind` than the one its kind's target names.
const fn to_another(
    field: &'static str,
    kind: &'static str,
    target: &'static str,
    nullable: bool,
) -> Ref {
    Ref {
        field,
        kind,
        nullable,
        target,
    }
}

/// A bad put: refused `validation`, and what the refusal says beyond that.
pub struct Invalid {
    pub args: Value,
    /// The message names this many problems ("; "-separated), each also under its field, and a
    /// replay answers the same (fields included).
    pub problems: Option<usize>,
    /// `fields` is exactly this.
    pub fields: Option<Value>,
    /// `fields` names exactly these fields.
    pub field_names: Option<Vec<&'static str>>,
    /// The message contains this phrase.
    pub says: Option<String>,
    /// The message is exactly this.
    pub message: Option<&'static str>,
}

impl Invalid {
    /// Refused `validation`, nothing more asked of the message.
    pub fn refused(args: Value) -> Invalid {
        Invalid {
            args,
            problems: None,
            fields: None,
            field_names: None,
            says: None,
            message: None,
        }
    }

    pub fn problems(args: Value, problems: usize) -> Invalid {
        Invalid {
            problems: Some(problems),
            ..Invalid::refused(args)
        }
    }

    pub fn says(args: Value, phrase: impl Into<String>) -> Invalid {
        Invalid {
            says: Some(phrase.into()),
            ..Invalid::refused(args)
        }
    }

    pub fn message(args: Value, message: &'static str) -> Invalid {
        Invalid {
            message: Some(message),
            ..Invalid::refused(args)
        }
    }

    pub fn fields(args: Value, fields: Value) -> Invalid {
        Invalid {
            fields: Some(fields),
            ..Invalid::refused(args)
        }
    }

    pub fn field_names(args: Value, names: &[&'static str]) -> Invalid {
        Invalid {
            field_names: Some(names.to_vec()),
            ..Invalid::refused(args)
        }
    }
}

/// The account's records that rows point at: one of every kind some row references. The
/// courier and card are the account's default ones (their ids are the user's).
#[derive(Clone)]
pub struct Targets {
    ids: BTreeMap<&'static str, String>,
}

impl Targets {
    /// The id of the account's record of `kind`.
    pub fn of(&self, kind: &str) -> &str {
        self.ids
            .get(kind)
            .unwrap_or_else(|| panic!("no target of kind {kind}"))
    }

    /// These targets with `kind` pointing at `id` instead.
    pub fn with(&self, kind: &'static str, id: &str) -> Targets {
        let mut targets = self.clone();
        targets.ids.insert(kind, id.to_owned());
        targets
    }

    /// The targets of user `me` and the puts that make those the account does not start
    /// with, as (mutation, kind, id), each after what it points at.
    pub fn plan(me: &str) -> (Targets, Vec<(Value, &'static str, String)>) {
        let mut targets = Targets {
            ids: BTreeMap::from([("courier", me.to_owned()), ("rateCard", me.to_owned())]),
        };
        let mut puts = Vec::new();
        // (target, kind) of every reference, each target once.
        let mut wanted: Vec<(&'static str, &'static str)> = Vec::new();
        for r in TABLE.iter().flat_map(|row| row.references) {
            if !targets.ids.contains_key(r.target) && !wanted.iter().any(|(t, _)| *t == r.target) {
                wanted.push((r.target, r.kind));
            }
        }
        while !wanted.is_empty() {
            let ready = wanted
                .iter()
                .position(|(_, kind)| {
                    row(kind)
                        .references
                        .iter()
                        .all(|r| r.kind == *kind || targets.ids.contains_key(r.target))
                })
                .expect("the references form no cycle");
            let (target, kind) = wanted.remove(ready);
            let id = new_id();
            let args = (row(kind).valid)(&id, &targets);
            puts.push((mutation(&format!("{kind}.put"), args), kind, id.clone()));
            targets.ids.insert(target, id);
        }
        (targets, puts)
    }

    /// Makes the account's targets.
    pub async fn create(app: &TestApp, cookie: &str) -> Targets {
        let me = super::user_id(app, cookie).await;
        let (targets, puts) = Targets::plan(&me);
        let reply = app
            .push(cookie, puts.into_iter().map(|(m, _, _)| m).collect())
            .await;
        assert!(
            statuses(&reply).iter().all(|s| s == "applied"),
            "{}",
            reply.text
        );
        targets
    }
}

/// The row of `kind`.
pub fn row(kind: &str) -> &'static Row {
    TABLE
        .iter()
        .find(|row| row.kind == kind)
        .unwrap_or_else(|| panic!("no row for kind {kind}"))
}

/// Whether the registry declares `kind` write-once (a stored record is never changed).
pub fn write_once(kind: &str) -> bool {
    server::registry::find(kind)
        .unwrap_or_else(|| panic!("{kind} is not registered"))
        .write_once
}

/// `args` without `field`.
pub fn without(args: &Value, field: &str) -> Value {
    let mut args = args.clone();
    args.as_object_mut().unwrap().remove(field);
    args
}

/// `args` with the fields of `patch` replaced.
pub fn patched(args: &Value, patch: Value) -> Value {
    let mut args = args.clone();
    for (key, value) in patch.as_object().unwrap() {
        args[key] = value.clone();
    }
    args
}

pub static TABLE: &[Row] = &[
    Row {
        kind: "entry",
        references: &[
            to("courierId", "courier", false),
            to("rateCardId", "rateCard", true),
        ],
        valid: |id, t| day_args(id, t.of("courier"), Some(t.of("rateCard"))),
        stored: |t| {
            json!({"date": "2025-09-02", "stops": 10, "extra": 0, "notes": "", "total": 1_330,
                   "courierId": t.of("courier"), "rateCardId": t.of("rateCard"), "parcels": 14,
                   "collections": 1, "failed": 0, "startTime": "08:00", "finishTime": "13:30",
                   "separateShift": false, "bands": null})
        },
        edit: |id, t| {
            patched(
                &day_args(id, t.of("courier"), Some(t.of("rateCard"))),
                json!({"stops": 121, "total": 24_208, "notes": "late finish", "parcels": null}),
            )
        },
        edited: |t| {
            json!({"date": "2025-09-02", "stops": 121, "extra": 0, "notes": "late finish",
                   "total": 24_208, "courierId": t.of("courier"), "rateCardId": t.of("rateCard"),
                   "parcels": null, "collections": 1, "failed": 0, "startTime": "08:00",
                   "finishTime": "13:30", "separateShift": false, "bands": null})
        },
        invalid: |t| {
            let mut signed = day_args(&new_id(), t.of("courier"), Some(t.of("rateCard")));
            signed["date"] = json!("+2025-01-01");
            vec![
                Invalid::problems(
                    json!({"id": new_id(), "date": "2025-03-03", "stops": 1, "total": 198,
                           "courierId": "c", "parcels": -1, "startTime": "7am"}),
                    3,
                ),
                Invalid::fields(
                    json!({"id": new_id(), "date": "2025-03-03", "stops": 1, "total": 198,
                           "parcels": -1, "startTime": "7am"}),
                    json!({"parcels": ["Parcels must be a whole number from 0 to 2000, or left empty"],
                           "startTime": ["Start time must be a time written HH:MM"]}),
                ),
                // Issue 31: a signed year was taken as a date.
                Invalid::says(signed, "YYYY-MM-DD"),
            ]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "invoice",
        references: &[to("courierId", "courier", false)],
        valid: |id, t| {
            json!({"id": id, "periodStart": "2025-03-17", "periodEnd": "2025-03-23",
                   "paid": 123_456, "stops": 640, "reference": "  INV-2025-12  ",
                   "courierId": t.of("courier")})
        },
        // The seven fields of before plus the statement check's six (issue 12), less the
        // timestamps; the reference stored trimmed.
        stored: |t| {
            json!({"periodStart": "2025-03-17", "periodEnd": "2025-03-23", "paid": 123_456,
                   "stops": 640, "reference": "INV-2025-12", "courierId": t.of("courier"),
                   "parcels": null, "collections": null, "deductions": null,
                   "status": "unchecked", "note": ""})
        },
        // Without the optional fields of before: they are cleared.
        edit: |id, _| json!({"id": id, "periodStart": "2025-03-17", "periodEnd": "2025-03-30", "paid": 200_000}),
        edited: |t| {
            json!({"periodStart": "2025-03-17", "periodEnd": "2025-03-30", "paid": 200_000,
                   "stops": null, "reference": "", "courierId": t.of("courier"),
                   "parcels": null, "collections": null, "deductions": null,
                   "status": "unchecked", "note": ""})
        },
        invalid: |_| {
            let id = new_id();
            let base = super::statement_check_args(&id, "2025-03-01", "2025-03-31", 100);
            let args = |patch: Value| patched(&base, patch);
            let mut cases = vec![Invalid::problems(
                json!({"id": new_id(), "periodStart": "2025-03-01", "periodEnd": "2025-03-31",
                       "paid": 1, "status": "paid", "deductions": -1, "note": "n".repeat(1_001)}),
                3,
            )];
            // Each rule, with a phrase the driver sees.
            cases.extend(
                [
                    (
                        args(json!({"id": "INV-1"})),
                        "Statement check id must be a UUID",
                    ),
                    (
                        args(json!({"periodStart": "2025-02-29"})),
                        "Period start must be a real day",
                    ),
                    (
                        args(json!({"periodEnd": "31/03/2025"})),
                        "Period end must be a real day",
                    ),
                    (
                        args(json!({"periodStart": "2025-04-01"})),
                        "on or after the period start",
                    ),
                    (
                        args(json!({"periodStart": "2024-01-01", "periodEnd": "2025-01-01"})),
                        "at most 366 days",
                    ),
                    (args(json!({"paid": -1})), "Paid must be between"),
                    (args(json!({"paid": 10_000_001})), "Paid must be between"),
                    (args(json!({"stops": -1})), "Stops must be a whole number"),
                    (
                        args(json!({"stops": 100_001})),
                        "Stops must be a whole number",
                    ),
                    (
                        args(json!({"reference": "r".repeat(101)})),
                        "at most 100 characters",
                    ),
                    (
                        args(json!({"reference": "INV\u{0}1"})),
                        "control characters",
                    ),
                    (args(json!({"paid": 1.5})), "Invalid invoice"),
                    (args(json!({"userId": "someone-else"})), "unknown field"),
                    (without(&base, "paid"), "missing field `paid`"),
                    (without(&base, "periodEnd"), "missing field `periodEnd`"),
                ]
                .into_iter()
                .map(|(args, phrase)| Invalid::says(args, phrase)),
            );
            cases
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "courier",
        references: &[],
        valid: |id, _| courier_args(id, " Evri "),
        stored: |_| {
            json!({"name": "Evri", "colour": "#dc0032", "periodKind": "fourFourFive",
                   "periodAnchor": "2025-01-05", "arrearsWeeks": 2})
        },
        edit: |id, _| courier_args(id, "Evri Sunday"),
        edited: |_| {
            json!({"name": "Evri Sunday", "colour": "#dc0032", "periodKind": "fourFourFive",
                   "periodAnchor": "2025-01-05", "arrearsWeeks": 2})
        },
        invalid: |_| {
            vec![Invalid::problems(
                json!({"id": "x", "name": " ", "colour": "red", "periodKind": "daily",
                       "periodAnchor": "2025-02-30", "arrearsWeeks": 13}),
                6,
            )]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "rateCard",
        references: &[to("courierId", "courier", false)],
        valid: |id, t| card_args(id, t.of("courier")),
        stored: |t| {
            json!({"courierId": t.of("courier"), "validFrom": "2025-09-01", "label": "Autumn",
                   "perStop": [{"stopCount": 100, "rate": 133}, {"rate": 83}], "perParcel": 40,
                   "parcelCapPerStop": 3, "perCollection": null, "perFailed": 0,
                   "dayRate": null, "hourly": null,
                   "peaks": [{"from": "2025-12-01", "to": "2025-12-24", "extraPerStop": 20,
                              "multiplierPercent": null}],
                   "bandRates": null})
        },
        edit: |id, t| {
            patched(
                &card_args(id, t.of("courier")),
                json!({"perStop": null, "dayRate": 12_000}),
            )
        },
        edited: |t| {
            json!({"courierId": t.of("courier"), "validFrom": "2025-09-01", "label": "Autumn",
                   "perStop": null, "perParcel": 40, "parcelCapPerStop": 3,
                   "perCollection": null, "perFailed": 0, "dayRate": 12_000, "hourly": null,
                   "peaks": [{"from": "2025-12-01", "to": "2025-12-24", "extraPerStop": 20,
                              "multiplierPercent": null}],
                   "bandRates": null})
        },
        invalid: |t| {
            let courier = t.of("courier");
            vec![
                Invalid::problems(
                    json!({"id": new_id(), "courierId": courier, "validFrom": "soon", "label": "a\u{7}",
                           "perStop": [{"rate": 150}], "parcelCapPerStop": 3, "hourly": -1,
                           "peaks": [{"from": "2025-12-24", "to": "2025-12-01"}]}),
                    7, // the peak has two faults
                ),
                Invalid::problems(
                    json!({"id": new_id(), "courierId": courier, "validFrom": "2025-01-01", "perFailed": 0}),
                    1,
                ),
            ]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "deduction",
        references: &[
            to("courierId", "courier", false),
            to("vehicleId", "vehicle", true),
        ],
        valid: |id, t| {
            patched(
                &deduction_args(id, t.of("courier")),
                json!({"purpose": "vehicleHire", "vehicleId": t.of("vehicle")}),
            )
        },
        stored: |t| {
            json!({"courierId": t.of("courier"), "label": "Van hire", "amount": 19_500,
                   "repeat": "weekly", "from": "2025-09-01", "to": null,
                   "purpose": "vehicleHire", "vehicleId": t.of("vehicle")})
        },
        edit: |id, t| {
            patched(
                &deduction_args(id, t.of("courier")),
                json!({"purpose": "vehicleHire", "vehicleId": t.of("vehicle"), "to": "2025-12-31"}),
            )
        },
        edited: |t| {
            json!({"courierId": t.of("courier"), "label": "Van hire", "amount": 19_500,
                   "repeat": "weekly", "from": "2025-09-01", "to": "2025-12-31",
                   "purpose": "vehicleHire", "vehicleId": t.of("vehicle")})
        },
        invalid: |t| {
            vec![
                Invalid::problems(
                    json!({"id": new_id(), "courierId": "c", "label": "", "amount": 0,
                           "repeat": "once", "from": "2025-03-03", "to": "2025-03-04"}),
                    4,
                ),
                Invalid::refused(
                    json!({"id": new_id(), "courierId": t.of("courier"), "label": "A",
                                        "amount": 1, "repeat": "once", "from": "2025-01-05", "vat": 1}),
                ),
            ]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "vehicle",
        references: &[],
        valid: |id, _| vehicle_args(id, " Transit "),
        stored: |_| json!({"name": "Transit", "type": "carVan", "method": "flatRate", "commuteMiles": 0}),
        edit: |id, _| {
            patched(
                &vehicle_args(id, "Bike"),
                json!({"type": "bicycle", "method": "actualCosts"}),
            )
        },
        edited: |_| json!({"name": "Bike", "type": "bicycle", "method": "actualCosts", "commuteMiles": 0}),
        invalid: |_| {
            vec![
                Invalid::problems(
                    json!({"id": new_id(), "name": " ", "type": "bicycle", "method": "flatRate"}),
                    2,
                ),
                Invalid::problems(
                    json!({"id": "v", "name": "Van", "type": "lorry", "method": "guess"}),
                    3,
                ),
                Invalid::message(
                    json!({"id": new_id(), "name": "Bike", "type": "bicycle", "method": "flatRate"}),
                    "A bicycle's costs are claimed as actual costs",
                ),
            ]
        },
        every_field_required: true,
        one_of_references: false,
    },
    Row {
        kind: "expense",
        references: &[
            to("courierId", "courier", true),
            to("vehicleId", "vehicle", true),
        ],
        valid: |id, t| expense_args(id, Some(t.of("courier")), Some(t.of("vehicle"))),
        stored: |t| {
            json!({"date": "2025-04-06", "amount": 4_599, "category": "fuel", "note": "Shell",
                   "courierId": t.of("courier"), "vehicleId": t.of("vehicle"), "repeat": "once",
                   "repeatUntil": null, "receipts": ["0190a6e2-7c1d-7000-8000-0000000000a1"]})
        },
        edit: |id, _| {
            patched(
                &expense_args(id, None, None),
                json!({"category": "phone", "repeat": "monthly", "repeatUntil": "2026-04-05",
                       "receipts": []}),
            )
        },
        edited: |_| {
            json!({"date": "2025-04-06", "amount": 4_599, "category": "phone", "note": "Shell",
                   "courierId": null, "vehicleId": null, "repeat": "monthly",
                   "repeatUntil": "2026-04-05", "receipts": []})
        },
        invalid: |_| {
            vec![
                Invalid::problems(
                    json!({"id": "x", "date": "2025-02-29", "amount": 0, "category": "lunch",
                           "note": "a\u{7}", "courierId": "c", "vehicleId": "v", "repeat": "daily",
                           "repeatUntil": "soon", "receipts": ["A"]}),
                    10,
                ),
                Invalid::problems(
                    json!({"id": new_id(), "date": "2025-04-06", "amount": 10_000_001,
                           "category": "fuel", "note": "", "courierId": null, "vehicleId": null,
                           "repeat": "once", "repeatUntil": "2025-04-07",
                           "receipts": ["0190a6e2-7c1d-7000-8000-0000000000a1",
                                        "0190a6e2-7c1d-7000-8000-0000000000a1"]}),
                    3,
                ),
            ]
        },
        every_field_required: true,
        one_of_references: false,
    },
    Row {
        kind: "mileage",
        references: &[
            to("vehicleId", "vehicle", false),
            to("courierId", "courier", true),
        ],
        valid: |id, t| mileage_args(id, t.of("vehicle"), Some(t.of("courier"))),
        stored: |t| {
            json!({"date": "2026-04-05", "vehicleId": t.of("vehicle"), "courierId": t.of("courier"),
                   "odometerStart": 42_000, "odometerEnd": 42_130, "businessMiles": 112,
                   "commuteMiles": 12, "note": ""})
        },
        // Miles typed, not read off the odometer.
        edit: |id, t| {
            patched(
                &mileage_args(id, t.of("vehicle"), None),
                json!({"odometerStart": null, "odometerEnd": null, "commuteMiles": 0}),
            )
        },
        edited: |t| {
            json!({"date": "2026-04-05", "vehicleId": t.of("vehicle"), "courierId": null,
                   "odometerStart": null, "odometerEnd": null, "businessMiles": 112,
                   "commuteMiles": 0, "note": ""})
        },
        invalid: |_| {
            vec![
                Invalid::problems(
                    json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                           "courierId": null, "odometerStart": 42_000, "odometerEnd": 41_000,
                           "businessMiles": 2_001, "commuteMiles": -1, "note": "n".repeat(201)}),
                    4,
                ),
                Invalid::problems(
                    json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                           "courierId": null, "odometerStart": null, "odometerEnd": null,
                           "businessMiles": 0, "commuteMiles": 0, "note": ""}),
                    1,
                ),
                Invalid::problems(
                    json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                           "courierId": null, "odometerStart": 100, "odometerEnd": 150,
                           "businessMiles": 40, "commuteMiles": 11, "note": ""}),
                    1,
                ),
            ]
        },
        every_field_required: true,
        one_of_references: false,
    },
    Row {
        kind: "statementLine",
        references: &[
            to("invoiceId", "invoice", false),
            to("courierId", "courier", false),
        ],
        valid: |id, t| line_args(id, t.of("invoice"), t.of("courier"), " EV123 "),
        stored: |t| {
            json!({"invoiceId": t.of("invoice"), "courierId": t.of("courier"), "lineKey": "csv:3f2a:0",
                   "date": "2025-03-18", "lineType": "parcel", "band": "small", "quantity": 3,
                   "rate": 45, "amount": 135, "reference": "EV123"})
        },
        edit: |id, t| line_args(id, t.of("invoice"), t.of("courier"), "EV124"),
        edited: |t| {
            json!({"invoiceId": t.of("invoice"), "courierId": t.of("courier"), "lineKey": "csv:3f2a:0",
                   "date": "2025-03-18", "lineType": "parcel", "band": "small", "quantity": 3,
                   "rate": 45, "amount": 135, "reference": "EV124"})
        },
        invalid: |t| {
            let line = |patch: Value| {
                patched(
                    &line_args(&new_id(), t.of("invoice"), t.of("courier"), "EV1"),
                    patch,
                )
            };
            vec![
                Invalid::field_names(
                    line(
                        json!({"lineKey": "Not A Key", "lineType": "stop", "quantity": -1,
                                "rate": 100_001, "date": "18/03/2025"}),
                    ),
                    &["band", "date", "lineKey", "quantity", "rate"],
                ),
                Invalid::field_names(
                    line(json!({"lineType": "deduction", "band": null, "amount": 2_500})),
                    &["amount"],
                ),
            ]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "statementFormat",
        references: &[to("courierId", "courier", false)],
        valid: |id, t| format_args(id, t.of("courier")),
        stored: |t| {
            let mut stored = without(&format_args("", t.of("courier")), "id");
            stored["typeWords"][0]["word"] = json!("Van hire");
            stored
        },
        edit: |id, t| {
            patched(
                &format_args(id, t.of("courier")),
                json!({"amountColumn": "Total"}),
            )
        },
        edited: |t| {
            let mut stored = without(&format_args("", t.of("courier")), "id");
            stored["typeWords"][0]["word"] = json!("Van hire");
            stored["amountColumn"] = json!("Total");
            stored
        },
        invalid: |t| {
            vec![Invalid::field_names(
                patched(
                    &format_args(&new_id(), t.of("courier")),
                    json!({"source": "xls", "dateColumn": "",
                           "typeWords": [{"word": "Drop", "lineType": "stop", "band": "large"}]}),
                ),
                &["dateColumn", "source", "typeWords"],
            )]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "sentUpdate",
        references: &[to("supersedes", "sentUpdate", true)],
        valid: |id, _| sent_update_args(id, "REF-1"),
        stored: |_| {
            let mut stored = without(&sent_update_args("", "REF-1"), "id");
            stored["product"] = json!("Bridger");
            stored
        },
        edit: |id, _| sent_update_args(id, "CHANGED"),
        // Write-once: the edit is refused and the record stays as sent.
        edited: |t| (row("sentUpdate").stored)(t),
        invalid: |_| {
            vec![Invalid::fields(
                patched(
                    &sent_update_args(&new_id(), "REF-X"),
                    json!({"sha256": "0".repeat(64)}),
                ),
                json!({"sha256": ["SHA-256 is not the file's: the file changed after it was hashed"]}),
            )]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "fuelFill",
        references: &[to("vehicleId", "vehicle", false)],
        valid: |id, t| fuel_fill_args(id, t.of("vehicle")),
        stored: |t| {
            json!({"date": "2026-04-05", "vehicleId": t.of("vehicle"), "unit": "litres",
                   "quantity": 45_670, "cost": 6_845, "odometer": 42_130, "full": true,
                   "note": "Shell"})
        },
        // A free charge, part-way, with no odometer reading.
        edit: |id, t| {
            patched(
                &fuel_fill_args(id, t.of("vehicle")),
                json!({"unit": "kWh", "quantity": 41_500, "cost": 0, "odometer": null,
                       "full": false}),
            )
        },
        edited: |t| {
            json!({"date": "2026-04-05", "vehicleId": t.of("vehicle"), "unit": "kWh",
                   "quantity": 41_500, "cost": 0, "odometer": null, "full": false,
                   "note": "Shell"})
        },
        invalid: |_| {
            vec![
                Invalid::field_names(
                    json!({"id": "x", "date": "2026-02-29", "vehicleId": "v", "unit": "gallons",
                           "quantity": 0, "cost": -1, "odometer": 10_000_000, "full": true,
                           "note": "a\u{7}"}),
                    &[
                        "cost",
                        "date",
                        "id",
                        "note",
                        "odometer",
                        "quantity",
                        "unit",
                        "vehicleId",
                    ],
                ),
                Invalid::message(
                    json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                           "unit": "kWh", "quantity": 500_001, "cost": 0, "odometer": null,
                           "full": false, "note": ""}),
                    "Quantity must be from 0.001 to 500 litres or kWh",
                ),
            ]
        },
        every_field_required: true,
        one_of_references: false,
    },
    Row {
        kind: "statementQuery",
        references: &[
            to("statementCheckId", "invoice", false),
            to_another("paidBackCheckId", "invoice", "laterInvoice", true),
        ],
        valid: |id, t| statement_query_args(id, t),
        stored: |t| without(&statement_query_args("", t), "id"),
        // Tracking changes; the items and total are frozen when the query is made, so a put
        // carrying other ones keeps the stored ones.
        edit: |id, t| {
            patched(
                &statement_query_args(id, t),
                json!({"answeredOn": "2026-03-30", "note": "Agreed by e-mail", "total": 1,
                       "items": query_items(&[(Some("2026-03-02"), "rewritten", 1)])}),
            )
        },
        edited: |t| {
            patched(
                &without(&statement_query_args("", t), "id"),
                json!({"answeredOn": "2026-03-30", "note": "Agreed by e-mail"}),
            )
        },
        invalid: |t| {
            vec![Invalid::field_names(
                patched(
                    &statement_query_args(&new_id(), t),
                    json!({"madeOn": "2026-02-30", "itemsVersion": 9, "sentOn": "2026-03-19",
                           "paidBackAmount": 0, "paidBackOn": null, "paidBackCheckId": null,
                           "closedOn": "21/03/2026", "note": "bell\u{7}", "total": 1}),
                ),
                &[
                    "closedOn",
                    "itemsVersion",
                    "madeOn",
                    "note",
                    "paidBackAmount",
                    "paidBackOn",
                    "total",
                ],
            )]
        },
        every_field_required: false,
        one_of_references: false,
    },
    Row {
        kind: "evidence",
        references: &[
            to("entryId", "entry", false),
            to("statementLineId", "statementLine", false),
            to("statementQueryId", "statementQuery", false),
        ],
        valid: |id, t| evidence_args(id, t.of("entry")),
        stored: |t| {
            json!({"entryId": t.of("entry"), "statementLineId": null, "statementQueryId": null,
                   "type": "waiting", "recordedAt": "2026-03-02T06:40:00.123Z", "text": "",
                   "photoId": null, "purpose": null, "minutes": 55, "place": "Depot bay 3",
                   "fromWhom": ""})
        },
        edit: |id, t| {
            patched(
                &evidence_args(id, t.of("entry")),
                json!({"minutes": 70, "text": "Van not loaded until 07:35"}),
            )
        },
        edited: |t| {
            json!({"entryId": t.of("entry"), "statementLineId": null, "statementQueryId": null,
                   "type": "waiting", "recordedAt": "2026-03-02T06:40:00.123Z",
                   "text": "Van not loaded until 07:35", "photoId": null, "purpose": null,
                   "minutes": 70, "place": "Depot bay 3", "fromWhom": ""})
        },
        invalid: |t| {
            vec![
                Invalid::field_names(
                    json!({"id": "x", "entryId": t.of("entry"), "statementLineId": null,
                           "statementQueryId": null, "type": "photo", "recordedAt": "today",
                           "text": "a\u{7}", "photoId": "not-a-uuid", "purpose": "selfie",
                           "minutes": 0, "place": "", "fromWhom": "Sam"}),
                    &[
                        "fromWhom",
                        "id",
                        "minutes",
                        "photoId",
                        "purpose",
                        "recordedAt",
                        "text",
                    ],
                ),
                Invalid::message(
                    patched(
                        &evidence_args(&new_id(), t.of("entry")),
                        json!({"entryId": null}),
                    ),
                    "Evidence belongs to exactly one day, statement line or query",
                ),
                Invalid::message(
                    patched(
                        &evidence_args(&new_id(), t.of("entry")),
                        json!({"statementQueryId": t.of("statementQuery")}),
                    ),
                    "Evidence belongs to exactly one day, statement line or query",
                ),
            ]
        },
        every_field_required: true,
        one_of_references: true,
    },
];

/// Waiting time at the depot, kept on a day.
pub fn evidence_args(id: &str, day: &str) -> Value {
    json!({"id": id, "entryId": day, "statementLineId": null, "statementQueryId": null,
           "type": "waiting", "recordedAt": "2026-03-02T06:40:00.123Z", "text": "",
           "photoId": null, "purpose": null, "minutes": 55, "place": " Depot bay 3 ",
           "fromWhom": ""})
}

pub fn courier_args(id: &str, name: &str) -> Value {
    json!({"id": id, "name": name, "colour": "#DC0032", "periodKind": "fourFourFive",
           "periodAnchor": "2025-01-05", "arrearsWeeks": 2})
}

pub fn card_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "courierId": courier, "validFrom": "2025-09-01", "label": " Autumn ",
           "perStop": [{"stopCount": 100, "rate": 133}, {"rate": 83}], "perParcel": 40,
           "parcelCapPerStop": 3, "perFailed": 0,
           "peaks": [{"from": "2025-12-01", "to": "2025-12-24", "extraPerStop": 20}]})
}

/// A deduction as an app from before purposes sends it.
pub fn deduction_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "courierId": courier, "label": "Van hire", "amount": 19_500,
           "repeat": "weekly", "from": "2025-09-01", "to": null})
}

/// A day of the new app's: its courier and card, and every new field.
pub fn day_args(id: &str, courier: &str, card: Option<&str>) -> Value {
    json!({"id": id, "date": "2025-09-02", "stops": 10, "extra": 0, "notes": "", "total": 1_330,
           "courierId": courier, "rateCardId": card, "parcels": 14, "collections": 1,
           "failed": 0, "startTime": "08:00", "finishTime": "13:30"})
}

/// A vehicle as an app from before commutes sends it.
pub fn vehicle_args(id: &str, name: &str) -> Value {
    json!({"id": id, "name": name, "type": "carVan", "method": "flatRate"})
}

pub fn expense_args(id: &str, courier: Option<&str>, vehicle: Option<&str>) -> Value {
    json!({"id": id, "date": "2025-04-06", "amount": 4_599, "category": "fuel",
           "note": " Shell ", "courierId": courier, "vehicleId": vehicle, "repeat": "once",
           "repeatUntil": null, "receipts": ["0190a6e2-7c1d-7000-8000-0000000000a1"]})
}

pub fn mileage_args(id: &str, vehicle: &str, courier: Option<&str>) -> Value {
    json!({"id": id, "date": "2026-04-05", "vehicleId": vehicle, "courierId": courier,
           "odometerStart": 42_000, "odometerEnd": 42_130, "businessMiles": 112,
           "commuteMiles": 12, "note": ""})
}

pub fn line_args(id: &str, check: &str, courier: &str, reference: &str) -> Value {
    json!({"id": id, "invoiceId": check, "courierId": courier, "lineKey": "csv:3f2a:0",
           "date": "2025-03-18", "lineType": "parcel", "band": "small", "quantity": 3,
           "rate": 45, "amount": 135, "reference": reference})
}

pub fn format_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "courierId": courier, "source": "csv", "dateColumn": "Date",
           "dateOrder": "dayMonthYear", "amountColumn": "Amount", "typeColumn": "Service",
           "bandColumn": null, "quantityColumn": "Qty", "rateColumn": null,
           "referenceColumn": "Barcode", "defaultType": "parcel", "deductionsPositive": true,
           "typeWords": [{"word": " Van hire ", "lineType": "deduction", "band": null}]})
}

/// The file of a sent quarterly update.
pub const SENT_FILE: &str = "{\"periodDates\":{\"periodStartDate\":\"2026-04-06\",\"periodEndDate\":\"2026-07-05\"},\"periodIncome\":{\"turnover\":300}}\n";

/// A quarterly update sent through bridging software, superseding nothing.
pub fn sent_update_args(id: &str, reference: &str) -> Value {
    use sha2::{Digest, Sha256};
    json!({"id": id, "taxYear": "2026-27", "quarter": 1, "quarters": "standard",
           "periodStart": "2026-04-06", "periodEnd": "2026-07-05", "shape": "itemised",
           "file": SENT_FILE, "sha256": hex::encode(Sha256::digest(SENT_FILE.as_bytes())),
           "sentOn": "2026-08-01", "product": " Bridger ", "reference": reference,
           "supersedes": null})
}

/// A fuel fill: 45.67 litres of diesel, £68.45, a full tank at 42,130 miles.
pub fn fuel_fill_args(id: &str, vehicle: &str) -> Value {
    json!({"id": id, "date": "2026-04-05", "vehicleId": vehicle, "unit": "litres",
           "quantity": 45_670, "cost": 6_845, "odometer": 42_130, "full": true,
           "note": " Shell "})
}

/// The table is the registry, row for row: no registered kind is left without a row (so
/// without the shared scenarios), no row names a kind that is not registered, and each row's
/// references are the ones its kind declares.
#[test]
fn every_registered_kind_has_a_row() {
    let registered: Vec<&str> = server::registry::KINDS.iter().map(|k| k.name).collect();
    let rows: Vec<&str> = TABLE.iter().map(|row| row.kind).collect();
    assert_eq!(
        rows, registered,
        "one row per registered kind, in registry order"
    );
    for kind in server::registry::KINDS {
        let declared: Vec<(&str, &str)> =
            kind.references.iter().map(|r| (r.field, r.kind)).collect();
        let listed: Vec<(&str, &str)> = row(kind.name)
            .references
            .iter()
            .map(|r| (r.field, r.kind))
            .collect();
        assert_eq!(listed, declared, "{}: the row's references", kind.name);
    }
}

/// A statement query of two items on the account's statement check, its chain made as the
/// device makes it, sent and paid back on the later check.
pub fn statement_query_args(id: &str, t: &Targets) -> Value {
    json!({"id": id, "statementCheckId": t.of("invoice"), "madeOn": "2026-03-20",
           "itemsVersion": 1,
           "items": query_items(&[(Some("2026-03-02"), "3 stops logged but not paid", 450),
                                  (None, "Lines against the total", -100)]),
           "total": 350, "sentOn": "2026-03-21", "answeredOn": null, "paidBackAmount": 350,
           "paidBackOn": "2026-04-10", "paidBackCheckId": t.of("laterInvoice"),
           "closedOn": null, "note": ""})
}

/// Query items with their chain: each hash is SHA-256 of the previous (64 zeros first) and the
/// item's canonical JSON.
pub fn query_items(items: &[(Option<&str>, &str, i64)]) -> Value {
    use sha2::{Digest, Sha256};
    let mut previous = "0".repeat(64);
    let items: Vec<Value> = items
        .iter()
        .map(|(date, words, amount)| {
            let canonical = format!(
                r#"{{"date":{},"kind":"fewerStops","words":"{words}","logged":"121 stops","paid":"118 stops","cardRate":150,"amount":{amount}}}"#,
                date.map_or("null".to_owned(), |d| format!("\"{d}\""))
            );
            let hash = hex::encode(Sha256::digest(format!("{previous}{canonical}")));
            previous.clone_from(&hash);
            json!({"date": date, "kind": "fewerStops", "words": words, "logged": "121 stops",
                   "paid": "118 stops", "cardRate": 150, "amount": amount, "hash": hash})
        })
        .collect();
    json!(items)
}
