//! Level 1 test helpers: the OpenBLAS oracle for the Level 1 routines (on contiguous copies of
//! the logical operands), f64 data and stored layouts, and a second context that forces the f64
//! fallback path.

use std::sync::OnceLock;

use cblas_sys::*;
use ndarray::{s, Array1, ArrayView1, ArrayViewMut1};
use rand::rngs::StdRng;
use rand::Rng;
use wgblas::Context;

use crate::common::VLayout;

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

/// An f64 value with |v| in [1e-3, 1] and a random sign.
pub fn value64(rng: &mut StdRng) -> f64 {
    let v: f64 = rng.random_range(1e-3..=1.0);
    if rng.random_bool(0.5) {
        -v
    } else {
        v
    }
}

pub fn rand_vec64(rng: &mut StdRng, n: usize) -> Array1<f64> {
    Array1::from_shape_simple_fn(n, || value64(rng))
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

/// An f64 vector stored in a `VLayout` (NaN padding between strided elements).
pub struct Vector64 {
    buf: Array1<f64>,
    layout: VLayout,
}

impl Vector64 {
    pub fn new(logical: &Array1<f64>, layout: VLayout) -> Self {
        let n = logical.len();
        let len = match layout {
            VLayout::Unit | VLayout::Reversed => n,
            VLayout::Step2 | VLayout::ReversedStep2 => 2 * n + 1,
        };
        let mut me = Vector64 {
            buf: Array1::from_elem(len, f64::NAN),
            layout,
        };
        me.view_mut().assign(logical);
        me
    }

    pub fn view(&self) -> ArrayView1<'_, f64> {
        match self.layout {
            VLayout::Unit => self.buf.view(),
            VLayout::Step2 => self.buf.slice(s![1..;2]),
            VLayout::Reversed => self.buf.slice(s![..;-1]),
            VLayout::ReversedStep2 => self.buf.slice(s![1..;-2]),
        }
    }

    fn view_mut(&mut self) -> ArrayViewMut1<'_, f64> {
        match self.layout {
            VLayout::Unit => self.buf.view_mut(),
            VLayout::Step2 => self.buf.slice_mut(s![1..;2]),
            VLayout::Reversed => self.buf.slice_mut(s![..;-1]),
            VLayout::ReversedStep2 => self.buf.slice_mut(s![1..;-2]),
        }
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

pub fn idamax(x: ArrayView1<f64>) -> usize {
    let x = x.to_owned();
    (unsafe { cblas_idamax(x.len() as i32, x.as_ptr(), 1) }) as usize
}

pub fn scopy(x: ArrayView1<f32>) -> Array1<f32> {
    let xv = x.to_owned();
    let mut y = Array1::zeros(x.len());
    unsafe { cblas_scopy(n(&x), xv.as_ptr(), 1, y.as_mut_ptr(), 1) };
    y
}

pub fn sswap(x: ArrayView1<f32>, y: ArrayView1<f32>) -> (Array1<f32>, Array1<f32>) {
    let (mut x, mut y) = (x.to_owned(), y.to_owned());
    unsafe { cblas_sswap(x.len() as i32, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1) };
    (x, y)
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

pub fn dasum(x: ArrayView1<f64>) -> f64 {
    let x = x.to_owned();
    unsafe { cblas_dasum(x.len() as i32, x.as_ptr(), 1) }
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

pub fn srotm(
    x: ArrayView1<f32>,
    y: ArrayView1<f32>,
    param: [f32; 5],
) -> (Array1<f32>, Array1<f32>) {
    let (mut x, mut y) = (x.to_owned(), y.to_owned());
    unsafe {
        cblas_srotm(
            x.len() as i32,
            x.as_mut_ptr(),
            1,
            y.as_mut_ptr(),
            1,
            param.as_ptr(),
        )
    };
    (x, y)
}
