//! Built-in example kernels, shipped in the binary (sources in `kernels/`).

/// `(name, source)` of every built-in example; each source starts with its `// launch:` line and an
/// `// about:` line.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("copy", include_str!("../../../kernels/copy.cu")),
    ("strided", include_str!("../../../kernels/strided.cu")),
    ("misaligned", include_str!("../../../kernels/misaligned.cu")),
    ("aos", include_str!("../../../kernels/aos.cu")),
    ("soa", include_str!("../../../kernels/soa.cu")),
    ("row_major", include_str!("../../../kernels/row_major.cu")),
    (
        "column_major",
        include_str!("../../../kernels/column_major.cu"),
    ),
    (
        "transpose_naive",
        include_str!("../../../kernels/transpose_naive.cu"),
    ),
    (
        "transpose_tiled32",
        include_str!("../../../kernels/transpose_tiled32.cu"),
    ),
    (
        "transpose_tiled33",
        include_str!("../../../kernels/transpose_tiled33.cu"),
    ),
    (
        "matmul_naive",
        include_str!("../../../kernels/matmul_naive.cu"),
    ),
    (
        "matmul_tiled",
        include_str!("../../../kernels/matmul_tiled.cu"),
    ),
    (
        "reduce_interleaved",
        include_str!("../../../kernels/reduce_interleaved.cu"),
    ),
    (
        "reduce_strided_index",
        include_str!("../../../kernels/reduce_strided_index.cu"),
    ),
    (
        "reduce_sequential",
        include_str!("../../../kernels/reduce_sequential.cu"),
    ),
];

/// The example called `name`.
pub fn example(name: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
