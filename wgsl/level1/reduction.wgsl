// Level 1 reduction driver, two passes:
//   `partial_sums`: workgroup g sums a grid-stride share of the n terms, each invocation
//                   sequentially, then the workgroup as a tree; writes partial[g].
//   `final_sum`:    one workgroup reduces partial[0..groups] as a tree into partial[groups].
// Terms:
//   OP = 0  dot:  x_i · y_i
// Pairwise (tree) summation keeps the error bound at O(log n) eps instead of the O(n) eps of a
// sequential sum (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2).

override OP: u32 = 0u;
const WG: u32 = 256u;

struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    groups: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> x: array<T>;
@group(0) @binding(2) var<storage, read> y: array<T>;
@group(0) @binding(3) var<storage, read_write> partial: array<T>;

var<workgroup> sh: array<T, WG>;

fn term(i: u32) -> T {
    switch OP {
        default: {
            return x[vidx(P.offx, i, P.incx)] * y[vidx(P.offy, i, P.incy)];
        }
    }
}

fn tree(lid: u32) -> T {
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            sh[lid] = sh[lid] + sh[lid + s];
        }
        workgroupBarrier();
    }
    return sh[0];
}

@compute @workgroup_size(WG)
fn partial_sums(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let g = linear_group(wid, nwg);
    var acc = T(0);
    for (var i = g * WG + lid; i < P.n; i = i + P.groups * WG) {
        acc = acc + term(i);
    }
    sh[lid] = acc;
    workgroupBarrier();
    let total = tree(lid);
    if (lid == 0u) {
        partial[g] = total;
    }
}

@compute @workgroup_size(WG)
fn final_sum(@builtin(local_invocation_index) lid: u32) {
    var acc = T(0);
    for (var i = lid; i < P.groups; i = i + WG) {
        acc = acc + partial[i];
    }
    sh[lid] = acc;
    workgroupBarrier();
    let total = tree(lid);
    if (lid == 0u) {
        partial[P.groups] = total;
    }
}
