use super::common::{block_plans, dispatches, esize, level3, quick_return, Level3};
use super::{check_inner, check_shape};
use crate::blas::check_dim;
use crate::drivers::gemm::{self, Operand, Variant};
use crate::error::Result;
use crate::flags::Transpose;
use crate::launch::Wait;
use crate::layout::{self, stream, MatMut, MatOperand, MatRef, OutAs, Scalar};
use crate::Context;

/// The shape checks of [`sgemm`] and [`dgemm`]: `op(A)` m×k (`a`), `op(B)` k×n (`b`), `C` m×n
/// (`c`). Returns (m, k).
fn check_shapes(
    routine: &'static str,
    (m, k): (usize, usize),
    b: (usize, usize),
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_inner(routine, k, b.0)?;
    let what = [
        "rows of C must equal the rows of op(A)",
        "columns of C must equal the columns of op(B)",
    ];
    check_shape(routine, "c", c, (m, b.1), what)?;
    check_dim(routine, "a", m.max(k))?;
    check_dim(routine, "b", b.1)?;
    Ok((m, k))
}

level3! {
    /// `C ← alpha·op(A)·op(B) + beta·C`, `op(X) = X` or `Xᵀ`.
    ///
    /// BLAS: `sgemm`. `op(A)` is m×k, `op(B)` k×n, `C` m×n. Each operand may be in any layout
    /// (C order, F order, mixed, transposed, sliced, strided), with no copy. Reference semantics:
    /// k = 0 or `alpha = 0` gives `C ← beta·C` and reads neither A nor B; `beta = 0` never reads
    /// `C`, so NaN or Inf in `C` do not leak. These rules hold alike for an alpha or beta held on the
    /// device (`&GpuScalar`), which the kernel tests itself; a NaN or Inf alpha or beta is not 0, and
    /// NaN or Inf in A or B propagate through every product, a zero partner included (DESIGN.md §3).
    /// A k past 16,384 is split over several dispatches, so that no shader loop passes lavapipe's
    /// 65,535-iteration limit. Forward error bound:
    /// [`metrics::bounds::gemm`](crate::metrics::bounds::gemm) (factor ≤ 1).
    ///
    /// Kernel: the register-tiled tile engine of `wgsl/level3/gemm.wgsl` (8×8 per invocation;
    /// Volkov & Demmel, SC08), its workgroup tile (128×128 or 64×64), split-k, packing of
    /// operands it cannot read as vec4s, and the transposed problem for column-major `C` chosen
    /// per call from the shape and the adapter's limits ([`crate::tuning::choose`]).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `b` (inner dimensions)
    /// or `c`; [`Error::TooLarge`](crate::Error::TooLarge); [`Error::Gpu`](crate::Error::Gpu). On
    /// error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::Transpose;
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut c = Array2::<f32>::zeros((2, 2));
    /// wgblas::blas::sgemm(ctx, Transpose::No, Transpose::Yes, 1.0, a.view(), a.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[5.0, 11.0], [11.0, 25.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    sgemm: f32;
    /// `C ← alpha·op(A)·op(B) + beta·C` in f64, `op(X) = X` or `Xᵀ`.
    ///
    /// BLAS: `dgemm`. As [`sgemm`] in every rule (shapes, any layout per operand with no copy,
    /// k = 0 or `alpha = 0` reads neither A nor B, `beta = 0` never reads `C`, NaN or Inf alpha or
    /// beta is not 0, no zero-skip, k past 16,384 split over dispatches), on the same tile engine
    /// (`wgsl/level3/gemm.wgsl` instantiated with `alias T = f64;`; f64 tiles need twice the
    /// workgroup memory, so the engine picks among the tiles that fit). `alpha` and `beta` are
    /// `f64`s or device scalars (`&GpuScalar<f64>`, e.g. from
    /// [`resident::ddot`](crate::resident::ddot)), copied into the kernel's scalar buffer on the
    /// device, where the kernel applies the alpha = 0, beta = 0 and beta = 1 rules to their
    /// values. Forward error bound: that of
    /// [`metrics::bounds::gemm`](crate::metrics::bounds::gemm) with eps = 2^-52 (factor ≤ 1).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders (or [`Context::set_force_f64_fallback`] is on); otherwise as [`sgemm`]. On error
    /// `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::Transpose;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[1.0f64, 2.0], [3.0, 4.0]];
    /// let mut c = Array2::<f64>::zeros((2, 2));
    /// wgblas::blas::dgemm(ctx, Transpose::No, Transpose::Yes, 0.1, a.view(), a.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[0.1 * 5.0, 0.1 * 11.0], [0.1 * 11.0, 0.1 * 25.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dgemm: f64;
    /// The core of [`sgemm`], [`dgemm`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn gemm_in(ctx, r, wait; transa: Transpose, transb: Transpose; alpha: Scalar, a: MatRef, b: MatRef, beta: Scalar, c: MatMut) {
        let (op_a, op_b) = (a.op(transa), b.op(transb));
        let (m, k) = check_shapes(r, op_a.dim(), op_b.dim(), c.dim())?;
        if quick_return(ctx, r, m == 0 || op_b.ncols() == 0, k, (&alpha, &beta))? {
            return Ok(());
        }
        if let Some(rows) = stream_rows(ctx, &op_a, &op_b, &c) {
            return streamed(ctx, r, alpha, (op_a, op_b), beta, &mut c, rows, wait).await;
        }
        let ad = layout::matrix_any(ctx, r, "a", &op_a)?;
        let bd = layout::matrix_any(ctx, r, "b", &op_b)?;
        // beta = 0: the dispatches write every element of C without reading it (later k chunks
        // add to what the first wrote), so C is not uploaded.
        let cd = if beta.is(T::from(0.0)) {
            layout::matrix_output_any(ctx, r, "c", c.view())?
        } else {
            layout::matrix_any(ctx, r, "c", c.view())?
        };
        // Past one storage binding: C in blocks, the depth in panels (each C block's panels
        // summed, then alpha and beta applied once).
        let blocks = gemm::gemm_blocks(ctx, esize::<T>(), &ad, &bd, &cd);
        let plans = if blocks.is_empty() {
            vec![product(ctx, r, alpha, (&ad, &bd, &cd), beta)?]
        } else {
            block_plans(ctx, r, (alpha, beta), &blocks)?
        };
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Mat(&mut c, &cd)], wait).await
    }
}

