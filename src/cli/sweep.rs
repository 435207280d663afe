//! `warpdrill calc sweep coalescing|banks|occupancy --vary NAME=RANGE [--vary NAME=RANGE]`: one row per
//! point, each with the fields `calc … --json` prints for that point (without the per-lane and
//! per-segment lists) and the values varied.
//!
//! Coalescing and bank rows come from the engine's counting fast paths and are written straight to
//! the output (a 256 × 256 grid is 65 536 rows); occupancy rows are `calc occupancy --json`'s objects.

use super::{AccessSweepArgs, GranularityArg, OccupancySweepArgs, SweepCommand, SweepFlags, json};
use crate::engine::sweep::MAX_SWEEP_POINTS;
use crate::engine::{
    self, AccessParam, Arch, BankCounts, Carveout, CoalescingCounts, Granularity, KernelConfig,
    OccupancyCalculator, OccupancyParam, Op, SweepRange,
};
use crate::text::csv_field as csv_text;
use serde_json::{Map, Value};
use std::io::Write;

/// Why a sweep stopped: unusable flags (exit 2) or output that could not be written (exit 1).
#[derive(Debug)]
pub enum SweepError {
    /// A flag or a `--vary` that cannot be swept, with the reason.
    Input(String),
    /// Writing failed.
    Io(std::io::Error),
}

impl From<std::io::Error> for SweepError {
    fn from(e: std::io::Error) -> Self {
        SweepError::Io(e)
    }
}

impl From<String> for SweepError {
    fn from(message: String) -> Self {
        SweepError::Input(message)
    }
}

/// How rows are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Csv,
    Json,
}

impl SweepFlags {
    fn format(&self) -> Format {
        if self.csv {
            Format::Csv
        } else if self.json {
            Format::Json
        } else {
            Format::Text
        }
    }
}

/// Splits `NAME=RANGE` and reads the range.
fn split_vary(text: &str) -> Result<(&str, SweepRange), String> {
    let (name, range) = text
        .split_once('=')
        .ok_or_else(|| format!("--vary `{text}` must be NAME=START..END, e.g. stride=1..256"))?;
    let range = SweepRange::parse(range).map_err(|e| format!("--vary {name}: {e}"))?;
    Ok((name.trim(), range))
}

/// The parameters varied, one or two, distinct, with at most [`MAX_SWEEP_POINTS`] points in all.
fn varied<P: Copy + PartialEq>(
    flags: &SweepFlags,
    parse: impl Fn(&str) -> Option<P>,
    names: &str,
) -> Result<Vec<(P, SweepRange)>, String> {
    if flags.vary.len() > 2 {
        return Err(format!(
            "at most two --vary (a grid); got {}",
            flags.vary.len()
        ));
    }
    let mut params = Vec::new();
    for text in &flags.vary {
        let (name, range) = split_vary(text)?;
        let param =
            parse(name).ok_or_else(|| format!("cannot vary `{name}`: choose one of {names}"))?;
        if params.iter().any(|(p, _)| *p == param) {
            return Err(format!("`{name}` is varied twice"));
        }
        params.push((param, range));
    }
    let points: u128 = params.iter().map(|(_, r)| u128::from(r.len())).product();
    if points > u128::from(MAX_SWEEP_POINTS) {
        return Err(format!(
            "the sweep has {points} points; at most {MAX_SWEEP_POINTS} are computed"
        ));
    }
    Ok(params)
}

/// Every point of one or two ranges, the first varying slowest: `(values, …)`.
fn grid<P: Copy>(
    params: &[(P, SweepRange)],
    values: impl Fn(P, SweepRange) -> Vec<i64>,
) -> Vec<Vec<i64>> {
    let mut points: Vec<Vec<i64>> = vec![Vec::new()];
    for &(param, range) in params {
        let axis = values(param, range);
        points = points
            .into_iter()
            .flat_map(|point| {
                axis.iter().map(move |v| {
                    let mut next = point.clone();
                    next.push(*v);
                    next
                })
            })
            .collect();
    }
    points
}

/// Every point of a grid, one at a time (the first axis slowest), without listing them first.
struct Points<'a> {
    axes: &'a [Vec<i64>],
    at: Vec<usize>,
    done: bool,
}

impl<'a> Points<'a> {
    fn new(axes: &'a [Vec<i64>]) -> Self {
        Points {
            axes,
            at: vec![0; axes.len()],
            done: axes.iter().any(Vec::is_empty),
        }
    }
}

