//! Level 2: matrix-vector routines.

pub(crate) mod gemv;
pub(crate) mod trsv;
