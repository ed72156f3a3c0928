//! Hand-written SVG plots of cost-adjusted regret versus iteration, one file per setting with a
//! panel per acquisition, like the stopping paper's figures 2 and 18–20: the dashed curve is
//! fixed-iteration stopping (mean ± 2SE band), and each rule is a marker at its mean stopping
//! time and mean regret with ±2SE error bars in both directions.
use super::report::{Curve, SummaryRow};
use super::run::ExperimentResults;
use std::fmt::Write as _;

const PANEL_W: f64 = 330.0;
const PANEL_H: f64 = 300.0;
const MARGIN_L: f64 = 62.0;
const MARGIN_R: f64 = 12.0;
const MARGIN_T: f64 = 46.0;
const MARGIN_B: f64 = 42.0;
const LEGEND_W: f64 = 190.0;
const COLORS: &[&str] = &[
    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Maps data to one panel's pixels (log10 scale in y).
struct Frame {
    left: f64,
    top: f64,
    t_max: f64,
    log_lo: f64,
    log_hi: f64,
}

impl Frame {
    fn x(&self, t: f64) -> f64 {
        self.left
            + MARGIN_L
            + (t - 1.0) / (self.t_max - 1.0).max(1.0) * (PANEL_W - MARGIN_L - MARGIN_R)
    }
    fn y(&self, v: f64) -> f64 {
        let l = v.max(10f64.powf(self.log_lo)).log10();
        self.top
            + MARGIN_T
            + (self.log_hi - l) / (self.log_hi - self.log_lo) * (PANEL_H - MARGIN_T - MARGIN_B)
    }
}

/// The SVG document for one setting.
pub fn setting_plot(
    results: &ExperimentResults,
    rows: &[SummaryRow],
    curves: &[Curve],
    setting: usize,
) -> String {
    let n_acq = results.acquisitions.len();
    let width = n_acq as f64 * PANEL_W + LEGEND_W;
    let height = PANEL_H + 30.0;
    let s = &results.settings[setting];
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="10" y="18" font-size="14">{} cost, λ = {}: cost-adjusted simple regret vs. stopping time (mean ± 2SE)</text>"#,
        escape(&s.cost),
        s.lambda
    );
    let rule_names: Vec<&str> = rows
        .iter()
        .filter(|r| r.setting == setting && r.acquisition == 0)
        .map(|r| r.rule.split(" (").next().unwrap_or(&r.rule))
        .collect();
    for acquisition in 0..n_acq {
        let curve = &curves[setting * n_acq + acquisition];
        let panel_rows: Vec<&SummaryRow> = rows
            .iter()
            .filter(|r| r.setting == setting && r.acquisition == acquisition)
            .collect();
        let values = curve
            .points
            .iter()
            .flat_map(|&(m, se)| [m - se, m + se, m])
            .chain(panel_rows.iter().flat_map(|r| {
                [
                    r.mean_regret - r.two_se_regret,
                    r.mean_regret + r.two_se_regret,
                ]
            }))
            .filter(|v| *v > 0.0 && v.is_finite());
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let (log_lo, log_hi) = if lo.is_finite() && hi > lo {
            (lo.log10().floor(), hi.log10().ceil())
        } else {
            (-3.0, 1.0)
        };
        let frame = Frame {
            left: acquisition as f64 * PANEL_W,
            top: 0.0,
            t_max: curve.points.len() as f64,
            log_lo,
            log_hi,
        };
        draw_axes(&mut out, &frame, &results.acquisitions[acquisition]);
        draw_curve(&mut out, &frame, curve);
        for (i, row) in panel_rows.iter().enumerate() {
            draw_marker(&mut out, &frame, row, COLORS[i % COLORS.len()]);
        }
    }
    let legend_x = n_acq as f64 * PANEL_W + 10.0;
    let _ = writeln!(
        out,
        r#"<text x="{legend_x}" y="{}" font-size="12">stopping rule</text>"#,
        MARGIN_T
    );
    for (i, name) in rule_names.iter().enumerate() {
        let y = MARGIN_T + 18.0 + 16.0 * i as f64;
        let color = COLORS[i % COLORS.len()];
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="4" fill="{color}"/>"#,
            legend_x + 5.0,
            y - 4.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}">{}</text>"#,
            legend_x + 14.0,
            escape(name)
        );
    }
    let y = MARGIN_T + 18.0 + 16.0 * rule_names.len() as f64;
    let _ = writeln!(
        out,
        r#"<line x1="{legend_x}" y1="{0}" x2="{1}" y2="{0}" stroke="black" stroke-dasharray="4 3"/><text x="{2}" y="{y}">fixed-iteration stopping</text>"#,
        y - 4.0,
        legend_x + 10.0,
        legend_x + 14.0
    );
    out.push_str("</svg>\n");
    out
}

