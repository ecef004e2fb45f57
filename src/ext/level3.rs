//! Level 3 extension traits: [`GemmExt`], [`Level3Ext`] (the matrix `A` is `self`) and
//! [`Level3BatchExt`] (batches of matrices).

use ndarray::{Array2, Array3, ArrayBase, ArrayView2, ArrayView3, Data, DataMut, Ix2, Ix3};

use super::{owned, zeros2_of, zeros3, Float};
#[cfg(doc)]
use crate::blas;
use crate::blas::{check_inner, check_shared};
use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::Context;

/// Matrix products on 2-D `f32` **and** `f64` arrays (the matrix `A` is `self`): `sgemm` on
/// f32 arrays, `dgemm` on f64 ones.
///
/// ```
/// use ndarray::array;
/// use wgblas::prelude::*;
/// # if !wgblas::Context::shared()?.native_f64() { return Ok(()); }
/// let a = array![[1.0f64, 2.0], [3.0, 4.0]];
/// assert_eq!(a.gpu_gemm(&a)?, array![[7.0, 10.0], [15.0, 22.0]]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait GemmExt<A: Float> {
    /// `A·B` as a new (C-order) array. BLAS `sgemm` / `dgemm` with `alpha = 1`, `beta = 0`;
    /// see [`blas::sgemm`], [`blas::dgemm`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_gemm<S: Data<Elem = A>>(&self, b: &ArrayBase<S, Ix2>) -> Result<Array2<A>> {
        // The shapes first, so that a mismatch is reported as one even where the output of
        // the mismatched shapes would be too large to allocate.
        check_inner(A::GEMM, self.ext_view().ncols(), b.nrows())?;
        let mut c = zeros2_of(A::GEMM, (self.ext_view().nrows(), b.ncols()))?;
        self.gpu_gemm_inplace(A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    /// `C ← alpha·A·B + beta·C`. BLAS `sgemm` / `dgemm`; see [`blas::sgemm`],
    /// [`blas::dgemm`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `c` is unchanged.
    fn gpu_gemm_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, a, b, c) = (Context::shared()?, self.ext_view(), b.view(), c.view_mut());
        A::gemm(ctx, Transpose::No, Transpose::No, alpha, a, b, beta, c)
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view(&self) -> ArrayView2<'_, A>;
}

ext_view!(ref GemmExt for Ix2: ArrayView2);

