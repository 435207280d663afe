//! Reading a kernel with tree-sitter's CUDA grammar into the interpreter's statements.

use super::ast::{
    AtomicKind, AtomicTarget, BinOp, Expr, Func, Kernel, Pos, Site, Space, Stmt, UnOp, Wrap,
};
use super::error::{AnalyzeError, Result};
use std::collections::HashMap;
use tree_sitter::{Node, Parser};

/// Deepest nesting of statements and expressions read (keeps every later walk's stack small).
const MAX_DEPTH: u32 = 200;

/// A type an array element can have: a scalar, a vector type or a struct.
#[derive(Debug, Clone)]
struct ElemTy {
    size: i64,
    align: i64,
    /// `(name, offset, size, type)` of each field (vector components or struct members).
    fields: Vec<(String, i64, i64, Wrap)>,
    /// The C type of a value read from it (a vector's component type; `int` for a struct).
    wrap: Wrap,
    /// Whether the whole element is one scalar or vector (loadable in one access).
    whole: bool,
}

#[derive(Debug, Clone)]
enum Binding {
    Local(usize, Wrap),
    /// A local array (`float v[4]`): one slot for all its elements, its value not followed.
    LocalArray(usize, Wrap),
    Pointer(ElemTy),
    Shared(ElemTy, Vec<i64>),
    Value(Expr, Wrap),
    /// A cooperative group: the thread block, a tile of it (`thread_block_tile<N>`) or the grid.
    Group(Group),
    /// A local pointer into an array (`float* p = A + off;`, `&tile[r][0]`): the array's name, the
    /// local holding how many of the array's elements past its start it points, and the element
    /// type it reads when that is wider than the array's (`reinterpret_cast<float4*>`).
    Alias(String, usize, Option<ElemTy>),
    /// A local of a vector type (`float4 t`): one slot, its value not followed; its fields are
    /// values of the component type.
    LocalVector(usize, ElemTy),
    /// A template parameter that names a `__device__` function (`blockReduce<warpReduceSum>`).
    Function(String),
    /// A reference parameter bound to an array element (`uint& keyA` given `s_key[pos]`): the
    /// array and the element's place (as the caller computed it); reading it loads the element,
    /// assigning stores it.
    Ref(String, Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Block,
    Tile(i64),
    Grid,
}

/// Bytes of dynamic shared memory an `extern __shared__` array is checked against.
const DYNAMIC_SMEM: i64 = 227 * 1024;

/// The largest unrolled size (statements and operations as the analyser lowers them, all turns)
/// of a loop nvcc unrolls fully without `#pragma unroll`. The H200's code shows llm.c's
/// `matmul_forward_kernel4`'s loops unrolled up to 2 232 (8 × 8 × 4 multiply-adds), and a 4 × 3
/// stencil; none is known kept below this.
const UNROLL_COST: u64 = 4096;

/// Most turns a loop's trip count is followed for when deciding whether nvcc unrolls it.
const MAX_TRIPS: u64 = 1024;

/// The turns of `for (slot = start; cond; step)`, when the condition and the steps move only the
/// loop's variable by constants; `None` when that is not so or past [`MAX_TRIPS`].
fn trip_count(slot: usize, start: i64, cond: &Expr, step: &[Stmt]) -> Option<u64> {
    fn subst(e: &Expr, slot: usize, v: i64) -> Expr {
        match e {
            Expr::Local(s) if *s == slot => Expr::Int(v),
            Expr::Unary(o, a) => Expr::Unary(*o, Box::new(subst(a, slot, v))),
            Expr::Cast(w, a) => Expr::Cast(*w, Box::new(subst(a, slot, v))),
            Expr::Binary(o, a, b) => {
                Expr::Binary(*o, Box::new(subst(a, slot, v)), Box::new(subst(b, slot, v)))
            }
            Expr::Cond(c, a, b) => Expr::Cond(
                Box::new(subst(c, slot, v)),
                Box::new(subst(a, slot, v)),
                Box::new(subst(b, slot, v)),
            ),
            other => other.clone(),
        }
    }
    let mut v = start;
    for n in 0..=MAX_TRIPS {
        if const_eval(&subst(cond, slot, v))? == 0 {
            return Some(n);
        }
        for s in step {
            let Stmt::SetLocal {
                slot: k, op, value, ..
            } = s
            else {
                return None;
            };
            if *k != slot {
                return None;
            }
            let value = subst(value, slot, v);
            v = match op {
                None => const_eval(&value)?,
                Some(o) => const_eval(&Expr::Binary(*o, Box::new(Expr::Int(v)), Box::new(value)))?,
            };
        }
    }
    None
}

/// Most unsupported constructs reported from one kernel.
const MAX_ERRORS: usize = 40;

/// `v[i]` of a local array: the array's slot, its type, and — when its elements have slots of
/// their own — the element's place past the slot and the array's number of elements.
type LocalElement = (usize, Wrap, Option<(Expr, i64)>);

/// Local arrays of at most this many scalars keep a slot per element (for the interpreter).
const LOCAL_ELEMENTS: i64 = 1024;

struct Cx<'a> {
    src: &'a str,
    file: &'a str,
    defines: HashMap<String, String>,
    structs: HashMap<String, ElemTy>,
    scopes: Vec<HashMap<String, Binding>>,
    locals: usize,
    sites: Vec<Site>,
    shared_bytes: i64,
    define_depth: u32,
    depth: u32,
    /// `typedef` names and the type text they stand for.
    typedefs: HashMap<String, String>,
    /// The C type of a value each site reads, by site.
    site_wraps: Vec<Wrap>,
    /// Names of the `__device__` functions the file defines.
    device_fns: std::collections::HashSet<String>,
    /// Where each `__device__` function the file defines is, by name: its bytes (a templated one's
    /// from its `template <…>`).
    device_defs: HashMap<String, (usize, usize, usize)>,
    /// Further definitions of a name (overloads), chosen by how many arguments a call passes.
    overloads: HashMap<String, Vec<Overload>>,
    /// The texts the file's functions come from: the file (0), then each header it includes.
    sources: Vec<&'a str>,
    /// Which of them `src` is.
    src_index: usize,
    /// The text of the `__device__` function being inlined, and which source it is.
    fsrc: &'a str,
    fsrc_index: usize,
    /// Headers beside the file (`#include "common.h"`): the name as written, the text, the tree.
    headers: Vec<(&'a str, &'a str, &'a tree_sitter::Tree)>,
    /// Headers already read (an include guard or `#pragma once` reads each once).
    included: std::collections::HashSet<usize>,
    /// Kernels the included headers define, and the header of each.
    header_kernels: Vec<(String, String)>,
    /// The atomics the kernel calls, where and as written: counted apart, not as loads or stores.
    atomics: Vec<(Pos, String)>,
    /// What each atomic does to which element (by the number its call carries).
    atomic_targets: Vec<Option<AtomicTarget>>,
    /// Local arrays of scalars whose elements have slots of their own, from the array's slot on:
    /// the extents, outermost first (`float v[8][4]`: `[8, 4]`), for the interpreter.
    local_arrays: std::collections::HashMap<usize, (String, Vec<i64>)>,
    /// Names declared `volatile` (parameters, locals, `__shared__` arrays): each read of them is
    /// made, none reused.
    volatile_names: std::collections::HashSet<String>,
    /// Pointer parameters declared `__restrict__`.
    restrict_names: std::collections::HashSet<String>,
    /// `__constant__` arrays and scalars of the file, with their element type: read through the
    /// constant cache, not as loads of global memory.
    constants: HashMap<String, Wrap>,
    /// A `#pragma unroll` (without a count) was just read: it applies to the next loop.
    unroll_next: bool,
    /// Scalar parameters: values known only when the kernel runs (a `-D` gives the analyser one,
    /// not the compiler).
    runtime_names: std::collections::HashSet<String>,
    /// Where the loops are that nvcc unrolls fully (`#pragma unroll` over a trip count known when
    /// compiling).
    unrolled: Vec<Pos>,
    /// Per loop with a trip count known when compiling, the cost of its unrolled turns.
    loop_cost: HashMap<Pos, u64>,
    /// Structs whose member functions hand out an `extern __shared__` array (cuda-samples'
    /// `SharedMemory<T>`), and the locals of such a type.
    smem_structs: std::collections::HashSet<String>,
    smem_objects: std::collections::HashSet<String>,
    /// Templated structs (llm.c's `Packed128<T>`), by name: where their `template <…>` is.
    struct_templates: HashMap<String, (usize, usize, usize)>,
    /// Static constant members of structs, by the struct's name (as instantiated) and member.
    statics: HashMap<(String, String), i64>,
    /// Statements an inlined call in the statement being lowered runs first.
    pending: Vec<Stmt>,
    /// The `__device__` calls being inlined, innermost last: the local of the value returned (and
    /// its type), and the local that is 1 once the function has returned.
    inline: Vec<(Option<(usize, Wrap)>, usize)>,
    /// The flag locals that `return`s of inlined functions, `break`s and `continue`s have set so
    /// far (each 1 once its jump happened): a block runs what follows a jump only where no flag of
    /// it is set.
    jumped: Vec<usize>,
    /// The loops being lowered, innermost last: their `break` and `continue` flag locals.
    loops: Vec<(usize, usize)>,
    /// `__shared__` scalars (`__shared__ int total;`): one-element arrays read and written by name.
    shared_scalars: std::collections::HashSet<String>,
    /// Lowering a loop's condition or step, where an inlined call could not run each turn.
    in_loop_head: bool,
    /// Every unsupported construct met so far (the kernel is reported with all of them).
    errors: Vec<AnalyzeError>,
    /// Reading a preprocessor condition: unknown names are 0, `defined(X)` is known.
    in_pp: bool,
    /// Per site, the alignment of its vector type (`float2`: 8), 0 when the element is not one.
    site_vector: Vec<i64>,
    /// Names the kernel body assigns to (`A += …`, `p++`): pointer parameters among them move.
    assigned: std::collections::HashSet<String>,
    /// The local holding how many elements a moved pointer parameter has moved, by name.
    ptr_offset: HashMap<String, usize>,
    /// Locals declared without a value and not assigned yet (in source order), with their names.
    unset: HashMap<usize, String>,
    /// Every function-like `#define` of the file, by where it starts: its parameters and its body
    /// as an expression snippet to parse (see [`macro_snippets`]).
    macro_defs: HashMap<(usize, usize), (Vec<String>, &'a str)>,
    /// The function-like macros defined so far, by name.
    macros: HashMap<String, (Vec<String>, &'a str)>,
}

/// One definition of a `__device__` function: the parameters it requires and takes in all, and
/// where it is (source, start and end byte).
type Overload = ((usize, usize), usize, usize, usize);

/// The prefix of a macro's snippet: its body parses as this declaration's value.
const MACRO_PREFIX: &str = "int __warpdrill_value = (";

/// Every function-like `#define NAME(a, b) body` of the tree, by where it starts: its parameters
/// and `int __warpdrill_value = (body);`, the body as an expression to parse when it is used.
fn macro_snippets(root: Node, src: &str) -> Vec<(usize, Vec<String>, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "preproc_function_def" {
            let params = n
                .child_by_field_name("parameters")
                .map(|p| {
                    let mut c = p.walk();
                    p.named_children(&mut c)
                        .map(|a| src[a.byte_range()].trim().to_string())
                        .collect()
                })
                .unwrap_or_default();
            let body = n
                .child_by_field_name("value")
                .map(|v| define_value(&src[v.byte_range()]))
                .unwrap_or_default();
            out.push((n.start_byte(), params, format!("{MACRO_PREFIX}{body});")));
            continue;
        }
        // Macros are defined at file scope or in a function's body; not inside expressions.
        if matches!(n.kind(), "expression_statement" | "declaration" | "comment") {
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// The most elements a `__shared__` array may have in one dimension.
const MAX_SHARED_EXTENT: i64 = 1 << 20;

/// The range of values an integer type holds, `None` for 64 bits and floats.
fn int_range(w: Wrap) -> Option<(i64, i64)> {
    match w {
        Wrap::Signed(b) if b < 64 => Some((-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1)),
        Wrap::Unsigned(b) if b < 64 => Some((0, (1i64 << b) - 1)),
        _ => None,
    }
}

fn pos(node: Node) -> Pos {
    let p = node.start_position();
    Pos {
        line: p.row as u32 + 1,
        column: p.column as u32 + 1,
        source: 0,
    }
}

/// CUDA's `__align__(8)` (a macro of its headers) written as C++'s `alignas(8)`, which the grammar
/// reads, padded to the same length so that every line and column stays where it was.
fn spell_align(text: &str) -> std::borrow::Cow<'_, str> {
    const CUDA: &str = "__align__(";
    if !text.contains(CUDA) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(CUDA) {
        out.push_str(&rest[..k]);
        let after = &rest[k + CUDA.len()..];
        match after.find(')') {
            Some(close)
                if after[..close]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '_') =>
            {
                out.push_str("alignas(");
                out.push_str(&after[..=close]);
                out.push_str("  ");
                rest = &after[close + 1..];
            }
            _ => {
                out.push_str(CUDA);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

fn parse_tree(source: &str, _file: &str) -> Result<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .map_err(|e| AnalyzeError::Input(format!("cannot load the CUDA grammar: {e}")))?;
    parser
        .parse(source, None)
        .ok_or_else(|| AnalyzeError::Input("the parser gave up".into()))
}

fn first_error(root: Node) -> Option<Node> {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            return Some(node);
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}

/// The name of a `__device__` function definition (not a kernel).
fn function_name(node: Node, src: &str) -> Option<String> {
    if node.kind() != "function_definition" {
        return None;
    }
    let mut decl = node.child_by_field_name("declarator")?;
    while decl.kind() != "function_declarator" {
        decl = decl.child_by_field_name("declarator")?;
    }
    let name = decl.child_by_field_name("declarator")?;
    Some(src[name.byte_range()].to_string())
}

/// Whether a function definition is for the host only: nothing before its name says `__device__`
/// (nor a macro that may: an upper-case word), and it is not `constexpr`. Device code cannot call
/// it, so a call of its name in a kernel is to something else (`cg::reduce` in a file whose host
/// code defines `reduce`).
fn host_only(node: Node, src: &str) -> bool {
    let Some(decl) = node.child_by_field_name("declarator") else {
        return false;
    };
    let head = &src[node.start_byte()..decl.start_byte()];
    !head
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| {
            w == "__device__"
                || w == "constexpr"
                || (w.len() > 2
                    && w.chars().any(|c| c.is_ascii_uppercase())
                    && w.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        })
}

fn global_name(node: Node, src: &str) -> Option<String> {
    if node.kind() != "function_definition" {
        return None;
    }
    let mut cursor = node.walk();
    let global = node
        .children(&mut cursor)
        .any(|c| &src[c.byte_range()] == "__global__");
    if !global {
        return None;
    }
    let mut decl = node.child_by_field_name("declarator")?;
    while decl.kind() != "function_declarator" {
        decl = decl.child_by_field_name("declarator")?;
    }
    let name = decl.child_by_field_name("declarator")?;
    Some(src[name.byte_range()].to_string())
}

/// Parses `source` and returns the chosen kernel (the only one when `kernel` is `None`).
///
/// `defines` are `NAME=VALUE` pairs that add to or replace the file's `#define`s; a define with a
/// scalar parameter's name gives that parameter's value.
pub fn parse_kernel(
    source: &str,
    file: &str,
    kernel: Option<&str>,
    defines: &[(String, String)],
    headers: &[(String, String)],
) -> Result<Kernel> {
    let spelled = spell_align(source);
    let source: &str = &spelled;
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(name, text)| (name.clone(), spell_align(text).into_owned()))
        .collect();
    let tree = parse_tree(source, file)?;
    let root = tree.root_node();
    let header_trees: Vec<(&str, &str, tree_sitter::Tree)> = headers
        .iter()
        .filter_map(|(name, text)| {
            Some((name.as_str(), text.as_str(), parse_tree(text, name).ok()?))
        })
        .collect();
    let mut snippets = vec![(0, macro_snippets(root, source))];
    for (k, (_, text, t)) in header_trees.iter().enumerate() {
        snippets.push((k + 1, macro_snippets(t.root_node(), text)));
    }
    let mut cx = Cx::new(source, file);
    cx.macro_defs = snippets
        .iter()
        .flat_map(|(index, list)| {
            list.iter()
                .map(move |(at, params, text)| ((*index, *at), (params.clone(), text.as_str())))
        })
        .collect();
    cx.headers = header_trees
        .iter()
        .map(|(n, t, tree)| (*n, *t, tree))
        .collect();
    cx.sources.extend(header_trees.iter().map(|(_, t, _)| *t));
    for (name, value) in defines {
        cx.defines.insert(name.clone(), value.clone());
    }
    for (name, value) in [
        ("__CUDACC__", "1"),
        ("__NVCC__", "1"),
        ("__CUDA_ARCH__", "900"),
    ] {
        cx.defines
            .entry(name.to_string())
            .or_insert_with(|| value.to_string());
    }
    let given: std::collections::HashSet<String> = defines.iter().map(|d| d.0.clone()).collect();
    let mut kernels = Vec::new();
    cx.top(root, &given, &mut kernels, 0)?;
    // `name<64, 8>`: the kernel and the template arguments to instantiate it with.
    let (want, targs) = match kernel {
        Some(k) => match k.split_once('<') {
            Some((n, rest)) => (Some(n.trim()), Some(rest.trim_end().trim_end_matches('>'))),
            None => (Some(k.trim()), None),
        },
        None => (None, None),
    };
    // Two kernels of one name: neither is taken for the other.
    for (k, (name, node, _)) in kernels.iter().enumerate() {
        if let Some((_, again, _)) = kernels[k + 1..].iter().find(|(n, _, _)| n == name)
            && want.is_none_or(|want| want == name.as_str())
        {
            return Err(AnalyzeError::Input(format!(
                "{file}: two __global__ functions are named `{name}` (lines {} and {}): rename one, as only one may be analysed",
                pos(*node).line,
                pos(*again).line
            )));
        }
    }
    let names: Vec<&str> = kernels.iter().map(|(n, _, _)| n.as_str()).collect();
    if let Some(want) = want
        && !names.contains(&want)
        && let Some((_, header)) = cx.header_kernels.iter().find(|(n, _)| n == want)
    {
        return Err(AnalyzeError::InHeader {
            file: file.to_string(),
            kernel: want.to_string(),
            header: header.clone(),
        });
    }
    let chosen = match want {
        Some(want) => kernels.iter().find(|(n, _, _)| n == want).ok_or_else(|| {
            AnalyzeError::Input(format!(
                "no __global__ function named `{want}` (found: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        })?,
        None => match kernels.as_slice() {
            [] => {
                if root.has_error() {
                    return Err(syntax_error(root, source, file));
                }
                return Err(AnalyzeError::Input(format!(
                    "{file}: no __global__ function found"
                )));
            }
            [one] => one,
            _ => {
                return Err(AnalyzeError::Input(format!(
                    "{file} has several kernels ({}): choose one with --kernel",
                    names.join(", ")
                )));
            }
        },
    };
    // A syntax error elsewhere in the file does not stop this kernel; one inside it does.
    if chosen.1.has_error() {
        return Err(syntax_error(chosen.1, source, file));
    }
    if let Some(params) = chosen.2 {
        let args = match targs {
            Some(a) => split_args(a),
            None => launch_template_args(source, &chosen.0).ok_or_else(|| {
                AnalyzeError::Input(format!(
                    "`{}` is a template: give its arguments, as --kernel '{}<…>'",
                    chosen.0, chosen.0
                ))
            })?,
        };
        cx.template(params, &args, &chosen.0)?;
    }
    cx.kernel(chosen.0.clone(), chosen.1)
}

/// The template arguments of the first launch of `name` in the file: `name<64, 8><<<…>>>`.
fn launch_template_args(source: &str, name: &str) -> Option<Vec<String>> {
    let mut from = 0;
    while let Some(k) = source[from..].find(name) {
        let start = from + k;
        from = start + name.len();
        let before_ok = start == 0
            || !source[..start]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let rest = source[from..].trim_start();
        if !before_ok || !rest.starts_with('<') || rest.starts_with("<<<") {
            continue;
        }
        // The matching `>`, then `<<<`.
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        let after = rest[i + 1..].trim_start();
                        if after.starts_with("<<<") {
                            return Some(split_args(&rest[1..i]));
                        }
                        break;
                    }
                }
                ';' | '{' | '}' => break,
                _ => {}
            }
        }
    }
    None
}

/// The arguments written in a call's `f<…>` (also `ns::f<…>`), as nodes.
fn template_arguments(fnode: Node) -> Vec<Node> {
    let mut n = strip_parens(fnode);
    for _ in 0..8 {
        match n.kind() {
            "qualified_identifier" => match n.child_by_field_name("name") {
                Some(inner) => n = inner,
                None => return Vec::new(),
            },
            "template_function" => {
                let Some(list) = n.child_by_field_name("arguments") else {
                    return Vec::new();
                };
                let mut c = list.walk();
                return list
                    .named_children(&mut c)
                    .filter(|a| a.kind() != "comment")
                    .collect();
            }
            _ => return Vec::new(),
        }
    }
    Vec::new()
}

/// The C name of a scalar type, for a template type parameter deduced from an argument.
fn type_name(size: i64, w: Wrap) -> Option<&'static str> {
    Some(match (size, w) {
        (2, Wrap::Float) => "__half",
        (4, Wrap::Float) => "float",
        (8, Wrap::Float) => "double",
        (1, Wrap::Signed(_)) => "signed char",
        (1, Wrap::Unsigned(_)) => "unsigned char",
        (2, Wrap::Signed(_)) => "short",
        (2, Wrap::Unsigned(_)) => "unsigned short",
        (4, Wrap::Signed(_)) => "int",
        (4, Wrap::Unsigned(_)) => "unsigned int",
        (8, Wrap::Signed(_)) => "long long",
        (8, Wrap::Unsigned(_)) => "unsigned long long",
        _ => return None,
    })
}

/// `64, 8, foo<1, 2>` → `["64", "8", "foo<1, 2>"]`.
fn split_args(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The first syntax error under `node`, positioned.
fn syntax_error(node: Node, source: &str, file: &str) -> AnalyzeError {
    let bad = first_error(node).unwrap_or(node);
    let p = pos(bad);
    let text: String = source[bad.byte_range()].chars().take(40).collect();
    AnalyzeError::Syntax {
        file: file.to_string(),
        line: p.line,
        column: p.column,
        what: if bad.is_missing() {
            format!("missing `{}`", bad.kind())
        } else {
            format!("unexpected `{}`", text.trim())
        },
    }
}

/// A `#define`'s value without a trailing `//` or `/* */` comment.
fn define_value(text: &str) -> String {
    let mut t = text;
    if let Some(k) = t.find("//") {
        t = &t[..k];
    }
    let mut out = t.to_string();
    while let (Some(a), Some(b)) = (out.find("/*"), out.find("*/")) {
        if b < a {
            break;
        }
        out.replace_range(a..b + 2, " ");
    }
    out.trim().to_string()
}

fn scalar(name: &str) -> Option<(i64, Wrap)> {
    Some(match name {
        "char" | "signed char" | "int8_t" => (1, Wrap::Signed(8)),
        "unsigned char" | "uint8_t" | "bool" | "uchar" => (1, Wrap::Unsigned(8)),
        "short" | "signed short" | "short int" | "int16_t" => (2, Wrap::Signed(16)),
        "unsigned short" | "unsigned short int" | "uint16_t" | "ushort" => (2, Wrap::Unsigned(16)),
        "int" | "signed" | "signed int" | "int32_t" => (4, Wrap::Signed(32)),
        "unsigned" | "unsigned int" | "uint32_t" | "uint" => (4, Wrap::Unsigned(32)),
        "long" | "long long" | "long int" | "long long int" | "int64_t" | "ptrdiff_t"
        | "intptr_t" | "signed long" | "signed long long" | "clock_t" | "long long signed" => {
            (8, Wrap::Signed(64))
        }
        "unsigned long"
        | "unsigned long long"
        | "unsigned long int"
        | "unsigned long long int"
        | "uint64_t"
        | "size_t"
        | "uintptr_t"
        | "ulong" => (8, Wrap::Unsigned(64)),
        "float" => (4, Wrap::Float),
        "double" => (8, Wrap::Float),
        "__half" | "half" | "__nv_bfloat16" | "nv_bfloat16" => (2, Wrap::Float),
        _ => return None,
    })
}

/// The type C gives an operand of arithmetic: types narrower than `int` become `int`.
fn promote(w: Wrap) -> Wrap {
    match w {
        Wrap::Signed(b) | Wrap::Unsigned(b) if b < 32 => Wrap::Signed(32),
        other => other,
    }
}

/// The usual arithmetic conversions: the type both operands of a binary operator are brought to.
fn common(a: Wrap, b: Wrap) -> Wrap {
    match (promote(a), promote(b)) {
        (Wrap::Float, _) | (_, Wrap::Float) => Wrap::Float,
        (Wrap::Signed(x), Wrap::Signed(y)) => Wrap::Signed(x.max(y)),
        (Wrap::Unsigned(x), Wrap::Unsigned(y)) => Wrap::Unsigned(x.max(y)),
        (Wrap::Signed(s), Wrap::Unsigned(u)) | (Wrap::Unsigned(u), Wrap::Signed(s)) => {
            if u >= s {
                Wrap::Unsigned(u)
            } else {
                Wrap::Signed(s)
            }
        }
    }
}

/// `v` kept as type `w` keeps it (two's complement wrap-around).
fn wrap_const(v: i64, w: Wrap) -> i64 {
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

/// `e`, of type `from`, converted to `to` (an arithmetic conversion): a cast only where the value
/// can change (a signed value made unsigned, a narrowing), a constant folded.
fn conv(e: Expr, from: Wrap, to: Wrap) -> Expr {
    let needed = match (from, to) {
        (_, Wrap::Float) => false,
        (Wrap::Float, _) => true,
        (Wrap::Signed(_), Wrap::Unsigned(_)) => true,
        (Wrap::Signed(a), Wrap::Signed(b)) | (Wrap::Unsigned(a), Wrap::Unsigned(b)) => a > b,
        (Wrap::Unsigned(a), Wrap::Signed(b)) => a >= b,
    };
    if !needed {
        return e;
    }
    match e {
        Expr::Int(v) => Expr::Int(wrap_const(v, to)),
        e => Expr::Cast(to, Box::new(e)),
    }
}

/// The result of `op` in type `ty`, wrapped where the operation can leave the type's range.
fn wrapped(ty: Wrap, op: BinOp, e: Expr) -> Expr {
    let can_overflow = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl);
    match ty {
        Wrap::Signed(b) | Wrap::Unsigned(b) if b < 64 && can_overflow => match e {
            Expr::Int(v) => Expr::Int(wrap_const(v, ty)),
            e => Expr::Cast(ty, Box::new(e)),
        },
        _ => e,
    }
}

fn vector(name: &str) -> Option<ElemTy> {
    let last = name.chars().last()?;
    let n = i64::from(last.to_digit(10)?);
    let base = name.strip_suffix(last)?;
    let (b, wrap) = match base {
        "char" => (1, Wrap::Signed(8)),
        "uchar" => (1, Wrap::Unsigned(8)),
        "short" => (2, Wrap::Signed(16)),
        "ushort" => (2, Wrap::Unsigned(16)),
        "int" => (4, Wrap::Signed(32)),
        "uint" => (4, Wrap::Unsigned(32)),
        "float" => (4, Wrap::Float),
        "long" | "longlong" => (8, Wrap::Signed(64)),
        "ulong" | "ulonglong" => (8, Wrap::Unsigned(64)),
        "double" => (8, Wrap::Float),
        "__half" | "half" | "__nv_bfloat16" | "nv_bfloat16" => (2, Wrap::Float),
        _ => return None,
    };
    if !(1..=4).contains(&n) {
        return None;
    }
    let align = if n == 3 || n == 1 { b } else { (b * n).min(16) };
    let names = ["x", "y", "z", "w"];
    Some(ElemTy {
        size: b * n,
        align,
        fields: (0..n)
            .map(|k| (names[k as usize].to_string(), k * b, b, wrap))
            .collect(),
        whole: true,
        wrap,
    })
}

fn scalar_elem(size: i64, wrap: Wrap) -> ElemTy {
    ElemTy {
        size,
        align: size,
        fields: Vec::new(),
        whole: true,
        wrap,
    }
}

fn normalize(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "const" && *w != "volatile" && *w != "__restrict__")
        .collect::<Vec<_>>()
        .join(" ")
}

impl<'a> Cx<'a> {
    fn new(src: &'a str, file: &'a str) -> Cx<'a> {
        Cx {
            src,
            file,
            defines: HashMap::new(),
            structs: HashMap::new(),
            scopes: vec![HashMap::new()],
            locals: 0,
            sites: Vec::new(),
            shared_bytes: 0,
            define_depth: 0,
            depth: 0,
            typedefs: HashMap::new(),
            site_wraps: Vec::new(),
            device_fns: std::collections::HashSet::new(),
            device_defs: HashMap::new(),
            overloads: HashMap::new(),
            sources: vec![src],
            src_index: 0,
            fsrc: src,
            fsrc_index: 0,
            headers: Vec::new(),
            included: std::collections::HashSet::new(),
            header_kernels: Vec::new(),
            atomics: Vec::new(),
            atomic_targets: Vec::new(),
            local_arrays: std::collections::HashMap::new(),
            volatile_names: std::collections::HashSet::new(),
            restrict_names: std::collections::HashSet::new(),
            constants: HashMap::new(),
            unroll_next: false,
            runtime_names: std::collections::HashSet::new(),
            unrolled: Vec::new(),
            loop_cost: HashMap::new(),
            smem_structs: std::collections::HashSet::new(),
            smem_objects: std::collections::HashSet::new(),
            struct_templates: HashMap::new(),
            statics: HashMap::new(),
            pending: Vec::new(),
            inline: Vec::new(),
            jumped: Vec::new(),
            loops: Vec::new(),
            shared_scalars: std::collections::HashSet::new(),
            in_loop_head: false,
            errors: Vec::new(),
            in_pp: false,
            macro_defs: HashMap::new(),
            macros: HashMap::new(),
            site_vector: Vec::new(),
            assigned: std::collections::HashSet::new(),
            ptr_offset: HashMap::new(),
            unset: HashMap::new(),
        }
    }

    /// Reads the file's top level: defines, structs, typedefs, kernels (also inside `#if`s,
    /// `extern "C"` and namespaces).
    fn top<'t>(
        &mut self,
        node: Node<'t>,
        given: &std::collections::HashSet<String>,
        kernels: &mut Vec<(String, Node<'t>, Option<Node<'t>>)>,
        depth: u32,
    ) -> Result<()> {
        if depth > 32 {
            return Ok(());
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
        for node in children {
            self.top_single(node, given, kernels, depth)?;
        }
        Ok(())
    }

    fn top_single<'t>(
        &mut self,
        node: Node<'t>,
        given: &std::collections::HashSet<String>,
        kernels: &mut Vec<(String, Node<'t>, Option<Node<'t>>)>,
        depth: u32,
    ) -> Result<()> {
        {
            match node.kind() {
                "preproc_def" => {
                    let name = node
                        .child_by_field_name("name")
                        .map(|n| self.text(n).to_string())
                        .unwrap_or_default();
                    let value = node
                        .child_by_field_name("value")
                        .map(|n| define_value(self.text(n)))
                        .unwrap_or_default();
                    if !given.contains(&name) {
                        self.defines.insert(name, value);
                    }
                }
                "preproc_function_def" => self.function_macro(node),
                "preproc_include" => self.include(node, given, depth),
                "preproc_ifdef" | "preproc_if" if depth < 32 => {
                    for item in self.pp_items(node) {
                        self.top_single(item, given, kernels, depth + 1)?;
                    }
                }
                "linkage_specification" | "namespace_definition" => {
                    if let Some(body) = node.child_by_field_name("body") {
                        if body.kind() == "declaration_list" {
                            self.top(body, given, kernels, depth + 1)?;
                        } else {
                            // `extern "C" __global__ void k(…) {…}`
                            self.top_single(body, given, kernels, depth + 1)?;
                        }
                    }
                }
                "struct_specifier" => {
                    self.note_smem_struct(node);
                    // A struct the analyser cannot lay out matters only if the kernel uses it.
                    let _ = self.struct_def(node, None);
                }
                "declaration" | "type_definition" => {
                    // `struct S {…};`, `typedef struct {…} S;`, `typedef float floatX;`
                    let ty = node.child_by_field_name("type");
                    if let Some(ty) = ty
                        && ty.kind() == "struct_specifier"
                    {
                        let alias = if node.kind() == "type_definition" {
                            node.child_by_field_name("declarator")
                                .map(|d| self.text(d).to_string())
                        } else {
                            None
                        };
                        let _ = self.struct_def(ty, alias);
                    } else if node.kind() == "type_definition"
                        && let (Some(ty), Some(d)) = (ty, node.child_by_field_name("declarator"))
                        && d.kind() == "type_identifier"
                    {
                        let t = normalize(self.text(ty));
                        let alias = self.text(d).to_string();
                        if let Some(ety) = self.struct_type(&t) {
                            self.structs.insert(alias.clone(), ety);
                            let key = self.canonical(&t);
                            let members: Vec<(String, i64)> = self
                                .statics
                                .iter()
                                .filter(|((st, _), _)| *st == key)
                                .map(|((_, m), v)| (m.clone(), *v))
                                .collect();
                            for (m, v) in members {
                                self.statics.insert((alias.clone(), m), v);
                            }
                        }
                        self.typedefs.insert(alias, t);
                    } else if node.kind() == "declaration" {
                        self.file_constant(node, given);
                    }
                }
                "alias_declaration" => {
                    // `using floatX = float;`
                    if let (Some(n), Some(t)) = (
                        node.child_by_field_name("name"),
                        node.child_by_field_name("type"),
                    ) {
                        let t = normalize(self.text(t));
                        self.typedefs.insert(self.text(n).to_string(), t);
                    }
                }
                "function_definition" => {
                    if let Some(name) = global_name(node, self.src) {
                        kernels.push((name, node, None));
                    } else if let Some(name) = function_name(node, self.src)
                        && !host_only(node, self.src)
                    {
                        let def = (self.src_index, node.start_byte(), node.end_byte());
                        self.overload(&name, def, node);
                        self.device_defs.insert(name.clone(), def);
                        self.device_fns.insert(name);
                    }
                }
                "template_declaration" => {
                    let mut c = node.walk();
                    if let Some(st) = node
                        .named_children(&mut c)
                        .find(|n| n.kind() == "struct_specifier")
                    {
                        self.note_smem_struct(st);
                        if let Some(n) = st.child_by_field_name("name")
                            && n.kind() == "type_identifier"
                            && st.child_by_field_name("body").is_some()
                        {
                            self.struct_templates.insert(
                                self.text(n).to_string(),
                                (self.src_index, node.start_byte(), node.end_byte()),
                            );
                        }
                    }
                    let mut c = node.walk();
                    let inner = node
                        .named_children(&mut c)
                        .find(|n| n.kind() == "function_definition");
                    if let Some(f) = inner {
                        if let Some(name) = global_name(f, self.src) {
                            kernels.push((name, f, node.child_by_field_name("parameters")));
                        } else if let Some(name) = function_name(f, self.src)
                            && !host_only(f, self.src)
                        {
                            // The whole declaration: its template parameters are bound per call.
                            let def = (self.src_index, node.start_byte(), node.end_byte());
                            self.overload(&name, def, f);
                            self.device_defs.insert(name.clone(), def);
                            self.device_fns.insert(name);
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Records a definition of `name` with the number of parameters of its function `f`.
    fn overload(&mut self, name: &str, (index, start, end): (usize, usize, usize), f: Node) {
        let mut decl = f.child_by_field_name("declarator");
        while let Some(d) = decl.filter(|d| d.kind() != "function_declarator") {
            decl = d.child_by_field_name("declarator");
        }
        let params = decl
            .and_then(|d| d.child_by_field_name("parameters"))
            .map_or((0, 0), |list| {
                let mut c = list.walk();
                let kinds: Vec<&str> = list.named_children(&mut c).map(|p| p.kind()).collect();
                let required = kinds
                    .iter()
                    .filter(|k| **k == "parameter_declaration")
                    .count();
                let optional = kinds
                    .iter()
                    .filter(|k| **k == "optional_parameter_declaration")
                    .count();
                (required, required + optional)
            });
        self.overloads
            .entry(name.to_string())
            .or_default()
            .push((params, index, start, end));
    }

    /// `#include "common.h"` of a header beside the file: its defines, types, constants, macros
    /// and `__device__` functions (not its kernels) take effect here. `<…>` headers are the
    /// toolkit's, whose names the analyser knows.
    fn include(&mut self, node: Node, given: &std::collections::HashSet<String>, depth: u32) {
        let Some(path) = node.child_by_field_name("path") else {
            return;
        };
        if path.kind() != "string_literal" {
            return;
        }
        let name = self.text(path).trim_matches('"').to_string();
        let Some(k) = self.headers.iter().position(|(n, _, _)| {
            *n == name
                || std::path::Path::new(n).file_name() == std::path::Path::new(&name).file_name()
        }) else {
            return;
        };
        if !self.included.insert(k) || depth >= 16 {
            return;
        }
        let (_, text, tree) = self.headers[k];
        let src = std::mem::replace(&mut self.src, text);
        let was = std::mem::replace(&mut self.src_index, k + 1);
        let mut kernels = Vec::new();
        let _ = self.top(tree.root_node(), given, &mut kernels, depth + 1);
        for (kernel, _, _) in kernels {
            self.header_kernels.push((kernel, name.clone()));
        }
        self.src = src;
        self.src_index = was;
    }

    /// A function-like `#define` takes effect here (a later one of the same name replaces it).
    fn function_macro(&mut self, node: Node) {
        let Some(name) = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string())
        else {
            return;
        };
        if let Some(def) = self
            .macro_defs
            .get(&(self.src_index, node.start_byte()))
            .cloned()
        {
            self.defines.remove(&name);
            self.macros.insert(name, def);
        }
    }

    /// `CEIL_DIV(n, 4)`, a use of a function-like macro: its body read with each parameter
    /// standing for its argument (an expression, or an array passed by name), in the scope of the
    /// use. Accesses in the body are placed at the use.
    fn expand_macro(
        &mut self,
        node: Node,
        name: &str,
        (params, snippet): (Vec<String>, &'a str),
        args: &[Node],
    ) -> Result<(Expr, Wrap)> {
        let variadic = params.last().is_some_and(|p| p.ends_with("..."));
        if params.len() != args.len() && !(params.len() == 1 && args.is_empty()) || variadic {
            return self.unsupported(
                node,
                format!(
                    "the macro `{name}` used with {} arguments (it takes {})",
                    args.len(),
                    params.len()
                ),
            );
        }
        if self.define_depth > 16 {
            return self.unsupported(node, format!("the macro `{name}`, which uses itself"));
        }
        let mut scope = HashMap::new();
        for (p, a) in params.iter().zip(args) {
            let a = strip_parens(*a);
            let by_name = if a.kind() == "identifier" {
                match self.lookup(self.text(a)) {
                    Some(
                        b @ (Binding::Pointer(_)
                        | Binding::Shared(..)
                        | Binding::Alias(..)
                        | Binding::LocalArray(..)
                        | Binding::LocalVector(..)
                        | Binding::Group(_)),
                    ) => Some(b.clone()),
                    _ => None,
                }
            } else {
                None
            };
            let b = match by_name {
                Some(b) => b,
                None => {
                    let (e, w) = self.expr_t(a)?;
                    Binding::Value(e, w)
                }
            };
            scope.insert(p.clone(), b);
        }
        let mut parser = Parser::new();
        let tree = parser
            .set_language(&tree_sitter_cuda::LANGUAGE.into())
            .ok()
            .and_then(|_| parser.parse(snippet, None));
        let Some(tree) = tree else {
            return self.unsupported(node, format!("the macro `{name}`"));
        };
        let root = tree.root_node();
        let value = root
            .named_child(0)
            .and_then(|d| d.child_by_field_name("declarator"))
            .and_then(|d| d.child_by_field_name("value"));
        let Some(value) = value.filter(|_| !root.has_error()) else {
            return self.unsupported(
                node,
                format!("the macro `{name}` (its body is not an expression)"),
            );
        };
        let first = (self.sites.len(), self.atomics.len());
        let src = std::mem::replace(&mut self.src, snippet);
        self.scopes.push(scope);
        self.define_depth += 1;
        let r = self.expr_t(value);
        self.define_depth -= 1;
        self.scopes.pop();
        self.src = src;
        self.place_at_use(node, first, &format!("in the macro `{name}`"), r)
    }

    /// `const int WARPSIZE = 32;` (or `constexpr`, `static const unsigned …`) at file scope: a
    /// constant the kernels may use, read like a `#define` of its value (a `-D` of the same name
    /// wins).
    fn file_constant(&mut self, node: Node, given: &std::collections::HashSet<String>) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        if self.constant_memory(node, &children) {
            return;
        }
        let constant = children.iter().any(|c| {
            matches!(c.kind(), "type_qualifier" | "storage_class_specifier")
                && matches!(self.text(*c), "const" | "constexpr")
        });
        let Some(ty) = node.child_by_field_name("type") else {
            return;
        };
        if !constant {
            return;
        }
        // The value keeps its declared type, written as a cast C reads the same way everywhere.
        let cast = match self.scalar_ty(&normalize(self.text(ty))) {
            Some((_, Wrap::Signed(b))) if b <= 32 => "int",
            Some((_, Wrap::Unsigned(b))) if b <= 32 => "unsigned int",
            Some((_, Wrap::Signed(_))) => "long long",
            Some((_, Wrap::Unsigned(_))) => "unsigned long long",
            Some((4, Wrap::Float)) => "float",
            Some((_, Wrap::Float)) => "double",
            _ => return,
        };
        for d in children.iter().filter(|c| c.kind() == "init_declarator") {
            let (Some(name), Some(value)) = (
                d.child_by_field_name("declarator"),
                d.child_by_field_name("value"),
            ) else {
                continue;
            };
            if name.kind() != "identifier" || value.kind() == "initializer_list" {
                continue;
            }
            let name = self.text(name).to_string();
            if !given.contains(&name) {
                let value = format!("(({cast})({}))", define_value(self.text(value)));
                self.defines.insert(name, value);
            }
        }
    }

    /// `__constant__ float c_Kernel[KERNEL_LENGTH];` (or a scalar): recorded so that kernels read
    /// it as constant memory. Whether the declaration is one.
    fn constant_memory(&mut self, node: Node, children: &[Node]) -> bool {
        let head = self.text(node).split(['=', '[', ';']).next().unwrap_or("");
        if !head
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "__constant__")
        {
            return false;
        }
        let Some(ty) = node.child_by_field_name("type") else {
            return true;
        };
        let wrap = self
            .scalar_ty(&normalize(self.text(ty)))
            .map_or(Wrap::Float, |(_, w)| w);
        for d in children {
            let n = declared_name(*d);
            if n.kind() == "identifier" && n != ty {
                self.constants.insert(self.text(n).to_string(), wrap);
            }
        }
        true
    }

    /// `c_Kernel[k]` of a `__constant__` array: read through the constant cache (`LDC`, or an
    /// operand of the instruction), which Nsight Compute does not count as global loads; its
    /// indices are evaluated for their own loads, its value is not known.
    fn constant_element(&mut self, node: Node) -> Result<Option<(Expr, Wrap)>> {
        let (base, indices) = self.subscripts(node)?;
        if base.kind() != "identifier" || self.lookup(self.text(base)).is_some() {
            return Ok(None);
        }
        let Some(&wrap) = self.constants.get(self.text(base)) else {
            return Ok(None);
        };
        let mut args = Vec::new();
        for i in indices {
            args.push(self.expr(i)?);
        }
        Ok(Some((Expr::Call(Func::Opaque, args), wrap)))
    }

    /// The items of the branch a preprocessor conditional takes.
    fn pp_items<'t>(&mut self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut node = node;
        for _ in 0..64 {
            let taken = match node.kind() {
                "preproc_else" => true,
                "preproc_ifdef" | "preproc_elifdef" => {
                    let negate = node.child(0).is_some_and(|t| {
                        self.text(t).trim_start().starts_with("#ifn")
                            || self.text(t).trim_start().starts_with("#elifn")
                    });
                    let defined = node
                        .child_by_field_name("name")
                        .is_some_and(|n| self.defines.contains_key(self.text(n)));
                    defined != negate
                }
                "preproc_if" | "preproc_elif" => match node.child_by_field_name("condition") {
                    Some(c) => {
                        self.in_pp = true;
                        let v = self.expr(c).ok().and_then(|e| const_eval(&e));
                        self.in_pp = false;
                        v.unwrap_or(1) != 0
                    }
                    None => true,
                },
                _ => return Vec::new(),
            };
            if taken {
                let mut out = Vec::new();
                let mut cursor = node.walk();
                if cursor.goto_first_child() {
                    loop {
                        let field = cursor.field_name();
                        let n = cursor.node();
                        if n.is_named()
                            && !matches!(field, Some("name" | "condition" | "alternative"))
                        {
                            out.push(n);
                        }
                        if !cursor.goto_next_sibling() {
                            break;
                        }
                    }
                }
                return out;
            }
            match node.child_by_field_name("alternative") {
                Some(alt) => node = alt,
                None => return Vec::new(),
            }
        }
        Vec::new()
    }

    /// Binds the template parameters of the kernel to `args` (or their defaults).
    fn template(&mut self, params: Node, args: &[String], kernel: &str) -> Result<()> {
        let mut cursor = params.walk();
        let list: Vec<Node> = params.named_children(&mut cursor).collect();
        let mut k = 0;
        for p in list {
            if p.kind() == "comment" {
                continue;
            }
            let arg = args.get(k).cloned();
            k += 1;
            match p.kind() {
                "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                    let name = p
                        .child_by_field_name("name")
                        .or_else(|| {
                            let mut c = p.walk();
                            p.named_children(&mut c)
                                .find(|n| n.kind() == "type_identifier")
                        })
                        .map(|n| self.text(n).to_string());
                    let ty = arg.or_else(|| {
                        p.child_by_field_name("default_type")
                            .map(|d| self.text(d).to_string())
                    });
                    match (name, ty) {
                        (Some(n), Some(t)) => {
                            self.typedefs.insert(n, normalize(&t));
                        }
                        _ => {
                            return self.unsupported(
                                p,
                                format!(
                                    "the template parameter `{}` has no argument",
                                    self.short(p)
                                ),
                            );
                        }
                    }
                }
                "parameter_declaration" | "optional_parameter_declaration" => {
                    let (Some(ty), Some(d)) = (
                        p.child_by_field_name("type"),
                        p.child_by_field_name("declarator"),
                    ) else {
                        return self
                            .unsupported(p, format!("the template parameter `{}`", self.short(p)));
                    };
                    let name = self.text(d).to_string();
                    let wrap = self
                        .scalar_ty(&normalize(self.text(ty)))
                        .map_or(Wrap::Signed(32), |(_, w)| w);
                    let text = arg.or_else(|| {
                        p.child_by_field_name("default_value")
                            .map(|d| self.text(d).to_string())
                    });
                    let Some(text) = text else {
                        return Err(AnalyzeError::Input(format!(
                            "`{kernel}` needs a value for its template parameter `{name}`: give --kernel '{kernel}<…>'"
                        )));
                    };
                    let text = self.host_value(&text);
                    let (e, _) = self.define_expr(&text, p)?;
                    let Some(v) = const_eval(&e) else {
                        return self.unsupported(
                            p,
                            format!("the template argument `{text}` (a constant)"),
                        );
                    };
                    self.bind(&name, Binding::Value(Expr::Int(wrap_const(v, wrap)), wrap));
                }
                _ => {
                    return self
                        .unsupported(p, format!("the template parameter `{}`", self.short(p)));
                }
            }
        }
        Ok(())
    }

    /// A template argument in terms of the host code's constants: `BM` where the host declares
    /// `const uint BM = 64;` becomes `(64)`.
    fn host_value(&self, text: &str) -> String {
        let t = text.trim();
        if !t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || self.defines.contains_key(t)
        {
            return t.to_string();
        }
        let src = self.src;
        let mut from = 0;
        while let Some(k) = src[from..].find(t) {
            let start = from + k;
            from = start + t.len();
            let before_ok = start == 0
                || !src[..start]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
            let rest = src[from..].trim_start();
            if before_ok
                && let Some(v) = rest.strip_prefix('=')
                && !v.starts_with('=')
                && let Some(end) = v.find(';')
            {
                return format!("({})", v[..end].trim());
            }
        }
        t.to_string()
    }

    /// A type name with `typedef`s followed to the type they name.
    fn resolve(&self, name: &str) -> String {
        let mut name = name.to_string();
        for _ in 0..16 {
            match self.typedefs.get(&name) {
                Some(t) => name = t.clone(),
                None => break,
            }
        }
        name
    }

    /// A scalar type by name, through `typedef`s.
    fn scalar_ty(&self, name: &str) -> Option<(i64, Wrap)> {
        scalar(&self.resolve(name))
    }

    fn text(&self, node: Node) -> &'a str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    /// The text of a node of the function being inlined (which may come from a header).
    fn ftext(&self, node: Node) -> &'a str {
        self.fsrc.get(node.byte_range()).unwrap_or("")
    }

    fn fshort(&self, node: Node) -> String {
        shorten(self.ftext(node))
    }

    /// Runs `f` reading the text of the function being inlined.
    fn in_fsrc<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let src = std::mem::replace(&mut self.src, self.fsrc);
        let index = std::mem::replace(&mut self.src_index, self.fsrc_index);
        let r = f(self);
        self.src = src;
        self.src_index = index;
        r
    }

    /// Where `node` is: in the text being read (the file, or the header a `__device__` function
    /// being inlined comes from).
    fn pos(&self, node: Node) -> Pos {
        Pos {
            source: u16::try_from(self.src_index).unwrap_or(u16::MAX),
            ..pos(node)
        }
    }

    fn unsupported<T>(&self, node: Node, what: impl Into<String>) -> Result<T> {
        let p = self.pos(node);
        Err(AnalyzeError::Unsupported {
            file: self.file.to_string(),
            line: p.line,
            column: p.column,
            what: what.into(),
        })
    }

    fn short(&self, node: Node) -> String {
        shorten(self.text(node))
    }

    /// Accesses (and atomics) made inside another text (a macro's body, a header's function) are
    /// shown at `node`, the use in the file; so are the constructs they meet that are not read.
    /// `first` is how many sites and atomics there were before the use.
    fn place_at_use(
        &mut self,
        node: Node,
        (first_site, first_atomic): (usize, usize),
        what: &str,
        r: Result<(Expr, Wrap)>,
    ) -> Result<(Expr, Wrap)> {
        let at = self.pos(node);
        let text = self.short(node);
        for site in &mut self.sites[first_site..] {
            site.pos = at;
            site.text = text.clone();
        }
        for (pos, _) in &mut self.atomics[first_atomic..] {
            *pos = at;
        }
        r.map_err(|e| match e {
            AnalyzeError::Unsupported { file, what: w, .. } => AnalyzeError::Unsupported {
                file,
                line: at.line,
                column: at.column,
                what: format!("{w} ({what})"),
            },
            other => other,
        })
    }

    /// Whether two sites read the same bytes of the same element.
    fn same_element(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.sites[a], &self.sites[b]);
        x.space == y.space
            && x.array == y.array
            && x.elem_bytes == y.elem_bytes
            && x.indices == y.indices
            && x.field_offset == y.field_offset
            && x.access_bytes == y.access_bytes
    }

    /// The element type named by `text` (`float`, `float4`, a struct), if known.
    fn elem_type_text(&self, text: &str) -> Option<ElemTy> {
        let name = self.resolve(&normalize(text));
        let name = name
            .trim_start_matches("const ")
            .strip_prefix("struct ")
            .unwrap_or(name.trim_start_matches("const "))
            .trim()
            .to_string();
        scalar(&name)
            .map(|(size, wrap)| scalar_elem(size, wrap))
            .or_else(|| vector(&name))
            .or_else(|| self.structs.get(&name).cloned())
    }

    fn elem_type(&self, node: Node) -> Result<ElemTy> {
        let name = self.resolve(&normalize(self.text(node)));
        let name = name.strip_prefix("struct ").unwrap_or(&name).to_string();
        if let Some((size, wrap)) = scalar(&name) {
            return Ok(scalar_elem(size, wrap));
        }
        if let Some(v) = vector(&name) {
            return Ok(v);
        }
        if let Some(s) = self.structs.get(&name) {
            return Ok(s.clone());
        }
        self.unsupported(node, format!("the type `{name}`"))
    }

    fn struct_def(&mut self, node: Node, alias: Option<String>) -> Result<()> {
        let Some(body) = node.child_by_field_name("body") else {
            return Ok(());
        };
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        let mut offset = 0i64;
        let mut align = 1i64;
        let mut fields = Vec::new();
        let mut cursor = body.walk();
        for field in body.named_children(&mut cursor) {
            if field.kind() == "comment" {
                continue;
            }
            if field.kind() != "field_declaration" {
                return self.unsupported(field, format!("`{}` in a struct", self.short(field)));
            }
            let Some(ty) = field.child_by_field_name("type") else {
                return self.unsupported(field, "a struct field without a type");
            };
            let ety = self.elem_type(ty)?;
            let mut c2 = field.walk();
            for decl in field.children_by_field_name("declarator", &mut c2) {
                if decl.kind() != "field_identifier" {
                    return self.unsupported(
                        decl,
                        format!(
                            "the struct field `{}` (only plain fields)",
                            self.short(decl)
                        ),
                    );
                }
                offset = round_up(offset, ety.align);
                align = align.max(ety.align);
                fields.push((self.text(decl).to_string(), offset, ety.size, ety.wrap));
                offset += ety.size;
            }
        }
        let size = round_up(offset, align);
        let ty = ElemTy {
            size,
            align,
            fields,
            whole: false,
            wrap: Wrap::Signed(32),
        };
        for n in name.into_iter().chain(alias) {
            self.structs.insert(n, ty.clone());
        }
        Ok(())
    }

    fn bind(&mut self, name: &str, binding: Binding) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), binding);
        }
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// The array an alias names (by the name it was declared with): the innermost pointer
    /// parameter or `__shared__` array of that name, past an inlined function's parameters that
    /// reuse it.
    fn root_array(&self, name: &str) -> Option<&Binding> {
        self.scopes
            .iter()
            .rev()
            .filter_map(|s| s.get(name))
            .find(|b| matches!(b, Binding::Pointer(_) | Binding::Shared(..)))
    }

    /// A read of local `slot` at `node`: refused while it has no value, which C leaves undefined
    /// (the analyser would have to guess one).
    fn read_local(&self, slot: usize, node: Node) -> Result<()> {
        match self.unset.get(&slot) {
            Some(name) => self.unsupported(
                node,
                format!(
                    "reading `{name}` before it is given a value (it is declared without one; C leaves its value undefined and the analyser will not take it as 0): write `{name} = …;` first, or declare it with a value"
                ),
            ),
            None => Ok(()),
        }
    }

    fn new_local(&mut self, name: &str, wrap: Wrap) -> usize {
        let slot = self.locals;
        self.locals += 1;
        self.bind(name, Binding::Local(slot, wrap));
        slot
    }

    fn kernel(mut self, name: String, node: Node) -> Result<Kernel> {
        let mut decl = node.child_by_field_name("declarator");
        while let Some(d) = decl {
            if d.kind() == "function_declarator" {
                break;
            }
            decl = d.child_by_field_name("declarator");
        }
        let Some(fdecl) = decl else {
            return self.unsupported(node, "this function declaration");
        };
        if let Some(body) = node.child_by_field_name("body") {
            let mut names = std::collections::HashSet::new();
            assigned_names(body, self.src, &mut names);
            self.assigned = names;
        }
        if let Some(params) = fdecl.child_by_field_name("parameters") {
            let mut cursor = params.walk();
            for param in params.named_children(&mut cursor) {
                if let Err(e) = self.param(param) {
                    self.keep(e)?;
                    self.poison(param);
                }
            }
        }
        let Some(body) = node.child_by_field_name("body") else {
            return self.unsupported(node, "a kernel without a body");
        };
        let body = self.block(body)?;
        if !self.errors.is_empty() {
            let mut errors = std::mem::take(&mut self.errors);
            return Err(if errors.len() == 1 {
                errors.remove(0)
            } else {
                AnalyzeError::Several(errors)
            });
        }
        let line = |row: usize| u32::try_from(row + 1).unwrap_or(u32::MAX);
        let mut kernel = Kernel {
            name,
            body,
            sites: self.sites,
            locals: self.locals,
            shared_bytes: self.shared_bytes,
            atomics: self.atomics,
            atomic_targets: self.atomic_targets,
            local_names: self
                .local_arrays
                .iter()
                .map(|(slot, (name, _))| (*slot, name.clone()))
                .collect(),
            lines: (
                line(node.start_position().row),
                line(node.end_position().row),
            ),
            reused: Vec::new(),
            assume: Vec::new(),
            unrolled: std::mem::take(&mut self.unrolled),
            reusable: Vec::new(),
            restrict: std::mem::take(&mut self.restrict_names),
            headers: self.headers.iter().map(|h| h.0.to_string()).collect(),
        };
        (kernel.reused, kernel.reusable) = super::reuse::reuse(
            &mut kernel,
            &super::reuse::Names {
                volatile: &self.volatile_names,
                align: &self.site_vector,
            },
        );
        Ok(kernel)
    }

    /// `Packed128<floatX>` with its arguments' typedefs resolved: `Packed128<__nv_bfloat16>`.
    fn canonical(&self, text: &str) -> String {
        let text = self.resolve(&normalize(text));
        let Some((base, rest)) = text.split_once('<') else {
            return text;
        };
        let args = split_args(rest.trim_end().trim_end_matches('>'));
        let args: Vec<String> = args.iter().map(|a| self.resolve(&normalize(a))).collect();
        format!("{}<{}>", base.trim(), args.join(", "))
    }

    /// The layout of a templated struct's instance (`Packed128<float>`): its type parameters bound
    /// to the arguments, its `static constexpr` members evaluated (kept for `x128::size`), its
    /// data members laid out as C lays them out (`alignas(N)` read); member functions are left
    /// out. A struct of one array of scalars (or one scalar or vector) is loadable whole, like a
    /// vector type.
    fn struct_type(&mut self, text: &str) -> Option<ElemTy> {
        let key = self.canonical(text);
        if let Some(t) = self.structs.get(&key) {
            return Some(t.clone());
        }
        let (base, rest) = key.split_once('<')?;
        let &(index, start, end) = self.struct_templates.get(base.trim())?;
        let args = split_args(rest.trim_end().trim_end_matches('>'));
        let src = self.sources[index];
        let tree = parse_tree(src, self.file).ok()?;
        let decl = tree.root_node().descendant_for_byte_range(start, end)?;
        let mut decl = decl;
        while decl.kind() != "template_declaration" {
            decl = decl.parent()?;
        }
        let params = decl.child_by_field_name("parameters")?;
        let mut c = decl.walk();
        let st = decl
            .named_children(&mut c)
            .find(|n| n.kind() == "struct_specifier")?;
        let body = st.child_by_field_name("body")?;
        let old_src = std::mem::replace(&mut self.src, src);
        let old_index = std::mem::replace(&mut self.src_index, index);
        let mut saved = Vec::new();
        let mut c = params.walk();
        let list: Vec<Node> = params
            .named_children(&mut c)
            .filter(|n| n.kind() != "comment")
            .collect();
        let mut scope = HashMap::new();
        for (k, p) in list.iter().enumerate() {
            let arg = args.get(k).cloned();
            match p.kind() {
                "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                    let name = {
                        let mut c = p.walk();
                        p.named_children(&mut c)
                            .find(|n| n.kind() == "type_identifier")
                            .map(|n| self.text(n).to_string())
                    };
                    if let (Some(n), Some(a)) = (name, arg) {
                        let old = self.typedefs.insert(n.clone(), a);
                        saved.push((n, old));
                    }
                }
                "parameter_declaration" | "optional_parameter_declaration" => {
                    if let (Some(d), Some(a)) = (p.child_by_field_name("declarator"), arg)
                        && let Ok(v) = a.trim().parse::<i64>()
                    {
                        scope.insert(
                            self.text(d).to_string(),
                            Binding::Value(Expr::Int(v), Wrap::Signed(32)),
                        );
                    }
                }
                _ => {}
            }
        }
        self.scopes.push(scope);
        let layout = self.instance_layout(st, body, &key);
        self.scopes.pop();
        self.restore_types(saved);
        self.src = old_src;
        self.src_index = old_index;
        let ety = layout?;
        self.structs.insert(key, ety.clone());
        Some(ety)
    }

    fn instance_layout(&mut self, st: Node, body: Node, key: &str) -> Option<ElemTy> {
        let head = self.text(st).split('{').next().unwrap_or("").to_string();
        let declared_align = head
            .split("alignas(")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .and_then(|n| n.trim().parse::<i64>().ok())
            .unwrap_or(1);
        let mut offset = 0i64;
        let mut align = declared_align.max(1);
        let mut fields = Vec::new();
        let mut cursor = body.walk();
        let items: Vec<Node> = body.named_children(&mut cursor).collect();
        for field in items {
            if field.kind() != "field_declaration" {
                // Member functions, constructors, `= default`, access specifiers, comments.
                continue;
            }
            let text = self.text(field);
            let words: Vec<&str> = text
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .collect();
            let ty = field.child_by_field_name("type")?;
            if words.contains(&"static") {
                // `static constexpr const int size = sizeof(int4) / sizeof(ElementType);`: the
                // grammar reads it as a field with a default value. Other statics are skipped.
                if let Some(v) = field.child_by_field_name("default_value")
                    && let Some(d) = field.child_by_field_name("declarator")
                {
                    let e = self.expr(v).ok()?;
                    let value = const_eval(&e)?;
                    let name = self.text(d).to_string();
                    self.statics.insert((key.to_string(), name.clone()), value);
                    self.bind(&name, Binding::Value(Expr::Int(value), Wrap::Signed(32)));
                }
                continue;
            }
            let ety = self.elem_type(ty).ok()?;
            let mut c = field.walk();
            let decls: Vec<Node> = field.children_by_field_name("declarator", &mut c).collect();
            for d in decls {
                let (name, count) = match d.kind() {
                    "field_identifier" => (self.text(d).to_string(), 1),
                    "array_declarator" => {
                        let n = d.child_by_field_name("declarator")?;
                        let size = d.child_by_field_name("size")?;
                        let e = self.expr(size).ok()?;
                        (self.text(n).to_string(), const_eval(&e).filter(|&k| k > 0)?)
                    }
                    _ => return None,
                };
                offset = round_up(offset, ety.align);
                align = align.max(ety.align);
                fields.push((name, offset, ety.size * count, ety.wrap));
                offset += ety.size * count;
            }
        }
        if fields.is_empty() {
            return None;
        }
        let size = round_up(offset, align);
        let wrap = fields[0].3;
        let whole = fields.len() == 1 && [1, 2, 4, 8, 16].contains(&size);
        Some(ElemTy {
            size,
            align: if whole { size.max(align) } else { align },
            fields,
            whole,
            wrap,
        })
    }

    /// `struct SharedMemory { __device__ operator T*() { extern __shared__ int s[]; return (T*)s; } }`:
    /// a struct that hands out dynamic shared memory.
    fn note_smem_struct(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = self
            .text(name)
            .split('<')
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let body = node
            .child_by_field_name("body")
            .map(|b| self.text(b))
            .unwrap_or("");
        let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
        if !name.is_empty() && flat.contains("extern __shared__") {
            self.smem_structs.insert(name);
        }
    }

    /// Whether `value` is dynamic shared memory handed out by such a struct: `SharedMemory<T>()`,
    /// `smem.getPointer()`, `smem`, or a cast of one.
    fn smem_source(&self, value: Node) -> bool {
        let mut v = strip_parens(value);
        while v.kind() == "cast_expression" {
            match v.child_by_field_name("value") {
                Some(inner) => v = strip_parens(inner),
                None => return false,
            }
        }
        match v.kind() {
            "identifier" => self.smem_objects.contains(self.text(v)),
            "call_expression" => match v.child_by_field_name("function") {
                Some(f) if f.kind() == "field_expression" => f
                    .child_by_field_name("argument")
                    .is_some_and(|a| self.smem_objects.contains(self.text(strip_parens(a)))),
                Some(f) => {
                    let t = self.text(f);
                    let base = t.split('<').next().unwrap_or("").trim();
                    let base = base.rsplit("::").next().unwrap_or(base);
                    self.smem_structs.contains(base)
                }
                None => false,
            },
            _ => false,
        }
    }

    /// Records the names a declaration (or parameter) declares when it says `volatile`.
    fn note_volatile(&mut self, node: Node, text: &str) {
        let head = text.split('=').next().unwrap_or("");
        if !head
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "volatile")
        {
            return;
        }
        let mut c = node.walk();
        let decls: Vec<Node> = node.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let n = declared_name(d);
            if n.kind() == "identifier" {
                let name = text_of(self.src, n).to_string();
                self.volatile_names.insert(name);
            }
        }
    }

    fn param(&mut self, param: Node) -> Result<()> {
        if param.kind() == "comment" {
            return Ok(());
        }
        self.note_volatile(param, self.text(param));
        // `int* partial_sums = NULL`, `int width = 32`: a default the launch may leave out; a
        // scalar's default is its value unless `-D` gives one.
        if param.kind() == "optional_parameter_declaration"
            && let (Some(d), Some(v)) = (
                param.child_by_field_name("declarator"),
                param.child_by_field_name("default_value"),
            )
            && d.kind() == "identifier"
        {
            let name = self.text(d).to_string();
            let value = define_value(self.text(v));
            self.defines.entry(name).or_insert(value);
        }
        if !matches!(
            param.kind(),
            "parameter_declaration" | "optional_parameter_declaration"
        ) {
            return self.unsupported(param, format!("the parameter `{}`", self.short(param)));
        }
        let (Some(ty), Some(decl)) = (
            param.child_by_field_name("type"),
            param.child_by_field_name("declarator"),
        ) else {
            return self.unsupported(param, format!("the parameter `{}`", self.short(param)));
        };
        match decl.kind() {
            "pointer_declarator" => {
                let inner = decl.child_by_field_name("declarator");
                let Some(inner) = inner.filter(|n| n.kind() == "identifier") else {
                    return self.unsupported(decl, "pointers to pointers");
                };
                let ety = self.elem_type(ty)?;
                let name = self.text(inner).to_string();
                if self
                    .text(decl)
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|w| matches!(w, "__restrict__" | "__restrict" | "restrict"))
                {
                    self.restrict_names.insert(name.clone());
                }
                if self.assigned.contains(&name) {
                    // `A += cRow * BM * K;`: the pointer moves; its accesses add how far.
                    let slot = self.locals;
                    self.locals += 1;
                    self.ptr_offset.insert(name.clone(), slot);
                }
                self.bind(&name, Binding::Pointer(ety));
            }
            "identifier" => {
                let name = self.text(decl).to_string();
                self.runtime_names.insert(name.clone());
                let tname = normalize(self.text(ty));
                let Some((_, wrap)) = self.scalar_ty(&tname) else {
                    return self.unsupported(ty, format!("a parameter of type `{tname}`"));
                };
                if let Some(value) = self.defines.get(&name).cloned() {
                    let (e, _) = self.define_expr(&value, decl)?;
                    if let (Some(n), Some((lo, hi))) = (const_eval(&e), int_range(wrap))
                        && !(lo..=hi).contains(&n)
                    {
                        let p = self.pos(decl);
                        return Err(AnalyzeError::Input(format!(
                            "{}:{}:{}: the parameter `{name}` is a `{tname}`, which holds {lo} to {hi}: the value {n} is out of range for {tname}",
                            self.file, p.line, p.column
                        )));
                    }
                    self.bind(&name, Binding::Value(Expr::Cast(wrap, Box::new(e)), wrap));
                } else if wrap == Wrap::Float {
                    // A float scalar (alpha, beta, eps) rarely feeds an address: an unknown value,
                    // reported only if it is used in one.
                    self.bind(
                        &name,
                        Binding::Value(Expr::Call(Func::Opaque, Vec::new()), wrap),
                    );
                }
                // Without a value, the name stays unknown: using it is an error that asks for one.
            }
            _ => {
                return self.unsupported(decl, format!("the parameter `{}`", self.short(param)));
            }
        }
        Ok(())
    }

    fn block(&mut self, node: Node) -> Result<Vec<Stmt>> {
        self.scopes.push(HashMap::new());
        let mut out = Vec::new();
        let mut cursor = node.walk();
        let mut guards: Vec<(usize, Vec<usize>)> = Vec::new();
        let result = (|| {
            for child in node.named_children(&mut cursor) {
                let start = out.len();
                let jumped = self.jumped.len();
                if let Err(e) = self.stmt(child, &mut out) {
                    self.keep(e)?;
                    self.poison(child);
                }
                for s in &mut out[start..] {
                    self.fuse_stmt(s);
                }
                let mut flags: Vec<usize> = self.jumped[jumped..].to_vec();
                flags.sort_unstable();
                flags.dedup();
                if !flags.is_empty() {
                    guards.push((out.len(), flags));
                }
            }
            Ok(())
        })();
        self.scopes.pop();
        // After a `return` of an inlined function, a `break` or a `continue`, the rest of the
        // block runs only where none of them happened.
        for (from, flags) in guards.into_iter().rev() {
            if from < out.len() {
                let rest = out.split_off(from);
                out.push(Stmt::If {
                    cond: not_set(&flags),
                    then: rest,
                    otherwise: Vec::new(),
                    pos: self.pos(node),
                });
            }
        }
        result.map(|()| out)
    }

    /// Fields of one vector element read in one expression become one access: nvcc loads
    /// `in[i].x + in[i].y` of a `float2` with one `LDG.64` (`float4`'s `.x .y .z .w`: `LDG.128`).
    fn fuse_stmt(&mut self, stmt: &mut Stmt) {
        // `a[i] -= k * a[i];`: the compound assignment reads `a[i]` itself, and the same element
        // read in its value is that read (nvcc loads it once).
        if let Stmt::Store {
            site,
            op: Some(_),
            value,
            ..
        } = stmt
        {
            let mut always = Vec::new();
            collect_unconditional_loads(value, &mut always);
            let target = *site;
            for b in always {
                if b != target
                    && self.sites[b].merged_into.is_none()
                    && self.same_element(target, b)
                    && !self
                        .volatile_names
                        .contains(&written_base(&self.sites[b].text))
                {
                    self.sites[b].merged_into = Some(target);
                }
            }
        }
        match stmt {
            Stmt::SetLocal { value, .. } | Stmt::Store { value, .. } | Stmt::Eval(value, _) => {
                self.fuse_expr(value)
            }
            Stmt::If { cond, .. } => self.fuse_expr(cond),
            Stmt::Loop { cond: Some(c), .. } => self.fuse_expr(c),
            _ => {}
        }
    }

    fn fuse_expr(&mut self, e: &mut Expr) {
        // The same element read twice in one expression (`data[i] * data[i]`): nothing is written
        // between the two reads, so nvcc loads it once. Only reads every lane makes (not those in
        // one arm of `?:`, `&&` or `||`) are kept for later ones.
        let mut always = Vec::new();
        collect_unconditional_loads(e, &mut always);
        let mut repeated = Vec::new();
        for (j, &b) in always.iter().enumerate() {
            if self
                .volatile_names
                .contains(&written_base(&self.sites[b].text))
            {
                continue;
            }
            if let Some(&a) = always[..j]
                .iter()
                .find(|&&a| a != b && !repeated.contains(&a) && self.same_element(a, b))
            {
                // Kept in the expression (its value is the first read's), counted nowhere.
                self.sites[b].merged_into = Some(a);
                repeated.push(b);
            }
        }
        let mut loads = Vec::new();
        collect_loads(e, &mut loads);
        let mut dead = Vec::new();
        let mut seen = vec![false; loads.len()];
        for i in 0..loads.len() {
            let a = loads[i];
            if seen[i]
                || self.site_vector.get(a).copied().unwrap_or(0) == 0
                || self.sites[a].merged_into.is_some()
            {
                continue;
            }
            let mut members = vec![a];
            for (j, &b) in loads.iter().enumerate().skip(i + 1) {
                let (x, y) = (&self.sites[a], &self.sites[b]);
                if !seen[j]
                    && y.merged_into.is_none()
                    && x.space == y.space
                    && x.array == y.array
                    && x.elem_bytes == y.elem_bytes
                    && x.indices == y.indices
                    && self.site_vector.get(b) == self.site_vector.get(a)
                {
                    seen[j] = true;
                    members.push(b);
                }
            }
            if members.len() < 2 {
                continue;
            }
            let lo = members
                .iter()
                .map(|&m| self.sites[m].field_offset)
                .min()
                .unwrap_or(0);
            let hi = members
                .iter()
                .map(|&m| self.sites[m].field_offset + i64::from(self.sites[m].access_bytes))
                .max()
                .unwrap_or(0);
            let align = self.site_vector[a];
            let Some(width) = [2i64, 4, 8, 16]
                .into_iter()
                .find(|&w| w >= hi - lo && lo / w == (hi - 1) / w && w <= align)
            else {
                continue;
            };
            let texts: Vec<String> = members
                .iter()
                .map(|&m| self.sites[m].text.clone())
                .collect();
            let first = &mut self.sites[a];
            first.field_offset = lo / width * width;
            first.access_bytes = width as u32;
            first.text = texts.join(", ");
            for &m in &members[1..] {
                self.sites[m].merged_into = Some(a);
                dead.push(m);
            }
        }
        if !dead.is_empty() {
            drop_loads(e, &dead);
        }
    }

    /// Keeps an unsupported construct to report with the others and goes on; other errors stop.
    fn keep(&mut self, e: AnalyzeError) -> Result<()> {
        match e {
            AnalyzeError::Unsupported { .. } | AnalyzeError::Syntax { .. } => {
                if self.errors.len() < MAX_ERRORS {
                    self.errors.push(e);
                }
                Ok(())
            }
            AnalyzeError::Several(list) => {
                for e in list {
                    self.keep(e)?;
                }
                Ok(())
            }
            other => Err(other),
        }
    }

    /// Binds the names a statement that could not be read declares to unknown values, so their
    /// uses are not reported again.
    fn poison(&mut self, node: Node) {
        if !matches!(node.kind(), "declaration" | "parameter_declaration") {
            return;
        }
        let mut c = node.walk();
        let decls: Vec<Node> = node.children_by_field_name("declarator", &mut c).collect();
        for mut d in decls {
            for _ in 0..16 {
                if matches!(d.kind(), "identifier" | "field_identifier") {
                    break;
                }
                match d.child_by_field_name("declarator") {
                    Some(inner) => d = inner,
                    None => break,
                }
            }
            if d.kind() == "identifier" {
                let name = self.text(d).to_string();
                self.bind(
                    &name,
                    Binding::Value(Expr::Call(Func::Opaque, Vec::new()), Wrap::Signed(32)),
                );
            }
        }
    }

    fn body(&mut self, node: Node) -> Result<Vec<Stmt>> {
        if node.kind() == "compound_statement" {
            self.block(node)
        } else {
            self.scopes.push(HashMap::new());
            let mut out = Vec::new();
            let r = self.stmt(node, &mut out);
            for s in &mut out {
                self.fuse_stmt(s);
            }
            self.scopes.pop();
            r.map(|()| out)
        }
    }

    fn stmt(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        if self.depth > MAX_DEPTH {
            return self.unsupported(node, "code nested this deeply");
        }
        self.depth += 1;
        // What an inlined call of this statement runs goes before it; a statement inside this
        // one keeps its own.
        let outer = std::mem::take(&mut self.pending);
        let start = out.len();
        let r = self.stmt_inner(node, out);
        let mine = std::mem::replace(&mut self.pending, outer);
        if r.is_ok() && !mine.is_empty() {
            out.splice(start..start, mine);
        }
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let unroll = std::mem::take(&mut self.unroll_next);
        if node.kind() == "comment" {
            self.unroll_next = unroll;
        } else if node.kind() == "preproc_call" {
            // `#pragma unroll` (no count): the next loop is unrolled fully when its trip count is
            // known to the compiler.
            let words: Vec<&str> = self.text(node).split_whitespace().collect();
            self.unroll_next =
                matches!(words[..], ["#pragma", "unroll"] | ["#", "pragma", "unroll"]);
        } else if node.kind() == "for_statement" {
            self.unroll_next = unroll;
        }
        // `cg::thread_block_tile<32> warp = …;` reads as a comparison to the grammar.
        if let Some((name, n)) = tile_declaration(self.text(node)) {
            self.bind(&name, Binding::Group(Group::Tile(n)));
            return Ok(());
        }
        match node.kind() {
            "comment"
            | "preproc_call"
            | "empty_statement"
            | "static_assert_declaration"
            | "namespace_alias_definition"
            | "using_declaration"
            | "alias_declaration" => {}
            "preproc_function_def" => self.function_macro(node),
            "preproc_def" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n).to_string())
                    .unwrap_or_default();
                let value = node
                    .child_by_field_name("value")
                    .map(|n| define_value(self.text(n)))
                    .unwrap_or_default();
                self.defines.insert(name, value);
            }
            "preproc_ifdef" | "preproc_if" => {
                for item in self.pp_items(node) {
                    if let Err(e) = self.stmt(item, out) {
                        self.keep(e)?;
                    }
                }
            }
            "compound_statement" => out.extend(self.block(node)?),
            "declaration" => self.declaration(node, out)?,
            "expression_statement" => {
                if let Some(e) = node.named_child(0) {
                    self.expr_stmt(e, out)?;
                }
            }
            "if_statement" => {
                let cond = node
                    .child_by_field_name("condition")
                    .and_then(|c| c.child_by_field_name("value").or_else(|| c.named_child(0)));
                let Some(cond) = cond else {
                    return self.unsupported(node, "this `if`");
                };
                let cond_e = self.expr(cond)?;
                let then = match node.child_by_field_name("consequence") {
                    Some(c) => self.body(c)?,
                    None => Vec::new(),
                };
                let otherwise = match node.child_by_field_name("alternative") {
                    Some(alt) => match alt.named_child(0) {
                        Some(s) => self.body(s)?,
                        None => Vec::new(),
                    },
                    None => Vec::new(),
                };
                out.push(Stmt::If {
                    cond: cond_e,
                    then,
                    otherwise,
                    pos: self.pos(cond),
                });
            }
            "switch_statement" => self.switch_stmt(node, out)?,
            "for_statement" => {
                self.scopes.push(HashMap::new());
                let r = self.for_stmt(node, out);
                self.scopes.pop();
                r?;
            }
            "while_statement" => {
                let cond = node
                    .child_by_field_name("condition")
                    .and_then(|c| c.child_by_field_name("value").or_else(|| c.named_child(0)));
                let Some(cond) = cond else {
                    return self.unsupported(node, "this `while`");
                };
                self.in_loop_head = true;
                let cond_e = self.expr(cond);
                self.in_loop_head = false;
                let cond_e = cond_e?;
                let (body, before, stop) = self.loop_body(node.child_by_field_name("body"))?;
                out.extend(before);
                let (cond_e, step) = stopped(Some(cond_e), Vec::new(), &stop, self.pos(cond));
                out.push(Stmt::Loop {
                    cond: cond_e,
                    body,
                    step,
                    pos: self.pos(cond),
                });
            }
            "return_statement" => {
                if let Some(&(result, done)) = self.inline.last() {
                    // `return v;` of an inlined function: the value, and the function is done.
                    match (result, node.named_child(0)) {
                        (Some((slot, wrap)), Some(v)) => {
                            let (e, from) = self.expr_t(v)?;
                            out.push(Stmt::SetLocal {
                                slot,
                                op: None,
                                value: conv(e, from, wrap),
                                wrap,
                                pos: self.pos(node),
                            });
                        }
                        (None, None) => {}
                        _ => return self.unsupported(node, "this return"),
                    }
                    out.push(Stmt::SetLocal {
                        slot: done,
                        op: None,
                        value: Expr::Int(1),
                        wrap: Wrap::Signed(32),
                        pos: self.pos(node),
                    });
                    self.jumped.push(done);
                    return Ok(());
                }
                if node.named_child_count() > 0 {
                    return self.unsupported(node, "returning a value from a kernel");
                }
                out.push(Stmt::Return);
            }
            "break_statement" | "continue_statement" => {
                // A flag of the innermost loop: the rest of its body is skipped where it is set,
                // and a `break` ends the loop there.
                let Some(&(brk, cnt)) = self
                    .loops
                    .last()
                    .filter(|l| node.kind() == "break_statement" || l.1 != usize::MAX)
                else {
                    return self.unsupported(
                        node,
                        format!(
                            "`{}` outside a loop (in a `switch`?)",
                            self.text(node).trim_end_matches(';').trim()
                        ),
                    );
                };
                let flag = if node.kind() == "break_statement" {
                    brk
                } else {
                    cnt
                };
                out.push(Stmt::SetLocal {
                    slot: flag,
                    op: None,
                    value: Expr::Int(1),
                    wrap: Wrap::Signed(32),
                    pos: self.pos(node),
                });
                self.jumped.push(flag);
            }
            _ => {
                return self.unsupported(node, format!("the statement `{}`", self.short(node)));
            }
        }
        Ok(())
    }

    fn for_stmt(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let pragma = std::mem::take(&mut self.unroll_next);
        let known = self.compile_time_trips(node);
        let before_init = out.len();
        if let Some(init) = node.child_by_field_name("initializer") {
            if init.kind() == "declaration" {
                self.declaration(init, out)?;
            } else {
                self.expr_stmt(init, out)?;
            }
        }
        let start = match out[before_init..] {
            [
                Stmt::SetLocal {
                    slot,
                    op: None,
                    ref value,
                    ..
                },
            ] => const_eval(value).map(|v| (slot, v)),
            _ => None,
        };
        self.in_loop_head = true;
        let head = (|| {
            let cond = match node.child_by_field_name("condition") {
                Some(c) => Some(self.expr(c)?),
                None => None,
            };
            let mut step = Vec::new();
            if let Some(update) = node.child_by_field_name("update") {
                self.expr_stmt(update, &mut step)?;
            }
            Ok((cond, step))
        })();
        self.in_loop_head = false;
        let (cond, step) = head?;
        let (body, before, stop) = self.loop_body(node.child_by_field_name("body"))?;
        out.extend(before);
        // nvcc unrolls fully a loop whose trip count it knows under `#pragma unroll`, and without
        // one when the unrolled body stays small (LLVM's full-unroll threshold).
        let trips = match (known, start, &cond) {
            (true, Some((slot, v)), Some(c)) => trip_count(slot, v, c, &step),
            _ => None,
        };
        let cost = trips.map(|t| t.saturating_mul(self.cost(&body) + self.cost(&step) + 1));
        if known && (pragma || cost.is_some_and(|c| c <= UNROLL_COST)) {
            self.unrolled.push(self.pos(node));
        }
        if let Some(c) = cost {
            self.loop_cost.insert(self.pos(node), c);
        }
        let (cond, step) = stopped(cond, step, &stop, self.pos(node));
        out.push(Stmt::Loop {
            cond,
            body,
            step,
            pos: self.pos(node),
        });
        Ok(())
    }

    /// Roughly how many instructions `stmts` are once lowered (an unrolled inner loop counts all
    /// its turns).
    fn cost(&self, stmts: &[Stmt]) -> u64 {
        fn expr(e: &Expr) -> u64 {
            1 + match e {
                Expr::Unary(_, a) | Expr::Cast(_, a) => expr(a),
                Expr::Binary(_, a, b) => expr(a) + expr(b),
                Expr::Cond(c, a, b) => expr(c) + expr(a) + expr(b),
                Expr::Call(_, args) => args.iter().map(expr).sum(),
                _ => 0,
            }
        }
        stmts
            .iter()
            .map(|s| match s {
                Stmt::SetLocal { value, .. } | Stmt::Store { value, .. } | Stmt::Eval(value, _) => {
                    1 + expr(value)
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => 1 + expr(cond) + self.cost(then) + self.cost(otherwise),
                Stmt::Loop {
                    body, step, pos, ..
                } => self
                    .loop_cost
                    .get(pos)
                    .copied()
                    .unwrap_or_else(|| 8 * (self.cost(body) + self.cost(step))),
                Stmt::Return | Stmt::Barrier(_) => 1,
            })
            .sum()
    }

    /// Whether the compiler knows a `for` loop's trip count: its head names only the variable it
    /// declares, constants and template parameters (no kernel parameter, no other local).
    fn compile_time_trips(&self, node: Node) -> bool {
        let mut declared = Vec::new();
        if let Some(init) = node.child_by_field_name("initializer")
            && init.kind() == "declaration"
        {
            let mut c = init.walk();
            for d in init.children_by_field_name("declarator", &mut c) {
                if let Some(n) = d.child_by_field_name("declarator") {
                    declared.push(self.text(n).to_string());
                }
            }
        }
        let mut names = Vec::new();
        for field in ["initializer", "condition", "update"] {
            if let Some(part) = node.child_by_field_name(field) {
                identifiers(part, self.src, &mut names);
            }
        }
        !declared.is_empty()
            && names.iter().all(|n| {
                declared.contains(n)
                    || (!self.runtime_names.contains(n)
                        && match self.lookup(n) {
                            Some(Binding::Value(e, _)) => const_eval(e).is_some(),
                            Some(_) => false,
                            None => self.defines.contains_key(n) || type_or_sizeof(n),
                        })
            })
    }

    /// `switch (x) { case A: …; case B: … break; default: … }`: `x` read once; from the first case
    /// that matches (or `default`, where none does) on, each case's statements run for the lanes
    /// that matched and have not taken a `break` (C's fall-through), lane by lane.
    fn switch_stmt(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let (Some(cond), Some(body)) = (
            node.child_by_field_name("condition"),
            node.child_by_field_name("body"),
        ) else {
            return self.unsupported(node, "this `switch`");
        };
        let cond = cond
            .child_by_field_name("value")
            .or_else(|| cond.named_child(0))
            .unwrap_or(cond);
        let (value, wrap) = self.expr_t(cond)?;
        let wrap = promote(wrap);
        let (v, matched, brk) = (self.locals, self.locals + 1, self.locals + 2);
        self.locals += 3;
        let at = self.pos(node);
        let set = |slot: usize, value: Expr, wrap: Wrap| Stmt::SetLocal {
            slot,
            op: None,
            value,
            wrap,
            pos: at,
        };
        out.push(set(v, value, wrap));
        out.push(set(matched, Expr::Int(0), Wrap::Signed(32)));
        out.push(set(brk, Expr::Int(0), Wrap::Signed(32)));
        let mut c = body.walk();
        let cases: Vec<Node> = body
            .named_children(&mut c)
            .filter(|n| n.kind() != "comment")
            .collect();
        // Each case's value, for `default` (taken where none equals `x`).
        let mut values = Vec::new();
        for case in &cases {
            if case.kind() != "case_statement" {
                return self.unsupported(*case, "a statement before the first `case`");
            }
            if let Some(val) = case.child_by_field_name("value") {
                let (e, _) = self.expr_t(val)?;
                if const_eval(&e).is_none() {
                    return self.unsupported(val, "a `case` value that is not a constant");
                }
                values.push(e);
            }
        }
        let equals =
            |e: &Expr| Expr::Binary(BinOp::Eq, Box::new(Expr::Local(v)), Box::new(e.clone()));
        let enclosing_cnt = self.loops.last().map_or(usize::MAX, |l| l.1);
        let mark = self.jumped.len();
        self.loops.push((brk, enclosing_cnt));
        let mut k = 0;
        let mut result = Ok(());
        for case in &cases {
            let hit = match case.child_by_field_name("value") {
                Some(_) => {
                    let e = equals(&values[k]);
                    k += 1;
                    e
                }
                None => values.iter().fold(Expr::Int(1), |acc, e| {
                    Expr::Binary(
                        BinOp::LAnd,
                        Box::new(acc),
                        Box::new(Expr::Unary(UnOp::Not, Box::new(equals(e)))),
                    )
                }),
            };
            out.push(set(
                matched,
                Expr::Binary(BinOp::LOr, Box::new(Expr::Local(matched)), Box::new(hit)),
                Wrap::Signed(32),
            ));
            let mut stmts = Vec::new();
            let value_id = case.child_by_field_name("value").map(|n| n.id());
            let mut cc = case.walk();
            let items: Vec<Node> = case
                .named_children(&mut cc)
                .filter(|n| Some(n.id()) != value_id && n.kind() != "comment")
                .collect();
            // After a `break` (or `continue`) inside the case, its rest runs only where none
            // was taken.
            let mut segments: Vec<(Vec<usize>, Vec<Stmt>)> = vec![(Vec::new(), Vec::new())];
            self.scopes.push(HashMap::new());
            for item in items {
                let before = self.jumped.len();
                let Some(last) = segments.last_mut() else {
                    break;
                };
                if let Err(e) = self.stmt(item, &mut last.1) {
                    if let Err(e) = self.keep(e) {
                        result = Err(e);
                    }
                    self.poison(item);
                }
                let mut new: Vec<usize> = self.jumped[before..].to_vec();
                new.sort_unstable();
                new.dedup();
                if !new.is_empty() {
                    segments.push((new, Vec::new()));
                }
            }
            self.scopes.pop();
            while segments.len() > 1 {
                let Some((flags, rest)) = segments.pop() else {
                    break;
                };
                if let Some(prev) = segments.last_mut()
                    && !rest.is_empty()
                {
                    prev.1.push(Stmt::If {
                        cond: not_set(&flags),
                        then: rest,
                        otherwise: Vec::new(),
                        pos: self.pos(*case),
                    });
                }
            }
            stmts.extend(segments.pop().map(|(_, s)| s).unwrap_or_default());
            out.push(Stmt::If {
                cond: Expr::Binary(
                    BinOp::LAnd,
                    Box::new(Expr::Local(matched)),
                    Box::new(not_set(&[brk])),
                ),
                then: stmts,
                otherwise: Vec::new(),
                pos: self.pos(*case),
            });
            if result.is_err() {
                break;
            }
        }
        self.loops.pop();
        // The switch's own `break` ends only it; a `continue` or a `return` inside guards what
        // follows, as in a loop.
        let inner = self.jumped.split_off(mark);
        self.jumped.extend(inner.into_iter().filter(|f| *f != brk));
        result
    }

    /// A loop's body with its own `break` and `continue` flags: the body (starting each turn with
    /// no `continue`), what runs before the loop (no `break` yet), and the flags that stop it (its
    /// `break`, and the `return`s of an inlined function inside it).
    fn loop_body(&mut self, body: Option<Node>) -> Result<(Vec<Stmt>, Vec<Stmt>, Vec<usize>)> {
        let (brk, cnt) = (self.locals, self.locals + 1);
        self.locals += 2;
        let mark = self.jumped.len();
        self.loops.push((brk, cnt));
        let lowered = match body {
            Some(b) => self.body(b),
            None => Ok(Vec::new()),
        };
        self.loops.pop();
        let inner = self.jumped.split_off(mark);
        let lowered = lowered?;
        let (used_brk, used_cnt) = (inner.contains(&brk), inner.contains(&cnt));
        let mut stop: Vec<usize> = inner
            .into_iter()
            .filter(|f| *f != brk && *f != cnt)
            .collect();
        stop.sort_unstable();
        stop.dedup();
        // A `return` inside the loop also guards what follows the loop.
        self.jumped.extend(stop.iter().copied());
        let flag = |slot: usize| Stmt::SetLocal {
            slot,
            op: None,
            value: Expr::Int(0),
            wrap: Wrap::Signed(32),
            pos: Pos::default(),
        };
        let mut before = Vec::new();
        let mut out = Vec::new();
        if used_brk {
            before.push(flag(brk));
            stop.push(brk);
        }
        if used_cnt {
            out.push(flag(cnt));
        }
        out.extend(lowered);
        Ok((out, before, stop))
    }

    fn declaration(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        self.note_volatile(node, self.text(node));
        let mut cursor = node.walk();
        let mut shared = false;
        let mut is_extern = false;
        for child in node.children(&mut cursor) {
            let t = self.text(child);
            if child.kind() == "type_qualifier" && t == "__shared__" {
                shared = true;
            } else if child.kind() == "storage_class_specifier" && t == "extern" {
                is_extern = true;
            } else if child.kind() == "storage_class_specifier" && t != "register" && t != "static"
            {
                return self.unsupported(child, format!("`{t}` variables"));
            } else if t == "__shared__" {
                shared = true;
            }
        }
        if is_extern && !shared {
            return self.unsupported(node, "`extern` variables");
        }
        let Some(ty) = node.child_by_field_name("type") else {
            return self.unsupported(node, "a declaration without a type");
        };
        if shared && self.text(ty).contains("block_tile_memory") {
            // `__shared__ cg::block_tile_memory<256> scratch;`: scratch for tiles wider than a
            // warp on GPUs before sm_80; on the H200 the tiles need none and nvcc reserves none.
            return Ok(());
        }
        let mut c2 = node.walk();
        let decls: Vec<Node> = node.children_by_field_name("declarator", &mut c2).collect();
        for decl in decls {
            if shared && decl.kind() == "identifier" && !is_extern {
                // `__shared__ int total;`: one element, read and written by its name.
                let ety = self.elem_type(ty)?;
                self.shared_bytes = round_up(self.shared_bytes, ety.align) + ety.size;
                let name = self.text(decl).to_string();
                self.shared_scalars.insert(name.clone());
                self.bind(&name, Binding::Shared(ety, vec![1]));
                continue;
            }
            if shared {
                if decl.kind() != "array_declarator" {
                    return self.unsupported(decl, "a __shared__ variable that is not an array");
                }
                let ety = self.elem_type(ty)?;
                let mut extents = Vec::new();
                let mut d = decl;
                while d.kind() == "array_declarator" {
                    let Some(size) = d.child_by_field_name("size") else {
                        if is_extern && extents.is_empty() {
                            // `extern __shared__ float s[];`: sized at launch, at most the 227 KiB
                            // a block of the H200 may have (bounds are checked against that).
                            extents.push((DYNAMIC_SMEM / ety.size.max(1)).max(1));
                            let Some(inner) = d.child_by_field_name("declarator") else {
                                return self.unsupported(d, "this array");
                            };
                            d = inner;
                            continue;
                        }
                        return self.unsupported(d, "a __shared__ array without a static size");
                    };
                    let e = self.expr(size)?;
                    let n = match const_eval(&e) {
                        Some(n) if n > 0 && n <= MAX_SHARED_EXTENT => n,
                        Some(n) if n > MAX_SHARED_EXTENT => {
                            return self.unsupported(
                                size,
                                format!(
                                    "a __shared__ array of {n} elements in one dimension (at most {MAX_SHARED_EXTENT}; no GPU has that much shared memory per block)"
                                ),
                            );
                        }
                        Some(n) => {
                            return self.unsupported(
                                size,
                                format!("a __shared__ array size of {n} (it must be at least 1)"),
                            );
                        }
                        None => {
                            return self.unsupported(
                                size,
                                "a __shared__ array size that is not a constant",
                            );
                        }
                    };
                    extents.push(n);
                    let Some(inner) = d.child_by_field_name("declarator") else {
                        return self.unsupported(d, "this array");
                    };
                    d = inner;
                }
                if d.kind() != "identifier" {
                    return self.unsupported(d, "this __shared__ declaration");
                }
                extents.reverse();
                if extents.len() > 3 {
                    return self.unsupported(decl, "__shared__ arrays of more than 3 dimensions");
                }
                let elems: i64 = extents.iter().product();
                if !is_extern {
                    self.shared_bytes = round_up(self.shared_bytes, ety.align) + elems * ety.size;
                }
                let name = self.text(d).to_string();
                self.bind(&name, Binding::Shared(ety, extents));
                continue;
            }
            let tname = normalize(self.text(ty));
            if tname.contains("thread_block")
                || tname.contains("grid_group")
                || tname.contains("thread_group")
                || tname == "auto"
            {
                let init = (decl.kind() == "init_declarator")
                    .then(|| decl.child_by_field_name("value"))
                    .flatten();
                let name = decl
                    .child_by_field_name("declarator")
                    .filter(|_| decl.kind() == "init_declarator")
                    .unwrap_or(decl);
                let g = init.and_then(|v| self.group_of(v)).or_else(|| {
                    if tname.contains("thread_block_tile") {
                        self.tile_extent(&tname).map(Group::Tile)
                    } else if tname.contains("thread_block") {
                        Some(Group::Block)
                    } else if tname.contains("grid_group") {
                        Some(Group::Grid)
                    } else {
                        None
                    }
                });
                if let Some(g) = g
                    && name.kind() == "identifier"
                {
                    let n = self.text(name).to_string();
                    self.bind(&n, Binding::Group(g));
                    continue;
                }
            }
            let base_type = tname.split('<').next().unwrap_or("").trim();
            let base_type = base_type.rsplit("::").next().unwrap_or(base_type);
            if self.smem_structs.contains(base_type) && decl.kind() == "identifier" {
                // `SharedMemory<T> smem;`: its pointer is read from it below.
                self.smem_objects.insert(self.text(decl).to_string());
                continue;
            }
            if decl.kind() == "init_declarator"
                && let Some(d) = decl.child_by_field_name("declarator")
                && d.kind() == "pointer_declarator"
                && let Some(value) = decl.child_by_field_name("value")
                && self.smem_source(value)
            {
                // `T* sdata = SharedMemory<T>();`: an `extern __shared__ T sdata[]`.
                let Some(inner) = d
                    .child_by_field_name("declarator")
                    .filter(|n| n.kind() == "identifier")
                else {
                    return self.unsupported(d, "pointers to pointers");
                };
                let ety = self.elem_type(ty)?;
                let n = (DYNAMIC_SMEM / ety.size.max(1)).max(1);
                let name = self.text(inner).to_string();
                self.bind(&name, Binding::Shared(ety, vec![n]));
                continue;
            }
            if decl.kind() == "init_declarator"
                && let Some(d) = decl.child_by_field_name("declarator")
                && d.kind() == "pointer_declarator"
            {
                // `const float* p = A + off;`, `float* row = &tile[ty][0];`
                let Some(inner) = d
                    .child_by_field_name("declarator")
                    .filter(|n| n.kind() == "identifier")
                else {
                    return self.unsupported(d, "pointers to pointers");
                };
                let Some(value) = decl.child_by_field_name("value") else {
                    return self.unsupported(decl, "this declaration");
                };
                let (array, offset, cast) = self.pointee_view(value)?;
                let view = match self.elem_type_text(&tname) {
                    Some(declared) => self.view_of(decl, &array, declared)?,
                    None => cast.clone(),
                };
                if cast.as_ref().map(|c| c.size) != view.as_ref().map(|v| v.size) {
                    return self.unsupported(
                        decl,
                        format!(
                            "the declaration `{}` (a pointer of another type than its value)",
                            self.short(decl)
                        ),
                    );
                }
                let slot = self.offset_local(offset, self.pos(inner), out);
                let name = self.text(inner).to_string();
                self.bind(&name, Binding::Alias(array, slot, view));
                continue;
            }
            // `auto x = …;`: the type of its value (a cooperative group, or a scalar).
            if tname == "auto"
                && decl.kind() == "init_declarator"
                && let (Some(n), Some(v)) = (
                    decl.child_by_field_name("declarator"),
                    decl.child_by_field_name("value"),
                )
                && n.kind() == "identifier"
            {
                let name = self.text(n).to_string();
                if let Some(g) = self.group_of(v) {
                    self.bind(&name, Binding::Group(g));
                    continue;
                }
                let (e, w) = self.expr_t(v)?;
                let slot = self.new_local(&name, w);
                out.push(Stmt::SetLocal {
                    slot,
                    op: None,
                    value: e,
                    wrap: w,
                    pos: self.pos(n),
                });
                continue;
            }
            // A local of a struct type (`SoftmaxParams sp = …;`, `x128 v;`): its value not
            // followed, its fields values of their types.
            let resolved = self.resolve(&tname);
            let instance = if tname.contains('<')
                || resolved.contains('<')
                || self.structs.contains_key(&tname)
                || self.structs.contains_key(&resolved)
            {
                self.structs
                    .get(&tname)
                    .or_else(|| self.structs.get(&resolved))
                    .cloned()
                    .or_else(|| self.struct_type(&tname))
            } else {
                None
            };
            if let Some(ety) = vector(&self.resolve(&tname)).or(instance) {
                // `float4 rhs[8];`: registers, one slot for all, their values not followed.
                if decl.kind() == "array_declarator"
                    && let Some(inner) = decl.child_by_field_name("declarator")
                    && inner.kind() == "identifier"
                {
                    let name = self.text(inner).to_string();
                    let slot = self.new_local(&name, ety.wrap);
                    self.bind(&name, Binding::LocalArray(slot, ety.wrap));
                    continue;
                }
                // `float4 t = reinterpret_cast<float4*>(&A[i])[0];`: one slot, its value not
                // followed (its fields are values of the component type).
                let (name_node, value) = match decl.kind() {
                    "identifier" => (decl, None),
                    "init_declarator" => match (
                        decl.child_by_field_name("declarator"),
                        decl.child_by_field_name("value"),
                    ) {
                        (Some(n), Some(v)) if n.kind() == "identifier" => (n, Some(v)),
                        _ => {
                            return self.unsupported(
                                decl,
                                format!("the declaration `{}`", self.short(decl)),
                            );
                        }
                    },
                    _ => {
                        return self
                            .unsupported(decl, format!("the declaration `{}`", self.short(decl)));
                    }
                };
                let value = match value {
                    Some(v) if v.kind() == "initializer_list" => self.opaque_list(v)?,
                    Some(v) => Expr::Call(Func::Opaque, vec![self.expr(v)?]),
                    None => Expr::Call(Func::Opaque, Vec::new()),
                };
                let slot = self.locals;
                self.locals += 1;
                out.push(Stmt::SetLocal {
                    slot,
                    op: None,
                    value,
                    wrap: Wrap::Float,
                    pos: self.pos(name_node),
                });
                let name = self.text(name_node).to_string();
                self.bind(&name, Binding::LocalVector(slot, ety));
                continue;
            }
            let Some((_, wrap)) = self.scalar_ty(&tname) else {
                return self.unsupported(ty, format!("a local of type `{tname}`"));
            };
            // `float acc[TM * TN] = {0.0};`: a local array whose first values are given.
            let (decl, init_list) = match decl.kind() {
                "init_declarator"
                    if decl
                        .child_by_field_name("declarator")
                        .is_some_and(|d| d.kind() == "array_declarator") =>
                {
                    let list = decl.child_by_field_name("value");
                    (decl.child_by_field_name("declarator").unwrap_or(decl), list)
                }
                _ => (decl, None),
            };
            if let Some(list) = init_list
                && list.kind() != "initializer_list"
            {
                return self.unsupported(list, "a local array initialised from a value");
            }
            if decl.kind() == "array_declarator" {
                // `float v[K];`: one slot for every element, its value never followed.
                let (Some(inner), Some(size)) = (
                    decl.child_by_field_name("declarator"),
                    decl.child_by_field_name("size"),
                ) else {
                    return self.unsupported(decl, "this local array");
                };
                // `float vals[8][8];`: the outer sizes too, each constant.
                let mut inner = inner;
                let mut sizes = vec![size];
                while inner.kind() == "array_declarator" {
                    let (Some(i), Some(s)) = (
                        inner.child_by_field_name("declarator"),
                        inner.child_by_field_name("size"),
                    ) else {
                        break;
                    };
                    sizes.push(s);
                    inner = i;
                }
                let mut total: Option<i64> = Some(1);
                let mut extents = Vec::new();
                for s in sizes {
                    let e = self.expr(s)?;
                    let n = const_eval(&e);
                    extents.push(n.unwrap_or(0));
                    total = match (total, n) {
                        (Some(t), Some(n)) if n > 0 => t.checked_mul(n),
                        _ => None,
                    };
                }
                // Read from the outside in, the innermost size first; outermost first here.
                extents.reverse();
                if inner.kind() != "identifier" || total.is_none_or(|n| n <= 0 || n > 1 << 16) {
                    return self.unsupported(
                        decl,
                        format!(
                            "the declaration `{}` (a local array needs constant sizes)",
                            self.short(decl)
                        ),
                    );
                }
                let slot = self.new_local(self.text(inner), wrap);
                let name = self.text(inner).to_string();
                self.bind(&name, Binding::LocalArray(slot, wrap));
                let elements = total.unwrap_or(1);
                if elements <= LOCAL_ELEMENTS {
                    // A slot for every element, so the interpreter can keep their values (the
                    // analyser follows none of them).
                    self.locals += usize::try_from(elements - 1).unwrap_or(0);
                    self.local_arrays.insert(slot, (name.clone(), extents));
                    // `= {0.0f}`: the values given, in order; the rest are 0, as in C.
                    if let Some(list) = init_list {
                        let mut cursor = list.walk();
                        let items: Vec<Node> = list
                            .named_children(&mut cursor)
                            .filter(|n| n.kind() != "comment")
                            .collect();
                        let flat = items.iter().all(|n| n.kind() != "initializer_list");
                        for k in 0..elements {
                            let value = match items.get(k as usize) {
                                Some(item) if flat => self.expr(*item)?,
                                _ => Expr::Int(0),
                            };
                            out.push(Stmt::SetLocal {
                                slot,
                                op: None,
                                value: Expr::Call(
                                    Func::LocalPut,
                                    vec![Expr::Int(k), Expr::Int(elements), value],
                                ),
                                wrap,
                                pos: self.pos(decl),
                            });
                        }
                        if !flat {
                            self.opaque_list(list)?;
                        }
                    }
                } else if let Some(list) = init_list {
                    self.opaque_list(list)?;
                }
                continue;
            }
            let (name_node, init) = match decl.kind() {
                "identifier" => (decl, None),
                "init_declarator" => {
                    let (Some(n), Some(v)) = (
                        decl.child_by_field_name("declarator"),
                        decl.child_by_field_name("value"),
                    ) else {
                        return self.unsupported(decl, "this declaration");
                    };
                    if n.kind() != "identifier" {
                        return self
                            .unsupported(n, format!("the declaration `{}`", self.short(decl)));
                    }
                    (n, Some(v))
                }
                _ => {
                    return self.unsupported(
                        decl,
                        format!(
                            "the declaration `{}` (only scalar locals)",
                            self.short(decl)
                        ),
                    );
                }
            };
            let value = match init {
                Some(v) => {
                    if v.kind() == "initializer_list" {
                        return self.unsupported(v, "initializer lists");
                    }
                    self.expr(v)?
                }
                None => Expr::Int(0),
            };
            let is_const = {
                let mut c = node.walk();
                node.children(&mut c).any(|k| {
                    k.kind() == "type_qualifier" && matches!(self.text(k), "const" | "constexpr")
                })
            };
            if is_const && let Some(n) = const_eval(&value) {
                // `const int extraCols = 5;`: a constant, usable where C wants one (array sizes).
                let name = self.text(name_node).to_string();
                self.bind(&name, Binding::Value(Expr::Int(wrap_const(n, wrap)), wrap));
                continue;
            }
            let unset = init.is_none();
            let slot = self.new_local(self.text(name_node), wrap);
            if unset {
                self.unset.insert(slot, self.text(name_node).to_string());
            }
            out.push(Stmt::SetLocal {
                slot,
                op: None,
                value,
                wrap,
                pos: self.pos(name_node),
            });
        }
        Ok(())
    }

    /// The values of an initializer list, read (so a load in one counts) and kept opaque.
    fn opaque_list(&mut self, list: Node) -> Result<Expr> {
        let mut values = Vec::new();
        let mut cursor = list.walk();
        let items: Vec<Node> = list.named_children(&mut cursor).collect();
        for item in items {
            if item.kind() == "comment" {
                continue;
            }
            if item.kind() == "initializer_list" {
                values.push(self.opaque_list(item)?);
            } else {
                values.push(self.expr(item)?);
            }
        }
        Ok(Expr::Call(Func::Opaque, values))
    }

    fn expr_stmt(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        match node.kind() {
            "assignment_expression" => {
                let (Some(left), Some(op), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("operator"),
                    node.child_by_field_name("right"),
                ) else {
                    return self.unsupported(node, "this assignment");
                };
                let op_text = self.text(op);
                let target = strip_parens(left);
                if op_text == "="
                    && target.kind() == "identifier"
                    && let Some(Binding::Alias(array, slot, view)) =
                        self.lookup(self.text(target)).cloned()
                {
                    // `p = A + k;`: the pointer now points elsewhere in the same array.
                    let (to, offset, cast) = self.pointee_view(right)?;
                    if cast.is_some()
                        && cast.as_ref().map(|c| c.size) != view.as_ref().map(|v| v.size)
                    {
                        return self.unsupported(right, "a pointer of another type than its value");
                    }
                    if to != array {
                        // `x = out + idx * C;` in the block that declared `x`: from here on, in
                        // program order, `x` points into the other array (of the same element).
                        let name = self.text(target).to_string();
                        let here = self.scopes.len().checked_sub(1);
                        let declared = self.scopes.iter().rposition(|s| s.contains_key(&name));
                        let same_elem = self.array_elem(&to).map(|e| e.size)
                            == self.array_elem(&array).map(|e| e.size);
                        if !same_elem {
                            return self.unsupported(
                                right,
                                format!(
                                    "pointing `{name}` at `{to}`, whose elements are of another type than `{array}`'s"
                                ),
                            );
                        }
                        if declared != here {
                            return self.unsupported(
                                right,
                                format!(
                                    "pointing `{name}` at `{to}` inside a branch or loop (a local pointer moves to another array only in the block that declares it; it points into `{array}`)"
                                ),
                            );
                        }
                        let slot = self.offset_local(offset, self.pos(target), out);
                        self.bind(&name, Binding::Alias(to, slot, view));
                        return Ok(());
                    }
                    out.push(Stmt::SetLocal {
                        slot,
                        op: None,
                        value: offset,
                        wrap: Wrap::Signed(64),
                        pos: self.pos(target),
                    });
                    return Ok(());
                }
                let op = match op_text {
                    "=" => None,
                    _ => match bin_op(op_text.trim_end_matches('=')) {
                        Some(o) => Some(o),
                        None => return self.unsupported(op, format!("the operator `{op_text}`")),
                    },
                };
                let value = if strip_parens(right).kind() == "assignment_expression" {
                    // `a = b = 0`: `b = 0` first, then `a` gets what `b` holds.
                    let inner = strip_parens(right);
                    self.expr_stmt(inner, out)?;
                    let target = inner.child_by_field_name("left").map(strip_parens);
                    match target {
                        Some(t) if t.kind() == "identifier" => self.expr(t)?,
                        _ => Expr::Call(Func::Opaque, Vec::new()),
                    }
                } else {
                    self.expr(right)?
                };
                self.assign(left, op, value, out)
            }
            "update_expression" => {
                let (Some(arg), Some(op)) = (
                    node.child_by_field_name("argument"),
                    node.child_by_field_name("operator"),
                ) else {
                    return self.unsupported(node, "this update");
                };
                let op = if self.text(op) == "++" {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                self.assign(arg, Some(op), Expr::Int(1), out)
            }
            "call_expression" => {
                let f = node
                    .child_by_field_name("function")
                    .map(|f| self.text(f))
                    .unwrap_or("");
                let name = f.rsplit(['.', ':']).next().unwrap_or(f).trim();
                if name == "__syncthreads"
                    || (name == "sync" && self.synced_group(node) == Some(Group::Block))
                {
                    out.push(Stmt::Barrier(self.pos(node)));
                    Ok(())
                } else if name == "sync" {
                    // A tile's (or the grid's) sync: no traffic, and memory is read again after it.
                    out.push(Stmt::Eval(
                        Expr::Call(Func::Fence, Vec::new()),
                        self.pos(node),
                    ));
                    Ok(())
                } else if matches!(
                    name,
                    "__syncwarp" | "__threadfence_block" | "__threadfence" | "__threadfence_system"
                ) {
                    // No traffic; what a thread read before it is read again after it.
                    out.push(Stmt::Eval(
                        Expr::Call(Func::Fence, Vec::new()),
                        self.pos(node),
                    ));
                    Ok(())
                } else if matches!(
                    name,
                    "assert"
                        | "printf"
                        | "__trap"
                        | "__nanosleep"
                        | "__builtin_assume"
                        | "__assume"
                ) {
                    Ok(())
                } else {
                    let (e, _) = self.call(node)?;
                    out.push(Stmt::Eval(e, self.pos(node)));
                    Ok(())
                }
            }
            "comma_expression" => {
                if let Some(l) = node.child_by_field_name("left") {
                    self.expr_stmt(l, out)?;
                }
                if let Some(r) = node.child_by_field_name("right") {
                    self.expr_stmt(r, out)?;
                }
                Ok(())
            }
            _ => {
                let e = self.expr(node)?;
                out.push(Stmt::Eval(e, self.pos(node)));
                Ok(())
            }
        }
    }

    fn assign(
        &mut self,
        left: Node,
        op: Option<BinOp>,
        value: Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let left = strip_parens(left);
        // A pointer that moves: a pointer parameter the kernel moves, or a local pointer (by its
        // own elements: a `float4*` over floats by four floats each).
        let moved = match self.lookup(self.text(left)).cloned() {
            _ if left.kind() != "identifier" => None,
            Some(Binding::Pointer(_)) => self.ptr_offset.get(self.text(left)).map(|&s| (s, 1)),
            Some(Binding::Alias(array, slot, view)) => Some((
                slot,
                view.map_or(1, |v| {
                    v.size / self.array_elem(&array).map_or(1, |e| e.size.max(1))
                }),
            )),
            _ => None,
        };
        if let Some((slot, scale)) = moved {
            let value = if scale == 1 {
                value
            } else {
                Expr::Binary(BinOp::Mul, Box::new(value), Box::new(Expr::Int(scale)))
            };
            return match op {
                Some(BinOp::Add | BinOp::Sub) => {
                    out.push(Stmt::SetLocal {
                        slot,
                        op,
                        value,
                        wrap: Wrap::Signed(64),
                        pos: self.pos(left),
                    });
                    Ok(())
                }
                _ => self.unsupported(
                    left,
                    format!(
                        "assigning to the pointer `{}` (only += and -=, or `= A + k` into the same array)",
                        self.text(left)
                    ),
                ),
            };
        }
        if left.kind() == "identifier"
            && let Some(Binding::Ref(array, place)) = self.lookup(self.text(left)).cloned()
        {
            let site = self.flat_site(left, array, place, None, None)?;
            out.push(Stmt::Store {
                site,
                op,
                value,
                pos: self.pos(left),
            });
            return Ok(());
        }
        if left.kind() == "identifier"
            && self.shared_scalars.contains(self.text(left))
            && matches!(self.lookup(self.text(left)), Some(Binding::Shared(..)))
        {
            let site =
                self.flat_site(left, self.text(left).to_string(), Expr::Int(0), None, None)?;
            out.push(Stmt::Store {
                site,
                op,
                value,
                pos: self.pos(left),
            });
            return Ok(());
        }
        let vector_local = |cx: &Self, n: Node| match cx.lookup(cx.text(n)) {
            Some(Binding::LocalVector(slot, _)) if n.kind() == "identifier" => Some(*slot),
            _ => None,
        };
        let whole = vector_local(self, left);
        let member = (left.kind() == "field_expression")
            .then(|| left.child_by_field_name("argument").map(strip_parens))
            .flatten()
            .and_then(|a| vector_local(self, a));
        if let Some(slot) = whole.or(member) {
            // `t = …` or `t.x = …` of a vector local: its value is not followed.
            let value = if member.is_some() {
                Expr::Call(Func::Opaque, vec![Expr::Local(slot), value])
            } else {
                Expr::Call(Func::Opaque, vec![value])
            };
            out.push(Stmt::SetLocal {
                slot,
                op: None,
                value,
                wrap: Wrap::Float,
                pos: self.pos(left),
            });
            return Ok(());
        }
        if left.kind() == "identifier" {
            return match self.lookup(self.text(left)) {
                Some(Binding::Local(slot, wrap)) => {
                    let (slot, wrap) = (*slot, *wrap);
                    if op.is_some() {
                        self.read_local(slot, left)?;
                    }
                    self.unset.remove(&slot);
                    out.push(Stmt::SetLocal {
                        slot,
                        op,
                        value,
                        wrap,
                        pos: self.pos(left),
                    });
                    Ok(())
                }
                _ => self.unsupported(left, format!("assigning to `{}`", self.text(left))),
            };
        }
        if let Some((slot, wrap, place)) = self.local_element(left)? {
            let value = match place {
                Some((at, elements)) => {
                    Expr::Call(Func::LocalPut, vec![at, Expr::Int(elements), value])
                }
                None => Expr::Call(Func::Opaque, vec![value]),
            };
            out.push(Stmt::SetLocal {
                slot,
                op,
                value,
                wrap,
                pos: self.pos(left),
            });
            return Ok(());
        }
        if matches!(
            left.kind(),
            "subscript_expression" | "field_expression" | "pointer_expression"
        ) {
            let site = self.site(left)?;
            out.push(Stmt::Store {
                site,
                op,
                value,
                pos: self.pos(left),
            });
            return Ok(());
        }
        if left.kind() == "call_expression"
            && let Some(f) = left.child_by_field_name("function")
            && f.kind() == "identifier"
            && self.macros.contains_key(self.text(f))
        {
            // `AT(out, r, c) = v;`: a macro that names an element.
            if let (Expr::Load(site), _) = self.call(left)? {
                out.push(Stmt::Store {
                    site,
                    op,
                    value,
                    pos: self.pos(left),
                });
                return Ok(());
            }
        }
        self.unsupported(left, format!("assigning to `{}`", self.short(left)))
    }

    /// `v[i]` of a local array: its slot, and the element's place past it with the array's
    /// number of elements when the elements have slots of their own (`local_arrays`); `None` for
    /// anything else. The index may not read memory.
    fn local_element(&mut self, node: Node) -> Result<Option<LocalElement>> {
        if node.kind() != "subscript_expression" {
            return Ok(None);
        }
        let Some(mut base) = node.child_by_field_name("argument").map(strip_parens) else {
            return Ok(None);
        };
        // `vals[i][j]` of a local `float vals[8][8]`.
        while base.kind() == "subscript_expression" {
            match base.child_by_field_name("argument").map(strip_parens) {
                Some(a) => base = a,
                None => break,
            }
        }
        // `reinterpret_cast<const float*>(&v)[k]` of a local `float4 v`: one of its registers.
        if let Some((_, value)) = self.pointer_cast(base) {
            let value = strip_parens(value);
            if value.kind() == "pointer_expression"
                && value.child_by_field_name("operator").map(|o| self.text(o)) == Some("&")
                && let Some(inner) = value.child_by_field_name("argument").map(strip_parens)
                && inner.kind() == "identifier"
                && matches!(
                    self.lookup(self.text(inner)),
                    Some(Binding::LocalVector(..) | Binding::LocalArray(..))
                )
            {
                base = inner;
            }
        }
        if base.kind() != "identifier" {
            return Ok(None);
        }
        let (slot, wrap) = match self.lookup(self.text(base)).cloned() {
            Some(Binding::LocalArray(slot, wrap)) => (slot, wrap),
            // `packed[k]` of a packed struct (its `operator[]`): its registers, not followed.
            Some(Binding::LocalVector(slot, ety)) => (slot, ety.wrap),
            _ => return Ok(None),
        };
        // Every index of `vals[i][j]`, innermost first.
        let mut indices = Vec::new();
        let mut at = node;
        while at.kind() == "subscript_expression" {
            if let Some(idx) = at
                .child_by_field_name("indices")
                .and_then(|l| l.named_child(0))
                .or_else(|| at.child_by_field_name("index"))
            {
                indices.push(idx);
            }
            match at.child_by_field_name("argument").map(strip_parens) {
                Some(a) if a.kind() == "subscript_expression" => at = a,
                _ => break,
            }
        }
        let mut exprs = Vec::new();
        for idx in indices {
            let e = self.expr(idx)?;
            let mut loads = Vec::new();
            super::merge::loads_in_expr(&e, &mut loads);
            if !loads.is_empty() {
                return self.unsupported(idx, "a local array indexed by a value read from memory");
            }
            exprs.push(e);
        }
        // The element's place: Σ index × stride, innermost index first.
        let place = self.local_arrays.get(&slot).and_then(|(_, extents)| {
            if exprs.len() != extents.len() {
                return None;
            }
            let mut flat: Option<Expr> = None;
            let mut stride = 1i64;
            for (e, extent) in exprs.into_iter().zip(extents.iter().rev()) {
                let term = Expr::Binary(BinOp::Mul, Box::new(e), Box::new(Expr::Int(stride)));
                flat = Some(match flat {
                    None => term,
                    Some(f) => Expr::Binary(BinOp::Add, Box::new(f), Box::new(term)),
                });
                stride = stride.saturating_mul(*extent);
            }
            flat.map(|f| (f, stride))
        });
        Ok(Some((slot, wrap, place)))
    }

    fn site(&mut self, node: Node) -> Result<usize> {
        let mut field = None;
        let mut sub = node;
        if node.kind() == "pointer_expression" {
            // `*p`, `*(A + i)`: the element the pointer points at.
            if node.child_by_field_name("operator").map(|o| self.text(o)) != Some("*") {
                return self.unsupported(
                    node,
                    format!("the address `{}` as a value", self.short(node)),
                );
            }
            let Some(arg) = node.child_by_field_name("argument") else {
                return self.unsupported(node, "this pointer expression");
            };
            let (base, offset, view) = self.pointee_view(arg)?;
            return self.flat_site(node, base, offset, None, view);
        }
        if node.kind() == "field_expression" {
            let op = node.child_by_field_name("operator").map(|o| self.text(o));
            let (Some(arg), Some(f)) = (
                node.child_by_field_name("argument"),
                node.child_by_field_name("field"),
            ) else {
                return self.unsupported(node, "this field access");
            };
            if op == Some("->") {
                // `p->x`: the field of the element the pointer points at.
                let (base, offset, view) = self.pointee_view(arg)?;
                return self.flat_site(
                    node,
                    base,
                    offset,
                    Some((self.text(f).to_string(), f)),
                    view,
                );
            }
            if op != Some(".") {
                return self.unsupported(node, "this field access");
            }
            field = Some((self.text(f).to_string(), f));
            sub = strip_parens(arg);
        }
        let (base, index_nodes) = self.subscripts(sub)?;
        let through = if base.kind() == "identifier" {
            matches!(self.lookup(self.text(base)), Some(Binding::Alias(..)))
        } else {
            self.pointer_cast(base).is_some() || !self.is_value(base)
        };
        if through && index_nodes.len() == 1 {
            // `p[i]` of a local pointer, `reinterpret_cast<float4*>(&A[k])[0]`, `(A + k)[i]`: the
            // array's element at the pointer's offset plus i of the pointer's elements.
            let (array, offset, view) = self.pointee_view(base)?;
            let (i, w) = self.expr_t(index_nodes[0])?;
            let mut i = conv(i, w, Wrap::Signed(64));
            if let Some(v) = &view {
                let size = self.array_elem(&array).map_or(1, |e| e.size.max(1));
                i = Expr::Binary(BinOp::Mul, Box::new(i), Box::new(Expr::Int(v.size / size)));
            }
            let flat = Expr::Binary(BinOp::Add, Box::new(offset), Box::new(i));
            return self.flat_site(node, array, flat, field, view);
        }
        if base.kind() != "identifier" || index_nodes.is_empty() {
            return self.unsupported(
                node,
                format!("the access `{}` (only array[index])", self.short(node)),
            );
        }
        let name = self.text(base).to_string();
        if through {
            return self.unsupported(node, format!("`{name}` is a pointer: one index"));
        }
        let (space, ety, extents) = match self.lookup(&name) {
            Some(Binding::Pointer(ety)) => (Space::Global, ety.clone(), Vec::new()),
            Some(Binding::Shared(ety, ext)) => (Space::Shared, ety.clone(), ext.clone()),
            _ => {
                return self.unsupported(
                    base,
                    format!("`{name}` is not a pointer parameter or __shared__ array"),
                );
            }
        };
        let strides = match space {
            Space::Global => {
                if index_nodes.len() != 1 {
                    return self.unsupported(node, format!("`{name}` has one dimension"));
                }
                vec![1]
            }
            Space::Shared => {
                if index_nodes.len() != extents.len() {
                    return self.unsupported(
                        node,
                        format!(
                            "`{name}` has {} dimensions; index all of them",
                            extents.len()
                        ),
                    );
                }
                let mut s = vec![1i64; extents.len()];
                for k in (0..extents.len().saturating_sub(1)).rev() {
                    s[k] = s[k + 1] * extents[k + 1];
                }
                s
            }
        };
        let mut indices = Vec::new();
        for idx in index_nodes {
            indices.push(self.expr(idx)?);
        }
        if space == Space::Global
            && let Some(&slot) = self.ptr_offset.get(&name)
            && let Some(last) = indices.pop()
        {
            // The pointer's offset joins the index, a constant kept last (`A[i + 1]` still pairs).
            let off = Box::new(Expr::Local(slot));
            let joined = match last {
                Expr::Cast(_, inner) if matches!(&*inner, Expr::Binary(BinOp::Add, _, b) if matches!(**b, Expr::Int(_))) => {
                    match *inner {
                        Expr::Binary(BinOp::Add, a, b) => {
                            Expr::Binary(BinOp::Add, Box::new(Expr::Binary(BinOp::Add, off, a)), b)
                        }
                        other => Expr::Binary(BinOp::Add, off, Box::new(other)),
                    }
                }
                other => Expr::Binary(BinOp::Add, off, Box::new(other)),
            };
            indices.push(joined);
        }
        let elem_bytes = ety.size;
        self.push_site(
            node,
            space,
            name,
            (ety, elem_bytes),
            indices,
            strides,
            extents,
            field,
        )
    }

    /// `a[i][j]` as its base (`a`) and its index nodes, outermost first; a node that is not a
    /// subscript is its own base, without indices.
    fn subscripts<'t>(&self, node: Node<'t>) -> Result<(Node<'t>, Vec<Node<'t>>)> {
        let mut index_nodes = Vec::new();
        let mut base = node;
        while base.kind() == "subscript_expression" {
            let Some(idx) = base
                .child_by_field_name("indices")
                .and_then(|l| l.named_child(0))
                .or_else(|| base.child_by_field_name("index"))
            else {
                return self.unsupported(base, "this subscript");
            };
            index_nodes.push(idx);
            let Some(arg) = base.child_by_field_name("argument") else {
                return self.unsupported(base, "this subscript");
            };
            base = strip_parens(arg);
        }
        index_nodes.reverse();
        Ok((base, index_nodes))
    }

    /// A site at `offset` elements past the start of `array`, as a local pointer reaches it: one
    /// flat index (a __shared__ array's dimensions flattened).
    fn flat_site(
        &mut self,
        node: Node,
        array: String,
        offset: Expr,
        field: Option<(String, Node)>,
        view: Option<ElemTy>,
    ) -> Result<usize> {
        let (space, ety, extents) = match self.root_array(&array) {
            Some(Binding::Pointer(ety)) => (Space::Global, ety.clone(), Vec::new()),
            Some(Binding::Shared(ety, ext)) => {
                (Space::Shared, ety.clone(), vec![ext.iter().product()])
            }
            _ => {
                return self.unsupported(
                    node,
                    format!("`{array}` is not a pointer parameter or __shared__ array"),
                );
            }
        };
        let elem_bytes = ety.size;
        let ety = view.unwrap_or(ety);
        self.push_site(
            node,
            space,
            array,
            (ety, elem_bytes),
            vec![offset],
            vec![1],
            extents,
            field,
        )
    }

    #[allow(clippy::too_many_arguments)]
    /// Books a site; `(ety, elem_bytes)`: the type the access reads, and the size of the array's
    /// elements its indices count (they differ through a cast pointer).
    fn push_site(
        &mut self,
        node: Node,
        space: Space,
        name: String,
        (ety, elem_bytes): (ElemTy, i64),
        indices: Vec<Expr>,
        strides: Vec<i64>,
        extents: Vec<i64>,
        field: Option<(String, Node)>,
    ) -> Result<usize> {
        let (field_offset, access_bytes, wrap) = match &field {
            Some((f, fnode)) => match ety.fields.iter().find(|(n, _, _, _)| n == f) {
                Some((_, off, size, w)) => (*off, *size, *w),
                None => return self.unsupported(*fnode, format!("the field `{f}`")),
            },
            None => {
                if !ety.whole {
                    return self
                        .unsupported(node, "reading or writing a whole struct (name a field)");
                }
                (0, ety.size, ety.wrap)
            }
        };
        if ![1, 2, 4, 8, 16].contains(&access_bytes) {
            return self.unsupported(
                node,
                format!("a {access_bytes}-byte access (1, 2, 4, 8 or 16 bytes)"),
            );
        }
        // The bytes of one component: a vector's component, else the whole access.
        let value_bytes = match &field {
            Some(_) => access_bytes,
            None => ety.fields.first().map_or(ety.size, |f| f.2),
        };
        self.sites.push(Site {
            space,
            array: name,
            indices,
            strides,
            extents,
            elem_bytes,
            field_offset,
            access_bytes: access_bytes as u32,
            value: wrap,
            value_bytes: value_bytes as u32,
            pos: self.pos(node),
            text: self.short(node),
            merged_into: None,
            value_offset: 0,
        });
        self.site_wraps.push(wrap);
        self.site_vector
            .push(if ety.whole && !ety.fields.is_empty() {
                ety.align
            } else {
                0
            });
        Ok(self.sites.len() - 1)
    }

    fn define_expr(&mut self, text: &str, at: Node) -> Result<(Expr, Wrap)> {
        if self.define_depth > 16 {
            return self.unsupported(at, "a #define that refers to itself");
        }
        let snippet = format!("int __warpdrill_value = ({text});");
        let mut parser = Parser::new();
        if parser
            .set_language(&tree_sitter_cuda::LANGUAGE.into())
            .is_err()
        {
            return self.unsupported(at, "this #define");
        }
        let Some(tree) = parser.parse(&snippet, None) else {
            return self.unsupported(at, "this #define");
        };
        let root = tree.root_node();
        let value = root
            .named_child(0)
            .and_then(|d| d.child_by_field_name("declarator"))
            .and_then(|d| d.child_by_field_name("value"));
        let Some(value) = value.filter(|_| !root.has_error()) else {
            return self.unsupported(at, format!("the #define value `{text}`"));
        };
        let mut inner = Cx::new(&snippet, self.file);
        inner.defines = std::mem::take(&mut self.defines);
        inner.typedefs = std::mem::take(&mut self.typedefs);
        inner.macros = self.macros.clone();
        inner.define_depth = self.define_depth + 1;
        inner.depth = self.depth;
        let r = inner.expr_t(value);
        self.defines = std::mem::take(&mut inner.defines);
        self.typedefs = std::mem::take(&mut inner.typedefs);
        match r {
            Ok(e) if inner.sites.is_empty() => Ok(e),
            _ => self.unsupported(
                at,
                format!("the #define value `{text}` (a constant expression)"),
            ),
        }
    }

    fn expr(&mut self, node: Node) -> Result<Expr> {
        self.expr_t(node).map(|(e, _)| e)
    }

    /// An expression and its C type.
    fn expr_t(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        let node = strip_parens(node);
        if node.kind() == "parenthesized_expression" {
            return self.unsupported(node, "empty parentheses");
        }
        if self.depth > MAX_DEPTH {
            return self.unsupported(node, "code nested this deeply");
        }
        self.depth += 1;
        let r = self.expr_inner(node);
        self.depth -= 1;
        r
    }

    #[inline(never)]
    fn expr_inner(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        const INT: Wrap = Wrap::Signed(32);
        Ok(match node.kind() {
            "number_literal" => self.number(node)?,
            "true" => (Expr::Int(1), INT),
            "false" | "null" | "nullptr" => (Expr::Int(0), INT),
            "char_literal" => {
                let t = self.text(node);
                let c = t.trim_matches('\'').chars().next().map_or(0, |c| c as i64);
                (Expr::Int(c), Wrap::Signed(8))
            }
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.expr_t(inner)?,
                None => return self.unsupported(node, "empty parentheses"),
            },
            "identifier" => {
                let name = self.text(node);
                if self.lookup(name).is_none()
                    && let Some(&w) = self.constants.get(name)
                {
                    // A `__constant__` scalar: read through the constant cache, value unknown.
                    return Ok((Expr::Call(Func::Opaque, Vec::new()), w));
                }
                match self.lookup(name) {
                    Some(Binding::Local(slot, w)) => {
                        let (slot, w) = (*slot, *w);
                        self.read_local(slot, node)?;
                        (Expr::Local(slot), w)
                    }
                    Some(Binding::Value(e, w)) => (e.clone(), *w),
                    Some(Binding::Ref(array, place)) => {
                        let (array, place) = (array.clone(), place.clone());
                        let site = self.flat_site(node, array, place, None, None)?;
                        (Expr::Load(site), self.site_wraps[site])
                    }
                    Some(Binding::Shared(..)) if self.shared_scalars.contains(name) => {
                        let site =
                            self.flat_site(node, name.to_string(), Expr::Int(0), None, None)?;
                        (Expr::Load(site), self.site_wraps[site])
                    }
                    Some(Binding::Pointer(..))
                    | Some(Binding::Shared(..))
                    | Some(Binding::LocalArray(..))
                    | Some(Binding::Alias(..)) => {
                        return self.unsupported(
                            node,
                            format!("using the array `{name}` without an index"),
                        );
                    }
                    Some(Binding::LocalVector(slot, ety)) => {
                        (Expr::Call(Func::Opaque, vec![Expr::Local(*slot)]), ety.wrap)
                    }
                    Some(Binding::Function(f)) => {
                        let f = f.clone();
                        return self.unsupported(
                            node,
                            format!("using the function `{f}` as a value (only calls of it)"),
                        );
                    }
                    Some(Binding::Group(_)) => {
                        return self.unsupported(
                            node,
                            format!("using the cooperative group `{name}` as a value"),
                        );
                    }
                    None => {
                        if let Some(text) = self.defines.get(name).cloned() {
                            self.define_depth += 1;
                            let e = self.define_expr(&text, node);
                            self.define_depth -= 1;
                            e?
                        } else if let Some(v) = named_constant(name) {
                            v
                        } else if self.in_pp {
                            (Expr::Int(0), INT)
                        } else {
                            return self.unsupported(
                                node,
                                format!(
                                    "`{name}` has no known value (give it with --define {name}=…)"
                                ),
                            );
                        }
                    }
                }
            }
            "field_expression"
            | "subscript_expression"
            | "unary_expression"
            | "binary_expression"
            | "conditional_expression"
            | "cast_expression"
            | "call_expression"
            | "preproc_defined"
            | "pointer_expression"
            | "assignment_expression"
            | "update_expression"
            | "sizeof_expression"
            | "compound_literal_expression" => {
                return self.expr_more(node);
            }
            // `x128::size`: a static constant member of a struct the file defines.
            "qualified_identifier" => {
                let text = normalize(self.text(node));
                if let Some((ty, member)) = text.rsplit_once("::") {
                    let ty = ty.trim().to_string();
                    let member = member.trim().to_string();
                    let _ = self.struct_type(&ty);
                    let key = self.canonical(&ty);
                    if let Some(v) = self
                        .statics
                        .get(&(ty.clone(), member.clone()))
                        .or_else(|| self.statics.get(&(key, member.clone())))
                    {
                        return Ok((Expr::Int(*v), Wrap::Signed(32)));
                    }
                    if let Some(e) = named_constant(&member) {
                        return Ok(e);
                    }
                }
                return self.unsupported(node, format!("`{}`", self.short(node)));
            }
            other => {
                return self.unsupported(node, format!("`{}` ({other})", self.short(node)));
            }
        })
    }

    /// The rest of [`Cx::expr_inner`], one function a kind, to keep each frame of a deep expression small.
    #[inline(never)]
    fn expr_more(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        match node.kind() {
            "field_expression" => self.ex_field_expression(node),
            "subscript_expression" => self.ex_subscript_expression(node),
            "unary_expression" => self.ex_unary_expression(node),
            "binary_expression" => self.ex_binary_expression(node),
            "conditional_expression" => self.ex_conditional_expression(node),
            "cast_expression" => self.ex_cast_expression(node),
            "call_expression" => self.call(node),
            "preproc_defined" => self.ex_preproc_defined(node),
            "pointer_expression" => self.ex_pointer_expression(node),
            "assignment_expression" | "update_expression" => self.ex_assignment_expression(node),
            "sizeof_expression" => self.ex_sizeof_expression(node),
            // `cg::plus<float>{}`, `float2{a, b}`: a value built from its parts.
            "compound_literal_expression" => {
                let value = match node.child_by_field_name("value") {
                    Some(v) if v.kind() == "initializer_list" => self.opaque_list(v)?,
                    _ => Expr::Call(Func::Opaque, Vec::new()),
                };
                let wrap = node
                    .child_by_field_name("type")
                    .and_then(|t| self.scalar_ty(&normalize(self.text(t))))
                    .map_or(Wrap::Float, |(_, w)| w);
                Ok((value, wrap))
            }
            other => self.unsupported(node, format!("`{}` ({other})", self.short(node))),
        }
    }

    #[inline(never)]
    fn ex_field_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        Ok({
            let arg = node.child_by_field_name("argument").map(strip_parens);
            let field = node.child_by_field_name("field").map(|f| self.text(f));
            if let (Some(arg), Some(field)) = (arg, field)
                && arg.kind() == "identifier"
            {
                let base = match self.text(arg) {
                    "threadIdx" => Some(0),
                    "blockIdx" => Some(3),
                    "blockDim" => Some(6),
                    "gridDim" => Some(9),
                    _ => None,
                };
                if let Some(base) = base {
                    let k = match field {
                        "x" => 0,
                        "y" => 1,
                        "z" => 2,
                        _ => return self.unsupported(node, format!("the field `{field}`")),
                    };
                    return Ok((Expr::Builtin(base + k), Wrap::Unsigned(32)));
                }
            }
            // `rhs[j].x` of a local `float4 rhs[8]`: one of its registers, not followed.
            if let Some(arg) = arg
                && arg.kind() == "subscript_expression"
                && let Some((slot, wrap, _)) = self.local_element(arg)?
            {
                return Ok((Expr::Call(Func::Opaque, vec![Expr::Local(slot)]), wrap));
            }
            if let (Some(arg), Some(field)) = (arg, field)
                && arg.kind() == "identifier"
                && let Some(Binding::LocalVector(slot, ety)) = self.lookup(self.text(arg)).cloned()
            {
                let Some((_, offset, bytes, wrap)) =
                    ety.fields.iter().find(|(n, _, _, _)| n == field)
                else {
                    // `packed.size`: a static constant of the local's struct type.
                    let known = self.statics.iter().find(|((st, m), _)| {
                        m == field
                            && self
                                .structs
                                .get(st)
                                .is_some_and(|t| t.size == ety.size && t.fields == ety.fields)
                    });
                    if let Some((_, v)) = known {
                        return Ok((Expr::Int(*v), Wrap::Signed(32)));
                    }
                    return self.unsupported(node, format!("the field `{field}`"));
                };
                let args = vec![Expr::Local(slot), Expr::Int(*offset), Expr::Int(*bytes)];
                return Ok((Expr::Call(Func::Component, args), *wrap));
            }
            if let (Some(arg), Some(field)) = (arg, field)
                && arg.kind() == "call_expression"
                && let Some(f) = arg.child_by_field_name("function")
            {
                let f = self.text(f);
                let base = if f.ends_with("group_index") {
                    Some(3)
                } else if f.ends_with("thread_index") {
                    Some(0)
                } else if f.ends_with("dim_threads") || f.ends_with("group_dim") {
                    Some(6)
                } else if f.ends_with("dim_blocks") {
                    Some(9)
                } else {
                    None
                };
                let k = match field {
                    "x" => Some(0),
                    "y" => Some(1),
                    "z" => Some(2),
                    _ => None,
                };
                if let (Some(base), Some(k)) = (base, k) {
                    return Ok((Expr::Builtin(base + k), Wrap::Unsigned(32)));
                }
            }
            let site = self.site(node)?;
            (Expr::Load(site), self.site_wraps[site])
        })
    }

    #[inline(never)]
    fn ex_subscript_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        if let Some((slot, wrap, place)) = self.local_element(node)? {
            let value = match place {
                Some((at, elements)) => Expr::Call(
                    Func::LocalAt,
                    vec![Expr::Local(slot), at, Expr::Int(elements)],
                ),
                None => Expr::Call(Func::Opaque, vec![Expr::Local(slot)]),
            };
            return Ok((value, wrap));
        }
        if let Some(read) = self.constant_element(node)? {
            return Ok(read);
        }
        let site = self.site(node)?;
        Ok((Expr::Load(site), self.site_wraps[site]))
    }

    #[inline(never)]
    fn ex_unary_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        const INT: Wrap = Wrap::Signed(32);
        Ok({
            let (Some(op), Some(arg)) = (
                node.child_by_field_name("operator"),
                node.child_by_field_name("argument"),
            ) else {
                return self.unsupported(node, "this expression");
            };
            let (a, w) = self.expr_t(arg)?;
            let p = promote(w);
            let a = conv(a, w, p);
            match self.text(op) {
                "-" => (
                    wrapped(p, BinOp::Sub, Expr::Unary(UnOp::Neg, Box::new(a))),
                    p,
                ),
                "!" => (Expr::Unary(UnOp::Not, Box::new(a)), INT),
                "~" => {
                    let e = Expr::Unary(UnOp::BitNot, Box::new(a));
                    match p {
                        // `~` of an unsigned value stays in its range only once wrapped.
                        Wrap::Unsigned(b) if b < 64 => (Expr::Cast(p, Box::new(e)), p),
                        _ => (e, p),
                    }
                }
                "+" => (a, p),
                other => return self.unsupported(op, format!("the operator `{other}`")),
            }
        })
    }

    #[inline(never)]
    fn ex_binary_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        Ok({
            let (Some(l), Some(op), Some(r)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("operator"),
                node.child_by_field_name("right"),
            ) else {
                return self.unsupported(node, "this expression");
            };
            let Some(o) = bin_op(self.text(op)) else {
                return self.unsupported(op, format!("the operator `{}`", self.text(op)));
            };
            // `mean != nullptr` of an array the kernel is given: an array is never null here.
            if matches!(o, BinOp::Eq | BinOp::Ne) {
                let null = |cx: &Self, n: Node| {
                    matches!(cx.text(strip_parens(n)).trim(), "nullptr" | "NULL" | "0")
                };
                let array = |cx: &Self, n: Node| {
                    let n = strip_parens(n);
                    n.kind() == "identifier"
                        && matches!(
                            cx.lookup(cx.text(n)),
                            Some(Binding::Pointer(_) | Binding::Alias(..) | Binding::Shared(..))
                        )
                };
                if (array(self, l) && null(self, r)) || (null(self, l) && array(self, r)) {
                    return Ok((Expr::Int(i64::from(o == BinOp::Ne)), Wrap::Signed(32)));
                }
            }
            let (a, wa) = self.expr_t(l)?;
            let (b, wb) = self.expr_t(r)?;
            binary_typed(o, a, wa, b, wb)
        })
    }

    #[inline(never)]
    fn ex_conditional_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        Ok({
            let (Some(c), Some(a), Some(b)) = (
                node.child_by_field_name("condition"),
                node.child_by_field_name("consequence"),
                node.child_by_field_name("alternative"),
            ) else {
                return self.unsupported(node, "this `?:`");
            };
            let c = self.expr(c)?;
            let (a, wa) = self.expr_t(a)?;
            let (b, wb) = self.expr_t(b)?;
            let w = common(wa, wb);
            (
                Expr::Cond(
                    Box::new(c),
                    Box::new(conv(a, wa, w)),
                    Box::new(conv(b, wb, w)),
                ),
                w,
            )
        })
    }

    #[inline(never)]
    fn ex_cast_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        Ok({
            let (Some(ty), Some(v)) = (
                node.child_by_field_name("type"),
                node.child_by_field_name("value"),
            ) else {
                return self.unsupported(node, "this cast");
            };
            let tname = normalize(self.text(ty));
            let Some((_, wrap)) = self.scalar_ty(&tname) else {
                return self.unsupported(ty, format!("a cast to `{tname}`"));
            };
            let (e, from) = self.expr_t(v)?;
            (conv(e, from, wrap), wrap)
        })
    }

    #[inline(never)]
    fn ex_preproc_defined(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        const INT: Wrap = Wrap::Signed(32);
        Ok({
            let mut c = node.walk();
            let name = node
                .named_children(&mut c)
                .find(|n| n.kind() == "identifier")
                .map(|n| self.text(n));
            let d = name.is_some_and(|n| self.defines.contains_key(n));
            (Expr::Int(i64::from(d)), INT)
        })
    }

    #[inline(never)]
    fn ex_pointer_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        let site = self.site(node)?;
        Ok((Expr::Load(site), self.site_wraps[site]))
    }

    /// Where a pointer expression points: the array, how many of its elements past its start
    /// (`A + i`, `&A[i]`, `&tile[r][c]`, `p + 1` of a local pointer), and the element type read when
    /// a cast widened it
    /// (`reinterpret_cast<float4*>(&A[i])` over a `float` array reads 16 bytes at a time; the
    /// offset still counts floats).
    fn pointee_view(&mut self, node: Node) -> Result<(String, Expr, Option<ElemTy>)> {
        let node = strip_parens(node);
        if let Some((ty, value)) = self.pointer_cast(node) {
            let text = normalize(self.text(ty));
            let text = text.trim().trim_end_matches('*').trim();
            let text = text.strip_prefix("const ").unwrap_or(text).to_string();
            // A templated struct's instance (llm.c's `x128`, `Packed128<float>`) is laid out here.
            let Some(target) = self
                .elem_type_text(&text)
                .or_else(|| self.struct_type(&text))
            else {
                return self.unsupported(ty, format!("a cast to a pointer of type `{text}`"));
            };
            let (array, offset, _) = self.pointee_view(value)?;
            let view = self.view_of(node, &array, target)?;
            return Ok((array, offset, view));
        }
        match node.kind() {
            "identifier" => {
                let name = self.text(node).to_string();
                match self.lookup(&name).cloned() {
                    Some(Binding::Pointer(_)) => {
                        let offset = self
                            .ptr_offset
                            .get(&name)
                            .map_or(Expr::Int(0), |&slot| Expr::Local(slot));
                        Ok((name, offset, None))
                    }
                    Some(Binding::Shared(..)) => Ok((name, Expr::Int(0), None)),
                    Some(Binding::Alias(base, slot, view)) => Ok((base, Expr::Local(slot), view)),
                    _ => self.unsupported(
                        node,
                        format!("`{name}` is not a pointer parameter, a __shared__ array or a pointer into one"),
                    ),
                }
            }
            "binary_expression" => {
                let (Some(l), Some(op), Some(r)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("operator"),
                    node.child_by_field_name("right"),
                ) else {
                    return self.unsupported(node, "this pointer expression");
                };
                let op = self.text(op);
                let (ptr, count, minus) = match op {
                    "+" if !self.is_value(l) => (l, r, false),
                    "+" if !self.is_value(r) => (r, l, false),
                    "-" if !self.is_value(l) => (l, r, true),
                    _ => {
                        return self.unsupported(
                            node,
                            format!("the pointer expression `{}`", self.short(node)),
                        );
                    }
                };
                let (base, offset, view) = self.pointee_view(ptr)?;
                let (n, w) = self.expr_t(count)?;
                let mut n = conv(n, w, Wrap::Signed(64));
                if let Some(view) = &view {
                    // `v + k` of a `float4*` over floats moves 4k floats.
                    let size = self.array_elem(&base).map_or(1, |e| e.size.max(1));
                    n = Expr::Binary(
                        BinOp::Mul,
                        Box::new(n),
                        Box::new(Expr::Int(view.size / size)),
                    );
                }
                let op = if minus { BinOp::Sub } else { BinOp::Add };
                Ok((base, Expr::Binary(op, Box::new(offset), Box::new(n)), view))
            }
            "pointer_expression"
                if node.child_by_field_name("operator").map(|o| self.text(o)) == Some("&") =>
            {
                let Some(arg) = node.child_by_field_name("argument").map(strip_parens) else {
                    return self.unsupported(node, "this pointer expression");
                };
                self.element_place(node, arg)
            }
            _ => self.unsupported(
                node,
                format!("the pointer expression `{}`", self.short(node)),
            ),
        }
    }

    /// The place of the element `arg` names (`A[i]`, `tile[r][c]`, flattened): its array, how
    /// many elements past the start, and the type read there; `node` is what errors point at.
    fn element_place(&mut self, node: Node, arg: Node) -> Result<(String, Expr, Option<ElemTy>)> {
        // `&A[i]`, `&tile[r][c]`: the element's place, flattened.
        let (base, index_nodes) = self.subscripts(arg)?;
        if index_nodes.is_empty() {
            return self.unsupported(node, format!("the address `{}`", self.short(node)));
        }
        let (name, mut offset, view) = self.pointee_view(base)?;
        if view.is_some() {
            return self.unsupported(node, "the address of an element of a cast pointer");
        }
        let extents = match self.lookup(&name) {
            Some(Binding::Shared(_, ext))
                if base.kind() == "identifier"
                    && matches!(self.lookup(self.text(base)), Some(Binding::Shared(..))) =>
            {
                ext.clone()
            }
            _ => vec![i64::MAX],
        };
        if index_nodes.len() > extents.len() {
            return self.unsupported(node, format!("`{name}` has {} dimensions", extents.len()));
        }
        let mut stride = 1i64;
        let mut strides = vec![0i64; index_nodes.len()];
        for k in (0..extents.len()).rev() {
            if k < index_nodes.len() {
                strides[k] = stride;
            }
            stride = stride.saturating_mul(extents[k]);
        }
        for (k, idx) in index_nodes.into_iter().enumerate() {
            let (e, w) = self.expr_t(idx)?;
            let e = conv(e, w, Wrap::Signed(64));
            let scaled = if strides[k] == 1 {
                e
            } else {
                Expr::Binary(BinOp::Mul, Box::new(e), Box::new(Expr::Int(strides[k])))
            };
            // `0 + i` is `i`: neighbours `s[2 * t]` and `s[2 * t + 1]` then read as such.
            offset = if offset == Expr::Int(0) {
                scaled
            } else {
                Expr::Binary(BinOp::Add, Box::new(offset), Box::new(scaled))
            };
        }
        Ok((name, offset, None))
    }

    /// `reinterpret_cast<T*>(v)`, `static_cast<T*>(v)`, `const_cast<T*>(v)` or `(T*)v`: the type
    /// node and the value.
    fn pointer_cast<'t>(&self, node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        match node.kind() {
            "call_expression" => {
                let f = node
                    .child_by_field_name("function")
                    .filter(|f| f.kind() == "template_function")?;
                let name = self.text(f.child_by_field_name("name")?);
                if !matches!(name, "reinterpret_cast" | "static_cast" | "const_cast") {
                    return None;
                }
                let descriptor = f.child_by_field_name("arguments")?.named_child(0)?;
                if !self.text(descriptor).contains('*') {
                    return None;
                }
                let ty = descriptor.child_by_field_name("type")?;
                let value = node.child_by_field_name("arguments")?.named_child(0)?;
                Some((ty, value))
            }
            "cast_expression" => {
                let descriptor = node.child_by_field_name("type")?;
                if !self.text(descriptor).contains('*') {
                    return None;
                }
                let ty = descriptor.child_by_field_name("type").unwrap_or(descriptor);
                Some((ty, node.child_by_field_name("value")?))
            }
            _ => None,
        }
    }

    /// Whether a node reads as a plain value (not a pointer).
    fn is_value(&self, node: Node) -> bool {
        let node = strip_parens(node);
        if self.pointer_cast(node).is_some() {
            return false;
        }
        match node.kind() {
            "identifier" => !matches!(
                self.lookup(self.text(node)),
                Some(Binding::Pointer(_) | Binding::Shared(..) | Binding::Alias(..))
            ),
            "pointer_expression" => {
                node.child_by_field_name("operator").map(|o| self.text(o)) == Some("*")
            }
            "binary_expression" => {
                let l = node.child_by_field_name("left");
                let r = node.child_by_field_name("right");
                l.is_none_or(|l| self.is_value(l)) && r.is_none_or(|r| self.is_value(r))
            }
            _ => true,
        }
    }

    /// The element type of an array, by name.
    fn array_elem(&self, name: &str) -> Option<ElemTy> {
        match self.root_array(name)? {
            Binding::Pointer(ety) | Binding::Shared(ety, _) => Some(ety.clone()),
            _ => None,
        }
    }

    /// What a pointer of element type `target` into `array` reads: the array's own elements (no
    /// view), or a whole multiple of them (`float4` over `float`); anything else is refused.
    fn view_of(&self, node: Node, array: &str, target: ElemTy) -> Result<Option<ElemTy>> {
        let size = self.array_elem(array).map_or(0, |e| e.size);
        if target.size == size || size == 0 {
            Ok(None)
        } else if target.size > size && target.size % size == 0 {
            Ok(Some(target))
        } else {
            self.unsupported(
                node,
                format!(
                    "a {}-byte pointer into `{array}`, whose elements are {size} bytes (a reinterpret_cast to a narrower or uneven type)",
                    target.size
                ),
            )
        }
    }

    #[inline(never)]
    fn ex_assignment_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        self.unsupported(node, "an assignment inside an expression")
    }

    #[inline(never)]
    fn ex_sizeof_expression(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        Ok({
            // `sizeof(T)` of a type name reads to the grammar as `sizeof` of a value `(T)`.
            let ty = node
                .child_by_field_name("type")
                .or_else(|| {
                    node.child_by_field_name("value")
                        .map(strip_parens)
                        .filter(|v| v.kind() == "identifier")
                })
                .map(|t| normalize(self.text(t)));
            let size = match ty {
                Some(t) => {
                    let r = self.resolve(&t);
                    self.scalar_ty(&t)
                        .map(|(s, _)| s)
                        .or_else(|| vector(&r).map(|v| v.size))
                        .or_else(|| self.structs.get(&t).map(|s| s.size))
                        .or_else(|| self.structs.get(&r).map(|s| s.size))
                        .or_else(|| self.struct_type(&t).map(|s| s.size))
                }
                None => None,
            };
            match size {
                Some(s) => (Expr::Int(s), Wrap::Unsigned(64)),
                None => return self.unsupported(node, format!("`{}`", self.short(node))),
            }
        })
    }

    /// The cooperative group `node` names: a variable bound to one, `this_thread_block()`,
    /// `this_grid()`, `tiled_partition<N>(…)`.
    /// The group a `sync` call waits for: `block.sync()`, `cg::sync(block)`.
    fn synced_group(&self, call: Node) -> Option<Group> {
        let f = call.child_by_field_name("function")?;
        if f.kind() == "field_expression" {
            return self.group_of(f.child_by_field_name("argument")?);
        }
        self.group_of(call.child_by_field_name("arguments")?.named_child(0)?)
    }

    fn group_of(&self, node: Node) -> Option<Group> {
        let node = strip_parens(node);
        match node.kind() {
            "identifier" => match self.lookup(self.text(node)) {
                Some(Binding::Group(g)) => Some(*g),
                _ => None,
            },
            "call_expression" => {
                let f = node.child_by_field_name("function")?;
                let t = self.text(f);
                if t.ends_with("this_thread_block") {
                    Some(Group::Block)
                } else if t.ends_with("this_grid") {
                    Some(Group::Grid)
                } else if t.contains("tiled_partition") {
                    self.tile_extent(t)
                        .or_else(|| {
                            // `tiled_partition(block, 32)`
                            let list = node.child_by_field_name("arguments")?;
                            let n = list.named_child(1)?;
                            self.constant_named(self.text(n).trim())
                        })
                        // Powers of two up to a block of 1024 (wider than 32: a multi-warp tile).
                        .filter(|n| (1..=1024).contains(n) && n.count_ones() == 1)
                        .map(Group::Tile)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The `N` of `tiled_partition<N>` or `thread_block_tile<N>`: a number, or a template
    /// parameter or `#define` that stands for one.
    fn tile_extent(&self, text: &str) -> Option<i64> {
        tile_size(text).or_else(|| {
            let a = text.find('<')?;
            let b = text[a..].find('>')? + a;
            self.constant_named(text[a + 1..b].trim())
        })
    }

    /// The integer a name stands for: a number, a template parameter bound to one, a `#define`.
    fn constant_named(&self, name: &str) -> Option<i64> {
        if let Ok(n) = name.parse() {
            return Some(n);
        }
        match self.lookup(name) {
            Some(Binding::Value(Expr::Int(n), _)) => Some(*n),
            _ => self
                .defines
                .get(name)
                .and_then(|v| define_value(v).trim().parse().ok()),
        }
    }

    /// A cooperative group's method: `thread_rank()`, `size()`, `meta_group_rank()`, …; `None`
    /// when `f` is not one. Shuffles and votes of a group are opaque values like `__shfl_sync`.
    fn group_call(&mut self, f: Node, name: &str, args: &[Node]) -> Result<Option<(Expr, Wrap)>> {
        const U: Wrap = Wrap::Unsigned(32);
        if f.kind() != "field_expression" {
            return Ok(None);
        }
        let Some(g) = f
            .child_by_field_name("argument")
            .and_then(|a| self.group_of(a))
        else {
            return Ok(None);
        };
        let method = f.child_by_field_name("field").map(|n| self.text(n));
        let name = method.unwrap_or(name);
        let b = |k: u8| Box::new(Expr::Builtin(k));
        let threads = Expr::Binary(
            BinOp::Mul,
            Box::new(Expr::Binary(BinOp::Mul, b(6), b(7))),
            b(8),
        );
        // threadIdx.x + threadIdx.y·blockDim.x + threadIdx.z·blockDim.x·blockDim.y
        let rank = Expr::Binary(
            BinOp::Add,
            Box::new(Expr::Binary(
                BinOp::Add,
                b(0),
                Box::new(Expr::Binary(BinOp::Mul, b(1), b(6))),
            )),
            Box::new(Expr::Binary(
                BinOp::Mul,
                b(2),
                Box::new(Expr::Binary(BinOp::Mul, b(6), b(7))),
            )),
        );
        let block_rank = Expr::Binary(
            BinOp::Add,
            Box::new(Expr::Binary(
                BinOp::Add,
                b(3),
                Box::new(Expr::Binary(BinOp::Mul, b(4), b(9))),
            )),
            Box::new(Expr::Binary(
                BinOp::Mul,
                b(5),
                Box::new(Expr::Binary(BinOp::Mul, b(9), b(10))),
            )),
        );
        let bin = |op, a: Expr, c: Expr| Expr::Binary(op, Box::new(a), Box::new(c));
        let v = match (g, name) {
            (Group::Block, "thread_rank") => rank,
            (Group::Block, "size" | "num_threads") => threads,
            (Group::Tile(n), "thread_rank") => bin(BinOp::Rem, rank, Expr::Int(n)),
            (Group::Tile(n), "size" | "num_threads") => Expr::Int(n),
            (Group::Tile(n), "meta_group_rank") => bin(BinOp::Div, rank, Expr::Int(n)),
            (Group::Tile(n), "meta_group_size") => bin(
                BinOp::Div,
                bin(BinOp::Add, threads, Expr::Int(n - 1)),
                Expr::Int(n),
            ),
            (Group::Grid, "thread_rank") => Expr::Cast(
                Wrap::Unsigned(64),
                Box::new(bin(BinOp::Add, bin(BinOp::Mul, block_rank, threads), rank)),
            ),
            (Group::Grid, "size" | "num_threads") => Expr::Binary(
                BinOp::Mul,
                Box::new(threads),
                Box::new(Expr::Binary(
                    BinOp::Mul,
                    Box::new(Expr::Binary(BinOp::Mul, b(9), b(10))),
                    b(11),
                )),
            ),
            (_, "sync") => Expr::Call(Func::Opaque, Vec::new()),
            (Group::Tile(n), _) if n > 32 => return self.multi_warp(f, name, n),
            _ => {
                // shfl, shfl_down, any, all, ballot…: no memory traffic; the value is unknown.
                let mut typed = Vec::new();
                for a in args {
                    typed.push(self.expr(*a)?);
                }
                return Ok(Some((Expr::Call(Func::Opaque, typed), opaque_type(name))));
            }
        };
        Ok(Some((v, U)))
    }

    /// `name` over a tile wider than a warp: refused, as its values cross warps through shared
    /// memory that the analyser does not count.
    fn multi_warp<T>(&self, node: Node, name: &str, n: i64) -> Result<T> {
        self.unsupported(
            node,
            format!(
                "`{name}` over a tile of {n} threads: a group wider than a warp exchanges values through shared memory (its `block_tile_memory`), which is not counted; a tile's thread_rank, size, meta_group_rank, meta_group_size and sync are followed at any width, its collectives up to 32 threads"
            ),
        )
    }

    /// A call of a `__device__` function the file defines, inlined as nvcc does: its parameters
    /// bound to the arguments (a pointer to what the argument points at, a group to the group, a
    /// value to a fresh local), its body lowered into the statements run before the caller's
    /// statement, and the value it returns read from a local.
    fn inline_call(
        &mut self,
        node: Node,
        name: &str,
        (start, end): (usize, usize),
        args: &[Node],
        targs: &[Node],
    ) -> Result<(Expr, Wrap)> {
        if self.inline.len() >= 8 {
            return self.unsupported(
                node,
                format!("__device__ calls nested more than 8 deep (`{name}`: recursion?)"),
            );
        }
        // The function parsed again from a copy of the file blank outside it: the same bytes,
        // lines and columns, so its nodes read from the file's text.
        let blanked: Vec<u8> = self
            .fsrc
            .bytes()
            .enumerate()
            .map(|(i, b)| {
                if (start..end).contains(&i) || b == b'\n' {
                    b
                } else {
                    b' '
                }
            })
            .collect();
        let blanked = String::from_utf8(blanked).unwrap_or_default();
        let tree = parse_tree(&blanked, self.file)?;
        let mut f = tree.root_node().descendant_for_byte_range(start, end);
        while let Some(n) =
            f.filter(|n| !matches!(n.kind(), "function_definition" | "template_declaration"))
        {
            f = n.parent();
        }
        let mut tparams = None;
        if let Some(t) = f.filter(|n| n.kind() == "template_declaration") {
            tparams = t.child_by_field_name("parameters");
            let mut c = t.walk();
            f = t
                .named_children(&mut c)
                .find(|n| n.kind() == "function_definition");
        }
        let Some(f) = f else {
            return self.unsupported(node, format!("the __device__ function `{name}`"));
        };
        let mut decl = f.child_by_field_name("declarator");
        while let Some(d) = decl.filter(|d| d.kind() != "function_declarator") {
            decl = d.child_by_field_name("declarator");
        }
        let (Some(fdecl), Some(body)) = (decl, f.child_by_field_name("body")) else {
            return self.unsupported(node, format!("the __device__ function `{name}`"));
        };
        let params: Vec<Node> = fdecl
            .child_by_field_name("parameters")
            .map(|list| {
                let mut c = list.walk();
                list.named_children(&mut c)
                    .filter(|p| {
                        matches!(
                            p.kind(),
                            "parameter_declaration" | "optional_parameter_declaration"
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let required = params
            .iter()
            .filter(|p| p.kind() == "parameter_declaration")
            .count();
        if args.len() < required || args.len() > params.len() {
            return self.unsupported(
                node,
                format!(
                    "calling `{name}` with {} arguments (it takes {})",
                    args.len(),
                    if required == params.len() {
                        required.to_string()
                    } else {
                        format!("{required} to {}", params.len())
                    }
                ),
            );
        }
        // Template parameters: values from the call's `<…>` (or their defaults), types from it or
        // deduced from the arguments; a type is bound for the call only.
        let mut bound = Vec::new();
        let mut saved_types = Vec::new();
        if let Some(tp) = tparams {
            let r =
                self.template_call(tp, name, targs, &params, args, &mut bound, &mut saved_types);
            if let Err(e) = r {
                self.restore_types(saved_types);
                return Err(e);
            }
        }
        let r = self.inline_body(node, name, f, body, &params, args, bound);
        self.restore_types(saved_types);
        r
    }

    /// A parameter of the function being inlined: its declarator and its type's name.
    fn param_parts<'t>(&self, param: Node<'t>) -> Result<(Node<'t>, String)> {
        let (Some(ty), Some(d)) = (
            param.child_by_field_name("type"),
            param.child_by_field_name("declarator"),
        ) else {
            return self.unsupported(param, format!("the parameter `{}`", self.fshort(param)));
        };
        Ok((d, normalize(self.ftext(ty))))
    }

    fn restore_types(&mut self, saved: Vec<(String, Option<String>)>) {
        for (n, old) in saved.into_iter().rev() {
            match old {
                Some(t) => self.typedefs.insert(n, t),
                None => self.typedefs.remove(&n),
            };
        }
    }

    /// Binds a templated `__device__` function's parameters for one call: `targs` are the
    /// arguments written in its `<…>`, read in the caller's scope.
    #[allow(clippy::too_many_arguments)]
    fn template_call(
        &mut self,
        tparams: Node,
        name: &str,
        targs: &[Node],
        params: &[Node],
        args: &[Node],
        bound: &mut Vec<(String, Binding)>,
        saved: &mut Vec<(String, Option<String>)>,
    ) -> Result<()> {
        let mut cursor = tparams.walk();
        let list: Vec<Node> = tparams
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .collect();
        for (k, p) in list.iter().enumerate() {
            let given = targs.get(k).copied();
            match p.kind() {
                "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                    let Some(pname) = p
                        .child_by_field_name("name")
                        .or_else(|| {
                            let mut c = p.walk();
                            p.named_children(&mut c)
                                .find(|n| n.kind() == "type_identifier")
                        })
                        .map(|n| self.ftext(n).to_string())
                    else {
                        return self.unsupported(
                            *p,
                            format!("the template parameter `{}`", self.fshort(*p)),
                        );
                    };
                    let ty = match given {
                        Some(g) => Some(self.resolve(&normalize(self.text(g)))),
                        None => self.deduce_type(&pname, params, args).or_else(|| {
                            p.child_by_field_name("default_type")
                                .map(|d| normalize(self.ftext(d)))
                        }),
                    };
                    let Some(ty) = ty else {
                        return self.unsupported(
                            *p,
                            format!(
                                "the template parameter `{pname}` of `{name}` (give it in the call: `{name}<…>(…)`)"
                            ),
                        );
                    };
                    let old = self.typedefs.insert(pname.clone(), ty);
                    saved.push((pname, old));
                }
                "parameter_declaration" | "optional_parameter_declaration" => {
                    let (Some(ty), Some(d)) = (
                        p.child_by_field_name("type"),
                        p.child_by_field_name("declarator"),
                    ) else {
                        return self.unsupported(
                            *p,
                            format!("the template parameter `{}`", self.fshort(*p)),
                        );
                    };
                    let pname = self.ftext(d).to_string();
                    // `template <reduction_func_t f>` given a function: calls of `f` call it.
                    if let Some(g) = given {
                        let mut fname = self.text(g).trim().to_string();
                        if let Some(Binding::Function(f)) = self.lookup(&fname) {
                            fname = f.clone();
                        }
                        if self.device_defs.contains_key(&fname) {
                            bound.push((pname, Binding::Function(fname)));
                            continue;
                        }
                    }
                    let wrap = self
                        .scalar_ty(&normalize(self.ftext(ty)))
                        .map_or(Wrap::Signed(32), |(_, w)| w);
                    let e = match given {
                        // `f<BM>(…)`: C++ reads a lone name in `<…>` as a type; here a value.
                        Some(g) if g.kind() == "type_descriptor" => {
                            let text = self.text(g).trim().to_string();
                            match self.lookup(&text).cloned() {
                                Some(Binding::Value(e, _)) => e,
                                _ => match self.defines.get(&text).cloned() {
                                    Some(v) => self.define_expr(&v, g)?.0,
                                    None => {
                                        return self.unsupported(
                                            g,
                                            format!("the template argument `{text}` (a constant)"),
                                        );
                                    }
                                },
                            }
                        }
                        Some(g) => self.expr(g)?,
                        None => match p.child_by_field_name("default_value") {
                            Some(dv) => self.in_fsrc(|cx| cx.expr(dv))?,
                            None => {
                                return self.unsupported(
                                    *p,
                                    format!(
                                        "the template parameter `{pname}` of `{name}` (give it in the call: `{name}<…>(…)`)"
                                    ),
                                );
                            }
                        },
                    };
                    let Some(v) = const_eval(&e) else {
                        let (at, text) = match given {
                            Some(g) => (g, self.short(g)),
                            None => (*p, self.fshort(*p)),
                        };
                        return self.unsupported(
                            at,
                            format!("the template argument `{text}` (a constant)"),
                        );
                    };
                    bound.push((pname, Binding::Value(Expr::Int(wrap_const(v, wrap)), wrap)));
                }
                _ => {
                    return self
                        .unsupported(*p, format!("the template parameter `{}`", self.fshort(*p)));
                }
            }
        }
        Ok(())
    }

    /// The type a call's arguments give the template type parameter `t`: from a parameter
    /// declared `T x` (the argument's type) or `T* p` (the array's element type).
    fn deduce_type(&mut self, t: &str, params: &[Node], args: &[Node]) -> Option<String> {
        // The arguments are read here only for their types; the call reads them again.
        let first = self.sites.len();
        let found = self.deduce_type_of(t, params, args);
        self.discard_sites_from(first);
        found
    }

    /// A new local holding a pointer's offset into its array, in elements, set by a statement.
    fn offset_local(&mut self, offset: Expr, at: Pos, out: &mut Vec<Stmt>) -> usize {
        let slot = self.locals;
        self.locals += 1;
        out.push(Stmt::SetLocal {
            slot,
            op: None,
            value: offset,
            wrap: Wrap::Signed(64),
            pos: at,
        });
        slot
    }

    /// Forgets the sites made from `first` on (by a look at an expression that is read again).
    fn discard_sites_from(&mut self, first: usize) {
        self.sites.truncate(first);
        self.site_wraps.truncate(first);
        self.site_vector.truncate(first);
    }

    fn deduce_type_of(&mut self, t: &str, params: &[Node], args: &[Node]) -> Option<String> {
        for (param, arg) in params.iter().zip(args) {
            let ty = param.child_by_field_name("type")?;
            if normalize(self.ftext(ty)) != t {
                continue;
            }
            if self.group_of(*arg).is_some() {
                // `Group& g` given a cooperative group: the type only names the group.
                return Some("cooperative_groups::thread_group".to_string());
            }
            let d = param.child_by_field_name("declarator")?;
            if matches!(d.kind(), "pointer_declarator" | "array_declarator") {
                let (array, _, view) = self.pointee_view(*arg).ok()?;
                let e = view.or_else(|| self.array_elem(&array))?;
                if let Some(n) = type_name(e.size, e.wrap).filter(|_| e.fields.is_empty()) {
                    return Some(n.to_string());
                }
                continue;
            }
            let (_, w) = self.expr_t(*arg).ok()?;
            let size = match w {
                Wrap::Signed(b) | Wrap::Unsigned(b) => i64::from(b / 8).max(4),
                Wrap::Float => 4,
            };
            return type_name(size, w).map(str::to_string);
        }
        None
    }

    /// The body of an inlined call, with its parameters bound to the arguments.
    #[allow(clippy::too_many_arguments)]
    fn inline_body(
        &mut self,
        node: Node,
        name: &str,
        f: Node,
        body: Node,
        params: &[Node],
        args: &[Node],
        mut bound: Vec<(String, Binding)>,
    ) -> Result<(Expr, Wrap)> {
        if self.in_loop_head {
            // In a loop's condition or step no statement can run first: a function that only
            // returns an expression of its value parameters (`ceil_div(C, 4)`) is that expression.
            let mut c = body.walk();
            let items: Vec<Node> = body
                .named_children(&mut c)
                .filter(|n| n.kind() != "comment")
                .collect();
            let returned = match items.as_slice() {
                [r] if r.kind() == "return_statement" => r.named_child(0),
                _ => None,
            };
            let Some(returned) = returned else {
                return self.unsupported(
                    node,
                    format!(
                        "calling the __device__ function `{name}` in a loop's condition or step (only one that returns an expression can be)"
                    ),
                );
            };
            for (param, arg) in params.iter().zip(args) {
                let (d, tname) = self.param_parts(*param)?;
                let Some((_, wrap)) = self.scalar_ty(&tname).filter(|_| d.kind() == "identifier")
                else {
                    return self.unsupported(
                        node,
                        format!(
                            "calling the __device__ function `{name}` in a loop's condition or step (only with value parameters)"
                        ),
                    );
                };
                let (e, from) = self.expr_t(*arg)?;
                bound.push((
                    self.ftext(d).to_string(),
                    Binding::Value(conv(e, from, wrap), wrap),
                ));
            }
            self.scopes.push(bound.into_iter().collect());
            let r = self.in_fsrc(|cx| cx.expr_t(returned));
            self.scopes.pop();
            return r;
        }
        let returns_text = f
            .child_by_field_name("type")
            .map(|t| normalize(self.ftext(t)))
            .unwrap_or_default();
        let returns_text = returns_text
            .trim_start_matches("static ")
            .trim_start_matches("inline ")
            .to_string();
        let returned_whole = self
            .struct_type(&returns_text)
            .or_else(|| vector(&self.resolve(&returns_text)))
            .or_else(|| self.structs.get(&self.resolve(&returns_text)).cloned());
        let result = if returns_text == "void" {
            None
        } else if let Some(e) = returned_whole {
            // `Packed128<T> load128(const T* p)`: a value loadable whole, not followed.
            let slot = self.locals;
            self.locals += 1;
            Some((slot, e.wrap))
        } else {
            let Some((_, wrap)) = self.scalar_ty(&returns_text) else {
                return self.unsupported(
                    node,
                    format!("`{name}` returns a `{returns_text}` (only scalars are followed)"),
                );
            };
            let slot = self.locals;
            self.locals += 1;
            Some((slot, wrap))
        };
        let done = self.locals;
        self.locals += 1;
        let mut stmts = vec![Stmt::SetLocal {
            slot: done,
            op: None,
            value: Expr::Int(0),
            wrap: Wrap::Signed(32),
            pos: self.pos(node),
        }];
        // The arguments are read in the caller's scope, then bound in the function's.
        for (param, arg) in params.iter().zip(args) {
            let (d, tname) = self.param_parts(*param)?;
            let pointer = matches!(d.kind(), "pointer_declarator" | "array_declarator");
            let ident = {
                let mut n = d;
                while n.kind() != "identifier" {
                    let inner = n.child_by_field_name("declarator").or_else(|| {
                        let mut c = n.walk();
                        n.named_children(&mut c).find(|k| k.kind() == "identifier")
                    });
                    match inner {
                        Some(inner) => n = inner,
                        None => break,
                    }
                }
                n
            };
            // `Group& g` of a cooperative group: the group itself (a reference changes nothing).
            if d.kind() == "reference_declarator"
                && ident.kind() == "identifier"
                && let Some(g) = self.group_of(*arg)
            {
                bound.push((self.ftext(ident).to_string(), Binding::Group(g)));
                continue;
            }
            // `const float4& v`: a value the function only reads, as if passed by value.
            let const_ref = d.kind() == "reference_declarator"
                && self
                    .ftext(*param)
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|w| w == "const");
            // `float& result` bound to a local of the caller: the function's writes are the
            // caller's (the same register).
            if d.kind() == "reference_declarator" && !const_ref && ident.kind() == "identifier" {
                let arg = strip_parens(*arg);
                let local = (arg.kind() == "identifier")
                    .then(|| self.lookup(self.text(arg)).cloned())
                    .flatten()
                    .filter(|b| {
                        matches!(
                            b,
                            Binding::Local(..) | Binding::LocalVector(..) | Binding::LocalArray(..)
                        )
                    });
                if let Some(b) = local {
                    bound.push((self.ftext(ident).to_string(), b));
                    continue;
                }
                if arg.kind() == "subscript_expression" {
                    // The element's place is read in the caller's scope, once.
                    let (array, offset, view) = self.element_place(arg, arg)?;
                    if view.is_none() {
                        // Its indices as written when they read no memory (so that `s[2 * t]`
                        // and `s[2 * t + 1]` are seen as neighbours), else kept in a local.
                        let place = if has_load(&offset) {
                            let slot = self.locals;
                            self.locals += 1;
                            stmts.push(Stmt::SetLocal {
                                slot,
                                op: None,
                                value: offset,
                                wrap: Wrap::Signed(64),
                                pos: self.pos(arg),
                            });
                            Expr::Local(slot)
                        } else {
                            offset
                        };
                        bound.push((self.ftext(ident).to_string(), Binding::Ref(array, place)));
                        continue;
                    }
                }
                return self.unsupported(
                    *param,
                    format!(
                        "the parameter `{}` of `{name}` bound to `{}` (a reference is read when it names a local of the caller or an array element)",
                        self.fshort(*param),
                        self.short(arg)
                    ),
                );
            }
            if ident.kind() != "identifier" || (d.kind() == "reference_declarator" && !const_ref) {
                return self.unsupported(
                    *param,
                    format!(
                        "the parameter `{}` of `{name}` (references are not read)",
                        self.fshort(*param)
                    ),
                );
            }
            let pname = self.ftext(ident).to_string();
            if self
                .ftext(*param)
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == "volatile")
            {
                self.volatile_names.insert(pname.clone());
            }
            let local_array = match self.lookup(self.text(strip_parens(*arg))) {
                Some(Binding::LocalArray(slot, wrap)) if pointer => Some((*slot, *wrap)),
                _ => None,
            };
            if let Some(g) = self.group_of(*arg) {
                bound.push((pname, Binding::Group(g)));
            } else if let Some((slot, wrap)) = local_array {
                // `float regM[8]` passed as `float* regM`: the same registers.
                bound.push((pname, Binding::LocalArray(slot, wrap)));
            } else if pointer {
                let (array, offset, view) = self.pointee_view(*arg)?;
                let declared = self.elem_type_text(&tname);
                let view = match declared {
                    Some(e) => self.view_of(*arg, &array, e)?,
                    None => view,
                };
                let slot = self.locals;
                self.locals += 1;
                stmts.push(Stmt::SetLocal {
                    slot,
                    op: None,
                    value: offset,
                    wrap: Wrap::Signed(64),
                    pos: self.pos(*arg),
                });
                bound.push((pname, Binding::Alias(array, slot, view)));
            } else if let Some(ety) = self
                .struct_type(&tname)
                .or_else(|| vector(&self.resolve(&tname)))
                .or_else(|| self.structs.get(&self.resolve(&tname)).cloned())
            {
                // A vector or packed struct passed by value: one slot, its value not followed;
                // `{ x[i], 1.0f }` builds one from its fields.
                let value = if arg.kind() == "initializer_list" {
                    self.opaque_list(*arg)?
                } else {
                    Expr::Call(Func::Opaque, vec![self.expr(*arg)?])
                };
                let slot = self.locals;
                self.locals += 1;
                stmts.push(Stmt::SetLocal {
                    slot,
                    op: None,
                    value,
                    wrap: Wrap::Float,
                    pos: self.pos(*arg),
                });
                bound.push((pname, Binding::LocalVector(slot, ety)));
            } else {
                let Some((_, wrap)) = self.scalar_ty(&tname) else {
                    return self
                        .unsupported(*param, format!("a parameter of type `{tname}` of `{name}`"));
                };
                let (e, from) = self.expr_t(*arg)?;
                let slot = self.locals;
                self.locals += 1;
                stmts.push(Stmt::SetLocal {
                    slot,
                    op: None,
                    value: conv(e, from, wrap),
                    wrap,
                    pos: self.pos(*arg),
                });
                bound.push((pname, Binding::Local(slot, wrap)));
            }
        }
        // Parameters the call leaves out take their default values, read in the function's text.
        for param in &params[args.len().min(params.len())..] {
            let (d, tname) = self.param_parts(*param)?;
            let (Some(value), Some((_, wrap))) = (
                param.child_by_field_name("default_value"),
                self.scalar_ty(&tname).filter(|_| d.kind() == "identifier"),
            ) else {
                return self.unsupported(
                    node,
                    format!(
                        "leaving out `{}` of `{name}` (only a scalar's default is read)",
                        self.fshort(*param)
                    ),
                );
            };
            let (e, from) = self.in_fsrc(|cx| cx.expr_t(value))?;
            let slot = self.locals;
            self.locals += 1;
            stmts.push(Stmt::SetLocal {
                slot,
                op: None,
                value: conv(e, from, wrap),
                wrap,
                pos: self.pos(node),
            });
            bound.push((self.ftext(d).to_string(), Binding::Local(slot, wrap)));
        }
        self.scopes.push(bound.into_iter().collect());
        self.inline.push((result, done));
        // A `return` ends the function, not the caller's block: its flag guards only the rest of
        // the function.
        let mark = self.jumped.len();
        let lowered = self.in_fsrc(|cx| cx.block(body));
        self.jumped.truncate(mark);
        self.inline.pop();
        self.scopes.pop();
        stmts.extend(lowered?);
        self.pending.extend(stmts);
        Ok(match result {
            Some((slot, wrap)) => (Expr::Local(slot), wrap),
            None => (Expr::Int(0), Wrap::Signed(32)),
        })
    }

    /// A call in an expression: `min`/`max`/`__mul24` and friends are evaluated, other functions
    /// the file does not define (math, conversions, shuffles, `make_float2`) are opaque values
    /// whose arguments are still read.
    fn call(&mut self, node: Node) -> Result<(Expr, Wrap)> {
        let Some(fnode) = node.child_by_field_name("function") else {
            return self.unsupported(node, "this call");
        };
        let f = self.text(fnode).trim().to_string();
        let bare = f.split('<').next().unwrap_or(&f).trim();
        let mut name = bare.rsplit("::").next().unwrap_or(bare).trim().to_string();
        if let Some(Binding::Function(target)) = self.lookup(&name) {
            name = target.clone();
        }
        let targs = template_arguments(fnode);
        let mut args = Vec::new();
        if let Some(list) = node.child_by_field_name("arguments") {
            let mut cursor = list.walk();
            for a in list.named_children(&mut cursor) {
                if a.kind() != "comment" {
                    args.push(a);
                }
            }
        }
        if fnode.kind() == "identifier"
            && self.lookup(&name).is_none()
            && let Some(def) = self.macros.get(&name).cloned()
        {
            return self.expand_macro(node, &name, def, &args);
        }
        if let Some(v) = self.group_call(fnode, &name, &args)? {
            return Ok(v);
        }
        let overload = self.overloads.get(&name).and_then(|list| {
            list.iter()
                .rev()
                .find(|((lo, hi), ..)| (*lo..=*hi).contains(&args.len()))
                .map(|&(_, i, a, b)| (i, a, b))
        });
        if let Some((index, start, end)) = overload.or_else(|| self.device_defs.get(&name).copied())
        {
            let fsrc = std::mem::replace(&mut self.fsrc, self.sources[index]);
            let findex = std::mem::replace(&mut self.fsrc_index, index);
            let first = (self.sites.len(), self.atomics.len());
            let r = self.inline_call(node, &name, (start, end), &args, &targs);
            self.fsrc = fsrc;
            self.fsrc_index = findex;
            if index == self.src_index {
                return r;
            }
            // A function of another text (a header): its accesses are placed at the call.
            return self.place_at_use(node, first, &format!("in `{name}`, from a header"), r);
        }
        if matches!(
            name.as_str(),
            "__ldg" | "__ldcg" | "__ldca" | "__ldcs" | "__ldlu" | "__ldcv"
        ) && args.len() == 1
        {
            // `__ldg(&a[i])` (or `__ldg(a + i)`): a global load of `a[i]`.
            let arg = strip_parens(args[0]);
            if arg.kind() == "pointer_expression"
                && arg.child_by_field_name("operator").map(|o| self.text(o)) == Some("&")
                && let Some(inner) = arg.child_by_field_name("argument")
            {
                let inner = strip_parens(inner);
                if matches!(inner.kind(), "subscript_expression" | "field_expression") {
                    let site = self.site(inner)?;
                    return Ok((Expr::Load(site), self.site_wraps[site]));
                }
            }
            // `__ldcs(x + c)`: a pointer into an array.
            let (array, offset, view) = self.pointee_view(arg)?;
            let site = self.flat_site(node, array, offset, None, view)?;
            return Ok((Expr::Load(site), self.site_wraps[site]));
        }
        if matches!(name.as_str(), "__stcs" | "__stcg" | "__stwb" | "__stwt") && args.len() == 2 {
            // `__stcs(&a[i], v)` or `__stcs(a + i, v)`: a global store with a cache hint.
            let (target, value) = (strip_parens(args[0]), args[1]);
            let (value, _) = self.expr_t(value)?;
            let site = match target.kind() {
                "pointer_expression"
                    if target.child_by_field_name("operator").map(|o| self.text(o))
                        == Some("&") =>
                {
                    match target.child_by_field_name("argument").map(strip_parens) {
                        Some(inner) => self.site(inner)?,
                        None => return self.unsupported(target, "this store"),
                    }
                }
                _ => {
                    let (array, offset, view) = self.pointee_view(target)?;
                    self.flat_site(node, array, offset, None, view)?
                }
            };
            self.pending.push(Stmt::Store {
                site,
                op: None,
                value,
                pos: self.pos(node),
            });
            return Ok((Expr::Int(0), Wrap::Signed(32)));
        }
        if name.starts_with("atomic") && !args.is_empty() {
            // `atomicAdd(&a[i], v)`: Nsight Compute counts atomics apart from loads and stores
            // (op_atom, op_red), so they add nothing to these counts; the target must still be an
            // element of an array the kernel knows, and the other arguments are read.
            let target = strip_parens(args[0]);
            let mut element = None;
            let ok = if target.kind() == "pointer_expression"
                && target.child_by_field_name("operator").map(|o| self.text(o)) == Some("&")
            {
                // `&a[i]`: the element, for the interpreter. Its site is taken out of the
                // counted ones; the loads its index makes stay (they are made).
                let first = self.sites.len();
                match target
                    .child_by_field_name("argument")
                    .map(|a| self.site(strip_parens(a)))
                {
                    Some(Ok(k)) if k + 1 == self.sites.len() && k >= first => {
                        self.site_wraps.pop();
                        self.site_vector.pop();
                        element = self.sites.pop();
                    }
                    _ => self.discard_sites_from(first),
                }
                true
            } else {
                // `p`, `p + i`: the element the pointer points at, taken out as above.
                let first = self.sites.len();
                let element_site = self.pointee_view(target).and_then(|(base, offset, view)| {
                    self.flat_site(target, base, offset, None, view)
                });
                match element_site {
                    Ok(k) if k + 1 == self.sites.len() && k >= first => {
                        self.site_wraps.pop();
                        self.site_vector.pop();
                        element = self.sites.pop();
                        true
                    }
                    Ok(_) => {
                        self.discard_sites_from(first);
                        true
                    }
                    Err(_) => {
                        self.discard_sites_from(first);
                        false
                    }
                }
            };
            if !ok {
                return self.unsupported(
                    target,
                    format!("the target of `{name}` (write &array[index] or a pointer into one)"),
                );
            }
            let number = self.atomic_targets.len() as i64;
            let mut values = vec![Expr::Int(number)];
            let target = element.and_then(|site| {
                let kind = AtomicKind::of(&name)?;
                values.extend(site.indices.iter().cloned());
                Some(AtomicTarget {
                    kind,
                    indices: site.indices.len(),
                    site,
                })
            });
            self.atomic_targets.push(target);
            // Numbered as the targets are, whatever atomics its arguments call.
            let text = self.short(node);
            self.atomics.push((self.pos(node), text));
            let mut wraps = Vec::new();
            for a in &args[1..] {
                let (e, w) = self.expr_t(*a)?;
                values.push(e);
                wraps.push(w);
            }
            // The old value it returns has the type of the value it adds or swaps in.
            let wrap = match wraps.first() {
                Some(w) if name.contains("Add") || name.contains("Exch") => *w,
                _ => Wrap::Signed(32),
            };
            return Ok((Expr::Call(Func::Atomic, values), wrap));
        }
        let mut typed = Vec::new();
        for a in &args {
            let a = strip_parens(*a);
            match self.group_of(a) {
                Some(Group::Tile(n)) if n > 32 => return self.multi_warp(node, &name, n),
                // `cg::reduce(tile, v, …)`: the group says who takes part, not a value.
                Some(_) => continue,
                None => {}
            }
            if a.kind() == "identifier"
                && self.lookup(self.text(a)).is_none()
                && (self.device_defs.contains_key(self.text(a))
                    || self.overloads.contains_key(self.text(a)))
            {
                // `cg::reduce(warp, v, reduce_sum_max_op)`: the function says what is done, as
                // `cg::plus<float>()` does; it is not a value.
                continue;
            }
            if a.kind() == "identifier"
                && matches!(
                    self.lookup(self.text(a)),
                    Some(Binding::Pointer(..)) | Some(Binding::Shared(..))
                )
            {
                return self.unsupported(
                    node,
                    format!("passing the array `{}` to `{name}`", self.text(a)),
                );
            }
            if a.kind() == "pointer_expression" {
                return self.unsupported(node, format!("passing a pointer to `{name}`"));
            }
            typed.push(self.expr_t(a)?);
        }
        let pure = typed.iter().all(|(e, _)| !has_load(e));
        match (name.as_str(), typed.len()) {
            (
                "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax" | "fminf"
                | "fmaxf" | "fmin" | "fmax",
                2,
            ) if pure => {
                let mut it = typed.into_iter();
                let ((a, wa), (b, wb)) = match (it.next(), it.next()) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return self.unsupported(node, "this call"),
                };
                let w = common(wa, wb);
                let (a, b) = (conv(a, wa, w), conv(b, wb, w));
                let op = if name.contains("min") {
                    BinOp::Lt
                } else {
                    BinOp::Gt
                };
                let c = Expr::Binary(op, Box::new(a.clone()), Box::new(b.clone()));
                return Ok((Expr::Cond(Box::new(c), Box::new(a), Box::new(b)), w));
            }
            ("abs" | "llabs" | "fabsf" | "fabs", 1) if pure => {
                let (a, w) = typed.remove(0);
                let p = promote(w);
                let a = conv(a, w, p);
                let c = Expr::Binary(BinOp::Lt, Box::new(a.clone()), Box::new(Expr::Int(0)));
                let neg = wrapped(p, BinOp::Sub, Expr::Unary(UnOp::Neg, Box::new(a.clone())));
                return Ok((Expr::Cond(Box::new(c), Box::new(neg), Box::new(a)), p));
            }
            ("__mul24" | "__umul24", 2) => {
                let w = if name == "__umul24" {
                    Wrap::Unsigned(32)
                } else {
                    Wrap::Signed(32)
                };
                let mut it = typed.into_iter();
                let ((a, wa), (b, wb)) = match (it.next(), it.next()) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return self.unsupported(node, "this call"),
                };
                let e = Expr::Binary(
                    BinOp::Mul,
                    Box::new(conv(a, wa, w)),
                    Box::new(conv(b, wb, w)),
                );
                return Ok((wrapped(w, BinOp::Mul, e), w));
            }
            _ => {}
        }
        let wrap = opaque_type(&name);
        Ok((
            Expr::Call(Func::of(&name), typed.into_iter().map(|(e, _)| e).collect()),
            wrap,
        ))
    }

    fn number(&self, node: Node) -> Result<(Expr, Wrap)> {
        let text = self.text(node).replace('\'', "");
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix('-') {
            // The grammar reads `-3` as one literal: the negation of `3`.
            let (e, w) = self.number_text(rest.trim(), &text, node)?;
            return Ok(match e {
                Expr::Int(v) => (Expr::Int(wrap_const(v.wrapping_neg(), w)), w),
                Expr::Float(v) => (Expr::Float(-v), w),
                e => (Expr::Unary(UnOp::Neg, Box::new(e)), w),
            });
        }
        self.number_text(&lower, &text, node)
    }

    fn number_text(&self, lower: &str, text: &str, node: Node) -> Result<(Expr, Wrap)> {
        let lower = lower.to_string();
        let is_hex = lower.starts_with("0x");
        let is_float =
            !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f'));
        if is_float {
            let t = lower.trim_end_matches(['f', 'l']);
            return match t.parse::<f64>() {
                Ok(v) => Ok((Expr::Float(v), Wrap::Float)),
                Err(_) => self.unsupported(node, format!("the number `{text}`")),
            };
        }
        let t = lower.trim_end_matches(['u', 'l']);
        let suffix = &lower[t.len()..];
        let unsigned = suffix.contains('u');
        let long = suffix.contains('l');
        let parsed = if let Some(h) = t.strip_prefix("0x") {
            u64::from_str_radix(h, 16)
        } else if let Some(b) = t.strip_prefix("0b") {
            u64::from_str_radix(b, 2)
        } else if t.len() > 1 && t.starts_with('0') {
            u64::from_str_radix(&t[1..], 8)
        } else {
            t.parse::<u64>()
        };
        let Ok(v) = parsed else {
            return self.unsupported(node, format!("the number `{text}`"));
        };
        // The first type of C's list for the literal that holds its value.
        let decimal = !(is_hex || t.len() > 1 && t.starts_with('0'));
        let ty = if !long && !unsigned && v <= i32::MAX as u64 {
            Wrap::Signed(32)
        } else if !long && (unsigned || !decimal) && v <= u32::MAX as u64 {
            Wrap::Unsigned(32)
        } else if !unsigned && v <= i64::MAX as u64 {
            Wrap::Signed(64)
        } else {
            Wrap::Unsigned(64)
        };
        Ok((Expr::Int(v as i64), ty))
    }
}

/// The value and type of a name CUDA's headers define: `INFINITY`, `FLT_MAX`, `INT_MAX`, ….
fn named_constant(name: &str) -> Option<(Expr, Wrap)> {
    Some(match name {
        "INFINITY" | "HUGE_VALF" | "HUGE_VAL" => (Expr::Float(f64::INFINITY), Wrap::Float),
        "NAN" => (Expr::Float(f64::NAN), Wrap::Float),
        "FLT_MAX" => (Expr::Float(f32::MAX as f64), Wrap::Float),
        "FLT_MIN" => (Expr::Float(f32::MIN_POSITIVE as f64), Wrap::Float),
        "FLT_EPSILON" => (Expr::Float(f32::EPSILON as f64), Wrap::Float),
        "DBL_MAX" => (Expr::Float(f64::MAX), Wrap::Float),
        "M_PI" => (Expr::Float(std::f64::consts::PI), Wrap::Float),
        "INT_MAX" => (Expr::Int(i32::MAX as i64), Wrap::Signed(32)),
        "INT_MIN" => (Expr::Int(i32::MIN as i64), Wrap::Signed(32)),
        "UINT_MAX" => (Expr::Int(u32::MAX as i64), Wrap::Unsigned(32)),
        "warpSize" => (Expr::Int(32), Wrap::Signed(32)),
        "NULL" | "nullptr" => (Expr::Int(0), Wrap::Signed(32)),
        _ => return None,
    })
}

/// `cg::thread_block_tile<32> warp = …;` → `("warp", 32)`.
fn tile_declaration(text: &str) -> Option<(String, i64)> {
    let t = text.trim();
    let k = t.find("thread_block_tile<")?;
    let head = &t[..k];
    if !head
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == ':' || c.is_whitespace())
    {
        return None;
    }
    let n = tile_size(&t[k..])?;
    let after = &t[k + t[k..].find('>')? + 1..];
    let name: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some((name, n))
}

/// `N` in `…<N>…`.
fn tile_size(text: &str) -> Option<i64> {
    let a = text.find('<')?;
    let b = text[a..].find('>')? + a;
    text[a + 1..b].trim().parse().ok()
}

/// The type an opaque function gives back (its value is unknown; the type keeps C's conversions).
fn opaque_type(name: &str) -> Wrap {
    match name {
        "__popc" | "__clz" | "__ffs" | "__float2int_rn" | "__float2int_rz" | "__float2int_rd"
        | "__float2int_ru" | "__float_as_int" | "__double2int_rn" | "__any_sync" | "__all_sync"
        | "__shfl_sync_int" => Wrap::Signed(32),
        "__ballot_sync" | "__activemask" | "__float_as_uint" | "__float2uint_rn" | "__brev"
        | "__lanemask_lt" => Wrap::Unsigned(32),
        _ => Wrap::Float,
    }
}

/// Identifiers the code under `node` assigns to or steps (`x = …`, `x += …`, `x++`).
fn assigned_names(node: Node, src: &str, out: &mut std::collections::HashSet<String>) {
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.child_by_field_name("argument"),
            _ => None,
        };
        if let Some(t) = target.map(strip_parens)
            && t.kind() == "identifier"
        {
            out.insert(src[t.byte_range()].to_string());
        }
        for c in n.named_children(&mut cursor) {
            stack.push(c);
        }
        if stack.len() > 1 << 20 {
            break;
        }
    }
}

