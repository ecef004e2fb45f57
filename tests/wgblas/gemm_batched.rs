//! sgemm_batched and dgemm_batched: C_b ← alpha·op(A_b)·op(B_b) + beta·C_b for every b, from
//! the description [`GemmBatched`]. Metric: the gemm forward factor (DESIGN.md §2) on every
//! product of the batch, against OpenBLAS gemm; hand-computed values below.

use ndarray::{array, Array2, Array3, ArrayView3, ArrayViewD, Axis, Ix3};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Context, GpuBatch};

use crate::common::*;
use crate::describe::{self, pick, scalar, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::gemm::Gemm;

/// The threshold of every product of a batch: sgemm's forward factor in `metrics::spec`.
pub fn threshold() -> f64 {
    metrics::spec("sgemm").unwrap().threshold
}
pub const TRANS: [Transpose; 2] = [Transpose::No, Transpose::Yes];

/// sgemm_batched and dgemm_batched: every product of the batch is a gemm, measured as
/// [`Gemm`] measures one.
pub struct GemmBatched;

impl Routine for GemmBatched {
    const ID: Id = Id("gemm_batched", Out::CB);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let (ra, ca) = shape(c.trans, c.m, c.k);
        let (rb, cb) = shape(c.transb, c.k, c.n);
        let mut batch = |(m, n)| Array3::from_shape_simple_fn((c.batch, m, n), || T::value(r));
        let (a, b) = (batch((ra, ca)), batch((rb, cb)));
        // beta = 0: C is never read, so it holds NaN.
        let cm = match c.beta == 0.0 {
            true => Array3::from_elem((c.batch, c.m, c.n), T::nan()),
            false => batch((c.m, c.n)),
        };
        Ops::batched([a, b, cm])
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let [a, b, cm] = &mut s.batches;
        T::gemm_batched(ctx, c.trans, c.transb, alpha, a.r(), b.r(), beta, cm.w())
    }

    fn quick(_: &Case) -> bool {
        false
    }

    /// The largest measure of the products, each against OpenBLAS gemm (`Gemm::measure`).
    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let got = got.into_dimensionality::<Ix3>().unwrap();
        let product = |p| Gemm::measure(c, &o.product(p), got.index_axis(Axis(0), p).into_dyn());
        (0..c.batch).map(product).fold(0.0, f64::max)
    }

    /// Every stored layout of each operand; every transpose with C, F and column-major
    /// batches, alpha = 0 and beta = 0 among the scalars.
    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        let no = Transpose::No;
        for la in BLAYOUTS {
            for lb in BLAYOUTS {
                for lc in BLAYOUTS {
                    v.push(bcase(3, 3, (9, 6, 5), (no, no), (1.0, 0.9), [la, lb, lc]));
                }
            }
        }
        for t in trans_pairs() {
            for layouts in [[BLayout::C; 3], [BLayout::FMat; 3], [BLayout::F; 3]] {
                for ab in [(1.0, 0.0), (0.7, 1.0), (0.0, 0.9), (-1.0, 0.9)] {
                    v.push(bcase(5, 4, (17, 15, 16), t, ab, layouts));
                }
            }
        }
        v
    }

    /// 1 to 5 products of odd sizes and the tile edges, any flags, scalars and layouts.
    fn space() -> BoxedStrategy<Case> {
        let dims = (
            any::<u64>(),
            1usize..6,
            pick(&SIZES),
            pick(&SIZES),
            pick(&SIZES),
        );
        let flags = (pick(&TRANS), pick(&TRANS), scalar(), scalar());
        let l = || pick(&BLAYOUTS);
        (dims, flags, (l(), l(), l()))
            .prop_map(|((seed, batch, m, n, k), (ta, tb, al, be), (la, lb, lc))| {
                let ab = (f64::from(al), f64::from(be));
                bcase(seed, batch, (m, n, k), (ta, tb), ab, [la, lb, lc])
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 2, 5);
        let yes = c.flags(Uplo::Upper, Transpose::Yes, Diag::NonUnit);
        let dm = "DimensionMismatch";
        let bad = |case, a, b, cm, arg| Bad::batched(case, [a, b, cm], dm, arg);
        vec![
            bad(c, (3, 2, 4), (2, 4, 5), (3, 2, 5), "b"), // batch of B
            bad(c, (2, 2, 4), (3, 4, 5), (3, 2, 5), "a"), // batch of A
            bad(c, (3, 2, 4), (3, 3, 5), (3, 2, 5), "b"), // inner dimension
            bad(c, (3, 2, 4), (3, 4, 5), (3, 3, 5), "c"), // rows of C
            bad(c, (3, 2, 4), (3, 4, 5), (3, 2, 6), "c"), // columns of C
            // The transpose flags change the checked shapes: op(A) = Aᵀ is 4×2 here.
            bad(yes, (3, 2, 4), (3, 4, 5), (3, 2, 5), "b"),
        ]
    }
}

