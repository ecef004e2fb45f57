// Level 3 matrix-matrix tile engine: C = alpha·A·B + beta·C with A m×k, B k×n, C m×n, each
// addressed by signed strides, so op(A) = Aᵀ and op(B) = Bᵀ are the same kernel with the
// strides swapped, and C, F, mixed-order and strided operands need no copy (layout.rs).
//
// Tiling (the register-tiled scheme of Volkov & Demmel, "Benchmarking GPUs to tune dense linear
// algebra", SC08, as laid out in CUTLASS's SIMT sgemm): a workgroup of 16×16 invocations owns a
// BM×BN = 128×128 tile of C; per step it stages a BM×BK slab of A and a BK×BN slab of B in
// workgroup memory (BK = 16), and each invocation accumulates a TM×TN = 8×8 register tile.
// Staging loads are mapped so that consecutive invocations read consecutive addresses for
// either storage order. Out-of-range elements are staged as zero; stores are guarded.
// Whole slabs whose rows or columns are contiguous and 16-byte aligned are staged with vec4
// loads (bindings `a4`, `b4`: the same buffers); others element by element.
//
// Semantics (reference BLAS): alpha = 0 or k = 0 reads neither A nor B (C = beta·C);
// beta = 0 never reads C. Both tests look at the bit patterns (`f32_is_zero`), so a NaN alpha or
// beta is not taken as 0 and a device scalar gets the same rules as a host one.
//
// Variants (WGSL `override` constants, so the other Level 3 routines reuse this one engine):
//   TRI_C  = 0: all of C; 1: only the lower triangle (i >= j) of C; 2: only the upper (i <= j).
//            Tiles wholly outside the triangle return at once, stores are masked on the tiles
//            the diagonal crosses: elements outside the triangle are neither read nor written
//            (sgemmtr, ssyrk, ssyr2k).
//   A_MODE = 0: A general; 1: A symmetric, only its A_UPLO triangle read, element (i, p) of the
//            other triangle read as (p, i) (ssymm); 2: A triangular in its A_UPLO triangle, zero
//            outside and never read there, and with A_UNIT the diagonal is 1 and never read;
//            the k loop then also skips the slabs that are zero for the whole tile (strmm).
//   A_UPLO = 1: lower; 2: upper.
//   SYR2K  = true: a second product is accumulated after the first, from the same bindings with
//            the roles swapped: C = alpha·(A·B + B'·A') + beta·C, where B'(i, p) = B(p, i) and
//            A'(p, j) = A(j, p); with A = op(A) and B = op(B)ᵀ this is ssyr2k.

const BM: u32 = 128u;
const BN: u32 = 128u;
const BK: u32 = 16u;
const TM: u32 = 8u;
const TN: u32 = 8u;
const WG: u32 = 256u;  // (BM / TM) · (BN / TN)

override TRI_C: u32 = 0u;
override A_MODE: u32 = 0u;
override A_UPLO: u32 = 1u;
override A_UNIT: bool = false;
override SYR2K: bool = false;

