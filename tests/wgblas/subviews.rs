//! Sub-views of resident arrays (`GpuVector::slice`, `GpuMatrix::slice`, their `_mut` forms):
//! operands read and written in place with no copy, every element outside the view left as it
//! was, in both storage orders, through each path that writes a resident output (in place, a
//! result copied from a buffer of its own, a zero fill); out-of-range views are typed errors.
//! Small integers keep every product exact in f32, so results are compared exactly.

use ndarray::{s, Array1, Array2, ShapeBuilder};
use wgblas::{blas, Diag, Error, MatrixLayout, Side, Transpose, Uplo};

use crate::common::ctx;
use crate::describe;

fn ints(m: usize, n: usize, seed: usize, f_order: bool) -> Array2<f32> {
    let v = |(i, j): (usize, usize)| ((i * 7 + j * 3 + seed) % 5) as f32 - 2.0;
    if f_order {
        Array2::from_shape_fn((m, n).f(), v)
    } else {
        Array2::from_shape_fn((m, n), v)
    }
}

fn layout_of(f_order: bool) -> MatrixLayout {
    if f_order {
        MatrixLayout::ColMajor
    } else {
        MatrixLayout::RowMajor
    }
}

#[test]
fn vector_ranges_are_operands_in_place() {
    let ctx = ctx();
    let x = Array1::from_shape_fn(11, |i| i as f32 - 4.0);
    let y0 = Array1::from_shape_fn(11, |i| (i % 3) as f32);
    let gx = ctx.upload_vector(&x).unwrap();
    let mut gy = ctx.upload_vector(&y0).unwrap();
    // Reads: a dot product and reductions over ranges at unaligned offsets.
    let d = blas::sdot(ctx, gx.slice(3..8).unwrap(), gy.slice(1..6).unwrap()).unwrap();
    assert_eq!(d, x.slice(s![3..8]).dot(&y0.slice(s![1..6])));
    let n2 = blas::sasum(ctx, gx.slice(5..).unwrap()).unwrap();
    assert_eq!(n2, x.slice(s![5..]).iter().map(|v| v.abs()).sum::<f32>());
    // The index is relative to the range: x[2..7] = [−2, −1, 0, 1, 2], first maximum at 0.
    assert_eq!(blas::isamax(ctx, gx.slice(2..7).unwrap()).unwrap(), 0);
    // Writes: y[4..9] += 2·x[0..5], the rest of y unchanged.
    blas::saxpy(
        ctx,
        2.0,
        gx.slice(..5).unwrap(),
        gy.slice_mut(4..9).unwrap(),
    )
    .unwrap();
    let mut want = y0.clone();
    want.slice_mut(s![4..9]).scaled_add(2.0, &x.slice(s![..5]));
    assert_eq!(gy.to_array().unwrap(), want);
    blas::sscal(ctx, -3.0, gy.slice_mut(9..=10).unwrap()).unwrap();
    want.slice_mut(s![9..]).mapv_inplace(|v| -3.0 * v);
    assert_eq!(gy.to_array().unwrap(), want);
    // An empty range is a valid, empty operand.
    assert_eq!(
        blas::sdot(ctx, gx.slice(4..4).unwrap(), gy.slice(0..0).unwrap()).unwrap(),
        0.0
    );
}

