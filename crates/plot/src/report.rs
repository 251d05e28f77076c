//! The HTML report: one self-contained page with the command, the notes, the table and the
//! charts.

use std::fmt::Write as _;

use crate::canvas::escape;

/// What `qasab study` found, ready for [`report_html`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// The page's title and main heading.
    pub title: String,
    /// The exact command that produced the report, so that a reader can run it again.
    pub command: String,
    /// Paragraphs of plain text (how to read the results, caveats).
    pub notes: Vec<String>,
    /// The numbers behind the charts.
    pub table: Table,
    /// The charts, in order.
    pub charts: Vec<Chart>,
}

/// A table of plain-text cells; the first cell of each row names the row (the variant).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The column headings.
    pub headers: Vec<String>,
    /// The rows, each with (normally) one cell per heading.
    pub rows: Vec<Vec<String>>,
}

/// A chart of the report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chart {
    /// What the chart shows, in a sentence or two.
    pub caption: String,
    /// The file name the SVG is saved under next to the page (e.g. `win-rates.svg`), linked from
    /// the caption.
    pub file: String,
    /// The SVG document, as a chart function of this crate returns it; it is inlined as it is
    /// (an XML declaration or doctype is dropped), so it must come from a trusted source.
    pub svg: String,
}

/// The page's style: readable on a phone (the table scrolls sideways, charts shrink to fit),
/// dark text on white.
const STYLE: &str = "\
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1a1a;background:#fff}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid #ccc}
pre{background:#f4f4f4;border:1px solid #ccc;padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
code{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;font-size:.9rem}
.table-wrap{overflow-x:auto}
.table-wrap:focus{outline:3px solid #0b57d0}
table{border-collapse:collapse;border:1px solid #ccc;font-variant-numeric:tabular-nums}
th,td{padding:.35rem .7rem;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
thead th{background:#eee}
tbody th{font-weight:600}
figure{margin:1.5rem 0;overflow-x:auto}
figure svg{display:block;max-width:100%;height:auto}
figcaption{margin-top:.5rem;color:#333}
a{color:#0b57d0}
";

/// One self-contained HTML5 page for `r`: inline style, the charts' SVG inlined, no script and
/// no external resource. Every text of `r` is escaped.
pub fn report_html(r: &Report) -> String {
    let title = escape(&r.title);
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <h1>{title}</h1>\n"
    );
    section(&mut page, "command", "Command", |p| {
        let _ = writeln!(p, "<pre><code>{}</code></pre>", escape(&r.command));
    });
    if !r.notes.is_empty() {
        section(&mut page, "notes", "Notes", |p| {
            for note in &r.notes {
                let _ = writeln!(p, "<p>{}</p>", escape(note));
            }
        });
    }
    section(&mut page, "results", "Results", |p| table(p, &r.table));
    if !r.charts.is_empty() {
        section(&mut page, "charts", "Charts", |p| {
            for (i, chart) in r.charts.iter().enumerate() {
                figure(p, i, chart);
            }
        });
    }
    page.push_str("</main>\n</body>\n</html>\n");
    page
}

/// A `<section>` headed `heading`, labelled by it.
fn section(page: &mut String, id: &str, heading: &str, body: impl FnOnce(&mut String)) {
    let _ = writeln!(
        page,
        "<section aria-labelledby=\"{id}\">\n<h2 id=\"{id}\">{heading}</h2>"
    );
    body(page);
    page.push_str("</section>\n");
}

/// The table in a focusable scrolling box; the first cell of each row is its header.
fn table(page: &mut String, t: &Table) {
    page.push_str(
        "<div class=\"table-wrap\" role=\"region\" aria-labelledby=\"results\" tabindex=\"0\">\n<table>\n",
    );
    if !t.headers.is_empty() {
        page.push_str("<thead>\n<tr>");
        for h in &t.headers {
            let _ = write!(page, "<th scope=\"col\">{}</th>", escape(h));
        }
        page.push_str("</tr>\n</thead>\n");
    }
    page.push_str("<tbody>\n");
    for row in &t.rows {
        page.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            match i {
                0 => write!(page, "<th scope=\"row\">{}</th>", escape(cell)),
                _ => write!(page, "<td>{}</td>", escape(cell)),
            }
            .unwrap_or_default();
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
}

/// A chart in a `<figure>`: the SVG, announced as one image named by the caption, then the
/// caption with a link to the file.
fn figure(page: &mut String, i: usize, chart: &Chart) {
    let id = format!("figure-{}", i + 1);
    let svg = strip_prolog(&chart.svg);
    let svg = match svg.strip_prefix("<svg") {
        Some(rest) => format!("<svg role=\"img\" aria-labelledby=\"{id}\"{rest}"),
        None => svg.to_string(),
    };
    let _ = writeln!(
        page,
        "<figure>\n{svg}\n<figcaption id=\"{id}\">{} <a href=\"{}\">{}</a></figcaption>\n</figure>",
        escape(&chart.caption),
        escape(&href(&chart.file)),
        escape(&chart.file),
    );
}

/// The SVG from its root element on: without an XML declaration, comments or doctype before it.
fn strip_prolog(svg: &str) -> &str {
    let mut s = svg.trim_start();
    while !s.starts_with("<svg") {
        let end = match s {
            _ if s.starts_with("<?") => s.find("?>").map(|e| e + 2),
            _ if s.starts_with("<!--") => s.find("-->").map(|e| e + 3),
            _ if s.starts_with("<!") => s.find('>').map(|e| e + 1),
            _ => None,
        };
        match end {
            Some(end) => s = s[end..].trim_start(),
            None => break,
        }
    }
    s
}

/// A file name as a relative link: characters outside a safe set are percent-encoded, so that
/// a name can neither leave the attribute nor become an absolute or `javascript:` address.
fn href(file: &str) -> String {
    let mut out = String::with_capacity(file.len());
    for b in file.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    if out.starts_with('/') {
        // "//host" would be a network address; keep links relative to the page.
        out.insert(0, '.');
    }
    out
}

#[cfg(test)]
mod tests;
