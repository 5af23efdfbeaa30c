//! HTTP plumbing shared by every feature: the access log, client IP, security headers, CSRF,
//! the web app.

pub mod access;
pub mod client_ip;
pub mod connections;
pub mod security;
pub mod spa;
