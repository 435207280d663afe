//! How `nvcc -O3 -arch=sm_90` compiles each atomic, and how the H200 counts what it makes. Nsight
//! Compute keeps atomics apart from loads and stores: global ones in `…_global_op_atom` (the old
//! value is used: `ATOMG`, and `atomicExch`/`atomicCAS` always) and `…_global_op_red` (it is not:
//! `REDG`), shared ones in `…_shared_op_atom` (`ATOMS`). Measured on the H200 (Nsight Compute
//! 2025, CUDA 12), one warp-level atomic at a time:
//!
//! - **One request per warp instruction**, as for loads and stores.
//! - **Lanes on one address are served one after another**: the lanes are taken in rounds, each
//!   round one lane of every address the warp names, and the sectors (global) or wavefronts
//!   (shared) of the rounds add up. 32 lanes adding to one `float` cost 32 sectors; pairs of lanes
//!   on 16 neighbouring floats, 2 rounds of 2 sectors.
//! - **nvcc combines a warp's lanes** when the address is the same for every thread whatever the
//!   data (nothing in it depends on `threadIdx`, a shuffle or an atomic), the element an integer,
//!   and the operation add, sub, min, max, and, or or xor: one lane then does the atomic for the
//!   warp (`VOTEU.ANY` + `POPC` or `REDUX`), one sector or one wavefront. Not for floats, `atomicExch`,
//!   `atomicCAS`, `atomicInc`/`atomicDec`, nor an address that is the same only at run time
//!   (`&a[threadIdx.y]` with 32-wide blocks, `&a[i / 32]`).
//! - **Shared `atomicAdd(&s[i], 1)` on an integer whose old value is unused** becomes
//!   `ATOMS.POPC.INC`: lanes on one address are one access; the wavefronts are the banks' ways.
//! - **Shared `atomicAdd` on a `float` or `double`** has no instruction of its own on sm_90: nvcc
//!   writes a load and a compare-and-swap loop (`LDS`, `ATOMS.CAST.SPIN`). With every lane on its
//!   own address it runs once: the load's wavefronts (counted with the shared loads, as Nsight
//!   counts them) and twice the store's wavefronts for the swap. Lanes sharing an address retry a
//!   number of times that depends on timing: not counted.

use super::ast::{AtomicKind, AtomicTarget, Expr, Func, Kernel, Stmt, Wrap};

/// What nvcc makes of one atomic call of the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// Its old value is used.
    pub returns: bool,
    /// Its address is the same for every thread of a warp whatever the data.
    pub uniform: bool,
    /// It adds the constant 1.
    pub adds_one: bool,
}

/// How the hardware serves one atomic, by the rules above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// One lane does it for the warp.
    Combined,
    /// Lanes on one address count once (`ATOMS.POPC.INC`).
    Increment,
    /// A load, then a compare-and-swap loop (`float`/`double` add on shared memory).
    SwapLoop,
    /// Lanes on one address one after another.
    Rounds,
}

impl Shape {
    /// `ATOM` (the old value comes back) rather than `RED`.
    pub fn is_atom(&self, kind: AtomicKind) -> bool {
        self.returns || matches!(kind, AtomicKind::Exch | AtomicKind::Cas)
    }

    /// How `target` with this shape is served.
    pub fn form(&self, target: &AtomicTarget) -> Form {
        use AtomicKind::*;
        let integer = !matches!(target.site.value, Wrap::Float);
        let shared = target.site.space == super::ast::Space::Shared;
        if self.uniform && integer && matches!(target.kind, Add | Sub | Min | Max | And | Or | Xor)
        {
            Form::Combined
        } else if shared && !integer && target.kind == Add {
            Form::SwapLoop
        } else if shared && integer && target.kind == Add && self.adds_one && !self.returns {
            Form::Increment
        } else {
            Form::Rounds
        }
    }
}

