//! `warpdrill calc batch`: JSON lines in, one JSON answer line out per input line, in order.

use super::json;
use crate::engine::{
    self, Arch, Carveout, Granularity, KernelConfig, Pattern, TilingInput, WarpAccess, full_mask,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::io::{BufRead, Write};

/// Reads requests from `input` until it ends, writing one answer line per request line.
/// Blank lines are skipped. Fails only when reading or writing fails.
pub fn run(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = answer_line(&line);
        serde_json::to_writer(&mut output, &answer)?;
        writeln!(output)?;
    }
    output.flush()
}

/// The answer to one request line: the answer object, or `{"error": …}` (with the request's `id`).
pub fn answer_line(line: &str) -> Value {
    let request: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(e) => return json!({ "error": format!("not valid JSON: {e}") }),
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
            let request: AccessRequest = parse(object)?;
            let (arch, access) = request.access()?;
            let granularity = match request.granularity.as_deref() {
                None => arch.granularity,
                Some("sector") => Granularity::Sector,
                Some("line") => Granularity::Line,
                Some(other) => {
                    return Err(format!(
                        "granularity must be \"sector\" or \"line\", got \"{other}\""
                    ));
                }
            };
            let c = engine::coalesce(&access, granularity).map_err(|e| e.to_string())?;
            Ok(json::coalescing(arch, &c, false))
        }
        "banks" => {
            let request: AccessRequest = parse(object)?;
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
                n: request.n,
                tile: request.tile,
                elem_bytes: request.elem_bytes,
            };
            let t = engine::tiling(&input, arch, request.regs_per_thread.unwrap_or(0))
                .map_err(|e| e.to_string())?;
            Ok(json::tiling(&t))
        }
        "roofline" => {
            let request: RooflineRequest = parse(object)?;
            let r = engine::roofline(
                request.peak_flops,
                request.peak_bandwidth,
                request.intensity,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AccessRequest {
    arch: Option<Value>,
    elem_bytes: u32,
    offsets_bytes: Option<Vec<i64>>,
    stride_elems: Option<i64>,
    offset_elems: Option<i64>,
    base_bytes: Option<i64>,
    active_mask: Option<Mask>,
    granularity: Option<String>,
}

impl AccessRequest {
    fn access(&self) -> Result<(&'static Arch, WarpAccess), String> {
        let arch = match &self.arch {
            Some(value) => arch_of(value)?,
            None => Arch::default_arch(),
        };
        let pattern = match (&self.offsets_bytes, self.stride_elems) {
            (Some(_), Some(_)) => {
                return Err("give either \"offsets_bytes\" or \"stride_elems\", not both".into());
            }
            (Some(offsets), None) => {
                if self.offset_elems.is_some() || self.base_bytes.is_some() {
                    return Err("\"offset_elems\" and \"base_bytes\" go with \"stride_elems\", not \"offsets_bytes\"".into());
                }
                Pattern::Explicit {
                    offsets_bytes: offsets.clone(),
                }
            }
            (None, Some(stride)) => Pattern::Affine {
                stride_elems: stride,
                offset_elems: self.offset_elems.unwrap_or(0),
                base_bytes: self.base_bytes.unwrap_or(0),
            },
            (None, None) => return Err("missing \"offsets_bytes\" or \"stride_elems\"".into()),
        };
        let active_mask = match &self.active_mask {
            Some(mask) => mask.value()?,
            None => full_mask(arch.warp_size),
        };
        Ok((
            arch,
            WarpAccess {
                elem_bytes: self.elem_bytes,
                pattern,
                active_mask,
                warp_size: arch.warp_size,
            },
        ))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OccupancyRequest {
    arch: Option<Value>,
    cc: Option<Value>,
    block_size: u32,
    regs_per_thread: u32,
    static_smem: Option<u32>,
    dynamic_smem: Option<u32>,
    carveout_pct: Option<i64>,
}

impl OccupancyRequest {
    fn answer(&self) -> Result<Value, String> {
        let arch = match (&self.arch, &self.cc) {
            (Some(_), Some(_)) => return Err("give \"arch\" or \"cc\", not both".into()),
            (Some(value), None) | (None, Some(value)) => arch_of(value)?,
            (None, None) => Arch::default_arch(),
        };
        if arch.amd.is_some() {
            let w = engine::amd_waves(arch, self.regs_per_thread).map_err(|e| e.to_string())?;
            return Ok(json::amd_waves(arch, &w));
        }
        let config = KernelConfig {
            block_size: self.block_size,
            regs_per_thread: self.regs_per_thread,
            static_smem: self.static_smem.unwrap_or(0),
            dynamic_smem: self.dynamic_smem.unwrap_or(0),
            carveout: Carveout::from_pct(self.carveout_pct.unwrap_or(-1))
                .map_err(|e| e.to_string())?,
        };
        let o = engine::occupancy(arch, &config).map_err(|e| e.to_string())?;
        Ok(json::occupancy(arch, &o))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TilingRequest {
    n: u64,
    tile: u64,
    elem_bytes: u32,
    arch: Option<Value>,
    regs_per_thread: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RooflineRequest {
    peak_flops: f64,
    peak_bandwidth: f64,
    intensity: f64,
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
            r#"{"kind":"coalescing","elem_bytes":4}"#,
            r#"{"kind":"occupancy","block_size":0,"regs_per_thread":32}"#,
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
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["id"], 1);
        assert!(lines[1]["error"].is_string());
        assert_eq!(lines[2]["bound"], "memory");
    }
}