/// The engine call of `C = alpha·A·B + beta·C` on whole operands (or one block of them).
fn product<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    alpha: Scalar<'a, T>,
    (a, b, c): (&'a MatOperand, &'a MatOperand, &'a MatOperand),
    beta: Scalar<'a, T>,
) -> Result<gemm::Plan<'a>> {
    let dims = (c.rows, c.cols, a.cols);
    let (ao, bo, co) = (Operand::of(a), Operand::of(b), Operand::of(c));
    T::engine(
        ctx,
        routine,
        dims,
        alpha,
        ao,
        bo,
        beta,
        co,
        Variant::default(),
    )
}

/// The rows of op(A) and C per block when a host product streams ([`streamed`]): A and C on
/// the host, C in C order (whose row blocks are dense) and at least two blocks of
/// [`Context::stream_block`] bytes, every operand well within one storage binding (no blocking past
/// it). Blocks are whole multiples of the engine's largest tile (128 rows).
fn stream_rows<T: Level3>(
    ctx: &Context,
    op_a: &MatRef<'_, T>,
    op_b: &MatRef<'_, T>,
    c: &MatMut<'_, T>,
) -> Option<usize> {
    let (MatRef::Host(a), MatMut::Host(cv)) = (op_a, c) else {
        return None;
    };
    let block = ctx.stream_block();
    let size = std::mem::size_of::<T>() as u64;
    let (m, n) = cv.dim();
    let bytes = (m * n) as u64 * size;
    // Row blocks of a C-order C are dense; those of other layouts have gaps (no direct plan).
    let dense = cv.strides()[1] == 1 && cv.strides()[0] == n as isize;
    // Within half a binding each: a strided view's span may be larger than its elements.
    let fits = |elems: usize| elems as u64 * size * 2 <= ctx.max_binding();
    if block == 0 || !dense || bytes < 2 * block || !fits(a.len()) || !fits(op_b.dim().0 * n) {
        return None;
    }
    let rows = m.div_ceil(bytes.div_ceil(block) as usize).div_ceil(128) * 128;
    (rows < m).then_some(rows)
}

