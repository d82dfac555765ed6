//! Writing outputs safely: never over the input, never over an existing file without
//! `--force`, and atomically (temporary file in the same folder, then rename), so a failed
//! run leaves no partial output behind.

use crate::error::{in_file, input, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The absolute form of a path that may not exist yet (its folder must).
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(path.file_name()?))
}

/// Refuses an output that is one of the inputs, another output, or an existing file without
/// `force`.
pub fn check_destinations(outputs: &[&Path], inputs: &[&Path], force: bool) -> Result<()> {
    let inputs: Vec<PathBuf> = inputs.iter().filter_map(|p| resolved(p)).collect();
    let mut seen: Vec<PathBuf> = Vec::new();
    for out in outputs {
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
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
            return Err(in_file(out, "output exists (use --force to replace it)"));
        }
        seen.push(r);
    }
    Ok(())
}

/// An output written to a temporary file next to its destination; `commit` renames it into
/// place, dropping it removes the temporary file.
pub struct Staged {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl Staged {
    /// Writes `bytes` to a temporary sibling of `dest`.
    pub fn write(dest: &Path, bytes: &[u8]) -> Result<Staged> {
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

    /// Path of the temporary file (to verify it before committing).
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Moves the file into place.
    pub fn commit(mut self) -> Result<()> {
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
}
