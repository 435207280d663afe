//! Running a parsed kernel on real data, on the CPU, as the GPU would: every block, every warp of a
//! block in lockstep (32 lanes, an active mask, reconvergence after each `if` and loop), warps of a
//! block suspended at `__syncthreads()` until all of them reach it.
//!
//! The statement tree is compiled into a flat list of [`Op`]s with explicit jumps, so that a warp's
//! whole state is its program counter, its mask stack and its lanes' locals, and a warp can stop at
//! a barrier and resume later.
//!
//! Integers wrap as the kernel's C types do (the parser puts the conversions in the tree), `float`
//! arithmetic is done in `f32` (a `double` too: the interpreter has one float width), and values
//! are stored in the buffers by the element type of each access. A division by zero is an error
//! naming its line. Every access is checked against its array's bounds ([`ExecError::OutOfBounds`])
//! and against the accesses of other threads since the last barrier ([`Race`]), as
//! compute-sanitizer's memcheck and racecheck would. The run is bounded by [`Limits`].

use super::ast::{BinOp, Expr, Func, Kernel, Site, Space, Stmt, UnOp, Wrap};
use super::run::Launch;
use std::collections::BTreeMap;
use thiserror::Error;

const LANES: usize = 32;

/// How far a run may go.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Warp instructions (one per op a warp executes), over the whole launch.
    pub max_steps: u64,
    /// Bytes of memory the run may hold: buffers, shared memory, race shadows and locals.
    pub max_bytes: u64,
}

impl Default for Limits {
    /// 4 194 304 warp instructions (about a second in a release build) and 256 MiB.
    fn default() -> Limits {
        Limits {
            max_steps: 1 << 22,
            max_bytes: 256 << 20,
        }
    }
}

/// The global arrays of a run, by parameter name, as raw little-endian bytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Buffers {
    /// Each pointer parameter's memory.
    pub arrays: BTreeMap<String, Vec<u8>>,
}

impl Buffers {
    /// Adds (or replaces) an array of `f32`s.
    pub fn put_f32(&mut self, name: &str, values: &[f32]) {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.arrays.insert(name.to_string(), bytes);
    }

    /// Adds (or replaces) an array of `i32`s.
    pub fn put_i32(&mut self, name: &str, values: &[i32]) {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.arrays.insert(name.to_string(), bytes);
    }

    /// The array `name` read as `f32`s.
    pub fn f32s(&self, name: &str) -> Option<Vec<f32>> {
        self.arrays.get(name).map(|b| {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
    }

    /// The array `name` read as `i32`s.
    pub fn i32s(&self, name: &str) -> Option<Vec<i32>> {
        self.arrays.get(name).map(|b| {
            b.chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
    }
}

/// One thread's access, as a race names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Access {
    /// `blockIdx`.
    pub block: [u32; 3],
    /// `threadIdx`.
    pub thread: [u32; 3],
    /// The source line.
    pub line: u32,
    /// A write (else a read).
    pub write: bool,
}

/// Two threads touching one address without a barrier between them, at least one writing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Race {
    /// `global` or `shared`.
    pub space: &'static str,
    /// The array.
    pub array: String,
    /// The byte offset in the array.
    pub byte: u64,
    /// The earlier access.
    pub first: Access,
    /// The later one.
    pub second: Access,
}

impl std::fmt::Display for Race {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = |a: &Access| if a.write { "write" } else { "read" };
        write!(
            f,
            "race on {} `{}` (byte {}): {} at line {} by thread {} of block {}, then {} at line {} by thread {} of block {}, with no __syncthreads() between",
            self.space,
            self.array,
            self.byte,
            kind(&self.first),
            self.first.line,
            dims(self.first.thread),
            dims(self.first.block),
            kind(&self.second),
            self.second.line,
            dims(self.second.thread),
            dims(self.second.block),
        )
    }
}

fn dims(d: [u32; 3]) -> String {
    format!("({},{},{})", d[0], d[1], d[2])
}

/// What a run found besides its results.
#[derive(Debug, Clone, Default)]
pub struct ExecReport {
    /// Warp instructions executed.
    pub steps: u64,
    /// Blocks run.
    pub blocks: u64,
    /// The races found (one per pair of lines and array), at most 16.
    pub races: Vec<Race>,
}

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExecError {
    /// An access outside its array.
    #[error(
        "line {line}: out of bounds: {} {array}[{index}] ({space} array of {elements} elements) by thread {} of block {}",
        if *write { "write to" } else { "read of" },
        dims(*thread),
        dims(*block)
    )]
    OutOfBounds {
        /// `global` or `shared`.
        space: &'static str,
        /// The array.
        array: String,
        /// The element index (flattened for a shared array of several dimensions).
        index: i64,
        /// Elements the array has.
        elements: i64,
        /// A write (else a read).
        write: bool,
        /// `blockIdx`.
        block: [u32; 3],
        /// `threadIdx`.
        thread: [u32; 3],
        /// Source line.
        line: u32,
    },
    /// An integer division or remainder by zero.
    #[error("line {line}: integer division by zero in thread {} of block {}", dims(*thread), dims(*block))]
    DivisionByZero {
        /// Source line.
        line: u32,
        /// `blockIdx`.
        block: [u32; 3],
        /// `threadIdx`.
        thread: [u32; 3],
    },
    /// A `__syncthreads()` that not every thread of the block reaches.
    #[error("line {line}: __syncthreads() in divergent code: {what} (block {})", dims(*block))]
    DivergentBarrier {
        /// Source line.
        line: u32,
        /// `blockIdx`.
        block: [u32; 3],
        /// Which threads are missing.
        what: String,
    },
    /// More steps than [`Limits::max_steps`].
    #[error(
        "too long: more than {0} warp instructions (a loop that never ends, or a size too big for the interpreter)"
    )]
    TooLong(u64),
    /// More memory than [`Limits::max_bytes`].
    #[error("too much memory: the run needs {needed} bytes, the interpreter allows {limit}")]
    TooMuchMemory {
        /// Bytes needed.
        needed: u64,
        /// The cap.
        limit: u64,
    },
    /// Something the parser reads but the interpreter cannot compute with data.
    #[error("line {line}: the interpreter cannot run {what}")]
    Unsupported {
        /// Source line.
        line: u32,
        /// What.
        what: String,
    },
    /// A pointer parameter without a buffer, or a bad launch.
    #[error("{0}")]
    Input(String),
}

/// A value in one lane.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Val {
    I(i64),
    F(f32),
    /// A whole vector element (`float4`) as read, only to be stored again.
    Raw([u8; 16], u8),
}

/// One instruction of the compiled kernel.
#[derive(Debug, Clone)]
enum Op {
    Set {
        slot: usize,
        op: Option<BinOp>,
        value: Expr,
        wrap: Wrap,
        line: u32,
    },
    Store {
        site: usize,
        op: Option<BinOp>,
        value: Expr,
        line: u32,
    },
    Eval(Expr, u32),
    /// Pushes a frame; lanes where `cond` is false wait for `Else`.
    If {
        cond: Expr,
        else_pc: usize,
        line: u32,
    },
    /// Switches to the lanes that did not take the `then` branch.
    Else {
        end_pc: usize,
    },
    /// Pops the frame: the lanes that entered the `if` reconverge.
    EndIf,
    LoopBegin,
    LoopTest {
        cond: Option<Expr>,
        exit_pc: usize,
        line: u32,
    },
    Jump(usize),
    LoopEnd,
    Barrier(u32),
    Return,
}

