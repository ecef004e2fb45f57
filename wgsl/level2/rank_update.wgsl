// Level 2 rank-1 and rank-2 update driver, one invocation per element (i, j) of A (m×n),
// addressed by signed strides (layout.rs):
//   TWO = false  A_ij = A_ij + x_i·(alpha·y_j),                skipped when y_j = 0   (sger;
//                ssyr binds x as y)
//   TWO = true   A_ij = A_ij + x_i·(alpha·y_j) + y_i·(alpha·x_j), skipped when x_j = y_j = 0
//                (ssyr2)
// That is the reference BLAS formula, grouping and zero test (SGER, SSYR, SSYR2), so an Inf or
// NaN in x meets a zero y_j exactly as in the reference.
//   UPLO = 0     every element (sger);
//   UPLO = 1, 2  only the upper (i ≤ j) / lower (i ≥ j) triangle is read or written (ssyr, ssyr2).
// The linear invocation index walks A along its smaller stride (IFAST: i fastest), so that
// neighbouring invocations touch neighbouring memory in C and F order alike.

const WG: u32 = 256u;

override UPLO: u32 = 0u;
override TWO: bool = false;

struct Params {
    m: u32,
    n: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    alpha: f32,
    ifast: u32,  // 1: i varies fastest with the invocation index; 0: j does
    _pad0: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read> x: array<T>;
@group(0) @binding(3) var<storage, read> y: array<T>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG + lid;
    if (g >= P.m * P.n) {
        return;
    }
    var i: u32;
    var j: u32;
    if (P.ifast != 0u) {
        i = g % P.m;
        j = g / P.m;
    } else {
        i = g / P.n;
        j = g % P.n;
    }
    if ((UPLO == 1u && i > j) || (UPLO == 2u && i < j)) {
        return;
    }
    let yj = y[vidx(P.offy, j, P.incy)];
    let alpha = T(P.alpha);
    if (TWO) {
        let xj = x[vidx(P.offx, j, P.incx)];
        if (xj != T(0) || yj != T(0)) {
            let ia = midx(P.offa, i, j, P.rsa, P.csa);
            let xi = x[vidx(P.offx, i, P.incx)];
            let yi = y[vidx(P.offy, i, P.incy)];
            a[ia] = a[ia] + xi * (alpha * yj) + yi * (alpha * xj);
        }
    } else {
        if (yj != T(0)) {
            let ia = midx(P.offa, i, j, P.rsa, P.csa);
            a[ia] = a[ia] + x[vidx(P.offx, i, P.incx)] * (alpha * yj);
        }
    }
}
