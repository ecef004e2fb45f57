//! `impl Elem for f32` and `for f64`, written once by the `elem!` macro: the BLAS-layer and
//! OpenBLAS calls of each routine, by precision.

use super::*;

fn resident_snrm2(c: &Context, x: VecRef<'_, f32>) -> wgblas::Result<Option<f32>> {
    Ok(Some(wgblas::resident::snrm2(c, x)?.get()?))
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

macro_rules! elem {
    ($t:ty, $p:literal, $fwd:path, $bwd:path,
     [$caxpy:ident, $scal:path, $cscal:ident, $ulp:path, $ccopy:ident,
      $rdot:path, $cdot:ident, $rnrm2:path, $cnrm2:ident, $ulpd:path],
     [$cgemv:ident, $csymv:ident, $ctrmv:ident, $ctrsv:ident, $cger:ident, $csyr:ident, $csyr2:ident],
     [$cgemm:ident, $csyrk:ident, $csyr2k:ident, $csymm:ident, $ctrmm:ident],
     [$rasum:expr, $casum:ident, $riamax:expr, $ciamax:ident,
      $cswap:ident, $crot:ident, $rotb:path, $crotm:ident, $rotmb:path]) => {
        impl Elem for $t {
            const P: char = $p;
            const CBLAS: Cblas<Self> = Cblas {
                axpy: $caxpy,
                copy: $ccopy,
                dot: $cdot,
                nrm2: $cnrm2,
                scal: $cscal,
                gemv: $cgemv,
                symv: $csymv,
                trmv: $ctrmv,
                trsv: $ctrsv,
                ger: $cger,
                syr: $csyr,
                syr2: $csyr2,
                gemm: $cgemm,
                syrk: $csyrk,
                syr2k: $csyr2k,
                symm: $csymm,
                trmm: $ctrmm,
                asum: $casum,
                iamax: $ciamax,
                swap: $cswap,
                rot: $crot,
                rotm: $crotm,
            };
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            fn value(r: &mut StdRng) -> Self {
                let v: $t = r.random_range(1e-3..=1.0);
                if r.random_bool(0.5) {
                    -v
                } else {
                    v
                }
            }
            fn unit(r: &mut StdRng) -> Self {
                r.random_range(0.0..1.0)
            }
            fn forward(
                got: ArrayView1<Self>,
                want: ArrayView1<Self>,
                bound: ArrayView1<f64>,
            ) -> f64 {
                $fwd(&got, &want, &bound).unwrap()
            }
            fn backward(residual: ArrayView1<f64>, bound: ArrayView1<f64>) -> f64 {
                $bwd(&residual, &bound).unwrap()
            }
            fn dot_resident<'a>(
                c: &Context,
                x: VecRef<'a, Self>,
                y: VecRef<'a, Self>,
            ) -> wgblas::Result<Self> {
                $rdot(c, x, y)?.get()
            }
            fn nrm2_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>> {
                $rnrm2(c, x)
            }
            fn ulp(a: Self, b: Self) -> u64 {
                $ulpd(a, b)
            }
            fn host<'a>(self) -> Scalar<'a, Self> {
                self.into()
            }
            fn device(c: &Context, v: Self) -> wgblas::Result<GpuScalar<'_, Self>> {
                let a = c.upload_vector(&ndarray::array![v])?;
                a.gpu_dot(&c.upload_vector(&ndarray::array![1.0 as $t])?)
            }
            fn scal_any<'a>(
                c: &Context,
                alpha: Scalar<'a, Self>,
                x: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $scal(c, alpha, x)
            }
            fn max_ulp(got: ArrayViewD<Self>, want: ArrayViewD<Self>) -> u64 {
                $ulp(&got, &want).unwrap()
            }
            fn asum_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>> {
                $rasum(c, x)
            }
            fn iamax_resident<'a>(
                c: &Context,
                x: VecRef<'a, Self>,
            ) -> wgblas::Result<Option<usize>> {
                $riamax(c, x)
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

elem!(
    f32,
    's',
    metrics::forward_factor,
    metrics::backward_residual_factor,
    [
        cblas_saxpy,
        blas::sscal,
        cblas_sscal,
        metrics::max_ulp_f32,
        cblas_scopy,
        wgblas::resident::sdot,
        cblas_sdot,
        resident_snrm2,
        cblas_snrm2,
        metrics::ulp_distance_f32
    ],
    [
        cblas_sgemv,
        cblas_ssymv,
        cblas_strmv,
        cblas_strsv,
        cblas_sger,
        cblas_ssyr,
        cblas_ssyr2
    ],
    [
        cblas_sgemm,
        cblas_ssyrk,
        cblas_ssyr2k,
        cblas_ssymm,
        cblas_strmm
    ],
    [
        resident_sasum,
        cblas_sasum,
        resident_isamax,
        cblas_isamax,
        cblas_sswap,
        cblas_srot,
        rot_bound_f32,
        cblas_srotm,
        rotm_bound_f32
    ]
);
elem!(
    f64,
    'd',
    metrics::forward_factor_f64,
    metrics::backward_residual_factor_f64,
    [
        cblas_daxpy,
        blas::dscal,
        cblas_dscal,
        metrics::max_ulp_f64,
        cblas_dcopy,
        wgblas::resident::ddot,
        cblas_ddot,
        none,
        cblas_dnrm2,
        metrics::ulp_distance_f64
    ],
    [
        cblas_dgemv,
        cblas_dsymv,
        cblas_dtrmv,
        cblas_dtrsv,
        cblas_dger,
        cblas_dsyr,
        cblas_dsyr2
    ],
    [
        cblas_dgemm,
        cblas_dsyrk,
        cblas_dsyr2k,
        cblas_dsymm,
        cblas_dtrmm
    ],
    [
        none,
        cblas_dasum,
        none,
        cblas_idamax,
        cblas_dswap,
        cblas_drot,
        rot_bound_f64,
        cblas_drotm,
        rotm_bound_f64
    ]
);
