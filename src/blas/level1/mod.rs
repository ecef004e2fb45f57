//! Level 1: vector-vector routines.

pub(crate) mod axpy;
pub(crate) mod dot;
