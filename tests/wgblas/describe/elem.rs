//! The element type of a description: f32 (the s routines) or f64 (the d routines). Everything
//! that differs between the two is here, written once for both by `elem!`: the precision
//! letter, random values, the metric in units of the type's eps, the wgblas BLAS-layer call and
//! the OpenBLAS (CBLAS) call of each routine.

use std::fmt::Debug;

use cblas_sys::*;
use ndarray::{Array1, Array2, ArrayView1, ArrayViewD};
use rand::rngs::StdRng;
use rand::Rng;
use wgblas::layout::{MatMut, MatRef, Scalar, VecMut, VecRef};
use wgblas::{blas, metrics, Context, Diag, GpuScalar, Side, Transpose, Uplo};

/// What the generic test code needs of f32 and f64.
pub trait Elem: wgblas::resident::Element + Debug + PartialEq + PartialOrd {
    /// The BLAS precision letter: `s` or `d`.
    const P: char;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn nan() -> Self {
        Self::from_f64(f64::NAN)
    }
    fn is_nan(self) -> bool {
        self.to_f64().is_nan()
    }
    /// The bit pattern (NaN payloads included).
    fn bits(self) -> u64;
    /// A value with |v| in [1e-3, 1] and a random sign: no subnormal products (DESIGN.md §2).
    fn value(r: &mut StdRng) -> Self;
    /// A value in [0, 1), drawn in the type's own precision.
    fn unit(r: &mut StdRng) -> Self;
    /// `metrics::forward_factor` (f32, units of 2^-23) or `forward_factor_f64` (units of 2^-52).
    fn forward(got: ArrayView1<Self>, want: ArrayView1<Self>, bound: ArrayView1<f64>) -> f64;
    /// `metrics::backward_residual_factor` (units of 2^-23) or `backward_residual_factor_f64`.
    fn backward(residual: ArrayView1<f64>, bound: ArrayView1<f64>) -> f64;

