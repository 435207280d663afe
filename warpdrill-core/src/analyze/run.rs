//! Running every warp of a launch over the kernel, lane masks and all, and counting each access.

use super::ast::{BinOp, Expr, Func, Kernel, Pos, Site, Space, Stmt, UnOp, Wrap};
use super::error::{AnalyzeError, Result};
use super::merge::{self, Role};
use crate::engine::{self, Granularity, LaneArray, Op, Vendor};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const LANES: usize = 32;
/// Loop iterations one warp may run before the analysis gives up.
const MAX_WARP_STEPS: u64 = 1 << 23;
/// Steps the whole analysis may take: one per statement a warp runs and one per loop turn (an empty
/// loop body costs its turns too), over every warp and block simulated, including boxes of blocks
/// that are run again after a split. 2²⁵ steps take two to eight seconds in a release build (a
/// register-tiled SGEMM at M = N = K = 4096 takes about 9.3 million); a kernel that needs more stops
/// with [`AnalyzeError::TooLong`] instead of running on. The examples and reference kernels take at
/// most about 100 000.
pub const MAX_STEPS: u64 = 1 << 25;

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
    /// The fewest 32-byte sectors each execution's distinct bytes could take, summed: what the
    /// access could do at best with the lanes and bytes it has (one lane's 4 bytes: 1 sector).
    pub least_sectors: u64,
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
        self.least_sectors += other.least_sectors;
        self.wavefronts += other.wavefronts;
        self.ideal += other.ideal;
    }

    fn sub(&mut self, other: &Counts) {
        self.instructions = self.instructions.saturating_sub(other.instructions);
        self.requests = self.requests.saturating_sub(other.requests);
        self.sectors = self.sectors.saturating_sub(other.sectors);
        self.bytes = self.bytes.saturating_sub(other.bytes);
        self.least_sectors = self.least_sectors.saturating_sub(other.least_sectors);
        self.wavefronts = self.wavefronts.saturating_sub(other.wavefronts);
        self.ideal = self.ideal.saturating_sub(other.ideal);
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

/// How a value depends on `blockIdx` inside a box of blocks that is analysed once for all its blocks.
///
/// The lanes of a [`V`] hold the values of the box's first block (its lowest corner); `Aff(c)` says that
/// in the block `lo + t` every lane's value is that plus `c · t`, exactly (integers, no wrap inside the
/// box); `Opaque(dims)` says it depends on `blockIdx` along `dims` in a way not followed. A condition,
/// index or address that could come out differently in another block of the box stops the box
/// ([`Stop::Split`]) and the box is cut in two, down to single blocks, which are simulated as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sym {
    No,
    Aff([i64; 3]),
    Opaque(u8),
}

impl Sym {
    fn dims(self) -> u8 {
        match self {
            Sym::No => 0,
            Sym::Aff(c) => (0..3).filter(|&k| c[k] != 0).fold(0, |m, k| m | (1 << k)),
            Sym::Opaque(d) => d,
        }
    }

    fn coef(self) -> [i64; 3] {
        match self {
            Sym::Aff(c) => c,
            _ => [0; 3],
        }
    }
}

fn aff(c: [i64; 3]) -> Sym {
    if c == [0; 3] { Sym::No } else { Sym::Aff(c) }
}

fn opaque(a: Sym, b: Sym) -> Sym {
    let d = a.dims() | b.dims();
    if d == 0 { Sym::No } else { Sym::Opaque(d) }
}

/// `a + k·b` of two symbolic parts; `None` where it is not affine.
fn sym_add(a: Sym, b: Sym, k: i64) -> Sym {
    match (a, b) {
        (Sym::No, Sym::No) => Sym::No,
        (Sym::Opaque(_), _) | (_, Sym::Opaque(_)) => opaque(a, b),
        _ => {
            let (x, y) = (a.coef(), b.coef());
            let mut c = [0i64; 3];
            for ((out, &xd), &yd) in c.iter_mut().zip(&x).zip(&y) {
                match yd.checked_mul(k).and_then(|v| v.checked_add(xd)) {
                    Some(v) => *out = v,
                    None => return opaque(a, b),
                }
            }
            aff(c)
        }
    }
}

fn sym_scale(a: Sym, k: i64) -> Sym {
    match a {
        Sym::Aff(c) => {
            let mut out = [0i64; 3];
            for (o, &cd) in out.iter_mut().zip(&c) {
                match cd.checked_mul(k) {
                    Some(v) => *o = v,
                    None => return opaque(a, Sym::No),
                }
            }
            aff(out)
        }
        other => other,
    }
}

/// Why a run stopped: an analysis error, or a box whose blocks do not all behave alike.
enum Stop {
    Err(AnalyzeError),
    Split(u8),
}

impl From<AnalyzeError> for Stop {
    fn from(e: AnalyzeError) -> Self {
        Stop::Err(e)
    }
}

type R<T> = std::result::Result<T, Stop>;

/// A box of blocks, inclusive corners, x y z.
#[derive(Debug, Clone, Copy)]
struct Blocks {
    lo: [u32; 3],
    hi: [u32; 3],
}

impl Blocks {
    fn count(&self) -> u64 {
        (0..3)
            .map(|k| u64::from(self.hi[k] - self.lo[k]) + 1)
            .product()
    }

    /// Order of the first block as the full simulation visits blocks (z, then y, then x).
    fn key(&self) -> (u32, u32, u32) {
        (self.lo[2], self.lo[1], self.lo[0])
    }

    /// The two halves along the longest dimension among `dims` (any dimension when none can be cut).
    fn split(&self, dims: u8) -> (Blocks, Blocks) {
        let span = |k: usize| self.hi[k] - self.lo[k];
        let pick = |mask: u8| {
            (0..3)
                .filter(|&k| mask & (1 << k) != 0 && span(k) > 0)
                .max_by_key(|&k| (span(k), std::cmp::Reverse(k)))
        };
        let k = pick(dims).or_else(|| pick(7)).unwrap_or(0);
        let mid = self.lo[k] + span(k) / 2;
        let mut a = *self;
        let mut b = *self;
        a.hi[k] = mid;
        b.lo[k] = mid + 1;
        (a, b)
    }
}

/// One execution of a site that may be merged with others.
#[derive(Debug, Clone, Copy)]
struct Pending {
    site: usize,
    addrs: [i64; LANES],
    mask: u32,
    counts: Counts,
    store: bool,
}

/// Counts per access site as written, and as they would be if the compiler merged neighbouring
/// accesses of one thread (equal to the first where nothing merges).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// As written.
    pub counts: Vec<SiteCounts>,
    /// Assuming the merges.
    pub merged: Vec<SiteCounts>,
    /// What the timing model needs.
    pub profile: Profile,
    /// Per atomic of the source (by the number its call carries), what the hardware counts.
    pub atomics: Vec<AtomicCounts>,
}

/// What one atomic of the source costs over the launch, counted as Nsight Compute counts atomics
/// (apart from loads and stores; see [`super::atomic`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AtomicCounts {
    /// Warp-level executions with an active lane (requests, for global memory).
    pub instructions: u64,
    /// Sectors (global).
    pub sectors: u64,
    /// Wavefronts (shared).
    pub wavefronts: u64,
    /// Shared-load wavefronts of the load a compare-and-swap loop starts with.
    pub loads: u64,
    /// Executions not counted as the address depends on data.
    pub uncounted: u64,
    /// Executions not counted as lanes on one address retry a compare-and-swap loop as often as
    /// timing makes them.
    pub retried: u64,
}

impl AtomicCounts {
    fn add(&mut self, o: &AtomicCounts) {
        self.instructions += o.instructions;
        self.sectors += o.sectors;
        self.wavefronts += o.wavefronts;
        self.loads += o.loads;
        self.uncounted += o.uncounted;
        self.retried += o.retried;
    }
}

/// What one global array sees over a launch, for the DRAM traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct ArrayTraffic {
    /// Bytes of the 64-byte DRAM granules each block touches, summed over the blocks (a granule two
    /// blocks touch counts twice): the traffic if nothing stayed in L2 between blocks.
    pub touched_bytes: u64,
    /// The array's extent in 64-byte granules, lowest to highest byte accessed: the traffic if L2
    /// kept everything (each granule fetched once).
    pub footprint_bytes: u64,
    /// Bytes the lanes asked for.
    pub requested_bytes: u64,
}

/// What the timing model needs beyond the per-site counts: how the warps wait, the blocks' phases
/// and the traffic below L1. Sums over every block of the launch.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct Profile {
    /// Blocks run.
    pub blocks: u64,
    /// Σ over blocks of the most global-load round trips one of the block's warps waits for: a warp
    /// waits when an instruction needs a value a global load has not returned yet, and every load
    /// issued before that wait was in flight together (`v = a[i]; w = b[i]; s = v + w` is one round).
    pub block_rounds: u64,
    /// Σ over blocks of the `__syncthreads()` barriers the block passes.
    pub block_barriers: u64,
    /// Σ over blocks of the most shared-memory wavefronts beyond one per instruction (bank conflicts)
    /// that one of its warps waits through.
    pub block_conflict_wavefronts: u64,
    /// Warp-level instructions with an active lane: each operator, memory access and loop test.
    pub warp_instructions: u64,
    /// Of these, integer divisions and remainders by a value that is not a power of two.
    pub warp_divisions: u64,
    /// Of the warp instructions, those issued while some of the warp's threads sat idle (a branch
    /// only some took, a loop some had left, an early `return`): the cost of divergence.
    pub partial_instructions: u64,
    /// Σ over warp instructions of the threads active in them (Nsight Compute's thread
    /// instructions executed): over `warp_instructions`, the average active threads per warp.
    pub thread_instructions: u64,
    /// The warp instructions of each line of the kernel's file (by line number, from 1; line 0
    /// unused) and, of them, those issued with threads idle.
    #[serde(skip)]
    pub line_instructions: Vec<[u64; 2]>,
    /// Global loads executed by warps (one per warp-level load with an active lane).
    pub global_loads: u64,
    /// 128-byte lines the global loads and stores touch, per instruction, summed: the L1's tag
    /// stage handles one line a cycle.
    pub global_lines: u64,
    /// Σ over blocks of the distinct 32-byte sectors the block loads: what reaches L2 when L1 keeps a
    /// block's own data and no two blocks share it.
    pub l2_load_sectors: u64,
    /// Stored sectors that a store instruction writes only in part (fewer than 32 bytes of it).
    pub partial_store_sectors: u64,
    /// Global stores' sectors, summed over instructions.
    pub store_sectors: u64,
    /// Per global array loaded, its traffic (arrays by name, in first-use order).
    pub loads: Vec<(String, ArrayTraffic)>,
    /// Per global array stored.
    pub stores: Vec<(String, ArrayTraffic)>,
}

/// Distinct sectors or granules one block may record before more count as new (bounded memory).
const MAX_BLOCK_SET: usize = 1 << 20;

/// Per global array, while a box of blocks runs.
#[derive(Debug, Clone, Copy, Default)]
struct Extent {
    touched_granules: u64,
    lo: i64,
    hi: i64,
    seen: bool,
    requested: u64,
}

