// Level 2 triangular solve, blocked, with a one-block look-ahead (lab `Experimental` on trsv):
// solve A·x = b in place in x, A n×n triangular, addressed by signed strides (op(A) = Aᵀ is the
// same kernel with rs and cs swapped and the triangle flipped, layout.rs).
//   LOWER = true:  forward substitution, blocks of NB rows from the top;
//   LOWER = false: back substitution, blocks from the bottom.
//   UNIT  = true:  the diagonal is taken as 1 and never read.
// One dispatch of `step` per diagonal block k, in solve order (block j: rows R_j). On entry
// x(R_k) has had every earlier block's contribution subtracted, and each later block every one
// but block k−1's. In dispatch k
//   workgroup 0 (the solver) loads the diagonal block, x(R_k), the solution x(R_{k−1}) and the
//     two blocks A(R_{k+1}, R_{k−1}) and A(R_{k+1}, R_k), all loads issued before any is used
//     (each invocation's NB·NB/WG elements of a tile in registers); solves the block in
//     workgroup memory by sub-blocks of SB rows (one invocation substitutes SB rows in
//     registers, then every later row subtracts them: two barriers per SB rows); writes the
//     solution into x(R_k), and subtracts both blocks' products from x(R_{k+1}) (which is then
//     final);
//   workgroups 1.. (the updaters) subtract A(i, R_{k−1})·x(R_{k−1}) from their NB rows i past
//     R_{k+1}, a tile of products staged in workgroup memory.
// No workgroup reads what another writes within a dispatch: the solver writes x(R_k) and
// x(R_{k+1}), the updaters the rows past R_{k+1}, and both read x(R_{k−1}), final since
// dispatch k−1. Only the `uplo` triangle is read; every loop has a fixed trip count of at most
// NB.

override UPLO: u32 = UPLO_LOWER;  // the triangle (common.wgsl's UPLO_LOWER or UPLO_UPPER)
override LOWER: bool = UPLO == UPLO_LOWER;
override UNIT: bool = false;
// Rows per diagonal block: 64, or 32 where its tile does not fit the adapter's workgroup
// memory (the driver's `block`, as for trsv.wgsl).
override NB: u32 = 64u;
// Rows per sub-block of the in-block substitution: 4, 8 or 16 (a multiple of 4, ≤ NB).
override SB: u32 = 8u;
// Workgroup 1 reads the tiles the next dispatch's solver loads first (`prefetch`), so that
// they come from the L2 cache then; the updaters are workgroups 2.. .
override PREFETCH: bool = false;
const WG: u32 = 256u;
// Invocations per row in the row sums (4 or 8), and the tile elements each invocation loads.
override TPR: u32 = WG / NB;
override LOADS: u32 = NB * NB / WG;
// Row pitch of the tile in workgroup memory (one pad element against bank conflicts).
override PITCH: u32 = NB + 1u;
override W_LEN: u32 = NB * PITCH;

