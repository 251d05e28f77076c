//! `qasab rules`.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Result;
use qasab_ai::players::{AnyPlayer, STRONGEST};
use qasab_core::AnyRuleset;

use super::parse_ruleset;

/// The width of the text when standard output is not a terminal.
const DEFAULT_WIDTH: usize = 80;

/// The narrowest width text is wrapped to, however narrow the terminal.
const MIN_WIDTH: usize = 40;

pub fn run(ruleset: Option<&str>) -> Result<ExitCode> {
    let mut out = String::new();
    match ruleset {
        Some(s) => {
            let r = parse_ruleset(s)?;
            out.push_str(&r.rules_text());
            let _ = writeln!(out, "\nOptions in force:");
            options_table(&r, &mut out, true);
            let _ = writeln!(out, "\n{}", default_player(&r));
        }
        None => {
            let _ = writeln!(
                out,
                "Rulesets (write name(key=value,...); only non-default options are needed):"
            );
            for r in AnyRuleset::presets() {
                let _ = writeln!(out, "\n{}  —  {}", r.name(), r.title());
                options_table(&r, &mut out, false);
            }
            let _ = writeln!(
                out,
                "\n`qasab rules NAME(...)` prints the rules in full with the options in force."
            );
        }
    }
    out!("{}", wrap(&out, width()));
    Ok(ExitCode::SUCCESS)
}

/// What the player spec `strongest` stands for on `rules`: the game's default players,
/// strongest first.
fn default_player(rules: &AnyRuleset) -> String {
    let players = AnyPlayer::strongest_first(rules);
    let mut line = format!(
        "Default player (the player `{STRONGEST}`, the default opponent and hint): {}",
        players[0]
    );
    for fallback in &players[1..] {
        let _ = write!(line, "; where it cannot play, {fallback}");
    }
    line
}

/// The terminal's width, or [`DEFAULT_WIDTH`] when standard output is not a terminal.
fn width() -> usize {
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        return DEFAULT_WIDTH;
    }
    terminal_size::terminal_size_of(&stdout)
        .map_or(DEFAULT_WIDTH, |(w, _)| usize::from(w.0))
        .max(MIN_WIDTH)
}

/// Wraps every line of `text` to `width` columns, continuing each under the start of its text:
/// a rule's under its words (past its id), a source's inside its bracket, an option's under
/// its description.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let indent = " ".repeat(hanging_indent(line, width));
        let options = textwrap::Options::new(width)
            .subsequent_indent(&indent)
            .break_words(false)
            // Rule ids such as L-9c and values such as own-side stay whole.
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        for piece in textwrap::wrap(line, options) {
            let _ = writeln!(out, "{}", piece.trim_end());
        }
    }
    out
}

/// Where the continuation lines of `line` start: inside a leading bracket, past the first
/// word when two or more spaces follow it (a rule's id, an option's name), or under the first
/// character; never past half the width.
fn hanging_indent(line: &str, width: usize) -> usize {
    let text = line.trim_start();
    let lead = line.len() - text.len();
    if text.starts_with('[') {
        return lead + 1;
    }
    let word = text.find(' ').unwrap_or(text.len());
    let after = &text[word..];
    let gap = after.len() - after.trim_start().len();
    let column = (line.len() - after.len() + gap).min(line.len());
    if gap >= 2 && !after.trim_start().is_empty() && column <= width / 2 {
        line[..column].chars().count()
    } else {
        line[..lead].chars().count()
    }
}

fn options_table(r: &AnyRuleset, out: &mut String, in_force: bool) {
    // Eleven columns at least, as the short keys of Tihbat have always been printed; wider
    // when a key is longer, so that the values stay in one column.
    let key_width = r
        .options()
        .iter()
        .map(|o| o.key.len())
        .max()
        .unwrap_or(0)
        .max(11);
    for o in r.options() {
        let default = r.default_value(o.key).unwrap_or_default();
        if in_force {
            let value = r.option_value(o.key).unwrap_or_default();
            let mark = if value == default { "" } else { "   (changed)" };
            let _ = writeln!(out, "  {:<key_width$} = {value}{mark}", o.key);
        } else {
            let _ = writeln!(
                out,
                "  {:<key_width$} {}; default {default} [{}]",
                o.key, o.values, o.rules
            );
            let _ = writeln!(out, "  {:<key_width$} {}", "", o.help);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_wrap_under_their_text() {
        let line = format!("L-1   {}", "word ".repeat(30));
        let wrapped = wrap(&line, 40);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.len() > 1, "{wrapped}");
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{wrapped}");
        assert!(lines[1].starts_with("      word"), "{wrapped}");
        let source = format!("      [{}]", "source ".repeat(12));
        let wrapped = wrap(&source, 40);
        assert!(
            wrapped.lines().nth(1).unwrap().starts_with("       source"),
            "{wrapped}"
        );
        assert_eq!(wrap("short\n\nlines\n", 40), "short\n\nlines\n");
    }
}
