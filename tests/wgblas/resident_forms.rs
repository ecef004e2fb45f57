//! Resident forms beyond the chain: device alpha = 0 / beta = 1 against the host, the short
//! resident methods, their typed errors, and several read-backs in one submission (helpers
//! from `resident`).

use ndarray::{array, Array1, Array2};
use wgblas::metrics::{self, bounds};
use wgblas::{blas, resident, Context, GpuMatrix, GpuVector, MatrixLayout};

use crate::common::*;
use crate::describe;
use wgblas::{
    Transpose::{No, Yes},
    Uplo::Upper,
};

#[test]
fn device_alpha_zero_beta_one_keeps_the_output_bit_for_bit_like_the_host() {
    // alpha = 0 with beta = 1 is a quick return on the host (reference BLAS): y or C stays as
    // it is, bit for bit. With alpha and beta on the device the kernels make the same choice,
    // so a signalling NaN keeps its payload and -0 its sign either way.
    let ctx = Context::new().unwrap();
    let snan = f32::from_bits(0x7f80_0001);
    let zero = resident::sdot(&ctx, array![0.0f32].view(), array![1.0f32].view()).unwrap();
    let one = resident::sdot(&ctx, array![1.0f32].view(), array![1.0f32].view()).unwrap();
    let bits1 = |v: &Array1<f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let bits2 = |v: &Array2<f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let x = array![1.0f32, 1.0];
    let y0 = array![snan, -0.0f32];
    for (name, host) in [
        ("sgemv", true),
        ("sgemv", false),
        ("ssymv", true),
        ("ssymv", false),
    ] {
        let mut y = y0.clone();
        let r = match (name, host) {
            ("sgemv", true) => blas::sgemv(&ctx, No, 0.0, a.view(), x.view(), 1.0, y.view_mut()),
            ("sgemv", false) => {
                blas::sgemv(&ctx, No, &zero, a.view(), x.view(), &one, y.view_mut())
            }
            (_, true) => blas::ssymv(&ctx, Upper, 0.0, a.view(), x.view(), 1.0, y.view_mut()),
            _ => blas::ssymv(&ctx, Upper, &zero, a.view(), x.view(), &one, y.view_mut()),
        };
        r.unwrap();
        assert_eq!(bits1(&y), bits1(&y0), "{name}, host scalars: {host}");
    }
    let c0 = array![[snan, -0.0f32], [1.0, -2.0]];
    let mut c = c0.clone();
    blas::sgemm(&ctx, No, No, &zero, a.view(), a.view(), &one, c.view_mut()).unwrap();
    assert_eq!(
        bits2(&c),
        bits2(&c0),
        "sgemm, device alpha = 0 and beta = 1"
    );
    let mut c = c0.clone();
    blas::sgemm(&ctx, No, No, 0.0, a.view(), a.view(), 1.0, c.view_mut()).unwrap();
    assert_eq!(bits2(&c), bits2(&c0), "sgemm, host alpha = 0 and beta = 1");
}

#[test]
fn short_resident_methods_match_the_host_and_stay_resident() {
    let ctx = Context::new().unwrap();
    let mut r = rng(91);
    let (a, b) = (rand_mat(&mut r, 23, 31), rand_mat(&mut r, 31, 9));
    let (x, y) = (rand_vec(&mut r, 31), rand_vec(&mut r, 31));
    let (ga, gb) = (
        ctx.upload_matrix(&a).unwrap(),
        ctx.upload_matrix(&b).unwrap(),
    );
    let (gx, gy) = (
        ctx.upload_vector(&x).unwrap(),
        ctx.upload_vector(&y).unwrap(),
    );
    let (s0, r0) = (ctx.submissions(), ctx.readbacks());
    let gc = ga.gpu_gemm(&gb).unwrap();
    let gv = ga.gpu_gemv(&gx).unwrap();
    let gd = gx.gpu_dot(&gy).unwrap();
    let gz = gx.gpu_axpy(-1.5, &gy).unwrap();
    let gn = gz.gpu_nrm2().unwrap();
    assert_eq!(
        (ctx.submissions(), ctx.readbacks()),
        (s0, r0),
        "short forms waited"
    );
    assert_eq!(gc.dim(), (23, 9));
    // Each against OpenBLAS with its routine's metric and threshold (metrics::spec); the norm
    // against the correctly rounded norm of the z computed.
    let no = No;
    let zc = Array2::<f32>::zeros((23, 9));
    let want = oracle::sgemm(no, no, 1.0, a.view(), b.view(), 0.0, zc.view());
    let bound = bounds::gemm(no, no, 1.0, a.view(), b.view(), 0.0, zc.view());
    let f = metrics::forward_factor(&gc.to_array().unwrap(), &want, &bound).unwrap();
    describe::passes("sgemm", f, "gpu_gemm");
    let zv = Array1::<f32>::zeros(23);
    let want = oracle::sgemv(no, 1.0, a.view(), x.view(), 0.0, zv.view());
    let bound = bounds::gemv(no, 1.0, a.view(), x.view(), 0.0, zv.view());
    let f = metrics::forward_factor(&gv.to_array().unwrap(), &want, &bound).unwrap();
    describe::passes("sgemv", f, "gpu_gemv");
    let (d, want) = (gd.get().unwrap(), oracle::sdot(x.view(), y.view()));
    let f = metrics::forward_factor_scalar(d, want, bounds::dot(x.view(), y.view()));
    describe::passes("sdot", f, "gpu_dot");
    let z = gz.to_array().unwrap();
    let want = oracle::saxpy(-1.5, x.view(), y.view());
    let bound = bounds::axpy(-1.5, x.view(), y.view());
    let f = metrics::forward_factor(&z, &want, &bound).unwrap();
    describe::passes("saxpy", f, "gpu_axpy");
    let norm = z.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt() as f32;
    let u = metrics::ulp_distance_f32(gn.get().unwrap(), norm) as f64;
    describe::passes("snrm2", u, "gpu_nrm2");
    // y itself is unchanged by gpu_axpy.
    assert_eq!(gy.to_array().unwrap(), y);
}