#[test]
fn matrix_blocks_are_gemm_and_gemv_operands_in_both_orders() {
    let ctx = ctx();
    for f in [false, true] {
        let a = ints(7, 9, 1, f);
        let b = ints(8, 6, 2, !f);
        let c0 = ints(8, 10, 3, f);
        let ga = ctx.upload_matrix(&a).unwrap();
        let gb = ctx.upload_matrix(&b).unwrap();
        let mut gc = ctx.upload_matrix(&c0).unwrap();
        assert_eq!(gc.layout(), layout_of(f));
        // C[1..5, 3..8] = 2·A[1..5, 2..8]·B[1..7, ..5] − C[1..5, 3..8]
        blas::sgemm(
            ctx,
            Transpose::No,
            Transpose::No,
            2.0,
            ga.slice(1..5, 2..8).unwrap(),
            gb.slice(1..7, ..5).unwrap(),
            -1.0,
            gc.slice_mut(1..5, 3..8).unwrap(),
        )
        .unwrap();
        let mut want = c0.clone();
        let prod = a.slice(s![1..5, 2..8]).dot(&b.slice(s![1..7, ..5])) * 2.0;
        let blk = &prod - &c0.slice(s![1..5, 3..8]);
        want.slice_mut(s![1..5, 3..8]).assign(&blk);
        assert_eq!(gc.to_array().unwrap(), want, "sgemm, F order: {f}");
        // A transposed block: C[..3, ..2] = A[2..4, 0..3]ᵀ · B[0..2, 0..2], beta = 0.
        blas::sgemm(
            ctx,
            Transpose::No,
            Transpose::No,
            1.0,
            ga.slice(2..4, 0..3).unwrap().t(),
            gb.slice(..2, ..2).unwrap(),
            0.0,
            gc.slice_mut(..3, ..2).unwrap(),
        )
        .unwrap();
        let blk = a.slice(s![2..4, 0..3]).t().dot(&b.slice(s![..2, ..2]));
        want.slice_mut(s![..3, ..2]).assign(&blk);
        assert_eq!(
            gc.to_array().unwrap(),
            want,
            "sgemm on a transposed block, F order: {f}"
        );
        // A range of rows and of columns as sgemv operands.
        let gx = ctx
            .upload_vector(&Array1::from_shape_fn(9, |i| i as f32 - 3.0))
            .unwrap();
        let mut gy = ctx
            .upload_vector(&Array1::<f32>::from_elem(12, 5.0))
            .unwrap();
        blas::sgemv(
            ctx,
            Transpose::No,
            1.0,
            ga.slice(3..6, ..).unwrap(),
            &gx,
            1.0,
            gy.slice_mut(6..9).unwrap(),
        )
        .unwrap();
        let x = Array1::from_shape_fn(9, |i| i as f32 - 3.0);
        let mut wy = Array1::<f32>::from_elem(12, 5.0);
        let r = a.slice(s![3..6, ..]).dot(&x) + 5.0;
        wy.slice_mut(s![6..9]).assign(&r);
        assert_eq!(
            gy.to_array().unwrap(),
            wy,
            "sgemv on rows 3..6, F order: {f}"
        );
        blas::sgemv(
            ctx,
            Transpose::Yes,
            1.0,
            ga.slice(.., 4..6).unwrap(),
            gx.slice(..7).unwrap(),
            0.0,
            gy.slice_mut(..2).unwrap(),
        )
        .unwrap();
        let r = a.slice(s![.., 4..6]).t().dot(&x.slice(s![..7]));
        wy.slice_mut(s![..2]).assign(&r);
        assert_eq!(
            gy.to_array().unwrap(),
            wy,
            "sgemv on columns 4..6, F order: {f}"
        );
    }
}

