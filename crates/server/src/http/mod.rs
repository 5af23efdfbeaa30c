//! HTTP plumbing shared by every feature: client IP, security headers, CSRF, the web app.

pub mod client_ip;
pub mod connections;
pub mod security;
pub mod spa;