impl Profile {
    fn add(&mut self, o: &Profile) {
        self.blocks += o.blocks;
        self.block_rounds += o.block_rounds;
        self.block_barriers += o.block_barriers;
        self.block_conflict_wavefronts += o.block_conflict_wavefronts;
        self.warp_instructions += o.warp_instructions;
        self.warp_divisions += o.warp_divisions;
        self.partial_instructions += o.partial_instructions;
        self.thread_instructions += o.thread_instructions;
        if self.line_instructions.len() < o.line_instructions.len() {
            self.line_instructions
                .resize(o.line_instructions.len(), [0; 2]);
        }
        for (e, [all, partial]) in self.line_instructions.iter_mut().zip(&o.line_instructions) {
            e[0] += all;
            e[1] += partial;
        }
        self.global_loads += o.global_loads;
        self.global_lines += o.global_lines;
        self.l2_load_sectors += o.l2_load_sectors;
        self.partial_store_sectors += o.partial_store_sectors;
        self.store_sectors += o.store_sectors;
    }
}

/// One warp-level execution of an access, as its lanes saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Execution {
    /// Lanes that took part (bit `l` = lane `l`).
    pub mask: u32,
    /// Byte offset of each lane's access from the array's start (meaningless for inactive lanes).
    pub offsets: [i64; LANES],
    /// A store (else a load).
    pub store: bool,
}

/// Every execution of one access by one warp.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// The first executions, in order (up to the limit asked for).
    pub executions: Vec<Execution>,
    /// How many there were in all.
    pub total: u64,
}

/// Runs warp `warp` of block `block` alone and records what access `site` does each time it runs.
pub fn trace(
    kernel: &Kernel,
    launch: &Launch,
    file: &str,
    block: [u32; 3],
    warp: usize,
    site: usize,
    limit: usize,
) -> Result<Trace> {
    let warp_lanes = warps(launch)?;
    if (0..3).any(|k| block[k] >= launch.grid[k]) {
        return Err(AnalyzeError::Input(format!(
            "block {block:?} is outside the grid {:?}",
            launch.grid
        )));
    }
    let Some(lanes) = warp_lanes.get(warp) else {
        return Err(AnalyzeError::Input(format!(
            "warp {warp}: a block has {} warps",
            warp_lanes.len()
        )));
    };
    let mut m = Machine::new(kernel, launch, file);
    m.tracing = Some((site, limit));
    match m.run_blocks(
        Blocks {
            lo: block,
            hi: block,
        },
        std::slice::from_ref(lanes),
    ) {
        Ok(()) => Ok(m.trace),
        Err(Stop::Err(e)) => Err(e),
        Err(Stop::Split(_)) => Err(internal()),
    }
}

/// How many steps pass between two looks at the cancel flag.
const CANCEL_CHECK: u64 = 1 << 12;

thread_local! {
    /// The cancel flag of the analyses this thread runs, set by [`cancellable`].
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` — analyses, traces — so that setting `flag` (from any thread) ends each run it makes
/// within a few thousand steps, with [`AnalyzeError::Cancelled`]. For an analysis run on a worker
/// thread while the screen stays responsive.
pub fn cancellable<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    let before = CANCEL.with(|c| c.replace(Some(flag)));
    let result = f();
    CANCEL.with(|c| c.replace(before));
    result
}

/// A vector local holding an element of an array whose values are assumed (see
/// [`Machine::vector_elements`]).
#[derive(Debug, Clone, Copy)]
struct VectorElement {
    site: usize,
    addrs: [i64; LANES],
    coef: [i64; 3],
    lanes: u32,
}

struct Machine<'k> {
    /// The site whose executions are recorded, and how many to keep.
    tracing: Option<(usize, usize)>,
    /// What was recorded.
    trace: Trace,
    kernel: &'k Kernel,
    locals: Vec<(V, Sym)>,
    builtins: [(V, Sym); 12],
    exist: u32,
    done: u32,
    counts: Vec<SiteCounts>,
    steps: u64,
    /// Steps taken over the whole analysis (see [`MAX_STEPS`]).
    work: u64,
    /// Steps allowed over the whole analysis.
    budget: u64,
    /// Where the statement being run starts, for errors met while evaluating it.
    at: Pos,
    /// Set by another thread to end the run early (see [`cancellable`]).
    cancel: Option<Arc<AtomicBool>>,
    /// The error just met is one every block of the box meets alike (a loop past
    /// [`MAX_WARP_STEPS`]: control flow is the same on every block of a box), so the box need not
    /// be split to find which of its blocks meets it first.
    alike: bool,
    file: &'k str,
    /// `hi − lo` of the box being run, per dimension.
    span: [i64; 3],
    /// Blocks in the box: every count is multiplied by it.
    weight: u64,
    /// Each site's part in a merge the compiler may make.
    roles: Vec<Option<Role>>,
    /// The counts again, with the merges made.
    merged: Vec<SiteCounts>,
    /// Per merge group, the executions of its members waiting for the others.
    group_pending: Vec<Vec<Option<Pending>>>,
    /// Per site stepping through a loop, its consecutive contiguous executions.
    run_pending: Vec<Vec<Pending>>,
    /// Blocks of the box per residue of a shift `c · t` modulo 32 or 128, by coefficients.
    hist: Vec<([i64; 3], i64, Vec<u64>)>,
    /// The timing profile of the box being run (added to the launch's once the box succeeds).
    prof: Profile,
    /// Per local slot: its value comes from a global load that may not have returned.
    pending: Vec<bool>,
    /// The expression being evaluated uses such a value.
    expr_pending: bool,
    /// The warp being run: rounds waited, barriers passed, conflict wavefronts.
    warp_track: [u64; 3],
    /// The most of each over the block's warps so far.
    block_track: [u64; 3],
    /// Global array index of each site (`usize::MAX` for shared).
    site_array: Vec<usize>,
    /// Array names, by index.
    array_names: Vec<String>,
    /// Per array, loads and stores, over the box.
    extents: Vec<[Extent; 2]>,
    /// Sectors the block loads (array, sector), and granules it loads and stores (array, granule).
    block_sectors: std::collections::HashSet<(usize, i64)>,
    block_granules: [std::collections::HashSet<(usize, i64)>; 2],
    /// Insertions past [`MAX_BLOCK_SET`], counted as new: sectors, granules loaded, stored.
    overflow: [u64; 3],
    /// Per site, the assumption (`--assume`) that gives the values it reads, by index.
    site_values: Vec<Option<usize>>,
    /// The last load evaluated: its site, each lane's byte offset, their shift per block.
    last_load: Option<(usize, [i64; LANES], [i64; 3])>,
    /// Locals of a vector type that hold an element of an array `--assume` gives values for (`uint4
    /// v = d_Data[i]`), by slot: the load, each lane's byte offset, their shift per block, and the
    /// lanes it holds them for. Their fields' values are that element's.
    vector_elements: HashMap<usize, VectorElement>,
    /// The condition being decided (for a message that names where its value comes from).
    condition: Option<&'k Expr>,
    /// How deep the warp is in loops nvcc unrolls fully ([`Kernel::unrolled`]).
    unrolled_depth: u32,
    /// Inside them, the elements the warp holds in registers: (array, lane, byte offset, bytes,
    /// shift per block). A load of elements all held is not made.
    held: std::collections::HashSet<(usize, u8, i64, u32, [i64; 3])>,
    /// Per site, its array (global and shared arrays numbered apart).
    site_arr: Vec<usize>,
    /// Per array of `site_arr`, whether it is in global memory.
    arr_global: Vec<bool>,
    /// Per array of `site_arr`, whether it is a `__restrict__` pointer.
    arr_restrict: Vec<bool>,
    /// Per atomic, how nvcc compiles it.
    atomic_shapes: Vec<super::atomic::Shape>,
    /// Per atomic, its counts over the box.
    atomic_counts: Vec<AtomicCounts>,
}

/// Runs every warp of the launch; returns the counts per access site.
///
/// Blocks whose accesses are the same up to a shift are run once and counted as many times as there
/// are of them (see [`Sym`]); the result equals [`run_full`]'s.
pub fn run(kernel: &Kernel, launch: &Launch, file: &str) -> Result<Run> {
    run_with(kernel, launch, file, true)
}

/// Runs every warp of every block one by one, without counting alike blocks once.
pub fn run_full(kernel: &Kernel, launch: &Launch, file: &str) -> Result<Run> {
    run_with(kernel, launch, file, false)
}

type WarpLanes = ([i64; LANES], [i64; LANES], [i64; LANES], u32);

fn run_with(kernel: &Kernel, launch: &Launch, file: &str, shortcut: bool) -> Result<Run> {
    run_budget(kernel, launch, file, shortcut, MAX_STEPS).map(|(run, _)| run)
}

/// [`run_with`] allowed `budget` steps; also returns the steps taken.
fn run_budget(
    kernel: &Kernel,
    launch: &Launch,
    file: &str,
    shortcut: bool,
    budget: u64,
) -> Result<(Run, u64)> {
    let warp_lanes = warps(launch)?;
    let mut m = Machine::new(kernel, launch, file);
    m.budget = budget;
    let run = run_machine(&mut m, &warp_lanes, launch, shortcut)?;
    Ok((run, m.work))
}

/// Checks the launch; threadIdx of every lane of every warp of a block, and which lanes exist.
fn warps(launch: &Launch) -> Result<Vec<WarpLanes>> {
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
    let mut warp_lanes: Vec<WarpLanes> = Vec::new();
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
    Ok(warp_lanes)
}

impl<'k> Machine<'k> {
    fn new(kernel: &'k Kernel, launch: &Launch, file: &'k str) -> Machine<'k> {
        let [bx, by, bz] = launch.block;
        let [gx, gy, gz] = launch.grid;
        let mut m = Machine {
            tracing: None,
            trace: Trace::default(),
            kernel,
            locals: vec![(V::I(0), Sym::No); kernel.locals],
            builtins: std::array::from_fn(|_| (V::I(0), Sym::No)),
            exist: 0,
            done: 0,
            counts: vec![SiteCounts::default(); kernel.sites.len()],
            steps: 0,
            work: 0,
            budget: MAX_STEPS,
            at: Pos::default(),
            cancel: CANCEL.with(|c| c.borrow().clone()),
            alike: false,
            file,
            span: [0; 3],
            weight: 1,
            hist: Vec::new(),
            roles: Vec::new(),
            merged: vec![SiteCounts::default(); kernel.sites.len()],
            group_pending: Vec::new(),
            run_pending: vec![Vec::new(); kernel.sites.len()],
            prof: Profile::default(),
            pending: vec![false; kernel.locals],
            expr_pending: false,
            warp_track: [0; 3],
            block_track: [0; 3],
            site_array: Vec::new(),
            array_names: Vec::new(),
            extents: Vec::new(),
            block_sectors: Default::default(),
            block_granules: Default::default(),
            overflow: [0; 3],
            condition: None,
            unrolled_depth: 0,
            held: std::collections::HashSet::new(),
            site_arr: Vec::new(),
            arr_global: Vec::new(),
            arr_restrict: Vec::new(),
            atomic_shapes: super::atomic::shapes(kernel),
            atomic_counts: vec![AtomicCounts::default(); kernel.atomic_targets.len()],
            site_values: kernel
                .sites
                .iter()
                .map(|s| kernel.assume.iter().position(|a| a.array == s.array))
                .collect(),
            last_load: None,
            vector_elements: HashMap::new(),
        };
        for site in &kernel.sites {
            if site.space != Space::Global {
                m.site_array.push(usize::MAX);
                continue;
            }
            let k = match m.array_names.iter().position(|n| *n == site.array) {
                Some(k) => k,
                None => {
                    m.array_names.push(site.array.clone());
                    m.array_names.len() - 1
                }
            };
            m.site_array.push(k);
        }
        m.extents = vec![[Extent::default(); 2]; m.array_names.len()];
        m.roles = merge::roles(kernel);
        let groups = m
            .roles
            .iter()
            .filter_map(|r| match r {
                Some(Role::Group { group, size, .. }) => Some((*group, *size)),
                _ => None,
            })
            .collect::<Vec<_>>();
        m.group_pending = vec![Vec::new(); groups.iter().map(|g| g.0 + 1).max().unwrap_or(0)];
        for (group, size) in groups {
            m.group_pending[group] = vec![None; size];
        }
        for (k, d) in [bx, by, bz, gx, gy, gz].iter().enumerate() {
            m.builtins[6 + k] = (V::I(i64::from(*d)), Sym::No);
        }
        m.number_arrays();
        m
    }
}

