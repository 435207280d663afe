//! `warpdrill calc batch`: JSON lines in, one JSON answer line out per input line, in order.

use super::json;
use super::output::{self, OutputError};
use crate::engine::{
    self, AccessShape, Arch, Carveout, Granularity, KernelConfig, Op, TilingInput, WarpAccess,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use thiserror::Error;

/// The longest request line answered: longer lines get an error, and are skipped without being held
/// in memory whole.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why a batch stopped before its input ended.
#[derive(Debug, Error)]
pub enum BatchError {
    /// The requests could not be read.
    #[error("cannot read requests from stdin: {0}")]
    Read(io::Error),
    /// The answers could not be written.
    #[error(transparent)]
    Write(OutputError),
}

/// Reads requests from `input` until it ends, writing one answer line per input line. A blank line is
/// answered with `{}`; a line that is not UTF-8, is longer than [`MAX_LINE_BYTES`] or is not a valid request
/// is answered with `{"error": …}` and the batch goes on. A UTF-8 byte-order mark before the first
/// line is ignored. Fails only when reading or writing fails.
///
/// Answers are gathered in one buffer and written in pieces of about [`WRITE_CHUNK`] bytes; the
/// buffers for a line and its answer are reused from line to line.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> Result<(), BatchError> {
    let mut line = Vec::new();
    let mut answers: Vec<u8> = Vec::with_capacity(WRITE_CHUNK + 4096);
    let mut number = 0usize;
    let write_err = |e: io::Error| BatchError::Write(OutputError::from(e));
    while let Some(too_long) = read_line(&mut input, &mut line).map_err(BatchError::Read)? {
        number += 1;
        let mut bytes = line.as_slice();
        if number == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        if too_long {
            let answer = json!({ "error": format!("line {number} is longer than {} bytes; it was skipped", MAX_LINE_BYTES) });
            write_value(&mut answers, &answer);
        } else {
            match std::str::from_utf8(bytes) {
                // A blank line is answered too (with an empty object), so answers line up with lines.
                Ok(text) if text.trim().is_empty() => answers.extend_from_slice(b"{}\n"),
                Ok(text) => write_answer(&mut answers, text),
                Err(e) => write_value(
                    &mut answers,
                    &json!({
                        "error": format!("line {number} is not valid UTF-8 (bad byte at {}); it was skipped", e.valid_up_to())
                    }),
                ),
            }
        }
        if answers.len() >= WRITE_CHUNK {
            output.write_all(&answers).map_err(write_err)?;
            answers.clear();
        }
    }
    output.write_all(&answers).map_err(write_err)?;
    output.flush().map_err(write_err)
}

/// Answers are written to the output in pieces of about this many bytes.
const WRITE_CHUNK: usize = 64 * 1024;

/// Appends the answer to one request line, and its newline, to `out`: [`answer_line`]'s object,
/// byte for byte, with coalescing requests answered without building it.
pub fn write_answer(out: &mut Vec<u8>, line: &str) {
    if !fast::write_coalescing(out, line) {
        write_value(out, &answer_line(line));
    }
}

/// Appends `value` as one line of JSON.
fn write_value(out: &mut Vec<u8>, value: &Value) {
    // Writing a `Value` into memory cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
    out.push(b'\n');
}

/// `calc batch` on stdin and stdout: the exit status, with a closed stdout ending quietly.
pub fn run_stdio() -> ExitCode {
    // Stdout is line-buffered: one buffered writer over it writes whole pieces instead of a line
    // at a time.
    let stdin = io::stdin().lock();
    match run(
        io::BufReader::with_capacity(WRITE_CHUNK, stdin),
        io::BufWriter::with_capacity(WRITE_CHUNK, io::stdout().lock()),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(BatchError::Write(e)) => e.exit(0),
        Err(e @ BatchError::Read(_)) => {
            output::stderr(&format!("error: {e}\n"));
            ExitCode::from(1)
        }
    }
}

/// Reads the next line, without its `\n`, into `line`. Returns `None` at the end of input, else
/// whether the line was longer than [`MAX_LINE_BYTES`] (then `line` is left empty: the rest of it is
/// read and dropped piece by piece).
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let newline = buffer.iter().position(|&b| b == b'\n');
        let piece = &buffer[..newline.unwrap_or(buffer.len())];
        if !too_long {
            if line.len() + piece.len() > MAX_LINE_BYTES {
                too_long = true;
                *line = Vec::new();
            } else {
                line.extend_from_slice(piece);
            }
        }
        let used = newline.map_or(buffer.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(too_long));
        }
    }
}

