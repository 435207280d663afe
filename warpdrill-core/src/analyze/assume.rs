//! Values the user gives for what a kernel reads from memory (`--assume`), so that an index or a
//! branch that depends on data can be followed: token ids that pick rows of an embedding, bytes
//! that pick histogram bins, labels that pick a column.
//!
//! An assumption names an array and says what its elements hold: uniform values in a range (drawn
//! from a seed, the same for the same element on every read), one value everywhere, or the values of
//! a file (element `k` holds the file's `k mod len`-th number). The figures computed with one are
//! the H200's for that data, and are marked as assumed wherever they are shown.

use serde::Serialize;
use std::sync::Arc;

/// What one array's elements hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// Uniform over `[lo, hi)` (integers for an integer array: `lo ≤ v < hi`).
    Uniform {
        /// Lowest value.
        lo: f64,
        /// One past the highest (integers), or the top of the range (floats).
        hi: f64,
    },
    /// Every element holds this value.
    Constant(f64),
    /// Element `k` holds `values[k mod len]`, as read from `file`.
    Samples {
        /// The file, as given.
        file: String,
        /// Its numbers.
        values: Arc<Vec<f64>>,
    },
}

/// Values assumed for one array.
#[derive(Debug, Clone, PartialEq)]
pub struct Assumption {
    /// The array (a pointer parameter or a `__shared__` array), as the kernel names it.
    pub array: String,
    /// What its elements hold.
    pub values: Values,
}

/// An assumption as reports show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assumed {
    /// The array.
    pub array: String,
    /// What it was assumed to hold, in words (`uniform in [0, 50257)`).
    pub values: String,
    /// The same, for [`Assumed::text`].
    #[serde(skip)]
    pub kind: Shown,
}

/// What an assumption says, with its figures.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// Uniform in `[lo, hi)`.
    Uniform(f64, f64),
    /// One value.
    Constant(f64),
    /// `n` values of a file.
    File(String, usize),
}

impl Assumed {
    /// In the user's language.
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        use crate::t;
        match &self.kind {
            Shown::Uniform(lo, hi) => t!(
                lang,
                "analyze-assume-uniform",
                lo = lo.to_string(),
                hi = hi.to_string()
            ),
            Shown::Constant(v) => t!(lang, "analyze-assume-constant", value = v.to_string()),
            Shown::File(file, n) => {
                t!(
                    lang,
                    "analyze-assume-file",
                    file = file.as_str(),
                    n = *n as u64
                )
            }
        }
    }
}

/// At most this many numbers are read from a file of values.
pub const MAX_SAMPLES: usize = 1 << 24;

