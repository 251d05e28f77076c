//! What the tests of the `qasab` binary share: running it with arguments.

use std::process::Command;

/// What a run of `qasab` printed, and its exit status.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the `qasab` binary of this build with `args` and no input.
pub fn qasab(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_qasab"))
        .args(args)
        .output()
        .expect("run qasab");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}