#[test]
fn short_resident_methods_give_typed_errors() {
    let ctx = Context::new().unwrap();
    let ga = ctx.upload_matrix(&Array2::<f32>::ones((3, 4))).unwrap();
    let gx = ctx.upload_vector(&Array1::<f32>::ones(3)).unwrap();
    let gy = ctx.upload_vector(&Array1::<f32>::ones(4)).unwrap();
    let e = ga.gpu_gemm(&ga).unwrap_err();
    describe::assert_named(&e, ("DimensionMismatch", "sgemm", "b"));
    let e = ga.gpu_gemv(&gx).unwrap_err();
    describe::assert_named(&e, ("DimensionMismatch", "sgemv", "x"));
    let e = gx.gpu_dot(&gy).unwrap_err();
    describe::assert_named(&e, ("DimensionMismatch", "sdot", "y"));
    let e = gx.gpu_axpy(2.0, &gy).unwrap_err();
    describe::assert_named(&e, ("DimensionMismatch", "saxpy", "y"));
    // A hand-computed value: A·1 for A = ones(3×4) is 4 in each row.
    assert_eq!(
        ga.gpu_gemv(&gy).unwrap().to_array().unwrap(),
        array![4.0f32, 4.0, 4.0]
    );
}

/// `Context::read_back` of a tuple (vector, F-order matrix, device scalar, f64 vector) gives
/// each value, in one submission and one read-back for all of them; a `Vec` of one kind too;
/// an item of another context is a typed error.
#[test]
fn read_back_reads_several_results_in_one_submission() {
    use ndarray::ShapeBuilder;
    let ctx = wgblas::Context::new().expect("the tests need a GPU adapter");
    let a = Array2::from_shape_fn((3, 2).f(), |(i, j)| (i + 2 * j) as f32);
    let ga = ctx.upload_matrix(&a).unwrap();
    let gx = ctx.upload_vector(&array![1.0f32, -1.0]).unwrap();
    let mut gy = GpuVector::<f32>::zeros(&ctx, 3).unwrap();
    blas::sgemv(&ctx, No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
    let mut gc = GpuMatrix::<f32>::zeros(&ctx, (2, 2), MatrixLayout::ColMajor).unwrap();
    blas::sgemm(&ctx, Yes, No, 1.0, &ga, &ga, 0.0, &mut gc).unwrap();
    let s = resident::sdot(&ctx, &gy, &gy).unwrap();
    let g64 = ctx.upload_vector(&array![0.1f64, 1e300]).unwrap();
    let (subs, reads) = (ctx.submissions(), ctx.readbacks());
    let (y, c, s, v) = ctx.read_back((&gy, &gc, &s, &g64)).unwrap();
    assert_eq!((ctx.submissions(), ctx.readbacks()), (subs + 1, reads + 1));
    // A = [[0, 2], [1, 3], [2, 4]]: y = A·[1, −1] = [−2, −2, −2], AᵀA = [[5, 11], [11, 29]].
    assert_eq!(y, array![-2.0f32, -2.0, -2.0]);
    assert_eq!(c, array![[5.0f32, 11.0], [11.0, 29.0]]);
    assert!(
        c.t().is_standard_layout(),
        "a column-major matrix comes back F order"
    );
    assert_eq!(s, 12.0);
    assert_eq!(v, array![0.1f64, 1e300]);
    let vs: Vec<_> = (0..3)
        .map(|k| ctx.upload_vector(&Array1::from_elem(5, k as f32)).unwrap())
        .collect();
    let subs = ctx.submissions();
    let back = ctx.read_back(vs.iter().collect::<Vec<_>>()).unwrap();
    assert_eq!(ctx.submissions(), subs + 1);
    for (k, b) in back.iter().enumerate() {
        assert_eq!(b, &Array1::from_elem(5, k as f32));
    }
    let other = wgblas::Context::new().unwrap();
    let foreign = other.upload_vector(&array![1.0f32]).unwrap();
    let e = ctx.read_back((&gy, &foreign)).unwrap_err();
    describe::assert_named(&e, ("InvalidArgument", "read_back", "items"));
}

#[test]
fn resident_axpy_names_saxpy_and_y_for_a_vector_of_another_context() {
    // The form copies y before the product: a y of another context is still saxpy's (daxpy's)
    // error on y (an outside probe found scopy's on x), and nothing is written.
    let (c1, c2) = (Context::new().unwrap(), Context::new().unwrap());
    let x = c1.upload_vector(&array![1.0f32, 2.0]).unwrap();
    let y = c2.upload_vector(&array![3.0f32, 4.0]).unwrap();
    let e = x.gpu_axpy(2.0, &y).unwrap_err();
    describe::assert_named(&e, ("InvalidArgument", "saxpy", "y"));
    assert_eq!(y.to_array().unwrap(), array![3.0f32, 4.0]);
    let x = c1.upload_vector(&array![1.0f64, 2.0]).unwrap();
    let y = c2.upload_vector(&array![3.0f64, 4.0]).unwrap();
    let e = x.gpu_axpy(2.0, &y).unwrap_err();
    describe::assert_named(&e, ("InvalidArgument", "daxpy", "y"));
}