describe::described_tests!(GemmBatched, 40);

/// A case of `batch` products: C m×n, depth k, the flags (op(A), op(B)), (alpha, beta), and the
/// layouts of the batches A, B and C.
pub fn bcase(
    seed: u64,
    batch: usize,
    (m, n, k): (usize, usize, usize),
    (ta, tb): (Transpose, Transpose),
    (alpha, beta): (f64, f64),
    lbat: [BLayout; 3],
) -> Case {
    Case::mnk(seed, m, n, k)
        .flags(Uplo::Upper, ta, Diag::NonUnit)
        .transb(tb)
        .scalars(alpha, beta)
        .batched(batch, lbat)
}

/// A batch of f32 stored in a layout.
pub type Bat = StoredBatch<f32>;

pub fn shape(t: Transpose, rows: usize, cols: usize) -> (usize, usize) {
    match t {
        Transpose::No => (rows, cols),
        Transpose::Yes => (cols, rows),
    }
}

pub fn rand_batch(seed: u64, (b, m, n): (usize, usize, usize)) -> Array3<f32> {
    let mut r = rng(seed);
    Array3::from_shape_simple_fn((b, m, n), || value(&mut r))
}

/// The largest forward factor over the products of the batch (OpenBLAS sgemm per product).
#[allow(clippy::too_many_arguments)]
pub fn max_factor(
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    a: ArrayView3<f32>,
    b: ArrayView3<f32>,
    beta: f32,
    c0: ArrayView3<f32>,
    got: ArrayView3<f32>,
) -> f64 {
    let mut worst = 0.0f64;
    for p in 0..got.len_of(Axis(0)) {
        let (ap, bp, cp) = (
            a.index_axis(Axis(0), p),
            b.index_axis(Axis(0), p),
            c0.index_axis(Axis(0), p),
        );
        let reference = oracle::sgemm(ta, tb, alpha, ap, bp, beta, cp);
        let bound = bounds::gemm(ta, tb, alpha, ap, bp, beta, cp);
        let g = got.index_axis(Axis(0), p).to_owned();
        let f = metrics::forward_factor(&g, &reference, &bound).unwrap();
        worst = worst.max(f);
    }
    worst
}

/// One f32 case of the description: `batch` products of C m×n by depth k, the flags (op(A),
/// op(B)), (alpha, beta), the batches stored in `layouts`; beta = 0 puts NaN in C (which must
/// not leak).
pub fn check(
    (seed, batch): (u64, usize),
    dims: (usize, usize, usize),
    flags: (Transpose, Transpose),
    (alpha, beta): (f32, f32),
    layouts: [BLayout; 3],
) {
    let ab = (f64::from(alpha), f64::from(beta));
    describe::check::<GemmBatched, f32>(&bcase(seed, batch, dims, flags, ab, layouts));
}

pub const SIZES: [usize; 7] = [1, 2, 7, 16, 17, 33, 65];

#[test]
fn edge_aligned_batches_take_the_vec4_paths() {
    // 128×128×64 products with batch strides that are multiples of 4: the vec4 staging, in
    // every storage order and transpose.
    let (c, fm) = (BLayout::C, BLayout::FMat);
    for layouts in [[c; 3], [fm; 3], [c, fm, c]] {
        for (ta, tb) in trans_pairs() {
            check((7, 3), (128, 128, 64), (ta, tb), (1.0, 0.5), layouts);
        }
    }
}

