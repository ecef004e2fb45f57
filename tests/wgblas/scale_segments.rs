//! Operands past one *buffer* (issue 15): held in several buffers (segments) and processed in
//! parts that each lie in one segment, against OpenBLAS with each routine's DESIGN.md §2 metric
//! (`metrics::spec`) and against hand-computed values.
//!
//! Cheap sizes on a context whose buffers are lowered to 64 KiB ([`Context::set_max_buffer`]:
//! at most 16,384 f32 a segment, dispatches binding at most 32 KiB): a vector of 100,003 f32 is
//! held in seven segments of 14,336 elements, a 301×257 matrix in five segments of 61 whole
//! rows (62,708 bytes, not a multiple of 256). An operand one of whose lines alone is past one
//! buffer cannot be held so: `TooLarge` naming it.

use std::sync::OnceLock;

use ndarray::{s, Array1, Array2, ShapeBuilder};
use wgblas::metrics::{bounds, forward_factor, forward_factor_scalar};
use wgblas::{blas, Context, Error, GpuMatrix, GpuVector, MatrixLayout};

use crate::common::*;
use crate::describe::{self, Case};
use crate::gemm::Gemm;
use crate::gemmtr::Gemmtr;
use crate::gemv::Gemv;
use crate::ger::Ger;
use crate::symm::Symm;
use crate::symv::Symv;
use crate::syr::Syr;
use crate::syr2::Syr2;
use crate::syr2k::Syr2k;
use crate::syrk::Syrk;
use crate::trmm::Trmm;
use crate::trmv::Trmv;
use crate::trsm::Trsm;
use crate::trsv::Trsv;
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::{Left, Right},
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// Elements of one buffer at the lowered limit: every range of more than this many elements
/// crosses a segment boundary.
const SEG: usize = 16_384;

/// A vector length spread over seven segments, ending inside the last one.
const N: usize = 100_003;

/// A context whose buffers hold at most 64 KiB (dispatches bind at most 32 KiB of them).
fn seg() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    lowered(&CTX, |c| {
        assert_eq!(c.set_max_buffer(64 << 10), 64 << 10);
        assert!(c.max_binding() <= 32 << 10);
    })
}

/// The logical elements of `v` in a standard-layout array (`to_owned` keeps a reversed view's
/// negative stride, which the OpenBLAS oracle would read past its end).
fn owned(v: ndarray::ArrayView1<f32>) -> Array1<f32> {
    v.iter().copied().collect()
}

/// Fails unless `err` is `TooLarge` naming `routine` and `arg`.
#[track_caller]
fn too_large(err: Error, routine: &str, arg: &str) {
    match &err {
        Error::TooLarge {
            routine: r, arg: a, ..
        } if *r == routine && *a == arg => {}
        _ => panic!("expected TooLarge from {routine} {arg}, got {err}"),
    }
}

/// Fails unless `value` passes `routine`'s threshold (DESIGN.md §2).
#[track_caller]
fn passes(routine: &str, value: f64) {
    describe::passes(routine, value, "");
}

#[test]
fn resident_round_trips_past_one_buffer() {
    let ctx = seg();
    let mut r = rng(3100);
    let x = rand_vec(&mut r, N);
    let gx = ctx.upload_vector(&x).unwrap();
    assert_eq!(gx.to_array().unwrap(), x);
    // A step-3 view, gathered in logical order into the segments.
    let long = rand_vec(&mut r, 3 * N);
    let g3 = ctx.upload_vector(&long.slice(s![..;3])).unwrap();
    assert_eq!(g3.to_array().unwrap(), long.slice(s![..;3]));
    let z = GpuVector::<f32>::zeros(ctx, N).unwrap();
    assert!(z.to_array().unwrap().iter().all(|&v| v.to_bits() == 0));
    // Matrices: C order and F order (segments of whole rows / columns), a stepped view
    // (gathered in C order), zeros in both layouts, and several read back in one submission.
    let a = rand_mat(&mut r, 301, 257);
    let ga = ctx.upload_matrix(&a).unwrap();
    assert_eq!(ga.to_array().unwrap(), a);
    let af = a.t().as_standard_layout().into_owned().reversed_axes();
    let gf = ctx.upload_matrix(&af).unwrap();
    assert_eq!(gf.layout(), MatrixLayout::ColMajor);
    assert_eq!(gf.to_array().unwrap(), a);
    let wide = rand_mat(&mut r, 602, 257);
    let gs = ctx.upload_matrix(&wide.slice(s![..;2, ..])).unwrap();
    assert_eq!(gs.to_array().unwrap(), wide.slice(s![..;2, ..]));
    for layout in [MatrixLayout::RowMajor, MatrixLayout::ColMajor] {
        let z = GpuMatrix::<f32>::zeros(ctx, (257, 301), layout).unwrap();
        assert!(z.to_array().unwrap().iter().all(|&v| v.to_bits() == 0));
    }
    let (xb, ab, fb) = ctx.read_back((&gx, &ga, &gf)).unwrap();
    assert_eq!((xb, ab), (x, a.clone()));
    assert_eq!(fb, a);
    // f64 too (segments of 8,192 elements).
    let d = Array1::from_shape_fn(N, |i| i as f64 * 0.5);
    let gd = ctx.upload_vector(&d).unwrap();
    assert_eq!(gd.to_array().unwrap(), d);
}