/// The plain and `_inplace` forms of a triangular Level 3 routine (`trmm`, `trsm`), written
/// once: the plain form copies `b` and calls the `_inplace` one with `alpha = 1`; the `_inplace`
/// form calls [`Float`]'s routine `$root` on the shared context.
macro_rules! triangular_forms {
    ($(#[$plain_doc:meta])* fn $plain:ident; $(#[$doc:meta])* fn $inplace:ident = $root:ident;) => {
        $(#[$plain_doc])*
        fn $plain<S: Data<Elem = A>>(
            &self,
            side: Side,
            uplo: Uplo,
            trans: Transpose,
            diag: Diag,
            b: &ArrayBase<S, Ix2>,
        ) -> Result<Array2<A>> {
            let mut out = owned(A::name(stringify!($root)), "b", b)?;
            self.$inplace(side, uplo, trans, diag, A::ONE, &mut out)?;
            Ok(out)
        }

        $(#[$doc])*
        fn $inplace<S: DataMut<Elem = A>>(
            &self,
            side: Side,
            uplo: Uplo,
            trans: Transpose,
            diag: Diag,
            alpha: A,
            b: &mut ArrayBase<S, Ix2>,
        ) -> Result<()> {
            let (ctx, a, b) = (Context::shared()?, self.ext_view(), b.view_mut());
            A::$root(ctx, side, uplo, trans, diag, alpha, a, b)
        }
    };
}

/// Level 3 methods on 2-D `f32` **and** `f64` arrays (the matrix `A` is `self`): the `s`
/// routines on f32 arrays, the `d` routines on f64 ones; the plain products (`gpu_gemm`) are in
/// [`GemmExt`].
pub trait Level3Ext<A: Float> {
    /// The triangle `uplo` of `A·B` as a new (C-order) n×n array, zeros in the other triangle. BLAS
    /// `sgemmtr` / `dgemmtr` with `alpha = 1`, `beta = 0`; see [`blas::sgemmtr`] /
    /// [`blas::dgemmtr`].
    ///
    /// # Errors
    /// As [`blas::sgemmtr`] / [`blas::dgemmtr`].
    fn gpu_gemmtr<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        // C is n×n with n = rows of A: B must have n columns (named here, since the caller
        // passes no C that a later check could name).
        if b.ncols() != self.ext_view().nrows() {
            return Err(crate::Error::DimensionMismatch {
                routine: A::name("gemmtr"),
                arg: "b",
                detail: format!(
                    "columns of B must equal the rows of A (C is n×n): expected {}, found {}",
                    self.ext_view().nrows(),
                    b.ncols()
                ),
            });
        }
        check_inner(A::name("gemmtr"), self.ext_view().ncols(), b.nrows())?;
        let mut c = zeros2_of::<A>(A::name("gemmtr"), (self.ext_view().nrows(), b.ncols()))?;
        self.gpu_gemmtr_inplace(uplo, A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    /// `C ← alpha·A·B + beta·C` on the triangle `uplo` of `C` only. BLAS `sgemmtr` / `dgemmtr`; see
    /// [`blas::sgemmtr`] / [`blas::dgemmtr`].
    ///
    /// # Errors
    /// As [`blas::sgemmtr`] / [`blas::dgemmtr`]; on error `c` is unchanged.
    fn gpu_gemmtr_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, a, b, c) = (Context::shared()?, self.ext_view(), b.view(), c.view_mut());
        let no = Transpose::No;
        A::gemmtr(ctx, uplo, no, no, alpha, a, b, beta, c)
    }

    /// The triangle `uplo` of `A·Aᵀ` as a new (C-order) n×n array, zeros in the other triangle
    /// (`a.t().gpu_syrk(..)` gives `AᵀA`). BLAS `ssyrk` / `dsyrk` with `alpha = 1`, `beta = 0`; see
    /// [`blas::ssyrk`] / [`blas::dsyrk`].
    ///
    /// # Errors
    /// As [`blas::ssyrk`] / [`blas::dsyrk`].
    fn gpu_syrk(&self, uplo: Uplo) -> Result<Array2<A>> {
        let n = self.ext_view().nrows();
        let mut c = zeros2_of::<A>(A::name("syrk"), (n, n))?;
        self.gpu_syrk_inplace(uplo, A::ONE, A::ZERO, &mut c)?;
        Ok(c)
    }

    /// `C ← alpha·A·Aᵀ + beta·C` on the triangle `uplo` of `C`. BLAS `ssyrk` / `dsyrk`; see
    /// [`blas::ssyrk`] / [`blas::dsyrk`].
    ///
    /// # Errors
    /// As [`blas::ssyrk`] / [`blas::dsyrk`]; on error `c` is unchanged.
    fn gpu_syrk_inplace<S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, a, c) = (Context::shared()?, self.ext_view(), c.view_mut());
        A::syrk(ctx, uplo, Transpose::No, alpha, a, beta, c)
    }

    /// The triangle `uplo` of `A·Bᵀ + B·Aᵀ` as a new (C-order) n×n array, zeros in the other
    /// triangle. BLAS `ssyr2k` / `dsyr2k` with `alpha = 1`, `beta = 0`; see [`blas::ssyr2k`] /
    /// [`blas::dsyr2k`].
    ///
    /// # Errors
    /// As [`blas::ssyr2k`] / [`blas::dsyr2k`].
    fn gpu_syr2k<S: Data<Elem = A>>(&self, uplo: Uplo, b: &ArrayBase<S, Ix2>) -> Result<Array2<A>> {
        let n = self.ext_view().nrows();
        let mut c = zeros2_of::<A>(A::name("syr2k"), (n, n))?;
        self.gpu_syr2k_inplace(uplo, A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    /// `C ← alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C` on the triangle `uplo` of `C`. BLAS `ssyr2k` /
    /// `dsyr2k`; see [`blas::ssyr2k`] / [`blas::dsyr2k`].
    ///
    /// # Errors
    /// As [`blas::ssyr2k`] / [`blas::dsyr2k`]; on error `c` is unchanged.
    fn gpu_syr2k_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, a, b, c) = (Context::shared()?, self.ext_view(), b.view(), c.view_mut());
        A::syr2k(ctx, uplo, Transpose::No, alpha, a, b, beta, c)
    }

    /// `A·B` (`Side::Left`) or `B·A` (`Side::Right`) as a new (C-order) array, `A` (`self`)
    /// symmetric and read from its triangle `uplo` only. BLAS `ssymm` / `dsymm` with `alpha = 1`,
    /// `beta = 0`; see [`blas::ssymm`] / [`blas::dsymm`].
    ///
    /// # Errors
    /// As [`blas::ssymm`] / [`blas::dsymm`].
    fn gpu_symm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        let mut c = zeros2_of::<A>(A::name("symm"), b.dim())?;
        self.gpu_symm_inplace(side, uplo, A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    /// `C ← alpha·A·B + beta·C` (Left) or `C ← alpha·B·A + beta·C` (Right), `A` symmetric.
    /// BLAS `ssymm` / `dsymm`; see [`blas::ssymm`] / [`blas::dsymm`].
    ///
    /// # Errors
    /// As [`blas::ssymm`] / [`blas::dsymm`]; on error `c` is unchanged.
    #[allow(clippy::too_many_arguments)]
    fn gpu_symm_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, a, b, c) = (Context::shared()?, self.ext_view(), b.view(), c.view_mut());
        A::symm(ctx, side, uplo, alpha, a, b, beta, c)
    }

    triangular_forms! {
        /// `op(A)·B` (`Side::Left`) or `B·op(A)` (`Side::Right`) as a new array, `A` (`self`)
        /// triangular. BLAS `strmm` / `dtrmm` with `alpha = 1`; see [`blas::strmm`] /
        /// [`blas::dtrmm`].
        ///
        /// # Errors
        /// As [`blas::strmm`] / [`blas::dtrmm`].
        fn gpu_trmm;
        /// `B ← alpha·op(A)·B` (Left) or `B ← alpha·B·op(A)` (Right), `A` triangular. BLAS
        /// `strmm`; see [`blas::strmm`] / [`blas::dtrmm`].
        ///
        /// # Errors
        /// As [`blas::strmm`] / [`blas::dtrmm`]; on error `b` is unchanged.
        fn gpu_trmm_inplace = trmm;
    }

    triangular_forms! {
        /// The solution `X` of `op(A)·X = B` (`Side::Left`) or `X·op(A) = B` (`Side::Right`) as
        /// a new array, `A` (`self`) triangular. BLAS `strsm` / `dtrsm` with `alpha = 1`; see
        /// [`blas::strsm`] / [`blas::dtrsm`].
        ///
        /// # Errors
        /// As [`blas::strsm`] / [`blas::dtrsm`].
        fn gpu_trsm;
        /// `B ← X` solving `op(A)·X = alpha·B` (Left) or `X·op(A) = alpha·B` (Right), `A`
        /// triangular. BLAS `strsm` / `dtrsm`; see [`blas::strsm`] / [`blas::dtrsm`].
        ///
        /// # Errors
        /// As [`blas::strsm`] / [`blas::dtrsm`]; on error `b` is unchanged.
        fn gpu_trsm_inplace = trsm;
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view(&self) -> ArrayView2<'_, A>;
}

