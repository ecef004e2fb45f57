//! The descriptions in the benches (and report binaries): a case's operands drawn by the
//! description (`Routine::inputs`), given to the routine in host or resident form, called once
//! and checked as a test checks them (the metric and threshold of `metrics::spec`, the storage
//! outside the views, quick returns); then the description's call, or its OpenBLAS oracle,
//! timed on the same operands.

use std::cell::Cell;
use std::marker::PhantomData;

use ndarray::ArrayViewD;
use wgblas::Context;

use wgblas::metrics::Metric;

use super::{name, run_on, spec, within, Case, Elem, Ops, Routine, Slots};
use crate::common::rng;

thread_local! {
    /// Whether this thread is in a timed call ([`Timed::call`]).
    static TIMING: Cell<bool> = const { Cell::new(false) };
}

/// Whether this thread is in a timed call: the descriptions then skip the second paths that
/// their `call` also checks (the forced fallback of the f64 reductions,
/// [`super::level1::on_fallback`]; dot on resident operands runs its resident form alone, the
/// result kept on the device), so that a bench times the routine's call alone. The checked
/// call of [`Timed::new`] runs them.
pub fn timing() -> bool {
    TIMING.with(Cell::get)
}

/// A case of description `R` in element type `T`, checked once, ready to be timed.
pub struct Timed<R: Routine, T: Elem> {
    pub case: Case,
    /// The operands as drawn: the oracle's inputs.
    pub ops: Ops<T>,
    /// The operands as the routine gets them, after the checked call (the timed calls go on
    /// from there; the in-place routines overwrite their output each time, as in any bench).
    pub slots: Slots<T>,
    /// The measure of the checked call against OpenBLAS ([`Routine::measure`]); None for a
    /// quick return (checked bit for bit) and for a case made [`Timed::unchecked`].
    pub measure: Option<f64>,
    routine: PhantomData<R>,
}

impl<R: Routine, T: Elem> Timed<R, T> {
    /// The description's operands of `case` on host views stored in the case's layouts (or,
    /// `resident`, uploaded as `GpuMatrix`/`GpuVector`), called once on `ctx` and checked
    /// against OpenBLAS: panics unless the result passes the description's threshold.
    pub fn new(ctx: &Context, case: Case, resident: bool) -> Self {
        let ops = inputs::<R, T>(&case);
        let (slots, measure) = run_on::<R, T>(ctx, &case, &ops, resident.then(crate::common::ctx));
        Timed {
            case,
            ops,
            slots,
            measure,
            routine: PhantomData,
        }
    }

    /// The description's operands of `case` as [`Timed::new`] gives them to the routine, not
    /// called and not checked: for the sizes a report times past its checks (where OpenBLAS
    /// would take too long).
    pub fn unchecked(case: Case, resident: bool) -> Self {
        let ops = inputs::<R, T>(&case);
        let slots = match resident {
            true => Slots::resident(crate::common::ctx(), &case, &ops),
            false => Slots::host(&case, &ops),
        };
        Timed {
            case,
            ops,
            slots,
            measure: None,
            routine: PhantomData,
        }
    }

    /// The checked call's measure beside the description's threshold, for a report's line:
    /// `forward factor 0.012 (≤ 1, sgemm)`.
    pub fn verdict(&self) -> String {
        verdict::<R, T>(self.measure)
    }

    /// The description's BLAS-layer call on the operands (what a bench times), without its
    /// second paths (see [`timing`]).
    pub fn call(&mut self, ctx: &Context) {
        TIMING.with(|t| t.set(true));
        let done = R::call(ctx, &self.case, &mut self.slots);
        TIMING.with(|t| t.set(false));
        done.unwrap_or_else(|e| panic!("{} {:?}: {e}", name::<R, T>(), self.case));
    }

    /// The operands for the OpenBLAS side of a bench: a copy of [`Timed::ops`] with 0 where
    /// the description put NaN (storage the routine must not read: C or y under beta = 0, the
    /// other triangle), as its oracle gets them.
    pub fn oracle_ops(&self) -> Ops<T> {
        let mut o = self.ops.clone();
        [&mut o.a, &mut o.b, &mut o.c]
            .into_iter()
            .for_each(nan_to_zero);
        [&mut o.x, &mut o.y].into_iter().for_each(nan_to_zero);
        o.batches.iter_mut().for_each(nan_to_zero);
        o
    }

    /// The routine's BLAS name (`sgemm`).
    pub fn name(&self) -> String {
        name::<R, T>()
    }
}

/// The operands of `case` as description `R` draws them (seeded by the case).
pub fn inputs<R: Routine, T: Elem>(case: &Case) -> Ops<T> {
    R::inputs(&mut rng(case.seed), case)
}

/// Checks `got`, the result of `case` on operands `ops` computed otherwise than by the
/// description's call (a report's `gpu_gemm`), as the description checks its own: its measure
/// against OpenBLAS within the threshold of `metrics::spec`; panics otherwise. The measure.
pub fn check<R: Routine, T: Elem>(case: &Case, ops: &Ops<T>, got: ArrayViewD<T>) -> f64 {
    let what = format!("{} {case:?}", name::<R, T>());
    within::<R, T>(case, ops, got, &what)
}

