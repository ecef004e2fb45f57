// Level 3 matrix-matrix tile engine: C = alpha·A·B + beta·C with A m×k, B k×n, C m×n, each
// addressed by signed strides, so op(A) = Aᵀ and op(B) = Bᵀ are the same kernel with the
// strides swapped, and C, F, mixed-order and strided operands need no copy (layout.rs).
//
// Tiling (the register-tiled scheme of Volkov & Demmel, "Benchmarking GPUs to tune dense linear
// algebra", SC08, as laid out in CUTLASS's SIMT sgemm): a workgroup of NT = BM·BN/64
// invocations owns a BM×BN tile of C; per step it stages a BM×BK slab of A (transposed: As[p][i])
// and a BK×BN slab of B (Bs[p][j]) in workgroup memory, and each invocation accumulates an 8×8
// register tile. Invocation (tx, ty) owns rows ty·4 + {0..3} and BM/2 + ty·4 + {0..3}, columns
// tx·4 + {0..3} and BN/2 + tx·4 + {0..3}: its four vec4 reads per step hit consecutive vec4s
// across a subgroup (no bank conflicts), and its stores of C are runs of 4 along a row.
//
// Staging: an operand whose rows or columns are contiguous and 16-byte aligned (AL, BL < 2, set
// by the driver) is read as vec4s on whole slabs with no bounds checks; partial slabs (edges of
// C, the last k slab) and other operands go element by element with guards. The driver packs
// big unaligned or strided operands into aligned ones first (entry `pack`).
// NBUF = 2 double-buffers workgroup memory: the next slab's global loads are issued before the
// current slab's products and stored after them, one barrier per slab.
//
// The k loop is nested (at most KCHUNK slabs per inner loop), so no loop runs more than 65,535
// iterations however large k is (DESIGN.md §3: lavapipe stops longer loops silently).
//
// Batched products (sgemm_batched): workgroup b·tiles + tile of a grid of batch·tiles computes
// that tile of product b, whose A, B and C start at offa + b·sba, offb + b·sbb, offc + b·sbc; a
// zero batch stride shares one operand across the batch. The batch is folded into the linear
// workgroup index (x and y of the grid), so one dispatch covers a batch past 65,535.
//
// Semantics (reference BLAS): alpha = 0 or k = 0 reads neither A nor B (C = beta·C); beta = 0
// never reads C. Zero tests go through bit patterns (`f32_is_zero`, ±0 only): a NaN alpha or beta is not 0.
//
// Variants (WGSL `override` constants):
//   BM, BN, BK, NBUF: tile shape and buffering (the driver picks them from the adapter's limits).
//   AL = 0: A read as vec4s along m (rsa = 1); 1: along k (csa = 1); 2: element-wise only.
//   BL = 0: B read as vec4s along n (csb = 1); 1: along k (rsb = 1); 2: element-wise only.
//   TRI_C = 0: all of C; 1: only its lower triangle (i >= j); 2: only the upper (i <= j). Tiles
//           wholly outside the triangle return at once, stores are masked on the tiles the
//           diagonal crosses: elements outside are neither read nor written (sgemmtr, ssyrk,
//           ssyr2k).
//   K_TRI = 1 (2): A is zero right (left) of the diagonal: the k loop skips the slabs that are
//           zero for the whole tile, and on the slabs across the diagonal leaves out the
//           products with the zero triangle (strmm, whose triangle the driver packs densely
//           first). K_TRI = 3 (4): the same for a triangular B, zero below (above) its diagonal,
//           B(p, j) = 0 for p > j (p < j): the transposed problem Cᵀ = Bᵀ·Aᵀ of K_TRI = 1 (2),
//           which the driver solves where C is column-major.
//   HEAVY_FIRST (with K_TRI): the tiles are taken row of tiles by row of tiles, the rows with the
//           longest k range first (K_TRI = 1: the last row first; 2: the first), so that the
//           workgroups started last are the shortest and the last wave ends evenly (without it
//           the rows of each column of tiles come in order, and each column's longest tile last);
//           for K_TRI = 3 (4) column of tiles by column, the last (first) column first.
//   EDGE = false: the driver guarantees whole tiles and slabs only (m, n, k multiples of BM, BN,
//          BK) and vec4-readable A and B: the element-wise paths and the bounds checks are
//          compiled out, which leaves the invocation fewer registers to hold.
//   VGUARD (with EDGE): edge tiles and partial slabs of a vec4-readable operand (AL, BL < 2)
//          are read as vec4s too, each vec4 guarded: one wholly past the operand's rows (m or n)
//          or past k is not read (zero), and lanes past k of a vec4 along k are zeroed (lanes
//          past m or n only reach rows or columns of C that are not stored). Without it such
//          tiles take the element-wise path for every slab.
//   SPLIT: split-k. Workgroup s·tiles + tile sums the k range [s·kslice, (s+1)·kslice) and
//          stores its raw sums to the scratch bound as `c` (dense, C order, s·m·n + i·n + j);
//          entry `splitk_reduce` then forms C = alpha·Σ + beta·C.
// Entry `pack` writes op(A) densely (zero padded), reading it as A_MODE says:
//   A_MODE = 0: general; 1: symmetric, only its A_UPLO triangle read, element (i, p) of the
//            other triangle read as (p, i) (ssymm); 2: triangular in its A_UPLO triangle, zero
//            outside and never read there, and with A_UNIT the diagonal is 1 and never read.

override BM: u32 = 128u;
override BN: u32 = 128u;
override BK: u32 = 16u;
override NBUF: u32 = 1u;
override AL: u32 = 2u;
override BL: u32 = 2u;
override TRI_C: u32 = 0u;
override K_TRI: u32 = 0u;
override HEAVY_FIRST: bool = false;
override SPLIT: bool = false;
// UNSCALED: a k chunk of a product whose k runs over several dispatches: its raw sums added into
// the scratch bound as `c` (alpha taken as 1, its zero test still on the real alpha), which
// `splitk_reduce` then scales once (C = alpha·Σ + beta·C).
override UNSCALED: bool = false;
override EDGE: bool = true;
override VGUARD: bool = false;
// FMA: the register tile's products accumulated by fma() (one rounding each) instead of
// c + a·b, which the driver may or may not contract (lab: `Tuning::fma`).
override FMA: bool = false;
override A_MODE: u32 = 0u;
override A_UPLO: u32 = 1u;
override A_UNIT: bool = false;

