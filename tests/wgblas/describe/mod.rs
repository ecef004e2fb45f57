//! One description per routine drives its tests (CLBlast's `TestX<T>` is the model).
//!
//! A routine's description ([`Routine`]) declares its argument space (the [`Case`]s of its edge
//! grid and the random space of its fixtures: shapes, flags, scalars, stored layouts), its
//! random operands, its BLAS-layer call, its OpenBLAS oracle, its metric (from
//! `wgblas::metrics::spec`, never a threshold written here) and its known-bad inputs ([`Bad`]).
//! The generic runners below run the four test kinds from it, for f32 (the s routine) and f64
//! (the d routine, measured in units of 2^-52 against its own entry in `metrics::spec` where
//! the table has one, dasum and idamax, else the s twin's threshold):
//! - [`validation`]: each bad input gives the typed error naming routine and argument, in the
//!   host and the resident form, and leaves the output as it was;
//! - [`fixtures`]: random cases against OpenBLAS, every stored layout;
//! - [`edges`]: the description's grid (netlib values, zero dimensions, alpha = 0, beta = 0,
//!   unreferenced memory full of NaN);
//! - [`resident`]: the same cases through `GpuMatrix`/`GpuVector` (row- and column-major).
//!
//! The special values of DESIGN.md §3 that need hand-computed answers stay hand-written in the
//! routine's file, next to its description.

pub mod elem;
pub mod level1;
pub mod level2;
pub mod level3;
pub mod timing;
mod validation;

use std::fmt::Debug;

use ndarray::{Array1, Array2, Array3, ArrayD, ArrayViewD};
use proptest::strategy::{BoxedStrategy, Strategy};
use proptest::test_runner::{Config, TestRunner};
use rand::rngs::StdRng;
use wgblas::layout::{BatchMut, BatchRef, MatMut, MatRef, VecMut, VecRef};
use wgblas::metrics::{self, Metric};
use wgblas::{Context, Diag, GpuBatch, GpuMatrix, GpuVector, Side, Transpose, Uplo};

use crate::common::{ctx, rng, BLayout, Layout, Stored, StoredBatch, StoredVec, VLayout};
pub use elem::Elem;
pub use validation::{assert_named, named, validation, Bad};

/// One point of a routine's argument space (the element type comes from the runner).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Case {
    /// The seed of the random operands.
    pub seed: u64,
    /// Rows of `op(A)` (the order, for square routines).
    pub m: usize,
    /// Columns of `op(A)` (the order, for square routines).
    pub n: usize,
    pub uplo: Uplo,
    pub trans: Transpose,
    pub diag: Diag,
    pub alpha: f64,
    pub beta: f64,
    /// The lower end of the diagonal's magnitude of a triangle to solve with (1: well
    /// conditioned; below 1: ill conditioned).
    pub diag_lo: f64,
    pub la: Layout,
    pub lx: VLayout,
    pub ly: VLayout,
    /// Level 3: the depth k, the side of A, op(B), and the layouts of B and C.
    pub k: usize,
    pub side: Side,
    pub transb: Transpose,
    pub lb: Layout,
    pub lc: Layout,
    /// rotm: `param = [flag, h11, h21, h12, h22]`.
    pub param: [f64; 5],
    /// Batched routines: the number of products, and the layouts of the batches A, B and C.
    pub batch: usize,
    pub lbat: [BLayout; 3],
}

impl Case {
    /// An `m`×`n` case with the plain flags, alpha = 1, beta = 0, contiguous C-order operands.
    pub fn new(seed: u64, m: usize, n: usize) -> Self {
        Case {
            seed,
            m,
            n,
            uplo: Uplo::Upper,
            trans: Transpose::No,
            diag: Diag::NonUnit,
            alpha: 1.0,
            beta: 0.0,
            diag_lo: 1.0,
            la: Layout::C,
            lx: VLayout::Unit,
            ly: VLayout::Unit,
            k: 0,
            side: Side::Left,
            transb: Transpose::No,
            lb: Layout::C,
            lc: Layout::C,
            param: [-2.0, 0.0, 0.0, 0.0, 0.0],
            batch: 0,
            lbat: [BLayout::C; 3],
        }
    }

