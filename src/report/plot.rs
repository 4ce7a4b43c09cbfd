//! A small dependency-free SVG line chart: named series, shaded bands and labelled horizontal
//! reference lines, with "nice" axis ticks. Used for the SPRT picture and the tuner's loss curve.
//!
//! ```no_run
//! use sable_harness::report::plot::LineChart;
//! # fn main() -> Result<(), sable_harness::report::plot::ChartError> {
//! let chart = LineChart::new("Loss", "epoch", "MSE")
//!     .series("train", vec![(0.0, 0.10), (1.0, 0.08)])
//!     .ref_line(0.09, "baseline");
//! chart.write("loss.svg")?;
//! # Ok(())
//! # }
//! ```

use std::fmt::Write as _;
use std::path::Path;

/// Colours given to series (and bands) in order.
const PALETTE: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// Space around the plot area, in pixels: left, right, top, bottom.
const MARGIN: (f64, f64, f64, f64) = (72.0, 24.0, 56.0, 48.0);

/// One named polyline.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// (x, y) points in drawing order; points with a non-finite coordinate are skipped.
    pub points: Vec<(f64, f64)>,
}

/// A shaded area between a lower and an upper curve, e.g. a confidence interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Legend name.
    pub name: String,
    /// (x, low, high) points in increasing x; points with a non-finite value are skipped.
    pub points: Vec<(f64, f64, f64)>,
}

/// A labelled horizontal line across the whole plot (a bound, a target, a baseline).
#[derive(Debug, Clone, PartialEq)]
pub struct RefLine {
    /// Height of the line.
    pub y: f64,
    /// Text written above its right end.
    pub label: String,
}

/// A line chart; build it with the chained methods and write it with [`LineChart::write`] (or
/// several stacked in one picture with [`write_svg`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Title above the plot.
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// Lines, drawn over the bands.
    pub series: Vec<Series>,
    /// Shaded areas, drawn first.
    pub bands: Vec<Band>,
    /// Horizontal reference lines.
    pub ref_lines: Vec<RefLine>,
    /// Size of the picture in pixels (width, height); default 800 x 400.
    pub size: (f64, f64),
}

impl LineChart {
    /// An empty chart with a title and axis labels.
    pub fn new(title: &str, x_label: &str, y_label: &str) -> LineChart {
        LineChart {
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            series: Vec::new(),
            bands: Vec::new(),
            ref_lines: Vec::new(),
            size: (800.0, 400.0),
        }
    }

    /// Adds a named line.
    pub fn series(mut self, name: &str, points: Vec<(f64, f64)>) -> LineChart {
        self.series.push(Series {
            name: name.to_string(),
            points,
        });
        self
    }

    /// Adds a named shaded band of (x, low, high) points.
    pub fn band(mut self, name: &str, points: Vec<(f64, f64, f64)>) -> LineChart {
        self.bands.push(Band {
            name: name.to_string(),
            points,
        });
        self
    }

    /// Adds a labelled horizontal line at height `y`.
    pub fn ref_line(mut self, y: f64, label: &str) -> LineChart {
        self.ref_lines.push(RefLine {
            y,
            label: label.to_string(),
        });
        self
    }

    /// Sets the picture's size in pixels.
    pub fn size(mut self, width: f64, height: f64) -> LineChart {
        self.size = (width, height);
        self
    }

    /// The chart as a standalone SVG document.
    #[cfg(test)]
    pub fn to_svg(&self) -> String {
        stack_svg(std::slice::from_ref(self))
    }

