//! The lab's figures, drawn with `plotters` into SVG text: real axes with ticks, legends and
//! error bars. The SVG backend writes text as `<text>` elements and needs no font files, so a
//! fresh machine draws the same figures (plotters is built without its `ttf` feature).
use plotters::prelude::*;

/// Colours of the rules, in legend order (the tableau palette).
const COLORS: [RGBColor; 10] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(127, 127, 127),
];

/// One marker with error bars in both directions.
#[derive(Clone, Debug)]
pub struct Marker {
    /// Legend label.
    pub label: String,
    /// Mean stopping time.
    pub x: f64,
    /// Half-width in `x` (two standard errors).
    pub x_err: f64,
    /// Mean value.
    pub y: f64,
    /// Half-width in `y` (two standard errors).
    pub y_err: f64,
}

/// One panel of a regret figure: the fixed-iteration curve (mean ± two standard errors at
/// every `t = 1, 2, …`) and one marker per stopping rule.
#[derive(Clone, Debug)]
pub struct RegretPanel {
    /// Panel title (the acquisition).
    pub title: String,
    /// `(mean, two_se)` at `t = 1, 2, …`.
    pub curve: Vec<(f64, f64)>,
    /// One per rule (same labels and order in every panel).
    pub markers: Vec<Marker>,
}

/// One histogram panel with two vertical reference lines.
#[derive(Clone, Debug)]
pub struct HistogramPanel {
    /// Panel title.
    pub title: String,
    /// The values.
    pub values: Vec<f64>,
    /// Drawn as a solid line (the mean).
    pub mean: f64,
    /// Drawn as a dashed red line (the bound).
    pub bound: f64,
}

/// One row of a forest plot: an estimate with its 95% interval.
#[derive(Clone, Debug)]
pub struct ForestRow {
    /// Row label.
    pub label: String,
    /// Point estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub lower: f64,
    /// Upper end of the interval.
    pub upper: f64,
}

fn fail<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw the figure: {e:?}")
}

/// A figure with one panel per acquisition: cost-adjusted regret against the stopping time on a
/// log scale, the dashed fixed-iteration curve with its ±2SE band, and each rule's mean
/// stopping time and regret with ±2SE error bars (the stopping paper's figs. 2 and 18–20).
pub fn regret_figure(title: &str, panels: &[RegretPanel]) -> Result<String, String> {
    let mut svg = String::new();
    let legend_width = legend_width(panels.first().map_or(&[][..], |p| &p.markers));
    let width = 360 * panels.len().max(1) as u32 + legend_width;
    {
        let root = SVGBackend::with_string(&mut svg, (width, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root.titled(title, ("sans-serif", 16)).map_err(fail)?;
        let (plots, legend) = root.split_horizontally(width - legend_width);
        let areas = plots.split_evenly((1, panels.len().max(1)));
        for (area, panel) in areas.iter().zip(panels) {
            draw_regret_panel(area, panel)?;
        }
        if let Some(first) = panels.first() {
            draw_legend(&legend, &first.markers)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

fn draw_regret_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    panel: &RegretPanel,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let t_max = panel.curve.len().max(2) as f64;
    let positive = panel
        .curve
        .iter()
        .flat_map(|&(m, e)| [m - e, m + e, m])
        .chain(
            panel
                .markers
                .iter()
                .flat_map(|k| [k.y - k.y_err, k.y + k.y_err]),
        )
        .filter(|v| *v > 0.0 && v.is_finite());
    let (lo, hi) = positive.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (
            10f64.powf(lo.log10().floor()),
            10f64.powf(hi.log10().ceil()),
        )
    } else {
        (1e-3, 10.0)
    };
    let clamp = |v: f64| v.clamp(lo, hi);
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 14))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(52)
        .build_cartesian_2d(1.0..t_max, (lo..hi).log_scale())
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("evaluations t")
        .y_desc("cost-adjusted regret")
        // Whole evaluations, few enough to stay apart at the 8-D cap of 518.
        .x_labels(6)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(fail)?;
    let band: Vec<(f64, f64)> = panel
        .curve
        .iter()
        .enumerate()
        .map(|(i, &(m, e))| ((i + 1) as f64, clamp(m + e)))
        .chain(
            panel
                .curve
                .iter()
                .enumerate()
                .rev()
                .map(|(i, &(m, e))| ((i + 1) as f64, clamp(m - e))),
        )
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, BLACK.mix(0.08))))
        .map_err(fail)?;
    let line = panel
        .curve
        .iter()
        .enumerate()
        .map(|(i, &(m, _))| ((i + 1) as f64, clamp(m)));
    chart
        .draw_series(DashedLineSeries::new(line, 5, 3, BLACK.stroke_width(1)))
        .map_err(fail)?;
    for (k, marker) in panel.markers.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let (x, y) = (marker.x, clamp(marker.y));
        let (y_lo, y_hi) = (
            clamp(marker.y - marker.y_err),
            clamp(marker.y + marker.y_err),
        );
        let (x_lo, x_hi) = (
            (marker.x - marker.x_err).max(1.0),
            (marker.x + marker.x_err).min(t_max),
        );
        let style = color.stroke_width(1);
        chart
            .draw_series(std::iter::once(ErrorBar::new_vertical(
                x, y_lo, y, y_hi, style, 6,
            )))
            .map_err(fail)?;
        chart
            .draw_series(std::iter::once(ErrorBar::new_horizontal(
                y, x_lo, x, x_hi, style, 6,
            )))
            .map_err(fail)?;
        chart
            .draw_series(std::iter::once(Circle::new((x, y), 4, color.filled())))
            .map_err(fail)?;
    }
    Ok(())
}

