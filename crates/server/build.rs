//! Compiles the published variant studies (`docs/variants/`) into the server.
//!
//! A build script rather than a macro such as `include_dir!`: Cargo reruns it whenever anything
//! under the directory changes (`rerun-if-changed` on a directory watches every file in it), so
//! a study added or replaced is always in the next build, which a macro on stable Rust cannot
//! promise for files that did not exist when it last ran. It also takes the directory as it
//! is: missing, empty or holding only `index.json` with `[]`, the build succeeds (a missing
//! index serves as an empty list).
//!
//! Only the files the server serves are embedded: `index.json`, and in the directory of each
//! study the index lists `results.json`, `report.html` and the `.svg` charts, each with a name
//! the server would accept in a path ([`safe`], the same test as `src/studies.rs` makes). A
//! study kept in `docs/variants/` but not listed (one too large for the page) is left out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

// `safe`: a name the server serves, the same test as `src/studies.rs` makes.
include!("src/safe_name.rs");

/// Whether a study's file is served: its results, its report or a chart.
fn served(name: &str) -> bool {
    name == "results.json" || name == "report.html" || name.ends_with(".svg")
}

/// The entries of a directory whose names are safe, sorted by name (so the build is the same
/// whatever order the file system lists them in).
fn entries(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = read
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
        .filter(|(name, _)| safe(name))
        .collect();
    found.sort();
    found
}

/// The ids of the studies `index.json` lists (none if it is missing or unreadable; the
/// server reports a bad index when it reads it).
fn listed_studies(index: &Path) -> Vec<String> {
    fs::read_to_string(index)
        .ok()
        .and_then(|text| serde_json::from_str::<Vec<serde_json::Value>>(&text).ok())
        .map(|studies| {
            studies
                .iter()
                .filter_map(|s| s.get("id")?.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let root = manifest.join("../../docs/variants");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", root.display());

    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let index = root.join("index.json");
    if index.is_file() {
        files.push(("index.json".into(), index.clone()));
    }
    let listed = listed_studies(&index);
    for (study, dir) in entries(&root) {
        if !dir.is_dir() || !listed.contains(&study) {
            continue;
        }
        for (name, path) in entries(&dir) {
            if served(&name) && path.is_file() {
                files.push((format!("{study}/{name}"), path));
            }
        }
    }

    let mut out = String::from(
        "/// Every file of `docs/variants/` that the server serves: its path under that \
         directory, and its bytes.\npub(crate) static EMBEDDED: &[(&str, &[u8])] = &[\n",
    );
    for (name, path) in &files {
        let path = path.canonicalize().unwrap_or_else(|_| path.clone());
        writeln!(
            out,
            "    ({name:?}, include_bytes!({:?})),",
            path.to_string_lossy()
        )
        .expect("writing to a string");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(env::var_os("OUT_DIR").expect("set by Cargo")).join("variants.rs");
    fs::write(&dest, out).expect("cannot write the table of embedded studies");
}
