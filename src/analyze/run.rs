//! Running every warp of a launch over the kernel, lane masks and all, and counting each access.

use super::ast::{BinOp, Expr, Kernel, Pos, Site, Space, Stmt, UnOp, Wrap};
use super::error::{AnalyzeError, Result};

const LANES: usize = 32;
/// Loop iterations one warp may run before the analysis gives up.
const MAX_WARP_STEPS: u64 = 1 << 22;

/// One value for a warp: the same on every lane, one per lane, or read from memory (unknown).
#[derive(Debug, Clone)]
enum V {
    I(i64),
    F(f64),
    IL([i64; LANES]),
    FL([f64; LANES]),
    Unknown,
}

/// Counts of one kind of instruction (loads or stores) at one access site.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Warp-level instructions executed with at least one active lane.
    pub instructions: u64,
    /// Requests (global: one per instruction).
    pub requests: u64,
    /// 32-byte sectors (global).
    pub sectors: u64,
    /// Bytes the active lanes asked for.
    pub bytes: u64,
    /// Shared-memory wavefronts.
    pub wavefronts: u64,
    /// Wavefronts without bank conflicts (active phases).
    pub ideal: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.instructions += other.instructions;
        self.requests += other.requests;
        self.sectors += other.sectors;
        self.bytes += other.bytes;
        self.wavefronts += other.wavefronts;
        self.ideal += other.ideal;
    }

    /// Adds `other` into `self`.
    pub fn merge(&mut self, other: &Counts) {
        self.add(other);
    }
}

/// Loads and stores of one access site.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SiteCounts {
    /// Loads.
    pub load: Counts,
    /// Stores.
    pub store: Counts,
}

/// Launch geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    /// Blocks in x, y, z.
    pub grid: [u32; 3],
    /// Threads per block in x, y, z.
    pub block: [u32; 3],
}

struct Machine<'k> {
    kernel: &'k Kernel,
    locals: Vec<V>,
    builtins: [V; 12],
    exist: u32,
    done: u32,
    counts: Vec<SiteCounts>,
    steps: u64,
    file: &'k str,
}

/// Runs every warp of the launch; returns the counts per access site.
pub fn run(kernel: &Kernel, launch: &Launch, file: &str) -> Result<Vec<SiteCounts>> {
    let [bx, by, bz] = launch.block;
    let [gx, gy, gz] = launch.grid;
    let threads = u64::from(bx) * u64::from(by) * u64::from(bz);
    if bx == 0 || by == 0 || bz == 0 || gx == 0 || gy == 0 || gz == 0 {
        return Err(AnalyzeError::Input(
            "every launch dimension must be at least 1".into(),
        ));
    }
    if threads > 1024 || bz > 64 {
        return Err(AnalyzeError::Input(format!(
            "a block of {bx}×{by}×{bz} = {threads} threads: at most 1024 (and z at most 64)"
        )));
    }
    if gy > 65535 || gz > 65535 {
        return Err(AnalyzeError::Input("grid y and z are at most 65535".into()));
    }
    let warps_per_block = threads.div_ceil(LANES as u64);
    let blocks = u64::from(gx) * u64::from(gy) * u64::from(gz);
    if blocks.saturating_mul(warps_per_block) > 1 << 24 {
        return Err(AnalyzeError::Input(format!(
            "{blocks} blocks of {threads} threads: too many warps to simulate (at most {})",
            1u64 << 24
        )));
    }
    // threadIdx of every lane of every warp of a block, and which lanes exist.
    let mut warp_lanes = Vec::new();
    for w in 0..warps_per_block {
        let mut tx = [0i64; LANES];
        let mut ty = [0i64; LANES];
        let mut tz = [0i64; LANES];
        let mut exist = 0u32;
        for lane in 0..LANES {
            let t = w * LANES as u64 + lane as u64;
            if t < threads {
                exist |= 1 << lane;
                tx[lane] = (t % u64::from(bx)) as i64;
                ty[lane] = ((t / u64::from(bx)) % u64::from(by)) as i64;
                tz[lane] = (t / (u64::from(bx) * u64::from(by))) as i64;
            }
        }
        warp_lanes.push((tx, ty, tz, exist));
    }
    let mut m = Machine {
        kernel,
        locals: vec![V::I(0); kernel.locals],
        builtins: std::array::from_fn(|_| V::I(0)),
        exist: 0,
        done: 0,
        counts: vec![SiteCounts::default(); kernel.sites.len()],
        steps: 0,
        file,
    };
    for (k, d) in [bx, by, bz, gx, gy, gz].iter().enumerate() {
        m.builtins[6 + k] = V::I(i64::from(*d));
    }
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                m.builtins[3] = V::I(i64::from(x));
                m.builtins[4] = V::I(i64::from(y));
                m.builtins[5] = V::I(i64::from(z));
                for (tx, ty, tz, exist) in &warp_lanes {
                    m.builtins[0] = uniform_or(tx, *exist);
                    m.builtins[1] = uniform_or(ty, *exist);
                    m.builtins[2] = uniform_or(tz, *exist);
                    m.exist = *exist;
                    m.done = 0;
                    m.steps = 0;
                    for v in &mut m.locals {
                        *v = V::I(0);
                    }
                    m.exec(&kernel.body, *exist)?;
                }
            }
        }
    }
    Ok(m.counts)
}

