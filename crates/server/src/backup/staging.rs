//! Where a restore writes before anything is in place, so a restore is all or nothing: a
//! folder beside DATA_DIR renamed into place whole when DATA_DIR does not exist yet, or a
//! folder inside the empty DATA_DIR whose entries are moved up at the end (its parent, often
//! /var/lib, may not be writable by the service's user). A database outside DATA_DIR is
//! written beside its own place and renamed there. A failure, or a restore killed halfway,
//! leaves only these folders, which are ours by name and removed by the next try.
//!
//! What is written is readable by its owner only (0600, folders 0700) from the moment it is
//! created, and ends up owned by the owner of the target: run as root into the service
//! user's DATA_DIR, the files are given to that user; run as anyone else into a folder that is
//! not theirs, the restore is refused with the command to run instead (issue 27).

use std::{
    fs::{self, File},
    io,
    os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt},
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};

use crate::unix_users;

/// A restore's leftovers are known by this suffix.
const SUFFIX: &str = ".restoring";

/// The user and group the restored files belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub uid: u32,
    pub gid: u32,
}

pub struct Staging {
    data_dir: PathBuf,
    /// The folder being written.
    root: PathBuf,
    /// `root` becomes DATA_DIR by one rename (DATA_DIR did not exist).
    whole: bool,
    /// A database outside DATA_DIR: (staged, final).
    outside: Option<(PathBuf, PathBuf)>,
    /// Whom to give the files to (None: this process's user already owns the target).
    give_to: Option<Owner>,
    owner: Owner,
}

