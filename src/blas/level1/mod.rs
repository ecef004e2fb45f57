//! Level 1: vector-vector routines.

pub(crate) mod asum;
pub(crate) mod axpy;
pub(crate) mod copy;
pub(crate) mod dot;
pub(crate) mod iamax;
pub(crate) mod nrm2;
pub(crate) mod rot;
pub(crate) mod rotm;
pub(crate) mod scal;
pub(crate) mod swap;
