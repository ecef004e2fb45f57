//! Error metrics: how far a GPU result may lie from a reference (OpenBLAS, or a hand-computed
//! value) and still be right.
//!
//! These are the metrics of DESIGN.md §2, public so that users can check their own results the
//! way the crate's tests do. Four families:
//!
//! - **exact index** (`isamax`, `idamax`): the indices must be equal.
//! - **ULP distance** ([`ulp_distance_f32`], [`ulp_distance_f64`], [`max_ulp_f32`],
//!   [`max_ulp_f64`]): the number of representable values between two results. Used where there
//!   is no rounding at all (`scopy`, `sswap`, `sscal`: threshold 0) and for reductions whose only
//!   freedom is the summation order (`sasum`, `snrm2`: 50, `dasum`: 64).
//! - **forward factor** ([`forward_factor`], [`forward_factor_scalar`]):
//!   `max_i |gpu_i − ref_i| / (EPS · bound_i)`, with `bound_i` from [`bounds`]. WGSL may fuse
//!   `a*b + c` into one rounding (FMA) and GPU reductions sum in tree order, so a raw ULP distance
//!   is unbounded near cancellation while both results are right; a factor ≤ 1 means "within one
//!   rounding of the bound".
//! - **backward residual factor** ([`backward_residual_factor`], with [`trsv_residual`] /
//!   [`trsm_residual`]): for triangular solves, the computed solution is put back into the
//!   equation: `max_i |(op(T)·x_gpu)_i − b_i| / (EPS · bound_i)`.
//!
//! [`spec`] gives the metric and threshold of each of the 26 routines; a result passes when its
//! metric is `≤ threshold` ([`Spec::passes`]).
//!
//! # Units
//!
//! Factors are in units of [`EPS`]` = 2^-23` (the spacing of `f32` at 1.0, twice the unit
//! roundoff `u = 2^-24` of Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.)
//! times the routine's bound. All factor and bound arithmetic is done in `f64`, whose own rounding
//! error (≈ 1e-16 relative) is negligible against `EPS`.
//!
//! # Sources of the bounds
//!
//! The shape of every bound is the "gauge" of the netlib reference test programs (`SMVCH` in
//! `sblat2.f`, `SMMCH` in `sblat3.f`: `Σ |alpha·A_ij·x_j| + |beta·y_i|`), multiplied by the
//! reduction length plus one, which is the first-order forward error bound of an inner product
//! of that length (Higham §3.1, eq. (3.5), and §3.5 for matrix products: `|C − Ĉ| ≤ γ_n |A||B|`,
//! `γ_n = n·u / (1 − n·u)`). The triangular solves use the backward-error result of Higham
//! Theorem 8.5: `(T + ΔT)·x̂ = b` with `|ΔT| ≤ γ_n |T|`, hence `|T·x̂ − b| ≤ γ_n |T||x̂|`.
//! Unlike `SMVCH`, which divides by the gauge only when it is non-zero, a non-zero error against a
//! zero bound gives `+∞` here.
//!
//! # Example
//!
//! ```
//! use ndarray::array;
//! use wgblas::metrics::{bounds, forward_factor, spec};
//!
//! // saxpy, y = alpha·x + y, computed with one rounding (FMA) and compared with a reference
//! // that rounded twice: the results differ by 2^-25 but the factor says "well within one
//! // rounding of the bound |alpha·x_i| + |y_i|".
//! let (alpha, x, y) = (3.0_f32, array![1.0_f32 / 3.0], array![-1.0_f32]);
//! let fused = array![alpha.mul_add(x[0], y[0])];
//! let separate = array![alpha * x[0] + y[0]];
//! let bound = bounds::axpy(alpha, x.view(), y.view());
//! let factor = forward_factor(&fused, &separate, &bound)?;
//! assert!(spec("saxpy").unwrap().passes(factor));
//! # Ok::<(), wgblas::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayBase, ArrayView1, ArrayView2, Data, Dimension, Zip};

use crate::error::{Error, Result};
use crate::flags::{Diag, Side, Transpose, Uplo};

/// `2^-23` (`f32::EPSILON`, as `f64`): the unit of every factor of this module.
pub const EPS: f64 = f32::EPSILON as f64;

// ---------------------------------------------------------------------------------------------
// ULP distance
// ---------------------------------------------------------------------------------------------

/// Maps an `f32` to an integer, monotone in the value: `+x` to its bit pattern without the sign,
/// `−x` to the negative of that. `−0.0` and `+0.0` both map to 0.
fn ordered_f32(x: f32) -> i64 {
    let bits = x.to_bits();
    let magnitude = i64::from(bits & 0x7fff_ffff);
    if bits >> 31 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

/// As [`ordered_f32`], for `f64`, in `i128` so that no difference overflows.
fn ordered_f64(x: f64) -> i128 {
    let bits = x.to_bits();
    let magnitude = i128::from(bits & 0x7fff_ffff_ffff_ffff);
    if bits >> 63 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

/// Distance between `a` and `b` in units in the last place: how many steps through adjacent
/// representable `f32` values lead from one to the other.
///
/// Computed from the monotone map of bit patterns to integers (negative values map below the
/// positive ones, and `+x` and `−x` symmetrically around 0), so it is exact across binades,
/// subnormals and zero.
///
/// Rules:
/// - `−0.0` and `+0.0` map to the same integer: distance 0.
/// - the smallest positive subnormal and its negative are 2 apart (through zero).
/// - `±∞` are the values one step past `±f32::MAX`:
///   `ulp_distance_f32(f32::INFINITY, f32::MAX) == 1`.
/// - both NaN (any payload): 0. Exactly one NaN: `u64::MAX`.
///
/// Used for `scopy`/`sswap`/`sscal` (threshold 0) and `sasum`/`snrm2` (threshold 50), DESIGN.md §2.
///
/// ```
/// use wgblas::metrics::ulp_distance_f32;
/// assert_eq!(ulp_distance_f32(1.0, 1.0 + f32::EPSILON), 1);
/// assert_eq!(ulp_distance_f32(-0.0, 0.0), 0);
/// assert_eq!(ulp_distance_f32(f32::NAN, 1.0), u64::MAX);
/// ```
pub fn ulp_distance_f32(a: f32, b: f32) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (false, false) => ordered_f32(a).abs_diff(ordered_f32(b)),
        _ => u64::MAX,
    }
}

/// Distance between `a` and `b` in units in the last place of `f64`; the rules of
/// [`ulp_distance_f32`]. The integers are taken in `i128`: the largest distance,
/// `−∞` to `+∞`, is `0xFFE0_0000_0000_0000` and fits in `u64` (anything larger would saturate to
/// `u64::MAX`).
///
/// Used for `dasum` (threshold 64), DESIGN.md §2.
pub fn ulp_distance_f64(a: f64, b: f64) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (false, false) => {
            u64::try_from(ordered_f64(a).abs_diff(ordered_f64(b))).unwrap_or(u64::MAX)
        }
        _ => u64::MAX,
    }
}

/// `Ok` when the two shapes are equal, else `DimensionMismatch` naming `routine` and `arg`.
fn check_shape(
    routine: &'static str,
    arg: &'static str,
    expected: &[usize],
    found: &[usize],
) -> Result<()> {
    if expected == found {
        Ok(())
    } else {
        Err(Error::DimensionMismatch {
            routine,
            arg,
            detail: format!("expected shape {expected:?} (that of `gpu`), found {found:?}"),
        })
    }
}

/// Largest [`ulp_distance_f32`] over corresponding elements of `gpu` and `reference` (same index,
/// whatever the memory layouts). Empty arrays give 0.
///
/// # Errors
/// [`Error::DimensionMismatch`] (routine `"metrics::max_ulp_f32"`, arg `"reference"`) when the
/// shapes differ.
pub fn max_ulp_f32<S1, S2, D>(gpu: &ArrayBase<S1, D>, reference: &ArrayBase<S2, D>) -> Result<u64>
where
    S1: Data<Elem = f32>,
    S2: Data<Elem = f32>,
    D: Dimension,
{
    check_shape(
        "metrics::max_ulp_f32",
        "reference",
        gpu.shape(),
        reference.shape(),
    )?;
    Ok(gpu
        .iter()
        .zip(reference.iter())
        .map(|(&g, &r)| ulp_distance_f32(g, r))
        .max()
        .unwrap_or(0))
}

/// Largest [`ulp_distance_f64`] over corresponding elements; as [`max_ulp_f32`].
///
/// # Errors
/// [`Error::DimensionMismatch`] (routine `"metrics::max_ulp_f64"`, arg `"reference"`) when the
/// shapes differ.
pub fn max_ulp_f64<S1, S2, D>(gpu: &ArrayBase<S1, D>, reference: &ArrayBase<S2, D>) -> Result<u64>
where
    S1: Data<Elem = f64>,
    S2: Data<Elem = f64>,
    D: Dimension,
{
    check_shape(
        "metrics::max_ulp_f64",
        "reference",
        gpu.shape(),
        reference.shape(),
    )?;
    Ok(gpu
        .iter()
        .zip(reference.iter())
        .map(|(&g, &r)| ulp_distance_f64(g, r))
        .max()
        .unwrap_or(0))
}

// ---------------------------------------------------------------------------------------------
// Forward and backward factors
// ---------------------------------------------------------------------------------------------

/// `err / (EPS · bound)` for one element, `err ≥ 0` or NaN: 0 when `err == 0` (whatever the
/// bound); `+∞` when `err` is not finite, or when `bound` is NaN or `≤ 0` (nothing certifies a
/// non-zero error then). A finite error against `bound = +∞` gives 0.
fn element_factor(err: f64, bound: f64) -> f64 {
    if err == 0.0 {
        0.0
    } else if !err.is_finite() || bound.is_nan() || bound <= 0.0 {
        f64::INFINITY
    } else {
        err / (EPS * bound)
    }
}

/// Forward-error factor of one value: `|gpu − reference| / (EPS · bound)`, in `f64`.
///
/// Rules, in order:
/// 1. equal values contribute 0, whatever `bound` is: `gpu == reference` (which includes `+0.0`
///    vs `−0.0` and two infinities of the same sign) or both NaN;
/// 2. otherwise a NaN or an infinity in either gives `+∞`;
/// 3. otherwise a non-zero error with `bound` 0, negative or NaN gives `+∞`;
/// 4. otherwise `|gpu − reference| / (EPS · bound)` (which is 0 for `bound = +∞`).
///
/// The factor never is NaN. A factor ≤ 1 means the GPU value is within one `f32` rounding
/// (`EPS` relative) of `bound`. Bounds: [`bounds`]; thresholds: [`spec`] (DESIGN.md §2). Used on
/// its own for `sdot`, whose bound is one number.
pub fn forward_factor_scalar(gpu: f32, reference: f32, bound: f64) -> f64 {
    if gpu == reference || (gpu.is_nan() && reference.is_nan()) {
        0.0
    } else if !gpu.is_finite() || !reference.is_finite() {
        f64::INFINITY
    } else {
        element_factor((f64::from(gpu) - f64::from(reference)).abs(), bound)
    }
}

/// Forward-error factor `max_i |gpu_i − reference_i| / (EPS · bound_i)` (DESIGN.md §2), computed in
/// `f64`, element by element with the rules of [`forward_factor_scalar`] (equal values, including
/// both NaN, same-signed infinities and `+0.0` vs `−0.0`, contribute 0; otherwise NaN or `±∞` in
/// either gives `+∞`; a non-zero error with `bound_i = 0` gives `+∞`). Empty arrays give 0. The
/// result is never NaN.
///
/// `bound` comes from [`bounds`] (`bound_i`, without the `EPS`); units: `EPS · bound_i`.
///
/// # Errors
/// [`Error::DimensionMismatch`] (routine `"metrics::forward_factor"`, arg `"reference"` or
/// `"bound"`) when a shape differs from that of `gpu`.
pub fn forward_factor<S1, S2, S3, D>(
    gpu: &ArrayBase<S1, D>,
    reference: &ArrayBase<S2, D>,
    bound: &ArrayBase<S3, D>,
) -> Result<f64>
where
    S1: Data<Elem = f32>,
    S2: Data<Elem = f32>,
    S3: Data<Elem = f64>,
    D: Dimension,
{
    const ROUTINE: &str = "metrics::forward_factor";
    check_shape(ROUTINE, "reference", gpu.shape(), reference.shape())?;
    check_shape(ROUTINE, "bound", gpu.shape(), bound.shape())?;
    Ok(gpu
        .iter()
        .zip(reference.iter())
        .zip(bound.iter())
        .map(|((&g, &r), &b)| forward_factor_scalar(g, r, b))
        .fold(0.0, f64::max))
}