/// The answer to one request line: the answer object, or `{"error": …}` (with the request's `id`
/// whenever it can be read, even from a line that is not valid as a whole).
pub fn answer_line(line: &str) -> Value {
    let request: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(e) => {
            let mut answer = json!({ "error": format!("not valid JSON: {e}") });
            if let Some(id) = scan_id(line) {
                answer["id"] = id;
            }
            return answer;
        }
    };
    let Value::Object(mut fields) = request else {
        return json!({ "error": "a request must be a JSON object with a \"kind\"" });
    };
    let id = fields.remove("id");
    let mut answer = match answer_request(fields) {
        Ok(answer) => answer,
        Err(message) => json!({ "error": message }),
    };
    if let Some(id) = id {
        answer["id"] = id;
    }
    answer
}

/// The top-level `"id"` of a request that does not parse as a whole (a number out of range, `NaN`,
/// nesting too deep elsewhere in it): found by a linear scan that skips strings and counts brackets.
/// Only a string, number, boolean or null id is read.
fn scan_id(line: &str) -> Option<Value> {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                if depth == 1 {
                    let mut next = end + 1;
                    while bytes.get(next).is_some_and(u8::is_ascii_whitespace) {
                        next += 1;
                    }
                    if bytes.get(next) == Some(&b':')
                        && serde_json::from_str::<String>(&line[i..=end]).is_ok_and(|k| k == "id")
                    {
                        next += 1;
                        while bytes.get(next).is_some_and(u8::is_ascii_whitespace) {
                            next += 1;
                        }
                        return scalar_at(&line[next..]);
                    }
                }
                i = end + 1;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Index of the quote that closes the string opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The JSON string, number, boolean or null at the start of `text`.
fn scalar_at(text: &str) -> Option<Value> {
    if text.starts_with('"') {
        let end = string_end(text.as_bytes(), 0)?;
        return serde_json::from_str(&text[..=end]).ok();
    }
    let end = text.find([',', '}', ']']).unwrap_or(text.len());
    serde_json::from_str::<Value>(text[..end].trim())
        .ok()
        .filter(|v| !v.is_object() && !v.is_array())
}

fn answer_request(mut fields: Map<String, Value>) -> Result<Value, String> {
    let kind = match fields.remove("kind") {
        Some(Value::String(kind)) => kind,
        Some(other) => return Err(format!("\"kind\" must be a string, got {other}")),
        None => {
            return Err(
                "missing \"kind\" (coalescing, banks, occupancy, tiling or roofline)".into(),
            );
        }
    };
    let object = Value::Object(fields);
    match kind.as_str() {
        "coalescing" => {
            let request: GeneralRequest = parse(object)?;
            let (arch, access) = request.access()?;
            let granularity = request.granularity(arch)?;
            let c = engine::coalesce(&access, granularity).map_err(|e| e.to_string())?;
            Ok(json::coalescing(arch, &c, false))
        }
        "banks" => {
            let request: GeneralRequest = parse(object)?;
            if request.granularity.is_some() {
                return Err("\"granularity\" applies to coalescing requests only".into());
            }
            let (arch, access) = request.access()?;
            let b = engine::bank_conflicts(&access, arch).map_err(|e| e.to_string())?;
            Ok(json::banks(arch, &b, false))
        }
        "occupancy" => {
            let request: OccupancyRequest = parse(object)?;
            request.answer()
        }
        "tiling" => {
            let request: TilingRequest = parse(object)?;
            let arch = request.arch.as_ref().map(|a| arch_of(a)).transpose()?;
            let input = TilingInput {
                n: request.n.unwrap_or(1024),
                tile: request.tile.unwrap_or(16),
                elem_bytes: request.elem_bytes.unwrap_or(4),
            };
            let t = engine::tiling(&input, arch, request.regs_per_thread.unwrap_or(32))
                .map_err(|e| e.to_string())?;
            Ok(json::tiling(&t))
        }
        "roofline" => {
            let request: RooflineRequest = parse(object)?;
            use crate::units::Quantity;
            let value = |real: &Option<Real>, kind, default| {
                real.as_ref().map_or(Ok(default), |r| r.value(kind))
            };
            let r = engine::roofline(
                value(&request.peak_flops, Quantity::FlopRate, 67e12)?,
                value(&request.peak_bandwidth, Quantity::ByteRate, 4.8e12)?,
                value(&request.intensity, Quantity::Intensity, 0.25)?,
            )
            .map_err(|e| e.to_string())?;
            Ok(json::roofline(&r))
        }
        other => Err(format!(
            "unknown kind \"{other}\" (coalescing, banks, occupancy, tiling or roofline)"
        )),
    }
}

fn parse<T: for<'de> Deserialize<'de>>(object: Value) -> Result<T, String> {
    serde_json::from_value(object).map_err(|e| e.to_string())
}

fn arch_of(value: &Value) -> Result<&'static Arch, String> {
    let name = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => {
            return Err(format!(
                "architecture must be a string such as \"sm_90\", got {other}"
            ));
        }
    };
    Arch::parse(&name).map_err(|e| e.to_string())
}

