//! How a courier's statement file reads (`kind: "statementFormat"`): which column holds the
//! date, the type, the band, the quantity, the rate, the amount and the reference, how dates are
//! written and which words name which kind of line. The driver maps a file once per courier;
//! the next statement from that courier imports in one tap, on any device (issue 28).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    entry::FieldProblems,
    fields,
    statement_line::{LineType, SizeBand},
};

/// A column's heading as the file writes it.
pub const MAX_COLUMN_CHARS: usize = 60;
/// Words in the type column the driver has named (a courier uses a handful).
pub const MAX_TYPE_WORDS: usize = 100;
pub const MAX_WORD_CHARS: usize = 60;

/// Where the statement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum FormatSource {
    Csv,
    Pdf,
}

/// The order of a date's parts in the file (`18/03/2025` is dayMonthYear).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum DateOrder {
    DayMonthYear,
    YearMonthDay,
    MonthDayYear,
}

/// A word of the type column and the line it makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeWord {
    /// Compared with the cell trimmed and case-folded.
    pub word: String,
    pub line_type: LineType,
    #[serde(default)]
    pub band: Option<SizeBand>,
}

/// `statementFormat.put` args.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatementFormatInput {
    pub id: String,
    pub courier_id: String,
    /// `csv` or `pdf`.
    pub source: String,
    pub date_column: String,
    /// `dayMonthYear`, `yearMonthDay` or `monthDayYear`.
    pub date_order: String,
    pub amount_column: String,
    #[serde(default)]
    pub type_column: Option<String>,
    #[serde(default)]
    pub band_column: Option<String>,
    #[serde(default)]
    pub quantity_column: Option<String>,
    #[serde(default)]
    pub rate_column: Option<String>,
    #[serde(default)]
    pub reference_column: Option<String>,
    /// The line a row makes when there is no type column or its word is not named.
    pub default_type: String,
    /// The statement writes deductions as positive sums (they are taken off on import).
    #[serde(default)]
    pub deductions_positive: bool,
    #[serde(default)]
    pub type_words: Vec<TypeWord>,
}

/// A validated statement format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementFormat {
    pub id: Uuid,
    pub courier_id: Uuid,
    pub source: FormatSource,
    pub date_column: String,
    pub date_order: DateOrder,
    pub amount_column: String,
    pub type_column: Option<String>,
    pub band_column: Option<String>,
    pub quantity_column: Option<String>,
    pub rate_column: Option<String>,
    pub reference_column: Option<String>,
    pub default_type: LineType,
    pub deductions_positive: bool,
    pub type_words: Vec<TypeWord>,
}