struct Params {
    m: u32,
    n: u32,
    k: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offb: u32,
    rsb: i32,
    csb: i32,
    offc: u32,
    rsc: i32,
    csc: i32,
    alpha: f32,
    beta: f32,
    tiles_m: u32,  // number of tiles along m
    vec_ok: u32,   // bit 0: `a4` may be used, bit 1: `b4` (their bindings are whole vec4s)
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> b: array<T>;
@group(0) @binding(3) var<storage, read_write> c: array<T>;
// The same buffers as `a` and `b`, read as vec4s by the staging fast paths.
@group(0) @binding(4) var<storage, read> a4: array<vec4<T>>;
@group(0) @binding(5) var<storage, read> b4: array<vec4<T>>;

// As[p][i] and Bs[p][j], stored as vec4 rows so that the inner loop reads vectors.
var<workgroup> As: array<vec4<T>, 512>;  // BK · BM / 4
var<workgroup> Bs: array<vec4<T>, 512>;  // BK · BN / 4

fn in_tri(lower: bool, i: u32, j: u32) -> bool {
    return (lower && i >= j) || (!lower && i <= j);
}

// Element (i, p) of the left operand, in range, as A_MODE reads it.
fn read_a(i: u32, p: u32) -> T {
    if (A_MODE == 0u) {
        return a[midx(P.offa, i, p, P.rsa, P.csa)];
    }
    let inside = in_tri(A_UPLO == 1u, i, p);
    if (A_MODE == 1u) {
        if (inside) {
            return a[midx(P.offa, i, p, P.rsa, P.csa)];
        }
        return a[midx(P.offa, p, i, P.rsa, P.csa)];
    }
    if (A_UNIT && i == p) {
        return T(1);
    }
    if (inside) {
        return a[midx(P.offa, i, p, P.rsa, P.csa)];
    }
    return T(0);
}

// Stage the BM×BK slab of the left operand at (i0, p0). `second`: the SYR2K second product,
// whose left operand is B'(i, p) = B(p, i) (strides (csb, rsb) of the b binding).
fn load_a(i0: u32, p0: u32, t: u32, second: bool) {
    // Fast paths: a whole general slab whose rows (csa = 1) or columns (rsa = 1) are
    // contiguous and 16-byte aligned is read as vec4s (all values here are uniform).
    let whole = i0 + BM <= P.m && p0 + BK <= P.k;
    if (A_MODE == 0u && !second && whole && (P.vec_ok & 1u) != 0u && P.offa % 4u == 0u) {
        if (P.csa == 1 && P.rsa % 4 == 0) {
            // Invocation t: row t / 2 of the slab, 8 consecutive p from (t % 2)·8.
            let il = t / 2u;
            let pq = (t % 2u) * 8u;
            let at = (u32(i32(P.offa) + i32(i0 + il) * P.rsa) + p0 + pq) / 4u;
            let v0 = a4[at];
            let v1 = a4[at + 1u];
            let col = il / 4u;
            let lane = il % 4u;
            As[(pq + 0u) * (BM / 4u) + col][lane] = v0.x;
            As[(pq + 1u) * (BM / 4u) + col][lane] = v0.y;
            As[(pq + 2u) * (BM / 4u) + col][lane] = v0.z;
            As[(pq + 3u) * (BM / 4u) + col][lane] = v0.w;
            As[(pq + 4u) * (BM / 4u) + col][lane] = v1.x;
            As[(pq + 5u) * (BM / 4u) + col][lane] = v1.y;
            As[(pq + 6u) * (BM / 4u) + col][lane] = v1.z;
            As[(pq + 7u) * (BM / 4u) + col][lane] = v1.w;
            return;
        }
        if (P.rsa == 1 && P.csa % 4 == 0) {
            // Invocation t: vec4 t % 32 of slab columns t / 32 and t / 32 + 8.
            let v = t % 32u;
            for (var r = 0u; r < 2u; r = r + 1u) {
                let pl = t / 32u + 8u * r;
                let at = u32(i32(P.offa) + i32(p0 + pl) * P.csa + i32(i0)) / 4u + v;
                As[pl * (BM / 4u) + v] = a4[at];
            }
            return;
        }
    }
    var rs = P.rsa;
    if (second) {
        rs = P.csb;
    }
    // 2048 elements, 8 per invocation.
    for (var r = 0u; r < 8u; r = r + 1u) {
        var il: u32;
        var pl: u32;
        if (rs == 1 || rs == -1) {
            il = t % BM;
            pl = t / BM + 2u * r;
        } else {
            pl = t % BK;
            il = t / BK + 16u * r;
        }
        let i = i0 + il;
        let p = p0 + pl;
        var v = T(0);
        if (i < P.m && p < P.k) {
            if (second) {
                v = b[midx(P.offb, p, i, P.rsb, P.csb)];
            } else {
                v = read_a(i, p);
            }
        }
        As[pl * (BM / 4u) + il / 4u][il % 4u] = v;
    }
}

// Stage the BK×BN slab of the right operand at (p0, j0). `second`: the SYR2K second product,
// whose right operand is A'(p, j) = A(j, p) (strides (csa, rsa) of the a binding).
fn load_b(p0: u32, j0: u32, t: u32, second: bool) {
    // Fast paths, as in `load_a`: rows (csb = 1) or columns (rsb = 1) contiguous and aligned.
    let whole = j0 + BN <= P.n && p0 + BK <= P.k;
    if (!second && whole && (P.vec_ok & 2u) != 0u && P.offb % 4u == 0u) {
        if (P.csb == 1 && P.rsb % 4 == 0) {
            let v = t % 32u;
            for (var r = 0u; r < 2u; r = r + 1u) {
                let pl = t / 32u + 8u * r;
                let at = u32(i32(P.offb) + i32(p0 + pl) * P.rsb + i32(j0)) / 4u + v;
                Bs[pl * (BN / 4u) + v] = b4[at];
            }
            return;
        }
        if (P.rsb == 1 && P.csb % 4 == 0) {
            // Invocation t: column t / 2 of the slab, 8 consecutive p from (t % 2)·8.
            let jl = t / 2u;
            let pq = (t % 2u) * 8u;
            let at = (u32(i32(P.offb) + i32(j0 + jl) * P.csb) + p0 + pq) / 4u;
            let v0 = b4[at];
            let v1 = b4[at + 1u];
            let col = jl / 4u;
            let lane = jl % 4u;
            Bs[(pq + 0u) * (BN / 4u) + col][lane] = v0.x;
            Bs[(pq + 1u) * (BN / 4u) + col][lane] = v0.y;
            Bs[(pq + 2u) * (BN / 4u) + col][lane] = v0.z;
            Bs[(pq + 3u) * (BN / 4u) + col][lane] = v0.w;
            Bs[(pq + 4u) * (BN / 4u) + col][lane] = v1.x;
            Bs[(pq + 5u) * (BN / 4u) + col][lane] = v1.y;
            Bs[(pq + 6u) * (BN / 4u) + col][lane] = v1.z;
            Bs[(pq + 7u) * (BN / 4u) + col][lane] = v1.w;
            return;
        }
    }
    var cs = P.csb;
    if (second) {
        cs = P.rsa;
    }
    for (var r = 0u; r < 8u; r = r + 1u) {
        var jl: u32;
        var pl: u32;
        if (cs == 1 || cs == -1) {
            jl = t % BN;
            pl = t / BN + 2u * r;
        } else {
            pl = t % BK;
            jl = t / BK + 16u * r;
        }
        let j = j0 + jl;
        let p = p0 + pl;
        var v = T(0);
        if (j < P.n && p < P.k) {
            if (second) {
                v = a[midx(P.offa, j, p, P.rsa, P.csa)];
            } else {
                v = b[midx(P.offb, p, j, P.rsb, P.csb)];
            }
        }
        Bs[pl * (BN / 4u) + jl / 4u][jl % 4u] = v;
    }
}

// Write C(i, j..j+8) = alpha·(v0, v1) + beta·C (beta = 0: C not read), in range and, for
// TRI_C, in the triangle only.
fn store_row(i: u32, j: u32, v0: vec4<T>, v1: vec4<T>, run_k: bool) {
    if (i >= P.m) {
        return;
    }
    for (var q = 0u; q < TN; q = q + 1u) {
        if (j + q >= P.n) {
            return;
        }
        if (TRI_C != 0u && !in_tri(TRI_C == 1u, i, j + q)) {
            continue;
        }
        let ic = midx(P.offc, i, j + q, P.rsc, P.csc);
        var v = T(0);
        if (run_k) {
            var acc: T;
            if (q < 4u) {
                acc = v0[q];
            } else {
                acc = v1[q - 4u];
            }
            v = T(P.alpha) * acc;
        }
        if (!f32_is_zero(P.beta)) {
            v = v + T(P.beta) * c[ic];
        }
        c[ic] = v;
    }
}

// The products of one staged slab for a triangular A (A_MODE = 2), rows i..i+8 of this
// invocation, each only where A(row, p) lies in the A_UPLO triangle (the diagonal included).
fn masked_products(i: u32, p0: u32, tx: u32, ty: u32, c0: ptr<function, vec4<T>>, c1: ptr<function, vec4<T>>, c2: ptr<function, vec4<T>>, c3: ptr<function, vec4<T>>, c4: ptr<function, vec4<T>>, c5: ptr<function, vec4<T>>, c6: ptr<function, vec4<T>>, c7: ptr<function, vec4<T>>, c8: ptr<function, vec4<T>>, c9: ptr<function, vec4<T>>, c10: ptr<function, vec4<T>>, c11: ptr<function, vec4<T>>, c12: ptr<function, vec4<T>>, c13: ptr<function, vec4<T>>, c14: ptr<function, vec4<T>>, c15: ptr<function, vec4<T>>) {
    let lower = A_UPLO == 1u;
    for (var p = 0u; p < BK; p = p + 1u) {
        let pg = p0 + p;
        let a0 = As[p * (BM / 4u) + ty * 2u];
        let a1 = As[p * (BM / 4u) + ty * 2u + 1u];
        let b0 = Bs[p * (BN / 4u) + tx * 2u];
        let b1 = Bs[p * (BN / 4u) + tx * 2u + 1u];
        if (in_tri(lower, i + 0u, pg)) {
            *c0 = *c0 + a0.x * b0;
            *c1 = *c1 + a0.x * b1;
        }
        if (in_tri(lower, i + 1u, pg)) {
            *c2 = *c2 + a0.y * b0;
            *c3 = *c3 + a0.y * b1;
        }
        if (in_tri(lower, i + 2u, pg)) {
            *c4 = *c4 + a0.z * b0;
            *c5 = *c5 + a0.z * b1;
        }
        if (in_tri(lower, i + 3u, pg)) {
            *c6 = *c6 + a0.w * b0;
            *c7 = *c7 + a0.w * b1;
        }
        if (in_tri(lower, i + 4u, pg)) {
            *c8 = *c8 + a1.x * b0;
            *c9 = *c9 + a1.x * b1;
        }
        if (in_tri(lower, i + 5u, pg)) {
            *c10 = *c10 + a1.y * b0;
            *c11 = *c11 + a1.y * b1;
        }
        if (in_tri(lower, i + 6u, pg)) {
            *c12 = *c12 + a1.z * b0;
            *c13 = *c13 + a1.z * b1;
        }
        if (in_tri(lower, i + 7u, pg)) {
            *c14 = *c14 + a1.w * b0;
            *c15 = *c15 + a1.w * b1;
        }
    }
}

@compute @workgroup_size(16, 16)
fn gemm(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) loc: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
    let tile = linear_group(wid, nwg);
    let i0 = (tile % P.tiles_m) * BM;
    let j0 = (tile / P.tiles_m) * BN;
    let tx = loc.x;  // along n
    let ty = loc.y;  // along m

