// Level 2 rank-1 and rank-2 update driver, one invocation per element (i, j) of A (m×n),
// addressed by signed strides (layout.rs):
//   TWO = false  A_ij ← A_ij + x_i·(alpha·y_j)                   (sger; ssyr binds x as y)
//   TWO = true   A_ij ← A_ij + x_i·(alpha·y_j) + y_i·(alpha·x_j)  (ssyr2)
// No zero-skip (DESIGN.md §3, one NaN rule for every routine): a zero y_j (or x_j) still
// multiplies x_i (y_i), so a NaN or Inf there makes A_ij NaN by IEEE arithmetic, as in ssyrk.
// (The reference Fortran SGER, SSYR and SSYR2 skip a zero partner; this crate does not.)
//   UPLO = UPLO_NONE   every element (sger);
//   UPLO = UPLO_LOWER, UPLO_UPPER  only the lower (i ≥ j) / upper (i ≤ j) triangle is read or
//                written (ssyr, ssyr2).
// The linear invocation index walks A along its smaller stride (IFAST: i fastest), so that
// neighbouring invocations touch neighbouring memory in C and F order alike.
//
// Accuracy: each element is evaluated as an unevaluated sum of two f32 (double-f32) and rounded
// once, so the result is the exact A_ij + alpha·x_i·y_j (+ alpha·y_i·x_j) to within about half
// an ulp, instead of the up to four roundings of the plain formula (whose error can approach
// 2·EPS·bound_ij: two such results, ours and OpenBLAS's, could then differ by more than the
// 2·EPS·bound_ij that DESIGN.md §2 allows). Products are made exact by Dekker's TwoProduct with
// operands split by masking the low 12 mantissa bits (every partial product then fits 24 bits,
// so the result is the same whether or not the implementation fuses a*b + c, and fma() is not
// needed); sums by Knuth's TwoSum, kept from being simplified away by `opaque` (T. J. Dekker, "A floating-point technique for extending the
// available precision", Numer. Math. 18, 1971; Knuth, TAOCP vol. 2, §4.2.2; Ogita, Rump and
// Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26, 2005). If an implementation
// reassociated the additions anyway, the error terms would be lost and the result would fall
// back to the plain formula's accuracy, never worse. Non-finite values (Inf, NaN in the inputs, or an
// overflow) take the plain formula's value, as the reference computes it.
// "About half an ulp": the product u·alpha·v needs 72 bits and its (hi, lo) pair keeps about
// 48 (`scaled_product` rounds u·t.lo and its sum into lo), so the value rounded is within
// 2^-44·(|v| + P) of the exact v (P = the products' magnitude) and the result within
// ½·ulp(v) + 2^-44·(|v| + P): more than half an ulp only under cancellation, where |v| is far
// below P (in f64: 2^-102, about 104 of 159 bits). Tested by `check_cancellation`.
// The helpers above are written for f32 (the mask is f32's layout). The f64 instantiation
// (WIDE, `main` and `main_vec4` only) does the same in f64 with the `_t` helpers below:
// operands split by Veltkamp's product with 2^27 + 1 instead of a mask (naga has no f64
// bitcast), every intermediate of the split and of TwoSum kept from fusion and from the
// compiler's algebra by `opaque_t`, so that the result is again the exact update to within
// about half an ulp (G. W. Veltkamp, via Dekker 1971).

const WG: u32 = 256u;

override UPLO: u32 = UPLO_NONE;
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
    zero: u32,   // always 0; see `opaque`
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read> x: array<T>;
@group(0) @binding(3) var<storage, read> y: array<T>;

// WIDE (f64, whose alpha the f32 params cannot hold): alpha is sc[0], the params' alpha a
// marker (`drivers/elementwise.rs`'s `scalar_mark`: 0 for 0, 2 for a host value, 3 for a
// device value copied there, whose zero test is made on it), and sc[1] the largest finite
// T (the finiteness test, an ordered comparison: false for NaN and Inf).
@group(0) @binding(7) var<storage, read> sc: array<T>;
override WIDE: bool = false;

