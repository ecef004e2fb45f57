//! The resident layer as a whole: chains of calls without host round trips, batching into one
//! submission, the bounded buffer pool, and errors of resident operands.

use ndarray::{array, Array1, Array2};
use wgblas::metrics;
use wgblas::{blas, resident, Context, Error, GpuMatrix, GpuVector, MatrixLayout, Transpose};

use crate::common::*;

#[test]
fn chain_is_one_submission_and_one_readback() {
    let ctx = Context::new().unwrap();
    let mut r = rng(5);
    let a = rand_mat(&mut r, 40, 40);
    let x = rand_vec(&mut r, 40);
    let ga = ctx.upload_matrix(&a).unwrap();
    let gx = ctx.upload_vector(&x).unwrap();
    let mut gy = GpuVector::<f32>::zeros(&ctx, 40).unwrap();
    let mut gz = GpuVector::<f32>::zeros(&ctx, 40).unwrap();
    let mut gw = GpuVector::<f32>::zeros(&ctx, 40).unwrap();
    let (s0, r0) = (ctx.submissions(), ctx.readbacks());
    // y = A·x; z = A·y; alpha = (x·z)/(y·y); w = z; w ← alpha·x + w; n = ‖w‖: nine calls.
    blas::sgemv(&ctx, Transpose::No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
    blas::sgemv(&ctx, Transpose::No, 1.0, &ga, &gy, 0.0, &mut gz).unwrap();
    let xz = resident::sdot(&ctx, &gx, &gz).unwrap();
    let yy = resident::sdot(&ctx, &gy, &gy).unwrap();
    let alpha = xz.div(&yy).unwrap();
    blas::scopy(&ctx, &gz, &mut gw).unwrap();
    blas::saxpy(&ctx, &alpha, &gx, &mut gw).unwrap();
    let norm = resident::snrm2(&ctx, &gw).unwrap();
    assert_eq!(
        (ctx.submissions(), ctx.readbacks()),
        (s0, r0),
        "a resident chain waited on the device"
    );
    let got = norm.get().unwrap();
    assert_eq!(
        (ctx.submissions(), ctx.readbacks()),
        (s0 + 1, r0 + 1),
        "read-back: one submission, one map"
    );
    // Each step against OpenBLAS on the inputs it had (the previous steps' results, read
    // back), with its routine's metric and threshold (metrics::spec), the division with
    // WGSL's (metrics::WGSL_DIV_ULP).
    let y = gy.to_array().unwrap();
    let z = gz.to_array().unwrap();
    let zero = Array1::<f32>::zeros(40);
    let no = Transpose::No;
    for (input, out, what) in [(&x, &y, "y = A·x"), (&y, &z, "z = A·y")] {
        let want = oracle::sgemv(no, 1.0, a.view(), input.view(), 0.0, zero.view());
        let bound = metrics::bounds::gemv(no, 1.0, a.view(), input.view(), 0.0, zero.view());
        let f = metrics::forward_factor(out, &want, &bound).unwrap();
        crate::describe::passes("sgemv", f, what);
    }
    let (xz, yy, alpha) = (xz.get().unwrap(), yy.get().unwrap(), alpha.get().unwrap());
    for (d, (u, v), what) in [(xz, (&x, &z), "x·z"), (yy, (&y, &y), "y·y")] {
        let want = oracle::sdot(u.view(), v.view());
        let bound = metrics::bounds::dot(u.view(), v.view());
        let f = metrics::forward_factor_scalar(d, want, bound);
        crate::describe::passes("sdot", f, what);
    }
    let e = metrics::ulp_error_f32(alpha, f64::from(xz) / f64::from(yy));
    assert!(
        e <= metrics::WGSL_DIV_ULP,
        "alpha = {xz}/{yy} = {alpha}: {e} ULP"
    );
    let w = gw.to_array().unwrap();
    let want = oracle::saxpy(alpha, x.view(), z.view());
    let bound = metrics::bounds::axpy(alpha, x.view(), z.view());
    let f = metrics::forward_factor(&w, &want, &bound).unwrap();
    crate::describe::passes("saxpy", f, "w = alpha·x + z");
    let exact = w.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt() as f32;
    let u = metrics::ulp_distance_f32(got, exact) as f64;
    crate::describe::passes("snrm2", u, &format!("‖w‖ = {got} vs {exact}"));
}

#[test]
fn held_commands_are_flushed_in_order_by_a_host_call() {
    // A resident update, then a host-output call that reads the updated vector.
    let ctx = Context::new().unwrap();
    let mut gy = ctx.upload_vector(&array![1.0f32, 2.0, 3.0]).unwrap();
    let gx = ctx.upload_vector(&array![1.0f32, 1.0, 1.0]).unwrap();
    blas::saxpy(&ctx, 10.0, &gx, &mut gy).unwrap(); // held: y = [11, 12, 13]
    let s0 = ctx.submissions();
    let d = blas::sdot(&ctx, &gx, &gy).unwrap(); // host result: submits both together
    assert_eq!(d, 36.0);
    assert_eq!(ctx.submissions(), s0 + 1);
    ctx.flush(); // nothing held: no submission
    assert_eq!(ctx.submissions(), s0 + 1);
}

#[test]
fn pool_is_bounded_and_stops_growing_over_10000_calls() {
    let ctx = Context::new().unwrap();
    ctx.set_pool_limit(8 << 20);
    let sizes = [1usize, 7, 100, 1000, 4096, 10_000, 65_537];
    let vectors: Vec<Array1<f32>> = sizes
        .iter()
        .map(|&n| Array1::from_shape_fn(n, |i| (i % 3) as f32))
        .collect();
    let run = |i: usize| {
        let v = &vectors[i % sizes.len()];
        match i % 3 {
            0 => {
                let g = ctx.upload_vector(v).unwrap();
                resident::sasum(&ctx, &g).unwrap();
            }
            1 => {
                let mut y = v.clone();
                blas::saxpy(&ctx, 0.5, v, &mut y).unwrap();
            }
            _ => {
                let g = ctx.upload_vector(v).unwrap();
                let mut h = GpuVector::<f32>::zeros(&ctx, v.len()).unwrap();
                blas::saxpy(&ctx, 2.0, &g, &mut h).unwrap();
            }
        }
    };
    for i in 0..1000 {
        run(i);
    }
    ctx.flush();
    let created = ctx.buffers_created();
    for i in 1000..10_000 {
        run(i);
        assert!(
            ctx.pool_bytes() <= ctx.pool_limit(),
            "pool above its bound at call {i}"
        );
    }
    ctx.flush();
    assert_eq!(
        ctx.buffers_created(),
        created,
        "buffers were created after warm-up: no reuse"
    );
    assert!(ctx.pool_bytes() <= 8 << 20);
}

#[test]
fn operand_of_another_context_is_a_typed_error() {
    let other = Context::new().unwrap();
    let g = other.upload_vector(&array![1.0f32, 2.0]).unwrap();
    let mut y = array![5.0f32, 5.0];
    let err = blas::saxpy(ctx(), 1.0, &g, &mut y).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "saxpy",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(y, array![5.0, 5.0]);
}

#[test]
fn resident_shape_errors_leave_the_output_untouched() {
    let a = ctx().upload_matrix(&Array2::<f32>::ones((3, 4))).unwrap();
    let b = ctx().upload_matrix(&Array2::<f32>::ones((5, 2))).unwrap();
    let mut c = GpuMatrix::<f32>::zeros(ctx(), (3, 2), MatrixLayout::RowMajor).unwrap();
    let no = Transpose::No;
    let err = blas::sgemm(ctx(), no, no, 1.0, &a, &b, 0.0, &mut c).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(c.to_array().unwrap(), Array2::<f32>::zeros((3, 2)));
}

#[test]
fn upload_and_read_back_keep_values_and_layout() {
    let c_order = Array2::from_shape_fn((3, 5), |(i, j)| (10 * i + j) as f32);
    let f_order = c_order
        .t()
        .as_standard_layout()
        .into_owned()
        .reversed_axes();
    let gc = ctx().upload_matrix(&c_order).unwrap();
    let gf = ctx().upload_matrix(&f_order).unwrap();
    assert_eq!((gc.layout(), gc.ld()), (MatrixLayout::RowMajor, 5));
    assert_eq!((gf.layout(), gf.ld()), (MatrixLayout::ColMajor, 3));
    assert_eq!(gc.to_array().unwrap(), c_order);
    assert_eq!(gf.to_array().unwrap(), c_order);
    let stepped = c_order.column(2).to_owned();
    let gv = ctx().upload_vector(&c_order.column(2)).unwrap();
    assert_eq!(gv.to_array().unwrap(), stepped);
    let g64 = ctx().upload_vector(&array![1.5f64, -2.25]).unwrap();
    assert_eq!(g64.to_array().unwrap(), array![1.5, -2.25]);
}

#[path = "../../examples/support/cg.rs"]
mod cg;

/// The resident CG of `examples/cg.rs` (both forms of its p update, [`cg::Update`]) against
/// its host form on 1138_bus (diagonally scaled, b = Â·ones), 30 iterations each, with the
/// default dispatches and with `lab::set_one_dispatch_below` (the element-wise tails and the
/// one-workgroup reductions' counter clears gone). Both run the same kernels on the same data; with the host
/// form's two divisions done on the device too (`GpuScalar::div` on the host values, as the
/// resident form divides its kept scalars), every step computes the same bits, so the iterates
/// must be equal: exact equality, each step's own accuracy being checked by its routine's tests
/// (and the division by `device_scalars_hand_values`).
#[test]
fn resident_cg_follows_the_host_form_on_1138_bus() {
    use crate::describe::Elem;
    use wgblas::prelude::*;
    let a = crate::oracle_l2::bus_1138();
    let n = a.nrows();
    let d: Array1<f32> = a.diag().mapv(|v| 1.0 / v.abs().sqrt());
    let a = Array2::from_shape_fn((n, n), |(i, j)| a[[i, j]] * d[i] * d[j]);
    let b = a.dot(&Array1::<f32>::ones(n));
    let iterations = 30;
    // Bit-for-bit across calls: the lab switches stay at their defaults meanwhile, but for
    // `set_one_dispatch_below`, set here for both forms alike.
    let _lab = crate::bandwidth::lab_defaults();
    let mut last = None;
    for below in [0, 1 << 20] {
        wgblas::lab::set_one_dispatch_below(below);
        let run = std::panic::catch_unwind(|| {
            let host = cg::host_form_div(
                &a,
                &b,
                0.0,
                iterations,
                |a, p| a.gpu_gemv(p),
                |x, y| x.gpu_dot(y),
                |s, x, y| x.gpu_axpy(s, y),
                |p, q| f32::device(ctx(), p)?.div(&f32::device(ctx(), q)?)?.get(),
            )
            .unwrap();
            // Both forms of p's update (a fresh t each iteration, and one t reused by scopy and
            // swap) do the same arithmetic: both must give the host form's bits.
            for update in [cg::Update::Reuse, cg::Update::Fresh] {
                let dev = cg::resident_form_with(
                    ctx(),
                    &a,
                    &b,
                    0.0,
                    iterations,
                    iterations,
                    update,
                    |_| {},
                )
                .unwrap();
                assert_eq!((host.iterations, dev.iterations), (iterations, iterations));
                assert_eq!(
                    host.x, dev.x,
                    "the resident iterate ({update:?}, one dispatch below {below}) differs from \
                     the host form's"
                );
            }
            host
        });
        wgblas::lab::set_one_dispatch_below(wgblas::lab::ONE_DISPATCH_DEFAULT);
        last = Some(run.unwrap_or_else(|e| std::panic::resume_unwind(e)));
    }
    let host = last.expect("two runs");
    // And CG really progressed: 30 iterations cut the residual well below its start.
    let norm = |v: &Array1<f32>| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let rh = norm(&(&b - &a.dot(&host.x))) / norm(&b);
    assert!(rh < 0.5, "host residual {rh}");
}

#[test]
fn device_scalars_hand_values() {
    let g = ctx().upload_vector(&array![3.0f32, -4.0]).unwrap();
    let norm = resident::snrm2(ctx(), &g).unwrap(); // √(9 + 16) = 5
    let dot = resident::sdot(ctx(), &g, &g).unwrap(); // 25
    assert_eq!(norm.get().unwrap(), 5.0);
    assert_eq!(resident::sasum(ctx(), &g).unwrap().get().unwrap(), 7.0);
    assert_eq!(resident::isamax(ctx(), &g).unwrap().get().unwrap(), 1);
    assert_eq!(dot.div(&norm).unwrap().get().unwrap(), 5.0); // 25 / 5, exact
    assert_eq!(norm.neg().unwrap().get().unwrap(), -5.0);
    // 1/5 is not representable; WGSL allows 2.5 ULP for f32 division (metrics::WGSL_DIV_ULP).
    let r = norm.recip().unwrap().get().unwrap();
    let e = metrics::ulp_error_f32(r, 1.0 / 5.0);
    assert!(e <= metrics::WGSL_DIV_ULP, "1/5 = {r}: {e} ULP");
    // An empty vector: sdot and sasum are 0, isamax is an error.
    let e = GpuVector::<f32>::zeros(ctx(), 0).unwrap();
    assert_eq!(resident::sdot(ctx(), &e, &e).unwrap().get().unwrap(), 0.0);
    assert_eq!(resident::sasum(ctx(), &e).unwrap().get().unwrap(), 0.0);
    assert!(matches!(
        resident::isamax(ctx(), &e),
        Err(Error::InvalidArgument {
            routine: "isamax",
            ..
        })
    ));
}

#[test]
fn to_gpu_on_the_shared_context() {
    use wgblas::prelude::*;
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let x = array![1.0f32, -1.0];
    let (ga, gx) = (a.to_gpu().unwrap(), x.to_gpu().unwrap());
    let mut gy = GpuVector::<f32>::zeros(ga.context(), 2).unwrap();
    blas::sgemv(ga.context(), Transpose::No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
    assert_eq!(gy.to_array().unwrap(), array![-1.0, -1.0]);
}

/// `Err(InvalidArgument)` naming `routine` and `arg`.
pub fn foreign(r: wgblas::Result<impl std::fmt::Debug>, routine: &str, arg: &str) {
    match r {
        Err(Error::InvalidArgument {
            routine: r, arg: a, ..
        }) if r == routine && a == arg => {}
        other => panic!("{routine}: expected InvalidArgument naming {arg:?}, got {other:?}"),
    }
}

#[test]
fn operands_of_another_context_are_an_error_even_on_quick_returns() {
    // Each call below has a quick return (alpha = 0 with beta = 1, alpha = 1, n = 0, n = 1, an
    // identity srotm); an operand of another context is still the typed error of any other call,
    // and nothing is written.
    use wgblas::{Side, Uplo};
    let ctx = Context::new().unwrap();
    let other = Context::new().unwrap();
    let a2 = other.upload_matrix(&Array2::<f32>::eye(2)).unwrap();
    let x2 = other.upload_vector(&array![1.0f32, 2.0]).unwrap();
    let e2 = other.upload_vector(&Array1::<f32>::zeros(0)).unwrap();
    let one2 = other.upload_vector(&array![5.0f32]).unwrap();
    let mut y = array![1.0f32, 2.0];
    let mut c = Array2::<f32>::ones((2, 2));
    let no = Transpose::No;
    foreign(
        blas::sgemv(&ctx, no, 0.0, &a2, &x2, 1.0, y.view_mut()),
        "sgemv",
        "a",
    );
    foreign(
        blas::ssymv(&ctx, Uplo::Upper, 0.0, &a2, &x2, 1.0, y.view_mut()),
        "ssymv",
        "a",
    );
    foreign(
        blas::sgemm(&ctx, no, no, 0.0, &a2, &a2, 1.0, c.view_mut()),
        "sgemm",
        "a",
    );
    let eye = Array2::<f32>::eye(2);
    let (up, e) = (Uplo::Upper, eye.view());
    foreign(
        blas::ssymm(&ctx, Side::Left, up, 0.0, &a2, e, 1.0, c.view_mut()),
        "ssymm",
        "a",
    );
    foreign(
        blas::ssyrk(&ctx, Uplo::Upper, no, 0.0, &a2, 1.0, c.view_mut()),
        "ssyrk",
        "a",
    );
    foreign(
        blas::ssyr2k(&ctx, up, no, 0.0, &a2, e, 1.0, c.view_mut()),
        "ssyr2k",
        "a",
    );
    foreign(
        blas::sgemmtr(&ctx, up, no, no, 0.0, &a2, e, 1.0, c.view_mut()),
        "sgemmtr",
        "a",
    );
    let v = array![1.0f32, 1.0];
    foreign(
        blas::sger(&ctx, 0.0, &x2, v.view(), c.view_mut()),
        "sger",
        "x",
    );
    foreign(
        blas::ssyr(&ctx, Uplo::Upper, 0.0, &x2, c.view_mut()),
        "ssyr",
        "x",
    );
    foreign(
        blas::ssyr2(&ctx, Uplo::Upper, 0.0, &x2, v.view(), c.view_mut()),
        "ssyr2",
        "x",
    );
    foreign(blas::saxpy(&ctx, 0.0, &x2, y.view_mut()), "saxpy", "x");
    let mut gx2 = other.upload_vector(&array![1.0f32, 2.0]).unwrap();
    foreign(blas::sscal(&ctx, 1.0, &mut gx2), "sscal", "x");
    foreign(
        blas::srotm(&ctx, &mut gx2, y.view_mut(), [-2.0, 0.0, 0.0, 0.0, 0.0]),
        "srotm",
        "x",
    );
    let mut empty = Array1::<f32>::zeros(0);
    foreign(blas::scopy(&ctx, &e2, empty.view_mut()), "scopy", "x");
    foreign(blas::sdot(&ctx, &e2, empty.view()), "sdot", "x");
    foreign(
        resident::sdot(&ctx, &e2, empty.view()).map(|_| ()),
        "sdot",
        "x",
    );
    foreign(blas::isamax(&ctx, &one2), "isamax", "x");
    foreign(resident::isamax(&ctx, &one2).map(|_| ()), "isamax", "x");
    // The f64 routines alike (dsyrk's alpha = 0, beta = 1 quick return).
    let a64 = other.upload_matrix(&Array2::<f64>::eye(2)).unwrap();
    let mut c64 = Array2::<f64>::ones((2, 2));
    foreign(
        blas::dsyrk(&ctx, Uplo::Upper, no, 0.0, &a64, 1.0, c64.view_mut()),
        "dsyrk",
        "a",
    );
    assert!(c64.iter().all(|&v| v == 1.0));
    // Nothing was written.
    assert_eq!(y, array![1.0f32, 2.0]);
    assert!(c.iter().all(|&v| v == 1.0));
    assert_eq!(gx2.to_array().unwrap(), array![1.0f32, 2.0]);
}

#[test]
fn a_scalar_of_another_context_is_an_error_in_scalar_arithmetic() {
    let ctx = Context::new().unwrap();
    let other = Context::new().unwrap();
    let six = resident::sdot(&ctx, array![1.0f32].view(), array![6.0f32].view()).unwrap();
    let three = resident::sdot(&other, array![1.0f32].view(), array![3.0f32].view()).unwrap();
    foreign(six.div(&three).map(|_| ()), "GpuScalar", "other");
    foreign(three.div(&six).map(|_| ()), "GpuScalar", "other");
    // Within one context it divides: 6 / 6 = 1.
    assert_eq!(six.div(&six).unwrap().get().unwrap(), 1.0);
}

#[test]
fn sscal_by_one_keeps_every_bit_with_a_host_or_a_device_alpha() {
    // alpha = 1 is a quick return on the host; the device kernel makes the same one, so a
    // signalling NaN keeps its payload and -0 its sign either way (sscal is bit-exact).
    let ctx = Context::new().unwrap();
    let snan = f32::from_bits(0x7f80_0001);
    let one = resident::sdot(&ctx, array![1.0f32].view(), array![1.0f32].view()).unwrap();
    let start = array![snan, -0.0f32, 3.0];
    let mut host = start.clone();
    blas::sscal(&ctx, 1.0, host.view_mut()).unwrap();
    let mut device = start.clone();
    blas::sscal(&ctx, &one, device.view_mut()).unwrap();
    let bits = |v: &Array1<f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&host), bits(&start));
    assert_eq!(bits(&device), bits(&start));
    // A long vector goes through the vec4 kernel: the same.
    let long = Array1::from_shape_fn(1030, |i| if i % 7 == 0 { snan } else { -(i as f32) });
    let mut d = long.clone();
    blas::sscal(&ctx, &one, d.view_mut()).unwrap();
    assert_eq!(bits(&d), bits(&long));
}
