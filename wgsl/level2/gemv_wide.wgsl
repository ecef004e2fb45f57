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
// (elements of a vec4 unit outside it are replaced by 0 before any product), UNIT takes the
// diagonal as 1 without using it. Loops: a lane runs chunk / (4·LANES) + 1 iterations, and the
// host keeps chunk ≤ 4·LANES·16384 so that no loop passes 65,535 iterations.

const WG: u32 = 256u;

override MODE: u32 = 0u;
override UPLO: u32 = UPLO_LOWER;  // the triangle (common.wgsl's UPLO_LOWER or UPLO_UPPER)
override LOWER: bool = UPLO == UPLO_LOWER;
override UNIT: bool = false;
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
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> x: array<T>;
@group(0) @binding(3) var<storage, read_write> y: array<T>;
@group(0) @binding(4) var<storage, read> av: array<vec4<T>>;
@group(0) @binding(5) var<storage, read> xv: array<vec4<T>>;
@group(0) @binding(6) var<storage, read_write> partial: array<T>;

var<workgroup> sh: array<T, WG>;
var<workgroup> sh4: array<vec4<T>, WG>;

// Whether (i, j) is inside the operator: everywhere for MODE 0, the stored triangle for MODE 2.
fn inside(i: u32, j: u32) -> bool {
    if (MODE != 2u) {
        return true;
    }
    if (LOWER) {
        return j <= i;
    }
    return j >= i;
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
    if (f32_is_zero(P.alpha) && f32_is_one(P.beta)) {
        return;
    }
    let iy = vidx(P.offy, i, P.incy);
    var r = T(0);
    if (!f32_is_zero(P.alpha)) {
        r = T(P.alpha) * sum;
    }
    if (!f32_is_zero(P.beta)) {
        r = r + T(P.beta) * y[iy];
    }
    y[iy] = r;
}

// Row i's sum over the chunk c (or the whole row), delivered.
fn deliver(i: u32, c: u32, sum: T) {
    if (P.chunks == 1u) {
        finish(i, sum);
    } else {
        partial[c * P.m + i] = sum;
    }
}