fn uniform_or(lanes: &[i64; LANES], exist: u32) -> V {
    let first = lanes[0];
    if (0..LANES).all(|l| exist & (1 << l) == 0 || lanes[l] == first) {
        V::I(first)
    } else {
        V::IL(*lanes)
    }
}

fn wrap_int(v: i64, w: Wrap) -> i64 {
    match w {
        Wrap::Signed(8) => v as i8 as i64,
        Wrap::Signed(16) => v as i16 as i64,
        Wrap::Signed(32) => v as i32 as i64,
        Wrap::Unsigned(8) => v as u8 as i64,
        Wrap::Unsigned(16) => v as u16 as i64,
        Wrap::Unsigned(32) => v as u32 as i64,
        _ => v,
    }
}

fn convert(v: V, w: Wrap) -> V {
    match (v, w) {
        (V::Unknown, _) => V::Unknown,
        (V::I(a), Wrap::Float) => V::F(a as f64),
        (V::IL(a), Wrap::Float) => V::FL(a.map(|x| x as f64)),
        (V::F(a), Wrap::Float) => V::F(a),
        (V::FL(a), Wrap::Float) => V::FL(a),
        (V::I(a), w) => V::I(wrap_int(a, w)),
        (V::IL(a), w) => V::IL(a.map(|x| wrap_int(x, w))),
        (V::F(a), w) => V::I(wrap_int(a as i64, w)),
        (V::FL(a), w) => V::IL(a.map(|x| wrap_int(x as i64, w))),
    }
}

fn int_op(op: BinOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => {
            if b == 0 {
                return None;
            }
            a.wrapping_div(b)
        }
        BinOp::Rem => {
            if b == 0 {
                return None;
            }
            a.wrapping_rem(b)
        }
        BinOp::Shl => a.wrapping_shl((b & 63) as u32),
        BinOp::Shr => a.wrapping_shr((b & 63) as u32),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Lt => i64::from(a < b),
        BinOp::Le => i64::from(a <= b),
        BinOp::Gt => i64::from(a > b),
        BinOp::Ge => i64::from(a >= b),
        BinOp::Eq => i64::from(a == b),
        BinOp::Ne => i64::from(a != b),
        BinOp::LAnd => i64::from(a != 0 && b != 0),
        BinOp::LOr => i64::from(a != 0 || b != 0),
    })
}

fn float_op(op: BinOp, a: f64, b: f64) -> Option<V> {
    Some(match op {
        BinOp::Add => V::F(a + b),
        BinOp::Sub => V::F(a - b),
        BinOp::Mul => V::F(a * b),
        BinOp::Div => V::F(a / b),
        BinOp::Lt => V::I(i64::from(a < b)),
        BinOp::Le => V::I(i64::from(a <= b)),
        BinOp::Gt => V::I(i64::from(a > b)),
        BinOp::Ge => V::I(i64::from(a >= b)),
        BinOp::Eq => V::I(i64::from(a == b)),
        BinOp::Ne => V::I(i64::from(a != b)),
        BinOp::LAnd => V::I(i64::from(a != 0.0 && b != 0.0)),
        BinOp::LOr => V::I(i64::from(a != 0.0 || b != 0.0)),
        _ => return None,
    })
}

