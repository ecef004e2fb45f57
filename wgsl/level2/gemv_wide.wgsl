// Level 2 matrix-vector kernels chosen by storage order and aspect ratio:
// y = alpha·op(A)·x + beta·y, op(A) m×n with element (i, j) at offa + i·rsa + j·csa (layout.rs
// has already folded trans and the storage order into the strides).
//
//   `gemv_rowdot` (op(A)'s rows contiguous, csa = 1, or neither stride 1): a workgroup of WG
//       invocations holds WG / LANES rows; the LANES invocations of a row split its columns,
//       4 at a time (one vec4 load where VEC and the unit is whole), and sum as a tree.
//       LANES = 1 is one row per invocation (tall-skinny: a C-order 8,388,609×3 matrix is
//       32,769 workgroups, not 8,388,609).
//   `gemv_coldot` (op(A)'s columns contiguous, rsa = 1): an invocation holds 4 consecutive
//       rows (one vec4 load per column where VEC), the WG / LANES column lanes of the workgroup
//       split the columns and sum as a tree. LANES = 1 row unit per workgroup is short-wide.
//   Both split the columns into CHUNKS chunks of `chunk` columns (grid = row blocks × chunks)
//   when there are too few row blocks to fill the device; each chunk then writes its partial
//   sums to `partial[c·m + i]` and `gemv_finish` (FLANES invocations per row, a tree) adds them
//   and applies alpha and beta. With one chunk the kernel applies alpha and beta itself.
//
// Semantics (DESIGN.md §3): alpha = 0 reads neither A nor x, beta = 0 never reads y; both are
// tested on bit patterns (a NaN alpha is not 0). Every product of the formula is formed (no zero
// skip). MODE = 2 (strmv) runs each row only over its triangle: the other triangle is never used
// (a row of a vec4 unit outside it forms no product there, so an Inf or NaN x_j reaches only
// the rows whose triangle holds column j), UNIT takes the
// diagonal as 1 without using it, STRICT leaves the diagonal out (no product there: the strictly
// triangular part, the second pass of lab `Experimental` ssymv). Loops: a lane runs chunk / (4·LANES) + 1 iterations, and the
// host keeps chunk ≤ 4·LANES·16384 so that no loop passes 65,535 iterations.

const WG: u32 = 256u;

override MODE: u32 = 0u;
override UPLO: u32 = UPLO_LOWER;  // the triangle (common.wgsl's UPLO_LOWER or UPLO_UPPER)
override LOWER: bool = UPLO == UPLO_LOWER;
override UNIT: bool = false;
override STRICT: bool = false;
// Invocations per row (`gemv_rowdot`) or row units per workgroup (`gemv_coldot`); a power of 2.
override LANES: u32 = 64u;
// Invocations per row in `gemv_finish`; a power of 2.
override FLANES: u32 = 8u;
// A read as vec4 units (the host checks the alignment of offa and of the other stride).
override VEC: bool = false;
// x read as vec4 units in `gemv_rowdot` (unit stride, offset a multiple of 4).
override XVEC: bool = false;

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
    chunks: u32,
    chunk: u32,
    row_blocks: u32,
    cbase: u32,  // the first partial-sum slot of this dispatch's chunks
    spill: u32,  // 1: partial sums even with one chunk (one pass of several; gemv_finish adds them)
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> x: array<T>;
@group(0) @binding(3) var<storage, read_write> y: array<T>;
@group(0) @binding(4) var<storage, read> av: array<vec4<T>>;
@group(0) @binding(5) var<storage, read> xv: array<vec4<T>>;
@group(0) @binding(6) var<storage, read_write> partial: array<T>;

// SCAL (f64, whose alpha and beta the f32 params cannot hold; lab `Experimental`): alpha and
// beta as T from `sc`, the params' fields markers as in gemm.wgsl: 0 for 0 (so that the
// zero tests on the bit pattern hold), 1 for beta = 1, 2 for "the value is in sc", 3 for "the
// value is in sc, a device scalar copied there, whose zero and one tests are made on it".
// Every entry binds it (any read-only buffer without SCAL, never read then).
@group(0) @binding(7) var<storage, read> sc: array<T>;
override SCAL: bool = false;
// UNSCALED: one block of a product past one storage binding, whose raw sum goes into a scratch
// (alpha taken as 1, its zero test still on the real alpha); the gemm shader's `splitk_reduce`
// then forms y = alpha·Σ + beta·y once.
override UNSCALED: bool = false;

fn alpha_t() -> T {
    if (UNSCALED) {
        return T(1);
    }
    if (SCAL && P.alpha >= 2.0) {
        return sc[0];
    }
    return T(P.alpha);
}

fn beta_t() -> T {
    if (SCAL && P.beta >= 2.0) {
        return sc[1];
    }
    return T(P.beta);
}

// Whether alpha is 0: on the params' bits, or for a device value (marker 3) on sc[0] (an
// ordered comparison: a NaN is not 0).
fn alpha_zero() -> bool {
    if (SCAL && P.alpha == 3.0) {
        return sc[0] == T(0);
    }
    return f32_is_zero(P.alpha);
}