impl Iterator for Points<'_> {
    type Item = Vec<i64>;

    fn next(&mut self) -> Option<Vec<i64>> {
        if self.done {
            return None;
        }
        let point = self
            .at
            .iter()
            .zip(self.axes)
            .map(|(&i, axis)| axis[i])
            .collect();
        // Advance the last axis first, carrying into the ones before it.
        self.done = true;
        for (i, axis) in self.at.iter_mut().zip(self.axes).rev() {
            *i += 1;
            if *i < axis.len() {
                self.done = false;
                break;
            }
            *i = 0;
        }
        Some(point)
    }
}

/// Runs a sweep, writing its rows to `out`.
pub fn run(command: &SweepCommand, out: &mut impl Write) -> Result<(), SweepError> {
    match command {
        SweepCommand::Coalescing(args) => access_sweep(args, false, out),
        SweepCommand::Banks(args) => access_sweep(args, true, out),
        SweepCommand::Occupancy(args) => occupancy_sweep(args, out),
    }
}

fn access_sweep(
    args: &AccessSweepArgs,
    shared: bool,
    out: &mut impl Write,
) -> Result<(), SweepError> {
    let pattern = &args.pattern;
    let arch = Arch::parse(&pattern.arch).map_err(|e| e.to_string())?;
    let shape = pattern.shape()?;
    if shared && pattern.granularity.is_some() {
        return Err(SweepError::Input(
            "--granularity applies to `calc sweep coalescing` only".into(),
        ));
    }
    let granularity = match pattern.granularity {
        Some(GranularityArg::Sector) => Granularity::Sector,
        Some(GranularityArg::Line) => Granularity::Line,
        None => arch.granularity,
    };
    let names = "stride, offset, elem, struct_size, lanes, pitch";
    let params = varied(&args.sweep, AccessParam::parse, names)?;
    for (param, _) in &params {
        if !param.applies_to(&shape) {
            return Err(SweepError::Input(match param {
                AccessParam::Stride => {
                    "--vary stride needs an affine pattern (no --offsets, --struct-size or --pitch)"
                        .to_string()
                }
                other => format!(
                    "--vary {} does not apply to explicit --offsets",
                    other.key()
                ),
            }));
        }
    }
    let format = args.sweep.format();
    let keys: Vec<&str> = params.iter().map(|(p, _)| p.key()).collect();
    let fields = if shared {
        Counts::BANK_FIELDS.as_slice()
    } else {
        Counts::COALESCING_FIELDS.as_slice()
    };
    write_header(
        out,
        format,
        &keys,
        fields,
        arch,
        shared,
        granularity,
        pattern.op(),
    )?;
    let mut line = Vec::with_capacity(256);
    let mut first = true;
    for point in grid(&params, |p, r| p.values(r).collect()) {
        let mut shape = shape.clone();
        let mut counted = Ok(());
        for ((param, _), value) in params.iter().zip(&point) {
            counted = counted.and_then(|()| param.set(&mut shape, *value, arch.warp_size));
        }
        let access = shape.access_as(arch.warp_size, pattern.op());
        let row = if shared {
            counted
                .and_then(|()| engine::bank_counts(&access, arch))
                .map(Counts::Banks)
        } else {
            counted
                .and_then(|()| engine::coalesce_counts(&access, granularity))
                .map(Counts::Coalescing)
        };
        write_row(
            &mut line,
            format,
            &keys,
            &point,
            fields.len(),
            arch,
            &row,
            first,
        );
        first = false;
        out.write_all(&line)?;
    }
    if format == Format::Json {
        out.write_all(if first { b"[]\n" } else { b"\n]\n" })?;
    }
    out.flush()?;
    Ok(())
}

/// One point's counts.
enum Counts {
    Coalescing(CoalescingCounts),
    Banks(BankCounts),
}

/// One value of a row, written the same in JSON and CSV (text quoted in JSON only).
#[derive(Clone, Copy)]
enum Cell<'a> {
    Int(u64),
    Float(f64),
    Text(&'a str),
    Bool(bool),
}

impl Counts {
    /// The fields of a coalescing row, in print order (after the varied values).
    const COALESCING_FIELDS: [&'static str; 12] = [
        "kind",
        "arch",
        "op",
        "granularity",
        "active_lanes",
        "sectors",
        "lines",
        "transactions",
        "requests",
        "bytes_requested",
        "bytes_fetched",
        "efficiency",
    ];