fn run_machine(
    m: &mut Machine,
    warp_lanes: &[WarpLanes],
    launch: &Launch,
    shortcut: bool,
) -> Result<Run> {
    let kernel = m.kernel;
    let [gx, gy, gz] = launch.grid;
    let mut total = vec![SiteCounts::default(); kernel.sites.len()];
    let mut total_merged = total.clone();
    let mut total_atomics = vec![AtomicCounts::default(); kernel.atomic_targets.len()];
    let mut profile = Profile::default();
    let mut extents = vec![[Extent::default(); 2]; m.array_names.len()];
    if !shortcut {
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    let one = Blocks {
                        lo: [x, y, z],
                        hi: [x, y, z],
                    };
                    match m.run_blocks(one, warp_lanes) {
                        Ok(()) => m.take_profile(&mut profile, &mut extents),
                        Err(Stop::Err(e)) => return Err(e),
                        Err(Stop::Split(_)) => return Err(internal()),
                    }
                }
            }
        }
        return Ok(Run {
            counts: std::mem::take(&mut m.counts),
            merged: std::mem::take(&mut m.merged),
            profile: m.finish_profile(profile, &extents),
            atomics: std::mem::take(&mut m.atomic_counts),
        });
    }
    let mut stack = vec![Blocks {
        lo: [0; 3],
        hi: [gx - 1, gy - 1, gz - 1],
    }];
    // The error of the first block (in the full simulation's order) that stops, if any.
    let mut first_error: Option<((u32, u32, u32), AnalyzeError)> = None;
    while let Some(b) = stack.pop() {
        if let Some((key, _)) = &first_error
            && b.key() >= *key
        {
            continue;
        }
        for c in m.counts.iter_mut().chain(m.merged.iter_mut()) {
            *c = SiteCounts::default();
        }
        m.atomic_counts.fill(AtomicCounts::default());
        let single = b.count() == 1;
        m.alike = false;
        match m.run_blocks(b, warp_lanes) {
            // Out of budget: splitting the box would only spend more.
            Err(Stop::Err(e @ (AnalyzeError::TooLong { .. } | AnalyzeError::Cancelled))) => {
                return Err(e);
            }
            Ok(()) => {
                m.take_profile(&mut profile, &mut extents);
                for (t, c) in total.iter_mut().zip(&m.counts) {
                    t.load.add(&c.load);
                    t.store.add(&c.store);
                }
                for (t, c) in total_merged.iter_mut().zip(&m.merged) {
                    t.load.add(&c.load);
                    t.store.add(&c.store);
                }
                for (t, c) in total_atomics.iter_mut().zip(&m.atomic_counts) {
                    t.add(c);
                }
            }
            // The box's first block comes first among its blocks, and meets the error as they all do.
            Err(Stop::Err(e)) if single || m.alike => {
                if first_error.as_ref().is_none_or(|(k, _)| b.key() < *k) {
                    first_error = Some((b.key(), e));
                }
            }
            Err(Stop::Split(_)) if single => return Err(internal()),
            Err(Stop::Err(_)) => {
                let (a, c) = b.split(7);
                stack.push(c);
                stack.push(a);
            }
            Err(Stop::Split(dims)) => {
                let (a, c) = b.split(dims);
                stack.push(c);
                stack.push(a);
            }
        }
    }
    match first_error {
        Some((_, e)) => Err(e),
        None => Ok(Run {
            counts: total,
            merged: total_merged,
            profile: m.finish_profile(profile, &extents),
            atomics: total_atomics,
        }),
    }
}

