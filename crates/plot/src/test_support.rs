//! Reading the charts back in tests: each helper parses the SVG as XML (and fails the test if it
//! is not well formed).

use plotters::style::RGBColor;

/// Parses `svg`, checks that its root is `<svg>` with a `<title>`, and hands the tree to `f`.
pub(crate) fn with_doc<T>(svg: &str, f: impl FnOnce(&roxmltree::Document) -> T) -> T {
    let doc = roxmltree::Document::parse(svg).expect("the chart is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert!(
        root.children().any(|n| n.has_tag_name("title")),
        "the SVG has a <title>"
    );
    f(&doc)
}

/// The contents of every `<text>`, trimmed.
pub(crate) fn texts(svg: &str) -> Vec<String> {
    with_doc(svg, |doc| {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").trim().to_string())
            .collect()
    })
}

/// How many `<text>` elements read exactly `s`.
pub(crate) fn count_text(svg: &str, s: &str) -> usize {
    texts(svg).iter().filter(|t| *t == s).count()
}

/// How many `tag` elements have `attr` equal to `value`.
pub(crate) fn count(svg: &str, tag: &str, attr: &str, value: &str) -> usize {
    with_doc(svg, |doc| {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag) && n.attribute(attr) == Some(value))
            .count()
    })
}

/// A colour as the SVG backend writes it.
pub(crate) fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The `width` and `height` of the SVG.
pub(crate) fn size(svg: &str) -> (f64, f64) {
    with_doc(svg, |doc| {
        let root = doc.root_element();
        let get = |a| root.attribute(a).unwrap().parse::<f64>().unwrap();
        (get("width"), get("height"))
    })
}

/// `n` variant names, some of them long.
pub(crate) fn variants(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i % 3 {
            0 => format!("tab-hyde-ludii-{i}"),
            1 => format!("reduction=square-landed,seeds={i}"),
            _ => format!("v{i}"),
        })
        .collect()
}
