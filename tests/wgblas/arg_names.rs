//! Which argument a shape error names where one dimension is shared by three operands (the
//! order of ssymv's A, x and y; the rows of ssymm's A, B and C; the batch of sgemm_batched's
//! A, B and C; n of ssyr2k's and sgemmtr's A, B and C): the one that disagrees with the other
//! two, each operand in turn (an outside probe: dsymm with A 3×3, B 2×2, C 3×2 named `a`, and
//! dgemm_batched with A and B of batch 2, C of batch 3 named `a`). The output is left as it was.

use ndarray::{Array1, Array2, Array3};
use wgblas::{blas, Error, Side, Transpose::No, Uplo};

use crate::common::ctx;
use crate::describe::assert_named;

const DM: &str = "DimensionMismatch";

fn m(r: usize, c: usize) -> Array2<f64> {
    Array2::ones((r, c))
}

/// `err` names `arg` and `out` still holds 7 everywhere.
fn names<'a>(err: Error, routine: &str, arg: &str, out: impl IntoIterator<Item = &'a f64>) {
    assert_named(&err, (DM, routine, arg));
    assert!(
        out.into_iter().all(|&v| v == 7.0),
        "{routine}: output written"
    );
}

#[test]
fn symm_names_the_operand_that_disagrees() {
    // Left: the order of A, the rows of B and of C (3 each but for the odd one).
    let cases = [((3, 3), (2, 2), (3, 2), "b"), ((2, 2), (3, 2), (3, 2), "a")];
    for (a, b, c, arg) in cases {
        let mut cm = Array2::from_elem(c, 7.0);
        let (am, bm) = (m(a.0, a.1), m(b.0, b.1));
        let err = blas::dsymm(
            ctx(),
            Side::Left,
            Uplo::Lower,
            1.0,
            am.view(),
            bm.view(),
            0.0,
            cm.view_mut(),
        );
        names(err.unwrap_err(), "dsymm", arg, &cm);
    }
    let mut cm = Array2::from_elem((2, 2), 7.0);
    let err = blas::dsymm(
        ctx(),
        Side::Left,
        Uplo::Lower,
        1.0,
        m(3, 3).view(),
        m(3, 2).view(),
        0.0,
        cm.view_mut(),
    );
    names(err.unwrap_err(), "dsymm", "c", &cm);
    // Right: the order of A, the columns of B and of C.
    let mut cm = Array2::from_elem((2, 3), 7.0);
    let err = blas::dsymm(
        ctx(),
        Side::Right,
        Uplo::Upper,
        1.0,
        m(3, 3).view(),
        m(2, 2).view(),
        0.0,
        cm.view_mut(),
    );
    names(err.unwrap_err(), "dsymm", "b", &cm);
    let mut cm = Array2::from_elem((2, 3), 7.0f32);
    let (a, b) = (Array2::<f32>::ones((2, 2)), Array2::<f32>::ones((2, 3)));
    let err = blas::ssymm(
        ctx(),
        Side::Right,
        Uplo::Upper,
        1.0,
        a.view(),
        b.view(),
        0.0,
        cm.view_mut(),
    );
    assert_named(&err.unwrap_err(), (DM, "ssymm", "a"));
}

#[test]
fn batched_names_the_operand_whose_batch_disagrees() {
    let cases = [(2, 2, 3, "c"), (3, 2, 2, "a"), (2, 3, 2, "b")];
    for (ba, bb, bc, arg) in cases {
        let (a, b) = (
            Array3::<f64>::ones((ba, 2, 2)),
            Array3::<f64>::ones((bb, 2, 2)),
        );
        let mut c = Array3::from_elem((bc, 2, 2), 7.0);
        let err = blas::dgemm_batched(ctx(), No, No, 1.0, a.view(), b.view(), 0.0, c.view_mut());
        names(err.unwrap_err(), "dgemm_batched", arg, &c);
    }
}

#[test]
fn triangle_products_name_the_operand_whose_n_disagrees() {
    // ssyr2k: op(A) n×k, op(B) n×k, C n×n.
    let cases = [
        ((3, 2), (2, 2), 3, "b"),
        ((2, 2), (3, 2), 3, "a"),
        ((2, 2), (2, 2), 3, "c"),
    ];
    for (a, b, n, arg) in cases {
        let mut c = Array2::from_elem((n, n), 7.0);
        let (am, bm) = (m(a.0, a.1), m(b.0, b.1));
        let err = blas::dsyr2k(
            ctx(),
            Uplo::Upper,
            No,
            1.0,
            am.view(),
            bm.view(),
            0.0,
            c.view_mut(),
        );
        names(err.unwrap_err(), "dsyr2k", arg, &c);
    }
    // sgemmtr: op(A) n×k, op(B) k×n, C n×n.
    let cases = [
        ((3, 2), (2, 2), 3, "b"),
        ((2, 2), (2, 3), 3, "a"),
        ((2, 2), (2, 2), 3, "c"),
    ];
    for (a, b, n, arg) in cases {
        let mut c = Array2::from_elem((n, n), 7.0);
        let (am, bm) = (m(a.0, a.1), m(b.0, b.1));
        let err = blas::dgemmtr(
            ctx(),
            Uplo::Lower,
            No,
            No,
            1.0,
            am.view(),
            bm.view(),
            0.0,
            c.view_mut(),
        );
        names(err.unwrap_err(), "dgemmtr", arg, &c);
    }
}

#[test]
fn symv_and_syr2_name_the_operand_whose_order_disagrees() {
    // (order of A, len x, len y, the odd one).
    let cases = [(3, 2, 3, "x"), (3, 3, 2, "y"), (2, 3, 3, "a")];
    for (n, nx, ny, arg) in cases {
        let (a, x) = (m(n, n), Array1::<f64>::ones(nx));
        let mut y = Array1::from_elem(ny, 7.0);
        let err = blas::dsymv(
            ctx(),
            Uplo::Lower,
            1.0,
            a.view(),
            x.view(),
            0.0,
            y.view_mut(),
        );
        names(err.unwrap_err(), "dsymv", arg, y.view());
        let (x, y) = (Array1::<f64>::ones(nx), Array1::<f64>::ones(ny));
        let mut a = Array2::from_elem((n, n), 7.0);
        let err = blas::dsyr2(ctx(), Uplo::Upper, 1.0, x.view(), y.view(), a.view_mut());
        names(err.unwrap_err(), "dsyr2", arg, a.view());
    }
}
