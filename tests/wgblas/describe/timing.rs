//! The descriptions in the benches (and report binaries): a case's operands drawn by the
//! description (`Routine::inputs`), given to the routine in host or resident form, called once
//! and checked as a test checks them (the metric and threshold of `metrics::spec`, the storage
//! outside the views, quick returns); then the description's call, or its OpenBLAS oracle,
//! timed on the same operands.

use std::marker::PhantomData;

use wgblas::Context;

use super::{name, run_on, Case, Elem, Ops, Routine, Slots};
use crate::common::rng;

/// A case of description `R` in element type `T`, checked once, ready to be timed.
pub struct Timed<R: Routine, T: Elem> {
    pub case: Case,
    /// The operands as drawn: the oracle's inputs.
    pub ops: Ops<T>,
    /// The operands as the routine gets them, after the checked call (the timed calls go on
    /// from there; the in-place routines overwrite their output each time, as in any bench).
    pub slots: Slots<T>,
    routine: PhantomData<R>,
}

impl<R: Routine, T: Elem> Timed<R, T> {
    /// The description's operands of `case` on host views stored in the case's layouts (or,
    /// `resident`, uploaded as `GpuMatrix`/`GpuVector`), called once on `ctx` and checked
    /// against OpenBLAS: panics unless the result passes the description's threshold.
    pub fn new(ctx: &Context, case: Case, resident: bool) -> Self {
        let ops: Ops<T> = R::inputs(&mut rng(case.seed), &case);
        let slots = run_on::<R, T>(ctx, &case, &ops, resident);
        Timed {
            case,
            ops,
            slots,
            routine: PhantomData,
        }
    }

    /// The description's BLAS-layer call on the operands (what a bench times).
    pub fn call(&mut self, ctx: &Context) {
        R::call(ctx, &self.case, &mut self.slots)
            .unwrap_or_else(|e| panic!("{} {:?}: {e}", name::<R, T>(), self.case));
    }

    /// The routine's BLAS name (`sgemm`).
    pub fn name(&self) -> String {
        name::<R, T>()
    }
}

#[cfg(test)]
mod tests {
    use super::Timed;
    use crate::common::ctx;
    use crate::describe::{Case, Ops};
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
            let o: &Ops<f64> = &d.ops;
            assert_eq!(o.x.len(), 33);
        }
    }
}