#[test]
fn saxpy_across_segments_host_strided_and_resident() {
    let ctx = seg();
    let mut r = rng(3200);
    let alpha = -0.7;
    let check = |got: &Array1<f32>, x: &Array1<f32>, y: &Array1<f32>| {
        let want = oracle::saxpy(alpha, x.view(), y.view());
        let bound = bounds::axpy(alpha, x.view(), y.view());
        passes("saxpy", forward_factor(got, &want, &bound).unwrap());
    };
    let (x, y) = (rand_vec(&mut r, N), rand_vec(&mut r, N));
    let mut got = y.clone();
    blas::saxpy(ctx, alpha, x.view(), got.view_mut()).unwrap();
    check(&got, &x, &y);
    // A step-2 x (gathered) and a reversed y (its span, negative stride: cut at other places).
    let x2 = rand_vec(&mut r, 2 * N);
    let mut rev = y.clone();
    blas::saxpy(ctx, alpha, x2.slice(s![..;2]), rev.slice_mut(s![..;-1])).unwrap();
    let mut got = owned(rev.slice(s![..;-1]));
    let want_y = owned(y.slice(s![..;-1]));
    check(&got, &owned(x2.slice(s![..;2])), &want_y);
    // Resident, whole and as ranges: one across segment boundaries, one short one.
    let gx = ctx.upload_vector(&x).unwrap();
    let mut gy = ctx.upload_vector(&y).unwrap();
    blas::saxpy(ctx, alpha, &gx, &mut gy).unwrap();
    check(&gy.to_array().unwrap(), &x, &y);
    let mut gy = ctx.upload_vector(&y).unwrap();
    let (lo, hi) = (SEG - 100, 3 * SEG + 7);
    blas::saxpy(
        ctx,
        alpha,
        gx.slice(lo..hi).unwrap(),
        gy.slice_mut(lo + 1..hi + 1).unwrap(),
    )
    .unwrap();
    blas::saxpy(
        ctx,
        alpha,
        gx.slice(2 * SEG + 10..2 * SEG + 500).unwrap(),
        gy.slice_mut(5 * SEG..5 * SEG + 490).unwrap(),
    )
    .unwrap();
    got = gy.to_array().unwrap();
    // Elements outside both ranges are untouched (bound 0: only an exact value passes);
    // inside, the metric against OpenBLAS.
    let mut want = y.clone();
    let mut bound = Array1::<f64>::zeros(N);
    for (xr, yr) in [
        (lo..hi, lo + 1..hi + 1),
        (2 * SEG + 10..2 * SEG + 500, 5 * SEG..5 * SEG + 490),
    ] {
        let (xs, ys) = (x.slice(s![xr]), y.slice(s![yr.clone()]));
        want.slice_mut(s![yr.clone()])
            .assign(&oracle::saxpy(alpha, xs, ys));
        bound.slice_mut(s![yr]).assign(&bounds::axpy(alpha, xs, ys));
    }
    passes("saxpy", forward_factor(&got, &want, &bound).unwrap());
}

