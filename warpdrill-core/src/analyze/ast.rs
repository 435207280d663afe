//! The kernel as the interpreter runs it: typed, name-resolved statements and expressions.

/// Source position, 1-based line and column, in the file (source 0) or in the header it includes
/// that a `__device__` function came from (source k: [`Kernel::headers`]`[k - 1]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
    /// Which text: 0 for the file, k for the k-th header it includes.
    pub source: u16,
}

/// How a value is kept after an assignment to a local.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    /// Signed 8/16/32/64-bit integer.
    Signed(u32),
    /// Unsigned 8/16/32/64-bit integer.
    Unsigned(u32),
    /// Floating point.
    Float,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    LAnd,
    /// `||`
    LOr,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer constant.
    Int(i64),
    /// A floating-point constant.
    Float(f64),
    /// A local variable, by slot.
    Local(usize),
    /// `threadIdx.x` … `gridDim.z`: 0–2 threadIdx, 3–5 blockIdx, 6–8 blockDim, 9–11 gridDim.
    Builtin(u8),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A conversion.
    Cast(Wrap, Box<Expr>),
    /// A memory read, by access site.
    Load(usize),
    /// A function the analyser does not follow (math, conversions, shuffles): its arguments are
    /// evaluated (their loads counted), its value is unknown to the analyser. The interpreter
    /// ([`super::exec`]) runs the functions [`Func`] names.
    Call(Func, Vec<Expr>),
}

/// What an atomic does with the element's old value and its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicKind {
    /// `atomicAdd`: old + v
    Add,
    /// `atomicSub`: old − v
    Sub,
    /// `atomicExch`: v
    Exch,
    /// `atomicMin`
    Min,
    /// `atomicMax`
    Max,
    /// `atomicInc`: old ≥ v ? 0 : old + 1
    Inc,
    /// `atomicDec`: old = 0 or old > v ? v : old − 1
    Dec,
    /// `atomicCAS(p, compare, v)`: old = compare ? v : old
    Cas,
    /// `atomicAnd`
    And,
    /// `atomicOr`
    Or,
    /// `atomicXor`
    Xor,
}

impl AtomicKind {
    /// The kind an atomic's name says (`atomicAdd`, `atomicAdd_block`, `atomicMax_system` …).
    pub fn of(name: &str) -> Option<AtomicKind> {
        let base = name
            .strip_suffix("_block")
            .or_else(|| name.strip_suffix("_system"))
            .unwrap_or(name);
        Some(match base {
            "atomicAdd" => AtomicKind::Add,
            "atomicSub" => AtomicKind::Sub,
            "atomicExch" => AtomicKind::Exch,
            "atomicMin" => AtomicKind::Min,
            "atomicMax" => AtomicKind::Max,
            "atomicInc" => AtomicKind::Inc,
            "atomicDec" => AtomicKind::Dec,
            "atomicCAS" => AtomicKind::Cas,
            "atomicAnd" => AtomicKind::And,
            "atomicOr" => AtomicKind::Or,
            "atomicXor" => AtomicKind::Xor,
            _ => return None,
        })
    }
}

/// An atomic's element and operation. The call's arguments after its number are the target's
/// index expressions (`indices` of them, so that the loads they make are counted), then the
/// values.
#[derive(Debug, Clone)]
pub struct AtomicTarget {
    /// What it does.
    pub kind: AtomicKind,
    /// The element (not an access the analyser counts: Nsight counts atomics apart).
    pub site: Site,
    /// How many index expressions come before the values in the call's arguments.
    pub indices: usize,
}

