//! The f64 Level 1 routines and dgemv past one storage binding and past one buffer (issue 15),
//! as their f32 twins in `scale.rs` and `scale_segments.rs`: the same parts and blocks with
//! 8-byte elements, against OpenBLAS with each routine's DESIGN.md §2 metric (the
//! descriptions, `describe::check_on`) and against hand-computed values.
//!
//! Cheap sizes on contexts whose binding is lowered to 64 KiB (about 8,100 f64 a window, so a
//! vector of 50,003 f64 goes in 7 parts, a step-2 view in 13) or whose buffers are lowered to
//! 64 KiB (segments of 8,192 f64, dispatches binding at most 32 KiB), and one real operand past
//! lavapipe's 128 MiB binding.

use std::sync::OnceLock;

use ndarray::{s, Array1, Array2};
use wgblas::{blas, Context, GpuScalar};

use crate::axpy::Axpy;
use crate::common::*;
use crate::copy::VecCopy;
use crate::describe::level1::{vcase, F64_PAIRS};
use crate::describe::{self, Case, Elem, Routine};
use crate::dot::Dot;
use crate::f64_level2::vec64;
use crate::gemv::Gemv;
use crate::rot::Rot;
use crate::rotm::Rotm;
use crate::scal::Scal;
use crate::swap::Swap;
use wgblas::{
    Transpose::{No, Yes},
    Uplo::Lower,
};

/// A context whose dispatches bind at most 64 KiB of a buffer.
fn small() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    lowered(&CTX, |c| assert_eq!(c.set_max_binding(64 << 10), 64 << 10))
}

/// A context whose buffers hold at most 64 KiB (8,192 f64; dispatches bind at most 32 KiB).
fn seg() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    lowered(&CTX, |c| {
        assert_eq!(c.set_max_buffer(64 << 10), 64 << 10);
        assert!(c.max_binding() <= 32 << 10);
    })
}

/// f64 elements of one buffer of [`seg`]: a range of more elements crosses a segment boundary.
const SEG: usize = 8192;

/// A length past several windows of [`small`] and several segments of [`seg`], ending inside
/// the last part.
const N: usize = 50_003;

/// Fails loudly where the adapter has no f64 shaders (the suite's adapter, lavapipe, has them).
fn f64_on(c: &Context) -> &Context {
    assert!(
        c.native_f64(),
        "these tests need SHADER_F64 (lavapipe has it)"
    );
    c
}

/// A device f64 scalar holding `v`.
fn device(c: &Context, v: f64) -> GpuScalar<'_, f64> {
    f64::device(c, v).unwrap()
}

/// Every f64 Level 1 routine on `c`, host views, in the f64 suite's stride pairs (unit, step 2,
/// reversed, both): against OpenBLAS with the description's metric, every routine's rules
/// included (axpy's alpha = 0 quick return, rotm's flags).
fn level1_cases(c: &Context, seed: u64, n: usize, pairs: &[(VLayout, VLayout)]) {
    let c = f64_on(c);
    for (k, &(lx, ly)) in pairs.iter().enumerate() {
        let s = seed + k as u64;
        let case = vcase(s, n, -0.7, lx, ly);
        describe::check_on::<Dot, f64>(c, &case);
        describe::check_on::<Axpy, f64>(c, &case);
        describe::check_on::<Axpy, f64>(c, &vcase(s, n, 0.0, lx, ly));
        describe::check_on::<VecCopy, f64>(c, &case);
        describe::check_on::<Swap, f64>(c, &case);
        describe::check_on::<Scal, f64>(c, &case);
        // rot: (c, s) = (alpha, beta) of the case.
        describe::check_on::<Rot, f64>(c, &case.scalars(0.6, -0.8));
        for flag in [-1.0, 0.0, 1.0] {
            let param = [flag, 0.7, -0.3, 1.25, 0.9];
            describe::check_on::<Rotm, f64>(c, &Case { param, ..case });
        }
    }
}

