//! Shared test helpers: the context, seeded random data, stored layouts, and the OpenBLAS oracle.

use ndarray::{
    s, Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayView3, ArrayViewMut1, ArrayViewMut2,
    ArrayViewMut3, ShapeBuilder,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgblas::Context;

pub use crate::describe::Elem;

static LAB: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Hold the lab switches at their defaults for as long as the guard lives: for tests that
/// count dispatches or compare two calls bit for bit, which a variant set meanwhile by a
/// kernel-variant test (`bandwidth.rs`) would change (the two-pass reductions dispatch twice,
/// the look-ahead strsv once per block and no copy).
pub fn lab_defaults() -> std::sync::MutexGuard<'static, ()> {
    LAB.lock().unwrap_or_else(|e| e.into_inner())
}

/// The shared context. Fails loudly when there is no adapter: tests never skip.
pub fn ctx() -> &'static Context {
    match Context::shared() {
        Ok(c) => c,
        Err(e) => panic!("wgblas tests need a GPU adapter (lavapipe on CPU-only machines): {e}"),
    }
}

/// A device scalar holding `v`: the resident dot product `[v]·[1]` (exact), checked to hold
/// `v` (NaN for NaN).
pub fn dev32(v: f32) -> wgblas::GpuScalar<'static, f32> {
    let s = wgblas::resident::sdot(ctx(), &ndarray::array![v], &ndarray::array![1.0f32]).unwrap();
    let got = s.get().unwrap();
    assert!(
        got == v || got.is_nan() && v.is_nan(),
        "device scalar {got} for {v}"
    );
    s
}

/// [`dev32`] in f64 (`resident::ddot`).
pub fn dev64(v: f64) -> wgblas::GpuScalar<'static, f64> {
    let s = wgblas::resident::ddot(ctx(), &ndarray::array![v], &ndarray::array![1.0f64]).unwrap();
    let got = s.get().unwrap();
    assert!(
        got == v || got.is_nan() && v.is_nan(),
        "device scalar {got} for {v}"
    );
    s
}

/// A context of its own in `cell` (made once), with its limits lowered by `lower`. Fails loudly
/// when there is no adapter.
pub fn lowered(
    cell: &'static std::sync::OnceLock<Context>,
    lower: impl FnOnce(&Context),
) -> &'static Context {
    cell.get_or_init(|| {
        let c = Context::new()
            .unwrap_or_else(|e| panic!("wgblas tests need a GPU adapter (lavapipe): {e}"));
        lower(&c);
        c
    })
}

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A value with |v| in [1e-3, 1] and a random sign: no subnormal products (DESIGN.md §2).
pub fn value(rng: &mut StdRng) -> f32 {
    let v: f32 = rng.random_range(1e-3f32..=1.0);
    if rng.random_bool(0.5) {
        -v
    } else {
        v
    }
}

/// Every pair (op(A), op(B)) of the transpose flags: (No, No), (No, Yes), (Yes, No), (Yes, Yes).
pub fn trans_pairs() -> impl Iterator<Item = (wgblas::Transpose, wgblas::Transpose)> {
    use wgblas::Transpose::{No, Yes};
    [(No, No), (No, Yes), (Yes, No), (Yes, Yes)].into_iter()
}

/// The side of a square f32 matrix just past one storage binding (issue 15).
pub fn side_past_one_binding() -> usize {
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    ((limit / 4) as f64).sqrt() as usize + 1
}

/// The length of an f32 vector one element past one storage binding (issue 15).
pub fn len_past_one_binding() -> usize {
    ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1
}

/// `n` elements `i mod 7`: small integers, so that `alpha·x + 1` is exact for a small `alpha`.
pub fn mod7(n: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| (i % 7) as f32)
}

/// The first element of `y` (in logical order) that is not `alpha·(i mod 7) + 1`, the exact
/// result of `y ← alpha·mod7(n) + 1`; None when all are.
pub fn off_axpy_of_mod7(y: &Array1<f32>, alpha: f32) -> Option<(usize, f32)> {
    y.iter()
        .copied()
        .enumerate()
        .find(|&(i, v)| v != alpha * (i % 7) as f32 + 1.0)
}

