//! What the Level 2 descriptions share: the netlib values and sizes, random operands in either
//! element type (symmetric and triangular ones with NaN where the routine must not read), and
//! the grid of cases.

use ndarray::{Array1, Array2};
use rand::rngs::StdRng;
use rand::Rng;
use wgblas::{Diag, Transpose, Uplo};

use super::{Case, Elem};
use crate::common::{Layout, VLayout, LAYOUTS};

pub const UPLOS: [Uplo; 2] = [Uplo::Upper, Uplo::Lower];
pub const TRANS: [Transpose; 2] = [Transpose::No, Transpose::Yes];
pub const DIAGS: [Diag; 2] = [Diag::NonUnit, Diag::Unit];
/// Netlib `sblat2` dimensions.
pub const NETLIB_N: [usize; 6] = [0, 1, 2, 3, 5, 9];
/// Netlib `sblat2` alpha and beta values.
pub const NETLIB_ALPHA: [f64; 3] = [0.0, 1.0, 0.7];
pub const NETLIB_BETA: [f64; 3] = [0.0, 1.0, 0.9];
/// Sizes for the fixtures: small ones, the 64-row block of strsv and the 256-wide workgroup
/// edges of the matrix-vector kernels (kept ≤ 130 for lavapipe).
pub const SIZES: [usize; 14] = [0, 1, 2, 3, 5, 9, 15, 16, 17, 63, 64, 65, 128, 129];
/// The sizes and (alpha, beta) pairs of the f64 suite: several diagonal blocks, both signs.
pub const WIDE_N: [usize; 6] = [1, 2, 7, 33, 65, 130];
pub const WIDE_SCALARS: [(f64, f64); 4] = [(1.0, 0.0), (0.7, 0.9), (0.0, 0.9), (-1.3, 1.0)];

/// (incx, incy) pairs of netlib values {1, 2, −1, −2}: every stride appears for x and for y.
pub const VPAIRS: [(VLayout, VLayout); 4] = [
    (VLayout::Unit, VLayout::Unit),
    (VLayout::Step2, VLayout::Reversed),
    (VLayout::Reversed, VLayout::ReversedStep2),
    (VLayout::ReversedStep2, VLayout::Step2),
];

pub fn in_triangle(uplo: Uplo, i: usize, j: usize) -> bool {
    match uplo {
        Uplo::Upper => i <= j,
        Uplo::Lower => i >= j,
    }
}

pub fn random_vec<T: Elem>(r: &mut StdRng, n: usize) -> Array1<T> {
    Array1::from_shape_simple_fn(n, || T::value(r))
}

pub fn random_mat<T: Elem>(r: &mut StdRng, m: usize, n: usize) -> Array2<T> {
    Array2::from_shape_simple_fn((m, n), || T::value(r))
}

/// `n` NaN (an output that must not be read), or `n` random values.
pub fn nan_or_rand<T: Elem>(r: &mut StdRng, n: usize, nan: bool) -> Array1<T> {
    if nan {
        Array1::from_elem(n, T::nan())
    } else {
        random_vec(r, n)
    }
}

/// A random n×n matrix with NaN outside triangle `uplo` (the part a symmetric routine must
/// never read).
pub fn sym_stored<T: Elem>(r: &mut StdRng, n: usize, uplo: Uplo) -> Array2<T> {
    let mut a = random_mat(r, n, n);
    a.indexed_iter_mut()
        .filter(|((i, j), _)| !in_triangle(uplo, *i, *j))
        .for_each(|(_, v)| *v = T::nan());
    a
}

