//! dgemm and dgemm_batched: the sgemm rules in f64, from the same WGSL (`alias T = f64;`).
//! Metric: forward factor ≤ 1 in units of eps = 2^-52 (`metrics::forward_factor_f64`) against
//! OpenBLAS dgemm (lavapipe has SHADER_F64; without it every call is `Error::Unsupported`).

use ndarray::{array, s, Array2, Array3, ArrayView2, ArrayViewMut2, Axis, ShapeBuilder};
use rand::Rng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::describe;

/// dgemm's threshold: its s twin's forward factor in `metrics::spec`, in units of 2^-52.
pub fn threshold() -> f64 {
    wgblas::metrics::spec("sgemm").unwrap().threshold
}
pub const TRANS: [Transpose; 2] = [Transpose::No, Transpose::Yes];

/// A value with |v| in [1e-3, 1] and a random sign, in f64 (all 53 bits random).
pub fn value64(r: &mut rand::rngs::StdRng) -> f64 {
    let v: f64 = r.random_range(1e-3..=1.0);
    if r.random_bool(0.5) {
        -v
    } else {
        v
    }
}

pub fn rand64(seed: u64, (m, n): (usize, usize)) -> Array2<f64> {
    let mut r = rng(seed);
    Array2::from_shape_simple_fn((m, n), || value64(&mut r))
}

/// A matrix stored in `layout` (C, F, every other row and column of a larger array, rows
/// reversed) whose logical view equals `x`.
pub struct Mat64 {
    buf: Array2<f64>,
    layout: Layout,
}

impl Mat64 {
    pub fn new(x: &Array2<f64>, layout: Layout) -> Self {
        let (m, n) = x.dim();
        let buf = match layout {
            Layout::C => x.clone(),
            Layout::F => {
                let mut f = Array2::zeros((m, n).f());
                f.assign(x);
                f
            }
            Layout::Strided => {
                let mut big = Array2::from_elem((2 * m, 2 * n), f64::NAN);
                big.slice_mut(s![..;2, ..;2]).assign(x);
                big
            }
            Layout::Reversed => x.slice(s![..;-1, ..]).to_owned(),
        };
        Mat64 { buf, layout }
    }

    pub fn view(&self) -> ArrayView2<'_, f64> {
        match self.layout {
            Layout::C | Layout::F => self.buf.view(),
            Layout::Strided => self.buf.slice(s![..;2, ..;2]),
            Layout::Reversed => self.buf.slice(s![..;-1, ..]),
        }
    }

    pub fn view_mut(&mut self) -> ArrayViewMut2<'_, f64> {
        match self.layout {
            Layout::C | Layout::F => self.buf.view_mut(),
            Layout::Strided => self.buf.slice_mut(s![..;2, ..;2]),
            Layout::Reversed => self.buf.slice_mut(s![..;-1, ..]),
        }
    }
}

/// OpenBLAS dgemm on C-order copies.
pub fn oracle_dgemm(
    ta: Transpose,
    tb: Transpose,
    alpha: f64,
    a: ArrayView2<f64>,
    b: ArrayView2<f64>,
    beta: f64,
    c: ArrayView2<f64>,
) -> Array2<f64> {
    use crate::describe::Elem;
    let std = |m: ArrayView2<f64>| m.as_standard_layout().into_owned();
    let mut cc = std(c);
    f64::o_gemm(ta, tb, alpha, &std(a), &std(b), beta, &mut cc);
    cc
}

pub fn shape(t: Transpose, rows: usize, cols: usize) -> (usize, usize) {
    match t {
        Transpose::No => (rows, cols),
        Transpose::Yes => (cols, rows),
    }
}