    /// Writes the chart as an SVG file.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), ChartError> {
        write_svg(std::slice::from_ref(self), path)
    }

    /// Data ranges (x_min, x_max, y_min, y_max) over every finite value, never empty.
    fn ranges(&self) -> (f64, f64, f64, f64) {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for s in &self.series {
            for &(x, y) in s.points.iter().filter(|p| finite2(**p)) {
                xs.push(x);
                ys.push(y);
            }
        }
        for b in &self.bands {
            for &(x, lo, hi) in b.points.iter().filter(|p| finite3(**p)) {
                xs.push(x);
                ys.extend([lo, hi]);
            }
        }
        ys.extend(self.ref_lines.iter().map(|r| r.y).filter(|y| y.is_finite()));
        let (x0, x1) = widen(min_max(&xs));
        let (y0, y1) = widen(min_max(&ys));
        (x0, x1, y0, y1)
    }

    /// Draws the chart into `out` as a nested `<svg>` at vertical offset `top`.
    fn render_into(&self, out: &mut String, top: f64) {
        let (w, h) = self.size;
        let (ml, mr, mt, mb) = MARGIN;
        let (pw, ph) = (w - ml - mr, h - mt - mb);
        let (x0, x1, y0, y1) = self.ranges();
        let x_ticks = nice_ticks(x0, x1, 8);
        let y_ticks = nice_ticks(y0, y1, 6);
        // Axes span the outer ticks so every tick is on the plot.
        let (x0, x1) = (x0.min(x_ticks[0]), x1.max(*x_ticks.last().unwrap_or(&x1)));
        let (y0, y1) = (y0.min(y_ticks[0]), y1.max(*y_ticks.last().unwrap_or(&y1)));
        let sx = |x: f64| ml + (x - x0) / (x1 - x0) * pw;
        let sy = |y: f64| mt + (y1 - y) / (y1 - y0) * ph;
        let _ = writeln!(
            out,
            r#"<svg x="0" y="{top}" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="22" font-size="16" text-anchor="middle">{}</text>"#,
            w / 2.0,
            escape(&self.title)
        );
        self.draw_grid(out, &x_ticks, &y_ticks, (&sx, &sy));
        for (i, band) in self.bands.iter().enumerate() {
            draw_band(out, band, PALETTE[i % PALETTE.len()], (&sx, &sy));
        }
        draw_ref_lines(out, &self.ref_lines, &sy, (ml, ml + pw));
        for (i, s) in self.series.iter().enumerate() {
            let colour = PALETTE[(i + self.bands.len()) % PALETTE.len()];
            let pts: Vec<String> = s
                .points
                .iter()
                .filter(|p| finite2(**p))
                .map(|&(x, y)| format!("{:.2},{:.2}", sx(x), sy(y)))
                .collect();
            let _ = writeln!(
                out,
                r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
                pts.join(" ")
            );
        }
        self.draw_legend(out);
        let _ = writeln!(out, "</svg>");
    }

    /// Frame, grid lines, tick labels and axis labels.
    fn draw_grid(
        &self,
        out: &mut String,
        x_ticks: &[f64],
        y_ticks: &[f64],
        (sx, sy): (&dyn Fn(f64) -> f64, &dyn Fn(f64) -> f64),
    ) {
        let (w, h) = self.size;
        let (ml, mr, mt, mb) = MARGIN;
        let (right, bottom) = (w - mr, h - mb);
        let xd = decimals(x_ticks);
        for &t in x_ticks {
            let x = sx(t);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.2}" y1="{mt}" x2="{x:.2}" y2="{bottom}" stroke="#e5e5e5"/><text x="{x:.2}" y="{:.2}" text-anchor="middle">{t:.xd$}</text>"##,
                bottom + 16.0
            );
        }
        let yd = decimals(y_ticks);
        for &t in y_ticks {
            let y = sy(t);
            let _ = writeln!(
                out,
                r##"<line x1="{ml}" y1="{y:.2}" x2="{right}" y2="{y:.2}" stroke="#e5e5e5"/><text x="{:.2}" y="{:.2}" text-anchor="end">{t:.yd$}</text>"##,
                ml - 6.0,
                y + 4.0
            );
        }
        let _ = writeln!(
            out,
            r#"<rect x="{ml}" y="{mt}" width="{:.2}" height="{:.2}" fill="none" stroke="black"/>"#,
            right - ml,
            bottom - mt
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
            (ml + right) / 2.0,
            h - 8.0,
            escape(&self.x_label)
        );
        let (lx, ly) = (16.0, (mt + bottom) / 2.0);
        let _ = writeln!(
            out,
            r#"<text x="{lx}" y="{ly:.2}" text-anchor="middle" transform="rotate(-90 {lx} {ly:.2})">{}</text>"#,
            escape(&self.y_label)
        );
    }

    /// One row of colour swatches and names under the title.
    fn draw_legend(&self, out: &mut String) {
        let mut x = MARGIN.0;
        let y = 40.0;
        let names = self.bands.iter().map(|b| (&b.name, true));
        let names = names.chain(self.series.iter().map(|s| (&s.name, false)));
        for (i, (name, is_band)) in names.enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            if is_band {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.2}" y="{:.2}" width="20" height="10" fill="{colour}" fill-opacity="0.2"/>"#,
                    y - 9.0
                );
            } else {
                let _ = writeln!(
                    out,
                    r#"<line x1="{x:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{colour}" stroke-width="2"/>"#,
                    y - 4.0,
                    x + 20.0,
                    y - 4.0
                );
            }
            let _ = writeln!(
                out,
                r#"<text x="{:.2}" y="{y:.2}">{}</text>"#,
                x + 24.0,
                escape(name)
            );
            // Rough text width: sans-serif at 12 px averages about 7 px per character.
            x += 24.0 + 7.0 * name.chars().count() as f64 + 16.0;
        }
    }
}