/// The functions the interpreter runs on data; every other call is [`Func::Opaque`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// A call the interpreter cannot run (its value is not computed).
    Opaque,
    /// `min`, `fminf`, … of two values.
    Min,
    /// `max`, `fmaxf`, …
    Max,
    /// `abs`, `fabsf`, …
    Abs,
    /// `sqrtf`
    Sqrt,
    /// `rsqrtf`
    Rsqrt,
    /// `expf`, `__expf`
    Exp,
    /// `logf`, `__logf`
    Log,
    /// `floorf`
    Floor,
    /// `ceilf`
    Ceil,
    /// `fmaf(a, b, c)` = a·b + c
    Fma,
    /// `__shfl_sync(mask, v, lane[, width])`
    Shfl,
    /// `__shfl_down_sync(mask, v, delta[, width])`
    ShflDown,
    /// `__shfl_up_sync(mask, v, delta[, width])`
    ShflUp,
    /// `__shfl_xor_sync(mask, v, lane_mask[, width])`
    ShflXor,
    /// An atomic (`atomicAdd`, …): counted apart; memory is read again after it.
    Atomic,
    /// `v[i]` of a local array of scalars: `[Local(slot), place, Int(elements)]`, the element
    /// `place` slots past the array's own (the analyser does not follow its value).
    LocalAt,
    /// The value of an assignment to `v[i]` of a local array (the statement's slot is the
    /// array's): `[place, Int(elements), value]`.
    LocalPut,
    /// `__syncwarp`, `__threadfence`, …: no value; memory is read again after it.
    Fence,
    /// `t.y` of a local of a vector type: `[Local(slot), Int(offset), Int(bytes)]`, the field at
    /// `offset` bytes of `bytes`. Its value is followed where the local holds an element of an
    /// array `--assume` gives values for (that element's field); unknown otherwise.
    Component,
}

impl Func {
    /// The function a call of `name` is.
    pub fn of(name: &str) -> Func {
        match name {
            "min" | "fminf" | "fmin" | "umin" | "llmin" | "ullmin" => Func::Min,
            "max" | "fmaxf" | "fmax" | "umax" | "llmax" | "ullmax" => Func::Max,
            "abs" | "fabsf" | "fabs" | "llabs" => Func::Abs,
            "sqrtf" | "sqrt" | "__fsqrt_rn" => Func::Sqrt,
            "rsqrtf" | "rsqrt" => Func::Rsqrt,
            "expf" | "exp" | "__expf" => Func::Exp,
            "logf" | "log" | "__logf" => Func::Log,
            "floorf" | "floor" => Func::Floor,
            "ceilf" | "ceil" => Func::Ceil,
            "fmaf" | "fma" | "__fmaf_rn" => Func::Fma,
            "__shfl_sync" => Func::Shfl,
            "__shfl_down_sync" => Func::ShflDown,
            "__shfl_up_sync" => Func::ShflUp,
            "__shfl_xor_sync" => Func::ShflXor,
            _ => Func::Opaque,
        }
    }
}

/// A statement.
#[allow(missing_docs)]
#[derive(Debug, Clone)]
pub enum Stmt {
    /// `local op= value` (plain `=` when `op` is `None`).
    SetLocal {
        slot: usize,
        op: Option<BinOp>,
        value: Expr,
        wrap: Wrap,
        pos: Pos,
    },
    /// `array[…] op= value`: a store (and a load first when `op` is set).
    Store {
        site: usize,
        op: Option<BinOp>,
        value: Expr,
        pos: Pos,
    },
    /// `if (cond) then else otherwise`.
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        pos: Pos,
    },
    /// A loop: `while (cond) { body; step }`.
    Loop {
        cond: Option<Expr>,
        body: Vec<Stmt>,
        step: Vec<Stmt>,
        pos: Pos,
    },
    /// `return;`: the lane stops.
    Return,
    /// `__syncthreads()`: every warp of the block waits for the others (the timing model counts the
    /// phases between barriers; the counts are unaffected). Where it is written.
    Barrier(Pos),
    /// An expression evaluated for its loads.
    Eval(Expr, Pos),
}

/// Memory space of an access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Global memory, through a pointer parameter.
    Global,
    /// Shared memory.
    Shared,
}