fn compile(stmts: &[Stmt], ops: &mut Vec<Op>) {
    for s in stmts {
        match s {
            Stmt::SetLocal {
                slot,
                op,
                value,
                wrap,
                pos,
            } => ops.push(Op::Set {
                slot: *slot,
                op: *op,
                value: value.clone(),
                wrap: *wrap,
                line: pos.line,
            }),
            Stmt::Store {
                site,
                op,
                value,
                pos,
            } => ops.push(Op::Store {
                site: *site,
                op: *op,
                value: value.clone(),
                line: pos.line,
            }),
            Stmt::Eval(e, pos) => ops.push(Op::Eval(e.clone(), pos.line)),
            Stmt::If {
                cond,
                then,
                otherwise,
                pos,
            } => {
                let at = ops.len();
                ops.push(Op::If {
                    cond: cond.clone(),
                    else_pc: 0,
                    line: pos.line,
                });
                compile(then, ops);
                let else_at = ops.len();
                ops.push(Op::Else { end_pc: 0 });
                compile(otherwise, ops);
                let end = ops.len();
                ops.push(Op::EndIf);
                if let Op::If { else_pc, .. } = &mut ops[at] {
                    *else_pc = else_at;
                }
                if let Op::Else { end_pc } = &mut ops[else_at] {
                    *end_pc = end;
                }
            }
            Stmt::Loop {
                cond,
                body,
                step,
                pos,
            } => {
                ops.push(Op::LoopBegin);
                let test = ops.len();
                ops.push(Op::LoopTest {
                    cond: cond.clone(),
                    exit_pc: 0,
                    line: pos.line,
                });
                compile(body, ops);
                compile(step, ops);
                ops.push(Op::Jump(test));
                let exit = ops.len();
                ops.push(Op::LoopEnd);
                if let Op::LoopTest { exit_pc, .. } = &mut ops[test] {
                    *exit_pc = exit;
                }
            }
            Stmt::Barrier(pos) => ops.push(Op::Barrier(pos.line)),
            Stmt::Return => ops.push(Op::Return),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    saved: u32,
    other: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Running,
    AtBarrier(u32),
    Done,
}

struct Warp {
    pc: usize,
    active: u32,
    done: u32,
    exist: u32,
    stack: Vec<Frame>,
    /// `locals × 32` values, slot-major.
    locals: Vec<Val>,
    /// First flat thread index of the warp in its block.
    first: u32,
    state: State,
}

/// Who last touched one byte, for the race check. `epoch` 0: nobody.
#[derive(Debug, Clone, Copy, Default)]
struct Touch {
    epoch: u32,
    block: u32,
    thread: u32,
    line: u32,
}

#[derive(Debug, Clone, Copy, Default)]
struct Shadow {
    write: Touch,
    byte: u8,
    read: Touch,
    /// A reader of another warp than `read`'s, in the same epoch.
    read2: Touch,
}

struct Mem {
    space: Space,
    name: String,
    bytes: Vec<u8>,
    shadow: Vec<Shadow>,
}

struct Machine<'k> {
    kernel: &'k Kernel,
    launch: Launch,
    /// Per site: index into `mems`.
    site_mem: Vec<usize>,
    /// Per atomic (by its number): the memory of its element (0 when it has none).
    atomic_mem: Vec<usize>,
    mems: Vec<Mem>,
    epoch: u32,
    block_flat: u32,
    block: [u32; 3],
    steps: u64,
    limits: Limits,
    races: Vec<Race>,
}

type R<T> = Result<T, ExecError>;

/// Runs `kernel` over `launch` on `buffers` (each pointer parameter's array, by name); the arrays
/// are changed in place as the kernel writes them.
pub fn run(
    kernel: &Kernel,
    launch: &Launch,
    buffers: &mut Buffers,
    limits: &Limits,
) -> R<ExecReport> {
    let threads =
        u64::from(launch.block[0]) * u64::from(launch.block[1]) * u64::from(launch.block[2]);
    if threads == 0 || threads > 1024 {
        return Err(ExecError::Input(format!(
            "a block of {threads} threads: a block has 1 to 1024 threads"
        )));
    }
    let mut ops = Vec::new();
    compile(&kernel.body, &mut ops);
    // The memories: each global array the kernel names, each shared array (an atomic's element
    // too, an access the analyser does not count).
    let mut mems: Vec<Mem> = Vec::new();
    let targets = kernel.atomic_targets.iter().flatten().map(|t| &t.site);
    let mut placed = Vec::with_capacity(kernel.sites.len());
    for site in kernel.sites.iter().chain(targets) {
        match memory_of(site, &mut mems, buffers, limits) {
            Ok(k) => placed.push(k),
            Err(e) => {
                give_back(mems, buffers);
                return Err(e);
            }
        }
    }
    let atomics = placed.split_off(kernel.sites.len());
    let site_mem = placed;
    let mut atomics = atomics.into_iter();
    let atomic_mem = kernel
        .atomic_targets
        .iter()
        .map(|t| match t {
            Some(_) => atomics.next().unwrap_or(0),
            None => 0,
        })
        .collect();
    let warps = threads.div_ceil(LANES as u64);
    let needed: u64 = mems
        .iter()
        .map(|m| m.bytes.len() as u64 * (1 + std::mem::size_of::<Shadow>() as u64))
        .sum::<u64>()
        + warps * (kernel.locals as u64 * LANES as u64 * std::mem::size_of::<Val>() as u64);
    if needed > limits.max_bytes {
        give_back(mems, buffers);
        return Err(ExecError::TooMuchMemory {
            needed,
            limit: limits.max_bytes,
        });
    }
    for m in &mut mems {
        m.shadow = vec![Shadow::default(); m.bytes.len()];
    }
    let mut machine = Machine {
        kernel,
        launch: *launch,
        site_mem,
        atomic_mem,
        mems,
        epoch: 0,
        block_flat: 0,
        block: [0; 3],
        steps: 0,
        limits: *limits,
        races: Vec::new(),
    };
    let result = machine.all_blocks(&ops, threads as u32);
    let Machine {
        mems, races, steps, ..
    } = machine;
    give_back(mems, buffers);
    let blocks = result?;
    Ok(ExecReport {
        steps,
        blocks,
        races,
    })
}

/// The memory `site` reads or writes: one already made for its array, else a new one (a global
/// array's buffer taken from `buffers`, a shared array's zeroed bytes).
fn memory_of(site: &Site, mems: &mut Vec<Mem>, buffers: &mut Buffers, limits: &Limits) -> R<usize> {
    if let Some(k) = mems
        .iter()
        .position(|m| m.space == site.space && m.name == site.array)
    {
        return Ok(k);
    }
    let bytes = match site.space {
        Space::Global => buffers
            .arrays
            .remove(&site.array)
            .ok_or_else(|| ExecError::Input(format!("no data for the array `{}`", site.array)))?,
        Space::Shared => {
            // Sized before anything is allocated: a huge array is refused, not held.
            let needed = site
                .extents
                .iter()
                .fold(u64::try_from(site.elem_bytes).unwrap_or(0), |acc, &e| {
                    acc.saturating_mul(u64::try_from(e).unwrap_or(0))
                });
            if needed > limits.max_bytes {
                return Err(ExecError::TooMuchMemory {
                    needed,
                    limit: limits.max_bytes,
                });
            }
            vec![0u8; needed as usize]
        }
    };
    mems.push(Mem {
        space: site.space,
        name: site.array.clone(),
        bytes,
        shadow: Vec::new(),
    });
    Ok(mems.len() - 1)
}

fn give_back(mems: Vec<Mem>, buffers: &mut Buffers) {
    for m in mems {
        if m.space == Space::Global {
            buffers.arrays.insert(m.name, m.bytes);
        }
    }
}

impl Machine<'_> {
    fn all_blocks(&mut self, ops: &[Op], threads: u32) -> R<u64> {
        let [gx, gy, gz] = self.launch.grid;
        let mut blocks = 0u64;
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    self.block = [x, y, z];
                    self.block_flat = self.block_flat.wrapping_add(1);
                    self.one_block(ops, threads)?;
                    blocks += 1;
                }
            }
        }
        Ok(blocks)
    }

    fn one_block(&mut self, ops: &[Op], threads: u32) -> R<()> {
        // A fresh shared memory for the block. Its shadow is not cleared: a touch by an earlier
        // block never races with this one's (see `check`), which keeps a block of 227 KiB of
        // dynamic shared memory from costing a 13 MB fill each.
        for m in &mut self.mems {
            if m.space == Space::Shared {
                m.bytes.fill(0);
            }
        }
        self.epoch += 1;
        let nwarps = threads.div_ceil(LANES as u32);
        let mut warps: Vec<Warp> = (0..nwarps)
            .map(|w| {
                let first = w * LANES as u32;
                let n = (threads - first).min(LANES as u32);
                let exist = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
                Warp {
                    pc: 0,
                    active: exist,
                    done: !exist,
                    exist,
                    stack: Vec::new(),
                    locals: vec![Val::I(0); self.kernel.locals * LANES],
                    first,
                    state: State::Running,
                }
            })
            .collect();
        loop {
            for w in warps.iter_mut() {
                if w.state == State::Running {
                    self.run_warp(ops, w)?;
                }
            }
            let waiting: Vec<u32> = warps
                .iter()
                .filter_map(|w| match w.state {
                    State::AtBarrier(line) => Some(line),
                    _ => None,
                })
                .collect();
            let Some(&line) = waiting.first() else {
                return Ok(());
            };
            if let Some(&other) = waiting.iter().find(|&&l| l != line) {
                return Err(ExecError::DivergentBarrier {
                    line,
                    block: self.block,
                    what: format!("other warps of the block wait at the barrier of line {other}"),
                });
            }
            // Every warp has arrived (or finished): a new interval begins.
            self.epoch += 1;
            for w in warps.iter_mut() {
                if matches!(w.state, State::AtBarrier(_)) {
                    w.state = State::Running;
                }
            }
        }
    }

    fn thread_of(&self, warp: &Warp, lane: usize) -> [u32; 3] {
        let t = warp.first + lane as u32;
        let [bx, by, _] = self.launch.block;
        [t % bx, (t / bx) % by, t / bx.saturating_mul(by).max(1)]
    }

    fn run_warp(&mut self, ops: &[Op], w: &mut Warp) -> R<()> {
        loop {
            let Some(op) = ops.get(w.pc) else {
                w.state = State::Done;
                return Ok(());
            };
            self.steps += 1;
            if self.steps > self.limits.max_steps {
                return Err(ExecError::TooLong(self.limits.max_steps));
            }
            w.pc += 1;
            match op {
                Op::Set {
                    slot,
                    op,
                    value,
                    wrap,
                    line,
                } => {
                    for lane in lanes(w.active) {
                        // `v[i] = …` of a local array: the element's own slot.
                        let (slot, value) = match value {
                            Expr::Call(Func::LocalPut, args) => match args.as_slice() {
                                [at, Expr::Int(n), v] => {
                                    (self.local_slot(w, lane, *slot, at, *n, true, *line)?, v)
                                }
                                _ => return Err(not_arith(*line)),
                            },
                            _ => (*slot, value),
                        };
                        let v = self.eval(w, lane, value, *line)?;
                        let v = match op {
                            Some(o) => {
                                let old = w.locals[slot * LANES + lane];
                                self.binary(*o, old, v, w, lane, *line)?
                            }
                            None => v,
                        };
                        w.locals[slot * LANES + lane] = convert(v, *wrap, *line)?;
                    }
                }
                Op::Store {
                    site,
                    op,
                    value,
                    line,
                } => {
                    let mut writes: Vec<(usize, usize, Val)> = Vec::new();
                    for lane in lanes(w.active) {
                        let v = self.eval(w, lane, value, *line)?;
                        let at = self.address(w, lane, *site, true, *line)?;
                        let v = match op {
                            Some(o) => {
                                let old = self.load_at(w, lane, *site, at, *line)?;
                                self.binary(*o, old, v, w, lane, *line)?
                            }
                            None => v,
                        };
                        writes.push((lane, at, v));
                    }
                    for (lane, at, v) in writes {
                        self.store_at(w, lane, *site, at, v, *line)?;
                    }
                }
                Op::Eval(e, line) => {
                    for lane in lanes(w.active) {
                        self.eval(w, lane, e, *line)?;
                    }
                }
                Op::If {
                    cond,
                    else_pc,
                    line,
                } => {
                    let mut taken = 0u32;
                    for lane in lanes(w.active) {
                        if truthy(self.eval(w, lane, cond, *line)?, *line)? {
                            taken |= 1 << lane;
                        }
                    }
                    w.stack.push(Frame {
                        saved: w.active,
                        other: w.active & !taken,
                    });
                    w.active = taken;
                    if taken == 0 {
                        w.pc = *else_pc;
                    }
                }
                Op::Else { end_pc } => {
                    let top = w
                        .stack
                        .last()
                        .copied()
                        .unwrap_or(Frame { saved: 0, other: 0 });
                    w.active = top.other & !w.done;
                    if w.active == 0 {
                        w.pc = *end_pc;
                    }
                }
                Op::EndIf | Op::LoopEnd => {
                    let top = w.stack.pop().unwrap_or(Frame { saved: 0, other: 0 });
                    w.active = top.saved & !w.done;
                }
                Op::LoopBegin => w.stack.push(Frame {
                    saved: w.active,
                    other: 0,
                }),
                Op::LoopTest {
                    cond,
                    exit_pc,
                    line,
                } => {
                    if let Some(cond) = cond {
                        let mut stay = 0u32;
                        for lane in lanes(w.active) {
                            if truthy(self.eval(w, lane, cond, *line)?, *line)? {
                                stay |= 1 << lane;
                            }
                        }
                        w.active = stay;
                    }
                    if w.active == 0 {
                        w.pc = *exit_pc;
                    }
                }
                Op::Jump(to) => w.pc = *to,
                Op::Return => {
                    w.done |= w.active;
                    w.active = 0;
                }
                Op::Barrier(line) => {
                    if w.active == 0 {
                        continue;
                    }
                    let live = w.exist & !w.done;
                    if w.active != live {
                        let missing = live & !w.active;
                        let lane = missing.trailing_zeros() as usize;
                        return Err(ExecError::DivergentBarrier {
                            line: *line,
                            block: self.block,
                            what: format!(
                                "thread {} does not reach it ({} of the warp's {} live threads do)",
                                dims(self.thread_of(w, lane)),
                                w.active.count_ones(),
                                live.count_ones()
                            ),
                        });
                    }
                    w.state = State::AtBarrier(*line);
                    return Ok(());
                }
            }
        }
    }

    fn builtin(&self, w: &Warp, lane: usize, k: u8) -> i64 {
        let t = self.thread_of(w, lane);
        let k = k as usize;
        i64::from(match k {
            0..=2 => t[k],
            3..=5 => self.block[k - 3],
            6..=8 => self.launch.block[k - 6],
            _ => self.launch.grid[(k - 9).min(2)],
        })
    }

    fn eval(&mut self, w: &Warp, lane: usize, e: &Expr, line: u32) -> R<Val> {
        self.value(w, lane, e, line, true)
    }

    /// An integer value, its loads read without being recorded for the race check (an index:
    /// its loads are checked where they are evaluated as loads of their own).
    fn index(&mut self, w: &Warp, lane: usize, e: &Expr, line: u32) -> R<i64> {
        match self.value(w, lane, e, line, false)? {
            Val::I(v) => Ok(v),
            _ => Err(ExecError::Unsupported {
                line,
                what: "an index that is not an integer".into(),
            }),
        }
    }

    /// The value of `e` in `lane`; `record`: its loads are recorded for the race check.
    fn value(&mut self, w: &Warp, lane: usize, e: &Expr, line: u32, record: bool) -> R<Val> {
        Ok(match e {
            Expr::Int(v) => Val::I(*v),
            Expr::Float(v) => Val::F(*v as f32),
            Expr::Local(slot) => w
                .locals
                .get(slot * LANES + lane)
                .copied()
                .unwrap_or(Val::I(0)),
            Expr::Builtin(k) => Val::I(self.builtin(w, lane, *k)),
            Expr::Unary(op, a) => {
                let a = self.value(w, lane, a, line, record)?;
                match (op, a) {
                    (UnOp::Neg, Val::I(v)) => Val::I(v.wrapping_neg()),
                    (UnOp::Neg, Val::F(v)) => Val::F(-v),
                    (UnOp::Not, v) => Val::I(i64::from(!truthy(v, line)?)),
                    (UnOp::BitNot, Val::I(v)) => Val::I(!v),
                    _ => return Err(not_arith(line)),
                }
            }
            Expr::Binary(BinOp::LAnd, a, b) => {
                let a = truthy(self.value(w, lane, a, line, record)?, line)?;
                Val::I(i64::from(
                    a && truthy(self.value(w, lane, b, line, record)?, line)?,
                ))
            }
            Expr::Binary(BinOp::LOr, a, b) => {
                let a = truthy(self.value(w, lane, a, line, record)?, line)?;
                Val::I(i64::from(
                    a || truthy(self.value(w, lane, b, line, record)?, line)?,
                ))
            }
            Expr::Binary(op, a, b) => {
                let a = self.value(w, lane, a, line, record)?;
                let b = self.value(w, lane, b, line, record)?;
                self.binary(*op, a, b, w, lane, line)?
            }
            Expr::Cond(c, a, b) => {
                if truthy(self.value(w, lane, c, line, record)?, line)? {
                    self.value(w, lane, a, line, record)?
                } else {
                    self.value(w, lane, b, line, record)?
                }
            }
            Expr::Cast(wrap, a) => convert(self.value(w, lane, a, line, record)?, *wrap, line)?,
            Expr::Load(site) => {
                let at = self.address(w, lane, *site, false, line)?;
                if record {
                    self.load_at(w, lane, *site, at, line)?
                } else {
                    let s = &self.kernel.sites[*site];
                    let mem = &self.mems[self.site_mem[*site]];
                    decode(
                        &mem.bytes[at..at + s.access_bytes as usize],
                        s.value,
                        s.value_bytes as usize,
                        line,
                    )?
                }
            }
            Expr::Call(func, args) if is_shuffle(*func) => {
                let (value, src) = shuffle_args(args, line)?;
                let x = self.index(w, lane, src.0, line)?;
                let width = match src.1 {
                    Some(e) => self.index(w, lane, e, line)?,
                    None => 32,
                };
                let from = shuffle_source(*func, lane, x, width, w.active, line)?;
                self.value(w, from, value, line, record)?
            }
            Expr::Call(Func::Atomic, args) => self.atomic(w, lane, args, line, record)?,
            Expr::Call(Func::LocalAt, args) => match args.as_slice() {
                [Expr::Local(slot), at, Expr::Int(n)] => {
                    let slot = self.local_slot(w, lane, *slot, at, *n, false, line)?;
                    w.locals
                        .get(slot * LANES + lane)
                        .copied()
                        .unwrap_or(Val::I(0))
                }
                _ => return Err(not_arith(line)),
            },
            Expr::Call(func, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.value(w, lane, a, line, record)?);
                }
                apply(*func, &vals, line)?
            }
        })
    }

    /// The slot of element `at` of the local array at `slot` (of `n` elements), bounds-checked.
    #[allow(clippy::too_many_arguments)]
    fn local_slot(
        &mut self,
        w: &Warp,
        lane: usize,
        slot: usize,
        at: &Expr,
        n: i64,
        write: bool,
        line: u32,
    ) -> R<usize> {
        let index = self.index(w, lane, at, line)?;
        if (0..n).contains(&index) {
            return Ok(slot + index as usize);
        }
        Err(ExecError::OutOfBounds {
            space: "local",
            array: self
                .kernel
                .local_names
                .get(&slot)
                .cloned()
                .unwrap_or_else(|| "a local array".into()),
            index,
            elements: n,
            write,
            block: self.block,
            thread: self.thread_of(w, lane),
            line,
        })
    }

    /// An atomic of one lane: the element's old value is read, the new one written in the same
    /// step (lanes one after another, as the hardware serialises them), and the old value is its
    /// value. Atomics do not race with one another, so they are not recorded for the race check.
    fn atomic(&mut self, w: &Warp, lane: usize, args: &[Expr], line: u32, record: bool) -> R<Val> {
        let kernel = self.kernel;
        let target = match args.first() {
            Some(Expr::Int(n)) => usize::try_from(*n)
                .ok()
                .and_then(|n| kernel.atomic_targets.get(n).map(|t| (n, t))),
            _ => None,
        };
        let Some((n, Some(t))) = target else {
            return Err(ExecError::Unsupported {
                line,
                what: "this atomic (the interpreter runs atomicAdd, atomicSub, atomicExch, atomicMin, atomicMax, atomicInc, atomicDec, atomicCAS, atomicAnd, atomicOr and atomicXor on `&array[index]`)".into(),
            });
        };
        // The loads of the element's index, as made; then the values.
        for e in &args[1..1 + t.indices] {
            self.value(w, lane, e, line, record)?;
        }
        let mut vals = Vec::new();
        for e in &args[1 + t.indices..] {
            vals.push(self.value(w, lane, e, line, record)?);
        }
        let s = &t.site;
        let at = self.address_in(w, lane, s, self.atomic_mem[n], true, line)?;
        let n_bytes = s.access_bytes as usize;
        let k = self.atomic_mem[n];
        let old = decode(
            &self.mems[k].bytes[at..at + n_bytes],
            s.value,
            s.value_bytes as usize,
            line,
        )?;
        let arg = |i: usize| {
            vals.get(i).copied().ok_or_else(|| ExecError::Unsupported {
                line,
                what: "an atomic without its value".into(),
            })
        };
        let as_u32 = |v: Val| match v {
            Val::I(v) => Ok(v as u32),
            _ => Err(not_arith(line)),
        };
        use super::ast::AtomicKind as K;
        let new = match t.kind {
            K::Add => self.binary(BinOp::Add, old, arg(0)?, w, lane, line)?,
            K::Sub => self.binary(BinOp::Sub, old, arg(0)?, w, lane, line)?,
            K::Exch => arg(0)?,
            K::Min => apply(Func::Min, &[old, arg(0)?], line)?,
            K::Max => apply(Func::Max, &[old, arg(0)?], line)?,
            K::And => self.binary(BinOp::And, old, arg(0)?, w, lane, line)?,
            K::Or => self.binary(BinOp::Or, old, arg(0)?, w, lane, line)?,
            K::Xor => self.binary(BinOp::Xor, old, arg(0)?, w, lane, line)?,
            K::Inc => {
                let (o, v) = (as_u32(old)?, as_u32(arg(0)?)?);
                Val::I(i64::from(if o >= v { 0 } else { o + 1 }))
            }
            K::Dec => {
                let (o, v) = (as_u32(old)?, as_u32(arg(0)?)?);
                Val::I(i64::from(if o == 0 || o > v { v } else { o - 1 }))
            }
            K::Cas => {
                let (compare, v) = (arg(0)?, arg(1)?);
                let same = match (old, compare) {
                    (Val::I(a), Val::I(b)) => wrap_int(a, s.value) == wrap_int(b, s.value),
                    (a, b) => as_f32(a).to_bits() == as_f32(b).to_bits(),
                };
                if same { v } else { old }
            }
        };
        let bytes = encode(new, s.value, s.value_bytes as usize, n_bytes, line)?;
        self.mems[k].bytes[at..at + n_bytes].copy_from_slice(&bytes[..n_bytes]);
        Ok(old)
    }

    fn binary(&self, op: BinOp, a: Val, b: Val, w: &Warp, lane: usize, line: u32) -> R<Val> {
        use BinOp::*;
        Ok(match (a, b) {
            (Val::I(x), Val::I(y)) => Val::I(match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                Div | Rem if y == 0 => {
                    return Err(ExecError::DivisionByZero {
                        line,
                        block: self.block,
                        thread: self.thread_of(w, lane),
                    });
                }
                Div => x.wrapping_div(y),
                Rem => x.wrapping_rem(y),
                Shl => x.wrapping_shl((y & 63) as u32),
                Shr => x.wrapping_shr((y & 63) as u32),
                And => x & y,
                Or => x | y,
                Xor => x ^ y,
                Lt => i64::from(x < y),
                Le => i64::from(x <= y),
                Gt => i64::from(x > y),
                Ge => i64::from(x >= y),
                Eq => i64::from(x == y),
                Ne => i64::from(x != y),
                LAnd => i64::from(x != 0 && y != 0),
                LOr => i64::from(x != 0 || y != 0),
            }),
            (Val::Raw(..), _) | (_, Val::Raw(..)) => return Err(not_arith(line)),
            (x, y) => {
                let x = as_f32(x);
                let y = as_f32(y);
                match op {
                    Add => Val::F(x + y),
                    Sub => Val::F(x - y),
                    Mul => Val::F(x * y),
                    Div => Val::F(x / y),
                    Lt => Val::I(i64::from(x < y)),
                    Le => Val::I(i64::from(x <= y)),
                    Gt => Val::I(i64::from(x > y)),
                    Ge => Val::I(i64::from(x >= y)),
                    Eq => Val::I(i64::from(x == y)),
                    Ne => Val::I(i64::from(x != y)),
                    LAnd => Val::I(i64::from(x != 0.0 && y != 0.0)),
                    LOr => Val::I(i64::from(x != 0.0 || y != 0.0)),
                    _ => {
                        return Err(ExecError::Unsupported {
                            line,
                            what: "a bitwise, shift or `%` operator on a float".into(),
                        });
                    }
                }
            }
        })
    }

    /// The byte offset of `site` for `lane`, bounds-checked.
    fn address(&mut self, w: &Warp, lane: usize, site: usize, write: bool, line: u32) -> R<usize> {
        let kernel = self.kernel;
        self.address_in(
            w,
            lane,
            &kernel.sites[site],
            self.site_mem[site],
            write,
            line,
        )
    }

    /// The byte offset of the element `s` names in memory `mem` for `lane`, bounds-checked.
    fn address_in(
        &mut self,
        w: &Warp,
        lane: usize,
        s: &Site,
        mem: usize,
        write: bool,
        line: u32,
    ) -> R<usize> {
        let mut index: i64 = 0;
        for (e, stride) in s.indices.iter().zip(&s.strides) {
            let v = self.index(w, lane, e, line)?;
            index = index.wrapping_add(v.wrapping_mul(*stride));
        }
        let mem = &self.mems[mem];
        let start = index
            .checked_mul(s.elem_bytes)
            .and_then(|b| b.checked_add(s.field_offset));
        let elements = mem.bytes.len() as i64 / s.elem_bytes.max(1);
        match start {
            Some(b)
                if b >= 0
                    && b.saturating_add(i64::from(s.access_bytes)) <= mem.bytes.len() as i64 =>
            {
                Ok(b as usize)
            }
            _ => Err(ExecError::OutOfBounds {
                space: space_name(s.space),
                array: s.array.clone(),
                index,
                elements,
                write,
                block: self.block,
                thread: self.thread_of(w, lane),
                line,
            }),
        }
    }

    fn load_at(&mut self, w: &Warp, lane: usize, site: usize, at: usize, line: u32) -> R<Val> {
        let s = &self.kernel.sites[site];
        let n = s.access_bytes as usize;
        let k = self.site_mem[site];
        let me = self.touch(w, lane, line, false);
        for b in at..at + n {
            self.check(k, b, me, false, 0);
        }
        let from = (s.value_offset as usize).min(n);
        let bytes = &self.mems[k].bytes[at + from..at + n];
        decode(bytes, s.value, s.value_bytes as usize, line)
    }

    fn store_at(
        &mut self,
        w: &Warp,
        lane: usize,
        site: usize,
        at: usize,
        v: Val,
        line: u32,
    ) -> R<()> {
        let s = &self.kernel.sites[site];
        let n = s.access_bytes as usize;
        let bytes = encode(v, s.value, s.value_bytes as usize, n, line)?;
        let k = self.site_mem[site];
        let me = self.touch(w, lane, line, true);
        for (j, b) in (at..at + n).enumerate() {
            self.check(k, b, me, true, bytes[j]);
        }
        self.mems[k].bytes[at..at + n].copy_from_slice(&bytes[..n]);
        Ok(())
    }

    fn touch(&self, w: &Warp, lane: usize, line: u32, _write: bool) -> Touch {
        Touch {
            epoch: self.epoch,
            block: self.block_flat,
            thread: w.first + lane as u32,
            line,
        }
    }

    /// Records an access to byte `b` of memory `k` and any race it makes.
    fn check(&mut self, k: usize, b: usize, me: Touch, write: bool, value: u8) {
        let space = self.mems[k].space;
        let sh = self.mems[k].shadow[b];
        // Whether an earlier touch conflicts with this one.
        let conflicts = |other: Touch, same_warp_ok: bool| -> bool {
            if other.epoch == 0 || other.thread == me.thread && other.block == me.block {
                return false;
            }
            if other.block != me.block {
                // Blocks are never ordered: only global memory outlives a block.
                return space == Space::Global;
            }
            if other.epoch != me.epoch {
                return false;
            }
            !(same_warp_ok && other.thread / LANES as u32 == me.thread / LANES as u32)
        };
        let mut race = None;
        if write {
            // A write after another thread's write: from another warp, or the same warp writing
            // another value.
            if conflicts(sh.write, sh.byte == value) {
                race = Some((sh.write, true));
            } else if conflicts(sh.read, true) {
                race = Some((sh.read, false));
            } else if conflicts(sh.read2, true) {
                race = Some((sh.read2, false));
            }
        } else if conflicts(sh.write, true) {
            race = Some((sh.write, true));
        }
        if let Some((other, other_write)) = race {
            self.record_race(k, b, other, other_write, me, write);
        }
        let sh = &mut self.mems[k].shadow[b];
        if write {
            sh.write = me;
            sh.byte = value;
        } else if sh.read.epoch != me.epoch || sh.read.block != me.block {
            sh.read = me;
            sh.read2 = Touch::default();
        } else if sh.read.thread / LANES as u32 != me.thread / LANES as u32 {
            sh.read2 = me;
        }
    }

    fn record_race(
        &mut self,
        k: usize,
        b: usize,
        other: Touch,
        other_write: bool,
        me: Touch,
        write: bool,
    ) {
        let m = &self.mems[k];
        let dup = self.races.iter().any(|r| {
            r.array == m.name
                && r.first.line == other.line
                && r.second.line == me.line
                && r.first.write == other_write
                && r.second.write == write
        });
        if dup || self.races.len() >= 16 {
            return;
        }
        let [bx, by, _] = self.launch.block;
        let thread = |t: u32| [t % bx, (t / bx) % by, t / bx.saturating_mul(by).max(1)];
        // `block` of a touch is a running count; the current block's index is known, an earlier
        // one is found again from the count (blocks run in x, y, z order from 1).
        let [gx, gy, _] = self.launch.grid;
        let block = |n: u32| {
            let (n, gx, gy) = (u64::from(n.saturating_sub(1)), u64::from(gx), u64::from(gy));
            [n % gx, (n / gx) % gy, n / (gx * gy).max(1)].map(|v| v as u32)
        };
        self.races.push(Race {
            space: space_name(m.space),
            array: m.name.clone(),
            byte: b as u64,
            first: Access {
                block: block(other.block),
                thread: thread(other.thread),
                line: other.line,
                write: other_write,
            },
            second: Access {
                block: block(me.block),
                thread: thread(me.thread),
                line: me.line,
                write,
            },
        });
    }
}

