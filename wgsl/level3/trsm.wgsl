// Level 3 triangular solve, diagonal blocks (strsm; the off-diagonal updates run on the tile
// engine of gemm.wgsl, drivers/blocksolve.rs): X_b ← L_bb⁻¹·(scale·X_b) for the diagonal block
// L_bb of NB ≤ 32 rows starting at row k0, for every column of X (the right-hand sides).
// L is r×r triangular (LOWER: lower, else upper), X r×n, both addressed by signed strides (so
// op(A) = Aᵀ, side = Right and row-major storage are the same kernel with strides swapped and
// the triangle flipped, layout.rs). UNIT: the diagonal is 1 and never read; only the triangle
// of L is read.
//
// One workgroup per NC = 64 columns of X: it stages the block's triangle (≤ 4 KiB) and the
// NB×NC block of X (8 KiB, rows padded to 65) in workgroup memory, then each invocation solves its own column by
// column-oriented (COLUMNS) or row-oriented substitution (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.,
// Alg. 8.1 / 8.2, backward stable, Thm. 8.5), reading L by broadcast: 2 barriers in all, none
// per row. The solved block goes back into X and, in C order, into `w` (r×n, row k0 + i), from which the
// following tile-engine updates read it (X itself is written by that update, and a buffer may
// not be bound read-only and read-write in one dispatch).

override UPLO: u32 = UPLO_LOWER;  // the triangle (common.wgsl's UPLO_LOWER or UPLO_UPPER)
override LOWER: bool = UPLO == UPLO_LOWER;
override UNIT: bool = false;
// Column-oriented substitution (true) or row-oriented (false); both backward stable (Higham,
// Alg. 8.1 / 8.2 and Thm. 8.5).
override COLUMNS: bool = true;
const NB: u32 = 32u;
const NC: u32 = 64u;
const WG: u32 = 64u;
const XS: u32 = 65u;  // row pitch of Xs: NC + 1, so column-wise staging has no bank conflicts