#[test]
fn chunked_f64_level1_every_routine_and_stride() {
    // On a context of its own (nothing else counts there): one dispatch per window at least,
    // for daxpy (7 windows) and dgemv (3×12,000: a row is past a window, so column panels).
    let own = Context::new().expect("the tests need a GPU adapter (lavapipe on CPU-only machines)");
    own.set_max_binding(64 << 10);
    let x = Array1::<f64>::ones(N);
    let mut y = Array1::<f64>::from_elem(N, 0.5);
    blas::daxpy(f64_on(&own), 2.0, x.view(), y.view_mut()).unwrap();
    assert!(own.dispatches() >= 7, "{} dispatches", own.dispatches());
    assert!(y.iter().all(|&v| v == 2.5));
    // dgemv: more dispatches than the same call on a context of the adapter's binding (the
    // engine's own for one product).
    let whole = Context::new().unwrap();
    let a = Array2::<f64>::ones((3, 12_000));
    let x = x.slice(s![..12_000]);
    let mut counts = Vec::new();
    for c in [&own, &whole] {
        let (before, mut y) = (c.dispatches(), Array1::<f64>::zeros(3));
        blas::dgemv(c, No, 1.0, a.view(), x, 0.0, y.view_mut()).unwrap();
        counts.push(c.dispatches() - before);
        assert!(y.iter().all(|&v| v == 12_000.0));
    }
    assert!(counts[0] > counts[1], "{counts:?} dispatches");
    level1_cases(small(), 5100, N, &F64_PAIRS);
}

#[test]
fn chunked_f64_level1_resident_and_device_scalars() {
    // Resident operands past the lowered binding, updated in place on windows of their
    // buffers; device alpha for daxpy and dscal, bit-equal to the host alpha's results. Small
    // integers, so every result is exact and compared for equality.
    let c = f64_on(small());
    let x = Array1::from_shape_fn(N, |i| (i % 7) as f64);
    let y = Array1::from_shape_fn(N, |i| (i % 5) as f64 - 2.0);
    let up = |v: &Array1<f64>| c.upload_vector(v).unwrap();
    let mut gy = up(&y);
    blas::daxpy(c, &device(c, 0.5), &up(&x), &mut gy).unwrap();
    let want = &x * 0.5 + &y;
    assert_eq!(gy.to_array().unwrap(), want);
    let mut gy = up(&y);
    blas::daxpy(c, 0.5, &up(&x), &mut gy).unwrap();
    assert_eq!(gy.to_array().unwrap(), want);
    let mut gx = up(&x);
    blas::dscal(c, &device(c, -3.0), &mut gx).unwrap();
    assert_eq!(gx.to_array().unwrap(), &x * -3.0);
    let mut gz = wgblas::GpuVector::<f64>::zeros(c, N).unwrap();
    blas::dcopy(c, &up(&x), &mut gz).unwrap();
    assert_eq!(gz.to_array().unwrap(), x);
    let (mut gp, mut gq) = (up(&x), up(&y));
    blas::dswap(c, &mut gp, &mut gq).unwrap();
    assert_eq!(c.read_back((&gp, &gq)).unwrap(), (y.clone(), x.clone()));
    // (c, s) = (0, 1): x ← y, y ← −x.
    blas::drot(c, &mut gp, &mut gq, 0.0, 1.0).unwrap();
    assert_eq!(c.read_back((&gp, &gq)).unwrap(), (x.clone(), -&y));
    // flag 1: H = [[h11, 1], [−1, h22]] with h11 = h22 = 0: (x, y) ← (y, −x).
    blas::drotm(c, &mut gp, &mut gq, [1.0, 0.0, 9.0, 9.0, 0.0]).unwrap();
    assert_eq!(c.read_back((&gp, &gq)).unwrap(), (-&y, -&x));
    // ddot: Σ (i mod 7)·(i mod 5 − 2), exact; the resident forms give the host form's bits.
    let exact: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
    let host = blas::ddot(c, x.view(), y.view()).unwrap();
    assert_eq!(host, exact);
    let kept = wgblas::resident::ddot(c, &up(&x), &up(&y)).unwrap();
    assert_eq!(kept.get().unwrap().to_bits(), host.to_bits());
    assert_eq!(
        blas::ddot(c, &up(&x), &up(&y)).unwrap().to_bits(),
        host.to_bits()
    );
}