/// A triangular matrix: off-diagonal entries `scale·value()` in triangle `uplo`, a diagonal of
/// magnitude in [`diag_lo`, `diag_lo` + 1] (random sign), NaN outside the triangle, and NaN on
/// the diagonal for `Diag::Unit` (which must never read it).
pub fn tri_stored<T: Elem>(
    r: &mut StdRng,
    n: usize,
    uplo: Uplo,
    diag: Diag,
    diag_lo: f64,
    scale: f64,
) -> Array2<T> {
    let (lo, scale) = (T::from_f64(diag_lo).to_f64(), T::from_f64(scale).to_f64());
    Array2::from_shape_fn((n, n), |(i, j)| {
        if i == j {
            let v = T::from_f64(lo + T::unit(r).to_f64());
            let v = if r.random_bool(0.5) {
                T::from_f64(-v.to_f64())
            } else {
                v
            };
            if diag == Diag::Unit {
                T::nan()
            } else {
                v
            }
        } else if in_triangle(uplo, i, j) {
            T::from_f64(T::value(r).to_f64() * scale)
        } else {
            T::nan()
        }
    })
}

/// The full symmetric matrix stored in triangle `uplo` of `a`.
pub fn full_sym<T: Elem>(uplo: Uplo, a: &Array2<T>) -> Array2<T> {
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        if in_triangle(uplo, i, j) {
            a[[i, j]]
        } else {
            a[[j, i]]
        }
    })
}

/// The triangle `uplo` of `a` with zeros elsewhere and, for `Diag::Unit`, ones on the diagonal.
pub fn clean_tri<T: Elem>(uplo: Uplo, diag: Diag, a: &Array2<T>) -> Array2<T> {
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        if i == j && diag == Diag::Unit {
            T::from_f64(1.0)
        } else if in_triangle(uplo, i, j) {
            a[[i, j]]
        } else {
            T::from_f64(0.0)
        }
    })
}

/// The flags a routine takes: every combination of those it varies.
pub fn flags(uplo: bool, trans: bool, diag: bool) -> Vec<(Uplo, Transpose, Diag)> {
    let us: &[Uplo] = if uplo { &UPLOS } else { &UPLOS[..1] };
    let ts: &[Transpose] = if trans { &TRANS } else { &TRANS[..1] };
    let ds: &[Diag] = if diag { &DIAGS } else { &DIAGS[..1] };
    let mut out = Vec::new();
    for &u in us {
        for &t in ts {
            for &d in ds {
                out.push((u, t, d));
            }
        }
    }
    out
}

/// Every combination of shapes, flags, (alpha, beta), matrix layouts and vector layouts; the
/// seed of a case is `seed(m, n)`.
pub fn grid(
    shapes: &[(usize, usize)],
    flags: &[(Uplo, Transpose, Diag)],
    scalars: &[(f64, f64)],
    layouts: &[Layout],
    vpairs: &[(VLayout, VLayout)],
    seed: impl Fn(usize, usize) -> u64,
) -> Vec<Case> {
    let mut out = Vec::new();
    for &la in layouts {
        for &(m, n) in shapes {
            for &(u, t, d) in flags {
                for &(alpha, beta) in scalars {
                    for &(lx, ly) in vpairs {
                        out.push(
                            Case::new(seed(m, n), m, n)
                                .flags(u, t, d)
                                .scalars(alpha, beta)
                                .layouts(la, lx, ly),
                        );
                    }
                }
            }
        }
    }
    out
}

/// Every (alpha, beta) pair of the netlib values (beta 0 alone where the routine has none).
pub fn netlib_scalars(beta: bool) -> Vec<(f64, f64)> {
    let betas: &[f64] = if beta { &NETLIB_BETA } else { &[0.0] };
    NETLIB_ALPHA
        .iter()
        .flat_map(|&a| betas.iter().map(move |&b| (a, b)))
        .collect()
}

/// The netlib square shapes, and (with `rect`) the rectangular ones of the general routines.
pub fn netlib_shapes(rect: bool) -> Vec<(usize, usize)> {
    let mut shapes: Vec<(usize, usize)> = NETLIB_N.iter().map(|&n| (n, n)).collect();
    if rect {
        shapes.extend([(0, 3), (3, 0), (2, 9), (9, 5)]);
    }
    shapes
}

