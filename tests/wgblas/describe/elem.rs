//! The element type of a description: f32 (the s routines) or f64 (the d routines). Everything
//! that differs between the two is here, written once for both by `elem!`: the precision
//! letter, random values, the metric in units of the type's eps, the wgblas BLAS-layer call and
//! the OpenBLAS (CBLAS) call of each routine.

use std::fmt::Debug;

use cblas_sys::*;
use ndarray::{Array1, Array2, ArrayView1, ArrayViewD};
use rand::rngs::StdRng;
use rand::Rng;
use wgblas::layout::{Scalar, VecMut, VecRef};
use wgblas::{blas, metrics, Context, Diag, GpuScalar, Side, Transpose, Uplo};

/// Pointers to `T`'s elements, read and written.
type R<T> = *const T;
type W<T> = *mut T;
type Lay = CBLAS_LAYOUT;
type Tr = CBLAS_TRANSPOSE;
/// `cblas_?trmv` and `cblas_?trsv`.
type TriangularFn<T> =
    unsafe extern "C" fn(Lay, CBLAS_UPLO, Tr, CBLAS_DIAG, i32, R<T>, i32, W<T>, i32);

/// The OpenBLAS (CBLAS) routines of one precision (`cblas_s*` or `cblas_d*`), so that each
/// oracle call of [`Elem`] is written once, generic over the element type.
pub struct Cblas<T> {
    pub axpy: unsafe extern "C" fn(i32, T, R<T>, i32, W<T>, i32),
    pub copy: unsafe extern "C" fn(i32, R<T>, i32, W<T>, i32),
    pub dot: unsafe extern "C" fn(i32, R<T>, i32, R<T>, i32) -> T,
    pub nrm2: unsafe extern "C" fn(i32, R<T>, i32) -> T,
    pub scal: unsafe extern "C" fn(i32, T, W<T>, i32),
    pub gemv: unsafe extern "C" fn(Lay, Tr, i32, i32, T, R<T>, i32, R<T>, i32, T, W<T>, i32),
    pub symv: unsafe extern "C" fn(Lay, CBLAS_UPLO, i32, T, R<T>, i32, R<T>, i32, T, W<T>, i32),
    pub trmv: TriangularFn<T>,
    pub trsv: TriangularFn<T>,
    pub ger: unsafe extern "C" fn(Lay, i32, i32, T, R<T>, i32, R<T>, i32, W<T>, i32),
    pub syr: unsafe extern "C" fn(Lay, CBLAS_UPLO, i32, T, R<T>, i32, W<T>, i32),
    pub syr2: unsafe extern "C" fn(Lay, CBLAS_UPLO, i32, T, R<T>, i32, R<T>, i32, W<T>, i32),
    #[allow(clippy::type_complexity)]
    pub gemm:
        unsafe extern "C" fn(Lay, Tr, Tr, i32, i32, i32, T, R<T>, i32, R<T>, i32, T, W<T>, i32),
    pub syrk: unsafe extern "C" fn(Lay, CBLAS_UPLO, Tr, i32, i32, T, R<T>, i32, T, W<T>, i32),
    #[allow(clippy::type_complexity)]
    pub syr2k:
        unsafe extern "C" fn(Lay, CBLAS_UPLO, Tr, i32, i32, T, R<T>, i32, R<T>, i32, T, W<T>, i32),
    #[allow(clippy::type_complexity)]
    pub symm: unsafe extern "C" fn(
        Lay,
        CBLAS_SIDE,
        CBLAS_UPLO,
        i32,
        i32,
        T,
        R<T>,
        i32,
        R<T>,
        i32,
        T,
        W<T>,
        i32,
    ),
    #[allow(clippy::type_complexity)]
    pub trmm: unsafe extern "C" fn(
        Lay,
        CBLAS_SIDE,
        CBLAS_UPLO,
        Tr,
        CBLAS_DIAG,
        i32,
        i32,
        T,
        R<T>,
        i32,
        W<T>,
        i32,
    ),
    pub asum: unsafe extern "C" fn(i32, R<T>, i32) -> T,
    pub iamax: unsafe extern "C" fn(i32, R<T>, i32) -> CBLAS_INDEX,
    pub swap: unsafe extern "C" fn(i32, W<T>, i32, W<T>, i32),
    pub rot: unsafe extern "C" fn(i32, W<T>, i32, W<T>, i32, T, T),
    pub rotm: unsafe extern "C" fn(i32, W<T>, i32, W<T>, i32, R<T>),
}

