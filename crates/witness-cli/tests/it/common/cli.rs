//! What the command-line tests share: running the `witness` binary,
//! reading its output, temporary files, and a one-face panel.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// A 1x1 panel: start (0,2) bottom-left, end (2,0) top-right, a black dot
/// on the top edge (1,0). One solution: `0,2:U2R2` covers the dot (valid);
/// `0,2:R2U2` misses it (invalid, failure at (1,0)).
pub const ONE_DOT: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
    [{"type":"line","dot":1},null,{"type":"line"}],
    [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;

/// Runs the `witness` binary with `args` (standard input closed).
pub fn witness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_witness"))
        .args(args)
        .output()
        .expect("run witness")
}

/// A run's standard output, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A run's standard error, which must be UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A run's standard output, parsed as one JSON value.
pub fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

/// A temporary folder for one test, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh folder named after `test` (unique among the tests).
    pub fn new(test: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("witness-cli-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The path of `name` in the folder, as a command-line argument.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    /// Writes a file in the folder and returns its path.
    pub fn file(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// [`TempDir::file`], the path as a command-line argument.
    pub fn arg(&self, name: &str, contents: &str) -> String {
        self.file(name, contents).to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