    // Level 1: the BLAS layer and the OpenBLAS call (on contiguous copies).
    fn axpy<'a>(
        c: &Context,
        alpha: Self,
        x: VecRef<'a, Self>,
        y: VecMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn o_axpy(alpha: Self, x: &Array1<Self>, y: &mut Array1<Self>);
    fn copy<'a>(c: &Context, x: VecRef<'a, Self>, y: VecMut<'a, Self>) -> wgblas::Result<()>;
    fn o_copy(x: &Array1<Self>, y: &mut Array1<Self>);
    fn dot<'a>(c: &Context, x: VecRef<'a, Self>, y: VecRef<'a, Self>) -> wgblas::Result<Self>;
    /// `resident::sdot`/`ddot` (the result kept on the device), read back.
    fn dot_resident<'a>(
        c: &Context,
        x: VecRef<'a, Self>,
        y: VecRef<'a, Self>,
    ) -> wgblas::Result<Self>;
    fn o_dot(x: &Array1<Self>, y: &Array1<Self>) -> Self;
    fn nrm2<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Self>;
    /// `resident::snrm2` (the result kept on the device), read back; None for f64 (the crate
    /// has no `resident::dnrm2`).
    fn nrm2_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>>;
    fn o_nrm2(x: &Array1<Self>) -> Self;
    /// `metrics::ulp_distance_f32` or `ulp_distance_f64`.
    fn ulp(a: Self, b: Self) -> u64;
    /// The value as a host scalar argument.
    fn host<'a>(self) -> Scalar<'a, Self>;
    /// The value as a `GpuScalar` computed on the device (`[v]·[1]`, exact).
    fn device(c: &Context, v: Self) -> wgblas::Result<GpuScalar<'_, Self>>;
    fn scal<'a>(c: &Context, alpha: Scalar<'a, Self>, x: VecMut<'a, Self>) -> wgblas::Result<()>;
    fn o_scal(alpha: Self, x: &mut Array1<Self>);
    /// `metrics::max_ulp_f32` or `max_ulp_f64`.
    fn max_ulp(got: ArrayViewD<Self>, want: ArrayViewD<Self>) -> u64;

    // The BLAS layer (blas::s* or blas::d*).
    #[allow(clippy::too_many_arguments)]
    fn gemv<'a>(
        c: &Context,
        t: Transpose,
        alpha: Self,
        a: MatRef<'a, Self>,
        x: VecRef<'a, Self>,
        beta: Self,
        y: VecMut<'a, Self>,
    ) -> wgblas::Result<()>;
    #[allow(clippy::too_many_arguments)]
    fn symv<'a>(
        c: &Context,
        u: Uplo,
        alpha: Self,
        a: MatRef<'a, Self>,
        x: VecRef<'a, Self>,
        beta: Self,
        y: VecMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn trmv<'a>(
        c: &Context,
        u: Uplo,
        t: Transpose,
        d: Diag,
        a: MatRef<'a, Self>,
        x: VecMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn trsv<'a>(
        c: &Context,
        u: Uplo,
        t: Transpose,
        d: Diag,
        a: MatRef<'a, Self>,
        x: VecMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn ger<'a>(
        c: &Context,
        alpha: Self,
        x: VecRef<'a, Self>,
        y: VecRef<'a, Self>,
        a: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn syr<'a>(
        c: &Context,
        u: Uplo,
        alpha: Self,
        x: VecRef<'a, Self>,
        a: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn syr2<'a>(
        c: &Context,
        u: Uplo,
        alpha: Self,
        x: VecRef<'a, Self>,
        y: VecRef<'a, Self>,
        a: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;

    // OpenBLAS, row-major on C-order copies of the logical operands.
    fn o_gemv(
        t: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        x: &Array1<Self>,
        beta: Self,
        y: &mut Array1<Self>,
    );
    fn o_symv(
        u: Uplo,
        alpha: Self,
        a: &Array2<Self>,
        x: &Array1<Self>,
        beta: Self,
        y: &mut Array1<Self>,
    );
    fn o_trmv(u: Uplo, t: Transpose, d: Diag, a: &Array2<Self>, x: &mut Array1<Self>);
    fn o_ger(alpha: Self, x: &Array1<Self>, y: &Array1<Self>, a: &mut Array2<Self>);
    fn o_syr(u: Uplo, alpha: Self, x: &Array1<Self>, a: &mut Array2<Self>);
    fn o_syr2(u: Uplo, alpha: Self, x: &Array1<Self>, y: &Array1<Self>, a: &mut Array2<Self>);
    // Level 3.
    #[allow(clippy::too_many_arguments)]
    fn gemm<'a>(
        c: &Context,
        ta: Transpose,
        tb: Transpose,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatRef<'a, Self>,
        beta: Self,
        cm: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    #[allow(clippy::too_many_arguments)]
    fn gemmtr<'a>(
        c: &Context,
        u: Uplo,
        ta: Transpose,
        tb: Transpose,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatRef<'a, Self>,
        beta: Self,
        cm: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    #[allow(clippy::too_many_arguments)]
    fn syrk<'a>(
        c: &Context,
        u: Uplo,
        t: Transpose,
        alpha: Self,
        a: MatRef<'a, Self>,
        beta: Self,
        cm: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    #[allow(clippy::too_many_arguments)]
    fn syr2k<'a>(
        c: &Context,
        u: Uplo,
        t: Transpose,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatRef<'a, Self>,
        beta: Self,
        cm: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    #[allow(clippy::too_many_arguments)]
    fn symm<'a>(
        c: &Context,
        s: Side,
        u: Uplo,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatRef<'a, Self>,
        beta: Self,
        cm: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
    #[allow(clippy::too_many_arguments)]
    fn trmm<'a>(
        c: &Context,
        s: Side,
        u: Uplo,
        t: Transpose,
        d: Diag,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;

    // OpenBLAS Level 3, row-major on C-order copies; the output in place.
    #[allow(clippy::too_many_arguments)]
    fn o_gemm(
        ta: Transpose,
        tb: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        b: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    );
    fn o_syrk(
        u: Uplo,
        t: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    );
    #[allow(clippy::too_many_arguments)]
    fn o_syr2k(
        u: Uplo,
        t: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        b: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    );
    #[allow(clippy::too_many_arguments)]
    fn o_symm(
        s: Side,
        u: Uplo,
        alpha: Self,
        a: &Array2<Self>,
        b: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    );
    #[allow(clippy::too_many_arguments)]
    fn o_trmm(
        s: Side,
        u: Uplo,
        t: Transpose,
        d: Diag,
        alpha: Self,
        a: &Array2<Self>,
        b: &mut Array2<Self>,
    );

    // The rest of Level 1: asum, iamax, swap, rot and rotm.
    fn asum<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Self>;
    /// `resident::sasum` (the sum kept on the device), read back; None for f64 (the crate has
    /// no `resident::dasum`).
    fn asum_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>>;
    fn o_asum(x: &Array1<Self>) -> Self;
    fn iamax<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<usize>;
    /// `resident::isamax` (the index kept on the device), read back; None for f64.
    fn iamax_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<usize>>;
    /// The 0-based index (CBLAS returns 0-based).
    fn o_iamax(x: &Array1<Self>) -> usize;
    fn swap<'a>(c: &Context, x: VecMut<'a, Self>, y: VecMut<'a, Self>) -> wgblas::Result<()>;
    fn o_swap(x: &mut Array1<Self>, y: &mut Array1<Self>);
    fn rot<'a>(
        c: &Context,
        x: VecMut<'a, Self>,
        y: VecMut<'a, Self>,
        cos: Self,
        sin: Self,
    ) -> wgblas::Result<()>;
    fn o_rot(x: &mut Array1<Self>, y: &mut Array1<Self>, cos: Self, sin: Self);
    /// The bounds of x and y after rot: `metrics::bounds::rot` for f32; for f64 (which
    /// `bounds::rot` does not take) the same sums in f64, `|c·x_i| + |s·y_i|` and
    /// `|s·x_i| + |c·y_i|`.
    fn rot_bound(
        cos: Self,
        sin: Self,
        x: &Array1<Self>,
        y: &Array1<Self>,
    ) -> (Array1<f64>, Array1<f64>);
    fn rotm<'a>(
        c: &Context,
        x: VecMut<'a, Self>,
        y: VecMut<'a, Self>,
        param: [Self; 5],
    ) -> wgblas::Result<()>;
    fn o_rotm(x: &mut Array1<Self>, y: &mut Array1<Self>, param: [Self; 5]);
    /// The bounds of x and y after rotm: `metrics::bounds::rotm` for f32; for f64 the same
    /// sums `Σ_j |h_ij|·|v_j|` in f64, with H decoded from `param` by
    /// `metrics::bounds::rotm_matrix` (exact: the f64 parameters of the tests are f32 values).
    fn rotm_bound(
        param: [Self; 5],
        x: &Array1<Self>,
        y: &Array1<Self>,
    ) -> (Array1<f64>, Array1<f64>);

    // Level 3: the triangular solve (no OpenBLAS call: its metric is the backward residual).
    #[allow(clippy::too_many_arguments)]
    fn trsm<'a>(
        c: &Context,
        s: Side,
        u: Uplo,
        t: Transpose,
        d: Diag,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
}

