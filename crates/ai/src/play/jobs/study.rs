//! The study job: the variant study, whose units are the study's chunks of game pairs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use qasab_core::AnyRuleset;
use serde::{Deserialize, Serialize};

use super::chunk::{ChunkResult, JobError, chain, parse_ruleset, refuse, wrong_command};
use crate::play::study::{
    StudySpec, Variant, json_with_command, parse_axis, shell_words, solver_values, vary,
};
use crate::spec::split_specs;

/// A study's arguments, as `qasab study` takes them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StudyRequest {
    /// The base ruleset (or `variants`).
    pub ruleset: Option<String>,
    /// The `--vary KEY=V1,V2,...` axes.
    pub vary: Vec<String>,
    /// A file listing the variants, one ruleset string per line.
    pub variants: Option<PathBuf>,
    /// The two players, `A,B`.
    pub players: String,
    /// The skill check's players, `STRONG,WEAK`.
    pub skill: Option<String>,
    /// Games per variant.
    pub games: u64,
    /// Games per variant in the skill check (default: `games`).
    pub skill_games: Option<u64>,
    /// The study seed.
    pub seed: u64,
}

/// One variant of a study job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyVariant {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The varied options' values, in the order of the axes.
    pub values: Vec<(String, String)>,
}

/// A study, as `qasab study` asks for it: its variants resolved, with the command line that
/// plays it on one machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyJob {
    /// The variants.
    pub variants: Vec<StudyVariant>,
    /// The two players of the main match.
    pub players: [String; 2],
    /// The strong and the weak player of the skill check.
    pub skill: Option<[String; 2]>,
    /// Games per variant.
    pub games: u64,
    /// Games per variant in the skill check.
    pub skill_games: u64,
    /// The study seed.
    pub seed: u64,
    /// The `command` of the study's JSON.
    pub command: String,
}

impl StudyRequest {
    /// The study the arguments describe, checked as `qasab study` checks it.
    ///
    /// # Errors
    /// [`JobError::Arguments`] with the command's message.
    pub fn spec(&self) -> Result<StudySpec, JobError> {
        let variants = match (&self.ruleset, &self.variants) {
            (Some(_), Some(_)) => {
                return Err(refuse("give a ruleset or --variants FILE, not both"));
            }
            (Some(base), None) => {
                let base = parse_ruleset(base)?;
                let axes = self
                    .vary
                    .iter()
                    .map(|a| parse_axis(a))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| refuse(chain(&e)))?;
                vary(&base, &axes).map_err(|e| refuse(chain(&e)))?
            }
            (None, Some(file)) => {
                if !self.vary.is_empty() {
                    return Err(refuse("give --vary or --variants FILE, not both"));
                }
                read_variants(file)?
            }
            (None, None) => return Err(refuse("give a ruleset, or --variants FILE")),
        };
        let pair = |flag: &str, text: &str| -> Result<[String; 2], JobError> {
            let specs = split_specs(text);
            <[String; 2]>::try_from(specs).map_err(|s| {
                refuse(format!(
                    "{flag} needs two players separated by a comma, e.g. mcts,greedy; got {}",
                    s.len()
                ))
            })
        };
        if self.skill.is_none() && self.skill_games.is_some() {
            return Err(refuse("--skill-games needs --skill"));
        }
        Ok(StudySpec {
            variants,
            players: pair("--players", &self.players)?,
            skill: self
                .skill
                .as_deref()
                .map(|s| pair("--skill", s))
                .transpose()?,
            games: self.games,
            skill_games: self.skill_games.unwrap_or(self.games),
            seed: self.seed,
        })
    }

    /// The `qasab study` command line of these arguments, in a fixed order with `--json`,
    /// quoted for a POSIX shell where needed: the `command` of the study's JSON.
    pub fn command_line(&self) -> String {
        let mut words: Vec<String> = vec!["qasab".into(), "study".into()];
        if let Some(r) = &self.ruleset {
            words.push(r.clone());
        }
        for v in &self.vary {
            words.extend(["--vary".into(), v.clone()]);
        }
        if let Some(f) = &self.variants {
            words.extend(["--variants".into(), f.display().to_string()]);
        }
        words.extend(["--players".into(), self.players.clone()]);
        if let Some(s) = &self.skill {
            words.extend(["--skill".into(), s.clone()]);
        }
        words.extend(["--games".into(), self.games.to_string()]);
        if let Some(n) = self.skill_games {
            words.extend(["--skill-games".into(), n.to_string()]);
        }
        words.extend(["--seed".into(), self.seed.to_string(), "--json".into()]);
        shell_words(&words)
    }
}

