//! The rest of Level 1 by precision (`Level1`, a supertrait of `Elem`): asum, iamax, swap, rot
//! and rotm, each as its BLAS-layer call and its OpenBLAS (CBLAS) call on contiguous copies,
//! written once for f32 and f64 by `level1!`.

use cblas_sys::*;
use ndarray::Array1;
use wgblas::layout::{VecMut, VecRef};
use wgblas::{blas, Context};

/// What the Level 1 descriptions of asum, iamax, swap, rot and rotm need of f32 and f64.
pub trait Level1: Sized {
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
}

fn resident_sasum(c: &Context, x: VecRef<'_, f32>) -> wgblas::Result<Option<f32>> {
    Ok(Some(wgblas::resident::sasum(c, x)?.get()?))
}

fn resident_isamax(c: &Context, x: VecRef<'_, f32>) -> wgblas::Result<Option<usize>> {
    Ok(Some(wgblas::resident::isamax(c, x)?.get()?))
}

fn none<T, V>(_: &Context, _: VecRef<'_, T>) -> wgblas::Result<Option<V>> {
    Ok(None)
}

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

macro_rules! level1 {
    ($t:ty, $asum:path, $rasum:expr, $casum:ident, $iamax:path, $riamax:expr, $ciamax:ident,
     $swap:path, $cswap:ident, $rot:path, $crot:ident, $rotb:path,
     $rotm:path, $crotm:ident, $rotmb:path) => {
        impl Level1 for $t {
            fn asum<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Self> {
                $asum(c, x)
            }
            fn asum_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>> {
                $rasum(c, x)
            }
            fn o_asum(x: &Array1<Self>) -> Self {
                let x = x.as_standard_layout();
                unsafe { $casum(x.len() as i32, x.as_ptr(), 1) }
            }
            fn iamax<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<usize> {
                $iamax(c, x)
            }
            fn iamax_resident<'a>(
                c: &Context,
                x: VecRef<'a, Self>,
            ) -> wgblas::Result<Option<usize>> {
                $riamax(c, x)
            }
            fn o_iamax(x: &Array1<Self>) -> usize {
                let x = x.as_standard_layout();
                (unsafe { $ciamax(x.len() as i32, x.as_ptr(), 1) }) as usize
            }
            fn swap<'a>(
                c: &Context,
                x: VecMut<'a, Self>,
                y: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $swap(c, x, y)
            }
            fn o_swap(x: &mut Array1<Self>, y: &mut Array1<Self>) {
                assert!(x.is_standard_layout() && y.is_standard_layout() && x.len() == y.len());
                unsafe { $cswap(x.len() as i32, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1) };
            }
            fn rot<'a>(
                c: &Context,
                x: VecMut<'a, Self>,
                y: VecMut<'a, Self>,
                cos: Self,
                sin: Self,
            ) -> wgblas::Result<()> {
                $rot(c, x, y, cos, sin)
            }
            fn o_rot(x: &mut Array1<Self>, y: &mut Array1<Self>, cos: Self, sin: Self) {
                assert!(x.is_standard_layout() && y.is_standard_layout() && x.len() == y.len());
                let n = x.len() as i32;
                unsafe { $crot(n, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1, cos, sin) };
            }
            fn rotm<'a>(
                c: &Context,
                x: VecMut<'a, Self>,
                y: VecMut<'a, Self>,
                param: [Self; 5],
            ) -> wgblas::Result<()> {
                $rotm(c, x, y, param)
            }
            fn o_rotm(x: &mut Array1<Self>, y: &mut Array1<Self>, param: [Self; 5]) {
                assert!(x.is_standard_layout() && y.is_standard_layout() && x.len() == y.len());
                let n = x.len() as i32;
                unsafe { $crotm(n, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1, param.as_ptr()) };
            }
            fn rotm_bound(
                param: [Self; 5],
                x: &Array1<Self>,
                y: &Array1<Self>,
            ) -> (Array1<f64>, Array1<f64>) {
                $rotmb(param, x, y)
            }
            fn rot_bound(
                cos: Self,
                sin: Self,
                x: &Array1<Self>,
                y: &Array1<Self>,
            ) -> (Array1<f64>, Array1<f64>) {
                $rotb(cos, sin, x, y)
            }
        }
    };
}

level1!(
    f32,
    blas::sasum,
    resident_sasum,
    cblas_sasum,
    blas::isamax,
    resident_isamax,
    cblas_isamax,
    blas::sswap,
    cblas_sswap,
    blas::srot,
    cblas_srot,
    rot_bound_f32,
    blas::srotm,
    cblas_srotm,
    rotm_bound_f32
);
level1!(
    f64,
    blas::dasum,
    none,
    cblas_dasum,
    blas::idamax,
    none,
    cblas_idamax,
    blas::dswap,
    cblas_dswap,
    blas::drot,
    cblas_drot,
    rot_bound_f64,
    blas::drotm,
    cblas_drotm,
    rotm_bound_f64
);