#[test]
fn reductions_across_segments() {
    let ctx = seg();
    let mut r = rng(3300);
    let (x, y) = (rand_vec(&mut r, N), rand_vec(&mut r, N));
    let dot = |got: f32, x: &Array1<f32>, y: &Array1<f32>| {
        let want = oracle::sdot(x.view(), y.view());
        passes(
            "sdot",
            forward_factor_scalar(got, want, bounds::dot(x.view(), y.view())),
        );
    };
    dot(blas::sdot(ctx, x.view(), y.view()).unwrap(), &x, &y);
    // Strided: a step-2 x and a reversed y.
    let x2 = rand_vec(&mut r, 2 * N);
    let got = blas::sdot(ctx, x2.slice(s![..;2]), y.slice(s![..;-1])).unwrap();
    dot(got, &owned(x2.slice(s![..;2])), &owned(y.slice(s![..;-1])));
    // Resident, whole and a range across a boundary.
    let (gx, gy) = (
        ctx.upload_vector(&x).unwrap(),
        ctx.upload_vector(&y).unwrap(),
    );
    let got = wgblas::resident::sdot(ctx, &gx, &gy)
        .unwrap()
        .get()
        .unwrap();
    dot(got, &x, &y);
    let got = blas::sdot(
        ctx,
        gx.slice(SEG - 3..4 * SEG).unwrap(),
        gy.slice(SEG..4 * SEG + 3).unwrap(),
    )
    .unwrap();
    dot(
        got,
        &x.slice(s![SEG - 3..4 * SEG]).to_owned(),
        &y.slice(s![SEG..4 * SEG + 3]).to_owned(),
    );
    // sasum and snrm2: small integers, exact sums (Σ over 20,000 periods of 0..5, then 0+1+2).
    let ints = Array1::from_shape_fn(N, |i| (i % 5) as f32);
    assert_eq!(blas::sasum(ctx, ints.view()).unwrap(), 200_003.0);
    let twos = Array1::<f32>::from_elem(90_000, 2.0);
    assert_eq!(
        blas::snrm2(ctx, &ctx.upload_vector(&twos).unwrap()).unwrap(),
        600.0
    );
}

#[test]
fn isamax_first_nan_and_lowest_index_across_segments() {
    let ctx = seg();
    // The largest |x| at two places, segments apart: the lower index wins.
    let mut x = Array1::from_shape_fn(N, |i| ((i % 13) as f32 - 6.0) * 0.5);
    x[SEG + 5] = -40.0;
    x[4 * SEG + 1] = 40.0;
    assert_eq!(blas::isamax(ctx, x.view()).unwrap(), SEG + 5);
    let gx = ctx.upload_vector(&x).unwrap();
    assert_eq!(
        wgblas::resident::isamax(ctx, &gx).unwrap().get().unwrap(),
        SEG + 5
    );
    // The first NaN wins over any value, and over a later NaN in a later segment.
    x[3 * SEG + 2] = f32::NAN;
    x[5 * SEG] = f32::NAN;
    assert_eq!(blas::isamax(ctx, x.view()).unwrap(), 3 * SEG + 2);
    // Reversed: logical index i is x[N - 1 - i], so the NaN at 5·SEG comes first.
    assert_eq!(
        blas::isamax(ctx, x.slice(s![..;-1])).unwrap(),
        N - 1 - 5 * SEG
    );
    let gx = ctx.upload_vector(&x).unwrap();
    assert_eq!(blas::isamax(ctx, &gx).unwrap(), 3 * SEG + 2);
    // A range that starts after the first NaN.
    assert_eq!(
        blas::isamax(ctx, gx.slice(3 * SEG + 3..N).unwrap()).unwrap(),
        5 * SEG - (3 * SEG + 3)
    );
}

#[test]
fn copy_scal_swap_across_segments() {
    let ctx = seg();
    let mut r = rng(3400);
    let x = rand_vec(&mut r, N);
    let mut y = Array1::<f32>::from_elem(N, f32::NAN);
    blas::scopy(ctx, x.view(), y.view_mut()).unwrap();
    passes(
        "scopy",
        wgblas::metrics::max_ulp_f32(&y, &x).unwrap() as f64,
    );
    let mut gy = GpuVector::<f32>::zeros(ctx, N).unwrap();
    blas::scopy(ctx, &ctx.upload_vector(&x).unwrap(), &mut gy).unwrap();
    blas::sscal(ctx, -2.0, &mut gy).unwrap();
    let want = x.mapv(|v| -2.0 * v);
    passes(
        "sscal",
        wgblas::metrics::max_ulp_f32(&gy.to_array().unwrap(), &want).unwrap() as f64,
    );
    let mut a = x.clone();
    let mut b = Array1::<f32>::from_elem(N, 7.0);
    blas::sswap(ctx, a.view_mut(), b.slice_mut(s![..;-1])).unwrap();
    assert!(a.iter().all(|&v| v == 7.0));
    assert_eq!(b.slice(s![..;-1]), x);
    // Rotation by (c, s) = (0, 1): x ← y, y ← −x, resident.
    let mut p = ctx.upload_vector(&x).unwrap();
    let mut q = ctx.upload_vector(&Array1::<f32>::ones(N)).unwrap();
    blas::srot(ctx, &mut p, &mut q, 0.0, 1.0).unwrap();
    let (p, q) = ctx.read_back((&p, &q)).unwrap();
    assert!(p.iter().all(|&v| v == 1.0));
    assert!(q.iter().zip(&x).all(|(a, b)| *a == -b));
}