impl Assumption {
    /// Reads `NAME=LO..HI`, `NAME=VALUE` or `NAME=@FILE` (a file of numbers separated by white
    /// space or commas; `#` starts a comment). A relative file is looked for from `dir`.
    pub fn parse(text: &str, dir: &std::path::Path) -> Result<Assumption, String> {
        let Some((name, spec)) = text.split_once('=') else {
            return Err(format!(
                "`{text}`: write ARRAY=LO..HI, ARRAY=VALUE or ARRAY=@FILE"
            ));
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return Err(format!("`{text}`: `{name}` is not an array name"));
        }
        let spec = spec.trim();
        let number = |t: &str| -> Result<f64, String> {
            let t = t.trim();
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("`{text}`: `{t}` is not a number"))
        };
        let values = if let Some(file) = spec.strip_prefix('@') {
            let path = dir.join(file);
            let body = read_bounded(&path)
                .map_err(|e| format!("`{text}`: cannot read {}: {e}", path.display()))?;
            let mut values = Vec::new();
            for (n, line) in body.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("");
                for word in line.split(|c: char| c.is_whitespace() || c == ',') {
                    if word.is_empty() {
                        continue;
                    }
                    if values.len() == MAX_SAMPLES {
                        return Err(format!(
                            "{}: more than {MAX_SAMPLES} values (the first {MAX_SAMPLES} are enough: element k reads value k mod count)",
                            path.display()
                        ));
                    }
                    match word.parse::<f64>() {
                        Ok(v) if v.is_finite() => values.push(v),
                        _ => {
                            return Err(format!(
                                "{}:{}: `{word}` is not a number",
                                path.display(),
                                n + 1
                            ));
                        }
                    }
                }
            }
            if values.is_empty() {
                return Err(format!("{}: no values in the file", path.display()));
            }
            Values::Samples {
                file: file.to_string(),
                values: Arc::new(values),
            }
        } else if let Some((lo, hi)) = spec.split_once("..") {
            let (lo, hi) = (number(lo)?, number(hi)?);
            if hi <= lo {
                return Err(format!(
                    "`{text}`: the range {lo}..{hi} is empty (write LO..HI with LO < HI)"
                ));
            }
            Values::Uniform { lo, hi }
        } else {
            Values::Constant(number(spec)?)
        };
        Ok(Assumption {
            array: name.to_string(),
            values,
        })
    }

    /// The value of element `k` (integers are rounded down for an integer array).
    pub fn value(&self, k: i64, integer: bool) -> f64 {
        match &self.values {
            Values::Constant(v) => {
                if integer {
                    v.floor()
                } else {
                    *v
                }
            }
            Values::Samples { values, .. } => {
                let v = values[k.rem_euclid(values.len() as i64) as usize];
                if integer { v.floor() } else { v }
            }
            Values::Uniform { lo, hi } => {
                let u = unit(seed(&self.array) ^ (k as u64));
                if integer {
                    let (lo, hi) = (lo.ceil(), hi.ceil());
                    let span = (hi - lo).max(1.0);
                    (lo + (u * span).floor()).min(hi - 1.0)
                } else {
                    lo + u * (hi - lo)
                }
            }
        }
    }

    /// The assumption as reports show it.
    pub fn shown(&self) -> Assumed {
        let kind = match &self.values {
            Values::Uniform { lo, hi } => Shown::Uniform(*lo, *hi),
            Values::Constant(v) => Shown::Constant(*v),
            Values::Samples { file, values } => Shown::File(file.clone(), values.len()),
        };
        let mut a = Assumed {
            array: self.array.clone(),
            values: String::new(),
            kind,
        };
        a.values = a.text(crate::i18n::Lang::En);
        a
    }
}

/// Reads a file of at most 256 MiB.
fn read_bounded(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut body = String::new();
    file.take(256 << 20).read_to_string(&mut body)?;
    Ok(body)
}

/// A seed per array name (FNV-1a), so that two arrays do not hold the same values.
fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64 of `x`, as a number in `[0, 1)`.
fn unit(x: u64) -> f64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> Result<Assumption, String> {
        Assumption::parse(t, std::path::Path::new("."))
    }

    #[test]
    fn a_range_gives_integers_inside_it_the_same_on_every_read() {
        let a = parse("inp=0..50257").unwrap();
        let mut seen = std::collections::HashSet::new();
        for k in 0..10_000 {
            let v = a.value(k, true);
            assert!((0.0..50257.0).contains(&v) && v.fract() == 0.0, "{v}");
            assert_eq!(v, a.value(k, true));
            seen.insert(v as i64);
        }
        // Uniform: 10 000 draws over 50 257 values are nearly all different.
        assert!(seen.len() > 9_000, "{}", seen.len());
        let small = parse("bins=0..4").unwrap();
        let counts = (0..4000).fold([0; 4], |mut c, k| {
            c[small.value(k, true) as usize] += 1;
            c
        });
        assert!(
            counts.iter().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn a_file_gives_its_values_in_turn() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.txt"), "3, 1 # comment\n4\n").unwrap();
        let a = Assumption::parse("targets=@t.txt", dir.path()).unwrap();
        let got: Vec<f64> = (0..5).map(|k| a.value(k, true)).collect();
        assert_eq!(got, [3.0, 1.0, 4.0, 3.0, 1.0]);
        std::fs::write(dir.path().join("bad.txt"), "1 two").unwrap();
        let e = Assumption::parse("t=@bad.txt", dir.path()).unwrap_err();
        assert!(e.contains(":1: `two` is not a number"), "{e}");
    }

    #[test]
    fn nonsense_is_refused_with_what_to_write() {
        for bad in ["inp", "=3", "inp=5..2", "inp=x", "inp=1..inf", "a b=1"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("x=2.5").unwrap().value(7, false), 2.5);
        assert_eq!(parse("x=2.5").unwrap().value(7, true), 2.0);
    }
}