#[test]
fn edge_batch_zero_and_one() {
    // batch = 0: nothing to do, no error.
    let a = Array3::<f32>::zeros((0, 3, 4));
    let b = Array3::<f32>::zeros((0, 4, 2));
    let c = a.gpu_gemm_batched(&b).unwrap();
    assert_eq!(c.dim(), (0, 3, 2));
    let mut c = Array3::<f32>::zeros((0, 3, 2));
    a.gpu_gemm_batched_inplace(1.0, &b, 0.5, &mut c).unwrap();
    // batch = 1 is sgemm: the same result bit for bit.
    let (no, yes) = (Transpose::No, Transpose::Yes);
    for layouts in [
        [BLayout::C; 3],
        [BLayout::F, BLayout::FMat, BLayout::Strided],
    ] {
        check((9, 1), (33, 17, 65), (no, yes), (0.7, 0.9), layouts);
    }
    let a = rand_batch(11, (1, 20, 30));
    let b = rand_batch(12, (1, 30, 10));
    let c = a.gpu_gemm_batched(&b).unwrap();
    let one = a
        .index_axis(Axis(0), 0)
        .gpu_gemm(&b.index_axis(Axis(0), 0))
        .unwrap();
    assert!(c
        .index_axis(Axis(0), 0)
        .iter()
        .zip(&one)
        .all(|(x, y)| x.to_bits() == y.to_bits()));
}

/// A batch past the 65,535 workgroups of one grid dimension, at cheap sizes, hand-computed:
/// every product has its own small-integer values (exact in f32), so a product computed from
/// another one's operands, or written to another one's C, or not at all, shows.
#[test]
fn edge_batch_past_the_grid_limit() {
    let batch = 70_000;
    for (m, n, k) in [(1, 1, 1), (2, 2, 2)] {
        let a = Array3::from_shape_fn((batch, m, k), |(p, i, l)| ((p % 251) + i + 2 * l) as f32);
        let b = Array3::from_shape_fn((batch, k, n), |(p, l, j)| ((p % 13) + l * j + 1) as f32);
        let c = a.gpu_gemm_batched(&b).unwrap();
        for p in 0..batch {
            let want = a.index_axis(Axis(0), p).dot(&b.index_axis(Axis(0), p));
            assert_eq!(c.index_axis(Axis(0), p), want, "product {p} of {m}x{n}x{k}");
        }
    }
}

/// One dispatch covers the whole batch (a private context, so that other tests' dispatches do
/// not count).
#[test]
fn edge_one_dispatch_for_the_whole_batch() {
    let own = wgblas::Context::new().unwrap();
    let a = Array3::from_elem((70_000, 2, 2), 1.0f32);
    let b = Array3::from_elem((70_000, 2, 2), 2.0f32);
    let mut c = Array3::from_elem((70_000, 2, 2), f32::NAN);
    let (before, no) = (own.dispatches(), Transpose::No);
    blas::sgemm_batched(&own, no, no, 1.0, a.view(), b.view(), 0.0, c.view_mut()).unwrap();
    assert_eq!(own.dispatches() - before, 1);
    assert!(c.iter().all(|&v| v == 4.0));
}