struct Params {
    n: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    incx: i32,
    k: u32,       // the block solved by this dispatch, in solve order
    blocks: u32,  // ceil(n / NB)
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read_write> x: array<T>;

// A tile: element (r, c) at w[r * PITCH + c] (the diagonal block, then products).
var<workgroup> w: array<T, W_LEN>;
// Block k's right-hand side, then its solution (by row of the block).
var<workgroup> xs: array<T, NB>;
// Block k−1's solution.
var<workgroup> xp: array<T, NB>;
var<workgroup> part: array<T, WG>;

fn A(i: u32, j: u32) -> T {
    return a[midx(P.offa, i, j, P.rsa, P.csa)];
}

// First row of block j (j < P.blocks) and its number of rows.
fn bstart(j: u32) -> u32 {
    if (LOWER) {
        return j * NB;
    }
    let end = P.n - j * NB;
    return select(0u, end - NB, end > NB);
}

fn blen(j: u32) -> u32 {
    if (LOWER) {
        return min(NB, P.n - j * NB);
    }
    return P.n - j * NB - bstart(j);
}

// Tile coordinates of the e-th element loaded, so that consecutive invocations read
// consecutive addresses: along columns when A's column stride is the smaller one. Past
// NB·NB the row (or column) is past NB, so that every mask below rejects it.
fn tile_rc(e: u32) -> vec2<u32> {
    if (abs(P.csa) <= abs(P.rsa)) {
        return vec2<u32>(e / NB, e % NB);
    }
    return vec2<u32>(e % NB, e / NB);
}

// Element e of the tile at (i0, j0) with `rows` × `cols` inside (0 outside); `tri`: of the
// diagonal block, only its referenced triangle (and its diagonal unless UNIT).
fn ld(e: u32, i0: u32, j0: u32, rows: u32, cols: u32, tri: bool) -> T {
    let rc = tile_rc(e);
    let r = rc.x;
    let c = rc.y;
    var inside = r < rows && c < cols;
    if (tri) {
        inside = inside && ((LOWER && c < r) || (!LOWER && c > r) || (!UNIT && c == r));
    }
    var v = T(0);
    if (inside) {
        v = A(i0 + r, j0 + c);
    }
    return v;
}

// Four of an invocation's tile elements, WG apart from e (written out: all four loads issue
// before any is used).
fn ld4(e: u32, i0: u32, j0: u32, rows: u32, cols: u32, tri: bool) -> vec4<T> {
    return vec4<T>(ld(e, i0, j0, rows, cols, tri), ld(e + WG, i0, j0, rows, cols, tri),
                   ld(e + 2u * WG, i0, j0, rows, cols, tri), ld(e + 3u * WG, i0, j0, rows, cols, tri));
}

// An invocation's LOADS (4 or 16) elements of a tile, from element `lid`.
struct Tile {
    t0: vec4<T>,
    t1: vec4<T>,
    t2: vec4<T>,
    t3: vec4<T>,
}

fn load_tile(lid: u32, i0: u32, j0: u32, rows: u32, cols: u32, tri: bool) -> Tile {
    var t: Tile;
    t.t0 = ld4(lid, i0, j0, rows, cols, tri);
    if (LOADS > 4u) {
        t.t1 = ld4(lid + 4u * WG, i0, j0, rows, cols, tri);
        t.t2 = ld4(lid + 8u * WG, i0, j0, rows, cols, tri);
        t.t3 = ld4(lid + 12u * WG, i0, j0, rows, cols, tri);
    }
    return t;
}

// What `put` stores: the element itself (the diagonal block), its product with block k−1's
// solution (an updater), or that plus the product of v with block k's (the solver's
// look-ahead). No product is formed with a value that is not there: a 0·Inf would be NaN.
const RAW: u32 = 0u;
const ONE: u32 = 1u;
const TWO: u32 = 2u;

// w at the tile element e ← u, u·xp(c) or u·xp(c) + v·xs(c) (`mode`).
fn put(e: u32, u: T, v: T, mode: u32) {
    if (e >= NB * NB) {
        return;
    }
    let rc = tile_rc(e);
    var val = u;
    if (mode == ONE) {
        val = u * xp[rc.y];
    } else if (mode == TWO) {
        val = u * xp[rc.y] + v * xs[rc.y];
    }
    w[rc.x * PITCH + rc.y] = val;
}

fn put4(e: u32, u: vec4<T>, v: vec4<T>, mode: u32) {
    put(e, u.x, v.x, mode);
    put(e + WG, u.y, v.y, mode);
    put(e + 2u * WG, u.z, v.z, mode);
    put(e + 3u * WG, u.w, v.w, mode);
}

fn store_tile(lid: u32, u: Tile, v: Tile, mode: u32) {
    put4(lid, u.t0, v.t0, mode);
    if (LOADS > 4u) {
        put4(lid + 4u * WG, u.t1, v.t1, mode);
        put4(lid + 8u * WG, u.t2, v.t2, mode);
        put4(lid + 12u * WG, u.t3, v.t3, mode);
    }
}

// x(first + r) −= Σ_c w(r, c) for the rows r < rows of the tile of products (TPR invocations
// per row, then their partial sums in a fixed order). Called in uniform control flow.
fn subtract_rows(lid: u32, first: u32, rows: u32) {
    let r = lid / TPR;
    let q = lid % TPR;
    let base = r * PITCH + q * (NB / TPR);
    var sum = T(0);
    for (var c = 0u; c < NB / TPR; c = c + 4u) {
        let s0 = w[base + c];
        let s1 = w[base + c + 1u];
        let s2 = w[base + c + 2u];
        let s3 = w[base + c + 3u];
        sum = sum + ((s0 + s1) + (s2 + s3));
    }
    part[lid] = sum;
    workgroupBarrier();
    if (q == 0u && r < rows) {
        var total = (part[lid] + part[lid + 1u]) + (part[lid + 2u] + part[lid + 3u]);
        if (TPR == 8u) {
            total = total + ((part[lid + 4u] + part[lid + 5u]) + (part[lid + 6u] + part[lid + 7u]));
        }
        let ix = vidx(P.offx, first + r, P.incx);
        x[ix] = x[ix] - total;
    }
}

// Row of the block at solve position p (< nb): from the top for lower, from the bottom for
// upper. Positions past nb map to row 0 (read only, their results never stored).
fn rof(p: u32, nb: u32) -> u32 {
    if (p >= nb) {
        return 0u;
    }
    if (LOWER) {
        return p;
    }
    return nb - 1u - p;
}

// The triangle in solve order: element (p, q) of the block.
fn lp(p: u32, q: u32, nb: u32) -> T {
    return w[rof(p, nb) * PITCH + rof(q, nb)];
}

fn lrow4(p: u32, q0: u32, nb: u32) -> vec4<T> {
    return vec4<T>(lp(p, q0, nb), lp(p, q0 + 1u, nb), lp(p, q0 + 2u, nb), lp(p, q0 + 3u, nb));
}

fn xs4(q0: u32, nb: u32) -> vec4<T> {
    return vec4<T>(xs[rof(q0, nb)], xs[rof(q0 + 1u, nb)], xs[rof(q0 + 2u, nb)], xs[rof(q0 + 3u, nb)]);
}

fn dot4(u: vec4<T>, v: vec4<T>) -> T {
    return (u.x * v.x + u.y * v.y) + (u.z * v.z + u.w * v.w);
}

// b at position p divided by the diagonal (unless UNIT).
fn dv(b: T, p: u32, nb: u32) -> T {
    if (UNIT) {
        return b;
    }
    return b / lp(p, p, nb);
}

// Substitution of the 4 positions p0.. with right-hand sides b (every earlier position's
// products already subtracted).
fn solve4(p0: u32, b: vec4<T>, nb: u32) -> vec4<T> {
    let x0 = dv(b.x, p0, nb);
    let x1 = dv(b.y - lp(p0 + 1u, p0, nb) * x0, p0 + 1u, nb);
    let x2 = dv(b.z - lp(p0 + 2u, p0, nb) * x0 - lp(p0 + 2u, p0 + 1u, nb) * x1, p0 + 2u, nb);
    let x3 = dv(b.w - lp(p0 + 3u, p0, nb) * x0 - lp(p0 + 3u, p0 + 1u, nb) * x1
                - lp(p0 + 3u, p0 + 2u, nb) * x2, p0 + 3u, nb);
    return vec4<T>(x0, x1, x2, x3);
}

// b of the 4 positions p0.. minus the products of the 4 solved positions q0.. (xq).
fn minus4(b: vec4<T>, p0: u32, q0: u32, xq: vec4<T>, nb: u32) -> vec4<T> {
    return b - vec4<T>(dot4(lrow4(p0, q0, nb), xq), dot4(lrow4(p0 + 1u, q0, nb), xq),
                       dot4(lrow4(p0 + 2u, q0, nb), xq), dot4(lrow4(p0 + 3u, q0, nb), xq));
}

fn store4(p0: u32, v: vec4<T>, nb: u32) {
    if (p0 < nb) { xs[rof(p0, nb)] = v.x; }
    if (p0 + 1u < nb) { xs[rof(p0 + 1u, nb)] = v.y; }
    if (p0 + 2u < nb) { xs[rof(p0 + 2u, nb)] = v.z; }
    if (p0 + 3u < nb) { xs[rof(p0 + 3u, nb)] = v.w; }
}

// The SB positions s0.. of the block, substituted by one invocation in registers (groups of
// 4, each group's products subtracted from the later groups), their solutions into xs.
fn solve_sub(s0: u32, nb: u32) {
    let x0 = solve4(s0, xs4(s0, nb), nb);
    store4(s0, x0, nb);
    if (SB >= 8u) {
        let x1 = solve4(s0 + 4u, minus4(xs4(s0 + 4u, nb), s0 + 4u, s0, x0, nb), nb);
        store4(s0 + 4u, x1, nb);
        if (SB == 16u) {
            var b2 = minus4(xs4(s0 + 8u, nb), s0 + 8u, s0, x0, nb);
            b2 = minus4(b2, s0 + 8u, s0 + 4u, x1, nb);
            let x2 = solve4(s0 + 8u, b2, nb);
            store4(s0 + 8u, x2, nb);
            var b3 = minus4(xs4(s0 + 12u, nb), s0 + 12u, s0, x0, nb);
            b3 = minus4(b3, s0 + 12u, s0 + 4u, x1, nb);
            b3 = minus4(b3, s0 + 12u, s0 + 8u, x2, nb);
            store4(s0 + 12u, solve4(s0 + 12u, b3, nb), nb);
        }
    }
}

fn tile_sum(t: Tile) -> T {
    let s = (t.t0 + t.t1) + (t.t2 + t.t3);
    return (s.x + s.y) + (s.z + s.w);
}

// The tiles the solver of dispatch k + 1 loads (its diagonal block and look-ahead blocks),
// read and summed, the sum stored only where the dispatch has no block (never): so that the
// loads are made, and leave the tiles in the L2 cache.
fn prefetch(lid: u32) {
    let k1 = P.k + 1u;
    if (k1 >= P.blocks) {
        return;
    }
    let k0 = bstart(k1);
    let nb = blen(k1);
    let has_next = k1 + 1u < P.blocks;
    let next0 = select(0u, bstart(k1 + 1u), has_next);
    let next_rows = select(0u, blen(k1 + 1u), has_next);
    let d = load_tile(lid, k0, k0, nb, nb, true);
    let u = load_tile(lid, next0, bstart(P.k), next_rows, NB, false);
    let v = load_tile(lid, next0, k0, next_rows, nb, false);
    let s = tile_sum(d) + tile_sum(u) + tile_sum(v);
    if (P.blocks == 0u) {
        x[P.offx] = s;
    }
}

@compute @workgroup_size(WG)
fn solve_step(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let k = P.k;
    let g = linear_group(wid, nwg);
    let has_prev = k > 0u;
    let has_next = k + 1u < P.blocks;
    let cprev = select(0u, bstart(k - 1u), has_prev);
    if (g == 0u) {
        // The solver. Every load first.
        let k0 = bstart(k);
        let nb = blen(k);
        let next0 = select(0u, bstart(k + 1u), has_next);
        let next_rows = select(0u, blen(k + 1u), has_next);
        let d = load_tile(lid, k0, k0, nb, nb, true);
        let u = load_tile(lid, next0, cprev, next_rows, select(0u, NB, has_prev), false);
        let v = load_tile(lid, next0, k0, next_rows, nb, false);
        var b = T(0);
        if (lid < nb) {
            b = x[vidx(P.offx, k0 + lid, P.incx)];
        }
        var bp = T(0);
        if (has_prev && lid < NB) {
            bp = x[vidx(P.offx, cprev + lid, P.incx)];
        }
        store_tile(lid, d, d, RAW);
        if (lid < NB) {
            xs[lid] = b;
            xp[lid] = bp;
        }
        // The substitution: the owner of position p = lid keeps its right-hand side in xs,
        // and subtracts each solved sub-block's products from it.
        for (var s0 = 0u; s0 < nb; s0 = s0 + SB) {
            workgroupBarrier();
            if (lid == 0u) {
                solve_sub(s0, nb);
            }
            workgroupBarrier();
            let p = lid;
            if (p >= s0 + SB && p < nb) {
                var acc = xs[rof(p, nb)];
                for (var q = s0; q < s0 + SB; q = q + 4u) {
                    acc = acc - dot4(lrow4(p, q, nb), xs4(q, nb));
                }
                xs[rof(p, nb)] = acc;
            }
        }
        workgroupBarrier();
        if (lid < nb) {
            x[vidx(P.offx, k0 + lid, P.incx)] = xs[lid];
        }
        if (has_next) {
            // Without block k−1 (k = 0) its tile and its solution are zeros (0·0).
            store_tile(lid, u, v, TWO);
            workgroupBarrier();
            subtract_rows(lid, next0, next_rows);
        }
        return;
    }
    if (PREFETCH && g == 1u) {
        prefetch(lid);
        return;
    }
    // An updater: NB rows past R_{k+1}, block k−1's columns.
    var first: u32;
    var rows: u32;
    if (LOWER) {
        first = min((k + 2u) * NB, P.n);
        rows = P.n - first;
    } else {
        first = 0u;
        rows = select(0u, bstart(k + 1u), has_next);
    }
    let r0 = (g - 1u - u32(PREFETCH)) * NB;
    if (!has_prev || r0 >= rows) {
        return;
    }
    let u = load_tile(lid, first + r0, cprev, min(NB, rows - r0), NB, false);
    if (lid < NB) {
        xp[lid] = x[vidx(P.offx, cprev + lid, P.incx)];
    }
    workgroupBarrier();
    store_tile(lid, u, u, ONE);
    workgroupBarrier();
    subtract_rows(lid, first + r0, min(NB, rows - r0));
}
