//! The evidence bundle (issue 28): a ZIP of a statement query's or a range of days' evidence
//! for the courier, a union or a tribunal, built here for the signed-in owner when a device
//! lacks a photo (one it never opened); a device with every photo builds the same layout itself
//! (`web/src/core/evidence-bundle/`). The layout is documented once, in docs/api.md.
//!
//! The user's records are read through pull (every live record, page by page), so the bundle
//! is what every device of theirs sees; the photos come from the receipt store, one at a time
//! straight into the archive, bounded by [`MAX_PHOTO_BYTES`] (and the receipt quota below it).

mod contents;
mod zip;

use std::collections::{HashMap, HashSet};

use axum::{
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::{
    entry::parse_date,
    fields::canonical_uuid,
    statement_query::EVIDENCE_ITEM_KIND,
    sync::{ChangeData, EvidenceData, StatementQueryData},
    time_fmt::{now_ms, rfc3339_from_ms},
};
use serde::Deserialize;
use time::OffsetDateTime;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{
    AppState,
    auth::session::CurrentUser,
    error::{ApiQuery, ApiResult, AppError, ErrorBody},
    files::ReceiptKey,
    store::ReceiptHolder,
};
use contents::{Item, LetterContext, Manifest, ManifestFile, ManifestItem, On, Scope};

/// The longest range a bundle covers: a year and a day, for a tax year's evidence.
pub const MAX_RANGE_DAYS: i64 = 366;
/// The photos one bundle may hold, kept in memory while it is built: far more than a query's or
/// a month's photos (each at most 2 MiB), and a clear answer rather than a server short of memory.
pub const MAX_PHOTO_BYTES: i64 = 128 * 1024 * 1024;
/// The words for an item the server has not stored yet (never the case here; the device's words).
pub const NOT_ON_SERVER: &str = "not on the server yet";
/// Pull pages read while gathering the user's records.
const PAGE: u32 = 1000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(evidence_bundle))
}

/// `?queryId=…` or `?from=YYYY-MM-DD&to=YYYY-MM-DD`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct BundleParams {
    /// A statement query of the user's: its differences, chain and evidence.
    query_id: Option<String>,
    /// The first day of a range (with `to`), YYYY-MM-DD.
    from: Option<String>,
    /// The last day of the range, at most 366 days after `from`.
    to: Option<String>,
}

enum Asked {
    Query(Uuid),
    Range { from: String, to: String },
}

fn asked(params: BundleParams) -> ApiResult<Asked> {
    match (params.query_id, params.from, params.to) {
        (Some(id), None, None) => canonical_uuid(&id)
            .map(Asked::Query)
            .ok_or_else(AppError::not_found),
        (None, Some(from), Some(to)) => {
            let (Some(start), Some(end)) = (parse_date(&from), parse_date(&to)) else {
                let field = if parse_date(&from).is_none() {
                    "from"
                } else {
                    "to"
                };
                return Err(AppError::validation(field, "Use a date as YYYY-MM-DD"));
            };
            if start > end {
                return Err(AppError::validation(
                    "to",
                    "The range ends before it starts",
                ));
            }
            if (end - start).whole_days() >= MAX_RANGE_DAYS {
                return Err(AppError::validation(
                    "to",
                    format!(
                        "A bundle covers at most {MAX_RANGE_DAYS} days: choose a shorter range"
                    ),
                ));
            }
            Ok(Asked::Range { from, to })
        }
        _ => Err(AppError::client(
            StatusCode::BAD_REQUEST,
            "bad-request",
            "Ask for a statement query (queryId) or a range of days (from and to), not both",
        )),
    }
}

/// What a query's letter names of its statement check.
struct CheckFacts {
    courier_id: String,
    period_start: String,
    period_end: String,
    reference: String,
}

/// The user's live records the bundle reads.
#[derive(Default)]
struct Records {
    evidence: Vec<(String, EvidenceData)>,
    day_of: HashMap<String, String>,
    queries: HashMap<String, StatementQueryData>,
    /// A statement check's letter facts by its id.
    checks: HashMap<String, CheckFacts>,
    couriers: HashMap<String, String>,
}