fn is_shuffle(f: Func) -> bool {
    matches!(
        f,
        Func::Shfl | Func::ShflDown | Func::ShflUp | Func::ShflXor
    )
}

/// A shuffle's value expression, and its lane (or delta, or mask) and width expressions.
fn shuffle_args(args: &[Expr], line: u32) -> R<(&Expr, (&Expr, Option<&Expr>))> {
    match args {
        [_mask, value, x] => Ok((value, (x, None))),
        [_mask, value, x, width] => Ok((value, (x, Some(width)))),
        _ => Err(ExecError::Unsupported {
            line,
            what: "a shuffle without its mask, value and lane: __shfl_down_sync(mask, v, delta)"
                .into(),
        }),
    }
}

/// The lane a shuffle reads for `lane`, as CUDA defines it: within segments of `width` lanes, a
/// source outside the segment gives the lane its own value. Reading a lane that is not active is
/// undefined on the GPU, and an error here.
fn shuffle_source(f: Func, lane: usize, x: i64, width: i64, active: u32, line: u32) -> R<usize> {
    if !(1..=32).contains(&width) || width & (width - 1) != 0 {
        return Err(ExecError::Unsupported {
            line,
            what: format!("a shuffle of width {width} (a power of two from 1 to 32)"),
        });
    }
    let (l, w) = (lane as i64, width);
    let start = l - l % w;
    let from = match f {
        Func::Shfl => start + x.rem_euclid(w),
        Func::ShflDown if l % w + x < w && x >= 0 => l + x,
        Func::ShflUp if l % w >= x && x >= 0 => l - x,
        Func::ShflXor => {
            let to = l ^ (x & 31);
            if to < start + w { to } else { l }
        }
        _ => l,
    };
    let from = from.clamp(0, 31) as usize;
    if active & (1 << from) == 0 {
        return Err(ExecError::Unsupported {
            line,
            what: format!(
                "a shuffle by lane {lane} from lane {from}, which is not active here (undefined on the GPU: shuffle where the whole warp is active)"
            ),
        });
    }
    Ok(from)
}