impl Staging {
    /// Checks the target and starts an empty staging folder. DATA_DIR must be new or empty
    /// (a restore never mixes with data that is there), the SQLite database (when there is
    /// one) must not exist, and this process must be able to give what it writes to the
    /// target's owner.
    pub fn begin(
        data_dir: &Path,
        database: Option<&Path>,
        archive: &Path,
    ) -> anyhow::Result<Staging> {
        let whole = !data_dir.exists();
        let root = if whole {
            sibling(data_dir)
        } else {
            data_dir.join(SUFFIX)
        };
        // An interrupted restore's leftovers are ours by name.
        remove_tree(&root)?;
        if let Some(database) = database {
            remove_tree(&sibling(database))?;
        }
        if !whole {
            refuse_non_empty(data_dir)?;
        }
        if let Some(database) = database
            && database.exists()
        {
            bail!(
                "{} already exists: restore only into a new database (nothing was written)",
                database.display()
            );
        }
        let (owner, owned_by) = target_owner(data_dir)?;
        let me = unix_users::current();
        let give_to = if owner.uid == me {
            None
        } else if me == 0 {
            Some(owner)
        } else {
            bail!(
                "{} belongs to {}, but this restore runs as {}: the server, running as its \
                 owner, could not read what it wrote. Run the restore as that user, for \
                 example:\n\n    sudo -u {} env DATA_DIR={} {} restore {}\n\n(nothing was \
                 written)",
                owned_by.display(),
                unix_users::describe(owner.uid),
                unix_users::describe(me),
                unix_users::name_of(owner.uid).unwrap_or_else(|| format!("'#{}'", owner.uid)),
                data_dir.display(),
                std::env::current_exe()
                    .ok()
                    .and_then(|exe| exe.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_else(|| "delivery-tracker".into()),
                archive.display(),
            );
        };
        let outside = database
            .filter(|db| !db.starts_with(data_dir))
            .map(|db| (sibling(db), db.to_owned()));
        let staging = Staging {
            data_dir: data_dir.to_owned(),
            root,
            whole,
            outside,
            give_to,
            owner,
        };
        staging.create_dir(&staging.root.clone())?;
        Ok(staging)
    }

    /// Whom the restored files belong to.
    pub fn owner(&self) -> Owner {
        self.owner
    }

    /// Where the file that ends up at `place` (under DATA_DIR, or the database) is written.
    pub fn path_for(&self, place: &Path) -> PathBuf {
        if let Some((staged, database)) = &self.outside
            && place == database
        {
            return staged.clone();
        }
        let relative = place.strip_prefix(&self.data_dir).unwrap_or(place);
        self.root.join(relative)
    }

    /// A new file at `staged` (a `path_for` path), readable by its owner only, with its
    /// folders.
    pub fn create_file(&self, staged: &Path) -> anyhow::Result<File> {
        if let Some(parent) = staged.parent() {
            self.create_dirs(parent)?;
        }
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(staged)
            .with_context(|| format!("creating {}", staged.display()))?;
        self.give(staged)?;
        Ok(file)
    }

    /// Every folder down to `dir` that is missing, each 0700 and given to the owner.
    fn create_dirs(&self, dir: &Path) -> anyhow::Result<()> {
        if dir.exists() {
            return Ok(());
        }
        if let Some(parent) = dir.parent() {
            self.create_dirs(parent)?;
        }
        self.create_dir(dir)
    }

    fn create_dir(&self, dir: &Path) -> anyhow::Result<()> {
        fs::DirBuilder::new()
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
        self.give(dir)
    }

    fn give(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(owner) = self.give_to {
            std::os::unix::fs::chown(path, Some(owner.uid), Some(owner.gid)).with_context(
                || {
                    format!(
                        "giving {} to {}",
                        path.display(),
                        unix_users::describe(owner.uid)
                    )
                },
            )?;
        }
        Ok(())
    }

    /// Makes whatever else appeared in the staging folder (files SQLite made while the
    /// restore edited the database) as private and as owned as the rest.
    pub fn settle(&self) -> anyhow::Result<()> {
        let mut pending = vec![self.root.clone()];
        if let Some((staged, _)) = &self.outside {
            pending.push(staged.clone());
        }
        while let Some(path) = pending.pop() {
            let meta = fs::symlink_metadata(&path)?;
            let mode = if meta.is_dir() { 0o700 } else { 0o600 };
            if meta.mode() & 0o7777 != mode {
                fs::set_permissions(&path, fs::Permissions::from_mode(mode))?;
            }
            self.give(&path)?;
            if meta.is_dir() {
                for entry in fs::read_dir(&path)? {
                    pending.push(entry?.path());
                }
            }
        }
        Ok(())
    }

    /// Moves everything into place. Each step is a rename on one file system; if one fails,
    /// what was moved is taken back out, so DATA_DIR is left as it was found.
    pub fn place(self) -> anyhow::Result<()> {
        let mut placed = Vec::new();
        let outcome = self.place_each(&mut placed);
        if outcome.is_err() {
            for path in placed.iter().rev() {
                let _ = remove_tree(path);
            }
            self.discard();
        }
        outcome
    }

    fn place_each(&self, placed: &mut Vec<PathBuf>) -> anyhow::Result<()> {
        if self.whole {
            rename(&self.root, &self.data_dir)?;
            placed.push(self.data_dir.clone());
        } else {
            for entry in fs::read_dir(&self.root)? {
                let entry = entry?;
                let destination = self.data_dir.join(entry.file_name());
                rename(&entry.path(), &destination)?;
                placed.push(destination);
            }
            fs::remove_dir(&self.root)
                .with_context(|| format!("removing {}", self.root.display()))?;
        }
        if let Some((staged, database)) = &self.outside {
            rename(staged, database)?;
            placed.push(database.clone());
        }
        Ok(())
    }

    /// Removes everything written: nothing of this restore stays.
    pub fn discard(self) {
        let _ = remove_tree(&self.root);
        if let Some((staged, _)) = &self.outside {
            let _ = remove_tree(staged);
        }
    }
}

fn rename(from: &Path, to: &Path) -> anyhow::Result<()> {
    fs::rename(from, to).with_context(|| format!("moving {} to {}", from.display(), to.display()))
}

/// `path` with the staging suffix, hidden, in the same folder (so the final rename stays on
/// one file system).
fn sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}{SUFFIX}"))
}

