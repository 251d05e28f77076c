// Shared by the server (`src/studies.rs`) and its build script (`build.rs`, by `include!`), so
// that the build embeds exactly the names the server looks up.

/// A name that may be looked up: letters, digits, `.`, `_` and `-`, starting with a letter or
/// a digit (so never `.` or `..`, and never a path), at most 100 bytes. The build script
/// embeds only such names.
pub(crate) fn safe(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}
