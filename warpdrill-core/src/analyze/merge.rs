//! Where the compiler may merge one thread's neighbouring accesses into one wider access: `a[i]` and
//! `a[i + 1]` (… `a[i + 3]`) read in one statement or stored by neighbouring statements, and `a[…][k]`
//! in a loop that steps `k` by one (unrolled, then `LDS.128`). Only the places are found here; whether
//! the addresses really are contiguous and aligned is checked on every execution (see `run`).

use super::ast::{BinOp, Expr, Kernel, Space, Stmt};

/// How a site may be merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Member `pos` (element offset from the first) of a group of `size` sites read or written together.
    Group {
        /// The group's number.
        group: usize,
        /// Elements after the group's first.
        pos: usize,
        /// Sites in the group: 2 or 4.
        size: usize,
    },
    /// A shared-memory access whose last index steps by one element per loop iteration.
    Run,
}

/// The last index split into a base and a constant: `e + 3` is `(Some(e), 3)`, `5` is `(None, 5)`.
fn split_const(e: &Expr) -> (Option<&Expr>, i64) {
    match e {
        Expr::Int(c) => (None, *c),
        Expr::Binary(BinOp::Add, a, b) => match (a.as_ref(), b.as_ref()) {
            (x, Expr::Int(c)) | (Expr::Int(c), x) => (Some(x), *c),
            _ => (Some(e), 0),
        },
        Expr::Binary(BinOp::Sub, a, b) => match b.as_ref() {
            Expr::Int(c) => (Some(a.as_ref()), c.wrapping_neg()),
            _ => (Some(e), 0),
        },
        Expr::Cast(_, inner) => split_const(inner),
        _ => (Some(e), 0),
    }
}

fn mentions(e: &Expr, slot: usize) -> bool {
    match e {
        Expr::Local(s) => *s == slot,
        Expr::Unary(_, a) | Expr::Cast(_, a) => mentions(a, slot),
        Expr::Binary(_, a, b) => mentions(a, slot) || mentions(b, slot),
        Expr::Cond(c, a, b) => mentions(c, slot) || mentions(a, slot) || mentions(b, slot),
        _ => false,
    }
}

/// Whether `e` is `k`, `x + k` or `k + x` with `x` free of `k`.
fn steps_with(e: &Expr, slot: usize) -> bool {
    match e {
        Expr::Local(s) => *s == slot,
        Expr::Cast(_, inner) => steps_with(inner, slot),
        Expr::Binary(BinOp::Add, a, b) => {
            (steps_with(a, slot) && !mentions(b, slot))
                || (steps_with(b, slot) && !mentions(a, slot))
        }
        _ => false,
    }
}

fn loads_in(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Load(site) => out.push(*site),
        Expr::Unary(_, a) | Expr::Cast(_, a) => loads_in(a, out),
        Expr::Binary(_, a, b) => {
            loads_in(a, out);
            loads_in(b, out);
        }
        Expr::Cond(c, a, b) => {
            loads_in(c, out);
            loads_in(a, out);
            loads_in(b, out);
        }
        _ => {}
    }
}

struct Finder<'k> {
    kernel: &'k Kernel,
    roles: Vec<Option<Role>>,
    /// Sites loaded and stored by one `+=` (never merged).
    both: Vec<bool>,
    groups: usize,
}

