//! The wgblas test suite: one binary, one module per routine, each with the seed's test kinds
//! (validation, fixtures against OpenBLAS with the DESIGN.md §2 metric, edge cases).
//! Tests need a GPU adapter (lavapipe on CPU-only machines) and fail loudly without one.

extern crate blas_src;

mod common;
mod describe;

mod arg_names;
mod asynch;
pub mod axpy;
mod bandwidth;
mod context;
mod device_alpha;
mod device_scalars;
pub mod dgemm;
pub mod dot;
mod f64_forms;
pub mod f64_level1;
pub mod f64_level2;
mod f64_level3;
mod f64_reductions;
pub mod gemm;
pub mod gemm_batched;
mod gemm_batched_engine;
mod gemm_lone_small;
mod gemm_small;
pub mod gemv;
pub mod ger;
mod host;
mod host_lab;
mod host_segments;
mod host_stream;
mod k_chunks;
mod kern12_level2;
mod kern_special;
mod oracle_l2;
mod panels;
mod perf_chain;
mod rank_pre;
pub mod resident;
mod resident_forms;
mod special_values;
pub mod symv;
mod symv_one_pass;
pub mod syr;
pub mod syr2;
pub mod trmv;
pub mod trsv;

pub mod gemmtr;
mod level3_common;
mod level3_real_data;
mod mtx_reader;
pub mod symm;
pub mod syr2k;
pub mod syrk;
pub mod trmm;
mod trsm;
mod trsm_device_alpha;
mod trsm_inverse;
mod trsm_rows;

mod oracle_l1;

mod asum;
pub mod copy;
mod iamax;
mod level1_large;
mod long_loops;
pub mod nrm2;
mod rot;
mod rotm;
pub mod scal;
mod scale;
mod scale_f64;
mod scale_level3;
mod scale_segments;
mod subviews;
mod swap;
mod two_term_alpha;
