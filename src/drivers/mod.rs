//! Drivers, one per signature class (BLIS's idea): each owns a shader of `wgsl/`, its params
//! layout and its grid sizing, and turns operands into [`Dispatch`](crate::launch::Dispatch)es
//! for the one launch path. Routine files in [`crate::blas`] only validate and map BLAS
//! arguments onto a driver.

pub(crate) mod blocksolve;
pub(crate) mod elementwise;
pub(crate) mod matmul;
pub(crate) mod matvec;
pub(crate) mod rankupdate;
pub(crate) mod reduction;
pub(crate) mod trsolve;

/// Declare a `static` [`Shader`](crate::context::Shader) for a file under `wgsl/`.
macro_rules! shader {
    ($name:ident, $path:literal) => {
        pub(crate) static $name: $crate::context::Shader = $crate::context::Shader {
            name: $path,
            source: include_str!(concat!("../../wgsl/", $path)),
        };
    };
}
pub(crate) use shader;