async fn read_records(state: &AppState, user_id: Uuid) -> ApiResult<Records> {
    let mut records = Records::default();
    let mut cursor = 0;
    loop {
        let page = state.store.pull(user_id, cursor, PAGE).await?;
        cursor = page.changes.last().map_or(cursor, |c| c.version);
        for change in page.changes {
            let (false, Some(data)) = (change.deleted, change.data) else {
                continue;
            };
            let id = change.id;
            match data {
                ChangeData::Evidence(e) => records.evidence.push((id, e)),
                ChangeData::Entry(e) => {
                    records.day_of.insert(id, e.date.clone());
                }
                ChangeData::StatementLine(l) => {
                    records.day_of.insert(id, l.date.clone());
                }
                ChangeData::StatementQuery(q) => {
                    records.day_of.insert(id.clone(), q.made_on.clone());
                    records.queries.insert(id, q);
                }
                ChangeData::StatementCheck(c) => {
                    let facts = CheckFacts {
                        courier_id: c.courier_id.clone(),
                        period_start: c.period_start.clone(),
                        period_end: c.period_end.clone(),
                        reference: c.reference.clone(),
                    };
                    records.checks.insert(id, facts);
                }
                ChangeData::Courier(c) => {
                    records.couriers.insert(id, c.name.clone());
                }
                _ => {}
            }
        }
        if !page.has_more {
            return Ok(records);
        }
    }
}

/// The scope's live evidence, oldest recorded first: the device's `evidenceFor`.
fn evidence_for(records: &Records, asked: &Asked) -> Vec<Item> {
    let with_day = |(id, e): &(String, EvidenceData)| {
        let (holder, on) = match (&e.entry_id, &e.statement_line_id, &e.statement_query_id) {
            (Some(h), _, _) => (h.as_str(), On::Day),
            (None, Some(h), _) => (h.as_str(), On::Line),
            (None, None, Some(h)) => (h.as_str(), On::Query),
            _ => ("", On::Query),
        };
        Item {
            id: id.clone(),
            content: e.content.clone(),
            created_at: e.created_at.clone(),
            day: records.day_of.get(holder).cloned(),
            on,
        }
    };
    let mut kept: Vec<Item> = match asked {
        Asked::Query(query_id) => {
            let query_id = query_id.to_string();
            let recorded: HashSet<&str> =
                records
                    .queries
                    .get(&query_id)
                    .map_or_else(HashSet::new, |q| {
                        q.items
                            .iter()
                            .filter(|i| i.kind == EVIDENCE_ITEM_KIND)
                            .map(|i| i.logged.as_str())
                            .collect()
                    });
            records
                .evidence
                .iter()
                .filter(|(id, e)| {
                    e.statement_query_id.as_deref() == Some(&query_id)
                        || recorded.contains(id.as_str())
                })
                .map(with_day)
                .collect()
        }
        Asked::Range { from, to } => records
            .evidence
            .iter()
            .map(with_day)
            .filter(|i| i.day.as_ref().is_some_and(|d| d >= from && d <= to))
            .collect(),
    };
    kept.sort_by(|a, b| {
        a.content
            .recorded_at
            .cmp(&b.content.recorded_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    kept
}

#[utoipa::path(get, path = "/api/v1/evidence-bundle", tag = "files",
    params(BundleParams),
    responses(
        (status = 200, description = "The bundle: a ZIP (stored entries, UTF-8 names) of summary.html, photos/<day>-<purpose>-<photo id>.jpg, manifest.json and manifest.txt (docs/api.md \"Evidence bundle\"), as an attachment named evidence-query-<made on>.zip or evidence-<from>-to-<to>.zip", content_type = "application/zip"),
        (status = 400, description = "bad-request: neither a query nor a whole range, or both", body = ErrorBody),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "not-found: no such statement query of this user's (another account's is not found either)", body = ErrorBody),
        (status = 413, description = "bundle-too-large: the photos pass 128 MiB; choose a shorter range", body = ErrorBody),
        (status = 422, description = "validation: `from` or `to` is not a YYYY-MM-DD day, the range ends before it starts, or it is longer than 366 days", body = ErrorBody),
        (status = 429, description = "rate-limited: a bundle counts as an upload (UPLOADS_PER_USER_PER_MINUTE); Retry-After", body = ErrorBody),
        (status = 503, description = "busy: UPLOADS_IN_FLIGHT uploads or bundles are already being built; Retry-After", body = ErrorBody),
    ))]