/// The loads of `e`, in the order they run.
fn collect_loads(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Load(s) => out.push(*s),
        Expr::Unary(_, a) | Expr::Cast(_, a) => collect_loads(a, out),
        Expr::Binary(_, a, b) => {
            collect_loads(a, out);
            collect_loads(b, out);
        }
        Expr::Cond(c, a, b) => {
            collect_loads(c, out);
            collect_loads(a, out);
            collect_loads(b, out);
        }
        Expr::Call(_, args) => args.iter().for_each(|a| collect_loads(a, out)),
        _ => {}
    }
}

/// `text` on one line, cut to 40 characters.
fn shorten(text: &str) -> String {
    let t: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > 40 {
        format!("{}…", t.chars().take(40).collect::<String>())
    } else {
        t
    }
}

/// The name an access is written through: `sdata` of `sdata[tid]`, `p` of `*(p + 1)`.
pub(super) fn written_base(text: &str) -> String {
    text.trim_start_matches(['*', '(', ' '])
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("")
        .to_string()
}

fn text_of<'s>(src: &'s str, node: Node) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The loads `e` makes on every lane that evaluates it, in order (not those in one arm of `?:`,
/// nor the right of `&&` and `||`).
fn collect_unconditional_loads(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Load(s) => out.push(*s),
        Expr::Unary(_, a) | Expr::Cast(_, a) => collect_unconditional_loads(a, out),
        Expr::Binary(BinOp::LAnd | BinOp::LOr, a, _) => collect_unconditional_loads(a, out),
        Expr::Binary(_, a, b) => {
            collect_unconditional_loads(a, out);
            collect_unconditional_loads(b, out);
        }
        Expr::Cond(c, _, _) => collect_unconditional_loads(c, out),
        Expr::Call(_, args) => args
            .iter()
            .for_each(|a| collect_unconditional_loads(a, out)),
        _ => {}
    }
}

