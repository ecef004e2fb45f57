//! The test descriptions (`tests/wgblas/describe`), shared with the benches and the report
//! binaries (`examples/host_report.rs`, `level1_report.rs`, `level3_report.rs`,
//! `bandwidth_report.rs`): a bench declares `#[path = "support/described.rs"] mod
//! described;` and imports its modules at the crate root (`use described::*;`), where the
//! descriptions look for them. The routine files bring their descriptions (`Dot`, `Gemm`, ...)
//! and their tests, which `cargo check --all-targets` compiles here too (it builds benches as
//! tests) and nothing runs.
// Each bench uses a subset, and the imports of the tests stay.
#![allow(dead_code, unused_imports, unused_macros)]

#[path = "../../tests/wgblas/common.rs"]
pub mod common;
#[path = "../../tests/wgblas/describe/mod.rs"]
pub mod describe;
#[path = "../../tests/wgblas/oracle_l1.rs"]
pub mod oracle_l1;
#[path = "../../tests/wgblas/oracle_l2.rs"]
pub mod oracle_l2;

// The descriptions of the benched routines.
#[path = "../../tests/wgblas/asum.rs"]
pub mod asum;
#[path = "../../tests/wgblas/axpy.rs"]
pub mod axpy;
#[path = "../../tests/wgblas/copy.rs"]
pub mod copy;
#[path = "../../tests/wgblas/dot.rs"]
pub mod dot;
#[path = "../../tests/wgblas/gemm.rs"]
pub mod gemm;
#[path = "../../tests/wgblas/gemm_batched.rs"]
pub mod gemm_batched;
#[path = "../../tests/wgblas/gemmtr.rs"]
pub mod gemmtr;
#[path = "../../tests/wgblas/gemv.rs"]
pub mod gemv;
#[path = "../../tests/wgblas/ger.rs"]
pub mod ger;
#[path = "../../tests/wgblas/iamax.rs"]
pub mod iamax;
#[path = "../../tests/wgblas/nrm2.rs"]
pub mod nrm2;
#[path = "../../tests/wgblas/rot.rs"]
pub mod rot;
#[path = "../../tests/wgblas/rotm.rs"]
pub mod rotm;
#[path = "../../tests/wgblas/scal.rs"]
pub mod scal;
#[path = "../../tests/wgblas/swap.rs"]
pub mod swap;
#[path = "../../tests/wgblas/symm.rs"]
pub mod symm;
#[path = "../../tests/wgblas/symv.rs"]
pub mod symv;
#[path = "../../tests/wgblas/syr.rs"]
pub mod syr;
#[path = "../../tests/wgblas/syr2.rs"]
pub mod syr2;
#[path = "../../tests/wgblas/syr2k.rs"]
pub mod syr2k;
#[path = "../../tests/wgblas/syrk.rs"]
pub mod syrk;
#[path = "../../tests/wgblas/trmm.rs"]
pub mod trmm;
#[path = "../../tests/wgblas/trmv.rs"]
pub mod trmv;
#[path = "../../tests/wgblas/trsm.rs"]
pub mod trsm;
#[path = "../../tests/wgblas/trsv.rs"]
pub mod trsv;
// What the Level 3 descriptions share.
#[path = "../../tests/wgblas/level3_common.rs"]
pub mod level3_common;
