//! Plots of a results file (`benches/results/<date>-h200.csv`, written by `benches/join.py`):
//!
//! - `<stem>-sgemm.png`: sgemm TFLOP/s against n (square, `NN-C`): wgblas resident (GPU time),
//!   wgblas host form (wall time, where measured), cuBLAS and OpenBLAS;
//! - `<stem>-level1.png`: Level 1 GB/s against n, each routine beside its cuBLAS figure (points),
//!   and the device copy of the same bytes (black);
//! - `<stem>-level2.png`: sgemv GB/s against n in each layout, beside cuBLAS and the copy.
//!
//! Run: `cargo run --example plot_results -- benches/results/2026-11-30-h200.csv [--out-dir DIR]`
//! (the plots go next to the CSV by default). Text is drawn with the DejaVu Sans font shipped in
//! `examples/support/fonts/` (no system fonts, no fontconfig).

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

const FONT: &[u8] = include_bytes!("support/fonts/DejaVuSans.ttf");

/// One row of the results file (`benches/results/README.md`).
#[derive(Debug, Clone)]
struct Row {
    routine: String,
    shape: String,
    layout: String,
    form: String,
    metric: String,
    wgblas: f64,
    reference: String,
    reference_value: Option<f64>,
}

fn read_rows(path: &Path) -> Result<Vec<Row>, Box<dyn Error>> {
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header: Vec<String> = reader.headers()?.iter().map(str::to_string).collect();
    let expected = "routine,shape,layout,form,metric,wgblas,reference,reference_value,ratio";
    if header.join(",") != expected {
        return Err(format!("{}: header is not `{expected}`", path.display()).into());
    }
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let r = record?;
        let line = i + 2;
        let number = |s: &str| -> Result<f64, String> {
            s.parse::<f64>()
                .map_err(|e| format!("{}:{line}: {s:?}: {e}", path.display()))
        };
        rows.push(Row {
            routine: r[0].to_string(),
            shape: r[1].to_string(),
            layout: r[2].to_string(),
            form: r[3].to_string(),
            metric: r[4].to_string(),
            wgblas: number(&r[5])?,
            reference: r[6].to_string(),
            reference_value: if r[7].is_empty() {
                None
            } else {
                Some(number(&r[7])?)
            },
        });
    }
    Ok(rows)
}

/// n of a square Level 3 shape `NxNxN`, or of a square Level 2 shape `NxN`.
fn square(shape: &str) -> Option<f64> {
    let parts: Vec<&str> = shape.split('x').collect();
    let n = parts.first()?.parse::<f64>().ok()?;
    parts
        .iter()
        .all(|p| p.parse::<f64>().ok() == Some(n))
        .then_some(n)
}

/// n of a Level 1 shape `n=N`.
fn vector_len(shape: &str) -> Option<f64> {
    shape.strip_prefix("n=")?.parse().ok()
}

/// A named line: points (n, value), sorted by n, without repeats.
type Series = BTreeMap<String, BTreeMap<u64, f64>>;