/// Backward-residual factor `max_i |r_i| / (EPS · bound_i)` (DESIGN.md §2), with
/// `r_i = (op(A)·x_gpu)_i − b_i` computed by the caller in `f64` (for example by
/// [`trsv_residual`] or [`trsm_residual`]) and `bound_i` from [`bounds::trsv`] /
/// [`bounds::trsm`] (Higham Theorem 8.5: `|T·x̂ − b| ≤ γ_n |T||x̂|`).
///
/// Rules: `r_i = 0` (either sign) contributes 0, whatever `bound_i` is (so `r = 0, bound = 0` gives
/// 0); a NaN or infinite residual gives `+∞`; a non-zero residual with `bound_i` 0, negative or
/// NaN gives `+∞`. Empty arrays give 0. The result is never NaN.
///
/// # Errors
/// [`Error::DimensionMismatch`] (routine `"metrics::backward_residual_factor"`, arg `"bound"`) when
/// the shapes differ.
pub fn backward_residual_factor<S1, S2, D>(
    residual: &ArrayBase<S1, D>,
    bound: &ArrayBase<S2, D>,
) -> Result<f64>
where
    S1: Data<Elem = f64>,
    S2: Data<Elem = f64>,
    D: Dimension,
{
    check_shape(
        "metrics::backward_residual_factor",
        "bound",
        residual.shape(),
        bound.shape(),
    )?;
    Ok(residual
        .iter()
        .zip(bound.iter())
        .map(|(&r, &b)| element_factor(r.abs(), b))
        .fold(0.0, f64::max))
}

// ---------------------------------------------------------------------------------------------
// Shared helpers: op(), triangles, symmetric matrices, all in f64
// ---------------------------------------------------------------------------------------------

/// `|coef · v|`, but 0 when `coef == 0`: BLAS does not read an operand whose scalar is zero
/// (`beta = 0`: C / y never read; `alpha = 0`: A, B never read), so NaN or ∞ there must not leak
/// into a bound.
fn term(coef: f64, v: f64) -> f64 {
    if coef == 0.0 {
        0.0
    } else {
        (coef * v).abs()
    }
}