    /// The fields of a banks row, in print order.
    const BANK_FIELDS: [&'static str; 10] = [
        "kind",
        "arch",
        "op",
        "wavefronts",
        "ideal_wavefronts",
        "bank_conflicts",
        "conflict_degree",
        "phase_lanes",
        "pair_merge",
        "broadcast",
    ];

    /// Every field's name and value, in print order: the one list JSON and CSV rows are written from.
    fn for_each_cell<'a>(&self, arch: &'a Arch, mut cell: impl FnMut(&'static str, Cell<'a>)) {
        use Cell::{Bool, Float, Int, Text};
        match self {
            Counts::Coalescing(c) => {
                let granularity = match c.granularity {
                    Granularity::Sector => "sector",
                    Granularity::Line => "line",
                };
                let values = [
                    Text("coalescing"),
                    Text(arch.key),
                    Text(c.op.key()),
                    Text(granularity),
                    Int(c.active_lanes.into()),
                    Int(c.sectors.into()),
                    Int(c.lines.into()),
                    Int(c.transactions().into()),
                    Int(c.requests.into()),
                    Int(c.bytes_requested),
                    Int(c.bytes_fetched),
                    Float(c.efficiency),
                ];
                for (name, value) in Self::COALESCING_FIELDS.into_iter().zip(values) {
                    cell(name, value);
                }
            }
            Counts::Banks(b) => {
                let values = [
                    Text("banks"),
                    Text(arch.key),
                    Text(b.op.key()),
                    Int(b.wavefronts.into()),
                    Int(b.ideal_wavefronts.into()),
                    Int(b.bank_conflicts.into()),
                    Float(b.conflict_degree),
                    Int(b.phase_lanes.into()),
                    Bool(b.merged),
                    Bool(b.broadcast),
                ];
                for (name, value) in Self::BANK_FIELDS.into_iter().zip(values) {
                    cell(name, value);
                }
            }
        }
    }
}

impl Cell<'_> {
    /// Appends the value; `quote` puts text in JSON quotes (the names written here need no escape).
    fn write(self, line: &mut Vec<u8>, quote: bool) {
        match self {
            Cell::Int(n) => line.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Cell::Float(x) => write_float(line, x),
            Cell::Text(text) if quote => {
                line.push(b'"');
                line.extend_from_slice(text.as_bytes());
                line.push(b'"');
            }
            Cell::Text(text) => line.extend_from_slice(text.as_bytes()),
            Cell::Bool(b) => line.extend_from_slice(if b { b"true" } else { b"false" }),
        }
    }
}

/// Writes the header: CSV column names, or the text title (`Shared-memory store on sm_90 …`) and
/// column heads; nothing for JSON.
#[allow(clippy::too_many_arguments)]
fn write_header(
    out: &mut impl Write,
    format: Format,
    keys: &[&str],
    fields: &[&str],
    arch: &Arch,
    shared: bool,
    granularity: Granularity,
    op: Op,
) -> std::io::Result<()> {
    match format {
        Format::Csv => {
            let mut header = keys.join(",");
            for field in fields {
                header.push(',');
                header.push_str(field);
            }
            header.push_str(",error\n");
            out.write_all(header.as_bytes())
        }
        Format::Json => Ok(()),
        Format::Text => {
            let what = if shared {
                format!("Shared-memory {}", op.key())
            } else {
                format!("Global {}, counted in {}", op.key(), granularity.plural())
            };
            let mut header = format!("{what} on {}\n", arch.label());
            for key in keys {
                header.push_str(&format!("{key:>12}"));
            }
            if shared {
                header.push_str("  wavefronts  ideal  conflicts  degree\n");
            } else {
                header.push_str("  sectors  lines  requests  fetched B  efficiency\n");
            }
            out.write_all(header.as_bytes())
        }
    }
}

