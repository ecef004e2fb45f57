//! [`Float`]: the element types of the extension traits, and its table of routines (each
//! method the `s` routine on f32, the `d` routine on f64).

use super::sealed;
use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::layout::{BatchMut, BatchRef, MatMut, MatRef, VecMut, VecRef};
use crate::Context;
use crate::{blas, resident};

/// The element types of the extension traits: `f32` (the `s` routines, `isamax`) and `f64`
/// (the `d` routines, `idamax`). Sealed. Each method is the BLAS-layer routine of that
/// precision (`Float::gemv` is [`blas::sgemv`] on f32, [`blas::dgemv`] on f64), so one generic
/// method of each extension trait serves both element types. The f64 routines need an adapter
/// with `SHADER_F64` ([`Error::Unsupported`](crate::Error::Unsupported) otherwise), except
/// `idamax` and `dasum`, which have exact fallbacks.
pub trait Float: sealed::Sealed + bytemuck::Pod + Send + Sync + 'static {
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The BLAS name of the matrix product (`"sgemm"` or `"dgemm"`), for errors.
    const GEMM: &'static str;
    /// The BLAS name of the batched product (`"sgemm_batched"` or `"dgemm_batched"`).
    const GEMM_BATCHED: &'static str;
    /// The BLAS name of axpy (`"saxpy"` or `"daxpy"`).
    const AXPY: &'static str;

    /// The BLAS name of the routine `root` in this precision (`"gemv"` → `"sgemv"` or
    /// `"dgemv"`), for errors; `root` itself for a name that is no routine.
    fn name(root: &'static str) -> &'static str;

    routine_table!(float_routines, @decl);
}

/// The table of [`Float`]'s routine methods, written once: each line is a method, its
/// arguments after `ctx`, its result, and the f32 and f64 routines it forwards to. `$cb` is
/// called with `$mode` and the table ([`float_routines`] declares the methods in the trait and
/// defines them in each impl).
macro_rules! routine_table {
    ($cb:ident, $($mode:tt)*) => {
        $cb! { $($mode)*
            fn iamax<'a>(x: impl Into<VecRef<'a, Self>>) -> Result<usize>
                = blas::isamax | blas::idamax;
            fn asum<'a>(x: impl Into<VecRef<'a, Self>>) -> Result<Self>
                = blas::sasum | blas::dasum;
            fn nrm2<'a>(x: impl Into<VecRef<'a, Self>>) -> Result<Self>
                = blas::snrm2 | blas::dnrm2;
            fn dot<'a>(x: impl Into<VecRef<'a, Self>>, y: impl Into<VecRef<'a, Self>>)
                -> Result<Self> = blas::sdot | blas::ddot;
            fn dot_kept<'a>(x: impl Into<VecRef<'a, Self>>, y: impl Into<VecRef<'a, Self>>)
                -> Result<crate::GpuScalar<'_, Self>> = resident::sdot | resident::ddot;
            fn axpy<'a>(alpha: Self, x: impl Into<VecRef<'a, Self>>, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::saxpy | blas::daxpy;
            fn copy<'a>(x: impl Into<VecRef<'a, Self>>, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::scopy | blas::dcopy;
            fn scal<'a>(alpha: Self, x: impl Into<VecMut<'a, Self>>) -> Result<()>
                = blas::sscal | blas::dscal;
            fn swap<'a>(x: impl Into<VecMut<'a, Self>>, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::sswap | blas::dswap;
            fn rot<'a>(x: impl Into<VecMut<'a, Self>>, y: impl Into<VecMut<'a, Self>>, c: Self,
                s: Self) -> Result<()> = blas::srot | blas::drot;
            fn rotm<'a>(x: impl Into<VecMut<'a, Self>>, y: impl Into<VecMut<'a, Self>>,
                param: [Self; 5]) -> Result<()> = blas::srotm | blas::drotm;
            fn gemv<'a>(trans: Transpose, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecRef<'a, Self>>, beta: Self, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::sgemv | blas::dgemv;
            fn symv<'a>(uplo: Uplo, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecRef<'a, Self>>, beta: Self, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::ssymv | blas::dsymv;
            fn trmv<'a>(uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecMut<'a, Self>>) -> Result<()> = blas::strmv | blas::dtrmv;
            fn trsv<'a>(uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecMut<'a, Self>>) -> Result<()> = blas::strsv | blas::dtrsv;
            fn ger<'a>(alpha: Self, x: impl Into<VecRef<'a, Self>>, y: impl Into<VecRef<'a, Self>>,
                a: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::sger | blas::dger;
            fn syr<'a>(uplo: Uplo, alpha: Self, x: impl Into<VecRef<'a, Self>>,
                a: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::ssyr | blas::dsyr;
            fn syr2<'a>(uplo: Uplo, alpha: Self, x: impl Into<VecRef<'a, Self>>,
                y: impl Into<VecRef<'a, Self>>, a: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::ssyr2 | blas::dsyr2;
            fn gemm<'a>(transa: Transpose, transb: Transpose, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatRef<'a, Self>>, beta: Self,
                c: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::sgemm | blas::dgemm;
            fn gemm_batched<'a>(transa: Transpose, transb: Transpose, alpha: Self,
                a: impl Into<BatchRef<'a, Self>>, b: impl Into<BatchRef<'a, Self>>, beta: Self,
                c: impl Into<BatchMut<'a, Self>>) -> Result<()>
                = blas::sgemm_batched | blas::dgemm_batched;
            fn gemmtr<'a>(uplo: Uplo, transa: Transpose, transb: Transpose, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatRef<'a, Self>>, beta: Self,
                c: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::sgemmtr | blas::dgemmtr;
            fn syrk<'a>(uplo: Uplo, trans: Transpose, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                beta: Self, c: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::ssyrk | blas::dsyrk;
            fn syr2k<'a>(uplo: Uplo, trans: Transpose, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatRef<'a, Self>>, beta: Self,
                c: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::ssyr2k | blas::dsyr2k;
            fn symm<'a>(side: Side, uplo: Uplo, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                b: impl Into<MatRef<'a, Self>>, beta: Self, c: impl Into<MatMut<'a, Self>>)
                -> Result<()> = blas::ssymm | blas::dsymm;
            fn trmm<'a>(side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::strmm | blas::dtrmm;
            fn trsm<'a>(side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::strsm | blas::dtrsm;
        }
    };
}
use routine_table;