override NT: u32 = BM * BN / 64u;          // invocations per workgroup
override AS_LEN: u32 = NBUF * BK * BM / 4u; // vec4s of As (all buffers)
override BS_LEN: u32 = NBUF * BK * BN / 4u;
const KCHUNK: u32 = 32768u;                  // slabs per inner k loop
const WG: u32 = 256u;                        // invocations of splitk_reduce, pack, gemm_small

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
    tiles_m: u32,  // tiles along m
    tiles: u32,    // tiles of C (SPLIT: workgroups per k slice); pack: row pitch of the output
    kslice: u32,   // SPLIT: k elements per slice (a multiple of BK); splitk_reduce: number of slices
    batch: u32,    // products of a batched call (0 and 1: one), workgroup b·tiles + tile on product b
    sba: i32,      // batch strides: product b reads A at offa + b·sba, B at offb + b·sbb, and
    sbb: i32,      // writes C at offc + b·sbc (0: one operand broadcast over the batch)
    sbc: i32,
    kbase: u32,    // K_TRI: the depth of this dispatch's first slab in the whole product (k in chunks)
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> b: array<T>;
@group(0) @binding(3) var<storage, read_write> c: array<T>;
// The same buffers as `a` and `b`, read as vec4s by the staging fast paths.
@group(0) @binding(4) var<storage, read> a4: array<vec4<T>>;
@group(0) @binding(5) var<storage, read> b4: array<vec4<T>>;
// splitk_reduce: the partial sums.
@group(0) @binding(6) var<storage, read> part: array<T>;
// SCAL (f64, whose alpha and beta the f32 params cannot hold): alpha, beta as T. Entries
// `gemm`, `gemm_small` and `splitk_reduce` bind it always (any read-only buffer without SCAL).
@group(0) @binding(7) var<storage, read> sc: array<T>;
override SCAL: bool = false;

// alpha as T. With SCAL the params field is a marker: 0 for alpha = 0 (so that the zero tests
// on the bit pattern hold), 2 for "the value is sc[0]", 3 for "the value is sc[0], a device
// scalar copied there, whose zero test is made on it" (dsymv's GpuScalar<f64>).
fn alpha_t() -> T {
    if (UNSCALED) {
        return T(1);
    }
    if (SCAL && P.alpha >= 2.0) {
        return sc[0];
    }
    return T(P.alpha);
}

// beta as T; with SCAL the params field is 0, 1 (the later k chunks, which add to C), 2 for
// "the value is sc[1]", or 3 for a device value in sc[1] (as for alpha).
fn beta_t() -> T {
    if (SCAL && P.beta >= 2.0) {
        return sc[1];
    }
    return T(P.beta);
}

// Whether alpha is 0: on the params' bits, or for a device value (marker 3) on sc[0]. The
// comparison is ordered (naga emits ordered comparisons), so a NaN is not 0.
fn alpha_zero() -> bool {
    if (SCAL && P.alpha == 3.0) {
        return sc[0] == T(0);
    }
    return f32_is_zero(P.alpha);
}

// Whether beta is 0 (as `alpha_zero`).
fn beta_zero() -> bool {
    if (SCAL && P.beta == 3.0) {
        return sc[1] == T(0);
    }
    return f32_is_zero(P.beta);
}

// Whether beta is exactly 1 (as `alpha_zero`).
fn beta_one() -> bool {
    if (SCAL && P.beta == 3.0) {
        return sc[1] == T(1);
    }
    return f32_is_one(P.beta);
}

// Whether C stays as it is, bit for bit: (alpha = 0 or k = 0) with beta = 1, as the host-side
// quick return of reference BLAS leaves it, for a device alpha or beta too (tested on the bits;
// with SCAL the markers 0 and 1 mean exactly 0 and 1, and 3 is tested on the value).
fn keeps_c() -> bool {
    return (alpha_zero() || P.k == 0u) && beta_one();
}

var<workgroup> As: array<vec4<T>, AS_LEN>;
var<workgroup> Bs: array<vec4<T>, BS_LEN>;
// Global loads of the next slab, held in registers across the products (fast paths).
var<private> ra: array<vec4<T>, 8>;
var<private> rb: array<vec4<T>, 8>;
// Offsets of A, B and C of this workgroup's product of the batch (`gemm`).
var<private> oa: u32;
var<private> ob: u32;
var<private> oc: u32;

// Vec4s of the A and B slabs each invocation loads on the fast paths (BM·BK/4 and BK·BN/4
// over NT invocations: 16·BK/BN and 16·BK/BM, at most 8).
override RA: u32 = BM * BK / (4u * NT);
override RB: u32 = BN * BK / (4u * NT);

// The r-th vec4 of an A slab at (i0, p0) for invocation t (fast path).
// `guard` (VGUARD, an edge tile or a partial slab): the vec4 is read only where it starts
// inside the operand, and its lanes past k are zeroed.
fn load_a(i0: u32, p0: u32, e: u32, guard: bool) -> vec4<T> {
    if (AL == 0u) {
        let pl = e / (BM / 4u);
        let v = e % (BM / 4u);
        if (guard && (p0 + pl >= P.k || i0 + 4u * v >= P.m)) {
            return vec4<T>(T(0));
        }
        return a4[u32(i32(oa) + i32(p0 + pl) * P.csa + i32(i0)) / 4u + v];
    }
    // BK/4 consecutive invocations read one row's slab run (coalesced).
    let il = e / (BK / 4u);
    let pv = e % (BK / 4u);
    if (guard) {
        let p = p0 + 4u * pv;
        if (i0 + il >= P.m || p >= P.k) {
            return vec4<T>(T(0));
        }
        let x = a4[u32(i32(oa) + i32(i0 + il) * P.rsa + i32(p0)) / 4u + pv];
        return select(vec4<T>(T(0)), x, vec4<u32>(p) + vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(P.k));
    }
    return a4[u32(i32(oa) + i32(i0 + il) * P.rsa + i32(p0)) / 4u + pv];
}