/// `op(A)` as a view: `A` or `Aᵀ`.
fn op_view(trans: Transpose, a: ArrayView2<'_, f32>) -> ArrayView2<'_, f32> {
    match trans {
        Transpose::No => a,
        Transpose::Yes => a.reversed_axes(),
    }
}

/// `|A|` elementwise, in `f64`.
fn abs2(a: ArrayView2<'_, f32>) -> Array2<f64> {
    a.mapv(|v| f64::from(v).abs())
}

/// `|x|` elementwise, in `f64`.
fn abs1(x: ArrayView1<'_, f32>) -> Array1<f64> {
    x.mapv(|v| f64::from(v).abs())
}

/// Whether `(i, j)` lies in triangle `uplo`, diagonal included.
fn in_triangle(uplo: Uplo, i: usize, j: usize) -> bool {
    match uplo {
        Uplo::Upper => i <= j,
        Uplo::Lower => i >= j,
    }
}

/// Panics unless `a` is square; returns its order.
fn assert_square(what: &str, a: &ArrayView2<'_, f32>) -> usize {
    assert_eq!(
        a.nrows(),
        a.ncols(),
        "{what}: `a` must be square, found {:?}",
        a.dim()
    );
    a.nrows()
}

/// `op(T)` in `f64`, `T` the triangle `uplo` of the square `a` with the diagonal taken as 1 when
/// `diag` is `Unit`. Only the referenced triangle is read (and not the diagonal for `Unit`);
/// everything else is an exact 0.
fn tri_op(uplo: Uplo, trans: Transpose, diag: Diag, a: ArrayView2<'_, f32>) -> Array2<f64> {
    let n = assert_square("triangular operand", &a);
    Array2::from_shape_fn((n, n), |(i, j)| {
        let (r, c) = match trans {
            Transpose::No => (i, j),
            Transpose::Yes => (j, i),
        };
        if r == c && diag == Diag::Unit {
            1.0
        } else if in_triangle(uplo, r, c) {
            f64::from(a[[r, c]])
        } else {
            0.0
        }
    })
}

/// The full symmetric matrix whose triangle `uplo` is stored in `a`, as `|A|` in `f64`. Only the
/// triangle `uplo` is read.
fn abs_sym(uplo: Uplo, a: ArrayView2<'_, f32>) -> Array2<f64> {
    let n = assert_square("symmetric operand", &a);
    Array2::from_shape_fn((n, n), |(i, j)| {
        let v = if in_triangle(uplo, i, j) {
            a[[i, j]]
        } else {
            a[[j, i]]
        };
        f64::from(v).abs()
    })
}

/// `scale · product()`, or zeros of `shape` without evaluating `product` when `scale == 0`.
fn scaled(scale: f64, shape: (usize, usize), product: impl FnOnce() -> Array2<f64>) -> Array2<f64> {
    if scale == 0.0 {
        Array2::zeros(shape)
    } else {
        product() * scale
    }
}

/// `out_i += |coef · v_i|` (nothing when `coef == 0`: `v` is not read).
fn add_term1(out: &mut Array1<f64>, coef: f64, v: ArrayView1<'_, f32>) {
    if coef != 0.0 {
        Zip::from(out)
            .and(v)
            .for_each(|o, &vi| *o += term(coef, f64::from(vi)));
    }
}

/// `out_ij += |coef · c_ij|` on triangle `triangle` (everywhere for `None`); `c` is read only
/// there, and not at all when `coef == 0`.
fn add_term2(out: &mut Array2<f64>, coef: f64, c: ArrayView2<'_, f32>, triangle: Option<Uplo>) {
    if coef != 0.0 {
        Zip::indexed(out).and(c).for_each(|(i, j), o, &cij| {
            if triangle.is_none_or(|uplo| in_triangle(uplo, i, j)) {
                *o += term(coef, f64::from(cij));
            }
        });
    }
}

/// Sets to 0 every element outside triangle `uplo`.
fn mask_triangle(out: &mut Array2<f64>, uplo: Uplo) {
    for ((i, j), v) in out.indexed_iter_mut() {
        if !in_triangle(uplo, i, j) {
            *v = 0.0;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Residuals of the triangular solves
// ---------------------------------------------------------------------------------------------

/// Order of the square `a`, or [`Error::NotSquare`].
fn square_order(routine: &'static str, a: &ArrayView2<'_, f32>) -> Result<usize> {
    let (rows, cols) = a.dim();
    if rows == cols {
        Ok(rows)
    } else {
        Err(Error::NotSquare {
            routine,
            arg: "a",
            rows,
            cols,
        })
    }
}

/// Residual `op(T)·x − b` of a triangular solve (BLAS `strsv`), all arithmetic in `f64`
/// (products of two `f32` are exact in `f64`; the sums' rounding, ≈ 1e-16 relative, is negligible
/// against [`EPS`]).
///
/// `T` is the triangle `uplo` of `a`; the other triangle is never read (it may hold NaN). With
/// `Diag::Unit` the diagonal is taken as 1 and never read. `x` is the computed solution, `b` the
/// right-hand side (before the solve overwrote it). Feed the result to
/// [`backward_residual_factor`] with [`bounds::trsv`].
///
/// # Errors
/// [`Error::NotSquare`] (arg `"a"`) when `a` is not square; [`Error::DimensionMismatch`]
/// (arg `"x"` or `"b"`) when a length differs from the order of `a`. Routine:
/// `"metrics::trsv_residual"`.
pub fn trsv_residual(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, f32>,
    x: ArrayView1<'_, f32>,
    b: ArrayView1<'_, f32>,
) -> Result<Array1<f64>> {
    const ROUTINE: &str = "metrics::trsv_residual";
    let n = square_order(ROUTINE, &a)?;
    for (arg, len) in [("x", x.len()), ("b", b.len())] {
        if len != n {
            return Err(Error::DimensionMismatch {
                routine: ROUTINE,
                arg,
                detail: format!("`a` is {n}x{n}, `{arg}` has length {len}"),
            });
        }
    }
    let mut r = tri_op(uplo, trans, diag, a).dot(&x.mapv(f64::from));
    Zip::from(&mut r)
        .and(b)
        .for_each(|ri, &bi| *ri -= f64::from(bi));
    Ok(r)
}

/// Residual of a triangular solve with several right-hand sides (BLAS `strsm`), in `f64`:
/// `op(T)·X − alpha·B` for `Side::Left` (`T` m×m, `X`, `B` m×n) or `X·op(T) − alpha·B` for
/// `Side::Right` (`T` n×n).
///
/// `T` is the triangle `uplo` of `a` (the other triangle never read; with `Diag::Unit` the diagonal
/// is 1 and never read). `x` is the computed solution, `b` the right-hand side before the solve
/// overwrote it. When `alpha == 0` the term `alpha·B` is 0 and `b` is not read (BLAS sets
/// `X = 0` without reading B). Feed the result to [`backward_residual_factor`] with
/// [`bounds::trsm`].
///
/// # Errors
/// [`Error::NotSquare`] (arg `"a"`) when `a` is not square; [`Error::DimensionMismatch`] (arg
/// `"x"`) when `x`'s rows (Left) or columns (Right) differ from the order of `a`, (arg `"b"`) when
/// `b`'s shape differs from `x`'s. Routine: `"metrics::trsm_residual"`.
#[allow(clippy::too_many_arguments)] // the BLAS argument list
pub fn trsm_residual(
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: f32,
    a: ArrayView2<'_, f32>,
    x: ArrayView2<'_, f32>,
    b: ArrayView2<'_, f32>,
) -> Result<Array2<f64>> {
    const ROUTINE: &str = "metrics::trsm_residual";
    let order = square_order(ROUTINE, &a)?;
    let (m, n) = x.dim();
    let (read_over, what) = match side {
        Side::Left => (m, "rows"),
        Side::Right => (n, "columns"),
    };
    if read_over != order {
        return Err(Error::DimensionMismatch {
            routine: ROUTINE,
            arg: "x",
            detail: format!("`a` is {order}x{order}, `x` ({m}x{n}) has {read_over} {what}"),
        });
    }
    if b.dim() != x.dim() {
        return Err(Error::DimensionMismatch {
            routine: ROUTINE,
            arg: "b",
            detail: format!("`x` is {m}x{n}, `b` is {:?}", b.dim()),
        });
    }
    let t = tri_op(uplo, transa, diag, a);
    let x64 = x.mapv(f64::from);
    let mut r = match side {
        Side::Left => t.dot(&x64),
        Side::Right => x64.dot(&t),
    };
    if alpha != 0.0 {
        let alpha = f64::from(alpha);
        Zip::from(&mut r)
            .and(b)
            .for_each(|rij, &bij| *rij -= alpha * f64::from(bij));
    }
    Ok(r)
}

// ---------------------------------------------------------------------------------------------
// Bounds
// ---------------------------------------------------------------------------------------------

/// The per-routine `bound_i` of DESIGN.md §2 (the denominators of [`forward_factor`] and
/// [`backward_residual_factor`], without the [`EPS`]), shaped like the routine's output.
///
/// Arguments are the routine's inputs as passed to the call, before the routine overwrote
/// anything (`y` of `sgemv`, `C` of `sgemm`, ...) — except [`trsv`](bounds::trsv) and
/// [`trsm`](bounds::trsm), which take the computed solution. All arithmetic is in `f64`.
///
/// Conventions, common to all:
/// - `n`/`k` is the routine's reduction length, `r` the order of `A` for `side` routines (m for
///   Left, n for Right).
/// - Symmetric and triangular operands are read only in the triangle `uplo` (and a `Diag::Unit`
///   diagonal not at all: it is 1); the unreferenced part may hold NaN without effect.
/// - For the routines whose output is a triangle (`ssyr`, `ssyr2`, `ssyrk`, `ssyr2k`, `sgemmtr`),
///   the bound is 0 outside the triangle and `C`/`A` is read only on it: the untouched triangle
///   must then equal the reference exactly (an equal value gives factor 0, any change `+∞`).
/// - A term whose scalar (`alpha`, `beta`, `c`, `s`, `h_ij`) is 0 is 0, and its operand is not
///   read: BLAS does not read C when `beta = 0` nor A, B when `alpha = 0`, so NaN or ∞ there
///   must not leak into the bound.
///
/// Sources: netlib `sblat2.f`/`sblat3.f` gauges (`SMVCH`, `SMMCH`) scaled by the reduction length
/// plus one (Higham, 2nd ed., §3.1 and §3.5); triangular solves: Higham Theorem 8.5.
///
/// # Panics
/// Every function panics when its arguments' shapes are inconsistent (the routine itself would
/// have returned an error); these are test and user helpers.
pub mod bounds {
    use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Zip};

    use super::{
        abs1, abs2, abs_sym, add_term1, add_term2, assert_square, in_triangle, mask_triangle,
        op_view, scaled, term, tri_op,
    };
    use crate::flags::{Diag, Side, Transpose, Uplo};

    /// `saxpy` (`y ← alpha·x + y`): `bound_i = |alpha·x_i| + |y_i|`.
    ///
    /// # Panics
    /// When `x` and `y` have different lengths.
    pub fn axpy(alpha: f32, x: ArrayView1<'_, f32>, y: ArrayView1<'_, f32>) -> Array1<f64> {
        assert_eq!(x.len(), y.len(), "bounds::axpy: x and y lengths differ");
        let alpha = f64::from(alpha);
        Zip::from(x)
            .and(y)
            .map_collect(|&xi, &yi| term(alpha, f64::from(xi)) + f64::from(yi).abs())
    }

    /// `sdot` (`Σ x_i·y_i`): `bound = n · Σ_i |x_i·y_i|`, `n = len(x)`; 0 for empty vectors.
    /// Compare with [`forward_factor_scalar`](super::forward_factor_scalar).
    ///
    /// # Panics
    /// When `x` and `y` have different lengths.
    pub fn dot(x: ArrayView1<'_, f32>, y: ArrayView1<'_, f32>) -> f64 {
        assert_eq!(x.len(), y.len(), "bounds::dot: x and y lengths differ");
        let sum: f64 = x
            .iter()
            .zip(y.iter())
            .map(|(&xi, &yi)| (f64::from(xi) * f64::from(yi)).abs())
            .sum();
        x.len() as f64 * sum
    }

    /// `srot` (`x_i ← c·x_i + s·y_i`, `y_i ← c·y_i − s·x_i`): the bounds of the new x and the new
    /// y, `(|c·x_i| + |s·y_i|, |c·y_i| + |s·x_i|)`.
    ///
    /// # Panics
    /// When `x` and `y` have different lengths.
    pub fn rot(
        c: f32,
        s: f32,
        x: ArrayView1<'_, f32>,
        y: ArrayView1<'_, f32>,
    ) -> (Array1<f64>, Array1<f64>) {
        assert_eq!(x.len(), y.len(), "bounds::rot: x and y lengths differ");
        let (c, s) = (f64::from(c), f64::from(s));
        let bx = Zip::from(x)
            .and(y)
            .map_collect(|&xi, &yi| term(c, f64::from(xi)) + term(s, f64::from(yi)));
        let by = Zip::from(x)
            .and(y)
            .map_collect(|&xi, &yi| term(c, f64::from(yi)) + term(s, f64::from(xi)));
        (bx, by)
    }

    /// The matrix `H = [[h11, h12], [h21, h22]]` that BLAS `srotm` applies
    /// (`x_i ← h11·x_i + h12·y_i`, `y_i ← h21·x_i + h22·y_i`), decoded from
    /// `param = [flag, h11, h21, h12, h22]` as the reference BLAS does:
    ///
    /// | flag | H |
    /// |---|---|
    /// | −2 | identity (srotm returns at once) |
    /// | −1 | `[[p1, p3], [p2, p4]]` |
    /// | 0 | `[[1, p3], [p2, 1]]` |
    /// | 1 | `[[p1, 1], [−1, p4]]` |
    ///
    /// `None` for any other flag (NaN included).
    pub fn rotm_matrix(param: [f32; 5]) -> Option<[[f32; 2]; 2]> {
        let [flag, h11, h21, h12, h22] = param;
        if flag == -2.0 {
            Some([[1.0, 0.0], [0.0, 1.0]])
        } else if flag == -1.0 {
            Some([[h11, h12], [h21, h22]])
        } else if flag == 0.0 {
            Some([[1.0, h12], [h21, 1.0]])
        } else if flag == 1.0 {
            Some([[h11, 1.0], [-1.0, h22]])
        } else {
            None
        }
    }

    /// `srotm`: with `H` from [`rotm_matrix`], the bounds of the new x and the new y,
    /// `(|h11·x_i| + |h12·y_i|, |h21·x_i| + |h22·y_i|)`.
    ///
    /// # Panics
    /// When `param[0]` is not −2, −1, 0 or 1, or `x` and `y` have different lengths.
    pub fn rotm(
        param: [f32; 5],
        x: ArrayView1<'_, f32>,
        y: ArrayView1<'_, f32>,
    ) -> (Array1<f64>, Array1<f64>) {
        let h = rotm_matrix(param)
            .unwrap_or_else(|| panic!("bounds::rotm: invalid flag param[0] = {}", param[0]));
        assert_eq!(x.len(), y.len(), "bounds::rotm: x and y lengths differ");
        let [[h11, h12], [h21, h22]] = h.map(|row| row.map(f64::from));
        let bx = Zip::from(x)
            .and(y)
            .map_collect(|&xi, &yi| term(h11, f64::from(xi)) + term(h12, f64::from(yi)));
        let by = Zip::from(x)
            .and(y)
            .map_collect(|&xi, &yi| term(h21, f64::from(xi)) + term(h22, f64::from(yi)));
        (bx, by)
    }

    /// `sgemv` (`y ← alpha·op(A)·x + beta·y`):
    /// `bound_i = (n+1)·|alpha|·Σ_j |op(A)_ij|·|x_j| + |beta|·|y_i|`, `n = len(x)`.
    ///
    /// # Panics
    /// When `op(A)` is not `len(y)`×`len(x)`.
    pub fn gemv(
        trans: Transpose,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        x: ArrayView1<'_, f32>,
        beta: f32,
        y: ArrayView1<'_, f32>,
    ) -> Array1<f64> {
        let opa = op_view(trans, a);
        assert_eq!(
            opa.dim(),
            (y.len(), x.len()),
            "bounds::gemv: op(a) must be len(y) x len(x)"
        );
        let n = x.len();
        let scale = (n as f64 + 1.0) * f64::from(alpha).abs();
        let mut out = if scale == 0.0 {
            Array1::zeros(y.len())
        } else {
            abs2(opa).dot(&abs1(x)) * scale
        };
        add_term1(&mut out, f64::from(beta), y);
        out
    }

    /// `ssymv` (`y ← alpha·A·x + beta·y`, A symmetric, stored in triangle `uplo`):
    /// `bound_i = (n+2)·|alpha|·Σ_j |A_ij|·|x_j| + 2·|beta|·|y_i|`, `A_ij` read from the triangle
    /// `uplo` (`A_ij = A_ji`).
    ///
    /// # Panics
    /// When `a` is not square of order `len(x) = len(y)`.
    pub fn symv(
        uplo: Uplo,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        x: ArrayView1<'_, f32>,
        beta: f32,
        y: ArrayView1<'_, f32>,
    ) -> Array1<f64> {
        let n = assert_square("bounds::symv", &a);
        assert!(
            x.len() == n && y.len() == n,
            "bounds::symv: x and y must have length {n}"
        );
        let scale = (n as f64 + 2.0) * f64::from(alpha).abs();
        let mut out = if scale == 0.0 {
            Array1::zeros(n)
        } else {
            abs_sym(uplo, a).dot(&abs1(x)) * scale
        };
        add_term1(&mut out, 2.0 * f64::from(beta), y);
        out
    }

    /// `(n+1)·|op(T)|·|x|`, the bound of strmv and strsv.
    fn triangular_vector(
        what: &str,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        a: ArrayView2<'_, f32>,
        x: ArrayView1<'_, f32>,
    ) -> Array1<f64> {
        let n = assert_square(what, &a);
        assert_eq!(x.len(), n, "{what}: x must have length {n}");
        let mut t = tri_op(uplo, trans, diag, a);
        t.mapv_inplace(f64::abs);
        t.dot(&abs1(x)) * (n as f64 + 1.0)
    }

    /// `strmv` (`x ← op(T)·x`): `bound_i = (n+1)·Σ_j |op(T)_ij|·|x_j|`, with `x` the input vector
    /// and `T` the triangle `uplo` of `a` (diagonal 1 for `Diag::Unit`, not read).
    ///
    /// # Panics
    /// When `a` is not square of order `len(x)`.
    pub fn trmv(
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        a: ArrayView2<'_, f32>,
        x: ArrayView1<'_, f32>,
    ) -> Array1<f64> {
        triangular_vector("bounds::trmv", uplo, trans, diag, a, x)
    }

    /// `strsv` (solve `op(T)·x = b`), for
    /// [`backward_residual_factor`](super::backward_residual_factor):
    /// `bound_i = (n+1)·Σ_j |op(T)_ij|·|x_j|`, with `x` the computed solution (Higham Thm 8.5).
    ///
    /// # Panics
    /// When `a` is not square of order `len(x)`.
    pub fn trsv(
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        a: ArrayView2<'_, f32>,
        x: ArrayView1<'_, f32>,
    ) -> Array1<f64> {
        triangular_vector("bounds::trsv", uplo, trans, diag, a, x)
    }

    /// `sger` (`A ← alpha·x·yᵀ + A`): `bound_ij = |alpha·x_i·y_j| + |A_ij|`.
    ///
    /// # Panics
    /// When `a` is not `len(x)`×`len(y)`.
    pub fn ger(
        alpha: f32,
        x: ArrayView1<'_, f32>,
        y: ArrayView1<'_, f32>,
        a: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        assert_eq!(
            a.dim(),
            (x.len(), y.len()),
            "bounds::ger: a must be len(x) x len(y)"
        );
        let alpha = f64::from(alpha);
        Array2::from_shape_fn(a.dim(), |(i, j)| {
            term(alpha, f64::from(x[i]) * f64::from(y[j])) + f64::from(a[[i, j]]).abs()
        })
    }

    /// `ssyr` (`A ← alpha·x·xᵀ + A` on triangle `uplo`): `bound_ij = |alpha·x_i·x_j| + |A_ij|` on
    /// the triangle (diagonal included), 0 elsewhere (A not read there).
    ///
    /// # Panics
    /// When `a` is not square of order `len(x)`.
    pub fn syr(
        uplo: Uplo,
        alpha: f32,
        x: ArrayView1<'_, f32>,
        a: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let n = assert_square("bounds::syr", &a);
        assert_eq!(x.len(), n, "bounds::syr: x must have length {n}");
        let alpha = f64::from(alpha);
        Array2::from_shape_fn((n, n), |(i, j)| {
            if in_triangle(uplo, i, j) {
                term(alpha, f64::from(x[i]) * f64::from(x[j])) + f64::from(a[[i, j]]).abs()
            } else {
                0.0
            }
        })
    }

    /// `ssyr2` (`A ← alpha·x·yᵀ + alpha·y·xᵀ + A` on triangle `uplo`):
    /// `bound_ij = |alpha·x_i·y_j| + |alpha·y_i·x_j| + |A_ij|` on the triangle, 0 elsewhere.
    ///
    /// # Panics
    /// When `a` is not square of order `len(x) = len(y)`.
    pub fn syr2(
        uplo: Uplo,
        alpha: f32,
        x: ArrayView1<'_, f32>,
        y: ArrayView1<'_, f32>,
        a: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let n = assert_square("bounds::syr2", &a);
        assert!(
            x.len() == n && y.len() == n,
            "bounds::syr2: x and y must have length {n}"
        );
        let alpha = f64::from(alpha);
        Array2::from_shape_fn((n, n), |(i, j)| {
            if in_triangle(uplo, i, j) {
                let (xi, xj) = (f64::from(x[i]), f64::from(x[j]));
                let (yi, yj) = (f64::from(y[i]), f64::from(y[j]));
                term(alpha, xi * yj) + term(alpha, yi * xj) + f64::from(a[[i, j]]).abs()
            } else {
                0.0
            }
        })
    }

    /// `sgemm` (`C ← alpha·op(A)·op(B) + beta·C`, op(A) m×k, op(B) k×n):
    /// `bound_ij = (k+1)·|alpha|·Σ_p |op(A)_ip|·|op(B)_pj| + |beta|·|C_ij|`.
    ///
    /// With `alpha = 0` (or `k = 0`) only `|beta|·|C_ij|` remains; with `beta = 0` C is not read.
    ///
    /// # Panics
    /// When the shapes of `op(A)`, `op(B)`, `C` are inconsistent.
    pub fn gemm(
        transa: Transpose,
        transb: Transpose,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
        beta: f32,
        c: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let (opa, opb) = (op_view(transa, a), op_view(transb, b));
        let ((m, k), (kb, n)) = (opa.dim(), opb.dim());
        assert_eq!(
            k, kb,
            "bounds::gemm: op(a) is {m}x{k} but op(b) is {kb}x{n}"
        );
        assert_eq!(c.dim(), (m, n), "bounds::gemm: c must be {m}x{n}");
        let scale = (k as f64 + 1.0) * f64::from(alpha).abs();
        let mut out = scaled(scale, (m, n), || abs2(opa).dot(&abs2(opb)));
        add_term2(&mut out, f64::from(beta), c, None);
        out
    }

    /// `sgemmtr` (`sgemm` that updates only the triangle `uplo` of the square C): the [`gemm`]
    /// bound on the triangle, 0 elsewhere (C not read there).
    ///
    /// # Panics
    /// As [`gemm`], and when C is not square.
    #[allow(clippy::too_many_arguments)] // the BLAS argument list
    pub fn gemmtr(
        uplo: Uplo,
        transa: Transpose,
        transb: Transpose,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
        beta: f32,
        c: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        assert_square("bounds::gemmtr (c)", &c);
        let (opa, opb) = (op_view(transa, a), op_view(transb, b));
        let ((m, k), (kb, n)) = (opa.dim(), opb.dim());
        assert_eq!(
            k, kb,
            "bounds::gemmtr: op(a) is {m}x{k} but op(b) is {kb}x{n}"
        );
        assert_eq!(c.dim(), (m, n), "bounds::gemmtr: c must be {m}x{n}");
        let scale = (k as f64 + 1.0) * f64::from(alpha).abs();
        let mut out = scaled(scale, (m, n), || abs2(opa).dot(&abs2(opb)));
        mask_triangle(&mut out, uplo);
        add_term2(&mut out, f64::from(beta), c, Some(uplo));
        out
    }

    /// `ssyrk` (`C ← alpha·op(A)·op(A)ᵀ + beta·C` on triangle `uplo`; `op(A) = A` (n×k) for
    /// `Transpose::No`, `Aᵀ` (A k×n) for `Yes`):
    /// `bound_ij = (k+1)·|alpha|·Σ_p |op(A)_ip|·|op(A)_jp| + |beta|·|C_ij|` on the triangle, 0
    /// elsewhere (C's other triangle never read).
    ///
    /// # Panics
    /// When C is not n×n.
    pub fn syrk(
        uplo: Uplo,
        trans: Transpose,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        beta: f32,
        c: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let opa = op_view(trans, a);
        let (n, k) = opa.dim();
        assert_eq!(c.dim(), (n, n), "bounds::syrk: c must be {n}x{n}");
        let scale = (k as f64 + 1.0) * f64::from(alpha).abs();
        let mut out = scaled(scale, (n, n), || {
            let abs_a = abs2(opa);
            abs_a.dot(&abs_a.t())
        });
        mask_triangle(&mut out, uplo);
        add_term2(&mut out, f64::from(beta), c, Some(uplo));
        out
    }

    /// `ssyr2k` (`C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C` on triangle `uplo`,
    /// op as in [`syrk`], op(A), op(B) n×k):
    /// `bound_ij = (k+3)·|alpha|·Σ_p |op(A)_ip·op(B)_jp| + (k+2)·|alpha|·Σ_p |op(B)_ip·op(A)_jp|
    /// + 3·|beta·C_ij|` on the triangle, 0 elsewhere.
    ///
    /// # Panics
    /// When op(A) and op(B) differ in shape or C is not n×n.
    pub fn syr2k(
        uplo: Uplo,
        trans: Transpose,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
        beta: f32,
        c: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let (opa, opb) = (op_view(trans, a), op_view(trans, b));
        assert_eq!(
            opa.dim(),
            opb.dim(),
            "bounds::syr2k: op(a) and op(b) differ in shape"
        );
        let (n, k) = opa.dim();
        assert_eq!(c.dim(), (n, n), "bounds::syr2k: c must be {n}x{n}");
        let alpha = f64::from(alpha).abs();
        let mut out = scaled(alpha, (n, n), || {
            let (abs_a, abs_b) = (abs2(opa), abs2(opb));
            abs_a.dot(&abs_b.t()) * (k as f64 + 3.0) + &(abs_b.dot(&abs_a.t()) * (k as f64 + 2.0))
        });
        mask_triangle(&mut out, uplo);
        add_term2(&mut out, 3.0 * f64::from(beta), c, Some(uplo));
        out
    }

    /// `ssymm` (A symmetric r×r, stored in triangle `uplo`; B, C m×n):
    /// Left, `C ← alpha·A·B + beta·C`, r = m:
    /// `bound_ij = (r+1)·|alpha|·Σ_p |A_ip|·|B_pj| + |beta|·|C_ij|`;
    /// Right, `C ← alpha·B·A + beta·C`, r = n:
    /// `bound_ij = (r+1)·|alpha|·Σ_p |B_ip|·|A_pj| + |beta|·|C_ij|`.
    ///
    /// # Panics
    /// When A is not r×r or C not m×n.
    pub fn symm(
        side: Side,
        uplo: Uplo,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
        beta: f32,
        c: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let (m, n) = b.dim();
        assert_eq!(c.dim(), (m, n), "bounds::symm: c must be {m}x{n} like b");
        let r = match side {
            Side::Left => m,
            Side::Right => n,
        };
        assert_eq!(a.dim(), (r, r), "bounds::symm: a must be {r}x{r}");
        let scale = (r as f64 + 1.0) * f64::from(alpha).abs();
        let mut out = scaled(scale, (m, n), || {
            let (abs_a, abs_b) = (abs_sym(uplo, a), abs2(b));
            match side {
                Side::Left => abs_a.dot(&abs_b),
                Side::Right => abs_b.dot(&abs_a),
            }
        });
        add_term2(&mut out, f64::from(beta), c, None);
        out
    }

    /// `(r+1)·alpha_abs·|op(T)|·|B|` (Left) or `(r+1)·alpha_abs·|B|·|op(T)|` (Right).
    fn triangular_matrix(
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha_abs: f64,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let (m, n) = b.dim();
        let r = match side {
            Side::Left => m,
            Side::Right => n,
        };
        assert_eq!(a.dim(), (r, r), "bounds::trmm/trsm: a must be {r}x{r}");
        scaled((r as f64 + 1.0) * alpha_abs, (m, n), || {
            let mut t = tri_op(uplo, trans, diag, a);
            t.mapv_inplace(f64::abs);
            match side {
                Side::Left => t.dot(&abs2(b)),
                Side::Right => abs2(b).dot(&t),
            }
        })
    }

    /// `strmm` (`B ← alpha·op(T)·B` (Left, r = m) or `B ← alpha·B·op(T)` (Right, r = n), B m×n):
    /// Left `bound_ij = (r+1)·|alpha|·Σ_p |op(T)_ip|·|B_pj|`, Right
    /// `bound_ij = (r+1)·|alpha|·Σ_p |B_ip|·|op(T)_pj|`, with B the input.
    ///
    /// # Panics
    /// When `a` is not r×r.
    pub fn trmm(
        side: Side,
        uplo: Uplo,
        transa: Transpose,
        diag: Diag,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        let alpha_abs = f64::from(alpha).abs();
        triangular_matrix(side, uplo, transa, diag, alpha_abs, a, b)
    }

    /// `strsm` (solve `op(T)·X = alpha·B` (Left, r = m) or `X·op(T) = alpha·B` (Right, r = n)),
    /// for [`backward_residual_factor`](super::backward_residual_factor) with
    /// [`trsm_residual`](super::trsm_residual): Left `bound_ij = (r+1)·Σ_k |op(T)_ik|·|X_kj|`,
    /// Right `bound_ij = (r+1)·Σ_k |X_ik|·|op(T)_kj|`, with X the computed solution (m×n).
    ///
    /// # Panics
    /// When `a` is not r×r.
    pub fn trsm(
        side: Side,
        uplo: Uplo,
        transa: Transpose,
        diag: Diag,
        a: ArrayView2<'_, f32>,
        x: ArrayView2<'_, f32>,
    ) -> Array2<f64> {
        triangular_matrix(side, uplo, transa, diag, 1.0, a, x)
    }
}

// ---------------------------------------------------------------------------------------------
// The table of DESIGN.md §2
// ---------------------------------------------------------------------------------------------

/// The metric a routine's result is judged by (DESIGN.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// The index must equal the reference's (`isamax`, `idamax`); measure 0 when equal.
    ExactIndex,
    /// [`max_ulp_f32`] over the whole output (`scopy`, `sswap`, `sscal`).
    MaxUlp,
    /// [`ulp_distance_f32`] of the scalar result (`sasum`, `snrm2`).
    Ulp,
    /// [`ulp_distance_f64`] of the scalar result (`dasum`).
    Ulp64,
    /// [`forward_factor`] (or [`forward_factor_scalar`]) with the routine's [`bounds`] function.
    Forward,
    /// [`backward_residual_factor`] of [`trsv_residual`] / [`trsm_residual`] with
    /// [`bounds::trsv`] / [`bounds::trsm`].
    BackwardResidual,
}

/// A routine's metric and threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// How the result is measured.
    pub metric: Metric,
    /// The largest passing measure (a ULP count, or a factor in units of `EPS · bound_i`).
    pub threshold: f64,
}

impl Spec {
    /// Whether a measure passes: `value ≤ threshold` (NaN fails). ULP counts are passed as `f64`
    /// (`u64::MAX` fails every threshold).
    pub fn passes(&self, value: f64) -> bool {
        value <= self.threshold
    }
}

/// The 26 routines of DESIGN.md §2, in the table's order; [`spec`] knows each of them.
pub const ROUTINES: [&str; 26] = [
    "isamax", "idamax", "scopy", "sswap", "sscal", "sasum", "snrm2", "dasum", "saxpy", "sdot",
    "srot", "srotm", "ssymv", "strmv", "sger", "ssyr", "ssyr2", "sgemv", "strsv", "sgemm",
    "sgemmtr", "ssyrk", "ssyr2k", "ssymm", "strmm", "strsm",
];

/// The metric and threshold of a routine (lower-case BLAS name, e.g. `"sgemm"`), from the table of
/// DESIGN.md §2; `None` for a name not in [`ROUTINES`].
///
/// | routines | metric | threshold |
/// |---|---|---|
/// | isamax, idamax | exact index | 0 |
/// | scopy, sswap, sscal | max ULP | 0 |
/// | sasum, snrm2 | ULP | 50 |
/// | dasum | ULP (f64) | 64 |
/// | saxpy, sdot, srot, srotm | forward | 1 |
/// | ssymv, strmv, sger, ssyr, ssyr2 | forward | 2 |
/// | sgemv | forward | 4 |
/// | strsv | backward residual | 3 |
/// | sgemm, sgemmtr, ssyrk, ssyr2k, ssymm, strmm | forward | 1 |
/// | strsm | backward residual | 5 |
///
/// A threshold is never raised to make a test pass (DESIGN.md §2).
pub fn spec(routine: &str) -> Option<Spec> {
    let (metric, threshold) = match routine {
        "isamax" | "idamax" => (Metric::ExactIndex, 0.0),
        "scopy" | "sswap" | "sscal" => (Metric::MaxUlp, 0.0),
        "sasum" | "snrm2" => (Metric::Ulp, 50.0),
        "dasum" => (Metric::Ulp64, 64.0),
        "saxpy" | "sdot" | "srot" | "srotm" => (Metric::Forward, 1.0),
        "ssymv" | "strmv" | "sger" | "ssyr" | "ssyr2" => (Metric::Forward, 2.0),
        "sgemv" => (Metric::Forward, 4.0),
        "strsv" => (Metric::BackwardResidual, 3.0),
        "sgemm" | "sgemmtr" | "ssyrk" | "ssyr2k" | "ssymm" | "strmm" => (Metric::Forward, 1.0),
        "strsm" => (Metric::BackwardResidual, 5.0),
        _ => return None,
    };
    Some(Spec { metric, threshold })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array1, Array2, Array3, ShapeBuilder};

    const NAN: f32 = f32::NAN;
    const INF: f32 = f32::INFINITY;

    fn is_mismatch(e: &Error, routine: &str, arg: &str) -> bool {
        matches!(
            e,
            Error::DimensionMismatch { routine: r, arg: a, .. } if *r == routine && *a == arg
        )
    }

    // ----- ULP --------------------------------------------------------------------------------

    #[test]
    fn ulp_f32_hand_values() {
        // 1.0 = 0x3F80_0000; 1 + 2^-23 = 0x3F80_0001: one step.
        assert_eq!(ulp_distance_f32(1.0, 1.0 + f32::EPSILON), 1);
        // Below 1.0 the spacing halves: 1 − 2^-24 = 0x3F7F_FFFF, one step below 0x3F80_0000.
        assert_eq!(ulp_distance_f32(1.0, 1.0 - f32::EPSILON / 2.0), 1);
        assert_eq!(ulp_distance_f32(1.0 - f32::EPSILON / 2.0, 1.0), 1);
        // ±0 map to the same integer.
        assert_eq!(ulp_distance_f32(-0.0, 0.0), 0);
        assert_eq!(ulp_distance_f32(0.0, -0.0), 0);
        // Smallest subnormal is bit pattern 1 → +1; its negative → −1: 2 apart.
        let tiny = f32::from_bits(1);
        assert_eq!(ulp_distance_f32(tiny, -tiny), 2);
        assert_eq!(ulp_distance_f32(0.0, tiny), 1);
        // NaN rules.
        assert_eq!(ulp_distance_f32(NAN, NAN), 0);
        assert_eq!(ulp_distance_f32(NAN, -NAN), 0);
        assert_eq!(ulp_distance_f32(NAN, 1.0), u64::MAX);
        assert_eq!(ulp_distance_f32(1.0, NAN), u64::MAX);
        // +∞ = 0x7F80_0000, MAX = 0x7F7F_FFFF: 1 apart; same for the negatives.
        assert_eq!(ulp_distance_f32(INF, f32::MAX), 1);
        assert_eq!(ulp_distance_f32(-INF, f32::MIN), 1);
        // [1, 2) holds 2^23 values: 1.0 → 2.0 is 2^23 steps.
        assert_eq!(ulp_distance_f32(1.0, 2.0), 1 << 23);
        // MIN_POSITIVE = 0x0080_0000 = 2^23 steps above 0.
        assert_eq!(ulp_distance_f32(0.0, f32::MIN_POSITIVE), 1 << 23);
        // −1 → −0x3F80_0000, +1 → 0x3F80_0000: 2·0x3F80_0000 = 2_130_706_432.
        assert_eq!(ulp_distance_f32(-1.0, 1.0), 2_130_706_432);
        // −∞ to +∞: 2·0x7F80_0000.
        assert_eq!(ulp_distance_f32(-INF, INF), 2 * 0x7F80_0000);
    }

    #[test]
    fn ulp_f64_hand_values() {
        assert_eq!(ulp_distance_f64(1.0, 1.0 + f64::EPSILON), 1);
        // Below 1.0 the spacing is 2^-53.
        assert_eq!(ulp_distance_f64(1.0, 1.0 - f64::EPSILON / 2.0), 1);
        assert_eq!(ulp_distance_f64(-0.0, 0.0), 0);
        let tiny = f64::from_bits(1);
        assert_eq!(ulp_distance_f64(tiny, -tiny), 2);
        assert_eq!(ulp_distance_f64(f64::NAN, f64::NAN), 0);
        assert_eq!(ulp_distance_f64(f64::NAN, 1.0), u64::MAX);
        assert_eq!(ulp_distance_f64(1.0, f64::NAN), u64::MAX);
        // +∞ = 0x7FF0_0000_0000_0000, MAX = 0x7FEF_FFFF_FFFF_FFFF.
        assert_eq!(ulp_distance_f64(f64::INFINITY, f64::MAX), 1);
        // −MAX to +MAX: 2·0x7FEF_FFFF_FFFF_FFFF = 0xFFDF_FFFF_FFFF_FFFE (no overflow).
        assert_eq!(ulp_distance_f64(f64::MIN, f64::MAX), 0xFFDF_FFFF_FFFF_FFFE);
        // −∞ to +∞: 2·0x7FF0_0000_0000_0000 = 0xFFE0_0000_0000_0000.
        assert_eq!(
            ulp_distance_f64(f64::NEG_INFINITY, f64::INFINITY),
            0xFFE0_0000_0000_0000
        );
        // [1, 2) holds 2^52 values.
        assert_eq!(ulp_distance_f64(1.0, 2.0), 1 << 52);
    }

    #[test]
    fn max_ulp_arrays() {
        // ulp at 2 is 2^-22: 2 + 3·2^-22 is 3 steps from 2; −0 vs 0 is 0; 1 vs 1 is 0.
        let gpu = array![1.0_f32, 2.0, -0.0];
        let reference = array![1.0_f32, 2.0 + 3.0 * 2f32.powi(-22), 0.0];
        assert_eq!(max_ulp_f32(&gpu, &reference).unwrap(), 3);
        // Same through views of different layouts: a transposed F-order copy.
        let g2 = array![[1.0_f32, 2.0], [4.0, 8.0]];
        let mut r2 = Array2::<f32>::zeros((2, 2).f());
        r2.assign(&g2);
        r2[[1, 1]] = 8.0 + 2f32.powi(-20); // ulp at 8 is 2^-20: 1 step
        assert_eq!(max_ulp_f32(&g2.view(), &r2.view()).unwrap(), 1);
        // One NaN → MAX; both NaN → 0.
        assert_eq!(
            max_ulp_f32(&array![NAN, 1.0], &array![1.0_f32, 1.0]).unwrap(),
            u64::MAX
        );
        assert_eq!(max_ulp_f32(&array![NAN], &array![NAN]).unwrap(), 0);
        // Empty → 0.
        assert_eq!(
            max_ulp_f32(&Array1::<f32>::zeros(0), &Array1::<f32>::zeros(0)).unwrap(),
            0
        );
        // Shape mismatch.
        let e = max_ulp_f32(&array![1.0_f32, 2.0], &array![1.0_f32]).unwrap_err();
        assert!(
            is_mismatch(&e, "metrics::max_ulp_f32", "reference"),
            "{e:?}"
        );
        let e =
            max_ulp_f32(&Array3::<f32>::zeros((1, 2, 3)), &Array3::zeros((1, 3, 2))).unwrap_err();
        assert!(is_mismatch(&e, "metrics::max_ulp_f32", "reference"));

        // f64: ulp at 4 is 2^-50; 4 + 5·2^-50 is 5 steps.
        let gpu = array![4.0_f64, -1.0];
        let reference = array![4.0 + 5.0 * 2f64.powi(-50), -1.0];
        assert_eq!(max_ulp_f64(&gpu, &reference).unwrap(), 5);
        assert_eq!(
            max_ulp_f64(&Array1::<f64>::zeros(0), &Array1::<f64>::zeros(0)).unwrap(),
            0
        );
        let e = max_ulp_f64(&array![1.0_f64], &array![1.0_f64, 2.0]).unwrap_err();
        assert!(is_mismatch(&e, "metrics::max_ulp_f64", "reference"));
    }

    // ----- forward factor ---------------------------------------------------------------------

    #[test]
    fn forward_factor_hand_values() {
        let one_up = 1.0_f32 + f32::EPSILON;
        // err = 2^-23, EPS·bound = 2^-23·1 → 1.0; bound 2 → 0.5.
        assert_eq!(
            forward_factor(&array![one_up], &array![1.0_f32], &array![1.0]).unwrap(),
            1.0
        );
        assert_eq!(
            forward_factor(&array![one_up], &array![1.0_f32], &array![2.0]).unwrap(),
            0.5
        );
        // Max over elements: element 1 has err = 2^-21 (one ulp at 4), bound 0.5 →
        // 2^-21 / (2^-23 · 2^-1) = 8.
        let gpu = array![one_up, 4.0];
        let reference = array![1.0_f32, 4.0 + 2f32.powi(-21)];
        assert_eq!(
            forward_factor(&gpu, &reference, &array![1.0, 0.5]).unwrap(),
            8.0
        );
        // 2-D, also through views.
        let g = array![[1.0_f32, one_up], [0.0, -2.0]];
        let r = array![[1.0_f32, 1.0], [0.0, -2.0]];
        // 2^-23/(2^-23·4) = 0.25; equal zeros with bound 0 → 0.
        let b = array![[1.0, 4.0], [0.0, 1.0]];
        assert_eq!(forward_factor(&g.view(), &r, &b).unwrap(), 0.25);
        // Empty → 0.
        assert_eq!(
            forward_factor(
                &Array1::<f32>::zeros(0),
                &Array1::<f32>::zeros(0),
                &Array1::<f64>::zeros(0)
            )
            .unwrap(),
            0.0
        );
    }

    #[test]
    fn forward_factor_rules() {
        // Equal values contribute 0, whatever the bound (0, NaN).
        assert_eq!(forward_factor_scalar(NAN, NAN, 1.0), 0.0);
        assert_eq!(forward_factor_scalar(INF, INF, 0.0), 0.0);
        assert_eq!(forward_factor_scalar(-INF, -INF, 1.0), 0.0);
        assert_eq!(forward_factor_scalar(0.0, -0.0, 0.0), 0.0);
        assert_eq!(forward_factor_scalar(3.0, 3.0, f64::NAN), 0.0);
        // One NaN or an infinity → +∞.
        assert_eq!(forward_factor_scalar(NAN, 1.0, 1.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(1.0, NAN, 1.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(INF, f32::MAX, 1e300), f64::INFINITY);
        assert_eq!(forward_factor_scalar(-INF, INF, 1.0), f64::INFINITY);
        // Non-zero error with a zero, negative or NaN bound → +∞.
        assert_eq!(forward_factor_scalar(1.0, 2.0, 0.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(1.0, 2.0, -1.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(1.0, 2.0, f64::NAN), f64::INFINITY);
        // Finite error against an infinite bound → 0.
        assert_eq!(forward_factor_scalar(1.0, 2.0, f64::INFINITY), 0.0);
        // err = 1 (2 vs 1), bound 2^23 → 1/(2^-23·2^23) = 1.
        assert_eq!(forward_factor_scalar(2.0, 1.0, 8_388_608.0), 1.0);
        // Arrays: the rules element by element; the max is +∞, not NaN.
        let f = forward_factor(
            &array![NAN, 1.0, 0.0],
            &array![NAN, 1.0 + f32::EPSILON, -0.0],
            &array![f64::NAN, 1.0, 0.0],
        )
        .unwrap();
        assert_eq!(f, 1.0);
        let f = forward_factor(
            &array![1.0_f32, NAN],
            &array![1.0_f32, 2.0],
            &array![1.0, 1.0],
        )
        .unwrap();
        assert_eq!(f, f64::INFINITY);
        // Shape mismatch, on either argument.
        let e = forward_factor(&array![1.0_f32], &array![1.0_f32, 2.0], &array![1.0]).unwrap_err();
        assert!(is_mismatch(&e, "metrics::forward_factor", "reference"));
        let e = forward_factor(&array![1.0_f32], &array![1.0_f32], &array![1.0, 2.0]).unwrap_err();
        assert!(is_mismatch(&e, "metrics::forward_factor", "bound"));
    }

    #[test]
    fn forward_factor_accepts_fma() {
        // fl(1/3) = 11184811·2^-25, so 3·fl(1/3) = 1 + 2^-25 exactly. Two roundings: the product
        // rounds to 1.0 and 1.0 − 1 = 0; one rounding (FMA): 2^-25. ULP distance is huge, the
        // factor is 2^-25 / (2^-23 · (2 + 2^-25)) ≈ 0.125 (bound = |3·fl(1/3)| + |−1|).
        let (alpha, x, y) = (3.0_f32, 1.0_f32 / 3.0, -1.0_f32);
        let fused = alpha.mul_add(x, y);
        let separate = alpha * x + y;
        assert_eq!(fused, 2f32.powi(-25));
        assert_eq!(separate, 0.0);
        assert!(ulp_distance_f32(fused, separate) > 1 << 20);
        let bound = bounds::axpy(alpha, array![x].view(), array![y].view());
        let f = forward_factor(&array![fused], &array![separate], &bound).unwrap();
        assert!((f - 0.125).abs() < 1e-8, "{f}");
        assert!(spec("saxpy").unwrap().passes(f));
    }

    // ----- backward residual factor -----------------------------------------------------------

    #[test]
    fn backward_residual_factor_hand_values() {
        // |3·2^-23| / (2^-23·1) = 3; |−6·2^-23| / (2^-23·3) = 2 → max 3.
        let r = array![3.0 * EPS, -6.0 * EPS];
        assert_eq!(
            backward_residual_factor(&r, &array![1.0, 3.0]).unwrap(),
            3.0
        );
        // r = 0, bound = 0 → 0 (either sign of zero).
        assert_eq!(
            backward_residual_factor(&array![0.0, -0.0], &array![0.0, 0.0]).unwrap(),
            0.0
        );
        // NaN or ∞ residual → +∞; non-zero residual with zero bound → +∞.
        assert_eq!(
            backward_residual_factor(&array![f64::NAN], &array![1.0]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            backward_residual_factor(&array![f64::NEG_INFINITY], &array![1.0]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            backward_residual_factor(&array![EPS], &array![0.0]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            backward_residual_factor(&Array2::<f64>::zeros((0, 3)), &Array2::<f64>::zeros((0, 3)))
                .unwrap(),
            0.0
        );
        let e = backward_residual_factor(&array![1.0], &array![1.0, 2.0]).unwrap_err();
        assert!(is_mismatch(
            &e,
            "metrics::backward_residual_factor",
            "bound"
        ));
    }

    // ----- residuals --------------------------------------------------------------------------

    #[test]
    fn trsv_residual_all_uplo_trans() {
        // Stored a = [[2, −3], [5, 7]], x = [1, −2]; the unreferenced triangle is NaN.
        let upper = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let lower = array![[2.0_f32, NAN], [5.0, 7.0]];
        let x = array![1.0_f32, -2.0];
        let nu = Diag::NonUnit;
        let check = |uplo, trans, a: &Array2<f32>, b: Array1<f32>, expected: Array1<f64>| {
            let r = trsv_residual(uplo, trans, nu, a.view(), x.view(), b.view()).unwrap();
            assert_eq!(r, expected, "{uplo:?} {trans:?}");
        };
        // Upper, No: T = [[2, −3], [0, 7]], T·x = [2 + 6, −14] = [8, −14]; b = [7, −14] → [1, 0].
        check(
            Uplo::Upper,
            Transpose::No,
            &upper,
            array![8.0, -14.0],
            array![0.0, 0.0],
        );
        check(
            Uplo::Upper,
            Transpose::No,
            &upper,
            array![7.0, -14.0],
            array![1.0, 0.0],
        );
        // Upper, Yes: Tᵀ = [[2, 0], [−3, 7]], Tᵀ·x = [2, −3 − 14] = [2, −17];
        // b = [2, −16] → [0, −1].
        check(
            Uplo::Upper,
            Transpose::Yes,
            &upper,
            array![2.0, -16.0],
            array![0.0, -1.0],
        );
        // Lower, No: T = [[2, 0], [5, 7]], T·x = [2, 5 − 14] = [2, −9].
        check(
            Uplo::Lower,
            Transpose::No,
            &lower,
            array![2.0, -9.0],
            array![0.0, 0.0],
        );
        check(
            Uplo::Lower,
            Transpose::No,
            &lower,
            array![0.0, -9.0],
            array![2.0, 0.0],
        );
        // Lower, Yes: Tᵀ = [[2, 5], [0, 7]], Tᵀ·x = [2 − 10, −14] = [−8, −14];
        // b = [−8, −14.5] → [0, 0.5].
        check(
            Uplo::Lower,
            Transpose::Yes,
            &lower,
            array![-8.0, -14.5],
            array![0.0, 0.5],
        );
        // Unit: the diagonal (NaN) is not read: T = [[1, −3], [0, 1]], T·x = [1 + 6, −2] = [7, −2].
        let unit_upper = array![[NAN, -3.0_f32], [NAN, NAN]];
        let r = trsv_residual(
            Uplo::Upper,
            Transpose::No,
            Diag::Unit,
            unit_upper.view(),
            x.view(),
            array![7.0_f32, -1.0].view(),
        )
        .unwrap();
        assert_eq!(r, array![0.0, -1.0]);
        // Unit, Lower, Yes: T = [[1, 0], [5, 1]], Tᵀ = [[1, 5], [0, 1]],
        // Tᵀ·x = [1 − 10, −2] = [−9, −2].
        let unit_lower = array![[NAN, NAN], [5.0_f32, NAN]];
        let r = trsv_residual(
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            unit_lower.view(),
            x.view(),
            array![-9.0_f32, -2.0].view(),
        )
        .unwrap();
        assert_eq!(r, array![0.0, 0.0]);
    }

    #[test]
    fn trsv_residual_errors() {
        let a = Array2::<f32>::zeros((2, 3));
        let v = Array1::<f32>::zeros(2);
        let e = trsv_residual(
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            v.view(),
            v.view(),
        )
        .unwrap_err();
        assert!(matches!(
            e,
            Error::NotSquare {
                routine: "metrics::trsv_residual",
                arg: "a",
                rows: 2,
                cols: 3
            }
        ));
        let a = Array2::<f32>::eye(2);
        let short = Array1::<f32>::zeros(1);
        let e = trsv_residual(
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            short.view(),
            v.view(),
        )
        .unwrap_err();
        assert!(is_mismatch(&e, "metrics::trsv_residual", "x"));
        let e = trsv_residual(
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            v.view(),
            short.view(),
        )
        .unwrap_err();
        assert!(is_mismatch(&e, "metrics::trsv_residual", "b"));
        // n = 0: empty residual.
        let empty = Array2::<f32>::zeros((0, 0));
        let r = trsv_residual(
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            empty.view(),
            Array1::zeros(0).view(),
            Array1::zeros(0).view(),
        )
        .unwrap();
        assert_eq!(r.len(), 0);
    }

    #[test]
    fn trsm_residual_hand_values() {
        // Left, Upper, No, NonUnit, alpha = 2: T = [[2, −3], [0, 7]], X = [[1, 0], [−2, 1]],
        // T·X = [[2 + 6, −3], [−14, 7]] = [[8, −3], [−14, 7]]. B = T·X / 2 → residual 0;
        // B_01 = −1 instead of −1.5: −3 − 2·(−1) = −1.
        let a = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let x = array![[1.0_f32, 0.0], [-2.0, 1.0]];
        let b = array![[4.0_f32, -1.5], [-7.0, 3.5]];
        let (l, u, n, nu) = (Side::Left, Uplo::Upper, Transpose::No, Diag::NonUnit);
        let r = trsm_residual(l, u, n, nu, 2.0, a.view(), x.view(), b.view()).unwrap();
        assert_eq!(r, Array2::<f64>::zeros((2, 2)));
        let b = array![[4.0_f32, -1.0], [-7.0, 3.5]];
        let r = trsm_residual(l, u, n, nu, 2.0, a.view(), x.view(), b.view()).unwrap();
        assert_eq!(r, array![[0.0, -1.0], [0.0, 0.0]]);

        // Right, Lower, Yes, Unit, alpha = 1: T = [[1, 0], [5, 1]] (diag NaN not read),
        // op(T) = Tᵀ = [[1, 5], [0, 1]], X = [[1, −2]], X·op(T) = [[1, 5 − 2]] = [[1, 3]];
        // B = [[1, 2.5]] → [[0, 0.5]].
        let a = array![[NAN, NAN], [5.0_f32, NAN]];
        let x = array![[1.0_f32, -2.0]];
        let r = trsm_residual(
            Side::Right,
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            1.0,
            a.view(),
            x.view(),
            array![[1.0_f32, 2.5]].view(),
        )
        .unwrap();
        assert_eq!(r, array![[0.0, 0.5]]);

        // Left, Lower, Yes, NonUnit: T = [[2, 0], [−1, 4]], Tᵀ = [[2, −1], [0, 4]],
        // X = [[1], [1]]: Tᵀ·X = [[1], [4]]; alpha = 0.5, B = [[2], [8]] → 0.
        let a = array![[2.0_f32, NAN], [-1.0, 4.0]];
        let r = trsm_residual(
            Side::Left,
            Uplo::Lower,
            Transpose::Yes,
            Diag::NonUnit,
            0.5,
            a.view(),
            array![[1.0_f32], [1.0]].view(),
            array![[2.0_f32], [8.0]].view(),
        )
        .unwrap();
        assert_eq!(r, array![[0.0], [0.0]]);

        // alpha = 0: B (NaN) is not read; X = 0 → residual 0.
        let r = trsm_residual(
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            0.0,
            a.view(),
            Array2::<f32>::zeros((2, 3)).view(),
            Array2::from_elem((2, 3), NAN).view(),
        )
        .unwrap();
        assert_eq!(r, Array2::<f64>::zeros((2, 3)));
    }

    #[test]
    fn trsm_residual_errors() {
        const R: &str = "metrics::trsm_residual";
        let (u, n, nu) = (Uplo::Upper, Transpose::No, Diag::NonUnit);
        let rect = Array2::<f32>::zeros((2, 3));
        let a = Array2::<f32>::eye(2);
        let x23 = Array2::<f32>::zeros((2, 3));
        let e = trsm_residual(
            Side::Left,
            u,
            n,
            nu,
            1.0,
            rect.view(),
            x23.view(),
            x23.view(),
        )
        .unwrap_err();
        assert!(matches!(
            e,
            Error::NotSquare {
                routine: R,
                arg: "a",
                ..
            }
        ));
        // Right with X 2×3: A must be 3×3.
        let e = trsm_residual(Side::Right, u, n, nu, 1.0, a.view(), x23.view(), x23.view())
            .unwrap_err();
        assert!(is_mismatch(&e, R, "x"));
        // Left fits, B of the wrong shape.
        let b32 = Array2::<f32>::zeros((3, 2));
        let e =
            trsm_residual(Side::Left, u, n, nu, 1.0, a.view(), x23.view(), b32.view()).unwrap_err();
        assert!(is_mismatch(&e, R, "b"));
    }

    // ----- bounds, Level 1 --------------------------------------------------------------------

    #[test]
    fn bounds_level1() {
        let x = array![1.0_f32, -3.0];
        let y = array![-4.0_f32, 0.5];
        // axpy, alpha = 2: [|2·1| + 4, |2·(−3)| + 0.5] = [6, 6.5].
        assert_eq!(bounds::axpy(2.0, x.view(), y.view()), array![6.0, 6.5]);
        // alpha = 0: x (NaN) is not read: [4, 0.5].
        let nan_x = array![NAN, NAN];
        assert_eq!(bounds::axpy(0.0, nan_x.view(), y.view()), array![4.0, 0.5]);
        // dot: n·Σ|x_i y_i| = 2·(4 + 1.5) = 11; empty → 0.
        assert_eq!(bounds::dot(x.view(), y.view()), 11.0);
        assert_eq!(
            bounds::dot(Array1::zeros(0).view(), Array1::zeros(0).view()),
            0.0
        );
        // rot, c = 0.5, s = −2: x: [0.5 + 8, 1.5 + 1] = [8.5, 2.5];
        // y: [2 + 2, 0.25 + 6] = [4, 6.25].
        let (bx, by) = bounds::rot(0.5, -2.0, x.view(), y.view());
        assert_eq!(bx, array![8.5, 2.5]);
        assert_eq!(by, array![4.0, 6.25]);
    }

    #[test]
    fn bounds_rotm_all_flags() {
        // param = [flag, h11 = 2, h21 = 3, h12 = 5, h22 = 7], x = [1, −3], y = [−4, 0.5].
        let x = array![1.0_f32, -3.0];
        let y = array![-4.0_f32, 0.5];
        let p = |flag: f32| [flag, 2.0, 3.0, 5.0, 7.0];
        assert_eq!(bounds::rotm_matrix(p(-2.0)), Some([[1.0, 0.0], [0.0, 1.0]]));
        assert_eq!(bounds::rotm_matrix(p(-1.0)), Some([[2.0, 5.0], [3.0, 7.0]]));
        assert_eq!(bounds::rotm_matrix(p(0.0)), Some([[1.0, 5.0], [3.0, 1.0]]));
        assert_eq!(bounds::rotm_matrix(p(1.0)), Some([[2.0, 1.0], [-1.0, 7.0]]));
        assert_eq!(bounds::rotm_matrix(p(2.0)), None);
        assert_eq!(bounds::rotm_matrix(p(-0.5)), None);
        assert_eq!(bounds::rotm_matrix(p(NAN)), None);
        // −2: H = I: (|x|, |y|) = ([1, 3], [4, 0.5]).
        let (bx, by) = bounds::rotm(p(-2.0), x.view(), y.view());
        assert_eq!((bx, by), (array![1.0, 3.0], array![4.0, 0.5]));
        // −1: x: |2x| + |5y| = [2 + 20, 6 + 2.5]; y: |3x| + |7y| = [3 + 28, 9 + 3.5].
        let (bx, by) = bounds::rotm(p(-1.0), x.view(), y.view());
        assert_eq!((bx, by), (array![22.0, 8.5], array![31.0, 12.5]));
        // 0: h11 = h22 = 1, h21 = 3, h12 = 5: x: |x| + |5y| = [21, 5.5]; y: |3x| + |y| = [7, 9.5].
        let (bx, by) = bounds::rotm(p(0.0), x.view(), y.view());
        assert_eq!((bx, by), (array![21.0, 5.5], array![7.0, 9.5]));
        // 1: h11 = 2, h12 = 1, h21 = −1, h22 = 7: x: |2x| + |y| = [6, 6.5];
        // y: |x| + |7y| = [29, 6.5].
        let (bx, by) = bounds::rotm(p(1.0), x.view(), y.view());
        assert_eq!((bx, by), (array![6.0, 6.5], array![29.0, 6.5]));
    }

    #[test]
    #[should_panic(expected = "invalid flag")]
    fn bounds_rotm_invalid_flag_panics() {
        let v = array![1.0_f32];
        let _ = bounds::rotm([3.0, 0.0, 0.0, 0.0, 0.0], v.view(), v.view());
    }

    // ----- bounds, Level 2 --------------------------------------------------------------------

    #[test]
    fn bounds_gemv() {
        // A = [[1, −2], [3, 4]], x = [1, −1], y = [2, 0.5], alpha = 0.5, beta = −2, n = 2.
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let x = array![1.0_f32, -1.0];
        let y = array![2.0_f32, 0.5];
        // No: Σ_j|A_ij||x_j| = [3, 7]; ·(n+1)|alpha| = 1.5 → [4.5, 10.5];
        // + 2|y| = [4, 1] → [8.5, 11.5].
        let b = bounds::gemv(Transpose::No, 0.5, a.view(), x.view(), -2.0, y.view());
        assert_eq!(b, array![8.5, 11.5]);
        // Yes: Aᵀ = [[1, 3], [−2, 4]]: [4, 6]·1.5 = [6, 9] + [4, 1] → [10, 10].
        let b = bounds::gemv(Transpose::Yes, 0.5, a.view(), x.view(), -2.0, y.view());
        assert_eq!(b, array![10.0, 10.0]);
        // 2×3, beta = 0 with y NaN (not read): (3+1)·1·[1+2+3, 4+5+6] = [24, 60].
        let a23 = array![[1.0_f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let ones = array![1.0_f32, 1.0, 1.0];
        let nan_y = array![NAN, NAN];
        let b = bounds::gemv(
            Transpose::No,
            1.0,
            a23.view(),
            ones.view(),
            0.0,
            nan_y.view(),
        );
        assert_eq!(b, array![24.0, 60.0]);
        // alpha = 0 with A NaN (not read): |beta||y| = [2, 0.5]·1 = ...
        let nan_a = Array2::from_elem((2, 2), NAN);
        let b = bounds::gemv(Transpose::No, 0.0, nan_a.view(), x.view(), 1.0, y.view());
        assert_eq!(b, array![2.0, 0.5]);
    }

    #[test]
    fn bounds_symv_reads_one_triangle() {
        // Symmetric A = [[1, −2], [−2, 4]], x = [1, −1], alpha = 0.5, beta = −2, y = [2, 0.5]:
        // Σ_j|A_ij||x_j| = [3, 6]; (n+2)|alpha| = 2 → [6, 12]; 2|beta||y| = [8, 2] → [14, 14].
        let upper = array![[1.0_f32, -2.0], [NAN, 4.0]];
        let lower = array![[1.0_f32, NAN], [-2.0, 4.0]];
        let x = array![1.0_f32, -1.0];
        let y = array![2.0_f32, 0.5];
        let bu = bounds::symv(Uplo::Upper, 0.5, upper.view(), x.view(), -2.0, y.view());
        let bl = bounds::symv(Uplo::Lower, 0.5, lower.view(), x.view(), -2.0, y.view());
        assert_eq!(bu, array![14.0, 14.0]);
        assert_eq!(bl, array![14.0, 14.0]);
    }

    #[test]
    fn bounds_trmv_trsv_all_combos() {
        // Stored a = [[2, −3], [5, 7]], x = [1, −2], n + 1 = 3; unreferenced triangle NaN.
        let upper = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let lower = array![[2.0_f32, NAN], [5.0, 7.0]];
        let x = array![1.0_f32, -2.0];
        let nu = Diag::NonUnit;
        // Upper No: [[2, −3], [0, 7]] → |T||x| = [2 + 6, 14] = [8, 14] → [24, 42].
        let b = bounds::trmv(Uplo::Upper, Transpose::No, nu, upper.view(), x.view());
        assert_eq!(b, array![24.0, 42.0]);
        // Upper Yes: [[2, 0], [−3, 7]] → [2, 3 + 14] → [6, 51].
        let b = bounds::trmv(Uplo::Upper, Transpose::Yes, nu, upper.view(), x.view());
        assert_eq!(b, array![6.0, 51.0]);
        // Lower No: [[2, 0], [5, 7]] → [2, 5 + 14] → [6, 57].
        let b = bounds::trmv(Uplo::Lower, Transpose::No, nu, lower.view(), x.view());
        assert_eq!(b, array![6.0, 57.0]);
        // Lower Yes: [[2, 5], [0, 7]] → [2 + 10, 14] → [36, 42].
        let b = bounds::trmv(Uplo::Lower, Transpose::Yes, nu, lower.view(), x.view());
        assert_eq!(b, array![36.0, 42.0]);
        // Unit, diagonal NaN not read: [[1, −3], [0, 1]] → [1 + 6, 2] → [21, 6].
        let unit = array![[NAN, -3.0_f32], [NAN, NAN]];
        let b = bounds::trmv(
            Uplo::Upper,
            Transpose::No,
            Diag::Unit,
            unit.view(),
            x.view(),
        );
        assert_eq!(b, array![21.0, 6.0]);
        // trsv has the same formula (x = the solution).
        let b = bounds::trsv(Uplo::Lower, Transpose::Yes, nu, lower.view(), x.view());
        assert_eq!(b, array![36.0, 42.0]);
        let b = bounds::trsv(
            Uplo::Upper,
            Transpose::No,
            Diag::Unit,
            unit.view(),
            x.view(),
        );
        assert_eq!(b, array![21.0, 6.0]);
    }

    #[test]
    fn bounds_ger_syr_syr2() {
        // alpha = 0.5, x = [1, −2], y = [4, −6]:
        // |alpha x_i y_j| = 0.5·[[4, 6], [8, 12]] = [[2, 3], [4, 6]].
        let x = array![1.0_f32, -2.0];
        let y = array![4.0_f32, -6.0];
        // ger, A = [[1, −1], [2, −3]]: + |A| → [[3, 4], [6, 9]].
        let a = array![[1.0_f32, -1.0], [2.0, -3.0]];
        assert_eq!(
            bounds::ger(0.5, x.view(), y.view(), a.view()),
            array![[3.0, 4.0], [6.0, 9.0]]
        );
        // ger 2×3, alpha = 0 with x NaN: |A| only.
        let a23 = array![[1.0_f32, -2.0, 3.0], [0.0, 5.0, -6.0]];
        let y3 = array![1.0_f32, 1.0, 1.0];
        assert_eq!(
            bounds::ger(0.0, array![NAN, NAN].view(), y3.view(), a23.view()),
            array![[1.0, 2.0, 3.0], [0.0, 5.0, 6.0]]
        );
        // syr: |alpha x_i x_j| = 0.5·[[1, 2], [2, 4]] = [[0.5, 1], [1, 2]].
        // Upper, A = [[1, −1], [NaN, −3]] → [[1.5, 2], [0, 5]].
        let au = array![[1.0_f32, -1.0], [NAN, -3.0]];
        assert_eq!(
            bounds::syr(Uplo::Upper, 0.5, x.view(), au.view()),
            array![[1.5, 2.0], [0.0, 5.0]]
        );
        // Lower, A = [[1, NaN], [2, −3]] → [[1.5, 0], [3, 5]].
        let al = array![[1.0_f32, NAN], [2.0, -3.0]];
        assert_eq!(
            bounds::syr(Uplo::Lower, 0.5, x.view(), al.view()),
            array![[1.5, 0.0], [3.0, 5.0]]
        );
        // syr2: |alpha y_i x_j| = 0.5·[[4, 8], [6, 12]] = [[2, 4], [3, 6]].
        // Upper: (0,0) 2 + 2 + 1 = 5; (0,1) 3 + 4 + 1 = 8; (1,1) 6 + 6 + 3 = 15.
        assert_eq!(
            bounds::syr2(Uplo::Upper, 0.5, x.view(), y.view(), au.view()),
            array![[5.0, 8.0], [0.0, 15.0]]
        );
        // Lower: (1,0) 4 + 3 + 2 = 9.
        assert_eq!(
            bounds::syr2(Uplo::Lower, 0.5, x.view(), y.view(), al.view()),
            array![[5.0, 0.0], [9.0, 15.0]]
        );
    }

    // ----- bounds, Level 3 --------------------------------------------------------------------

    #[test]
    fn bounds_gemm_and_gemmtr() {
        // A = [[1, −2], [3, 4]], B = [[−1, 2], [0.5, −3]], C = [[1, −1], [2, −4]], alpha = 0.5,
        // beta = −2, k = 2 → (k+1)|alpha| = 1.5, |beta||C| = [[2, 2], [4, 8]].
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let b = array![[-1.0_f32, 2.0], [0.5, -3.0]];
        let c = array![[1.0_f32, -1.0], [2.0, -4.0]];
        let (n, t) = (Transpose::No, Transpose::Yes);
        // |A||B| = [[1 + 1, 2 + 6], [3 + 2, 6 + 12]] = [[2, 8], [5, 18]] → ·1.5 + |beta C|
        // = [[5, 14], [11.5, 35]].
        let g = bounds::gemm(n, n, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[5.0, 14.0], [11.5, 35.0]]);
        // |Aᵀ||B|, Aᵀ = [[1, 3], [−2, 4]]:
        // [[1 + 1.5, 2 + 9], [2 + 2, 4 + 12]] = [[2.5, 11], [4, 16]]
        // → [[3.75 + 2, 16.5 + 2], [6 + 4, 24 + 8]].
        let g = bounds::gemm(t, n, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[5.75, 18.5], [10.0, 32.0]]);
        // |A||Bᵀ|, Bᵀ = [[−1, 0.5], [2, −3]]: [[1 + 4, 0.5 + 6], [3 + 8, 1.5 + 12]]
        // = [[5, 6.5], [11, 13.5]] → [[7.5 + 2, 9.75 + 2], [16.5 + 4, 20.25 + 8]].
        let g = bounds::gemm(n, t, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[9.5, 11.75], [20.5, 28.25]]);
        // Both transposed: |Aᵀ||Bᵀ| = [[1 + 6, 0.5 + 9], [2 + 8, 1 + 12]] = [[7, 9.5], [10, 13]]
        // → [[10.5 + 2, 14.25 + 2], [15 + 4, 19.5 + 8]].
        let g = bounds::gemm(t, t, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[12.5, 16.25], [19.0, 27.5]]);
        // Non-square, beta = 0 with C NaN (not read): 1×3 · 3×1, (k+1) = 4, Σ = 6 → 24.
        let a13 = array![[1.0_f32, -2.0, 3.0]];
        let b31 = array![[1.0_f32], [1.0], [-1.0]];
        let g = bounds::gemm(n, n, 1.0, a13.view(), b31.view(), 0.0, array![[NAN]].view());
        assert_eq!(g, array![[24.0]]);
        // alpha = 0 with A, B NaN (not read): |beta||C|.
        let nan2 = Array2::from_elem((2, 2), NAN);
        let g = bounds::gemm(n, n, 0.0, nan2.view(), nan2.view(), 1.0, c.view());
        assert_eq!(g, array![[1.0, 1.0], [2.0, 4.0]]);
        // k = 0: only |beta||C|.
        let g = bounds::gemm(
            n,
            n,
            1.0,
            Array2::zeros((2, 0)).view(),
            Array2::zeros((0, 2)).view(),
            -2.0,
            c.view(),
        );
        assert_eq!(g, array![[2.0, 2.0], [4.0, 8.0]]);
        // gemmtr Upper, C's lower triangle NaN (not read): the gemm bound on the triangle, 0 below.
        let cu = array![[1.0_f32, -1.0], [NAN, -4.0]];
        let g = bounds::gemmtr(Uplo::Upper, n, n, 0.5, a.view(), b.view(), -2.0, cu.view());
        assert_eq!(g, array![[5.0, 14.0], [0.0, 35.0]]);
        let cl = array![[1.0_f32, NAN], [2.0, -4.0]];
        let g = bounds::gemmtr(Uplo::Lower, n, n, 0.5, a.view(), b.view(), -2.0, cl.view());
        assert_eq!(g, array![[5.0, 0.0], [11.5, 35.0]]);
    }

    #[test]
    fn bounds_syrk() {
        // Upper, No: A = [[1, −2], [3, 4]] (n = k = 2), |A||A|ᵀ = [[5, 11], [11, 25]];
        // (k+1)|alpha| = 1.5 → [[7.5, 16.5], ·, 37.5];
        // + |beta C| (beta = −2, C = [[1, −1], [NaN, −4]]) on the triangle
        // → [[9.5, 18.5], [0, 45.5]].
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let cu = array![[1.0_f32, -1.0], [NAN, -4.0]];
        let s = bounds::syrk(Uplo::Upper, Transpose::No, 0.5, a.view(), -2.0, cu.view());
        assert_eq!(s, array![[9.5, 18.5], [0.0, 45.5]]);
        // Lower, Yes: op(A) = Aᵀ,
        // |Aᵀ||A| = [[1 + 9, 2 + 12], [2 + 12, 4 + 16]] = [[10, 14], [14, 20]]
        // → ·1.5 = [[15, ·], [21, 30]]; C = [[1, NaN], [2, −4]] → [[17, 0], [25, 38]].
        let cl = array![[1.0_f32, NAN], [2.0, -4.0]];
        let s = bounds::syrk(Uplo::Lower, Transpose::Yes, 0.5, a.view(), -2.0, cl.view());
        assert_eq!(s, array![[17.0, 0.0], [25.0, 38.0]]);
        // n = 2, k = 3, No, alpha = 1, beta = 0 (C NaN, not read): A = [[1, 0, 1], [0, 1, 1]],
        // |A||A|ᵀ = [[2, 1], [1, 2]], (k+1) = 4 → Upper [[8, 4], [0, 8]].
        let a23 = array![[1.0_f32, 0.0, 1.0], [0.0, 1.0, 1.0]];
        let nan_c = Array2::from_elem((2, 2), NAN);
        let s = bounds::syrk(
            Uplo::Upper,
            Transpose::No,
            1.0,
            a23.view(),
            0.0,
            nan_c.view(),
        );
        assert_eq!(s, array![[8.0, 4.0], [0.0, 8.0]]);
    }

    #[test]
    fn bounds_syr2k() {
        // Upper, No: A = [[1, −2], [3, 4]], B = [[−1, 2], [0.5, −3]], alpha = 0.5, beta = −2,
        // C = [[1, −1], [NaN, −4]], k = 2: (k+3)|alpha| = 2.5, (k+2)|alpha| = 2, 3|beta C| = 6|C|.
        // |A||B|ᵀ: (0,0) 1 + 4 = 5, (0,1) 0.5 + 6 = 6.5, (1,1) 1.5 + 12 = 13.5.
        // |B||A|ᵀ: (0,0) 1 + 4 = 5, (0,1) 3 + 8 = 11, (1,1) 1.5 + 12 = 13.5.
        // (0,0) 12.5 + 10 + 6 = 28.5; (0,1) 16.25 + 22 + 6 = 44.25; (1,1) 33.75 + 27 + 24 = 84.75.
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let b = array![[-1.0_f32, 2.0], [0.5, -3.0]];
        let cu = array![[1.0_f32, -1.0], [NAN, -4.0]];
        let s = bounds::syr2k(
            Uplo::Upper,
            Transpose::No,
            0.5,
            a.view(),
            b.view(),
            -2.0,
            cu.view(),
        );
        assert_eq!(s, array![[28.5, 44.25], [0.0, 84.75]]);
        // Lower, Yes, k = 1, n = 2: A = [[1, 2]], B = [[3, −4]],
        // op(A) = [[1], [2]], op(B) = [[3], [−4]].
        // |opA||opB|ᵀ = [[3, 4], [6, 8]], |opB||opA|ᵀ = [[3, 6], [4, 8]]; (k+3) = 4, (k+2) = 3,
        // beta = 0 (C NaN): (0,0) 12 + 9 = 21, (1,0) 24 + 12 = 36, (1,1) 32 + 24 = 56.
        let a = array![[1.0_f32, 2.0]];
        let b = array![[3.0_f32, -4.0]];
        let nan_c = Array2::from_elem((2, 2), NAN);
        let s = bounds::syr2k(
            Uplo::Lower,
            Transpose::Yes,
            1.0,
            a.view(),
            b.view(),
            0.0,
            nan_c.view(),
        );
        assert_eq!(s, array![[21.0, 0.0], [36.0, 56.0]]);
    }

    #[test]
    fn bounds_symm() {
        // Left, Upper: A = [[1, −2], [NaN, 4]] (symmetric [[1, −2], [−2, 4]]), B = [[1, 0, −1],
        // [2, 1, 0]], C = [[1, 1, 1], [0, 0, −1]], alpha = 0.5, beta = −2, r = m = 2 → 1.5.
        // |A||B| = [[1 + 4, 0 + 2, 1 + 0], [2 + 8, 0 + 4, 2 + 0]] = [[5, 2, 1], [10, 4, 2]]
        // → [[7.5, 3, 1.5], [15, 6, 3]] + 2|C| = [[9.5, 5, 3.5], [15, 6, 5]].
        let a = array![[1.0_f32, -2.0], [NAN, 4.0]];
        let b = array![[1.0_f32, 0.0, -1.0], [2.0, 1.0, 0.0]];
        let c = array![[1.0_f32, 1.0, 1.0], [0.0, 0.0, -1.0]];
        let s = bounds::symm(
            Side::Left,
            Uplo::Upper,
            0.5,
            a.view(),
            b.view(),
            -2.0,
            c.view(),
        );
        let expected = array![[9.5, 5.0, 3.5], [15.0, 6.0, 5.0]];
        assert_eq!(s, expected);
        // Right, Lower with Bᵀ, Cᵀ: |Bᵀ||A| = (|A||B|)ᵀ (A symmetric), r = n = 2 again → the
        // transpose of the Left result.
        let al = array![[1.0_f32, NAN], [-2.0, 4.0]];
        let s = bounds::symm(Side::Right, Uplo::Lower, 0.5, al.view(), b.t(), -2.0, c.t());
        assert_eq!(s, expected.t());
    }

    #[test]
    fn bounds_trmm() {
        // Left, Upper, No, NonUnit, alpha = 0.5: T = [[2, −3], [0, 7]] (NaN below not read),
        // B = [[1, 0, −1], [−2, 1, 0]], |T||B| = [[2 + 6, 3, 2], [14, 7, 0]]; (m+1)|alpha| = 1.5.
        let a = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let b = array![[1.0_f32, 0.0, -1.0], [-2.0, 1.0, 0.0]];
        let (l, r) = (Side::Left, Side::Right);
        let t = bounds::trmm(
            l,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            0.5,
            a.view(),
            b.view(),
        );
        assert_eq!(t, array![[12.0, 4.5, 3.0], [21.0, 10.5, 0.0]]);
        // Right, Lower, Yes, Unit, alpha = 0.5: T = [[1, 0], [5, 1]] (NaN diagonal and upper not
        // read), op(T) = [[1, 5], [0, 1]], B 3×2 = [[1, −2], [0, 1], [−1, 0]]:
        // |B||op(T)| = [[1, 5 + 2], [0, 1], [1, 5]]; (n+1)|alpha| = 1.5.
        let a = array![[NAN, NAN], [5.0_f32, NAN]];
        let b = array![[1.0_f32, -2.0], [0.0, 1.0], [-1.0, 0.0]];
        let t = bounds::trmm(
            r,
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            0.5,
            a.view(),
            b.view(),
        );
        assert_eq!(t, array![[1.5, 10.5], [0.0, 1.5], [1.5, 7.5]]);
        // alpha = 0: zeros, B (NaN) not read.
        let nan_b = Array2::from_elem((3, 2), NAN);
        let t = bounds::trmm(
            r,
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            0.0,
            a.view(),
            nan_b.view(),
        );
        assert_eq!(t, Array2::<f64>::zeros((3, 2)));
    }

    #[test]
    fn bounds_trsm() {
        // Left, Lower, No, NonUnit: T = [[2, 0], [−1, 4]], X = [[1], [−0.5]]:
        // |T||X| = [2, 1 + 2] = [2, 3]; (m+1) = 3 → [[6], [9]].
        let a = array![[2.0_f32, NAN], [-1.0, 4.0]];
        let x = array![[1.0_f32], [-0.5]];
        let t = bounds::trsm(
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            x.view(),
        );
        assert_eq!(t, array![[6.0], [9.0]]);
        // Right, Upper, Yes, Unit: T = [[1, 3], [0, 1]], op(T) = [[1, 0], [3, 1]], X = [[1, −2]]:
        // |X||op(T)| = [1 + 6, 2]; (n+1) = 3 → [[21, 6]].
        let a = array![[NAN, 3.0_f32], [NAN, NAN]];
        let x = array![[1.0_f32, -2.0]];
        let t = bounds::trsm(
            Side::Right,
            Uplo::Upper,
            Transpose::Yes,
            Diag::Unit,
            a.view(),
            x.view(),
        );
        assert_eq!(t, array![[21.0, 6.0]]);
    }

    #[test]
    fn residual_and_bound_compose() {
        // strsv end to end: Upper No, a = [[2, −3], [NaN, 7]], x = [1, −2] (T·x = [8, −14]),
        // b = [7, −14] → residual [1, 0]; bound = 3·[8, 14] = [24, 42];
        // factor = 1 / (2^-23 · 24) = 2^23 / 24 ≈ 349525.33 — far above 3: a wrong solve fails.
        let a = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let x = array![1.0_f32, -2.0];
        let (u, n, nu) = (Uplo::Upper, Transpose::No, Diag::NonUnit);
        let r = trsv_residual(u, n, nu, a.view(), x.view(), array![7.0_f32, -14.0].view()).unwrap();
        let bound = bounds::trsv(u, n, nu, a.view(), x.view());
        let f = backward_residual_factor(&r, &bound).unwrap();
        assert_eq!(f, 8_388_608.0 / 24.0);
        assert!(!spec("strsv").unwrap().passes(f));
        // Exact solution: factor 0, passes.
        let r = trsv_residual(u, n, nu, a.view(), x.view(), array![8.0_f32, -14.0].view()).unwrap();
        assert_eq!(backward_residual_factor(&r, &bound).unwrap(), 0.0);
        // b_0 one ulp above 8 (8 + 2^-20): residual −2^-20, factor 2^-20 / (2^-23 · 24) = 1/3.
        let b = array![8.0_f32 + 2f32.powi(-20), -14.0];
        let r = trsv_residual(u, n, nu, a.view(), x.view(), b.view()).unwrap();
        assert_eq!(r, array![-(2f64.powi(-20)), 0.0]);
        let f = backward_residual_factor(&r, &bound).unwrap();
        assert!((f - 1.0 / 3.0).abs() < 1e-12, "{f}");
        assert!(spec("strsv").unwrap().passes(f));
    }

    // ----- spec -------------------------------------------------------------------------------

    #[test]
    fn spec_covers_the_table() {
        use Metric::*;
        let table: [(&str, Metric, f64); 26] = [
            ("isamax", ExactIndex, 0.0),
            ("idamax", ExactIndex, 0.0),
            ("scopy", MaxUlp, 0.0),
            ("sswap", MaxUlp, 0.0),
            ("sscal", MaxUlp, 0.0),
            ("sasum", Ulp, 50.0),
            ("snrm2", Ulp, 50.0),
            ("dasum", Ulp64, 64.0),
            ("saxpy", Forward, 1.0),
            ("sdot", Forward, 1.0),
            ("srot", Forward, 1.0),
            ("srotm", Forward, 1.0),
            ("ssymv", Forward, 2.0),
            ("strmv", Forward, 2.0),
            ("sger", Forward, 2.0),
            ("ssyr", Forward, 2.0),
            ("ssyr2", Forward, 2.0),
            ("sgemv", Forward, 4.0),
            ("strsv", BackwardResidual, 3.0),
            ("sgemm", Forward, 1.0),
            ("sgemmtr", Forward, 1.0),
            ("ssyrk", Forward, 1.0),
            ("ssyr2k", Forward, 1.0),
            ("ssymm", Forward, 1.0),
            ("strmm", Forward, 1.0),
            ("strsm", BackwardResidual, 5.0),
        ];
        for (i, (name, metric, threshold)) in table.into_iter().enumerate() {
            assert_eq!(ROUTINES[i], name);
            assert_eq!(spec(name), Some(Spec { metric, threshold }), "{name}");
        }
        let mut sorted = ROUTINES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 26);
        for unknown in ["SGEMM", "dgemm", "sgemm ", "", "caxpy"] {
            assert_eq!(spec(unknown), None, "{unknown:?}");
        }
        let s = spec("sgemv").unwrap();
        assert!(
            s.passes(4.0)
                && !s.passes(4.000_001)
                && !s.passes(f64::NAN)
                && !s.passes(f64::INFINITY)
        );
        assert!(spec("scopy").unwrap().passes(0.0));
        assert!(!spec("scopy").unwrap().passes(u64::MAX as f64));
        assert_eq!(EPS, 2f64.powi(-23));
    }
}