/// `C ← alpha·op(A)·op(B) + beta·C` on host operands, streamed in blocks of `rows` rows of C
/// (and of op(A)): B (and, for beta ≠ 0, C) is uploaded first, then for each block the upload of
/// its rows of op(A), its product and the read-back of its rows of C are submitted at once,
/// before anything is waited for; then the blocks are written into C in order, each as soon as
/// the device has copied it out, while the device still computes the later ones; C's pages are
/// faulted in while the device computes. So the host's copies of A and C overlap the device's
/// work. Every block is one engine call over whole rows of C, checked by the same metric as the
/// whole product.
///
/// Errors found while recording or submitting leave C unchanged (nothing is written before
/// every block is submitted); a device lost while the blocks are read back stops the write-back
/// there, with the earlier blocks written (as a pipelined read-back does).
#[allow(clippy::too_many_arguments)]
async fn streamed<T: Level3>(
    ctx: &Context,
    r: &'static str,
    alpha: Scalar<'_, T>,
    (op_a, op_b): (MatRef<'_, T>, MatRef<'_, T>),
    beta: Scalar<'_, T>,
    c: &mut MatMut<'_, T>,
    rows: usize,
    wait: Wait,
) -> Result<()> {
    let (MatRef::Host(a), MatMut::Host(cv)) = (&op_a, c) else {
        unreachable!("stream_rows takes host A and C only")
    };
    let zero = beta.is(T::from(0.0));
    // C's elements (C order, no gaps: `stream_rows`), to be faulted in below.
    let (base, bytes) = (
        cv.as_mut_ptr().cast::<u8>(),
        cv.len() * std::mem::size_of::<T>(),
    );
    let mut views: Vec<_> = cv.axis_chunks_iter_mut(ndarray::Axis(0), rows).collect();
    let mut cds = Vec::with_capacity(views.len());
    for v in &views {
        cds.push(if zero {
            layout::matrix_output_any(ctx, r, "c", v.view())?
        } else {
            layout::matrix_any(ctx, r, "c", v.view())?
        });
    }
    let mut dests = Vec::with_capacity(views.len());
    for (v, cd) in views.iter_mut().zip(&cds) {
        dests.push(stream::direct(v, cd).ok_or_else(|| crate::Error::Gpu {
            routine: r,
            detail: "a streamed block of C has no direct read-back plan".into(),
        })?);
    }
    let sinks: Vec<_> = dests.iter().map(stream::sink).collect();
    let bd = layout::matrix_any(ctx, r, "b", &op_b)?;
    let mut submitted = Vec::with_capacity(cds.len());
    for (p, (cd, sink)) in cds.iter().zip(&sinks).enumerate() {
        let lo = p * rows;
        let ab = a.slice(ndarray::s![lo..lo + cd.rows, ..]);
        let ad = layout::matrix_any(ctx, r, "a", ab)?;
        let plan = product(ctx, r, alpha, (&ad, &bd, cd), beta)?;
        submitted.push(stream::submit_block::<T>(
            ctx,
            r,
            &dispatches(&[plan]),
            cd,
            sink,
            wait,
        )?);
    }
    // While the device computes: C's pages faulted in (a fresh output is reserved, not
    // mapped), so that the read-backs below copy at the speed of memory already mapped.
    // SAFETY: `base` holds C's `bytes` bytes, borrowed mutably by this call; nothing reads or
    // writes them until the read-backs below.
    unsafe { crate::transfer::touch_pages(base, bytes) };
    for ((s, cd), sink) in submitted.into_iter().zip(&cds).zip(&sinks) {
        if let Some(s) = s {
            stream::complete_block::<T>(ctx, r, s, cd, sink, wait).await?;
        }
    }
    Ok(())
}
