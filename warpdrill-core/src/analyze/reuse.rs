//! The loads `nvcc -O3` does not emit: an element a thread read or wrote a statement earlier is
//! still in a register, and reading it again costs no instruction.
//!
//! The rule is the one LLVM's GVN applies to the NVVM the front end emits, as `cuobjdump -sass`
//! shows it (one `LDG` where the source reads twice): a load is replaced by an earlier access of
//! the same element when
//! - the earlier access runs on every lane the later one runs on (it comes before, in the same
//!   block or in one that encloses it, and in the same turn of a loop), and
//! - nothing between them may have changed the element: no assignment to a local its index reads,
//!   no store that may write it (another array of the same space unless either pointer is
//!   `__restrict__` or the two are different `__shared__` arrays; the same array at an element
//!   not provably different), no `__syncthreads`, `__syncwarp`, fence or atomic.
//!
//! A store followed by a load of the same element forwards the stored value (the load goes). Loads
//! of `volatile` data are always made. A loop's body starts with only what no statement of the loop
//! can change. Fields of one vector element read in one basic block become one wider load. Reuse
//! across the turns of a loop nvcc unrolls is followed while the warp runs (`run`'s register
//! cache, [`super::ast::Kernel::unrolled`]); across the turns of a loop it keeps, or by hoisting a
//! load out of one, it is not: those loads count as written.

use super::ast::{BinOp, Expr, Func, Kernel, Site, Space, Stmt};
use std::collections::HashSet;

/// A load that reads what an earlier access already brought into a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reuse {
    /// The load that is not made.
    pub site: usize,
    /// The earlier access whose value it uses.
    pub from: usize,
    /// Whether that access is a store (its value forwarded) rather than a load.
    pub stored: bool,
}

/// What aliasing the pass may assume about the kernel's arrays.
pub(super) struct Names<'a> {
    /// Arrays read through `volatile`.
    pub volatile: &'a HashSet<String>,
    /// Per site, the alignment of its vector element (`float2`: 8), 0 when it is not one.
    pub align: &'a [i64],
}

