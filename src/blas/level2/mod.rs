//! Level 2: matrix-vector routines.

mod blocks64;
pub(crate) mod gemv;
pub(crate) mod ger;
pub(crate) mod symv;
pub(crate) mod syr;
pub(crate) mod syr2;
pub(crate) mod trmv;
pub(crate) mod trsv;
