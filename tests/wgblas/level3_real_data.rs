//! Level 3 on real matrices (SuiteSparse, `data/`): `bcsstk01`·`bcsstk01` (48×48 SPD stiffness
//! matrix) with sgemm and ssymm, and ssyrk of the densified `1138_bus` (1138×1138 power-network
//! admittance matrix, k = 1138), each against OpenBLAS with the DESIGN.md §2 forward factor.

use std::time::Instant;

use ndarray::Array2;
use wgblas::blas;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;

use crate::common::*;
use crate::describe::Elem;
use crate::level3_common::*;

#[path = "../../examples/support/mtx.rs"]
mod mtx;

/// A matrix of `data/`, from the crate root, or from the working directory (the GPU bundle).
fn load(name: &str) -> Array2<f32> {
    let root = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let path = if std::path::Path::new(&root).exists() {
        root
    } else {
        format!("data/{name}")
    };
    mtx::read_dense(&path)
        .unwrap_or_else(|e| panic!("{e}"))
        .mapv(|v| v as f32)
}

#[test]
fn bcsstk01_squared_sgemm_and_ssymm() {
    let a = load("bcsstk01.mtx");
    assert_eq!(a.dim(), (48, 48));
    let (no, zero) = (Transpose::No, Array2::<f32>::zeros((48, 48)));
    let reference = oracle::sgemm(no, no, 1.0, a.view(), a.view(), 0.0, zero.view());
    let bound = bounds::gemm(no, no, 1.0, a.view(), a.view(), 0.0, zero.view());
    for layout in [Layout::C, Layout::F] {
        let sa = Mat::new(&a, layout);
        let mut c = Mat::new(&Array2::from_elem((48, 48), f32::NAN), layout);
        blas::sgemm(ctx(), no, no, 1.0, sa.view(), sa.view(), 0.0, c.view_mut()).unwrap();
        let f = metrics::forward_factor(&c.to_owned(), &reference, &bound).unwrap();
        println!("bcsstk01² sgemm {layout:?}: forward factor {f:.3e}");
        crate::describe::passes("sgemm", f, &format!("bcsstk01² {layout:?}"));
    }
    // ssymm: A from its lower triangle only (the upper one NaN), B = A.
    let lower = Array2::from_shape_fn((48, 48), |(i, j)| if i >= j { a[[i, j]] } else { f32::NAN });
    let mut reference = zero.clone();
    f32::o_symm(Side::Left, Uplo::Lower, 1.0, &a, &a, 0.0, &mut reference);
    let bound = bounds::symm(
        Side::Left,
        Uplo::Lower,
        1.0,
        lower.view(),
        a.view(),
        0.0,
        zero.view(),
    );
    for side in SIDES {
        for layout in [Layout::C, Layout::F] {
            let sl = Mat::new(&lower, layout);
            let mut c = Mat::new(&Array2::from_elem((48, 48), f32::NAN), layout);
            blas::ssymm(
                ctx(),
                side,
                Uplo::Lower,
                1.0,
                sl.view(),
                a.view(),
                0.0,
                c.view_mut(),
            )
            .unwrap();
            let f = metrics::forward_factor(&c.to_owned(), &reference, &bound).unwrap();
            println!("bcsstk01² ssymm {side:?} {layout:?}: forward factor {f:.3e}");
            crate::describe::passes("ssymm", f, &format!("bcsstk01² {side:?} {layout:?}"));
        }
    }
}

#[test]
fn ssyrk_of_1138_bus() {
    let a = load("1138_bus.mtx");
    let n = a.nrows();
    assert_eq!(a.dim(), (1138, 1138));
    let c = Array2::from_elem((n, n), f32::NAN);
    let mut got = c.clone();
    let t = Instant::now();
    blas::ssyrk(
        ctx(),
        Uplo::Lower,
        Transpose::No,
        1.0,
        a.view(),
        0.0,
        got.view_mut(),
    )
    .unwrap();
    let elapsed = t.elapsed();
    let mut tri = Array2::<f32>::zeros((n, n));
    f32::o_syrk(Uplo::Lower, Transpose::No, 1.0, &a, 0.0, &mut tri);
    let reference = merge_triangle(Uplo::Lower, &tri, &c);
    let bound = bounds::syrk(Uplo::Lower, Transpose::No, 1.0, a.view(), 0.0, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    println!(
        "ssyrk 1138_bus·1138_busᵀ (n = k = 1138): {elapsed:.2?} on the GPU, forward factor {f:.3e}"
    );
    crate::describe::passes("ssyrk", f, "1138_bus");
    assert!(
        other_triangle_unchanged(Uplo::Lower, &c, &got),
        "upper triangle touched"
    );
}
