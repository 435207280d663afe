//! Arithmetic over an exercise's parameters and engine results: `sectors * 32`, `ceil(n / tile)`,
//! `if(intensity < ridge, 1, 0)`. Every value is an `f64`; comparisons give 1 or 0.
//!
//! Grammar (lowest precedence first): `||`, `&&`, comparisons (`< <= > >= == !=`), `+ -`, `* / %`,
//! unary `- !`, `^` (right-associative), then numbers, names, `f(args)` and parentheses.
//! Functions: `min max` (any number of arguments), `ceil floor round abs sqrt log2 log10 pow gcd
//! clamp if`.
//!
//! Nothing here can crash on hostile text: every operation's result is checked to be finite, and
//! nesting (brackets, `^` chains, function arguments) is limited to [`MAX_DEPTH`] levels.

use std::collections::BTreeMap;
use thiserror::Error;

/// Why an expression could not be evaluated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExprError {
    /// Malformed text; `at` is a character index into the expression.
    #[error("cannot read `{expr}` at character {at}: {message}")]
    Syntax {
        /// The expression.
        expr: String,
        /// Character index of the problem.
        at: usize,
        /// What was expected.
        message: String,
    },
    /// A name that is neither a parameter nor a computed value.
    #[error("`{0}` is not a parameter or value of this exercise")]
    UnknownName(String),
    /// A function that does not exist or got the wrong number of arguments.
    #[error("{0}")]
    BadCall(String),
    /// The result is infinite or not a number (division by zero, overflow).
    #[error("`{0}` does not give a finite number (division by zero?)")]
    NotFinite(String),
    /// Brackets, `^` chains or function calls nested deeper than [`MAX_DEPTH`].
    #[error("`{expr}` is nested more than {limit} levels deep; write it more simply")]
    TooDeep {
        /// The expression (cut to its first 60 characters).
        expr: String,
        /// The limit.
        limit: usize,
    },
}

/// How deeply brackets, `^` chains and function calls may nest (far more than any formula needs;
/// the limit keeps hostile text from exhausting the stack).
pub const MAX_DEPTH: usize = 64;

/// Names an expression may use.
pub type Vars = BTreeMap<String, f64>;

/// Evaluates `text` with the given variables.
///
/// ```
/// use warpdrill_core::ladder::expr::{eval, Vars};
/// let vars = Vars::from([("n".to_string(), 1024.0), ("tile".to_string(), 16.0)]);
/// assert_eq!(eval("ceil(n / tile) ^ 2", &vars), Ok(4096.0));
/// ```
pub fn eval(text: &str, vars: &Vars) -> Result<f64, ExprError> {
    let mut parser = Parser {
        text,
        chars: text.char_indices().collect(),
        pos: 0,
        depth: 0,
        vars,
    };
    let value = parser.or()?;
    parser.skip_ws();
    if parser.pos < parser.chars.len() {
        return Err(parser.error("unexpected text"));
    }
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ExprError::NotFinite(text.to_string()))
    }
}

