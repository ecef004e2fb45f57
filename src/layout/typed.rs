//! The element type of a routine's core: [`Precision`] (f32 or f64, the `s` and `d` routines).
//! The upload whose form depends on it is [`matrix_of`](super::matrix_of); results of every element type are delivered by the one
//! [`finish_in`](super::finish_in).

use super::Element;
use crate::context::Elem;

/// The element types of the BLAS routines' generic cores: `f32` (the `s` routines) and `f64`
/// (the `d` routines, which need `SHADER_F64`). Each shader is compiled for both
/// (`alias T = f32;` or `alias T = f64;`, [`Elem`]).
pub(crate) trait Precision: Element + PartialEq {
    /// The shader instance of this element type.
    const ELEM: Elem;
    /// 0 (the quick returns on `alpha = 0`, `beta = 0`).
    const ZERO: Self;
    /// 1 (the quick returns on `alpha = 1`, `beta = 1`).
    const ONE: Self;
}

impl Precision for f32 {
    const ELEM: Elem = Elem::F32;
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
}

impl Precision for f64 {
    const ELEM: Elem = Elem::F64;
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
}
