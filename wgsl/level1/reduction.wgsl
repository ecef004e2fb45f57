// Level 1 reduction driver, two passes:
//   `partial_sums`: workgroup g reduces a grid-stride share of the n terms, each invocation
//                   sequentially, then the workgroup as a tree; writes partial[g].
//   `final_sum`:    one workgroup reduces partial[0..groups] as a tree into partial[groups]
//                   (and, for nrm2, finishes the norm there).
// A reduction carries an accumulator `Acc`; `OP` picks the term and how two accumulators combine:
//   OP = 0  dot     t: Σ x_i·y_i
//   OP = 1  asum    t: Σ |x_i|                       (sasum; dasum where the adapter has f64)
//   OP = 2  nrm2    f: Blue's three sums (big, medium, small), k.x: Inf/NaN flags; f32 data
//   OP = 3  iamax   k: (|x| as an ordered integer key, hi and lo words, index); exact for f32
//                   data (WORDS = 1) and for f64 data (WORDS = 2) without f64 arithmetic
//   OP = 4  iamax   t: |x_i| compared in T, k.z: index, k.w: NaN flag (idamax, native f64)
//   OP = 5  asum    k: extended sum (i32 exponent, 64-bit mantissa, flags) of f64 data read as
//                   u32 words (dasum without f64 arithmetic)
//   OP = 6, 7, 8  dnrm2 (f64 data, T = f64): t: the sum of squares of the big (6), medium (7) or
//                   small (8) band of Blue's algorithm, each scaled as LAPACK's dnrm2 scales it;
//                   k.x: Inf/NaN flags and which bands hold elements (the host runs the big or
//                   small band only where the medium pass saw elements there, and finishes)
// Tree summation keeps the error bound at O(log n) eps instead of the O(n) eps of a sequential
// sum (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2).
// NaN and Inf are detected from bit patterns (the u32 view `xb` of x), never by float
// comparisons: WGSL lets implementations assume there is no NaN or Inf.

override OP: u32 = 0u;
// u32 words per element of x in the bit view `xb`: 1 for f32 data, 2 for f64 data.
override WORDS: u32 = 1u;
const WG: u32 = 256u;

// Blue's scaled sum of squares (J. L. Blue, ACM TOMS 4(1), 1978; the form of LAPACK 3.10
// snrm2.f90, E. Anderson, ACM TOMS 43(1) Algorithm 978, 2017). Values above TBIG are scaled by
// SBIG, values below TSML by SSML, the others summed as they are. TSML, SSML and SBIG are
// LAPACK's f32 constants; TBIG is lowered from LAPACK's 2^52 to 2^44 so that the medium sum
// (n terms below TBIG^2 = 2^88) cannot overflow for any n < 2^40 (with 2^52 it can past 2^24).
// The scalings by powers of two are exact. They are written so that no compiler can merge two of
// them: a product by a constant such as (amed·SBIG)·SBIG may legally be reassociated (WGSL has no
// `precise`) into amed·SBIG², and SBIG² = 2^-152 underflows to 0 (lavapipe does this, and lowers
// ldexp(amed, -152) the same way). So the final scalings move the exponent field (`mul_pow2`).
const TSML_BITS: u32 = 0x20000000u;   // bits of TSML = 2^-63
const TBIG_BITS: u32 = 0x55800000u;   // bits of TBIG = 2^44
const SSML: f32 = 0x1p75f;
const SBIG_EXP: i32 = -76;
const SSML_EXP: i32 = 75;
// dnrm2's constants (LAPACK 3.10 la_constants.f90 for double precision, Anderson 2017):
// TSML = 2^-511, TBIG = 2^486 (compared on the high word of |x|: exponent field and the top 20
// bits of the fraction), SSML = 2^537, SBIG = 2^-538. In f64 the medium sum (n terms below
// TBIG^2 = 2^972) cannot overflow for n < 2^52, so TBIG stays LAPACK's. The scalings are
// products by powers of two, exact in any order (2^537 and 2^-538 are f64 numbers); each factor
// fits f32 so that the source also compiles with T = f32.
const TSML64_HI: u32 = 0x20000000u;  // high word of 2^-511
const TBIG64_HI: u32 = 0x5e500000u;  // high word of 2^486
const FLAG_BIG: u32 = 4u;
const FLAG_SMALL: u32 = 8u;
const F32_INF: u32 = 0x7f800000u;
const F32_NAN: u32 = 0x7fc00000u;
const FLAG_INF: u32 = 1u;
const FLAG_NAN: u32 = 2u;

struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    groups: u32,
    // Reductions in parts (operands past one storage binding). In `partial_sums`,
    // `single_pass` and `single_pass_vec4`: `base` is the logical index of the dispatch's
    // element 0 (iamax's indices are global), and `slot` the first slot of `partial` that
    // `partial_sums` writes (each part its own slots). In `final_sum`: the accumulators read
    // are `partial[i·slot + base]` for i < groups, and the total goes to `partial[groups·slot]`
    // (slot = 1, base = 0: the slots of one `partial_sums`; slot = a region's size, base = the
    // total's slot in it: the totals of single-pass parts, each in its own region).
    base: u32,
    slot: u32,
}

// One accumulator (48 bytes for T = f32 and for T = f64; the host decodes it from u32 words).
struct Acc {
    t: T,
    f: vec3<f32>,
    k: vec4<u32>,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> x: array<T>;
@group(0) @binding(2) var<storage, read> y: array<T>;
@group(0) @binding(3) var<storage, read_write> partial: array<Acc>;
@group(0) @binding(4) var<storage, read> xb: array<u32>;

// The tree's workgroup memory, one array per accumulator part, touched only where OP uses it.
var<workgroup> sh_t: array<T, WG>;
var<workgroup> sh_f: array<vec3<f32>, WG>;
var<workgroup> sh_k: array<vec4<u32>, WG>;

fn is_iamax() -> bool {
    return OP == 3u || OP == 4u;
}

// The identity of `combine`.
fn zero() -> Acc {
    var a: Acc;
    if (is_iamax()) {
        a.t = T(-1);
        a.k.z = 0xffffffffu;
    }
    return a;
}

fn sh_store(i: u32, a: Acc) {
    switch OP {
        case 2u: {
            sh_f[i] = a.f;
            sh_k[i] = a.k;
        }
        case 3u, 5u: {
            sh_k[i] = a.k;
        }
        case 4u, 6u, 7u, 8u: {
            sh_t[i] = a.t;
            sh_k[i] = a.k;
        }
        default: {
            sh_t[i] = a.t;
        }
    }
}

fn sh_load(i: u32) -> Acc {
    var a = zero();
    switch OP {
        case 2u: {
            a.f = sh_f[i];
            a.k = sh_k[i];
        }
        case 3u, 5u: {
            a.k = sh_k[i];
        }
        case 4u, 6u, 7u, 8u: {
            a.t = sh_t[i];
            a.k = sh_k[i];
        }
        default: {
            a.t = sh_t[i];
        }
    }
    return a;
}

// ---- 64-bit unsigned integers as vec2<u32>(hi, lo) ------------------------------------------

fn clz64(m: vec2<u32>) -> u32 {
    if (m.x != 0u) {
        return countLeadingZeros(m.x);
    }
    return 32u + countLeadingZeros(m.y);
}

fn shl64(m: vec2<u32>, s: u32) -> vec2<u32> {
    if (s == 0u) {
        return m;
    }
    if (s >= 64u) {
        return vec2<u32>(0u, 0u);
    }
    if (s >= 32u) {
        return vec2<u32>(m.y << (s - 32u), 0u);
    }
    return vec2<u32>((m.x << s) | (m.y >> (32u - s)), m.y << s);
}

fn shr64(m: vec2<u32>, s: u32) -> vec2<u32> {
    if (s == 0u) {
        return m;
    }
    if (s >= 64u) {
        return vec2<u32>(0u, 0u);
    }
    if (s >= 32u) {
        return vec2<u32>(0u, m.x >> (s - 32u));
    }
    return vec2<u32>(m.x >> s, (m.y >> s) | (m.x << (32u - s)));
}

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.y + b.y;
    let carry = select(0u, 1u, lo < a.y);
    return vec2<u32>(a.x + b.x + carry, lo);
}

// ---- Terms ----------------------------------------------------------------------------------

