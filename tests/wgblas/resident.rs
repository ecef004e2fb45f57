//! The resident layer as a whole: chains of calls without host round trips, batching into one
//! submission, the bounded buffer pool, and errors of resident operands.

use ndarray::{array, Array1, Array2};
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
    let (s0, r0) = (ctx.submissions(), ctx.readbacks());
    // y = A·x; z = A·y; alpha = (x·z)/(y·y); z ← alpha·x + z; n = ‖z‖: eight calls.
    blas::sgemv(&ctx, Transpose::No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
    blas::sgemv(&ctx, Transpose::No, 1.0, &ga, &gy, 0.0, &mut gz).unwrap();
    let xz = resident::sdot(&ctx, &gx, &gz).unwrap();
    let yy = resident::sdot(&ctx, &gy, &gy).unwrap();
    let alpha = xz.div(&yy).unwrap();
    blas::saxpy(&ctx, &alpha, &gx, &mut gz).unwrap();
    let norm = resident::snrm2(&ctx, &gz).unwrap();
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
    // The same chain on the host in f64.
    let a64 = a.mapv(f64::from);
    let x64 = x.mapv(f64::from);
    let y64 = a64.dot(&x64);
    let z64 = a64.dot(&y64);
    let alpha64 = x64.dot(&z64) / y64.dot(&y64);
    let expect = (&x64 * alpha64 + &z64).dot(&(&x64 * alpha64 + &z64)).sqrt();
    assert!(
        (f64::from(got) - expect).abs() <= 1e-4 * expect,
        "{got} vs {expect}"
    );
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
    let err = blas::sgemm(
        ctx(),
        Transpose::No,
        Transpose::No,
        1.0,
        &a,
        &b,
        0.0,
        &mut c,
    )
    .unwrap_err();
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

/// The resident CG of `examples/cg.rs` against its host form on 1138_bus (diagonally scaled,
/// b = Â·ones), 30 iterations each. Both run the same kernels on the same data; they differ
/// only where the resident form divides on the device (WGSL allows 2.5 ULP for f32 division,
/// the host divides correctly rounded) and in where alpha's sign is applied, so their iterates
/// agree to a few eps per iteration, amplified by CG's sensitivity: checked here as ≤ 1e-4
/// relative, against iterates that change by O(1) per iteration, and the same residual norm.
#[test]
fn resident_cg_follows_the_host_form_on_1138_bus() {
    use wgblas::prelude::*;
    let a = crate::oracle_l2::bus_1138();
    let n = a.nrows();
    let d: Array1<f32> = a.diag().mapv(|v| 1.0 / v.abs().sqrt());
    let a = Array2::from_shape_fn((n, n), |(i, j)| a[[i, j]] * d[i] * d[j]);
    let b = a.dot(&Array1::<f32>::ones(n));
    let iterations = 30;
    let host = cg::host_form(
        &a,
        &b,
        0.0,
        iterations,
        |a, p| a.gpu_gemv(p),
        |x, y| x.gpu_dot(y),
        |s, x, y| x.gpu_axpy(s, y),
    )
    .unwrap();
    let dev = cg::resident_form(ctx(), &a, &b, 0.0, iterations, iterations).unwrap();
    assert_eq!((host.iterations, dev.iterations), (iterations, iterations));
    let norm = |v: &Array1<f32>| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let diff = norm(&(&host.x - &dev.x)) / norm(&host.x);
    assert!(
        diff <= 1e-4,
        "resident iterate differs from the host form's by {diff:e} (relative)"
    );
    let residual = |x: &Array1<f32>| norm(&(&b - &a.dot(x))) / norm(&b);
    let (rh, rd) = (residual(&host.x), residual(&dev.x));
    assert!(
        (rh - rd).abs() <= 1e-3 * rh,
        "residuals {rh:e} (host) and {rd:e} (resident)"
    );
    // And CG really progressed: 30 iterations cut the residual well below its start.
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
    // 1/5 is not representable; WGSL allows 2.5 ULP for f32 division.
    let r = norm.recip().unwrap().get().unwrap();
    assert!(wgblas::metrics::ulp_distance_f32(r, 0.2) <= 2, "1/5 = {r}");
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