fn load_b(p0: u32, j0: u32, e: u32, guard: bool) -> vec4<T> {
    if (BL == 0u) {
        let pl = e / (BN / 4u);
        let v = e % (BN / 4u);
        if (guard && (p0 + pl >= P.k || j0 + 4u * v >= P.n)) {
            return vec4<T>(T(0));
        }
        return b4[u32(i32(ob) + i32(p0 + pl) * P.rsb + i32(j0)) / 4u + v];
    }
    let jl = e / (BK / 4u);
    let pv = e % (BK / 4u);
    if (guard) {
        let p = p0 + 4u * pv;
        if (j0 + jl >= P.n || p >= P.k) {
            return vec4<T>(T(0));
        }
        let x = b4[u32(i32(ob) + i32(j0 + jl) * P.csb + i32(p0)) / 4u + pv];
        return select(vec4<T>(T(0)), x, vec4<u32>(p) + vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(P.k));
    }
    return b4[u32(i32(ob) + i32(j0 + jl) * P.csb + i32(p0)) / 4u + pv];
}

// Load vec4 r of the A slab (which = 0; x, y = i0, p0) or the B slab (which = 1; x, y = p0,
// j0) into the registers (NBUF = 2) or straight into buffer `buf` (NBUF = 1).
fn fetch_r(which: u32, r: u32, x: u32, y: u32, t: u32, buf: u32, guard: bool) {
    let e = t + r * NT;
    if (which == 0u) {
        let v = load_a(x, y, e, guard);
        if (NBUF == 1u) {
            put_a1(e, buf, v);
        } else {
            ra[r] = v;
        }
    } else {
        let v = load_b(x, y, e, guard);
        if (NBUF == 1u) {
            put_b1(e, buf, v);
        } else {
            rb[r] = v;
        }
    }
}

// fetch_r for r = 0..count (count ≤ 8), written out so that every index is a constant.
fn for_each_r(count: u32, which: u32, x: u32, y: u32, t: u32, buf: u32, g: bool) {
    fetch_r(which, 0u, x, y, t, buf, g);
    if (count > 1u) { fetch_r(which, 1u, x, y, t, buf, g); }
    if (count > 2u) { fetch_r(which, 2u, x, y, t, buf, g); }
    if (count > 3u) { fetch_r(which, 3u, x, y, t, buf, g); }
    if (count > 4u) { fetch_r(which, 4u, x, y, t, buf, g); }
    if (count > 5u) { fetch_r(which, 5u, x, y, t, buf, g); }
    if (count > 6u) { fetch_r(which, 6u, x, y, t, buf, g); }
    if (count > 7u) { fetch_r(which, 7u, x, y, t, buf, g); }
}

// Store the registers of the A (which = 0) or B slab into buffer `buf` (NBUF = 2).
fn put_r(which: u32, r: u32, t: u32, buf: u32) {
    if (which == 0u) {
        put_a1(t + r * NT, buf, ra[r]);
    } else {
        put_b1(t + r * NT, buf, rb[r]);
    }
}

fn put_each_r(count: u32, which: u32, t: u32, buf: u32) {
    put_r(which, 0u, t, buf);
    if (count > 1u) { put_r(which, 1u, t, buf); }
    if (count > 2u) { put_r(which, 2u, t, buf); }
    if (count > 3u) { put_r(which, 3u, t, buf); }
    if (count > 4u) { put_r(which, 4u, t, buf); }
    if (count > 5u) { put_r(which, 5u, t, buf); }
    if (count > 6u) { put_r(which, 6u, t, buf); }
    if (count > 7u) { put_r(which, 7u, t, buf); }
}

// The invocation's 8×8 register tile of C (module-scope private, so that `step` can add to
// it; every index is a constant): rows ty·4 + {0..3} (c0..c7) and BM/2 + ty·4 + {0..3}
// (c8..c15), the even ones at columns tx·4 + {0..3}, the odd ones at BN/2 + tx·4 + {0..3}.
var<private> c0: vec4<T>;
var<private> c1: vec4<T>;
var<private> c2: vec4<T>;
var<private> c3: vec4<T>;
var<private> c4: vec4<T>;
var<private> c5: vec4<T>;
var<private> c6: vec4<T>;
var<private> c7: vec4<T>;
var<private> c8: vec4<T>;
var<private> c9: vec4<T>;
var<private> c10: vec4<T>;
var<private> c11: vec4<T>;
var<private> c12: vec4<T>;
var<private> c13: vec4<T>;
var<private> c14: vec4<T>;
var<private> c15: vec4<T>;

fn zero_acc() {
    c0 = vec4<T>(T(0));
    c1 = vec4<T>(T(0));
    c2 = vec4<T>(T(0));
    c3 = vec4<T>(T(0));
    c4 = vec4<T>(T(0));
    c5 = vec4<T>(T(0));
    c6 = vec4<T>(T(0));
    c7 = vec4<T>(T(0));
    c8 = vec4<T>(T(0));
    c9 = vec4<T>(T(0));
    c10 = vec4<T>(T(0));
    c11 = vec4<T>(T(0));
    c12 = vec4<T>(T(0));
    c13 = vec4<T>(T(0));
    c14 = vec4<T>(T(0));
    c15 = vec4<T>(T(0));
}

// c + s·b, fused where FMA.
fn madd(c: vec4<T>, s: T, b: vec4<T>) -> vec4<T> {
    if (FMA) {
        return fma(vec4<T>(s), b, c);
    }
    return c + s * b;
}

