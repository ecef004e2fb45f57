//! What the Level 1 descriptions share: vector cases (the length n, the strides of x and y,
//! alpha), the grid of them and their random space.

use proptest::prelude::*;

use super::{pick, Bad, Case};
use crate::common::{Layout, VLayout, VLAYOUTS};

pub use super::level2::{random_vec, NETLIB_ALPHA, NETLIB_N};

/// Every (incx, incy) pair of the netlib strides {1, 2, −1, −2}.
pub fn all_pairs() -> Vec<(VLayout, VLayout)> {
    VLAYOUTS
        .iter()
        .flat_map(|&x| VLAYOUTS.iter().map(move |&y| (x, y)))
        .collect()
}

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
        .map(|&(x, y)| Bad {
            case: Case::new(0, x, x),
            a: (0, 0),
            x,
            y,
            b: (0, 0),
            c: (0, 0),
            error: "DimensionMismatch",
            arg: "y",
        })
        .collect()
}