// |x_j| as an integer key ordered like the magnitudes (hi word without the sign, lo word; 0 for
// f32 data); NaN maps to the largest key, so that the first NaN wins (DESIGN.md §3).
fn key_at(j: u32) -> vec2<u32> {
    if (WORDS == 1u) {
        let b = xb[j] & 0x7fffffffu;
        if (b > F32_INF) {
            return vec2<u32>(0xffffffffu, 0xffffffffu);
        }
        return vec2<u32>(b, 0u);
    }
    let lo = xb[2u * j];
    let hi = xb[2u * j + 1u] & 0x7fffffffu;
    if (hi > 0x7ff00000u || (hi == 0x7ff00000u && lo != 0u)) {
        return vec2<u32>(0xffffffffu, 0xffffffffu);
    }
    return vec2<u32>(hi, lo);
}

// The f64 x_j (read as two words) as an extended value: exponent, 64-bit mantissa, flags.
fn ext_term(j: u32) -> vec4<u32> {
    let lo = xb[2u * j];
    let hi = xb[2u * j + 1u];
    let eb = (hi >> 20u) & 0x7ffu;
    let fhi = hi & 0xfffffu;
    if (eb == 0x7ffu) {
        return vec4<u32>(0u, 0u, 0u, select(FLAG_INF, FLAG_NAN, (fhi | lo) != 0u));
    }
    // Normal: (2^52 + fraction)·2^(eb − 1075); subnormal: fraction·2^(−1074).
    let mhi = select(fhi, fhi | 0x100000u, eb != 0u);
    let e = i32(max(eb, 1u)) - 1075;
    return vec4<u32>(bitcast<u32>(e), mhi, lo, 0u);
}

// Blue's classification of one f32 element, from its bits: the square in the big, medium or
// small sum (scaled), or an Inf/NaN flag.
fn nrm2_term(bits: u32) -> Acc {
    var r = zero();
    let b = bits & 0x7fffffffu;
    if (b > F32_INF) {
        r.k.x = FLAG_NAN;
    } else if (b == F32_INF) {
        r.k.x = FLAG_INF;
    } else {
        let ax = bitcast<f32>(b);
        if (b > TBIG_BITS) {
            let s = mul_pow2(ax, SBIG_EXP);
            r.f.x = s * s;
        } else if (b < TSML_BITS) {
            // One product: ax may be subnormal.
            let s = ax * SSML;
            r.f.z = s * s;
        } else {
            r.f.y = ax * ax;
        }
    }
    return r;
}

// dnrm2's term of the f64 x_j (OP 6, 7, 8; see the constants above): its square, scaled as
// LAPACK scales its band, if it lies in the band of this OP; the band it lies in as a flag.
fn nrm2_term64(j: u32) -> Acc {
    return nrm2_term64_v(x[j], xb[2u * j + 1u], xb[2u * j]);
}

// `nrm2_term64` of the f64 value v with the words hi, lo of its bits.
fn nrm2_term64_v(v: T, hi_word: u32, lo: u32) -> Acc {
    var r = zero();
    let hi = hi_word & 0x7fffffffu;
    if (hi >= 0x7ff00000u) {
        r.k.x = select(FLAG_INF, FLAG_NAN, hi > 0x7ff00000u || lo != 0u);
        return r;
    }
    var band = 7u;
    if (hi > TBIG64_HI || (hi == TBIG64_HI && lo != 0u)) {
        band = 6u;
        r.k.x = FLAG_BIG;
    } else if (hi < TSML64_HI) {
        band = 8u;
        r.k.x = FLAG_SMALL;
    }
    if (band == OP) {
        var s = abs(v);
        if (band == 6u) {
            // · SBIG = 2^-538
            s = s * T(0x1p-126f) * T(0x1p-126f) * T(0x1p-126f) * T(0x1p-126f) * T(0x1p-34f);
        } else if (band == 8u) {
            // · SSML = 2^537
            s = s * T(0x1p127f) * T(0x1p127f) * T(0x1p127f) * T(0x1p127f) * T(0x1p29f);
        }
        r.t = s * s;
    }
    return r;
}