/// What the generic test code needs of f32 and f64.
pub trait Elem:
    wgblas::ext::Float + wgblas::resident::Element + Debug + PartialEq + PartialOrd
{
    /// The BLAS precision letter: `s` or `d`.
    const P: char;
    /// The OpenBLAS routines of this precision.
    const CBLAS: Cblas<Self>;
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

    // Level 1: the OpenBLAS call (on contiguous copies); the BLAS layer is `Float`'s.
    fn o_axpy(alpha: Self, x: &Array1<Self>, y: &mut Array1<Self>) {
        let (x, n) = (x.as_standard_layout(), x.len() as i32);
        assert!(y.is_standard_layout());
        unsafe { (Self::CBLAS.axpy)(n, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    }
    fn o_copy(x: &Array1<Self>, y: &mut Array1<Self>) {
        let (x, n) = (x.as_standard_layout(), x.len() as i32);
        assert!(y.is_standard_layout() && y.len() == x.len());
        unsafe { (Self::CBLAS.copy)(n, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    }
    /// `resident::sdot`/`ddot` (the result kept on the device), read back.
    fn dot_resident<'a>(
        c: &Context,
        x: VecRef<'a, Self>,
        y: VecRef<'a, Self>,
    ) -> wgblas::Result<Self>;
    fn o_dot(x: &Array1<Self>, y: &Array1<Self>) -> Self {
        let (x, y, n) = (
            x.as_standard_layout(),
            y.as_standard_layout(),
            x.len() as i32,
        );
        unsafe { (Self::CBLAS.dot)(n, x.as_ptr(), 1, y.as_ptr(), 1) }
    }
    /// `resident::snrm2` (the result kept on the device), read back; None for f64 (the crate
    /// has no `resident::dnrm2`).
    fn nrm2_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>>;
    fn o_nrm2(x: &Array1<Self>) -> Self {
        let (x, n) = (x.as_standard_layout(), x.len() as i32);
        unsafe { (Self::CBLAS.nrm2)(n, x.as_ptr(), 1) }
    }
    /// `metrics::ulp_distance_f32` or `ulp_distance_f64`.
    fn ulp(a: Self, b: Self) -> u64;
    /// The value as a host scalar argument.
    fn host<'a>(self) -> Scalar<'a, Self>;
    /// The value as a `GpuScalar` computed on the device (`[v]·[1]`, exact).
    fn device(c: &Context, v: Self) -> wgblas::Result<GpuScalar<'_, Self>>;
    /// `blas::sscal`/`dscal` with a host or device alpha (`Float::scal` takes a host value).
    fn scal_any<'a>(
        c: &Context,
        alpha: Scalar<'a, Self>,
        x: VecMut<'a, Self>,
    ) -> wgblas::Result<()>;
    fn o_scal(alpha: Self, x: &mut Array1<Self>) {
        assert!(x.is_standard_layout());
        unsafe { (Self::CBLAS.scal)(x.len() as i32, alpha, x.as_mut_ptr(), 1) };
    }
    /// `metrics::max_ulp_f32` or `max_ulp_f64`.
    fn max_ulp(got: ArrayViewD<Self>, want: ArrayViewD<Self>) -> u64;

    // OpenBLAS, row-major on C-order copies of the logical operands.
    fn o_gemv(
        t: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        x: &Array1<Self>,
        beta: Self,
        y: &mut Array1<Self>,
    ) {
        let a = a.as_standard_layout();
        let (m, n) = (a.nrows() as i32, a.ncols() as i32);
        let (ap, xp, yp) = (a.as_ptr(), x.as_ptr(), y.as_mut_ptr());
        unsafe { (Self::CBLAS.gemv)(RM, ct(t), m, n, alpha, ap, n.max(1), xp, 1, beta, yp, 1) };
    }
    fn o_symv(
        u: Uplo,
        alpha: Self,
        a: &Array2<Self>,
        x: &Array1<Self>,
        beta: Self,
        y: &mut Array1<Self>,
    ) {
        let a = a.as_standard_layout();
        let n = x.len() as i32;
        let (ap, xp, yp) = (a.as_ptr(), x.as_ptr(), y.as_mut_ptr());
        unsafe { (Self::CBLAS.symv)(RM, cu(u), n, alpha, ap, n.max(1), xp, 1, beta, yp, 1) };
    }
    fn o_trmv(u: Uplo, t: Transpose, d: Diag, a: &Array2<Self>, x: &mut Array1<Self>) {
        Self::o_triangular(Self::CBLAS.trmv, u, t, d, a, x)
    }
    /// The solve (the benches' baseline; the tests measure trsv by its backward residual).
    fn o_trsv(u: Uplo, t: Transpose, d: Diag, a: &Array2<Self>, x: &mut Array1<Self>) {
        Self::o_triangular(Self::CBLAS.trsv, u, t, d, a, x)
    }
    /// trmv or trsv (`f`): x ← op(A)·x or op(A)⁻¹·x.
    fn o_triangular(
        f: TriangularFn<Self>,
        u: Uplo,
        t: Transpose,
        d: Diag,
        a: &Array2<Self>,
        x: &mut Array1<Self>,
    ) {
        let a = a.as_standard_layout();
        let n = x.len() as i32;
        let (ap, xp) = (a.as_ptr(), x.as_mut_ptr());
        unsafe { f(RM, cu(u), ct(t), cd(d), n, ap, n.max(1), xp, 1) };
    }
    fn o_ger(alpha: Self, x: &Array1<Self>, y: &Array1<Self>, a: &mut Array2<Self>) {
        let (m, n, l) = (x.len() as i32, y.len() as i32, ld(a));
        let (xp, yp, ap) = (x.as_ptr(), y.as_ptr(), a.as_mut_ptr());
        unsafe { (Self::CBLAS.ger)(RM, m, n, alpha, xp, 1, yp, 1, ap, l) };
    }
    fn o_syr(u: Uplo, alpha: Self, x: &Array1<Self>, a: &mut Array2<Self>) {
        let (n, l) = (x.len() as i32, ld(a));
        let (xp, ap) = (x.as_ptr(), a.as_mut_ptr());
        unsafe { (Self::CBLAS.syr)(RM, cu(u), n, alpha, xp, 1, ap, l) };
    }
    fn o_syr2(u: Uplo, alpha: Self, x: &Array1<Self>, y: &Array1<Self>, a: &mut Array2<Self>) {
        let (n, l) = (x.len() as i32, ld(a));
        let (xp, yp, ap) = (x.as_ptr(), y.as_ptr(), a.as_mut_ptr());
        unsafe { (Self::CBLAS.syr2)(RM, cu(u), n, alpha, xp, 1, yp, 1, ap, l) };
    }
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
    ) {
        let (a, b) = (a.as_standard_layout(), b.as_standard_layout());
        let (m, n) = (c.nrows() as i32, c.ncols() as i32);
        let k = if ta == Transpose::No {
            a.ncols()
        } else {
            a.nrows()
        } as i32;
        let (la, lb, lc) = (a.ncols().max(1) as i32, b.ncols().max(1) as i32, ld(c));
        let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        unsafe {
            (Self::CBLAS.gemm)(
                RM,
                ct(ta),
                ct(tb),
                m,
                n,
                k,
                alpha,
                ap,
                la,
                bp,
                lb,
                beta,
                cp,
                lc,
            )
        };
    }
    fn o_syrk(
        u: Uplo,
        t: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    ) {
        let a = a.as_standard_layout();
        let n = c.nrows() as i32;
        let k = if t == Transpose::No {
            a.ncols()
        } else {
            a.nrows()
        } as i32;
        let (la, lc, ap, cp) = (a.ncols().max(1) as i32, ld(c), a.as_ptr(), c.as_mut_ptr());
        unsafe { (Self::CBLAS.syrk)(RM, cu(u), ct(t), n, k, alpha, ap, la, beta, cp, lc) };
    }
    #[allow(clippy::too_many_arguments)]
    fn o_syr2k(
        u: Uplo,
        t: Transpose,
        alpha: Self,
        a: &Array2<Self>,
        b: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    ) {
        let (a, b) = (a.as_standard_layout(), b.as_standard_layout());
        let n = c.nrows() as i32;
        let k = if t == Transpose::No {
            a.ncols()
        } else {
            a.nrows()
        } as i32;
        let (la, lb, lc) = (a.ncols().max(1) as i32, b.ncols().max(1) as i32, ld(c));
        let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        unsafe { (Self::CBLAS.syr2k)(RM, cu(u), ct(t), n, k, alpha, ap, la, bp, lb, beta, cp, lc) };
    }
    #[allow(clippy::too_many_arguments)]
    fn o_symm(
        s: Side,
        u: Uplo,
        alpha: Self,
        a: &Array2<Self>,
        b: &Array2<Self>,
        beta: Self,
        c: &mut Array2<Self>,
    ) {
        let (a, b) = (a.as_standard_layout(), b.as_standard_layout());
        let (m, n) = (c.nrows() as i32, c.ncols() as i32);
        let (la, lb, lc) = (a.ncols().max(1) as i32, b.ncols().max(1) as i32, ld(c));
        let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        unsafe { (Self::CBLAS.symm)(RM, cs(s), cu(u), m, n, alpha, ap, la, bp, lb, beta, cp, lc) };
    }
    #[allow(clippy::too_many_arguments)]
    fn o_trmm(
        s: Side,
        u: Uplo,
        t: Transpose,
        d: Diag,
        alpha: Self,
        a: &Array2<Self>,
        b: &mut Array2<Self>,
    ) {
        let a = a.as_standard_layout();
        let (m, n) = (b.nrows() as i32, b.ncols() as i32);
        let (la, lb, ap, bp) = (a.ncols().max(1) as i32, ld(b), a.as_ptr(), b.as_mut_ptr());
        unsafe { (Self::CBLAS.trmm)(RM, cs(s), cu(u), ct(t), cd(d), m, n, alpha, ap, la, bp, lb) };
    }

    // The rest of Level 1: asum, iamax, swap, rot and rotm.
    /// `resident::sasum` (the sum kept on the device), read back; None for f64 (the crate has
    /// no `resident::dasum`).
    fn asum_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>>;
    fn o_asum(x: &Array1<Self>) -> Self {
        let x = x.as_standard_layout();
        unsafe { (Self::CBLAS.asum)(x.len() as i32, x.as_ptr(), 1) }
    }
    /// `resident::isamax` (the index kept on the device), read back; None for f64.
    fn iamax_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<usize>>;
    /// The 0-based index (CBLAS returns 0-based).
    fn o_iamax(x: &Array1<Self>) -> usize {
        let x = x.as_standard_layout();
        (unsafe { (Self::CBLAS.iamax)(x.len() as i32, x.as_ptr(), 1) }) as usize
    }
    fn o_swap(x: &mut Array1<Self>, y: &mut Array1<Self>) {
        assert!(x.is_standard_layout() && y.is_standard_layout() && x.len() == y.len());
        unsafe { (Self::CBLAS.swap)(x.len() as i32, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1) };
    }
    fn o_rot(x: &mut Array1<Self>, y: &mut Array1<Self>, cos: Self, sin: Self) {
        assert!(x.is_standard_layout() && y.is_standard_layout() && x.len() == y.len());
        let n = x.len() as i32;
        unsafe { (Self::CBLAS.rot)(n, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1, cos, sin) };
    }
    /// The bounds of x and y after rot: `metrics::bounds::rot` for f32; for f64 (which
    /// `bounds::rot` does not take) the same sums in f64, `|c·x_i| + |s·y_i|` and
    /// `|s·x_i| + |c·y_i|`.
    fn rot_bound(
        cos: Self,
        sin: Self,
        x: &Array1<Self>,
        y: &Array1<Self>,
    ) -> (Array1<f64>, Array1<f64>);
    fn o_rotm(x: &mut Array1<Self>, y: &mut Array1<Self>, param: [Self; 5]) {
        assert!(x.is_standard_layout() && y.is_standard_layout() && x.len() == y.len());
        let n = x.len() as i32;
        unsafe { (Self::CBLAS.rotm)(n, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1, param.as_ptr()) };
    }
    /// The bounds of x and y after rotm: `metrics::bounds::rotm` for f32; for f64 the same
    /// sums `Σ_j |h_ij|·|v_j|` in f64, with H decoded from `param` by
    /// `metrics::bounds::rotm_matrix` (exact: the f64 parameters of the tests are f32 values).
    fn rotm_bound(
        param: [Self; 5],
        x: &Array1<Self>,
        y: &Array1<Self>,
    ) -> (Array1<f64>, Array1<f64>);
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
