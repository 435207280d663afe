//! Reading a kernel with tree-sitter's CUDA grammar into the interpreter's statements.

use super::ast::{BinOp, Expr, Kernel, Pos, Site, Space, Stmt, UnOp, Wrap};
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
    /// `(name, offset, size)` of each field (vector components or struct members).
    fields: Vec<(String, i64, i64)>,
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
    Value(Expr),
}

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
}

fn pos(node: Node) -> Pos {
    let p = node.start_position();
    Pos {
        line: p.row as u32 + 1,
        column: p.column as u32 + 1,
    }
}

fn parse_tree(source: &str, file: &str) -> Result<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .map_err(|e| AnalyzeError::Input(format!("cannot load the CUDA grammar: {e}")))?;
    let tree = parser
        .parse(source, None)
        .ok_or_else(|| AnalyzeError::Input("the parser gave up".into()))?;
    if tree.root_node().has_error() {
        let bad = first_error(tree.root_node()).unwrap_or(tree.root_node());
        let p = pos(bad);
        let text: String = source[bad.byte_range()].chars().take(40).collect();
        return Err(AnalyzeError::Syntax {
            file: file.to_string(),
            line: p.line,
            column: p.column,
            what: if bad.is_missing() {
                format!("missing `{}`", bad.kind())
            } else {
                format!("unexpected `{}`", text.trim())
            },
        });
    }
    Ok(tree)
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
) -> Result<Kernel> {
    let tree = parse_tree(source, file)?;
    let root = tree.root_node();
    let mut cx = Cx {
        src: source,
        file,
        defines: HashMap::new(),
        structs: HashMap::new(),
        scopes: vec![HashMap::new()],
        locals: 0,
        sites: Vec::new(),
        shared_bytes: 0,
        define_depth: 0,
        depth: 0,
    };
    let mut kernels = Vec::new();
    let mut cursor = root.walk();
    for node in root.children(&mut cursor) {
        match node.kind() {
            "preproc_def" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| cx.text(n).to_string())
                    .unwrap_or_default();
                let value = node
                    .child_by_field_name("value")
                    .map(|n| cx.text(n).trim().to_string())
                    .unwrap_or_default();
                cx.defines.insert(name, value);
            }
            "struct_specifier" => cx.struct_def(node, None)?,
            "declaration" | "type_definition" => {
                // `struct S {…};` or `typedef struct {…} S;`
                let ty = node.child_by_field_name("type");
                if let Some(ty) = ty
                    && ty.kind() == "struct_specifier"
                {
                    let alias = if node.kind() == "type_definition" {
                        node.child_by_field_name("declarator")
                            .map(|d| cx.text(d).to_string())
                    } else {
                        None
                    };
                    cx.struct_def(ty, alias)?;
                }
            }
            "function_definition" => {
                if let Some(name) = global_name(node, source) {
                    kernels.push((name, node));
                }
            }
            _ => {}
        }
    }
    for (name, value) in defines {
        cx.defines.insert(name.clone(), value.clone());
    }
    let names: Vec<&str> = kernels.iter().map(|(n, _)| n.as_str()).collect();
    let chosen = match kernel {
        Some(want) => kernels.iter().find(|(n, _)| n == want).ok_or_else(|| {
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
    cx.kernel(chosen.0.clone(), chosen.1)
}

fn scalar(name: &str) -> Option<(i64, Wrap)> {
    Some(match name {
        "char" | "signed char" | "int8_t" => (1, Wrap::Signed(8)),
        "unsigned char" | "uint8_t" | "bool" => (1, Wrap::Unsigned(8)),
        "short" | "signed short" | "short int" | "int16_t" => (2, Wrap::Signed(16)),
        "unsigned short" | "unsigned short int" | "uint16_t" => (2, Wrap::Unsigned(16)),
        "int" | "signed" | "signed int" | "int32_t" => (4, Wrap::Signed(32)),
        "unsigned" | "unsigned int" | "uint32_t" => (4, Wrap::Unsigned(32)),
        "long" | "long long" | "long int" | "long long int" | "int64_t" | "size_t" => {
            (8, Wrap::Signed(64))
        }
        "unsigned long" | "unsigned long long" | "uint64_t" => (8, Wrap::Unsigned(64)),
        "float" => (4, Wrap::Float),
        "double" => (8, Wrap::Float),
        "__half" | "half" => (2, Wrap::Float),
        _ => return None,
    })
}

fn vector(name: &str) -> Option<ElemTy> {
    let last = name.chars().last()?;
    let n = i64::from(last.to_digit(10)?);
    let base = name.strip_suffix(last)?;
    let b = match base {
        "char" | "uchar" => 1,
        "short" | "ushort" => 2,
        "int" | "uint" | "float" => 4,
        "long" | "ulong" | "longlong" | "ulonglong" | "double" => 8,
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
            .map(|k| (names[k as usize].to_string(), k * b, b))
            .collect(),
        whole: true,
    })
}

fn scalar_elem(size: i64) -> ElemTy {
    ElemTy {
        size,
        align: size,
        fields: Vec::new(),
        whole: true,
    }
}

fn normalize(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "const" && *w != "volatile" && *w != "__restrict__")
        .collect::<Vec<_>>()
        .join(" ")
}

