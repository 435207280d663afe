//! Exercise variants: a template plus a seed gives parameters, engine-computed values, the rendered
//! prompt, hints and explanation, and the answer key.

use super::expr::{self, ExprError, Vars};
use crate::content::schema::{
    AmdField, AnswerSpec, ArchField, BankField, CoalescingField, ExerciseTemplate, Idea,
    OccupancyField, Param, Query, RooflineField, TilingField, Tolerance, Unit,
};
use crate::engine::{
    self, AccessShape, Arch, Carveout, EngineError, Granularity, KernelConfig, Limiter,
    TilingInput, WarpAccess, full_mask,
};
use crate::format;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use thiserror::Error;

/// Why a variant could not be made: a template mistake, named precisely for the author.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum VariantError {
    /// A parameter with no values or an impossible range.
    #[error("parameter `{name}`: {message}")]
    Param {
        /// Parameter name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// An expression that failed.
    #[error("{place}: {source}")]
    Expr {
        /// Where (`value sectors`, `prompt`).
        place: String,
        /// The failure.
        source: ExprError,
    },
    /// An engine calculation that refused its inputs.
    #[error("{place}: the engine refused these inputs: {source}")]
    Engine {
        /// Where.
        place: String,
        /// The engine's reason.
        source: EngineError,
    },
    /// Anything else about the template.
    #[error("{place}: {message}")]
    Template {
        /// Where.
        place: String,
        /// What is wrong.
        message: String,
    },
}

/// The inputs of the first engine calculation of a variant, for "show me".
#[derive(Debug, Clone, PartialEq)]
pub enum ShowMe {
    /// A global load.
    Global {
        /// Architecture.
        arch: &'static Arch,
        /// The access.
        access: WarpAccess,
    },
    /// A shared-memory load.
    Shared {
        /// Architecture.
        arch: &'static Arch,
        /// The access.
        access: WarpAccess,
    },
    /// An occupancy configuration.
    Occupancy {
        /// Architecture.
        arch: &'static Arch,
        /// The configuration.
        config: KernelConfig,
    },
    /// A tiled multiply.
    Tiling {
        /// Architecture.
        arch: &'static Arch,
        /// The sizes.
        input: TilingInput,
    },
    /// A roofline point.
    Roofline {
        /// Peak FLOP/s.
        peak_flops: f64,
        /// Peak bytes/s.
        bandwidth: f64,
        /// FLOP per byte.
        intensity: f64,
    },
}

/// The answer of one variant, ready to grade.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerKey {
    /// A number in the unit's base.
    Number {
        /// The answer.
        value: f64,
        /// The unit.
        unit: Unit,
        /// Allowed error.
        tolerance: Tolerance,
        /// What `KB` means.
        kilo: u32,
    },
    /// One of several options.
    Choice {
        /// Rendered options.
        options: Vec<String>,
        /// Indices of the correct ones.
        correct: Vec<usize>,
    },
    /// An order.
    Ordering {
        /// Rendered items, in template order.
        items: Vec<String>,
        /// Other names per item.
        aliases: Vec<Vec<String>>,
        /// The order items are first shown in (shuffled by the seed).
        shown: Vec<usize>,
        /// The correct order (item indices).
        correct: Vec<usize>,
        /// What the order is by.
        by: Option<String>,
    },
    /// A short text.
    Text {
        /// Accepted answers.
        accepted: Vec<String>,
        /// Fuzzy score needed.
        threshold: i64,
    },
    /// A free explanation.
    Explain {
        /// Ideas looked for.
        ideas: Vec<Idea>,
        /// Rendered model answer.
        model: String,
        /// Ideas needed.
        required: usize,
    },
}

impl AnswerKey {
    /// The answer as shown to the learner: `5 sectors`, `62.5%`, `memory-bound`, `registers → L2 → DRAM`.
    pub fn display(&self) -> String {
        match self {
            AnswerKey::Number {
                value, unit, kilo, ..
            } => format_with_unit(*value, unit, *kilo),
            AnswerKey::Choice { options, correct } => correct
                .iter()
                .map(|&i| format!("{}) {}", letter(i), options[i]))
                .collect::<Vec<_>>()
                .join(" or "),
            AnswerKey::Ordering { items, correct, .. } => correct
                .iter()
                .map(|&i| items[i].as_str())
                .collect::<Vec<_>>()
                .join(" → "),
            AnswerKey::Text { accepted, .. } => accepted.first().cloned().unwrap_or_default(),
            AnswerKey::Explain { model, .. } => model.clone(),
        }
    }

