//! Helpers shared by the Level 3 test modules (sizes, flag lists, symmetric and triangular
//! operands, triangle checks).

// The flag lists and triangle test of every description, one definition each.
pub use crate::describe::level2::{in_triangle, DIAGS, NETLIB_N, TRANS, UPLOS};
pub use crate::describe::level3::SIDES;
use ndarray::Array2;
use rand::rngs::StdRng;
use wgblas::Transpose;
use wgblas::{Diag, GpuMatrix, MatrixLayout, Uplo};

use crate::common::{assert_same, ctx, triangle, Layout, Stored};

/// Netlib test values (sblat3.in): N, alpha, beta.
pub const ALPHAS: [f32; 3] = [0.0, 1.0, 0.7];

/// `x` uploaded as a resident matrix of the shared context, stored column-major when
/// `col_major` (a single row or column is stored row-major: both are the same memory).
pub fn upload(x: &Array2<f32>, col_major: bool) -> GpuMatrix<'static> {
    let m = if col_major {
        x.t().as_standard_layout().into_owned().reversed_axes()
    } else {
        x.as_standard_layout().into_owned()
    };
    let g = ctx().upload_matrix(&m).unwrap();
    if x.nrows() > 1 && x.ncols() > 1 {
        assert_eq!(g.layout() == MatrixLayout::ColMajor, col_major);
    }
    g
}

/// A triangular operand: the `uplo` triangle random with a diagonal of magnitude in
/// [`diag_lo`, `diag_lo` + 1], NaN in the other triangle, and NaN on the diagonal for
/// `Diag::Unit` (neither may be read).
pub fn tri_storage(
    rng: &mut StdRng,
    n: usize,
    uplo: Uplo,
    diag: Diag,
    diag_lo: f32,
) -> Array2<f32> {
    let mut a = triangle(rng, n, uplo, diag_lo);
    if diag == Diag::Unit {
        for i in 0..n {
            a[[i, i]] = f32::NAN;
        }
    }
    a
}

/// The triangular matrix a `tri_storage` stands for, with zeros outside and the unit diagonal
/// written out (for OpenBLAS, which gets no NaN).
pub fn tri_clean(a: &Array2<f32>, uplo: Uplo, diag: Diag) -> Array2<f32> {
    crate::oracle_l2::clean_tri(uplo, diag, a.view())
}

/// `c` with the triangle `uplo` replaced by `tri`'s (the result a triangle routine must give:
/// its other triangle is the input, bit for bit).
pub fn merge_triangle(uplo: Uplo, tri: &Array2<f32>, c: &Array2<f32>) -> Array2<f32> {
    Array2::from_shape_fn(c.dim(), |(i, j)| {
        if in_triangle(uplo, i, j) {
            tri[[i, j]]
        } else {
            c[[i, j]]
        }
    })
}

/// Whether the triangle strictly opposite to `uplo` is bitwise equal in `before` and `after`.
pub fn other_triangle_unchanged(uplo: Uplo, before: &Array2<f32>, after: &Array2<f32>) -> bool {
    before
        .indexed_iter()
        .all(|((i, j), v)| in_triangle(uplo, i, j) || v.to_bits() == after[[i, j]].to_bits())
}

/// One row of [`tri_rules`]: routine, rule, uplo, op(A), alpha, beta, [A, B, C before, C after].
type TriRule = (
    &'static str,
    &'static str,
    Uplo,
    Transpose,
    f32,
    f32,
    [M; 4],
);
type M = Array2<f32>;

/// `routine rule: uplo trans (alpha, beta) A B C => want;` rows of 2×2 hand-computed cases.
macro_rules! tri_table {
    ($($r:literal $rule:literal: $u:ident $t:ident ($al:expr, $be:expr) $a:ident $b:ident $c:ident => $want:tt;)*) => {
        vec![$((
            $r, $rule, Uplo::$u, Transpose::$t, $al, $be,
            [$a.clone(), $b.clone(), $c.clone(), ndarray::array!$want],
        )),*]
    };
}