/// The shape of every atomic of `kernel`, by the number its call carries.
pub fn shapes(kernel: &Kernel) -> Vec<Shape> {
    let varying = varying_locals(kernel);
    let mut out = vec![
        Shape {
            returns: true,
            ..Shape::default()
        };
        kernel.atomic_targets.len()
    ];
    fn walk_stmts(stmts: &[Stmt], k: &Kernel, varying: &[bool], out: &mut [Shape]) {
        for s in stmts {
            match s {
                Stmt::SetLocal { value, .. } | Stmt::Store { value, .. } => {
                    walk_expr(value, k, varying, out);
                }
                Stmt::Eval(e, _) => {
                    walk_expr(e, k, varying, out);
                    let mut bare = e;
                    while let Expr::Cast(_, inner) = bare {
                        bare = inner;
                    }
                    if let Expr::Call(Func::Atomic, args) = bare
                        && let Some(Expr::Int(n)) = args.first()
                        && let Some(shape) = out.get_mut(*n as usize)
                    {
                        shape.returns = false;
                    }
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => {
                    walk_expr(cond, k, varying, out);
                    walk_stmts(then, k, varying, out);
                    walk_stmts(otherwise, k, varying, out);
                }
                Stmt::Loop {
                    cond, body, step, ..
                } => {
                    if let Some(c) = cond {
                        walk_expr(c, k, varying, out);
                    }
                    walk_stmts(body, k, varying, out);
                    walk_stmts(step, k, varying, out);
                }
                Stmt::Return | Stmt::Barrier(_) => {}
            }
        }
    }
    fn walk_expr(e: &Expr, k: &Kernel, varying: &[bool], out: &mut [Shape]) {
        match e {
            Expr::Call(f, args) => {
                if *f == Func::Atomic
                    && let Some(Expr::Int(n)) = args.first()
                    && let Some(Some(target)) = k.atomic_targets.get(*n as usize)
                    && let Some(shape) = out.get_mut(*n as usize)
                {
                    let indices = args.get(1..1 + target.indices).unwrap_or(&[]);
                    shape.uniform = indices.iter().all(|i| !varies(i, k, varying));
                    let mut value = args.get(1 + target.indices);
                    while let Some(Expr::Cast(_, inner)) = value {
                        value = Some(inner);
                    }
                    shape.adds_one = matches!(value, Some(Expr::Int(1)));
                }
                for a in args {
                    walk_expr(a, k, varying, out);
                }
            }
            Expr::Unary(_, a) | Expr::Cast(_, a) => walk_expr(a, k, varying, out),
            Expr::Binary(_, a, b) => {
                walk_expr(a, k, varying, out);
                walk_expr(b, k, varying, out);
            }
            Expr::Cond(c, a, b) => {
                walk_expr(c, k, varying, out);
                walk_expr(a, k, varying, out);
                walk_expr(b, k, varying, out);
            }
            Expr::Int(_) | Expr::Float(_) | Expr::Local(_) | Expr::Builtin(_) | Expr::Load(_) => {}
        }
    }
    walk_stmts(&kernel.body, kernel, &varying, &mut out);
    out
}

/// Whether `e` can differ between the threads of a warp: it reads `threadIdx`, a local that does,
/// a shuffle, an atomic's old value, or an element at such an index.
fn varies(e: &Expr, k: &Kernel, varying: &[bool]) -> bool {
    match e {
        Expr::Int(_) | Expr::Float(_) => false,
        Expr::Builtin(b) => *b < 3,
        Expr::Local(slot) => varying.get(*slot).copied().unwrap_or(true),
        Expr::Unary(_, a) | Expr::Cast(_, a) => varies(a, k, varying),
        Expr::Binary(_, a, b) => varies(a, k, varying) || varies(b, k, varying),
        Expr::Cond(c, a, b) => {
            varies(c, k, varying) || varies(a, k, varying) || varies(b, k, varying)
        }
        Expr::Load(site) => k
            .sites
            .get(*site)
            .is_none_or(|s| s.indices.iter().any(|i| varies(i, k, varying))),
        Expr::Call(Func::Atomic | Func::Opaque, _) => true,
        Expr::Call(Func::Shfl | Func::ShflDown | Func::ShflUp | Func::ShflXor, _) => true,
        Expr::Call(_, args) => args.iter().any(|a| varies(a, k, varying)),
    }
}

/// The locals that can differ between the threads of a warp: assigned a value that does, or
/// assigned under a condition (or in a loop whose test) that does.
fn varying_locals(kernel: &Kernel) -> Vec<bool> {
    let mut varying = vec![false; kernel.locals];
    fn mark(stmts: &[Stmt], under: bool, k: &Kernel, v: &mut Vec<bool>, changed: &mut bool) {
        for s in stmts {
            match s {
                Stmt::SetLocal { slot, value, .. } => {
                    if !v.get(*slot).copied().unwrap_or(true) && (under || varies(value, k, v)) {
                        v[*slot] = true;
                        *changed = true;
                    }
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => {
                    let inner = under || varies(cond, k, v);
                    mark(then, inner, k, v, changed);
                    mark(otherwise, inner, k, v, changed);
                }
                Stmt::Loop {
                    cond, body, step, ..
                } => {
                    let inner = under || cond.as_ref().is_some_and(|c| varies(c, k, v));
                    mark(body, inner, k, v, changed);
                    mark(step, inner, k, v, changed);
                }
                Stmt::Store { .. } | Stmt::Eval(..) | Stmt::Return | Stmt::Barrier(_) => {}
            }
        }
    }
    loop {
        let mut changed = false;
        mark(&kernel.body, false, kernel, &mut varying, &mut changed);
        if !changed {
            return varying;
        }
    }
}

/// The lanes of `mask` in rounds: round r holds the r-th lane (in lane order) of every address.
pub fn rounds(addrs: &[i64; 32], mask: u32) -> Vec<u32> {
    let mut rounds: Vec<u32> = Vec::new();
    let mut seen: Vec<(i64, usize)> = Vec::with_capacity(32);
    for (l, &a) in addrs.iter().enumerate() {
        if mask & (1 << l) == 0 {
            continue;
        }
        let r = match seen.iter_mut().find(|(x, _)| *x == a) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                seen.push((a, 1));
                0
            }
        };
        if rounds.len() <= r {
            rounds.push(0);
        }
        rounds[r] |= 1 << l;
    }
    rounds
}
