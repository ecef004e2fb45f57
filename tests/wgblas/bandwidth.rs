//! The kernel variants of issue 12 (Level 1 and Level 2 at the bandwidth limit), each pinned
//! against OpenBLAS with its DESIGN.md §2 metric at small sizes:
//! - reductions (sdot, sasum, snrm2, isamax): the single pass with a last-workgroup finish,
//!   `vec4` (unit stride) and scalar (stride 2, reversed), and the two-pass kernels (lab switch
//!   `Legacy`), at sizes with one and with many workgroups, the n mod 4 tail included;
//! - element-wise (saxpy, scopy, sswap, sscal, srot): `vec4` plus the scalar tail, and the
//!   scalar kernel;
//! - sgemv: `gemv_rowdot` and `gemv_coldot` in each storage order (C, F, strided, reversed),
//!   tall-skinny and short-wide, with and without column chunks, `vec4` and scalar, and the
//!   legacy kernels, and the wide kernels aimed at other workgroup counts (lab
//!   `set_gemv_shape`); strmv on the same kernels.
//!
//! The lab switches are process-wide: tests that set them hold `LAB` and reset them, and every
//! variant computes within the metric, so other tests running meanwhile stay correct.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ndarray::Array1;
use wgblas::blas;
use wgblas::lab::{self, Driver, Variant};
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{Context, GpuVector};

use crate::common::*;
use crate::describe;
use crate::oracle_l1 as o1;

/// The lock on the lab switches (`common.rs`, where the routine files, also built into the
/// benches and report binaries, reach it), under its name here.
pub(crate) use crate::common::lab_defaults;