/// A math function of the values of its arguments.
fn apply(f: Func, v: &[Val], line: u32) -> R<Val> {
    let unsupported = || {
        ExecError::Unsupported {
        line,
        what: "this function call (the interpreter runs min, max, abs, sqrtf, rsqrtf, expf, logf, floorf, ceilf, fmaf and the __shfl_*_sync shuffles; not other functions)".into(),
    }
    };
    if v.iter().any(|x| matches!(x, Val::Raw(..))) {
        return Err(not_arith(line));
    }
    let f32_of = |k: usize| v.get(k).map(|x| as_f32(*x));
    Ok(match (f, v) {
        (Func::Min, [Val::I(a), Val::I(b)]) => Val::I(*a.min(b)),
        (Func::Max, [Val::I(a), Val::I(b)]) => Val::I(*a.max(b)),
        (Func::Min, [a, b]) => Val::F(as_f32(*a).min(as_f32(*b))),
        (Func::Max, [a, b]) => Val::F(as_f32(*a).max(as_f32(*b))),
        (Func::Abs, [Val::I(a)]) => Val::I(a.wrapping_abs()),
        (Func::Abs, [a]) => Val::F(as_f32(*a).abs()),
        (Func::Sqrt, [_]) => Val::F(f32_of(0).unwrap_or(0.0).sqrt()),
        (Func::Rsqrt, [_]) => Val::F(1.0 / f32_of(0).unwrap_or(0.0).sqrt()),
        (Func::Exp, [_]) => Val::F(f32_of(0).unwrap_or(0.0).exp()),
        (Func::Log, [_]) => Val::F(f32_of(0).unwrap_or(0.0).ln()),
        (Func::Floor, [_]) => Val::F(f32_of(0).unwrap_or(0.0).floor()),
        (Func::Ceil, [_]) => Val::F(f32_of(0).unwrap_or(0.0).ceil()),
        (Func::Fma, [a, b, c]) => Val::F(as_f32(*a).mul_add(as_f32(*b), as_f32(*c))),
        // `__syncwarp` and fences: the interpreter's memory is always in order.
        (Func::Fence, _) => Val::I(0),
        _ => return Err(unsupported()),
    })
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..LANES).filter(move |l| mask & (1 << l) != 0)
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Global => "global",
        Space::Shared => "shared",
    }
}

