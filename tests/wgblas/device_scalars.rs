//! alpha and beta held on the device (`&GpuScalar`) for the routines that took only host values
//! before issue 13: ger, syr, syr2, syrk, syr2k, gemmtr, symm, trmm, trsm, in f32 and f64
//! (axpy, scal, gemv, symv, gemm and gemm_batched have theirs in their own files).
//!
//! Every case runs twice, with its scalars as host values and as device scalars, against the
//! same hand-computed result (2×2 operands of small integers: every product and sum exact), so
//! that a device scalar is seen to obey the rules of DESIGN.md §3 as a host one does: alpha = 0
//! reads neither operand of the product (NaN and Inf there do not leak), beta = 0 never reads the
//! output, a NaN alpha or beta is not 0, unreferenced triangles are never read or written.
//! NaN positions must match; the sign of a zero is not compared (§3).

/// The tests of one element type: `$t` with its device scalars (`$dev`, `common::dev32` or
/// `dev64`: the resident dot product `[v]·[1]`, exact) and its routines.
macro_rules! device_scalar_tests {
    ($m:ident: $t:ty, $dev:ident, [$ger:ident, $syr:ident, $syr2:ident, $syrk:ident,
     $syr2k:ident, $gemmtr:ident, $symm:ident, $trmm:ident, $trsm:ident]) => {
        mod $m {
            use ndarray::{array, Array2, ArrayView2, ArrayViewMut2};
            use wgblas::blas::{$gemmtr, $ger, $symm, $syr, $syr2, $syr2k, $syrk, $trmm, $trsm};
            use wgblas::layout::Scalar;
            use wgblas::{Diag, GpuScalar, Side, Transpose, Uplo};

            use crate::common::{ctx, $dev as dev};

            type T = $t;
            const NAN: T = <$t>::NAN;
            const INF: T = <$t>::INFINITY;

            /// `case(scalars, form)` with `vals` as host scalars, then as device scalars.
            fn each_form(vals: &[T], case: impl Fn(&[Scalar<'_, T>], &str)) {
                let host: Vec<Scalar<'_, T>> = vals.iter().map(|&v| Scalar::Host(v)).collect();
                case(&host, "host");
                let kept: Vec<GpuScalar<'_, T>> = vals.iter().map(|&v| dev(v)).collect();
                let device: Vec<Scalar<'_, T>> = kept.iter().map(Scalar::from).collect();
                case(&device, "device");
            }

            /// `got` equals `want` element by element, NaN where `want` has NaN.
            fn check(got: &Array2<T>, want: &Array2<T>, what: &str) {
                let ok = got
                    .iter()
                    .zip(want)
                    .all(|(g, w)| g == w || g.is_nan() && w.is_nan());
                assert!(ok, "{what}: got {got:?}, want {want:?}");
            }

            #[test]
            fn ger() {
                let a0 = Array2::<T>::ones((2, 3));
                let (x, y) = (array![1.0, 2.0], array![1.0, 0.0, -1.0]);
                let cases = [
                    (2.0, x.clone(), array![[3.0, 1.0, -1.0], [5.0, 1.0, -3.0]]),
                    // alpha = 0: x is not read, A stays as it is.
                    (0.0, array![NAN, INF], a0.clone()),
                    (NAN, x.clone(), Array2::from_elem((2, 3), NAN)),
                ];
                for (alpha, x, want) in cases {
                    each_form(&[alpha], |s, form| {
                        let mut a = a0.clone();
                        $ger(ctx(), s[0], x.view(), y.view(), a.view_mut()).unwrap();
                        check(&a, &want, &format!("ger alpha {alpha} ({form})"));
                    });
                }
            }

            #[test]
            fn syr() {
                // Lower: -7 is outside the triangle and stays.
                let a0 = array![[1.0, -7.0], [1.0, 1.0]];
                let x = array![1.0, 2.0];
                let cases = [
                    (2.0, x.clone(), array![[3.0, -7.0], [5.0, 9.0]]),
                    (0.0, array![NAN, 1.0], a0.clone()),
                    (NAN, x.clone(), array![[NAN, -7.0], [NAN, NAN]]),
                ];
                for (alpha, x, want) in cases {
                    each_form(&[alpha], |s, form| {
                        let mut a = a0.clone();
                        $syr(ctx(), Uplo::Lower, s[0], x.view(), a.view_mut()).unwrap();
                        check(&a, &want, &format!("syr alpha {alpha} ({form})"));
                    });
                }
            }

            #[test]
            fn syr2() {
                // Upper: 5 is outside the triangle and stays. x·yᵀ + y·xᵀ = [[6, 7], [7, 4]].
                let a0 = array![[0.0, 0.0], [5.0, 0.0]];
                let (x, y) = (array![1.0, 2.0], array![3.0, 1.0]);
                let cases = [
                    (2.0, x.clone(), array![[12.0, 14.0], [5.0, 8.0]]),
                    (0.0, array![NAN, INF], a0.clone()),
                    (NAN, x.clone(), array![[NAN, NAN], [5.0, NAN]]),
                ];
                for (alpha, x, want) in cases {
                    each_form(&[alpha], |s, form| {
                        let mut a = a0.clone();
                        $syr2(ctx(), Uplo::Upper, s[0], x.view(), y.view(), a.view_mut()).unwrap();
                        check(&a, &want, &format!("syr2 alpha {alpha} ({form})"));
                    });
                }
            }

            /// The operands of the product cases: clean, and all NaN (for alpha = 0).
            fn ab(nan: bool) -> (Array2<T>, Array2<T>) {
                if nan {
                    return (
                        Array2::from_elem((2, 2), NAN),
                        Array2::from_elem((2, 2), NAN),
                    );
                }
                (
                    array![[1.0, 2.0], [3.0, 4.0]],
                    array![[1.0, 0.0], [1.0, 1.0]],
                )
            }

            /// (alpha, beta, A and B all NaN, C of NaN in the triangle, expected) for the
            /// triangle routines on C's lower triangle, given `prod` = the product's lower
            /// triangle for alpha = 1 on the clean operands; C's upper element holds 7 (stays).
            fn tri_cases(prod: [T; 3]) -> Vec<(T, T, bool, bool, Array2<T>)> {
                let [p00, p10, p11] = prod;
                let c = |v00: T, v10: T, v11: T| array![[v00, 7.0], [v10, v11]];
                let twice = c(2.0 * p00 - 1.0, 2.0 * p10 - 1.0, 2.0 * p11 - 1.0);
                vec![
                    // C = [[1, 7], [1, 1]].
                    (2.0, -1.0, false, false, twice),
                    // beta = 0: C (all NaN in the triangle) is not read.
                    (1.0, 0.0, false, true, c(p00, p10, p11)),
                    // alpha = 0: A and B (all NaN) are not read.
                    (0.0, 3.0, true, false, c(3.0, 3.0, 3.0)),
                    (NAN, 1.0, false, false, c(NAN, NAN, NAN)),
                    (1.0, NAN, false, false, c(NAN, NAN, NAN)),
                ]
            }

            fn c_lower(nan: bool) -> Array2<T> {
                let v = if nan { NAN } else { 1.0 };
                array![[v, 7.0], [v, v]]
            }

            /// The cases of [`tri_cases`] for `prod`, each run by `call(alpha, beta, A, B, C)`
            /// in both forms, against the expected C.
            fn tri_test(
                what: &str,
                prod: [T; 3],
                call: impl Fn(Scalar<'_, T>, Scalar<'_, T>, &Array2<T>, &Array2<T>, &mut Array2<T>),
            ) {
                for (alpha, beta, nan_ab, nan_c, want) in tri_cases(prod) {
                    let (a, b) = ab(nan_ab);
                    each_form(&[alpha, beta], |s, form| {
                        let mut c = c_lower(nan_c);
                        call(s[0], s[1], &a, &b, &mut c);
                        check(&c, &want, &format!("{what} {alpha} {beta} ({form})"));
                    });
                }
            }

            #[test]
            fn syrk() {
                // A·Aᵀ = [[5, 11], [11, 25]].
                tri_test("syrk", [5.0, 11.0, 25.0], |al, be, a, _, c| {
                    let (u, t) = (Uplo::Lower, Transpose::No);
                    $syrk(ctx(), u, t, al, a.view(), be, c.view_mut()).unwrap();
                });
            }

            #[test]
            fn syr2k() {
                // A·Bᵀ = [[1, 3], [3, 7]] = B·Aᵀ: the sum is [[2, 6], [6, 14]].
                tri_test("syr2k", [2.0, 6.0, 14.0], |al, be, a, b, c| {
                    let (u, t) = (Uplo::Lower, Transpose::No);
                    $syr2k(ctx(), u, t, al, a.view(), b.view(), be, c.view_mut()).unwrap();
                });
            }

            #[test]
            fn gemmtr() {
                // A·B = [[3, 2], [7, 4]]; the lower triangle of C: 3, 7, 4.
                tri_test("gemmtr", [3.0, 7.0, 4.0], |al, be, a, b, c| {
                    let (u, t) = (Uplo::Lower, Transpose::No);
                    $gemmtr(ctx(), u, t, t, al, a.view(), b.view(), be, c.view_mut()).unwrap();
                });
            }

            #[test]
            fn symm() {
                // A symmetric from its lower triangle ([[1, 2], [2, 3]]; the NaN above is never
                // read), B = [[1, 1], [0, 2]]: A·B = [[1, 5], [2, 8]].
                let a = array![[1.0, NAN], [2.0, 3.0]];
                let b = array![[1.0, 1.0], [0.0, 2.0]];
                let nan = Array2::from_elem((2, 2), NAN);
                let cases = [
                    (2.0, -1.0, &b, 1.0, array![[1.0, 9.0], [3.0, 15.0]]),
                    (1.0, 0.0, &b, NAN, array![[1.0, 5.0], [2.0, 8.0]]),
                    (0.0, 3.0, &nan, 1.0, Array2::from_elem((2, 2), 3.0)),
                    (NAN, 1.0, &b, 1.0, nan.clone()),
                    (1.0, NAN, &b, 1.0, nan.clone()),
                ];
                for (alpha, beta, b, c0, want) in cases {
                    each_form(&[alpha, beta], |s, form| {
                        let mut c = Array2::from_elem((2, 2), c0);
                        let (a, b, sl) = (a.view(), b.view(), (Side::Left, Uplo::Lower));
                        $symm(ctx(), sl.0, sl.1, s[0], a, b, s[1], c.view_mut()).unwrap();
                        check(&c, &want, &format!("symm {alpha} {beta} ({form})"));
                    });
                }
            }

            #[test]
            fn trmm() {
                // Upper A = [[1, 2], [·, 3]] (NaN below, never read), B = [[1, 1], [1, 0]]:
                // A·B = [[3, 1], [3, 0]].
                let a = array![[1.0, 2.0], [NAN, 3.0]];
                let b0 = array![[1.0, 1.0], [1.0, 0.0]];
                let nan = Array2::from_elem((2, 2), NAN);
                let cases = [
                    (2.0, &a, &b0, array![[6.0, 2.0], [6.0, 0.0]]),
                    // alpha = 0: B ← 0 without reading A or B.
                    (0.0, &nan, &nan, Array2::zeros((2, 2))),
                    (NAN, &a, &b0, nan.clone()),
                ];
                left_tri_test("trmm", &cases, |al, a, b| {
                    let (side, uplo, t) = (Side::Left, Uplo::Upper, Transpose::No);
                    $trmm(ctx(), side, uplo, t, Diag::NonUnit, al, a, b)
                });
            }

            /// The (alpha, A, B, B after) cases of a triangular Level 3 routine through
            /// `call(alpha, A, B)`, in both forms.
            #[allow(clippy::type_complexity)]
            fn left_tri_test(
                what: &str,
                cases: &[(T, &Array2<T>, &Array2<T>, Array2<T>)],
                call: impl Fn(
                    Scalar<'_, T>,
                    ArrayView2<'_, T>,
                    ArrayViewMut2<'_, T>,
                ) -> wgblas::Result<()>,
            ) {
                for (alpha, a, b0, want) in cases {
                    each_form(&[*alpha], |s, form| {
                        let mut b = (*b0).clone();
                        call(s[0], a.view(), b.view_mut()).unwrap();
                        check(&b, want, &format!("{what} alpha {alpha} ({form})"));
                    });
                }
            }

            #[test]
            fn trsm() {
                // Lower A = [[2, ·], [1, 4]] (NaN above, never read), B = [[2, 4], [5, 6]]:
                // A⁻¹·B = [[1, 2], [1, 1]].
                let a = array![[2.0, NAN], [1.0, 4.0]];
                let b0 = array![[2.0, 4.0], [5.0, 6.0]];
                // alpha = 0: B ← 0 whatever A holds (zero pivots, NaN) and B holds.
                let bad_a = array![[0.0, NAN], [NAN, 0.0]];
                let bad_b = array![[NAN, INF], [1.0, 0.0]];
                let cases = [
                    (2.0, &a, &b0, array![[2.0, 4.0], [2.0, 2.0]]),
                    (1.0, &a, &b0, array![[1.0, 2.0], [1.0, 1.0]]),
                    (0.0, &bad_a, &bad_b, Array2::zeros((2, 2))),
                    (NAN, &a, &b0, Array2::from_elem((2, 2), NAN)),
                ];
                left_tri_test("trsm", &cases, |al, a, b| {
                    let (side, uplo, t) = (Side::Left, Uplo::Lower, Transpose::No);
                    $trsm(ctx(), side, uplo, t, Diag::NonUnit, al, a, b)
                });
            }
        }
    };
}

device_scalar_tests! {
    single: f32, dev32, [sger, ssyr, ssyr2, ssyrk, ssyr2k, sgemmtr, ssymm, strmm, strsm]
}

device_scalar_tests! {
    double: f64, dev64, [dger, dsyr, dsyr2, dsyrk, dsyr2k, dgemmtr, dsymm, dtrmm, dtrsm]
}