fn beta_zero() -> bool {
    if (SCAL && P.beta == 3.0) {
        return sc[1] == T(0);
    }
    return f32_is_zero(P.beta);
}

fn beta_one() -> bool {
    if (SCAL && P.beta == 3.0) {
        return sc[1] == T(1);
    }
    return f32_is_one(P.beta);
}

var<workgroup> sh: array<T, WG>;
var<workgroup> sh4: array<vec4<T>, WG>;

// Whether (i, j) is inside the operator: everywhere for MODE 0, the stored triangle for MODE 2
// (without its diagonal for STRICT).
fn inside(i: u32, j: u32) -> bool {
    if (MODE != 2u) {
        return true;
    }
    if (LOWER) {
        return j < i || (j == i && !STRICT);
    }
    return j > i || (j == i && !STRICT);
}

// Element (i, j) of the operator, for (i, j) inside it.
fn elem(i: u32, j: u32) -> T {
    if (MODE == 2u && UNIT && i == j) {
        return T(1);
    }
    return a[midx(P.offa, i, j, P.rsa, P.csa)];
}

fn xat(j: u32) -> T {
    return x[vidx(P.offx, j, P.incx)];
}

// The vec4 unit of A that starts at element index e (a multiple of 4 where VEC).
fn a4(e: i32) -> vec4<T> {
    return av[u32(e) / 4u];
}

// alpha·sum + beta·y_i into y_i.
fn finish(i: u32, sum: T) {
    // alpha = 0 with beta = 1 (a device scalar's value, tested on its bits): y stays as it is,
    // bit for bit, as the host-side quick return leaves it (reference BLAS).
    if (alpha_zero() && beta_one()) {
        return;
    }
    let iy = vidx(P.offy, i, P.incy);
    var r = T(0);
    if (!alpha_zero()) {
        r = alpha_t() * sum;
    }
    if (!beta_zero()) {
        r = r + beta_t() * y[iy];
    }
    y[iy] = r;
}

// Row i's sum over the chunk c (or the whole row), delivered.
fn deliver(i: u32, c: u32, sum: T) {
    if (P.chunks == 1u && P.spill == 0u) {
        finish(i, sum);
    } else {
        partial[(P.cbase + c) * P.m + i] = sum;
    }
}

// Column range [lo, hi) of row i inside chunk c and inside the operator.
fn row_range(i: u32, c: u32) -> vec2<u32> {
    var lo = c * P.chunk;
    var hi = min(lo + P.chunk, P.n);
    if (MODE == 2u) {
        if (LOWER) {
            hi = min(hi, select(i + 1u, i, STRICT));
        } else {
            lo = max(lo, select(i, i + 1u, STRICT));
        }
    }
    return vec2<u32>(lo, max(lo, hi));
}

@compute @workgroup_size(WG)
fn gemv_rowdot(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    let c = g % P.chunks;
    let rows_per_group = WG / LANES;
    let i = (g / P.chunks) * rows_per_group + lid / LANES;
    let lane = lid % LANES;
    var sum = T(0);
    if (i < P.m && !alpha_zero()) {
        let r = row_range(i, c);
        let row = i32(P.offa) + i32(i) * P.rsa;
        // Units of 4 columns, aligned to multiples of 4 from column 0.
        for (var u = r.x / 4u + lane; 4u * u < r.y; u = u + LANES) {
            let j = 4u * u;
            let whole = VEC && j >= r.x && j + 4u <= r.y
                && !(MODE == 2u && UNIT && i >= j && i < j + 4u);
            if (whole) {
                let v = a4(row + i32(j));
                var w: vec4<T>;
                if (XVEC) {
                    w = xv[P.offx / 4u + u];
                } else {
                    w = vec4<T>(xat(j), xat(j + 1u), xat(j + 2u), xat(j + 3u));
                }
                sum = sum + ((v.x * w.x + v.y * w.y) + (v.z * w.z + v.w * w.w));
            } else {
                for (var k = 0u; k < 4u; k = k + 1u) {
                    let jk = j + k;
                    if (jk >= r.x && jk < r.y) {
                        sum = sum + elem(i, jk) * xat(jk);
                    }
                }
            }
        }
    }
    if (LANES == 1u) {
        if (i < P.m) {
            deliver(i, c, sum);
        }
        return;
    }
    sh[lid] = sum;
    workgroupBarrier();
    for (var s = LANES / 2u; s > 0u; s = s / 2u) {
        if (lane < s) {
            sh[lid] = sh[lid] + sh[lid + s];
        }
        workgroupBarrier();
    }
    if (lane == 0u && i < P.m) {
        deliver(i, c, sh[lid]);
    }
}

