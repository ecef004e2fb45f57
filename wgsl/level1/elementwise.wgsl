// Level 1 element-wise driver: one invocation per element i < n.
//   OP = 0  axpy:  y_i = h11·x_i + y_i                       (h11 = alpha; alpha = 0: x and y
//                                                             are not read, y is unchanged)
//   OP = 1  copy:  y_i = x_i
//   OP = 2  swap:  (x_i, y_i) = (y_i, x_i)
//   OP = 3  scal:  x_i = h11·x_i                             (h11 = alpha; y is a dummy binding)
//   OP = 4  rot:   (x_i, y_i) = (h11·x_i + h12·y_i, h21·x_i + h22·y_i)
//                  srot: H = [[c, s], [−s, c]]; srotm: H decoded from param on the host.
// Vectors are addressed with an offset and a signed stride (layout.rs). Every OP uses both x
// and y, so the auto layout of `main` always has bindings 1 and 2 (scal binds a dummy y: WebGPU
// forbids binding one buffer twice as read_write in a dispatch).
// Each entry of axpy and scal has a `_dev` twin that reads h11 (alpha) from the storage
// binding `sc` at word `P.sw` (a device scalar, `GpuScalar`) instead of the params, so that a
// chain of calls with device alphas needs no copy into the params (DESIGN.md §3 holds the same:
// the value is tested on its bits in both forms).

override OP: u32 = 0u;
const WG: u32 = 256u;

struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    h11: f32,
    h12: f32,
    h21: f32,
    h22: f32,
    sw: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> x: array<T>;
@group(0) @binding(2) var<storage, read_write> y: array<T>;

// h11 (alpha) of the `_dev` entries: the device scalar's word of `sc` (f32 for the f32 kernels;
// the conversion only lets the f64 instantiation of the module compile, which never runs them).
fn dev_alpha() -> f32 {
    return f32(sc[P.sw]);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    elem_op(linear_group(wid, nwg) * WG + lid, P.h11);
}

@compute @workgroup_size(WG)
fn main_dev(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    elem_op(linear_group(wid, nwg) * WG + lid, dev_alpha());
}

// Element i of `main` with the coefficient h11 (the others from the params).
fn elem_op(i: u32, h11: f32) {
    if (i >= P.n) {
        return;
    }
    // scal with alpha = 1 (host or device scalar) leaves x as it is, bit for bit.
    if (OP == 3u && f32_is_one(h11)) {
        return;
    }
    let ix = vidx(P.offx, i, P.incx);
    let iy = vidx(P.offy, i, P.incy);
    switch OP {
        case 1u: {
            y[iy] = x[ix];
        }
        case 2u: {
            let t = x[ix];
            x[ix] = y[iy];
            y[iy] = t;
        }
        case 3u: {
            x[ix] = T(h11) * x[ix];
        }
        case 4u: {
            let xi = x[ix];
            let yi = y[iy];
            x[ix] = T(h11) * xi + T(P.h12) * yi;
            y[iy] = T(P.h21) * xi + T(P.h22) * yi;
        }
        default: {
            // alpha = 0 (host or device scalar, tested on its bits) reads neither x nor y.
            if (!f32_is_zero(h11)) {
                y[iy] = T(h11) * x[ix] + y[iy];
            }
        }
    }
}

// `main_vec4`: the same operations on vec4 units of contiguous x and y (unit strides, offsets
// multiples of 4; the host runs the n mod 4 last elements through `main`). Each workgroup
// handles UNROLL·WG consecutive units, each invocation UNROLL of them WG apart (coalesced), all
// loads issued before the stores.
const UNROLL: u32 = 4u;

@group(0) @binding(3) var<storage, read_write> xv: array<vec4<T>>;
@group(0) @binding(4) var<storage, read_write> yv: array<vec4<T>>;

fn unit_op(ix: u32, iy: u32, h11: f32) {
    switch OP {
        case 1u: {
            yv[iy] = xv[ix];
        }
        case 2u: {
            let t = xv[ix];
            xv[ix] = yv[iy];
            yv[iy] = t;
        }
        case 3u: {
            xv[ix] = T(h11) * xv[ix];
        }
        case 4u: {
            let xi = xv[ix];
            let yi = yv[iy];
            xv[ix] = T(h11) * xi + T(P.h12) * yi;
            yv[iy] = T(P.h21) * xi + T(P.h22) * yi;
        }
        default: {
            yv[iy] = T(h11) * xv[ix] + yv[iy];
        }
    }
}

@compute @workgroup_size(WG)
fn main_vec4(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    vec4_op(linear_group(wid, nwg), lid, P.h11);
}

@compute @workgroup_size(WG)
fn main_vec4_dev(@builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    vec4_op(linear_group(wid, nwg), lid, dev_alpha());
}