    /// What a learner who knows the answer would type (the inverse of grading: it grades correct).
    pub fn typed(&self) -> String {
        match self {
            AnswerKey::Number {
                value,
                unit: Unit::Bytes,
                ..
            } => format!("{} B", plain(*value)),
            AnswerKey::Number { .. } => self.display(),
            AnswerKey::Choice { correct, .. } => correct
                .first()
                .map(|&i| letter(i).to_string())
                .unwrap_or_default(),
            AnswerKey::Ordering { items, correct, .. } => correct
                .iter()
                .map(|&i| items[i].as_str())
                .collect::<Vec<_>>()
                .join(" → "),
            AnswerKey::Text { accepted, .. } => accepted.first().cloned().unwrap_or_default(),
            AnswerKey::Explain { model, .. } => model.clone(),
        }
    }

    /// The numeric answer, where there is one.
    pub fn value(&self) -> Option<f64> {
        match self {
            AnswerKey::Number { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// `number`, `choice`, `ordering`, `text` or `explain`.
    pub fn kind(&self) -> &'static str {
        match self {
            AnswerKey::Number { .. } => "number",
            AnswerKey::Choice { .. } => "choice",
            AnswerKey::Ordering { .. } => "ordering",
            AnswerKey::Text { .. } => "text",
            AnswerKey::Explain { .. } => "explain",
        }
    }
}

/// `a`, `b`, `c` … for option `0`, `1`, `2` …
pub fn letter(index: usize) -> char {
    (b'a' + (index % 26) as u8) as char
}

/// A value in its unit, as a learner reads it.
pub fn format_with_unit(value: f64, unit: &Unit, kilo: u32) -> String {
    match unit {
        Unit::None => plain(value),
        Unit::Count(word) => format!("{} {word}", plain(value)),
        Unit::Percent => format::percent(value),
        Unit::Bytes => {
            if kilo == 1000 && value >= 1000.0 {
                format!("{} B ({}B)", plain(value), format::si(value))
            } else if value >= 1024.0 {
                format!("{} B ({})", plain(value), format::bytes(value as u64))
            } else {
                format!("{} B", plain(value))
            }
        }
        Unit::Seconds => format::seconds(value),
        Unit::Cycles => format!("{} cycles", plain(value)),
        Unit::FlopPerByte => format!("{} FLOP/B", format::trim_float(value, 3)),
        Unit::FlopPerSecond => format!("{}FLOP/s", format::si(value)),
        Unit::BytesPerSecond => format!("{}B/s", format::si(value)),
        Unit::Factor => format!("{}×", format::trim_float(value, 2)),
    }
}

/// A number without needless decimals: `5`, `1.5`, `0.333`.
pub fn plain(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else if value.abs() >= 1e6 {
        format!("{value:.3e}")
    } else {
        format::trim_float(value, 3)
    }
}

/// A drawn parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A number.
    Number(f64),
    /// A word.
    Text(String),
}

/// One exercise with its numbers drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The template's id.
    pub exercise_id: String,
    /// The seed it was drawn from.
    pub seed: u64,
    /// Drawn parameters.
    pub params: BTreeMap<String, ParamValue>,
    /// Numeric parameters and computed values.
    pub numbers: Vars,
    /// Text parameters.
    pub texts: BTreeMap<String, String>,
    /// The first engine calculation, for "show me".
    pub show_me: Option<ShowMe>,
    /// Rendered prompt.
    pub prompt: String,
    /// Rendered hints.
    pub hints: Vec<String>,
    /// Rendered worked explanation.
    pub explanation: String,
    /// The answer.
    pub key: AnswerKey,
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A uniform index below `n` (rejection sampling on raw 64-bit output: identical on every platform).
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// How many distinct values a parameter can take (0 if none).
pub fn param_len(param: &Param) -> usize {
    match param {
        Param::Choice(values) => values.len(),
        Param::Text(values) => values.len(),
        Param::Range { min, max, step } => {
            if *step <= 0 || max < min {
                0
            } else {
                ((max - min) / step + 1) as usize
            }
        }
    }
}

/// The `index`-th value of a parameter.
pub fn param_value(param: &Param, index: usize) -> ParamValue {
    match param {
        Param::Choice(values) => ParamValue::Number(values[index]),
        Param::Text(values) => ParamValue::Text(values[index].clone()),
        Param::Range { min, step, .. } => ParamValue::Number((min + step * index as i64) as f64),
    }
}

/// Draws the parameters of a template from a seed.
pub fn draw(
    template: &ExerciseTemplate,
    seed: u64,
) -> Result<BTreeMap<String, ParamValue>, VariantError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv1a(&template.id));
    let mut params = BTreeMap::new();
    for (name, param) in &template.params {
        let len = param_len(param);
        if len == 0 {
            return Err(VariantError::Param {
                name: name.clone(),
                message: "has no values (empty list, or a range with max < min or step ≤ 0)".into(),
            });
        }
        params.insert(name.clone(), param_value(param, pick(&mut rng, len)));
    }
    Ok(params)
}

