//! Wire types of phone sign-in (docs/api.md, "Phone sign-in").

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

/// An ALTCHA v1 challenge: find `number ≤ maxnumber` with `SHA-256(salt + number) == challenge`.
#[derive(Serialize, ToSchema)]
pub struct CaptchaChallenge {
    #[schema(example = "SHA-256")]
    pub algorithm: String,
    pub challenge: String,
    pub maxnumber: u64,
    /// Random hex, then `?expires=<unix seconds>&` (covered by the signature).
    pub salt: String,
    pub signature: String,
}

#[derive(Deserialize, ToSchema)]
pub struct SendCodeRequest {
    /// E.164, e.g. `+447700900123`. Anything but a string is refused like a malformed number.
    #[serde(default, deserialize_with = "string_or_none")]
    pub phone: Option<String>,
    /// The solved challenge: `{algorithm, challenge, number, salt, signature}`, or the ALTCHA
    /// widget's base64 of that JSON.
    #[schema(value_type = Object)]
    pub captcha: Option<serde_json::Value>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendCodeResponse {
    /// Names the code just texted; a resend to the same number replaces it.
    pub verification_id: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyCodeRequest {
    pub verification_id: Option<String>,
    pub code: Option<String>,
}

fn string_or_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    })
}