fn term(i: u32) -> Acc {
    var r = zero();
    let j = vidx(P.offx, i, P.incx);
    switch OP {
        case 1u: {
            r.t = abs(x[j]);
        }
        case 2u: {
            r = nrm2_term(xb[j]);
        }
        case 3u: {
            let key = key_at(j);
            r.k = vec4<u32>(key.x, key.y, P.base + i, 0u);
        }
        case 4u: {
            r.t = abs(x[j]);
            r.k.z = P.base + i;
            r.k.w = select(0u, 1u, key_at(j).x == 0xffffffffu);
        }
        case 5u: {
            r.k = ext_term(j);
        }
        case 6u, 7u, 8u: {
            r = nrm2_term64(j);
        }
        default: {
            r.t = x[j] * y[vidx(P.offy, i, P.incy)];
        }
    }
    return r;
}

// ---- Combining two accumulators -------------------------------------------------------------

// iamax: whether `a` beats `b` (larger key, or NaN; ties go to the lower index).
fn iamax_wins(a: Acc, b: Acc) -> bool {
    if (OP == 3u) {
        if (a.k.x != b.k.x) {
            return a.k.x > b.k.x;
        }
        if (a.k.y != b.k.y) {
            return a.k.y > b.k.y;
        }
        return a.k.z < b.k.z;
    }
    if (a.k.w != b.k.w) {
        return a.k.w > b.k.w;
    }
    if (a.k.w == 1u || a.t == b.t) {
        return a.k.z < b.k.z;
    }
    return a.t > b.t;
}

// Extended sum: both mantissas are normalised to bit 62, the smaller operand is shifted right
// onto the larger exponent (truncating), and the sum renormalised below 2^63. Every step loses
// less than 2^-62 relative, so a sum of n terms is within about (n_seq + log2 n)·2^-62 relative
// of the exact sum, far inside one f64 ULP.
fn ext_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let flags = a.w | b.w;
    var ma = a.yz;
    var mb = b.yz;
    if ((mb.x | mb.y) == 0u) {
        return vec4<u32>(a.x, ma, flags);
    }
    if ((ma.x | ma.y) == 0u) {
        return vec4<u32>(b.x, mb, flags);
    }
    let sa = clz64(ma) - 1u;
    let sb = clz64(mb) - 1u;
    ma = shl64(ma, sa);
    mb = shl64(mb, sb);
    var ea = bitcast<i32>(a.x) - i32(sa);
    var eb = bitcast<i32>(b.x) - i32(sb);
    if (ea < eb) {
        let tm = ma;
        ma = mb;
        mb = tm;
        let te = ea;
        ea = eb;
        eb = te;
    }
    mb = shr64(mb, u32(ea - eb));
    var s = add64(ma, mb);
    if (s.x >= 0x80000000u) {
        s = shr64(s, 1u);
        ea = ea + 1;
    }
    return vec4<u32>(bitcast<u32>(ea), s, flags);
}

fn combine(a: Acc, b: Acc) -> Acc {
    var r = a;
    switch OP {
        case 2u: {
            r.f = a.f + b.f;
            r.k.x = a.k.x | b.k.x;
        }
        case 3u, 4u: {
            if (!iamax_wins(a, b)) {
                r = b;
            }
        }
        case 5u: {
            r.k = ext_add(a.k, b.k);
        }
        case 6u, 7u, 8u: {
            r.t = a.t + b.t;
            r.k.x = a.k.x | b.k.x;
        }
        default: {
            r.t = a.t + b.t;
        }
    }
    return r;
}

fn tree(lid: u32, mine: Acc) -> Acc {
    sh_store(lid, mine);
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            sh_store(lid, combine(sh_load(lid), sh_load(lid + s)));
        }
        workgroupBarrier();
    }
    return sh_load(0u);
}

// v·2^k for a finite v ≥ 0, by moving the exponent field: exact while the result is normal;
// +inf above the range; a result below the normal range is rounded by one product (so it is a
// correctly rounded subnormal, or 0 where the adapter flushes subnormals). A subnormal v gives 0:
// the callers pass only values whose subnormal part is negligible against the norm.
fn mul_pow2(v: f32, k: i32) -> f32 {
    let b = bitcast<u32>(v);
    let e = i32(b >> 23u);
    if (e == 0) {
        return 0.0;
    }
    let ne = e + k;
    if (ne >= 255) {
        return bitcast<f32>(F32_INF);
    }
    if (ne <= 0) {
        if (ne + 64 <= 0) {
            return 0.0;
        }
        return bitcast<f32>((b & 0x7fffffu) | (u32(ne + 64) << 23u)) * 0x1p-64f;
    }
    return bitcast<f32>((b & 0x7fffffu) | (u32(ne) << 23u));
}

