//! strsm and dtrsm with the row-parallel block solve (`Tuning::trsm_rows`, entry
//! `block_solve_rows`: the rows of a diagonal block spread over a workgroup, one barrier per
//! row), pinned by the tuning override (thread-local): every edge of the description
//! (`trsm::Trsm`) and the block orders against OpenBLAS with strsm's backward-residual
//! threshold, in f32 and f64; then bit-equality with the column-oriented block solve
//! (`block_solve`), whose operations it performs in the same order, special values included.

use wgblas::tuning::{set_tuning, Tuning};
use wgblas::{blas, Side, Transpose};

use crate::common::*;
use crate::describe::{self, Routine};
use crate::level3_common::*;
use crate::trsm::{block_cases, operand, Trsm};
use wgblas::Diag::{NonUnit, Unit};

/// Pin the row-parallel block solve on blocks of `rows` rows (`Some(32 | 64 | 128)`; `None`:
/// the default, 32) or the per-column one (`Some(0)`) on this thread.
fn pin(rows: Option<u32>) {
    set_tuning(Some(Tuning {
        trsm_rows: rows,
        ..Tuning::default()
    }));
}

/// Orders across the blocks of 32, 64 and 128 rows (one block, partial ones, several with
/// engine updates; 16, 31 and 17 rows in a block's last column chunk of L) and right-hand
/// sides across the 8, 4 and 2 columns of a workgroup.
const ORDERS: [(usize, usize); 6] = [(31, 1), (33, 9), (70, 7), (129, 16), (150, 3), (271, 5)];

/// Every edge of the description (well and ill conditioned triangles, every flag and layout,
/// the netlib values) and [`ORDERS`], both sides, in f32 and f64, on blocks of 32 (every edge),
/// 64 and 128 rows ([`ORDERS`] and the edges past 64).
#[test]
fn edge_row_parallel_block_solve_every_edge_f32_and_f64() {
    for nr in [32, 64, 128] {
        pin(Some(nr));
        for c in &Trsm::edges() {
            if nr == 32 || c.m.max(c.n) > 64 {
                describe::check::<Trsm, f32>(c);
                describe::check::<Trsm, f64>(c);
            }
        }
        for c in block_cases(12 + u64::from(nr), &ORDERS, [Layout::C, Layout::F]) {
            describe::check::<Trsm, f32>(&c);
            describe::check::<Trsm, f64>(&c);
        }
        set_tuning(None);
    }
}

/// On blocks of 32 rows, bit for bit the per-column solve's result: both sides, triangles, transposes and diagonals,
/// C and F order, with a NaN and an Inf in B and alpha 1, 0.5, NaN and Inf (NaN compared as
/// NaN).
#[test]
fn row_parallel_block_solve_equals_column_solve() {
    let mut r = rng(13);
    for (order, rhs) in [(33, 9), (70, 13)] {
        for side in [Side::Left, Side::Right] {
            for uplo in UPLOS {
                for trans in [Transpose::No, Transpose::Yes] {
                    for diag in [NonUnit, Unit] {
                        let a = operand(&mut r, order, uplo, diag, false);
                        let shape = if side == Side::Left {
                            (order, rhs)
                        } else {
                            (rhs, order)
                        };
                        let mut b0 = rand_mat(&mut r, shape.0, shape.1);
                        b0[[3, 2]] = f32::NAN;
                        b0[[shape.0 - 2, shape.1 - 1]] = f32::INFINITY;
                        for alpha in [1.0, 0.5, f32::NAN, f32::INFINITY] {
                            for f_order in [false, true] {
                                let run = |rows: Option<u32>| {
                                    pin(rows);
                                    let mut b = Mat::new(&b0, layout(f_order));
                                    let res = blas::strsm(
                                        ctx(),
                                        side,
                                        uplo,
                                        trans,
                                        diag,
                                        alpha,
                                        a.view(),
                                        b.view_mut(),
                                    );
                                    set_tuning(None);
                                    res.unwrap();
                                    b.to_owned()
                                };
                                let (rows, cols) = (run(Some(32)), run(Some(0)));
                                let same = |x: &f32, y: &f32| {
                                    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
                                };
                                assert!(
                                    rows.iter().zip(&cols).all(|(x, y)| same(x, y)),
                                    "{order}x{rhs} {side:?} {uplo:?} {trans:?} {diag:?} alpha \
                                     {alpha} F={f_order}: row-parallel and per-column differ"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

fn layout(f_order: bool) -> Layout {
    if f_order {
        Layout::F
    } else {
        Layout::C
    }
}
