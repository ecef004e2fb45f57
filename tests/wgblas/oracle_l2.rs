//! Level 2 test support: the OpenBLAS oracle of sger for the hand tests (CBLAS on a C-order
//! copy), triangle helpers, the condition number of a triangle, and the real matrix `1138_bus`.

pub use crate::describe::level2::in_triangle;
use crate::describe::Elem;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::rngs::StdRng;
use wgblas::{Diag, Uplo};

// Also included by level3_real_data.rs (each test module keeps its own private copy).
#[path = "../../examples/support/mtx.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod mtx;

/// A triangular matrix for strmv/strsv: off-diagonal entries `scale·value()` in triangle `uplo`,
/// diagonal of magnitude in [`diag_lo`, `diag_lo` + 1] (random sign), NaN outside the triangle,
/// and NaN on the diagonal for `Diag::Unit` (which must never read it).
pub fn tri_stored(
    rng: &mut StdRng,
    n: usize,
    uplo: Uplo,
    diag: Diag,
    diag_lo: f32,
    scale: f32,
) -> Array2<f32> {
    let mut a = crate::common::triangle(rng, n, uplo, diag_lo);
    for ((i, j), v) in a.indexed_iter_mut() {
        if i == j && diag == Diag::Unit {
            *v = f32::NAN;
        } else if i != j && in_triangle(uplo, i, j) {
            *v *= scale;
        }
    }
    a
}

/// The triangle `uplo` of `a` with zeros elsewhere and, for `Diag::Unit`, ones on the diagonal
/// (for the oracle and for CPU checks).
pub fn clean_tri(uplo: Uplo, diag: Diag, a: ArrayView2<f32>) -> Array2<f32> {
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        if i == j && diag == Diag::Unit {
            1.0
        } else if in_triangle(uplo, i, j) {
            a[[i, j]]
        } else {
            0.0
        }
    })
}

/// An n×n matrix of zeros in triangle `uplo`, NaN in the other one (a rank update's start).
pub fn zero_triangle(uplo: Uplo, n: usize) -> Array2<f32> {
    Array2::from_shape_fn((n, n), |(i, j)| {
        if in_triangle(uplo, i, j) {
            0.0
        } else {
            f32::NAN
        }
    })
}

/// Bitwise equality (NaN payloads included) of two equally shaped arrays, in logical order.
pub fn same_bits<'a>(
    a: impl IntoIterator<Item = &'a f32>,
    b: impl IntoIterator<Item = &'a f32>,
) -> bool {
    let (a, b): (Vec<u32>, Vec<u32>) = (
        a.into_iter().map(|v| v.to_bits()).collect(),
        b.into_iter().map(|v| v.to_bits()).collect(),
    );
    a == b
}

/// The 1-norm condition number `‖T‖₁·‖T⁻¹‖₁` of the triangle `uplo` of `a` (diagonal 1 for
/// `Unit`), with `T⁻¹` computed column by column by substitution in f64.
pub fn cond1_triangular(uplo: Uplo, diag: Diag, a: ArrayView2<f32>) -> f64 {
    let t = clean_tri(uplo, diag, a).mapv(f64::from);
    let n = t.nrows();
    let norm1 = |m: &Array2<f64>| {
        (0..n)
            .map(|j| m.column(j).iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max)
    };
    let mut inv = Array2::<f64>::zeros((n, n));
    for k in 0..n {
        // Solve T·z = e_k.
        let mut z = Array1::<f64>::zeros(n);
        let order: Vec<usize> = match uplo {
            Uplo::Lower => (0..n).collect(),
            Uplo::Upper => (0..n).rev().collect(),
        };
        for &i in &order {
            let mut s = if i == k { 1.0 } else { 0.0 };
            for j in 0..n {
                if j != i && in_triangle(uplo, i, j) {
                    s -= t[[i, j]] * z[j];
                }
            }
            z[i] = s / t[[i, i]];
        }
        inv.column_mut(k).assign(&z);
    }
    norm1(&t) * norm1(&inv)
}

/// `data/1138_bus.mtx` (SuiteSparse HB/1138_bus, symmetric 1138×1138), densified, f64 → f32.
/// Read from the crate's `data/`, or from `data/` under the working directory where the crate is
/// not (a test binary carried to the GPU machine runs next to a copy of `data/`).
pub fn bus_1138() -> Array2<f32> {
    let in_crate = concat!(env!("CARGO_MANIFEST_DIR"), "/data/1138_bus.mtx");
    let path = if std::path::Path::new(in_crate).exists() {
        in_crate
    } else {
        "data/1138_bus.mtx"
    };
    mtx::read_dense(path)
        .unwrap_or_else(|e| panic!("{e}"))
        .mapv(|v| v as f32)
}

pub fn sger(alpha: f32, x: ArrayView1<f32>, y: ArrayView1<f32>, a: ArrayView2<f32>) -> Array2<f32> {
    let mut a = a.as_standard_layout().into_owned();
    f32::o_ger(
        alpha,
        &Array1::from(x.to_vec()),
        &Array1::from(y.to_vec()),
        &mut a,
    );
    a
}

/// Upload `a` as a resident matrix stored column-major (`f_order`) or row-major, checking that
/// the storage order is the one asked for (so resident tests really cover both).
pub fn upload_matrix(a: &Array2<f32>, f_order: bool) -> wgblas::GpuMatrix<'static> {
    let stored = if f_order {
        a.t().as_standard_layout().into_owned().reversed_axes()
    } else {
        a.as_standard_layout().into_owned()
    };
    let g = crate::common::ctx().upload_matrix(&stored).unwrap();
    let want = if f_order && a.nrows() > 1 && a.ncols() > 1 {
        wgblas::MatrixLayout::ColMajor
    } else if f_order {
        // A single row or column is both C and F order; upload keeps it row-major.
        g.layout()
    } else {
        wgblas::MatrixLayout::RowMajor
    };
    assert_eq!(g.layout(), want, "upload_matrix storage order");
    g
}
