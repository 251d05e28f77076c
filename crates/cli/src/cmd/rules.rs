//! `qasab rules`.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;
use qasab_core::AnyRuleset;

use super::parse_ruleset;

pub fn run(ruleset: Option<&str>) -> Result<ExitCode> {
    let mut out = String::new();
    match ruleset {
        Some(s) => {
            let r = parse_ruleset(s)?;
            out.push_str(&r.rules_text());
            let _ = writeln!(out, "\nOptions in force:");
            options_table(&r, &mut out, true);
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
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn options_table(r: &AnyRuleset, out: &mut String, in_force: bool) {
    for o in r.options() {
        let default = r.default_value(o.key).unwrap_or_default();
        if in_force {
            let value = r.option_value(o.key).unwrap_or_default();
            let mark = if value == default { "" } else { "   (changed)" };
            let _ = writeln!(out, "  {:<11} = {value}{mark}", o.key);
        } else {
            let _ = writeln!(
                out,
                "  {:<11} {:<26} default {:<9} [{}]",
                o.key, o.values, default, o.rules
            );
            let _ = writeln!(out, "  {:<11} {}", "", o.help);
        }
    }
}
