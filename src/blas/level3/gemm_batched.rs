use super::check_inner;
use super::common::{block_plans, dispatches, esize, level3, quick_return, Level3};
use crate::blas::{check_dim, check_len, check_shared};
use crate::drivers::gemm::{self, Block, Operand, Plan, Variant};
use crate::error::Result;
use crate::flags::Transpose;
use crate::layout::{self, BatchMut, BatchOperand, BatchRef, OutAs, Scalar};
use crate::Context;

level3! {
    /// `C_b ← alpha·op(A_b)·op(B_b) + beta·C_b` for every `b < batch`, `op(X) = X` or `Xᵀ`.
    ///
    /// BLAS: `sgemm_batched` (the strided-batched gemm of cuBLAS `cublasSgemmStridedBatched` and
    /// oneMKL `sgemm_batch_strided`, on ndarray views). `a` is batch × (m×k, or k×m for
    /// `transa = Yes`), `b` batch × (k×n, or n×k), `c` batch × m×n: axis 0 is the batch, each
    /// matrix is `op` of the last two axes. Every operand may have any strides (C order, F order,
    /// a batch of F-order matrices, mixed per operand, sliced, negative). A single A or B shared
    /// by the whole batch is a view with batch stride 0 (`a2.broadcast((batch, m, k))`): it is
    /// uploaded once and read by every product, with no copy (see [`crate::layout`]'s batch rules
    /// for the views that are gathered). Resident batches ([`crate::resident::GpuBatch`], and
    /// `.t()` of one) work in place.
    ///
    /// Semantics per product as [`sgemm`](crate::blas::sgemm) (DESIGN.md §3): k = 0 or
    /// `alpha = 0` gives `C ← beta·C` and reads neither A nor B; `beta = 0` never reads C (NaN or
    /// Inf there do not leak); a NaN or Inf alpha or beta is not 0; NaN and Inf of A and B
    /// propagate through every product. batch = 0 (or m, n = 0) is a quick return. Forward error
    /// bound per product: [`metrics::bounds::gemm`](crate::metrics::bounds::gemm) (factor ≤ 1).
    ///
    /// Kernel: the tile engine of `wgsl/level3/gemm.wgsl` with the batch folded into its grid:
    /// one dispatch covers the whole batch (workgroup `b·tiles + t` computes tile `t` of product
    /// `b`; the linear workgroup index runs over x and y of the grid, so a batch past 65,535 needs
    /// no split). Products with a side of at most 64 use 64-wide tiles. A k past 16,384 runs in
    /// k chunks of one dispatch each (lavapipe's loop limit), as for `sgemm`. Past one storage
    /// binding (issue 15), the batch runs in parts of consecutive products whose windows of A,
    /// B and C each fit one binding, one such dispatch per part; where a single product does
    /// not fit (a large shared matrix, large products, a batch interleaved in memory), each
    /// product runs as [`sgemm`](crate::blas::sgemm) does past one binding, in blocks.
    ///
    /// Past one buffer of the device (`ctx.max_buffer()`), a batch is held in several buffers
    /// (segments) as one operand: of whole products where one product fits one buffer (C
    /// order, a batch of F-order matrices, a [`GpuBatch`](crate::resident::GpuBatch)), else of
    /// whole rows (columns, for F-order matrices) of the products; a shared (broadcast) matrix
    /// as any matrix past one buffer, in segments of whole lines. The parts above are then
    /// also cut at the segment boundaries: a run of products lies in one segment of each
    /// operand, and a product across a boundary runs in blocks, each inside one segment. Up to
    /// 2^32 elements an operand and the device's memory.
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming the one of `a`,
    /// `b`, `c` whose batch length differs from the other two's (C's where all three differ), `b` (inner dimensions) or `c` (rows, columns);
    /// [`Error::TooLarge`](crate::Error::TooLarge) naming the operand past 2^32 elements, past
    /// the device's memory, or past one buffer where one of its lines (a row of a C-order
    /// matrix, a column of an F-order one; a whole product of a batch interleaved in memory)
    /// alone is past one buffer;
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) for a resident operand or device
    /// scalar of another context; [`Error::Gpu`](crate::Error::Gpu). On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array3};
    /// use wgblas::Transpose;
    /// let ctx = wgblas::Context::shared()?;
    /// // Two products with one shared A (batch stride 0, no copy).
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let b = Array3::from_shape_vec((2, 2, 1), vec![1.0f32, 0.0, 0.0, 1.0]).unwrap();
    /// let mut c = Array3::<f32>::zeros((2, 2, 1));
    /// wgblas::blas::sgemm_batched(
    ///     ctx, Transpose::No, Transpose::No, 1.0,
    ///     a.broadcast((2, 2, 2)).unwrap(), b.view(), 0.0, c.view_mut(),
    /// )?;
    /// assert_eq!(c, Array3::from_shape_vec((2, 2, 1), vec![1.0, 3.0, 2.0, 4.0]).unwrap());
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    sgemm_batched: f32;
    /// `C_b ← alpha·op(A_b)·op(B_b) + beta·C_b` in f64 for every `b < batch`.
    ///
    /// BLAS: `dgemm_batched` (cuBLAS `cublasDgemmStridedBatched`). As [`sgemm_batched`] in every
    /// rule (3-D views with any strides per operand, a broadcast A or B with batch stride 0 read
    /// with no copy, one dispatch for the whole batch, the semantics of DESIGN.md §3), in f64
    /// (`alias T = f64;`), `alpha` and `beta` host `f64`s or device scalars (`&GpuScalar<f64>`,
    /// tested on the device as in [`dgemm`](crate::blas::dgemm)). Forward error bound per product:
    /// [`metrics::bounds::gemm`](crate::metrics::bounds::gemm) with eps = 2^-52.
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`sgemm_batched`]. On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::Array3;
    /// use wgblas::Transpose;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = Array3::from_shape_fn((3, 2, 2), |(b, i, j)| (b + i + j) as f64);
    /// let mut c = Array3::<f64>::zeros((3, 2, 2));
    /// wgblas::blas::dgemm_batched(ctx, Transpose::No, Transpose::No, 1.0, a.view(), a.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c[[2, 1, 1]], 3.0 * 3.0 + 4.0 * 4.0);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dgemm_batched: f64;
    /// The core of [`sgemm_batched`], [`dgemm_batched`] and their `_async` twins, waiting for the
    /// read-back as `wait` says.
    async fn gemm_batched_in(ctx, r, wait; transa: Transpose, transb: Transpose; alpha: Scalar, a: BatchRef, b: BatchRef, beta: Scalar, c: BatchMut) {
        let (op_a, op_b) = (a.op(transa), b.op(transb));
        let (batch, m, n, k) = check_batched(r, &op_a, &op_b, c.dim())?;
        if quick_return(ctx, r, batch == 0 || m == 0 || n == 0, k, (&alpha, &beta))? {
            return Ok(());
        }
        let ad = layout::batch(ctx, r, "a", op_a)?;
        let bd = layout::batch(ctx, r, "b", op_b)?;
        // beta = 0: C is written in full without being read, so it is not uploaded.
        let c_in = match &c {
            BatchMut::Host(v) => BatchRef::Host(v.view()),
            BatchMut::Device(d) => BatchRef::Device(*d),
        };
        let cd = if beta.is(T::from(0.0)) {
            layout::batch_output(ctx, r, "c", c_in)?
        } else {
            layout::batch(ctx, r, "c", c_in)?
        };
        // Past one storage binding: runs of products whose windows fit one binding and one
        // segment of each operand; each other product in blocks as sgemm's.
        let (ops, e) = ([(&ad, (m, k)), (&bd, (k, n)), (&cd, (m, n))], esize::<T>());
        let (dims, s) = ((m, n, k), (alpha, beta));
        let whole = ops.iter().all(|(o, _)| o.buffer.size() <= ctx.max_binding());
        let (parts, single) = if whole {
            (Vec::new(), Vec::new())
        } else {
            runs(ctx, e, batch, ops)
        };
        let blocks = entry_blocks(ctx, e, &single, ops);
        let mut plans = Vec::with_capacity(parts.len() + blocks.len() + 1);
        if whole {
            plans.push(product(ctx, r, dims, s, batch, [&ad, &bd, &cd])?);
        }
        for (len, [a, b, c]) in &parts {
            plans.push(product(ctx, r, dims, s, *len, [a, b, c])?);
        }
        plans.extend(block_plans(ctx, r, s, &blocks)?);
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Batch(&mut c, &cd)], wait).await
    }
}