// Column range [lo, hi) of row i inside chunk c and inside the operator.
fn row_range(i: u32, c: u32) -> vec2<u32> {
    var lo = c * P.chunk;
    var hi = min(lo + P.chunk, P.n);
    if (MODE == 2u) {
        if (LOWER) {
            hi = min(hi, i + 1u);
        } else {
            lo = max(lo, i);
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
    if (i < P.m && !f32_is_zero(P.alpha)) {
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
    if (i0 < P.m && !f32_is_zero(P.alpha)) {
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
                    whole = whole && (j < i0 || (!UNIT && j == i0));
                } else {
                    whole = whole && (j > i0 + 3u || (!UNIT && j == i0 + 3u));
                }
            }
            if (whole) {
                sum = sum + a4(i32(P.offa) + i32(i0) + i32(j) * P.csa) * xj;
            } else {
                var v = vec4<T>();
                for (var k = 0u; k < 4u; k = k + 1u) {
                    let i = i0 + k;
                    if (i < P.m && inside(i, j)) {
                        v[k] = elem(i, j);
                    }
                }
                sum = sum + v * xj;
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
    let live = !f32_is_zero(P.alpha);
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

// `symv_strip`: the same product and the same partial sums as `symv_tiles`, with a workgroup
// running down a strip of up to S = P.row_blocks tiles instead of one tile. Write the tile
// blocks as (p, q) with p ≥ q: tile (bi, bj) = (p, q) for LOWER, (q, p) for upper. Workgroup
// t = q·C + c (C = ⌈nb/S⌉, nb = P.chunks = ⌈n/TB⌉) takes tiles p = q + c·S .. of block column
// q (none where q + c·S ≥ nb: it returns at once). The half of each tile's products that goes
// to the rows of block p (slot q, as in `symv_tiles`) is written per tile; the half that goes
// to the rows of block q is summed in a register over the strip and written once, to slot
// q + c·S (the diagonal tile, first of strip c = 0, adds its whole mirrored row sums there),
// and the strip's other slots q + c·S + 1 .. for the rows of block q are written 0, so that
// every (slot, row) pair of `partial` is still written by exactly one workgroup and
// `gemv_finish` adds them in the same way. The next tile's loads are issued before the current
// tile's products (a register prefetch), so that each workgroup keeps a load in flight. Sums:
// invocation r < TB sums row r of the tile, invocation TB + c column c (64 products each, a
// fixed order). Loops: at most S ≤ 64 tiles of TB·TB / WG loads and TB products.

// The tile (bi, bj)'s elements held by invocation `lid` (16: 4 units of 4 along the unit
// stride), 0 outside the matrix, outside the stored triangle, or where alpha = 0.
fn strip_load(bi: u32, bj: u32, lid: u32, live: bool) -> array<vec4<T>, 4> {
    var v: array<vec4<T>, 4>;
    let i0 = bi * TB;
    let j0 = bj * TB;
    let n = P.n;
    if (VEC && live && bi != bj && i0 + TB <= n && j0 + TB <= n) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            v[k] = tile_vec4(i0, j0, lid, k);
        }
        return v;
    }
    for (var k = 0u; k < 4u; k = k + 1u) {
        let line = k * 16u + lid / 16u;
        let e = 4u * (lid % 16u);
        for (var q = 0u; q < 4u; q = q + 1u) {
            var i = i0 + line;
            var j = j0 + e + q;
            if (COLS_FAST) {
                i = i0 + e + q;
                j = j0 + line;
            }
            var w = T(0);
            if (live && i < n && j < n && stored(i, j)) {
                w = a[midx(P.offa, i, j, P.rsa, P.csa)];
            }
            v[k][q] = w;
        }
    }
    return v;
}

@compute @workgroup_size(WG)
fn symv_strip(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let t = linear_group(wid, nwg);
    let nb = P.chunks;
    let s = P.row_blocks;
    let per = (nb + s - 1u) / s;
    let q = t / per;
    let p_first = q + (t % per) * s;
    if (q >= nb || p_first >= nb) {
        return;
    }
    let p_end = min(p_first + s, nb);
    let n = P.n;
    let live = !f32_is_zero(P.alpha);
    // x of block q, for the whole strip: xs_j (LOWER: bj = q) or xs_i (upper: bi = q).
    if (lid < TB) {
        var w = T(0);
        if (live && q * TB + lid < n) {
            w = xat(q * TB + lid);
        }
        if (LOWER) {
            xs_j[lid] = w;
        } else {
            xs_i[lid] = w;
        }
    }
    var acc = T(0);
    var bi = p_first;
    var bj = q;
    if (!LOWER) {
        bi = q;
        bj = p_first;
    }
    var v = strip_load(bi, bj, lid, live);
    // x of block p (the other side), prefetched by invocations TB .. 2·TB.
    var xp = T(0);
    if (lid >= TB && lid < 2u * TB && live && p_first * TB + lid - TB < n) {
        xp = xat(p_first * TB + lid - TB);
    }
    for (var p = p_first; p < p_end; p = p + 1u) {
        workgroupBarrier();
        tile_store(v, lid);
        if (lid >= TB && lid < 2u * TB) {
            if (LOWER) {
                xs_i[lid - TB] = xp;
            } else {
                xs_j[lid - TB] = xp;
            }
        }
        workgroupBarrier();
        // Prefetch the next tile of the strip and its x.
        if (p + 1u < p_end) {
            var nbi = p + 1u;
            var nbj = q;
            if (!LOWER) {
                nbi = q;
                nbj = p + 1u;
            }
            v = strip_load(nbi, nbj, lid, live);
            if (lid >= TB && lid < 2u * TB) {
                xp = T(0);
                if (live && (p + 1u) * TB + lid - TB < n) {
                    xp = xat((p + 1u) * TB + lid - TB);
                }
            }
        }
        if (p == q) {
            // The diagonal tile: whole (mirrored) row sums, rows of block q.
            if (lid < TB) {
                for (var c = 0u; c < TB; c = c + 1u) {
                    var w = tile[lid * TBP + c];
                    if (!stored(lid, c)) {
                        w = tile[c * TBP + lid];
                    }
                    acc = acc + w * xs_j[c];
                }
            }
        } else if (lid < TB) {
            // Row sums of the tile: rows of block bi.
            var rs = T(0);
            for (var c = 0u; c < TB; c = c + 1u) {
                rs = rs + tile[lid * TBP + c] * xs_j[c];
            }
            if (LOWER) {
                if (p * TB + lid < n) {
                    partial[q * n + p * TB + lid] = rs;
                }
            } else {
                acc = acc + rs;
            }
        } else if (lid < 2u * TB) {
            // Column sums of the tile: rows of block bj.
            let c = lid - TB;
            var cs = T(0);
            for (var r = 0u; r < TB; r = r + 1u) {
                cs = cs + tile[r * TBP + c] * xs_i[r];
            }
            if (LOWER) {
                acc = acc + cs;
            } else {
                if (p * TB + c < n) {
                    partial[q * n + p * TB + c] = cs;
                }
            }
        }
    }
    // The strip's sums for the rows of block q: slot p_first; its other slots 0. LOWER keeps
    // them in the column-sum invocations (TB + c), upper in the row-sum ones (r).
    var row = lid;
    var mine = lid < TB;
    if (LOWER) {
        row = lid - TB;
        mine = lid >= TB && lid < 2u * TB;
    }
    if (p_first == q) {
        // The diagonal tile's sums are in the row-sum invocations.
        if (LOWER) {
            workgroupBarrier();
            if (lid < TB) {
                sh[lid] = acc;
            }
            workgroupBarrier();
            if (mine) {
                acc = acc + sh[row];
            }
        }
    }
    if (mine && q * TB + row < n) {
        partial[p_first * n + q * TB + row] = acc;
        for (var z = p_first + 1u; z < p_end; z = z + 1u) {
            partial[z * n + q * TB + row] = T(0);
        }
    }
}