ext_view!(ref Level3Ext for Ix2: ArrayView2);

/// Batched matrix products on 3-D `f32` **and** `f64` arrays (batch × rows × columns; the
/// batch of `A` is `self`): `sgemm_batched` on f32 arrays, `dgemm_batched` on f64 ones.
///
/// ```
/// use ndarray::Array3;
/// use wgblas::prelude::*;
///
/// let a = Array3::<f32>::from_shape_fn((100, 4, 3), |(b, i, j)| (b + i + j) as f32);
/// let b = Array3::<f32>::from_shape_fn((100, 3, 2), |(b, i, j)| (b * i + j) as f32);
/// let c = a.gpu_gemm_batched(&b)?;                // 100 products, one dispatch
/// for p in 0..100 {
///     let want = a.index_axis(ndarray::Axis(0), p).dot(&b.index_axis(ndarray::Axis(0), p));
///     assert_eq!(c.index_axis(ndarray::Axis(0), p), want);
/// }
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait Level3BatchExt<A: Float> {
    /// `C_b = A_b·B_b` for every matrix `b` of the batch, as a new (C-order) batch × m × n
    /// array. BLAS `sgemm_batched` / `dgemm_batched` with `alpha = 1`, `beta = 0`; see
    /// [`blas::sgemm_batched`] (a broadcast view of one matrix, batch stride 0, is read with
    /// no copy).
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_gemm_batched<S: Data<Elem = A>>(&self, b: &ArrayBase<S, Ix3>) -> Result<Array3<A>> {
        let (batch, m, k) = self.ext_view().dim();
        check_inner(A::GEMM_BATCHED, k, b.dim().1)?;
        let what = "the batch length of B must equal that of A";
        check_shared(A::GEMM_BATCHED, what, &[("b", b.dim().0), ("a", batch)])?;
        let mut c = zeros3(A::GEMM_BATCHED, (batch, m, b.dim().2))?;
        self.gpu_gemm_batched_inplace(A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    /// `C_b ← alpha·A_b·B_b + beta·C_b` for every `b`. BLAS `sgemm_batched` /
    /// `dgemm_batched`; see [`blas::sgemm_batched`], [`blas::dgemm_batched`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `c` is unchanged.
    fn gpu_gemm_batched_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        b: &ArrayBase<S, Ix3>,
        beta: A,
        c: &mut ArrayBase<S2, Ix3>,
    ) -> Result<()> {
        let (ctx, a, b, c) = (Context::shared()?, self.ext_view(), b.view(), c.view_mut());
        A::gemm_batched(ctx, Transpose::No, Transpose::No, alpha, a, b, beta, c)
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view(&self) -> ArrayView3<'_, A>;
}

ext_view!(ref Level3BatchExt for Ix3: ArrayView3);
