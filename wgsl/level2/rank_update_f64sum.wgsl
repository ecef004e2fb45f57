// The f32 rank updates of `rank_update.wgsl` (sger, ssyr, ssyr2) with the exact sum formed in
// f64 instead of double-f32 (lab `Experimental` on `RankUpdateF64Sum`): A, x and y are f32 (the
// bindings say so); T is the accumulator type, and the driver instantiates this shader with
// `alias T = f64;` only (where the adapter has SHADER_F64). (An f32 instantiation, which naga
// validates too, is the plain formula and never runs.)
//
//   A_ij ← round_f32(A_ij + x_i·W_j (+ y_i·V_j)), W_j = alpha·y_j, V_j = alpha·x_j, in f64.
//
// alpha·y_j is exact in f64 (24 × 24 significant bits); x_i·W_j and the sum each round once at
// 2^-53, so the result is the exact A_ij + alpha·x_i·y_j (+ alpha·y_i·x_j) to within half an
// ulp of f32 and 2^-52 of the terms: the rule of `rank_update.wgsl` (there: double-f32, about
// 2^-48), with about a third of its arithmetic per element (two conversions and one or two
// f64 fused products, against some 25 f32 operations). Non-finite values (Inf, NaN in the
// inputs, or an overflow of the plain formula) take the plain formula's value, as the reference
// computes it and as `rank_update.wgsl` does. No zero-skip (DESIGN.md §3). alpha = 0 (tested on
// its bits) leaves A untouched.
//
// `main_lines`: as `rank_update.wgsl`'s, one vec4 unit along the unit stride in each of RL
// consecutive lines per invocation, the RL units loaded before any store; the fast side's
// factors formed once per invocation, each line's once. Host conditions as `main_vec4` there.

const WG: u32 = 256u;
const RL: u32 = 4u;

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
    zero: u32,   // always 0 (unused here)
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> y: array<f32>;
@group(0) @binding(4) var<storage, read_write> av: array<vec4<f32>>;

fn is_finite(v: f32) -> bool {
    return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u;
}

// (i0, j0, di, dj) of the vec4 unit that starts at element e of line `line`.
fn unit_at(line: u32, e: u32, ifast: bool) -> vec4<u32> {
    if (ifast) {
        return vec4<u32>(e, line, 1u, 0u);
    }
    return vec4<u32>(line, e, 0u, 1u);
}

// Whether the unit `u` lies wholly outside the triangle UPLO.
fn unit_outside(u: vec4<u32>) -> bool {
    let i3 = u.x + 3u * u.z;
    let j3 = u.y + 3u * u.w;
    return (UPLO == UPLO_UPPER && min(u.x, i3) > max(u.y, j3))
        || (UPLO == UPLO_LOWER && max(u.x, i3) < min(u.y, j3));
}

fn in_triangle(i: u32, j: u32) -> bool {
    return !((UPLO == UPLO_UPPER && i > j) || (UPLO == UPLO_LOWER && i < j));
}

// One element: a + u1·v1 (+ u2·v2), each u·v = u·(alpha·v') given as the f32 u, the f32
// fl(alpha·v') (the plain formula's) and the exact alpha·v' in T.
fn update(a: f32, u1: f32, w1: f32, w1t: T, u2: f32, w2: f32, w2t: T) -> f32 {
    var plain = a + u1 * w1;
    if (TWO) {
        plain = plain + u2 * w2;
    }
    if (!is_finite(plain)) {
        return plain;
    }
    var s = T(a) + T(u1) * w1t;
    if (TWO) {
        s = s + T(u2) * w2t;
    }
    return f32(s);
}

@compute @workgroup_size(WG)
fn main_lines(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG + lid;
    let ifast = P.ifast != 0u;
    let fast = select(P.n, P.m, ifast);
    let lines = select(P.m, P.n, ifast);
    let per_line = fast / 4u;
    let blocks = (lines + RL - 1u) / RL;
    if (g >= per_line * blocks || f32_is_zero(P.alpha)) {
        return;
    }
    let l0 = (g / per_line) * RL;
    let e = 4u * (g % per_line);
    let alpha = P.alpha;
    // The RL units (and the lines' x and y) before any store.
    var v: array<vec4<f32>, RL>;
    var k4: array<u32, RL>;
    var todo: array<bool, RL>;
    var lx: array<f32, RL>;
    var ly: array<f32, RL>;
    for (var k = 0u; k < RL; k = k + 1u) {
        let l = l0 + k;
        let u = unit_at(l, e, ifast);
        todo[k] = l < lines && !unit_outside(u);
        if (todo[k]) {
            k4[k] = u32(i32(P.offa) + i32(u.x) * P.rsa + i32(u.y) * P.csa) / 4u;
            v[k] = av[k4[k]];
            // (x at a j and y at an i are read only by ssyr2, where m = n.)
            if (!ifast || TWO) {
                lx[k] = x[vidx(P.offx, l, P.incx)];
            }
            if (ifast || TWO) {
                ly[k] = y[vidx(P.offy, l, P.incy)];
            }
        }
    }
    // The fast side's 4 positions: x and y there (i where ifast, else j).
    var fx: vec4<f32>;
    var fy: vec4<f32>;
    for (var q = 0u; q < 4u; q = q + 1u) {
        if (ifast || TWO) {
            fx[q] = x[vidx(P.offx, e + q, P.incx)];
        }
        if (!ifast || TWO) {
            fy[q] = y[vidx(P.offy, e + q, P.incy)];
        }
    }
    // Term 1 is x_i·(alpha·y_j), term 2 y_i·(alpha·x_j): the j side's alpha·v (f32 and exact
    // T), on the fast side where j is fastest, else on the line.
    let at = T(alpha);
    let fw1 = alpha * fy;
    let fw2 = alpha * fx;
    var fw1t: array<T, 4>;
    var fw2t: array<T, 4>;
    if (!ifast) {
        for (var q = 0u; q < 4u; q = q + 1u) {
            fw1t[q] = at * T(fy[q]);
            if (TWO) {
                fw2t[q] = at * T(fx[q]);
            }
        }
    }
    var r: array<vec4<f32>, RL>;
    for (var k = 0u; k < RL; k = k + 1u) {
        if (!todo[k]) {
            continue;
        }
        let u = unit_at(l0 + k, e, ifast);
        let lw1 = alpha * ly[k];
        let lw2 = alpha * lx[k];
        var lw1t = T(0);
        var lw2t = T(0);
        if (ifast) {
            lw1t = at * T(ly[k]);
            if (TWO) {
                lw2t = at * T(lx[k]);
            }
        }
        r[k] = v[k];
        for (var q = 0u; q < 4u; q = q + 1u) {
            let i = u.x + q * u.z;
            let j = u.y + q * u.w;
            if (in_triangle(i, j)) {
                if (ifast) {
                    r[k][q] = update(v[k][q], fx[q], lw1, lw1t, fy[q], lw2, lw2t);
                } else {
                    r[k][q] = update(v[k][q], lx[k], fw1[q], fw1t[q], ly[k], fw2[q], fw2t[q]);
                }
            }
        }
    }
    for (var k = 0u; k < RL; k = k + 1u) {
        if (todo[k]) {
            av[k4[k]] = r[k];
        }
    }
}