/// `e` with the loads of `dead` sites made unknown values that count nothing (read with another).
fn drop_loads(e: &mut Expr, dead: &[usize]) {
    match e {
        Expr::Load(s) if dead.contains(s) => *e = Expr::Call(Func::Opaque, Vec::new()),
        Expr::Unary(_, a) | Expr::Cast(_, a) => drop_loads(a, dead),
        Expr::Binary(_, a, b) => {
            drop_loads(a, dead);
            drop_loads(b, dead);
        }
        Expr::Cond(c, a, b) => {
            drop_loads(c, dead);
            drop_loads(a, dead);
            drop_loads(b, dead);
        }
        Expr::Call(_, args) => args.iter_mut().for_each(|a| drop_loads(a, dead)),
        _ => {}
    }
}

/// Whether `e` reads memory.
fn has_load(e: &Expr) -> bool {
    match e {
        Expr::Load(_) => true,
        Expr::Unary(_, a) | Expr::Cast(_, a) => has_load(a),
        Expr::Binary(_, a, b) => has_load(a) || has_load(b),
        Expr::Cond(c, a, b) => has_load(c) || has_load(a) || has_load(b),
        Expr::Call(_, args) => args.iter().any(has_load),
        _ => false,
    }
}

/// `a op b` with C's conversions: both operands brought to their common type, the result wrapped in
/// it (`threadIdx.x - 8` is unsigned and wraps; `a < b` compares in the common type).
fn binary_typed(o: BinOp, a: Expr, wa: Wrap, b: Expr, wb: Wrap) -> (Expr, Wrap) {
    match o {
        BinOp::Shl | BinOp::Shr => {
            let p = promote(wa);
            let a = conv(a, wa, p);
            (wrapped(p, o, Expr::Binary(o, Box::new(a), Box::new(b))), p)
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
            let w = common(wa, wb);
            (
                Expr::Binary(o, Box::new(conv(a, wa, w)), Box::new(conv(b, wb, w))),
                Wrap::Signed(32),
            )
        }
        BinOp::LAnd | BinOp::LOr => (Expr::Binary(o, Box::new(a), Box::new(b)), Wrap::Signed(32)),
        _ => {
            let w = common(wa, wb);
            let e = Expr::Binary(o, Box::new(conv(a, wa, w)), Box::new(conv(b, wb, w)));
            (wrapped(w, o, e), w)
        }
    }
}