/// An active mask: `"0xffffffff"` or an integer.
#[derive(Deserialize)]
#[serde(untagged)]
enum Mask {
    Number(u64),
    Text(String),
}

impl Mask {
    fn value(&self) -> Result<u64, String> {
        match self {
            Mask::Number(n) => Ok(*n),
            Mask::Text(text) => super::parse_mask(text),
        }
    }
}

/// A size in bytes: a number, or text the one value parser reads (`"24K"`, `"48 KB"`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Size {
    Number(u64),
    Text(String),
}

impl Size {
    fn bytes(&self, name: &str) -> Result<u32, String> {
        let bytes = match self {
            Size::Number(n) => *n,
            Size::Text(text) => crate::units::parse_bytes(text).map_err(|e| e.to_string())?,
        };
        u32::try_from(bytes).map_err(|_| format!("\"{name}\" is more than 4 GiB"))
    }
}

/// A positive real: a number, or text with its unit (`"67T"`, `"4.8 TB/s"`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Real {
    Number(f64),
    Text(String),
}

impl Real {
    fn value(&self, kind: crate::units::Quantity) -> Result<f64, String> {
        match self {
            Real::Number(n) => Ok(*n),
            Real::Text(text) => crate::units::parse_positive(text, kind).map_err(|e| e.to_string()),
        }
    }
}

/// An access request: the fields and defaults of `calc coalescing` / `calc banks`, under their JSON
/// names or their flags' names (`stride_elems` or `stride`, `elem_bytes` or `elem`, …).
///
/// Read two ways with the same fields: from a request object whose `kind` and `id` were taken out
/// (`GeneralRequest`: any JSON in `arch`, owned text), and straight from the line on the fast path
/// (`fast::Request`: `kind` and `id` in it, text borrowed from the line).
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    bound(
        deserialize = "A: Deserialize<'de>, M: Deserialize<'de>, S: Deserialize<'de>, I: Deserialize<'de>"
    )
)]
struct AccessRequest<A, M, S, I> {
    /// Only on the fast path (the general path reads it before).
    #[serde(default)]
    kind: Option<S>,
    /// Only on the fast path; `null` is an id too.
    #[serde(default, deserialize_with = "present")]
    id: Option<I>,
    arch: Option<A>,
    #[serde(alias = "elem")]
    elem_bytes: Option<u32>,
    #[serde(alias = "offsets")]
    offsets_bytes: Option<Vec<i64>>,
    #[serde(alias = "stride")]
    stride_elems: Option<i64>,
    #[serde(alias = "offset")]
    offset_elems: Option<i64>,
    #[serde(alias = "base")]
    base_bytes: Option<i64>,
    #[serde(alias = "struct_bytes")]
    struct_size: Option<i64>,
    field_offset: Option<i64>,
    #[serde(alias = "pitch_bytes")]
    pitch: Option<i64>,
    walk: Option<S>,
    #[serde(alias = "mask")]
    active_mask: Option<M>,
    granularity: Option<S>,
    /// `"load"` (the default) or `"store"`: the same sectors; 8- and 16-byte shared stores never
    /// pair-merge. Echoed in the answer.
    op: Option<S>,
}

/// An access request read from a request object.
type GeneralRequest = AccessRequest<Value, Mask, String, Value>;

/// A field that is present, `null` included (a plain `Option` reads `null` as absent).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// An `arch` field: any JSON value, or text borrowed from the line.
trait ArchField {
    fn arch(&self) -> Result<&'static Arch, String>;
}

impl ArchField for Value {
    fn arch(&self) -> Result<&'static Arch, String> {
        arch_of(self)
    }
}

impl ArchField for &str {
    fn arch(&self) -> Result<&'static Arch, String> {
        Arch::parse(self).map_err(|e| e.to_string())
    }
}

/// An `active_mask` field.
trait MaskField {
    fn mask(&self) -> Result<u64, String>;
}

impl MaskField for Mask {
    fn mask(&self) -> Result<u64, String> {
        self.value()
    }
}