// nrm2's last step (LAPACK 3.10 snrm2): the f32 bits of the norm from the three sums and flags.
fn nrm2_finish(a: Acc) -> u32 {
    if ((a.k.x & FLAG_NAN) != 0u) {
        return F32_NAN;
    }
    if ((a.k.x & FLAG_INF) != 0u) {
        return F32_INF;
    }
    let abig = a.f.x;
    let amed = a.f.y;
    let asml = a.f.z;
    var norm: f32;
    if (abig > 0.0) {
        norm = mul_pow2(sqrt(abig + mul_pow2(amed, 2 * SBIG_EXP)), -SBIG_EXP);
    } else if (asml > 0.0) {
        if (amed > 0.0) {
            let m = sqrt(amed);
            let s = mul_pow2(sqrt(asml), -SSML_EXP);
            let ymax = max(m, s);
            let ymin = min(m, s);
            let r = ymin / ymax;
            norm = sqrt(ymax * ymax * (1.0 + r * r));
        } else {
            norm = mul_pow2(sqrt(asml), -SSML_EXP);
        }
    } else {
        norm = sqrt(amed);
    }
    return bitcast<u32>(norm);
}

@compute @workgroup_size(WG)
fn partial_sums(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    var acc = zero();
    for (var i = g * WG + lid; i < P.n; i = i + P.groups * WG) {
        acc = combine(acc, term(i));
    }
    let total = tree(lid, acc);
    if (lid == 0u) {
        partial[P.slot + g] = total;
    }
}

@compute @workgroup_size(WG)
fn final_sum(@builtin(local_invocation_index) lid: u32) {
    var acc = zero();
    for (var i = lid; i < P.groups; i = i + WG) {
        acc = combine(acc, partial[i * P.slot + P.base]);
    }
    var total = tree(lid, acc);
    if (lid == 0u) {
        if (OP == 2u) {
            total.k.w = nrm2_finish(total);
        }
        partial[P.groups * P.slot] = total;
    }
}

// ---- Single pass ----------------------------------------------------------------------------
// For accumulators whose words of OP are all u32 (f32 data, OP 0–4; iamax OP 3 of f64 data,
// WORDS = 2, exact integer keys), `single_pass` and `single_pass_vec4` reduce in one dispatch: each workgroup reduces its
// grid-stride share, stores its accumulator word by word (atomics: visible to every workgroup)
// into `words[12·g ..]`, then counts itself done on the counter at `words[12·(groups + 1)]`; the
// workgroup that counts last (it sees groups − 1) combines all the partial accumulators as a
// tree and writes the total where `final_sum` would (slot `groups`, nrm2 finished). The
// "last block" finish of the CUDA samples' threadFenceReduction, with atomics standing in for
// the fence. `single_pass_vec4` reads x (and y) as vec4 (the host guarantees unit strides and
// offsets that are multiples of 4); the n mod 4 last elements go through `term`.
// An f64 `t` cannot pass through u32 atomics (WGSL has no f64 bitcast), so the f64 data's
// other reductions (OP 0, 1, 4, 6, 7, 8 with T = f64) run the same loops split in two
// dispatches: `partial_single` and `partial_vec4` store each workgroup's accumulator in
// `partial[slot + g]`, as `partial_sums` does, and `final_sum` combines them; every slot is
// written, so the scratch needs no clear.
// Loops: a thread's grid-stride loop runs n / (4·4·WG·groups) + 4 times at most, far below
// 65,535 for any n < 2^32; the finish loop runs groups / WG ≤ 4 times.

// Unrolled loads in flight per thread and loop iteration.
const UNROLL: u32 = 4u;
const ACC_WORDS: u32 = 12u;

@group(0) @binding(5) var<storage, read_write> words: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> xv: array<vec4<T>>;
@group(0) @binding(7) var<storage, read> yv: array<vec4<T>>;
@group(0) @binding(8) var<storage, read> xbv: array<vec4<u32>>;

