//! Who owns a file and who this process runs as, in words an operator can act on: a restore
//! that must write files the service's user can read, and a database the server cannot write.

use std::{os::unix::fs::MetadataExt, path::Path};

/// The effective user id of this process.
pub fn current() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// `name (uid N)` from /etc/passwd, or `uid N` when the id has no name there.
pub fn describe(uid: u32) -> String {
    match name_of(uid) {
        Some(name) => format!("{name} (uid {uid})"),
        None => format!("uid {uid}"),
    }
}

/// The user name of `uid` in /etc/passwd, if it has one.
pub fn name_of(uid: u32) -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id: u32 = fields.nth(1)?.parse().ok()?;
        (id == uid && !name.is_empty()).then(|| name.to_owned())
    })
}

/// `path`, its owner and its permission bits (`/x/db owned by root (uid 0), mode 644`), or
/// why it cannot be looked at.
pub fn ownership(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(meta) => format!(
            "{} owned by {}, mode {:o}",
            path.display(),
            describe(meta.uid()),
            meta.mode() & 0o7777
        ),
        Err(err) => format!("{} ({err})", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_has_a_name_and_files_say_who_owns_them() {
        assert_eq!(name_of(0).as_deref(), Some("root"));
        assert_eq!(describe(0), "root (uid 0)");
        assert_eq!(describe(4_000_000_000), "uid 4000000000");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o640))
            .unwrap();
        let said = ownership(&file);
        assert!(
            said.ends_with(&format!("owned by {}, mode 640", describe(current()))),
            "{said}"
        );
    }
}