impl<'a> Cx<'a> {
    fn text(&self, node: Node) -> &'a str {
        &self.src[node.byte_range()]
    }

    fn unsupported<T>(&self, node: Node, what: impl Into<String>) -> Result<T> {
        let p = pos(node);
        Err(AnalyzeError::Unsupported {
            file: self.file.to_string(),
            line: p.line,
            column: p.column,
            what: what.into(),
        })
    }

    fn short(&self, node: Node) -> String {
        let t: String = self
            .text(node)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if t.chars().count() > 40 {
            format!("{}…", t.chars().take(40).collect::<String>())
        } else {
            t
        }
    }

    fn elem_type(&self, node: Node) -> Result<ElemTy> {
        let name = normalize(self.text(node));
        let name = name.strip_prefix("struct ").unwrap_or(&name).to_string();
        if let Some((size, _)) = scalar(&name) {
            return Ok(scalar_elem(size));
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
                fields.push((self.text(decl).to_string(), offset, ety.size));
                offset += ety.size;
            }
        }
        let size = round_up(offset, align);
        let ty = ElemTy {
            size,
            align,
            fields,
            whole: false,
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
        if let Some(params) = fdecl.child_by_field_name("parameters") {
            let mut cursor = params.walk();
            for param in params.named_children(&mut cursor) {
                self.param(param)?;
            }
        }
        let Some(body) = node.child_by_field_name("body") else {
            return self.unsupported(node, "a kernel without a body");
        };
        let body = self.block(body)?;
        let line = |row: usize| u32::try_from(row + 1).unwrap_or(u32::MAX);
        Ok(Kernel {
            name,
            body,
            sites: self.sites,
            locals: self.locals,
            shared_bytes: self.shared_bytes,
            lines: (
                line(node.start_position().row),
                line(node.end_position().row),
            ),
        })
    }

    fn param(&mut self, param: Node) -> Result<()> {
        if param.kind() == "comment" {
            return Ok(());
        }
        if param.kind() != "parameter_declaration" {
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
                self.bind(&name, Binding::Pointer(ety));
            }
            "identifier" => {
                let name = self.text(decl).to_string();
                let tname = normalize(self.text(ty));
                let Some((_, wrap)) = scalar(&tname) else {
                    return self.unsupported(ty, format!("a parameter of type `{tname}`"));
                };
                if let Some(value) = self.defines.get(&name).cloned() {
                    let e = self.define_expr(&value, decl)?;
                    self.bind(&name, Binding::Value(Expr::Cast(wrap, Box::new(e))));
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
        let result = (|| {
            for child in node.named_children(&mut cursor) {
                self.stmt(child, &mut out)?;
            }
            Ok(())
        })();
        self.scopes.pop();
        result.map(|()| out)
    }

    fn body(&mut self, node: Node) -> Result<Vec<Stmt>> {
        if node.kind() == "compound_statement" {
            self.block(node)
        } else {
            self.scopes.push(HashMap::new());
            let mut out = Vec::new();
            let r = self.stmt(node, &mut out);
            self.scopes.pop();
            r.map(|()| out)
        }
    }

    fn stmt(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        if self.depth > MAX_DEPTH {
            return self.unsupported(node, "code nested this deeply");
        }
        self.depth += 1;
        let r = self.stmt_inner(node, out);
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        match node.kind() {
            "comment" => {}
            // `#pragma unroll` and the like: hints to the compiler, no work of their own.
            "preproc_call"
                if node
                    .child_by_field_name("directive")
                    .is_some_and(|d| self.text(d) == "#pragma") => {}
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
                    pos: pos(cond),
                });
            }
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
                let cond_e = self.expr(cond)?;
                let body = match node.child_by_field_name("body") {
                    Some(b) => self.body(b)?,
                    None => Vec::new(),
                };
                out.push(Stmt::Loop {
                    cond: Some(cond_e),
                    body,
                    step: Vec::new(),
                    pos: pos(cond),
                });
            }
            "return_statement" => {
                if node.named_child_count() > 0 {
                    return self.unsupported(node, "returning a value from a kernel");
                }
                out.push(Stmt::Return);
            }
            "break_statement" | "continue_statement" => {
                return self.unsupported(
                    node,
                    format!("`{}`", self.text(node).trim_end_matches(';').trim()),
                );
            }
            _ => {
                return self.unsupported(node, format!("the statement `{}`", self.short(node)));
            }
        }
        Ok(())
    }

    fn for_stmt(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        if let Some(init) = node.child_by_field_name("initializer") {
            if init.kind() == "declaration" {
                self.declaration(init, out)?;
            } else {
                self.expr_stmt(init, out)?;
            }
        }
        let cond = match node.child_by_field_name("condition") {
            Some(c) => Some(self.expr(c)?),
            None => None,
        };
        let mut step = Vec::new();
        if let Some(update) = node.child_by_field_name("update") {
            self.expr_stmt(update, &mut step)?;
        }
        let body = match node.child_by_field_name("body") {
            Some(b) => self.body(b)?,
            None => Vec::new(),
        };
        out.push(Stmt::Loop {
            cond,
            body,
            step,
            pos: pos(node),
        });
        Ok(())
    }

    fn declaration(&mut self, node: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let mut cursor = node.walk();
        let mut shared = false;
        for child in node.children(&mut cursor) {
            let t = self.text(child);
            if child.kind() == "type_qualifier" && t == "__shared__" {
                shared = true;
            } else if child.kind() == "storage_class_specifier" && t != "register" {
                return self.unsupported(child, format!("`{t}` variables"));
            } else if t == "__shared__" {
                shared = true;
            }
        }
        let Some(ty) = node.child_by_field_name("type") else {
            return self.unsupported(node, "a declaration without a type");
        };
        let mut c2 = node.walk();
        let decls: Vec<Node> = node.children_by_field_name("declarator", &mut c2).collect();
        for decl in decls {
            if shared {
                if decl.kind() != "array_declarator" {
                    return self.unsupported(decl, "a __shared__ variable that is not an array");
                }
                let ety = self.elem_type(ty)?;
                let mut extents = Vec::new();
                let mut d = decl;
                while d.kind() == "array_declarator" {
                    let Some(size) = d.child_by_field_name("size") else {
                        return self.unsupported(d, "a __shared__ array without a static size");
                    };
                    let e = self.expr(size)?;
                    let Some(n) = const_eval(&e).filter(|n| *n > 0 && *n <= 1 << 20) else {
                        return self.unsupported(
                            size,
                            "a __shared__ array size that is not a positive constant",
                        );
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
                self.shared_bytes = round_up(self.shared_bytes, ety.align) + elems * ety.size;
                let name = self.text(d).to_string();
                self.bind(&name, Binding::Shared(ety, extents));
                continue;
            }
            let tname = normalize(self.text(ty));
            let Some((_, wrap)) = scalar(&tname) else {
                return self.unsupported(ty, format!("a local of type `{tname}`"));
            };
            if decl.kind() == "array_declarator" {
                // `float v[K];`: one slot for every element, its value never followed.
                let (Some(inner), Some(size)) = (
                    decl.child_by_field_name("declarator"),
                    decl.child_by_field_name("size"),
                ) else {
                    return self.unsupported(decl, "this local array");
                };
                let e = self.expr(size)?;
                if inner.kind() != "identifier"
                    || const_eval(&e).is_none_or(|n| n <= 0 || n > 1 << 16)
                {
                    return self.unsupported(
                        decl,
                        format!(
                            "the declaration `{}` (a local array needs one constant size)",
                            self.short(decl)
                        ),
                    );
                }
                let slot = self.new_local(self.text(inner), wrap);
                let name = self.text(inner).to_string();
                self.bind(&name, Binding::LocalArray(slot, wrap));
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
            let slot = self.new_local(self.text(name_node), wrap);
            out.push(Stmt::SetLocal {
                slot,
                op: None,
                value,
                wrap,
            });
        }
        Ok(())
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
                let op = match op_text {
                    "=" => None,
                    _ => match bin_op(op_text.trim_end_matches('=')) {
                        Some(o) => Some(o),
                        None => return self.unsupported(op, format!("the operator `{op_text}`")),
                    },
                };
                let value = self.expr(right)?;
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
                if f == "__syncthreads" {
                    out.push(Stmt::Barrier);
                    Ok(())
                } else if matches!(f, "__syncwarp" | "__threadfence_block") {
                    Ok(())
                } else {
                    self.unsupported(node, format!("calls (`{f}`)"))
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
                out.push(Stmt::Eval(e));
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
        if left.kind() == "identifier" {
            return match self.lookup(self.text(left)) {
                Some(Binding::Local(slot, wrap)) => {
                    out.push(Stmt::SetLocal {
                        slot: *slot,
                        op,
                        value,
                        wrap: *wrap,
                    });
                    Ok(())
                }
                _ => self.unsupported(left, format!("assigning to `{}`", self.text(left))),
            };
        }
        if let Some((slot, wrap)) = self.local_element(left)? {
            out.push(Stmt::SetLocal {
                slot,
                op,
                value: Expr::Opaque(Box::new(value)),
                wrap,
            });
            return Ok(());
        }
        if matches!(left.kind(), "subscript_expression" | "field_expression") {
            let site = self.site(left)?;
            out.push(Stmt::Store { site, op, value });
            return Ok(());
        }
        self.unsupported(left, format!("assigning to `{}`", self.short(left)))
    }

    /// `v[i]` of a local array: its slot; `None` for anything else. The index may not read memory.
    fn local_element(&mut self, node: Node) -> Result<Option<(usize, Wrap)>> {
        if node.kind() != "subscript_expression" {
            return Ok(None);
        }
        let Some(base) = node.child_by_field_name("argument").map(strip_parens) else {
            return Ok(None);
        };
        if base.kind() != "identifier" {
            return Ok(None);
        }
        let Some(Binding::LocalArray(slot, wrap)) = self.lookup(self.text(base)).cloned() else {
            return Ok(None);
        };
        if let Some(idx) = node
            .child_by_field_name("indices")
            .and_then(|l| l.named_child(0))
            .or_else(|| node.child_by_field_name("index"))
        {
            let e = self.expr(idx)?;
            let mut loads = Vec::new();
            super::merge::loads_in_expr(&e, &mut loads);
            if !loads.is_empty() {
                return self.unsupported(idx, "a local array indexed by a value read from memory");
            }
        }
        Ok(Some((slot, wrap)))
    }

    fn site(&mut self, node: Node) -> Result<usize> {
        let mut field = None;
        let mut sub = node;
        if node.kind() == "field_expression" {
            let op = node.child_by_field_name("operator").map(|o| self.text(o));
            if op != Some(".") {
                return self.unsupported(node, "`->` (pointer arithmetic)");
            }
            let (Some(arg), Some(f)) = (
                node.child_by_field_name("argument"),
                node.child_by_field_name("field"),
            ) else {
                return self.unsupported(node, "this field access");
            };
            field = Some((self.text(f).to_string(), f));
            sub = strip_parens(arg);
        }
        let mut index_nodes = Vec::new();
        let mut base = sub;
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
        if base.kind() != "identifier" || index_nodes.is_empty() {
            return self.unsupported(
                node,
                format!("the access `{}` (only array[index])", self.short(node)),
            );
        }
        let name = self.text(base).to_string();
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
        let (field_offset, access_bytes) = match &field {
            Some((f, fnode)) => match ety.fields.iter().find(|(n, _, _)| n == f) {
                Some((_, off, size)) => (*off, *size),
                None => return self.unsupported(*fnode, format!("the field `{f}`")),
            },
            None => {
                if !ety.whole {
                    return self
                        .unsupported(node, "reading or writing a whole struct (name a field)");
                }
                (0, ety.size)
            }
        };
        if ![1, 2, 4, 8, 16].contains(&access_bytes) {
            return self.unsupported(
                node,
                format!("a {access_bytes}-byte access (1, 2, 4, 8 or 16 bytes)"),
            );
        }
        let mut indices = Vec::new();
        for idx in index_nodes {
            indices.push(self.expr(idx)?);
        }
        self.sites.push(Site {
            space,
            array: name,
            indices,
            strides,
            extents,
            elem_bytes: ety.size,
            field_offset,
            access_bytes: access_bytes as u32,
            pos: pos(node),
            text: self.short(node),
        });
        Ok(self.sites.len() - 1)
    }

    fn define_expr(&mut self, text: &str, at: Node) -> Result<Expr> {
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
        let inner = Cx {
            src: &snippet,
            file: self.file,
            defines: std::mem::take(&mut self.defines),
            structs: HashMap::new(),
            scopes: vec![HashMap::new()],
            locals: 0,
            sites: Vec::new(),
            shared_bytes: 0,
            define_depth: self.define_depth + 1,
            depth: self.depth,
        };
        let mut inner = inner;
        let r = inner.expr(value);
        self.defines = std::mem::take(&mut inner.defines);
        match r {
            Ok(e) if inner.sites.is_empty() => Ok(e),
            _ => self.unsupported(
                at,
                format!("the #define value `{text}` (a constant expression)"),
            ),
        }
    }

    fn expr(&mut self, node: Node) -> Result<Expr> {
        if self.depth > MAX_DEPTH {
            return self.unsupported(node, "code nested this deeply");
        }
        self.depth += 1;
        let r = self.expr_inner(node);
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self, node: Node) -> Result<Expr> {
        Ok(match node.kind() {
            "number_literal" => self.number(node)?,
            "true" => Expr::Int(1),
            "false" => Expr::Int(0),
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.expr(inner)?,
                None => return self.unsupported(node, "empty parentheses"),
            },
            "identifier" => {
                let name = self.text(node);
                match self.lookup(name) {
                    Some(Binding::Local(slot, _)) => Expr::Local(*slot),
                    Some(Binding::Value(e)) => e.clone(),
                    Some(Binding::Pointer(..))
                    | Some(Binding::Shared(..))
                    | Some(Binding::LocalArray(..)) => {
                        return self.unsupported(
                            node,
                            format!("using the array `{name}` without an index"),
                        );
                    }
                    None => {
                        if let Some(text) = self.defines.get(name).cloned() {
                            self.define_depth += 1;
                            let e = self.define_expr(&text, node);
                            self.define_depth -= 1;
                            e?
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
            "field_expression" => {
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
                        return Ok(Expr::Builtin(base + k));
                    }
                }
                Expr::Load(self.site(node)?)
            }
            "subscript_expression" => match self.local_element(node)? {
                Some((slot, _)) => Expr::Opaque(Box::new(Expr::Local(slot))),
                None => Expr::Load(self.site(node)?),
            },
            "unary_expression" => {
                let (Some(op), Some(arg)) = (
                    node.child_by_field_name("operator"),
                    node.child_by_field_name("argument"),
                ) else {
                    return self.unsupported(node, "this expression");
                };
                let a = self.expr(arg)?;
                match self.text(op) {
                    "-" => Expr::Unary(UnOp::Neg, Box::new(a)),
                    "!" => Expr::Unary(UnOp::Not, Box::new(a)),
                    "~" => Expr::Unary(UnOp::BitNot, Box::new(a)),
                    "+" => a,
                    other => return self.unsupported(op, format!("the operator `{other}`")),
                }
            }
            "binary_expression" => {
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
                let a = self.expr(l)?;
                let b = self.expr(r)?;
                Expr::Binary(o, Box::new(a), Box::new(b))
            }
            "conditional_expression" => {
                let (Some(c), Some(a), Some(b)) = (
                    node.child_by_field_name("condition"),
                    node.child_by_field_name("consequence"),
                    node.child_by_field_name("alternative"),
                ) else {
                    return self.unsupported(node, "this `?:`");
                };
                Expr::Cond(
                    Box::new(self.expr(c)?),
                    Box::new(self.expr(a)?),
                    Box::new(self.expr(b)?),
                )
            }
            "cast_expression" => {
                let (Some(ty), Some(v)) = (
                    node.child_by_field_name("type"),
                    node.child_by_field_name("value"),
                ) else {
                    return self.unsupported(node, "this cast");
                };
                let tname = normalize(self.text(ty));
                let Some((_, wrap)) = scalar(&tname) else {
                    return self.unsupported(ty, format!("a cast to `{tname}`"));
                };
                Expr::Cast(wrap, Box::new(self.expr(v)?))
            }
            "call_expression" => {
                let f = node
                    .child_by_field_name("function")
                    .map(|f| self.text(f))
                    .unwrap_or("");
                return self.unsupported(node, format!("calls (`{f}`)"));
            }
            "pointer_expression" => {
                return self.unsupported(node, "pointer arithmetic (`*` or `&`; use array[index])");
            }
            "assignment_expression" | "update_expression" => {
                return self.unsupported(node, "an assignment inside an expression");
            }
            other => {
                return self.unsupported(node, format!("`{}` ({other})", self.short(node)));
            }
        })
    }

    fn number(&self, node: Node) -> Result<Expr> {
        let text = self.text(node).replace('\'', "");
        let lower = text.to_ascii_lowercase();
        let is_hex = lower.starts_with("0x");
        let is_float =
            !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f'));
        if is_float {
            let t = lower.trim_end_matches(['f', 'l']);
            return match t.parse::<f64>() {
                Ok(v) => Ok(Expr::Float(v)),
                Err(_) => self.unsupported(node, format!("the number `{text}`")),
            };
        }
        let t = lower.trim_end_matches(['u', 'l']);
        let parsed = if let Some(h) = t.strip_prefix("0x") {
            i64::from_str_radix(h, 16)
        } else if let Some(b) = t.strip_prefix("0b") {
            i64::from_str_radix(b, 2)
        } else if t.len() > 1 && t.starts_with('0') {
            i64::from_str_radix(&t[1..], 8)
        } else {
            t.parse::<i64>()
        };
        match parsed {
            Ok(v) => Ok(Expr::Int(v)),
            Err(_) => self.unsupported(node, format!("the number `{text}`")),
        }
    }
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
