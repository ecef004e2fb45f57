//! The known-bad inputs of a description ([`Bad`]) and the validation test kind run from them:
//! each gives the typed `wgblas::Error` naming routine and argument, in the host and the
//! resident form, and leaves the output as it was.

use ndarray::{Array1, Array2, Array3};
use wgblas::Error;

use super::{name, same_bits, Case, Elem, Ops, Routine, Slots};
use crate::common::ctx;

/// A known-bad input: the operand shapes of the call, the error variant and the argument it
/// must name.
#[derive(Debug, Clone, Copy)]
pub struct Bad {
    pub case: Case,
    /// Rows and columns of the stored A, lengths of x and y.
    pub a: (usize, usize),
    pub x: usize,
    pub y: usize,
    /// Level 3: rows and columns of the stored B and C.
    pub b: (usize, usize),
    pub c: (usize, usize),
    /// Batched routines: the shapes of the stored batches A, B and C.
    pub batches: [(usize, usize, usize); 3],
    /// The `wgblas::Error` variant, by name.
    pub error: &'static str,
    pub arg: &'static str,
}

impl Bad {
    /// A Level 1 or 2 input: A stored `a`, x and y of lengths `x` and `y`.
    pub fn vecs(
        case: Case,
        a: (usize, usize),
        x: usize,
        y: usize,
        error: &'static str,
        arg: &'static str,
    ) -> Bad {
        let none = (0, 0);
        Bad {
            case,
            a,
            x,
            y,
            b: none,
            c: none,
            batches: [(0, 0, 0); 3],
            error,
            arg,
        }
    }

    /// A Level 3 input: A, B and C stored `a`, `b` and `c`.
    pub fn mats(
        case: Case,
        a: (usize, usize),
        b: (usize, usize),
        c: (usize, usize),
        error: &'static str,
        arg: &'static str,
    ) -> Bad {
        Bad {
            case,
            a,
            x: 0,
            y: 0,
            b,
            c,
            batches: [(0, 0, 0); 3],
            error,
            arg,
        }
    }

    /// A batched input: the batches A, B and C of shapes `batches`.
    pub fn batched(
        case: Case,
        batches: [(usize, usize, usize); 3],
        error: &'static str,
        arg: &'static str,
    ) -> Bad {
        Bad {
            batches,
            ..Bad::mats(case, (0, 0), (0, 0), (0, 0), error, arg)
        }
    }
}

/// The variant name, routine and argument of an error.
pub fn named(e: &Error) -> (&'static str, &'static str, &'static str) {
    match e {
        Error::DimensionMismatch { routine, arg, .. } => ("DimensionMismatch", routine, arg),
        Error::NotSquare { routine, arg, .. } => ("NotSquare", routine, arg),
        Error::TooLarge { routine, arg, .. } => ("TooLarge", routine, arg),
        Error::InvalidArgument { routine, arg, .. } => ("InvalidArgument", routine, arg),
        Error::OutOfRange { routine, arg, .. } => ("OutOfRange", routine, arg),
        Error::OutOfHostMemory { routine, arg, .. } => ("OutOfHostMemory", routine, arg),
        _ => ("other", "", ""),
    }
}

/// Panic unless `e` is the variant naming the routine and the argument of `want`.
#[track_caller]
pub fn assert_named(e: &Error, want: (&str, &str, &str)) {
    let (variant, routine, arg) = named(e);
    assert_eq!((variant, routine, arg), want, "{e}");
}

/// Each known-bad input, in the host and the resident form: the typed error naming the
/// routine and the argument, and the output left as it was.
pub fn validation<R: Routine, T: Elem>() {
    let routine = name::<R, T>();
    for bad in R::bad() {
        let fill = T::from_f64(7.0);
        let o = Ops {
            a: Array2::from_elem(bad.a, fill),
            x: Array1::from_elem(bad.x, fill),
            y: Array1::from_elem(bad.y, fill),
            b: Array2::from_elem(bad.b, fill),
            c: Array2::from_elem(bad.c, fill),
            batches: bad.batches.map(|d| Array3::from_elem(d, fill)),
        };
        for resident in [false, true] {
            let mut s = if resident {
                Slots::resident(ctx(), &bad.case, &o)
            } else {
                Slots::host(&bad.case, &o)
            };
            let err = R::call(ctx(), &bad.case, &mut s).unwrap_err();
            if let Error::NotSquare {
                rows, cols, arg, ..
            } = err
            {
                let named = match arg {
                    "b" => bad.b,
                    "c" => bad.c,
                    _ => bad.a,
                };
                assert_eq!((rows, cols), named, "{routine} {bad:?}: {err}");
            }
            let (variant, r, arg) = named(&err);
            assert_eq!(
                (variant, r, arg),
                (bad.error, routine.as_str(), bad.arg),
                "{bad:?} resident={resident}: {err}"
            );
            let before = o.output(R::ID.1);
            assert!(
                same_bits(&s.output(R::ID.1), &before),
                "{routine} {bad:?} resident={resident}: output changed"
            );
        }
    }
}