struct Params {
    n: u32,      // columns of X
    k0: u32,     // first row of the block
    nb: u32,     // rows in the block (≤ NB)
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    rsx: i32,
    csx: i32,
    scale: f32,  // alpha for the first block solved, 1 after
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read_write> x: array<T>;
@group(0) @binding(3) var<storage, read_write> w: array<T>;
// SCAL (dtrsm: an f64 alpha the f32 params cannot hold): `scale` is a marker, 2 for "the
// value is sc[0]"; without SCAL the driver binds any read-only buffer here (`a`), never read.
@group(0) @binding(4) var<storage, read> sc: array<T>;
override SCAL: bool = false;

fn scale_t() -> T {
    if (SCAL && P.scale == 2.0) {
        return sc[0];
    }
    return T(P.scale);
}

var<workgroup> Ls: array<T, 1024>;  // NB·NB, Ls[i·NB + j]
var<workgroup> Xs: array<T, 2080>;  // NB·XS, Xs[i·XS + c]

// Element (i, j) of the diagonal block of nb rows at row k0, as the block solves stage it: L's
// element inside the triangle, 1 on a unit diagonal (never read), 0 outside the triangle or
// past the block (never read).
fn block_l(i: u32, j: u32, nb: u32, k0: u32) -> T {
    if (i >= nb || j >= nb) {
        return T(0);
    }
    if (i == j) {
        if (UNIT) {
            return T(1);
        }
        return a[midx(P.offa, k0 + i, k0 + j, P.rsa, P.csa)];
    }
    if ((LOWER && i > j) || (!LOWER && i < j)) {
        return a[midx(P.offa, k0 + i, k0 + j, P.rsa, P.csa)];
    }
    return T(0);
}

// (row i, column c) of the e-th staged element of X, consecutive e along the unit stride.
fn x_slot(e: u32) -> vec2<u32> {
    if (P.rsx == 1 || P.rsx == -1) {
        return vec2<u32>(e % NB, e / NB);
    }
    return vec2<u32>(e / NC, e % NC);
}

@compute @workgroup_size(WG)
fn block_solve(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) t: u32) {
    let j0 = linear_group(wid, nwg) * NC;
    let nb = P.nb;
    let k0 = P.k0;
    for (var e = t; e < NB * NB; e = e + WG) {
        let i = e / NB;
        let j = e % NB;
        Ls[e] = block_l(i, j, nb, k0);
    }
    for (var e = t; e < NB * NC; e = e + WG) {
        let s = x_slot(e);
        let j = j0 + s.y;
        var v = T(0);
        if (s.x < nb && j < P.n) {
            v = scale_t() * x[midx(P.offx, k0 + s.x, j, P.rsx, P.csx)];
        }
        Xs[s.x * XS + s.y] = v;
    }
    workgroupBarrier();
    let c = t;
    if (COLUMNS) {
        // Column-oriented: x_i /= L_ii, then x_r -= L_ri·x_i for the rows r after i in solve
        // order: the updates of one step are independent of each other (no long dependency
        // chain through one sum).
        for (var step = 0u; step < nb; step = step + 1u) {
            var i = step;
            if (!LOWER) {
                i = nb - 1u - step;
            }
            var xi = Xs[i * XS + c];
            if (!UNIT) {
                xi = xi / Ls[i * NB + i];
            }
            Xs[i * XS + c] = xi;
            if (LOWER) {
                for (var r = i + 1u; r < nb; r = r + 1u) {
                    Xs[r * XS + c] = Xs[r * XS + c] - Ls[r * NB + i] * xi;
                }
            } else {
                for (var r = 0u; r < i; r = r + 1u) {
                    Xs[r * XS + c] = Xs[r * XS + c] - Ls[r * NB + i] * xi;
                }
            }
        }
    } else {
        for (var step = 0u; step < nb; step = step + 1u) {
            var i = step;
            if (!LOWER) {
                i = nb - 1u - step;
            }
            var sum = Xs[i * XS + c];
            if (LOWER) {
                for (var j = 0u; j < i; j = j + 1u) {
                    sum = sum - Ls[i * NB + j] * Xs[j * XS + c];
                }
            } else {
                for (var j = i + 1u; j < nb; j = j + 1u) {
                    sum = sum - Ls[i * NB + j] * Xs[j * XS + c];
                }
            }
            if (!UNIT) {
                sum = sum / Ls[i * NB + i];
            }
            Xs[i * XS + c] = sum;
        }
    }
    workgroupBarrier();
    for (var e = t; e < NB * NC; e = e + WG) {
        let s = x_slot(e);
        let j = j0 + s.y;
        if (s.x < nb && j < P.n) {
            let v = Xs[s.x * XS + s.y];
            x[midx(P.offx, k0 + s.x, j, P.rsx, P.csx)] = v;
            w[(k0 + s.x) * P.n + j] = v;
        }
    }
}

// ---- Row-parallel block solve (entry `block_solve_rows`, Tuning::trsm_rows) -------------------
//
// The same X_b ← L_bb⁻¹·(scale·X_b) as `block_solve` (column-oriented), on diagonal blocks of
// NR = 32, 64 or 128 rows, with the rows of a block spread over the invocations instead of
// walked by one: a workgroup of NR rows × RC = 256 / NR columns, invocation (i, c) holding
// element b_i of column c in a register. Step k of the column-oriented substitution (Higham,
// Alg. 8.2 / Thm. 8.5): invocation (k, c) divides, x_k = b_k / L_kk, and publishes x_k in
// workgroup memory; after one barrier every row i after k (in solve order) subtracts L_ik·x_k.
// Each row performs the operations of `block_solve` with COLUMNS in the same order (b_i −
// L_ik·x_k for k in solve order, then the division), so at NR = 32 the results are the same
// bit for bit; the dependent chain per invocation is NR steps of one load and one multiply-add,
// not the NR²/2 of one invocation walking the block, and a block of 4096 right-hand sides runs
// 4096 / RC workgroups. Slot (k, c) of `Xr` is written once, at step k, and read only after
// that step's barrier. The block's columns of L are staged CW at a time (NR·CW = 2048 elements,
// rows padded by one: at most 8.5 KiB in f32, 17 KiB in f64), by all invocations at once along
// L's unit stride, between two barriers: only the triangle is read, a unit diagonal never (taken
// as 1). At most NR ≤ 128 loop iterations.
override NR: u32 = 32u;
const RWG: u32 = 256u;
var<workgroup> Xr: array<T, 256>;   // NR·RC, Xr[k·RC + c]: x_k of column c
var<workgroup> Lc: array<T, 2176>;  // NR·(CW + 1), Lc[i·(CW + 1) + q]: L(k0 + i, k0 + kc + q)