var<workgroup> sh_last: u32;

// The bits of four elements of x: for f32 data (WORDS = 1) `hi` holds each element's bits and
// `lo` is 0; for f64 data `hi` and `lo` hold the high and low words of each.
struct Bits {
    hi: vec4<u32>,
    lo: vec4<u32>,
}

// Whether |x| with the words a (high, sign cleared) and lo (0 for f32 data) is a NaN.
fn nan_bits(a: u32, lo: u32) -> bool {
    if (WORDS == 1u) {
        return a > F32_INF;
    }
    return a > 0x7ff00000u || (a == 0x7ff00000u && lo != 0u);
}

// The term of element i from its value v, its bits (hi, lo: as `Bits`) and the matching y
// element w.
fn term_v(i: u32, v: T, hi: u32, lo: u32, w: T) -> Acc {
    var r = zero();
    switch OP {
        case 1u: {
            r.t = abs(v);
        }
        case 2u: {
            r = nrm2_term(hi);
        }
        case 3u: {
            // As `key_at`: NaN is the largest key (both words), so that the first NaN wins.
            let a = hi & 0x7fffffffu;
            let nan = nan_bits(a, lo);
            r.k = vec4<u32>(select(a, 0xffffffffu, nan), select(lo, 0xffffffffu, nan), i, 0u);
        }
        case 4u: {
            r.t = abs(v);
            r.k.z = i;
            r.k.w = select(0u, 1u, nan_bits(hi & 0x7fffffffu, lo));
        }
        case 6u, 7u, 8u: {
            r = nrm2_term64_v(v, hi, lo);
        }
        default: {
            r.t = v * w;
        }
    }
    return r;
}

// Combine the four terms of the vec4 unit q (elements 4q .. 4q + 3) into acc.
fn combine4(acc: Acc, q: u32, v: vec4<T>, b: Bits, w: vec4<T>) -> Acc {
    var r = acc;
    if (OP == 0u) {
        // dot: one accumulator, the unit's four products summed pairwise.
        r.t = r.t + ((v.x * w.x + v.y * w.y) + (v.z * w.z + v.w * w.w));
        return r;
    }
    if (OP == 1u) {
        r.t = r.t + ((abs(v.x) + abs(v.y)) + (abs(v.z) + abs(v.w)));
        return r;
    }
    let i = P.base + 4u * q;
    let ab = b.hi & vec4<u32>(0x7fffffffu);
    if (OP == 2u && all(ab >= vec4<u32>(TSML_BITS)) && all(ab <= vec4<u32>(TBIG_BITS))) {
        // nrm2, all four in the medium range (the common case): squares into the medium sum.
        let f = bitcast<vec4<f32>>(ab);
        r.f.y = r.f.y + ((f.x * f.x + f.y * f.y) + (f.z * f.z + f.w * f.w));
        return r;
    }
    // The high words with a sticky bit for a nonzero low word (f64 data): compared with an
    // even high-word threshold h, s > h exactly when |x| > the f64 whose high word is h and
    // low word 0, and s < h exactly when |x| < it.
    let s = ab | select(vec4<u32>(0u), vec4<u32>(1u), b.lo != vec4<u32>(0u));
    let inf = select(F32_INF, 0x7ff00000u, WORDS == 2u);
    if (OP == 3u && all(s <= vec4<u32>(inf))) {
        // iamax, no NaN among the four: the first largest key (high word, then low word) of
        // the unit replaces the accumulator only if strictly larger (the accumulator holds
        // lower indices) or empty.
        let m = max(max(ab.x, ab.y), max(ab.z, ab.w));
        let top = ab == vec4<u32>(m);
        let l = select(vec4<u32>(0u), b.lo, top);
        let ml = max(max(l.x, l.y), max(l.z, l.w));
        if (m > r.k.x || (m == r.k.x && ml > r.k.y) || r.k.z == 0xffffffffu) {
            let hit = top & (b.lo == vec4<u32>(ml));
            var k = 3u;
            if (hit.z) {
                k = 2u;
            }
            if (hit.y) {
                k = 1u;
            }
            if (hit.x) {
                k = 0u;
            }
            r.k = vec4<u32>(m, ml, i + k, 0u);
        }
        return r;
    }
    if (OP >= 6u && all(s >= vec4<u32>(TSML64_HI)) && all(s <= vec4<u32>(TBIG64_HI))) {
        // dnrm2, all four in the medium band: their squares in its pass, nothing in the others.
        if (OP == 7u) {
            r.t = r.t + ((v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w));
        }
        return r;
    }
    r = combine(r, term_v(i, v.x, b.hi.x, b.lo.x, w.x));
    r = combine(r, term_v(i + 1u, v.y, b.hi.y, b.lo.y, w.y));
    r = combine(r, term_v(i + 2u, v.z, b.hi.z, b.lo.z, w.z));
    r = combine(r, term_v(i + 3u, v.w, b.hi.w, b.lo.w, w.w));
    return r;
}