// One k step of the register tile from slab row p of buffers ab (A) and bb (B).
fn step(ab: u32, bb: u32, p: u32, tx: u32, ty: u32) {
    let a0 = As[ab + p * (BM / 4u) + ty];
    let a1 = As[ab + p * (BM / 4u) + ty + BM / 8u];
    let b0 = Bs[bb + p * (BN / 4u) + tx];
    let b1 = Bs[bb + p * (BN / 4u) + tx + BN / 8u];
    c0 = madd(c0, a0.x, b0);
    c1 = madd(c1, a0.x, b1);
    c2 = madd(c2, a0.y, b0);
    c3 = madd(c3, a0.y, b1);
    c4 = madd(c4, a0.z, b0);
    c5 = madd(c5, a0.z, b1);
    c6 = madd(c6, a0.w, b0);
    c7 = madd(c7, a0.w, b1);
    c8 = madd(c8, a1.x, b0);
    c9 = madd(c9, a1.x, b1);
    c10 = madd(c10, a1.y, b0);
    c11 = madd(c11, a1.y, b1);
    c12 = madd(c12, a1.z, b0);
    c13 = madd(c13, a1.z, b1);
    c14 = madd(c14, a1.w, b0);
    c15 = madd(c15, a1.w, b1);
}

// The products of one whole slab. BK = 16 and 8 are written out step by step: with constant
// slab rows the compiler schedules the workgroup-memory reads ahead of the products, which a
// loop does not allow (on the H200: 38 against 27 TFLOP/s for a 64×128 tile, probe t3).
// (BK is an override: the branches not taken compile away.)
fn slab_products(ab: u32, bb: u32, tx: u32, ty: u32) {
    if (BK == 8u || BK == 16u) {
        step(ab, bb, 0u, tx, ty);
        step(ab, bb, 1u, tx, ty);
        step(ab, bb, 2u, tx, ty);
        step(ab, bb, 3u, tx, ty);
        step(ab, bb, 4u, tx, ty);
        step(ab, bb, 5u, tx, ty);
        step(ab, bb, 6u, tx, ty);
        step(ab, bb, 7u, tx, ty);
        if (BK == 16u) {
            step(ab, bb, 8u, tx, ty);
            step(ab, bb, 9u, tx, ty);
            step(ab, bb, 10u, tx, ty);
            step(ab, bb, 11u, tx, ty);
            step(ab, bb, 12u, tx, ty);
            step(ab, bb, 13u, tx, ty);
            step(ab, bb, 14u, tx, ty);
            step(ab, bb, 15u, tx, ty);
        }
    } else {
        for (var p = 0u; p < BK; p = p + 1u) {
            step(ab, bb, p, tx, ty);
        }
    }
}

fn in_tri(lower: bool, i: u32, j: u32) -> bool {
    return (lower && i >= j) || (!lower && i <= j);
}

// Whether element (i, p) of a K_TRI triangular A lies in its triangle (the diagonal included).
fn tri_a(i: u32, p: u32) -> bool {
    return (K_TRI == 1u && i >= p) || (K_TRI == 2u && i <= p);
}

// Whether elements (p, j) .. (p, j + 3) of a K_TRI triangular B (3: upper, 4: lower) lie in its
// triangle (the diagonal included).
fn tri_b4(p: u32, j: u32) -> vec4<bool> {
    let jv = vec4<u32>(j, j + 1u, j + 2u, j + 3u);
    let pv = vec4<u32>(p);
    return (vec4<bool>(K_TRI == 3u) & (pv <= jv)) | (vec4<bool>(K_TRI == 4u) & (pv >= jv));
}

// Slab of A at (i0, p0): global part. Fast paths read into `ra` (NBUF = 2: stored by `put_a`
// after the products) or straight into buffer `buf` (NBUF = 1); the element-wise path writes
// straight into `buf` (whose readers are past a barrier when this runs).
fn fetch_a(fast: bool, guard: bool, i0: u32, p0: u32, t: u32, buf: u32) {
    if (fast) {
        // Unrolled (a constant trip count after the overrides), so that `ra` is indexed by
        // constants only and lives in registers.
        for_each_r(RA, 0u, i0, p0, t, buf, guard);
        return;
    }
    let base = buf * (BK * BM / 4u);
    for (var e = t; e < BM * BK; e = e + NT) {
        var il: u32;
        var pl: u32;
        if (P.rsa == 1 || P.rsa == -1) {
            il = e % BM;
            pl = e / BM;
        } else {
            pl = e % BK;
            il = e / BK;
        }
        let i = i0 + il;
        let p = p0 + pl;
        var v = T(0);
        if (i < P.m && p < P.k) {
            v = a[midx(oa, i, p, P.rsa, P.csa)];
        }
        As[base + pl * (BM / 4u) + il / 4u][il % 4u] = v;
    }
}

// Store the e-th vec4 of a fast-path A slab into buffer `buf`.
fn put_a1(e: u32, buf: u32, x: vec4<T>) {
    let base = buf * (BK * BM / 4u);
    if (AL == 0u) {
        As[base + e] = x;
    } else {
        let il = e / (BK / 4u);
        let pl = (e % (BK / 4u)) * 4u;
        let col = base + il / 4u;
        let lane = il % 4u;
        As[col + pl * (BM / 4u)][lane] = x.x;
        As[col + (pl + 1u) * (BM / 4u)][lane] = x.y;
        As[col + (pl + 2u) * (BM / 4u)][lane] = x.z;
        As[col + (pl + 3u) * (BM / 4u)][lane] = x.w;
    }
}

// Store the fast-path A slab held in `ra` (NBUF = 2) into buffer `buf`.
fn put_a(fast: bool, t: u32, buf: u32) {
    if (!fast || NBUF == 1u) {
        return;
    }
    put_each_r(RA, 0u, t, buf);
}