#[test]
fn edge_hand_values_and_exact_scalars() {
    let a = array![[1.0f64, 2.0], [3.0, 4.0]];
    let b = array![[5.0f64, 6.0], [7.0, 8.0]];
    assert_eq!(a.gpu_gemm(&b).unwrap(), array![[19.0, 22.0], [43.0, 50.0]]);
    // alpha and beta reach the kernel as f64 (0.1 is not an f32): C = 0.1·AB + 0.3·C, with
    // every sum exact, within dgemm's forward factor (metrics::spec, units of 2^-52) of the
    // host's value, which an f32 alpha or beta would miss by ~2^-24 relative.
    let c0 = Array2::<f64>::ones((2, 2));
    let mut c = c0.clone();
    a.gpu_gemm_inplace(0.1, &b, 0.3, &mut c).unwrap();
    let want = array![[19.0, 22.0], [43.0, 50.0]].mapv(|v: f64| 0.1 * v + 0.3);
    let no = Transpose::No;
    let bound = bounds::dgemm(no, no, 0.1, a.view(), b.view(), 0.3, c0.view());
    let f = metrics::forward_factor_f64(&c, &want, &bound).unwrap();
    assert!(f <= threshold(), "{c:?} vs {want:?}: factor {f}");
    // A value that f32 cannot hold at all survives: 1e-300·1e300, against the host's product
    // within the forward factor.
    let tiny = array![[1e-300f64]];
    let huge = array![[1e300f64]];
    let p = tiny.gpu_gemm(&huge).unwrap();
    let zero = Array2::<f64>::zeros((1, 1));
    let bound = bounds::dgemm(no, no, 1.0, tiny.view(), huge.view(), 0.0, zero.view());
    let f = metrics::forward_factor_f64(&p, &array![[1e-300 * 1e300]], &bound).unwrap();
    assert!(f <= threshold(), "{p:?}: factor {f}");
}

/// DESIGN.md §3 in f64: beta = 0 never reads C, alpha = 0 reads neither A nor B, k = 0 gives
/// beta·C, NaN alpha or beta is not 0, a k past lavapipe's loop limit (k chunks: the later
/// ones add with beta = 1).
#[test]
fn edge_special_values() {
    let a = array![[1.0f64, 2.0], [3.0, 4.0]];
    let id = array![[1.0f64, 0.0], [0.0, 1.0]];
    let mut c = array![[f64::NAN, f64::INFINITY], [f64::NAN, -f64::INFINITY]];
    a.gpu_gemm_inplace(1.0, &id, 0.0, &mut c).unwrap();
    assert_eq!(c, a);
    let an = Array2::from_elem((2, 3), f64::NAN);
    let bn = Array2::from_elem((3, 2), f64::INFINITY);
    let mut c = array![[1.0f64, 2.0], [3.0, 4.0]];
    an.gpu_gemm_inplace(0.0, &bn, 2.0, &mut c).unwrap();
    assert_eq!(c, array![[2.0, 4.0], [6.0, 8.0]]);
    let a0 = Array2::<f64>::zeros((3, 0));
    let b0 = Array2::<f64>::zeros((0, 2));
    let mut c = Array2::from_elem((3, 2), f64::NAN);
    a0.gpu_gemm_inplace(1.0, &b0, 0.0, &mut c).unwrap();
    assert_eq!(c, Array2::zeros((3, 2)));
    let ones = Array2::from_elem((2, 2), 1.0f64);
    let mut c = ones.clone();
    ones.gpu_gemm_inplace(f64::NAN, &ones, 1.0, &mut c).unwrap();
    assert!(c.iter().all(|v| v.is_nan()));
    let mut c = Array2::zeros((2, 2));
    ones.gpu_gemm_inplace(1.0, &ones, f64::NAN, &mut c).unwrap();
    assert!(c.iter().all(|v| v.is_nan()));
    // No zero-skip: 0·NaN = NaN.
    let mut z = Array2::<f64>::zeros((2, 2));
    z[[0, 1]] = f64::NAN;
    let c = z.gpu_gemm(&Array2::zeros((2, 2))).unwrap();
    assert!(c.row(0).iter().all(|v| v.is_nan()) && c.row(1).iter().all(|&v| v == 0.0));
    // k = 70,000 (chunks of 16,384), beta = 0.5 on the first chunk only: exact sums.
    let k = 70_000;
    let a = Array2::<f64>::ones((2, k));
    let b = Array2::<f64>::from_elem((k, 2), 0.25);
    let mut c = Array2::from_elem((2, 2), 4.0f64);
    a.gpu_gemm_inplace(1.0, &b, 0.5, &mut c).unwrap();
    assert_eq!(c, Array2::from_elem((2, 2), 2.0 + k as f64 / 4.0));
}