@compute @workgroup_size(WG)
fn gemv_coldot(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    let c = g % P.chunks;
    // LANES row units (4 rows each) per workgroup, WG / LANES column lanes.
    let unit = (g / P.chunks) * LANES + lid % LANES;
    let lane = lid / LANES;
    let col_lanes = WG / LANES;
    let i0 = 4u * unit;
    var sum = vec4<T>();
    if (i0 < P.m && !alpha_zero()) {
        var lo = c * P.chunk;
        var hi = min(lo + P.chunk, P.n);
        if (MODE == 2u) {
            // Columns that meet the triangle in rows i0 .. i0 + 3.
            if (LOWER) {
                hi = min(hi, i0 + 4u);
            } else {
                lo = max(lo, i0);
            }
        }
        let whole_rows = i0 + 4u <= P.m;
        for (var j = lo + lane; j < hi; j = j + col_lanes) {
            let xj = xat(j);
            var whole = VEC && whole_rows;
            if (MODE == 2u) {
                // Every row of the unit inside, and the diagonal not in it for UNIT.
                if (LOWER) {
                    whole = whole && (j < i0 || (!UNIT && !STRICT && j == i0));
                } else {
                    whole = whole && (j > i0 + 3u || (!UNIT && !STRICT && j == i0 + 3u));
                }
            }
            if (whole) {
                sum = sum + a4(i32(P.offa) + i32(i0) + i32(j) * P.csa) * xj;
            } else {
                // Only the rows whose operator holds (i, j): a row outside it never meets
                // x_j (no 0·x_j, which is NaN for an Inf or NaN x_j; DESIGN.md §3).
                for (var k = 0u; k < 4u; k = k + 1u) {
                    let i = i0 + k;
                    if (i < P.m && inside(i, j)) {
                        sum[k] = sum[k] + elem(i, j) * xj;
                    }
                }
            }
        }
    }
    if (col_lanes > 1u) {
        sh4[lid] = sum;
        workgroupBarrier();
        for (var s = col_lanes / 2u; s > 0u; s = s / 2u) {
            if (lane < s) {
                sh4[lid] = sh4[lid] + sh4[lid + s * LANES];
            }
            workgroupBarrier();
        }
        sum = sh4[lid];
    }
    if (lane == 0u) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            if (i0 + k < P.m) {
                deliver(i0 + k, c, sum[k]);
            }
        }
    }
}

// Whether column j of the row unit i0 .. i0 + 3 of `gemv_coldot4` is one whole vec4 of A:
// VEC, every row of the unit in the matrix and in the operator, the diagonal not in it for UNIT.
fn coldot_whole(i0: u32, j: u32, whole_rows: bool) -> bool {
    var whole = VEC && whole_rows;
    if (MODE == 2u) {
        if (LOWER) {
            whole = whole && (j < i0 || (!UNIT && !STRICT && j == i0));
        } else {
            whole = whole && (j > i0 + 3u || (!UNIT && !STRICT && j == i0 + 3u));
        }
    }
    return whole;
}

// Column j of the row unit i0 .. i0 + 3: the vec4 of A there where `whole`, else its elements
// inside the matrix and the operator (the diagonal 1 where UNIT), 0 elsewhere (never used:
// the product skips them).
fn coldot_unit(i0: u32, j: u32, whole: bool) -> vec4<T> {
    if (whole) {
        return a4(i32(P.offa) + i32(i0) + i32(j) * P.csa);
    }
    var v = vec4<T>();
    for (var k = 0u; k < 4u; k = k + 1u) {
        let i = i0 + k;
        if (i < P.m && inside(i, j)) {
            v[k] = elem(i, j);
        }
    }
    return v;
}

// `gemv_coldot4` (lab `Experimental`): `gemv_coldot` with 4 columns per loop iteration, their
// 4 loads of A and of x issued before the 4 products, which are added in the same order as
// `gemv_coldot` adds them (column by column): the same sums, with 4 loads in flight per
// invocation instead of 1. (In `gemv_coldot` an invocation's next load waits for its loop
// back edge; at 16 bytes a load and 2048 invocations per compute unit that is ~32 KiB in
// flight per unit, short of what the H200 needs to reach its bandwidth.) Loops: chunk /
// (4·col_lanes) + 1 iterations.
@compute @workgroup_size(WG)
fn gemv_coldot4(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    let c = g % P.chunks;
    let unit = (g / P.chunks) * LANES + lid % LANES;
    let lane = lid / LANES;
    let col_lanes = WG / LANES;
    let i0 = 4u * unit;
    var sum = vec4<T>();
    if (i0 < P.m && !alpha_zero()) {
        var lo = c * P.chunk;
        var hi = min(lo + P.chunk, P.n);
        if (MODE == 2u) {
            if (LOWER) {
                hi = min(hi, i0 + 4u);
            } else {
                lo = max(lo, i0);
            }
        }
        let whole_rows = i0 + 4u <= P.m;
        for (var j = lo + lane; j < hi; j = j + 4u * col_lanes) {
            var v: array<vec4<T>, 4>;
            var xj: array<T, 4>;
            var whole: array<bool, 4>;
            for (var u = 0u; u < 4u; u = u + 1u) {
                let ju = j + u * col_lanes;
                if (ju < hi) {
                    whole[u] = coldot_whole(i0, ju, whole_rows);
                    v[u] = coldot_unit(i0, ju, whole[u]);
                    xj[u] = xat(ju);
                }
            }
            for (var u = 0u; u < 4u; u = u + 1u) {
                let ju = j + u * col_lanes;
                if (ju < hi) {
                    if (whole[u]) {
                        sum = sum + v[u] * xj[u];
                    } else {
                        // Only the elements inside: no product with a padding 0 (an Inf or
                        // NaN x_j outside a row's triangle must not reach it).
                        for (var k = 0u; k < 4u; k = k + 1u) {
                            if (i0 + k < P.m && inside(i0 + k, ju)) {
                                sum[k] = sum[k] + v[u][k] * xj[u];
                            }
                        }
                    }
                }
            }
        }
    }
    if (col_lanes > 1u) {
        sh4[lid] = sum;
        workgroupBarrier();
        for (var s = col_lanes / 2u; s > 0u; s = s / 2u) {
            if (lane < s) {
                sh4[lid] = sh4[lid] + sh4[lid + s * LANES];
            }
            workgroupBarrier();
        }
        sum = sh4[lid];
    }
    if (lane == 0u) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            if (i0 + k < P.m) {
                deliver(i0 + k, c, sum[k]);
            }
        }
    }
}

