//! Plans: Stripe Checkout to become Pro, and the signed webhook that sets the plan. Without a
//! payment provider configured, plans are managed by the operator (`users set-plan`).

mod handlers;
pub mod signature;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::get_billing))
        .routes(routes!(handlers::create_checkout))
        .routes(routes!(handlers::receive_webhook))
}