/// The legend's width in pixels: room for its longest line (about 7 px a character at the
/// legend's 13 px font, after the 28 px of the marker), and at least 200 px.
fn legend_width(markers: &[Marker]) -> u32 {
    let longest = markers
        .iter()
        .map(|m| m.label.chars().count())
        .chain([LEGEND_LINE_LABEL.chars().count()])
        .max()
        .unwrap_or(0) as u32;
    (28 + 7 * longest + 8).max(200)
}

/// The legend's last line: the dashed curve of stopping at a fixed iteration.
const LEGEND_LINE_LABEL: &str = "fixed-iteration stopping (±2SE)";

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    markers: &[Marker],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let style = ("sans-serif", 13).into_font();
    area.draw(&Text::new("stopping rule", (10, 40), style.clone()))
        .map_err(fail)?;
    for (k, marker) in markers.iter().enumerate() {
        let y = 62 + 18 * k as i32;
        let color = COLORS[k % COLORS.len()];
        area.draw(&Circle::new((16, y + 6), 4, color.filled()))
            .map_err(fail)?;
        area.draw(&Text::new(marker.label.clone(), (28, y), style.clone()))
            .map_err(fail)?;
    }
    let y = 62 + 18 * markers.len() as i32;
    area.draw(&PathElement::new(
        vec![(8, y + 6), (24, y + 6)],
        BLACK.stroke_width(1),
    ))
    .map_err(fail)?;
    area.draw(&Text::new(LEGEND_LINE_LABEL, (28, y), style))
        .map_err(fail)?;
    Ok(())
}

/// A forest plot on a log₁₀ axis (one row per configuration: the estimate and its 95%
/// interval, a dashed red line at `reference`) on the left, and beside it the per-sample histograms of the panels on a
/// log₁₀ axis (mean solid, bound dashed red), two per row: Theorem 1's figure at a glance,
/// whatever the scale of each configuration's costs.
pub fn forest_figure(
    title: &str,
    x_desc: &str,
    rows: &[ForestRow],
    reference: f64,
    panels: &[HistogramPanel],
) -> Result<String, String> {
    let columns = 2usize;
    let hist_rows = panels.len().div_ceil(columns).max(1);
    let height = (200 * hist_rows as u32).max(60 + 26 * rows.len() as u32) + 30;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root.titled(title, ("sans-serif", 15)).map_err(fail)?;
        let (left, right) = root.split_horizontally(420);
        draw_forest(&left, x_desc, rows, reference, false)?;
        for (area, panel) in right.split_evenly((hist_rows, columns)).iter().zip(panels) {
            draw_log_histogram(area, panel)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

fn draw_forest<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    x_desc: &str,
    rows: &[ForestRow],
    reference: f64,
    linear: bool,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    // A log₁₀ axis: the ratios of a study span orders of magnitude (λ from 1e-3 to 1); an
    // interval end at or below 0 is drawn to the axis's left edge. A linear axis (`linear`)
    // for differences, which change sign.
    let log = |v: f64| match linear {
        true => v.is_finite().then_some(v),
        false => (v > 0.0 && v.is_finite()).then(|| v.log10()),
    };
    let ends: Vec<f64> = rows
        .iter()
        .flat_map(|r| [log(r.value), log(r.lower), log(r.upper)])
        .flatten()
        .chain(log(reference))
        .collect();
    let lo = ends.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ends.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        let pad = 0.08 * (hi - lo).max(0.5);
        (lo - pad, hi + pad)
    } else {
        (-1.0, 1.0)
    };
    let n = rows.len().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(190)
        .build_cartesian_2d(lo..hi, -0.5..n - 0.5)
        .map_err(fail)?;
    let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_labels(5)
        .x_label_formatter(&|v: &f64| match linear {
            true => format!("{v:.2e}"),
            false => format!("{:.2e}", 10f64.powf(*v)),
        })
        .y_labels(rows.len().max(1))
        .y_label_formatter(&|y: &f64| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && i >= 0.0 {
                labels
                    .get(rows.len().saturating_sub(1 + i as usize))
                    .cloned()
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc(x_desc)
        .draw()
        .map_err(fail)?;
    if let Some(r) = log(reference) {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(r, -0.5), (r, n - 0.5)],
                5,
                3,
                RED.stroke_width(2),
            ))
            .map_err(fail)?;
    }
    for (k, row) in rows.iter().enumerate() {
        let y = n - 1.0 - k as f64;
        let Some(v) = log(row.value) else { continue };
        let a = log(row.lower).unwrap_or(lo).max(lo);
        let b = log(row.upper).unwrap_or(hi).min(hi);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(a, y), (b, y)],
                BLACK.stroke_width(2),
            )))
            .map_err(fail)?;
        chart
            .draw_series(std::iter::once(Circle::new((v, y), 4, BLACK.filled())))
            .map_err(fail)?;
    }
    Ok(())
}