// y_i = alpha·Σ_c partial[c·m + i] + beta·y_i, FLANES invocations per row.
@compute @workgroup_size(WG)
fn gemv_finish(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    let i = g * (WG / FLANES) + lid / FLANES;
    let lane = lid % FLANES;
    var sum = T(0);
    if (i < P.m) {
        for (var c = lane; c < P.chunks; c = c + FLANES) {
            sum = sum + partial[c * P.m + i];
        }
    }
    sh[lid] = sum;
    workgroupBarrier();
    for (var s = FLANES / 2u; s > 0u; s = s / 2u) {
        if (lane < s) {
            sh[lid] = sh[lid] + sh[lid + s];
        }
        workgroupBarrier();
    }
    if (lane == 0u && i < P.m) {
        finish(i, sh[lid]);
    }
}

// ---- Symmetric matrix-vector product, the stored triangle read once ------------------------
// `symv_tiles`: y = alpha·A·x + beta·y for symmetric A of which only the triangle LOWER/upper is
// stored (ssymv; op(A) = A). The stored triangle is cut into TB×TB tiles; workgroup t loads tile
// (I, J) of the stored triangle (I ≥ J for LOWER, I ≤ J for upper) once into workgroup memory
// and uses it twice: its row sums A_IJ·x_J are row block I's partial sum number J, and (off the
// diagonal) its column sums A_IJᵀ·x_I are row block J's partial sum number I. Every (slot, row)
// pair of `partial[slot·m + row]` is written by exactly one tile, so `gemv_finish` with
// chunks = ⌈n/TB⌉ adds them and applies alpha and beta. A diagonal tile reads only its stored
// half and mirrors it. (The partial sums add n²/TB elements of traffic: 1/32 of the triangle.)
// A tile load is coalesced along the unit stride (COLS_FAST: rsa = 1, else csa = 1 or strided).

const TB: u32 = 64u;
const TBP: u32 = 65u; // padded row length of the tile in workgroup memory
override COLS_FAST: bool = false;

var<workgroup> tile: array<T, 4160>; // TB × TBP
var<workgroup> xs_i: array<T, TB>;
var<workgroup> xs_j: array<T, TB>;

// Unit k of invocation `lid` of the whole tile at (i0, j0): line (row, or column where
// COLS_FAST) k·16 + lid/16, elements 4·(lid mod 16) .. + 3 along the unit stride.
fn tile_vec4(i0: u32, j0: u32, lid: u32, k: u32) -> vec4<T> {
    let line = k * 16u + lid / 16u;
    let e = 4u * (lid % 16u);
    if (COLS_FAST) {
        return a4(i32(P.offa) + i32(i0 + e) + i32(j0 + line) * P.csa);
    }
    return a4(i32(P.offa) + i32(i0 + line) * P.rsa + i32(j0 + e));
}

// The 16 elements of invocation `lid` (units as `tile_vec4`) into the tile in workgroup memory.
fn tile_store(v: array<vec4<T>, 4>, lid: u32) {
    for (var k = 0u; k < 4u; k = k + 1u) {
        let line = k * 16u + lid / 16u;
        let e = 4u * (lid % 16u);
        for (var q = 0u; q < 4u; q = q + 1u) {
            if (COLS_FAST) {
                tile[(e + q) * TBP + line] = v[k][q];
            } else {
                tile[line * TBP + e + q] = v[k][q];
            }
        }
    }
}

// The stored (i, j) of the triangle.
fn stored(i: u32, j: u32) -> bool {
    if (LOWER) {
        return j <= i;
    }
    return j >= i;
}