/// One engine call over `len` products of the batches `a`, `b`, `c` (whole, or parts).
fn product<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    dims: (usize, usize, usize),
    (alpha, beta): (Scalar<'a, T>, Scalar<'a, T>),
    len: usize,
    [a, b, c]: [&'a BatchOperand; 3],
) -> Result<Plan<'a>> {
    let variant = Variant {
        batch: len,
        ..Variant::default()
    };
    let (ao, bo, co) = (operand(a), operand(b), operand(c));
    T::engine(ctx, routine, dims, alpha, ao, bo, beta, co, variant)
}

/// A run of consecutive products of a batched product: its length and its windows of A, B
/// and C.
type Run = (usize, [BatchOperand; 3]);

/// The parts of a batched product past one storage binding (`ops`: each operand with the
/// shape of one of its matrices; elements of `e` bytes): runs of consecutive products, each
/// as long as the windows of every operand fit one binding for (halved from the whole batch)
/// and within one segment of each operand's buffer; and the products that no run holds (one
/// product alone past one binding, or across a segment boundary of an operand), to run each
/// in blocks ([`entry_blocks`]).
fn runs(
    ctx: &Context,
    e: u64,
    batch: usize,
    ops: [(&BatchOperand, (usize, usize)); 3],
) -> (Vec<Run>, Vec<usize>) {
    let fits = |len: usize| ops.iter().all(|(o, d)| o.part_fits(ctx, e, len, *d));
    if !fits(1) {
        return (Vec::new(), (0..batch).collect());
    }
    let mut len = batch;
    while len > 1 && !fits(len) {
        len = len.div_ceil(2);
    }
    let one = |b: (usize, usize)| ops.iter().all(|(o, d)| o.in_one_segment(e, b, *d));
    let (mut out, mut single) = (Vec::new(), Vec::new());
    let mut b0 = 0;
    while b0 < batch {
        // The longest run from b0 (at most `len`) in one segment of each operand: a shorter
        // run lies in a part of a longer one's span, so bisect.
        let (mut lo, mut hi) = (b0, (b0 + len).min(batch));
        if one((b0, hi)) {
            lo = hi;
        }
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if one((b0, mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if lo == b0 {
            single.push(b0);
            b0 += 1;
            continue;
        }
        out.push((lo - b0, ops.map(|(o, d)| o.part(ctx, e, (b0, lo), d))));
        b0 = lo;
    }
    (out, single)
}

/// The blocks of the products `products` of a batch (`ops` as in [`runs`]) that no run holds:
/// each product as a `sgemm` past one binding (`gemm::gemm_blocks`, its blocks cut at the
/// segment boundaries of each operand).
fn entry_blocks(
    ctx: &Context,
    e: u64,
    products: &[usize],
    ops: [(&BatchOperand, (usize, usize)); 3],
) -> Vec<Block> {
    let mut out = Vec::new();
    for &p in products {
        let [a, b, c] = ops.map(|(o, d)| o.entry(p, d));
        out.extend(gemm::gemm_blocks(ctx, e, &a, &b, &c));
    }
    out
}

fn operand(o: &BatchOperand) -> Operand<'_> {
    Operand {
        buffer: &o.buffer,
        offset: o.offset,
        rs: o.rs,
        cs: o.cs,
        bs: o.bs,
    }
}

/// The shape checks of the batched routines: `(batch, m, n, k)`.
fn check_batched<T>(
    routine: &'static str,
    op_a: &BatchRef<'_, T>,
    op_b: &BatchRef<'_, T>,
    (batch, m, n): (usize, usize, usize),
) -> Result<(usize, usize, usize, usize)> {
    let (ba, ma, k) = op_a.dim();
    let (bb, kb, nb) = op_b.dim();
    let what = "the batch lengths of A, B and C must be equal";
    let batch = check_shared(routine, what, &[("a", ba), ("b", bb), ("c", batch)])?;
    check_inner(routine, k, kb)?;
    check_len(
        routine,
        "c",
        m,
        ma,
        "rows of C must equal the rows of op(A)",
    )?;
    check_len(
        routine,
        "c",
        n,
        nb,
        "columns of C must equal the columns of op(B)",
    )?;
    check_dim(routine, "a", m.max(k))?;
    check_dim(routine, "b", n)?;
    check_dim(routine, "c", batch)?;
    Ok((batch, m, n, k))
}