fn draw_axes(out: &mut String, f: &Frame, title: &str) {
    let (x0, x1) = (f.x(1.0), f.x(f.t_max));
    let (y0, y1) = (f.top + PANEL_H - MARGIN_B, f.top + MARGIN_T);
    let _ = writeln!(
        out,
        r#"<rect x="{x0}" y="{y1}" width="{}" height="{}" fill="none" stroke="black"/>"#,
        x1 - x0,
        y0 - y1
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text>"#,
        (x0 + x1) / 2.0,
        y1 - 8.0,
        escape(title)
    );
    let step = if f.t_max > 60.0 { 20.0 } else { 10.0 };
    let mut t = 0.0;
    while t <= f.t_max {
        let tx = f.x(t.max(1.0));
        let _ = writeln!(
            out,
            r#"<line x1="{tx}" y1="{y0}" x2="{tx}" y2="{}" stroke="black"/><text x="{tx}" y="{}" text-anchor="middle">{t}</text>"#,
            y0 + 4.0,
            y0 + 16.0
        );
        t += step;
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">evaluations t</text>"#,
        (x0 + x1) / 2.0,
        y0 + 32.0
    );
    let mut e = f.log_lo;
    while e <= f.log_hi {
        let ty = f.y(10f64.powf(e));
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{ty}" x2="{x1}" y2="{ty}" stroke="#dddddd"/><text x="{}" y="{}" text-anchor="end">1e{e}</text>"##,
            x0 - 4.0,
            ty + 4.0
        );
        e += 1.0;
    }
}

fn draw_curve(out: &mut String, f: &Frame, curve: &Curve) {
    let pts = &curve.points;
    let mut band = String::new();
    for (i, &(m, se)) in pts.iter().enumerate() {
        let _ = write!(band, "{:.2},{:.2} ", f.x((i + 1) as f64), f.y(m + se));
    }
    for (i, &(m, se)) in pts.iter().enumerate().rev() {
        let _ = write!(band, "{:.2},{:.2} ", f.x((i + 1) as f64), f.y(m - se));
    }
    let _ = writeln!(
        out,
        r##"<polygon points="{band}" fill="#000000" fill-opacity="0.08" stroke="none"/>"##
    );
    let line: String = pts
        .iter()
        .enumerate()
        .map(|(i, &(m, _))| format!("{:.2},{:.2} ", f.x((i + 1) as f64), f.y(m)))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{line}" fill="none" stroke="black" stroke-dasharray="4 3"/>"#
    );
}

fn draw_marker(out: &mut String, f: &Frame, row: &SummaryRow, color: &str) {
    let (cx, cy) = (f.x(row.mean_stop), f.y(row.mean_regret));
    let (xa, xb) = (
        f.x((row.mean_stop - row.two_se_stop).max(1.0)),
        f.x((row.mean_stop + row.two_se_stop).min(f.t_max)),
    );
    let (ya, yb) = (
        f.y(row.mean_regret + row.two_se_regret),
        f.y(row.mean_regret - row.two_se_regret),
    );
    let _ = writeln!(
        out,
        r#"<line x1="{xa:.2}" y1="{cy:.2}" x2="{xb:.2}" y2="{cy:.2}" stroke="{color}"/>"#
    );
    let _ = writeln!(
        out,
        r#"<line x1="{cx:.2}" y1="{ya:.2}" x2="{cx:.2}" y2="{yb:.2}" stroke="{color}"/>"#
    );
    let shape = if row.oracle {
        format!(
            r#"<rect x="{:.2}" y="{:.2}" width="8" height="8" fill="{color}" transform="rotate(45 {cx:.2} {cy:.2})"/>"#,
            cx - 4.0,
            cy - 4.0
        )
    } else {
        format!(r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="4" fill="{color}"/>"#)
    };
    let _ = writeln!(out, "{shape}");
}