fn add(series: &mut Series, name: &str, n: f64, value: f64) {
    series
        .entry(name.to_string())
        .or_default()
        .insert(n as u64, value);
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// Style of one series: (colour, solid line?). Names ending in " (cuBLAS)" are drawn as points
/// in the colour of the wgblas series they go with; "copy" is black.
fn style(name: &str, index: &BTreeMap<String, usize>) -> (RGBColor, bool) {
    if name.starts_with("device copy") {
        return (BLACK, true);
    }
    let base = name.trim_end_matches(" (cuBLAS)");
    let colour = PALETTE[index.get(base).copied().unwrap_or(0) % PALETTE.len()];
    (colour, !name.ends_with(" (cuBLAS)"))
}

fn plot(path: &Path, title: &str, y_label: &str, series: &Series) -> Result<bool, Box<dyn Error>> {
    // x is log2(n): one tick per power of two between the smallest and largest n.
    let points: Vec<(f64, f64)> = series
        .values()
        .flat_map(|s| s.iter().map(|(&n, &v)| ((n as f64).log2(), v)))
        .collect();
    if points.is_empty() {
        return Ok(false);
    }
    let x_min = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let x_max = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let y_max = points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.1;
    let ticks = (x_max.ceil() - x_min.floor()) as usize + 1;
    let (x_lo, x_hi) = (x_min - 0.35, x_max + 0.35);
    let root = BitMapBackend::new(path, (960, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("n")
        .y_desc(y_label)
        .x_labels(ticks)
        .x_label_formatter(&|x| format_n(*x))
        .label_style(("sans-serif", 15))
        .draw()?;
    let index: BTreeMap<String, usize> = series
        .keys()
        .filter(|k| !k.ends_with(" (cuBLAS)") && !k.starts_with("device copy"))
        .enumerate()
        .map(|(i, k)| (k.clone(), i))
        .collect();
    for (name, s) in series {
        let (colour, solid) = style(name, &index);
        let pts: Vec<(f64, f64)> = s.iter().map(|(&n, &v)| ((n as f64).log2(), v)).collect();
        if solid {
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(2))
                });
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        } else {
            chart
                .draw_series(
                    pts.iter()
                        .map(|&p| TriangleMarker::new(p, 6, colour.stroke_width(2))),
                )?
                .label(name.as_str())
                .legend(move |(x, y)| TriangleMarker::new((x + 11, y), 6, colour.stroke_width(2)));
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(true)
}

/// The label of tick x = log2(n): `4096`, or `2^20` from 2^14 up; none between powers of two.
fn format_n(x: f64) -> String {
    let k = x.round() as u32;
    if (x - x.round()).abs() > 1e-6 {
        String::new()
    } else if k >= 14 {
        format!("2^{k}")
    } else {
        format!("{}", 1u64 << k)
    }
}

fn sgemm_series(rows: &[Row]) -> Series {
    let mut s = Series::new();
    for r in rows
        .iter()
        .filter(|r| r.routine == "sgemm" && r.layout == "NN-C")
    {
        let Some(n) = square(&r.shape) else { continue };
        let flops = 2.0 * n * n * n;
        // wgblas's own rate, from its resident TFLOP/s rows or its host-form wall times
        match (r.form.as_str(), r.metric.as_str()) {
            ("resident", "TFLOP/s") => add(&mut s, "wgblas (GPU time)", n, r.wgblas),
            ("host", "TFLOP/s") => add(&mut s, "wgblas host form (wall)", n, r.wgblas),
            ("host", "ms") => add(&mut s, "wgblas host form (wall)", n, flops / r.wgblas / 1e9),
            _ => {}
        }
        let Some(v) = r.reference_value else { continue };
        let name = match r.reference.as_str() {
            "cublas" => "cuBLAS",
            "openblas" => "OpenBLAS",
            "torch-pinned" => "PyTorch host path (wall)",
            _ => continue,
        };
        match r.metric.as_str() {
            "TFLOP/s" => add(&mut s, name, n, v),
            "ms" => add(&mut s, name, n, flops / v / 1e9),
            _ => {}
        }
    }
    s
}

fn level1_series(rows: &[Row]) -> Series {
    let mut s = Series::new();
    for r in rows
        .iter()
        .filter(|r| r.form == "resident" && r.metric == "GB/s")
    {
        let Some(n) = vector_len(&r.shape) else {
            continue;
        };
        add(&mut s, &r.routine, n, r.wgblas);
        match (r.reference.as_str(), r.reference_value) {
            ("cublas", Some(v)) => add(&mut s, &format!("{} (cuBLAS)", r.routine), n, v),
            // the copy of scopy's bytes (read n, write n): the plain device copy of n elements
            ("copy-bandwidth", Some(v)) if r.routine == "scopy" => add(&mut s, "device copy", n, v),
            _ => {}
        }
    }
    s
}

fn level2_series(rows: &[Row]) -> Series {
    let mut s = Series::new();
    for r in rows
        .iter()
        .filter(|r| r.routine == "sgemv" && r.form == "resident" && r.metric == "GB/s")
    {
        let Some(n) = square(&r.shape) else { continue };
        let name = format!("sgemv {}", r.layout);
        add(&mut s, &name, n, r.wgblas);
        match (r.reference.as_str(), r.reference_value) {
            ("cublas", Some(v)) => add(&mut s, &format!("{name} (cuBLAS)"), n, v),
            ("copy-bandwidth", Some(v)) => add(&mut s, "device copy (same bytes)", n, v),
            _ => {}
        }
    }
    s
}

struct Args {
    csv: PathBuf,
    out_dir: Option<PathBuf>,
}

fn parse_args() -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let mut csv = None;
    let mut out_dir = None;
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("out-dir") => out_dir = Some(PathBuf::from(parser.value()?)),
            Long("help") | Short('h') => {
                println!("usage: plot_results RESULTS.csv [--out-dir DIR]");
                std::process::exit(0);
            }
            Value(v) if csv.is_none() => csv = Some(PathBuf::from(v)),
            _ => return Err(arg.unexpected()),
        }
    }
    let csv = csv.ok_or("missing the results file: plot_results RESULTS.csv [--out-dir DIR]")?;
    Ok(Args { csv, out_dir })
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = parse_args()?;
    register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "the shipped DejaVu Sans font could not be read")?;
    let rows = read_rows(&args.csv)?;
    let dir = match &args.out_dir {
        Some(d) => d.clone(),
        None => args.csv.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = args
        .csv
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("results");
    let plots = [
        (
            "sgemm",
            "sgemm, square n×n×n, NN, C order",
            "TFLOP/s",
            sgemm_series(&rows),
        ),
        (
            "level1",
            "Level 1, resident, against the device copy",
            "GB/s",
            level1_series(&rows),
        ),
        (
            "level2",
            "sgemv n×n, resident, against the device copy",
            "GB/s",
            level2_series(&rows),
        ),
    ];
    for (name, title, unit, series) in plots {
        let path = dir.join(format!("{stem}-{name}.png"));
        if plot(&path, title, unit, &series)? {
            println!("{}", path.display());
        } else {
            println!("{name}: no rows for this plot in {}", args.csv.display());
        }
    }
    Ok(())
}
