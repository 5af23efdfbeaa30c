//! What the evidence bundle holds, in the layout the device writes
//! (`web/src/core/evidence-bundle/bundle.ts`, docs/api.md "Evidence bundle"): the printable
//! `summary.html`, the photos, and `manifest.json` / `manifest.txt` with each file's bytes,
//! SHA-256 and its item's times. The words are the device's: an item in one line
//! (`core/evidence/evidence.ts`) and the query's letter (`core/statement-queries/letter.ts`).
//! `summary_is_the_devices_word_for_word` holds the two to one golden page
//! (tests/golden/evidence-bundle/, written by the device's `summary-golden.test.ts`).

use domain::{
    evidence::{EvidenceType, PhotoPurpose},
    statement_query::{CHAIN_START, EVIDENCE_ITEM_KIND, QueryItem, first_broken_link},
    sync::EvidenceContent,
};
use serde::Serialize;
use sha2::{Digest, Sha256};

pub const FORMAT: &str = "delivery-tracker-evidence-bundle";
pub const VERSION: u32 = 1;

/// What the bundle says it is (the device's `OWN_RECORD`, word for word).
pub const OWN_RECORD: &str = "This is the driver's own record, kept at the time on their device. \
Each item was recorded by the driver when it happened: its device time is when they recorded it, \
its server time when the server first stored it.";

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestFile {
    pub name: String,
    pub bytes: usize,
    pub sha256: String,
    pub evidence_id: Option<String>,
    pub recorded_at: Option<String>,
    pub created_at: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum On {
    Day,
    Line,
    Query,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestItem {
    pub id: String,
    #[serde(rename = "type")]
    pub evidence_type: EvidenceType,
    pub on: On,
    pub day: Option<String>,
    pub words: String,
    pub recorded_at: String,
    pub created_at: Option<String>,
    pub photo: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Chain {
    pub head: String,
    pub holds: bool,
    pub first_changed_item: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestQuery {
    pub id: String,
    pub made_on: String,
    pub total: i64,
    pub items: Vec<QueryItem>,
    pub chain: Chain,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", untagged)]
pub enum Scope {
    Query {
        #[serde(rename = "queryId")]
        query_id: String,
    },
    Range {
        from: String,
        to: String,
    },
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: &'static str,
    pub version: u32,
    pub statement: &'static str,
    pub built_by: &'static str,
    pub built_at: String,
    pub driver: String,
    pub scope: Scope,
    pub query: Option<ManifestQuery>,
    pub items: Vec<ManifestItem>,
    pub files: Vec<ManifestFile>,
}

/// An evidence item with the day it is about and where it is kept.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: String,
    pub content: EvidenceContent,
    pub created_at: String,
    pub day: Option<String>,
    pub on: On,
}

/// What the query's letter names besides the query: the device's `LetterContext`.
#[derive(Debug, Clone)]
pub struct LetterContext {
    pub courier_name: String,
    pub period_start: String,
    pub period_end: String,
    pub reference: String,
    pub from: String,
}

fn purpose_slug(purpose: PhotoPurpose) -> &'static str {
    match purpose {
        PhotoPurpose::ProofOfDelivery => "proof-of-delivery",
        PhotoPurpose::EndOfDaySummary => "end-of-day-summary",
        PhotoPurpose::Damage => "damage",
        PhotoPurpose::Other => "other",
    }
}

fn purpose_words(purpose: PhotoPurpose) -> &'static str {
    match purpose {
        PhotoPurpose::ProofOfDelivery => "proof of delivery",
        PhotoPurpose::EndOfDaySummary => "handheld's end-of-day summary",
        PhotoPurpose::Damage => "damage",
        PhotoPurpose::Other => "other",
    }
}

/// `photos/<day>-<purpose>-<photo id>.jpg` (the server keeps every photo as JPEG).
pub fn photo_file_name(item: &Item, photo_id: &str) -> String {
    let day = item
        .day
        .clone()
        .unwrap_or_else(|| item.content.recorded_at.chars().take(10).collect());
    let what = purpose_slug(item.content.purpose.unwrap_or(PhotoPurpose::Other));
    format!("photos/{day}-{what}-{photo_id}.jpg")
}

fn minutes_words(minutes: u16) -> String {
    let (hours, rest) = (minutes / 60, minutes % 60);
    let m = format!("{rest} minute{}", if rest == 1 { "" } else { "s" });
    if hours == 0 {
        return m;
    }
    let h = format!("{hours} hour{}", if hours == 1 { "" } else { "s" });
    if rest == 0 { h } else { format!("{h} {m}") }
}

/// The text's first line, spaces collapsed, at most 120 characters (the device's `firstLine`).
fn first_line(text: &str) -> String {
    let line = text.split('\n').next().unwrap_or("").trim_end_matches('\r');
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 120 {
        format!("{}…", line.chars().take(119).collect::<String>())
    } else {
        line
    }
}

/// The item in one line: "Photo (proof of delivery)", "Waiting time: 55 minutes at Depot".
pub fn evidence_words(e: &EvidenceContent) -> String {
    match e.evidence_type {
        EvidenceType::Note => format!("Note: {}", first_line(&e.text)),
        EvidenceType::Photo => {
            let purpose = purpose_words(e.purpose.unwrap_or(PhotoPurpose::Other));
            if e.text.is_empty() {
                format!("Photo ({purpose})")
            } else {
                format!("Photo ({purpose}): {}", first_line(&e.text))
            }
        }
        EvidenceType::Waiting => {
            let place = if e.place.is_empty() {
                String::new()
            } else {
                format!(" at {}", e.place)
            };
            format!(
                "Waiting time: {}{place}",
                minutes_words(e.minutes.unwrap_or(0))
            )
        }
        EvidenceType::Instruction => {
            format!("Instruction from {}: {}", e.from_whom, first_line(&e.text))
        }
    }
}

/// An item as the manifest lists it; `photo_id` when the bundle holds its photo.
pub fn manifest_item(item: &Item, photo_id: Option<&str>) -> ManifestItem {
    ManifestItem {
        id: item.id.clone(),
        evidence_type: item.content.evidence_type,
        on: item.on,
        day: item.day.clone(),
        words: evidence_words(&item.content),
        recorded_at: item.content.recorded_at.clone(),
        created_at: Some(item.created_at.clone()),
        photo: photo_id.map(|id| photo_file_name(item, id)),
    }
}

/// Integer pence as £ (en-GB, grouped), a negative amount with a true minus sign: −£2.00.
pub fn pounds(pence: i64) -> String {
    let abs = pence.unsigned_abs();
    let whole = (abs / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if pence < 0 { "−" } else { "" };
    format!("{sign}£{grouped}.{:02}", abs % 100)
}

/// dd/mm/yyyy of a YYYY-MM-DD day.
pub fn short_date(day: &str) -> String {
    match (day.get(0..4), day.get(5..7), day.get(8..10)) {
        (Some(y), Some(m), Some(d)) if day.len() == 10 => format!("{d}/{m}/{y}"),
        _ => day.to_owned(),
    }
}

/// "Mon 02/11/2026".
fn weekday_date(day: &str) -> String {
    let weekday = domain::entry::parse_date(day).map(|d| match d.weekday() {
        time::Weekday::Monday => "Mon",
        time::Weekday::Tuesday => "Tue",
        time::Weekday::Wednesday => "Wed",
        time::Weekday::Thursday => "Thu",
        time::Weekday::Friday => "Fri",
        time::Weekday::Saturday => "Sat",
        time::Weekday::Sunday => "Sun",
    });
    match weekday {
        Some(w) => format!("{w} {}", short_date(day)),
        None => short_date(day),
    }
}

fn amount_words(pence: i64) -> String {
    if pence < 0 {
        format!("{} (paid over my log)", pounds(pence))
    } else {
        pounds(pence)
    }
}

pub fn manifest_query(id: &str, made_on: &str, total: i64, items: &[QueryItem]) -> ManifestQuery {
    let broken = first_broken_link(items, sha256_hex);
    ManifestQuery {
        id: id.to_owned(),
        made_on: made_on.to_owned(),
        total,
        items: items.to_vec(),
        chain: Chain {
            head: items
                .last()
                .map_or_else(|| CHAIN_START.to_owned(), |i| i.hash.clone()),
            holds: broken.is_none(),
            first_changed_item: broken.map(|i| i + 1),
        },
    }
}

pub fn chain_words(chain: &Chain) -> String {
    if chain.holds {
        format!(
            "Chain checked: every item is as recorded (head {}).",
            chain.head
        )
    } else {
        format!(
            "Item {} has changed since the query was recorded: the chain no longer matches from there.",
            chain.first_changed_item.unwrap_or(0)
        )
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:1.5rem auto;padding:0 1rem;color:#111;background:#fff}\
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}.own{border:2px solid #111;padding:.75rem}\
table{border-collapse:collapse;width:100%}th,td{border:1px solid #666;padding:.35rem;text-align:left;vertical-align:top}\
.amount{text-align:right;white-space:nowrap}img{max-width:100%;height:auto;display:block;margin-top:.35rem}\
.hash{font-family:monospace;word-break:break-all}@media print{body{margin:0}}";

/// The printable page: what the bundle is, the query's letter (for a query) and every item with its times.
pub fn summary_html(
    manifest: &Manifest,
    letter: Option<&LetterContext>,
    evidence: &[Item],
) -> String {
    let mut title = "Evidence bundle".to_owned();
    if let (Some(context), Some(_)) = (letter, &manifest.query) {
        title = format!(
            "Evidence bundle: Query about the statement for {} to {}",
            short_date(&context.period_start),
            short_date(&context.period_end)
        );
    } else if let Scope::Range { from, to } = &manifest.scope {
        title = format!(
            "Evidence bundle: {} to {}",
            short_date(from),
            short_date(to)
        );
    }
    let mut parts = vec![
        "<!doctype html>".to_owned(),
        "<html lang=\"en-GB\">".to_owned(),
        "<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">".to_owned(),
        format!("<title>{}</title>", escape(&title)),
        format!("<style>{STYLE}</style>"),
        "</head>".to_owned(),
        "<body>".to_owned(),
        "<main>".to_owned(),
        format!("<h1>{}</h1>", escape(&title)),
        format!("<p class=\"own\">{}</p>", escape(OWN_RECORD)),
        format!(
            "<p>{}Bundle built at {}.</p>",
            if manifest.driver.is_empty() {
                String::new()
            } else {
                format!("Driver: {}. ", escape(&manifest.driver))
            },
            escape(&manifest.built_at)
        ),
    ];
    if let (Some(context), Some(query)) = (letter, &manifest.query) {
        parts.extend(letter_html(context, query));
    }
    parts.push("<h2>Evidence kept at the time</h2>".to_owned());
    if manifest.items.is_empty() {
        parts.push("<p>No evidence items.</p>".to_owned());
    } else {
        parts.push("<table><thead><tr><th scope=\"col\">Day</th><th scope=\"col\">Item</th><th scope=\"col\">Recorded on the device</th><th scope=\"col\">First stored by the server</th></tr></thead><tbody>".to_owned());
        for (item, e) in manifest.items.iter().zip(evidence) {
            let on = match item.on {
                On::Day => "the day",
                On::Line => "a statement line",
                On::Query => "the query",
            };
            // The words hold the text's first line, shortened: the whole text follows when there is more.
            let full = if !e.content.text.is_empty() && !item.words.contains(&e.content.text) {
                format!(
                    "<br>{}",
                    escape(&e.content.text)
                        .replace("\r\n", "<br>")
                        .replace('\n', "<br>")
                )
            } else {
                String::new()
            };
            let photo = item.photo.as_ref().map_or_else(
                || {
                    if item.evidence_type == EvidenceType::Photo {
                        "<br><small>The photo has not reached the server yet.</small>".to_owned()
                    } else {
                        String::new()
                    }
                },
                |p| {
                    format!(
                        "<br><a href=\"{p}\">{p}</a><img src=\"{p}\" alt=\"{}\">",
                        escape(&item.words),
                        p = escape(p)
                    )
                },
            );
            parts.push(format!(
                "<tr><td>{}<br><small>on {on}</small></td><td>{}{full}{photo}</td><td>{}</td><td>{}</td></tr>",
                item.day.as_deref().map(weekday_date).map(|d| escape(&d)).unwrap_or_default(),
                escape(&item.words),
                escape(&item.recorded_at),
                escape(item.created_at.as_deref().unwrap_or(super::NOT_ON_SERVER)),
            ));
        }
        parts.push("</tbody></table>".to_owned());
    }
    parts.extend([
        "<p>Each file's SHA-256 and times are in manifest.txt and manifest.json beside this page.</p>".to_owned(),
        "</main>".to_owned(),
        "</body>".to_owned(),
        "</html>".to_owned(),
        String::new(),
    ]);
    parts.join("\n")
}

fn letter_html(context: &LetterContext, query: &ManifestQuery) -> Vec<String> {
    let period = format!(
        "{} to {}",
        short_date(&context.period_start),
        short_date(&context.period_end)
    );
    let differences: Vec<&QueryItem> = query
        .items
        .iter()
        .filter(|i| i.kind != EVIDENCE_ITEM_KIND)
        .collect();
    let count = differences.len();
    let reference = if context.reference.is_empty() {
        String::new()
    } else {
        format!(" (reference {})", context.reference)
    };
    let these = if count == 1 {
        "This difference is".to_owned()
    } else {
        format!("These {count} differences are")
    };
    let opening = format!(
        "I have checked your statement for {period}{reference} against my own record of each day \
         and the rate card in force on it. {these} not explained by the statement:"
    );
    let total = if query.total >= 0 {
        format!("Total owed to me: {}", pounds(query.total))
    } else {
        format!("Total: {}", amount_words(query.total))
    };
    let mut parts = vec![
        "<h2>The query</h2>".to_owned(),
        format!("<p>Dated {}</p>", short_date(&query.made_on)),
        format!("<p>To {},</p>", escape(&context.courier_name)),
        format!("<p>{}</p>", escape(&opening)),
        "<table><thead><tr><th scope=\"col\">#</th><th scope=\"col\">Day</th><th scope=\"col\">Difference</th><th scope=\"col\" class=\"amount\">Amount</th></tr></thead><tbody>".to_owned(),
    ];
    for (index, item) in differences.iter().enumerate() {
        let mut figures = vec![
            format!(
                "Logged: {}",
                if item.logged.is_empty() {
                    "—"
                } else {
                    &item.logged
                }
            ),
            format!(
                "Paid: {}",
                if item.paid.is_empty() {
                    "—"
                } else {
                    &item.paid
                }
            ),
        ];
        if let Some(rate) = item.card_rate {
            figures.push(format!("Card’s rate: {}", pounds(rate)));
        }
        parts.push(format!(
            "<tr><td>{}</td><td>{}</td><td>{}<br><small>{}</small></td><td class=\"amount\">{}</td></tr>",
            index + 1,
            escape(&item.date.as_deref().map_or_else(|| "Whole statement".to_owned(), weekday_date)),
            escape(&item.words),
            escape(&figures.join(" · ")),
            escape(&amount_words(item.amount)),
        ));
    }
    parts.push("</tbody></table>".to_owned());
    parts.push(format!("<p><strong>{}</strong></p>", escape(&total)));
    parts.push("<p>Please pay the total with the next statement or tell me in writing why it is not due. I keep my own dated record of each day.</p>".to_owned());
    if !context.from.is_empty() {
        parts.push(format!("<p>{}</p>", escape(&context.from)));
    }
    let head: String = query.chain.head.chars().take(8).collect();
    parts.push(format!(
        "<p>Recorded {}, chain {head}. {}</p>",
        short_date(&query.made_on),
        escape(&chain_words(&query.chain))
    ));
    let recorded = query
        .items
        .iter()
        .filter(|i| i.kind == EVIDENCE_ITEM_KIND)
        .count();
    parts.push(format!("<p>{}</p>", recorded_evidence_words(recorded)));
    parts
}

/// How many evidence items the query's chain holds, under its letter (as the device words it).
fn recorded_evidence_words(count: usize) -> String {
    let items = if count == 1 {
        "evidence item"
    } else {
        "evidence items"
    };
    format!("The query recorded {count} {items} in its chain.")
}

/// The manifest to read: what the bundle is, then each file with its size, hash and times.
pub fn manifest_text(manifest: &Manifest) -> String {
    let scope = match &manifest.scope {
        Scope::Query { query_id } => format!("Statement query {query_id}"),
        Scope::Range { from, to } => format!("{} to {}", short_date(from), short_date(to)),
    };
    let mut lines = vec![
        "Evidence bundle".to_owned(),
        manifest.statement.to_owned(),
        String::new(),
        format!("For: {scope}"),
    ];
    if !manifest.driver.is_empty() {
        lines.push(format!("Driver: {}", manifest.driver));
    }
    lines.push(format!(
        "Built by the {} at {}",
        manifest.built_by, manifest.built_at
    ));
    if let Some(query) = &manifest.query {
        lines.push(chain_words(&query.chain));
    }
    lines.push(String::new());
    lines.push("Files (SHA-256 of each file as it is in this ZIP):".to_owned());
    for file in &manifest.files {
        lines.extend([
            String::new(),
            file.name.clone(),
            format!("  {} bytes", file.bytes),
            format!("  SHA-256 {}", file.sha256),
        ]);
        if file.evidence_id.is_some() {
            lines.push(format!(
                "  Recorded on the device: {}",
                file.recorded_at.as_deref().unwrap_or("")
            ));
            lines.push(format!(
                "  First stored by the server: {}",
                file.created_at.as_deref().unwrap_or(super::NOT_ON_SERVER)
            ));
        }
    }
    lines.push(String::new());
    lines.push("manifest.json holds the same, with every item, for programs to check.".to_owned());
    lines.push(String::new());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// The inputs the device's `summary-golden.test.ts` writes beside the summary it pins.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Fixture {
        built_at: String,
        driver: String,
        context: FixtureContext,
        query: FixtureQuery,
        evidence: Vec<FixtureItem>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct FixtureContext {
        courier_name: String,
        period_start: String,
        period_end: String,
        reference: String,
        from: String,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct FixtureQuery {
        id: String,
        made_on: String,
        total: i64,
        items: Vec<QueryItem>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct FixtureItem {
        id: String,
        created_at: String,
        day: Option<String>,
        on: String,
        content: EvidenceContent,
    }

    /// The device writes the bundle when it holds every photo, the server otherwise: the same
    /// query's summary must read the same from either, byte for byte (the golden file is the
    /// device's, written by web/src/core/evidence-bundle/summary-golden.test.ts).
    #[test]
    fn summary_is_the_devices_word_for_word() {
        let fixture: Fixture = serde_json::from_str(include_str!(
            "../../tests/golden/evidence-bundle/fixture.json"
        ))
        .expect("the golden inputs");
        let evidence: Vec<Item> = fixture
            .evidence
            .into_iter()
            .map(|e| Item {
                id: e.id,
                content: e.content,
                created_at: e.created_at,
                day: e.day,
                on: match e.on.as_str() {
                    "day" => On::Day,
                    "line" => On::Line,
                    _ => On::Query,
                },
            })
            .collect();
        let q = &fixture.query;
        let manifest = Manifest {
            format: FORMAT,
            version: VERSION,
            statement: OWN_RECORD,
            built_by: "server",
            built_at: fixture.built_at,
            driver: fixture.driver,
            scope: Scope::Query {
                query_id: q.id.clone(),
            },
            query: Some(manifest_query(&q.id, &q.made_on, q.total, &q.items)),
            items: evidence
                .iter()
                .map(|e| manifest_item(e, e.content.photo_id.as_deref()))
                .collect(),
            files: Vec::new(),
        };
        let c = fixture.context;
        let letter = LetterContext {
            courier_name: c.courier_name,
            period_start: c.period_start,
            period_end: c.period_end,
            reference: c.reference,
            from: c.from,
        };
        let ours = summary_html(&manifest, Some(&letter), &evidence);
        let device = include_str!("../../tests/golden/evidence-bundle/summary.html");
        if ours != device {
            let first = ours
                .lines()
                .zip(device.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "the server's summary differs from the device's at line {}:\n  server: {}\n  device: {}",
                first + 1,
                ours.lines().nth(first).unwrap_or(""),
                device.lines().nth(first).unwrap_or("")
            );
        }
    }

    #[test]
    fn pounds_as_the_device_writes_them() {
        assert_eq!(pounds(450), "£4.50");
        assert_eq!(pounds(-200), "−£2.00");
        assert_eq!(pounds(123_456_789), "£1,234,567.89");
        assert_eq!(pounds(0), "£0.00");
    }

    #[test]
    fn words_as_the_device_writes_them() {
        assert_eq!(minutes_words(65), "1 hour 5 minutes");
        assert_eq!(minutes_words(60), "1 hour");
        assert_eq!(minutes_words(1), "1 minute");
        assert_eq!(first_line("Depot\tshut\nsecond"), "Depot shut");
        assert_eq!(weekday_date("2026-11-02"), "Mon 02/11/2026");
        assert_eq!(
            recorded_evidence_words(1),
            "The query recorded 1 evidence item in its chain."
        );
        assert_eq!(
            recorded_evidence_words(0),
            "The query recorded 0 evidence items in its chain."
        );
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