fn lanes_i(v: &V) -> [i64; LANES] {
    match v {
        V::I(a) => [*a; LANES],
        V::IL(a) => *a,
        V::F(a) => [*a as i64; LANES],
        V::FL(a) => a.map(|x| x as i64),
        V::Unknown => [0; LANES],
    }
}

fn lanes_f(v: &V) -> [f64; LANES] {
    match v {
        V::I(a) => [*a as f64; LANES],
        V::IL(a) => a.map(|x| x as f64),
        V::F(a) => [*a; LANES],
        V::FL(a) => *a,
        V::Unknown => [0.0; LANES],
    }
}

fn is_float(v: &V) -> bool {
    matches!(v, V::F(_) | V::FL(_))
}

impl Machine<'_> {
    fn err<T>(&self, pos: Pos, what: impl Into<String>) -> Result<T> {
        Err(AnalyzeError::Unsupported {
            file: self.file.to_string(),
            line: pos.line,
            column: pos.column,
            what: what.into(),
        })
    }

    fn truth(&self, v: &V, mask: u32, pos: Pos) -> Result<u32> {
        Ok(match v {
            V::I(a) => {
                if *a != 0 {
                    mask
                } else {
                    0
                }
            }
            V::F(a) => {
                if *a != 0.0 {
                    mask
                } else {
                    0
                }
            }
            V::IL(a) => {
                let mut bits = 0u32;
                for (l, x) in a.iter().enumerate() {
                    if *x != 0 {
                        bits |= 1 << l;
                    }
                }
                bits & mask
            }
            V::FL(a) => {
                let mut bits = 0u32;
                for (l, x) in a.iter().enumerate() {
                    if *x != 0.0 {
                        bits |= 1 << l;
                    }
                }
                bits & mask
            }
            V::Unknown => {
                return self.err(
                    pos,
                    "a condition that depends on a value read from memory (data-dependent control flow)",
                );
            }
        })
    }

    fn exec(&mut self, stmts: &[Stmt], mask: u32) -> Result<()> {
        for stmt in stmts {
            let mask = mask & !self.done;
            if mask == 0 {
                return Ok(());
            }
            match stmt {
                Stmt::SetLocal {
                    slot,
                    op,
                    value,
                    wrap,
                } => {
                    let v = self.eval(value, mask)?;
                    let v = match op {
                        Some(op) => {
                            let old = self.locals[*slot].clone();
                            self.binary(*op, old, v, mask)?
                        }
                        None => v,
                    };
                    let v = convert(v, *wrap);
                    self.set(*slot, v, mask);
                }
                Stmt::Store { site, op, value } => {
                    // The value's loads run first; the value itself is not kept.
                    self.eval(value, mask)?;
                    let addrs = self.address(*site, mask)?;
                    if op.is_some() {
                        self.count(*site, &addrs, mask, false);
                    }
                    self.count(*site, &addrs, mask, true);
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    pos,
                } => {
                    let c = self.eval(cond, mask)?;
                    let yes = self.truth(&c, mask, *pos)?;
                    if yes != 0 {
                        self.exec(then, yes)?;
                    }
                    let no = mask & !yes;
                    if no != 0 && !otherwise.is_empty() {
                        self.exec(otherwise, no)?;
                    }
                }
                Stmt::Loop {
                    cond,
                    body,
                    step,
                    pos,
                } => {
                    let mut live = mask;
                    loop {
                        live &= !self.done;
                        if let Some(cond) = cond {
                            if live == 0 {
                                break;
                            }
                            let c = self.eval(cond, live)?;
                            live = self.truth(&c, live, *pos)?;
                        }
                        if live == 0 {
                            break;
                        }
                        self.steps += 1;
                        if self.steps > MAX_WARP_STEPS {
                            return self.err(
                                *pos,
                                "a loop that runs more than 4 194 304 times in one warp (too long to simulate)",
                            );
                        }
                        self.exec(body, live)?;
                        live &= !self.done;
                        if live != 0 {
                            self.exec(step, live)?;
                        }
                    }
                }
                Stmt::Return => self.done |= mask,
                Stmt::Eval(e) => {
                    self.eval(e, mask)?;
                }
            }
        }
        Ok(())
    }

    fn set(&mut self, slot: usize, v: V, mask: u32) {
        if (mask | self.done | !self.exist) == u32::MAX {
            self.locals[slot] = v;
            return;
        }
        let old = std::mem::replace(&mut self.locals[slot], V::I(0));
        let merged = match (&old, &v) {
            (_, V::Unknown) | (V::Unknown, _) => V::Unknown,
            (V::I(a), V::I(b)) if a == b => V::I(*a),
            _ if is_float(&old) || is_float(&v) => {
                let (o, n) = (lanes_f(&old), lanes_f(&v));
                V::FL(std::array::from_fn(|l| {
                    if mask & (1 << l) != 0 { n[l] } else { o[l] }
                }))
            }
            _ => {
                let (o, n) = (lanes_i(&old), lanes_i(&v));
                V::IL(std::array::from_fn(|l| {
                    if mask & (1 << l) != 0 { n[l] } else { o[l] }
                }))
            }
        };
        self.locals[slot] = merged;
    }

    fn binary(&self, op: BinOp, a: V, b: V, mask: u32) -> Result<V> {
        if matches!(a, V::Unknown) || matches!(b, V::Unknown) {
            return Ok(V::Unknown);
        }
        let div_zero = || {
            Err(AnalyzeError::Input(
                "a division or remainder by zero in an active lane".into(),
            ))
        };
        if is_float(&a) || is_float(&b) {
            let (fa, fb) = (lanes_f(&a), lanes_f(&b));
            let uniform = !matches!(a, V::FL(_) | V::IL(_)) && !matches!(b, V::FL(_) | V::IL(_));
            if uniform {
                return match float_op(op, fa[0], fb[0]) {
                    Some(v) => Ok(v),
                    None => Ok(V::Unknown),
                };
            }
            let mut fl = [0f64; LANES];
            let mut il = [0i64; LANES];
            let mut int_result = false;
            for l in 0..LANES {
                match float_op(op, fa[l], fb[l]) {
                    Some(V::F(x)) => fl[l] = x,
                    Some(V::I(x)) => {
                        il[l] = x;
                        int_result = true;
                    }
                    _ => return Ok(V::Unknown),
                }
            }
            return Ok(if int_result { V::IL(il) } else { V::FL(fl) });
        }
        match (&a, &b) {
            (V::I(x), V::I(y)) => match int_op(op, *x, *y) {
                Some(v) => Ok(V::I(v)),
                None => div_zero(),
            },
            _ => {
                let (ia, ib) = (lanes_i(&a), lanes_i(&b));
                let mut out = [0i64; LANES];
                for l in 0..LANES {
                    match int_op(op, ia[l], ib[l]) {
                        Some(v) => out[l] = v,
                        None => {
                            if mask & (1 << l) != 0 {
                                return div_zero();
                            }
                        }
                    }
                }
                Ok(V::IL(out))
            }
        }
    }

    fn eval(&mut self, e: &Expr, mask: u32) -> Result<V> {
        Ok(match e {
            Expr::Int(v) => V::I(*v),
            Expr::Float(v) => V::F(*v),
            Expr::Local(slot) => self.locals[*slot].clone(),
            Expr::Builtin(k) => self.builtins[*k as usize].clone(),
            Expr::Unary(op, a) => {
                let a = self.eval(a, mask)?;
                match (op, a) {
                    (_, V::Unknown) => V::Unknown,
                    (UnOp::Neg, V::I(x)) => V::I(x.wrapping_neg()),
                    (UnOp::Neg, V::F(x)) => V::F(-x),
                    (UnOp::Neg, V::IL(x)) => V::IL(x.map(i64::wrapping_neg)),
                    (UnOp::Neg, V::FL(x)) => V::FL(x.map(|v| -v)),
                    (UnOp::Not, V::I(x)) => V::I(i64::from(x == 0)),
                    (UnOp::Not, V::F(x)) => V::I(i64::from(x == 0.0)),
                    (UnOp::Not, V::IL(x)) => V::IL(x.map(|v| i64::from(v == 0))),
                    (UnOp::Not, V::FL(x)) => V::IL(x.map(|v| i64::from(v == 0.0))),
                    (UnOp::BitNot, V::I(x)) => V::I(!x),
                    (UnOp::BitNot, V::IL(x)) => V::IL(x.map(|v| !v)),
                    (UnOp::BitNot, _) => V::Unknown,
                }
            }
            Expr::Binary(op @ (BinOp::LAnd | BinOp::LOr), a, b) => {
                let av = self.eval(a, mask)?;
                if matches!(av, V::Unknown) {
                    // The right side still runs on some lanes; count its loads on all of them.
                    self.eval(b, mask)?;
                    return Ok(V::Unknown);
                }
                let t = self.truth(&av, mask, Pos::default())?;
                let rest = if *op == BinOp::LAnd { t } else { mask & !t };
                let bv = if rest != 0 {
                    self.eval(b, rest)?
                } else {
                    V::I(0)
                };
                if matches!(bv, V::Unknown) {
                    return Ok(V::Unknown);
                }
                let tb = self.truth(&bv, rest, Pos::default())?;
                let result = if *op == BinOp::LAnd { tb } else { t | tb };
                if result & mask == mask {
                    V::I(1)
                } else if result & mask == 0 {
                    V::I(0)
                } else {
                    V::IL(std::array::from_fn(|l| i64::from(result & (1 << l) != 0)))
                }
            }
            Expr::Binary(op, a, b) => {
                let a = self.eval(a, mask)?;
                let b = self.eval(b, mask)?;
                self.binary(*op, a, b, mask)?
            }
            Expr::Cond(c, a, b) => {
                let cv = self.eval(c, mask)?;
                if matches!(cv, V::Unknown) {
                    self.eval(a, mask)?;
                    self.eval(b, mask)?;
                    return Ok(V::Unknown);
                }
                let t = self.truth(&cv, mask, Pos::default())?;
                let f = mask & !t;
                let av = if t != 0 { self.eval(a, t)? } else { V::I(0) };
                let bv = if f != 0 { self.eval(b, f)? } else { V::I(0) };
                if f == 0 {
                    av
                } else if t == 0 {
                    bv
                } else if matches!(av, V::Unknown) || matches!(bv, V::Unknown) {
                    V::Unknown
                } else if is_float(&av) || is_float(&bv) {
                    let (x, y) = (lanes_f(&av), lanes_f(&bv));
                    V::FL(std::array::from_fn(|l| {
                        if t & (1 << l) != 0 { x[l] } else { y[l] }
                    }))
                } else {
                    let (x, y) = (lanes_i(&av), lanes_i(&bv));
                    V::IL(std::array::from_fn(|l| {
                        if t & (1 << l) != 0 { x[l] } else { y[l] }
                    }))
                }
            }
            Expr::Cast(w, a) => {
                let a = self.eval(a, mask)?;
                convert(a, *w)
            }
            Expr::Load(site) => {
                let addrs = self.address(*site, mask)?;
                self.count(*site, &addrs, mask, false);
                V::Unknown
            }
        })
    }

    /// Byte offsets of every active lane's access at `site`.
    fn address(&mut self, site_idx: usize, mask: u32) -> Result<[i64; LANES]> {
        let kernel = self.kernel;
        let site: &Site = &kernel.sites[site_idx];
        let mut elems = [0i64; LANES];
        for (k, idx) in site.indices.iter().enumerate() {
            let v = self.eval(idx, mask)?;
            let lanes = match &v {
                V::Unknown => {
                    return self.err(
                        site.pos,
                        format!(
                            "the index of `{}` depends on a value read from memory",
                            site.text
                        ),
                    );
                }
                V::F(_) | V::FL(_) => {
                    return self.err(
                        site.pos,
                        format!("a floating-point index in `{}`", site.text),
                    );
                }
                other => lanes_i(other),
            };
            for l in 0..LANES {
                if mask & (1 << l) == 0 {
                    continue;
                }
                if let Some(&extent) = site.extents.get(k)
                    && !(0..extent).contains(&lanes[l])
                {
                    return self.err(
                        site.pos,
                        format!(
                            "`{}` indexes dimension {} with {} (the array holds {extent}): out of bounds",
                            site.text,
                            k + 1,
                            lanes[l]
                        ),
                    );
                }
                let step = lanes[l].checked_mul(site.strides[k]);
                match step.and_then(|s| elems[l].checked_add(s)) {
                    Some(v) => elems[l] = v,
                    None => return self.err(site.pos, "an address that overflows"),
                }
            }
        }
        let mut out = [0i64; LANES];
        for l in 0..LANES {
            if mask & (1 << l) == 0 {
                continue;
            }
            match elems[l]
                .checked_mul(site.elem_bytes)
                .and_then(|b| b.checked_add(site.field_offset))
                .filter(|b| b.unsigned_abs() < 1 << 60)
            {
                Some(b) => out[l] = b,
                None => return self.err(site.pos, "an address that overflows"),
            }
        }
        Ok(out)
    }

    fn count(&mut self, site_idx: usize, addrs: &[i64; LANES], mask: u32, store: bool) {
        if mask == 0 {
            return;
        }
        let site = &self.kernel.sites[site_idx];
        let bytes = site.access_bytes;
        let c = Counts {
            instructions: 1,
            requests: u64::from(site.space == Space::Global),
            bytes: u64::from(mask.count_ones()) * u64::from(bytes),
            ..Counts::default()
        };
        let c = match site.space {
            Space::Global => Counts {
                sectors: u64::from(sectors(addrs, mask, bytes)),
                ..c
            },
            Space::Shared => {
                let (w, ideal) = wavefronts(addrs, mask, bytes, store);
                Counts {
                    wavefronts: u64::from(w),
                    ideal: u64::from(ideal),
                    ..c
                }
            }
        };
        let entry = &mut self.counts[site_idx];
        if store {
            entry.store.add(&c);
        } else {
            entry.load.add(&c);
        }
    }
}