    /// `batch` products, the batches A, B and C stored in `lbat`.
    pub fn batched(self, batch: usize, lbat: [BLayout; 3]) -> Self {
        Case {
            batch,
            lbat,
            ..self
        }
    }

    /// A Level 3 case: C is `m`×`n`, the depth `k`.
    pub fn mnk(seed: u64, m: usize, n: usize, k: usize) -> Self {
        Case {
            k,
            ..Case::new(seed, m, n)
        }
    }

    pub fn transb(self, transb: Transpose) -> Self {
        Case { transb, ..self }
    }

    pub fn side(self, side: Side) -> Self {
        Case { side, ..self }
    }

    /// The layouts of A, B and C.
    pub fn mats(self, [la, lb, lc]: [Layout; 3]) -> Self {
        Case { la, lb, lc, ..self }
    }

    pub fn flags(self, uplo: Uplo, trans: Transpose, diag: Diag) -> Self {
        Case {
            uplo,
            trans,
            diag,
            ..self
        }
    }

    pub fn scalars(self, alpha: f64, beta: f64) -> Self {
        Case {
            alpha,
            beta,
            ..self
        }
    }

    pub fn layouts(self, la: Layout, lx: VLayout, ly: VLayout) -> Self {
        Case { la, lx, ly, ..self }
    }
}

/// The operands of a case: three matrices, two vectors and three batches (empty where the
/// routine has none).
#[derive(Debug, Clone)]
pub struct Ops<T> {
    pub a: Array2<T>,
    pub x: Array1<T>,
    pub y: Array1<T>,
    pub b: Array2<T>,
    pub c: Array2<T>,
    pub batches: [Array3<T>; 3],
}

/// No batches.
fn no_batches<T>() -> [Array3<T>; 3] {
    std::array::from_fn(|_| Array3::from_shape_vec((0, 0, 0), Vec::new()).unwrap())
}

impl<T: Elem> Ops<T> {
    /// The operands of a Level 2 routine.
    pub fn vecs(a: Array2<T>, x: Array1<T>, y: Array1<T>) -> Self {
        let none = || Array2::from_shape_vec((0, 0), Vec::new()).unwrap();
        Ops {
            a,
            x,
            y,
            b: none(),
            c: none(),
            batches: no_batches(),
        }
    }

    /// The operands of a Level 1 routine (y empty where the routine has none).
    pub fn level1(x: Array1<T>, y: Array1<T>) -> Self {
        Ops::vecs(Array2::from_shape_vec((0, 0), Vec::new()).unwrap(), x, y)
    }

    /// The operands of a Level 3 routine.
    pub fn mats(a: Array2<T>, b: Array2<T>, c: Array2<T>) -> Self {
        let none = || Array1::from_vec(Vec::new());
        Ops {
            a,
            x: none(),
            y: none(),
            b,
            c,
            batches: no_batches(),
        }
    }

    /// The operands of a batched routine: the batches A, B and C.
    pub fn batched(batches: [Array3<T>; 3]) -> Self {
        let none = || Array2::from_shape_vec((0, 0), Vec::new()).unwrap();
        Ops {
            batches,
            ..Ops::mats(none(), none(), none())
        }
    }

    /// Product `p` of a batched routine's operands: A, B and C as those of a Level 3 routine.
    pub fn product(&self, p: usize) -> Ops<T> {
        let [a, b, c] = self
            .batches
            .each_ref()
            .map(|m| m.index_axis(ndarray::Axis(0), p).to_owned());
        Ops::mats(a, b, c)
    }