/// Names an expression refers to (variables, not functions): for validation.
pub fn names(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut names = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if chars.get(j) != Some(&'(') {
                names.push(name);
            }
        } else if c.is_ascii_digit() || c == '.' {
            // Skip a number, including an exponent such as 1e9.
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    names
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
    depth: usize,
    vars: &'a Vars,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> ExprError {
        ExprError::Syntax {
            expr: self.text.to_string(),
            at: self.pos,
            message: message.to_string(),
        }
    }

    /// `value` if it is finite, else the error that names the whole expression.
    fn finite(&self, value: f64) -> Result<f64, ExprError> {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(ExprError::NotFinite(self.text.to_string()))
        }
    }

    /// Runs `parse` one nesting level deeper, refusing past [`MAX_DEPTH`].
    fn nested(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<f64, ExprError>,
    ) -> Result<f64, ExprError> {
        if self.depth >= MAX_DEPTH {
            return Err(ExprError::TooDeep {
                expr: self.text.chars().take(60).collect(),
                limit: MAX_DEPTH,
            });
        }
        self.depth += 1;
        let value = parse(self);
        self.depth -= 1;
        value
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|&(_, c)| c)
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_ws();
        let rest: String = self.chars[self.pos..]
            .iter()
            .take(token.len())
            .map(|&(_, c)| c)
            .collect();
        if rest == token {
            // `<` must not eat the start of `<=`; callers try longer tokens first.
            self.pos += token.chars().count();
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<f64, ExprError> {
        let mut left = self.and()?;
        while self.eat("||") {
            let right = self.and()?;
            left = truth(left != 0.0 || right != 0.0);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<f64, ExprError> {
        let mut left = self.comparison()?;
        while self.eat("&&") {
            let right = self.comparison()?;
            left = truth(left != 0.0 && right != 0.0);
        }
        Ok(left)
    }

    fn comparison(&mut self) -> Result<f64, ExprError> {
        let left = self.sum()?;
        for (token, test) in [
            ("<=", (|a, b| a <= b) as fn(f64, f64) -> bool),
            (">=", |a, b| a >= b),
            ("==", |a, b| {
                (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
            }),
            ("!=", |a, b| {
                (a - b).abs() > 1e-9 * a.abs().max(b.abs()).max(1.0)
            }),
            ("<", |a, b| a < b),
            (">", |a, b| a > b),
        ] {
            if self.eat(token) {
                let right = self.sum()?;
                return Ok(truth(test(left, right)));
            }
        }
        Ok(left)
    }

    fn sum(&mut self) -> Result<f64, ExprError> {
        let mut left = self.product()?;
        loop {
            if self.eat("+") {
                let right = self.product()?;
                left = self.finite(left + right)?;
            } else if self.eat("-") {
                let right = self.product()?;
                left = self.finite(left - right)?;
            } else {
                return Ok(left);
            }
        }
    }

    fn product(&mut self) -> Result<f64, ExprError> {
        let mut left = self.unary()?;
        loop {
            if self.eat("*") {
                let right = self.unary()?;
                left = self.finite(left * right)?;
            } else if self.eat("/") {
                let right = self.unary()?;
                left = self.finite(left / right)?;
            } else if self.eat("%") {
                let right = self.unary()?;
                left = self.finite(left.rem_euclid(right))?;
            } else {
                return Ok(left);
            }
        }
    }

    /// Prefix `-` and `!`, read in a loop (a long chain of them costs no stack), applied innermost first.
    fn unary(&mut self) -> Result<f64, ExprError> {
        let mut prefixes = Vec::new();
        loop {
            if self.eat("-") {
                prefixes.push('-');
            } else if self.eat("!") {
                prefixes.push('!');
            } else {
                break;
            }
        }
        let mut value = self.power()?;
        for prefix in prefixes.into_iter().rev() {
            value = if prefix == '-' {
                -value
            } else {
                truth(value == 0.0)
            };
        }
        Ok(value)
    }

    fn power(&mut self) -> Result<f64, ExprError> {
        let base = self.atom()?;
        if self.eat("^") {
            let exponent = self.nested(Self::unary)?;
            return self.finite(base.powf(exponent));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<f64, ExprError> {
        self.skip_ws();
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                let value = self.nested(Self::or)?;
                if !self.eat(")") {
                    return Err(self.error("expected `)`"));
                }
                Ok(value)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.pos += 1;
                }
                let name: String = self.chars[start..self.pos]
                    .iter()
                    .map(|&(_, c)| c)
                    .collect();
                if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            args.push(self.nested(Self::or)?);
                            if self.eat(")") {
                                break;
                            }
                            if !self.eat(",") {
                                return Err(self.error("expected `,` or `)`"));
                            }
                        }
                    }
                    {
                        let value = call(&name, &args)?;
                        self.finite(value)
                    }
                } else {
                    self.vars
                        .get(&name)
                        .copied()
                        .ok_or(ExprError::UnknownName(name))
                }
            }
            Some(_) => Err(self.error("expected a number, a name or `(`")),
            None => Err(self.error("expression ends too early")),
        }
    }

    fn number(&mut self) -> Result<f64, ExprError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.') {
            self.pos += 1;
        }
        if self.peek().is_some_and(|c| c == 'e' || c == 'E') {
            let save = self.pos;
            self.pos += 1;
            if self.peek().is_some_and(|c| c == '-' || c == '+') {
                self.pos += 1;
            }
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let text: String = self.chars[start..self.pos]
            .iter()
            .map(|&(_, c)| c)
            .collect();
        let value = text.parse().map_err(|_| {
            self.pos = start;
            self.error("not a number")
        })?;
        self.finite(value)
    }
}

fn truth(value: bool) -> f64 {
    if value { 1.0 } else { 0.0 }
}

fn gcd(a: f64, b: f64) -> f64 {
    let (mut a, mut b) = (a.abs().round() as u64, b.abs().round() as u64);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as f64
}