/// Distinct 32-byte sectors the active lanes touch (engine notes §1).
pub fn sectors(addrs: &[i64; LANES], mask: u32, bytes: u32) -> u32 {
    let mut buf = [0i64; 2 * LANES];
    let mut n = 0;
    let last = i64::from(bytes) - 1;
    for (l, &a) in addrs.iter().enumerate() {
        if mask & (1 << l) != 0 {
            let first = a >> 5;
            let end = (a + last) >> 5;
            buf[n] = first;
            n += 1;
            if end != first {
                buf[n] = end;
                n += 1;
            }
        }
    }
    let s = &mut buf[..n];
    if !s.windows(2).all(|w| w[0] <= w[1]) {
        s.sort_unstable();
    }
    let mut distinct = 0;
    for (k, v) in s.iter().enumerate() {
        if k == 0 || s[k - 1] != *v {
            distinct += 1;
        }
    }
    distinct
}

/// Shared-memory wavefronts and active phases (engine notes §2 and §2b).
pub fn wavefronts(addrs: &[i64; LANES], mask: u32, bytes: u32, store: bool) -> (u32, u32) {
    let base_phase = 128 / bytes.max(4) as usize;
    let pairs = |xor: usize| {
        (0..LANES).all(|l| {
            mask & (1 << l) == 0 || mask & (1 << (l ^ xor)) == 0 || addrs[l] == addrs[l ^ xor]
        })
    };
    let merged = !store && bytes >= 8 && (pairs(1) || pairs(2));
    let phase = if merged { base_phase * 2 } else { base_phase }.min(LANES);
    let mut total = 0;
    let mut ideal = 0;
    let mut buf = [0i64; 4 * LANES];
    for first in (0..LANES).step_by(phase) {
        let mut n = 0;
        for (l, &a) in addrs.iter().enumerate().skip(first).take(phase) {
            if mask & (1 << l) == 0 {
                continue;
            }
            let w0 = a.div_euclid(4);
            let w1 = (a + i64::from(bytes) - 1).div_euclid(4);
            for w in w0..=w1 {
                if n < buf.len() {
                    buf[n] = w;
                    n += 1;
                }
            }
        }
        if n == 0 {
            continue;
        }
        ideal += 1;
        let s = &mut buf[..n];
        s.sort_unstable();
        let mut per_bank = [0u32; 32];
        for (k, w) in s.iter().enumerate() {
            if k == 0 || s[k - 1] != *w {
                per_bank[w.rem_euclid(32) as usize] += 1;
            }
        }
        total += per_bank.iter().copied().max().unwrap_or(0);
    }
    (total, ideal)
}