/// Marks every load of `kernel` that reuses an earlier access (`merged_into`) and lists them;
/// also says, per site, whether its loads may reuse a register at all (not `volatile`).
pub(super) fn reuse(kernel: &mut Kernel, names: &Names) -> (Vec<Reuse>, Vec<bool>) {
    let mut pass = Pass {
        sites: &mut kernel.sites,
        restrict: &kernel.restrict,
        names,
        found: Vec::new(),
        dry: false,
        region: 0,
        regions: 0,
    };
    let mut avail = Vec::new();
    pass.block(&kernel.body, &mut avail);
    let reusable = (0..pass.sites.len()).map(|s| pass.trackable(s)).collect();
    (pass.found, reusable)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Avail {
    site: usize,
    stored: bool,
    /// The straight-line stretch of code (basic block) it was made in.
    region: u32,
}

struct Pass<'k, 'n> {
    sites: &'k mut Vec<Site>,
    /// Pointer parameters declared `__restrict__`.
    restrict: &'k HashSet<String>,
    names: &'n Names<'n>,
    found: Vec<Reuse>,
    /// Only following what stays available (a loop's first look at its body): nothing is marked.
    dry: bool,
    /// The basic block being walked: a branch or a loop starts a new one.
    region: u32,
    regions: u32,
}

#[derive(PartialEq, Eq)]
enum Alias {
    Same,
    Distinct,
    Maybe,
}

impl Pass<'_, '_> {
    fn block(&mut self, stmts: &[Stmt], avail: &mut Vec<Avail>) {
        for stmt in stmts {
            self.stmt(stmt, avail);
        }
    }

    fn stmt(&mut self, stmt: &Stmt, avail: &mut Vec<Avail>) {
        match stmt {
            Stmt::SetLocal { slot, value, .. } => {
                self.expr(value, avail);
                avail.retain(|a| !reads_local(&self.sites[a.site].indices, *slot));
            }
            Stmt::Store { site, value, .. } => {
                // A compound assignment's own read of the element is made (not followed here).
                self.expr(value, avail);
                self.store(*site, avail);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                self.expr(cond, avail);
                // A branch that only computes is a select after if-conversion: the code around
                // it stays one basic block.
                let select = computes_only(then) && computes_only(otherwise);
                let mut a = avail.clone();
                if !select {
                    self.new_region();
                }
                self.block(then, &mut a);
                let mut b = avail.clone();
                if !select {
                    self.new_region();
                }
                self.block(otherwise, &mut b);
                avail.retain(|x| a.contains(x) && b.contains(x));
                if !select {
                    self.new_region();
                }
            }
            Stmt::Loop {
                cond, body, step, ..
            } => {
                // Only what no turn of the loop can change reaches its body.
                let mut kept = avail.clone();
                let mut probe = kept.clone();
                let (dry, region, regions) = (self.dry, self.region, self.regions);
                self.dry = true;
                if let Some(c) = cond {
                    self.expr(c, &mut probe);
                }
                self.block(body, &mut probe);
                self.block(step, &mut probe);
                (self.dry, self.region, self.regions) = (dry, region, regions);
                kept.retain(|x| probe.contains(x));
                let mut inner = kept.clone();
                self.new_region();
                if let Some(c) = cond {
                    self.expr(c, &mut inner);
                }
                self.new_region();
                self.block(body, &mut inner);
                self.block(step, &mut inner);
                *avail = kept;
                self.new_region();
            }
            Stmt::Barrier(_) => avail.clear(),
            Stmt::Return => {}
            Stmt::Eval(e, _) => self.expr(e, avail),
        }
    }

    /// The loads of `e`: each reuses an earlier access if one is available; those every lane
    /// makes become available to later statements.
    fn expr(&mut self, e: &Expr, avail: &mut Vec<Avail>) {
        if fences(e) {
            avail.clear();
            return;
        }
        let mut all = Vec::new();
        collect(e, &mut all, true);
        for (load, always) in all {
            if self.sites[load].merged_into.is_some() {
                continue;
            }
            if !self.trackable(load) {
                continue;
            }
            if let Some(a) = avail
                .iter()
                .find(|a| self.alias(a.site, load) == Alias::Same)
                .copied()
            {
                if self.dry {
                    continue;
                }
                self.sites[load].merged_into = Some(a.site);
                self.found.push(Reuse {
                    site: load,
                    from: a.site,
                    stored: a.stored,
                });
            } else if let Some(a) = avail
                .iter()
                .find(|a| {
                    !self.dry && !a.stored && a.region == self.region && self.widens(a.site, load)
                })
                .copied()
            {
                // `p[i].x` then `p[i].y` of a `float2`, nothing written between, in one basic
                // block: nvcc's load-store vectorizer makes the first an `LDG.64` and the second
                // reads its register.
                let (lo, width) = self.widened(a.site, load);
                let text = format!("{}, {}", self.sites[a.site].text, self.sites[load].text);
                let first = &mut self.sites[a.site];
                first.value_offset += (first.field_offset - lo) as u32;
                first.field_offset = lo;
                first.access_bytes = width as u32;
                first.text = text;
                self.sites[load].merged_into = Some(a.site);
            } else if always {
                avail.push(Avail {
                    site: load,
                    stored: false,
                    region: self.region,
                });
            }
        }
    }

    fn store(&mut self, site: usize, avail: &mut Vec<Avail>) {
        avail.retain(|a| self.alias(site, a.site) == Alias::Distinct);
        if self.trackable(site) {
            avail.push(Avail {
                site,
                stored: true,
                region: self.region,
            });
        }
    }

    fn new_region(&mut self) {
        self.regions += 1;
        self.region = self.regions;
    }

    /// Whether `b` reads another field of the vector element `a` reads, so that one access of
    /// the two together is aligned (`.x` then `.y` of a `float2`, `.x .y` then `.z .w` of a
    /// `float4`, in either order).
    fn widens(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.sites[a], &self.sites[b]);
        let align = self.names.align.get(a).copied().unwrap_or(0);
        if align == 0
            || self.names.align.get(b).copied().unwrap_or(0) != align
            || x.space != y.space
            || x.array != y.array
            || x.elem_bytes != y.elem_bytes
            || x.strides != y.strides
            || x.indices != y.indices
            || x.field_offset == y.field_offset
            || x.merged_into.is_some()
        {
            return false;
        }
        let (_, width) = self.widened(a, b);
        width <= align && width <= 16
    }

    /// The lowest offset and the width of one aligned access covering both.
    fn widened(&self, a: usize, b: usize) -> (i64, i64) {
        let (x, y) = (&self.sites[a], &self.sites[b]);
        let lo = x.field_offset.min(y.field_offset);
        let hi = (x.field_offset + i64::from(x.access_bytes))
            .max(y.field_offset + i64::from(y.access_bytes));
        let width = [2i64, 4, 8, 16]
            .into_iter()
            .find(|&w| w >= hi - lo && lo % w == 0)
            .unwrap_or(i64::MAX);
        (lo, width)
    }

    /// Whether an access's element can be followed: its indices read no memory and call nothing,
    /// and it is not `volatile`.
    fn trackable(&self, site: usize) -> bool {
        let s = &self.sites[site];
        !self.names.volatile.contains(&s.array)
            && !self
                .names
                .volatile
                .contains(&super::parse::written_base(&s.text))
            && s.indices.iter().all(plain)
    }

    /// Whether the bytes `b` reads may be ones `a` touches (`Same`: all of them are).
    fn alias(&self, a: usize, b: usize) -> Alias {
        let (x, y) = (&self.sites[a], &self.sites[b]);
        if x.space != y.space {
            return Alias::Distinct;
        }
        if x.array != y.array {
            return match x.space {
                Space::Shared => Alias::Distinct,
                Space::Global
                    if self.restrict.contains(&x.array) || self.restrict.contains(&y.array) =>
                {
                    Alias::Distinct
                }
                Space::Global => Alias::Maybe,
            };
        }
        if x.elem_bytes != y.elem_bytes
            || x.strides != y.strides
            || x.indices.len() != y.indices.len()
        {
            return Alias::Maybe;
        }
        // Byte distance from `x`'s access to `y`'s, when the indices differ by constants only.
        let mut distance = y.field_offset - x.field_offset;
        for ((i, j), stride) in x.indices.iter().zip(&y.indices).zip(&x.strides) {
            let (bi, ci) = super::merge::split_const(i);
            let (bj, cj) = super::merge::split_const(j);
            if bi != bj {
                return Alias::Maybe;
            }
            distance += (cj - ci) * stride * x.elem_bytes;
        }
        if distance >= 0 && distance + i64::from(y.access_bytes) <= i64::from(x.access_bytes) {
            // `b`'s bytes are inside `a`'s (the same element, or a field of the vector `a` moves).
            Alias::Same
        } else if distance >= i64::from(x.access_bytes) || -distance >= i64::from(y.access_bytes) {
            Alias::Distinct
        } else {
            Alias::Maybe
        }
    }
}

