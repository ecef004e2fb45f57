//! Level 1 test helpers: the OpenBLAS oracle of the f32 Level 1 routines for the tests that
//! are not descriptions (on contiguous copies of the logical operands), wide f64 data, and a
//! second context that forces the f64 fallback path.

use std::sync::OnceLock;

use cblas_sys::*;
use ndarray::{Array1, ArrayView1};
use rand::rngs::StdRng;
use rand::Rng;
use wgblas::Context;

/// A context of its own with the f64 fallback forced (so that the shared context, used by tests
/// running in parallel, keeps its native path). Fails loudly without an adapter.
pub fn fallback_ctx() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| {
        let c = Context::new().unwrap_or_else(|e| panic!("wgblas tests need a GPU adapter: {e}"));
        c.set_force_f64_fallback(true);
        c
    })
}

/// Both f64 paths on this machine: the shared context (native where the adapter has
/// SHADER_F64) and the forced fallback; with a name for messages.
pub fn f64_paths() -> [(&'static str, &'static Context); 2] {
    let shared = crate::common::ctx();
    let native = if shared.native_f64() {
        "native"
    } else {
        "fallback (no SHADER_F64)"
    };
    [(native, shared), ("fallback", fallback_ctx())]
}

/// An f64 value with a random exponent over most of the f64 range (|v| in [1e-300, 1e300]).
pub fn wide64(rng: &mut StdRng) -> f64 {
    let e: f64 = rng.random_range(-300.0..300.0);
    let v = 10f64.powf(e);
    if rng.random_bool(0.5) {
        -v
    } else {
        v
    }
}

fn n(x: &ArrayView1<f32>) -> i32 {
    x.len() as i32
}

/// 0-based index (CBLAS returns 0-based).
pub fn isamax(x: ArrayView1<f32>) -> usize {
    let x = x.to_owned();
    (unsafe { cblas_isamax(x.len() as i32, x.as_ptr(), 1) }) as usize
}

pub fn scopy(x: ArrayView1<f32>) -> Array1<f32> {
    let xv = x.to_owned();
    let mut y = Array1::zeros(x.len());
    unsafe { cblas_scopy(n(&x), xv.as_ptr(), 1, y.as_mut_ptr(), 1) };
    y
}

pub fn sscal(alpha: f32, x: ArrayView1<f32>) -> Array1<f32> {
    let mut x = x.to_owned();
    unsafe { cblas_sscal(x.len() as i32, alpha, x.as_mut_ptr(), 1) };
    x
}

pub fn sasum(x: ArrayView1<f32>) -> f32 {
    let x = x.to_owned();
    unsafe { cblas_sasum(x.len() as i32, x.as_ptr(), 1) }
}

pub fn snrm2(x: ArrayView1<f32>) -> f32 {
    let x = x.to_owned();
    unsafe { cblas_snrm2(x.len() as i32, x.as_ptr(), 1) }
}

pub fn srot(x: ArrayView1<f32>, y: ArrayView1<f32>, c: f32, s: f32) -> (Array1<f32>, Array1<f32>) {
    let (mut x, mut y) = (x.to_owned(), y.to_owned());
    unsafe { cblas_srot(x.len() as i32, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1, c, s) };
    (x, y)
}