fn internal() -> AnalyzeError {
    AnalyzeError::Input("internal error: a single block behaved as several".into())
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
        BinOp::Shl | BinOp::Shr if !(0..64).contains(&b) => return None,
        BinOp::Shl => a.wrapping_shl(b as u32),
        BinOp::Shr => a.wrapping_shr(b as u32),
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

/// The range a wrapped integer type holds, `None` for 64 bits and floats.
fn wrap_range(w: Wrap) -> Option<(i64, i64)> {
    match w {
        Wrap::Signed(b) if b < 64 => Some((-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1)),
        Wrap::Unsigned(b) if b < 64 => Some((0, (1i64 << b) - 1)),
        _ => None,
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl<'k> Machine<'k> {
    fn err<T>(&self, pos: Pos, what: impl Into<String>) -> R<T> {
        Err(Stop::Err(AnalyzeError::Unsupported {
            file: self.kernel.file_of(pos, self.file).to_string(),
            line: pos.line,
            column: pos.column,
            what: what.into(),
        }))
    }

    /// Counts `n` warp instructions issued with the lanes of `mask` active, at the statement being
    /// run: those with some of the warp's threads idle are divergence's cost.
    fn issue(&mut self, n: u64, mask: u32) {
        let active = mask & self.exist;
        let partial = active != self.exist;
        self.prof.warp_instructions += n;
        self.prof.thread_instructions += n * u64::from(active.count_ones());
        if partial {
            self.prof.partial_instructions += n;
        }
        if self.at.source == 0 {
            let line = self.at.line as usize;
            let lines = &mut self.prof.line_instructions;
            if lines.len() <= line {
                lines.resize(line + 1, [0; 2]);
            }
            lines[line][0] += n;
            lines[line][1] += n * u64::from(partial);
        }
    }

    /// Runs every warp of one block of `b` for all of them.
    fn run_blocks(&mut self, b: Blocks, warp_lanes: &[WarpLanes]) -> R<()> {
        self.weight = b.count();
        self.hist.clear();
        for k in 0..3 {
            self.span[k] = i64::from(b.hi[k] - b.lo[k]);
            let mut unit = [0i64; 3];
            unit[k] = 1;
            let sym = if self.span[k] > 0 { aff(unit) } else { Sym::No };
            self.builtins[3 + k] = (V::I(i64::from(b.lo[k])), sym);
        }
        let kernel = self.kernel;
        self.prof = Profile::default();
        for e in &mut self.extents {
            *e = [Extent::default(); 2];
        }
        self.block_track = [0; 3];
        self.block_sectors.clear();
        for g in &mut self.block_granules {
            g.clear();
        }
        self.overflow = [0; 3];
        for (tx, ty, tz, exist) in warp_lanes {
            self.builtins[0] = (uniform_or(tx, *exist), Sym::No);
            self.builtins[1] = (uniform_or(ty, *exist), Sym::No);
            self.builtins[2] = (uniform_or(tz, *exist), Sym::No);
            self.exist = *exist;
            self.done = 0;
            self.steps = 0;
            for v in &mut self.locals {
                *v = (V::I(0), Sym::No);
            }
            self.vector_elements.clear();
            for g in &mut self.group_pending {
                g.iter_mut().for_each(|p| *p = None);
            }
            for r in &mut self.run_pending {
                r.clear();
            }
            self.pending.iter_mut().for_each(|p| *p = false);
            self.expr_pending = false;
            self.warp_track = [0; 3];
            self.unrolled_depth = 0;
            self.held.clear();
            self.exec(&kernel.body, *exist)?;
            for site in 0..self.run_pending.len() {
                self.flush_run(site);
            }
            for (b, w) in self.block_track.iter_mut().zip(self.warp_track) {
                *b = (*b).max(w);
            }
        }
        let n = self.weight;
        self.prof.blocks = n;
        self.prof.block_rounds = self.block_track[0] * n;
        self.prof.block_barriers = self.block_track[1] * n;
        self.prof.block_conflict_wavefronts = self.block_track[2] * n;
        self.prof.l2_load_sectors = (self.block_sectors.len() as u64 + self.overflow[0]) * n;
        for (op, set) in self.block_granules.iter().enumerate() {
            for &(a, _) in set {
                self.extents[a][op].touched_granules += n;
            }
        }
        Ok(())
    }

    /// Adds the profile of the box just run to the launch's.
    fn take_profile(&mut self, profile: &mut Profile, extents: &mut [[Extent; 2]]) {
        profile.add(&self.prof);
        for (total, boxed) in extents.iter_mut().zip(&self.extents) {
            for (t, b) in total.iter_mut().zip(boxed) {
                t.touched_granules += b.touched_granules;
                t.requested += b.requested;
                if b.seen {
                    if t.seen {
                        t.lo = t.lo.min(b.lo);
                        t.hi = t.hi.max(b.hi);
                    } else {
                        (t.lo, t.hi, t.seen) = (b.lo, b.hi, true);
                    }
                }
            }
        }
    }

    /// The launch's profile with each array's traffic.
    fn finish_profile(&self, mut profile: Profile, extents: &[[Extent; 2]]) -> Profile {
        for (name, e) in self.array_names.iter().zip(extents) {
            for (op, e) in e.iter().enumerate() {
                if !e.seen {
                    continue;
                }
                let footprint = (e.hi.div_euclid(64) - e.lo.div_euclid(64) + 1).max(0) as u64 * 64;
                let traffic = ArrayTraffic {
                    touched_bytes: e.touched_granules.saturating_mul(64),
                    footprint_bytes: footprint,
                    requested_bytes: e.requested,
                };
                let list = if op == 0 {
                    &mut profile.loads
                } else {
                    &mut profile.stores
                };
                list.push((name.clone(), traffic));
            }
        }
        profile
    }

    /// One operator's instruction: it needs its operands, so a value still in flight is waited for;
    /// `outer` is whether the enclosing expression already used one.
    fn operate(&mut self, outer: bool) {
        if self.expr_pending {
            self.wait();
        }
        self.expr_pending = outer;
    }

    /// The warp waits for every global load in flight.
    fn wait(&mut self) {
        self.warp_track[0] += 1;
        self.pending.iter_mut().for_each(|p| *p = false);
        self.expr_pending = false;
    }

    /// Records a set member for the block, or counts it as new once the set is full.
    fn note(&mut self, which: usize, key: (usize, i64)) {
        let set = match which {
            0 => &mut self.block_sectors,
            k => &mut self.block_granules[k - 1],
        };
        if set.len() < MAX_BLOCK_SET {
            set.insert(key);
        } else if !set.contains(&key) {
            if which == 0 {
                self.overflow[0] += 1;
            } else {
                self.extents[key.0][which - 1].touched_granules += self.weight;
            }
        }
    }

    /// Lowest and highest value of `a + c · t` over the box.
    fn range(&self, a: i64, c: [i64; 3]) -> Option<(i64, i64)> {
        let mut lo = a;
        let mut hi = a;
        for (&ck, &span) in c.iter().zip(&self.span) {
            let d = ck.checked_mul(span)?;
            if d < 0 {
                lo = lo.checked_add(d)?;
            } else {
                hi = hi.checked_add(d)?;
            }
        }
        Some((lo, hi))
    }

    /// Whether a predicate of an affine value is the same on every block of the box, lane by lane.
    fn same_everywhere(&self, v: &V, s: Sym, mask: u32, holds: impl Fn(i64) -> bool) -> R<()> {
        let c = s.coef();
        let lanes = lanes_i(v);
        for (l, &a) in lanes.iter().enumerate() {
            if mask & (1 << l) == 0 {
                continue;
            }
            match self.range(a, c) {
                Some((lo, hi)) if holds(lo) == holds(hi) && holds(lo) == holds(a) => {
                    // `holds` is a threshold test or a test against zero below: constant on [lo, hi]
                    // when it agrees at both ends and zero is not inside (checked by the caller's test).
                }
                _ => return Err(Stop::Split(s.dims())),
            }
        }
        Ok(())
    }

    fn truth(&self, v: &V, s: Sym, mask: u32, pos: Pos) -> R<u32> {
        match s {
            Sym::No => {}
            Sym::Opaque(d) => return Err(Stop::Split(d)),
            Sym::Aff(c) => {
                // Non-zero on the whole box, lane by lane.
                if is_float(v) {
                    return Err(Stop::Split(s.dims()));
                }
                for (l, &a) in lanes_i(v).iter().enumerate() {
                    if mask & (1 << l) == 0 {
                        continue;
                    }
                    match self.range(a, c) {
                        Some((lo, hi)) if lo > 0 || hi < 0 => {}
                        _ => return Err(Stop::Split(s.dims())),
                    }
                }
            }
        }
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
                let hint = self
                    .condition
                    .map(|c| assume_hint(self.kernel, c))
                    .unwrap_or_default();
                return self.err(
                    pos,
                    format!(
                        "a condition that depends on a value read from memory decides which accesses run (data-dependent control flow){hint}"
                    ),
                );
            }
        })
    }

    /// Counts one step against the budget of the whole analysis; every few thousand steps, ends
    /// the run if it has been cancelled (see [`cancellable`]).
    fn tick(&mut self) -> R<()> {
        self.work += 1;
        if self.work.is_multiple_of(CANCEL_CHECK)
            && self
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(Stop::Err(AnalyzeError::Cancelled));
        }
        if self.work > self.budget {
            return Err(Stop::Err(AnalyzeError::TooLong {
                file: self.file.to_string(),
                steps: self.budget,
            }));
        }
        Ok(())
    }

    fn exec(&mut self, stmts: &'k [Stmt], mask: u32) -> R<()> {
        for stmt in stmts {
            let mask = mask & !self.done;
            if mask == 0 {
                return Ok(());
            }
            self.tick()?;
            match stmt {
                Stmt::SetLocal {
                    slot,
                    op,
                    value,
                    wrap,
                    pos,
                } => {
                    self.at = *pos;
                    self.expr_pending = false;
                    self.last_load = None;
                    let v = self.eval(value, mask)?;
                    self.note_vector_element(*slot, op.is_none().then_some(value), mask);
                    let in_flight = std::mem::take(&mut self.expr_pending);
                    let whole = (mask | self.done | !self.exist) == u32::MAX;
                    if op.is_some() {
                        // `x op= v` computes with both.
                        if *wrap == Wrap::Float || matches!(v.0, V::Unknown) {
                            self.issue(self.weight, mask);
                        }
                        self.expr_pending = in_flight || self.pending[*slot];
                        self.operate(false);
                        self.pending[*slot] = false;
                    } else {
                        self.pending[*slot] = in_flight || (!whole && self.pending[*slot]);
                    }
                    let v = match op {
                        Some(op) => {
                            let old = self.locals[*slot].clone();
                            self.binary(*op, old, v, mask)?
                        }
                        None => v,
                    };
                    let v = self.convert(v, *wrap, mask);
                    self.set(*slot, v, mask);
                }
                Stmt::Store {
                    site,
                    op,
                    value,
                    pos,
                } => {
                    self.at = *pos;
                    // The value's loads run first; the value itself is not kept.
                    self.expr_pending = false;
                    self.eval(value, mask)?;
                    if op.is_some() {
                        // `a[i] op= v` adds the loaded element to the value.
                        self.issue(self.weight, mask);
                        self.operate(false);
                    } else if std::mem::take(&mut self.expr_pending) {
                        // A store sends its value: the warp waits for it.
                        self.wait();
                    }
                    let (addrs, coef) = self.address(*site, mask)?;
                    if op.is_some()
                        && !(self.unrolled_depth > 0 && self.hold(*site, &addrs, coef, mask, false))
                    {
                        self.count(*site, &addrs, coef, mask, false)?;
                    }
                    if self.unrolled_depth > 0 {
                        self.hold(*site, &addrs, coef, mask, true);
                    }
                    self.count(*site, &addrs, coef, mask, true)?;
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    pos,
                } => {
                    self.at = *pos;
                    let (c, s) = self.eval(cond, mask)?;
                    self.condition = Some(cond);
                    if matches!(c, V::Unknown)
                        && self.predicable(then)
                        && self.predicable(otherwise)
                    {
                        // `if (x > m) m = x;` on a value from memory: the branches only compute, so
                        // nvcc predicates both (or selects); every lane issues them, and what they
                        // assign is a value the analyser does not know.
                        self.exec(then, mask)?;
                        self.exec(otherwise, mask)?;
                        let mut slots = Vec::new();
                        assigned_slots(then, &mut slots);
                        assigned_slots(otherwise, &mut slots);
                        for slot in slots {
                            self.set(slot, (V::Unknown, Sym::No), mask);
                        }
                        continue;
                    }
                    let yes = self.truth(&c, s, mask, *pos)?;
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
                    // The turns of a loop nvcc unrolls are one stretch of code, where what one turn
                    // loaded the next reuses; a loop it keeps is not (its body runs again and
                    // again), nor is anything after either.
                    let unrolled = self.kernel.unrolled.contains(pos);
                    let outer = self.unrolled_depth;
                    self.unrolled_depth = if unrolled { outer + 1 } else { 0 };
                    if outer == 0 || !unrolled {
                        self.held.clear();
                    }
                    let r = self.run_loop(cond.as_ref(), body, step, *pos, mask);
                    self.unrolled_depth = outer;
                    if outer == 0 || !unrolled {
                        self.held.clear();
                    }
                    r?;
                }
                Stmt::Return => self.done |= mask,
                Stmt::Barrier(_) => {
                    self.held.clear();
                    self.warp_track[1] += 1;
                    self.issue(self.weight, mask);
                }
                Stmt::Eval(e, pos) => {
                    self.at = *pos;
                    self.eval(e, mask)?;
                    if calls_atomic(e) || matches!(e, Expr::Call(Func::Fence, _)) {
                        self.held.clear();
                    }
                }
            }
        }
        Ok(())
    }

    /// The turns of a loop, for the lanes of `mask`, until none is left.
    fn run_loop(
        &mut self,
        cond: Option<&'k Expr>,
        body: &'k [Stmt],
        step: &'k [Stmt],
        pos: Pos,
        mask: u32,
    ) -> R<()> {
        let mut live = mask;
        loop {
            live &= !self.done;
            if let Some(cond) = cond {
                if live == 0 {
                    break;
                }
                self.at = pos;
                let (c, s) = self.eval(cond, live)?;
                self.condition = Some(cond);
                live = self.truth(&c, s, live, pos)?;
            }
            if live == 0 {
                break;
            }
            self.tick()?;
            self.steps += 1;
            if self.steps > MAX_WARP_STEPS {
                self.alike = true;
                return self.err(
                    pos,
                    "a loop that runs more than 8 388 608 times in one warp: too long to simulate — shrink the loop, or use -D to set a smaller N",
                );
            }
            self.exec(body, live)?;
            live &= !self.done;
            if live != 0 {
                self.exec(step, live)?;
            }
        }
        Ok(())
    }

    /// Numbers the kernel's arrays (global and shared apart) for [`Machine::hold`].
    fn number_arrays(&mut self) {
        let mut names: Vec<(Space, &str)> = Vec::new();
        self.site_arr = self
            .kernel
            .sites
            .iter()
            .map(|s| {
                let key = (s.space, s.array.as_str());
                names.iter().position(|n| *n == key).unwrap_or_else(|| {
                    names.push(key);
                    names.len() - 1
                })
            })
            .collect();
        self.arr_global = names.iter().map(|(sp, _)| *sp == Space::Global).collect();
        self.arr_restrict = names
            .iter()
            .map(|(sp, n)| *sp == Space::Global && self.kernel.restrict.contains(*n))
            .collect();
    }

    /// Inside a loop nvcc unrolls: whether every active lane's element of this load is already in
    /// a register (then the load is not made); a load or store holds the elements it moves, and a
    /// store first drops what the warp held of its array (another lane's store may have changed
    /// it, as far as the compiler knows).
    fn hold(
        &mut self,
        site: usize,
        addrs: &[i64; LANES],
        coef: [i64; 3],
        mask: u32,
        store: bool,
    ) -> bool {
        let s = &self.kernel.sites[site];
        if !self.kernel.reusable.get(site).copied().unwrap_or(false) {
            return false;
        }
        let arr = self.site_arr[site];
        let bytes = s.access_bytes;
        let lanes = (0..LANES).filter(|l| mask & (1 << l) != 0);
        if store && s.space == Space::Global {
            // Through a pointer, a store may write any global array but one that it or the
            // other is declared `__restrict__`.
            let (global, restrict) = (&self.arr_global, &self.arr_restrict);
            self.held
                .retain(|h| !global[h.0] || (h.0 != arr && (restrict[arr] || restrict[h.0])));
        } else if store {
            self.held.retain(|h| h.0 != arr);
        } else if lanes
            .clone()
            .all(|l| self.held.contains(&(arr, l as u8, addrs[l], bytes, coef)))
        {
            return true;
        }
        if self.held.len() < 1 << 16 {
            for l in lanes {
                self.held.insert((arr, l as u8, addrs[l], bytes, coef));
            }
        }
        false
    }

    /// Whether `stmts` only compute values (no access counted, no store, loop, barrier, return
    /// or atomic), so that running them under a condition nobody knows changes no count.
    fn predicable(&self, stmts: &[Stmt]) -> bool {
        let quiet = |e: &Expr| {
            let mut loads = Vec::new();
            merge::loads_in_expr(e, &mut loads);
            loads
                .iter()
                .all(|&s| self.kernel.sites[s].merged_into.is_some())
                && !calls_atomic(e)
        };
        stmts.iter().all(|s| match s {
            Stmt::SetLocal { value, .. } | Stmt::Eval(value, _) => quiet(value),
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => quiet(cond) && self.predicable(then) && self.predicable(otherwise),
            _ => false,
        })
    }

    /// A conversion; an affine value stays affine only if no block of the box wraps it.
    fn convert(&self, (v, s): (V, Sym), w: Wrap, mask: u32) -> (V, Sym) {
        let s = match s {
            Sym::No => Sym::No,
            Sym::Opaque(_) => s,
            Sym::Aff(c) => {
                if w == Wrap::Float || is_float(&v) {
                    opaque(s, Sym::No)
                } else if let Some((min, max)) = wrap_range(w) {
                    let fits = lanes_i(&v).iter().enumerate().all(|(l, &a)| {
                        mask & (1 << l) == 0
                            || self
                                .range(a, c)
                                .is_some_and(|(lo, hi)| lo >= min && hi <= max)
                    });
                    if fits { s } else { opaque(s, Sym::No) }
                } else {
                    s
                }
            }
        };
        let v = convert(v, w);
        if matches!(v, V::Unknown) {
            (v, Sym::No)
        } else {
            (v, s)
        }
    }

    fn set(&mut self, slot: usize, (v, s): (V, Sym), mask: u32) {
        if (mask | self.done | !self.exist) == u32::MAX {
            self.locals[slot] = (v, s);
            return;
        }
        let (old, old_s) = std::mem::replace(&mut self.locals[slot], (V::I(0), Sym::No));
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
        let sym = if matches!(merged, V::Unknown) {
            Sym::No
        } else if old_s == s {
            s
        } else {
            opaque(old_s, s)
        };
        self.locals[slot] = (merged, sym);
    }

    fn binary(&self, op: BinOp, (a, sa): (V, Sym), (b, sb): (V, Sym), mask: u32) -> R<(V, Sym)> {
        if sa == Sym::No && sb == Sym::No {
            return Ok((self.plain_binary(op, &a, &b, mask)?, Sym::No));
        }
        if matches!(a, V::Unknown) || matches!(b, V::Unknown) {
            return Ok((V::Unknown, Sym::No));
        }
        if matches!(op, BinOp::Div | BinOp::Rem) && sb != Sym::No {
            // A divisor that changes from block to block may be zero in one of them.
            return Err(Stop::Split(sb.dims()));
        }
        let value = self.plain_binary(op, &a, &b, mask)?;
        if is_float(&a) || is_float(&b) {
            return Ok((value, opaque(sa, sb)));
        }
        let uniform = |v: &V| match v {
            V::I(k) => Some(*k),
            _ => None,
        };
        let sym = match op {
            BinOp::Add => sym_add(sa, sb, 1),
            BinOp::Sub => sym_add(sa, sb, -1),
            BinOp::Mul => match (sa, sb, uniform(&a), uniform(&b)) {
                (Sym::Aff(_), Sym::No, _, Some(k)) => sym_scale(sa, k),
                (Sym::No, Sym::Aff(_), Some(k), _) => sym_scale(sb, k),
                _ => opaque(sa, sb),
            },
            BinOp::Shl => match (sa, sb, uniform(&b)) {
                (Sym::Aff(_), Sym::No, Some(k)) if (0..62).contains(&k) => sym_scale(sa, 1 << k),
                _ => opaque(sa, sb),
            },
            BinOp::Div | BinOp::Rem | BinOp::Shr | BinOp::And => {
                // An affine index divided (or taken modulo) by a constant: `x / k` moves by `c / k`
                // when k divides every coefficient, and stays put where the box never crosses a
                // multiple of k; otherwise the box is split.
                let k = match (op, sb, uniform(&b)) {
                    (BinOp::Div | BinOp::Rem, Sym::No, Some(k)) if k > 0 => Some(k),
                    (BinOp::Shr, Sym::No, Some(k)) if (0..62).contains(&k) => Some(1i64 << k),
                    (BinOp::And, Sym::No, Some(m)) if m >= 0 && (m & (m + 1)) == 0 => Some(m + 1),
                    _ => None,
                };
                match (sa, k) {
                    (Sym::Aff(c), Some(k)) => {
                        let lanes = lanes_i(&a);
                        let mut nonneg = true;
                        let mut same_quotient = true;
                        for (l, &x) in lanes.iter().enumerate() {
                            if mask & (1 << l) == 0 {
                                continue;
                            }
                            match self.range(x, c) {
                                Some((lo, hi)) if lo >= 0 => {
                                    if lo / k != hi / k {
                                        same_quotient = false;
                                    }
                                }
                                _ => nonneg = false,
                            }
                        }
                        let divides = c.iter().all(|d| d % k == 0);
                        let quotient = matches!(op, BinOp::Div | BinOp::Shr);
                        match (nonneg, divides, same_quotient, quotient) {
                            (false, ..) => opaque(sa, sb),
                            (true, true, _, true) => aff(c.map(|d| d / k)),
                            (true, true, _, false) => Sym::No,
                            (true, false, true, true) => Sym::No,
                            (true, false, true, false) => sa,
                            _ => opaque(sa, sb),
                        }
                    }
                    _ => opaque(sa, sb),
                }
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                let d = sym_add(sa, sb, -1);
                match d {
                    Sym::No => Sym::No,
                    Sym::Opaque(_) => d,
                    Sym::Aff(_) => {
                        // The comparison of a − b with zero must come out the same in every block.
                        let (x, y) = (lanes_i(&a), lanes_i(&b));
                        let mut diff = [0i64; LANES];
                        for l in 0..LANES {
                            if mask & (1 << l) != 0 {
                                diff[l] = match x[l].checked_sub(y[l]) {
                                    Some(v) => v,
                                    None => return Err(Stop::Split(d.dims())),
                                };
                            }
                        }
                        let test: fn(i64) -> i64 = match op {
                            BinOp::Lt | BinOp::Ge => |v| i64::from(v < 0),
                            BinOp::Le | BinOp::Gt => |v| i64::from(v <= 0),
                            _ => |v| v.signum(),
                        };
                        self.same_everywhere(&V::IL(diff), d, mask, |v| test(v) == 1)?;
                        if matches!(op, BinOp::Eq | BinOp::Ne) {
                            // Zero inside the range is not constant even if both ends agree.
                            self.same_everywhere(&V::IL(diff), d, mask, |v| v >= 0)?;
                            self.same_everywhere(&V::IL(diff), d, mask, |v| v <= 0)?;
                        }
                        Sym::No
                    }
                }
            }
            _ => opaque(sa, sb),
        };
        Ok((value, sym))
    }

    fn plain_binary(&self, op: BinOp, a: &V, b: &V, mask: u32) -> R<V> {
        if matches!(a, V::Unknown) || matches!(b, V::Unknown) {
            return Ok(V::Unknown);
        }
        let div_zero = || {
            if matches!(op, BinOp::Shl | BinOp::Shr) {
                return self.err(
                    self.at,
                    "a shift by a negative amount or by 64 or more in an active lane (C leaves its result undefined)",
                );
            }
            self.err(self.at, "a division or remainder by zero in an active lane")
        };
        if is_float(a) || is_float(b) {
            let uniform = !matches!(a, V::FL(_) | V::IL(_)) && !matches!(b, V::FL(_) | V::IL(_));
            if uniform {
                let (fa, fb) = (lanes_f1(a), lanes_f1(b));
                return match float_op(op, fa, fb) {
                    Some(v) => Ok(v),
                    None => Ok(V::Unknown),
                };
            }
            let (fa, fb) = (lanes_f(a), lanes_f(b));
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
        match (a, b) {
            (V::I(x), V::I(y)) => match int_op(op, *x, *y) {
                Some(v) => Ok(V::I(v)),
                None => div_zero(),
            },
            _ => {
                let mut out = [0i64; LANES];
                match (a, b) {
                    (V::IL(x), V::I(y)) => {
                        for l in 0..LANES {
                            match int_op(op, x[l], *y) {
                                Some(v) => out[l] = v,
                                None if mask & (1 << l) != 0 => return div_zero(),
                                None => {}
                            }
                        }
                    }
                    _ => {
                        let (ia, ib) = (lanes_i(a), lanes_i(b));
                        for l in 0..LANES {
                            match int_op(op, ia[l], ib[l]) {
                                Some(v) => out[l] = v,
                                None if mask & (1 << l) != 0 => return div_zero(),
                                None => {}
                            }
                        }
                    }
                }
                Ok(V::IL(out))
            }
        }
    }

    fn eval(&mut self, e: &Expr, mask: u32) -> R<(V, Sym)> {
        Ok(match e {
            Expr::Int(v) => (V::I(*v), Sym::No),
            Expr::Float(v) => (V::F(*v), Sym::No),
            Expr::Local(slot) => {
                if self.pending.get(*slot).copied().unwrap_or(false) {
                    self.expr_pending = true;
                }
                self.locals[*slot].clone()
            }
            Expr::Builtin(k) => self.builtins[*k as usize].clone(),
            Expr::Unary(op, a) => {
                let outer = std::mem::take(&mut self.expr_pending);
                let (a, s) = self.eval(a, mask)?;
                self.operate(outer);
                let sym = match (op, s) {
                    (_, Sym::No) => Sym::No,
                    (UnOp::Neg, Sym::Aff(_)) if !is_float(&a) => sym_scale(s, -1),
                    (UnOp::Not, Sym::Aff(_)) => {
                        // `!x` is `x == 0`: the same in every block when x is never zero or always.
                        self.truth(&a, s, mask, Pos::default())?;
                        Sym::No
                    }
                    _ => opaque(s, Sym::No),
                };
                let v = match (op, a) {
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
                };
                if matches!(v, V::Unknown) {
                    (v, Sym::No)
                } else {
                    (v, sym)
                }
            }
            Expr::Binary(op @ (BinOp::LAnd | BinOp::LOr), a, b) => {
                let (av, sa) = self.eval(a, mask)?;
                if matches!(av, V::Unknown) {
                    // The right side still runs on some lanes; count its loads on all of them.
                    self.eval(b, mask)?;
                    return Ok((V::Unknown, Sym::No));
                }
                let t = self.truth(&av, sa, mask, Pos::default())?;
                let rest = if *op == BinOp::LAnd { t } else { mask & !t };
                let (bv, sb) = if rest != 0 {
                    self.eval(b, rest)?
                } else {
                    (V::I(0), Sym::No)
                };
                if matches!(bv, V::Unknown) {
                    return Ok((V::Unknown, Sym::No));
                }
                let tb = self.truth(&bv, sb, rest, Pos::default())?;
                let result = if *op == BinOp::LAnd { tb } else { t | tb };
                let v = if result & mask == mask {
                    V::I(1)
                } else if result & mask == 0 {
                    V::I(0)
                } else {
                    V::IL(std::array::from_fn(|l| i64::from(result & (1 << l) != 0)))
                };
                (v, Sym::No)
            }
            Expr::Binary(op, a, b) => {
                let outer = std::mem::take(&mut self.expr_pending);
                let a = self.eval(a, mask)?;
                let b = self.eval(b, mask)?;
                // Arithmetic on values (floats, or values from memory) is issued as written; integer
                // index arithmetic is left out, as the compiler folds most of it into addresses and
                // loop counters (strength reduction, unrolling).
                if is_float(&a.0)
                    || is_float(&b.0)
                    || matches!(a.0, V::Unknown)
                    || matches!(b.0, V::Unknown)
                {
                    self.issue(self.weight, mask);
                }
                self.operate(outer);
                if matches!(op, BinOp::Div | BinOp::Rem)
                    && !is_float(&a.0)
                    && !matches!(b.0, V::I(d) if d > 0 && d & (d - 1) == 0)
                {
                    self.prof.warp_divisions += self.weight;
                }
                self.binary(*op, a, b, mask)?
            }
            Expr::Cond(c, a, b) => {
                let (cv, cs) = self.eval(c, mask)?;
                if matches!(cv, V::Unknown) {
                    self.eval(a, mask)?;
                    self.eval(b, mask)?;
                    return Ok((V::Unknown, Sym::No));
                }
                let t = self.truth(&cv, cs, mask, Pos::default())?;
                let f = mask & !t;
                let (av, sa) = if t != 0 {
                    self.eval(a, t)?
                } else {
                    (V::I(0), Sym::No)
                };
                let (bv, sb) = if f != 0 {
                    self.eval(b, f)?
                } else {
                    (V::I(0), Sym::No)
                };
                if f == 0 {
                    (av, sa)
                } else if t == 0 {
                    (bv, sb)
                } else if matches!(av, V::Unknown) || matches!(bv, V::Unknown) {
                    (V::Unknown, Sym::No)
                } else {
                    let sym = if sa == sb { sa } else { opaque(sa, sb) };
                    let v = if is_float(&av) || is_float(&bv) {
                        let (x, y) = (lanes_f(&av), lanes_f(&bv));
                        V::FL(std::array::from_fn(|l| {
                            if t & (1 << l) != 0 { x[l] } else { y[l] }
                        }))
                    } else {
                        let (x, y) = (lanes_i(&av), lanes_i(&bv));
                        V::IL(std::array::from_fn(|l| {
                            if t & (1 << l) != 0 { x[l] } else { y[l] }
                        }))
                    };
                    (v, sym)
                }
            }
            Expr::Cast(w, a) => {
                let a = self.eval(a, mask)?;
                self.convert(a, *w, mask)
            }
            // The same element read again (reused from a register): the first read's value, no
            // access.
            Expr::Load(site) if self.kernel.sites[*site].merged_into.is_some() => {
                if self.site_values[*site].is_some() {
                    let (addrs, coef) = self.address(*site, mask)?;
                    self.last_load = Some((*site, addrs, coef));
                    self.assumed_value(*site, &addrs, coef, mask)
                } else {
                    (V::Unknown, Sym::No)
                }
            }
            Expr::Load(site) => {
                let (addrs, coef) = self.address(*site, mask)?;
                self.last_load = Some((*site, addrs, coef));
                if self.unrolled_depth > 0 && self.hold(*site, &addrs, coef, mask, false) {
                    // Loaded in an earlier turn of a loop nvcc unrolls: still in a register.
                    return Ok(self.assumed_value(*site, &addrs, coef, mask));
                }
                self.count(*site, &addrs, coef, mask, false)?;
                if self.kernel.sites[*site].space == Space::Global {
                    self.expr_pending = true;
                }
                self.assumed_value(*site, &addrs, coef, mask)
            }
            Expr::Call(Func::Atomic, args) => {
                let target = match args.first() {
                    Some(Expr::Int(n)) => usize::try_from(*n)
                        .ok()
                        .and_then(|n| Some((n, self.kernel.atomic_targets.get(n)?.as_ref()?))),
                    _ => None,
                };
                let mut indices = Vec::new();
                for (k, a) in args.iter().enumerate() {
                    let v = self.eval(a, mask)?;
                    if let Some((_, t)) = target
                        && (1..=t.indices).contains(&k)
                    {
                        indices.push(v);
                    }
                }
                if let Some((n, t)) = target {
                    self.count_atomic(n, t, &indices, mask)?;
                }
                (V::Unknown, Sym::No)
            }
            Expr::Call(Func::Component, args) => match args.as_slice() {
                [Expr::Local(slot), Expr::Int(offset), Expr::Int(bytes)] => {
                    self.component(*slot, *offset, *bytes, mask)
                }
                _ => (V::Unknown, Sym::No),
            },
            Expr::Call(_, args) => {
                for a in args {
                    self.eval(a, mask)?;
                }
                (V::Unknown, Sym::No)
            }
        })
    }

    /// After `slot = value` for the lanes of `mask` (`value` is `None` for `slot op= …`): whether
    /// the local now holds an element of an array whose values are assumed, read whole by the
    /// load just made (`uint4 v = d_Data[i]`, which the parser writes `Opaque(Load)`).
    fn note_vector_element(&mut self, slot: usize, value: Option<&Expr>, mask: u32) {
        let loaded = match (value, self.last_load) {
            (Some(Expr::Call(Func::Opaque, args)), Some((site, addrs, coef)))
                if matches!(args.as_slice(), [Expr::Load(s)] if *s == site)
                    && self.site_values[site].is_some() =>
            {
                Some((site, addrs, coef))
            }
            _ => None,
        };
        let Some((site, addrs, coef)) = loaded else {
            self.vector_elements.remove(&slot);
            return;
        };
        let whole = (mask | self.done | !self.exist) == u32::MAX;
        match self.vector_elements.get_mut(&slot) {
            Some(e) if !whole && e.site == site && e.coef == coef => {
                for (l, (held, new)) in e.addrs.iter_mut().zip(addrs).enumerate() {
                    if mask & (1 << l) != 0 {
                        *held = new;
                    }
                }
                e.lanes |= mask;
            }
            _ => {
                self.vector_elements.insert(
                    slot,
                    VectorElement {
                        site,
                        addrs,
                        coef,
                        lanes: mask,
                    },
                );
            }
        }
    }

    /// The field at `offset` (of `bytes`) of the vector local at `slot`, for the lanes of `mask`:
    /// the assumed value of that part of the element it holds, or unknown.
    fn component(&self, slot: usize, offset: i64, bytes: i64, mask: u32) -> (V, Sym) {
        let Some(e) = self
            .vector_elements
            .get(&slot)
            .filter(|e| mask & !e.lanes == 0)
        else {
            return (V::Unknown, Sym::No);
        };
        let Some(k) = self.site_values[e.site] else {
            return (V::Unknown, Sym::No);
        };
        // A vector's components are all of its component type (a struct's fields are not).
        let site = &self.kernel.sites[e.site];
        if i64::from(site.value_bytes) != bytes || site.elem_bytes % bytes.max(1) != 0 {
            return (V::Unknown, Sym::No);
        }
        let wrap = site.value;
        let a = &self.kernel.assume[k];
        // The array read as its components: the field at `offset` of the element at byte `b` is
        // component `(b + offset) / bytes`.
        let element = |l: usize| (e.addrs[l] + offset).div_euclid(bytes.max(1));
        let sym = if e.coef == [0; 3] {
            Sym::No
        } else {
            Sym::Opaque(aff(e.coef).dims())
        };
        let v = if wrap == Wrap::Float {
            V::FL(std::array::from_fn(|l| {
                if mask & (1 << l) != 0 {
                    a.value(element(l), false)
                } else {
                    0.0
                }
            }))
        } else {
            let lanes = V::IL(std::array::from_fn(|l| {
                if mask & (1 << l) != 0 {
                    a.value(element(l), true) as i64
                } else {
                    0
                }
            }));
            return self.convert((lanes, sym), wrap, mask);
        };
        (v, sym)
    }

    /// Counts one execution of atomic `n` on `t`'s element at `indices` (see [`super::atomic`]).
    fn count_atomic(
        &mut self,
        n: usize,
        t: &'k super::ast::AtomicTarget,
        indices: &[(V, Sym)],
        mask: u32,
    ) -> R<()> {
        use super::atomic::Form;
        if mask == 0 {
            return Ok(());
        }
        let w = self.weight;
        if indices.iter().any(|(v, _)| matches!(v, V::Unknown)) {
            self.atomic_counts[n].instructions += w;
            self.atomic_counts[n].uncounted += w;
            return Ok(());
        }
        let (addrs, coef) = self.address_in(&t.site, Some(indices), mask)?;
        let modulus = match t.site.space {
            Space::Global => 32,
            Space::Shared => 128,
        };
        if coef.iter().any(|d| d % modulus != 0) {
            return Err(Stop::Split(aff(coef).dims()));
        }
        let bytes = t.site.access_bytes;
        let space = t.site.space;
        let count = |m: u32, op: Op| -> engine::Result<Counts> {
            let lanes = LaneArray::from_warp32(&addrs, m, bytes, op);
            let mut c = Counts::default();
            measure(space, &lanes, &mut c, 1)?;
            Ok(c)
        };
        let rounds = super::atomic::rounds(&addrs, mask);
        let lead = 1u32 << mask.trailing_zeros();
        let form = self.atomic_shapes[n].form(t);
        let measured = (|| -> engine::Result<(u64, u64, bool)> {
            let mut cost = 0;
            let mut loads = 0;
            let mut known = true;
            let amount = |c: Counts| match space {
                Space::Global => c.sectors,
                Space::Shared => c.wavefronts,
            };
            match form {
                Form::Combined => cost = amount(count(lead, Op::Store)?),
                Form::Increment => cost = amount(count(mask, Op::Store)?),
                Form::SwapLoop if rounds.len() > 1 => known = false,
                Form::SwapLoop => {
                    cost = 2 * amount(count(mask, Op::Store)?);
                    loads = amount(count(mask, Op::Load)?);
                }
                Form::Rounds => {
                    for r in &rounds {
                        cost += amount(count(*r, Op::Store)?);
                    }
                }
            }
            Ok((cost, loads, known))
        })();
        let (cost, loads, known) = match measured {
            Ok(v) => v,
            Err(e) => {
                let what = format!("`{}` cannot be counted: {e}", t.site.text);
                return self.err(t.site.pos, what);
            }
        };
        let c = &mut self.atomic_counts[n];
        c.instructions += w;
        if !known {
            c.retried += w;
        } else if space == Space::Global {
            c.sectors += w * cost;
        } else {
            c.wavefronts += w * cost;
            c.loads += w * loads;
        }
        Ok(())
    }

    /// The values a load reads where `--assume` gives them (one per lane, from the element each
    /// lane reads); unknown otherwise, and for a vector load.
    fn assumed_value(
        &self,
        site: usize,
        addrs: &[i64; LANES],
        coef: [i64; 3],
        mask: u32,
    ) -> (V, Sym) {
        let Some(k) = self.site_values[site] else {
            return (V::Unknown, Sym::No);
        };
        let s = &self.kernel.sites[site];
        if s.access_bytes != s.value_bytes {
            return (V::Unknown, Sym::No);
        }
        let a = &self.kernel.assume[k];
        let width = i64::from(s.access_bytes.max(1));
        let element = |l: usize| addrs[l].div_euclid(width);
        // Another block of the box reads other elements, whose values are not these.
        let sym = if coef == [0; 3] {
            Sym::No
        } else {
            Sym::Opaque(aff(coef).dims())
        };
        let v = match s.value {
            Wrap::Float => V::FL(std::array::from_fn(|l| {
                if mask & (1 << l) != 0 {
                    a.value(element(l), false)
                } else {
                    0.0
                }
            })),
            w => {
                let lanes = V::IL(std::array::from_fn(|l| {
                    if mask & (1 << l) != 0 {
                        a.value(element(l), true) as i64
                    } else {
                        0
                    }
                }));
                return self.convert((lanes, sym), w, mask);
            }
        };
        (v, sym)
    }

    /// Byte offsets of every active lane's access at `site`, and how they move from block to block.
    fn address(&mut self, site_idx: usize, mask: u32) -> R<([i64; LANES], [i64; 3])> {
        let kernel = self.kernel;
        self.address_in(&kernel.sites[site_idx], None, mask)
    }

    /// The byte offsets of `site` for the lanes of `mask`, and their shift per block; the index
    /// values are `given` (evaluated already), or evaluated here.
    fn address_in(
        &mut self,
        site: &'k Site,
        given: Option<&[(V, Sym)]>,
        mask: u32,
    ) -> R<([i64; LANES], [i64; 3])> {
        let kernel = self.kernel;
        let mut elems = [0i64; LANES];
        let mut coef = [0i64; 3];
        for (k, idx) in site.indices.iter().enumerate() {
            let (v, s) = match given.and_then(|g| g.get(k)) {
                Some(given) => given.clone(),
                None => self.eval(idx, mask)?,
            };
            let lanes = match &v {
                V::Unknown => {
                    return self.err(
                        site.pos,
                        format!(
                            "the index of `{}` depends on a value read from memory{}",
                            site.text,
                            assume_hint(kernel, idx)
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
            let c = match s {
                Sym::No => [0; 3],
                Sym::Aff(c) => c,
                Sym::Opaque(d) => return Err(Stop::Split(d)),
            };
            for l in 0..LANES {
                if mask & (1 << l) == 0 {
                    continue;
                }
                if let Some(&extent) = site.extents.get(k) {
                    if !(0..extent).contains(&lanes[l]) {
                        if s != Sym::No {
                            return Err(Stop::Split(s.dims()));
                        }
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
                    if s != Sym::No
                        && !self
                            .range(lanes[l], c)
                            .is_some_and(|(lo, hi)| lo >= 0 && hi < extent)
                    {
                        return Err(Stop::Split(s.dims()));
                    }
                }
                let step = lanes[l].checked_mul(site.strides[k]);
                match step.and_then(|s| elems[l].checked_add(s)) {
                    Some(v) => elems[l] = v,
                    None => return self.err(site.pos, "an address that overflows"),
                }
            }
            for (total, &cd) in coef.iter_mut().zip(&c) {
                match cd
                    .checked_mul(site.strides[k])
                    .and_then(|v| v.checked_add(*total))
                {
                    Some(v) => *total = v,
                    None => return Err(Stop::Split(s.dims())),
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
        if coef != [0; 3] {
            let dims = aff(coef).dims();
            for d in &mut coef {
                *d = match d.checked_mul(site.elem_bytes) {
                    Some(v) => v,
                    None => return Err(Stop::Split(dims)),
                };
            }
            for (l, &address) in out.iter().enumerate().take(LANES) {
                if mask & (1 << l) != 0
                    && !self
                        .range(address, coef)
                        .is_some_and(|(lo, hi)| lo > -(1 << 60) && hi < 1 << 60)
                {
                    return Err(Stop::Split(dims));
                }
            }
        }
        Ok((out, coef))
    }

    /// How many blocks of the box shift an address by `coef · t` to each residue modulo `modulus`.
    fn residues(&mut self, coef: [i64; 3], modulus: i64) -> usize {
        if let Some(k) = self
            .hist
            .iter()
            .position(|(c, m, _)| *c == coef && *m == modulus)
        {
            return k;
        }
        let m = modulus as usize;
        let mut hist = vec![0u64; m];
        hist[0] = 1;
        for (&span, &ck) in self.span.iter().zip(&coef) {
            let n = span as u64 + 1;
            let c = ck.rem_euclid(modulus);
            let period = (modulus / gcd(c, modulus).max(1)) as u64;
            let mut one = vec![0u64; m];
            for t in 0..period.min(n) {
                let r = ((c as u64 * t) % modulus as u64) as usize;
                one[r] += n / period + u64::from(t < n % period);
            }
            let mut next = vec![0u64; m];
            for (i, &a) in hist.iter().enumerate() {
                if a == 0 {
                    continue;
                }
                for (j, &b) in one.iter().enumerate() {
                    if b != 0 {
                        next[(i + j) % m] += a * b;
                    }
                }
            }
            hist = next;
        }
        self.hist.push((coef, modulus, hist));
        self.hist.len() - 1
    }

    fn count(
        &mut self,
        site_idx: usize,
        addrs: &[i64; LANES],
        coef: [i64; 3],
        mask: u32,
        store: bool,
    ) -> R<()> {
        if mask == 0 {
            return Ok(());
        }
        let site = &self.kernel.sites[site_idx];
        let space = site.space;
        let bytes = site.access_bytes;
        let n = self.weight;
        let mut c = Counts {
            instructions: n,
            requests: n * u64::from(space == Space::Global),
            bytes: n * u64::from(mask.count_ones()) * u64::from(bytes),
            least_sectors: n * least_sectors(addrs, mask, bytes),
            ..Counts::default()
        };
        // Sectors repeat when addresses move by 32 bytes, banks when they move by 128.
        let modulus = match space {
            Space::Global => 32,
            Space::Shared => 128,
        };
        let mut lanes = LaneArray::from_warp32(addrs, mask, bytes, op_of(store));
        let measured = if coef.iter().all(|d| d % modulus == 0) {
            measure(space, &lanes, &mut c, n)
        } else {
            let k = self.residues(coef, modulus);
            let hist = &self.hist[k].2;
            let mut measured = Ok(());
            for (r, &times) in hist.iter().enumerate() {
                if times == 0 {
                    continue;
                }
                for (slot, &a) in lanes.addresses.iter_mut().zip(addrs) {
                    *slot = a + r as i64;
                }
                measured = measured.and(measure(space, &lanes, &mut c, times));
            }
            measured
        };
        if let Err(e) = measured {
            let what = format!("`{}` cannot be counted: {e}", site.text);
            return self.err(site.pos, what);
        }
        self.profile_access(site_idx, addrs, coef, mask, store, &c);
        if let Some((traced, limit)) = self.tracing
            && traced == site_idx
        {
            self.trace.total += 1;
            if self.trace.executions.len() < limit {
                self.trace.executions.push(Execution {
                    mask,
                    offsets: *addrs,
                    store,
                });
            }
        }
        let role = self.roles.get(site_idx).copied().flatten();
        for entry in [&mut self.counts[site_idx], &mut self.merged[site_idx]] {
            if store {
                entry.store.add(&c);
            } else {
                entry.load.add(&c);
            }
        }
        let Some(role) = role else {
            return Ok(());
        };
        if coef.iter().any(|d| d % 128 != 0) {
            // Merging depends on alignment, which a shift of part of 128 bytes changes.
            return Err(Stop::Split(aff(coef).dims()));
        }
        let p = Pending {
            site: site_idx,
            addrs: *addrs,
            mask,
            counts: c,
            store,
        };
        match role {
            Role::Group { group, pos, .. } => {
                let slots = &mut self.group_pending[group];
                if slots[pos].is_some() || slots.iter().flatten().any(|q| q.store != store) {
                    slots.iter_mut().for_each(|q| *q = None);
                }
                slots[pos] = Some(p);
                if slots.iter().all(Option::is_some) {
                    let members: Vec<Pending> = slots.iter().flatten().copied().collect();
                    slots.iter_mut().for_each(|q| *q = None);
                    self.try_merge(&members);
                }
            }
            Role::Run => {
                let bytes = i64::from(self.kernel.sites[site_idx].access_bytes);
                let continues = self.run_pending[site_idx].last().is_some_and(|last| {
                    last.mask == mask
                        && (0..LANES)
                            .all(|l| mask & (1 << l) == 0 || addrs[l] == last.addrs[l] + bytes)
                });
                if !continues {
                    self.flush_run(site_idx);
                }
                self.run_pending[site_idx].push(p);
                if self.run_pending[site_idx].len() as i64 * bytes >= 16 {
                    self.flush_run(site_idx);
                }
            }
        }
        Ok(())
    }

    /// Adds one warp-level access to the timing profile: its instruction, lines, sectors and
    /// granules (global), or the conflict wavefronts its warp waits through (shared).
    fn profile_access(
        &mut self,
        site_idx: usize,
        addrs: &[i64; LANES],
        coef: [i64; 3],
        mask: u32,
        store: bool,
        c: &Counts,
    ) {
        let n = self.weight;
        self.issue(n, mask);
        let site = &self.kernel.sites[site_idx];
        let bytes = i64::from(site.access_bytes);
        if site.space == Space::Shared {
            self.warp_track[2] += c.wavefronts.saturating_sub(c.ideal) / n.max(1);
            return;
        }
        let a = self.site_array[site_idx];
        let op = usize::from(store);
        let mut lines: Vec<i64> = Vec::with_capacity(LANES * 2);
        let mut sectors: Vec<(i64, i64)> = Vec::with_capacity(LANES * 2);
        for (l, &addr) in addrs.iter().enumerate() {
            if mask & (1 << l) == 0 {
                continue;
            }
            let last = addr.saturating_add(bytes - 1);
            if let (Some((lo, _)), Some((_, hi))) = (self.range(addr, coef), self.range(last, coef))
            {
                let e = &mut self.extents[a][op];
                if e.seen {
                    e.lo = e.lo.min(lo);
                    e.hi = e.hi.max(hi);
                } else {
                    (e.lo, e.hi, e.seen) = (lo, hi, true);
                }
            }
            lines.extend([addr.div_euclid(128), last.div_euclid(128)]);
            for sector in addr.div_euclid(32)..=last.div_euclid(32) {
                let covered = (last.min(sector * 32 + 31) - addr.max(sector * 32) + 1).max(0);
                sectors.push((sector, covered));
            }
            for g in addr.div_euclid(64)..=last.div_euclid(64) {
                self.note(1 + op, (a, g));
            }
            if !store {
                for sector in addr.div_euclid(32)..=last.div_euclid(32) {
                    self.note(0, (a, sector));
                }
            }
        }
        lines.sort_unstable();
        lines.dedup();
        self.prof.global_lines += n * lines.len() as u64;
        self.extents[a][op].requested += c.bytes;
        if store {
            self.prof.store_sectors += c.sectors;
            sectors.sort_unstable();
            let mut partial = 0u64;
            let mut k = 0;
            while k < sectors.len() {
                let (sector, mut covered) = sectors[k];
                k += 1;
                while k < sectors.len() && sectors[k].0 == sector {
                    covered += sectors[k].1;
                    k += 1;
                }
                partial += u64::from(covered < 32);
            }
            self.prof.partial_store_sectors += n * partial;
        } else {
            self.prof.global_loads += n;
        }
    }

    /// Merges the pending contiguous executions of a site in aligned pieces of 8 or 16 bytes.
    fn flush_run(&mut self, site: usize) {
        if self.run_pending[site].is_empty() {
            return;
        }
        let run = std::mem::take(&mut self.run_pending[site]);
        let bytes = self.kernel.sites[site].access_bytes as usize;
        let mut i = 0;
        while i < run.len() {
            let width = [4usize, 2].into_iter().find(|&w| {
                i + w <= run.len() && matches!(w * bytes, 8 | 16) && self.try_merge(&run[i..i + w])
            });
            i += width.unwrap_or(1);
        }
    }

    /// If `members` (contiguous elements, first first) are one aligned wider access for every active
    /// lane, counts them as that access in the merged counts.
    fn try_merge(&mut self, members: &[Pending]) -> bool {
        let Some(first) = members.first() else {
            return false;
        };
        let site = &self.kernel.sites[first.site];
        let bytes = i64::from(site.access_bytes);
        let width = bytes * members.len() as i64;
        let mask = first.mask;
        let lined_up = members.iter().enumerate().all(|(j, m)| {
            m.mask == mask
                && m.store == first.store
                && (0..LANES).all(|l| {
                    mask & (1 << l) == 0
                        || (m.addrs[l] == first.addrs[l] + j as i64 * bytes
                            && first.addrs[l].rem_euclid(width) == 0)
                })
        });
        if !lined_up {
            return false;
        }
        let n = self.weight;
        let wide = width as u32;
        let mut c = Counts {
            instructions: n,
            requests: n * u64::from(site.space == Space::Global),
            bytes: n * u64::from(mask.count_ones()) * u64::from(wide),
            least_sectors: n * least_sectors(&first.addrs, mask, wide),
            ..Counts::default()
        };
        let lanes = LaneArray::from_warp32(&first.addrs, mask, wide, op_of(first.store));
        // A width the engine does not count (the finder forms only 8 and 16 bytes) is left unmerged.
        if measure(site.space, &lanes, &mut c, n).is_err() {
            return false;
        }
        for m in members {
            let entry = &mut self.merged[m.site];
            if m.store {
                entry.store.sub(&m.counts);
            } else {
                entry.load.sub(&m.counts);
            }
        }
        let entry = &mut self.merged[first.site];
        if first.store {
            entry.store.add(&c);
        } else {
            entry.load.add(&c);
        }
        true
    }
}

fn lanes_f1(v: &V) -> f64 {
    match v {
        V::I(a) => *a as f64,
        V::F(a) => *a,
        _ => 0.0,
    }
}

impl Execution {
    /// The sectors (global) or wavefronts and active phases (shared) of this execution of a
    /// `bytes`-byte access, counted exactly as the analyser counts every execution it runs (the
    /// engine's counting paths, a store as a store): 32 lanes storing one 8-byte shared address →
    /// 2 wavefronts, 2 phases; the load → 1 and 1. Errors for a width the engine refuses (not 1,
    /// 2, 4, 8 or 16 bytes) or no active lane.
    pub fn counts(&self, space: Space, bytes: u32) -> engine::Result<Counts> {
        let lanes = LaneArray::from_warp32(&self.offsets, self.mask, bytes, op_of(self.store));
        let mut counts = Counts::default();
        measure(space, &lanes, &mut counts, 1)?;
        Ok(counts)
    }
}

/// The fewest 32-byte sectors the distinct bytes the lanes of `mask` ask for could take (each lane
/// `bytes` from its offset): lanes on one word ask for it once.
fn least_sectors(addrs: &[i64; LANES], mask: u32, bytes: u32) -> u64 {
    let mut spans: Vec<(i64, i64)> = (0..LANES)
        .filter(|l| mask & (1 << l) != 0)
        .map(|l| (addrs[l], addrs[l] + i64::from(bytes)))
        .collect();
    spans.sort_unstable();
    let mut distinct = 0i64;
    let mut reach = i64::MIN;
    for (lo, hi) in spans {
        let lo = lo.max(reach);
        if hi > lo {
            distinct += hi - lo;
        }
        reach = reach.max(hi);
    }
    (distinct.max(0) as u64).div_ceil(32)
}

/// The engine's name for a load (`false`) or a store (`true`).
fn op_of(store: bool) -> Op {
    if store { Op::Store } else { Op::Load }
}

/// Adds `times` executions of one warp access to `c`, counted by the engine (notes §1, §2 and
/// §2b): global accesses by their distinct 32-byte sectors, shared ones by their wavefronts and
/// active phases (the ideal), 8- and 16-byte shared stores with no pair merge. 32 lanes storing
/// one `double` add 2 wavefronts and 2 phases per execution; loading it, 1 and 1. Errors only for
/// lanes the engine refuses (an element size other than 1, 2, 4, 8 or 16 bytes, no active lane).
fn measure(space: Space, lanes: &LaneArray, c: &mut Counts, times: u64) -> engine::Result<()> {
    match space {
        Space::Global => {
            let counts = engine::coalescing::count_lanes(lanes, Granularity::Sector)?;
            c.sectors += times * u64::from(counts.sectors);
        }
        Space::Shared => {
            // The analyser models NVIDIA hardware: phases may merge (for loads), as on the H200.
            let counts = engine::banks::count_lanes(lanes, Vendor::Nvidia)?;
            c.wavefronts += times * u64::from(counts.wavefronts);
            c.ideal += times * u64::from(counts.ideal_wavefronts);
        }
    }
    Ok(())
}

fn calls_atomic(e: &Expr) -> bool {
    match e {
        Expr::Call(Func::Atomic, _) => true,
        Expr::Call(_, args) => args.iter().any(calls_atomic),
        Expr::Unary(_, a) | Expr::Cast(_, a) => calls_atomic(a),
        Expr::Binary(_, a, b) => calls_atomic(a) || calls_atomic(b),
        Expr::Cond(c, a, b) => calls_atomic(c) || calls_atomic(a) || calls_atomic(b),
        _ => false,
    }
}

/// The locals `stmts` assign, nested statements included.
fn assigned_slots(stmts: &[Stmt], out: &mut Vec<usize>) {
    for s in stmts {
        match s {
            Stmt::SetLocal { slot, .. } if !out.contains(slot) => out.push(*slot),
            Stmt::If {
                then, otherwise, ..
            } => {
                assigned_slots(then, out);
                assigned_slots(otherwise, out);
            }
            Stmt::Loop { body, step, .. } => {
                assigned_slots(body, out);
                assigned_slots(step, out);
            }
            _ => {}
        }
    }
}

/// Where an unknown value comes from, and how to give it: `` (from `inp`): say what it holds
/// with --assume inp=LO..HI … ``. The arrays are those the expression reads, directly or through
/// the locals it uses (followed through their assignments, a few levels deep).
fn assume_hint(kernel: &Kernel, e: &Expr) -> String {
    fn locals_of(e: &Expr, out: &mut Vec<usize>) {
        match e {
            Expr::Local(s) => out.push(*s),
            Expr::Unary(_, a) | Expr::Cast(_, a) => locals_of(a, out),
            Expr::Binary(_, a, b) => {
                locals_of(a, out);
                locals_of(b, out);
            }
            Expr::Cond(c, a, b) => {
                locals_of(c, out);
                locals_of(a, out);
                locals_of(b, out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| locals_of(a, out)),
            _ => {}
        }
    }
    fn assignments<'a>(stmts: &'a [Stmt], slot: usize, out: &mut Vec<&'a Expr>) {
        for s in stmts {
            match s {
                Stmt::SetLocal { slot: k, value, .. } if *k == slot => out.push(value),
                Stmt::If {
                    then, otherwise, ..
                } => {
                    assignments(then, slot, out);
                    assignments(otherwise, slot, out);
                }
                Stmt::Loop { body, step, .. } => {
                    assignments(body, slot, out);
                    assignments(step, slot, out);
                }
                _ => {}
            }
        }
    }
    let mut arrays: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut frontier = vec![e];
    for _ in 0..6 {
        let mut next = Vec::new();
        for e in frontier {
            let mut loads = Vec::new();
            merge::loads_in_expr(e, &mut loads);
            for s in loads {
                let name = &kernel.sites[s].array;
                if !arrays.contains(name) {
                    arrays.push(name.clone());
                }
            }
            let mut slots = Vec::new();
            locals_of(e, &mut slots);
            for slot in slots {
                if !seen.contains(&slot) {
                    seen.push(slot);
                    assignments(&kernel.body, slot, &mut next);
                }
            }
        }
        frontier = next;
    }
    if arrays.is_empty() {
        return " (say what the arrays it reads hold with --assume ARRAY=LO..HI, ARRAY=VALUE or ARRAY=@FILE)".into();
    }
    let named: Vec<String> = arrays.iter().map(|a| format!("`{a}`")).collect();
    format!(
        " (from {}): say what it holds with --assume {}=LO..HI (uniform values), =VALUE or =@FILE (values from a file), and the figures are those of that data",
        named.join(", "),
        arrays[0]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{Options, prepare};

    /// Runs `source` allowed `budget` steps, shortcut and full; the steps each took, or the error.
    fn steps(source: &str, budget: u64) -> [Result<u64>; 2] {
        let (kernel, launch) = prepare(source, "k.cu", &Options::default()).unwrap();
        [true, false].map(|shortcut| {
            run_budget(&kernel, &launch, "k.cu", shortcut, budget).map(|(_, steps)| steps)
        })
    }

    fn too_long(r: &Result<u64>) -> bool {
        matches!(r, Err(AnalyzeError::TooLong { .. }))
    }

    #[test]
    fn an_empty_loop_costs_its_turns() {
        let source = "// launch: --grid 1 --block 32
__global__ void k(float* out) {
  for (int s = 0; s < 1000; s++) {
  }
  out[threadIdx.x] = 1.0f;
}";
        // 1000 turns, plus the loop statement, the step of every turn and the store.
        for r in steps(source, 5000) {
            let taken = r.unwrap();
            assert!((1000..=2100).contains(&taken), "{taken}");
        }
        for r in steps(source, 900) {
            assert!(too_long(&r), "{r:?}");
        }
    }

    #[test]
    fn statements_count_once_per_warp_that_runs_them() {
        // Two warps, 50 statements, 20 turns: about 2 × 20 × 52 steps.
        let body = "    x = x + 1;\n".repeat(50);
        let source = format!(
            "// launch: --grid 1 --block 64
__global__ void k(float* out) {{
  int x = 0;
  for (int s = 0; s < 20; s++) {{
{body}  }}
  out[threadIdx.x] = x;
}}"
        );
        for r in steps(&source, 10_000) {
            let taken = r.unwrap();
            assert!((2 * 20 * 51..=2 * 20 * 53 + 20).contains(&taken), "{taken}");
        }
        for r in steps(&source, 2000) {
            assert!(too_long(&r), "{r:?}");
        }
    }

    #[test]
    fn the_budget_covers_every_block_and_stops_splitting() {
        // Blocks that differ (`% 3`) are split into boxes and run one by one: every block's turns
        // count, and running out of budget in a box ends the analysis instead of splitting it.
        let source = "// launch: --grid 100000 --block 32
__global__ void k(float* out) {
  if (blockIdx.x % 3 == 0) {
    for (int s = 0; s < 100; s++) {
    }
  }
  out[threadIdx.x] = 1.0f;
}";
        for r in steps(source, 50_000) {
            assert!(too_long(&r), "{r:?}");
        }
        let small = source.replace("100000", "30");
        for r in steps(&small, 50_000) {
            // 10 of 30 blocks loop: more than 1000 turns, well under the budget.
            let taken = r.unwrap();
            assert!(taken > 1000, "{taken}");
        }
    }

    #[test]
    fn running_out_says_what_to_do() {
        let source = "// launch: --grid 1 --block 32
__global__ void k(float* out) {
  for (int s = 0; s < 1000; s++) {
  }
}";
        let [r, _] = steps(source, 100);
        let text = r.unwrap_err().to_string();
        assert!(
            text.starts_with("k.cu: too long to simulate: more than 100 steps"),
            "{text}"
        );
        assert!(
            text.ends_with("shrink the launch or the loop, or use -D to set a smaller N"),
            "{text}"
        );
    }

    #[test]
    fn an_endless_loop_in_many_alike_blocks_is_found_once() {
        // Every block meets the loop's limit alike: the error is the loop's, found in the first box,
        // not the budget's after splitting the grid down to single blocks.
        let source = "// launch: --grid 100000 --block 32
__global__ void k(float* out) {
  int j = 0;
  while (j >= 0) j = 1;
}";
        let (kernel, launch) = prepare(source, "k.cu", &Options::default()).unwrap();
        let e = run(&kernel, &launch, "k.cu").unwrap_err().to_string();
        assert!(
            e.starts_with("k.cu:4:10: not supported: a loop that runs more than 8 388 608 times"),
            "{e}"
        );
    }

    #[test]
    fn the_real_budget_stops_a_long_one_warp_kernel() {
        // 41 steps a turn: the budget runs out before the loop's own limit of 2²³ turns.
        let (kernel, launch) = prepare(
            "// launch: --grid 1 --block 32
__global__ void k(float* out) {
  int x = 0;
  for (int s = 0; s < 4000000; s++) {
    x = x + 1; x = x + 2; x = x + 3; x = x + 4; x = x + 5;
    x = x + 6; x = x + 7; x = x + 8; x = x + 9; x = x + 10;
    x = x + 1; x = x + 2; x = x + 3; x = x + 4; x = x + 5;
    x = x + 6; x = x + 7; x = x + 8; x = x + 9; x = x + 10;
    x = x + 1; x = x + 2; x = x + 3; x = x + 4; x = x + 5;
    x = x + 6; x = x + 7; x = x + 8; x = x + 9; x = x + 10;
    x = x + 1; x = x + 2; x = x + 3; x = x + 4; x = x + 5;
    x = x + 6; x = x + 7; x = x + 8; x = x + 9; x = x + 10;
  }
  out[threadIdx.x] = x;
}",
            "k.cu",
            &Options::default(),
        )
        .unwrap();
        let e = run(&kernel, &launch, "k.cu").unwrap_err();
        assert!(
            matches!(
                e,
                AnalyzeError::TooLong {
                    steps: MAX_STEPS,
                    ..
                }
            ),
            "{e}"
        );
    }
}