fn draw_log_histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    panel: &HistogramPanel,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let logs: Vec<f64> = panel
        .values
        .iter()
        .filter(|v| **v > 0.0 && v.is_finite())
        .map(|v| v.log10())
        .collect();
    let marks: Vec<f64> = [panel.mean, panel.bound]
        .into_iter()
        .filter(|v| *v > 0.0 && v.is_finite())
        .map(f64::log10)
        .collect();
    let lo = logs
        .iter()
        .chain(&marks)
        .copied()
        .fold(f64::INFINITY, f64::min);
    let hi = logs
        .iter()
        .chain(&marks)
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (
            lo - 0.05 * (hi - lo).max(0.2),
            hi + 0.05 * (hi - lo).max(0.2),
        )
    } else {
        (-1.0, 1.0)
    };
    let bins = 30usize;
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0usize; bins];
    for &v in &logs {
        counts[(((v - lo) / width) as usize).min(bins - 1)] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 12))
        .margin(6)
        .x_label_area_size(26)
        .y_label_area_size(36)
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_labels(4)
        .y_labels(4)
        .x_label_formatter(&|v: &f64| format!("{:.2e}", 10f64.powf(*v)))
        .x_desc("cost up to stopping (log axis)")
        .draw()
        .map_err(fail)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(b, &c)| {
            let x0 = lo + b as f64 * width;
            Rectangle::new(
                [(x0, 0.0), (x0 + width, c as f64)],
                RGBColor(143, 179, 217).filled(),
            )
        }))
        .map_err(fail)?;
    if panel.mean > 0.0 && panel.mean.is_finite() {
        let m = panel.mean.log10();
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(m, 0.0), (m, top)],
                BLACK.stroke_width(2),
            )))
            .map_err(fail)?;
    }
    if panel.bound > 0.0 && panel.bound.is_finite() {
        let b = panel.bound.log10();
        chart
            .draw_series(DashedLineSeries::new(
                vec![(b, 0.0), (b, top)],
                5,
                3,
                RED.stroke_width(2),
            ))
            .map_err(fail)?;
    }
    Ok(())
}