#[test]
fn chunked_f64_level1_special_values_across_parts() {
    let c = f64_on(small());
    // ddot: random values, deterministic (the same bits twice); an infinity in a later part
    // is the result, and a NaN there too.
    let (x, y) = (vec64(5200, N), vec64(5201, N));
    let d = blas::ddot(c, x.view(), y.view()).unwrap();
    assert_eq!(
        blas::ddot(c, x.view(), y.view()).unwrap().to_bits(),
        d.to_bits()
    );
    let mut z = x.clone();
    z[40_000] = f64::INFINITY;
    assert_eq!(
        blas::ddot(c, z.view(), y.mapv(f64::abs).view()).unwrap(),
        f64::INFINITY
    );
    z[20_000] = f64::NAN;
    assert!(blas::ddot(c, z.view(), y.view()).unwrap().is_nan());
    // 0·Inf = NaN in a later part (no zero-skip).
    let mut w = Array1::<f64>::zeros(N);
    w[30_000] = f64::INFINITY;
    assert!(blas::ddot(c, w.view(), Array1::<f64>::zeros(N).view())
        .unwrap()
        .is_nan());
    // daxpy: a device alpha = 0 reads nothing in any part (NaN x, y unchanged bit for bit); a
    // NaN alpha is not 0: every y_i NaN, in every part.
    let nan_x = Array1::<f64>::from_elem(N, f64::NAN);
    let mut got = y.clone();
    blas::daxpy(c, &device(c, 0.0), nan_x.view(), got.view_mut()).unwrap();
    assert!(describe::same_bits(&got, &y));
    blas::daxpy(c, &device(c, f64::NAN), x.view(), got.view_mut()).unwrap();
    assert!(got.iter().all(|v| v.is_nan()));
    let mut got = y.clone();
    blas::daxpy(c, f64::NAN, x.view(), got.slice_mut(s![..;-1])).unwrap();
    assert!(got.iter().all(|v| v.is_nan()));
    // dscal: alpha = 0 is no zero-skip (0·NaN = NaN in the part that holds it, 0 elsewhere);
    // a NaN alpha makes every element NaN.
    let mut got = x.clone();
    got[45_000] = f64::NAN;
    blas::dscal(c, &device(c, 0.0), got.view_mut()).unwrap();
    assert!(got[45_000].is_nan());
    got[45_000] = 0.0;
    assert!(got.iter().all(|&v| v == 0.0));
    blas::dscal(c, f64::NAN, got.slice_mut(s![..;2])).unwrap();
    assert!(got.iter().step_by(2).all(|v| v.is_nan()));
    assert!(got.iter().skip(1).step_by(2).all(|&v| v == 0.0));
}

#[test]
fn chunked_f64_last_part_of_one_element() {
    // Lengths around one window (8,128 or 8,160 f64 at the lowered binding, by the adapter's
    // offset alignment) and two: a last part of a single element at the buffer's end still
    // binds 16 bytes. Σ 1·1 = n, and y = 2·x + y exactly.
    let c = f64_on(small());
    for n in (8_120..8_170).chain([16_257, 16_321]) {
        let x = Array1::<f64>::ones(n);
        assert_eq!(
            blas::ddot(c, x.view(), x.view()).unwrap(),
            n as f64,
            "n = {n}"
        );
        let mut y = Array1::from_shape_fn(n, |i| i as f64);
        blas::daxpy(c, 2.0, x.view(), y.view_mut()).unwrap();
        assert!(
            y.iter().enumerate().all(|(i, &v)| v == i as f64 + 2.0),
            "n = {n}"
        );
    }
}