@compute @workgroup_size(RWG)
fn block_solve_rows(@builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) t: u32) {
    let rc = RWG / NR;
    let cw = min(2048u / NR, NR);
    let lp = cw + 1u;  // Lc's row pitch: no bank conflicts down a column
    let j0 = linear_group(wid, nwg) * rc;
    let nb = P.nb;
    let k0 = P.k0;
    // (row i, column c) of this invocation: consecutive invocations along X's unit stride.
    var i = t / rc;
    var c = t % rc;
    if (P.rsx == 1 || P.rsx == -1) {
        i = t % NR;
        c = t / NR;
    }
    let j = j0 + c;
    let live = i < nb && j < P.n;
    var b = T(0);
    if (live) {
        b = scale_t() * x[midx(P.offx, k0 + i, j, P.rsx, P.csx)];
    }
    let chunks = (nb + cw - 1u) / cw;
    for (var h = 0u; h < chunks; h = h + 1u) {
        // Columns kc .. kc + cw of the block, in solve order (upper: from the right).
        var kc = h * cw;
        if (!LOWER) {
            kc = (chunks - 1u - h) * cw;
        }
        workgroupBarrier();  // the previous chunk's reads are done
        for (var e = t; e < NR * cw; e = e + RWG) {
            // Consecutive invocations along L's unit stride (rows where rsa = ±1).
            var r = e / cw;
            var qq = e % cw;
            if (P.rsa == 1 || P.rsa == -1) {
                r = e % NR;
                qq = e / NR;
            }
            let kk = kc + qq;
            Lc[r * lp + qq] = block_l(r, kk, nb, k0);
        }
        workgroupBarrier();
        let steps = min(cw, nb - kc);
        for (var q = 0u; q < steps; q = q + 1u) {
            var kq = q;
            if (!LOWER) {
                kq = steps - 1u - q;
            }
            let k = kc + kq;
            if (i == k) {
                if (!UNIT) {
                    b = b / Lc[i * lp + kq];
                }
                Xr[k * rc + c] = b;
            }
            workgroupBarrier();
            if ((LOWER && i > k) || (!LOWER && i < k)) {
                b = b - Lc[i * lp + kq] * Xr[k * rc + c];
            }
        }
    }
    if (live) {
        x[midx(P.offx, k0 + i, j, P.rsx, P.csx)] = b;
        w[(k0 + i) * P.n + j] = b;
    }
}

// ---- Inverted diagonal blocks (Tuning::trsm_inverse, drivers/trsm.rs) -------------------------
//
// Entry `block_invert`: workgroup g inverts the diagonal block of L of NI rows from row g·NI
// (the last one may be shorter: P.nb is the order of L) and writes it, NI×NI in C order, at
// g·NI·NI of `w`, zero outside its triangle, the rows and columns past the block's order holding
// the identity. Invocation j forms column j of the inverse by column-oriented substitution on
// the unit vector e_j (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.,
// §14.2.1, "Method 1": each column backward stable, |T·X̂ − I| ≤ γ_n·|T|·|X̂|), from row j on
// (the rows before j are zero), in its own column of workgroup memory (no barrier: no
// invocation reads another's column). Only the triangle of L is read, its diagonal not at all
// for UNIT (then the inverse's diagonal is 1). At most NI ≤ 64 iterations per loop.
//
// Entry `copy_back`: X ← W, one invocation per element of the r×n solution (r = P.nb), W in
// C order (the leaves' products write W, since the following updates read the solved rows
// from it while they write X).
override NI: u32 = 64u;
var<workgroup> Vs: array<T, NI * NI>;  // Vs[i·NI + j]: column j is invocation j's

