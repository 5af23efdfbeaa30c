//! Wire types of the auth API (fixed by issue [1/5]; see docs/api.md).

use domain::{DisplayName, Role, time_fmt::rfc3339_from_ms};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{AppState, store::UserRecord};

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignupRequest {
    pub email: Option<String>,
    pub password: Option<String>,
    pub display_name: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub email: Option<String>,
    pub password: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub email: Option<String>,
    pub display_name: String,
    #[serde(rename = "photoURL")]
    pub photo_url: Option<String>,
    pub bio: String,
    pub role: Role,
    pub is_anonymous: bool,
    pub created_at: String,
    pub last_login: String,
    /// The password is temporary (an operator's reset): the app asks for a new one before
    /// anything else, and the server refuses other writes with 403 `password-change-required`.
    pub must_change_password: bool,
    /// Whether this server has plans (PLANS_ENABLED). False: no Pro banner, no upgrade page, no
    /// plan labels, every user has everything, whatever `role` says. The app keeps it with the
    /// signed-in user, so it holds offline too.
    pub plans_enabled: bool,
}

impl UserView {
    pub fn new(user: &UserRecord, state: &AppState) -> Self {
        UserView {
            id: user.id.to_string(),
            email: user.email.clone(),
            display_name: user
                .display_name
                .clone()
                .unwrap_or_else(|| DisplayName::FALLBACK.to_owned()),
            photo_url: user.photo_url.clone(),
            bio: user.bio.clone(),
            role: user.role,
            is_anonymous: user.is_anonymous,
            created_at: rfc3339_from_ms(user.created_at_ms),
            last_login: rfc3339_from_ms(user.last_login_ms),
            must_change_password: user.must_change_password,
            plans_enabled: state.config.billing.plans_enabled,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthResponse {
    pub user: UserView,
    pub is_new_user: bool,
}

#[derive(Serialize, ToSchema)]
pub struct SessionResponse {
    pub user: UserView,
}

/// The answer to "who is signed in here?": `user` is null when nobody is (no cookie, or a
/// session that ended or expired). Signed out is an answer, not an error, so a first visit
/// logs no failed request in the browser's console.
#[derive(Serialize, ToSchema)]
pub struct SessionCheck {
    pub user: Option<UserView>,
}
