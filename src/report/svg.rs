//! A grouped bar chart of puzzles per second (log scale), one group per data set and one bar
//! per backend, written by hand as SVG (no plotting dependency).

use crate::runner::SetReport;
use std::fmt::Write as _;

const COLORS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart as a standalone SVG document.
pub fn svg(sets: &[SetReport]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for set in sets {
        for b in &set.backends {
            if !names.contains(&b.name.as_str()) {
                names.push(b.name.as_str());
            }
        }
    }
    let rates: Vec<f64> = sets
        .iter()
        .flat_map(|s| s.backends.iter().map(|b| b.puzzles_per_sec()))
        .filter(|&r| r > 0.0)
        .collect();
    let min = rates.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = rates.iter().cloned().fold(0.0, f64::max);
    let (lo, hi) = if rates.is_empty() {
        (0, 1)
    } else {
        let lo = min.log10().floor() as i32;
        let hi = (max.log10().ceil() as i32).max(lo + 1);
        (lo, hi)
    };

    let bar = 16.0;
    let gap = 28.0;
    let nb = names.len().max(1) as f64;
    let group = nb * bar + gap;
    let (left, top, plot_h, bottom) = (80.0, 70.0, 300.0, 150.0);
    // Room on the right for the last set's slanted label.
    let width = (left + 190.0 + group * sets.len().max(1) as f64).max(640.0);
    let height = top + plot_h + bottom;
    let y_of = |v: f64| top + plot_h * (1.0 - (v.log10() - lo as f64) / (hi - lo) as f64);

    let mut out = String::new();
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    )
    .ok();
    writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="white"/><text x="10" y="20" font-size="14" font-weight="bold">Puzzles per second, per backend and data set (log scale, one thread)</text>"#
    )
    .ok();
    // Legend.
    let mut x = left;
    for (i, name) in names.iter().enumerate() {
        writeln!(
            out,
            r#"<rect x="{x:.1}" y="34" width="12" height="12" fill="{}"/><text x="{:.1}" y="45">{}</text>"#,
            COLORS[i % COLORS.len()],
            x + 16.0,
            escape(name)
        )
        .ok();
        x += 26.0 + 7.5 * name.len() as f64;
    }
    // Decade grid lines and labels.
    for e in lo..=hi {
        let y = y_of(10f64.powi(e));
        let label = if e >= 6 {
            format!("{}M", 10u64.pow((e - 6) as u32))
        } else if e >= 3 {
            format!("{}k", 10u64.pow((e - 3) as u32))
        } else if e >= 0 {
            10u64.pow(e as u32).to_string()
        } else {
            format!("1e{e}")
        };
        writeln!(
            out,
            r##"<line x1="{left}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"##,
            width - 10.0,
            left - 6.0,
            y + 4.0
        )
        .ok();
    }
    writeln!(
        out,
        r##"<line x1="{left}" x2="{left}" y1="{top}" y2="{:.1}" stroke="#333"/><text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">puzzles / s</text>"##,
        top + plot_h,
        top + plot_h / 2.0
    )
    .ok();
    // Bars.
    for (g, set) in sets.iter().enumerate() {
        let gx = left + gap / 2.0 + g as f64 * group;
        for b in &set.backends {
            let i = names.iter().position(|n| *n == b.name).unwrap_or(0);
            let r = b.puzzles_per_sec();
            if r <= 0.0 {
                continue;
            }
            let y = y_of(r);
            let note = if b.budget_spent {
                format!(" (budget: {} puzzles covered)", b.covered)
            } else {
                String::new()
            };
            writeln!(
                out,
                r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{} on {}: {:.0} puzzles/s{}</title></rect>"#,
                gx + i as f64 * bar,
                bar - 2.0,
                (top + plot_h - y).max(0.5),
                COLORS[i % COLORS.len()],
                escape(&b.name),
                escape(set.name()),
                r,
                note
            )
            .ok();
        }
        let cx = gx + nb * bar / 2.0;
        writeln!(
            out,
            r#"<text transform="translate({cx:.1} {:.1}) rotate(30)" text-anchor="start">{}</text>"#,
            top + plot_h + 14.0,
            escape(set.name())
        )
        .ok();
    }
    writeln!(out, "</svg>").ok();
    out
}