/// Hand-computed 2×2 cases of the triangle routines: values with the other triangle kept (NaN
/// there), and DESIGN.md §3: k = 0 gives beta·C on the triangle; beta = 0 never reads C (NaN
/// and Inf there); alpha = 0 never reads A or B (all NaN).
fn tri_rules() -> Vec<TriRule> {
    use ndarray::array;
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let (k0, k0t) = (M::zeros((2, 0)), M::zeros((0, 2)));
    let (a, b, eye) = (
        array![[1.0, 2.0], [3.0, 4.0]],
        array![[5.0, 6.0], [7.0, 8.0]],
        M::eye(2),
    );
    let (nan22, nan23) = (M::from_elem((2, 2), nan), M::from_elem((2, 3), nan));
    let (c1234, c0) = (array![[1.0, 2.0], [3.0, 4.0]], M::zeros((2, 2)));
    let (c_up, c_lo) = (
        array![[1.0, nan], [1.0, 1.0]],
        array![[1.0, 1.0], [nan, 1.0]],
    );
    let (c_nan7, c_inf) = (
        array![[nan, 7.0], [nan, nan]],
        array![[nan, inf], [nan, -inf]],
    );
    tri_table! {
        // A·B = [[19, 22], [43, 50]]; I·Bᵀ + B·I = Bᵀ + B = [[2, 5], [5, 8]], and the same for
        // trans = Yes; AᵀA = [[10, 14], [14, 20]].
        "sgemmtr" "values": Lower No (2.0, -1.0) a b c_up => [[37.0, nan], [85.0, 99.0]];
        "ssyr2k" "values": Upper No (2.0, -1.0) eye a c_lo => [[3.0, 9.0], [nan, 15.0]];
        "ssyr2k" "values": Lower Yes (1.0, 0.0) eye a c0 => [[2.0, 0.0], [5.0, 8.0]];
        "ssyrk" "values": Lower Yes (2.0, -1.0) a a c_up => [[19.0, nan], [27.0, 39.0]];
        "sgemmtr" "k = 0": Upper No (1.0, 0.5) k0 k0t c1234 => [[0.5, 1.0], [3.0, 2.0]];
        "ssyr2k" "k = 0": Upper No (1.0, 0.5) k0 k0 c1234 => [[0.5, 1.0], [3.0, 2.0]];
        "ssyrk" "k = 0": Lower No (1.0, 0.5) k0 k0 c1234 => [[0.5, 2.0], [1.5, 2.0]];
        "ssyrk" "k = 0": Lower No (1.0, 0.0) k0 k0 c_nan7 => [[0.0, 7.0], [0.0, 0.0]];
        // A·I = A; I·Aᵀ + A·I = [[2, 5], [5, 8]]; A·Aᵀ = [[5, 11], [11, 25]].
        "sgemmtr" "beta = 0": Lower No (1.0, 0.0) a eye c_inf => [[1.0, inf], [3.0, 4.0]];
        "ssyr2k" "beta = 0": Lower No (1.0, 0.0) eye a c_inf => [[2.0, inf], [5.0, 8.0]];
        "ssyrk" "beta = 0": Upper No (1.0, 0.0) a a c_inf => [[5.0, 11.0], [nan, 25.0]];
        "sgemmtr" "alpha = 0": Upper No (0.0, 2.0) nan22 nan22 c1234 => [[2.0, 4.0], [3.0, 8.0]];
        "ssyr2k" "alpha = 0": Lower No (0.0, 2.0) nan23 nan23 c1234 => [[2.0, 2.0], [6.0, 8.0]];
        "ssyrk" "alpha = 0": Upper No (0.0, 2.0) nan23 nan23 c1234 => [[2.0, 4.0], [3.0, 8.0]];
    }
}

/// The rows of [`tri_rules`] of `routine` (`ssyrk`, `ssyr2k` or `sgemmtr`) under the rules
/// `rules`, each through the BLAS layer with C stored in C and in F order, and (trans = No)
/// through the `_inplace` extension form: C equal to the row's, NaN matching NaN.
pub fn check_tri_rules(routine: &str, rules: &[&str]) {
    use wgblas::{blas, prelude::*};
    let rows: Vec<TriRule> = tri_rules()
        .into_iter()
        .filter(|r| r.0 == routine && rules.contains(&r.1))
        .collect();
    for rule in rules {
        assert!(
            rows.iter().any(|r| r.1 == *rule),
            "{routine}: no case of {rule}"
        );
    }
    for (_, rule, u, t, alpha, beta, [a, b, c, want]) in rows {
        let what = format!("{routine} {rule} {u:?} {t:?}");
        for layout in [Layout::C, Layout::F] {
            let mut sc = Stored::new(&c, layout);
            let (av, bv, cv) = (a.view(), b.view(), sc.view_mut());
            match routine {
                "ssyrk" => blas::ssyrk(ctx(), u, t, alpha, av, beta, cv),
                "ssyr2k" => blas::ssyr2k(ctx(), u, t, alpha, av, bv, beta, cv),
                _ => blas::sgemmtr(ctx(), u, t, t, alpha, av, bv, beta, cv),
            }
            .unwrap();
            assert_same(&sc.to_owned(), &want, &format!("{what} {layout:?}"));
        }
        if t == Transpose::No {
            let mut c = c.clone();
            match routine {
                "ssyrk" => a.gpu_syrk_inplace(u, alpha, beta, &mut c),
                "ssyr2k" => a.gpu_syr2k_inplace(u, alpha, &b, beta, &mut c),
                _ => a.gpu_gemmtr_inplace(u, alpha, &b, beta, &mut c),
            }
            .unwrap();
            assert_same(&c, &want, &format!("{what} extension form"));
        }
    }
}

/// The tests of [`check_tri_rules`] for one triangle routine.
macro_rules! tri_rule_tests {
    ($routine:literal) => {
        #[test]
        fn edge_k_zero_gives_beta_c_on_the_triangle() {
            crate::level3_common::check_tri_rules($routine, &["k = 0"]);
        }

        #[test]
        fn edge_beta_zero_never_reads_c_alpha_zero_never_reads_a_b() {
            crate::level3_common::check_tri_rules($routine, &["beta = 0", "alpha = 0"]);
        }
    };
}
pub(crate) use tri_rule_tests;

/// A C of side² f32 just past one binding (issue 15), its triangle `uplo` in square blocks:
/// `call(p3, p5, C)` updates C = 5 by 2·(a product of p3 and p5) + C, where p3 and p5 are the
/// side×1 columns `i mod 3` and `i mod 5`; the triangle is then `2·prod(i, j) + 5`, the other
/// one 5.
pub fn check_past_one_binding(
    uplo: Uplo,
    call: impl Fn(&M, &M, &mut M) -> wgblas::Result<()>,
    prod: impl Fn(usize, usize) -> usize,
) {
    let side = crate::common::side_past_one_binding();
    let p3 = M::from_shape_fn((side, 1), |(i, _)| (i % 3) as f32);
    let p5 = M::from_shape_fn((side, 1), |(i, _)| (i % 5) as f32);
    let mut c = M::from_elem((side, side), 5.0);
    call(&p3, &p5, &mut c).unwrap();
    let want = |i, j| match in_triangle(uplo, i, j) {
        true => 2.0 * prod(i, j) as f32 + 5.0,
        false => 5.0,
    };
    assert!(c.indexed_iter().all(|((i, j), &v)| v == want(i, j)));
}