    // A tile wholly outside the triangle of C: nothing to read or write (uniform per workgroup).
    if ((TRI_C == 1u && i0 + BM <= j0) || (TRI_C == 2u && j0 + BN <= i0)) {
        return;
    }

    // The 8×8 register tile as 16 named vec4s (row r of the tile is c[2r], c[2r+1]): a local
    // array indexed in loops may be kept in memory by the driver, named values are registers.
    var c0 = vec4<T>(T(0));
    var c1 = c0;
    var c2 = c0;
    var c3 = c0;
    var c4 = c0;
    var c5 = c0;
    var c6 = c0;
    var c7 = c0;
    var c8 = c0;
    var c9 = c0;
    var c10 = c0;
    var c11 = c0;
    var c12 = c0;
    var c13 = c0;
    var c14 = c0;
    var c15 = c0;

    // The k range of the tile: all of it, except for a triangular A, whose rows i0..i0+BM are
    // zero before column i0 (upper) or from column i0+BM on (lower). i0 is a multiple of BK.
    var p_begin = 0u;
    var p_end = P.k;
    if (A_MODE == 2u) {
        if (A_UPLO == 1u) {
            p_end = min(P.k, i0 + BM);
        } else {
            p_begin = min(P.k, i0);
        }
    }
    var products = 1u;
    if (SYR2K) {
        products = 2u;
    }

