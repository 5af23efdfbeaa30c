//! One error type for every handler, rendered as one JSON shape:
//! `{"error":{"code":"validation","message":"…","fields":{"stops":["…"]}}}`.
//! Server faults are logged with their detail and answered with a generic body.

use std::collections::BTreeMap;

use axum::{
    Json,
    body::Bytes,
    extract::{
        FromRequest, Request,
        rejection::{JsonRejection, MissingJsonContentType, QueryRejection},
    },
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Serialize, de::DeserializeOwned};
use utoipa::ToSchema;

use crate::store::StoreError;

pub use domain::fields::FieldErrors;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A client mistake with a stable machine-readable code.
    #[error("{code}: {message}")]
    Client {
        status: StatusCode,
        code: &'static str,
        message: String,
        fields: Option<FieldErrors>,
    },
    #[error("rate limited, retry after {retry_after_secs}s")]
    RateLimited { retry_after_secs: u64 },
    /// The same request again too soon after the last one (a second SMS code to one number):
    /// 429 `rate-limited` like [`AppError::RateLimited`], but worded as the wait it is.
    /// `before` finishes "Please wait 1 minute before …".
    #[error("too soon, retry after {retry_after_secs}s")]
    TooSoon {
        retry_after_secs: u64,
        before: &'static str,
    },
    /// A per-user quota that refills with time (push volume): 429 `quota-exceeded` with
    /// Retry-After, so the client sends the same request again later.
    #[error("quota exceeded, retry after {retry_after_secs}s")]
    QuotaExceeded {
        retry_after_secs: u64,
        message: String,
    },
    #[error("internal: {0:#}")]
    Internal(#[from] anyhow::Error),
    /// A shared capacity is full (e.g. uploads in flight): 503 `busy` with Retry-After.
    #[error("busy, retry after {retry_after_secs}s")]
    Busy { retry_after_secs: u64 },
}

impl AppError {
    pub fn client(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        AppError::Client {
            status,
            code,
            message: message.into(),
            fields: None,
        }
    }

    pub fn validation(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        let fields = BTreeMap::from([(field.to_owned(), vec![message.clone()])]);
        AppError::Client {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "validation",
            message,
            fields: Some(fields),
        }
    }

    pub fn unauthenticated() -> Self {
        Self::client(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "Please sign in",
        )
    }

    pub fn not_found() -> Self {
        Self::client(StatusCode::NOT_FOUND, "not-found", "Not found")
    }

    pub fn code(&self) -> &'static str {
        match self {
            AppError::Client { code, .. } => code,
            AppError::RateLimited { .. } | AppError::TooSoon { .. } => "rate-limited",
            AppError::QuotaExceeded { .. } => "quota-exceeded",
            AppError::Internal(_) => "internal",
            AppError::Busy { .. } => "busy",
        }
    }
}

impl From<StoreError> for AppError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict(what) => AppError::client(
                StatusCode::CONFLICT,
                "conflict",
                format!("{what} already exists"),
            ),
            StoreError::Backend(err) => AppError::Internal(err),
        }
    }
}

/// The wire shape, also published in the OpenAPI document.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<FieldErrors>,
}

pub fn error_response(
    status: StatusCode,
    code: &str,
    message: &str,
    fields: Option<FieldErrors>,
) -> Response {
    let body = ErrorBody {
        error: ErrorDetail {
            code: code.to_owned(),
            message: message.to_owned(),
            fields,
        },
    };
    (status, Json(body)).into_response()
}