fn call(name: &str, args: &[f64]) -> Result<f64, ExprError> {
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(ExprError::BadCall(format!(
                "{name}() takes {}, got {}",
                crate::format::count(n as u64, "argument"),
                args.len()
            )))
        }
    };
    match name {
        "min" | "max" if !args.is_empty() => {
            Ok(args.iter().copied().fold(
                args[0],
                |a, b| {
                    if name == "min" { a.min(b) } else { a.max(b) }
                },
            ))
        }
        "ceil" => arity(1).map(|_| args[0].ceil()),
        "floor" => arity(1).map(|_| args[0].floor()),
        "round" => arity(1).map(|_| args[0].round()),
        "abs" => arity(1).map(|_| args[0].abs()),
        "sqrt" => arity(1).map(|_| args[0].sqrt()),
        "log2" => arity(1).map(|_| args[0].log2()),
        "log10" => arity(1).map(|_| args[0].log10()),
        "pow" => arity(2).map(|_| args[0].powf(args[1])),
        "gcd" => arity(2).map(|_| gcd(args[0], args[1])),
        "clamp" => {
            arity(3)?;
            let (value, low, high) = (args[0], args[1], args[2]);
            // `f64::clamp` panics on NaN bounds or low > high: refuse both instead.
            if low.is_nan() || high.is_nan() || value.is_nan() || low > high {
                return Err(ExprError::BadCall(format!(
                    "clamp(value, low, high) needs numbers with low ≤ high, got low {low} and high {high}"
                )));
            }
            Ok(value.clamp(low, high))
        }
        "if" => arity(3).map(|_| if args[0] != 0.0 { args[1] } else { args[2] }),
        _ => Err(ExprError::BadCall(format!(
            "unknown function {name}() (min, max, ceil, floor, round, abs, sqrt, log2, log10, pow, gcd, clamp, if)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars::from([
            ("a".into(), 6.0),
            ("b".into(), 4.0),
            ("sectors".into(), 5.0),
        ])
    }

    #[test]
    fn arithmetic_precedence_and_functions() {
        let v = vars();
        for (text, want) in [
            ("1 + 2 * 3", 7.0),
            ("(1 + 2) * 3", 9.0),
            ("2 ^ 3 ^ 2", 512.0),
            ("-2 ^ 2", -4.0),
            ("a / b", 1.5),
            ("a % b", 2.0),
            ("sectors * 32", 160.0),
            ("ceil(a / b)", 2.0),
            ("min(a, b, 3)", 3.0),
            ("gcd(33, 32)", 1.0),
            ("gcd(64, 32)", 32.0),
            ("if(a > b, 10, 20)", 10.0),
            ("a >= 6 && b < 4", 0.0),
            ("a == 6 || 0", 1.0),
            ("!0", 1.0),
            ("1.07e9 / 1e9", 1.07),
            ("log2(1024)", 10.0),
        ] {
            assert_eq!(eval(text, &v), Ok(want), "{text}");
        }
    }

    #[test]
    fn errors_are_specific() {
        let v = vars();
        assert_eq!(eval("c + 1", &v), Err(ExprError::UnknownName("c".into())));
        assert!(matches!(eval("1 +", &v), Err(ExprError::Syntax { .. })));
        assert!(matches!(eval("(1", &v), Err(ExprError::Syntax { .. })));
        assert!(matches!(eval("1 / 0", &v), Err(ExprError::NotFinite(_))));
        assert!(matches!(eval("nope(1)", &v), Err(ExprError::BadCall(_))));
        assert!(matches!(eval("ceil(1, 2)", &v), Err(ExprError::BadCall(_))));
        assert!(matches!(eval("1 2", &v), Err(ExprError::Syntax { .. })));
        assert!(matches!(
            eval("clamp(1, 3, 2)", &v),
            Err(ExprError::BadCall(_))
        ));
    }

    #[test]
    fn hostile_expressions_are_errors_not_crashes() {
        let v = vars();
        for text in [
            "clamp(1, 0/0, 0/0)",
            "clamp(0/0, 1, 2)",
            "1e400 - 1e400",
            "(0/0) > 1",
            "1e308 * 10 - 1e308 * 10",
            "0 % 0 == 1",
        ] {
            assert!(eval(text, &v).is_err(), "{text}");
        }
        let deep = format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000));
        assert!(matches!(eval(&deep, &v), Err(ExprError::TooDeep { .. })));
        let calls = format!("{}1{}", "abs(".repeat(20_000), ")".repeat(20_000));
        assert!(matches!(eval(&calls, &v), Err(ExprError::TooDeep { .. })));
        let powers = vec!["1"; 100_000].join("^");
        assert!(matches!(eval(&powers, &v), Err(ExprError::TooDeep { .. })));
        let minus = format!("{}1", "-".repeat(100_000));
        assert_eq!(eval(&minus, &v), Ok(1.0));
        let shallow = format!(
            "{}1{}",
            "(".repeat(MAX_DEPTH - 1),
            ")".repeat(MAX_DEPTH - 1)
        );
        assert_eq!(eval(&shallow, &v), Ok(1.0));
        assert_eq!(eval("clamp(5, 1, 3)", &v), Ok(3.0));
    }

    #[test]
    fn names_lists_variables_not_functions() {
        assert_eq!(
            names("ceil(n / tile) + 1e9 * x_2"),
            vec!["n", "tile", "x_2"]
        );
    }
}