@compute @workgroup_size(NI)
fn block_invert(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) t: u32) {
    let g = linear_group(wid, nwg);
    let k0 = g * NI;
    if (k0 >= P.nb) {
        return;
    }
    let nb = min(NI, P.nb - k0);
    let j = t;
    for (var i = 0u; i < NI; i = i + 1u) {
        Vs[i * NI + j] = select(T(0), T(1), i == j);
    }
    if (j < nb) {
        if (LOWER) {
            for (var i = j; i < nb; i = i + 1u) {
                var xi = Vs[i * NI + j];
                if (!UNIT) {
                    xi = xi / a[midx(P.offa, k0 + i, k0 + i, P.rsa, P.csa)];
                }
                Vs[i * NI + j] = xi;
                for (var r = i + 1u; r < nb; r = r + 1u) {
                    let l = a[midx(P.offa, k0 + r, k0 + i, P.rsa, P.csa)];
                    Vs[r * NI + j] = Vs[r * NI + j] - l * xi;
                }
            }
        } else {
            for (var s = 0u; s <= j; s = s + 1u) {
                let i = j - s;
                var xi = Vs[i * NI + j];
                if (!UNIT) {
                    xi = xi / a[midx(P.offa, k0 + i, k0 + i, P.rsa, P.csa)];
                }
                Vs[i * NI + j] = xi;
                for (var r = 0u; r < i; r = r + 1u) {
                    let l = a[midx(P.offa, k0 + r, k0 + i, P.rsa, P.csa)];
                    Vs[r * NI + j] = Vs[r * NI + j] - l * xi;
                }
            }
        }
    }
    let base = g * NI * NI;
    for (var i = 0u; i < NI; i = i + 1u) {
        w[base + i * NI + j] = Vs[i * NI + j];
    }
}

@compute @workgroup_size(256)
fn copy_back(@builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) t: u32) {
    let e = linear_group(wid, nwg) * 256u + t;
    if (e >= P.nb * P.n) {
        return;
    }
    let i = e / P.n;
    let j = e % P.n;
    x[midx(P.offx, i, j, P.rsx, P.csx)] = w[e];
}

// ---- Fused leaves on inverted diagonal blocks (Tuning::trsm_leaf, drivers/trsm.rs) ---------
//
// Entry `inverse_leaf`: the leaf of rows k0..k0 + nb (nb ≤ NI, k0 a multiple of NI, so that its
// inverse is the block k0 / NI that `block_invert` wrote to `inv`), for LC = 1024 / NI columns
// of X per workgroup, one dispatch:
//   B ← scale·X_rows            (the formula's alpha·B first: a NaN or Inf alpha meets every
//                                element of B, zeros included, before anything multiplies it)
//   Y ← T⁻¹·B                   (the product with the inverse, its zero triangle left out of
//                                the sums, so that a NaN or Inf of B reaches only the rows the
//                                substitution reaches)
// and with REFINE one step of fixed-precision iterative refinement (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., §12.2, Thm. 12.3; Skeel 1980): the residual in
// working precision and its correction, both on the same block,
//   R ← B − T·Y                 (T the diagonal block of L: its triangle, a unit diagonal
//                                taken as 1 and never read)
//   Y ← Y + T⁻¹·R               (where that sum is finite; elsewhere Y stays: where Y holds an
//                                Inf, R holds Inf − Inf = NaN, and the correction is void)
// The product with an inverse alone has the residual bound c·u·|T|·|T⁻¹|·|B| (Higham §14.3),
// not backward stable for an ill-conditioned block; one refinement step makes it componentwise
// backward stable where u·cond(T)·σ(T, Y) is small enough (Higham Thm. 12.3). Y goes into X
// and, in C order, into `w` (the following updates' right operand): no copy_back.
//
// Invocation t holds column t % LC and the 4 rows 4·(t / LC) .. + 4; B, then R, and Y in
// workgroup memory (1024 elements each), the inverse and L read from their buffers (each
// element by the LC invocations of a row group at once). Loops of at most NI iterations.
override REFINE: bool = true;
const LEAF_WG: u32 = 256u;
const LEAF_EL: u32 = 1024u;  // NI·LC
var<workgroup> Bs: array<T, LEAF_EL>;  // Bs[i·LC + c]: B, then R
var<workgroup> Ys: array<T, LEAF_EL>;  // Ys[i·LC + c]: Y
@group(0) @binding(5) var<storage, read> inv: array<T>;