    /// The same operands in f64 (exact from f32): what the bounds are computed on.
    pub fn f64(&self) -> Ops<f64> {
        Ops {
            a: self.a.mapv(T::to_f64),
            x: self.x.mapv(T::to_f64),
            y: self.y.mapv(T::to_f64),
            b: self.b.mapv(T::to_f64),
            c: self.c.mapv(T::to_f64),
            batches: self.batches.each_ref().map(|m| m.mapv(T::to_f64)),
        }
    }
}

impl<T: Elem> Ops<T> {
    /// The operand `out`, as it is before the call.
    pub fn output(&self, out: Out) -> ArrayD<T> {
        match out {
            Out::A => self.a.clone().into_dyn(),
            Out::B => self.b.clone().into_dyn(),
            Out::C => self.c.clone().into_dyn(),
            Out::X => self.x.clone().into_dyn(),
            Out::Y => self.y.clone().into_dyn(),
            Out::XY => both(&self.x, &self.y),
            Out::R => Array1::<T>::from_vec(Vec::new()).into_dyn(),
            Out::CB => self.batches[2].clone().into_dyn(),
        }
    }
}

/// Which operand a routine writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Out {
    A,
    B,
    C,
    X,
    Y,
    /// Both vectors (swap, rot, rotm): x then y, one after the other.
    XY,
    /// The routine's result (a reduction's value), in [`Slots::r`].
    R,
    /// The batch C of a batched routine.
    CB,
}

/// x then y, as one output.
fn both<T: Elem>(x: &Array1<T>, y: &Array1<T>) -> ArrayD<T> {
    ndarray::concatenate![ndarray::Axis(0), x.view(), y.view()].into_dyn()
}