impl<A: ArchField, M: MaskField, S: AsRef<str>, I> AccessRequest<A, M, S, I> {
    fn access(&self) -> Result<(&'static Arch, WarpAccess), String> {
        let arch = match &self.arch {
            Some(value) => value.arch()?,
            None => Arch::default_arch(),
        };
        let shapes = [
            self.offsets_bytes.is_some(),
            self.struct_size.is_some(),
            self.pitch.is_some(),
        ];
        if shapes.iter().filter(|s| **s).count() > 1 {
            return Err(
                "give one of \"offsets_bytes\", \"struct_size\" or \"pitch\", not several".into(),
            );
        }
        if self.offsets_bytes.is_some()
            && (self.stride_elems.is_some()
                || self.offset_elems.is_some()
                || self.base_bytes.is_some())
        {
            return Err(
                "\"stride_elems\", \"offset_elems\" and \"base_bytes\" do not go with \"offsets_bytes\"".into(),
            );
        }
        if self.field_offset.is_some() && self.struct_size.is_none() {
            return Err("\"field_offset\" goes with \"struct_size\"".into());
        }
        let column = match self.walk.as_ref().map(AsRef::as_ref) {
            None | Some("row") => false,
            Some("column") => true,
            Some(other) => {
                return Err(format!(
                    "walk must be \"row\" or \"column\", got \"{other}\""
                ));
            }
        };
        if self.walk.is_some() && self.pitch.is_none() {
            return Err("\"walk\" goes with \"pitch\"".into());
        }
        let shape = AccessShape {
            elem_bytes: self.elem_bytes.unwrap_or(4),
            stride: self.stride_elems.unwrap_or(1),
            offset: self.offset_elems.unwrap_or(0),
            base: self.base_bytes.unwrap_or(0),
            struct_size: self.struct_size,
            field_offset: self.field_offset.unwrap_or(0),
            pitch: self.pitch,
            column,
            offsets: self.offsets_bytes.clone(),
            mask: self.active_mask.as_ref().map(M::mask).transpose()?,
        };
        Ok((arch, shape.access_as(arch.warp_size, self.op()?)))
    }

    /// The operation asked for: a load unless `op` says `"store"`.
    fn op(&self) -> Result<Op, String> {
        match self.op.as_ref().map(AsRef::as_ref) {
            None | Some("load") => Ok(Op::Load),
            Some("store") => Ok(Op::Store),
            Some(other) => Err(format!("op must be \"load\" or \"store\", got \"{other}\"")),
        }
    }

    /// The fetch unit asked for: the architecture's unless `granularity` names one.
    fn granularity(&self, arch: &Arch) -> Result<Granularity, String> {
        match self.granularity.as_ref().map(AsRef::as_ref) {
            None => Ok(arch.granularity),
            Some("sector") => Ok(Granularity::Sector),
            Some("line") => Ok(Granularity::Line),
            Some(other) => Err(format!(
                "granularity must be \"sector\" or \"line\", got \"{other}\""
            )),
        }
    }
}

/// The fast path for coalescing requests: the request read straight from the line into typed
/// fields (text borrowed, no `Value`), counted without the segment list, the answer written
/// field by field. Whatever it does not take the general path answers — a line that is not a
/// plain coalescing request, an `id` other than an integer, a string without escapes, `true`,
/// `false` or `null`, an `arch` that is not plain text, any error — so every answer is the same,
/// byte for byte, as the general path's.
mod fast {
    use super::{AccessRequest, MaskField};
    use crate::engine::{self, CoalescingCounts, Granularity};
    use serde::Deserialize;
    use serde::de::{self, Deserializer, Visitor};
    use std::fmt;

    /// An access request read from the line.
    type Request<'a> = AccessRequest<&'a str, Mask<'a>, &'a str, Id<'a>>;

    /// An `active_mask`: a number, or text borrowed from the line.
    #[derive(Deserialize)]
    #[serde(untagged)]
    pub(super) enum Mask<'a> {
        Number(u64),
        Text(&'a str),
    }

