//! The public forms of a BLAS routine over its one core, written once ([`routine`]).

/// The blocking routines of each precision and their cores, over the routine's one generic
/// core `$core`. For each `pub fn $name / $name_in(args) -> ret;`, `$name` blocks on
/// `$name_in`, and `$name_in`, also the core of the `_async` twin (module `blas::asynch`),
/// waits for the read-back as `wait` says: it calls `$core(ctx, "$name", $pass…, wait)`, so
/// that errors name the routine called. The docs of each `$name` are written at the call; its
/// signature is that of the routine.
macro_rules! routine {
    ($($(#[$doc:meta])*
       pub fn $name:ident / $name_in:ident <$lt:lifetime> ($($arg:ident: $ty:ty),* $(,)?)
           -> $ret:ty;)+
     = $core:ident $pass:tt;
    ) => {
        $(
            $(#[$doc])*
            #[allow(clippy::too_many_arguments)]
            pub fn $name<$lt>(ctx: &$crate::Context, $($arg: $ty),*) -> $ret {
                // One core for this blocking form and its `_async` twin (module `blas::asynch`).
                pollster::block_on($name_in(ctx, $($arg,)* $crate::launch::Wait::Block))
            }

            #[doc = concat!("The core of [`", stringify!($name), "`] and [`", stringify!($name),
                "_async`](crate::blas::", stringify!($name), "_async), waiting for the ",
                "read-back as `wait` says.")]
            #[allow(clippy::too_many_arguments)]
            pub(crate) async fn $name_in<$lt>(
                ctx: &$crate::Context,
                $($arg: $ty,)*
                wait: $crate::launch::Wait,
            ) -> $ret {
                $crate::blas::forms::routine!(@call $core, ctx, stringify!($name), wait, $pass)
            }
        )+
    };
    (@call $core:ident, $ctx:ident, $name:expr, $wait:ident, ($($pass:expr),* $(,)?)) => {
        $core($ctx, $name, $($pass,)* $wait).await
    };
}
pub(crate) use routine;