/// Writes one row into `line` (`fields`: the number of columns a row has between the varied
/// values and the error; `first`: whether it is the first row, which opens a JSON array).
#[allow(clippy::too_many_arguments)]
fn write_row(
    line: &mut Vec<u8>,
    format: Format,
    keys: &[&str],
    point: &[i64],
    fields: usize,
    arch: &Arch,
    row: &engine::Result<Counts>,
    first: bool,
) {
    use std::io::Write as _;
    line.clear();
    let mut int = itoa::Buffer::new();
    match format {
        Format::Json => {
            line.extend_from_slice(if first { b"[\n{" } else { b",\n{" });
            for (key, value) in keys.iter().zip(point) {
                line.push(b'"');
                line.extend_from_slice(key.as_bytes());
                line.extend_from_slice(b"\":");
                line.extend_from_slice(int.format(*value).as_bytes());
                line.push(b',');
            }
            match row {
                Ok(counts) => {
                    let mut separator = "";
                    counts.for_each_cell(arch, |name, value| {
                        line.extend_from_slice(separator.as_bytes());
                        separator = ",";
                        line.push(b'"');
                        line.extend_from_slice(name.as_bytes());
                        line.extend_from_slice(b"\":");
                        value.write(line, true);
                    });
                }
                Err(e) => {
                    line.extend_from_slice(b"\"error\":");
                    let _ = serde_json::to_writer(&mut *line, &e.to_string());
                }
            }
            line.push(b'}');
        }
        Format::Csv => {
            for value in point {
                line.extend_from_slice(int.format(*value).as_bytes());
                line.push(b',');
            }
            match row {
                Ok(counts) => counts.for_each_cell(arch, |_, value| {
                    value.write(line, false);
                    line.push(b',');
                }),
                // Empty cells for the fields, then the reason.
                Err(e) => {
                    line.extend(std::iter::repeat_n(b',', fields));
                    line.extend_from_slice(csv_text(&e.to_string()).as_bytes());
                }
            }
            line.push(b'\n');
        }
        Format::Text => {
            for value in point {
                let _ = write!(line, "{value:>12}");
            }
            let _ = match row {
                Ok(Counts::Coalescing(c)) => writeln!(
                    line,
                    "  {:>7}  {:>5}  {:>8}  {:>9}  {:>10}",
                    c.sectors,
                    c.lines,
                    c.requests,
                    c.bytes_fetched,
                    crate::format::percent(c.efficiency)
                ),
                Ok(Counts::Banks(b)) => writeln!(
                    line,
                    "  {:>10}  {:>5}  {:>9}  {:>6}",
                    b.wavefronts,
                    b.ideal_wavefronts,
                    b.bank_conflicts,
                    format!("{}-way", crate::format::trim_float(b.conflict_degree, 2))
                ),
                Err(e) => writeln!(line, "  error: {e}"),
            };
        }
    }
}

/// A float as JSON writes it (the shortest text that reads back to the same number; `null` when
/// not finite).
fn write_float(line: &mut Vec<u8>, value: f64) {
    if value.is_finite() {
        line.extend_from_slice(ryu::Buffer::new().format_finite(value).as_bytes());
    } else {
        line.extend_from_slice(b"null");
    }
}

