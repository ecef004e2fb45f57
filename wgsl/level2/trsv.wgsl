// Level 2 triangular solve, blocked: solve A·x = b, A n×n triangular, addressed by signed
// strides (op(A) = Aᵀ is the same kernel with rs and cs swapped and the triangle flipped,
// layout.rs).
//   LOWER = true:  forward substitution, blocks from the top;
//   LOWER = false: back substitution, blocks from the bottom.
//   UNIT  = true:  the diagonal is taken as 1 and never read.
// One dispatch of `solve_update` per diagonal block of NB rows, in solve order. Every
// workgroup of it
//   1. loads the NB×NB diagonal block into workgroup memory (coalesced along whichever of
//      A's strides is the smaller) and the block's part of x (final: every earlier dispatch
//      has subtracted its block's contribution);
//   2. solves the block by column-oriented substitution in workgroup memory (2·NB barriers,
//      no global memory access inside the loop); workgroup 0 writes the block's solution to
//      `sol` (x's own elements of this block are only read during the sweep, so no workgroup
//      can see a half-solved block);
//   3. subtracts Σ_{j in block} A(i,j)·x_j from the NB rows i it owns among those left to
//      solve, from a tile of A staged in workgroup memory (TPR invocations per row).
// Then `copy_out` moves `sol` into x. Only the `uplo` triangle is read; every loop has a
// fixed trip count of at most NB·NB / WG or NB.

override UPLO: u32 = UPLO_LOWER;  // the triangle (common.wgsl's UPLO_LOWER or UPLO_UPPER)
override LOWER: bool = UPLO == UPLO_LOWER;
override UNIT: bool = false;
// The substitution with one barrier per column instead of two (the driver's default; lab
// `Legacy` on trsv: two). On the H200 (2026-12-01, n = 8192): 3.19–3.23 ms against 3.46–3.52.
override ONE_BARRIER: bool = false;
// Rows per diagonal block: 64, or 32 where the 64-row tile does not fit the workgroup memory
// of the adapter (the driver picks it per element type: in f64 the 64-row tile takes 35 KiB,
// past lavapipe's 32 KiB).
override NB: u32 = 64u;
const WG: u32 = 256u;
// Invocations per row in the update (WG / NB: 4 or 8).
override TPR: u32 = WG / NB;
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
    k0: u32,  // first row of the current diagonal block
    nb: u32,  // rows in the current diagonal block (≤ NB)
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read_write> x: array<T>;
@group(0) @binding(3) var<storage, read_write> sol: array<T>;

// The diagonal block, then the update tile: element (r, c) at w[r * PITCH + c].
var<workgroup> w: array<T, W_LEN>;
var<workgroup> xs: array<T, NB>;
var<workgroup> part: array<T, WG>;

fn A(i: u32, j: u32) -> T {
    return a[midx(P.offa, i, j, P.rsa, P.csa)];
}

// Tile coordinates of the e-th element loaded, so that consecutive invocations read
// consecutive addresses: along columns when A's column stride is the smaller one.
fn tile_rc(e: u32) -> vec2<u32> {
    if (abs(P.csa) <= abs(P.rsa)) {
        return vec2<u32>(e / NB, e % NB);
    }
    return vec2<u32>(e % NB, e / NB);
}

@compute @workgroup_size(WG)
fn solve_update(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let nb = P.nb;
    let k0 = P.k0;
    // 1. The diagonal block (its referenced triangle only) and its part of x.
    for (var e = lid; e < NB * NB; e = e + WG) {
        let rc = tile_rc(e);
        let r = rc.x;
        let c = rc.y;
        var v = T(0);
        let inside = (LOWER && c < r) || (!LOWER && c > r) || (!UNIT && c == r);
        if (r < nb && c < nb && inside) {
            v = A(k0 + r, k0 + c);
        }
        w[r * PITCH + c] = v;
    }
    if (lid < nb) {
        xs[lid] = x[vidx(P.offx, k0 + lid, P.incx)];
    }
    workgroupBarrier();
    // 2. Substitution: column r of the block is finished at step s.
    if (ONE_BARRIER) {
        // The same operations in the same order, with each row's value in a register of its
        // invocation: at step s the owner of row r divides its own value and publishes it,
        // then (after the step's one barrier) every row below subtracts its product in its
        // own register; the owner of the next row reads nothing another invocation writes
        // meanwhile, so no second barrier per step is needed.
        var b = T(0);
        if (lid < nb) {
            b = xs[lid];
        }
        for (var s = 0u; s < nb; s = s + 1u) {
            var r = s;
            if (!LOWER) {
                r = nb - 1u - s;
            }
            if (lid == r) {
                if (!UNIT) {
                    b = b / w[r * PITCH + r];
                }
                xs[r] = b;
            }
            workgroupBarrier();
            let below = (LOWER && lid > r) || (!LOWER && lid < r);
            if (lid < nb && below) {
                b = b - w[lid * PITCH + r] * xs[r];
            }
        }
        // Every product read from w before the update tile overwrites it.
        workgroupBarrier();
    } else {
    for (var s = 0u; s < nb; s = s + 1u) {
        var r = s;
        if (!LOWER) {
            r = nb - 1u - s;
        }
        if (!UNIT && lid == r) {
            xs[r] = xs[r] / w[r * PITCH + r];
        }
        workgroupBarrier();
        let below = (LOWER && lid > r) || (!LOWER && lid < r);
        if (lid < nb && below) {
            xs[lid] = xs[lid] - w[lid * PITCH + r] * xs[r];
        }
        workgroupBarrier();
    }
    }
    let g = linear_group(wid, nwg);
    if (g == 0u && lid < nb) {
        sol[k0 + lid] = xs[lid];
    }
    // 3. The update of this workgroup's NB rows among those left to solve: below the block
    //    (lower) or above it (upper).
    var first: u32;
    var rows: u32;
    if (LOWER) {
        first = k0 + nb;
        rows = P.n - first;
    } else {
        first = 0u;
        rows = k0;
    }
    let r0 = g * NB;
    if (r0 >= rows) {
        return;
    }
    for (var e = lid; e < NB * NB; e = e + WG) {
        let rc = tile_rc(e);
        let r = rc.x;
        let c = rc.y;
        var v = T(0);
        if (r0 + r < rows && c < nb) {
            v = A(first + r0 + r, k0 + c);
        }
        w[r * PITCH + c] = v;
    }
    workgroupBarrier();
    let r = lid / TPR;
    let q = lid % TPR;
    // Columns q·NB/TPR .. (q + 1)·NB/TPR − 1 of row r (zeros past nb).
    var sum = T(0);
    for (var c = q * (NB / TPR); c < (q + 1u) * (NB / TPR); c = c + 1u) {
        sum = sum + w[r * PITCH + c] * xs[c];
    }
    part[lid] = sum;
    workgroupBarrier();
    if (q == 0u && r0 + r < rows) {
        var total = (part[lid] + part[lid + 1u]) + (part[lid + 2u] + part[lid + 3u]);
        if (TPR == 8u) {
            total = total + ((part[lid + 4u] + part[lid + 5u]) + (part[lid + 6u] + part[lid + 7u]));
        }
        let ix = vidx(P.offx, first + r0 + r, P.incx);
        x[ix] = x[ix] - total;
    }
}

// x ← sol, element by element (after the last block).
@compute @workgroup_size(WG)
fn copy_out(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = linear_group(wid, nwg) * WG + lid;
    if (i < P.n) {
        x[vidx(P.offx, i, P.incx)] = sol[i];
    }
}