/// The methods of [`routine_table`]: declared in the trait (`@decl`), or defined in the impl
/// for f32 (`@impl s`) or f64 (`@impl d`), each forwarding `ctx` and its arguments, unchanged,
/// to the routine of that precision.
macro_rules! float_routines {
    (@decl $(fn $name:ident<$lt:lifetime>($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
        = $sm:ident::$s:ident | $dm:ident::$d:ident;)*) => {
        $(
            #[doc = concat!("[`", stringify!($sm), "::", stringify!($s), "`] / [`",
                stringify!($dm), "::", stringify!($d), "`].\n\n# Errors\nAs the routine.")]
            #[allow(clippy::too_many_arguments)]
            fn $name<$lt>(ctx: &Context, $($arg: $ty),*) -> $ret;
        )*
    };
    (@impl $p:ident $(fn $name:ident<$lt:lifetime>($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
        = $sm:ident::$s:ident | $dm:ident::$d:ident;)*) => {
        $(
            fn $name<$lt>(ctx: &Context, $($arg: $ty),*) -> $ret {
                float_routines!(@pick $p $sm::$s, $dm::$d)(ctx, $($arg),*)
            }
        )*
    };
    (@name $p:ident $root:ident $(fn $name:ident<$lt:lifetime>($($arg:ident: $ty:ty),* $(,)?)
        -> $ret:ty = $sm:ident::$s:ident | $dm:ident::$d:ident;)*) => {
        match $root {
            $(stringify!($name) => concat!(stringify!($p), stringify!($name)),)*
            _ => $root,
        }
    };
    (@pick s $s:path, $d:path) => { $s };
    (@pick d $s:path, $d:path) => { $d };
}
use float_routines;

/// One impl of [`Float`] per element type: the constants, [`Float::name`], and the routine
/// methods of [`routine_table`] forwarding to the routines of precision `$p` (`s` or `d`).
macro_rules! float_impl {
    ($t:ty, $p:ident, $iamax:literal) => {
        impl Float for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const GEMM: &'static str = concat!(stringify!($p), "gemm");
            const GEMM_BATCHED: &'static str = concat!(stringify!($p), "gemm_batched");
            const AXPY: &'static str = concat!(stringify!($p), "axpy");

            fn name(root: &'static str) -> &'static str {
                match root {
                    "iamax" => $iamax,
                    other => routine_table!(float_routines, @name $p other),
                }
            }

            routine_table!(float_routines, @impl $p);
        }
    };
}

float_impl!(f32, s, "isamax");
float_impl!(f64, d, "idamax");