@compute @workgroup_size(WG)
fn symv_tiles(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let t = linear_group(wid, nwg);
    // t → (p, q), p ≥ q: t = p(p+1)/2 + q.
    var p = u32((sqrt(8.0 * f32(t) + 1.0) - 1.0) * 0.5);
    if ((p + 1u) * (p + 2u) / 2u <= t) {
        p = p + 1u;
    }
    if (p * (p + 1u) / 2u > t) {
        p = p - 1u;
    }
    let q = t - p * (p + 1u) / 2u;
    var bi = p;
    var bj = q;
    if (!LOWER) {
        bi = q;
        bj = p;
    }
    let i0 = bi * TB;
    let j0 = bj * TB;
    let n = P.n;
    let live = !alpha_zero();
    // Load the tile (stored elements only; others 0, never used) and the two x segments.
    // A whole off-diagonal tile is all stored: where VEC, four vec4 loads per invocation along
    // the unit stride, all issued before the stores to workgroup memory.
    if (VEC && live && bi != bj && i0 + TB <= n && j0 + TB <= n) {
        var v: array<vec4<T>, 4>;
        for (var k = 0u; k < 4u; k = k + 1u) {
            v[k] = tile_vec4(i0, j0, lid, k);
        }
        tile_store(v, lid);
    } else {
    for (var k = 0u; k < TB * TB / WG; k = k + 1u) {
        var r = k * (WG / TB) + lid / TB;
        var c = lid % TB;
        if (COLS_FAST) {
            let s = r;
            r = c;
            c = s;
        }
        let i = i0 + r;
        let j = j0 + c;
        var v = T(0);
        if (live && i < n && j < n && stored(i, j)) {
            v = a[midx(P.offa, i, j, P.rsa, P.csa)];
        }
        tile[r * TBP + c] = v;
    }
    }
    if (lid < TB) {
        var v = T(0);
        if (live && i0 + lid < n) {
            v = xat(i0 + lid);
        }
        xs_i[lid] = v;
    } else if (lid < 2u * TB) {
        let c = lid - TB;
        var v = T(0);
        if (live && j0 + c < n) {
            v = xat(j0 + c);
        }
        xs_j[c] = v;
    }
    workgroupBarrier();
    // Row sums: invocation (r, lane) sums 16 columns; column sums likewise over 16 rows.
    let r = lid / 4u;
    let lane = lid % 4u;
    var rs = T(0);
    var cs = T(0);
    for (var k = 0u; k < TB / 4u; k = k + 1u) {
        let c = lane * (TB / 4u) + k;
        var v = tile[r * TBP + c];
        if (bi == bj && !stored(r, c)) {
            v = tile[c * TBP + r];
        }
        rs = rs + v * xs_j[c];
        // Column sums of tile column r (off the diagonal only).
        cs = cs + tile[c * TBP + r] * xs_i[c];
    }
    workgroupBarrier();
    sh[lid] = rs;
    sh4[lid] = vec4<T>(cs, T(0), T(0), T(0));
    workgroupBarrier();
    if (lane == 0u) {
        let row_sum = (sh[lid] + sh[lid + 1u]) + (sh[lid + 2u] + sh[lid + 3u]);
        let col_sum = (sh4[lid].x + sh4[lid + 1u].x) + (sh4[lid + 2u].x + sh4[lid + 3u].x);
        if (i0 + r < n) {
            partial[bj * n + i0 + r] = row_sum;
        }
        if (bi != bj && j0 + r < n) {
            partial[bi * n + j0 + r] = col_sum;
        }
    }
}

// `symv_lines` (lab `Experimental`): the same product and the same partial sums as
// `symv_tiles` (slot·n + row, every (slot, row) pair written by one workgroup, `gemv_finish`
// unchanged) on LB×LB = 128×128 tiles, with no tile in workgroup memory: each invocation keeps
// its 64 elements of the tile in registers (16 vec4 loads issued before any product) and forms
// both products of each element from there. Write the matrix as lines (rows, or columns where
// COLS_FAST) along its unit stride: element (l, f) of line l at position f. Invocation
// (tf, tl) = (lid mod 16, lid / 16) holds positions f = 4·tf .. + 3 and 64 + 4·tf .. + 3 of
// the lines tl + 16·k (k < 8): a line's 128 positions are read by 16 neighbouring invocations
// (two runs of 256 bytes). Its line sums (Σ_f A(l, f)·x_f over its 8 positions) are added over
// the 16 invocations of the line through workgroup memory; its mirror sums (Σ_l A(l, f)·x_l over
// its 8 lines) over the 16 invocations of the positions likewise, both in a fixed order. Tiles
// off the diagonal deliver both (line sums to the line block's rows, slot = the position
// block; mirror sums to the position block's rows, slot = the line block); a diagonal tile
// reads only its stored half (0 elsewhere), forms each product of a stored element only (the
// mirror product off the diagonal), and delivers the sum of its line and mirror sums (the
// same rows). Positions and lines past n are 0 and meet only x's zeros there (x is not read
// past n), and no element outside the triangle forms a product, so NaN and Inf propagate as
// the formula says (DESIGN.md §3). alpha = 0 reads neither A nor x. Loops: fixed trip counts
// (at most 16).

