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
     [$axpy:path, $caxpy:ident, $scal:path, $cscal:ident, $ulp:path, $copy:path, $ccopy:ident,
      $dot:path, $rdot:path, $cdot:ident, $nrm2:path, $rnrm2:path, $cnrm2:ident, $ulpd:path],
     [$gemv:path, $symv:path, $trmv:path, $trsv:path, $ger:path, $syr:path, $syr2:path],
     [$cgemv:ident, $csymv:ident, $ctrmv:ident, $cger:ident, $csyr:ident, $csyr2:ident],
     [$gemm:path, $gemmtr:path, $syrk:path, $syr2k:path, $symm:path, $trmm:path],
     [$cgemm:ident, $csyrk:ident, $csyr2k:ident, $csymm:ident, $ctrmm:ident],
     [$asum:path, $rasum:expr, $casum:ident, $iamax:path, $riamax:expr, $ciamax:ident,
      $swap:path, $cswap:ident, $rot:path, $crot:ident, $rotb:path,
      $rotm:path, $crotm:ident, $rotmb:path, $trsm:path]) => {
        impl Elem for $t {
            const P: char = $p;
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
            fn axpy<'a>(
                c: &Context,
                alpha: Self,
                x: VecRef<'a, Self>,
                y: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $axpy(c, alpha, x, y)
            }
            fn o_axpy(alpha: Self, x: &Array1<Self>, y: &mut Array1<Self>) {
                let (x, n) = (x.as_standard_layout(), x.len() as i32);
                assert!(y.is_standard_layout());
                unsafe { $caxpy(n, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
            }
            fn copy<'a>(
                c: &Context,
                x: VecRef<'a, Self>,
                y: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $copy(c, x, y)
            }
            fn o_copy(x: &Array1<Self>, y: &mut Array1<Self>) {
                let (x, n) = (x.as_standard_layout(), x.len() as i32);
                assert!(y.is_standard_layout() && y.len() == x.len());
                unsafe { $ccopy(n, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
            }
            fn dot<'a>(
                c: &Context,
                x: VecRef<'a, Self>,
                y: VecRef<'a, Self>,
            ) -> wgblas::Result<Self> {
                $dot(c, x, y)
            }
            fn dot_resident<'a>(
                c: &Context,
                x: VecRef<'a, Self>,
                y: VecRef<'a, Self>,
            ) -> wgblas::Result<Self> {
                $rdot(c, x, y)?.get()
            }
            fn o_dot(x: &Array1<Self>, y: &Array1<Self>) -> Self {
                let (x, y, n) = (
                    x.as_standard_layout(),
                    y.as_standard_layout(),
                    x.len() as i32,
                );
                unsafe { $cdot(n, x.as_ptr(), 1, y.as_ptr(), 1) }
            }
            fn nrm2<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Self> {
                $nrm2(c, x)
            }
            fn nrm2_resident<'a>(c: &Context, x: VecRef<'a, Self>) -> wgblas::Result<Option<Self>> {
                $rnrm2(c, x)
            }
            fn o_nrm2(x: &Array1<Self>) -> Self {
                let (x, n) = (x.as_standard_layout(), x.len() as i32);
                unsafe { $cnrm2(n, x.as_ptr(), 1) }
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
            fn scal<'a>(
                c: &Context,
                alpha: Scalar<'a, Self>,
                x: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $scal(c, alpha, x)
            }
            fn o_scal(alpha: Self, x: &mut Array1<Self>) {
                assert!(x.is_standard_layout());
                unsafe { $cscal(x.len() as i32, alpha, x.as_mut_ptr(), 1) };
            }
            fn max_ulp(got: ArrayViewD<Self>, want: ArrayViewD<Self>) -> u64 {
                $ulp(&got, &want).unwrap()
            }
            fn gemv<'a>(
                c: &Context,
                t: Transpose,
                alpha: Self,
                a: MatRef<'a, Self>,
                x: VecRef<'a, Self>,
                beta: Self,
                y: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $gemv(c, t, alpha, a, x, beta, y)
            }
            fn symv<'a>(
                c: &Context,
                u: Uplo,
                alpha: Self,
                a: MatRef<'a, Self>,
                x: VecRef<'a, Self>,
                beta: Self,
                y: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $symv(c, u, alpha, a, x, beta, y)
            }
            fn trmv<'a>(
                c: &Context,
                u: Uplo,
                t: Transpose,
                d: Diag,
                a: MatRef<'a, Self>,
                x: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $trmv(c, u, t, d, a, x)
            }
            fn trsv<'a>(
                c: &Context,
                u: Uplo,
                t: Transpose,
                d: Diag,
                a: MatRef<'a, Self>,
                x: VecMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $trsv(c, u, t, d, a, x)
            }
            fn ger<'a>(
                c: &Context,
                alpha: Self,
                x: VecRef<'a, Self>,
                y: VecRef<'a, Self>,
                a: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $ger(c, alpha, x, y, a)
            }
            fn syr<'a>(
                c: &Context,
                u: Uplo,
                alpha: Self,
                x: VecRef<'a, Self>,
                a: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $syr(c, u, alpha, x, a)
            }
            fn syr2<'a>(
                c: &Context,
                u: Uplo,
                alpha: Self,
                x: VecRef<'a, Self>,
                y: VecRef<'a, Self>,
                a: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $syr2(c, u, alpha, x, y, a)
            }
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
                unsafe { $cgemv(RM, ct(t), m, n, alpha, ap, n.max(1), xp, 1, beta, yp, 1) };
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
                unsafe { $csymv(RM, cu(u), n, alpha, ap, n.max(1), xp, 1, beta, yp, 1) };
            }
            fn o_trmv(u: Uplo, t: Transpose, d: Diag, a: &Array2<Self>, x: &mut Array1<Self>) {
                let a = a.as_standard_layout();
                let n = x.len() as i32;
                let (ap, xp) = (a.as_ptr(), x.as_mut_ptr());
                unsafe { $ctrmv(RM, cu(u), ct(t), cd(d), n, ap, n.max(1), xp, 1) };
            }
            fn o_ger(alpha: Self, x: &Array1<Self>, y: &Array1<Self>, a: &mut Array2<Self>) {
                let (m, n, l) = (x.len() as i32, y.len() as i32, ld(a));
                let (xp, yp, ap) = (x.as_ptr(), y.as_ptr(), a.as_mut_ptr());
                unsafe { $cger(RM, m, n, alpha, xp, 1, yp, 1, ap, l) };
            }
            fn o_syr(u: Uplo, alpha: Self, x: &Array1<Self>, a: &mut Array2<Self>) {
                let (n, l) = (x.len() as i32, ld(a));
                let (xp, ap) = (x.as_ptr(), a.as_mut_ptr());
                unsafe { $csyr(RM, cu(u), n, alpha, xp, 1, ap, l) };
            }
            fn o_syr2(
                u: Uplo,
                alpha: Self,
                x: &Array1<Self>,
                y: &Array1<Self>,
                a: &mut Array2<Self>,
            ) {
                let (n, l) = (x.len() as i32, ld(a));
                let (xp, yp, ap) = (x.as_ptr(), y.as_ptr(), a.as_mut_ptr());
                unsafe { $csyr2(RM, cu(u), n, alpha, xp, 1, yp, 1, ap, l) };
            }

            fn gemm<'a>(
                c: &Context,
                ta: Transpose,
                tb: Transpose,
                alpha: Self,
                a: MatRef<'a, Self>,
                b: MatRef<'a, Self>,
                beta: Self,
                cm: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $gemm(c, ta, tb, alpha, a, b, beta, cm)
            }
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
            ) -> wgblas::Result<()> {
                $gemmtr(c, u, ta, tb, alpha, a, b, beta, cm)
            }
            fn syrk<'a>(
                c: &Context,
                u: Uplo,
                t: Transpose,
                alpha: Self,
                a: MatRef<'a, Self>,
                beta: Self,
                cm: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $syrk(c, u, t, alpha, a, beta, cm)
            }
            fn syr2k<'a>(
                c: &Context,
                u: Uplo,
                t: Transpose,
                alpha: Self,
                a: MatRef<'a, Self>,
                b: MatRef<'a, Self>,
                beta: Self,
                cm: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $syr2k(c, u, t, alpha, a, b, beta, cm)
            }
            fn symm<'a>(
                c: &Context,
                s: Side,
                u: Uplo,
                alpha: Self,
                a: MatRef<'a, Self>,
                b: MatRef<'a, Self>,
                beta: Self,
                cm: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $symm(c, s, u, alpha, a, b, beta, cm)
            }
            fn trmm<'a>(
                c: &Context,
                s: Side,
                u: Uplo,
                t: Transpose,
                d: Diag,
                alpha: Self,
                a: MatRef<'a, Self>,
                b: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $trmm(c, s, u, t, d, alpha, a, b)
            }
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
                    $cgemm(
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
                unsafe { $csyrk(RM, cu(u), ct(t), n, k, alpha, ap, la, beta, cp, lc) };
            }
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
                unsafe { $csyr2k(RM, cu(u), ct(t), n, k, alpha, ap, la, bp, lb, beta, cp, lc) };
            }
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
                unsafe { $csymm(RM, cs(s), cu(u), m, n, alpha, ap, la, bp, lb, beta, cp, lc) };
            }
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
                unsafe { $ctrmm(RM, cs(s), cu(u), ct(t), cd(d), m, n, alpha, ap, la, bp, lb) };
            }
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
            fn trsm<'a>(
                c: &Context,
                s: Side,
                u: Uplo,
                t: Transpose,
                d: Diag,
                alpha: Self,
                a: MatRef<'a, Self>,
                b: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $trsm(c, s, u, t, d, alpha, a, b)
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
        blas::saxpy,
        cblas_saxpy,
        blas::sscal,
        cblas_sscal,
        metrics::max_ulp_f32,
        blas::scopy,
        cblas_scopy,
        blas::sdot,
        wgblas::resident::sdot,
        cblas_sdot,
        blas::snrm2,
        resident_snrm2,
        cblas_snrm2,
        metrics::ulp_distance_f32
    ],
    [
        blas::sgemv,
        blas::ssymv,
        blas::strmv,
        blas::strsv,
        blas::sger,
        blas::ssyr,
        blas::ssyr2
    ],
    [
        cblas_sgemv,
        cblas_ssymv,
        cblas_strmv,
        cblas_sger,
        cblas_ssyr,
        cblas_ssyr2
    ],
    [
        blas::sgemm,
        blas::sgemmtr,
        blas::ssyrk,
        blas::ssyr2k,
        blas::ssymm,
        blas::strmm
    ],
    [
        cblas_sgemm,
        cblas_ssyrk,
        cblas_ssyr2k,
        cblas_ssymm,
        cblas_strmm
    ],
    [
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
        rotm_bound_f32,
        blas::strsm
    ]
);
elem!(
    f64,
    'd',
    metrics::forward_factor_f64,
    metrics::backward_residual_factor_f64,
    [
        blas::daxpy,
        cblas_daxpy,
        blas::dscal,
        cblas_dscal,
        metrics::max_ulp_f64,
        blas::dcopy,
        cblas_dcopy,
        blas::ddot,
        wgblas::resident::ddot,
        cblas_ddot,
        blas::dnrm2,
        none,
        cblas_dnrm2,
        metrics::ulp_distance_f64
    ],
    [
        blas::dgemv,
        blas::dsymv,
        blas::dtrmv,
        blas::dtrsv,
        blas::dger,
        blas::dsyr,
        blas::dsyr2
    ],
    [
        cblas_dgemv,
        cblas_dsymv,
        cblas_dtrmv,
        cblas_dger,
        cblas_dsyr,
        cblas_dsyr2
    ],
    [
        blas::dgemm,
        blas::dgemmtr,
        blas::dsyrk,
        blas::dsyr2k,
        blas::dsymm,
        blas::dtrmm
    ],
    [
        cblas_dgemm,
        cblas_dsyrk,
        cblas_dsyr2k,
        cblas_dsymm,
        cblas_dtrmm
    ],
    [
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
        rotm_bound_f64,
        blas::dtrsm
    ]
);