/// A wait for people: "1 second", "45 seconds", "2 minutes" (rounded up, so never too short).
fn wait_words(secs: u64) -> String {
    let (n, unit) = if secs < 120 {
        (secs, "second")
    } else if secs < 2 * 3600 {
        (secs.div_ceil(60), "minute")
    } else {
        (secs.div_ceil(3600), "hour")
    };
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// An error the client should retry after `secs` seconds (`Retry-After`).
fn retry_later(status: StatusCode, code: &str, message: &str, secs: u64) -> Response {
    let mut response = error_response(status, code, message, None);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    response
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match self {
            AppError::Client {
                status,
                code,
                message,
                fields,
            } => error_response(status, code, &message, fields),
            AppError::RateLimited { retry_after_secs } => {
                let secs = retry_after_secs.max(1);
                retry_later(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate-limited",
                    &format!(
                        "Too many attempts. Please try again in {}.",
                        wait_words(secs)
                    ),
                    secs,
                )
            }
            AppError::TooSoon {
                retry_after_secs,
                before,
            } => {
                let secs = retry_after_secs.max(1);
                retry_later(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate-limited",
                    &format!("Please wait {} before {before}.", wait_words(secs)),
                    secs,
                )
            }
            AppError::Busy { retry_after_secs } => {
                let secs = retry_after_secs.max(1);
                retry_later(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    &format!(
                        "The server is busy. Please try again in {}.",
                        wait_words(secs)
                    ),
                    secs,
                )
            }
            AppError::QuotaExceeded {
                retry_after_secs,
                message,
            } => retry_later(
                StatusCode::TOO_MANY_REQUESTS,
                "quota-exceeded",
                &message,
                retry_after_secs.max(1),
            ),
            AppError::Internal(err) => {
                tracing::error!(error = format!("{err:#}"), "internal error");
                error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "Something went wrong on the server. Please try again.",
                    None,
                )
            }
        }
    }
}

/// Bad JSON, a wrong content type or an oversized body get the same error shape.
impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        let (status, code) = match &rejection {
            JsonRejection::JsonDataError(_) => (StatusCode::UNPROCESSABLE_ENTITY, "validation"),
            JsonRejection::JsonSyntaxError(_) => (StatusCode::BAD_REQUEST, "bad-json"),
            JsonRejection::MissingJsonContentType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type")
            }
            _ if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                (StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large")
            }
            _ => (rejection.status(), "bad-request"),
        };
        AppError::client(status, code, rejection.body_text())
    }
}

/// Adds the answers [`ApiJson`] gives before a handler runs (400 `bad-json`, 413
/// `payload-too-large`, 415 `unsupported-media-type`) to every operation of `openapi` that takes
/// a JSON body, so no route's documentation can forget them.
pub fn document_json_rejections(openapi: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{Content, Ref, ResponseBuilder};
    let rejections = [
        ("400", "bad-json: the body is not valid JSON"),
        ("413", "payload-too-large: the body is over the limit"),
        ("415", "unsupported-media-type: not application/json"),
    ];
    for item in openapi.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            let takes_json = operation
                .request_body
                .as_ref()
                .is_some_and(|body| body.content.contains_key("application/json"));
            if !takes_json {
                continue;
            }
            for (status, description) in rejections {
                operation
                    .responses
                    .responses
                    .entry(status.to_owned())
                    .or_insert_with(|| {
                        ResponseBuilder::new()
                            .description(description)
                            .content(
                                "application/json",
                                Content::new(Some(Ref::from_schema_name("ErrorBody"))),
                            )
                            .build()
                            .into()
                    });
            }
        }
    }
}

/// A JSON body extractor whose rejections use [`AppError`]: `axum::Json`'s checks and
/// messages, with a cheaper parse of a body that is fine.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, AppError> {
        if !json_content_type(request.headers()) {
            return Err(JsonRejection::from(MissingJsonContentType::default()).into());
        }
        let body = Bytes::from_request(request, state)
            .await
            .map_err(JsonRejection::from)?;
        // `Json` parses through serde_path_to_error, which tracks the path of every field it
        // reads: 3 % of a push's CPU in a 16-connection profile. Only a refusal needs the path,
        // so a body serde_json accepts is done here, and one it refuses is parsed again by
        // `Json` for the same message as before ("mutations[0].args: missing field `date`").
        match serde_json::from_slice(&body) {
            Ok(value) => Ok(ApiJson(value)),
            Err(_) => Json::<T>::from_bytes(&body)
                .map(|Json(value)| ApiJson(value))
                .map_err(AppError::from),
        }
    }
}

/// `application/json` or any `+json` type, as `axum::Json` decides it (its check is private).
fn json_content_type(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<mime_guess::Mime>().ok())
        .is_some_and(|mime| {
            mime.type_() == "application"
                && (mime.subtype() == "json" || mime.suffix().is_some_and(|name| name == "json"))
        })
}

pub type ApiResult<T> = Result<T, AppError>;

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::client(
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation",
            rejection.body_text(),
        )
    }
}

/// A query-string extractor whose rejections use [`AppError`].
#[derive(axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub struct ApiQuery<T>(pub T);