// Whether column k enters row i's sum with the inverse (or T): inside the triangle.
fn in_tri(i: u32, k: u32) -> bool {
    return (LOWER && k <= i) || (!LOWER && k >= i);
}

// The first and one-past-last column of the triangle over rows i0 .. i0 + 4 of a block of nb.
fn tri_range(i0: u32, nb: u32) -> vec2<u32> {
    if (LOWER) {
        return vec2<u32>(0u, min(i0 + 4u, nb));
    }
    return vec2<u32>(min(i0, nb), nb);
}

// Rows i0 .. i0 + 4, column c, of T⁻¹·S with S = Bs (the block's inverse at `base`).
fn inv_times(i0: u32, c: u32, lc: u32, base: u32, nb: u32) -> array<T, 4> {
    var acc = array<T, 4>(T(0), T(0), T(0), T(0));
    let range = tri_range(i0, nb);
    for (var k = range.x; k < range.y; k = k + 1u) {
        let s = Bs[k * lc + c];
        for (var q = 0u; q < 4u; q = q + 1u) {
            let i = i0 + q;
            if (i < nb && in_tri(i, k)) {
                acc[q] = acc[q] + inv[base + i * NI + k] * s;
            }
        }
    }
    return acc;
}

// Whether v is finite, by an ordered comparison (false for NaN and ±Inf; on T, which may be
// f64, whose bits WGSL cannot take). Only the refinement's guard uses it: where an
// implementation took a NaN for finite, the correction would be kept, as without the guard.
fn leaf_finite(v: T) -> bool {
    return abs(v) <= T(3.4028234e38) || (abs(v) > T(3.4028234e38) && v - v == T(0));
}

@compute @workgroup_size(LEAF_WG)
fn inverse_leaf(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) t: u32) {
    let lc = LEAF_EL / NI;
    let c = t % lc;
    let i0 = (t / lc) * 4u;
    let j = linear_group(wid, nwg) * lc + c;
    let live = j < P.n;
    let nb = P.nb;
    let k0 = P.k0;
    let base = (k0 / NI) * NI * NI;
    let scale = scale_t();
    for (var q = 0u; q < 4u; q = q + 1u) {
        let i = i0 + q;
        var v = T(0);
        if (live && i < nb) {
            v = scale * x[midx(P.offx, k0 + i, j, P.rsx, P.csx)];
        }
        Bs[i * lc + c] = v;
    }
    workgroupBarrier();
    var y = inv_times(i0, c, lc, base, nb);
    if (REFINE) {
        for (var q = 0u; q < 4u; q = q + 1u) {
            Ys[(i0 + q) * lc + c] = y[q];
        }
        workgroupBarrier();
        // R = B − T·Y on this invocation's rows (its own elements of Bs).
        var r = array<T, 4>(T(0), T(0), T(0), T(0));
        for (var q = 0u; q < 4u; q = q + 1u) {
            r[q] = Bs[(i0 + q) * lc + c];
        }
        let range = tri_range(i0, nb);
        for (var k = range.x; k < range.y; k = k + 1u) {
            let yk = Ys[k * lc + c];
            for (var q = 0u; q < 4u; q = q + 1u) {
                let i = i0 + q;
                if (i < nb && in_tri(i, k)) {
                    var l = T(1);
                    if (i != k || !UNIT) {
                        l = a[midx(P.offa, k0 + i, k0 + k, P.rsa, P.csa)];
                    }
                    r[q] = r[q] - l * yk;
                }
            }
        }
        // Every invocation has read all of B (in inv_times) before the barrier above.
        for (var q = 0u; q < 4u; q = q + 1u) {
            Bs[(i0 + q) * lc + c] = r[q];
        }
        workgroupBarrier();
        let d = inv_times(i0, c, lc, base, nb);
        for (var q = 0u; q < 4u; q = q + 1u) {
            let s = y[q] + d[q];
            if (leaf_finite(s)) {
                y[q] = s;
            }
        }
    }
    for (var q = 0u; q < 4u; q = q + 1u) {
        let i = i0 + q;
        if (live && i < nb) {
            x[midx(P.offx, k0 + i, j, P.rsx, P.csx)] = y[q];
            w[(k0 + i) * P.n + j] = y[q];
        }
    }
}