pub(crate) fn with_variant(driver: Driver, v: Variant, f: impl FnOnce()) {
    let _guard = lab_defaults();
    lab::set(driver, v);
    let r = catch_unwind(AssertUnwindSafe(f));
    lab::set(driver, Variant::Auto);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// Run `f` with the rank updates' kernel at `rows` (`lab::set_rank_rows`: 1, `main_pre`; 4 or
/// 8, `main_rows` with that many lines), holding the lab switches as [`with_variant`] does,
/// back to the crate's choice after.
pub(crate) fn with_rank_rows(rows: u32, f: impl FnOnce()) {
    let _guard = lab_defaults();
    lab::set_rank_rows(rows);
    let r = catch_unwind(AssertUnwindSafe(f));
    lab::set_rank_rows(0);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// Run `f` with the shader modules built in `checks` mode (`lab::set_shader_checks`), holding
/// the lab switches as [`with_variant`] does, back to `Auto` after.
pub(crate) fn with_checks(checks: lab::ShaderChecks, f: impl FnOnce()) {
    let _guard = lab_defaults();
    lab::set_shader_checks(checks);
    let r = catch_unwind(AssertUnwindSafe(f));
    lab::set_shader_checks(lab::ShaderChecks::Auto);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// The shader-check modes other than the crate's default per shader (`Auto`, which every
/// other test runs: `Unchecked` for the Level 1 shaders, `Checked` for the others): both ends,
/// so that every kernel runs in both (`NoIndexClamps` lies between them).
pub(crate) const UNCHECKED_MODES: [lab::ShaderChecks; 2] =
    [lab::ShaderChecks::Checked, lab::ShaderChecks::Unchecked];

const VARIANTS: [Variant; 3] = [Variant::Auto, Variant::Scalar, Variant::Legacy];
/// The matrix-vector kernels' switches: [`VARIANTS`] (`Legacy` with a cleared scratch, the
/// others not) and `Experimental` (the same gemv and strmv kernels, ssymv's strips of tiles).
const MATVEC_VARIANTS: [Variant; 4] = [
    Variant::Auto,
    Variant::Scalar,
    Variant::Legacy,
    Variant::Experimental,
];
/// Sizes: below one vec4, every n mod 4, one workgroup, and many workgroups of the single pass
/// (100,003 elements: 98 scalar workgroups, 25 vec4 workgroups; 2^20 + 3: the single pass's
/// 528-workgroup cap, so invocations loop).
const L1_SIZES: [usize; 12] = [1, 2, 3, 4, 5, 7, 8, 1023, 1025, 4099, 100_003, 1_048_579];

fn check_reductions(seed: u64, n: usize, l: VLayout, what: &str) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let (xs, ys) = (Vector::new(&x, l), Vector::new(&y, l));
    let d = blas::sdot(ctx(), xs.view(), ys.view()).unwrap();
    let reference = oracle::sdot(x.view(), y.view());
    let f = metrics::forward_factor_scalar(d, reference, bounds::dot(x.view(), y.view()));
    describe::passes("sdot", f, &format!("n={n} {l:?} {what}"));
    // sasum and snrm2 against the correctly rounded value (DESIGN.md §2), within their ULP.
    let s = blas::sasum(ctx(), xs.view()).unwrap();
    let want = x.iter().map(|v| f64::from(v.abs())).sum::<f64>() as f32;
    let u = metrics::ulp_distance_f32(s, want) as f64;
    let ob = o1::sasum(x.view());
    describe::passes(
        "sasum",
        u,
        &format!("n={n} {l:?} {what}: {s} vs {want} (OpenBLAS {ob})"),
    );
    let s = blas::snrm2(ctx(), xs.view()).unwrap();
    let want = x.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>().sqrt() as f32;
    let u = metrics::ulp_distance_f32(s, want) as f64;
    let ob = o1::snrm2(x.view());
    describe::passes(
        "snrm2",
        u,
        &format!("n={n} {l:?} {what}: {s} vs {want} (OpenBLAS {ob})"),
    );
    let i = blas::isamax(ctx(), xs.view()).unwrap();
    assert_eq!(i, o1::isamax(x.view()), "isamax n={n} {l:?} {what}");
}

#[test]
fn reductions_every_path_against_openblas() {
    for v in VARIANTS {
        with_variant(Driver::Reduction, v, || {
            for (k, &n) in L1_SIZES.iter().enumerate() {
                for l in [VLayout::Unit, VLayout::Step2, VLayout::Reversed] {
                    if n > 200_000 && l != VLayout::Unit {
                        continue;
                    }
                    check_reductions(k as u64, n, l, &format!("{v:?}"));
                }
            }
        });
    }
}

/// Level 1 and 2 kernels built without naga's index clamps and loop bounding
/// (`lab::set_shader_checks`): the reductions (one and many workgroups, vec4 and strided),
/// sgemv's kernels in both storage orders and aspect ratios, and the rank updates, against
/// OpenBLAS with their metrics.
#[test]
fn level1_and_level2_without_shader_checks() {
    for checks in UNCHECKED_MODES {
        with_checks(checks, || {
            let what = format!("{checks:?}");
            for (k, &n) in [5usize, 1025, 100_003].iter().enumerate() {
                for l in [VLayout::Unit, VLayout::Reversed] {
                    check_reductions(k as u64, n, l, &what);
                }
            }
            for (k, &(m, n)) in [(3usize, 70_000usize), (129, 257), (1000, 1000)]
                .iter()
                .enumerate()
            {
                for t in [Transpose::No, Transpose::Yes] {
                    for la in [Layout::C, Layout::F] {
                        let (u, r) = (VLayout::Unit, VLayout::Reversed);
                        crate::gemv::check_on(ctx(), k as u64, (m, n), t, 0.7, 0.9, la, u, r);
                    }
                }
            }
            let extra = (0.7, Layout::F, VLayout::Step2, VLayout::Reversed);
            rank_cases(&[(64, 36), (5, 128)], extra, &[12, 68], &[Layout::C]);
        });
    }
}

/// The single pass with its workgroups capped by the lab (`set_reduction_groups`: 1, 3 and
/// 5; the H200 probe of the finish's share): each invocation's grid-stride loop then takes more
/// of x, and the metric holds on both layouts and paths.
#[test]
fn reductions_with_capped_workgroups() {
    let _guard = lab_defaults();
    let r = catch_unwind(AssertUnwindSafe(|| {
        for cap in [1u32, 3, 5] {
            lab::set_reduction_groups(cap);
            for (k, &n) in [5usize, 1025, 100_003].iter().enumerate() {
                for l in [VLayout::Unit, VLayout::Reversed] {
                    check_reductions(k as u64 + 40, n, l, &format!("cap {cap}"));
                }
            }
        }
    }));
    lab::set_reduction_groups(0);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// The single pass with its counter zeroed by a one-invocation dispatch (`clear_counter`, the
/// default) and its scratch buffer not cleared: pooled scratch buffers that earlier reductions
/// left with counts and partial sums in them must not change a result.
#[test]
fn reductions_with_the_counter_zeroed_by_a_dispatch() {
    with_variant(Driver::Reduction, Variant::Auto, || {
        for _round in 0..2 {
            for (k, &n) in L1_SIZES.iter().enumerate() {
                for l in [VLayout::Unit, VLayout::Reversed] {
                    if n > 200_000 && l != VLayout::Unit {
                        continue;
                    }
                    check_reductions(k as u64 + 60, n, l, "counter by dispatch");
                }
            }
        }
    });
}

/// First NaN, ties and Inf on every reduction path, at positions in the vec4 body, in the tail
/// and in late workgroups; values hand-computed.
#[test]
fn reductions_special_values_every_path() {
    for v in VARIANTS {
        with_variant(Driver::Reduction, v, || {
            for &n in &[4099usize, 100_003] {
                for l in [VLayout::Unit, VLayout::Step2] {
                    let what = format!("{v:?} n={n} {l:?}");
                    let mut x = Array1::from_elem(n, 0.5f32);
                    x[n - 1] = f32::NAN; // in the tail (n mod 4 = 3)
                    x[2050] = f32::NAN;
                    x[7] = f32::INFINITY;
                    x[9] = -3.0;
                    let xs = Vector::new(&x, l);
                    assert_eq!(blas::isamax(ctx(), xs.view()).unwrap(), 2050, "{what}");
                    assert!(blas::sasum(ctx(), xs.view()).unwrap().is_nan(), "{what}");
                    assert!(blas::snrm2(ctx(), xs.view()).unwrap().is_nan(), "{what}");
                    let ones = Array1::from_elem(n, 1.0f32);
                    let os = Vector::new(&ones, l);
                    assert!(
                        blas::sdot(ctx(), xs.view(), os.view()).unwrap().is_nan(),
                        "{what}"
                    );
                    // Inf without NaN: isamax finds the Inf, snrm2 is +Inf.
                    x[n - 1] = 0.25;
                    x[2050] = 0.25;
                    let xs = Vector::new(&x, l);
                    assert_eq!(blas::isamax(ctx(), xs.view()).unwrap(), 7, "{what}");
                    assert_eq!(
                        blas::snrm2(ctx(), xs.view()).unwrap(),
                        f32::INFINITY,
                        "{what}"
                    );
                    // Ties: equal magnitudes of both signs, the lowest index wins.
                    let mut t = Array1::from_elem(n, 1.0f32);
                    t[n - 2] = -4.0;
                    t[n / 2 + 1] = 4.0;
                    t[n / 2 + 2] = -4.0;
                    let ts = Vector::new(&t, l);
                    assert_eq!(blas::isamax(ctx(), ts.view()).unwrap(), n / 2 + 1, "{what}");
                    // sasum of n halves and a 3: exact.
                    let mut h = Array1::from_elem(n, 0.5f32);
                    h[n - 1] = -3.0;
                    let hs = Vector::new(&h, l);
                    let want = (n - 1) as f32 * 0.5 + 3.0;
                    assert_eq!(blas::sasum(ctx(), hs.view()).unwrap(), want, "{what}");
                }
            }
        });
    }
}

/// saxpy and srot within their forward factor, scopy, sscal and sswap bit-exact, against
/// OpenBLAS on random vectors of `n` elements in layout `l`, the elements between a strided
/// view's elements checked untouched.
fn check_elementwise(seed: u64, n: usize, l: VLayout, what: &str) {
    let what = format!("{what} n={n} {l:?}");
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    // saxpy: forward factor ≤ 1.
    let xs = Vector::new(&x, l);
    let mut ys = Vector::new(&y, l);
    blas::saxpy(ctx(), 0.7, xs.view(), ys.view_mut()).unwrap();
    assert!(ys.outside_is_untouched(), "saxpy {what}");
    let f = metrics::forward_factor(
        &ys.to_owned(),
        &oracle::saxpy(0.7, x.view(), y.view()),
        &bounds::axpy(0.7, x.view(), y.view()),
    )
    .unwrap();
    describe::passes("saxpy", f, &what);
    // scopy, sscal, sswap: bit-exact (0 ULP).
    let mut ys = Vector::new(&y, l);
    blas::scopy(ctx(), xs.view(), ys.view_mut()).unwrap();
    assert!(ys.outside_is_untouched(), "scopy {what}");
    assert_eq!(
        metrics::max_ulp_f32(&ys.to_owned(), &o1::scopy(x.view())).unwrap(),
        0,
        "scopy {what}"
    );
    let mut xs2 = Vector::new(&x, l);
    blas::sscal(ctx(), 0.7, xs2.view_mut()).unwrap();
    assert!(xs2.outside_is_untouched(), "sscal {what}");
    assert_eq!(
        metrics::max_ulp_f32(&xs2.to_owned(), &o1::sscal(0.7, x.view())).unwrap(),
        0,
        "sscal {what}"
    );
    let (mut xs3, mut ys3) = (Vector::new(&x, l), Vector::new(&y, l));
    blas::sswap(ctx(), xs3.view_mut(), ys3.view_mut()).unwrap();
    assert!(
        xs3.outside_is_untouched() && ys3.outside_is_untouched(),
        "sswap {what}"
    );
    assert_eq!(xs3.to_owned(), y, "sswap {what}");
    assert_eq!(ys3.to_owned(), x, "sswap {what}");
    // srot: forward factor ≤ 1 on both outputs.
    let (mut xs4, mut ys4) = (Vector::new(&x, l), Vector::new(&y, l));
    blas::srot(ctx(), xs4.view_mut(), ys4.view_mut(), 0.6, 0.8).unwrap();
    let (rx, ry) = o1::srot(x.view(), y.view(), 0.6, 0.8);
    let (bx, by) = bounds::rot(0.6, 0.8, x.view(), y.view());
    let fx = metrics::forward_factor(&xs4.to_owned(), &rx, &bx).unwrap();
    let fy = metrics::forward_factor(&ys4.to_owned(), &ry, &by).unwrap();
    describe::passes("srot", fx.max(fy), &format!("{what}: x {fx}, y {fy}"));
}

#[test]
fn elementwise_vec4_and_scalar_against_openblas() {
    // sscal: `scal_vec4` and `scal_one` (x bound alone; Auto), `main` with a dummy y (Legacy).
    for v in [Variant::Auto, Variant::Legacy] {
        with_variant(Driver::Elementwise, v, || {
            for (k, &n) in L1_SIZES[..11].iter().enumerate() {
                for l in [VLayout::Unit, VLayout::Step2] {
                    check_elementwise(100 + k as u64, n, l, &format!("{v:?}"));
                }
            }
        });
    }
}

/// Calls on fewer elements than `lab::set_one_dispatch_below` run one dispatch where they take
/// two: the element-wise routines on counts that are not multiples of 4 in the scalar kernel
/// alone, the one-workgroup single-pass reductions without `clear_counter` (twice, so that the
/// second round runs on pooled scratch that the first left with counts in it); against
/// OpenBLAS with their metrics, past the one-workgroup sizes too (where nothing changes), and
/// one dispatch per call on a context of its own, a device alpha (`main_dev`) included.
#[test]
fn one_dispatch_below_against_openblas() {
    let _guard = lab_defaults();
    let r = catch_unwind(AssertUnwindSafe(|| {
        // Off (two dispatches where the short calls took two before session 8), then past
        // every size here (one dispatch wherever the rule applies).
        lab::set_one_dispatch_below(0);
        for (k, &n) in [5usize, 7, 1023, 1138].iter().enumerate() {
            check_reductions(70 + k as u64, n, VLayout::Unit, "two dispatches");
            check_elementwise(70 + k as u64, n, VLayout::Reversed, "two dispatches");
        }
        lab::set_one_dispatch_below(1 << 20);
        for round in 0..2u64 {
            for (k, &n) in [1usize, 5, 7, 1023, 1138, 4099, 16_383, 100_003]
                .iter()
                .enumerate()
            {
                for l in [VLayout::Unit, VLayout::Reversed] {
                    let seed = 80 + 10 * round + k as u64;
                    check_reductions(seed, n, l, "one dispatch");
                    check_elementwise(seed, n, l, "one dispatch");
                }
            }
        }
        let c =
            Context::new().expect("the tests need a GPU adapter (lavapipe on CPU-only machines)");
        let x = c.upload_vector(&Array1::<f32>::ones(1138)).unwrap();
        let mut y = GpuVector::<f32>::zeros(&c, 1138).unwrap();
        let mut z = GpuVector::<f32>::zeros(&c, 1138).unwrap();
        let before = c.dispatches();
        blas::saxpy(&c, 0.5, &x, &mut y).unwrap();
        let dot = wgblas::resident::sdot(&c, &x, &y).unwrap();
        blas::saxpy(&c, &dot, &x, &mut z).unwrap();
        blas::scopy(&c, &z, &mut y).unwrap();
        assert_eq!(c.dispatches() - before, 4, "one dispatch per call");
        // 1138 · 0.5 and 569 · 1 + 0 are exact.
        assert_eq!(dot.get().unwrap(), 569.0);
        assert!(y.to_array().unwrap().iter().all(|&v| v == 569.0));
    }));
    lab::set_one_dispatch_below(lab::ONE_DISPATCH_DEFAULT);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// sgemv on every kernel: rowdot with 1 to 64 lanes, coldot with 1 to 64 row units, column
/// chunks and the finish pass, in C, F, strided and reversed storage, both transposes.
#[test]
fn gemv_kernels_by_storage_order_and_aspect_ratio() {
    let shapes: [(usize, usize); 10] = [
        (3000, 3),   // tall-skinny: rowdot 1 lane (C, N), coldot (F, N)
        (8193, 4),   // tall-skinny, whole vec4 rows
        (3, 70_000), // short-wide: column chunks and the finish pass
        (4, 40_000), // short-wide, whole vec4 units
        (1, 5000),
        (129, 257),
        (257, 129),
        (64, 64),
        (1000, 1000), // coldot with chunks (F, N / C, T)
        (17, 15),
    ];
    for v in MATVEC_VARIANTS {
        with_variant(Driver::Matvec, v, || {
            for (k, &(m, n)) in shapes.iter().enumerate() {
                for t in [Transpose::No, Transpose::Yes] {
                    for la in LAYOUTS {
                        if m * n > 200_000 && la != Layout::C && la != Layout::F {
                            continue;
                        }
                        for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                            crate::gemv::check_on(
                                ctx(),
                                k as u64,
                                (m, n),
                                t,
                                alpha,
                                beta,
                                la,
                                VLayout::Unit,
                                VLayout::Unit,
                            );
                        }
                        crate::gemv::check_on(
                            ctx(),
                            k as u64,
                            (m, n),
                            t,
                            0.7,
                            0.9,
                            la,
                            VLayout::Step2,
                            VLayout::Reversed,
                        );
                    }
                }
            }
        });
    }
}

/// sgemv on the wide kernels' other grid shapes (`lab::set_gemv_shape`): aimed at 1
/// workgroup (one chunk wherever the loop bound allows: no finish pass) and at 1,000,000 (as
/// many chunks as the 8-steps-per-lane floor allows, then the finish pass); `gemv_coldot` on
/// 1, 4 and 256 column lanes; tall-skinny to square, both orders and transposes, against
/// OpenBLAS.
#[test]
fn gemv_on_other_grid_shapes() {
    let grids = [(1, 0), (1_000_000, 0), (0, 1), (0, 4), (0, 256)];
    let shapes = [(3usize, 70_000usize), (70_000, 4), (129, 257), (1000, 1000)];
    let _guard = lab_defaults();
    let r = catch_unwind(AssertUnwindSafe(|| {
        for (groups, col_lanes) in grids {
            lab::set_gemv_shape(lab::GemvShape { groups, col_lanes });
            for (k, &(m, n)) in shapes.iter().enumerate() {
                for (t, la) in [Transpose::No, Transpose::Yes]
                    .into_iter()
                    .flat_map(|t| [(t, Layout::C), (t, Layout::F)])
                {
                    let (u, r) = (VLayout::Unit, VLayout::Reversed);
                    crate::gemv::check_on(ctx(), k as u64, (m, n), t, 0.7, 0.9, la, u, r);
                }
            }
        }
    }));
    lab::set_gemv_shape(lab::GemvShape::default());
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// strmv on the same kernels: every triangle, transpose and diagonal, NaN in the other triangle
/// (and on a unit diagonal), with chunks at n = 700.
#[test]
fn strmv_on_the_gemv_kernels() {
    for v in MATVEC_VARIANTS {
        with_variant(Driver::Matvec, v, || {
            for &n in &[1usize, 5, 129, 130, 700] {
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    for t in [Transpose::No, Transpose::Yes] {
                        for diag in [Diag::NonUnit, Diag::Unit] {
                            for la in [Layout::C, Layout::F] {
                                crate::trmv::check_on(
                                    ctx(),
                                    n as u64,
                                    n,
                                    uplo,
                                    t,
                                    diag,
                                    la,
                                    VLayout::Unit,
                                );
                            }
                        }
                    }
                }
            }
        });
    }
}

/// ssymv on the tiles of its stored triangle: one tile per workgroup (`Auto`; `Scalar`: no
/// vec4 loads), strips of tiles (`Experimental`, `symv_strip`: n = 600 has 10 block columns, so
/// the first strips run in two parts, the second with zero slots), and the legacy kernel: every
/// triangle, C and F order, one tile and many (with partial tiles), NaN in the other triangle.
#[test]
fn ssymv_tiles_against_openblas() {
    for v in MATVEC_VARIANTS {
        with_variant(Driver::Matvec, v, || {
            for &n in &[1usize, 3, 64, 65, 200, 256, 600] {
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    for la in [Layout::C, Layout::F] {
                        for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                            crate::symv::check_on(
                                ctx(),
                                n as u64,
                                n,
                                uplo,
                                alpha,
                                beta,
                                la,
                                VLayout::Unit,
                                VLayout::Unit,
                            );
                        }
                    }
                }
            }
        });
    }
}

/// isamax of all-zero vectors (the first index, on every path), and snrm2 of values across
/// Blue's three ranges mixed inside vec4 units (hand-computed).
#[test]
fn reductions_zero_vectors_and_mixed_ranges() {
    for v in VARIANTS {
        with_variant(Driver::Reduction, v, || {
            for &n in &[1usize, 4, 9, 4099] {
                let z = Array1::<f32>::zeros(n);
                assert_eq!(blas::isamax(ctx(), z.view()).unwrap(), 0, "{v:?} n={n}");
                assert_eq!(blas::snrm2(ctx(), z.view()).unwrap(), 0.0, "{v:?} n={n}");
            }
            // 3·2^60, 4·2^60 (big range), 3·2^-70, 4·2^-70 (small range), and 1.0s: the norm
            // rounds to 5·2^60 (exact), checked by snrm2's ULP metric (metrics::spec); the
            // units mix ranges.
            let mut x = Array1::from_elem(4099, 0.0f32);
            x[1] = 3.0 * 2f32.powi(60);
            x[6] = 4.0 * 2f32.powi(60);
            x[2] = 3.0 * 2f32.powi(-70);
            x[3] = 4.0 * 2f32.powi(-70);
            let got = blas::snrm2(ctx(), x.view()).unwrap();
            let u = metrics::ulp_distance_f32(got, 5.0 * 2f32.powi(60)) as f64;
            describe::passes("snrm2", u, &format!("{v:?}: {got}"));
            let mut y = Array1::from_elem(4099, 0.0f32);
            y[2] = 3.0 * 2f32.powi(-70);
            y[3] = 4.0 * 2f32.powi(-70);
            let got = blas::snrm2(ctx(), y.view()).unwrap();
            let u = metrics::ulp_distance_f32(got, 5.0 * 2f32.powi(-70)) as f64;
            describe::passes("snrm2", u, &format!("{v:?}: {got}"));
            let ones = Array1::from_elem(4096, 1.0f32);
            assert_eq!(blas::snrm2(ctx(), ones.view()).unwrap(), 64.0, "{v:?}");
        });
    }
}

/// sger, ssyr and ssyr2 on the vec4 kernel (the default, `Auto`, where the unit stride allows
/// it: length a multiple of 4) and the one-element kernel (lab `Scalar`), C and F order, units
/// crossing the diagonal, NaN in the other triangle.
#[test]
fn rank_updates_vec4_and_scalar_against_openblas() {
    let shapes = [(4, 4), (8, 12), (64, 36), (128, 5), (5, 128), (1, 8)];
    let extra = (0.7, Layout::F, VLayout::Step2, VLayout::Reversed);
    for v in [
        Variant::Auto,
        Variant::Legacy,
        Variant::Scalar,
        Variant::Experimental,
    ] {
        with_variant(Driver::RankUpdate, v, || {
            rank_cases(&shapes, extra, &[4, 8, 12, 64, 68], &[Layout::C, Layout::F])
        });
    }
}

/// sger at each of `shapes` in every layout (unit vectors), then once more with `extra`'s
/// (alpha, A's layout, x's and y's layouts); ssyr and ssyr2 at each of `sizes`, both triangles,
/// A in each of `layouts`: all against OpenBLAS, on the kernel now in force.
pub(crate) fn rank_cases(
    shapes: &[(usize, usize)],
    extra: (f32, Layout, VLayout, VLayout),
    sizes: &[usize],
    layouts: &[Layout],
) {
    for (k, &(m, n)) in shapes.iter().enumerate() {
        for la in LAYOUTS {
            crate::ger::check_on(
                ctx(),
                k as u64,
                (m, n),
                0.7,
                la,
                VLayout::Unit,
                VLayout::Unit,
            );
        }
        let (alpha, la, lx, ly) = extra;
        crate::ger::check_on(ctx(), k as u64 + 30, (m, n), alpha, la, lx, ly);
    }
    for &n in sizes {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            for &la in layouts {
                crate::syr::check_on(ctx(), n as u64, n, uplo, 0.7, la, VLayout::Unit);
                let (u, v) = (VLayout::Unit, VLayout::Unit);
                crate::syr2::check_on(ctx(), n as u64, n, uplo, 0.7, la, u, v);
            }
        }
    }
}

