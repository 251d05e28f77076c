//! Reading the published studies of the rules' variants: the copy of `docs/variants/`
//! compiled into the binary by the crate's build script (`build.rs`), or a directory of the
//! same layout named by [`Config::variants`](crate::Config), read afresh at each request. The
//! routes that serve them are in [`crate::variants`].
//!
//! Only names of letters, digits, `.`, `_` and `-` starting with a letter or a digit are
//! looked up ([`safe`]), and a study only if the index lists it: no path leads out of the
//! directory.

use std::borrow::Cow;
use std::path::{Path as FsPath, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::config::Config;
use crate::error::AppError;

include!(concat!(env!("OUT_DIR"), "/variants.rs"));

/// Where the studies are read from.
pub(crate) enum Source<'a> {
    /// The copy of `docs/variants/` compiled into the binary.
    Embedded,
    /// A directory of the same layout, read at each request.
    Dir(&'a FsPath),
}

impl Source<'_> {
    pub(crate) fn of(config: &Config) -> Source<'_> {
        match &config.variants {
            Some(dir) => Source::Dir(dir),
            None => Source::Embedded,
        }
    }

    /// The bytes of `name` (`index.json` or `{study}/{file}`, each part [`safe`]), if there is
    /// such a file.
    pub(crate) async fn read(&self, name: &str) -> Option<Cow<'static, [u8]>> {
        debug_assert!(name.split('/').all(safe), "{name}");
        match self {
            Source::Embedded => EMBEDDED
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, bytes)| Cow::Borrowed(*bytes)),
            Source::Dir(dir) => tokio::fs::read(dir.join(name)).await.ok().map(Cow::Owned),
        }
    }

    /// The cache policy of the files: an hour for those compiled in (they change only with the
    /// binary), none for a directory that may be edited while it is served.
    pub(crate) fn cache_control(&self) -> &'static str {
        match self {
            Source::Embedded => "public, max-age=3600",
            Source::Dir(_) => "no-cache",
        }
    }

    /// The index of the studies; a missing index is an empty one.
    pub(crate) async fn index(&self) -> Result<Vec<Study>, AppError> {
        let Some(bytes) = self.read("index.json").await else {
            return Ok(Vec::new());
        };
        parse_index(&bytes).map_err(AppError::Internal)
    }

    /// The study `id` of the index, or 404 naming it.
    pub(crate) async fn study(&self, id: &str) -> Result<Study, AppError> {
        let unknown = || {
            AppError::NotFound(format!(
                "no study '{id}'; the studies are listed at /api/variants"
            ))
        };
        if !safe(id) {
            return Err(unknown());
        }
        self.index()
            .await?
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(unknown)
    }
}

// `safe`: a name that may be looked up, the same test as the build script's.
include!("safe_name.rs");

/// Reads an index, checking each study's id and chart names.
fn parse_index(bytes: &[u8]) -> anyhow::Result<Vec<Study>> {
    let studies: Vec<Study> =
        serde_json::from_slice(bytes).context("the index of the variant studies")?;
    for s in &studies {
        anyhow::ensure!(safe(&s.id), "the index lists a study with id '{}'", s.id);
        for c in &s.charts {
            anyhow::ensure!(
                safe(&c.file) && c.file.ends_with(".svg"),
                "study '{}' lists a chart '{}' that is not an .svg file name",
                s.id,
                c.file
            );
        }
    }
    Ok(studies)
}

/// Checks that `dir` holds a readable index of studies, so that `qasab serve --variants DIR`
/// fails at once rather than at the first request.
///
/// # Errors
/// If `dir/index.json` cannot be read or is not a valid index.
pub fn check_dir(dir: &FsPath) -> anyhow::Result<()> {
    let path: PathBuf = dir.join("index.json");
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_index(&bytes).with_context(|| format!("in {}", path.display()))?;
    Ok(())
}

/// A study in the index.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = VariantStudy)]
pub(crate) struct Study {
    /// The study's id: the name of its directory, in `/api/variants/{id}` and
    /// `/variants/{id}/{file}`.
    pub(crate) id: String,
    /// The study's title.
    title: String,
    /// What the study asks and finds, in one plain-text paragraph.
    summary: String,
    /// The study's charts, in the order to show them.
    charts: Vec<Chart>,
}

/// A chart of a study.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = StudyChart)]
pub(crate) struct Chart {
    /// The SVG file, served at `/variants/{id}/{file}`.
    file: String,
    /// What the chart shows, in words (its caption and its text alternative).
    caption: String,
}
