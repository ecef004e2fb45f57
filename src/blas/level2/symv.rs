use super::{product_in, Call, Kind, Plans};
use crate::blas::forms::routine;
use crate::drivers::gemm::{self, AMode, Operand, Variant};
use crate::flags::{Transpose, Uplo};
use crate::Context;

routine! {
    /// `y ← alpha·A·x + beta·y`, `A` n×n symmetric, stored in its triangle `uplo`.
    ///
    /// BLAS: `ssymv`. Only the triangle `uplo` of `A` (diagonal included) is read; the other
    /// triangle may hold anything, NaN included. `A` may be in any layout (C order, F order,
    /// transposed, sliced, strided, negative strides): a row-major `A` is the column-major `Aᵀ`,
    /// whose triangle `uplo` holds the same symmetric matrix, so no flag flip and no copy are needed
    /// (see [`crate::layout`]). `x` and `y` have length n, any stride.
    ///
    /// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) (either storage
    /// order, or its `.t()`), `x` and `y` as [`GpuVector`](crate::GpuVector)s, `alpha` and `beta` as
    /// f32 [`GpuScalar`](crate::GpuScalar)s; host and resident operands may be mixed in one call
    /// (see [`crate::resident`]).
    ///
    /// Reference BLAS semantics: n = 0, or `alpha = 0` with `beta = 1`, returns at once;
    /// `alpha = 0` reads neither `A` nor `x` (`y ← beta·y`); `beta = 0` never reads `y` (the
    /// kernel tests both values itself, so the rules hold for device scalars too).
    ///
    /// Within one storage binding the product runs in two passes of sgemv's kernels over the
    /// stored triangle, each reading a dense layout at the device's bandwidth: the triangle with
    /// its diagonal along its rows (`Σ_{j in row} A_ij·x_j`), then the strict triangle along
    /// its columns (the mirrored products `A_ji·x_j`, diagonal left out), each pass into
    /// partial sums of its own; a third dispatch adds each row's partial sums and applies alpha
    /// and beta once. So every stored element is read twice, which on the H200 beats reading it
    /// once through workgroup memory (the blocked symmetric product of MAGMA and cuBLAS, kept
    /// as the lab's `symv_lines` and `symv_tiles`): 1245–1299 against 365–923 GB/s at n =
    /// 16384. The lab's [`set_symv_one_pass`](crate::lab::set_symv_one_pass) runs it instead
    /// in one pass (each stored element read once, both of its products formed from one load,
    /// the mirrored sums added by a second dispatch in a fixed order; MAGMA's blocked scheme).
    /// Past one binding, the triangle runs in square blocks (README, "Sizes"). Each
    /// `y_i` is an `f32` sum of partial dot products. Forward error bound
    /// [`metrics::bounds::symv`](crate::metrics::bounds::symv) (factor ≤ 2, DESIGN.md §2).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` or `y`;
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
    /// device (`max_buffer_size`; past one storage binding `A` goes in square blocks: the diagonal
    /// ones on their triangle, the others by the general product, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `y` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::Uplo;
    /// let ctx = wgblas::Context::shared()?;
    /// // Lower triangle of [[2, 1], [1, 3]]; the upper triangle is never read.
    /// let a = array![[2.0f32, f32::NAN], [1.0, 3.0]];
    /// let mut y = array![1.0f32, 1.0];
    /// wgblas::blas::ssymv(ctx, Uplo::Lower, 1.0, a.view(), array![1.0f32, 2.0].view(), 1.0, y.view_mut())?;
    /// assert_eq!(y, array![5.0, 8.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn ssymv / ssymv_in: f32;
    /// `y ← alpha·A·x + beta·y` in f64, `A` n×n symmetric, stored in its triangle `uplo`.
    ///
    /// BLAS: `dsymv`. As [`ssymv`] in shapes, layouts and semantics (only the triangle `uplo` of
    /// `A` read, the other may hold NaN; n = 0, or `alpha = 0` with `beta = 1`, returns at once;
    /// `alpha = 0` reads neither `A` nor `x`; `beta = 0` never reads `y`; a NaN or Inf alpha or
    /// beta is not 0; no zero-skip), in f64. `alpha` and `beta` are `f64`s or device scalars
    /// (`&GpuScalar<f64>`, e.g. from [`resident::ddot`](crate::resident::ddot)), copied into the
    /// kernel's scalar buffer on the device and tested there, so that the rules above hold for
    /// them too. Within one storage binding it runs on ssymv's kernel in f64
    /// (`symv_lines` of `wgsl/level2/gemv_wide.wgsl` with `alias T = f64;`: each stored tile read
    /// once for both of its products; the lab's
    /// [`set_symv_one_pass`](crate::lab::set_symv_one_pass) runs ssymv's one-pass kernel in
    /// f64); past it on the Level 3 tile engine (`wgsl/level3/gemm.wgsl`
    /// with `alias T = f64;`): the stored triangle expanded into a dense symmetric copy on the
    /// device (the engine's symmetric packing, as `dsymm` does), then multiplied by the
    /// one-column `x` into the one-column `y`. Forward
    /// bound: that of [`metrics::bounds::symv`](crate::metrics::bounds::symv) with eps = 2^-52.
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` or `y`;
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
    /// device (past one storage binding `A` goes in square blocks, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `y` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::Uplo;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// // Lower triangle of [[2, 1], [1, 3]]; the upper triangle is never read.
    /// let a = array![[2.0f64, f64::NAN], [1.0, 3.0]];
    /// let mut y = array![1.0f64, 1.0];
    /// wgblas::blas::dsymv(ctx, Uplo::Lower, 1.0, a.view(), array![1.0f64, 2.0].view(), 1.0, y.view_mut())?;
    /// assert_eq!(y, array![5.0, 8.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dsymv / dsymv_in: f64;
    (uplo: Uplo, alpha: Scalar, a: MatRef, x: VecRef, beta: Scalar, y: VecMut) -> Result<()>
    = product_in(Kind::Symv(uplo), Transpose::No, alpha.into(), a.into(), x.into(), beta.into(),
        y.into());
}

/// dsymv on the f64 tile engine: one product on operands within one storage binding; past it
/// (issue 15) `A` in square blocks, `y_I = beta·y_I + alpha·Σ_J A_IJ·x_J` with `A_IJ` the
/// stored block or, across the diagonal, the transpose of the stored `A_JI`; the diagonal
/// blocks symmetric on their triangle; each row block one engine call over its column blocks,
/// alpha and beta applied once to their sum.
pub(super) fn dsymv_plans<'k>(ctx: &Context, uplo: Uplo, c: Call<'k, f64>) -> Plans<'k> {
    let (ad, xd, yd, keep) = (c.a, c.x, c.y, c.keep);
    let (routine, alpha, beta, n) = (c.routine, c.alpha, c.beta, ad.rows);
    let sym = Variant {
        a_mode: AMode::Symmetric(uplo),
        ..Variant::default()
    };
    let grid = match super::blocks64::whole(ctx, ad, &[xd, yd]) {
        true => None,
        false => Some(super::grid(ctx, &c, true, uplo)),
    };
    let whole = grid.is_none();
    let (ranges, xs, ys, blocks) = match grid {
        Some(g) => (g.ranges, g.xs, g.ys, g.blocks),
        None => (vec![(0, n)], &[][..], &[][..], &[][..]),
    };
    let lower = uplo == Uplo::Lower;
    let stored = |i: usize, j: usize| if lower { j <= i } else { j >= i };
    let block = |i: usize, j: usize| {
        let (k, t) = if stored(i, j) {
            ((i, j), false)
        } else {
            ((j, i), true)
        };
        let b = &blocks
            .iter()
            .find(|(i, j, _)| (*i, *j) == k)
            .expect("a stored block")
            .2;
        if t {
            Operand::of(b).t()
        } else {
            Operand::of(b)
        }
    };
    // Each row block one engine call over its column blocks, alpha and beta applied once to
    // the sum (gemm::engine_panels).
    let mut calls = Vec::new();
    for i in 0..ranges.len() {
        let mut panels = Vec::new();
        for j in 0..ranges.len() {
            let (ao, xo) = match whole {
                true => (Operand::of(ad), Operand::column(xd)),
                false => (block(i, j), Operand::column(&xs[j])),
            };
            let variant = if i == j { sym } else { Variant::default() };
            let k = ranges[j].1 - ranges[j].0;
            panels.push(gemm::Panel::of(ao, xo, k, variant));
        }
        let yo = Operand::column(if whole { yd } else { &ys[i] });
        let dims = (ranges[i].1 - ranges[i].0, 1);
        let plan = gemm::engine_panels_f64(ctx, routine, dims, alpha, &panels, beta, yo, sym);
        calls.push(plan?);
    }
    Ok(keep.plans(calls))
}