#[test]
fn sgemv_with_a_past_one_buffer() {
    // A of 300×200 (60,000 f32, four segments) in every layout, both transposes, against
    // OpenBLAS with the forward factor (`gemv::check_on`).
    let mut seed = 3500;
    for la in LAYOUTS {
        for t in [No, Yes] {
            for (lx, ly) in [
                (VLayout::Unit, VLayout::Unit),
                (VLayout::Reversed, VLayout::Step2),
            ] {
                seed += 1;
                crate::gemv::check_on(seg(), seed, (300, 200), t, -0.7, 0.9, la, lx, ly);
            }
        }
    }
    // Resident A (F order) and its transpose.
    let ctx = seg();
    let mut r = rng(3550);
    let a = rand_mat(&mut r, 257, 301);
    let af = a.t().as_standard_layout().into_owned().reversed_axes();
    let ga = ctx.upload_matrix(&af).unwrap();
    for t in [No, Yes] {
        let (rows, cols) = if t == No { (257, 301) } else { (301, 257) };
        let x = rand_vec(&mut r, cols);
        let y = rand_vec(&mut r, rows);
        let mut gy = ctx.upload_vector(&y).unwrap();
        blas::sgemv(
            ctx,
            t,
            0.8,
            &ga,
            &ctx.upload_vector(&x).unwrap(),
            0.5,
            &mut gy,
        )
        .unwrap();
        let want = oracle::sgemv(t, 0.8, a.view(), x.view(), 0.5, y.view());
        let bound = bounds::gemv(t, 0.8, a.view(), x.view(), 0.5, y.view());
        passes(
            "sgemv",
            forward_factor(&gy.to_array().unwrap(), &want, &bound).unwrap(),
        );
    }
}

#[test]
fn sgemm_with_each_operand_past_one_buffer() {
    // A, B, C in turn past one buffer (40,000 f32), then all three (22,500 each); every layout
    // of the segmented operand, both transposes, beta = 0 (C never read) and beta ≠ 0, against
    // OpenBLAS with the forward factor (`gemm::check_on`).
    let mut seed = 3600;
    for (dims, big) in [
        ((200, 8, 200), 0),
        ((8, 200, 200), 1),
        ((200, 200, 8), 2),
        ((150, 150, 150), 0),
    ] {
        for (ta, tb) in [(No, No), (Yes, Yes)] {
            for l in LAYOUTS {
                let beta = if seed % 2 == 0 { 0.0 } else { 0.9 };
                seed += 1;
                let mut layouts = [Layout::C, LAYOUTS[(seed as usize) % 4], Layout::F];
                layouts[big] = l;
                crate::gemm::check_on(seg(), seed, dims, ta, tb, -0.7, beta, layouts);
            }
        }
    }
}

#[test]
fn sgemm_resident_segmented_operands_and_views() {
    // Resident A (F order), B as the transpose of a C-order matrix, C (C order), each past one
    // buffer, and then C's block across a segment boundary as the output.
    let ctx = seg();
    let crate::scale::ResidentGemm {
        a,
        bt,
        c,
        ga,
        gbt,
        mut gc,
    } = crate::scale::ResidentGemm::new(ctx, 3700, (180, 130, 170));
    let (nn, b) = (No, bt.t().to_owned());
    blas::sgemm(ctx, nn, nn, 0.6, &ga, gbt.t(), 0.5, &mut gc).unwrap();
    let want = oracle::sgemm(nn, nn, 0.6, a.view(), b.view(), 0.5, c.view());
    let bound = bounds::gemm(nn, nn, 0.6, a.view(), b.view(), 0.5, c.view());
    passes(
        "sgemm",
        forward_factor(&gc.to_array().unwrap(), &want, &bound).unwrap(),
    );
    // Rows 100..180 of C (segments hold at most 126 rows of 130): a block across a boundary;
    // the other rows are untouched.
    let mut gc = ctx.upload_matrix(&c).unwrap();
    let a_rows = ga.slice(100..180, ..).unwrap();
    blas::sgemm(
        ctx,
        nn,
        nn,
        0.6,
        a_rows,
        gbt.t(),
        0.5,
        gc.slice_mut(100..180, ..).unwrap(),
    )
    .unwrap();
    let got = gc.to_array().unwrap();
    assert_eq!(got.slice(s![..100, ..]), c.slice(s![..100, ..]));
    let (a2, c2) = (a.slice(s![100.., ..]), c.slice(s![100.., ..]));
    let want = oracle::sgemm(nn, nn, 0.6, a2, b.view(), 0.5, c2);
    let bound = bounds::gemm(nn, nn, 0.6, a2, b.view(), 0.5, c2);
    passes(
        "sgemm",
        forward_factor(&got.slice(s![100.., ..]), &want, &bound).unwrap(),
    );
}