/// dgemv cases on `c`: each shape (of op(A)) in C and F order, both transposes, beta = 0 and
/// 0.9, x and y unit or strided, against OpenBLAS with the forward factor of the description.
fn dgemv_cases(c: &Context, mut seed: u64, shapes: &[(usize, usize)], layouts: &[Layout]) {
    let c = f64_on(c);
    for &(m, n) in shapes {
        for t in [No, Yes] {
            for &la in layouts {
                for (lx, ly, beta) in [
                    (VLayout::Unit, VLayout::Unit, 0.0),
                    (VLayout::ReversedStep2, VLayout::Step2, 0.9),
                ] {
                    seed += 1;
                    let case = Case::new(seed, m, n)
                        .flags(Lower, t, wgblas::Diag::NonUnit)
                        .scalars(-0.7, beta)
                        .layouts(la, lx, ly);
                    describe::check_on::<Gemv, f64>(c, &case);
                }
            }
        }
    }
}

#[test]
fn chunked_dgemv_row_and_column_panels() {
    // 300×200 (row panels), 3×12,000 (one row of A, 96 KB, is past a window: column panels,
    // the later ones adding with beta = 1) and 12,000×3 (row panels of a tall A).
    dgemv_cases(small(), 5300, &[(300, 200)], &LAYOUTS);
    let thin = [(3, 12_000), (12_000, 3)];
    dgemv_cases(small(), 5320, &thin, &[Layout::C, Layout::F]);
}

