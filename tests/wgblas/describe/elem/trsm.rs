//! strsm and dtrsm (`Solve`, a supertrait of `Elem`): the BLAS-layer call by precision.

use wgblas::layout::{MatMut, MatRef};
use wgblas::{blas, Context, Diag, Side, Transpose, Uplo};

/// The triangular solve of the trsm description.
pub trait Solve: Sized {
    #[allow(clippy::too_many_arguments)]
    fn trsm<'a>(
        c: &Context,
        s: Side,
        u: Uplo,
        t: Transpose,
        d: Diag,
        alpha: Self,
        a: MatRef<'a, Self>,
        b: MatMut<'a, Self>,
    ) -> wgblas::Result<()>;
}

macro_rules! solve {
    ($t:ty, $trsm:path) => {
        impl Solve for $t {
            fn trsm<'a>(
                c: &Context,
                s: Side,
                u: Uplo,
                t: Transpose,
                d: Diag,
                alpha: Self,
                a: MatRef<'a, Self>,
                b: MatMut<'a, Self>,
            ) -> wgblas::Result<()> {
                $trsm(c, s, u, t, d, alpha, a, b)
            }
        }
    };
}

solve!(f32, blas::strsm);
solve!(f64, blas::dtrsm);