    impl MaskField for Mask<'_> {
        fn mask(&self) -> Result<u64, String> {
            match self {
                Mask::Number(n) => Ok(*n),
                Mask::Text(text) => crate::cli::parse_mask(text),
            }
        }
    }

    /// An `id` the fast path echoes itself.
    pub(super) enum Id<'a> {
        Null,
        Bool(bool),
        Unsigned(u64),
        Signed(i64),
        /// Text without escapes (so it is written back as it was read).
        Text(&'a str),
    }

    impl<'de> Deserialize<'de> for Id<'de> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct IdVisitor;
            impl<'de> Visitor<'de> for IdVisitor {
                type Value = Id<'de>;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an integer, a string without escapes, a boolean or null")
                }
                fn visit_unit<E: de::Error>(self) -> Result<Id<'de>, E> {
                    Ok(Id::Null)
                }
                fn visit_bool<E: de::Error>(self, v: bool) -> Result<Id<'de>, E> {
                    Ok(Id::Bool(v))
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> Result<Id<'de>, E> {
                    Ok(Id::Unsigned(v))
                }
                fn visit_i64<E: de::Error>(self, v: i64) -> Result<Id<'de>, E> {
                    Ok(Id::Signed(v))
                }
                fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Id<'de>, E> {
                    Ok(Id::Text(v))
                }
            }
            deserializer.deserialize_any(IdVisitor)
        }
    }

    /// Appends the answer to `line` if it is a coalescing request the fast path takes; `false`
    /// (and nothing appended) otherwise.
    pub(super) fn write_coalescing(out: &mut Vec<u8>, line: &str) -> bool {
        let Ok(request) = serde_json::from_str::<Request>(line) else {
            return false;
        };
        if request.kind != Some("coalescing") {
            return false;
        }
        let Ok((arch, access)) = request.access() else {
            return false;
        };
        let Ok(granularity) = request.granularity(arch) else {
            return false;
        };
        let Ok(counts) = engine::coalesce_counts(&access, granularity) else {
            return false;
        };
        write_counts(out, arch.key, &counts, request.id.as_ref());
        true
    }

    /// `json::coalescing(…, false)` with the id added, as `serde_json` writes it: keys in order.
    fn write_counts(out: &mut Vec<u8>, arch: &str, c: &CoalescingCounts, id: Option<&Id>) {
        let mut int = itoa::Buffer::new();
        let mut float = ryu::Buffer::new();
        out.extend_from_slice(b"{\"active_lanes\":");
        out.extend_from_slice(int.format(c.active_lanes).as_bytes());
        out.extend_from_slice(b",\"arch\":");
        // Architecture keys are plain ASCII (`sm_90`); written as JSON writes any string.
        let _ = serde_json::to_writer(&mut *out, arch);
        out.extend_from_slice(b",\"bytes_fetched\":");
        out.extend_from_slice(int.format(c.bytes_fetched).as_bytes());
        out.extend_from_slice(b",\"bytes_requested\":");
        out.extend_from_slice(int.format(c.bytes_requested).as_bytes());
        out.extend_from_slice(b",\"efficiency\":");
        // `serde_json` writes a finite float with `ryu` (`1.0`, `0.8`); the efficiency is finite.
        if c.efficiency.is_finite() {
            out.extend_from_slice(float.format_finite(c.efficiency).as_bytes());
        } else {
            out.extend_from_slice(b"null");
        }
        out.extend_from_slice(match c.granularity {
            Granularity::Sector => b",\"granularity\":\"sector\"",
            Granularity::Line => b",\"granularity\":\"line\"",
        });
        if let Some(id) = id {
            out.extend_from_slice(b",\"id\":");
            match id {
                Id::Null => out.extend_from_slice(b"null"),
                Id::Bool(true) => out.extend_from_slice(b"true"),
                Id::Bool(false) => out.extend_from_slice(b"false"),
                Id::Unsigned(n) => out.extend_from_slice(int.format(*n).as_bytes()),
                Id::Signed(n) => out.extend_from_slice(int.format(*n).as_bytes()),
                Id::Text(text) => {
                    let _ = serde_json::to_writer(&mut *out, text);
                }
            }
        }
        out.extend_from_slice(b",\"kind\":\"coalescing\",\"lines\":");
        out.extend_from_slice(int.format(c.lines).as_bytes());
        out.extend_from_slice(match c.op {
            engine::Op::Load => b",\"op\":\"load\"",
            engine::Op::Store => b",\"op\":\"store\"",
        });
        out.extend_from_slice(b",\"requests\":");
        out.extend_from_slice(int.format(c.requests).as_bytes());
        out.extend_from_slice(b",\"sectors\":");
        out.extend_from_slice(int.format(c.sectors).as_bytes());
        out.extend_from_slice(b",\"transactions\":");
        out.extend_from_slice(int.format(c.transactions()).as_bytes());
        out.extend_from_slice(b"}\n");
    }
}

/// An occupancy request: the fields and defaults of `calc occupancy` (256 threads, 32 registers).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OccupancyRequest {
    arch: Option<Value>,
    cc: Option<Value>,
    block_size: Option<u32>,
    #[serde(alias = "regs")]
    regs_per_thread: Option<u32>,
    static_smem: Option<Size>,
    #[serde(alias = "smem")]
    dynamic_smem: Option<Size>,
    #[serde(alias = "carveout")]
    carveout_pct: Option<i64>,
}

