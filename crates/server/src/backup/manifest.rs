//! The archive's table of contents: what made it, which schema its database is at, and the size
//! and SHA-256 of every other member, so a restore can prove the archive whole before it
//! writes anything.

use std::io::{self, Read};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bumped when the archive layout changes; a restore refuses formats it does not know.
pub const FORMAT: u32 = 1;
/// The manifest's own name in the archive.
pub const MANIFEST: &str = "manifest.json";
/// The SQLite snapshot's name in the archive.
pub const DATABASE: &str = "database.sqlite3";
/// Stored files sit under this folder, with their keys as paths (`files/users/{uid}/…`).
pub const FILES: &str = "files/";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: u32,
    /// The `delivery-tracker` version that wrote the archive.
    pub app_version: String,
    /// `sqlite`, or `postgres` when the database is not in the archive (see docs/operating.md,
    /// "Backups").
    pub database: String,
    /// The newest migration applied to the archived database; None when it holds none.
    pub schema_version: Option<i64>,
    /// RFC 3339, UTC.
    pub created_at: String,
    pub members: Vec<Member>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Member {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// Size and lowercase hex SHA-256 of everything `reader` yields.
pub fn checksum(reader: &mut impl Read) -> io::Result<(u64, String)> {
    let mut hasher = Sha256::new();
    let size = io::copy(reader, &mut hasher)?;
    Ok((size, hex::encode(hasher.finalize())))
}

/// The longest name of one folder or file that file systems take (NAME_MAX).
const MAX_SEGMENT_BYTES: usize = 255;

/// Whether an archive member's path is one a backup writes: the manifest, the database, or a
/// plain relative path under `files/` (no `..`, no absolute path, no empty segment, no name
/// longer than a file system takes), so a crafted archive cannot write outside the data
/// directory nor fail halfway on a name.
pub fn is_allowed_path(path: &str) -> bool {
    if path == MANIFEST || path == DATABASE {
        return true;
    }
    let Some(rest) = path.strip_prefix(FILES) else {
        return false;
    };
    !rest.is_empty()
        && rest.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && segment.len() <= MAX_SEGMENT_BYTES
        })
        && !rest.contains('\\')
        && !rest.contains('\0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_is_size_and_hex_sha256() {
        let (size, sum) = checksum(&mut &b"abc"[..]).unwrap();
        assert_eq!(size, 3);
        assert_eq!(
            sum,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn only_backup_paths_are_allowed() {
        for ok in [
            MANIFEST,
            DATABASE,
            "files/users/0195/profile_1",
            "files/users/x/receipts/y",
        ] {
            assert!(is_allowed_path(ok), "{ok}");
        }
        for bad in [
            "/etc/passwd",
            "files/../../etc/passwd",
            "files/",
            "files//x",
            "files/./x",
            "other.txt",
            "files/a\\..\\b",
            "database.sqlite3/x",
            &format!("files/users/{}", "x".repeat(256)),
        ] {
            assert!(!is_allowed_path(bad), "{bad}");
        }
    }
}