/// An operand slot `$slot`: the operand as the routine gets it, a stored host view (`$host`) or
/// a resident one (`$dev`); `r` and `w` give it to the call, `logical` reads it back.
macro_rules! slot {
    ($(#[$doc:meta])* $slot:ident($host:ident, $dev:ident) -> $r:ident, $w:ident, $arr:ident) => {
        $(#[$doc])*
        pub enum $slot<T: Elem> {
            Host($host<T>),
            Dev($dev<'static, T>),
        }

        impl<T: Elem> $slot<T> {
            pub fn r(&self) -> $r<'_, T> {
                match self {
                    $slot::Host(h) => h.view().into(),
                    $slot::Dev(g) => g.into(),
                }
            }

            pub fn w(&mut self) -> $w<'_, T> {
                match self {
                    $slot::Host(h) => h.view_mut().into(),
                    $slot::Dev(g) => g.into(),
                }
            }

            fn logical(&self) -> $arr<T> {
                match self {
                    $slot::Host(h) => h.to_owned(),
                    $slot::Dev(g) => g.to_array().unwrap(),
                }
            }
        }
    };
}

slot!(
    /// A matrix operand as the routine gets it: a stored host view or a resident matrix.
    MatSlot(Stored, GpuMatrix) -> MatRef, MatMut, Array2
);
slot!(
    /// A vector operand as the routine gets it.
    VecSlot(StoredVec, GpuVector) -> VecRef, VecMut, Array1
);
slot!(
    /// A batch operand as the routine gets it: a stored host batch or a resident one.
    BatchSlot(StoredBatch, GpuBatch) -> BatchRef, BatchMut, Array3
);

/// The operands of one call.
pub struct Slots<T: Elem> {
    pub a: MatSlot<T>,
    pub x: VecSlot<T>,
    pub y: VecSlot<T>,
    pub b: MatSlot<T>,
    pub c: MatSlot<T>,
    /// The batches A, B and C of a batched routine.
    pub batches: [BatchSlot<T>; 3],
    /// The result of a reduction (empty until the call).
    pub r: Vec<T>,
}

impl<T: Elem> Slots<T> {
    /// Host operands in the case's stored layouts (NaN outside the views).
    fn host(c: &Case, o: &Ops<T>) -> Self {
        Slots {
            a: MatSlot::Host(Stored::new(&o.a, c.la)),
            x: VecSlot::Host(StoredVec::new(&o.x, c.lx)),
            y: VecSlot::Host(StoredVec::new(&o.y, c.ly)),
            b: MatSlot::Host(Stored::new(&o.b, c.lb)),
            c: MatSlot::Host(Stored::new(&o.c, c.lc)),
            batches: std::array::from_fn(|i| {
                BatchSlot::Host(StoredBatch::new(&o.batches[i], c.lbat[i]))
            }),
            r: Vec::new(),
        }
    }

    /// Resident operands: each matrix row-major, or column-major for a case in F order.
    fn resident(cx: &'static Context, c: &Case, o: &Ops<T>) -> Self {
        let mat = |m: &Array2<T>, l: Layout| {
            let m = if l == Layout::F {
                m.t().as_standard_layout().into_owned().reversed_axes()
            } else {
                m.as_standard_layout().into_owned()
            };
            MatSlot::Dev(cx.upload_matrix(&m).unwrap())
        };
        let up = |v: &Array1<T>| VecSlot::Dev(cx.upload_vector(v).unwrap());
        let batch = |m: &Array3<T>| BatchSlot::Dev(cx.upload_batch(m).unwrap());
        Slots {
            a: mat(&o.a, c.la),
            x: up(&o.x),
            y: up(&o.y),
            b: mat(&o.b, c.lb),
            c: mat(&o.c, c.lc),
            batches: o.batches.each_ref().map(batch),
            r: Vec::new(),
        }
    }

    /// The output operand's logical value, flattened in logical order.
    fn output(&self, out: Out) -> ArrayD<T> {
        match out {
            Out::A => self.a.logical().into_dyn(),
            Out::B => self.b.logical().into_dyn(),
            Out::C => self.c.logical().into_dyn(),
            Out::X => self.x.logical().into_dyn(),
            Out::Y => self.y.logical().into_dyn(),
            Out::XY => both(&self.x.logical(), &self.y.logical()),
            Out::R => Array1::from_vec(self.r.clone()).into_dyn(),
            Out::CB => self.batches[2].logical().into_dyn(),
        }
    }

    /// Whether the host storage outside the output view is as it was (NaN padding).
    fn outside_untouched(&self, out: Out, pad: &[T]) -> bool {
        match (out, &self.x, &self.y) {
            (Out::X, VecSlot::Host(v), _) | (Out::Y, _, VecSlot::Host(v)) => {
                v.outside_is_untouched()
            }
            (Out::XY, _, _) => {
                self.outside_untouched(Out::X, pad) && self.outside_untouched(Out::Y, pad)
            }
            (Out::X | Out::Y, _, _) => true,
            _ => same_bits(&self.pad(out), pad),
        }
    }

    /// The host storage outside the output matrix's view.
    fn pad(&self, out: Out) -> Vec<T> {
        if let (Out::CB, BatchSlot::Host(c)) = (out, &self.batches[2]) {
            return c.outside();
        }
        let m = match out {
            Out::A => &self.a,
            Out::B => &self.b,
            Out::C => &self.c,
            Out::X | Out::Y | Out::XY | Out::R | Out::CB => return Vec::new(),
        };
        match m {
            MatSlot::Host(m) => m.outside(),
            MatSlot::Dev(_) => Vec::new(),
        }
    }
}

/// Bitwise equality (NaN payloads included), in logical order.
pub fn same_bits<'a, T: Elem>(
    a: impl IntoIterator<Item = &'a T>,
    b: impl IntoIterator<Item = &'a T>,
) -> bool {
    let a: Vec<u64> = a.into_iter().map(|v| v.bits()).collect();
    let b: Vec<u64> = b.into_iter().map(|v| v.bits()).collect();
    a == b
}