fn not_arith(line: u32) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "arithmetic on a whole vector element (name its fields: .x, .y, …)".into(),
    }
}

fn truthy(v: Val, line: u32) -> R<bool> {
    match v {
        Val::I(v) => Ok(v != 0),
        Val::F(v) => Ok(v != 0.0),
        Val::Raw(..) => Err(not_arith(line)),
    }
}

fn as_f32(v: Val) -> f32 {
    match v {
        Val::I(v) => v as f32,
        Val::F(v) => v,
        Val::Raw(..) => 0.0,
    }
}

/// `v` converted to the C type `w`: floats truncated toward zero, integers wrapped.
fn convert(v: Val, w: Wrap, _line: u32) -> R<Val> {
    Ok(match (v, w) {
        (Val::Raw(..), _) => v,
        (v, Wrap::Float) => Val::F(as_f32(v)),
        (Val::F(f), w) => Val::I(wrap_int(f as i64, w)),
        (Val::I(i), w) => Val::I(wrap_int(i, w)),
    })
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

fn decode(bytes: &[u8], w: Wrap, value_bytes: usize, line: u32) -> R<Val> {
    if bytes.len() != value_bytes {
        let mut raw = [0u8; 16];
        let n = bytes.len().min(16);
        raw[..n].copy_from_slice(&bytes[..n]);
        return Ok(Val::Raw(raw, n as u8));
    }
    let mut b8 = [0u8; 8];
    b8[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
    Ok(match (w, value_bytes) {
        (Wrap::Float, 4) => Val::F(f32::from_le_bytes([b8[0], b8[1], b8[2], b8[3]])),
        (Wrap::Float, 8) => Val::F(f64::from_le_bytes(b8) as f32),
        (Wrap::Float, _) => {
            return Err(ExecError::Unsupported {
                line,
                what: "half-precision values".into(),
            });
        }
        (w, _) => Val::I(wrap_int(i64::from_le_bytes(b8), w)),
    })
}

fn encode(v: Val, w: Wrap, value_bytes: usize, n: usize, line: u32) -> R<[u8; 16]> {
    let mut out = [0u8; 16];
    if let Val::Raw(raw, len) = v {
        if len as usize != n {
            return Err(ExecError::Unsupported {
                line,
                what: "storing a vector element into an element of another size".into(),
            });
        }
        return Ok(raw);
    }
    if value_bytes != n {
        return Err(ExecError::Unsupported {
            line,
            what: "storing one value into a whole vector element (name its fields: .x, .y, …)"
                .into(),
        });
    }
    match (convert(v, w, line)?, n) {
        (Val::F(f), 4) => out[..4].copy_from_slice(&f.to_le_bytes()),
        (Val::F(f), 8) => out[..8].copy_from_slice(&f64::from(f).to_le_bytes()),
        (Val::I(i), n) if n <= 8 => out[..n].copy_from_slice(&i.to_le_bytes()[..n]),
        _ => {
            return Err(ExecError::Unsupported {
                line,
                what: "this store".into(),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{Options, prepare};

    fn go(src: &str, bufs: &mut Buffers) -> R<ExecReport> {
        let (k, l) = prepare(src, "t.cu", &Options::default()).expect("parses");
        run(&k, &l, bufs, &Limits::default())
    }

    #[test]
    fn a_map_runs_with_its_guard() {
        let src = "// launch: --grid 2 --block 32 -D n=40\n__global__ void k(const float* a, float* b, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) b[i] = a[i] * 2.0f + 1;\n}\n";
        let mut b = Buffers::default();
        b.put_f32("a", &(0..40).map(|i| i as f32).collect::<Vec<_>>());
        b.put_f32("b", &[0.0; 40]);
        let r = go(src, &mut b).expect("runs");
        assert!(r.races.is_empty());
        let out = b.f32s("b").expect("b");
        assert_eq!(out[39], 79.0);
    }

    #[test]
    fn a_missing_guard_is_out_of_bounds() {
        let src = "// launch: --grid 2 --block 32 -D n=40\n__global__ void k(const float* a, float* b, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  b[i] = a[i];\n}\n";
        let mut b = Buffers::default();
        b.put_f32("a", &[1.0; 40]);
        b.put_f32("b", &[0.0; 40]);
        let e = go(src, &mut b).expect_err("oob");
        assert!(
            matches!(
                e,
                ExecError::OutOfBounds {
                    index: 40,
                    line: 4,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn a_shared_tile_needs_its_barrier() {
        let body = |sync: &str| {
            format!(
                "// launch: --grid 1 --block 64\n__global__ void k(const float* a, float* b) {{\n  __shared__ float t[64];\n  t[threadIdx.x] = a[threadIdx.x];\n  {sync}\n  b[threadIdx.x] = t[63 - threadIdx.x];\n}}\n"
            )
        };
        let mut b = Buffers::default();
        b.put_f32("a", &(0..64).map(|i| i as f32).collect::<Vec<_>>());
        b.put_f32("b", &[0.0; 64]);
        let r = go(&body("__syncthreads();"), &mut b).expect("runs");
        assert!(r.races.is_empty(), "{:?}", r.races);
        assert_eq!(b.f32s("b").expect("b")[0], 63.0);
        let r = go(&body(""), &mut b).expect("runs");
        // Warp 0 reads what warp 1 has not written yet, warp 1 reads what warp 0 wrote: both.
        assert!(
            r.races
                .iter()
                .any(|r| (r.first.line, r.second.line) == (4, 6) && r.space == "shared"),
            "{:?}",
            r.races
        );
    }

    #[test]
    fn integers_wrap_and_divide_as_c() {
        let src = "// launch: --grid 1 --block 1\n__global__ void k(int* o) {\n  unsigned u = 0u - 1u;\n  o[0] = u / 2u;\n  int x = 2147483647;\n  x = x + 1;\n  o[1] = x;\n  o[2] = -7 / 2;\n  o[3] = -7 % 2;\n  int z = 0;\n  o[4] = 1 / z;\n}\n";
        let mut b = Buffers::default();
        b.put_i32("o", &[0; 5]);
        let e = go(src, &mut b).expect_err("div by zero");
        assert!(
            matches!(e, ExecError::DivisionByZero { line: 11, .. }),
            "{e}"
        );
        let o = b.i32s("o").expect("o");
        assert_eq!(&o[..4], &[i32::MAX, i32::MIN, -3, -1]);
    }

    #[test]
    fn a_divergent_barrier_is_an_error() {
        let src = "// launch: --grid 1 --block 64\n__global__ void k(float* a) {\n  if (threadIdx.x < 16) {\n    __syncthreads();\n  }\n  a[threadIdx.x] = 1.0f;\n}\n";
        let mut b = Buffers::default();
        b.put_f32("a", &[0.0; 64]);
        let e = go(src, &mut b).expect_err("divergent");
        assert!(
            matches!(e, ExecError::DivergentBarrier { line: 4, .. }),
            "{e}"
        );
    }

    #[test]
    fn an_endless_loop_stops() {
        let src = "// launch: --grid 1 --block 32\n__global__ void k(float* a) {\n  int i = 0;\n  while (i >= 0) { i = i & 1; }\n  a[0] = 1.0f;\n}\n";
        let mut b = Buffers::default();
        b.put_f32("a", &[0.0; 1]);
        let e = go(src, &mut b).expect_err("too long");
        assert!(matches!(e, ExecError::TooLong(_)), "{e}");
    }

    #[test]
    fn a_warp_synchronous_write_of_different_values_races() {
        let src = "// launch: --grid 1 --block 32\n__global__ void k(float* a) {\n  __shared__ float s[1];\n  s[0] = threadIdx.x;\n  __syncthreads();\n  a[threadIdx.x] = s[0];\n}\n";
        let mut b = Buffers::default();
        b.put_f32("a", &[0.0; 32]);
        let r = go(src, &mut b).expect("runs");
        assert_eq!(r.races.len(), 1, "{:?}", r.races);
    }

    #[test]
    fn a_huge_grid_or_array_is_stopped_by_the_limits() {
        let src = "// launch: --grid 2147483647,65535 --block 1024\n__global__ void k(float* a) {\n  a[0] = 1.0f;\n}\n";
        let mut b = Buffers::default();
        b.put_f32("a", &[0.0; 1]);
        let limits = Limits {
            max_steps: 10_000,
            ..Limits::default()
        };
        let (k, l) = prepare(src, "t.cu", &Options::default()).expect("parses");
        let e = run(&k, &l, &mut b, &limits).expect_err("too long");
        assert!(matches!(e, ExecError::TooLong(10_000)), "{e}");
        // The buffer is given back whatever happens.
        assert!(b.f32s("a").is_some());
        let src = "// launch: --grid 1 --block 32\n__global__ void k(float* a) {\n  __shared__ float s[1024][1024];\n  s[0][threadIdx.x] = 1.0f;\n  a[0] = s[0][0];\n}\n";
        let (k, l) = prepare(src, "t.cu", &Options::default()).expect("parses");
        let small = Limits {
            max_bytes: 1 << 20,
            ..Limits::default()
        };
        let e = run(&k, &l, &mut b, &small).expect_err("too big");
        assert!(matches!(e, ExecError::TooMuchMemory { .. }), "{e}");
        assert!(b.f32s("a").is_some());
    }

    #[test]
    fn shuffles_and_math_functions_run_on_data() {
        let src = "// launch: --grid 1 --block 64\n__global__ void k(const float* a, float* out) {\n  float v = fmaxf(a[threadIdx.x], 0.0f);\n  for (int d = 16; d > 0; d /= 2) {\n    v += __shfl_down_sync(0xffffffff, v, d);\n  }\n  if (threadIdx.x % 32 == 0) {\n    out[threadIdx.x / 32] = v;\n  }\n}\n";
        let input: Vec<f32> = (0..64).map(|i| i as f32 - 10.0).collect();
        let mut b = Buffers::default();
        b.put_f32("a", &input);
        b.put_f32("out", &[0.0; 2]);
        let r = go(src, &mut b).expect("runs");
        assert!(r.races.is_empty(), "{:?}", r.races);
        let want: Vec<f32> = input
            .chunks(32)
            .map(|c| c.iter().map(|x| x.max(0.0)).sum())
            .collect();
        assert_eq!(b.f32s("out").expect("out"), want);
        // A shuffle from a lane that is not active is refused.
        let src = "// launch: --grid 1 --block 32\n__global__ void k(float* out) {\n  float v = threadIdx.x;\n  if (threadIdx.x < 16) {\n    v += __shfl_down_sync(0xffffffff, v, 16);\n  }\n  out[threadIdx.x] = v;\n}\n";
        let mut b = Buffers::default();
        b.put_f32("out", &[0.0; 32]);
        let e = go(src, &mut b).expect_err("inactive source");
        assert!(matches!(e, ExecError::Unsupported { line: 5, .. }), "{e}");
    }

    #[test]
    fn atomics_run_on_data_in_shared_and_global_memory() {
        // A histogram: shared bins counted by atomics, then added to the global ones.
        let src = "// launch: --grid 4 --block 64\n__global__ void k(const int* in, int* bins, int n) {\n  __shared__ int local[8];\n  if (threadIdx.x < 8) {\n    local[threadIdx.x] = 0;\n  }\n  __syncthreads();\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) {\n    atomicAdd(&local[in[i] % 8], 1);\n  }\n  __syncthreads();\n  if (threadIdx.x < 8) {\n    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);\n  }\n}\n";
        let input: Vec<i32> = (0..250).map(|i| (i * 7 + 3) % 23).collect();
        let mut b = Buffers::default();
        b.put_i32("in", &input);
        b.put_i32("bins", &[0; 8]);
        let options = Options {
            defines: vec![("n".into(), "250".into())],
            ..Options::default()
        };
        let (k, l) = prepare(src, "t.cu", &options).expect("parses");
        let r = run(&k, &l, &mut b, &Limits::default()).expect("runs");
        assert!(r.races.is_empty(), "atomics do not race: {:?}", r.races);
        let mut want = [0; 8];
        for v in &input {
            want[(v % 8) as usize] += 1;
        }
        assert_eq!(b.i32s("bins").expect("bins"), want);
        // The old value comes back, lanes one after another: a ticket each.
        let src = "// launch: --grid 1 --block 64\n__global__ void k(int* count, int* ticket) {\n  ticket[threadIdx.x] = atomicAdd(&count[0], 1);\n}\n";
        let mut b = Buffers::default();
        b.put_i32("count", &[5]);
        b.put_i32("ticket", &[0; 64]);
        go(src, &mut b).expect("runs");
        assert_eq!(b.i32s("count").unwrap(), [69]);
        let mut tickets = b.i32s("ticket").unwrap();
        tickets.sort_unstable();
        assert_eq!(tickets, (5..69).collect::<Vec<_>>());
        // Max, CAS, Inc, Exch and a float add, as CUDA defines them.
        let src = "// launch: --grid 1 --block 32\n__global__ void k(int* m, float* f, unsigned int* u) {\n  atomicMax(&m[0], (int)threadIdx.x * 3);\n  atomicCAS(&m[1], 0, 7);\n  atomicInc(&u[0], 9u);\n  atomicExch(&m[2], 11);\n  atomicAdd(&f[0], 0.5f);\n}\n";
        let mut b = Buffers::default();
        b.put_i32("m", &[0, 0, 0]);
        b.put_f32("f", &[1.0]);
        b.put_i32("u", &[0]);
        go(src, &mut b).expect("runs");
        assert_eq!(b.i32s("m").unwrap(), [93, 7, 11]);
        assert_eq!(b.f32s("f").unwrap(), [17.0]);
        assert_eq!(
            b.i32s("u").unwrap(),
            [32 % 10],
            "32 increments wrapping at 9"
        );
        // A pointer into an array is a target too.
        let src = "// launch: --grid 1 --block 32\n__global__ void k(int* p) {\n  atomicAdd(p + threadIdx.x % 4, 1);\n}\n";
        let mut b = Buffers::default();
        b.put_i32("p", &[0; 4]);
        go(src, &mut b).expect("runs");
        assert_eq!(b.i32s("p").unwrap(), [8; 4]);
        // A target the interpreter does not follow is named, not guessed.
        let src = "// launch: --grid 1 --block 32\n__global__ void k(int* p) {\n  __shared__ int c;\n  atomicAdd(&c, 1);\n  p[threadIdx.x] = 0;\n}\n";
        let mut b = Buffers::default();
        b.put_i32("p", &[0; 32]);
        let e = go(src, &mut b).expect_err("not followed");
        assert!(matches!(e, ExecError::Unsupported { line: 4, .. }), "{e}");
    }

    #[test]
    fn local_arrays_and_cooperative_groups_run_on_data() {
        // A thread's own array, indexed by a loop counter, and a block of cooperative groups.
        let src = "// launch: --grid 2 --block 64\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(const float* in, float* out) {\n  cg::thread_block block = cg::this_thread_block();\n  __shared__ float s[64];\n  float acc[4];\n  int i = blockIdx.x * 64 + block.thread_rank();\n  for (int j = 0; j < 4; j++) {\n    acc[j] = in[i * 4 + j];\n  }\n  float sum = 0.0f;\n  for (int j = 3; j >= 0; j--) {\n    sum += acc[j] * (j + 1);\n  }\n  s[threadIdx.x] = sum;\n  block.sync();\n  out[i] = s[63 - threadIdx.x];\n}\n";
        let input: Vec<f32> = (0..512).map(|i| (i % 13) as f32).collect();
        let mut b = Buffers::default();
        b.put_f32("in", &input);
        b.put_f32("out", &[0.0; 128]);
        let r = go(src, &mut b).expect("runs");
        assert!(r.races.is_empty(), "{:?}", r.races);
        let sum = |i: usize| {
            (0..4)
                .map(|j| input[i * 4 + j] * (j + 1) as f32)
                .sum::<f32>()
        };
        let want: Vec<f32> = (0..128)
            .map(|i| {
                let (block, t) = (i / 64, i % 64);
                sum(block * 64 + 63 - t)
            })
            .collect();
        assert_eq!(b.f32s("out").unwrap(), want);
    }

    #[test]
    fn a_local_array_starts_from_its_initialiser_and_is_bounds_checked() {
        // `= {1.0f, 2.0f}`: the rest are 0, as in C; a 2-D array's elements are its own.
        let src = "// launch: --grid 1 --block 32\n__global__ void k(float* out) {\n  float v[4] = {1.0f, 2.0f};\n  float m[2][3];\n  for (int r = 0; r < 2; r++) {\n    for (int c = 0; c < 3; c++) {\n      m[r][c] = r * 10 + c;\n    }\n  }\n  v[3] += m[1][2] + threadIdx.x;\n  out[threadIdx.x] = v[0] + v[1] * 100.0f + v[2] * 1000.0f + v[3];\n}\n";
        let mut b = Buffers::default();
        b.put_f32("out", &[0.0; 32]);
        go(src, &mut b).expect("runs");
        let want: Vec<f32> = (0..32).map(|t| 1.0 + 200.0 + 12.0 + t as f32).collect();
        assert_eq!(b.f32s("out").unwrap(), want);
        // An index past the end is out of bounds, with the array's name.
        let src = "// launch: --grid 1 --block 32\n__global__ void k(float* out) {\n  float v[4];\n  for (int j = 0; j <= 4; j++) {\n    v[j] = j;\n  }\n  out[threadIdx.x] = v[0];\n}\n";
        let mut b = Buffers::default();
        b.put_f32("out", &[0.0; 32]);
        let e = go(src, &mut b).expect_err("v[4]");
        assert!(
            matches!(&e, ExecError::OutOfBounds { space: "local", array, index: 4, elements: 4, line: 5, .. } if array == "v"),
            "{e}"
        );
    }
}
