//! What the Level 1 descriptions share: vector cases (the length n, the strides of x and y,
//! alpha), the grid of them and their random space.

use ndarray::Array1;
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::layout::VecRef;
use wgblas::Context;

use super::{pick, Bad, Case, Elem, VecSlot};
use crate::common::{Layout, VLayout, VLAYOUTS};
use crate::oracle_l1::{fallback_ctx, wide64};

pub use super::level2::{random_vec, NETLIB_ALPHA, NETLIB_N};

/// Every (incx, incy) pair of the netlib strides {1, 2, −1, −2}.
pub fn all_pairs() -> Vec<(VLayout, VLayout)> {
    VLAYOUTS
        .iter()
        .flat_map(|&x| VLAYOUTS.iter().map(move |&y| (x, y)))
        .collect()
}

/// The stride pairs of the f64 suite: (1, 1), (2, 1), (1, −1), (−2, 2).
pub const F64_PAIRS: [(VLayout, VLayout); 4] = [
    (VLayout::Unit, VLayout::Unit),
    (VLayout::Step2, VLayout::Unit),
    (VLayout::Unit, VLayout::Reversed),
    (VLayout::ReversedStep2, VLayout::Step2),
];

/// The stored layout of increment `inc` (1, 2, −1 or −2).
pub fn inc(inc: isize) -> VLayout {
    match inc {
        1 => VLayout::Unit,
        2 => VLayout::Step2,
        -1 => VLayout::Reversed,
        -2 => VLayout::ReversedStep2,
        _ => panic!("no stored layout of increment {inc}"),
    }
}

/// A vector case: length `n`, alpha, x and y stored as `lx` and `ly`.
pub fn vcase(seed: u64, n: usize, alpha: f64, lx: VLayout, ly: VLayout) -> Case {
    Case::new(seed, n, n)
        .scalars(alpha, 0.0)
        .layouts(Layout::C, lx, ly)
}

/// Every combination of lengths, alphas and stride pairs; the seed of a case is `seed(n)`.
pub fn vgrid(
    ns: &[usize],
    alphas: &[f64],
    pairs: &[(VLayout, VLayout)],
    seed: impl Fn(usize) -> u64,
) -> Vec<Case> {
    let mut out = Vec::new();
    for &n in ns {
        for &alpha in alphas {
            for &(lx, ly) in pairs {
                out.push(vcase(seed(n), n, alpha, lx, ly));
            }
        }
    }
    out
}

/// Random vector cases: n below `max_n`, alpha in [−2, 2), every stride of x and y.
pub fn vspace(max_n: usize) -> BoxedStrategy<Case> {
    (
        any::<u64>(),
        0..max_n,
        -2.0f32..2.0,
        pick(&VLAYOUTS),
        pick(&VLAYOUTS),
    )
        .prop_map(|(seed, n, alpha, lx, ly)| vcase(seed, n, alpha.into(), lx, ly))
        .boxed()
}

/// Known-bad inputs: x and y of the given lengths, a DimensionMismatch naming y.
pub fn len_mismatch(lens: &[(usize, usize)]) -> Vec<Bad> {
    lens.iter()
        .map(|&(x, y)| Bad::vecs(Case::new(0, x, x), (0, 0), x, y, "DimensionMismatch", "y"))
        .collect()
}

/// The reduction `f` of x on the other f64 path, the forced fallback (`oracle_l1::fallback_ctx`),
/// for f64; None for f32 and in a bench's timed call ([`super::timing::timing`]). A host x is
/// passed as it is stored; a resident x is uploaded to that context first (a vector of another
/// context is an error).
pub fn on_fallback<T: Elem, V>(
    x: &VecSlot<T>,
    f: impl Fn(&Context, VecRef<'_, T>) -> wgblas::Result<V>,
) -> wgblas::Result<Option<V>> {
    if T::P != 'd' || super::timing::timing() {
        return Ok(None);
    }
    let c = fallback_ctx();
    match x {
        VecSlot::Host(_) => f(c, x.r()).map(Some),
        VecSlot::Dev(g) => {
            let g = c.upload_vector(&g.to_array()?)?;
            f(c, (&g).into()).map(Some)
        }
    }
}

/// Random values for a vector case: |v| in [1e-3, 1] with a random sign, or, for f64 where
/// `wide`, 10^e with e in [−300, 300) (`oracle_l1::wide64`).
pub fn values<T: Elem>(r: &mut StdRng, n: usize, wide: bool) -> Array1<T> {
    if wide && T::P == 'd' {
        Array1::from_shape_simple_fn(n, || T::from_f64(wide64(r)))
    } else {
        Array1::from_shape_simple_fn(n, || T::value(r))
    }
}