/// 1138_bus densified (`oracle_l2::bus_1138`, 1138×1138) as the A of a Level 2 description,
/// with random x and y (seed 1138): each case (its flags, scalars and layouts; m and n are A's
/// order) checked against OpenBLAS on it, in f32. Where `nan_other`, the triangle outside the
/// case's `uplo` is NaN, so that reading it would show.
pub fn real_data<R: super::Routine>(nan_other: bool, cases: &[Case]) {
    let a = crate::oracle_l2::bus_1138();
    let n = a.nrows();
    let mut r = crate::common::rng(1138);
    let (x, y) = (random_vec::<f32>(&mut r, n), random_vec::<f32>(&mut r, n));
    for c in cases {
        let mut a = a.clone();
        if nan_other {
            a.indexed_iter_mut()
                .filter(|((i, j), _)| !in_triangle(c.uplo, *i, *j))
                .for_each(|(_, v)| *v = f32::NAN);
        }
        let o = super::Ops::vecs(a, x.clone(), y.clone());
        super::check_ops::<R, f32>(&Case { m: n, n, ..*c }, &o);
    }
}

/// The cases of a real-data test: A from its triangle `uplo` (each of `uplos`) in C and in F
/// order, the scalars `alpha`, beta = 0, x contiguous and y stored as `ly`.
pub fn real_data_cases(uplos: &[Uplo], alpha: f64, ly: VLayout) -> Vec<Case> {
    let mut cases = Vec::new();
    for &uplo in uplos {
        for la in [Layout::C, Layout::F] {
            let c = Case::new(0, 0, 0).flags(uplo, Transpose::No, Diag::NonUnit);
            cases.push(c.scalars(alpha, 0.0).layouts(la, VLayout::Unit, ly));
        }
    }
    cases
}

/// The edge grid of syr and syr2 (x and y stored as `vs`): the netlib shapes and alphas in C
/// and F order, n = 65 in every layout, and the wide sizes with strided vectors.
pub fn rank_update_edges(vs: &[(VLayout, VLayout)]) -> Vec<Case> {
    let fl = flags(true, false, false);
    let c_f = [Layout::C, Layout::F];
    let alphas: Vec<_> = NETLIB_ALPHA.iter().map(|&a| (a, 0.0)).collect();
    let mut v = grid(&netlib_shapes(false), &fl, &alphas, &c_f, vs, |n, _| {
        n as u64
    });
    v.extend(grid(
        &[(65, 65)],
        &fl,
        &[(0.7, 0.0)],
        &LAYOUTS,
        vs,
        |_, _| 2,
    ));
    let wide: Vec<_> = WIDE_N.iter().map(|&n| (n, n)).collect();
    let steps = [(VLayout::Step2, VLayout::Reversed)];
    let scalars = [(1.0, 0.0), (-0.7, 0.0)];
    v.extend(grid(&wide, &fl, &scalars, &LAYOUTS, &steps, |m, _| {
        m as u64 + 9
    }));
    v
}

/// The random space of syr and syr2: the order from [`SIZES`], either triangle, a random
/// alpha, any stored layout of A, any stride of x, and y's stride from `ly`.
pub fn symmetric_rank_space(
    ly: proptest::strategy::BoxedStrategy<VLayout>,
) -> proptest::strategy::BoxedStrategy<Case> {
    use super::{pick, scalar};
    use crate::common::VLAYOUTS;
    use proptest::prelude::*;
    let dims = (any::<u64>(), pick(&SIZES), pick(&UPLOS));
    let rest = (scalar(), pick(&LAYOUTS), pick(&VLAYOUTS), ly);
    (dims, rest)
        .prop_map(|((seed, n, u), (alpha, la, lx, ly))| {
            Case::new(seed, n, n)
                .flags(u, Transpose::No, Diag::NonUnit)
                .scalars(alpha.into(), 0.0)
                .layouts(la, lx, ly)
        })
        .boxed()
}