/// One case on the segmented context in f32 and, where the adapter has f64 shaders, in f64.
fn both<R: describe::Routine>(case: &Case) {
    describe::check_on::<R, f32>(seg(), case);
    if seg().native_f64() {
        describe::check_on::<R, f64>(seg(), case);
    }
}

#[test]
fn level2_with_a_past_one_buffer() {
    // A of 260×200 (ger) or 260×260 (the others), in C and F order (segments of whole rows,
    // of whole columns: 48 lines of 260 f32, 24 of 260 f64, which the square blocks of 32 f32
    // or 16 f64 would cross without the cuts), both triangles, against OpenBLAS with each
    // routine's metric (`describe::check_on`), f32 and f64.
    let mut seed = 3800;
    for la in [Layout::C, Layout::F] {
        for (uplo, trans) in [(Lower, No), (Upper, Yes)] {
            seed += 1;
            let case = |m, n| {
                Case::new(seed, m, n)
                    .flags(uplo, trans, NonUnit)
                    .scalars(-0.7, 0.9)
                    .layouts(la, VLayout::Unit, VLayout::Reversed)
            };
            both::<Ger>(&case(260, 200));
            both::<Syr>(&case(260, 260));
            both::<Syr2>(&case(260, 260));
            both::<Symv>(&case(260, 260));
            both::<Trmv>(&case(260, 260));
            both::<Trsv>(&case(260, 260));
        }
    }
}

#[test]
fn level3_with_operands_past_one_buffer() {
    // f32: C of 260×260 and A, B of 260×70 (or 70×260), each past one buffer (segments of 48
    // lines of 260, or 224 of 70), in C and F order, both triangles, against OpenBLAS with
    // each routine's metric.
    let mut seed = 3900;
    for (la, lc) in [(Layout::C, Layout::F), (Layout::F, Layout::C)] {
        for (uplo, trans) in [(Lower, No), (Upper, Yes)] {
            seed += 1;
            let flags = |c: Case| {
                c.flags(uplo, trans, NonUnit)
                    .scalars(-0.7, 0.9)
                    .mats([la, lc, lc])
            };
            let on = |k| flags(Case::mnk(seed, 260, 260, k));
            describe::check_on::<Syrk, f32>(seg(), &on(70));
            describe::check_on::<Syr2k, f32>(seg(), &on(70));
            describe::check_on::<Gemmtr, f32>(seg(), &on(70).transb(trans));
            for side in [Left, Right] {
                let (m, n) = if side == Left { (260, 70) } else { (70, 260) };
                let case = flags(Case::new(seed, m, n).side(side));
                describe::check_on::<Symm, f32>(seg(), &case);
                describe::check_on::<Trmm, f32>(seg(), &case.scalars(-0.7, 0.0));
            }
        }
    }
    // f64 (at most 8,192 a segment): C of 150×150 and A, B of 150×60 (or 60×150), each past one
    // buffer, one set of layouts and flags; dgemm's f32 twin is
    // `sgemm_with_each_operand_past_one_buffer`'s.
    if seg().native_f64() {
        let flags = |c: Case| {
            c.flags(Lower, No, NonUnit)
                .scalars(-0.7, 0.9)
                .mats([Layout::C, Layout::F, Layout::F])
        };
        let on = flags(Case::mnk(3905, 150, 150, 60));
        describe::check_on::<Syrk, f64>(seg(), &on);
        describe::check_on::<Syr2k, f64>(seg(), &on);
        describe::check_on::<Gemmtr, f64>(seg(), &on);
        describe::check_on::<Gemm, f64>(seg(), &on);
        for side in [Left, Right] {
            let (m, n) = if side == Left { (150, 60) } else { (60, 150) };
            let case = flags(Case::new(3905, m, n).side(side));
            describe::check_on::<Symm, f64>(seg(), &case);
            describe::check_on::<Trmm, f64>(seg(), &case.scalars(-0.7, 0.0));
        }
    }
}