fn load_x4(q: u32) -> vec4<T> {
    if (OP == 2u || OP == 3u) {
        return vec4<T>();
    }
    return xv[P.offx / 4u + q];
}

fn load_b4(q: u32) -> Bits {
    var b: Bits;
    let u = P.offx / 4u + q;
    if (WORDS == 1u) {
        if (OP == 2u || OP == 3u || OP == 4u) {
            b.hi = xbv[u];
        }
        return b;
    }
    if (OP == 3u || OP == 4u || OP >= 6u) {
        let p0 = xbv[2u * u];
        let p1 = xbv[2u * u + 1u];
        b.lo = vec4<u32>(p0.x, p0.z, p1.x, p1.z);
        b.hi = vec4<u32>(p0.y, p0.w, p1.y, p1.w);
    }
    return b;
}

fn load_y4(q: u32) -> vec4<T> {
    if (OP == 0u) {
        return yv[P.offy / 4u + q];
    }
    return vec4<T>();
}

// Only the words of `Acc` that OP uses go through the atomics.
fn store_words(slot: u32, a: Acc) {
    let base = slot * ACC_WORDS;
    switch OP {
        case 2u: {
            atomicStore(&words[base + 4u], bitcast<u32>(a.f.x));
            atomicStore(&words[base + 5u], bitcast<u32>(a.f.y));
            atomicStore(&words[base + 6u], bitcast<u32>(a.f.z));
            atomicStore(&words[base + 8u], a.k.x);
            atomicStore(&words[base + 11u], a.k.w);
        }
        case 3u: {
            atomicStore(&words[base + 8u], a.k.x);
            atomicStore(&words[base + 9u], a.k.y);
            atomicStore(&words[base + 10u], a.k.z);
        }
        case 4u: {
            atomicStore(&words[base], bitcast<u32>(f32(a.t)));
            atomicStore(&words[base + 10u], a.k.z);
            atomicStore(&words[base + 11u], a.k.w);
        }
        default: {
            atomicStore(&words[base], bitcast<u32>(f32(a.t)));
        }
    }
}

fn load_words(slot: u32) -> Acc {
    let base = slot * ACC_WORDS;
    var a = zero();
    switch OP {
        case 2u: {
            a.f = vec3<f32>(bitcast<f32>(atomicLoad(&words[base + 4u])),
                            bitcast<f32>(atomicLoad(&words[base + 5u])),
                            bitcast<f32>(atomicLoad(&words[base + 6u])));
            a.k.x = atomicLoad(&words[base + 8u]);
        }
        case 3u: {
            a.k.x = atomicLoad(&words[base + 8u]);
            a.k.y = atomicLoad(&words[base + 9u]);
            a.k.z = atomicLoad(&words[base + 10u]);
        }
        case 4u: {
            a.t = T(bitcast<f32>(atomicLoad(&words[base])));
            a.k.z = atomicLoad(&words[base + 10u]);
            a.k.w = atomicLoad(&words[base + 11u]);
        }
        default: {
            a.t = T(bitcast<f32>(atomicLoad(&words[base])));
        }
    }
    return a;
}