/// One array access in the source: one warp-level memory instruction each time it runs.
#[derive(Debug, Clone)]
pub struct Site {
    /// Global or shared.
    pub space: Space,
    /// Name of the array.
    pub array: String,
    /// Index expressions, outermost first.
    pub indices: Vec<Expr>,
    /// Elements each index steps over (row-major strides; `[1]` for a pointer).
    pub strides: Vec<i64>,
    /// Extents of a shared array's dimensions (empty for a pointer).
    pub extents: Vec<i64>,
    /// Bytes of one element of the array.
    pub elem_bytes: i64,
    /// Byte offset of the field read inside the element (0 for the whole element).
    pub field_offset: i64,
    /// Bytes one lane moves.
    pub access_bytes: u32,
    /// The C type of one component the access reads or writes (`float` for a `float4`).
    pub value: Wrap,
    /// Bytes of that component (4 for a `float4`'s, 8 for a `double`).
    pub value_bytes: u32,
    /// Where the value this access stands for starts inside the bytes it moves (0, unless it was
    /// widened down to an earlier field: `p[i].y` loaded with `p[i].x` as one `LDG.64`).
    pub value_offset: u32,
    /// Where it is in the source.
    pub pos: Pos,
    /// The access's text.
    pub text: String,
    /// Another site this one is read with, as one wider access (`in[i].y` with `in[i].x` of a
    /// `float2`: nvcc loads both with one `LDG.64`); such a site counts nothing itself.
    pub merged_into: Option<usize>,
}

/// A parsed kernel.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// The statements of its body.
    pub body: Vec<Stmt>,
    /// Every access site, indexed by `Expr::Load` / `Stmt::Store`.
    pub sites: Vec<Site>,
    /// Number of local slots.
    pub locals: usize,
    /// The local arrays whose elements have slots of their own, by their first slot: their names,
    /// for the interpreter's messages.
    pub local_names: std::collections::BTreeMap<usize, String>,
    /// Shared memory the kernel declares, bytes.
    pub shared_bytes: i64,
    /// The first and last line (1-based) of the kernel's definition in its file.
    pub lines: (u32, u32),
    /// The atomics it calls (where, as written): Nsight Compute counts them apart from loads and
    /// stores, so they add nothing to the counts.
    pub atomics: Vec<(Pos, String)>,
    /// What each atomic does to which element, for the interpreter, by the number its call
    /// carries as first argument (`Expr::Call(Func::Atomic, [Int(n), …])`); none when its target
    /// is not an element the parser follows.
    pub atomic_targets: Vec<Option<AtomicTarget>>,
    /// The loads nvcc does not make, as it reuses a value already in a register
    /// ([`super::reuse`]); their sites are `merged_into` the access they reuse.
    pub reused: Vec<super::reuse::Reuse>,
    /// Values the user gives for arrays the kernel reads (`--assume`), so that indices and
    /// branches on what it reads can be followed.
    pub assume: Vec<super::assume::Assumption>,
    /// Where the loops are that nvcc unrolls fully (`#pragma unroll`, a trip count known when
    /// compiling): their turns are one stretch of code, where a value loaded in one turn is reused
    /// by the next.
    pub unrolled: Vec<Pos>,
    /// Per site, whether a load there may reuse a value already in a register (not `volatile`).
    pub reusable: Vec<bool>,
    /// The pointer parameters declared `__restrict__` (a store through another pointer does not
    /// write what they point at).
    pub restrict: std::collections::HashSet<String>,
    /// The headers beside the file, as it includes them: where a [`Pos`] with a `source` above 0
    /// is (a statement of a `__device__` function inlined from a header).
    pub headers: Vec<String>,
}

impl Kernel {
    /// The name of the text `pos` is in: `file` (the kernel's file, as given) or the header's.
    pub fn file_of<'a>(&'a self, pos: Pos, file: &'a str) -> &'a str {
        match pos.source {
            0 => file,
            k => self
                .headers
                .get(usize::from(k) - 1)
                .map_or(file, String::as_str),
        }
    }
}