#[test]
fn gemv_and_ger_vectors_past_one_buffer() {
    // x (sgemv, no transpose; sger, dger) or y (sgemv, transposed) of 20,000 elements, past
    // one buffer, beside an A of lines of 3 (3×20,000 in F order, or 20,000×3 in C order):
    // the blocks are cut at the vectors' segment boundaries too.
    for (seed, (m, n), trans) in [(4100, (3, 20_000), No), (4101, (20_000, 3), Yes)] {
        let case = Case::new(seed, m, n)
            .flags(Lower, trans, NonUnit)
            .scalars(-0.7, 0.9)
            .layouts(Layout::F, VLayout::Reversed, VLayout::Step2);
        describe::check_on::<Gemv, f32>(seg(), &case);
    }
    let case = Case::new(4102, 20_000, 3).scalars(-0.7, 0.0).layouts(
        Layout::C,
        VLayout::Reversed,
        VLayout::Unit,
    );
    both::<Ger>(&case);
}

#[test]
fn a_line_past_one_buffer_names_the_argument() {
    // Three rows of 20,000 f32 (80,000 bytes a row, past the 64 KiB buffer): A cannot be held
    // in segments of whole rows; TooLarge names sgemv's a, and y is unchanged.
    let ctx = seg();
    let a = Array2::<f32>::ones((3, 20_000));
    let mut y = Array1::<f32>::from_elem(3, 3.0);
    let x = Array1::<f32>::ones(20_000);
    let err = blas::sgemv(ctx, No, 1.0, &a, &x, 1.0, &mut y).unwrap_err();
    too_large(err, "sgemv", "a");
    assert!(y.iter().all(|&v| v == 3.0));
    // The same matrix as a resident upload names its `a` too, and so does its transpose held
    // in F order (20,000×3, whose lines are its columns of 20,000).
    too_large(ctx.upload_matrix(&a).unwrap_err(), "upload", "a");
    let f = a.clone().reversed_axes();
    assert!(f.t().is_standard_layout());
    too_large(ctx.upload_matrix(&f).unwrap_err(), "upload", "a");
}

#[test]
fn strsm_right_on_a_resident_b_past_one_buffer_exactly() {
    // A resident B past one buffer (301×60, 18,060 f32, five segments of 61 rows) solved on
    // the right with A = I (unit diagonal, zeros below): B ← 2·B exactly, whole and for a
    // block of its rows across a segment boundary (rows 40..100), the others untouched.
    let ctx = seg();
    let b = Array2::from_shape_fn((301, 60), |(i, j)| (i + j) as f32);
    let mut gb = ctx.upload_matrix(&b).unwrap();
    let (right, lower, no, unit) = (Right, Lower, No, Unit);
    let tri = Array2::<f32>::from_elem((60, 60), 0.0);
    blas::strsm(ctx, right, lower, no, unit, 2.0, tri.view(), &mut gb).unwrap();
    let mut want = b.mapv(|v| 2.0 * v);
    assert_eq!(gb.to_array().unwrap(), want);
    let rows = gb.slice_mut(40..100, ..).unwrap();
    blas::strsm(ctx, right, lower, no, unit, 2.0, tri.view(), rows).unwrap();
    want.slice_mut(s![40..100, ..]).mapv_inplace(|v| 2.0 * v);
    assert_eq!(gb.to_array().unwrap(), want);
}

#[test]
fn what_is_still_refused_past_one_buffer() {
    // Past one buffer an operand is held in segments of whole lines; where one line alone is
    // past one buffer it cannot be: TooLarge naming the argument, the output unchanged. (sgemv
    // and the resident upload: `a_line_past_one_buffer_names_the_argument`; operands past 2^32
    // elements: `scale.rs`.)
    let ctx = seg();
    // strsm's B with rows of 20,000 f32 (80,000 bytes).
    let tri = Array2::<f32>::eye(3);
    let b = Array2::<f32>::from_elem((3, 20_000), 3.0);
    let mut got = b.clone();
    let err = blas::strsm(ctx, Left, Lower, No, NonUnit, 1.0, &tri, &mut got).unwrap_err();
    too_large(err, "strsm", "b");
    assert_eq!(got, b);
    // A batch interleaved in memory (F order of 2×9,000×2: the batch innermost), whose slabs
    // of both products' columns (18,000 f32) are its lines: A of sgemm_batched, C unchanged.
    let a = ndarray::Array3::<f32>::from_elem((2, 9_000, 2).f(), 1.0);
    let bb = ndarray::Array3::<f32>::ones((2, 2, 1));
    let c0 = ndarray::Array3::<f32>::from_elem((2, 9_000, 1), 3.0);
    let mut c = c0.clone();
    let err = blas::sgemm_batched(ctx, No, No, 1.0, &a, &bb, 1.0, &mut c).unwrap_err();
    too_large(err, "sgemm_batched", "a");
    assert_eq!(c, c0);
    // A resident batch whose single row (20,000 f32) is past one buffer.
    let wide = ndarray::Array3::<f32>::ones((2, 2, 20_000));
    too_large(ctx.upload_batch(&wide).unwrap_err(), "upload", "a");
}