/// Reads a `--variants` file: one ruleset string per line (blank lines and `#` lines skipped).
///
/// # Errors
/// [`JobError::Arguments`] naming the file and the line.
pub fn read_variants(file: &std::path::Path) -> Result<Vec<Variant>, JobError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| refuse(format!("cannot read {}: {}", file.display(), chain(&e))))?;
    let mut out: Vec<Variant> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let rules: AnyRuleset = line
            .parse()
            .map_err(|e| refuse(format!("{} line {}: {e}", file.display(), n + 1)))?;
        if out.iter().any(|v| v.rules == rules) {
            return Err(refuse(format!(
                "{} line {}: {rules} is listed twice",
                file.display(),
                n + 1
            )));
        }
        out.push(Variant {
            rules,
            values: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err(refuse(format!("{} lists no ruleset", file.display())));
    }
    Ok(out)
}

impl StudyJob {
    /// The study of `request`, checked as `qasab study` checks it.
    ///
    /// # Errors
    /// [`JobError::Arguments`] with the command's message.
    pub fn new(request: &StudyRequest) -> Result<StudyJob, JobError> {
        let spec = request.spec()?;
        spec.check().map_err(|e| refuse(chain(&e)))?;
        Ok(StudyJob {
            variants: spec
                .variants
                .iter()
                .map(|v| StudyVariant {
                    ruleset: v.rules.to_string(),
                    values: v.values.clone(),
                })
                .collect(),
            players: spec.players,
            skill: spec.skill,
            games: spec.games,
            skill_games: spec.skill_games,
            seed: spec.seed,
            command: request.command_line(),
        })
    }

    /// The study as [`StudySpec`].
    ///
    /// # Errors
    /// [`JobError::Arguments`] if a variant's ruleset string is not one (a job made elsewhere).
    pub fn spec(&self) -> Result<StudySpec, JobError> {
        let variants = self
            .variants
            .iter()
            .map(|v| {
                Ok(Variant {
                    rules: parse_ruleset(&v.ruleset)?,
                    values: v.values.clone(),
                })
            })
            .collect::<Result<Vec<_>, JobError>>()?;
        Ok(StudySpec {
            variants,
            players: self.players.clone(),
            skill: self.skill.clone(),
            games: self.games,
            skill_games: self.skill_games,
            seed: self.seed,
        })
    }

    /// The number of units: the study's chunks, 0 if a variant's ruleset string is not one.
    pub(super) fn units(&self) -> u64 {
        self.spec().map_or(0, |spec| spec.chunks().len() as u64)
    }

    /// The games of each chunk, in order (none if a variant's ruleset string is not one).
    pub(super) fn unit_games(&self) -> Vec<u64> {
        self.spec().map_or_else(
            |_| Vec::new(),
            |spec| spec.chunks().iter().map(|k| 2 * k.pairs).collect(),
        )
    }

    /// Plays chunks `first .. first + count`.
    pub(super) fn run(&self, first: u64, count: u64) -> Result<ChunkResult, JobError> {
        let spec = self.spec()?;
        let keys = spec.chunks();
        keys[first as usize..(first + count) as usize]
            .iter()
            .map(|k| spec.try_run_chunk(k).map_err(|e| refuse(chain(&e))))
            .collect::<Result<_, _>>()
            .map(ChunkResult::Study)
    }

    /// The study's JSON (`qasab study --json`) from the results of chunks that cover it, in
    /// order; a chunk of another kind is refused as one of another command than `command`.
    pub(super) fn merge(
        &self,
        chunks: Vec<(u64, ChunkResult)>,
        command: &str,
    ) -> Result<String, JobError> {
        let spec = self.spec()?;
        let mut done = BTreeMap::new();
        let mut keys = spec.chunks().into_iter();
        for (_, r) in chunks {
            let ChunkResult::Study(v) = r else {
                return Err(wrong_command(command));
            };
            for games in v {
                let key = keys.next().expect("counted above");
                if games.len() as u64 != key.pairs {
                    return Err(JobError::Chunks(format!(
                        "a study chunk holds {} game pairs instead of {}",
                        games.len(),
                        key.pairs
                    )));
                }
                done.insert(key, games);
            }
        }
        let report = spec.report(&done, &solver_values(&spec.variants));
        Ok(json_with_command(&report, &self.command))
    }
}
