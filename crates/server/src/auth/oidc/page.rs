//! The page the sign-in popup lands on: it hands the outcome to the window that opened it
//! (this origin only) and closes itself. Its one inline script is allowed by a per-response
//! CSP nonce, so the site-wide policy keeps refusing inline scripts.

use axum::{
    http::{HeaderName, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use serde::Serialize;

/// What the opener receives as `event.data`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OidcResult {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_new_user: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl OidcResult {
    pub fn success(is_new_user: bool) -> OidcResult {
        OidcResult {
            kind: "oidc-result",
            ok: true,
            is_new_user: Some(is_new_user),
            error: None,
            message: None,
        }
    }

    pub fn failure(code: &'static str, message: String) -> OidcResult {
        OidcResult {
            kind: "oidc-result",
            ok: false,
            is_new_user: None,
            error: Some(code),
            message: Some(message),
        }
    }
}

/// JSON that is safe inside a `<script>` element: no `<`, `>` or `&` can end it early.
fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .expect("serialisable")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn nonce() -> String {
    let mut bytes = [0u8; 18];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The popup's landing page. `extra_headers` carries Set-Cookie values.
pub fn result_page(
    result: &OidcResult,
    own_origin: &str,
    extra_headers: Vec<(HeaderName, HeaderValue)>,
) -> Response {
    let nonce = nonce();
    let text = if result.ok {
        "Signed in. You can close this window.".to_owned()
    } else {
        result.message.clone().unwrap_or_default()
    };
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Delivery Tracker</title></head><body><p id=\"status\">{}</p>\
         <script nonce=\"{nonce}\">(function () {{\n\
         var result = {};\n\
         if (window.opener) {{ window.opener.postMessage(result, {}); window.close(); }}\n\
         }})();</script></body></html>",
        escape_html(&text),
        script_json(result),
        script_json(&own_origin),
    );
    let csp = format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'none'"
    );
    let mut response = (StatusCode::OK, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&csp).expect("ASCII"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static(super::POPUP_COOP),
    );
    for (name, value) in extra_headers {
        headers.append(name, value);
    }
    response
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_data_cannot_close_the_script_element() {
        let result = OidcResult::failure("x", "</script><script>alert(1)</script>".into());
        let json = script_json(&result);
        assert!(!json.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["message"], "</script><script>alert(1)</script>");
    }

    #[test]
    fn the_inline_script_carries_the_nonce_the_policy_allows() {
        let response = result_page(&OidcResult::success(true), "https://dt.example", vec![]);
        let csp = response.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(!csp.contains("unsafe-inline"));
        let nonce = csp
            .split("'nonce-")
            .nth(1)
            .and_then(|rest| rest.split('\'').next())
            .unwrap();
        assert!(nonce.len() >= 22);
    }
}