/// strsv on the block kernel (`wgsl/level2/trsv.wgsl`; the default until session 8), the
/// diagonal block's substitution at one barrier per column (lab `Scalar` on trsv) and at two
/// (`Legacy`), against OpenBLAS (backward residual, §2): each uplo, trans and
/// diag, C and F order, one block, a partial block and several (64-row blocks: n = 200), a
/// reversed x, NaN in the other triangle (and on a unit diagonal).
#[test]
fn strsv_one_and_two_barriers_against_openblas() {
    for v in [Variant::Scalar, Variant::Legacy] {
        with_variant(Driver::Trsv, v, || {
            for (k, &n) in [1usize, 5, 64, 65, 200].iter().enumerate() {
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    for t in [Transpose::No, Transpose::Yes] {
                        for diag in [Diag::NonUnit, Diag::Unit] {
                            for (la, lx) in
                                [(Layout::C, VLayout::Unit), (Layout::F, VLayout::Reversed)]
                            {
                                crate::trsv::check_on(
                                    ctx(),
                                    k as u64,
                                    n,
                                    uplo,
                                    t,
                                    diag,
                                    1.0,
                                    la,
                                    lx,
                                );
                            }
                        }
                    }
                }
            }
        });
    }
}

#[test]
fn strsv_dtrsv_lookahead_against_openblas() {
    // `trsv_step.wgsl` (lab `Experimental`): one dispatch per block, the solver's look-ahead
    // and the updaters from the third block on (n = 200: four blocks of 64 in f32; in f64
    // where the 64-row tile does not fit the workgroup memory, blocks of 32, seven), the last
    // block partial; sub-blocks of 4, 8 and 16 rows, and 8 with the L2 prefetch; C order with
    // unit x, F order with x reversed (negative incx), every uplo, trans and diag; against
    // OpenBLAS with strsv's and dtrsv's metric.
    with_variant(Driver::Trsv, Variant::Experimental, || {
        // The variant is the one running: n = 129 in f32 (blocks of 64: the tile fits every
        // adapter's 32 KiB), three dispatches and no copy.
        let c = wgblas::Context::new().unwrap();
        let mut r = rng(41);
        let a = crate::oracle_l2::tri_stored(&mut r, 129, Uplo::Lower, Diag::NonUnit, 1.0, 0.01);
        let mut x = rand_vec(&mut r, 129);
        let d0 = c.dispatches();
        blas::strsv(
            &c,
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            x.view_mut(),
        )
        .unwrap();
        assert_eq!(c.dispatches() - d0, 3, "look-ahead strsv n=129: dispatches");
        for (sb, prefetch) in [(8, false), (4, false), (16, false), (8, true)] {
            lab::set_trsv_sub_block(sb);
            lab::set_trsv_prefetch(prefetch);
            let sizes: &[usize] = if sb == 8 && !prefetch {
                &[1, 5, 64, 65, 200]
            } else {
                &[65, 200]
            };
            for (k, &n) in sizes.iter().enumerate() {
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    for t in [Transpose::No, Transpose::Yes] {
                        for diag in [Diag::NonUnit, Diag::Unit] {
                            for (la, lx) in
                                [(Layout::C, VLayout::Unit), (Layout::F, VLayout::Reversed)]
                            {
                                let seed = 40 + k as u64;
                                crate::trsv::check_on(ctx(), seed, n, uplo, t, diag, 1.0, la, lx);
                                if n != 64 {
                                    crate::trsv::check_on_f64(
                                        ctx(),
                                        seed,
                                        n,
                                        uplo,
                                        t,
                                        diag,
                                        la,
                                        lx,
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        lab::set_trsv_sub_block(0);
        lab::set_trsv_prefetch(false);
    });
}

#[test]
fn strsv_nan_and_inf_propagate_in_each_variant() {
    // n = 200 (four blocks of 64, so that the look-ahead and the updaters carry them): a NaN
    // in b at solve position 70, or an Inf in A at (150, 10) in solve order, makes every
    // later position of x non-finite (no zero-skip) and leaves the earlier ones finite; those
    // solve the leading triangle, checked with strsv's metric.
    let n = 200;
    // The look-ahead solve (the default) and the block kernel (`Scalar`).
    for v in [Variant::Auto, Variant::Scalar] {
        with_variant(Driver::Trsv, v, || {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                let mut r = rng(77);
                let a = crate::oracle_l2::tri_stored(&mut r, n, uplo, Diag::NonUnit, 1.0, 0.005);
                let b = rand_vec(&mut r, n);
                let row = |p: usize| if uplo == Uplo::Lower { p } else { n - 1 - p };
                let mut b_nan = b.clone();
                b_nan[row(70)] = f32::NAN;
                let mut a_inf = a.clone();
                a_inf[[row(150), row(10)]] = f32::INFINITY;
                for (what, aa, bb, first) in
                    [("NaN in b", &a, &b_nan, 70), ("Inf in A", &a_inf, &b, 150)]
                {
                    let what = format!("strsv {v:?} {uplo:?} {what}");
                    let mut x = bb.clone();
                    blas::strsv(
                        ctx(),
                        uplo,
                        Transpose::No,
                        Diag::NonUnit,
                        aa.view(),
                        x.view_mut(),
                    )
                    .unwrap();
                    for p in 0..n {
                        assert_eq!(
                            x[row(p)].is_finite(),
                            p < first,
                            "{what}: x at position {p}"
                        );
                    }
                    let lead = if uplo == Uplo::Lower {
                        0..first
                    } else {
                        n - first..n
                    };
                    let (al, xl, bl) = (
                        aa.slice(ndarray::s![lead.clone(), lead.clone()]),
                        x.slice(ndarray::s![lead.clone()]),
                        bb.slice(ndarray::s![lead]),
                    );
                    let res =
                        metrics::trsv_residual(uplo, Transpose::No, Diag::NonUnit, al, xl, bl)
                            .unwrap();
                    let bound = bounds::trsv(uplo, Transpose::No, Diag::NonUnit, al, xl);
                    let f = metrics::backward_residual_factor(&res, &bound).unwrap();
                    describe::passes("strsv", f, &what);
                }
            }
        });
    }
}
