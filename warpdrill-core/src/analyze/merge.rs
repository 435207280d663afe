//! Where the compiler may merge one thread's neighbouring accesses into one wider access: `a[i]` and
//! `a[i + 1]` (… `a[i + 3]`) read in one statement or stored by neighbouring statements, and `a[…][k]`
//! in a loop that steps `k` by one (unrolled, then `LDS.128`). Only the places are found here; whether
//! the addresses really are contiguous and aligned is checked on every execution (see `run`).

use super::ast::{BinOp, Expr, Kernel, Space, Stmt};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

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
pub(super) fn split_const(e: &Expr) -> (Option<&Expr>, i64) {
    match e {
        Expr::Int(c) => (None, *c),
        Expr::Binary(BinOp::Add, a, b) => match (a.as_ref(), b.as_ref()) {
            (x, Expr::Int(c)) | (Expr::Int(c), x) => (Some(strip_casts(x)), *c),
            _ => (Some(e), 0),
        },
        Expr::Binary(BinOp::Sub, a, b) => match b.as_ref() {
            Expr::Int(c) => (Some(strip_casts(a)), c.wrapping_neg()),
            _ => (Some(e), 0),
        },
        Expr::Cast(_, inner) => split_const(inner),
        _ => (Some(e), 0),
    }
}

/// `e` without the conversions C's arithmetic puts around it.
fn strip_casts(mut e: &Expr) -> &Expr {
    while let Expr::Cast(w, inner) = e {
        if *w == super::ast::Wrap::Float {
            break;
        }
        e = inner;
    }
    e
}

/// Feeds `e` to `h` so that equal expressions hash alike (`0.0` and `-0.0` included).
fn hash_expr(e: &Expr, h: &mut DefaultHasher) {
    std::mem::discriminant(e).hash(h);
    match e {
        Expr::Int(c) => c.hash(h),
        Expr::Float(f) => (if *f == 0.0 { 0 } else { f.to_bits() }).hash(h),
        Expr::Local(s) | Expr::Load(s) => s.hash(h),
        Expr::Builtin(b) => b.hash(h),
        Expr::Unary(op, a) => {
            std::mem::discriminant(op).hash(h);
            hash_expr(a, h);
        }
        Expr::Binary(op, a, b) => {
            std::mem::discriminant(op).hash(h);
            hash_expr(a, h);
            hash_expr(b, h);
        }
        Expr::Cond(c, a, b) => {
            hash_expr(c, h);
            hash_expr(a, h);
            hash_expr(b, h);
        }
        Expr::Cast(w, a) => {
            std::mem::discriminant(w).hash(h);
            hash_expr(a, h);
        }
        Expr::Call(_, args) => {
            args.len().hash(h);
            for a in args {
                hash_expr(a, h);
            }
        }
    }
}