pub async fn evidence_bundle(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(params): ApiQuery<BundleParams>,
) -> ApiResult<Response> {
    let asked = asked(params)?;
    let user_id = current.user.id;
    // A bundle reads the whole account and holds up to MAX_PHOTO_BYTES of photos: it takes an
    // upload's slot (the per-user rate and the in-flight bound), so a flood of bundle requests
    // gets 429/503 rather than the server's memory.
    let _slot = state.files.admit(user_id)?;
    let records = read_records(&state, user_id).await?;
    // A query must be one of the user's own (another account's is simply not among them).
    let query = match &asked {
        Asked::Query(id) => {
            let id = id.to_string();
            let found = records.queries.get(&id).ok_or_else(AppError::not_found)?;
            Some((id, found))
        }
        Asked::Range { .. } => None,
    };
    let evidence = evidence_for(&records, &asked);

    // Every photo's ledger row first: the bound is checked before any photo is read.
    let mut photos = Vec::new();
    let mut photo_bytes = 0;
    for item in &evidence {
        let Some(photo_id) = item.content.photo_id.as_deref().and_then(canonical_uuid) else {
            continue;
        };
        if let ReceiptHolder::Me(record) = state.store.find_receipt(user_id, photo_id).await? {
            photo_bytes += record.bytes;
            photos.push((item.id.clone(), photo_id, record));
        }
    }
    if photo_bytes > MAX_PHOTO_BYTES {
        return Err(AppError::client(
            StatusCode::PAYLOAD_TOO_LARGE,
            "bundle-too-large",
            "The photos of this bundle pass 128 MB: choose a shorter range",
        ));
    }

    let built = OffsetDateTime::now_utc();
    let built_at = rfc3339_from_ms(now_ms());
    let items: Vec<ManifestItem> = evidence
        .iter()
        .map(|e| {
            let held = photos.iter().find(|(id, _, _)| *id == e.id);
            let photo_id = held.map(|(_, photo_id, _)| photo_id.to_string());
            contents::manifest_item(e, photo_id.as_deref())
        })
        .collect();
    let driver = current.user.display_name.clone().unwrap_or_default();
    let (scope, letter, file_name) = match (&asked, &query) {
        (_, Some((id, q))) => {
            let check = records.checks.get(&q.statement_check_id);
            let courier = check.and_then(|c| records.couriers.get(&c.courier_id));
            let context = LetterContext {
                courier_name: courier.map_or_else(|| "the courier".to_owned(), Clone::clone),
                period_start: check.map(|c| c.period_start.clone()).unwrap_or_default(),
                period_end: check.map(|c| c.period_end.clone()).unwrap_or_default(),
                reference: check.map(|c| c.reference.clone()).unwrap_or_default(),
                from: driver.clone(),
            };
            let file_name = format!("evidence-query-{}.zip", q.made_on);
            (
                Scope::Query {
                    query_id: id.clone(),
                },
                Some(context),
                file_name,
            )
        }
        (Asked::Range { from, to }, None) => (
            Scope::Range {
                from: from.clone(),
                to: to.clone(),
            },
            None,
            format!("evidence-{from}-to-{to}.zip"),
        ),
        (Asked::Query(_), None) => return Err(AppError::not_found()),
    };
    let mut manifest = Manifest {
        format: contents::FORMAT,
        version: contents::VERSION,
        statement: contents::OWN_RECORD,
        built_by: "server",
        built_at,
        driver,
        scope,
        query: query.map(|(id, q)| contents::manifest_query(&id, &q.made_on, q.total, &q.items)),
        items,
        files: Vec::new(),
    };

    let mut archive = zip::ZipWriter::new(built);
    let too_large = |err: zip::TooLarge| AppError::Internal(anyhow::anyhow!(err));
    let summary = contents::summary_html(&manifest, letter.as_ref(), &evidence);
    archive
        .add("summary.html", summary.as_bytes())
        .map_err(too_large)?;
    manifest.files.push(ManifestFile {
        name: "summary.html".to_owned(),
        bytes: summary.len(),
        sha256: contents::sha256_hex(summary.as_bytes()),
        evidence_id: None,
        recorded_at: None,
        created_at: None,
    });
    for (evidence_id, _, record) in &photos {
        let Some(item) = manifest.items.iter().find(|i| i.id == *evidence_id) else {
            continue;
        };
        let Some(name) = item.photo.clone() else {
            continue;
        };
        if manifest.files.iter().any(|f| f.name == name) {
            continue;
        }
        let bytes = state
            .files
            .store
            .get(&ReceiptKey::of(user_id, record))
            .await?
            .ok_or_else(|| {
                AppError::Internal(anyhow::anyhow!("receipt {} has no stored photo", record.id))
            })?;
        archive.add(&name, &bytes).map_err(too_large)?;
        manifest.files.push(ManifestFile {
            name,
            bytes: bytes.len(),
            sha256: contents::sha256_hex(&bytes),
            evidence_id: Some(item.id.clone()),
            recorded_at: Some(item.recorded_at.clone()),
            created_at: item.created_at.clone(),
        });
    }
    let json = serde_json::to_string_pretty(&manifest)
        .map_err(|err| AppError::Internal(anyhow::anyhow!(err)))?;
    archive
        .add("manifest.json", format!("{json}\n").as_bytes())
        .map_err(too_large)?;
    archive
        .add(
            "manifest.txt",
            contents::manifest_text(&manifest).as_bytes(),
        )
        .map_err(too_large)?;
    let body = archive.finish().map_err(too_large)?;
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .map_err(|err| AppError::Internal(anyhow::anyhow!(err)))?;
    tracing::info!(%user_id, bytes = body.len(), photos = photos.len(), "evidence bundle built");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/zip"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-store"),
            ),
        ],
        body,
    )
        .into_response())
}