/// Answers that a layer or extractor produced without our JSON body (the request timeout's
/// bare 408, a body-limit 413 from a non-JSON extractor) get it here, in one place; the
/// security headers are added after this (`http::security::finish_response`).
pub fn json_error_statuses(response: Response) -> Response {
    let (code, message) = match response.status() {
        StatusCode::REQUEST_TIMEOUT => (
            "request-timeout",
            "The request took too long. Please try again.",
        ),
        StatusCode::PAYLOAD_TOO_LARGE => ("payload-too-large", "The request body is too large"),
        _ => return response,
    };
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json {
        return response;
    }
    let mut replaced = error_response(response.status(), code, message, None);
    // Keep what the original answer said about the connection (e.g. `connection: close`).
    if let Some(connection) = response.headers().get(header::CONNECTION) {
        replaced
            .headers_mut()
            .insert(header::CONNECTION, connection.clone());
    }
    replaced
}

#[cfg(test)]
mod tests {
    use axum::{body::Body, extract::FromRequest as _, http::Request};
    use serde::Deserialize;

    use super::{ApiJson, AppError, Json, StatusCode, wait_words};

    #[derive(Debug, Deserialize, PartialEq)]
    struct Push {
        items: Vec<Item>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Item {
        stops: u32,
    }

    fn request(content_type: Option<&str>, body: &str) -> Request<Body> {
        let mut request = Request::post("/");
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        request.body(Body::from(body.to_owned())).unwrap()
    }

    async fn api_json(content_type: Option<&str>, body: &str) -> Result<Push, AppError> {
        ApiJson::<Push>::from_request(request(content_type, body), &())
            .await
            .map(|ApiJson(push)| push)
    }

    /// What `axum::Json` answers for the same request, as our error.
    async fn axum_json(content_type: Option<&str>, body: &str) -> Result<Push, AppError> {
        Json::<Push>::from_request(request(content_type, body), &())
            .await
            .map(|Json(push)| push)
            .map_err(AppError::from)
    }

    fn refusal(outcome: Result<Push, AppError>) -> (StatusCode, &'static str, String) {
        match outcome {
            Err(AppError::Client {
                status,
                code,
                message,
                ..
            }) => (status, code, message),
            other => panic!("expected a client error, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_json_body_parses_as_axum_json_would_parse_it() {
        let body = r#"{"items":[{"stops":3},{"stops":140}]}"#;
        for content_type in [
            "application/json",
            "application/json; charset=utf-8",
            "application/cloudevents+json",
        ] {
            let parsed = api_json(Some(content_type), body).await.unwrap();
            assert_eq!(parsed, axum_json(Some(content_type), body).await.unwrap());
            assert_eq!(parsed.items[1], Item { stops: 140 });
        }
    }

    #[tokio::test]
    async fn every_refusal_is_axum_jsons_own_with_the_path_to_the_bad_field() {
        let cases = [
            (Some("application/json"), r#"{"items":[{"stops":3},{}]}"#),
            (
                Some("application/json"),
                r#"{"items":[{"stops":3},{"stops":-1}]}"#,
            ),
            (Some("application/json"), r#"{"items":[{"stops":3},"#),
            (Some("text/json"), r#"{"items":[]}"#),
            (None, r#"{"items":[]}"#),
        ];
        for (content_type, body) in cases {
            let ours = refusal(api_json(content_type, body).await);
            assert_eq!(ours, refusal(axum_json(content_type, body).await), "{body}");
        }
        let (status, code, message) =
            refusal(api_json(Some("application/json"), r#"{"items":[{"stops":3},{}]}"#).await);
        assert_eq!(
            (status, code),
            (StatusCode::UNPROCESSABLE_ENTITY, "validation")
        );
        assert!(
            message.contains("items[1]: missing field `stops`"),
            "{message}"
        );
        let (status, code, _) = refusal(api_json(Some("text/json"), "{}").await);
        assert_eq!(
            (status, code),
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type")
        );
    }

    #[test]
    fn a_wait_reads_as_people_say_it_and_never_shorter_than_asked() {
        assert_eq!(wait_words(1), "1 second");
        assert_eq!(wait_words(42), "42 seconds");
        assert_eq!(wait_words(119), "119 seconds");
        assert_eq!(wait_words(120), "2 minutes");
        assert_eq!(wait_words(121), "3 minutes");
        assert_eq!(wait_words(3600), "60 minutes");
        assert_eq!(wait_words(7200), "2 hours");
        assert_eq!(wait_words(7201), "3 hours");
    }
}
