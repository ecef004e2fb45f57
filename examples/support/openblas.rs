//! Safe OpenBLAS calls on ndarray arrays, the CPU baseline of the examples and benches
//! (`#[path]`-included; not part of the library). Each function checks the shapes, makes its
//! operands contiguous in C order (a copy only where they are not) and holds the one `unsafe`
//! CBLAS call, whose pointer and leading-dimension arguments come from those contiguous arrays.
#![allow(dead_code)] // each example uses a subset

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut2};

use cblas_sys::{CBLAS_LAYOUT::CblasRowMajor, CBLAS_TRANSPOSE::CblasNoTrans};

fn int(n: usize, what: &str) -> i32 {
    i32::try_from(n).unwrap_or_else(|_| panic!("{what} = {n} does not fit CBLAS's 32-bit int"))
}

/// `C = A·B` by `cblas_sgemm` (row-major, no transposes).
///
/// # Panics
/// If the inner dimensions differ or a dimension exceeds `i32::MAX`.
pub fn sgemm(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    let mut c = Array2::<f32>::zeros((a.nrows(), b.ncols()));
    sgemm_into(a, b, c.view_mut());
    c
}

/// `C = A·B` by `cblas_dgemm` (row-major, no transposes).
///
/// # Panics
/// If the inner dimensions differ or a dimension exceeds `i32::MAX`.
pub fn dgemm(a: ArrayView2<f64>, b: ArrayView2<f64>) -> Array2<f64> {
    let (m, k) = a.dim();
    let (k2, n) = b.dim();
    assert_eq!(k, k2, "dgemm: A is {m}x{k}, B is {k2}x{n}");
    let mut c = Array2::<f64>::zeros((m, n));
    let a = a.as_standard_layout();
    let b = b.as_standard_layout();
    let (mi, ni, ki) = (int(m, "m"), int(n, "n"), int(k, "k"));
    // SAFETY: a (m×k), b (k×n) and c (m×n) are contiguous row-major arrays of exactly these
    // shapes, so lda = k, ldb = n and ldc = n address only their own elements.
    unsafe {
        cblas_sys::cblas_dgemm(
            CblasRowMajor,
            CblasNoTrans,
            CblasNoTrans,
            mi,
            ni,
            ki,
            1.0,
            a.as_ptr(),
            ki.max(1),
            b.as_ptr(),
            ni.max(1),
            0.0,
            c.as_mut_ptr(),
            ni.max(1),
        );
    }
    c
}

/// `C ← A·B` by `cblas_sgemm` into an existing C-order `c` (no allocation of the output, for
/// timing loops).
///
/// # Panics
/// If the shapes do not match, `c` is not contiguous in C order, or a dimension exceeds
/// `i32::MAX`.
pub fn sgemm_into(a: ArrayView2<f32>, b: ArrayView2<f32>, mut c: ArrayViewMut2<f32>) {
    let (m, k) = a.dim();
    let (k2, n) = b.dim();
    assert_eq!(k, k2, "sgemm: A is {m}x{k}, B is {k2}x{n}");
    assert_eq!(c.dim(), (m, n), "sgemm: C must be {m}x{n}");
    assert!(
        c.is_standard_layout(),
        "sgemm: C must be contiguous in C order"
    );
    let a = a.as_standard_layout();
    let b = b.as_standard_layout();
    let (mi, ni, ki) = (int(m, "m"), int(n, "n"), int(k, "k"));
    // SAFETY: a (m×k), b (k×n) and c (m×n) are contiguous row-major arrays of exactly these
    // shapes, so lda = k, ldb = n and ldc = n address only their own elements.
    unsafe {
        cblas_sys::cblas_sgemm(
            CblasRowMajor,
            CblasNoTrans,
            CblasNoTrans,
            mi,
            ni,
            ki,
            1.0,
            a.as_ptr(),
            ki.max(1),
            b.as_ptr(),
            ni.max(1),
            0.0,
            c.as_mut_ptr(),
            ni.max(1),
        )
    }
}

/// `y = A·x` by `cblas_sgemv` (row-major, no transpose).
///
/// # Panics
/// If `x` does not have A's column count, or a dimension exceeds `i32::MAX`.
pub fn sgemv(a: ArrayView2<f32>, x: ArrayView1<f32>) -> Array1<f32> {
    let (m, n) = a.dim();
    assert_eq!(x.len(), n, "sgemv: A is {m}x{n}, x has {}", x.len());
    let a = a.as_standard_layout();
    let x = x.as_standard_layout();
    let mut y = Array1::<f32>::zeros(m);
    let (mi, ni) = (int(m, "m"), int(n, "n"));
    // SAFETY: a is contiguous m×n row-major (lda = n), x holds n and y m contiguous elements.
    unsafe {
        cblas_sys::cblas_sgemv(
            CblasRowMajor,
            CblasNoTrans,
            mi,
            ni,
            1.0,
            a.as_ptr(),
            ni.max(1),
            x.as_ptr(),
            1,
            0.0,
            y.as_mut_ptr(),
            1,
        )
    };
    y
}

/// `xᵀ·y` by `cblas_sdot`.
///
/// # Panics
/// If the lengths differ or exceed `i32::MAX`.
pub fn sdot(x: ArrayView1<f32>, y: ArrayView1<f32>) -> f32 {
    assert_eq!(
        x.len(),
        y.len(),
        "sdot: lengths {} and {}",
        x.len(),
        y.len()
    );
    let x = x.as_standard_layout();
    let y = y.as_standard_layout();
    // SAFETY: x and y hold n contiguous elements each.
    unsafe { cblas_sys::cblas_sdot(int(x.len(), "n"), x.as_ptr(), 1, y.as_ptr(), 1) }
}

/// `alpha·x + y` by `cblas_saxpy`, into a new array.
///
/// # Panics
/// If the lengths differ or exceed `i32::MAX`.
pub fn saxpy(alpha: f32, x: ArrayView1<f32>, y: ArrayView1<f32>) -> Array1<f32> {
    assert_eq!(
        x.len(),
        y.len(),
        "saxpy: lengths {} and {}",
        x.len(),
        y.len()
    );
    let x = x.as_standard_layout();
    let mut out = y.as_standard_layout().into_owned();
    // SAFETY: x and out hold n contiguous elements each.
    unsafe { cblas_sys::cblas_saxpy(int(x.len(), "n"), alpha, x.as_ptr(), 1, out.as_mut_ptr(), 1) };
    out
}
