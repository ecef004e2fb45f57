// Level 2 matrix-vector driver: y = alpha·op(A)·x + beta·y, with A (m×n) addressed by signed
// strides so that op(A) = Aᵀ is the same kernel with rs and cs swapped (layout.rs).
//   `gemv_rows`: one invocation per row; coalesced when rows are contiguous (rs = ±1).
//   `gemv_dot`:  one workgroup per row, invocations split the row and reduce as a tree;
//                coalesced when columns are contiguous (cs = ±1).
// alpha = 0 reads neither A nor x; beta = 0 never reads y (reference BLAS semantics), tested on
// the bit patterns (`f32_is_zero`), so that a NaN alpha or beta is not taken as 0 and a device
// scalar (patched into the params) gets the same rules as a host one.
//
// Flag variants are override constants (one pipeline per combination):
//   MODE = 0  general (sgemv): A_ij read everywhere.
//   MODE = 1  symmetric (ssymv): only the triangle LOWER/upper of A is read; A_ij outside it is
//             read as A_ji. Requires m = n.
//   MODE = 2  triangular (strmv): the row runs only over the triangle LOWER/upper, so the other
//             triangle is never read; UNIT takes the diagonal as 1 and never reads it. Used with
//             beta = 0 and y a separate output buffer (x is read by every row). Requires m = n.

const WG: u32 = 256u;

override MODE: u32 = 0u;
override UPLO: u32 = UPLO_LOWER;  // the triangle (common.wgsl's UPLO_LOWER or UPLO_UPPER)
override LOWER: bool = UPLO == UPLO_LOWER;
override UNIT: bool = false;
// UNSCALED: as in gemv_wide.wgsl (a block's raw sum into a scratch; alpha's zero test still on
// the real alpha).
override UNSCALED: bool = false;

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
    beta: f32,
    _pad0: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> x: array<T>;
@group(0) @binding(3) var<storage, read_write> y: array<T>;

var<workgroup> sh: array<T, WG>;

// First column of row i that the row's dot product runs over.
fn col_begin(i: u32) -> u32 {
    if (MODE == 2u && !LOWER) {
        return i;
    }
    return 0u;
}

// One past the last column of row i that the row's dot product runs over.
fn col_end(i: u32) -> u32 {
    if (MODE == 2u && LOWER) {
        return i + 1u;
    }
    return P.n;
}

// Element (i, j) of the operator, for j in [col_begin(i), col_end(i)).
fn op_a(i: u32, j: u32) -> T {
    if (MODE == 1u) {
        // Symmetric: read (i, j) inside the stored triangle, (j, i) outside it.
        if ((LOWER && j <= i) || (!LOWER && j >= i)) {
            return a[midx(P.offa, i, j, P.rsa, P.csa)];
        }
        return a[midx(P.offa, j, i, P.rsa, P.csa)];
    }
    if (MODE == 2u && UNIT && i == j) {
        return T(1);
    }
    return a[midx(P.offa, i, j, P.rsa, P.csa)];
}

fn finish(i: u32, sum: T) {
    // alpha = 0 with beta = 1 (a device scalar's value, tested on its bits): y stays as it is,
    // bit for bit, as the host-side quick return leaves it (reference BLAS).
    if (f32_is_zero(P.alpha) && f32_is_one(P.beta)) {
        return;
    }
    let iy = vidx(P.offy, i, P.incy);
    var r = T(0);
    if (!f32_is_zero(P.alpha)) {
        r = select(T(P.alpha), T(1), UNSCALED) * sum;
    }
    if (!f32_is_zero(P.beta)) {
        r = r + T(P.beta) * y[iy];
    }
    y[iy] = r;
}

@compute @workgroup_size(WG)
fn gemv_rows(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = linear_group(wid, nwg) * WG + lid;
    if (i >= P.m) {
        return;
    }
    var sum = T(0);
    if (!f32_is_zero(P.alpha)) {
        for (var j = col_begin(i); j < col_end(i); j = j + 1u) {
            sum = sum + op_a(i, j) * x[vidx(P.offx, j, P.incx)];
        }
    }
    finish(i, sum);
}

@compute @workgroup_size(WG)
fn gemv_dot(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = linear_group(wid, nwg);
    var sum = T(0);
    if (!f32_is_zero(P.alpha) && i < P.m) {
        for (var j = col_begin(i) + lid; j < col_end(i); j = j + WG) {
            sum = sum + op_a(i, j) * x[vidx(P.offx, j, P.incx)];
        }
    }
    sh[lid] = sum;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            sh[lid] = sh[lid] + sh[lid + s];
        }
        workgroupBarrier();
    }
    if (lid == 0u && i < P.m) {
        finish(i, sh[0]);
    }
}