    let run_k = !f32_is_zero(P.alpha) && P.k > 0u;
    if (run_k) {
        for (var second = 0u; second < products; second = second + 1u) {
            for (var p0 = p_begin; p0 < p_end; p0 = p0 + BK) {
                load_a(i0, p0, t, second == 1u);
                load_b(p0, j0, t, second == 1u);
                workgroupBarrier();
                // A triangular A is staged as 0 outside its triangle; where a slab holds such
                // zeros for this tile's rows, those products are masked out instead of added:
                // 0·NaN or 0·Inf of a B element is not a product of the formula (DESIGN.md §3).
                if (A_MODE == 2u && p0 + BK > i0 && p0 < i0 + BM) {
                    masked_products(i0 + ty * TM, p0, tx, ty, &c0, &c1, &c2, &c3, &c4, &c5, &c6,
                                    &c7, &c8, &c9, &c10, &c11, &c12, &c13, &c14, &c15);
                    workgroupBarrier();
                    continue;
                }
                for (var p = 0u; p < BK; p = p + 1u) {
                    let a0 = As[p * (BM / 4u) + ty * 2u];
                    let a1 = As[p * (BM / 4u) + ty * 2u + 1u];
                    let b0 = Bs[p * (BN / 4u) + tx * 2u];
                    let b1 = Bs[p * (BN / 4u) + tx * 2u + 1u];
                    c0 = c0 + a0.x * b0;
                    c1 = c1 + a0.x * b1;
                    c2 = c2 + a0.y * b0;
                    c3 = c3 + a0.y * b1;
                    c4 = c4 + a0.z * b0;
                    c5 = c5 + a0.z * b1;
                    c6 = c6 + a0.w * b0;
                    c7 = c7 + a0.w * b1;
                    c8 = c8 + a1.x * b0;
                    c9 = c9 + a1.x * b1;
                    c10 = c10 + a1.y * b0;
                    c11 = c11 + a1.y * b1;
                    c12 = c12 + a1.z * b0;
                    c13 = c13 + a1.z * b1;
                    c14 = c14 + a1.w * b0;
                    c15 = c15 + a1.w * b1;
                }
                workgroupBarrier();
            }
        }
    }

    let i = i0 + ty * TM;
    let j = j0 + tx * TN;
    store_row(i, j, c0, c1, run_k);
    store_row(i + 1u, j, c2, c3, run_k);
    store_row(i + 2u, j, c4, c5, run_k);
    store_row(i + 3u, j, c6, c7, run_k);
    store_row(i + 4u, j, c8, c9, run_k);
    store_row(i + 5u, j, c10, c11, run_k);
    store_row(i + 6u, j, c12, c13, run_k);
    store_row(i + 7u, j, c14, c15, run_k);
}