/// Renders charts stacked vertically (each at its own size) into one SVG document.
pub fn stack_svg(charts: &[LineChart]) -> String {
    let width = charts.iter().map(|c| c.size.0).fold(0.0, f64::max);
    let height: f64 = charts.iter().map(|c| c.size.1).sum();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let mut top = 0.0;
    for c in charts {
        c.render_into(&mut out, top);
        top += c.size.1;
    }
    out.push_str("</svg>\n");
    out
}

/// Writes charts stacked vertically into one SVG file.
pub fn write_svg(charts: &[LineChart], path: impl AsRef<Path>) -> Result<(), ChartError> {
    let path = path.as_ref();
    std::fs::write(path, stack_svg(charts)).map_err(|source| ChartError {
        path: path.to_owned(),
        source,
    })
}

/// A chart that could not be written: the file, and the system's error as the source.
#[derive(Debug)]
pub struct ChartError {
    /// The SVG file.
    pub path: std::path::PathBuf,
    /// The system's error.
    pub source: std::io::Error,
}

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write chart {}", self.path.display())
    }
}

impl std::error::Error for ChartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Draws a band as a closed, translucent polygon (upper edge forward, lower edge back).
fn draw_band(
    out: &mut String,
    band: &Band,
    colour: &str,
    (sx, sy): (&dyn Fn(f64) -> f64, &dyn Fn(f64) -> f64),
) {
    let pts: Vec<(f64, f64, f64)> = band
        .points
        .iter()
        .copied()
        .filter(|p| finite3(*p))
        .collect();
    let upper = pts.iter().map(|&(x, _, hi)| (x, hi));
    let lower = pts.iter().rev().map(|&(x, lo, _)| (x, lo));
    let coords: Vec<String> = upper
        .chain(lower)
        .map(|(x, y)| format!("{:.2},{:.2}", sx(x), sy(y)))
        .collect();
    let _ = writeln!(
        out,
        r#"<polygon fill="{colour}" fill-opacity="0.2" stroke="none" points="{}"/>"#,
        coords.join(" ")
    );
}

/// Dashed reference lines with their labels; a label that would overlap one already placed
/// moves to the line's left end, then below the line.
fn draw_ref_lines(
    out: &mut String,
    lines: &[RefLine],
    sy: &dyn Fn(f64) -> f64,
    (left, right): (f64, f64),
) {
    // (is_left, text baseline) of the labels placed so far.
    let mut placed: Vec<(bool, f64)> = Vec::new();
    for r in lines.iter().filter(|r| r.y.is_finite()) {
        let y = sy(r.y);
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{y:.2}" x2="{right:.2}" y2="{y:.2}" stroke="#555" stroke-dasharray="6,4"/>"##
        );
        let candidates = [
            (false, y - 4.0),
            (true, y - 4.0),
            (false, y + 14.0),
            (true, y + 14.0),
        ];
        let free = |&(side, ty): &(bool, f64)| {
            placed
                .iter()
                .all(|&(s, t)| s != side || (t - ty).abs() >= 13.0)
        };
        let (is_left, ty) = candidates
            .iter()
            .copied()
            .find(free)
            .unwrap_or(candidates[0]);
        placed.push((is_left, ty));
        let (x, anchor) = if is_left {
            (left + 4.0, "start")
        } else {
            (right - 4.0, "end")
        };
        let _ = writeln!(
            out,
            r##"<text x="{x:.2}" y="{ty:.2}" text-anchor="{anchor}" fill="#555">{}</text>"##,
            escape(&r.label)
        );
    }
}

