//! What the bench binaries share.

pub mod served;
