//! Writing outputs safely: never over the input, never over an existing file unless told to
//! (`force`), and atomically (temporary file in the same folder, then rename), so a failed
//! run leaves no partial output behind.

use crate::error::{in_file, input, Result};
use crate::settings::Setting;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The absolute form of a path that may not exist yet (its folder must).
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    Some(parent_of(path).canonicalize().ok()?.join(path.file_name()?))
}

/// The folder a path lives in (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Refuses an output that is one of the inputs, another output, or an existing file without
/// `force`.
pub(crate) fn check_destinations(outputs: &[&Path], inputs: &[&Path], force: bool) -> Result<()> {
    let inputs: Vec<PathBuf> = inputs.iter().filter_map(|p| resolved(p)).collect();
    let mut seen: Vec<PathBuf> = Vec::new();
    for out in outputs {
        let parent = parent_of(out);
        if !parent.is_dir() {
            return Err(in_file(
                out,
                format!("output folder {} does not exist", parent.display()),
            ));
        }
        let r = resolved(out).ok_or_else(|| in_file(out, "not a valid output path"))?;
        if inputs.contains(&r) {
            return Err(in_file(
                out,
                "output path is the input file; optik never overwrites its input",
            ));
        }
        if seen.contains(&r) {
            return Err(in_file(out, "the same path is given for two outputs"));
        }
        if r.is_dir() {
            return Err(in_file(out, "output path is a folder"));
        }
        if r.exists() && !force {
            return Err(in_file(
                out,
                format!("output exists (use {} to replace it)", Setting::Force),
            ));
        }
        seen.push(r);
    }
    Ok(())
}