#[test]
fn strsm_and_dtrsm_with_operands_past_one_buffer() {
    // A of 150×150 and B of 150×120 (120×150 on the right), each past one buffer (two
    // segments in f32, three in f64), both sides, both triangles, both transposes, both
    // diagonals, A in every layout and B in C or F order: the backward residual factor of
    // `metrics::spec`, host (f32, f64) and resident (f32).
    let mut seed = 4200;
    for side in [Left, Right] {
        for flags in [(Lower, No, NonUnit), (Upper, Yes, Unit)] {
            seed += 1;
            let (la, lb) = (
                LAYOUTS[seed as usize % 4],
                [Layout::C, Layout::F][seed as usize % 2],
            );
            let case = crate::scale_level3::trsm_case(seed, side, flags, -0.7, [la, lb], false);
            both::<Trsm>(&case);
            let resident = Case {
                la: [Layout::C, Layout::F][seed as usize % 2],
                ..case
            };
            describe::check_resident_on::<Trsm, f32>(seg(), &resident);
        }
    }
}

#[test]
fn strsm_past_one_buffer_device_alpha_and_special_values() {
    // Resident A and B past one buffer, alpha on the device (0.5): every block's solve scales
    // by it. Then alpha = 0 on the device with NaN in A and B: B = 0 exactly; a host NaN alpha:
    // every element NaN (NaN is not 0).
    use crate::describe::Routine;
    use crate::scale_level3::{device_half, trsm_case, trsm_factor};
    let ctx = seg();
    let (half, half64) = device_half(ctx);
    let flags = (Right, Upper, No, NonUnit);
    let case = trsm_case(
        4300,
        Right,
        (Upper, No, NonUnit),
        1.0,
        [Layout::C; 2],
        false,
    );
    let o = Trsm::inputs::<f32>(&mut rng(4300), &case);
    let ga = ctx.upload_matrix(&o.a).unwrap();
    let mut gb = ctx.upload_matrix(&o.b).unwrap();
    blas::strsm(ctx, Right, Upper, No, NonUnit, &half, &ga, &mut gb).unwrap();
    let f = trsm_factor(flags, 0.5f32, &o.a, &gb.to_array().unwrap(), &o.b);
    describe::passes("strsm", f, "segments, device alpha");
    if let Some(half64) = &half64 {
        let (a, b) = (o.a.mapv(f64::from), o.b.mapv(f64::from));
        let (ga, mut gb) = (
            ctx.upload_matrix(&a).unwrap(),
            ctx.upload_matrix(&b).unwrap(),
        );
        blas::dtrsm(ctx, Right, Upper, No, NonUnit, half64, &ga, &mut gb).unwrap();
        let f = trsm_factor(flags, 0.5f64, &a, &gb.to_array().unwrap(), &b);
        // In units of f64's eps, under its f32 twin's threshold (as `describe::threshold`).
        describe::passes("strsm", f, "dtrsm, segments, device alpha");
    }
    let nan = ctx.upload_matrix(&o.a.mapv(|_| f32::NAN)).unwrap();
    let zero = wgblas::resident::sasum(ctx, &ctx.upload_vector(&Array1::zeros(2)).unwrap());
    let mut gb = ctx.upload_matrix(&o.b.mapv(|_| f32::NAN)).unwrap();
    blas::strsm(
        ctx,
        Right,
        Upper,
        No,
        NonUnit,
        &zero.unwrap(),
        &nan,
        &mut gb,
    )
    .unwrap();
    assert!(gb.to_array().unwrap().iter().all(|&v| v.to_bits() == 0));
    let mut b = o.b.clone();
    blas::strsm(ctx, Right, Upper, No, NonUnit, f32::NAN, &ga, &mut b).unwrap();
    assert!(b.iter().all(|v| v.is_nan()));
}

