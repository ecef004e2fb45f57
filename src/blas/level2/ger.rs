use super::{Call, Keep, Kind, Level2};
use crate::blas::forms::routine;
use crate::blas::level1::check_elem;
use crate::blas::{check_dim, check_len};
use crate::drivers::rank_update;
use crate::launch::Dispatch;
use crate::layout::{self, MatOperand, Out, VecOperand};
use crate::Context;

routine! {
    /// `A ← alpha·x·yᵀ + A`, `A` m×n (rank-1 update).
    ///
    /// BLAS: `sger`. `x` has length m, `y` length n, any stride (negative included); `A` may be in any
    /// layout (C order, F order, transposed, sliced, strided, negative strides) and is updated in
    /// place, element by element, with no copy (but see [`crate::layout`] for sparse views): a
    /// row-major `A` is the column-major `Aᵀ`, and the kernel walks whichever index is contiguous
    /// (see `drivers/rank_update.rs`).
    ///
    /// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) in either storage
    /// order (updated in place on the device), `x` and `y` as [`GpuVector`](crate::GpuVector)s;
    /// host and resident operands may be mixed in one call (see [`crate::resident`]).
    ///
    /// Semantics (DESIGN.md §3): m = 0, n = 0 or `alpha = 0` returns at once (`x`, `y` and `A` are
    /// not read), as in the reference `SGER`. There is no zero-skip: a zero `y_j` still multiplies
    /// `x_i`, so a NaN or Inf in `x` makes `A_ij` NaN (IEEE `0·NaN = 0·Inf = NaN`), the one NaN rule
    /// of every routine here (the reference Fortran skips such a column).
    ///
    /// Accuracy: each updated element is the exact `A_ij + alpha·x_i·y_j` rounded once (evaluated in
    /// double-f32 with Dekker's TwoProduct and Knuth's TwoSum, see `wgsl/level2/rank_update.wgsl`):
    /// within about half an ulp, where the plain formula rounds up to three times; the value `v` it rounds carries about 48 of the
    /// product's 72 bits, so the result is within `½·ulp(v) + 2^-44·(|v| + P)` of the exact `v`
    /// (P the magnitude of the products), which exceeds half an ulp only under cancellation
    /// (|v| far below P; tested). Non-finite values
    /// follow the plain formula, as the reference computes it. Forward error bound
    /// [`metrics::bounds::ger`](crate::metrics::bounds::ger) (factor ≤ 2, DESIGN.md §2; measured ≤ 0.5
    /// against the exact update).
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f32>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` (length ≠ rows of
    /// `A`) or `y` (length ≠ columns of `A`); [`Error::TooLarge`](crate::Error::TooLarge) when an
    /// operand does not fit one buffer of the device (`max_buffer_size`; past one storage binding
    /// `A` is updated in blocks, issue 15); [`Error::Gpu`](crate::Error::Gpu). On error `A` is
    /// unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// let mut a = array![[1.0f32, 1.0, 1.0], [1.0, 1.0, 1.0]];
    /// let (x, y) = (array![1.0f32, 2.0], array![1.0f32, 0.0, -1.0]);
    /// wgblas::blas::sger(ctx, 2.0, x.view(), y.view(), a.view_mut())?;
    /// assert_eq!(a, array![[3.0, 1.0, -1.0], [5.0, 1.0, -3.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn sger / sger_in: f32;
    /// `A ← alpha·x·yᵀ + A` in f64, `A` m×n.
    ///
    /// BLAS: `dger`. As [`sger`] in shapes, layouts and semantics (m = 0, n = 0 or `alpha = 0`
    /// returns at once with `A` unchanged, as reference `DGER` does; otherwise NaN and Inf
    /// propagate through every product, no zero-skip), in f64, on the same kernel
    /// (`wgsl/level2/rank_update.wgsl` with `alias T = f64;`): each element is the exact
    /// `a_ij + alpha·x_i·y_j` rounded once (evaluated in double-f64, operands split by
    /// Veltkamp's method), within about half an ulp (within `½·ulp(v) + 2^-102·(|v| + P)` of the exact `v`, as in f32 with about 104 of
    /// the product's 159 bits). Forward bound:
    /// [`metrics::bounds::ger`](crate::metrics::bounds::ger) with eps = 2^-52 (factor ≤ 2;
    /// measured ≤ 0.5 against the exact update).
    ///
    /// `alpha` is a host value or a device scalar (`&GpuScalar<f64>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` or
    /// `y`; [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of
    /// the device (past one storage binding A goes in blocks, each updated from its parts of x and
    /// y, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `A` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let mut a = array![[1.0f64, 1.0], [1.0, 1.0]];
    /// wgblas::blas::dger(ctx, 2.0, array![1.0f64, 2.0].view(), array![3.0f64, 4.0].view(), a.view_mut())?;
    /// assert_eq!(a, array![[7.0, 9.0], [13.0, 17.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dger / dger_in: f64;
    (alpha: Scalar, x: VecRef, y: VecRef, a: MatMut) -> Result<()>
    /// The one core of [`sger`] and [`dger`] (`routine` names the one called), generic over the
    /// element type: the checks, the quick return, the uploads, the blocks past one storage
    /// binding ([`updates`]) and the write-back are shared; the kernels are those of the type
    /// ([`Level2`]).
    = async fn ger_in<T: Level2>(ctx, routine, wait) {
        crate::blas::owners!(ctx, routine, alpha, x, y, a);
        let (m, n) = a.dim();
        check_len(routine, "x", x.len(), m, "len(x) must equal the rows of A")?;
        check_len(
            routine,
            "y",
            y.len(),
            n,
            "len(y) must equal the columns of A",
        )?;
        check_dim(routine, "a", m.max(n))?;
        check_elem::<T>(ctx, routine)?;
        if m == 0 || n == 0 || alpha.is(T::ZERO) {
            return Ok(());
        }
        let ad = layout::matrix_any(ctx, routine, "a", a.view())?;
        let xd = layout::vector_any(ctx, routine, "x", &x)?;
        let yd = layout::vector_any(ctx, routine, "y", &y)?;
        let keep = Keep::default();
        let call = Call::new(routine, alpha, alpha, &ad, &xd, &yd, &keep);
        let d = T::dispatches(ctx, Kind::Ger, call)?;
        layout::finish_in(ctx, routine, &d, &mut [Out::Mat(&mut a, &ad)], wait).await
    }
}

/// The updates of ger: `A` whole, or past one storage binding its blocks (kept in `keep`),
/// each with its parts of `x` and `y` (elements of `T`).
pub(super) fn updates<'k, T>(ctx: &Context, c: &Call<'k, T>) -> Vec<Update<'k>> {
    let (a, x, y) = (c.a, c.x, c.y);
    let parts = c.keep.updates.get_or_init(|| {
        if super::blocks64::whole(ctx, a, &[x, y]) {
            Vec::new()
        } else {
            blocks(ctx, a, x, y, std::mem::size_of::<T>() as u64)
        }
    });
    if parts.is_empty() {
        vec![(x, y, a)]
    } else {
        parts.iter().map(|(x, y, a)| (x, y, a)).collect()
    }
}

/// One update `A_b ← alpha·x_b·y_bᵀ + A_b` of ger.
pub(super) type Update<'k> = (&'k VecOperand, &'k VecOperand, &'k MatOperand);

/// sger on the rank-update driver: one dispatch per update, a device alpha read into its
/// params.
pub(super) fn sger_dispatches<'k>(ctx: &Context, c: Call<'k, f32>) -> Vec<Dispatch<'k>> {
    let general = rank_update::Variant::General;
    let factors = (c.keep.factors).get_or_init(|| rank_update::factor_scratch(ctx, general, c.a));
    updates(ctx, &c)
        .into_iter()
        .flat_map(|(x, y, a)| rank_update::dispatch(ctx, general, c.alpha, x, y, a, factors))
        .collect()
}

/// The blocks of `A` past one storage binding (`elem` bytes per element), each with its parts
/// of `x` (its rows) and `y` (its columns).
fn blocks(
    ctx: &Context,
    ad: &MatOperand,
    xd: &VecOperand,
    yd: &VecOperand,
    elem: u64,
) -> Vec<(VecOperand, VecOperand, MatOperand)> {
    layout::mat_blocks(ctx, ad, elem, xd, yd)
        .into_iter()
        .map(|(rows, cols)| {
            (
                xd.part(ctx, elem, rows.0, rows.1),
                yd.part(ctx, elem, cols.0, cols.1),
                ad.block(ctx, elem, rows, cols),
            )
        })
        .collect()
}