/// One A (or B) for the whole batch, passed as a broadcast view (batch stride 0).
#[test]
fn edge_broadcast_a_and_b() {
    for (m, n, k) in [(5, 7, 3), (17, 33, 16), (64, 64, 64)] {
        for (ta, tb) in trans_pairs() {
            let (ra, ca) = shape(ta, m, k);
            let (rb, cb) = shape(tb, k, n);
            let a2 = rand_batch(21, (1, ra, ca)).index_axis_move(Axis(0), 0);
            let b3 = rand_batch(22, (6, rb, cb));
            let c = rand_batch(23, (6, m, n));
            // Broadcast A.
            let abr = a2.broadcast((6, ra, ca)).unwrap();
            let mut got = c.clone();
            blas::sgemm_batched(ctx(), ta, tb, 0.7, abr, b3.view(), 0.5, got.view_mut()).unwrap();
            let f = max_factor(ta, tb, 0.7, abr, b3.view(), 0.5, c.view(), got.view());
            assert!(
                f <= threshold(),
                "broadcast A {m}x{n}x{k} {ta:?}{tb:?}: {f}"
            );
            // Broadcast B (with A of the batch in F order of the whole array).
            let b2 = b3.index_axis(Axis(0), 0).to_owned();
            let bbr = b2.broadcast((6, rb, cb)).unwrap();
            let a3 = Bat::new(&rand_batch(24, (6, ra, ca)), BLayout::F);
            let mut got = c.clone();
            blas::sgemm_batched(ctx(), ta, tb, 1.0, a3.view(), bbr, 0.0, got.view_mut()).unwrap();
            let zero = Array3::zeros((6, m, n));
            let f = max_factor(ta, tb, 1.0, a3.view(), bbr, 0.0, zero.view(), got.view());
            assert!(
                f <= threshold(),
                "broadcast B {m}x{n}x{k} {ta:?}{tb:?}: {f}"
            );
        }
    }
    // Hand values: A = [[1, 2], [3, 4]] shared by two products.
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let b = Array3::from_shape_vec((2, 2, 1), vec![1.0f32, 1.0, 2.0, -1.0]).unwrap();
    let c = a
        .broadcast((2, 2, 2))
        .unwrap()
        .gpu_gemm_batched(&b)
        .unwrap();
    assert_eq!(
        c,
        Array3::from_shape_vec((2, 2, 1), vec![3.0, 7.0, 0.0, 2.0]).unwrap()
    );
}

/// DESIGN.md §3 on every product: beta = 0 overwrites NaN in C; alpha = 0 reads neither A nor
/// B; k = 0 gives beta·C; a NaN alpha or beta is not 0; NaN propagates through a zero partner.
#[test]
fn edge_special_values() {
    let batch = 3;
    // beta = 0: C holds NaN and Inf, which must not leak.
    let a = Array3::from_shape_fn((batch, 2, 2), |(p, i, j)| (p + i + j) as f32);
    let id = Array3::from_shape_fn((batch, 2, 2), |(_, i, j)| f32::from(u8::from(i == j)));
    let mut c = Array3::from_shape_fn(
        (batch, 2, 2),
        |(_, i, _)| {
            if i == 0 {
                f32::NAN
            } else {
                f32::INFINITY
            }
        },
    );
    a.gpu_gemm_batched_inplace(1.0, &id, 0.0, &mut c).unwrap();
    assert_eq!(c, a);
    // alpha = 0: A and B are NaN and Inf, never read; C = beta·C.
    let an = Array3::from_elem((batch, 2, 3), f32::NAN);
    let bn = Array3::from_elem((batch, 3, 2), f32::INFINITY);
    let mut c = Array3::from_shape_fn((batch, 2, 2), |(p, i, j)| (p + i + j) as f32);
    let want = c.mapv(|v| 2.0 * v);
    an.gpu_gemm_batched_inplace(0.0, &bn, 2.0, &mut c).unwrap();
    assert_eq!(c, want);
    // k = 0: C = beta·C; with beta = 0 as well, C = 0 even where it held NaN.
    let a0 = Array3::<f32>::zeros((batch, 2, 0));
    let b0 = Array3::<f32>::zeros((batch, 0, 2));
    let mut c = Array3::from_elem((batch, 2, 2), 4.0f32);
    a0.gpu_gemm_batched_inplace(1.0, &b0, 0.5, &mut c).unwrap();
    assert_eq!(c, Array3::from_elem((batch, 2, 2), 2.0));
    let mut c = Array3::from_elem((batch, 2, 2), f32::NAN);
    a0.gpu_gemm_batched_inplace(1.0, &b0, 0.0, &mut c).unwrap();
    assert_eq!(c, Array3::zeros((batch, 2, 2)));
    // A NaN alpha is not 0: every element NaN. A NaN beta is not 0: NaN even with C = 0.
    let ones = Array3::from_elem((batch, 2, 2), 1.0f32);
    let mut c = Array3::from_elem((batch, 2, 2), 1.0f32);
    ones.gpu_gemm_batched_inplace(f32::NAN, &ones, 1.0, &mut c)
        .unwrap();
    assert!(c.iter().all(|v| v.is_nan()));
    let mut c = Array3::zeros((batch, 2, 2));
    ones.gpu_gemm_batched_inplace(1.0, &ones, f32::NAN, &mut c)
        .unwrap();
    assert!(c.iter().all(|v| v.is_nan()));
    // No zero-skip: 0·NaN = NaN in the one product whose A holds a NaN, row 0 of C only.
    let mut a = Array3::<f32>::zeros((batch, 2, 2));
    a[[1, 0, 1]] = f32::NAN;
    let b = Array3::<f32>::zeros((batch, 2, 2));
    let c = a.gpu_gemm_batched(&b).unwrap();
    for ((p, i, _), v) in c.indexed_iter() {
        assert_eq!(v.is_nan(), p == 1 && i == 0, "({p}, {i}): {v}");
        if !v.is_nan() {
            assert_eq!(*v, 0.0);
        }
    }
}