pub fn ct(t: Transpose) -> CBLAS_TRANSPOSE {
    match t {
        Transpose::No => CBLAS_TRANSPOSE::CblasNoTrans,
        Transpose::Yes => CBLAS_TRANSPOSE::CblasTrans,
    }
}

pub fn cu(u: Uplo) -> CBLAS_UPLO {
    match u {
        Uplo::Upper => CBLAS_UPLO::CblasUpper,
        Uplo::Lower => CBLAS_UPLO::CblasLower,
    }
}

pub fn cs(s: Side) -> CBLAS_SIDE {
    match s {
        Side::Left => CBLAS_SIDE::CblasLeft,
        Side::Right => CBLAS_SIDE::CblasRight,
    }
}

pub fn cd(d: Diag) -> CBLAS_DIAG {
    match d {
        Diag::NonUnit => CBLAS_DIAG::CblasNonUnit,
        Diag::Unit => CBLAS_DIAG::CblasUnit,
    }
}

const RM: CBLAS_LAYOUT = CBLAS_LAYOUT::CblasRowMajor;

/// The leading dimension of a C-order `a` (at least 1, as CBLAS asks).
fn ld<T>(a: &Array2<T>) -> i32 {
    a.ncols().max(1) as i32
}

/// The bounds of rot and rotm (`metrics::bounds::rot`, `rotm`) for f32; for f64 (which those
/// do not take) the same sums `Σ_j |h_ij|·|v_j|` in f64, H decoded from rotm's `param` by
/// `metrics::bounds::rotm_matrix` (exact: the f64 parameters of the tests are f32 values).
fn rot_bound_f32(c: f32, s: f32, x: &Array1<f32>, y: &Array1<f32>) -> (Array1<f64>, Array1<f64>) {
    wgblas::metrics::bounds::rot(c, s, x.view(), y.view())
}

fn rot_bound_f64(c: f64, s: f64, x: &Array1<f64>, y: &Array1<f64>) -> (Array1<f64>, Array1<f64>) {
    let bx = ndarray::Zip::from(x)
        .and(y)
        .map_collect(|&xi, &yi| (c * xi).abs() + (s * yi).abs());
    let by = ndarray::Zip::from(x)
        .and(y)
        .map_collect(|&xi, &yi| (s * xi).abs() + (c * yi).abs());
    (bx, by)
}

fn rotm_bound_f32(p: [f32; 5], x: &Array1<f32>, y: &Array1<f32>) -> (Array1<f64>, Array1<f64>) {
    wgblas::metrics::bounds::rotm(p, x.view(), y.view())
}

fn rotm_bound_f64(p: [f64; 5], x: &Array1<f64>, y: &Array1<f64>) -> (Array1<f64>, Array1<f64>) {
    let h = wgblas::metrics::bounds::rotm_matrix(p.map(|v| v as f32))
        .unwrap_or_else(|| panic!("rotm: invalid flag {}", p[0]))
        .map(|row| row.map(f64::from));
    let [[h11, h12], [h21, h22]] = h;
    let sum = |a: f64, b: f64| move |&xi: &f64, &yi: &f64| (a * xi).abs() + (b * yi).abs();
    let bx = ndarray::Zip::from(x).and(y).map_collect(sum(h11, h12));
    let by = ndarray::Zip::from(x).and(y).map_collect(sum(h21, h22));
    (bx, by)
}

// The `Elem` impls for f32 and f64, from one macro (`elem!`).
mod impls;