/// The owner of DATA_DIR, or of the nearest folder above it that exists (where it will be
/// made), and which folder that is.
fn target_owner(data_dir: &Path) -> anyhow::Result<(Owner, PathBuf)> {
    let absolute =
        std::path::absolute(data_dir).with_context(|| format!("finding {}", data_dir.display()))?;
    let mut candidate = Some(absolute.as_path());
    while let Some(path) = candidate {
        if let Ok(meta) = fs::metadata(path) {
            let owner = Owner {
                uid: meta.uid(),
                gid: meta.gid(),
            };
            return Ok((owner, path.to_owned()));
        }
        candidate = path.parent();
    }
    bail!("no folder above {} exists", data_dir.display())
}

/// A data directory that exists and holds anything is refused: a restore never mixes with,
/// or overwrites, data that is there.
fn refuse_non_empty(data_dir: &Path) -> anyhow::Result<()> {
    let mut entries =
        fs::read_dir(data_dir).with_context(|| format!("reading {}", data_dir.display()))?;
    if entries.next().is_some() {
        bail!(
            "{} is not empty: restore only into a new or empty data directory (nothing was \
             written)",
            data_dir.display()
        );
    }
    Ok(())
}

fn remove_tree(path: &Path) -> anyhow::Result<()> {
    let outcome = match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err),
    };
    outcome.with_context(|| format!("removing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_data_dir_is_written_beside_and_renamed_into_place_whole() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let staging = Staging::begin(&data, Some(&data.join("db")), Path::new("a.tgz")).unwrap();
        let staged = staging.path_for(&data.join("files/users/u/p"));
        assert!(staged.starts_with(dir.path().join(".data.restoring")));
        drop(staging.create_file(&staged).unwrap());
        assert!(!data.exists(), "nothing in place before the end");
        let mode = |p: &Path| fs::metadata(p).unwrap().mode() & 0o7777;
        assert_eq!(mode(&staged), 0o600);
        assert_eq!(mode(staged.parent().unwrap()), 0o700);
        staging.place().unwrap();
        assert!(data.join("files/users/u/p").exists());
        assert!(!dir.path().join(".data.restoring").exists());
    }

    #[test]
    fn an_empty_data_dir_is_filled_from_inside_and_leftovers_are_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        fs::create_dir(&data).unwrap();
        // A killed restore's leftovers do not make the folder "not empty".
        fs::create_dir_all(data.join(".restoring/files")).unwrap();
        let outside = dir.path().join("elsewhere.db");
        let staging = Staging::begin(&data, Some(&outside), Path::new("a.tgz")).unwrap();
        assert_eq!(
            staging.path_for(&outside),
            dir.path().join(".elsewhere.db.restoring")
        );
        for place in [data.join("files/x"), outside.clone()] {
            drop(staging.create_file(&staging.path_for(&place)).unwrap());
        }
        staging.place().unwrap();
        let mut names: Vec<_> = fs::read_dir(&data)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["files"]);
        assert!(outside.exists());
    }

    #[test]
    fn a_discarded_restore_leaves_nothing_and_a_full_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let staging = Staging::begin(&data, None, Path::new("a.tgz")).unwrap();
        drop(
            staging
                .create_file(&staging.path_for(&data.join("files/x")))
                .unwrap(),
        );
        staging.discard();
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);

        fs::create_dir(&data).unwrap();
        fs::write(data.join("keep"), b"mine").unwrap();
        let refused = Staging::begin(&data, None, Path::new("a.tgz"))
            .err()
            .unwrap();
        assert!(refused.to_string().contains("not empty"), "{refused}");
        assert_eq!(fs::read(data.join("keep")).unwrap(), b"mine");
    }
}