fn fetch_b(fast: bool, guard: bool, p0: u32, j0: u32, t: u32, buf: u32) {
    if (fast) {
        for_each_r(RB, 1u, p0, j0, t, buf, guard);
        return;
    }
    let base = buf * (BK * BN / 4u);
    for (var e = t; e < BN * BK; e = e + NT) {
        var jl: u32;
        var pl: u32;
        if (P.csb == 1 || P.csb == -1) {
            jl = e % BN;
            pl = e / BN;
        } else {
            pl = e % BK;
            jl = e / BK;
        }
        let j = j0 + jl;
        let p = p0 + pl;
        var v = T(0);
        if (j < P.n && p < P.k) {
            v = b[midx(ob, p, j, P.rsb, P.csb)];
        }
        Bs[base + pl * (BN / 4u) + jl / 4u][jl % 4u] = v;
    }
}

fn put_b1(e: u32, buf: u32, x: vec4<T>) {
    let base = buf * (BK * BN / 4u);
    if (BL == 0u) {
        Bs[base + e] = x;
    } else {
        let jl = e / (BK / 4u);
        let pl = (e % (BK / 4u)) * 4u;
        let col = base + jl / 4u;
        let lane = jl % 4u;
        Bs[col + pl * (BN / 4u)][lane] = x.x;
        Bs[col + (pl + 1u) * (BN / 4u)][lane] = x.y;
        Bs[col + (pl + 2u) * (BN / 4u)][lane] = x.z;
        Bs[col + (pl + 3u) * (BN / 4u)][lane] = x.w;
    }
}

fn put_b(fast: bool, t: u32, buf: u32) {
    if (!fast || NBUF == 1u) {
        return;
    }
    put_each_r(RB, 1u, t, buf);
}

// Store row i, columns j..j+4 of the register tile: C = alpha·acc + beta·C (beta = 0: C not
// read; run_k false: C = beta·C), or the raw sums for SPLIT.
fn store4(i: u32, j: u32, acc: vec4<T>, run_k: bool, whole: bool, offc: u32) {
    if (EDGE && !whole && i >= P.m) {
        return;
    }
    for (var q = 0u; q < 4u; q = q + 1u) {
        let jq = j + q;
        if (EDGE && !whole && jq >= P.n) {
            return;
        }
        if (SPLIT) {
            c[offc + i * P.n + jq] = acc[q];
            continue;
        }
        if (TRI_C != 0u && !in_tri(TRI_C == 1u, i, jq)) {
            continue;
        }
        let ic = midx(oc, i, jq, P.rsc, P.csc);
        var v = T(0);
        if (run_k) {
            v = alpha_t() * acc[q];
        }
        if (!beta_zero()) {
            v = v + beta_t() * c[ic];
        }
        if (!keeps_c()) {
            c[ic] = v;
        }
    }
}

// Whether the slab at depth p0 of an operand staged in mode `l` (AL or BL) whose tile is
// `whole` along m (n) is read as vec4s: always without EDGE; else where the operand is
// vec4-readable and the slab is whole (inside the operand and k), or guarded (VGUARD).
fn vec_slab(l: u32, whole: bool, p0: u32) -> bool {
    return !EDGE || (l < 2u && (VGUARD || (whole && p0 + BK <= P.k)));
}

// Whether the vec4 reads of that slab need their guards (VGUARD, and the slab not whole).
fn guarded(whole: bool, p0: u32) -> bool {
    return EDGE && VGUARD && !(whole && p0 + BK <= P.k);
}