/// The triangular routines: strsv solves in place, strmv and strmm compute into a buffer of
/// their own and copy the result in (only the view's elements), strsm with alpha = 0 fills
/// the view with zeros (only the view's elements).
#[test]
fn triangular_routines_write_only_the_view() {
    let ctx = ctx();
    for f in [false, true] {
        // A well-conditioned unit-diagonal upper triangle inside a bigger matrix.
        let mut a = ints(8, 8, 4, f);
        for i in 0..8 {
            a[[i, i]] = 1.0;
        }
        let ga = ctx.upload_matrix(&a).unwrap();
        let t = a.slice(s![2..7, 1..6]).to_owned();
        let upper = |m: &Array2<f32>| {
            Array2::from_shape_fn(m.dim(), |(i, j)| if i <= j { m[[i, j]] } else { 0.0 })
        };
        let tu = {
            let mut u = upper(&t);
            for i in 0..5 {
                u[[i, i]] = 1.0;
            }
            u
        };
        let x0 = Array1::from_shape_fn(10, |i| (i % 4) as f32 - 1.0);
        // strmv: x[3..8] ← U·x[3..8].
        let mut gx = ctx.upload_vector(&x0).unwrap();
        let (u, no, unit) = (Uplo::Upper, Transpose::No, Diag::Unit);
        let sub = || ga.slice(2..7, 1..6).unwrap();
        blas::strmv(ctx, u, no, unit, sub(), gx.slice_mut(3..8).unwrap()).unwrap();
        let mut want = x0.clone();
        let r = tu.dot(&x0.slice(s![3..8]));
        want.slice_mut(s![3..8]).assign(&r);
        assert_eq!(gx.to_array().unwrap(), want, "strmv, F order: {f}");
        // strsv undoes it, in place.
        blas::strsv(ctx, u, no, unit, sub(), gx.slice_mut(3..8).unwrap()).unwrap();
        assert_eq!(gx.to_array().unwrap(), x0, "strsv, F order: {f}");
        // strmm: B[1..6, 2..5] ← U·B[1..6, 2..5] inside a 7×6 B.
        let b0 = ints(7, 6, 5, !f);
        let mut gb = ctx.upload_matrix(&b0).unwrap();
        let block = gb.slice_mut(1..6, 2..5).unwrap();
        blas::strmm(ctx, Side::Left, u, no, unit, 1.0, sub(), block).unwrap();
        let mut wb = b0.clone();
        let r = tu.dot(&b0.slice(s![1..6, 2..5]));
        wb.slice_mut(s![1..6, 2..5]).assign(&r);
        assert_eq!(gb.to_array().unwrap(), wb, "strmm, F order: {f}");
        // strsm with alpha = 0: the block becomes 0, nothing else moves.
        let (a3, block) = (
            ga.slice(2..5, 2..5).unwrap(),
            gb.slice_mut(4..7, 1..4).unwrap(),
        );
        blas::strsm(ctx, Side::Right, u, no, unit, 0.0, a3, block).unwrap();
        wb.slice_mut(s![4..7, 1..4]).fill(0.0);
        assert_eq!(gb.to_array().unwrap(), wb, "strsm alpha = 0, F order: {f}");
    }
}

#[test]
#[allow(clippy::reversed_empty_ranges)] // reversed ranges are among the errors tested
fn out_of_range_views_are_typed_errors() {
    let ctx = ctx();
    let mut gx = ctx.upload_vector(&Array1::<f32>::zeros(5)).unwrap();
    let mut ga = ctx.upload_matrix(&Array2::<f32>::zeros((3, 4))).unwrap();
    let range_err = |e: Error, routine: &str, arg: &str| match e {
        Error::OutOfRange {
            routine: r,
            arg: a,
            ref detail,
        } => {
            assert_eq!((r, a), (routine, arg), "{e}");
            assert!(!detail.is_empty());
        }
        other => panic!("expected OutOfRange, got {other}"),
    };
    range_err(gx.slice(3..6).unwrap_err(), "slice", "range");
    range_err(gx.slice_mut(4..2).unwrap_err(), "slice_mut", "range");
    range_err(ga.slice(2..1, ..).unwrap_err(), "slice", "rows");
    range_err(ga.slice(.., 0..=4).unwrap_err(), "slice", "cols");
    range_err(ga.slice_mut(..4, ..).unwrap_err(), "slice_mut", "rows");
    // Whole and empty views are fine.
    assert_eq!(ga.slice(.., ..).unwrap().dim(), (3, 4));
    assert_eq!(ga.slice(3.., 4..).unwrap().dim(), (0, 0));
    assert_eq!(gx.slice(5..).unwrap().len(), 0);
    // A view of the wrong shape for the routine is the routine's own typed error.
    let mut y = Array1::<f32>::zeros(3);
    let e = blas::sgemv(
        ctx,
        Transpose::No,
        1.0,
        ga.slice(.., 1..).unwrap(),
        gx.slice(..2).unwrap(),
        0.0,
        &mut y,
    )
    .unwrap_err();
    describe::assert_named(&e, ("DimensionMismatch", "sgemv", "x"));
}