/// A loop's condition and step once flags can stop it: the condition also asks that none is set,
/// and the step runs only where none is.
fn stopped(
    cond: Option<Expr>,
    step: Vec<Stmt>,
    stop: &[usize],
    at: Pos,
) -> (Option<Expr>, Vec<Stmt>) {
    if stop.is_empty() {
        return (cond, step);
    }
    let go = not_set(stop);
    let cond = match cond {
        Some(c) => Expr::Binary(BinOp::LAnd, Box::new(go.clone()), Box::new(c)),
        None => go.clone(),
    };
    let step = if step.is_empty() {
        step
    } else {
        vec![Stmt::If {
            cond: go,
            then: step,
            otherwise: Vec::new(),
            pos: at,
        }]
    };
    (Some(cond), step)
}

/// `f1 == 0 && f2 == 0 && …` over flag locals.
fn not_set(flags: &[usize]) -> Expr {
    let zero = |f: usize| Expr::Binary(BinOp::Eq, Box::new(Expr::Local(f)), Box::new(Expr::Int(0)));
    let mut flags = flags.iter().copied();
    let first = flags.next().map_or(Expr::Int(1), zero);
    flags.fold(first, |acc, f| {
        Expr::Binary(BinOp::LAnd, Box::new(acc), Box::new(zero(f)))
    })
}