/// A vector of [`len_past_one_binding`] f32, zero but for its first and its last element, and
/// its length.
pub fn ends_past_one_binding(first: f32, last: f32) -> (Array1<f32>, usize) {
    let n = len_past_one_binding();
    let mut x = Array1::zeros(n);
    (x[0], x[n - 1]) = (first, last);
    (x, n)
}

pub fn rand_vec(rng: &mut StdRng, n: usize) -> Array1<f32> {
    Array1::from_shape_simple_fn(n, || value(rng))
}

pub fn rand_mat(rng: &mut StdRng, m: usize, n: usize) -> Array2<f32> {
    Array2::from_shape_simple_fn((m, n), || value(rng))
}

/// How a matrix operand is stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    /// Row-major, contiguous.
    C,
    /// Column-major, contiguous.
    F,
    /// Every other row and column of a larger C-order array (lda = 2·(2n+1), step 2).
    Strided,
    /// Rows reversed (negative row stride) in a C-order array.
    Reversed,
}

pub const LAYOUTS: [Layout; 4] = [Layout::C, Layout::F, Layout::Strided, Layout::Reversed];

/// A matrix stored in `layout` whose logical view equals the given values (f32 or f64).
pub struct Stored<T: Elem> {
    buf: Array2<T>,
    layout: Layout,
}

/// An f32 matrix in a stored layout.
pub type Mat = Stored<f32>;

impl<T: Elem> Stored<T> {
    pub fn new(logical: &Array2<T>, layout: Layout) -> Self {
        Self::filled(logical, layout, T::nan())
    }

    /// As `new`, with storage outside the view set to `pad` (NaN by default: never read).
    pub fn filled(logical: &Array2<T>, layout: Layout, pad: T) -> Self {
        let (m, n) = logical.dim();
        let buf = match layout {
            Layout::C | Layout::Reversed => Array2::from_elem((m, n), pad),
            Layout::F => Array2::from_elem((m, n).f(), pad),
            Layout::Strided => Array2::from_elem((2 * m + 1, 2 * n + 1), pad),
        };
        let mut me = Stored { buf, layout };
        me.view_mut().assign(logical);
        me
    }

    pub fn view(&self) -> ArrayView2<'_, T> {
        match self.layout {
            Layout::C | Layout::F => self.buf.view(),
            Layout::Strided => self.buf.slice(s![1..;2, 1..;2]),
            Layout::Reversed => self.buf.slice(s![..;-1, ..]),
        }
    }

    pub fn view_mut(&mut self) -> ArrayViewMut2<'_, T> {
        match self.layout {
            Layout::C | Layout::F => self.buf.view_mut(),
            Layout::Strided => self.buf.slice_mut(s![1..;2, 1..;2]),
            Layout::Reversed => self.buf.slice_mut(s![..;-1, ..]),
        }
    }

    pub fn to_owned(&self) -> Array2<T> {
        self.view().to_owned()
    }

    /// Storage elements outside the view (must be unchanged by any routine).
    pub fn outside(&self) -> Vec<T> {
        match self.layout {
            Layout::Strided => self
                .buf
                .indexed_iter()
                .filter(|((i, j), _)| i % 2 == 0 || j % 2 == 0)
                .map(|(_, v)| *v)
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// How a vector operand is stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VLayout {
    Unit,
    Step2,
    Reversed,
    ReversedStep2,
}

pub const VLAYOUTS: [VLayout; 4] = [
    VLayout::Unit,
    VLayout::Step2,
    VLayout::Reversed,
    VLayout::ReversedStep2,
];

/// A vector stored in `layout` (stride 1, 2, -1 or -2) whose logical view equals the given
/// values, NaN elsewhere.
pub struct StoredVec<T: Elem> {
    buf: Array1<T>,
    layout: VLayout,
}

/// An f32 vector in a stored layout.
pub type Vector = StoredVec<f32>;

fn vview<T>(buf: &Array1<T>, layout: VLayout) -> ArrayView1<'_, T> {
    match layout {
        VLayout::Unit => buf.view(),
        VLayout::Step2 => buf.slice(s![1..;2]),
        VLayout::Reversed => buf.slice(s![..;-1]),
        VLayout::ReversedStep2 => buf.slice(s![1..;-2]),
    }
}

