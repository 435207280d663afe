//! Built-in example kernels, shipped in the binary.

/// `(name, source)` of every built-in example.
pub const EXAMPLES: &[(&str, &str)] = &[("copy", include_str!("../../kernels/copy.cu"))];

/// The example called `name`.
pub fn example(name: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