const LB: u32 = 128u;
const LPAD: u32 = 17u; // padded row of the line partials: 16 per line
var<workgroup> lsum: array<T, 2176>; // LB × LPAD; then the mirror partials, 16 × LB

// Whether element (l, f) (line, position) is in the stored triangle.
fn stored_lf(l: u32, f: u32) -> bool {
    if (COLS_FAST) {
        return stored(f, l);
    }
    return stored(l, f);
}

// Index of element (l, f) in `a`.
fn lf_index(l: u32, f: u32) -> u32 {
    if (COLS_FAST) {
        return midx(P.offa, f, l, P.rsa, P.csa);
    }
    return midx(P.offa, l, f, P.rsa, P.csa);
}

// The 4 elements (l, f .. f + 3) one by one: 0 past n and (on a diagonal tile, `diag`)
// outside the stored triangle.
fn lines_scalar4(l: u32, f: u32, diag: bool) -> vec4<T> {
    var v = vec4<T>();
    let n = P.n;
    for (var q = 0u; q < 4u; q = q + 1u) {
        let fq = f + q;
        if (l < n && fq < n && (!diag || stored_lf(l, fq))) {
            v[q] = a[lf_index(l, fq)];
        }
    }
    return v;
}

// A diagonal tile's products of the unit v at (l, f .. f + 3): its line sum (into the return
// value) and mirror sums (into m), stored elements only, the diagonal in the line sum only.
fn diag_unit(l: u32, f: u32, v: vec4<T>, xf: vec4<T>, xl: T, m: ptr<function, vec4<T>>) -> T {
    var d = T(0);
    for (var q = 0u; q < 4u; q = q + 1u) {
        if (stored_lf(l, f + q)) {
            d = d + v[q] * xf[q];
            if (l != f + q) {
                (*m)[q] = (*m)[q] + v[q] * xl;
            }
        }
    }
    return d;
}

@compute @workgroup_size(WG)
fn symv_lines(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let t = linear_group(wid, nwg);
    // t → (p, q), p ≥ q: t = p(p+1)/2 + q (as `symv_tiles`).
    var p = u32((sqrt(8.0 * f32(t) + 1.0) - 1.0) * 0.5);
    if ((p + 1u) * (p + 2u) / 2u <= t) {
        p = p + 1u;
    }
    if (p * (p + 1u) / 2u > t) {
        p = p - 1u;
    }
    let q = t - p * (p + 1u) / 2u;
    // The stored tiles (line block bl, position block bf): bf ≤ bl where the stored triangle
    // holds f ≤ l (LOWER by rows, upper by columns), else bf ≥ bl.
    var bl = p;
    var bf = q;
    if (LOWER == COLS_FAST) {
        bl = q;
        bf = p;
    }
    let diag = p == q;
    let l0 = bl * LB;
    let f0 = bf * LB;
    let n = P.n;
    let live = !alpha_zero();
    let tf = lid % 16u;
    let tl = lid / 16u;
    let fa = f0 + 4u * tf;
    let fb = fa + 64u;
    var v: array<vec4<T>, 16>;
    var xl: array<T, 8>;
    var xa = vec4<T>();
    var xb = vec4<T>();
    if (live) {
        if (VEC && !diag && l0 + LB <= n && f0 + LB <= n) {
            for (var k = 0u; k < 8u; k = k + 1u) {
                let l = l0 + tl + 16u * k;
                v[2u * k] = av[lf_index(l, fa) / 4u];
                v[2u * k + 1u] = av[lf_index(l, fb) / 4u];
            }
        } else {
            for (var k = 0u; k < 8u; k = k + 1u) {
                let l = l0 + tl + 16u * k;
                v[2u * k] = lines_scalar4(l, fa, diag);
                v[2u * k + 1u] = lines_scalar4(l, fb, diag);
            }
        }
        for (var k = 0u; k < 8u; k = k + 1u) {
            let l = l0 + tl + 16u * k;
            var w = T(0);
            if (l < n) {
                w = xat(l);
            }
            xl[k] = w;
        }
        for (var e = 0u; e < 4u; e = e + 1u) {
            if (fa + e < n) {
                xa[e] = xat(fa + e);
            }
            if (fb + e < n) {
                xb[e] = xat(fb + e);
            }
        }
    }
    // Line sums of the 8 lines, to workgroup memory; mirror sums of the 8 positions.
    var ma = vec4<T>();
    var mb = vec4<T>();
    for (var k = 0u; k < 8u; k = k + 1u) {
        let va = v[2u * k];
        let vb = v[2u * k + 1u];
        var d: T;
        if (diag) {
            let l = l0 + tl + 16u * k;
            d = diag_unit(l, fa, va, xa, xl[k], &ma) + diag_unit(l, fb, vb, xb, xl[k], &mb);
        } else {
            d = (va.x * xa.x + va.y * xa.y) + (va.z * xa.z + va.w * xa.w)
                + ((vb.x * xb.x + vb.y * xb.y) + (vb.z * xb.z + vb.w * xb.w));
            ma = ma + va * xl[k];
            mb = mb + vb * xl[k];
        }
        lsum[(tl + 16u * k) * LPAD + tf] = d;
    }
    workgroupBarrier();
    // Invocation r < LB adds line r's 16 partial sums.
    var line_sum = T(0);
    if (lid < LB) {
        for (var c = 0u; c < 16u; c = c + 1u) {
            line_sum = line_sum + lsum[lid * LPAD + c];
        }
    }
    workgroupBarrier();
    for (var e = 0u; e < 4u; e = e + 1u) {
        lsum[tl * LB + 4u * tf + e] = ma[e];
        lsum[tl * LB + 64u + 4u * tf + e] = mb[e];
    }
    workgroupBarrier();
    if (lid < LB) {
        var mirror = T(0);
        for (var r = 0u; r < 16u; r = r + 1u) {
            mirror = mirror + lsum[r * LB + lid];
        }
        if (diag) {
            // Lines and positions are the same rows here.
            if (l0 + lid < n) {
                partial[bl * n + l0 + lid] = line_sum + mirror;
            }
        } else {
            if (l0 + lid < n) {
                partial[bf * n + l0 + lid] = line_sum;
            }
            if (f0 + lid < n) {
                partial[bl * n + f0 + lid] = mirror;
            }
        }
    }
}

