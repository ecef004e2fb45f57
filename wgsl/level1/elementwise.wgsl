// Level 1 element-wise driver: one invocation per element i < n.
//   OP = 0  axpy:  y_i = alpha·x_i + y_i
// Vectors are addressed with an offset and a signed stride (layout.rs).

override OP: u32 = 0u;
const WG: u32 = 256u;

struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    alpha: f32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> x: array<T>;
@group(0) @binding(2) var<storage, read_write> y: array<T>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = linear_group(wid, nwg) * WG + lid;
    if (i >= P.n) {
        return;
    }
    let ix = vidx(P.offx, i, P.incx);
    let iy = vidx(P.offy, i, P.incy);
    switch OP {
        default: {
            y[iy] = T(P.alpha) * x[ix] + y[iy];
        }
    }
}