// The workgroup's accumulator `mine` (per invocation) to the total, as described above.
fn finish_single(g: u32, lid: u32, mine: Acc) {
    let total = tree(lid, mine);
    if (lid == 0u) {
        store_words(g, total);
        storageBarrier();
        let done = atomicAdd(&words[(P.groups + 1u) * ACC_WORDS], 1u);
        // One workgroup is the last one whatever the counter held (the host may then skip
        // `clear_counter`: lab `set_one_dispatch_below`).
        sh_last = select(0u, 1u, P.groups == 1u || done == P.groups - 1u);
    }
    workgroupBarrier();
    if (workgroupUniformLoad(&sh_last) == 0u) {
        return;
    }
    var acc = zero();
    for (var s = lid; s < P.groups; s = s + WG) {
        acc = combine(acc, load_words(s));
    }
    var all = tree(lid, acc);
    if (lid == 0u) {
        if (OP == 2u) {
            all.k.w = nrm2_finish(all);
        }
        store_words(P.groups, all);
    }
}

// The workgroup's accumulator `mine` to `partial[slot + g]` (the split form, see above).
fn finish_partial(g: u32, lid: u32, mine: Acc) {
    let total = tree(lid, mine);
    if (lid == 0u) {
        partial[P.slot + g] = total;
    }
}

// `clear_counter`: zero the single pass's counter, one dispatch before it in the same compute
// pass, so that its scratch needs no clear command.
@compute @workgroup_size(1)
fn clear_counter() {
    atomicStore(&words[(P.groups + 1u) * ACC_WORDS], 0u);
}

// Invocation lid of workgroup g: its grid-stride share of the n elements, one `term` each,
// UNROLL independent terms per iteration, so that UNROLL loads are in flight.
fn share_scalar(g: u32, lid: u32) -> Acc {
    let stride = P.groups * WG;
    var acc = zero();
    var i = g * WG + lid;
    for (; i + (UNROLL - 1u) * stride < P.n; i = i + UNROLL * stride) {
        let t0 = term(i);
        let t1 = term(i + stride);
        let t2 = term(i + 2u * stride);
        let t3 = term(i + 3u * stride);
        acc = combine(acc, combine(combine(t0, t1), combine(t2, t3)));
    }
    for (; i < P.n; i = i + stride) {
        acc = combine(acc, term(i));
    }
    return acc;
}

// As `share_scalar` over the vec4 units of x (and y), UNROLL units in flight; the n mod 4 last
// elements, one per invocation of workgroup 0, through `term`.
fn share_vec4(g: u32, lid: u32) -> Acc {
    let stride = P.groups * WG;
    let n4 = P.n / 4u;
    var acc = zero();
    var q = g * WG + lid;
    for (; q + (UNROLL - 1u) * stride < n4; q = q + UNROLL * stride) {
        let v0 = load_x4(q);
        let v1 = load_x4(q + stride);
        let v2 = load_x4(q + 2u * stride);
        let v3 = load_x4(q + 3u * stride);
        let b0 = load_b4(q);
        let b1 = load_b4(q + stride);
        let b2 = load_b4(q + 2u * stride);
        let b3 = load_b4(q + 3u * stride);
        let w0 = load_y4(q);
        let w1 = load_y4(q + stride);
        let w2 = load_y4(q + 2u * stride);
        let w3 = load_y4(q + 3u * stride);
        acc = combine4(acc, q, v0, b0, w0);
        acc = combine4(acc, q + stride, v1, b1, w1);
        acc = combine4(acc, q + 2u * stride, v2, b2, w2);
        acc = combine4(acc, q + 3u * stride, v3, b3, w3);
    }
    for (; q < n4; q = q + stride) {
        acc = combine4(acc, q, load_x4(q), load_b4(q), load_y4(q));
    }
    if (g == 0u && lid < P.n - 4u * n4) {
        acc = combine(acc, term(4u * n4 + lid));
    }
    return acc;
}

@compute @workgroup_size(WG)
fn single_pass(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    finish_single(g, lid, share_scalar(g, lid));
}

@compute @workgroup_size(WG)
fn single_pass_vec4(@builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    finish_single(g, lid, share_vec4(g, lid));
}

@compute @workgroup_size(WG)
fn partial_single(@builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    finish_partial(g, lid, share_scalar(g, lid));
}

@compute @workgroup_size(WG)
fn partial_vec4(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    finish_partial(g, lid, share_vec4(g, lid));
}