fn column(
    raw: &str,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<String> {
    fields::line(raw, field, what, (1, MAX_COLUMN_CHARS), problems)
}

fn optional_column(
    raw: &Option<String>,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<Option<String>> {
    match raw {
        None => Some(None),
        Some(raw) => column(raw, field, what, problems).map(Some),
    }
}

impl StatementFormatInput {
    pub fn validate(&self) -> Result<StatementFormat, FieldProblems> {
        let mut problems = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Statement format id", &mut problems);
        let courier_id = fields::uuid(&self.courier_id, "courierId", "Courier id", &mut problems);
        let source: Option<FormatSource> = fields::choice(
            &self.source,
            "source",
            || "Source must be csv or pdf".into(),
            &mut problems,
        );
        let date_column = column(
            &self.date_column,
            "dateColumn",
            "Date column",
            &mut problems,
        );
        let date_order: Option<DateOrder> = fields::choice(
            &self.date_order,
            "dateOrder",
            || "Date order must be dayMonthYear, yearMonthDay or monthDayYear".into(),
            &mut problems,
        );
        let amount_column = column(
            &self.amount_column,
            "amountColumn",
            "Amount column",
            &mut problems,
        );
        let type_column = optional_column(
            &self.type_column,
            "typeColumn",
            "Type column",
            &mut problems,
        );
        let band_column = optional_column(
            &self.band_column,
            "bandColumn",
            "Band column",
            &mut problems,
        );
        let quantity_column = optional_column(
            &self.quantity_column,
            "quantityColumn",
            "Quantity column",
            &mut problems,
        );
        let rate_column = optional_column(
            &self.rate_column,
            "rateColumn",
            "Rate column",
            &mut problems,
        );
        let reference_column = optional_column(
            &self.reference_column,
            "referenceColumn",
            "Reference column",
            &mut problems,
        );
        let default_type: Option<LineType> = fields::choice(
            &self.default_type,
            "defaultType",
            || {
                "Default type must be stop, parcel, collection, failed, dayRate, bonus, deduction or adjustment"
                    .into()
            },
            &mut problems,
        );
        let type_words = self.checked_words(&mut problems);
        match (
            id,
            courier_id,
            source,
            date_column,
            date_order,
            amount_column,
            type_column,
            band_column,
            quantity_column,
            rate_column,
            reference_column,
            default_type,
        ) {
            (
                Some(id),
                Some(courier_id),
                Some(source),
                Some(date_column),
                Some(date_order),
                Some(amount_column),
                Some(type_column),
                Some(band_column),
                Some(quantity_column),
                Some(rate_column),
                Some(reference_column),
                Some(default_type),
            ) if problems.is_empty() => Ok(StatementFormat {
                id,
                courier_id,
                source,
                date_column,
                date_order,
                amount_column,
                type_column,
                band_column,
                quantity_column,
                rate_column,
                reference_column,
                default_type,
                deductions_positive: self.deductions_positive,
                type_words,
            }),
            _ => Err(problems),
        }
    }

    /// The type words trimmed, each named once (case-folded), a band only on a parcel.
    fn checked_words(&self, problems: &mut FieldProblems) -> Vec<TypeWord> {
        if self.type_words.len() > MAX_TYPE_WORDS {
            problems.push(("typeWords", format!("At most {MAX_TYPE_WORDS} type words")));
            return Vec::new();
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut words = Vec::with_capacity(self.type_words.len());
        for word in &self.type_words {
            let Some(text) = fields::line(
                &word.word,
                "typeWords",
                "A type word",
                (1, MAX_WORD_CHARS),
                problems,
            ) else {
                continue;
            };
            if !seen.insert(text.to_lowercase()) {
                problems.push(("typeWords", format!("The type word {text} is named twice")));
            }
            if word.band.is_some() && word.line_type != LineType::Parcel {
                problems.push(("typeWords", "Only a parcel line has a size band".into()));
            }
            words.push(TypeWord {
                word: text,
                ..word.clone()
            });
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> StatementFormatInput {
        StatementFormatInput {
            id: "0190a6e2-7c1d-7000-8000-000000000601".into(),
            courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
            source: "csv".into(),
            date_column: "Date".into(),
            date_order: "dayMonthYear".into(),
            amount_column: " Amount ".into(),
            type_column: Some("Service".into()),
            band_column: Some("Size".into()),
            quantity_column: Some("Qty".into()),
            rate_column: None,
            reference_column: Some("Barcode".into()),
            default_type: "parcel".into(),
            deductions_positive: true,
            type_words: vec![TypeWord {
                word: " Van hire ".into(),
                line_type: LineType::Deduction,
                band: None,
            }],
        }
    }

    fn fields(bad: &StatementFormatInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_mapping_is_valid_with_its_headings_and_words_trimmed() {
        let format = input().validate().unwrap();
        assert_eq!(format.amount_column, "Amount");
        assert_eq!(format.type_words[0].word, "Van hire");
        assert_eq!(
            (format.source, format.date_order, format.default_type),
            (FormatSource::Csv, DateOrder::DayMonthYear, LineType::Parcel)
        );
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut StatementFormatInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|i| i.id = "1".into(), "id"),
            (|i| i.courier_id = "".into(), "courierId"),
            (|i| i.source = "xls".into(), "source"),
            (|i| i.date_column = " ".into(), "dateColumn"),
            (|i| i.date_order = "dmy".into(), "dateOrder"),
            (|i| i.amount_column = "a".repeat(61), "amountColumn"),
            (|i| i.type_column = Some("".into()), "typeColumn"),
            (|i| i.band_column = Some("B\nand".into()), "bandColumn"),
            (|i| i.quantity_column = Some("".into()), "quantityColumn"),
            (|i| i.rate_column = Some("".into()), "rateColumn"),
            (|i| i.reference_column = Some("".into()), "referenceColumn"),
            (|i| i.default_type = "tip".into(), "defaultType"),
            (
                |i| {
                    i.type_words.push(TypeWord {
                        word: "VAN HIRE".into(),
                        line_type: LineType::Deduction,
                        band: None,
                    });
                },
                "typeWords",
            ),
            (
                |i| {
                    i.type_words.push(TypeWord {
                        word: "Drop".into(),
                        line_type: LineType::Stop,
                        band: Some(SizeBand::Large),
                    });
                },
                "typeWords",
            ),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn too_many_words_are_refused() {
        let mut bad = input();
        bad.type_words = (0..=MAX_TYPE_WORDS)
            .map(|n| TypeWord {
                word: format!("w{n}"),
                line_type: LineType::Stop,
                band: None,
            })
            .collect();
        assert_eq!(fields(&bad), vec!["typeWords"]);
    }
}
