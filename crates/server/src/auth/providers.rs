//! Which sign-in methods this server offers, so the web app shows only working buttons.

use axum::{Json, extract::State};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProvidersResponse {
    /// Phone sign-in (an SMS sender is configured).
    pub phone: bool,
    /// The OpenID Connect provider ("Sign in with Google"), null when not configured.
    pub oidc: Option<OidcProvider>,
    /// Whether new accounts can be made (SIGNUPS_OPEN): false hides "Create account".
    pub signups: bool,
    /// Whether guest accounts can be made (GUESTS_ENABLED): false hides "Try without an account".
    pub guests: bool,
    /// The country whose numbers may be typed without a country code (PHONE_DEFAULT_REGION),
    /// e.g. "GB", so the web app reads numbers as the server does.
    pub phone_region: String,
    /// Whether "Forgot password?" e-mails a reset link (SMTP and PUBLIC_URL are set); false: the
    /// operator resets passwords.
    pub password_reset: bool,
}

#[derive(Serialize, ToSchema)]
pub struct OidcProvider {
    /// The button's provider name, e.g. "Google".
    pub label: String,
}

#[utoipa::path(get, path = "/providers", tag = "auth",
    responses((status = 200, description = "The sign-in methods on offer", body = ProvidersResponse)))]
pub async fn get_providers(State(state): State<AppState>) -> Json<ProvidersResponse> {
    Json(ProvidersResponse {
        phone: state.phone.is_some(),
        oidc: state.oidc.as_ref().map(|provider| OidcProvider {
            label: provider.settings().label.clone(),
        }),
        signups: state.config.signups.signups_open,
        guests: state.config.signups.guests_enabled,
        phone_region: state.config.phone.phone_default_region.code().to_owned(),
        password_reset: state.email_links.mail.is_some(),
    })
}
