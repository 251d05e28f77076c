//! `qasab study`, run as a user would: resumable runs, the files it writes, and bad input.

use std::path::{Path, PathBuf};

mod common;

use common::{Out, qasab};

fn ok(args: &[&str]) -> Out {
    let o = qasab(args);
    assert_eq!(o.code, 0, "qasab {args:?} failed: {}", o.stderr);
    o
}

/// A fresh directory under the target directory, named for the test.
fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("study-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The report without the command line, which names the directory.
fn results(d: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(d.join("results.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v.as_object_mut().unwrap().remove("command");
    v
}

const STUDY: [&str; 10] = [
    "study",
    "tab(columns=7)",
    "--vary",
    "reduction=off,row-entered",
    "--vary",
    "end=elimination,most-captures",
    "--skill",
    "greedy,random",
    "--games",
    "20",
];

#[test]
fn a_study_stopped_and_run_again_gives_the_result_of_an_uninterrupted_one() {
    let whole = dir("whole");
    let w = whole.to_str().unwrap();
    ok(&[&STUDY[..], &["--seed", "5", "--threads", "2", "--out", w]].concat());
    let parts = dir("parts");
    let p = parts.to_str().unwrap();
    // 4 variants × 2 matches × 2 chunks (8 pairs and 2 pairs): 16 chunks, 5 at a time.
    let mut runs = 0;
    while !parts.join("results.json").exists() {
        let o = ok(&[
            &STUDY[..],
            &["--seed", "5", "--threads", "1", "--chunks", "5", "--out", p],
        ]
        .concat());
        runs += 1;
        if !parts.join("results.json").exists() {
            assert!(
                o.stderr.contains("run the same command again to continue"),
                "{}",
                o.stderr
            );
        }
        assert!(runs <= 4, "the study does not progress");
    }
    assert_eq!(runs, 4);
    assert_eq!(results(&whole), results(&parts));
    // Nothing is played again: a further run finds every chunk stored.
    let again = ok(&[&STUDY[..], &["--seed", "5", "--chunks", "0", "--out", p]].concat());
    assert!(
        again.stdout.contains("4 variants of tab"),
        "{}",
        again.stdout
    );
    assert_eq!(results(&whole), results(&parts));
    // Another skill check reuses the main games and plays only its own.
    let skill = ok(&[
        &STUDY[..6],
        &[
            "--skill",
            "random,greedy",
            "--games",
            "20",
            "--seed",
            "5",
            "--chunks",
            "0",
            "--out",
            p,
        ],
    ]
    .concat());
    assert!(
        skill.stderr.contains("8 of 16 chunks played"),
        "{}",
        skill.stderr
    );
    // Games of another seed cannot be mixed into the same store.
    let o = qasab(&[&STUDY[..], &["--seed", "6", "--out", p]].concat());
    assert_ne!(o.code, 0);
    assert!(
        o.stderr
            .contains("holds a study with another seed or program version"),
        "{}",
        o.stderr
    );
}

#[test]
fn the_files_hold_every_variant_and_metric() {
    let d = dir("files");
    let s = d.to_str().unwrap();
    let o = ok(&[&STUDY[..], &["--seed", "1", "--out", s, "--json"]].concat());
    let printed: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let v = &printed["variants"];
    assert_eq!(v.as_array().unwrap().len(), 4);
    assert_eq!(
        v[3]["ruleset"],
        "tab(columns=7,reduction=row-entered,end=most-captures)"
    );
    for m in [
        "Balance",
        "AdvantageP1",
        "Completion",
        "Drawishness",
        "Timeouts",
        "DurationTurns",
        "DurationActions",
        "DecisionMoves",
        "BranchingFactor",
        "LeadChange",
        "Stability",
        "Drama",
        "Decisiveness",
        "Captures",
        "Conversions",
        "Reductions",
        "ThrowsPerTurn",
        "SkillGap",
    ] {
        let ci = &v[0]["metrics"][m]["ci95"];
        assert!(
            ci[0].as_f64().unwrap() <= v[0]["metrics"][m]["value"].as_f64().unwrap(),
            "{m}"
        );
    }
    assert!(
        printed["command"]
            .as_str()
            .unwrap()
            .starts_with("qasab study 'tab(columns=7)' --vary reduction=off,row-entered")
    );

    let csv = std::fs::read_to_string(d.join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with("ruleset,label,reduction,end,games,wins_first,wins_second,draws,timeouts,Balance,Balance_lo,Balance_hi,"));
    assert!(lines[4].starts_with("\"tab(columns=7,reduction=row-entered,end=most-captures)\",\"reduction=row-entered, end=most-captures\",row-entered,most-captures,20,"));

    let labels = [
        "reduction=off, end=elimination",
        "reduction=row-entered, end=most-captures",
    ];
    for (file, texts) in [
        (
            "win-rates.svg",
            &["white", "black", labels[0], labels[1]][..],
        ),
        ("lengths.svg", &labels[..]),
        ("skill.svg", &labels[..]),
        (
            "heat-advantage.svg",
            &["elimination", "most-captures", "off", "row-entered"][..],
        ),
        ("heat-length.svg", &["reduction", "end"][..]),
        ("heat-skill.svg", &["reduction", "end"][..]),
    ] {
        let svg = std::fs::read_to_string(d.join(file)).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{file}: {e}"));
        let all: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        for t in texts {
            assert!(all.iter().any(|x| x.contains(t)), "{file} lacks {t}");
        }
    }
    let html = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 6);
    assert!(
        html.contains("qasab study &#39;tab(columns=7)&#39;")
            || html.contains("qasab study &#x27;tab(columns=7)&#x27;")
            || html.contains("qasab study 'tab(columns=7)'")
    );
}

#[test]
fn tihbat_studies_give_the_exact_values_and_their_chart() {
    let d = dir("tihbat");
    let s = d.to_str().unwrap();
    let o = ok(&[
        "study",
        "tihbat",
        "--vary",
        "seeds=1..8",
        "--vary",
        "origin=sow,skip",
        "--games",
        "0",
        "--out",
        s,
    ]);
    assert!(o.stdout.contains("exact value"), "{}", o.stdout);
    let r = results(&d);
    // docs/solver.md: 7 counters a pit, the defaults: -2; origin=skip: 0.
    assert_eq!(r["variants"][12]["solver"]["value"], -2);
    assert_eq!(r["variants"][13]["solver"]["value"], 0);
    let svg = std::fs::read_to_string(d.join("solver.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts.iter().any(|t| t.contains("origin=sow"))
            && texts.iter().any(|t| t.contains("origin=skip"))
    );
    assert!(d.join("heat-solver.svg").exists());

    // --redraw draws the charts and the report again from results.json, as they were, and
    // leaves the results alone.
    let read = |name: &str| std::fs::read(d.join(name)).unwrap();
    let before: Vec<(&str, Vec<u8>)> = [
        "solver.svg",
        "heat-solver.svg",
        "report.html",
        "results.json",
        "results.csv",
    ]
    .into_iter()
    .map(|f| (f, read(f)))
    .collect();
    for f in ["solver.svg", "heat-solver.svg", "report.html"] {
        std::fs::remove_file(d.join(f)).unwrap();
    }
    let o = ok(&["study", "--redraw", s]);
    assert!(o.stdout.contains("wrote 3 files"), "{}", o.stdout);
    for (f, bytes) in before {
        assert!(read(f) == bytes, "{f} differs after --redraw");
    }
    let o = qasab(&["study", "--redraw", d.join("nothing").to_str().unwrap()]);
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("results.json"), "{}", o.stderr);
}

#[test]
fn bad_study_input_gets_one_line_naming_the_problem() {
    for (args, needle) in [
        (
            &["study", "tab", "--vary", "colour=red"][..],
            "has no option 'colour'",
        ),
        (
            &["study", "tab", "--vary", "columns=31"][..],
            "--vary columns=31: tab option columns=31 is not valid",
        ),
        (
            &[
                "study",
                "tab",
                "--vary",
                "columns=7,9",
                "--vary",
                "pieces=8",
            ][..],
            "--vary columns=7, pieces=8: tab: pieces=8 is more than the 7 squares",
        ),
        (
            &["study", "tab", "--vary", "reduction"][..],
            "expected KEY=V1,V2",
        ),
        (&["study", "tab", "--games", "3"][..], "even number"),
        (
            &["study", "tab", "--games", "0"][..],
            "exist for tihbat only",
        ),
        (
            &["study", "tab", "--players", "greedy"][..],
            "--players needs two players",
        ),
        (
            &["study", "tab", "--threads", "5000"][..],
            "--threads must be from 0",
        ),
        (
            &["study", "tab", "--skill", "greedy,wizard"][..],
            "weak player wizard",
        ),
    ] {
        let o = qasab(args);
        assert_eq!(o.code, 1, "{args:?}");
        let first = o.stderr.lines().next().unwrap_or_default();
        assert!(first.contains(needle), "{args:?}: {}", o.stderr);
        assert_eq!(
            o.stderr.trim_end().lines().count(),
            1,
            "{args:?}: {}",
            o.stderr
        );
    }
}