impl Finder<'_> {
    /// Whether sites `a` and `b` read the same array the same way except for the last index.
    fn key_matches(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.kernel.sites[a], &self.kernel.sites[b]);
        let n = x.indices.len();
        n > 0
            && x.array == y.array
            && x.space == y.space
            && x.access_bytes == y.access_bytes
            && i64::from(x.access_bytes) == x.elem_bytes
            && x.field_offset == 0
            && x.strides == y.strides
            && x.strides.last() == Some(&1)
            && y.indices.len() == n
            && x.indices[..n - 1] == y.indices[..n - 1]
            && split_const(&x.indices[n - 1]).0 == split_const(&y.indices[n - 1]).0
    }

    /// Groups among `sites` (accesses of one kind in one statement or neighbouring statements).
    fn group(&mut self, sites: &[usize]) {
        let mut used = vec![false; sites.len()];
        for i in 0..sites.len() {
            if used[i] || self.roles[sites[i]].is_some() || self.both[sites[i]] {
                continue;
            }
            let mut members: Vec<(i64, usize)> = Vec::new();
            for j in i..sites.len() {
                if !used[j]
                    && self.roles[sites[j]].is_none()
                    && !self.both[sites[j]]
                    && self.key_matches(sites[i], sites[j])
                {
                    let site = &self.kernel.sites[sites[j]];
                    let offset = split_const(&site.indices[site.indices.len() - 1]).1;
                    members.push((offset, j));
                }
            }
            members.sort_by_key(|m| m.0);
            let size = members.len();
            let bytes = self.kernel.sites[sites[i]].access_bytes as usize;
            let contiguous = members.windows(2).all(|w| w[1].0 == w[0].0 + 1);
            if (size == 2 || size == 4) && contiguous && matches!(size * bytes, 8 | 16) {
                for (pos, (_, j)) in members.iter().enumerate() {
                    used[*j] = true;
                    self.roles[sites[*j]] = Some(Role::Group {
                        group: self.groups,
                        pos,
                        size,
                    });
                }
                self.groups += 1;
            }
        }
    }

    fn walk(&mut self, stmts: &[Stmt], loop_slots: &[usize]) {
        let mut stores: Vec<usize> = Vec::new();
        for stmt in stmts {
            match stmt {
                Stmt::Store {
                    site,
                    op: None,
                    value,
                } => {
                    let mut loads = Vec::new();
                    loads_in(value, &mut loads);
                    self.group(&loads);
                    self.runs(&loads, loop_slots);
                    stores.push(*site);
                    continue;
                }
                Stmt::Store { value, .. } | Stmt::SetLocal { value, .. } | Stmt::Eval(value) => {
                    let mut loads = Vec::new();
                    loads_in(value, &mut loads);
                    self.group(&loads);
                    self.runs(&loads, loop_slots);
                }
                Stmt::If {
                    then, otherwise, ..
                } => {
                    self.walk(then, loop_slots);
                    self.walk(otherwise, loop_slots);
                }
                Stmt::Loop { body, step, .. } => {
                    let slots: Vec<usize> = step
                        .iter()
                        .filter_map(|s| match s {
                            Stmt::SetLocal {
                                slot,
                                op: Some(BinOp::Add),
                                value: Expr::Int(1),
                                ..
                            } => Some(*slot),
                            _ => None,
                        })
                        .collect();
                    self.walk(body, &slots);
                }
                Stmt::Return => {}
            }
            // Neighbouring stores end at any other statement.
            self.group(&stores);
            self.runs(&stores, loop_slots);
            stores.clear();
        }
        self.group(&stores);
        self.runs(&stores, loop_slots);
    }

    fn runs(&mut self, sites: &[usize], loop_slots: &[usize]) {
        for &s in sites {
            let site = &self.kernel.sites[s];
            if self.roles[s].is_some()
                || self.both[s]
                || site.space != Space::Shared
                || i64::from(site.access_bytes) != site.elem_bytes
                || site.field_offset != 0
                || site.strides.last() != Some(&1)
                || site.access_bytes > 8
            {
                continue;
            }
            let Some(last) = site.indices.last() else {
                continue;
            };
            let (base, _) = split_const(last);
            if loop_slots.iter().any(|&slot| {
                base.is_some_and(|b| steps_with(b, slot))
                    && site.indices[..site.indices.len() - 1]
                        .iter()
                        .all(|e| !mentions(e, slot))
            }) {
                self.roles[s] = Some(Role::Run);
            }
        }
    }
}

/// Each site's role in a possible merge, `None` for most.
pub fn roles(kernel: &Kernel) -> Vec<Option<Role>> {
    let mut both = vec![false; kernel.sites.len()];
    fn mark(stmts: &[Stmt], both: &mut [bool]) {
        for s in stmts {
            match s {
                Stmt::Store {
                    site, op: Some(_), ..
                } => both[*site] = true,
                Stmt::If {
                    then, otherwise, ..
                } => {
                    mark(then, both);
                    mark(otherwise, both);
                }
                Stmt::Loop { body, step, .. } => {
                    mark(body, both);
                    mark(step, both);
                }
                _ => {}
            }
        }
    }
    mark(&kernel.body, &mut both);
    let mut finder = Finder {
        kernel,
        roles: vec![None; kernel.sites.len()],
        both,
        groups: 0,
    };
    finder.walk(&kernel.body, &[]);
    finder.roles
}