fn finite2((x, y): (f64, f64)) -> bool {
    x.is_finite() && y.is_finite()
}

fn finite3((x, a, b): (f64, f64, f64)) -> bool {
    x.is_finite() && a.is_finite() && b.is_finite()
}

fn min_max(v: &[f64]) -> Option<(f64, f64)> {
    let min = v.iter().copied().reduce(f64::min)?;
    let max = v.iter().copied().reduce(f64::max)?;
    Some((min, max))
}

/// A non-empty range: (0, 1) without data, +-1 around a single value.
fn widen(range: Option<(f64, f64)>) -> (f64, f64) {
    match range {
        None => (0.0, 1.0),
        Some((a, b)) if b - a <= f64::EPSILON * a.abs().max(1.0) => (a - 1.0, b + 1.0),
        Some(r) => r,
    }
}

/// About `target` round tick values (steps of 1, 2 or 5 times a power of ten) covering [lo, hi].
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let raw = (hi - lo) / target.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Decimals needed to print ticks at their spacing.
fn decimals(ticks: &[f64]) -> usize {
    match ticks {
        [a, b, ..] => (-(b - a).log10().floor()).max(0.0) as usize,
        _ => 0,
    }
}

/// Escapes text for SVG content and attributes.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Number of coordinate pairs in each `points="..."` attribute of `tag`.
    fn point_counts(svg: &str, tag: &str) -> Vec<usize> {
        svg.match_indices(&format!("<{tag} "))
            .map(|(i, _)| {
                let rest = &svg[i..];
                let start = rest.find("points=\"").unwrap() + 8;
                let end = start + rest[start..].find('"').unwrap();
                rest[start..end].split_whitespace().count()
            })
            .collect()
    }

    #[test]
    fn svg_has_every_series_band_and_label() {
        let chart = LineChart::new("Loss & <gain>", "epoch", "MSE")
            .series(
                "train",
                (0..50)
                    .map(|i| (i as f64, 1.0 / (1.0 + i as f64)))
                    .collect(),
            )
            .series("test", vec![(0.0, 0.9), (f64::NAN, 1.0), (49.0, 0.1)])
            .band("ci", vec![(0.0, 0.5, 0.9), (49.0, 0.0, 0.2)])
            .ref_line(0.25, "target");
        let svg = chart.to_svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<svg").count(), svg.matches("</svg>").count());
        assert_eq!(point_counts(&svg, "polyline"), vec![50, 2]);
        assert_eq!(point_counts(&svg, "polygon"), vec![4]);
        for text in [
            ">Loss &amp; &lt;gain&gt;<",
            ">epoch<",
            ">MSE<",
            ">train<",
            ">test<",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(svg.contains(">ci<") && svg.contains(">target<"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            nice_ticks(0.0, 10.0, 5),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        let t = nice_ticks(-2.94, 2.94, 6);
        assert_eq!((t[0], *t.last().unwrap()), (-3.0, 3.0));
        assert_eq!(decimals(&nice_ticks(0.0, 0.05, 5)), 2);
        assert_eq!(decimals(&nice_ticks(0.0, 5000.0, 5)), 0);
    }

    #[test]
    fn empty_and_flat_charts_render() {
        let svg = LineChart::new("empty", "x", "y").to_svg();
        assert!(!svg.contains("NaN") && svg.contains(">empty<"));
        let svg = LineChart::new("flat", "x", "y")
            .series("one", vec![(3.0, 7.0)])
            .to_svg();
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        assert_eq!(point_counts(&svg, "polyline"), vec![1]);
    }

    #[test]
    fn stacked_charts_share_one_document() {
        let a = LineChart::new("a", "x", "y").size(600.0, 300.0);
        let b = LineChart::new("b", "x", "y").size(800.0, 200.0);
        let svg = stack_svg(&[a, b]);
        assert!(svg.contains(r#"width="800" height="500""#));
        assert!(svg.contains(r#"<svg x="0" y="300""#));
        let path = std::env::temp_dir().join(format!("sable-plot-{}.svg", std::process::id()));
        LineChart::new("c", "x", "y").write(&path).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains(">c<"));
        let _ = std::fs::remove_file(&path);
        assert!(write_svg(&[], Path::new("/nonexistent/dir/x.svg")).is_err());
    }
}