impl OccupancyRequest {
    fn answer(&self) -> Result<Value, String> {
        let arch = match (&self.arch, &self.cc) {
            (Some(_), Some(_)) => return Err("give \"arch\" or \"cc\", not both".into()),
            (Some(value), None) | (None, Some(value)) => arch_of(value)?,
            (None, None) => Arch::default_arch(),
        };
        let regs = self.regs_per_thread.unwrap_or(32);
        if arch.amd.is_some() {
            // Waves per SIMD follow from VGPRs alone; a block size, if given, is not needed.
            let w = engine::amd_waves(arch, regs).map_err(|e| e.to_string())?;
            return Ok(json::amd_waves(arch, &w));
        }
        let smem = |size: &Option<Size>, name| size.as_ref().map_or(Ok(0), |s| s.bytes(name));
        let config = KernelConfig {
            block_size: self.block_size.unwrap_or(256),
            regs_per_thread: regs,
            static_smem: smem(&self.static_smem, "static_smem")?,
            dynamic_smem: smem(&self.dynamic_smem, "dynamic_smem")?,
            carveout: Carveout::from_pct(self.carveout_pct.unwrap_or(-1))
                .map_err(|e| e.to_string())?,
        };
        let o = engine::occupancy(arch, &config).map_err(|e| e.to_string())?;
        Ok(json::occupancy(arch, &o))
    }
}

/// A tiling request: the fields and defaults of `calc tiling` (N 1024, tile 16, 4-byte elements,
/// 32 registers).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TilingRequest {
    n: Option<u64>,
    tile: Option<u64>,
    #[serde(alias = "elem")]
    elem_bytes: Option<u32>,
    arch: Option<Value>,
    #[serde(alias = "regs")]
    regs_per_thread: Option<u32>,
}