impl<T: Elem> StoredVec<T> {
    pub fn new(logical: &Array1<T>, layout: VLayout) -> Self {
        let n = logical.len();
        let len = match layout {
            VLayout::Unit | VLayout::Reversed => n,
            VLayout::Step2 | VLayout::ReversedStep2 => 2 * n + 1,
        };
        let mut me = StoredVec {
            buf: Array1::from_elem(len, T::nan()),
            layout,
        };
        me.view_mut().assign(logical);
        me
    }

    pub fn view(&self) -> ArrayView1<'_, T> {
        vview(&self.buf, self.layout)
    }

    pub fn view_mut(&mut self) -> ArrayViewMut1<'_, T> {
        match self.layout {
            VLayout::Unit => self.buf.view_mut(),
            VLayout::Step2 => self.buf.slice_mut(s![1..;2]),
            VLayout::Reversed => self.buf.slice_mut(s![..;-1]),
            VLayout::ReversedStep2 => self.buf.slice_mut(s![1..;-2]),
        }
    }

    pub fn to_owned(&self) -> Array1<T> {
        self.view().to_owned()
    }

    /// Whether the storage outside the view still holds its NaN padding.
    pub fn outside_is_untouched(&self) -> bool {
        let index = Array1::from_iter(0..self.buf.len());
        let inside: std::collections::HashSet<usize> =
            vview(&index, self.layout).iter().copied().collect();
        self.buf
            .iter()
            .enumerate()
            .filter(|(i, _)| !inside.contains(i))
            .all(|(_, v)| v.is_nan())
    }
}

/// How a batch is stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BLayout {
    /// C order (batch stride m·n, row-major matrices).
    C,
    /// F order of the whole 3-D array (batch stride 1: the batch interleaved).
    F,
    /// A batch of column-major matrices (batch stride m·n), as a `.t()` of each matrix.
    FMat,
    /// Every other matrix and every other column of a larger array (gaps: gathered).
    Strided,
    /// The batch axis reversed (negative batch stride).
    Reversed,
}

pub const BLAYOUTS: [BLayout; 5] = [
    BLayout::C,
    BLayout::F,
    BLayout::FMat,
    BLayout::Strided,
    BLayout::Reversed,
];

/// A batch stored in `layout` whose logical view equals the given values; pad NaN.
pub struct StoredBatch<T: Elem> {
    buf: Array3<T>,
    layout: BLayout,
}

impl<T: Elem> StoredBatch<T> {
    pub fn new(x: &Array3<T>, layout: BLayout) -> Self {
        let (b, m, n) = x.dim();
        let buf = match layout {
            BLayout::C => x.clone(),
            BLayout::F => {
                let mut f = Array3::from_elem((b, m, n).f(), T::nan());
                f.assign(x);
                f
            }
            BLayout::FMat => x
                .view()
                .permuted_axes([0, 2, 1])
                .as_standard_layout()
                .into_owned(),
            BLayout::Strided => {
                let mut big = Array3::from_elem((2 * b, m, 2 * n), T::nan());
                big.slice_mut(s![..;2, .., ..;2]).assign(x);
                big
            }
            BLayout::Reversed => x.slice(s![..;-1, .., ..]).to_owned(),
        };
        StoredBatch { buf, layout }
    }

