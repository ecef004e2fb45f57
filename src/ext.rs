//! Extension traits: the BLAS routines as methods on ndarray arrays, on the shared default
//! context ([`Context::shared`]).
//!
//! Names are `gpu_` + the BLAS root without the precision letter. The receiver is the routine's
//! first operand (`x` for `axpy`, `A` for `gemv`, `trsv`, `gemm`). The plain form returns a new
//! array; the `_inplace` form takes the output last, as `&mut`, and writes it like BLAS does.
//! Any layout and stride is accepted (see [`crate::layout`]). Errors are those of the
//! [`crate::blas`] routine named in each method's doc; on error the output is unchanged. A plain
//! form whose new output array cannot be allocated on the host returns
//! [`Error::OutOfHostMemory`](crate::Error::OutOfHostMemory) before any work.

use ndarray::{Array1, Array2, Array3, ArrayBase, Data, Ix1, Ix2, Ix3};

use crate::error::Result;
use crate::Context;

/// The one method each array type implements for an extension trait: `$acc`, the receiver
/// as an ndarray view (`ref`: `&self` → `$view`, `mut`: `&mut self` → `$view`).
macro_rules! ext_view {
    (ref $tr:ident for $ix:ident: $view:ident) => {
        impl<A: Float, T: ndarray::Data<Elem = A>> $tr<A> for ndarray::ArrayBase<T, ndarray::$ix> {
            fn ext_view(&self) -> ndarray::$view<'_, A> {
                self.view()
            }
        }
    };
    (mut $tr:ident for $ix:ident: $view:ident) => {
        impl<A: Float, T: ndarray::DataMut<Elem = A>> $tr<A>
            for ndarray::ArrayBase<T, ndarray::$ix>
        {
            fn ext_view_mut(&mut self) -> ndarray::$view<'_, A> {
                self.view_mut()
            }
        }
    };
}

mod float;
mod level1;
mod level2;
mod level3;
mod resident_forms;
pub use float::Float;
pub use level1::{Level1Ext, Level1MutExt};
pub use level2::{Level2Ext, Level2VecExt};
pub use level3::{GemmExt, Level3BatchExt, Level3Ext};

/// A new zero array of shape `dim` for a routine's output `arg`, after checking that its size
/// is representable and fits the shared context's device (so that an absurd shape, for example
/// the product of 2^32×1 and 1×2^32 broadcast views, is a typed error before any allocation).
fn zeros<A: bytemuck::Zeroable + Copy + Send + Sync, D: ndarray::Dimension>(
    routine: &'static str,
    arg: &'static str,
    dim: D,
) -> Result<ndarray::Array<A, D>> {
    let elems = dim
        .slice()
        .iter()
        .try_fold(1usize, |e, &d| e.checked_mul(d))
        .ok_or(crate::Error::TooLarge {
            routine,
            arg,
            bytes: u64::MAX,
            limit: i32::MAX as u64 * 4,
        })?;
    // Each dimension within the kernels' 32-bit signed indexing, as the routine itself checks
    // it ([`crate::blas::check_dim`]), so that no output is allocated for a call it refuses.
    for &d in dim.slice() {
        crate::blas::check_dim(routine, arg, d)?;
    }
    crate::layout::check_fits::<A>(Context::shared()?, routine, arg, elems)?;
    let data = crate::transfer::zeros_vec(elems).ok_or(crate::Error::OutOfHostMemory {
        routine,
        arg,
        bytes: (elems as u64).saturating_mul(std::mem::size_of::<A>() as u64),
    })?;
    ndarray::Array::from_shape_vec(dim, data).map_err(|e| crate::Error::InvalidArgument {
        routine,
        arg,
        detail: e.to_string(),
    })
}

/// A new zero matrix `c` for a routine's output (see [`zeros`]).
fn zeros2_of<A: bytemuck::Zeroable + Copy + Send + Sync>(
    routine: &'static str,
    (rows, cols): (usize, usize),
) -> Result<Array2<A>> {
    zeros(routine, "c", ndarray::Ix2(rows, cols))
}

/// A new zero batch of matrices `c` for a routine's output (see [`zeros`]).
fn zeros3<A: bytemuck::Zeroable + Copy + Send + Sync>(
    routine: &'static str,
    (batch, rows, cols): (usize, usize, usize),
) -> Result<Array3<A>> {
    zeros(routine, "c", ndarray::Ix3(batch, rows, cols))
}

/// A new zero vector `y` for a routine's output (see [`zeros`]).
fn zeros1<A: bytemuck::Zeroable + Copy + Send + Sync>(
    routine: &'static str,
    len: usize,
) -> Result<Array1<A>> {
    zeros(routine, "y", ndarray::Ix1(len))
}

/// An owned copy of operand `arg` that the routine then updates in place, after the checks of
/// [`zeros`] (a broadcast view may have far more elements than memory). The copy is checked as
/// the routine's own argument `arg` (the one it overwrites), so it is held in several buffers
/// wherever the in-place form takes that argument past one buffer.
fn owned<A: Clone, S: Data<Elem = A>, D: ndarray::Dimension>(
    routine: &'static str,
    arg: &'static str,
    a: &ArrayBase<S, D>,
) -> Result<ndarray::Array<A, D>> {
    crate::layout::check_fits::<A>(Context::shared()?, routine, arg, a.len())?;
    Ok(a.to_owned())
}

pub(crate) mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Upload to the shared context's device: `a.to_gpu()` (see [`crate::resident`]).
pub trait ToGpu {
    /// The resident type: [`GpuVector`](crate::GpuVector) for 1-D arrays,
    /// [`GpuMatrix`](crate::GpuMatrix) for 2-D ones, [`GpuBatch`](crate::GpuBatch) for 3-D ones.
    type Resident;

    /// Upload the array (any layout) to the shared context ([`Context::shared`]).
    ///
    /// # Errors
    /// [`Error::NoAdapter`](crate::Error::NoAdapter), or
    /// [`Error::TooLarge`](crate::Error::TooLarge) past one buffer of the device
    /// (`max_buffer_size`).
    fn to_gpu(&self) -> Result<Self::Resident>;
}

impl<T: crate::resident::Element, S: Data<Elem = T>> ToGpu for ArrayBase<S, Ix1> {
    type Resident = crate::GpuVector<'static, T>;
    fn to_gpu(&self) -> Result<Self::Resident> {
        Context::shared()?.upload_vector(self)
    }
}

impl<T: crate::resident::Element, S: Data<Elem = T>> ToGpu for ArrayBase<S, Ix2> {
    type Resident = crate::GpuMatrix<'static, T>;
    fn to_gpu(&self) -> Result<Self::Resident> {
        Context::shared()?.upload_matrix(self)
    }
}

impl<T: crate::resident::Element, S: Data<Elem = T>> ToGpu for ArrayBase<S, Ix3> {
    type Resident = crate::GpuBatch<'static, T>;
    fn to_gpu(&self) -> Result<Self::Resident> {
        Context::shared()?.upload_batch(self)
    }
}