#[test]
fn chunked_dgemv_special_values_and_device_scalars() {
    let c = f64_on(small());
    // 3×12,000: column panels. NaN alpha is not 0: every y_i NaN; alpha = 0 reads neither A
    // nor x (NaN there) and gives beta·y; beta = 0 never reads y (NaN there).
    let (m, n) = (3, 12_000);
    let a = Array2::from_shape_fn((m, n), |(i, j)| ((i + j) % 5) as f64 - 2.0);
    let x = Array1::from_shape_fn(n, |j| (j % 3) as f64);
    let y0 = Array1::from_vec(vec![1.0, -2.0, 4.0]);
    let mut y = y0.clone();
    blas::dgemv(c, No, f64::NAN, a.view(), x.view(), 1.0, y.view_mut()).unwrap();
    assert!(y.iter().all(|v| v.is_nan()));
    let nan_a = Array2::<f64>::from_elem((m, n), f64::NAN);
    let nan_x = Array1::<f64>::from_elem(n, f64::NAN);
    let mut y = y0.clone();
    blas::dgemv(
        c,
        No,
        &device(c, 0.0),
        nan_a.view(),
        nan_x.view(),
        0.5,
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, &y0 * 0.5);
    // Small integers: every sum exact, so the result equals the host product.
    let want = a.dot(&x);
    let mut y = Array1::<f64>::from_elem(m, f64::NAN);
    blas::dgemv(
        c,
        No,
        1.0,
        a.view(),
        x.view(),
        &device(c, 0.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, want);
    // Resident A (F order) past the binding, its transpose, device alpha and beta: the bits of
    // the host scalars' results.
    let af = a.t().as_standard_layout().into_owned().reversed_axes();
    let ga = c.upload_matrix(&af).unwrap();
    for (t, rows) in [(No, m), (Yes, n)] {
        let cols = m + n - rows;
        let (xv, yv) = (vec64(5400 + rows as u64, cols), vec64(5401, rows));
        let op = if t == No {
            ga.slice(.., ..).unwrap()
        } else {
            ga.t()
        };
        let mut gy = c.upload_vector(&yv).unwrap();
        let gx = c.upload_vector(&xv).unwrap();
        let (da, db) = (device(c, 0.7), device(c, -1.3));
        blas::dgemv(c, No, &da, op, &gx, &db, &mut gy).unwrap();
        let mut host = yv.clone();
        // The host A in the same layout (F order): the same blocks, so the same sums.
        let av = if t == No { af.view() } else { af.t() };
        blas::dgemv(c, No, 0.7, av, xv.view(), -1.3, host.view_mut()).unwrap();
        assert!(describe::same_bits(&gy.to_array().unwrap(), &host), "{t:?}");
        let case = Case::new(5402, rows, cols).scalars(0.7, -1.3);
        let ops = describe::Ops::vecs(av.to_owned(), xv.clone(), yv.clone());
        let f = Gemv::measure(&case, &ops, host.view().into_dyn());
        let most = describe::threshold::<Gemv, f64>();
        assert!(f <= most, "dgemv resident {t:?}: factor {f} > {most}");
    }
}

#[test]
fn f64_level1_and_dgemv_across_segments() {
    // Vectors of 50,003 f64 held in seven segments (the parts cut at each boundary), unit and
    // strided, in every routine; dasum, idamax and dnrm2 too (hand values: the lowest index
    // and the first NaN across segments); dgemv with A of 300×200 (60,000 f64, eight
    // segments of whole rows or columns) and with x or y past one buffer.
    let c = f64_on(seg());
    level1_cases(c, 5500, N, &[F64_PAIRS[0], F64_PAIRS[3]]);
    let mut x = Array1::from_shape_fn(N, |i| (i % 3) as f64);
    assert_eq!(blas::dasum(c, x.view()).unwrap(), 50_002.0);
    // The largest |x| at two places segments apart, then NaN at two: the lower index wins,
    // and the first NaN in logical order, after each change; a reversed view and a resident x.
    let nan = f64::NAN;
    for (i, v, first) in [
        (SEG + 5, -1e300, SEG + 5),
        (4 * SEG + 1, 1e300, SEG + 5),
        (5 * SEG, nan, 5 * SEG),
        (3 * SEG + 2, nan, 3 * SEG + 2),
    ] {
        x[i] = v;
        assert_eq!(blas::idamax(c, x.view()).unwrap(), first, "x[{i}] = {v}");
    }
    let reversed = blas::idamax(c, x.slice(s![..;-1])).unwrap();
    assert_eq!(reversed, N - 1 - 5 * SEG);
    let gx = c.upload_vector(&x).unwrap();
    assert_eq!(blas::idamax(c, &gx).unwrap(), 3 * SEG + 2);
    // ‖(3·2^600, 0, …, 4·2^600)‖ = 5·2^600, the two entries segments apart.
    let mut z = Array1::<f64>::zeros(N);
    let p = 2f64.powi(600);
    z[1] = 3.0 * p;
    z[N - 2] = 4.0 * p;
    assert_eq!(blas::dnrm2(c, z.view()).unwrap(), 5.0 * p);
    // A resident range across a boundary: Σ 1·1 over it.
    let ones = c.upload_vector(&Array1::<f64>::ones(N)).unwrap();
    let (lo, hi) = (SEG - 3, 4 * SEG + 2);
    let r = ones.slice(lo..hi).unwrap();
    assert_eq!(blas::ddot(c, r, r).unwrap(), (hi - lo) as f64);
    dgemv_cases(c, 5600, &[(300, 200)], &[Layout::C, Layout::F]);
    // x (no transpose) or y (transposed) of 12,000 f64 past one buffer, A in lines of 3.
    for (seed, (m, n), t) in [(5700, (3, 12_000), No), (5701, (12_000, 3), Yes)] {
        let case = Case::new(seed, m, n)
            .flags(Lower, t, wgblas::Diag::NonUnit)
            .scalars(-0.7, 0.9)
            .layouts(Layout::F, VLayout::Reversed, VLayout::Step2);
        describe::check_on::<Gemv, f64>(c, &case);
    }
}

#[test]
fn past_lavapipe_binding_ddot() {
    // One binding of f64 and one more (on lavapipe 2^24 + 1, 128 MiB + 8 bytes): x = 1,
    // y_i = 1 for i ≡ 0 (mod 4), so Σ x_i·y_i = ⌈n/4⌉, every partial sum an exact integer.
    let c = f64_on(ctx());
    let n = c.limits().max_storage_buffer_binding_size as usize / 8 + 1;
    let x = Array1::<f64>::ones(n);
    let y = Array1::from_shape_fn(n, |i| if i % 4 == 0 { 1.0 } else { 0.0 });
    assert_eq!(
        blas::ddot(c, x.view(), y.view()).unwrap(),
        n.div_ceil(4) as f64
    );
}