// ---- Symmetric matrix-vector product in one pass, segments of tiles -------------------------
// `symv_pass` (lab `set_symv_one_pass`): y = alpha·A·x + beta·y for symmetric A of which only the
// triangle LOWER/upper is stored, each stored element read once. Lines and positions as in
// `symv_lines` (lines: rows, or columns where COLS_FAST, along the unit stride); the stored
// triangle holds f ≤ l (line-lower, LL) or f ≥ l. In "line-lower coordinates" (a tile index b
// as it is for LL, T − 1 − b otherwise, T = P.chunks = ⌈n/TB⌉) the stored tiles are (bi, bj),
// bj ≤ bi. Workgroup (bi, s) runs the tiles bj = s·S .. min(s·S + S, bi + 1) − 1 of tile row
// bi (S = P.chunk tiles a segment), one after the other, the next tile's loads issued before
// the current tile's products. Invocation (tf, tl) = (lid mod 16, lid / 16) holds positions
// 4·tf .. + 3 of lines tl + 16·k (k < 4) of each TB×TB tile: a line's 64 positions are 256
// contiguous bytes read by 16 neighbouring invocations. Its line sums add up over the segment
// in registers (the same lines in every tile of it) and are added over the 16 invocations of
// each line once, at the end, into slot T + s of the line's rows; its mirror sums (A_ijᵀ·x_i)
// are added over the 16 invocations of each position through workgroup memory after every
// tile (double-buffered: one barrier a tile), into slot bi of the position's rows. Every
// (slot, row) pair of `partial[slot·n + row]` that `symv_sum` reads is written by exactly one
// workgroup, in a fixed order: the result is deterministic. A diagonal tile forms the products
// of its stored elements only (the mirror product off the diagonal only); lines and positions
// past n are 0 and meet only x's zeros there (x is not read past n), so no element outside
// the triangle forms a product and NaN and Inf propagate as the formula says (DESIGN.md §3).
// alpha = 0 reads neither A nor x and writes nothing (`symv_sum` reads no partial sum then).
// Loops: at most S ≤ 64 tiles. Grid: Σ_bi (⌊bi/S⌋ + 1) workgroups (P.row_blocks), in order of
// bi, then s.

var<workgroup> mirror4: array<vec4<T>, 512>; // 2 buffers × 16 lines × 16 units of positions
var<workgroup> line_part: array<T, 1088>;    // TB lines × LPAD: the line sums' 16 parts

// Tile index b in line-lower coordinates (an involution).
fn ll_tile(b: u32) -> u32 {
    if (LOWER != COLS_FAST) {
        return b;
    }
    return P.chunks - 1u - b;
}

// The 16 elements of invocation (tf, tl) in the tile at lines l0.., positions f0..: vec4 loads
// where VEC and the tile is whole and off the diagonal, else element by element (0 past n and,
// on the diagonal, outside the stored triangle).
fn pass_load(l0: u32, f0: u32, diag: bool, tl: u32, tf: u32) -> array<vec4<T>, 4> {
    var v: array<vec4<T>, 4>;
    let fa = f0 + 4u * tf;
    if (VEC && !diag && l0 + TB <= P.n && f0 + TB <= P.n) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            v[k] = av[lf_index(l0 + tl + 16u * k, fa) / 4u];
        }
    } else {
        for (var k = 0u; k < 4u; k = k + 1u) {
            v[k] = lines_scalar4(l0 + tl + 16u * k, fa, diag);
        }
    }
    return v;
}