/// A routine's identity: its BLAS root (`"gemv"`: the routine is `sgemv` or `dgemv`, its metric
/// `spec("sgemv")`) and the operand it writes.
#[derive(Clone, Copy, Debug)]
pub struct Id(pub &'static str, pub Out);

/// A routine's test description.
pub trait Routine {
    /// The routine's BLAS root and the operand it writes.
    const ID: Id;
    /// Whether it writes one triangle of A only (the other is left as it was, bit for bit).
    const TRIANGLE_ONLY: bool = false;

    /// The random operands of a case, drawn from `r`; by default the level-1 pair: random x,
    /// then random y, both of length n.
    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let x = level1::random_vec(r, c.n);
        Ops::level1(x, level1::random_vec(r, c.n))
    }
    /// The BLAS-layer call (`blas::sgemv` / `blas::dgemv`) on `s`.
    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()>;
    /// BLAS's quick returns: the output is left as it was, bit for bit.
    fn quick(c: &Case) -> bool;
    /// The measure of a result against the oracle (OpenBLAS) with the metric of
    /// `metrics::spec`: a forward factor, a backward residual factor, or a max ULP.
    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64;
    /// The edge grid.
    fn edges() -> Vec<Case>;
    /// The random space of the fixtures.
    fn space() -> BoxedStrategy<Case>;
    /// The random space of the resident fixtures (the fixtures' space unless smaller).
    fn resident_space() -> BoxedStrategy<Case> {
        Self::space()
    }
    /// Known-bad inputs.
    fn bad() -> Vec<Bad>;
    /// Fixed cases that once failed (replayed every run).
    fn regressions() -> Vec<Case> {
        Vec::new()
    }
}

/// The routine's BLAS name for element type `T` (`sgemv`; `isamax` for the root `iamax`).
pub fn name<R: Routine, T: Elem>() -> String {
    match R::ID.0.strip_prefix('i') {
        Some(rest) => format!("i{}{rest}", T::P),
        None => format!("{}{}", T::P, R::ID.0),
    }
}

/// The routine's threshold for element type `T`: its own entry in `metrics::spec` where the
/// table has one (`dasum`, `idamax`), else its s twin's (a factor in units of `T`'s eps, or a
/// count of ULP for the bit-exact routines, or 0 for an exact index).
pub fn threshold<R: Routine, T: Elem>() -> f64 {
    spec::<R, T>().threshold
}

/// The routine's entry in `metrics::spec` for element type `T`, as [`threshold`] finds it.
pub fn spec<R: Routine, T: Elem>() -> metrics::Spec {
    // A batched routine's products are measured as its unbatched routine's (sgemm_batched as
    // sgemm).
    let (own, twin) = (name::<R, T>(), name::<R, f32>());
    let s = metrics::spec(&own)
        .or_else(|| metrics::spec(&twin))
        .or_else(|| metrics::spec(twin.trim_end_matches("_batched")))
        .unwrap();
    assert!(
        matches!(
            s.metric,
            Metric::Forward
                | Metric::BackwardResidual
                | Metric::MaxUlp
                | Metric::Ulp
                | Metric::Ulp64
                | Metric::ExactIndex
        ),
        "{}: not a factor, ULP or index metric",
        R::ID.0
    );
    s
}

/// Fails unless `value` (a factor, ULP count or index distance) passes `routine`'s threshold in
/// `metrics::spec` (DESIGN.md §2), `what` naming the case.
#[track_caller]
pub fn passes(routine: &str, value: f64, what: &str) {
    let t = metrics::spec(routine).unwrap_or_else(|| panic!("{routine}: not in metrics::spec"));
    assert!(t.passes(value), "{routine} {what}: {value} against {t:?}");
}

