use super::{product_in, Call, Kind, Plans};
use crate::blas::forms::routine;
use crate::drivers::gemm::{self, Operand};
use crate::flags::Transpose;
use crate::layout::{self, Scalar};
use crate::Context;

routine! {
    /// `y ← alpha·op(A)·x + beta·y`, `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `sgemv`. `A` is m×n in any layout (C order, F order, transposed, sliced, strided);
    /// `x` has length n (m for `Transpose::Yes`) and `y` length m (n). A row-major (C-order) `A`
    /// is the column-major `Aᵀ` with its strides swapped, so every layout and both `trans` values
    /// are one kernel with no copy; `x` and `y` may have any stride, including negative ones. (The
    /// one exception, for every Level 2 routine: a view whose memory span is more than about twice
    /// its element count, such as a step of 3 or a column of a wide matrix, is packed into one
    /// contiguous copy first; see [`crate::layout`].)
    ///
    /// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) (either storage
    /// order, or its `.t()`), `x` and `y` as [`GpuVector`](crate::GpuVector)s, `alpha` and `beta` as
    /// f32 [`GpuScalar`](crate::GpuScalar)s; host and resident operands may be mixed in one call
    /// (see [`crate::resident`]).
    ///
    /// Reference BLAS semantics: `alpha = 0` reads neither `A` nor `x` (`y ← beta·y`); `beta = 0`
    /// never reads `y`, so NaN or Inf in `y` do not leak. When `A` has no rows or no columns the
    /// routine returns at once and `y` is unchanged, as reference `SGEMV` does (`M = 0` or `N = 0`:
    /// quick return); so does `alpha = 0` with `beta = 1`. These rules hold alike for an alpha or
    /// beta held on the device (`&GpuScalar`), which the kernel tests itself; a NaN or Inf alpha or
    /// beta is not 0, and NaN or Inf in `A` or `x` propagate through every product, a zero partner
    /// included (DESIGN.md §3).
    ///
    /// The kernel is chosen by storage order and aspect ratio (`wgsl/level2/gemv_wide.wgsl`): where
    /// the rows of `op(A)` are contiguous (C order, or F order transposed), 1 to 64 invocations share
    /// each row, reading 4 columns at a time (`vec4` where aligned) and summing as a tree; where its
    /// columns are contiguous, each invocation holds 4 consecutive rows (one `vec4` per column) and
    /// up to 256 column lanes share the columns. When there are too few rows to fill the device
    /// (short-wide shapes) the columns are split into chunks whose partial sums a second dispatch
    /// adds; no shader loop passes 16,384 iterations (lavapipe stops loops at 65,535). Each `y_i`
    /// is a dot product in `f32`, summed in parts and then pairwise. Forward error bound
    /// [`metrics::bounds::gemv`](crate::metrics::bounds::gemv) (factor ≤ 4, DESIGN.md §2; Higham,
    /// *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` or `y`;
    /// [`Error::TooLarge`](crate::Error::TooLarge) when a dimension is past 2^31 − 1, an operand
    /// spans more than 2^32 elements or passes the device's memory, or one line of `A` (a row in
    /// C order, a column in F order) alone passes one buffer of the device (`A` past one storage
    /// binding is processed in row panels, and column panels where one row does not fit one
    /// binding; past one buffer held in segments of whole lines, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `y` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::Transpose;
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut y = array![1.0f32, 1.0];
    /// wgblas::blas::sgemv(ctx, Transpose::No, 1.0, a.view(), array![1.0f32, 1.0].view(), 2.0, y.view_mut())?;
    /// assert_eq!(y, array![5.0, 9.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn sgemv / sgemv_in: f32;
    /// `y ← alpha·op(A)·x + beta·y` in f64, `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `dgemv`. As [`sgemv`] in shapes, layouts (any per operand, no copy of `A`), strides
    /// and semantics (m = 0 or n = 0 a quick return with `y` unchanged; `alpha = 0` reads neither
    /// `A` nor `x`; `beta = 0` never reads `y`; NaN or Inf alpha or beta is not 0; no zero-skip),
    /// in f64, `alpha` and `beta` host `f64`s or device scalars (`&GpuScalar<f64>`, tested on the
    /// device as in [`dgemm`](crate::blas::dgemm)). Within one storage binding it runs on sgemv's
    /// wide kernels in f64 (`wgsl/level2/gemv_wide.wgsl` with `alias T = f64;`), except where
    /// op(A)'s columns are contiguous (`Aᵀ` of a C-order `A`, `A` of an F-order one); there, and
    /// past one binding, on the Level 3 tile engine (`wgsl/level3/gemm.wgsl` with `alias T =
    /// f64;`) as the product of `op(A)` and the one-column matrix `x` into the one-column `y`,
    /// with its sums of n products split over slices where the rows are few (past one storage
    /// binding, one product per panel of [`sgemv`]'s, the later column panels of a row panel
    /// adding to the first's). Forward bound: that of
    /// [`metrics::bounds::gemv`](crate::metrics::bounds::gemv), `(n+1)·|alpha|·Σ_j |A_ij|·|x_j| +
    /// |beta|·|y_i|`, with eps = 2^-52.
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`sgemv`]. On error `y` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::Transpose;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[1.0f64, 2.0], [3.0, 4.0]];
    /// let mut y = array![1.0f64, 1.0];
    /// wgblas::blas::dgemv(ctx, Transpose::Yes, 0.5, a.view(), array![1.0f64, 1.0].view(), 2.0, y.view_mut())?;
    /// assert_eq!(y, array![4.0, 5.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dgemv / dgemv_in: f64;
    (trans: Transpose, alpha: Scalar, a: MatRef, x: VecRef, beta: Scalar, y: VecMut) -> Result<()>
    = product_in(Kind::Gemv, trans, alpha.into(), a.into(), x.into(), beta.into(), y.into());
}