/// An output written to a temporary file next to its destination; `commit` renames it into
/// place, dropping it removes the temporary file.
pub(crate) struct Staged {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl Staged {
    /// Writes `bytes` to a temporary sibling of `dest`.
    pub(crate) fn write(dest: &Path, bytes: &[u8]) -> Result<Staged> {
        let name = dest
            .file_name()
            .ok_or_else(|| input(format!("{}: not a file path", dest.display())))?;
        let tmp = dest.with_file_name(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        let staged = Staged {
            tmp,
            dest: dest.to_path_buf(),
            committed: false,
        };
        let mut f = std::fs::File::create(&staged.tmp)
            .map_err(|e| in_file(dest, format!("cannot write: {e}")))?;
        f.write_all(bytes)
            .and_then(|_| f.sync_all())
            .map_err(|e| in_file(dest, format!("cannot write: {e}")))?;
        Ok(staged)
    }

    /// Path of the temporary file.
    #[cfg(test)]
    pub(crate) fn path(&self) -> &Path {
        &self.tmp
    }

    /// Moves the file into place.
    pub(crate) fn commit(mut self) -> Result<()> {
        std::fs::rename(&self.tmp, &self.dest)
            .map_err(|e| in_file(&self.dest, format!("cannot write: {e}")))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// An output folder built in a temporary sibling and moved into place by `commit`, so that a
/// reader sees either the previous folder or the complete new one; dropping it without a
/// commit removes the temporary folder.
pub(crate) struct StagedDir {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl StagedDir {
    /// Checks that `dest` can become the output folder: its parent exists, and `dest` is
    /// absent, an empty folder, or (with `force`) a folder holding `marker` (a previous output
    /// of the same command, never an arbitrary folder). It must not contain any of `inputs`
    /// or the current folder.
    pub(crate) fn check(dest: &Path, marker: &str, inputs: &[&Path], force: bool) -> Result<()> {
        let parent = parent_of(dest);
        if !parent.is_dir() {
            return Err(in_file(
                dest,
                format!("output folder's parent {} does not exist", parent.display()),
            ));
        }
        let Some(resolved) = resolved(dest) else {
            return Err(in_file(dest, "not a valid output folder"));
        };
        if dest.exists() && !dest.is_dir() {
            return Err(in_file(dest, "output exists and is not a folder"));
        }
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|c| c.canonicalize().ok());
        for p in inputs.iter().filter_map(|p| resolved_file(p)).chain(cwd) {
            if p.starts_with(&resolved) {
                return Err(in_file(
                    dest,
                    format!(
                        "output folder contains {}; choose another folder",
                        p.display()
                    ),
                ));
            }
        }
        if dest.is_dir() {
            let empty = std::fs::read_dir(dest)
                .map_err(|e| in_file(dest, format!("cannot read: {e}")))?
                .next()
                .is_none();
            if !empty && !force {
                return Err(in_file(
                    dest,
                    format!(
                        "output folder exists and is not empty (use {} to replace it)",
                        Setting::Force
                    ),
                ));
            }
            if !empty && !dest.join(marker).is_file() {
                return Err(in_file(
                    dest,
                    format!(
                        "{} replaces only a previous output folder (one holding {marker}); this one has none",
                        Setting::Force
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Creates the temporary sibling folder of `dest`.
    pub(crate) fn create(dest: &Path) -> Result<StagedDir> {
        let name = dest
            .file_name()
            .ok_or_else(|| in_file(dest, "not a folder path"))?
            .to_string_lossy()
            .to_string();
        let tmp = dest.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp)
                .map_err(|e| in_file(&tmp, format!("cannot remove a stale folder: {e}")))?;
        }
        std::fs::create_dir(&tmp).map_err(|e| in_file(dest, format!("cannot create: {e}")))?;
        Ok(StagedDir {
            tmp,
            dest: dest.to_path_buf(),
            committed: false,
        })
    }

    /// The temporary folder being written.
    #[cfg(test)]
    pub(crate) fn path(&self) -> &Path {
        &self.tmp
    }

    /// Writes one file into the temporary folder.
    pub(crate) fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let path = self.tmp.join(name);
        let mut f = std::fs::File::create(&path)
            .map_err(|e| in_file(&self.dest.join(name), format!("cannot write: {e}")))?;
        f.write_all(bytes)
            .and_then(|_| f.sync_all())
            .map_err(|e| in_file(&self.dest.join(name), format!("cannot write: {e}")))
    }

    /// Moves the folder into place, replacing a previous one (moved aside first, then removed).
    pub(crate) fn commit(mut self) -> Result<()> {
        let fail = |e: std::io::Error| in_file(&self.dest, format!("cannot write: {e}"));
        let old = self.dest.with_file_name(format!(
            ".{}.{}.old",
            self.dest.file_name().unwrap_or_default().to_string_lossy(),
            std::process::id()
        ));
        let replaced = self.dest.is_dir();
        if replaced {
            std::fs::rename(&self.dest, &old).map_err(fail)?;
        }
        if let Err(e) = std::fs::rename(&self.tmp, &self.dest) {
            if replaced {
                let _ = std::fs::rename(&old, &self.dest);
            }
            return Err(fail(e));
        }
        self.committed = true;
        if replaced {
            std::fs::remove_dir_all(&old).map_err(fail)?;
        }
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

/// The absolute form of an existing path.
fn resolved_file(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_input_existing_and_duplicate_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.csv");
        std::fs::write(&input, "a\n1\n").unwrap();
        let out = dir.path().join("out.csv");
        assert!(check_destinations(&[&input], &[&input], true).is_err());
        assert!(check_destinations(&[&out], &[&input], false).is_ok());
        assert!(check_destinations(&[&out, &out], &[&input], false).is_err());
        std::fs::write(&out, "x").unwrap();
        assert!(check_destinations(&[&out], &[&input], false).is_err());
        assert!(check_destinations(&[&out], &[&input], true).is_ok());
        assert!(
            check_destinations(&[&dir.path().join("no/such/out.csv")], &[&input], true).is_err()
        );
    }

    #[test]
    fn staged_files_vanish_unless_committed() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("o.csv");
        let s = Staged::write(&dest, b"abc").unwrap();
        let tmp = s.path().to_path_buf();
        assert!(tmp.exists());
        drop(s);
        assert!(!tmp.exists() && !dest.exists());
        Staged::write(&dest, b"abc").unwrap().commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"abc");
    }

    #[test]
    fn staged_folders_replace_only_previous_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("spec.toml");
        std::fs::write(&spec, "x").unwrap();
        let out = dir.path().join("out");
        assert!(StagedDir::check(&out, "results.csv", &[&spec], false).is_ok());
        assert!(StagedDir::check(dir.path(), "results.csv", &[&spec], true).is_err());
        let staged = StagedDir::create(&out).unwrap();
        staged.write("results.csv", b"a").unwrap();
        let tmp = staged.path().to_path_buf();
        drop(staged);
        assert!(!tmp.exists() && !out.exists());
        let staged = StagedDir::create(&out).unwrap();
        staged.write("results.csv", b"a").unwrap();
        staged.commit().unwrap();
        assert!(StagedDir::check(&out, "results.csv", &[&spec], false).is_err());
        assert!(StagedDir::check(&out, "results.csv", &[&spec], true).is_ok());
        let staged = StagedDir::create(&out).unwrap();
        staged.write("results.csv", b"b").unwrap();
        staged.commit().unwrap();
        assert_eq!(std::fs::read(out.join("results.csv")).unwrap(), b"b");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "only spec.toml and out remain");
        let other = dir.path().join("other");
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join("notes.txt"), "keep").unwrap();
        assert!(StagedDir::check(&other, "results.csv", &[&spec], true).is_err());
    }
}