// Whether alpha is 0 (then A is left untouched, as reference BLAS returns at once): on the
// params' bits, or for a device value under WIDE on sc[0] (ordered: a NaN is not 0).
fn alpha_zero() -> bool {
    if (WIDE && P.alpha == 3.0) {
        return sc[0] == T(0);
    }
    return f32_is_zero(P.alpha);
}

// v = hi + lo exactly, hi keeping the 12 leading significant bits (a mask of the bit pattern:
// no multiplication that could be fused); lo has at most 12 significant bits.
fn split(v: f32) -> vec2<f32> {
    let hi = bitcast<f32>(bitcast<u32>(v) & 0xfffff000u);
    return vec2<f32>(hi, v - hi);
}

// a·b = p + e (Dekker's TwoProduct): p = fl(a·b); every partial product is exact.
fn two_prod(a: f32, b: f32) -> vec2<f32> {
    let p = a * b;
    let sa = split(a);
    let sb = split(b);
    let e = ((sa.x * sb.x - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y;
    return vec2<f32>(p, e);
}

// v, hidden from the compiler's algebra: OR-ing a uniform that is always 0 into the bit pattern
// cannot be folded, so identities such as s − (s − a) = a, which hold in real arithmetic but
// not in floating point, cannot be applied across it. (Mesa's NIR applies them to operations
// not marked exact, and SPIR-V from WGSL marks none: without this, lavapipe turns every TwoSum
// error into 0.)
fn opaque(v: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(v) | P.zero);
}

// a + b = s + e exactly (Knuth's TwoSum): s = fl(a + b).
fn two_sum(a: f32, b: f32) -> vec2<f32> {
    let s = opaque(a + b);
    let z = opaque(s - a);
    return vec2<f32>(s, (a - (s - z)) + (b - z));
}

// u·(alpha·v) as (hi, lo): hi = fl(u·fl(alpha·v)), the plain formula's product; hi + lo equals
// the exact product to about 2^-48 relative.
fn scaled_product(u: f32, alpha: f32, v: f32) -> vec2<f32> {
    let t = two_prod(alpha, v);
    let p = two_prod(u, t.x);
    return vec2<f32>(p.x, p.y + u * t.y);
}

fn is_finite(v: f32) -> bool {
    return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG + lid;
    // alpha = 0 (a device alpha; tested on its bits) leaves A untouched, as reference BLAS
    // returns at once.
    if (g >= P.m * P.n || alpha_zero()) {
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
    if ((UPLO == UPLO_UPPER && i > j) || (UPLO == UPLO_LOWER && i < j)) {
        return;
    }
    // The plain formula's value is rounded once from the exact sum (see the top); the same
    // update as each element of `main_vec4`.
    let ia = midx(P.offa, i, j, P.rsa, P.csa);
    a[ia] = rank_update_one(a[ia], i, j);
}

// `main_vec4`: the same update on vec4 units along A's unit stride (i where P.ifast, else j):
// one invocation per 4 elements, one vec4 load and store. The host runs it only where the
// unit-stride dimension is contiguous with a length that is a multiple of 4 and the offset and
// the other stride are multiples of 4. On a triangle (UPLO), a unit that crosses the diagonal
// stores its elements outside the triangle back unchanged (bit for bit); a unit wholly
// outside is not touched. Every product is formed (no zero skip: 0·Inf = NaN reaches A), and
// alpha = 0 (tested on its bits) leaves A untouched, as reference BLAS returns at once.
@group(0) @binding(4) var<storage, read_write> av: array<vec4<T>>;

fn rank_update_one(aij: T, i: u32, j: u32) -> T {
    if (WIDE) {
        return rank_update_wide(aij, i, j);
    }
    let alpha = f32(P.alpha);
    let p1 = scaled_product(f32(x[vidx(P.offx, i, P.incx)]), alpha,
                            f32(y[vidx(P.offy, j, P.incy)]));
    var p2 = vec2<f32>(0.0);
    if (TWO) {
        p2 = scaled_product(f32(y[vidx(P.offy, i, P.incy)]), alpha,
                            f32(x[vidx(P.offx, j, P.incx)]));
    }
    return update_one(aij, p1, p2);
}

// v, hidden from fusion and from the compiler's algebra (as `opaque`, for any T): a select on
// a uniform that is always 0 cannot be folded, so neither a·b + c across it nor identities
// such as s − (s − a) = a apply.
fn opaque_t(v: T) -> T {
    return select(v, T(0), P.zero != 0u);
}

// v = hi + lo exactly (Veltkamp): hi the leading 26 bits of an f64, lo the rest (at most 26
// significant bits with its sign), so that every partial product of two splits is exact.
fn split_t(v: T) -> vec2<T> {
    let c = opaque_t(T(134217729.0) * v);
    let hi = opaque_t(c - opaque_t(c - v));
    return vec2<T>(hi, v - hi);
}

// a·b = p + e (Dekker's TwoProduct on `split_t`'s halves).
fn two_prod_t(a: T, b: T) -> vec2<T> {
    let p = opaque_t(a * b);
    let sa = split_t(a);
    let sb = split_t(b);
    let e = ((sa.x * sb.x - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y;
    return vec2<T>(p, e);
}

// a + b = s + e exactly (Knuth's TwoSum), as `two_sum`.
fn two_sum_t(a: T, b: T) -> vec2<T> {
    let s = opaque_t(a + b);
    let z = opaque_t(s - a);
    return vec2<T>(s, (a - (s - z)) + (b - z));
}

// u·(alpha·v) as (hi, lo), as `scaled_product`.
fn scaled_product_t(u: T, alpha: T, v: T) -> vec2<T> {
    let t = two_prod_t(alpha, v);
    let p = two_prod_t(u, t.x);
    return vec2<T>(p.x, p.y + u * t.y);
}

// `rank_update_one` under WIDE: the exact A_ij + alpha·x_i·y_j (+ alpha·y_i·x_j) rounded once,
// in the order of `update_one`; where the plain value s or the rounded sum is not finite (Inf
// or NaN in the inputs, an overflow, or a split past 2^996), the plain formula's value.
fn rank_update_wide(aij: T, i: u32, j: u32) -> T {
    let alpha = sc[0];
    let p1 = scaled_product_t(x[vidx(P.offx, i, P.incx)], alpha, y[vidx(P.offy, j, P.incy)]);
    var s = two_sum_t(aij, p1.x);
    var lo = s.y + p1.y;
    if (TWO) {
        let p2 = scaled_product_t(y[vidx(P.offy, i, P.incy)], alpha,
                                  x[vidx(P.offx, j, P.incx)]);
        let s2 = two_sum_t(s.x, p2.x);
        lo = lo + s2.y + p2.y;
        s.x = s2.x;
    }
    let r = s.x + lo;
    if (abs(s.x) <= sc[1] && abs(r) <= sc[1]) {
        return r;
    }
    return s.x;
}

// (i0, j0, di, dj) of the vec4 unit that starts at element e of line `line` (i = line, j = e..
// where j is fastest; else the reverse).
fn unit_at(line: u32, e: u32, ifast: bool) -> vec4<u32> {
    if (ifast) {
        return vec4<u32>(e, line, 1u, 0u);
    }
    return vec4<u32>(line, e, 0u, 1u);
}

// Whether the unit `u` (from `unit_at`) lies wholly outside the triangle UPLO.
fn unit_outside(u: vec4<u32>) -> bool {
    let i3 = u.x + 3u * u.z;
    let j3 = u.y + 3u * u.w;
    return (UPLO == UPLO_UPPER && min(u.x, i3) > max(u.y, j3))
        || (UPLO == UPLO_LOWER && max(u.x, i3) < min(u.y, j3));
}

fn in_triangle(i: u32, j: u32) -> bool {
    return !((UPLO == UPLO_UPPER && i > j) || (UPLO == UPLO_LOWER && i < j));
}

@compute @workgroup_size(WG)
fn main_vec4(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG + lid;
    let p = vec4_unit(g, P.ifast != 0u);
    if (!p.live || alpha_zero()) {
        return;
    }
    let v = av[p.k];
    var r = v;
    for (var q = 0u; q < 4u; q = q + 1u) {
        let i = p.u.x + q * p.u.z;
        let j = p.u.y + q * p.u.w;
        if (in_triangle(i, j)) {
            r[q] = rank_update_one(v[q], i, j);
        }
    }
    av[p.k] = r;
}

// The vec4 unit number `g` of `main_vec4` and `main_pre` (`ifast`: i is A's unit-stride index):
// its line and first element along it, its (i0, j0, di, dj) from `unit_at`, and the index of its
// vec4 in `av`; `live` false past A's units or wholly outside the triangle (not touched).
struct Unit {
    u: vec4<u32>,
    k: u32,
    line: u32,
    e: u32,
    live: bool,
}

// The number of vec4 units of A (`ifast` as for `vec4_unit`).
fn vec4_units(ifast: bool) -> u32 {
    return (select(P.n, P.m, ifast) / 4u) * select(P.m, P.n, ifast);
}

fn vec4_unit(g: u32, ifast: bool) -> Unit {
    var r: Unit;
    r.live = g < vec4_units(ifast);
    if (!r.live) {
        return r;
    }
    let per_line = select(P.n, P.m, ifast) / 4u;
    r.line = g / per_line;
    r.e = 4u * (g - r.line * per_line);
    r.u = unit_at(r.line, r.e, ifast);
    r.live = !unit_outside(r.u);
    r.k = unit_index(r.u);
    return r;
}

// The index in `av` of the vec4 of the unit `u` (from `unit_at`).
fn unit_index(u: vec4<u32>) -> u32 {
    return u32(i32(P.offa) + i32(u.x) * P.rsa + i32(u.y) * P.csa) / 4u;
}

// The rounded sum A_ij + p1 (+ p2) of exact products p = (hi, lo): TwoSum on the leading
// parts, the error terms added once (non-finite sums keep the plain value).
fn update_one(aij: T, p1: vec2<f32>, p2: vec2<f32>) -> T {
    var s = two_sum(f32(aij), p1.x);
    var lo = s.y + p1.y;
    if (TWO) {
        let s2 = two_sum(s.x, p2.x);
        lo = lo + s2.y + p2.y;
        s.x = s2.x;
    }
    if (is_finite(s.x)) {
        return T(s.x + lo);
    }
    return T(s.x);
}

// `main_pre` (the default): the update of `main_vec4`, under the same host conditions, with the
// factors of each index formed once, not once per element. The j index's factor is Dekker's
// exact pair t = alpha·y_j (and that of alpha·x_j, TWO): a first dispatch, `pre_factors`,
// writes it once per j into a scratch buffer, where `main_vec4` forms it again for every
// element of column j. Without TWO each j's factor is stored whole, t with t's leading part
// split, as one vec4 (n of them); with TWO, where a unit needs two factors per element, as
// the pair t alone, two j to a vec4 (the pairs of alpha·y_j, then from `pre_half()` those of
// alpha·x_j), and t's split is formed per element: on the H200 (2026-12-03, n = 16384) the
// whole factors read ssyr2 1524–1530 GB/s against 1705–1718 for pairs, sger and ssyr
// 2914 / 2461–2478 against 2845 / 2399–2410. The i index's factor is x_i
// split into its 12-bit halves (and y_i, TWO): once per vec4 unit where i is A's slow index
// (C order: the unit lies on one row). Each element then needs only the product's partial
// products, the TwoSum and the rounding, in exactly the order of `scaled_product` and
// `update_one`: the same bits as `main_vec4` and `main`. The walk over A is `main_vec4`'s (one
// vec4 unit per invocation, neighbouring invocations on neighbouring memory). A unit wholly
// outside the triangle (UPLO) is not touched; one crossing the diagonal stores its elements
// outside back unchanged.
@group(0) @binding(5) var<storage, read_write> fw: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> fr: array<vec4<f32>>;

// Whether the fast (unit-stride) index of A is i (F order: 1) or j (C order: 0); `main_pre`
// only (the other kernels read P.ifast).
override IFAST: bool = false;

// `pre_factors`' workgroup: one invocation per j.
const WG_PRE: u32 = 64u;

// Where the pairs of alpha·x_j start in the scratch (TWO): n rounded up to even, a vec4 boundary.
fn pre_half() -> u32 {
    return (P.n + 1u) & ~1u;
}

@compute @workgroup_size(WG_PRE)
fn pre_factors(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG_PRE + lid;
    let alpha = f32(P.alpha);
    if (!TWO) {
        if (g < P.n) {
            fw[g] = pre_factor(alpha, f32(y[vidx(P.offy, g, P.incy)]));
        }
        return;
    }
    // TWO: the pairs of j = 2g and 2g + 1 (0 past n).
    let j = 2u * g;
    if (j >= P.n) {
        return;
    }
    let last = j + 1u >= P.n;
    var y1 = vec2<f32>(0.0);
    var x1 = vec2<f32>(0.0);
    if (!last) {
        y1 = two_prod(alpha, f32(y[vidx(P.offy, j + 1u, P.incy)]));
        x1 = two_prod(alpha, f32(x[vidx(P.offx, j + 1u, P.incx)]));
    }
    fw[g] = vec4<f32>(two_prod(alpha, f32(y[vidx(P.offy, j, P.incy)])), y1);
    fw[pre_half() / 2u + g] = vec4<f32>(two_prod(alpha, f32(x[vidx(P.offx, j, P.incx)])), x1);
}

// The right factor of alpha·v as stored: (t.x, split(t.x), t.y) with t = two_prod(alpha, v).
fn pre_factor(alpha: f32, v: f32) -> vec4<f32> {
    let t = two_prod(alpha, v);
    let s = split(t.x);
    return vec4<f32>(t.x, s.x, s.y, t.y);
}

// One index's factors for an exact product u·(alpha·v) (see `prod`): where the index is the
// left factor u's (x_i), v = u and (h, l) = split(u), t unused (0); where it is v's (y_j),
// v = fl(alpha·v), (h, l) = split of it and t its error term (two_prod(alpha, v)).
struct Factor {
    v: f32,
    h: f32,
    l: f32,
    t: f32,
}

fn left_factor(u: f32) -> Factor {
    let s = split(u);
    return Factor(u, s.x, s.y, 0.0);
}

// How `main_pre` forms its products (lab `set_rank_products`): 0, Dekker's TwoProduct on the
// pre-split halves and the exact sum (the crate's rounding); 2, the plain formula
// A_ij + x_i·fl(alpha·y_j), a lab measure of the walk's ceiling only, never chosen. (1, the
// error term by fma(), was measured and dropped: on the H200, 2026-12-03, sger 1825 against
// 2893 GB/s, ssyr 1737 against 2478; and lavapipe's fma() rounds twice.)
override PRODUCTS: u32 = 0u;

// `scaled_product(u, alpha, v)` from u's and v's factors: the same operations in the same
// order (two_prod(u, t.x) on the pre-split halves, then + u·t.y).
fn prod(u: Factor, w: Factor) -> vec2<f32> {
    let p = u.v * w.v;
    let e = ((u.h * w.h - p) + u.h * w.l + u.l * w.h) + u.l * w.l;
    return vec2<f32>(p, e + u.v * w.t);
}

// An index's factors in both products: `a` for x·(alpha·y)ᵀ, `b` for y·(alpha·x)ᵀ (TWO).
struct Factors {
    a: Factor,
    b: Factor,
}

// The i index's factors: x_i and y_i (TWO) split.
fn i_factors(i: u32) -> Factors {
    var f: Factors;
    f.a = left_factor(f32(x[vidx(P.offx, i, P.incx)]));
    if (TWO) {
        f.b = left_factor(f32(y[vidx(P.offy, i, P.incy)]));
    }
    return f;
}

// The factor `which` (0: alpha·y_j, 1: alpha·x_j, TWO) of index j, from `pre_factors`'
// scratch: stored whole, or (TWO) as its pair, split here.
fn pre_read(which: u32, j: u32) -> Factor {
    if (!TWO) {
        let v = fr[j];
        return Factor(v.x, v.y, v.z, v.w);
    }
    let k = which * pre_half() + j;
    let v = fr[k / 2u];
    let t = select(v.xy, v.zw, (k & 1u) == 1u);
    let s = split(t.x);
    return Factor(t.x, s.x, s.y, t.y);
}

// The j index's factors.
fn j_factors(j: u32) -> Factors {
    var f: Factors;
    f.a = pre_read(0u, j);
    if (TWO) {
        f.b = pre_read(1u, j);
    }
    return f;
}

fn pre_update(aij: T, fi: Factors, fj: Factors) -> T {
    if (PRODUCTS == 2u) {
        var r = aij + T(fi.a.v * fj.a.v);
        if (TWO) {
            r = r + T(fi.b.v * fj.b.v);
        }
        return r;
    }
    let p1 = prod(fi.a, fj.a);
    var p2 = vec2<f32>(0.0);
    if (TWO) {
        p2 = prod(fi.b, fj.b);
    }
    return update_one(aij, p1, p2);
}

// The updated unit `p` whose vec4 of A holds `v`.
fn pre_result(p: Unit, v: vec4<T>) -> vec4<T> {
    // The line's factors, once per unit.
    var fl: Factors;
    if (IFAST) {
        fl = j_factors(p.line);
    } else {
        fl = i_factors(p.line);
    }
    var r = v;
    for (var q = 0u; q < 4u; q = q + 1u) {
        let i = select(p.line, p.e + q, IFAST);
        let j = select(p.e + q, p.line, IFAST);
        if (in_triangle(i, j)) {
            if (IFAST) {
                r[q] = pre_update(v[q], i_factors(i), fl);
            } else {
                r[q] = pre_update(v[q], fl, j_factors(j));
            }
        }
    }
    return r;
}

// Units per invocation of `main_pre`: 1, or 2 (PAIR: units g and g + half of the grid's, both
// loaded before either is computed, so that two loads are in flight).
override PAIR: bool = false;

@compute @workgroup_size(WG)
fn main_pre(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG + lid;
    // alpha = 0 (a device alpha; tested on its bits) leaves A untouched.
    if (f32_is_zero(P.alpha)) {
        return;
    }
    if (!PAIR) {
        let p = vec4_unit(g, IFAST);
        if (p.live) {
            av[p.k] = pre_result(p, av[p.k]);
        }
        return;
    }
    let half = (vec4_units(IFAST) + 1u) / 2u;
    if (g >= half) {
        return;
    }
    let p0 = vec4_unit(g, IFAST);
    let p1 = vec4_unit(g + half, IFAST);
    var v0 = vec4<T>(0.0);
    var v1 = vec4<T>(0.0);
    if (p0.live) {
        v0 = av[p0.k];
    }
    if (p1.live) {
        v1 = av[p1.k];
    }
    if (p0.live) {
        av[p0.k] = pre_result(p0, v0);
    }
    if (p1.live) {
        av[p1.k] = pre_result(p1, v1);
    }
}

// `main_rows` (lab `set_rank_rows`): the update of `main_pre`, under the same host conditions,
// on tiles of ROWS lines × WG vec4 units per workgroup, with no scratch and no first dispatch.
// Each invocation forms the factors of its unit's 4 positions along the fast (unit-stride)
// index once, in registers, then walks ROWS lines: their ROWS vec4 loads of A issued before
// any is used, each line's own factor formed once per line, then the ROWS updates and stores.
// Every factor is formed by the operations of `pre_factor` and `left_factor`, and every element
// by `pre_update`: the same bits as `main_pre` and `main_vec4`. A unit wholly outside the
// triangle (UPLO) is not touched; one crossing the diagonal stores its elements outside back
// unchanged; a workgroup whose whole tile lies outside returns at once.
// Lines per invocation: 2, 4 or 8.
override ROWS: u32 = 8u;

// TRI (lab `set_rank_tri`, with UPLO): the grid holds only the tiles that meet the triangle,
// numbered block of WG units by block (`tri_tile`), instead of every tile of the square.
override TRI: bool = false;

// Line tiles of block ub (4·WG fast positions from 4·WG·ub) that meet the triangle, of
// `tiles` in all: where the triangle keeps line ≥ fast position (`line_ge`), those from
// K·ub on (K = 4·WG/ROWS line tiles span one block's fast positions), else the first
// K·(ub + 1). As (first, count).
fn tri_block(ub: u32, tiles: u32, line_ge: bool) -> vec2<u32> {
    let k = 4u * WG / ROWS;
    if (line_ge) {
        let first = min(tiles, k * ub);
        return vec2<u32>(first, tiles - first);
    }
    return vec2<u32>(0u, min(tiles, k * (ub + 1u)));
}

// The tile (line tile, block) of workgroup g on TRI's grid: blocks in order, each with the
// line tiles of `tri_block`; line tile 0xffffffff past the last. One step per block (at
// most 65,535 for any A a binding holds).
fn tri_tile(g: u32, tiles: u32, blocks: u32) -> vec2<u32> {
    // In (line, fast) terms the lower triangle (i ≥ j) keeps line ≥ fast where j is fast.
    let line_ge = (UPLO == UPLO_LOWER) != IFAST;
    var rest = g;
    for (var ub = 0u; ub < blocks; ub = ub + 1u) {
        let b = tri_block(ub, tiles, line_ge);
        if (rest < b.y) {
            return vec2<u32>(b.x + rest, ub);
        }
        rest = rest - b.y;
    }
    return vec2<u32>(0xffffffffu, 0u);
}

// The factors of index p: of the i index (`i_factors`) where `is_i`, else those of the j
// index formed here (alpha·y_p, and alpha·x_p with TWO), as `pre_factors` stores them.
fn index_factors(p: u32, alpha: f32, is_i: bool) -> Factors {
    if (is_i) {
        return i_factors(p);
    }
    var f: Factors;
    f.a = v_factor(alpha, f32(y[vidx(P.offy, p, P.incy)]));
    if (TWO) {
        f.b = v_factor(alpha, f32(x[vidx(P.offx, p, P.incx)]));
    }
    return f;
}

// The right factor of alpha·v, as `pre_factor` stores it and `pre_read` reads it.
fn v_factor(alpha: f32, v: f32) -> Factor {
    let w = pre_factor(alpha, v);
    return Factor(w.x, w.y, w.z, w.w);
}

// An element of a unit from its line's factors and its fast position's.
fn rows_update(aij: T, fl: Factors, ff: Factors) -> T {
    if (IFAST) {
        return pre_update(aij, ff, fl);
    }
    return pre_update(aij, fl, ff);
}

@compute @workgroup_size(WG)
fn main_rows(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    // alpha = 0 (a device alpha; tested on its bits) leaves A untouched.
    if (f32_is_zero(P.alpha)) {
        return;
    }
    let fast = select(P.n, P.m, IFAST);
    let lines = select(P.m, P.n, IFAST);
    let per_line = fast / 4u;
    let across = (per_line + WG - 1u) / WG;
    let g = linear_group(wid, nwg);
    var lb = g / across;
    var u0 = (g - lb * across) * WG;
    if (TRI && UPLO != UPLO_NONE) {
        let t = tri_tile(g, (lines + ROWS - 1u) / ROWS, across);
        lb = t.x;
        u0 = t.y * WG;
    }
    if (lb >= (lines + ROWS - 1u) / ROWS) {
        return;
    }
    let l0 = lb * ROWS;
    // The tile's fast positions 4·u0 .. 4·(u0 + WG) − 1 and lines l0 .. l0 + ROWS − 1: wholly
    // outside the triangle, nothing to do.
    let tile = unit_at(l0, 4u * u0, IFAST);
    let span = vec2<u32>(4u * WG - 1u, ROWS - 1u);
    let far = select(vec2<u32>(tile.x + span.y, tile.y + span.x),
                     vec2<u32>(tile.x + span.x, tile.y + span.y), IFAST);
    if ((UPLO == UPLO_UPPER && tile.x > far.y) || (UPLO == UPLO_LOWER && far.x < tile.y)) {
        return;
    }
    let u = u0 + lid;
    if (u >= per_line) {
        return;
    }
    let e = 4u * u;
    let alpha = f32(P.alpha);
    // The fast index is i where IFAST.
    let f0 = index_factors(e, alpha, IFAST);
    let f1 = index_factors(e + 1u, alpha, IFAST);
    let f2 = index_factors(e + 2u, alpha, IFAST);
    let f3 = index_factors(e + 3u, alpha, IFAST);
    // The lines' loads written out (no array indexed at run time: it would live in local
    // memory), all issued before any update.
    let v0 = rows_load(l0, e, lines);
    let v1 = rows_load(l0 + 1u, e, lines);
    var v2 = vec4<T>(T(0));
    var v3 = vec4<T>(T(0));
    if (ROWS > 2u) {
        v2 = rows_load(l0 + 2u, e, lines);
        v3 = rows_load(l0 + 3u, e, lines);
    }
    var v4 = vec4<T>(T(0));
    var v5 = vec4<T>(T(0));
    var v6 = vec4<T>(T(0));
    var v7 = vec4<T>(T(0));
    if (ROWS > 4u) {
        v4 = rows_load(l0 + 4u, e, lines);
        v5 = rows_load(l0 + 5u, e, lines);
        v6 = rows_load(l0 + 6u, e, lines);
        v7 = rows_load(l0 + 7u, e, lines);
    }
    rows_store(l0, e, lines, v0, alpha, f0, f1, f2, f3);
    rows_store(l0 + 1u, e, lines, v1, alpha, f0, f1, f2, f3);
    if (ROWS > 2u) {
        rows_store(l0 + 2u, e, lines, v2, alpha, f0, f1, f2, f3);
        rows_store(l0 + 3u, e, lines, v3, alpha, f0, f1, f2, f3);
    }
    if (ROWS > 4u) {
        rows_store(l0 + 4u, e, lines, v4, alpha, f0, f1, f2, f3);
        rows_store(l0 + 5u, e, lines, v5, alpha, f0, f1, f2, f3);
        rows_store(l0 + 6u, e, lines, v6, alpha, f0, f1, f2, f3);
        rows_store(l0 + 7u, e, lines, v7, alpha, f0, f1, f2, f3);
    }
}

// The unit at fast position e on line l (`live`: A's and touched, inside or across the
// triangle).
fn rows_unit(l: u32, e: u32, lines: u32) -> Unit {
    var r: Unit;
    r.u = unit_at(l, e, IFAST);
    r.k = unit_index(r.u);
    r.line = l;
    r.e = e;
    r.live = l < lines && !unit_outside(r.u);
    return r;
}

// The vec4 of A at fast position e on line l (0 where not touched).
fn rows_load(l: u32, e: u32, lines: u32) -> vec4<T> {
    let u = rows_unit(l, e, lines);
    var v = vec4<T>(T(0));
    if (u.live) {
        v = av[u.k];
    }
    return v;
}

// The update of that unit, holding `v`, stored (where touched).
fn rows_store(l: u32, e: u32, lines: u32, v: vec4<T>, alpha: f32,
              f0: Factors, f1: Factors, f2: Factors, f3: Factors) {
    let r = rows_unit(l, e, lines);
    if (!r.live) {
        return;
    }
    let fl = index_factors(l, alpha, !IFAST);
    let p = r.u;
    var w = v;
    if (in_triangle(p.x, p.y)) {
        w.x = rows_update(w.x, fl, f0);
    }
    if (in_triangle(p.x + p.z, p.y + p.w)) {
        w.y = rows_update(w.y, fl, f1);
    }
    if (in_triangle(p.x + 2u * p.z, p.y + 2u * p.w)) {
        w.z = rows_update(w.z, fl, f2);
    }
    if (in_triangle(p.x + 3u * p.z, p.y + 3u * p.w)) {
        w.w = rows_update(w.w, fl, f3);
    }
    av[r.k] = w;
}