// Workgroup `g`, invocation `lid` of `main_vec4` with the coefficient h11.
fn vec4_op(g: u32, lid: u32, h11: f32) {
    // axpy with alpha = 0 (host or device scalar, tested on its bits) reads neither x nor y;
    // scal with alpha = 1 leaves x as it is, bit for bit (the host quick return's twin).
    if ((OP == 0u && f32_is_zero(h11)) || (OP == 3u && f32_is_one(h11))) {
        return;
    }
    let n4 = P.n / 4u;
    let base = g * WG * UNROLL + lid;
    let ox = P.offx / 4u;
    let oy = P.offy / 4u;
    if (base + (UNROLL - 1u) * WG < n4) {
        // Whole: UNROLL loads in flight, then UNROLL stores (copy and scal need no y, swap and
        // rot write both).
        var a: array<vec4<T>, UNROLL>;
        var b: array<vec4<T>, UNROLL>;
        for (var k = 0u; k < UNROLL; k = k + 1u) {
            let u = base + k * WG;
            a[k] = xv[ox + u];
            if (OP != 1u && OP != 3u) {
                b[k] = yv[oy + u];
            }
        }
        for (var k = 0u; k < UNROLL; k = k + 1u) {
            let u = base + k * WG;
            let xi = a[k];
            let yi = b[k];
            switch OP {
                case 1u: {
                    yv[oy + u] = xi;
                }
                case 2u: {
                    xv[ox + u] = yi;
                    yv[oy + u] = xi;
                }
                case 3u: {
                    xv[ox + u] = T(h11) * xi;
                }
                case 4u: {
                    xv[ox + u] = T(h11) * xi + T(P.h12) * yi;
                    yv[oy + u] = T(P.h21) * xi + T(P.h22) * yi;
                }
                default: {
                    yv[oy + u] = T(h11) * xi + yi;
                }
            }
        }
        return;
    }
    for (var k = 0u; k < UNROLL; k = k + 1u) {
        let u = base + k * WG;
        if (u < n4) {
            unit_op(ox + u, oy + u, h11);
        }
    }
}

// `scal_one` and `scal_vec4`: scal (x_i = h11·x_i) on x alone, so that no dummy y is bound
// (`main` and `main_vec4` with OP = 3 need one: their auto layouts hold both vectors).
// `scal_one`: one element per invocation, any stride; `scal_vec4`: UNROLL vec4 units per
// invocation, WG apart, loads before stores (unit stride, offset a multiple of 4; the n mod 4
// last elements go through `scal_one`). alpha = 1 leaves x as it is, bit for bit.
@compute @workgroup_size(WG)
fn scal_one(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    scal_elem(linear_group(wid, nwg) * WG + lid, P.h11);
}

@compute @workgroup_size(WG)
fn scal_one_dev(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    scal_elem(linear_group(wid, nwg) * WG + lid, dev_alpha());
}

fn scal_elem(i: u32, h11: f32) {
    if (i >= P.n || f32_is_one(h11)) {
        return;
    }
    let ix = vidx(P.offx, i, P.incx);
    x[ix] = T(h11) * x[ix];
}

@compute @workgroup_size(WG)
fn scal_vec4(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    scal_units(linear_group(wid, nwg), lid, P.h11);
}

@compute @workgroup_size(WG)
fn scal_vec4_dev(@builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    scal_units(linear_group(wid, nwg), lid, dev_alpha());
}

fn scal_units(g: u32, lid: u32, h11: f32) {
    if (f32_is_one(h11)) {
        return;
    }
    let n4 = P.n / 4u;
    let base = g * WG * UNROLL + lid;
    let ox = P.offx / 4u;
    var a: array<vec4<T>, UNROLL>;
    for (var k = 0u; k < UNROLL; k = k + 1u) {
        let u = base + k * WG;
        if (u < n4) {
            a[k] = xv[ox + u];
        }
    }
    for (var k = 0u; k < UNROLL; k = k + 1u) {
        let u = base + k * WG;
        if (u < n4) {
            xv[ox + u] = T(h11) * a[k];
        }
    }
}

// `axpy_sc`: y_i = alpha·x_i + y_i with alpha read as T from `sc[0]` (f64 daxpy, whose alpha
// the f32 params cannot hold; the host skips a host alpha = 0, the kernel a device one, copied
// into `sc`: y stays as it is and x is not read; an ordered comparison, so NaN is not 0),
// UNROLL elements per invocation, WG apart (coalesced), any strides.
@group(0) @binding(5) var<storage, read> sc: array<T>;

@compute @workgroup_size(WG)
fn axpy_sc(@builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let alpha = sc[0];
    if (alpha == T(0)) {
        return;
    }
    let base = linear_group(wid, nwg) * WG * UNROLL + lid;
    for (var k = 0u; k < UNROLL; k = k + 1u) {
        let i = base + k * WG;
        if (i < P.n) {
            let iy = vidx(P.offy, i, P.incy);
            y[iy] = alpha * x[vidx(P.offx, i, P.incx)] + y[iy];
        }
    }
}

// `scal_sc`: x_i = alpha·x_i with alpha read as T from `sc[0]` (f64 dscal), UNROLL elements
// per invocation, WG apart, any stride. Only this entry, `axpy_sc`, `rot_sc` and the `_dev`
// entries use binding 5.
@compute @workgroup_size(WG)
fn scal_sc(@builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let alpha = sc[0];
    let base = linear_group(wid, nwg) * WG * UNROLL + lid;
    for (var k = 0u; k < UNROLL; k = k + 1u) {
        let i = base + k * WG;
        if (i < P.n) {
            let ix = vidx(P.offx, i, P.incx);
            x[ix] = alpha * x[ix];
        }
    }
}

// `rot_sc`: (x_i, y_i) = (h11·x_i + h12·y_i, h21·x_i + h22·y_i) with H read as T from
// `sc[0..4] = [h11, h12, h21, h22]` (f64 drot and drotm, whose coefficients the f32 params
// cannot hold), UNROLL elements per invocation, WG apart, any strides.
@compute @workgroup_size(WG)
fn rot_sc(@builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
    let h11 = sc[0];
    let h12 = sc[1];
    let h21 = sc[2];
    let h22 = sc[3];
    let base = linear_group(wid, nwg) * WG * UNROLL + lid;
    for (var k = 0u; k < UNROLL; k = k + 1u) {
        let i = base + k * WG;
        if (i < P.n) {
            let ix = vidx(P.offx, i, P.incx);
            let iy = vidx(P.offy, i, P.incy);
            let xi = x[ix];
            let yi = y[iy];
            x[ix] = h11 * xi + h12 * yi;
            y[iy] = h21 * xi + h22 * yi;
        }
    }
}