/// Makes the variant of `template` for `seed`.
pub fn generate(template: &ExerciseTemplate, seed: u64) -> Result<Variant, VariantError> {
    let params = draw(template, seed)?;
    build(template, seed, params)
}

/// Makes a variant from given parameters (validation walks every combination with this).
pub fn build(
    template: &ExerciseTemplate,
    seed: u64,
    params: BTreeMap<String, ParamValue>,
) -> Result<Variant, VariantError> {
    let mut numbers = Vars::new();
    let mut texts = BTreeMap::new();
    for (name, value) in &params {
        match value {
            ParamValue::Number(n) => {
                numbers.insert(name.clone(), *n);
            }
            ParamValue::Text(t) => {
                texts.insert(name.clone(), t.clone());
            }
        }
    }
    let mut show_me = None;
    for (name, query) in &template.values {
        let place = format!("value `{name}`");
        let (value, shown) = evaluate(query, &numbers, &texts, &place)?;
        if show_me.is_none() {
            show_me = shown;
        }
        numbers.insert(name.clone(), value);
    }
    let ctx = Context {
        numbers: &numbers,
        texts: &texts,
    };
    let prompt = ctx.render(&template.prompt, "prompt")?;
    let hints = template
        .hints
        .iter()
        .enumerate()
        .map(|(i, hint)| ctx.render(hint, &format!("hint {}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let explanation = ctx.render(&template.explanation, "explanation")?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv1a(&template.id) ^ 0x5eed);
    let key = answer_key(&template.answer, &ctx, &mut rng)?;
    Ok(Variant {
        exercise_id: template.id.clone(),
        seed,
        params,
        numbers,
        texts,
        show_me,
        prompt,
        hints,
        explanation,
        key,
    })
}

struct Context<'a> {
    numbers: &'a Vars,
    texts: &'a BTreeMap<String, String>,
}

impl Context<'_> {
    fn eval(&self, text: &str, place: &str) -> Result<f64, VariantError> {
        expr::eval(text, self.numbers).map_err(|source| VariantError::Expr {
            place: place.to_string(),
            source,
        })
    }

    /// Replaces `{name}`, `{expression}` and `{expression|format}`; `{{` and `}}` stand for braces.
    fn render(&self, template: &str, place: &str) -> Result<String, VariantError> {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            out.push_str(&rest[..open]);
            let brace = &rest[open..];
            if brace.starts_with("{{") || brace.starts_with("}}") {
                out.push_str(&brace[..1]);
                rest = &brace[2..];
                continue;
            }
            if brace.starts_with('}') {
                return Err(VariantError::Template {
                    place: place.to_string(),
                    message: "a `}` without its `{` (write `}}` for a literal brace)".into(),
                });
            }
            let Some(close) = brace.find('}') else {
                return Err(VariantError::Template {
                    place: place.to_string(),
                    message: "a `{` without its `}` (write `{{` for a literal brace)".into(),
                });
            };
            let inner = &brace[1..close];
            out.push_str(&self.placeholder(inner, place)?);
            rest = &brace[close + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    fn placeholder(&self, inner: &str, place: &str) -> Result<String, VariantError> {
        let (expression, style) = match inner.rsplit_once('|') {
            Some((e, s)) if !s.contains('|') && !e.ends_with('|') => (e.trim(), s.trim()),
            _ => (inner.trim(), ""),
        };
        if let Some(text) = self.texts.get(expression) {
            return Ok(match style {
                "label" => Arch::parse(text)
                    .map(|a| a.label())
                    .unwrap_or_else(|_| text.clone()),
                "gpu" => Arch::parse(text)
                    .map(|a| a.examples.to_string())
                    .unwrap_or_else(|_| text.clone()),
                _ => text.clone(),
            });
        }
        let value = self.eval(expression, &format!("{place}, placeholder {{{inner}}}"))?;
        Ok(match style {
            "" => plain(value),
            "%" => format::percent(value),
            "bytes" => format::bytes(value.max(0.0) as u64),
            "hex" => format!("{:#x}", value as i64),
            "si" => format::si(value),
            "time" => format::seconds(value),
            "x" => format!("{}×", format::trim_float(value, 2)),
            "int" => format!("{:.0}", value.round()),
            "sep" => thousands(value),
            digits if digits.len() == 1 && digits.as_bytes()[0].is_ascii_digit() => {
                format::trim_float(value, usize::from(digits.as_bytes()[0] - b'0'))
            }
            other => {
                return Err(VariantError::Template {
                    place: place.to_string(),
                    message: format!(
                        "unknown format `|{other}` in {{{inner}}} (use %, bytes, hex, si, time, x, int, sep, label, gpu or 0-9)"
                    ),
                });
            }
        })
    }
}

/// `1234567` → `1,234,567`.
fn thousands(value: f64) -> String {
    let text = format!("{:.0}", value.round().abs());
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if value < 0.0 { format!("-{out}") } else { out }
}

fn arch_arg(
    arg: Option<&String>,
    texts: &BTreeMap<String, String>,
    place: &str,
) -> Result<&'static Arch, VariantError> {
    let Some(name) = arg else {
        return Ok(Arch::default_arch());
    };
    let name = texts.get(name).unwrap_or(name);
    Arch::parse(name).map_err(|source| VariantError::Engine {
        place: place.to_string(),
        source,
    })
}

fn int(value: f64, name: &str, place: &str) -> Result<i64, VariantError> {
    if value.fract() != 0.0 || value.abs() > 9.0e15 {
        return Err(VariantError::Template {
            place: place.to_string(),
            message: format!("{name} must be a whole number, got {value}"),
        });
    }
    Ok(value as i64)
}

fn uint(value: f64, name: &str, place: &str) -> Result<u32, VariantError> {
    let v = int(value, name, place)?;
    u32::try_from(v).map_err(|_| VariantError::Template {
        place: place.to_string(),
        message: format!("{name} must be between 0 and {}, got {v}", u32::MAX),
    })
}

fn evaluate(
    query: &Query,
    numbers: &Vars,
    texts: &BTreeMap<String, String>,
    place: &str,
) -> Result<(f64, Option<ShowMe>), VariantError> {
    let ctx = Context { numbers, texts };
    let num = |text: &str| ctx.eval(text, place);
    let opt = |text: &Option<String>, default: f64| text.as_deref().map_or(Ok(default), num);
    let optional_int = |text: &Option<String>, name: &str| -> Result<Option<i64>, VariantError> {
        text.as_deref()
            .map(|t| int(num(t)?, name, place))
            .transpose()
    };
    let engine_err = |source: EngineError| VariantError::Engine {
        place: place.to_string(),
        source,
    };
    match query {
        Query::Expr(text) => Ok((num(text)?, None)),
        Query::Coalescing {
            arch,
            elem,
            stride,
            offset,
            base,
            lanes,
            struct_size,
            field_offset,
            pitch,
            column,
            lines,
            field,
        } => {
            let arch = arch_arg(arch.as_ref(), texts, place)?;
            let lanes = uint(opt(lanes, f64::from(arch.warp_size))?, "lanes", place)?;
            let access = AccessShape {
                elem_bytes: uint(num(elem)?, "elem", place)?,
                stride: int(opt(stride, 1.0)?, "stride", place)?,
                offset: int(opt(offset, 0.0)?, "offset", place)?,
                base: int(opt(base, 0.0)?, "base", place)?,
                struct_size: optional_int(struct_size, "struct_size")?,
                field_offset: int(opt(field_offset, 0.0)?, "field_offset", place)?,
                pitch: optional_int(pitch, "pitch")?,
                column: *column,
                offsets: None,
                mask: Some(full_mask(lanes.min(64))),
            }
            .access(arch.warp_size);
            let granularity = if *lines {
                Granularity::Line
            } else {
                arch.granularity
            };
            let c = engine::coalesce(&access, granularity).map_err(engine_err)?;
            let value = match field {
                CoalescingField::Sectors => f64::from(c.sectors),
                CoalescingField::Lines => f64::from(c.lines),
                CoalescingField::Transactions => f64::from(c.transactions()),
                CoalescingField::Requests => f64::from(c.requests),
                CoalescingField::BytesRequested => c.bytes_requested as f64,
                CoalescingField::BytesFetched => c.bytes_fetched as f64,
                CoalescingField::Efficiency => c.efficiency,
                CoalescingField::Waste => c.waste(),
            };
            Ok((value, Some(ShowMe::Global { arch, access })))
        }
        Query::Banks {
            arch,
            elem,
            stride,
            offset,
            lanes,
            field,
        } => {
            let arch = arch_arg(arch.as_ref(), texts, place)?;
            let lanes = uint(opt(lanes, f64::from(arch.warp_size))?, "lanes", place)?;
            let access = AccessShape {
                elem_bytes: uint(num(elem)?, "elem", place)?,
                stride: int(num(stride)?, "stride", place)?,
                offset: int(opt(offset, 0.0)?, "offset", place)?,
                mask: Some(full_mask(lanes.min(64))),
                ..AccessShape::default()
            }
            .access(arch.warp_size);
            let b = engine::bank_conflicts(&access, arch).map_err(engine_err)?;
            let value = match field {
                BankField::Wavefronts => f64::from(b.wavefronts),
                BankField::IdealWavefronts => f64::from(b.ideal_wavefronts),
                BankField::BankConflicts => f64::from(b.bank_conflicts),
                BankField::ConflictDegree => b.conflict_degree,
                BankField::BankOfLane(lane) => {
                    match b.bank_of_lane.get(*lane as usize).copied().flatten() {
                        Some(bank) => f64::from(bank),
                        None => {
                            return Err(VariantError::Template {
                                place: place.to_string(),
                                message: format!("lane {lane} is not active"),
                            });
                        }
                    }
                }
            };
            Ok((value, Some(ShowMe::Shared { arch, access })))
        }
        Query::Occupancy {
            arch,
            block_size,
            regs,
            smem,
            static_smem,
            carveout,
            field,
        } => {
            let arch = arch_arg(arch.as_ref(), texts, place)?;
            let config = KernelConfig {
                block_size: uint(num(block_size)?, "block_size", place)?,
                regs_per_thread: uint(num(regs)?, "regs", place)?,
                static_smem: uint(opt(static_smem, 0.0)?, "static_smem", place)?,
                dynamic_smem: uint(opt(smem, 0.0)?, "smem", place)?,
                carveout: Carveout::from_pct(int(opt(carveout, -1.0)?, "carveout", place)?)
                    .map_err(engine_err)?,
            };
            let o = engine::occupancy(arch, &config).map_err(engine_err)?;
            let flag = |limiter| {
                if o.limited_by.contains(limiter) {
                    1.0
                } else {
                    0.0
                }
            };
            let value = match field {
                OccupancyField::ActiveBlocks => f64::from(o.active_blocks_per_sm),
                OccupancyField::ActiveWarps => f64::from(o.active_warps_per_sm),
                OccupancyField::MaxWarps => f64::from(o.max_warps_per_sm),
                OccupancyField::Occupancy => o.occupancy,
                OccupancyField::WarpLimit => f64::from(o.limits.warps),
                OccupancyField::RegisterLimit => f64::from(o.limits.registers),
                OccupancyField::SharedMemoryLimit => f64::from(o.limits.shared_memory),
                OccupancyField::BlockLimit => f64::from(o.limits.blocks),
                OccupancyField::RegsPerWarp => f64::from(o.regs_per_warp),
                OccupancyField::RegsPerBlock => f64::from(o.regs_per_block),
                OccupancyField::SmemPerBlock => f64::from(o.smem_per_block),
                OccupancyField::CarveoutBytes => f64::from(o.carveout_bytes),
                OccupancyField::TextbookThreads => f64::from(o.textbook.threads),
                OccupancyField::TextbookWarpRoundedThreads => {
                    f64::from(o.textbook.warp_rounded_threads)
                }
                OccupancyField::TextbookOccupancy => o.textbook.occupancy,
                OccupancyField::LimitedByWarps => flag(Limiter::Warps),
                OccupancyField::LimitedByRegisters => flag(Limiter::Registers),
                OccupancyField::LimitedBySharedMemory => flag(Limiter::SharedMemory),
                OccupancyField::LimitedByBlocks => flag(Limiter::Blocks),
            };
            Ok((value, Some(ShowMe::Occupancy { arch, config })))
        }
        Query::AmdWaves { arch, vgprs, field } => {
            let arch = arch_arg(Some(arch), texts, place)?;
            let w =
                engine::amd_waves(arch, uint(num(vgprs)?, "vgprs", place)?).map_err(engine_err)?;
            let value = match field {
                AmdField::WavesPerSimd => f64::from(w.waves_per_simd),
                AmdField::VgprsAllocated => f64::from(w.vgprs_allocated),
                AmdField::WavesPerCu => f64::from(w.waves_per_cu),
                AmdField::Occupancy => w.occupancy,
            };
            Ok((value, None))
        }
        Query::Tiling {
            n,
            tile,
            elem,
            arch,
            field,
        } => {
            let arch_preset = arch_arg(arch.as_ref(), texts, place)?;
            let input = TilingInput {
                n: u64::from(uint(num(n)?, "n", place)?),
                tile: u64::from(uint(num(tile)?, "tile", place)?),
                elem_bytes: uint(num(elem)?, "elem", place)?,
            };
            let t = engine::tiling(&input, Some(arch_preset), 0).map_err(engine_err)?;
            let value = match field {
                TilingField::NaiveReads => t.naive_reads as f64,
                TilingField::TiledReads => t.tiled_reads as f64,
                TilingField::ReductionFactor => t.reduction_factor,
                TilingField::SmemBytesPerBlock => t.smem_bytes_per_block as f64,
                TilingField::BlocksPerSm | TilingField::SmemBlocksPerSm => {
                    let blocks = if *field == TilingField::BlocksPerSm {
                        t.blocks_per_sm
                    } else {
                        t.smem_blocks_per_sm
                    };
                    match blocks {
                        Some(blocks) => f64::from(blocks),
                        None => {
                            return Err(VariantError::Template {
                                place: place.to_string(),
                                message: format!(
                                    "{field:?} needs an NVIDIA architecture, not {}",
                                    arch_preset.key
                                ),
                            });
                        }
                    }
                }
                TilingField::NaiveIntensity => t.naive_intensity,
                TilingField::TiledIntensity => t.tiled_intensity,
            };
            Ok((
                value,
                Some(ShowMe::Tiling {
                    arch: arch_preset,
                    input,
                }),
            ))
        }
        Query::Roofline {
            peak_flops,
            bandwidth,
            intensity,
            field,
        } => {
            let (p, b, i) = (num(peak_flops)?, num(bandwidth)?, num(intensity)?);
            let r = engine::roofline(p, b, i).map_err(engine_err)?;
            let value = match field {
                RooflineField::Ridge => r.ridge_intensity,
                RooflineField::Attainable => r.attainable_flops,
                RooflineField::MemoryBound => {
                    if r.bound == engine::Bound::Memory {
                        1.0
                    } else {
                        0.0
                    }
                }
                RooflineField::FractionOfPeak => r.fraction_of_peak,
            };
            Ok((
                value,
                Some(ShowMe::Roofline {
                    peak_flops: p,
                    bandwidth: b,
                    intensity: i,
                }),
            ))
        }
        Query::Measured(fact) => Ok((engine::measured::h200(*fact).map_err(engine_err)?, None)),
        Query::Arch { arch, field } => {
            let arch = arch_arg(Some(arch), texts, place)?;
            let limits = arch.nvidia;
            let need = || VariantError::Template {
                place: place.to_string(),
                message: format!("{} has no occupancy figures", arch.key),
            };
            let value = match field {
                ArchField::WarpSize => f64::from(arch.warp_size),
                ArchField::SharedBanks => f64::from(engine::banks::BANKS),
                ArchField::MaxWarps => f64::from(limits.ok_or_else(need)?.max_warps_per_sm()),
                ArchField::MaxThreads => f64::from(limits.ok_or_else(need)?.max_threads_per_sm),
                ArchField::MaxBlocks => f64::from(limits.ok_or_else(need)?.max_blocks_per_sm),
                ArchField::RegsPerSm => f64::from(limits.ok_or_else(need)?.regs_per_sm),
                ArchField::SmemPerSm => f64::from(limits.ok_or_else(need)?.smem_per_sm_max),
            };
            Ok((value, None))
        }
    }
}

fn answer_key(
    spec: &AnswerSpec,
    ctx: &Context<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<AnswerKey, VariantError> {
    match spec {
        AnswerSpec::Number {
            value,
            unit,
            tolerance,
            kilo,
        } => {
            let value = ctx.eval(value, "answer")?;
            let tolerance = tolerance.unwrap_or(match unit {
                Unit::Percent => Tolerance::Abs(0.001),
                _ if value.fract() == 0.0 => Tolerance::Exact,
                _ => Tolerance::Rel(0.01),
            });
            let kilo = kilo.unwrap_or(1024);
            if kilo != 1000 && kilo != 1024 {
                return Err(VariantError::Template {
                    place: "answer".into(),
                    message: format!("kilo must be 1000 or 1024, got {kilo}"),
                });
            }
            Ok(AnswerKey::Number {
                value,
                unit: unit.clone(),
                tolerance,
                kilo,
            })
        }
        AnswerSpec::Choice { options } => {
            let mut rendered = Vec::new();
            let mut correct = Vec::new();
            for (i, option) in options.iter().enumerate() {
                let place = format!("option {}", letter(i));
                rendered.push(ctx.render(&option.text, &place)?);
                if ctx.eval(&option.correct, &place)? != 0.0 {
                    correct.push(i);
                }
            }
            if correct.is_empty() {
                return Err(VariantError::Template {
                    place: "answer".into(),
                    message: "no option is correct for these parameters".into(),
                });
            }
            Ok(AnswerKey::Choice {
                options: rendered,
                correct,
            })
        }
        AnswerSpec::Ordering {
            items,
            descending,
            by,
        } => {
            let mut rendered = Vec::new();
            let mut keys = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let place = format!("item {}", i + 1);
                rendered.push(ctx.render(&item.text, &place)?);
                keys.push(ctx.eval(&item.key, &place)?);
            }
            let mut correct: Vec<usize> = (0..items.len()).collect();
            correct.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
            if *descending {
                correct.reverse();
            }
            if correct.windows(2).any(|w| keys[w[0]] == keys[w[1]]) {
                return Err(VariantError::Template {
                    place: "answer".into(),
                    message: "two items have the same key, so the order is ambiguous".into(),
                });
            }
            let mut shown: Vec<usize> = (0..items.len()).collect();
            for i in (1..shown.len()).rev() {
                let j = pick(rng, i + 1);
                shown.swap(i, j);
            }
            if shown == correct && shown.len() > 1 {
                shown.rotate_left(1);
            }
            Ok(AnswerKey::Ordering {
                items: rendered,
                aliases: items.iter().map(|item| item.aliases.clone()).collect(),
                shown,
                correct,
                by: by.clone(),
            })
        }
        AnswerSpec::Text {
            accepted,
            threshold,
        } => Ok(AnswerKey::Text {
            accepted: accepted.clone(),
            threshold: threshold.unwrap_or(60),
        }),
        AnswerSpec::Explain {
            ideas,
            model,
            required,
        } => Ok(AnswerKey::Explain {
            ideas: ideas.clone(),
            model: ctx.render(model, "model answer")?,
            required: required.unwrap_or(ideas.len()).min(ideas.len()),
        }),
    }
}