// x_f .. x_{f+3}, 0 past n.
fn x4(f: u32) -> vec4<T> {
    if (XVEC && f + 4u <= P.n) {
        return xv[P.offx / 4u + f / 4u];
    }
    var w = vec4<T>();
    for (var e = 0u; e < 4u; e = e + 1u) {
        if (f + e < P.n) {
            w[e] = xat(f + e);
        }
    }
    return w;
}

@compute @workgroup_size(WG)
fn symv_pass(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    if (g >= P.row_blocks || alpha_zero()) {
        return;
    }
    let seg = P.chunk;
    let nt = P.chunks;
    let n = P.n;
    // g → (q, r, s): tile row bi = q·S + r, segment s ≤ q; S·q(q+1)/2 workgroups precede row q·S.
    var q = u32((sqrt(8.0 * f32(g) / f32(seg) + 1.0) - 1.0) * 0.5);
    if (seg * (q + 1u) * (q + 2u) / 2u <= g) {
        q = q + 1u;
    }
    if (seg * q * (q + 1u) / 2u > g) {
        q = q - 1u;
    }
    let rem = g - seg * q * (q + 1u) / 2u;
    let bi = q * seg + rem / (q + 1u);
    let s = rem % (q + 1u);
    let lo = s * seg;
    let hi = min(lo + seg, bi + 1u);
    let l0 = ll_tile(bi) * TB;
    let tf = lid % 16u;
    let tl = lid / 16u;
    var xl = vec4<T>();
    for (var k = 0u; k < 4u; k = k + 1u) {
        let l = l0 + tl + 16u * k;
        if (l < n) {
            xl[k] = xat(l);
        }
    }
    var lines = vec4<T>();
    var cur = pass_load(l0, ll_tile(lo) * TB, lo == bi, tl, tf);
    for (var bj = lo; bj < hi; bj = bj + 1u) {
        var next: array<vec4<T>, 4>;
        if (bj + 1u < hi) {
            next = pass_load(l0, ll_tile(bj + 1u) * TB, bj + 1u == bi, tl, tf);
        }
        let f0 = ll_tile(bj) * TB;
        let fa = f0 + 4u * tf;
        let xf = x4(fa);
        var m = vec4<T>();
        if (bj != bi) {
            for (var k = 0u; k < 4u; k = k + 1u) {
                let v = cur[k];
                lines[k] = lines[k] + ((v.x * xf.x + v.y * xf.y) + (v.z * xf.z + v.w * xf.w));
                m = m + v * xl[k];
            }
        } else {
            for (var k = 0u; k < 4u; k = k + 1u) {
                let l = l0 + tl + 16u * k;
                lines[k] = lines[k] + diag_unit(l, fa, cur[k], xf, xl[k], &m);
            }
        }
        let buf = (bj & 1u) * 256u;
        mirror4[buf + lid] = m;
        workgroupBarrier();
        if (lid < TB) {
            var sum = T(0);
            for (var t = 0u; t < 16u; t = t + 1u) {
                sum = sum + mirror4[buf + t * 16u + lid / 4u][lid % 4u];
            }
            if (f0 + lid < n) {
                partial[bi * n + f0 + lid] = sum;
            }
        }
        cur = next;
    }
    for (var k = 0u; k < 4u; k = k + 1u) {
        line_part[(tl + 16u * k) * LPAD + tf] = lines[k];
    }
    workgroupBarrier();
    if (lid < TB && l0 + lid < n) {
        var sum = T(0);
        for (var c = 0u; c < 16u; c = c + 1u) {
            sum = sum + line_part[lid * LPAD + c];
        }
        partial[(nt + s) * n + l0 + lid] = sum;
    }
}

// y_i = alpha·(Σ of row i's partial sums of `symv_pass`) + beta·y_i, FLANES invocations per row,
// each over every FLANES-th of the row's slots in order, then a tree: a fixed order. Row i in
// tile bj (line-lower coordinates) has the line sums of its tile row's ⌊bj/S⌋ + 1 segments
// (slots T + s) and the mirror sums of the tiles bi = bj .. T − 1 of its tile column (slots bi).
// Loops: (⌊bj/S⌋ + 1 + T − bj) / FLANES + 1 iterations.
@compute @workgroup_size(WG)
fn symv_sum(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    let i = g * (WG / FLANES) + lid / FLANES;
    let lane = lid % FLANES;
    let n = P.n;
    var sum = T(0);
    if (i < n && !alpha_zero()) {
        let bj = ll_tile(i / TB);
        let segs = bj / P.chunk + 1u;
        let count = segs + P.chunks - bj;
        for (var u = lane; u < count; u = u + FLANES) {
            var slot = P.chunks + u;
            if (u >= segs) {
                slot = bj + (u - segs);
            }
            sum = sum + partial[slot * n + i];
        }
    }
    sh[lid] = sum;
    workgroupBarrier();
    for (var w = FLANES / 2u; w > 0u; w = w / 2u) {
        if (lane < w) {
            sh[lid] = sh[lid] + sh[lid + w];
        }
        workgroupBarrier();
    }
    if (lane == 0u && i < n) {
        finish(i, sh[lid]);
    }
}