@compute @workgroup_size(NT)
fn gemm(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
    var tile = linear_group(wid, nwg);
    var slice = 0u;
    var z = 0u;
    if (SPLIT) {
        slice = tile / P.tiles;
        tile = tile % P.tiles;
    } else {
        // The product of the batch (the grid may hold a few workgroups past the last one).
        z = tile / P.tiles;
        tile = tile % P.tiles;
        if (z >= max(P.batch, 1u)) {
            return;
        }
    }
    oa = u32(i32(P.offa) + i32(z) * P.sba);
    ob = u32(i32(P.offb) + i32(z) * P.sbb);
    oc = u32(i32(P.offc) + i32(z) * P.sbc);
    var ti = tile % P.tiles_m;
    var tj = tile / P.tiles_m;
    if (K_TRI != 0u && HEAVY_FIRST) {
        let tiles_n = max(P.tiles / P.tiles_m, 1u);
        if (K_TRI <= 2u) {
            // Row of tiles r (in the order of their k ranges, longest first), its tiles in turn.
            let r = tile / tiles_n;
            tj = tile % tiles_n;
            ti = select(r, P.tiles_m - 1u - r, K_TRI == 1u);
        } else {
            // Column of tiles r (longest k range first), its tiles in turn.
            let r = tile / P.tiles_m;
            tj = select(r, tiles_n - 1u - r, K_TRI == 3u);
        }
    }
    let i0 = ti * BM;
    let j0 = tj * BN;
    let tx = t % (BN / 8u);
    let ty = t / (BN / 8u);

    // A tile wholly outside the triangle of C: nothing to read or write (uniform per workgroup).
    if ((TRI_C == 1u && i0 + BM <= j0) || (TRI_C == 2u && j0 + BN <= i0)) {
        return;
    }

    zero_acc();

    // The k range of the tile: all of it, except for a triangular A, whose rows i0..i0+BM are
    // zero from column i0+BM on (lower) or before column i0 (upper); and a split-k slice.
    // (The diagonal is at depth kbase of this dispatch's k range when k runs in chunks.)
    var p_begin = 0u;
    var p_end = P.k;
    let kb = P.kbase;
    if (K_TRI == 1u) {
        p_end = min(P.k, max(i0 + BM, kb) - kb);
    } else if (K_TRI == 2u) {
        p_begin = min(P.k, max(i0, kb) - kb);
    } else if (K_TRI == 3u) {
        p_end = min(P.k, max(j0 + BN, kb) - kb);
    } else if (K_TRI == 4u) {
        p_begin = min(P.k, max(j0, kb) - kb);
    }
    if (SPLIT) {
        p_begin = min(P.k, slice * P.kslice);
        p_end = min(P.k, p_begin + P.kslice);
    }

    let run_k = !alpha_zero() && P.k > 0u;
    if (SPLIT && !run_k) {
        return;  // splitk_reduce reads no partial sums then
    }
    let whole_m = i0 + BM <= P.m;
    let whole_n = j0 + BN <= P.n;
    let slabs = (p_end - p_begin + BK - 1u) / BK;
    if (run_k && slabs > 0u) {
        // Prologue (NBUF = 2): the first slab into buffer 0.
        if (NBUF == 2u) {
            let fa = vec_slab(AL, whole_m, p_begin);
            let fb = vec_slab(BL, whole_n, p_begin);
            fetch_a(fa, guarded(whole_m, p_begin), i0, p_begin, t, 0u);
            fetch_b(fb, guarded(whole_n, p_begin), p_begin, j0, t, 0u);
            put_a(fa, t, 0u);
            put_b(fb, t, 0u);
            workgroupBarrier();
        }
        for (var s0 = 0u; s0 < slabs; s0 = s0 + KCHUNK) {
            let s1 = min(slabs, s0 + KCHUNK);
            for (var s = s0; s < s1; s = s + 1u) {
                var cur = 0u;
                var fa = false;
                var fb = false;
                if (NBUF == 2u) {
                    cur = s % 2u;
                    // Issue the next slab's loads into registers (or the other buffer).
                    let pn = p_begin + (s + 1u) * BK;
                    if (s + 1u < slabs) {
                        fa = vec_slab(AL, whole_m, pn);
                        fb = vec_slab(BL, whole_n, pn);
                        fetch_a(fa, guarded(whole_m, pn), i0, pn, t, 1u - cur);
                        fetch_b(fb, guarded(whole_n, pn), pn, j0, t, 1u - cur);
                    }
                } else {
                    let p0 = p_begin + s * BK;
                    fa = vec_slab(AL, whole_m, p0);
                    fb = vec_slab(BL, whole_n, p0);
                    fetch_a(fa, guarded(whole_m, p0), i0, p0, t, 0u);
                    fetch_b(fb, guarded(whole_n, p0), p0, j0, t, 0u);
                    put_a(fa, t, 0u);
                    put_b(fb, t, 0u);
                    workgroupBarrier();
                }
                let ab = cur * (BK * BM / 4u);
                let bb = cur * (BK * BN / 4u);
                // The slab's depth in the whole product.
                let pb = p_begin + s * BK + kb;
                if (K_TRI >= 3u && pb < j0 + BN && pb + BK > j0) {
                    // A slab across the diagonal of a triangular B: as below, each product
                    // masked by its columns' side of the diagonal.
                    let ja = j0 + tx * 4u;
                    let jb = j0 + BN / 2u + tx * 4u;
                    for (var p = 0u; p < BK; p = p + 1u) {
                        let a0 = As[ab + p * (BM / 4u) + ty];
                        let a1 = As[ab + p * (BM / 4u) + ty + BM / 8u];
                        let b0 = Bs[bb + p * (BN / 4u) + tx];
                        let b1 = Bs[bb + p * (BN / 4u) + tx + BN / 8u];
                        let m0 = tri_b4(pb + p, ja);
                        let m1 = tri_b4(pb + p, jb);
                        c0 = select(c0, madd(c0, a0.x, b0), m0);
                        c1 = select(c1, madd(c1, a0.x, b1), m1);
                        c2 = select(c2, madd(c2, a0.y, b0), m0);
                        c3 = select(c3, madd(c3, a0.y, b1), m1);
                        c4 = select(c4, madd(c4, a0.z, b0), m0);
                        c5 = select(c5, madd(c5, a0.z, b1), m1);
                        c6 = select(c6, madd(c6, a0.w, b0), m0);
                        c7 = select(c7, madd(c7, a0.w, b1), m1);
                        c8 = select(c8, madd(c8, a1.x, b0), m0);
                        c9 = select(c9, madd(c9, a1.x, b1), m1);
                        c10 = select(c10, madd(c10, a1.y, b0), m0);
                        c11 = select(c11, madd(c11, a1.y, b1), m1);
                        c12 = select(c12, madd(c12, a1.z, b0), m0);
                        c13 = select(c13, madd(c13, a1.z, b1), m1);
                        c14 = select(c14, madd(c14, a1.w, b0), m0);
                        c15 = select(c15, madd(c15, a1.w, b1), m1);
                    }
                } else if (K_TRI != 0u && K_TRI <= 2u && pb < i0 + BM && pb + BK > i0) {
                    // A slab across the diagonal of a triangular A: the products with its
                    // zero (unreferenced) triangle are left out, not added as 0·B, so that a
                    // NaN or Inf of B there does not reach C (DESIGN.md §3).
                    let ia = i0 + ty * 4u;
                    let ib = i0 + BM / 2u + ty * 4u;
                    for (var p = 0u; p < BK; p = p + 1u) {
                        let a0 = As[ab + p * (BM / 4u) + ty];
                        let a1 = As[ab + p * (BM / 4u) + ty + BM / 8u];
                        let b0 = Bs[bb + p * (BN / 4u) + tx];
                        let b1 = Bs[bb + p * (BN / 4u) + tx + BN / 8u];
                        let pg = pb + p;
                        c0 = select(c0, madd(c0, a0.x, b0), tri_a(ia, pg));
                        c1 = select(c1, madd(c1, a0.x, b1), tri_a(ia, pg));
                        c2 = select(c2, madd(c2, a0.y, b0), tri_a(ia + 1u, pg));
                        c3 = select(c3, madd(c3, a0.y, b1), tri_a(ia + 1u, pg));
                        c4 = select(c4, madd(c4, a0.z, b0), tri_a(ia + 2u, pg));
                        c5 = select(c5, madd(c5, a0.z, b1), tri_a(ia + 2u, pg));
                        c6 = select(c6, madd(c6, a0.w, b0), tri_a(ia + 3u, pg));
                        c7 = select(c7, madd(c7, a0.w, b1), tri_a(ia + 3u, pg));
                        c8 = select(c8, madd(c8, a1.x, b0), tri_a(ib, pg));
                        c9 = select(c9, madd(c9, a1.x, b1), tri_a(ib, pg));
                        c10 = select(c10, madd(c10, a1.y, b0), tri_a(ib + 1u, pg));
                        c11 = select(c11, madd(c11, a1.y, b1), tri_a(ib + 1u, pg));
                        c12 = select(c12, madd(c12, a1.z, b0), tri_a(ib + 2u, pg));
                        c13 = select(c13, madd(c13, a1.z, b1), tri_a(ib + 2u, pg));
                        c14 = select(c14, madd(c14, a1.w, b0), tri_a(ib + 3u, pg));
                        c15 = select(c15, madd(c15, a1.w, b1), tri_a(ib + 3u, pg));
                    }
                } else {
                    slab_products(ab, bb, tx, ty);
                }
                if (NBUF == 2u) {
                    if (s + 1u < slabs) {
                        put_a(fa, t, 1u - cur);
                        put_b(fb, t, 1u - cur);
                    }
                }
                workgroupBarrier();
            }
        }
    }

    let whole = !EDGE || (whole_m && whole_n && TRI_C == 0u);
    let offc = slice * P.m * P.n;
    let ia = i0 + ty * 4u;
    let ib = i0 + BM / 2u + ty * 4u;
    let ja = j0 + tx * 4u;
    let jb = j0 + BN / 2u + tx * 4u;
    store4(ia, ja, c0, run_k, whole, offc);
    store4(ia, jb, c1, run_k, whole, offc);
    store4(ia + 1u, ja, c2, run_k, whole, offc);
    store4(ia + 1u, jb, c3, run_k, whole, offc);
    store4(ia + 2u, ja, c4, run_k, whole, offc);
    store4(ia + 2u, jb, c5, run_k, whole, offc);
    store4(ia + 3u, ja, c6, run_k, whole, offc);
    store4(ia + 3u, jb, c7, run_k, whole, offc);
    store4(ib, ja, c8, run_k, whole, offc);
    store4(ib, jb, c9, run_k, whole, offc);
    store4(ib + 1u, ja, c10, run_k, whole, offc);
    store4(ib + 1u, jb, c11, run_k, whole, offc);
    store4(ib + 2u, ja, c12, run_k, whole, offc);
    store4(ib + 2u, jb, c13, run_k, whole, offc);
    store4(ib + 3u, ja, c14, run_k, whole, offc);
    store4(ib + 3u, jb, c15, run_k, whole, offc);
}

