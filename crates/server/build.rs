//! Gives `http/spa.rs` the built web app's folder as `WEB_DIST`, a canonical path. In a debug
//! build rust-embed reads the files from disk and serves only those whose canonical path starts
//! with the folder as written: `$CARGO_MANIFEST_DIR/../../web/dist` never does when web/dist did
//! not exist at compile time, and the debug binary (which the end-to-end tests drive) then
//! served no web app at all.

use std::path::Path;

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let web = Path::new(&manifest_dir)
        .join("../../web")
        .canonicalize()
        .expect("the web app's folder exists in the repository");
    println!("cargo:rustc-env=WEB_DIST={}", web.join("dist").display());
    println!("cargo:rerun-if-changed=build.rs");
}