/// The exact update of element (i, j) of a rank update (`routine`: `ger`, `syr` or `syr2`),
/// for f32 or f64 operands given as f64: `(s, c, p)`, the update held as the unevaluated sum
/// `s + c` (its error-free terms summed by Ogita, Rump and Oishi's Sum2: within about
/// 2^-101·(|A_ij| + p) of the exact value) and `p`, the products' magnitude. Each product
/// u·(alpha·v) is expanded exactly into four f64 by TwoProduct (fused multiply-adds on the
/// host).
pub fn exact_update(
    routine: &str,
    aij: f64,
    alpha: f64,
    (xi, xj): (f64, f64),
    (yi, yj): (f64, f64),
) -> (f64, f64, f64) {
    let two_prod = |a: f64, b: f64| {
        let p = a * b;
        (p, a.mul_add(b, -p))
    };
    let mut terms = vec![aij];
    let mut p = 0.0;
    let mut add = |u: f64, v: f64| {
        let (t, e) = two_prod(alpha, v);
        let (q, f) = two_prod(u, t);
        let (g, h) = two_prod(u, e);
        terms.extend([q, f, g, h]);
        p += (alpha * u * v).abs();
    };
    match routine {
        "ger" => add(xi, yj),
        "syr" => add(xi, xj),
        _ => {
            add(xi, yj);
            add(yi, xj);
        }
    }
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for t in terms {
        let u = s + t;
        let z = u - s;
        c += (s - (u - z)) + (t - z);
        s = u;
    }
    (s, c, p)
}

/// The rank updates (`routine`: `ger`, `syr` or `syr2`, in `T`) evaluate each element in
/// double-f32 (double-f64) and round once (documented in wgsl/level2/rank_update.wgsl): on
/// random data, within half an ulp of the exact update ([`exact_update`]), a factor within
/// `metrics::bounds::ROUNDED_ONCE` against it. A of 128×64 and 129×65 (`ger`) or of order 128
/// and 129 (so on vec4 units and on the one-element kernel), each triangle, C and F order, the
/// alphas 1.5649561, -0.7 and 1e-3.
pub fn check_rounded_once<T: Elem>(routine: &str) {
    use crate::common::{ctx, rng, Stored};
    use wgblas::metrics::bounds;
    let name = format!("{}{routine}", T::P);
    let eps = if T::P == 'd' {
        wgblas::metrics::EPS64
    } else {
        wgblas::metrics::EPS
    };
    let mut worst: f64 = 0.0;
    for (seed, alpha) in [(1u64, 1.5649561f32), (2, -0.7), (3, 1e-3)] {
        let alpha = T::from_f64(f64::from(alpha));
        for (m, n) in [(128, 64), (129, 65)] {
            let (m, n) = if routine == "ger" { (m, n) } else { (m, m) };
            let mut r = rng(seed);
            let a = random_mat::<T>(&mut r, m, n);
            let x = random_vec::<T>(&mut r, m);
            let y = random_vec::<T>(&mut r, if routine == "syr" { m } else { n });
            let uplos = match routine {
                "ger" => vec![None],
                _ => UPLOS.map(Some).to_vec(),
            };
            let (a64, x64, y64) = (a.mapv(T::to_f64), x.mapv(T::to_f64), y.mapv(T::to_f64));
            let al = alpha.to_f64();
            for uplo in uplos {
                let (xv, yv) = (x.view(), y.view());
                let (x6, y6, a6) = (x64.view(), y64.view(), a64.view());
                let bound = match (routine, uplo) {
                    ("ger", _) => bounds::ger(al, x6, y6, a6),
                    ("syr", Some(u)) => bounds::syr(u, al, x6, a6),
                    (_, u) => bounds::syr2(u.unwrap(), al, x6, y6, a6),
                };
                for layout in [Layout::C, Layout::F] {
                    let mut sa = Stored::new(&a, layout);
                    let av = sa.view_mut();
                    match (routine, uplo) {
                        ("ger", _) => T::ger(ctx(), alpha, xv, yv, av),
                        ("syr", Some(u)) => T::syr(ctx(), u, alpha, xv, av),
                        (_, u) => T::syr2(ctx(), u.unwrap(), alpha, xv, yv, av),
                    }
                    .unwrap();
                    for ((i, j), &g) in sa.to_owned().indexed_iter() {
                        if uplo.is_some_and(|u| !in_triangle(u, i, j)) {
                            continue;
                        }
                        // ger reads only x_i and y_j (A may be m×n with m ≠ n).
                        let (xs, ys) = match routine {
                            "ger" => ((x64[i], 0.0), (0.0, y64[j])),
                            _ => ((x64[i], x64[j]), (y64[i], y64[j])),
                        };
                        let (s, c, _) = exact_update(routine, a64[[i, j]], al, xs, ys);
                        let err = ((g.to_f64() - s) - c).abs();
                        worst = worst.max(err / (eps * bound[[i, j]]));
                    }
                }
            }
        }
    }
    println!("{name} against the exact update: worst factor {worst:.4}");
    assert!(
        worst <= bounds::ROUNDED_ONCE,
        "{name} not rounded once: factor {worst} against the exact update"
    );
}