/// The description's bad shapes without a transpose flag (host and resident BLAS forms in
/// `validation`) through the extension form: a typed error naming routine and argument, never
/// a panic, C unchanged.
#[test]
fn validation_bad_shapes() {
    for bad in GemmBatched::bad() {
        if bad.case.trans == Transpose::Yes {
            continue;
        }
        let [a, b, c0] = bad.batches.map(|d| Array3::from_elem(d, 9.0f32));
        let mut c = c0.clone();
        let err = a
            .gpu_gemm_batched_inplace(1.0, &b, 1.0, &mut c)
            .unwrap_err();
        describe::assert_named(&err, (bad.error, "sgemm_batched", bad.arg));
        assert_eq!(c, c0, "{bad:?}");
    }
}

#[test]
fn past_one_binding() {
    // A shared A of side² f32 past one storage binding (issue 15): each product in blocks, as
    // sgemm's. A and B ones: every element of C is side, exactly (beta = 0: C's 5 never read).
    let side = side_past_one_binding();
    let one = Array2::<f32>::ones((1, 1));
    let a = one.broadcast((2, side, side)).unwrap();
    let b = Array3::<f32>::ones((2, side, 1));
    let mut c = Array3::from_elem((2, side, 1), 5.0f32);
    a.gpu_gemm_batched_inplace(1.0, &b, 0.0, &mut c).unwrap();
    assert!(c.iter().all(|&v| v == side as f32));
}

/// The resident form: `GpuBatch` operands (and `.t()` of one), against OpenBLAS per product.
#[test]
fn resident_batches() {
    let (batch, m, n, k) = (5, 17, 9, 33);
    for (ta, tb) in trans_pairs() {
        let (ra, ca) = shape(ta, m, k);
        let (rb, cb) = shape(tb, k, n);
        let a = rand_batch(31, (batch, ra, ca));
        let b = rand_batch(32, (batch, rb, cb));
        let c = rand_batch(33, (batch, m, n));
        let ga = ctx().upload_batch(&a).unwrap();
        // B stored as its transpose, passed back through `.t()` (no copy on the device).
        let bt = b
            .view()
            .permuted_axes([0, 2, 1])
            .as_standard_layout()
            .into_owned();
        let gbt = ctx().upload_batch(&bt).unwrap();
        let mut gc = ctx().upload_batch(&c).unwrap();
        blas::sgemm_batched(ctx(), ta, tb, 0.7, &ga, gbt.t(), 0.9, &mut gc).unwrap();
        let got = gc.to_array().unwrap();
        let f = max_factor(ta, tb, 0.7, a.view(), b.view(), 0.9, c.view(), got.view());
        assert!(f <= threshold(), "resident {ta:?}{tb:?}: factor {f}");
    }
    // Host A, resident B and C; zeros and dim.
    let a = rand_batch(34, (3, 4, 5));
    let gb = ctx().upload_batch(&rand_batch(35, (3, 5, 6))).unwrap();
    let mut gc = GpuBatch::zeros(ctx(), (3, 4, 6)).unwrap();
    assert_eq!(gc.dim(), (3, 4, 6));
    let no = Transpose::No;
    blas::sgemm_batched(ctx(), no, no, 1.0, a.view(), &gb, 0.0, &mut gc).unwrap();
    let b = gb.to_array().unwrap();
    let zero = Array3::zeros((3, 4, 6));
    let got = gc.to_array().unwrap();
    let (av, bv) = (a.view(), b.view());
    let f = max_factor(no, no, 1.0, av, bv, 0.0, zero.view(), got.view());
    assert!(f <= threshold(), "mixed host/resident: factor {f}");
}