/// The forward factor of `got` against `want` with `bound`, in units of `T`'s eps.
pub fn forward<T: Elem>(got: ArrayViewD<T>, want: ArrayD<T>, bound: ArrayD<f64>) -> f64 {
    let flat = |v: ArrayViewD<T>| Array1::from_iter(v.iter().copied());
    let bound = Array1::from_iter(bound.iter().copied());
    T::forward(flat(got).view(), flat(want.view()).view(), bound.view())
}

/// One case in a form (host storage on context `c`, or resident, uploaded to `resident`, which
/// is `c`), checked against its description: the storage outside the views untouched, quick
/// returns leaving the output as it was, the other triangle untouched, and the measure within
/// the threshold.
fn run<R: Routine, T: Elem>(c: &Context, case: &Case, resident: Option<&'static Context>) {
    let o: Ops<T> = R::inputs(&mut rng(case.seed), case);
    run_on::<R, T>(c, case, &o, resident);
}

/// [`run`] on the given operands; the operands after the call, and the measure (None for a
/// quick return, checked bit for bit instead).
fn run_on<R: Routine, T: Elem>(
    c: &Context,
    case: &Case,
    o: &Ops<T>,
    resident: Option<&'static Context>,
) -> (Slots<T>, Option<f64>) {
    let mut s = match resident {
        Some(cx) => Slots::resident(cx, case, o),
        None => Slots::host(case, o),
    };
    let pad = s.pad(R::ID.1);
    let what = format!(
        "{}{} {case:?}",
        if resident.is_some() { "resident " } else { "" },
        name::<R, T>()
    );
    R::call(c, case, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        s.outside_untouched(R::ID.1, &pad),
        "{what}: wrote outside the strided output"
    );
    let got = s.output(R::ID.1);
    let before = o.output(R::ID.1);
    if R::TRIANGLE_ONLY {
        let other = |m: &ArrayD<T>| -> Vec<T> {
            m.indexed_iter()
                .filter(|(ix, _)| !level2::in_triangle(case.uplo, ix[0], ix[1]))
                .map(|(_, v)| *v)
                .collect()
        };
        assert!(
            same_bits(&other(&got), &other(&before)),
            "{what}: the other triangle changed"
        );
    }
    if R::quick(case) {
        assert!(same_bits(&got, &before), "{what}: output changed");
        return (s, None);
    }
    let f = within::<R, T>(case, o, got.view(), &what);
    (s, Some(f))
}

/// The measure of `got`, case `case`'s result on operands `o`, against the oracle; fails unless
/// it is within the description's threshold, `what` naming the case.
fn within<R: Routine, T: Elem>(case: &Case, o: &Ops<T>, got: ArrayViewD<T>, what: &str) -> f64 {
    let f = R::measure(case, o, got);
    let t = threshold::<R, T>();
    assert!(f <= t, "{what}: factor {f} > {t}");
    f
}

/// One case through the BLAS layer on host views stored in the case's layouts.
pub fn check<R: Routine, T: Elem>(case: &Case) {
    run::<R, T>(ctx(), case, None)
}

/// [`check`] on the context `c`.
pub fn check_on<R: Routine, T: Elem>(c: &Context, case: &Case) {
    run::<R, T>(c, case, None)
}

/// One case on given operands (real data) instead of the description's random ones, on
/// host views stored in the case's layouts.
pub fn check_ops<R: Routine, T: Elem>(case: &Case, o: &Ops<T>) {
    run_on::<R, T>(ctx(), case, o, None);
}

/// One case through resident operands.
pub fn check_resident<R: Routine, T: Elem>(case: &Case) {
    run::<R, T>(ctx(), case, Some(ctx()))
}

/// [`check_resident`] on the context `c` (the operands uploaded there).
pub fn check_resident_on<R: Routine, T: Elem>(c: &'static Context, case: &Case) {
    run::<R, T>(c, case, Some(c))
}

