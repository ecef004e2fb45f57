//! Level 3: matrix-matrix routines.

pub(crate) mod gemm;