/// A measure of description `R` beside its threshold (`metrics::spec`), named by its metric:
/// `forward factor 0.012 (≤ 1, sgemm)`; a quick return (None) is checked bit for bit.
pub fn verdict<R: Routine, T: Elem>(measure: Option<f64>) -> String {
    let (s, metric) = (spec::<R, T>(), metric_name::<R, T>());
    let unit = if T::P == 'd' && matches!(s.metric, Metric::Forward | Metric::BackwardResidual) {
        ", eps 2^-52"
    } else {
        ""
    };
    match measure {
        Some(m) => format!(
            "{metric} {m:.3} (≤ {}{unit}, {})",
            s.threshold,
            name::<R, T>()
        ),
        None => format!("{metric}: quick return, unchanged bit for bit"),
    }
}

/// The name of description `R`'s metric (`metrics::spec`): `forward factor`, `ULP`, ...
pub fn metric_name<R: Routine, T: Elem>() -> &'static str {
    match spec::<R, T>().metric {
        Metric::Forward => "forward factor",
        Metric::BackwardResidual => "backward residual factor",
        Metric::MaxUlp => "max ULP",
        Metric::Ulp => "ULP",
        Metric::Ulp64 => "f64 ULP",
        Metric::ExactIndex => "index differs",
    }
}

/// The measure of `got`, the result of `case` on operands `ops` computed otherwise than by the
/// description's call, against OpenBLAS with the description's metric ([`Routine::measure`]),
/// not judged: for a report's `CHECK,` line beside [`super::threshold`]. [`check`] judges it.
pub fn measure<R: Routine, T: Elem>(case: &Case, ops: &Ops<T>, got: ArrayViewD<T>) -> f64 {
    R::measure(case, ops, got)
}

/// 0 in place of each NaN of `a`.
fn nan_to_zero<T: Elem, D: ndarray::Dimension>(a: &mut ndarray::Array<T, D>) {
    a.mapv_inplace(|v| if v.is_nan() { T::from_f64(0.0) } else { v });
}

#[cfg(test)]
mod tests {
    use super::Timed;
    use crate::asum::Asum;
    use crate::common::ctx;
    use crate::describe::{Case, Elem, Ops};
    use crate::dot::Dot;
    use crate::gemm::Gemm;

    /// What the benches do: the checked call, then more calls on the same operands.
    #[test]
    fn timed_cases_are_checked_and_called_again() {
        for resident in [false, true] {
            let mut t = Timed::<Gemm, f32>::new(ctx(), Case::mnk(3, 17, 9, 5), resident);
            t.call(ctx());
            let mut d = Timed::<Dot, f64>::new(ctx(), Case::new(4, 33, 33), resident);
            d.call(ctx());
            assert_eq!((t.name(), d.name()), ("sgemm".into(), "ddot".into()));
            // beta = 0: the description's C is NaN (never read), OpenBLAS's side gets zeros.
            let (o, oracle): (&Ops<f32>, _) = (&t.ops, t.oracle_ops());
            assert!(o.c.iter().all(|v| v.is_nan()) && oracle.c.iter().all(|&v| v == 0.0));
            assert_eq!((oracle.a, oracle.b), (o.a.clone(), o.b.clone()));
            assert_eq!(d.oracle_ops().x, d.ops.x);
        }
        // dasum's checked call also runs the forced fallback (two results); its timed call
        // the routine alone.
        let mut a = Timed::<Asum, f64>::new(ctx(), Case::new(5, 40, 40), false);
        assert_eq!(a.slots.r.len(), 2);
        a.call(ctx());
        assert_eq!(a.slots.r.len(), 1);
        assert!(!super::timing());
        // A result computed otherwise, checked by the description: passes, and a wrong one
        // fails.
        let c = Case::new(6, 50, 50);
        let o = super::inputs::<Dot, f32>(&c);
        let d = ndarray::arr1(&[f32::o_dot(&o.x, &o.y)]).into_dyn();
        assert_eq!(super::check::<Dot, f32>(&c, &o, d.view()), 0.0);
        let wrong = d.mapv(|v| v + 1.0);
        let failed = std::panic::catch_unwind(|| super::check::<Dot, f32>(&c, &o, wrong.view()));
        assert!(failed.is_err(), "a wrong sdot passed");
        assert!(super::measure::<Dot, f32>(&c, &o, wrong.view()) > 1.0);
        // The reports' forms: the verdict of a checked call; operands not called nor checked.
        let t = Timed::<Gemm, f32>::new(ctx(), Case::mnk(3, 17, 9, 5), true);
        let f = t.measure.unwrap();
        assert!(f <= 1.0 && t.verdict() == format!("forward factor {f:.3} (≤ 1, sgemm)"));
        let mut u = Timed::<Gemm, f32>::unchecked(Case::mnk(3, 17, 9, 5), true);
        assert_eq!(u.measure, None);
        u.call(ctx());
        let got = u.slots.output(crate::describe::Out::C);
        assert!(super::check::<Gemm, f32>(&u.case, &u.ops, got.view()) <= 1.0);
        assert_eq!(super::metric_name::<Dot, f64>(), "forward factor");
        assert_eq!(
            super::verdict::<Dot, f64>(Some(0.5)),
            "forward factor 0.500 (≤ 1, eps 2^-52, ddot)"
        );
    }
}