/// A forest plot alone, on a log₁₀ axis or (`linear`) a linear one: one row per label with its
/// estimate and interval, a dashed red line at `reference` (none when it is not finite, or
/// not positive on a log axis).
pub fn interval_figure(
    title: &str,
    x_desc: &str,
    rows: &[ForestRow],
    reference: f64,
    linear: bool,
) -> Result<String, String> {
    let height = 60 + 26 * rows.len() as u32 + 40;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root.titled(title, ("sans-serif", 15)).map_err(fail)?;
        draw_forest(&root, x_desc, rows, reference, linear)?;
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

/// One line of a [`line_figure`] panel.
#[derive(Clone, Debug)]
pub struct LineSeries {
    /// Legend label.
    pub label: String,
    /// Index into the palette.
    pub color: usize,
    /// Drawn thick and opaque (otherwise thin and translucent).
    pub thick: bool,
    /// `(x, y)` points; a non-finite `y` breaks the line.
    pub points: Vec<(f64, f64)>,
}

/// One panel of a [`line_figure`].
#[derive(Clone, Debug)]
pub struct LinePanel {
    /// Panel title.
    pub title: String,
    /// The lines (same labels and order in every panel).
    pub series: Vec<LineSeries>,
}

/// Panels of lines on linear axes, a dashed red line at `y = reference`, the legend of the
/// first panel on the right: the stopping paper's Fig. 6 (a statistic per iteration, raw and
/// moving-averaged). Values below `floor` (when given) are drawn at the floor, so a statistic
/// that plunges (LogEIPC once `EI` underflows) does not flatten the rest.
pub fn line_figure(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    reference: f64,
    floor: Option<f64>,
    panels: &[LinePanel],
) -> Result<String, String> {
    let clipped: Vec<LinePanel>;
    let panels = match floor {
        None => panels,
        Some(floor) => {
            clipped = panels
                .iter()
                .map(|panel| LinePanel {
                    title: panel.title.clone(),
                    series: panel
                        .series
                        .iter()
                        .map(|s| LineSeries {
                            points: s
                                .points
                                .iter()
                                // NaN (no value) stays NaN and breaks the line.
                                .map(|&(x, y)| (x, if y.is_nan() { y } else { y.max(floor) }))
                                .collect(),
                            ..s.clone()
                        })
                        .collect(),
                })
                .collect();
            &clipped
        }
    };
    let mut svg = String::new();
    let width = 420 * panels.len().max(1) as u32 + 220;
    {
        let root = SVGBackend::with_string(&mut svg, (width, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root.titled(title, ("sans-serif", 16)).map_err(fail)?;
        let (plots, legend) = root.split_horizontally(width - 220);
        let areas = plots.split_evenly((1, panels.len().max(1)));
        for (area, panel) in areas.iter().zip(panels) {
            draw_line_panel(area, x_desc, y_desc, reference, panel)?;
        }
        if let Some(first) = panels.first() {
            let style = ("sans-serif", 13).into_font();
            for (k, series) in first.series.iter().enumerate() {
                let y = 40 + 18 * k as i32;
                let color = COLORS[series.color % COLORS.len()];
                let stroke = match series.thick {
                    true => color.stroke_width(3),
                    false => color.mix(0.5).stroke_width(1),
                };
                legend
                    .draw(&PathElement::new(vec![(8, y + 6), (28, y + 6)], stroke))
                    .map_err(fail)?;
                legend
                    .draw(&Text::new(series.label.clone(), (34, y), style.clone()))
                    .map_err(fail)?;
            }
        }
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

fn draw_line_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    x_desc: &str,
    y_desc: &str,
    reference: f64,
    panel: &LinePanel,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let finite = |&(x, y): &(f64, f64)| x.is_finite() && y.is_finite();
    let points = || {
        panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().filter(|p| finite(p)))
    };
    let (x_lo, x_hi) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (y_lo, y_hi) = points()
        .map(|p| p.1)
        .chain(reference.is_finite().then_some(reference))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    let (x_lo, x_hi) = match x_lo.is_finite() && x_hi > x_lo {
        true => (x_lo, x_hi),
        false => (0.0, 1.0),
    };
    let (y_lo, y_hi) = match y_lo.is_finite() && y_hi.is_finite() {
        true => {
            let pad = 0.05 * (y_hi - y_lo).max(1e-9);
            (y_lo - pad, y_hi + pad)
        }
        false => (-1.0, 1.0),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 14))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(56)
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        // Labels apart at any length of run; whole numbers when the axis counts steps.
        .x_labels(6)
        .x_label_formatter(&|v| match v.fract() == 0.0 {
            true => format!("{v:.0}"),
            false => format!("{v}"),
        })
        .draw()
        .map_err(fail)?;
    if reference.is_finite() {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x_lo, reference), (x_hi, reference)],
                5,
                3,
                RED.stroke_width(1),
            ))
            .map_err(fail)?;
    }
    for series in &panel.series {
        let color = COLORS[series.color % COLORS.len()];
        let stroke = match series.thick {
            true => color.stroke_width(2),
            false => color.mix(0.5).stroke_width(1),
        };
        // Finite stretches only: a NaN or an infinite value breaks the line.
        for segment in series.points.split(|p| !finite(p)) {
            if segment.len() > 1 {
                chart
                    .draw_series(std::iter::once(PathElement::new(segment.to_vec(), stroke)))
                    .map_err(fail)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forest_figure_names_every_row_and_draws_the_bound() {
        let rows = vec![
            ForestRow {
                label: "small λ".into(),
                value: 0.004,
                lower: 0.003,
                upper: 0.005,
            },
            ForestRow {
                label: "large λ".into(),
                value: 0.3,
                lower: -0.1,
                upper: 0.7,
            },
        ];
        let panels = vec![HistogramPanel {
            title: "panel one".into(),
            values: vec![1e-3, 2e-3, 0.5],
            mean: 0.1,
            bound: 1.5,
        }];
        let svg = forest_figure("title", "ratio", &rows, 1.0, &panels).unwrap();
        for text in ["small λ", "large λ", "panel one", "title", "ratio"] {
            assert!(svg.contains(text), "{text} missing");
        }
        // Both interval ends of an interval reaching below 0 still draw (clipped to the axis).
        assert!(svg.matches("<polyline").count() >= 2);
    }
}