/// dgemv on the f64 tile engine: `y ← alpha·A·x + beta·y` as the product of `A` (m×n, in its
/// op form) and the one-column `x` into the one-column `y`. Past one storage binding (issue
/// 15) in the blocks of sgemv ([`layout::mat_blocks`] with 8-byte elements, cut at the
/// segment boundaries of each operand): row panels as tall as one binding allows with every
/// column, column panels only where one row does not fit; each row panel one engine call over its
/// column panels, alpha and beta applied once to their sum.
pub(super) fn dgemv_plans<'k>(ctx: &Context, c: Call<'k, f64>) -> Plans<'k> {
    let (a, x, y, keep) = (c.a, c.x, c.y, c.keep);
    let engine = |ao: Operand<'k>, xo: Operand<'k>, yo, dims, beta: Scalar<'k, f64>| {
        let v = gemm::Variant::default();
        gemm::engine_f64(ctx, c.routine, dims, c.alpha, ao, xo, beta, yo, v)
    };
    if super::blocks64::whole(ctx, a, &[x, y]) {
        let (xo, yo) = (Operand::column(x), Operand::column(y));
        let plan = engine(Operand::of(a), xo, yo, (a.rows, 1, a.cols), c.beta)?;
        return Ok(keep.plans(vec![plan]));
    }
    // The blocks form one grid: the same column panels in every row panel.
    let blocks = layout::mat_blocks(ctx, a, 8, y, x);
    let cols: Vec<_> = blocks
        .iter()
        .take_while(|b| b.0 == blocks[0].0)
        .map(|b| b.1)
        .collect();
    let rows: Vec<_> = blocks.iter().step_by(cols.len()).map(|b| b.0).collect();
    let (xs, ys) = keep.parts.get_or_init(|| {
        let part = |v: &layout::VecOperand, r: &[(usize, usize)]| -> Vec<_> {
            r.iter().map(|&(lo, hi)| v.part(ctx, 8, lo, hi)).collect()
        };
        (part(x, &cols), part(y, &rows))
    });
    let tiles = keep.tiles.get_or_init(|| {
        let at = |k: usize| (k / cols.len(), k % cols.len());
        let block = |(i, j): (usize, usize)| a.block(ctx, 8, rows[i], cols[j]);
        (0..blocks.len())
            .map(|k| (at(k).0, at(k).1, block(at(k))))
            .collect()
    });
    // Each row panel one engine call over its column panels: y_I = alpha·Σ_J A_IJ·x_J +
    // beta·y_I, alpha on the whole sum (gemm::engine_panels).
    let v = gemm::Variant::default();
    // (The tiles are in row-panel order, `cols.len()` to a row panel.)
    let plans = tiles
        .chunks(cols.len())
        .zip(ys)
        .map(|(row, yp)| {
            let panel = |(_, j, ab): &'k (usize, usize, layout::MatOperand)| {
                gemm::Panel::of(Operand::of(ab), Operand::column(&xs[*j]), ab.cols, v)
            };
            let panels: Vec<_> = row.iter().map(panel).collect();
            let (dims, yo) = ((yp.len, 1), Operand::column(yp));
            gemm::engine_panels_f64(ctx, c.routine, dims, c.alpha, &panels, c.beta, yo, v)
        })
        .collect::<crate::error::Result<Vec<_>>>()?;
    Ok(keep.plans(plans))
}
