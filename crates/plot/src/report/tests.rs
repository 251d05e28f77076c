use super::*;
use crate::Interval;

fn sample() -> Report {
    let variants = vec![
        "tab".to_string(),
        "tab(reduction=square-landed)".to_string(),
    ];
    let rate = |v| Interval {
        value: v,
        lo: v - 0.05,
        hi: v + 0.05,
    };
    let svg = crate::seat_win_rates(
        "Wins",
        &variants,
        ["one", "two"],
        &[[rate(0.5), rate(0.5)]; 2],
    )
    .unwrap();
    Report {
        title: "Study of <tab> & co".into(),
        command: r#"qasab study "tab(reduction=square-landed)" --games 1000 --label 'a&b' <x>"#
            .into(),
        notes: vec![
            "Rates < 50% & \"quoted\" favour 'two'.".into(),
            "Second paragraph.".into(),
        ],
        table: Table {
            headers: vec!["variant".into(), "win <one>".into()],
            rows: vec![
                vec!["tab".into(), "50% & more".into()],
                vec!["tab <&> \"x\"".into(), "\"49%\"".into()],
            ],
        },
        charts: vec![
            Chart {
                caption: "Win rates by seat (<95%> intervals)".into(),
                file: "win-rates.svg".into(),
                svg: format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{svg}"),
            },
            Chart {
                caption: "Second".into(),
                file: "odd name&.svg".into(),
                svg,
            },
        ],
    }
}

#[test]
fn the_page_is_well_formed_and_escapes_every_text() {
    let r = sample();
    let html = report_html(&r);
    // With nothing but escaped text and inlined SVG, the page parses as XML too (after the
    // doctype, which XML parsers reject without a DTD option).
    let body = html.strip_prefix("<!DOCTYPE html>\n").expect("a doctype");
    let doc = roxmltree::Document::parse(body).expect("well-formed");
    let text_of = |tag: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .map(|n| {
                n.descendants()
                    .filter(|d| d.is_text())
                    .filter_map(|d| d.text())
                    .collect::<String>()
            })
            .collect()
    };
    assert_eq!(
        text_of("code"),
        vec![r.command.clone()],
        "the exact command"
    );
    assert_eq!(text_of("h1"), vec![r.title.clone()]);
    assert_eq!(text_of("title")[0], r.title);
    for note in &r.notes {
        assert!(text_of("p").contains(note));
    }
    let cells: Vec<String> = text_of("th").into_iter().chain(text_of("td")).collect();
    for cell in r.table.headers.iter().chain(r.table.rows.iter().flatten()) {
        assert!(cells.contains(cell), "{cell}");
    }
    let captions = text_of("figcaption");
    assert!(captions[0].starts_with("Win rates by seat (<95%> intervals)"));
    // Escaped in the source, not merely parsed back.
    assert!(html.contains("Study of &lt;tab&gt; &amp; co"));
    assert!(html.contains("--label &#39;a&amp;b&#39; &lt;x&gt;"));
    assert!(html.contains("&quot;tab(reduction=square-landed)&quot;"));
    assert!(!html.contains("<x>") && !html.contains("<one>") && !html.contains("<95%>"));
}

#[test]
fn every_chart_is_inlined_in_a_figure_with_a_caption_and_a_link() {
    let r = sample();
    let html = report_html(&r);
    assert!(!html.contains("<?xml"), "declarations are dropped");
    assert_eq!(
        html.matches("<svg role=\"img\" aria-labelledby=\"figure-")
            .count(),
        2
    );
    assert_eq!(html.matches("<figure>").count(), 2);
    assert_eq!(html.matches("<figcaption id=\"figure-").count(), 2);
    assert!(html.contains("<a href=\"win-rates.svg\">win-rates.svg</a>"));
    assert!(html.contains("<a href=\"odd%20name%26.svg\">odd name&amp;.svg</a>"));
    for chart in &r.charts {
        let body = strip_prolog(&chart.svg);
        let inner = &body[body.find('>').unwrap()..];
        assert!(html.contains(inner), "the whole SVG is inlined");
    }
}

#[test]
fn the_page_is_self_contained_and_accessible() {
    let html = report_html(&sample());
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(
        html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />")
    );
    assert!(html.contains("<meta charset=\"utf-8\" />"));
    assert!(!html.contains("src="), "no external resources");
    assert!(!html.contains("href=\"http") && !html.contains("href=\"//"));
    assert!(!html.contains("<script") && !html.contains("<link"));
    assert!(!html.contains("@import") && !html.contains("url("));
    assert_eq!(html.matches("<th scope=\"col\">").count(), 2);
    assert_eq!(html.matches("<th scope=\"row\">").count(), 2);
    assert!(
        html.contains("overflow-x:auto"),
        "the table scrolls sideways on a phone"
    );
}

#[test]
fn links_stay_relative() {
    assert_eq!(href("charts/a b.svg"), "charts/a%20b.svg");
    assert_eq!(href("javascript:alert(1)"), "javascript%3Aalert%281%29");
    assert_eq!(href("//evil/x.svg"), ".//evil/x.svg");
    assert_eq!(href("https://x/y.svg"), "https%3A//x/y.svg");
}

#[test]
fn prologs_are_stripped() {
    assert_eq!(
        strip_prolog("<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE svg>\n<svg/>"),
        "<svg/>"
    );
    assert_eq!(strip_prolog("<svg/>"), "<svg/>");
    assert_eq!(strip_prolog("not svg"), "not svg");
}

#[test]
fn an_empty_report_still_makes_a_page() {
    let html = report_html(&Report::default());
    assert!(html.contains("<table>"));
    assert!(!html.contains("<figure>"));
    assert!(roxmltree::Document::parse(html.strip_prefix("<!DOCTYPE html>\n").unwrap()).is_ok());
}