#[test]
fn validation_shapes_and_missing_f64() {
    let a = Array2::<f64>::ones((3, 4));
    let b = Array2::<f64>::ones((5, 2));
    let mut c = Array2::<f64>::from_elem((3, 2), 9.0);
    let err = a.gpu_gemm_inplace(1.0, &b, 0.0, &mut c).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "dgemm", "b"));
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
    // Without f64 shaders (forced here on a private context): a typed error naming the
    // feature, C unchanged.
    let own = wgblas::Context::new().unwrap();
    own.set_force_f64_fallback(true);
    let b = Array2::<f64>::ones((4, 2));
    let err = blas::dgemm(
        &own,
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        Error::Unsupported {
            routine: "dgemm",
            feature: "SHADER_F64"
        }
    );
    let a3 = Array3::<f64>::ones((2, 3, 4));
    let b3 = Array3::<f64>::ones((2, 4, 2));
    let mut c3 = Array3::<f64>::from_elem((2, 3, 2), 9.0);
    let err = blas::dgemm_batched(
        &own,
        Transpose::No,
        Transpose::No,
        1.0,
        a3.view(),
        b3.view(),
        0.0,
        c3.view_mut(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        Error::Unsupported {
            routine: "dgemm_batched",
            feature: "SHADER_F64"
        }
    );
    let mut y = array![9.0f64, 9.0, 9.0];
    let err = blas::dgemv(
        &own,
        Transpose::No,
        1.0,
        a.view(),
        array![1.0f64, 1.0, 1.0, 1.0].view(),
        0.0,
        y.view_mut(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        Error::Unsupported {
            routine: "dgemv",
            feature: "SHADER_F64"
        }
    );
    assert_eq!(y, array![9.0, 9.0, 9.0]);
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
    assert!(c3.iter().all(|&v| v == 9.0));
}

#[test]
fn resident_f64_matrices() {
    for f_order in [false, true] {
        let a = rand64(41, (33, 17));
        let b = rand64(42, (17, 20));
        let c = rand64(43, (33, 20));
        let store = |x: &Array2<f64>| {
            if f_order {
                x.t().as_standard_layout().into_owned().reversed_axes()
            } else {
                x.clone()
            }
        };
        let ga = ctx().upload_matrix(&store(&a)).unwrap();
        let gb = ctx().upload_matrix(&store(&b)).unwrap();
        let mut gc = ctx().upload_matrix(&store(&c)).unwrap();
        blas::dgemm(
            ctx(),
            Transpose::No,
            Transpose::No,
            0.7,
            &ga,
            &gb,
            0.9,
            &mut gc,
        )
        .unwrap();
        let no = Transpose::No;
        let reference = oracle_dgemm(no, no, 0.7, a.view(), b.view(), 0.9, c.view());
        let bound = bounds::dgemm(no, no, 0.7, a.view(), b.view(), 0.9, c.view());
        let got = gc.to_array().unwrap();
        let f = metrics::forward_factor_f64(&got, &reference, &bound).unwrap();
        assert!(f <= threshold(), "resident dgemm F={f_order}: factor {f}");
    }
}

/// dgemm_batched against OpenBLAS dgemm per product: small (several per workgroup) and tiled
/// products, broadcast A, F-order batches, transposes, beta = 0 over NaN.
#[test]
fn batched_fixtures_and_broadcast() {
    for (batch, m, n, k) in [
        (7, 5, 3, 9),
        (70, 32, 32, 32),
        (3, 65, 70, 33),
        (2, 128, 128, 64),
    ] {
        for ta in TRANS {
            for tb in TRANS {
                let (ra, ca) = shape(ta, m, k);
                let (rb, cb) = shape(tb, k, n);
                let (mut a, mut c) = (Array3::zeros((batch, ra, ca)), Array3::zeros((batch, m, n)));
                let mut b = Array3::zeros((batch, rb, cb).f());
                for p in 0..batch {
                    let q = p as u64;
                    a.index_axis_mut(Axis(0), p)
                        .assign(&rand64(100 + q, (ra, ca)));
                    b.index_axis_mut(Axis(0), p)
                        .assign(&rand64(200 + q, (rb, cb)));
                    c.index_axis_mut(Axis(0), p)
                        .assign(&rand64(300 + q, (m, n)));
                }
                let mut got = c.clone();
                blas::dgemm_batched(ctx(), ta, tb, 0.7, a.view(), b.view(), 0.9, got.view_mut())
                    .unwrap();
                let a2 = a.index_axis(Axis(0), 0).to_owned();
                let abr = a2.broadcast((batch, ra, ca)).unwrap();
                let mut got0 = Array3::from_elem((batch, m, n), f64::NAN);
                blas::dgemm_batched(ctx(), ta, tb, 1.0, abr, b.view(), 0.0, got0.view_mut())
                    .unwrap();
                let zero = Array2::zeros((m, n));
                for p in 0..batch {
                    let (ap, bp, cp) = (
                        a.index_axis(Axis(0), p),
                        b.index_axis(Axis(0), p),
                        c.index_axis(Axis(0), p),
                    );
                    let r = oracle_dgemm(ta, tb, 0.7, ap, bp, 0.9, cp);
                    let bd = bounds::dgemm(ta, tb, 0.7, ap, bp, 0.9, cp);
                    let f =
                        metrics::forward_factor_f64(&got.index_axis(Axis(0), p), &r, &bd).unwrap();
                    assert!(
                        f <= threshold(),
                        "{batch}x{m}x{n}x{k} {ta:?}{tb:?} p={p}: {f}"
                    );
                    let r = oracle_dgemm(ta, tb, 1.0, a2.view(), bp, 0.0, zero.view());
                    let bd = bounds::dgemm(ta, tb, 1.0, a2.view(), bp, 0.0, zero.view());
                    let f =
                        metrics::forward_factor_f64(&got0.index_axis(Axis(0), p), &r, &bd).unwrap();
                    assert!(f <= threshold(), "broadcast {batch}x{m}x{n}x{k} p={p}: {f}");
                }
            }
        }
    }
    // Through the extension trait, and a batch past 65,535 (hand values, exact).
    let a = Array3::from_shape_fn((70_000, 2, 2), |(p, i, j)| ((p % 97) + i + 2 * j) as f64);
    let b = Array3::from_shape_fn((70_000, 2, 2), |(p, i, j)| ((p % 5) + i * j) as f64);
    let c = a.gpu_gemm_batched(&b).unwrap();
    for p in (0..70_000).step_by(997).chain([69_999]) {
        let want = a.index_axis(Axis(0), p).dot(&b.index_axis(Axis(0), p));
        assert_eq!(c.index_axis(Axis(0), p), want, "product {p}");
    }
}

/// dgemv (on the tile engine as a one-column product) against OpenBLAS dgemv, with the sgemv
/// bound `(n+1)·|alpha|·Σ_j |A_ij|·|x_j| + |beta|·|y_i|` in units of 2^-52: every layout of A,
/// both transposes, strided and reversed x and y, the netlib alpha/beta values, a long n
/// (split-k), and the quick returns and special values of DESIGN.md §3.
#[test]
fn dgemv_against_openblas() {
    use cblas_sys::*;
    let oracle = |t: Transpose, alpha: f64, a: &Array2<f64>, x: &[f64], beta: f64, y: &[f64]| {
        let a = a.as_standard_layout();
        let (m, n) = a.dim();
        let mut y = y.to_vec();
        let tr = if t == Transpose::No {
            CBLAS_TRANSPOSE::CblasNoTrans
        } else {
            CBLAS_TRANSPOSE::CblasTrans
        };
        unsafe {
            cblas_dgemv(
                CBLAS_LAYOUT::CblasRowMajor,
                tr,
                m as i32,
                n as i32,
                alpha,
                a.as_ptr(),
                n.max(1) as i32,
                x.as_ptr(),
                1,
                beta,
                y.as_mut_ptr(),
                1,
            )
        };
        y
    };
    for (m, n) in [(1, 1), (7, 5), (17, 130), (129, 16), (3, 3000)] {
        for t in TRANS {
            for la in LAYOUTS {
                for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9), (0.0, 0.9), (-1.3, 1.0)] {
                    let a = rand64(91, (m, n));
                    let (rows, cols) = if t == Transpose::No { (m, n) } else { (n, m) };
                    let x = rand64(92, (cols, 1)).column(0).to_owned();
                    let y = if beta == 0.0 {
                        ndarray::Array1::from_elem(rows, f64::NAN)
                    } else {
                        rand64(93, (rows, 1)).column(0).to_owned()
                    };
                    let sa = Mat64::new(&a, la);
                    // x with stride 2, y reversed.
                    let mut xb = ndarray::Array1::from_elem(2 * cols, f64::NAN);
                    xb.slice_mut(s![..;2]).assign(&x);
                    let mut yb = y.slice(s![..;-1]).to_owned();
                    blas::dgemv(
                        ctx(),
                        t,
                        alpha,
                        sa.view(),
                        xb.slice(s![..;2]),
                        beta,
                        yb.slice_mut(s![..;-1]),
                    )
                    .unwrap();
                    let got = yb.slice(s![..;-1]).to_owned();
                    let y0 = if beta == 0.0 {
                        ndarray::Array1::zeros(rows)
                    } else {
                        y.clone()
                    };
                    let want = oracle(
                        t,
                        alpha,
                        &a,
                        x.as_slice().unwrap(),
                        beta,
                        y0.as_slice().unwrap(),
                    );
                    let opa = if t == Transpose::No { a.view() } else { a.t() };
                    let k = opa.ncols() as f64;
                    let bound = ndarray::Array1::from_shape_fn(rows, |i| {
                        let s: f64 = (0..opa.ncols()).map(|j| (opa[[i, j]] * x[j]).abs()).sum();
                        let p = if alpha == 0.0 {
                            0.0
                        } else {
                            (k + 1.0) * alpha.abs() * s
                        };
                        p + if beta == 0.0 {
                            0.0
                        } else {
                            (beta * y0[i]).abs()
                        }
                    });
                    let want = ndarray::Array1::from_vec(want);
                    let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
                    assert!(
                        f <= threshold(),
                        "dgemv {m}x{n} {t:?} {la:?} {alpha} {beta}: {f}"
                    );
                }
            }
        }
    }
    // Quick returns: n = 0 leaves y unchanged (reference DGEMV), alpha = 0 reads neither A
    // nor x, NaN beta is not 0.
    let mut y = array![1.0f64, 2.0];
    blas::dgemv(
        ctx(),
        Transpose::No,
        1.0,
        Array2::<f64>::zeros((2, 0)).view(),
        ndarray::Array1::<f64>::zeros(0).view(),
        0.0,
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![1.0, 2.0]);
    blas::dgemv(
        ctx(),
        Transpose::No,
        0.0,
        Array2::from_elem((2, 3), f64::NAN).view(),
        array![f64::INFINITY, 1.0, 1.0].view(),
        3.0,
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 6.0]);
    blas::dgemv(
        ctx(),
        Transpose::No,
        1.0,
        Array2::<f64>::ones((2, 2)).view(),
        array![1.0f64, 1.0].view(),
        f64::NAN,
        y.view_mut(),
    )
    .unwrap();
    assert!(y.iter().all(|v| v.is_nan()));
    let err = blas::dgemv(
        ctx(),
        Transpose::No,
        1.0,
        Array2::<f64>::ones((2, 3)).view(),
        array![1.0f64, 1.0].view(),
        0.0,
        y.view_mut(),
    )
    .unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "dgemv", "x"));
}
