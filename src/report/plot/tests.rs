//! The SVG pictures: well-formed XML with the expected elements (one outline
//! per class, one point per record, legends and labels), deterministic output, and errors on
//! malformed data. Set OPTIK_PLOT_DIR to keep the pictures for a look.

use crate::report::plot::partition::PartitionPicture;
use crate::report::plot::{self, BoxGroup, BoxPlot, Heatmap, Timeline, TimelinePoint};

/// Parses the SVG (panics when it is not well-formed XML) and returns (tag, text) of every
/// element.
fn elements(svg: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| {
            (
                n.tag_name().name().to_string(),
                n.text().unwrap_or("").trim().to_string(),
            )
        })
        .collect()
}

fn count(els: &[(String, String)], tag: &str) -> usize {
    els.iter().filter(|(t, _)| t == tag).count()
}

fn has_text(els: &[(String, String)], text: &str) -> bool {
    els.iter().any(|(t, s)| t == "text" && s == text)
}

fn keep(name: &str, svg: &str) {
    if let Ok(dir) = std::env::var("OPTIK_PLOT_DIR") {
        std::fs::write(std::path::Path::new(&dir).join(name), svg).unwrap();
    }
}

fn picture() -> PartitionPicture {
    // Three classes: a triangle, a pair, and a class of one record; k levels 2 and 3.
    PartitionPicture {
        title: "test <partition> & co".into(),
        caption: "records placed by hand".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        points: vec![
            (0.0, 0.0),
            (1.0, 0.0),
            (0.5, 1.0),
            (4.0, 4.0),
            (5.0, 4.5),
            (9.0, 1.0),
        ],
        class: vec![7, 7, 7, 2, 2, 5],
        k: vec![3, 2, 3, 2, 2, 1],
        x_ticks: None,
        y_ticks: None,
    }
}

#[test]
fn partition_picture_has_one_outline_per_class_and_one_point_per_record() {
    let p = picture();
    let svg = plot::partition(&p).unwrap();
    keep("partition.svg", &svg);
    let els = elements(&svg);
    // One filled outline per class; one circle per record plus one per k level in the legend.
    assert_eq!(count(&els, "polygon"), 3);
    assert_eq!(count(&els, "circle"), 6 + 3);
    for t in [
        "k_i = 1",
        "k_i = 2",
        "k_i = 3",
        "k=3",
        "k=2",
        "k=1",
        "6 records",
        "3 classes",
    ] {
        assert!(has_text(&els, t), "missing text {t}");
    }
    // Text is escaped, not markup.
    assert!(has_text(&els, "test <partition> & co"));
    assert!(has_text(&els, "records placed by hand"));
    // Deterministic.
    assert_eq!(svg, plot::partition(&p).unwrap());
    // Many k levels share the largest marker size, and the legend says so.
    let mut many = picture();
    many.k = vec![2, 3, 4, 5, 6, 7];
    let els = elements(&plot::partition(&many).unwrap());
    assert_eq!(count(&els, "circle"), 6 + 5);
    assert!(has_text(&els, "k_i ≥ 6") && has_text(&els, "k_i = 5"));
    // Mismatched lengths are refused.
    let mut bad = picture();
    bad.k.pop();
    assert!(plot::partition(&bad).is_err());
}

#[test]
fn timeline_marks_the_warm_start_the_bound_and_a_second_series() {
    let t = Timeline {
        title: "CP on a sample".into(),
        x_label: "elapsed seconds".into(),
        y_label: "diameter".into(),
        points: vec![
            TimelinePoint {
                elapsed_s: 0.0,
                value: 9.0,
                secondary: Some(120.0),
                warm_start: true,
            },
            TimelinePoint {
                elapsed_s: 0.4,
                value: 7.5,
                secondary: Some(131.0),
                warm_start: false,
            },
            TimelinePoint {
                elapsed_s: 2.5,
                value: 6.0,
                secondary: Some(110.0),
                warm_start: false,
            },
        ],
        secondary_label: Some("DBIL".into()),
        bound: Some(5.5),
    };
    let svg = plot::timeline(&t).unwrap();
    keep("timeline.svg", &svg);
    let els = elements(&svg);
    for s in [
        "warm start",
        "diameter",
        "DBIL",
        "bound 5.5",
        "CP on a sample",
    ] {
        assert!(has_text(&els, s), "missing text {s}");
    }
    // Two improving solutions as circles (the warm start is a triangle, not a circle).
    assert_eq!(count(&els, "circle"), 2);
    assert!(count(&els, "polyline") >= 2);
    let plain = Timeline {
        secondary_label: None,
        bound: None,
        ..t.clone()
    };
    let els = elements(&plot::timeline(&plain).unwrap());
    assert!(!has_text(&els, "DBIL"));
    assert!(plot::timeline(&Timeline {
        points: vec![],
        ..t
    })
    .is_err());
}

#[test]
fn boxplot_draws_one_box_per_group() {
    let b = BoxPlot {
        title: "DBIL / optimum".into(),
        y_label: "ratio".into(),
        groups: vec![
            BoxGroup {
                name: "mdav".into(),
                values: vec![1.0, 1.1, 1.2, 1.25, 1.3, 2.4],
            },
            BoxGroup {
                name: "kmember".into(),
                values: vec![1.05, 1.07, 1.1, 1.15],
            },
            BoxGroup {
                name: "mondrian".into(),
                values: vec![1.3, 1.5, 1.6],
            },
        ],
        reference: Some(1.0),
    };
    let svg = plot::boxplot(&b).unwrap();
    keep("boxplot.svg", &svg);
    let els = elements(&svg);
    for s in [
        "mdav (n=6)",
        "kmember (n=4)",
        "mondrian (n=3)",
        "ratio",
        "DBIL / optimum",
    ] {
        assert!(has_text(&els, s), "missing text {s}");
    }
    // 2.4 is beyond q3 + 1.5 IQR of the mdav group: one outlier circle.
    assert_eq!(count(&els, "circle"), 1);
    // Each box is a filled and an outlined rectangle (plus the background).
    assert_eq!(count(&els, "rect"), 1 + 2 * 3);
    assert!(plot::boxplot(&BoxPlot {
        groups: vec![],
        ..b
    })
    .is_err());
}

#[test]
fn heatmap_draws_every_cell_with_labels_and_a_colour_bar() {
    let rows = ["0.1", "0.2", "0.3"];
    let cols = ["0.5", "0.6", "0.7", "0.8"];
    let values: Vec<Vec<Option<f64>>> = (0..3)
        .map(|r| {
            (0..4)
                .map(|c| (r + c != 5).then(|| 1.0 + 0.1 * (r * 4 + c) as f64))
                .collect()
        })
        .collect();
    let h = Heatmap {
        title: "k_c / k_i DBIL".into(),
        x_label: "f_c".into(),
        y_label: "f_l".into(),
        col_labels: cols.iter().map(|s| s.to_string()).collect(),
        row_labels: rows.iter().map(|s| s.to_string()).collect(),
        values: values.clone(),
        value_label: "ratio".into(),
    };
    let svg = plot::heatmap(&h).unwrap();
    keep("heatmap.svg", &svg);
    let els = elements(&svg);
    for s in rows
        .iter()
        .chain(&cols)
        .chain(&["f_c", "f_l", "ratio", "–", "1", "1.7", "2"])
    {
        assert!(has_text(&els, s), "missing text {s}");
    }
    // Background + 12 cells + 64 colour bar steps.
    assert_eq!(count(&els, "rect"), 1 + 12 + 64);
    let mut bad = h.clone();
    bad.values[1].pop();
    assert!(plot::heatmap(&bad).is_err());
}