/// Whether `stmts` only assign locals from values that read no memory (nested such branches too).
fn computes_only(stmts: &[Stmt]) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::SetLocal { value, .. } => plain_value(value),
        Stmt::If {
            cond,
            then,
            otherwise,
            ..
        } => plain_value(cond) && computes_only(then) && computes_only(otherwise),
        _ => false,
    })
}

/// A value of locals, constants, built-ins and calls of math functions: no memory read, no atomic
/// or fence.
fn plain_value(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Float(_) | Expr::Local(_) | Expr::Builtin(_) => true,
        Expr::Unary(_, a) | Expr::Cast(_, a) => plain_value(a),
        Expr::Binary(_, a, b) => plain_value(a) && plain_value(b),
        Expr::Cond(c, a, b) => plain_value(c) && plain_value(a) && plain_value(b),
        Expr::Call(Func::Atomic | Func::Fence, _) | Expr::Load(_) => false,
        Expr::Call(_, args) => args.iter().all(plain_value),
    }
}

/// An index of locals, constants and built-ins only.
fn plain(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Float(_) | Expr::Local(_) | Expr::Builtin(_) => true,
        Expr::Unary(_, a) | Expr::Cast(_, a) => plain(a),
        Expr::Binary(_, a, b) => plain(a) && plain(b),
        Expr::Cond(c, a, b) => plain(c) && plain(a) && plain(b),
        Expr::Load(_) | Expr::Call(..) => false,
    }
}

fn reads_local(indices: &[Expr], slot: usize) -> bool {
    fn walk(e: &Expr, slot: usize) -> bool {
        match e {
            Expr::Local(s) => *s == slot,
            Expr::Unary(_, a) | Expr::Cast(_, a) => walk(a, slot),
            Expr::Binary(_, a, b) => walk(a, slot) || walk(b, slot),
            Expr::Cond(c, a, b) => walk(c, slot) || walk(a, slot) || walk(b, slot),
            Expr::Call(_, args) => args.iter().any(|a| walk(a, slot)),
            _ => false,
        }
    }
    indices.iter().any(|e| walk(e, slot))
}

/// Whether `e` calls an atomic or a fence (after which memory is read again).
fn fences(e: &Expr) -> bool {
    match e {
        Expr::Call(Func::Atomic | Func::Fence, _) => true,
        Expr::Call(_, args) => args.iter().any(fences),
        Expr::Unary(_, a) | Expr::Cast(_, a) => fences(a),
        Expr::Binary(_, a, b) => fences(a) || fences(b),
        Expr::Cond(c, a, b) => fences(c) || fences(a) || fences(b),
        _ => false,
    }
}

/// The loads of `e` in the order they run, each with whether every lane that evaluates `e` makes
/// it (not those in one arm of `?:`, nor the right of `&&` and `||`).
fn collect(e: &Expr, out: &mut Vec<(usize, bool)>, always: bool) {
    match e {
        Expr::Load(s) => out.push((*s, always)),
        Expr::Unary(_, a) | Expr::Cast(_, a) => collect(a, out, always),
        Expr::Binary(BinOp::LAnd | BinOp::LOr, a, b) => {
            collect(a, out, always);
            collect(b, out, false);
        }
        Expr::Binary(_, a, b) => {
            collect(a, out, always);
            collect(b, out, always);
        }
        Expr::Cond(c, a, b) => {
            collect(c, out, always);
            collect(a, out, false);
            collect(b, out, false);
        }
        Expr::Call(_, args) => args.iter().for_each(|a| collect(a, out, always)),
        _ => {}
    }
}