#[test]
fn batched_products_past_one_buffer() {
    // Ten products of 40×50 by depth 45 (A 18,000, B 22,500, C 20,000 f32: each batch in two
    // segments of five whole products, which runs of four products would cross without the
    // cuts) in C order, as F-order matrices and interleaved (F order of the whole array: every
    // product across the segments, each in blocks), mixed per operand; two products of
    // 130×130 (each past one buffer: segments of whole rows, the products in blocks); host
    // (f32, f64) and resident (f32), against OpenBLAS per product (`GemmBatched`).
    use crate::gemm_batched::{bcase, GemmBatched};
    let (c, fm, f) = (BLayout::C, BLayout::FMat, BLayout::F);
    let cases = [
        bcase(4400, 10, (40, 50, 45), (No, No), (-0.7, 0.9), [c, fm, c]),
        bcase(4401, 10, (40, 50, 45), (Yes, No), (0.6, 0.0), [f, c, fm]),
        bcase(4402, 2, (130, 130, 130), (No, Yes), (0.8, 0.5), [c, fm, c]),
    ];
    for case in &cases {
        describe::check_on::<GemmBatched, f32>(seg(), case);
    }
    both::<GemmBatched>(&bcase(
        4403,
        10,
        (40, 50, 45),
        (No, Yes),
        (1.0, 0.5),
        [fm, c, f],
    ));
    describe::check_resident_on::<GemmBatched, f32>(seg(), &cases[0]);
    describe::check_resident_on::<GemmBatched, f32>(seg(), &cases[2]);
    // One A shared by the batch (batch stride 0), 130×130 past one buffer (its own segments
    // of whole rows), with seven B and C of 130×20 (18,200 f32: two segments); and one B
    // shared by a batch of A past one buffer.
    let (a2, b3) = (
        rand_mat(&mut rng(4404), 130, 130),
        crate::gemm_batched::rand_batch(4405, (7, 130, 20)),
    );
    let c3 = crate::gemm_batched::rand_batch(4406, (7, 130, 20));
    let ab = a2.broadcast((7, 130, 130)).unwrap();
    let mut got = c3.clone();
    blas::sgemm_batched(seg(), No, No, -0.7, ab, &b3, 0.9, &mut got).unwrap();
    let worst =
        crate::gemm_batched::max_factor(No, No, -0.7, ab, b3.view(), 0.9, c3.view(), got.view());
    passes("sgemm", worst);
    let (a3, b2) = (
        crate::gemm_batched::rand_batch(4407, (7, 20, 130)),
        rand_mat(&mut rng(4408), 130, 20),
    );
    let c3 = crate::gemm_batched::rand_batch(4409, (7, 20, 20));
    let bb = b2.broadcast((7, 130, 20)).unwrap();
    let mut got = c3.clone();
    blas::sgemm_batched(seg(), No, No, 0.5, &a3, bb, 0.0, &mut got).unwrap();
    let worst =
        crate::gemm_batched::max_factor(No, No, 0.5, a3.view(), bb, 0.0, c3.view(), got.view());
    passes("sgemm", worst);
}

#[test]
fn past_the_device_memory_is_refused_before_any_work() {
    // A context whose operands may take at most 256 KiB of device memory
    // (`Context::set_max_memory`; its buffers keep the adapter's limits): an operand past it is
    // TooLarge naming the routine and the argument, before anything is uploaded or computed.
    let ctx = Context::new().expect("the tests need a GPU adapter (lavapipe on CPU-only machines)");
    assert_eq!(ctx.set_max_memory(256 << 10), 256 << 10);
    assert_eq!(ctx.max_memory(), 256 << 10);
    let mut r = rng(4000);
    // Resident: an upload past it, and a host A past it into a resident y (y unchanged).
    let big = Array1::<f32>::ones(70_000);
    too_large(ctx.upload_vector(&big).unwrap_err(), "upload", "x");
    let a = rand_mat(&mut r, 300, 300);
    let y = rand_vec(&mut r, 300);
    let mut gy = ctx.upload_vector(&y).unwrap();
    let x = ctx.upload_vector(&rand_vec(&mut r, 300)).unwrap();
    let err = blas::sgemv(&ctx, No, 1.0, a.view(), &x, 1.0, &mut gy).unwrap_err();
    too_large(err, "sgemv", "a");
    assert_eq!(gy.to_array().unwrap(), y);
    // Host views: sgemm with B past it, C unchanged; within the limit the same call works.
    let (small, c) = (rand_mat(&mut r, 8, 300), rand_mat(&mut r, 8, 300));
    let mut got = c.clone();
    let nn = No;
    let sgemm = |c: &mut Array2<f32>| {
        blas::sgemm(&ctx, nn, nn, 1.0, small.view(), a.view(), 1.0, c.view_mut())
    };
    too_large(sgemm(&mut got).unwrap_err(), "sgemm", "b");
    assert_eq!(got, c);
    ctx.set_max_memory(u64::MAX);
    sgemm(&mut got).unwrap();
    assert_ne!(got, c);
}