/// A roofline request: the fields and defaults of `calc roofline` (67 TFLOP/s, 4.8 TB/s, 0.25).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RooflineRequest {
    peak_flops: Option<Real>,
    #[serde(alias = "bandwidth")]
    peak_bandwidth: Option<Real>,
    intensity: Option<Real>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Value {
        answer_line(line)
    }

    #[test]
    fn coalescing_and_banks_requests() {
        let c = answer(
            r#"{"kind":"coalescing","elem_bytes":4,"stride_elems":1,"offset_elems":1,"id":7}"#,
        );
        assert_eq!(c["sectors"], 5);
        assert_eq!(c["id"], 7);
        let lines = answer(
            r#"{"kind":"coalescing","elem_bytes":4,"stride_elems":1,"base_bytes":64,"granularity":"line"}"#,
        );
        assert_eq!(
            (lines["lines"].as_u64(), lines["bytes_fetched"].as_u64()),
            (Some(2), Some(256))
        );
        let b = answer(
            r#"{"kind":"banks","elem_bytes":4,"stride_elems":2,"active_mask":"0x0000ffff"}"#,
        );
        assert_eq!(b["wavefronts"], 1);
        assert_eq!(b["bank_of_lane"][15], 30);
        assert_eq!(b["bank_of_lane"][16], Value::Null);
        let explicit =
            answer(r#"{"kind":"banks","elem_bytes":4,"offsets_bytes":[0,128],"active_mask":3}"#);
        assert_eq!(explicit["wavefronts"], 2);
    }

    /// The general path's answer line, as `run` wrote every answer before the fast path.
    fn general(line: &str) -> Vec<u8> {
        let mut out = serde_json::to_vec(&answer_line(line)).unwrap();
        out.push(b'\n');
        out
    }

    #[test]
    fn the_fast_path_writes_what_the_general_path_writes() {
        let mut lines: Vec<String> = Vec::new();
        let ids = [
            "",
            r#""id":7,"#,
            r#""id":-3,"#,
            r#""id":"row 4","#,
            r#""id":"café","#,
            r#""id":null,"#,
            r#""id":true,"#,
            r#""id":18446744073709551615,"#,
            // Not taken by the fast path: escapes, floats, objects.
            r#""id":"a\"b","#,
            r#""id":2.5,"#,
            r#""id":{"b":1,"a":2},"#,
        ];
        for (i, id) in ids.iter().enumerate() {
            for elem in [1, 2, 4, 8, 16, 3] {
                for stride in [-33i64, -1, 0, 1, 2, 3, 32, 33, 1024] {
                    let offset = (i as i64 * 7 + stride) % 64;
                    lines.push(format!(
                        r#"{{{id}"kind":"coalescing","elem_bytes":{elem},"stride_elems":{stride},"offset_elems":{offset}}}"#
                    ));
                }
            }
        }
        for tail in [
            r#""stride":2,"granularity":"line""#,
            r#""granularity":"byte""#,
            r#""mask":"first20","elem":8"#,
            r#""active_mask":"0x0000ffff","base":100"#,
            r#""active_mask":0"#,
            r#""mask":3,"offsets":[0,128,4]"#,
            r#""offsets_bytes":[0,4],"stride":1"#,
            r#""struct_size":12,"field_offset":4"#,
            r#""struct_size":2"#,
            r#""pitch":4096,"walk":"column""#,
            r#""pitch":4096,"walk":"diagonal""#,
            r#""arch":"sm_80""#,
            r#""arch":"gfx942","stride":3"#,
            r#""arch":"sm_35""#,
            r#""arch":9.0"#,
            r#""arch":"nope""#,
            r#""stride":1,"stride_elems":2"#,
            r#""stride":-0"#,
            r#""stride":1.0"#,
            r#""stride":9223372036854775807"#,
            r#""strde":1"#,
            r#""elem":4,"kind":"banks""#,
        ] {
            lines.push(format!(r#"{{"id":1,"kind":"coalescing",{tail}}}"#));
            lines.push(format!(r#"{{ "kind" : "coalescing" , {tail} }}  "#));
        }
        lines.push(r#"{"kind":"coalescing"} x"#.into());
        lines.push(r#"{"kind":"coalescing","id":1,"id":2}"#.into());
        let mut fast = 0;
        for line in &lines {
            let mut out = Vec::new();
            write_answer(&mut out, line);
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&general(line)),
                "{line}"
            );
            fast += usize::from(fast::write_coalescing(&mut Vec::new(), line));
        }
        // Most plain requests take the fast path (else this compares the general path with itself).
        assert!(fast > lines.len() / 2, "{fast} of {} lines", lines.len());
        assert!(fast::write_coalescing(
            &mut Vec::new(),
            r#"{"id":1,"kind":"coalescing","elem_bytes":4,"stride_elems":2}"#
        ));
    }

    #[test]
    fn occupancy_tiling_roofline_requests() {
        let o = answer(r#"{"kind":"occupancy","cc":"9.0","block_size":256,"regs_per_thread":48}"#);
        assert_eq!(o["active_blocks_per_sm"], 5);
        assert_eq!(o["occupancy"], 0.625);
        assert_eq!(o["limited_by"], json!(["registers"]));
        assert_eq!(o["limits"]["warps"], 8);
        let numeric_cc =
            answer(r#"{"kind":"occupancy","cc":8.6,"block_size":256,"regs_per_thread":0}"#);
        assert_eq!(numeric_cc["max_warps_per_sm"], 48);
        let t = answer(r#"{"kind":"tiling","n":1024,"tile":16,"elem_bytes":4,"arch":"sm_90"}"#);
        assert_eq!(t["reduction_factor"], 16.0);
        assert_eq!(t["blocks_per_sm"], 8);
        assert_eq!(
            t["smem_blocks_per_sm"], 76,
            "2 KB + the 1 KB reserve per block"
        );
        let r =
            answer(r#"{"kind":"roofline","peak_flops":1e12,"peak_bandwidth":1e11,"intensity":20}"#);
        assert_eq!(r["bound"], "compute");
        assert_eq!(r["ridge_intensity"], 10.0);
    }

    #[test]
    fn bad_lines_get_an_error_and_keep_their_id() {
        for line in [
            "not json",
            "[1,2]",
            r#"{"kind":"warp"}"#,
            r#"{"kind":"coalescing","elem_bytes":3,"stride_elems":1}"#,
            r#"{"kind":"coalescing","offsets_bytes":[0],"stride_elems":1}"#,
            r#"{"kind":"occupancy","block_size":0,"regs_per_thread":32}"#,
            r#"{"kind":"occupancy","smem":"2 Kb"}"#,
            r#"{"kind":"coalescing","elem_bytes":4,"stride_elems":1,"strde":2}"#,
        ] {
            let a = answer(line);
            assert!(a["error"].is_string(), "{line} → {a}");
        }
        let a =
            answer(r#"{"id":"row-3","kind":"occupancy","block_size":2048,"regs_per_thread":32}"#);
        assert_eq!(a["id"], "row-3");
        assert!(a["error"].as_str().unwrap().contains("block size"));
    }

    #[test]
    fn batch_answers_in_order_and_goes_on_after_errors() {
        let input = "{\"kind\":\"roofline\",\"peak_flops\":1,\"peak_bandwidth\":1,\"intensity\":2,\"id\":1}\n\
                     garbage\n\n{\"kind\":\"roofline\",\"peak_flops\":1,\"peak_bandwidth\":1,\"intensity\":0.5,\"id\":2}\n";
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        let lines: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4, "every input line gets its answer line");
        assert_eq!(lines[0]["id"], 1);
        assert!(lines[1]["error"].is_string());
        assert_eq!(
            lines[2],
            json!({}),
            "a blank line is answered with an empty object"
        );
        assert_eq!(lines[3]["bound"], "memory");
    }

    #[test]
    fn batch_takes_the_flags_names_and_defaults_of_calc() {
        // The defaults of `calc coalescing`: 4-byte elements, stride 1.
        let a = answer(r#"{"kind":"coalescing"}"#);
        assert_eq!(
            (a["sectors"].clone(), a["requests"].clone()),
            (json!(4), json!(1))
        );
        let by_flag = answer(r#"{"kind":"coalescing","elem":4,"stride":2,"offset":1}"#);
        let by_field =
            answer(r#"{"kind":"coalescing","elem_bytes":4,"stride_elems":2,"offset_elems":1}"#);
        assert_eq!(by_flag, by_field);
        // AoS and 2D walks, as on the command line.
        let aos = answer(r#"{"kind":"coalescing","struct_size":12,"field_offset":0}"#);
        assert_eq!(aos["sectors"], 12);
        let column = answer(r#"{"kind":"coalescing","pitch":4096,"walk":"column"}"#);
        assert_eq!(column["sectors"], 32);
        // `regs` is the flag's name; `smem` reads sizes as the flag does.
        let regs = answer(r#"{"kind":"occupancy","block_size":256,"regs":48}"#);
        assert_eq!(regs["active_blocks_per_sm"], 5);
        let smem = answer(r#"{"kind":"occupancy","smem":"24K"}"#);
        let bytes = answer(r#"{"kind":"occupancy","dynamic_smem":24576}"#);
        assert_eq!(smem, bytes);
        // AMD counts waves from VGPRs alone: no block size needed.
        let amd = answer(r#"{"kind":"occupancy","arch":"gfx942","regs":64}"#);
        assert!(amd["error"].is_null(), "{amd}");
        // Roofline rates with units.
        let roof = answer(
            r#"{"kind":"roofline","peak_flops":"67T","bandwidth":"4.8 TB/s","intensity":4}"#,
        );
        let plain = answer(
            r#"{"kind":"roofline","peak_flops":67e12,"peak_bandwidth":4.8e12,"intensity":4}"#,
        );
        assert_eq!(roof, plain);
    }

    #[test]
    fn the_id_is_echoed_from_lines_that_do_not_parse() {
        for (line, id) in [
            (
                r#"{"id":7,"kind":"roofline","peak_flops":1e400,"peak_bandwidth":1,"intensity":1}"#,
                json!(7),
            ),
            (
                r#"{"kind":"roofline","peak_flops":NaN,"id":"row \"9\""}"#,
                json!("row \"9\""),
            ),
            (r#"{"x":{"id":1},"id": 3.5 , "kind":"#, json!(3.5)),
        ] {
            let a = answer(line);
            assert!(a["error"].is_string(), "{a}");
            assert_eq!(a["id"], id, "{line}");
        }
        let deep = format!(
            r#"{{"id":"deep","kind":"tiling","n":{}1{}}}"#,
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        assert_eq!(answer(&deep)["id"], "deep");
        assert_eq!(answer(r#"{"x":"id","y":1"#).get("id"), None);
    }

    #[test]
    fn bad_bytes_long_lines_and_a_bom_are_answered_line_by_line() {
        let good = r#"{"kind":"roofline","peak_flops":1,"peak_bandwidth":1,"intensity":2}"#;
        let mut input = b"\xEF\xBB\xBF".to_vec();
        input.extend_from_slice(good.as_bytes());
        input.extend_from_slice(b"\r\n{\"id\":\xff}\n");
        input.extend(std::iter::repeat_n(b' ', MAX_LINE_BYTES + 10));
        input.extend_from_slice(b"\n");
        input.extend_from_slice(good.as_bytes());
        let mut out = Vec::new();
        run(input.as_slice(), &mut out).unwrap();
        let lines: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(lines[0]["bound"], "compute");
        assert!(
            lines[1]["error"]
                .as_str()
                .unwrap()
                .contains("not valid UTF-8")
        );
        assert!(lines[2]["error"].as_str().unwrap().contains("longer than"));
        assert_eq!(lines[3]["bound"], "compute");
    }
}