fn occupancy_sweep(args: &OccupancySweepArgs, out: &mut impl Write) -> Result<(), SweepError> {
    let kernel = &args.kernel;
    let arch = Arch::parse(&kernel.arch).map_err(|e| e.to_string())?;
    let names = "block_size, regs, smem, static_smem, carveout";
    let params = varied(&args.sweep, OccupancyParam::parse, names)?;
    let calculator = arch.nvidia.as_ref().map(OccupancyCalculator::new);
    let keys: Vec<&str> = params.iter().map(|(p, _)| p.key()).collect();
    let row_at = |point: &[i64]| -> Map<String, Value> {
        let mut config = KernelConfig {
            block_size: kernel.block_size,
            regs_per_thread: kernel.regs,
            static_smem: kernel.static_smem,
            dynamic_smem: kernel.smem,
            carveout: Carveout::Default,
        };
        let mut carveout = kernel.carveout;
        let mut set = Ok(());
        for ((param, _), value) in params.iter().zip(point) {
            if *param == OccupancyParam::Carveout {
                carveout = *value;
            } else {
                set = set.and_then(|()| param.set(&mut config, *value, arch));
            }
        }
        let answer: Result<Value, String> = set.map_err(|e| e.to_string()).and_then(|()| {
            if arch.amd.is_some() {
                let w =
                    engine::amd_waves(arch, config.regs_per_thread).map_err(|e| e.to_string())?;
                return Ok(json::amd_waves(arch, &w));
            }
            config.carveout = Carveout::from_pct(carveout).map_err(|e| e.to_string())?;
            let o = match &calculator {
                Some(calculator) => calculator.evaluate(&config),
                None => engine::occupancy(arch, &config),
            };
            o.map(|o| json::occupancy(arch, &o))
                .map_err(|e| e.to_string())
        });
        let mut row = Map::new();
        for (key, value) in keys.iter().zip(point) {
            row.insert((*key).to_string(), Value::from(*value));
        }
        match answer {
            Ok(Value::Object(fields)) => row.extend(fields),
            Ok(other) => {
                row.insert("value".into(), other);
            }
            Err(message) => {
                row.insert("error".into(), Value::String(message));
            }
        }
        row
    };
    let axes: Vec<Vec<i64>> = params.iter().map(|(_, r)| r.values().collect()).collect();
    // Rows are written as they are computed: a sweep of a million points holds one row at a time.
    let points = || Points::new(&axes);
    match args.sweep.format() {
        Format::Json => {
            out.write_all(b"[")?;
            for (i, point) in points().enumerate() {
                out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
                serde_json::to_writer(&mut *out, &Value::Object(row_at(&point)))
                    .map_err(std::io::Error::from)?;
            }
            out.write_all(b"\n]\n")?;
        }
        Format::Csv => {
            // The columns are those of the first row that has an answer (every answer of one
            // architecture has the same fields).
            let mut columns: Vec<String> = keys.iter().map(|k| (*k).to_string()).collect();
            if let Some(answered) = points()
                .map(|point| row_at(&point))
                .find(|row| !row.contains_key("error"))
            {
                for (name, _) in flatten(&answered) {
                    if !columns.contains(&name) {
                        columns.push(name);
                    }
                }
            }
            columns.push("error".into());
            writeln!(out, "{}", columns.join(","))?;
            for point in points() {
                let row = flatten(&row_at(&point));
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| {
                        row.iter()
                            .find(|(name, _)| name == c)
                            .map_or(String::new(), |(_, v)| csv_text(v))
                    })
                    .collect();
                writeln!(out, "{}", cells.join(","))?;
            }
        }
        Format::Text => {
            writeln!(out, "Occupancy on {}", arch.label())?;
            let mut header = String::new();
            for key in &keys {
                header.push_str(&format!("{key:>12}"));
            }
            writeln!(out, "{header}  blocks   warps  occupancy  limited by")?;
            for point in points() {
                let row = row_at(&point);
                let mut line = String::new();
                for key in &keys {
                    // `Value` ignores widths: pad its text.
                    line.push_str(&format!("{:>12}", row[*key].to_string()));
                }
                if let Some(Value::String(e)) = row.get("error") {
                    writeln!(out, "{line}  error: {e}")?;
                    continue;
                }
                let number = |name: &str| row.get(name).and_then(Value::as_f64).unwrap_or(0.0);
                let limited: Vec<String> = row
                    .get("limited_by")
                    .and_then(Value::as_array)
                    .map(|l| {
                        l.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                let (blocks, warps) = if arch.amd.is_some() {
                    (String::from("—"), format!("{}", number("waves_per_simd")))
                } else {
                    (
                        format!("{}", number("active_blocks_per_sm")),
                        format!("{}", number("active_warps_per_sm")),
                    )
                };
                writeln!(
                    out,
                    "{line}  {blocks:>6}  {warps:>6}  {:>9}  {}",
                    crate::format::percent(number("occupancy")),
                    limited.join(", ")
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// A row as `(column, cell)`: nested objects become dotted columns (`limits.warps`), lists join
/// with `+` (`registers+shared_memory`).
fn flatten(row: &Map<String, Value>) -> Vec<(String, String)> {
    fn walk(prefix: &str, value: &Value, cells: &mut Vec<(String, String)>) {
        match value {
            Value::Object(fields) => {
                for (name, value) in fields {
                    let name = if prefix.is_empty() {
                        name.clone()
                    } else {
                        format!("{prefix}.{name}")
                    };
                    walk(&name, value, cells);
                }
            }
            Value::Array(items) => {
                let text: Vec<String> = items
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .collect();
                cells.push((prefix.to_string(), text.join("+")));
            }
            Value::String(s) => cells.push((prefix.to_string(), s.clone())),
            other => cells.push((prefix.to_string(), other.to_string())),
        }
    }
    let mut cells = Vec::new();
    walk("", &Value::Object(row.clone()), &mut cells);
    cells
}