/// `cases` random cases of the description's space (seeded by proptest), then its regressions.
pub fn fixtures<R: Routine, T: Elem>(cases: u32) {
    for case in R::regressions() {
        check::<R, T>(&case);
    }
    let mut runner = TestRunner::new(Config::with_cases(cases));
    runner
        .run(&R::space(), |case| {
            check::<R, T>(&case);
            Ok(())
        })
        .unwrap();
}

/// Every case of the description's edge grid.
pub fn edges<R: Routine, T: Elem>() {
    for case in R::edges() {
        check::<R, T>(&case);
    }
}

/// `cases` random cases of the description's space, in the resident form (A row-major, or
/// column-major where the case says F order), then its regressions.
pub fn resident<R: Routine, T: Elem>(cases: u32) {
    for case in R::regressions() {
        check_resident::<R, T>(&case);
    }
    let space = R::resident_space().prop_map(|c| Case {
        la: if c.la == Layout::F {
            Layout::F
        } else {
            Layout::C
        },
        ..c
    });
    let mut runner = TestRunner::new(Config::with_cases(cases));
    runner
        .run(&space, |case| {
            check_resident::<R, T>(&case);
            Ok(())
        })
        .unwrap();
}

/// The strategy of a list: one of its items, uniformly.
pub fn pick<V: Clone + Debug + 'static>(items: &[V]) -> BoxedStrategy<V> {
    proptest::sample::select(items.to_vec()).boxed()
}

/// The tests of a description, for f32 and f64: validation, fixtures (`$cases` random cases),
/// the edge grid, and the resident form (`$cases` random cases).
macro_rules! described_tests {
    // One test kind in f32 (`$name`) and f64 (`$name64`): the runner `$run` with its arguments.
    (@both $r:ty, $name:ident, $name64:ident, $run:ident($($a:expr)?), ($($a64:expr)?)) => {
        #[test]
        fn $name() {
            crate::describe::$run::<$r, f32>($($a)?);
        }
        #[test]
        fn $name64() {
            crate::describe::$run::<$r, f64>($($a64)?);
        }
    };
    ($r:ty, $cases:expr) => {
        crate::describe::described_tests!($r, $cases, $cases);
    };
    ($r:ty, $cases:expr, $cases64:expr) => {
        crate::describe::described_tests!(@both $r, validation, validation_f64, validation(), ());
        crate::describe::described_tests!($r, $cases, $cases64, no_validation);
    };
    // A routine with no known-bad input (no validation test that would assert nothing).
    ($r:ty, $cases:expr, $cases64:expr, no_validation) => {
        crate::describe::described_tests!(@both $r, fixtures, fixtures_f64, fixtures($cases), ($cases64));
        crate::describe::described_tests!(@both $r, edges, edges_f64, edges(), ());
        crate::describe::described_tests!(@both $r, resident, resident_f64, resident($cases), ($cases64));
    };
}
pub(crate) use described_tests;

/// A routine file's `check_on`: one f32 case of the description `$r` on the context `cx`,
/// the case built by `$case` from the positional arguments `$arg` (the form in which the
/// kernel-variant and scale tests call a description).
macro_rules! check_on_fn {
    ($(#[$doc:meta])* $r:ty, ($($arg:tt)*) => $case:expr) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        pub fn check_on(cx: &wgblas::Context, $($arg)*) {
            crate::describe::check_on::<$r, f32>(cx, &$case);
        }
    };
}
pub(crate) use check_on_fn;

/// The random alpha or beta of a fixture: a value in [-2, 2).
pub fn scalar() -> std::ops::Range<f32> {
    -2.0..2.0
}

/// `zeros` where beta = 0 (the y or C that must not be read, and that BLAS then treats as 0),
/// else `y` itself.
pub fn read_under_beta<T: Elem, D: ndarray::Dimension>(
    y: &ndarray::Array<T, D>,
    beta: f64,
) -> ndarray::Array<T, D> {
    if beta == 0.0 {
        y.mapv(|_| T::from_f64(0.0))
    } else {
        y.clone()
    }
}