    pub fn view(&self) -> ArrayView3<'_, T> {
        match self.layout {
            BLayout::C | BLayout::F => self.buf.view(),
            BLayout::FMat => self.buf.view().permuted_axes([0, 2, 1]),
            BLayout::Strided => self.buf.slice(s![..;2, .., ..;2]),
            BLayout::Reversed => self.buf.slice(s![..;-1, .., ..]),
        }
    }

    pub fn view_mut(&mut self) -> ArrayViewMut3<'_, T> {
        match self.layout {
            BLayout::C | BLayout::F => self.buf.view_mut(),
            BLayout::FMat => self.buf.view_mut().permuted_axes([0, 2, 1]),
            BLayout::Strided => self.buf.slice_mut(s![..;2, .., ..;2]),
            BLayout::Reversed => self.buf.slice_mut(s![..;-1, .., ..]),
        }
    }

    pub fn to_owned(&self) -> Array3<T> {
        self.view().to_owned()
    }

    /// The pad between the elements of a strided batch, to check it is untouched.
    pub fn outside(&self) -> Vec<T> {
        match self.layout {
            BLayout::Strided => self
                .buf
                .indexed_iter()
                .filter(|((b, _, j), _)| b % 2 == 1 || j % 2 == 1)
                .map(|(_, v)| *v)
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A triangular matrix with the `uplo` triangle random, a diagonal of magnitude in
/// [`diag_lo`, `diag_lo` + 1] (random sign), and NaN in the other triangle.
pub fn triangle(rng: &mut StdRng, n: usize, uplo: wgblas::Uplo, diag_lo: f32) -> Array2<f32> {
    Array2::from_shape_fn((n, n), |(i, j)| {
        let inside = match uplo {
            wgblas::Uplo::Lower => i >= j,
            wgblas::Uplo::Upper => i <= j,
        };
        if i == j {
            let v: f32 = diag_lo + rng.random_range(0.0f32..1.0);
            if rng.random_bool(0.5) {
                -v
            } else {
                v
            }
        } else if inside {
            value(rng)
        } else {
            f32::NAN
        }
    })
}

/// The CPU oracle of the hand tests: OpenBLAS through the descriptions' `Elem` calls (CBLAS,
/// row-major, on C-order copies of the logical operands).
pub mod oracle {
    use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Dimension};
    use wgblas::Transpose;

    use crate::describe::Elem;

    /// A C-order copy.
    pub fn c<D: Dimension>(a: &ndarray::ArrayView<'_, f32, D>) -> ndarray::Array<f32, D> {
        a.as_standard_layout().into_owned()
    }

    pub fn saxpy(alpha: f32, x: ArrayView1<f32>, y: ArrayView1<f32>) -> Array1<f32> {
        let mut y = c(&y);
        f32::o_axpy(alpha, &c(&x), &mut y);
        y
    }

    pub fn sdot(x: ArrayView1<f32>, y: ArrayView1<f32>) -> f32 {
        f32::o_dot(&c(&x), &c(&y))
    }

    pub fn sgemv(
        t: Transpose,
        alpha: f32,
        a: ArrayView2<f32>,
        x: ArrayView1<f32>,
        beta: f32,
        y: ArrayView1<f32>,
    ) -> Array1<f32> {
        let mut y = c(&y);
        f32::o_gemv(t, alpha, &c(&a), &c(&x), beta, &mut y);
        y
    }

    #[allow(clippy::too_many_arguments)]
    pub fn sgemm(
        ta: Transpose,
        tb: Transpose,
        alpha: f32,
        a: ArrayView2<f32>,
        b: ArrayView2<f32>,
        beta: f32,
        cm: ArrayView2<f32>,
    ) -> Array2<f32> {
        let mut cc = c(&cm);
        f32::o_gemm(ta, tb, alpha, &c(&a), &c(&b), beta, &mut cc);
        cc
    }
}

/// Whether `got` and `want` agree element by element, NaN matching NaN and `-0` matching `+0`
/// (DESIGN.md §3: the sign of a zero is not part of the contract outside scopy/sswap/sscal).
pub fn same(got: &[f32], want: &[f32]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| (g.is_nan() && w.is_nan()) || g == w)
}

/// Panic with both arrays unless [`same`] holds.
#[track_caller]
pub fn assert_same<'a>(
    got: impl IntoIterator<Item = &'a f32>,
    want: impl IntoIterator<Item = &'a f32>,
    what: &str,
) {
    let (got, want): (Vec<f32>, Vec<f32>) = (
        got.into_iter().copied().collect(),
        want.into_iter().copied().collect(),
    );
    assert!(same(&got, &want), "{what}: got {got:?}, want {want:?}");
}

/// Run the ignored test `test` (its full path, e.g. `host::oom_child`) of this test binary in a
/// child process, through `sh -c` with `prefix` before it (e.g. a `ulimit`), and fail unless it
/// passes and prints `ok_marker`: for tests that change process-wide state (the shared
/// context's limits) or exhaust the process's memory.
#[track_caller]
pub fn run_child_test(prefix: &str, test: &str, ok_marker: &str) {
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{prefix} exec \"$0\" {test} --exact --ignored --nocapture --test-threads 1"
        ))
        .arg(&exe)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(ok_marker),
        "child {test} failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
}