// Split-k epilogue: C(i, j) = alpha·Σ_s part[s·m·n + i·n + j] + beta·C(i, j), one invocation
// per element of C (kslice = number of slices; beta = 0: C not read; alpha = 0: no partial
// sum read). Also the epilogue of a product whose k ran in chunks (UNSCALED): one slice, the
// chunks' sum, over a batch (product z at part[z·m·n + ...]) and inside TRI_C only.
@compute @workgroup_size(WG)
fn splitk_reduce(@builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) t: u32) {
    let e = linear_group(wid, nwg) * WG + t;
    let mn = P.m * P.n;
    if (e >= mn * max(P.batch, 1u)) {
        return;
    }
    // Product z of a batch (k chunks only: split-k is never batched), element (i, j) of its C,
    // inside the triangle TRI_C.
    let z = e / mn;
    let i = (e % mn) / P.n;
    let j = e % P.n;
    if ((TRI_C == 1u && i < j) || (TRI_C == 2u && i > j)) {
        return;
    }
    let ic = midx(u32(i32(P.offc) + i32(z) * P.sbc), i, j, P.rsc, P.csc);
    var v = T(0);
    if (!alpha_zero() && P.k > 0u) {
        var sum = T(0);
        for (var s = 0u; s < P.kslice; s = s + 1u) {
            sum = sum + part[s * mn + e];
        }
        v = alpha_t() * sum;
    }
    if (!beta_zero()) {
        v = v + beta_t() * c[ic];
    }
    if (!keeps_c()) {
        c[ic] = v;
    }
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

// Dense copy of the m×k operand A, row-major with row pitch `tiles`, into columns
// offc..offc + n of `c` (n ≥ k: the columns past k are zero). One invocation per element
// written, consecutive along the rows.
@compute @workgroup_size(WG)
fn pack(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
    let e = linear_group(wid, nwg) * WG + t;
    let i = e / P.n;
    let p = e % P.n;
    if (i >= P.m) {
        return;
    }
    var v = T(0);
    if (p < P.k) {
        v = read_a(i, p);
    }
    c[P.offc + i * P.tiles + p] = v;
}

// Batches of small products (m, n ≤ 32; sgemm_batched, dgemm_batched): `tiles` products per
// workgroup of 256 invocations, each invocation a 4×4 block of C of one product (invocation t:
// product t / tp, block t % tp, tp = ⌈m/4⌉·⌈n/4⌉, blocks along n first, so that consecutive
// invocations read consecutive elements of B and write consecutive elements of C). Each
// invocation reads its four rows of A and four columns of B straight from the buffers (a
// product's operands, at most 32×k and k×32, stay in the cache while its invocations read
// them): B as one vec4 per step of k where BL = 0 (B contiguous along n, 16-byte aligned), A
// as one vec4 per four steps of k where AL = 1 (contiguous along k, aligned), element-wise
// otherwise. Rows past m and columns past n read the last row or column again (or the
// aligned vec4 that holds the last column), into accumulators that are never stored.
// On the H200 (benches/results/2026-12-01-batch/): 10,000 products of 32³ ran 3.4× faster in
// f32 and 4.4× in f64 than the form that staged k slabs in workgroup memory.
// k is at most K_SPLIT_SMALL (4,096) per dispatch: at most 4,096 iterations of one loop.
// Semantics as `gemm` (alpha = 0 or k = 0 reads neither A nor B, beta = 0 never reads C).
@compute @workgroup_size(WG)
fn gemm_small(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) t: u32) {
    let tpn = (P.n + 3u) / 4u;
    let tp = ((P.m + 3u) / 4u) * tpn;
    let lp = t / tp;
    let z = linear_group(wid, nwg) * P.tiles + lp;
    if (lp >= P.tiles || z >= P.batch) {
        return;
    }
    let bj = (t % tp % tpn) * 4u;
    let bi = (t % tp / tpn) * 4u;
    var c0 = vec4<T>(T(0));
    var c1 = vec4<T>(T(0));
    var c2 = vec4<T>(T(0));
    var c3 = vec4<T>(T(0));
    let run_k = !alpha_zero() && P.k > 0u;
    if (run_k) {
        let oa = i32(P.offa) + i32(z) * P.sba;
        let ob = i32(P.offb) + i32(z) * P.sbb;
        // Offsets of the block's rows of A and columns of B, clamped into the product.
        let i0 = i32(min(bi, P.m - 1u)) * P.rsa;
        let i1 = i32(min(bi + 1u, P.m - 1u)) * P.rsa;
        let i2 = i32(min(bi + 2u, P.m - 1u)) * P.rsa;
        let i3 = i32(min(bi + 3u, P.m - 1u)) * P.rsa;
        var pa = oa;
        var p0 = 0u;
        if (BL == 0u) {
            // B(p, bj..bj+3) is the vec4 at (ob + p·rsb + bj) / 4 (ob, rsb multiples of 4).
            let sb = P.rsb / 4;
            var pb = (ob + i32(bj)) / 4;
            if (AL == 1u) {
                // A(i, p..p+3) is the vec4 at (oa + i·rsa + p) / 4 (oa, rsa multiples of 4).
                for (; p0 + 4u <= P.k; p0 = p0 + 4u) {
                    let b0 = b4[u32(pb)];
                    let b1 = b4[u32(pb + sb)];
                    let b2 = b4[u32(pb + 2 * sb)];
                    let b3 = b4[u32(pb + 3 * sb)];
                    let a0 = a4[u32((pa + i0) / 4)];
                    let a1 = a4[u32((pa + i1) / 4)];
                    let a2 = a4[u32((pa + i2) / 4)];
                    let a3 = a4[u32((pa + i3) / 4)];
                    c0 = madd(madd(madd(madd(c0, a0.x, b0), a0.y, b1), a0.z, b2), a0.w, b3);
                    c1 = madd(madd(madd(madd(c1, a1.x, b0), a1.y, b1), a1.z, b2), a1.w, b3);
                    c2 = madd(madd(madd(madd(c2, a2.x, b0), a2.y, b1), a2.z, b2), a2.w, b3);
                    c3 = madd(madd(madd(madd(c3, a3.x, b0), a3.y, b1), a3.z, b2), a3.w, b3);
                    pa = pa + 4;
                    pb = pb + 4 * sb;
                }
            }
            for (; p0 < P.k; p0 = p0 + 1u) {
                let bv = b4[u32(pb)];
                c0 = madd(c0, a[u32(pa + i0)], bv);
                c1 = madd(c1, a[u32(pa + i1)], bv);
                c2 = madd(c2, a[u32(pa + i2)], bv);
                c3 = madd(c3, a[u32(pa + i3)], bv);
                pa = pa + P.csa;
                pb = pb + sb;
            }
        } else {
            let j0 = i32(min(bj, P.n - 1u)) * P.csb;
            let j1 = i32(min(bj + 1u, P.n - 1u)) * P.csb;
            let j2 = i32(min(bj + 2u, P.n - 1u)) * P.csb;
            let j3 = i32(min(bj + 3u, P.n - 1u)) * P.csb;
            var pb = ob;
            for (; p0 < P.k; p0 = p0 + 1u) {
                let bv = vec4<T>(b[u32(pb + j0)], b[u32(pb + j1)], b[u32(pb + j2)], b[u32(pb + j3)]);
                c0 = madd(c0, a[u32(pa + i0)], bv);
                c1 = madd(c1, a[u32(pa + i1)], bv);
                c2 = madd(c2, a[u32(pa + i2)], bv);
                c3 = madd(c3, a[u32(pa + i3)], bv);
                pa = pa + P.csa;
                pb = pb + P.rsb;
            }
        }
    }
    if (keeps_c()) {
        return;
    }
    let o = u32(i32(P.offc) + i32(z) * P.sbc);
    small_store(o, bi, bj, c0, run_k);
    small_store(o, bi + 1u, bj, c1, run_k);
    small_store(o, bi + 2u, bj, c2, run_k);
    small_store(o, bi + 3u, bj, c3, run_k);
}

// Row `i`, columns bj..bj+3 of a `gemm_small` block: C = alpha·acc + beta·C where inside C,
// each element written out (no array indexed at run time: it would live in local memory).
fn small_store(o: u32, i: u32, bj: u32, acc: vec4<T>, run_k: bool) {
    if (i >= P.m) {
        return;
    }
    small_store1(o, i, bj, acc.x, run_k);
    small_store1(o, i, bj + 1u, acc.y, run_k);
    small_store1(o, i, bj + 2u, acc.z, run_k);
    small_store1(o, i, bj + 3u, acc.w, run_k);
}

fn small_store1(o: u32, i: u32, j: u32, acc: T, run_k: bool) {
    if (j >= P.n) {
        return;
    }
    let ic = midx(o, i, j, P.rsc, P.csc);
    var v = T(0);
    if (run_k) {
        v = alpha_t() * acc;
    }
    if (!beta_zero()) {
        v = v + beta_t() * c[ic];
    }
    c[ic] = v;
}