/// The rank updates under cancellation (`routine`: `ger`, `syr` or `syr2`, in `T`): each
/// element of a random 16×16 and 17×17 A (C order: `main_rows` and the one-element kernel in
/// f32, `main_vec4` and `main` in f64) set to minus the plain formula's product, so that the
/// update nearly cancels, must lie within the documented `½·ulp(v) + 2^-44·(|v| + P)` of the
/// exact update v (f32; `P = |alpha·x_i·y_j| (+ |alpha·y_i·x_j|)`), or `½·ulp(v) +
/// 2^-100·(|v| + P)` in f64, whose documented 2^-102 this widens by the reference's own error
/// ([`exact_update`]: up to about 2^-101·P here).
pub fn check_cancellation<T: Elem>(routine: &str) {
    use crate::common::{ctx, rng};
    let (digits, slack) = if T::P == 'd' { (53, -100) } else { (24, -44) };
    let mut worst: f64 = 0.0;
    for n in [16usize, 17] {
        for seed in 0..10u64 {
            let mut r = rng(seed + 100 * n as u64);
            let x = random_vec::<T>(&mut r, n);
            let y = random_vec::<T>(&mut r, n);
            let alpha = T::value(&mut r);
            let (x64, y64, al) = (x.mapv(T::to_f64), y.mapv(T::to_f64), alpha.to_f64());
            // The plain formula's product in T (each operation rounded to T), negated into A.
            let fl = |v: f64| T::from_f64(v).to_f64();
            let plain = |u: f64, v: f64| fl(u * fl(al * v));
            let a = Array2::from_shape_fn((n, n), |(i, j)| {
                T::from_f64(-match routine {
                    "ger" => plain(x64[i], y64[j]),
                    "syr" => plain(x64[i], x64[j]),
                    _ => fl(plain(x64[i], y64[j]) + plain(y64[i], x64[j])),
                })
            });
            let uplo = Uplo::Lower;
            let mut got = a.clone();
            match routine {
                "ger" => T::ger(ctx(), alpha, &x, &y, &mut got),
                "syr" => T::syr(ctx(), uplo, alpha, &x, &mut got),
                _ => T::syr2(ctx(), uplo, alpha, &x, &y, &mut got),
            }
            .unwrap();
            for ((i, j), g) in got.indexed_iter() {
                if routine != "ger" && !in_triangle(uplo, i, j) {
                    continue;
                }
                let (xs, ys) = ((x64[i], x64[j]), (y64[i], y64[j]));
                let (s, c, p) = exact_update(routine, a[[i, j]].to_f64(), al, xs, ys);
                let v = s + c;
                let ulp = 2f64.powf(v.abs().log2().floor() - f64::from(digits - 1));
                let allowed = 0.5 * ulp + 2f64.powi(slack) * (v.abs() + p);
                let err = ((g.to_f64() - s) - c).abs();
                worst = worst.max(err / allowed);
            }
        }
    }
    println!(
        "{}{routine} under cancellation: worst error {worst:.3} of the documented bound",
        T::P
    );
    assert!(
        worst <= 1.0,
        "{}{routine}: {worst} times the documented error under cancellation",
        T::P
    );
}
