// Level 2 triangular solve, blocked: solve A·x = b in place in x, A n×n triangular, addressed
// by signed strides (op(A) = Aᵀ is the same kernel with rs and cs swapped and the triangle
// flipped, layout.rs).
//   LOWER = true:  forward substitution, blocks from the top;
//   LOWER = false: back substitution, blocks from the bottom.
//   UNIT  = true:  the diagonal is taken as 1 and never read.
// For each diagonal block of NB rows, in solve order:
//   `block_solve`: one workgroup solves the NB×NB diagonal block by column-oriented
//                  substitution, x held in workgroup memory (2·NB barriers);
//   `update`:      one invocation per remaining row i subtracts Σ_{j in block} A(i,j)·x_j.
// All 2·⌈n/NB⌉ dispatches are encoded in one submission. Only the `uplo` triangle is read.

override LOWER: bool = true;
override UNIT: bool = false;
const NB: u32 = 64u;
const WG: u32 = 256u;

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

var<workgroup> xs: array<T, NB>;

fn A(i: u32, j: u32) -> T {
    return a[midx(P.offa, i, j, P.rsa, P.csa)];
}

@compute @workgroup_size(NB)
fn block_solve(@builtin(local_invocation_index) t: u32) {
    let nb = P.nb;
    if (t < nb) {
        xs[t] = x[vidx(P.offx, P.k0 + t, P.incx)];
    }
    workgroupBarrier();
    for (var s = 0u; s < nb; s = s + 1u) {
        // Column r of the block is finished at step s.
        var r = s;
        if (!LOWER) {
            r = nb - 1u - s;
        }
        if (!UNIT && t == r) {
            xs[r] = xs[r] / A(P.k0 + r, P.k0 + r);
        }
        workgroupBarrier();
        let below = (LOWER && t > r) || (!LOWER && t < r);
        if (t < nb && below) {
            xs[t] = xs[t] - A(P.k0 + t, P.k0 + r) * xs[r];
        }
        workgroupBarrier();
    }
    if (t < nb) {
        x[vidx(P.offx, P.k0 + t, P.incx)] = xs[t];
    }
}

@compute @workgroup_size(WG)
fn update(@builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg) * WG + lid;
    // Rows left to solve: below the block (lower) or above it (upper).
    var i: u32;
    if (LOWER) {
        i = P.k0 + P.nb + g;
        if (i >= P.n) {
            return;
        }
    } else {
        if (g >= P.k0) {
            return;
        }
        i = g;
    }
    var sum = T(0);
    for (var j = 0u; j < P.nb; j = j + 1u) {
        sum = sum + A(i, P.k0 + j) * x[vidx(P.offx, P.k0 + j, P.incx)];
    }
    let ix = vidx(P.offx, i, P.incx);
    x[ix] = x[ix] - sum;
}