fn strip_parens(mut node: Node) -> Node {
    while node.kind() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

fn bin_op(text: &str) -> Option<BinOp> {
    Some(match text {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        "<<" => BinOp::Shl,
        ">>" => BinOp::Shr,
        "&" => BinOp::And,
        "|" => BinOp::Or,
        "^" => BinOp::Xor,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "&&" => BinOp::LAnd,
        "||" => BinOp::LOr,
        _ => return None,
    })
}

/// Evaluates a constant integer expression (sizes of shared arrays).
pub fn const_eval(e: &Expr) -> Option<i64> {
    Some(match e {
        Expr::Int(v) => *v,
        Expr::Cast(Wrap::Float, _) | Expr::Float(_) => return None,
        Expr::Cast(_, inner) => const_eval(inner)?,
        Expr::Unary(op, a) => {
            let a = const_eval(a)?;
            match op {
                UnOp::Neg => a.checked_neg()?,
                UnOp::Not => i64::from(a == 0),
                UnOp::BitNot => !a,
            }
        }
        Expr::Binary(op, a, b) => {
            let (a, b) = (const_eval(a)?, const_eval(b)?);
            match op {
                BinOp::Add => a.checked_add(b)?,
                BinOp::Sub => a.checked_sub(b)?,
                BinOp::Mul => a.checked_mul(b)?,
                BinOp::Div => a.checked_div(b)?,
                BinOp::Rem => a.checked_rem(b)?,
                BinOp::Shl => a.checked_shl(u32::try_from(b).ok()?)?,
                BinOp::Shr => a.checked_shr(u32::try_from(b).ok()?)?,
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
            }
        }
        Expr::Cond(c, a, b) => {
            if const_eval(c)? != 0 {
                const_eval(a)?
            } else {
                const_eval(b)?
            }
        }
        _ => return None,
    })
}

fn round_up(v: i64, align: i64) -> i64 {
    let a = align.max(1);
    (v + a - 1) / a * a
}

/// The identifiers `node` contains, as written.
fn identifiers(node: Node, src: &str, out: &mut Vec<String>) {
    if node.kind() == "identifier" {
        out.push(text_of(src, node).to_string());
        return;
    }
    let mut c = node.walk();
    for child in node.children(&mut c) {
        identifiers(child, src, out);
    }
}

/// Whether `name` is a type or `sizeof`, as a loop head may mention (`sizeof(float)`).
fn type_or_sizeof(name: &str) -> bool {
    scalar(name).is_some() || vector(name).is_some() || name == "sizeof"
}

/// The identifier a declarator declares (`x` of `*x`, `x[4][4]`, `x = 1`), or the innermost node
/// reached when it declares none.
fn declared_name(node: Node) -> Node {
    let mut n = node;
    for _ in 0..16 {
        if n.kind() == "identifier" {
            break;
        }
        match n.child_by_field_name("declarator") {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}