fn mentions(e: &Expr, slot: usize) -> bool {
    match e {
        Expr::Local(s) => *s == slot,
        Expr::Unary(_, a) | Expr::Cast(_, a) => mentions(a, slot),
        Expr::Binary(_, a, b) => mentions(a, slot) || mentions(b, slot),
        Expr::Cond(c, a, b) => mentions(c, slot) || mentions(a, slot) || mentions(b, slot),
        Expr::Call(_, args) => args.iter().any(|a| mentions(a, slot)),
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

/// The load sites in `e`, in order.
pub fn loads_in_expr(e: &Expr, out: &mut Vec<usize>) {
    loads_in(e, out);
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
        Expr::Call(_, args) => {
            for a in args {
                loads_in(a, out);
            }
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

    /// Whether `site` may be merged at all: it matches itself (a float constant that is NaN never
    /// does) and moves whole elements of a row-major array.
    fn mergeable(&self, site: usize) -> bool {
        self.roles[site].is_none()
            && !self.both[site]
            && self.kernel.sites[site].merged_into.is_none()
            && self.key_matches(site, site)
    }

    /// A hash of what [`Finder::key_matches`] compares: sites that match hash alike.
    fn key_hash(&self, site: usize) -> u64 {
        let x = &self.kernel.sites[site];
        let n = x.indices.len();
        let mut h = DefaultHasher::new();
        x.array.hash(&mut h);
        (x.space == Space::Shared).hash(&mut h);
        x.access_bytes.hash(&mut h);
        x.strides.hash(&mut h);
        for e in &x.indices[..n - 1] {
            hash_expr(e, &mut h);
        }
        match split_const(&x.indices[n - 1]).0 {
            Some(e) => hash_expr(e, &mut h),
            None => 0u8.hash(&mut h),
        }
        h.finish()
    }

    /// Groups among `sites` (accesses of one kind in one statement or neighbouring statements).
    ///
    /// Sites that match each other form a class; a class of `m` members merges its last four (when
    /// those are one aligned 16-byte access) or else its last two, as scanning every site against
    /// every later one would. Classes are found by hashing, so this takes time linear in the sites
    /// (40 000 stores in a row are grouped at once, not in 800 million comparisons).
    fn group(&mut self, sites: &[usize]) {
        // Per key hash, the classes of positions in `sites` whose sites really match.
        let mut buckets: HashMap<u64, Vec<Vec<usize>>> = HashMap::new();
        let mut classes: Vec<(u64, usize)> = Vec::new();
        for (p, &s) in sites.iter().enumerate() {
            if !self.mergeable(s) {
                continue;
            }
            let hash = self.key_hash(s);
            let bucket = buckets.entry(hash).or_default();
            match bucket.iter_mut().find(|c| self.key_matches(sites[c[0]], s)) {
                Some(class) => class.push(p),
                None => {
                    classes.push((hash, bucket.len()));
                    bucket.push(vec![p]);
                }
            }
        }
        // The groups found, by the position of the member the scan would have started from.
        let mut found: Vec<(usize, Vec<(i64, usize)>)> = Vec::new();
        for (hash, k) in classes {
            let class = &buckets[&hash][k];
            let bytes = self.kernel.sites[sites[class[0]]].access_bytes as usize;
            for size in [4, 2] {
                if class.len() < size {
                    continue;
                }
                let tail = &class[class.len() - size..];
                let mut members: Vec<(i64, usize)> = tail
                    .iter()
                    .map(|&p| {
                        let site = &self.kernel.sites[sites[p]];
                        (split_const(&site.indices[site.indices.len() - 1]).1, p)
                    })
                    .collect();
                members.sort_by_key(|m| m.0);
                let contiguous = members.windows(2).all(|w| w[1].0 == w[0].0 + 1);
                if contiguous && matches!(size * bytes, 8 | 16) {
                    found.push((tail[0], members));
                    break;
                }
            }
        }
        found.sort_by_key(|f| f.0);
        for (_, members) in found {
            let size = members.len();
            for (pos, (_, p)) in members.iter().enumerate() {
                self.roles[sites[*p]] = Some(Role::Group {
                    group: self.groups,
                    pos,
                    size,
                });
            }
            self.groups += 1;
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
                    ..
                } => {
                    let mut loads = Vec::new();
                    loads_in(value, &mut loads);
                    self.group(&loads);
                    self.runs(&loads, loop_slots);
                    stores.push(*site);
                    continue;
                }
                Stmt::Store { value, .. } | Stmt::SetLocal { value, .. } | Stmt::Eval(value, _) => {
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
                Stmt::Return | Stmt::Barrier(_) => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{Options, prepare};

    fn groups_of(body: &str) -> Vec<Option<Role>> {
        let source = format!(
            "// launch: --grid 1 --block 32\n__global__ void k(float* a, float* b) {{\n{body}}}\n"
        );
        let (kernel, _) = prepare(&source, "k.cu", &Options::default()).unwrap();
        roles(&kernel)
    }

    fn group(group: usize, pos: usize, size: usize) -> Option<Role> {
        Some(Role::Group { group, pos, size })
    }

    #[test]
    fn neighbouring_stores_merge_in_fours_and_twos() {
        let four =
            "  int i = threadIdx.x * 4;\n  a[i] = 0; a[i + 1] = 0; a[i + 3] = 0; a[i + 2] = 0;\n";
        assert_eq!(
            groups_of(four),
            vec![
                group(0, 0, 4),
                group(0, 1, 4),
                group(0, 3, 4),
                group(0, 2, 4)
            ]
        );
        // Three alike: the last two merge, as the scan from each site in turn finds them.
        let three = "  int i = threadIdx.x * 4;\n  a[i] = 0; a[i + 1] = 0; a[i + 2] = 0;\n";
        assert_eq!(groups_of(three), vec![None, group(0, 0, 2), group(0, 1, 2)]);
        // Two arrays' stores interleaved: one group each, numbered by where they start.
        let two = "  int i = threadIdx.x * 2;\n  b[i] = 0; a[i] = 0; b[i + 1] = 0; a[i + 1] = 0;\n";
        assert_eq!(
            groups_of(two),
            vec![
                group(0, 0, 2),
                group(1, 0, 2),
                group(0, 1, 2),
                group(1, 1, 2)
            ]
        );
        // One base, offsets 8, 0, 9, 1: neither the last four nor the last two are contiguous.
        let apart =
            "  int i = threadIdx.x * 2;\n  a[i + 8] = 0; a[i] = 0; a[i + 9] = 0; a[i + 1] = 0;\n";
        assert_eq!(groups_of(apart), vec![None, None, None, None]);
        // Not contiguous, or a different base: nothing.
        let gap = "  int i = threadIdx.x * 4;\n  a[i] = 0; a[i + 2] = 0; a[2 * i + 1] = 0;\n";
        assert_eq!(groups_of(gap), vec![None, None, None]);
    }

    #[test]
    fn forty_thousand_stores_in_a_row_are_grouped_at_once() {
        // Every store matches every other: the scan compared 800 million pairs; classes by hash
        // find the one group (the last four) in one pass.
        let body: String = (0..40_000).map(|k| format!("  a[{k}] = 1.0f;\n")).collect();
        let roles = groups_of(&body);
        assert_eq!(roles.len(), 40_000);
        assert!(roles[..39_996].iter().all(Option::is_none));
        assert_eq!(
            roles[39_996..],
            [
                group(0, 0, 4),
                group(0, 1, 4),
                group(0, 2, 4),
                group(0, 3, 4)
            ]
        );
    }
}
