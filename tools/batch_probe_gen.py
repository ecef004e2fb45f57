#!/usr/bin/env python3
"""Generate the batched small-product probe kernels for examples/batch_probe.rs (issue 14's
10,000 x 32^3 row): `python3 tools/batch_probe_gen.py DIR` writes every variant of
benches/results/2026-12-01-batch/ into DIR (lib_like: the staged kernel gemm_small had;
direct*/smem*/loop*: vec4 kernels for C-order n = 32; gen32: production-shaped staging;
r10*: the kernel gemm_small has now, by its thread mapping (i or j first), written-out
stores (r10x) and k unrolled by 4 (r10u))."""
import os
import sys
os.makedirs(sys.argv[1] if len(sys.argv) > 1 else ".", exist_ok=True)
os.chdir(sys.argv[1] if len(sys.argv) > 1 else ".")
HDR = """struct Params {{ m: u32, n: u32, k: u32, batch: u32 }}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<{A}>;
@group(0) @binding(2) var<storage, read> b: array<{B}>;
@group(0) @binding(3) var<storage, read_write> c: array<{C}>;
"""
def lib_like(T):
    return f"""//! per_wg=4 dt={T}
{'enable f16;' if False else ''}
alias T = {T};
""" + HDR.format(A='T', B='T', C='T') + """
const WG: u32 = 256u;
const SMEM: u32 = 4096u;
var<workgroup> Ss: array<T, SMEM>;
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
    let tpm = (P.m + 3u) / 4u;
    let tp = tpm * ((P.n + 3u) / 4u);
    let np = 4u;
    let sbk = 16u;
    let g = wid.x + wid.y * nwg.x;
    let lp = t / tp;
    let z = g * np + lp;
    let live = lp < np && z < P.batch;
    let bi = (t % tp % tpm) * 4u;
    let bj = (t % tp / tpm) * 4u;
    let slab = (P.m + P.n) * sbk;
    let abase = lp * slab;
    let bbase = abase + P.m * sbk;
    var acc: array<vec4<T>, 4>;
    for (var r = 0u; r < 4u; r = r + 1u) { acc[r] = vec4<T>(T(0)); }
    for (var p0 = 0u; p0 < P.k; p0 = p0 + sbk) {
        for (var e = t; e < np * slab; e = e + WG) {
            let q = e / slab;
            let r = e % slab;
            let zq = g * np + q;
            var v = T(0);
            var dst = e;
            if (r < P.m * sbk) {
                let i = r / sbk;
                let p = r % sbk;
                dst = q * slab + p * P.m + i;
                if (zq < P.batch && p0 + p < P.k) {
                    v = a[zq * P.m * P.k + i * P.k + p0 + p];
                }
            } else {
                let r2 = r - P.m * sbk;
                let j = r2 % P.n;
                let p = r2 / P.n;
                dst = q * slab + P.m * sbk + p * P.n + j;
                if (zq < P.batch && p0 + p < P.k) {
                    v = b[zq * P.k * P.n + (p0 + p) * P.n + j];
                }
            }
            Ss[dst] = v;
        }
        workgroupBarrier();
        if (live) {
            for (var p = 0u; p < sbk; p = p + 1u) {
                let ar = abase + p * P.m + bi;
                let br = bbase + p * P.n + bj;
                let av = vec4<T>(Ss[ar], Ss[ar + 1u], Ss[ar + 2u], Ss[ar + 3u]);
                let bv = vec4<T>(Ss[br], Ss[min(br + 1u, SMEM - 1u)], Ss[min(br + 2u, SMEM - 1u)], Ss[min(br + 3u, SMEM - 1u)]);
                acc[0] = acc[0] + av.x * bv;
                acc[1] = acc[1] + av.y * bv;
                acc[2] = acc[2] + av.z * bv;
                acc[3] = acc[3] + av.w * bv;
            }
        }
        workgroupBarrier();
    }
    if (!live) { return; }
    let o = z * P.m * P.n;
    for (var r = 0u; r < 4u; r = r + 1u) {
        for (var q = 0u; q < 4u; q = q + 1u) {
            let i = bi + r; let j = bj + q;
            if (i < P.m && j < P.n) { c[o + i * P.n + j] = acc[r][q]; }
        }
    }
}
"""

def direct(T, per):
    # 64 invocations per product (8x8 threads, 4x4 each), `per` = 4 products per workgroup;
    # A read as scalars (broadcast), B and C as vec4.
    return f"""//! per_wg={per} dt={T}
alias T = {T};
""" + HDR.format(A='T', B='vec4<T>', C='vec4<T>') + f"""
@compute @workgroup_size({64*per})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {{
    let g = wid.x + wid.y * nwg.x;
    let z = g * {per}u + t / 64u;
    if (z >= P.batch) {{ return; }}
    let l = t % 64u;
    let i0 = (l / 8u) * 4u;
    let j4 = l % 8u;
    let ab = z * P.m * P.k;
    let bb = z * P.k * (P.n / 4u);
    var c0 = vec4<T>(T(0)); var c1 = vec4<T>(T(0)); var c2 = vec4<T>(T(0)); var c3 = vec4<T>(T(0));
    for (var p = 0u; p < P.k; p = p + 1u) {{
        let bv = b[bb + p * (P.n / 4u) + j4];
        c0 = c0 + a[ab + (i0 + 0u) * P.k + p] * bv;
        c1 = c1 + a[ab + (i0 + 1u) * P.k + p] * bv;
        c2 = c2 + a[ab + (i0 + 2u) * P.k + p] * bv;
        c3 = c3 + a[ab + (i0 + 3u) * P.k + p] * bv;
    }}
    let cb = z * P.m * (P.n / 4u);
    c[cb + (i0 + 0u) * (P.n / 4u) + j4] = c0;
    c[cb + (i0 + 1u) * (P.n / 4u) + j4] = c1;
    c[cb + (i0 + 2u) * (P.n / 4u) + j4] = c2;
    c[cb + (i0 + 3u) * (P.n / 4u) + j4] = c3;
}}
"""

def smem(T, per, tpp):
    # `per` products per workgroup, each staged whole (A as rows of vec4 along k, B as rows of
    # vec4 along n) in workgroup memory by all invocations; `tpp` invocations per product:
    # 64 (4x4 outputs each) or 256 (4x1 rows x vec4: 1 row x 4 cols each).
    nt = per * tpp
    rows = 4 if tpp == 64 else 1
    acc_decl = " ".join(f"var c{r} = vec4<T>(T(0));" for r in range(rows))
    fm = "\n".join(
        f"        c{r} = c{r} + As[pa + (i0 + {r}u) * 8u + p4].x * Bs[pb + (p4 * 4u + 0u) * 8u + j4]"
        f" + As[pa + (i0 + {r}u) * 8u + p4].y * Bs[pb + (p4 * 4u + 1u) * 8u + j4]"
        f" + As[pa + (i0 + {r}u) * 8u + p4].z * Bs[pb + (p4 * 4u + 2u) * 8u + j4]"
        f" + As[pa + (i0 + {r}u) * 8u + p4].w * Bs[pb + (p4 * 4u + 3u) * 8u + j4];"
        for r in range(rows))
    st = "\n".join(f"    c[cb + (i0 + {r}u) * 8u + j4] = c{r};" for r in range(rows))
    i0 = "(l / 8u) * 4u" if tpp == 64 else "l / 8u"
    return f"""//! per_wg={per} dt={T}
alias T = {T};
""" + HDR.format(A='vec4<T>', B='vec4<T>', C='vec4<T>') + f"""
// n = 32 only: 8 vec4 per row.
var<workgroup> As: array<vec4<T>, {per * 256}>;
var<workgroup> Bs: array<vec4<T>, {per * 256}>;
@compute @workgroup_size({nt})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {{
    let g = wid.x + wid.y * nwg.x;
    let first = g * {per}u;
    for (var e = t; e < {per * 256}u; e = e + {nt}u) {{
        let q = e / 256u;
        var va = vec4<T>(T(0)); var vb = vec4<T>(T(0));
        if (first + q < P.batch) {{
            va = a[first * 256u + e];
            vb = b[first * 256u + e];
        }}
        As[e] = va; Bs[e] = vb;
    }}
    workgroupBarrier();
    let pl = t / {tpp}u;
    let z = first + pl;
    if (z >= P.batch) {{ return; }}
    let l = t % {tpp}u;
    let i0 = {i0};
    let j4 = l % 8u;
    let pa = pl * 256u; let pb = pl * 256u;
    {acc_decl}
    for (var p4 = 0u; p4 < 8u; p4 = p4 + 1u) {{
{fm}
    }}
    let cb = z * 256u;
{st}
}}
"""

out = {}
for T in ("f32", "f64"):
    out[f"lib_like_{T}"] = lib_like(T)
    out[f"direct4_{T}"] = direct(T, 4)
    out[f"direct1_{T}"] = direct(T, 1)
    out[f"smem4x64_{T}"] = smem(T, 4, 64)
    out[f"smem1x256_{T}"] = smem(T, 1, 256)
    out[f"smem2x64_{T}"] = smem(T, 2, 64)
for k, v in out.items():
    open(k + ".wgsl", "w").write(v)
print(" ".join(sorted(out)))

def loop_pf(T, tpp, groups, unroll=True):
    ppi = 256 // tpp          # products per iteration
    rows = 256 // tpp         # rows per thread (a thread of product q covers rows i, i+32/rows..)
    L = [f"//! per_wg=1 groups={groups} dt={T}", f"alias T = {T};",
         HDR.format(A='vec4<T>', B='vec4<T>', C='vec4<T>'),
         f"var<workgroup> As: array<vec4<T>, {2 * ppi * 256}>;",
         f"var<workgroup> Bs: array<vec4<T>, {2 * ppi * 256}>;",
         "@compute @workgroup_size(256)",
         "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,",
         "        @builtin(local_invocation_index) t: u32) {",
         "    let G = nwg.x * nwg.y;",
         f"    var z = (wid.x + wid.y * nwg.x) * {ppi}u;",
         f"    let step = G * {ppi}u;"]
    w = L.append
    for r in range(ppi):
        w(f"    var xa{r} = vec4<T>(T(0)); var xb{r} = vec4<T>(T(0));")
    def loads(zv):
        for r in range(ppi):
            w(f"    if ({zv} * 256u + {r * 256}u + t < P.batch * 256u) {{ xa{r} = a[{zv} * 256u + {r * 256}u + t]; xb{r} = b[{zv} * 256u + {r * 256}u + t]; }}")
    loads("z")
    w("    var buf = 0u;")
    w(f"    let q = t / {tpp}u; let l = t % {tpp}u;")
    w("    let j4 = l % 8u; let i0 = l / 8u;")
    w("    loop {")
    w("        if (z >= P.batch) { break; }")
    for r in range(ppi):
        w(f"        As[buf * {ppi * 256}u + {r * 256}u + t] = xa{r}; Bs[buf * {ppi * 256}u + {r * 256}u + t] = xb{r};")
    w("        workgroupBarrier();")
    w("        let zn = z + step;")
    loads("zn")
    w(f"        let pa = buf * {ppi * 256}u + q * 256u;")
    for r in range(rows):
        w(f"        var c{r} = vec4<T>(T(0));")
    rng = range(8) if unroll else None
    if unroll:
        for p4 in range(8):
            for r in range(rows):
                i = f"(i0 + {r * (32 // rows)}u)"
                w(f"        {{ let av = As[pa + {i} * 8u + {p4}u];")
                w(f"          c{r} = c{r} + av.x * Bs[pa + {p4 * 4 + 0}u * 8u + j4] + av.y * Bs[pa + {p4 * 4 + 1}u * 8u + j4] + av.z * Bs[pa + {p4 * 4 + 2}u * 8u + j4] + av.w * Bs[pa + {p4 * 4 + 3}u * 8u + j4]; }}")
    w(f"        if (z + q < P.batch) {{")
    for r in range(rows):
        w(f"            c[(z + q) * 256u + (i0 + {r * (32 // rows)}u) * 8u + j4] = c{r};")
    w("        }")
    w("        buf = 1u - buf;")
    w("        z = zn;")
    w("    }")
    w("}")
    return "\n".join(L) + "\n"

out = {}
for T in ("f32", "f64"):
    for tpp in (256, 128):
        for groups in (1056, 2112, 4224):
            out[f"loop_{T}_t{tpp}_g{groups}"] = loop_pf(T, tpp, groups)
for k, v in out.items():
    open(k + ".wgsl", "w").write(v)
print(" ".join(sorted(out)))

def gen32(T, groups, fast_a=True):
    # Production-shaped: m, n <= 32, k in slabs of 32; general signed strides (here C order,
    # read from the uniform so the compiler cannot fold them); scalar loads through midx;
    # the next slab prefetched into registers; Sa as [i][p] read as vec4 along p, Sb as [p][j]
    # read as vec4 along j; one product per iteration; alpha/beta in the store.
    L = f"""//! per_wg=1 groups={groups} dt={T}
alias T = {T};
""" + HDR.format(A='T', B='T', C='T') + f"""
var<workgroup> Sa: array<vec4<T>, 512>;
var<workgroup> Sb: array<vec4<T>, 512>;
fn midx(o: u32, i: u32, j: u32, rs: i32, cs: i32) -> u32 {{
    return u32(i32(o) + i32(i) * rs + i32(j) * cs);
}}
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {{
    let one = i32(min(P.batch, 1u));
    let rsa = i32(P.k) * one; let csa = one; let sba = i32(P.m * P.k) * one;
    let rsb = i32(P.n) * one; let csb = one; let sbb = i32(P.k * P.n) * one;
    let rsc = i32(P.n) * one; let csc = one; let sbc = i32(P.m * P.n) * one;
    let alpha = T(one); let beta = T(one - 1);
    let a_by_p = csa == 1 || csa == -1;   // A contiguous along k: consecutive invocations along p
    let b_by_j = csb == 1 || csb == -1;
    let G = nwg.x * nwg.y;
    let ns = (P.k + 31u) / 32u;
    var z = wid.x + wid.y * nwg.x;
    var s = 0u;
    var xa: array<T, 4>; var xb: array<T, 4>;
    // element e = t + 256 r of the 32x32 slab: (row, col) of the operand chosen for coalescing
    var buf = 0u;
    let i = t / 8u; let j4 = t % 8u;
    var acc = vec4<T>(T(0));
    // first prefetch
    for (var r = 0u; r < 4u; r = r + 1u) {{
        let e = t + 256u * r;
        var ia = e / 32u; var pa = e % 32u;
        if (!a_by_p) {{ ia = e % 32u; pa = e / 32u; }}
        var v = T(0);
        if (z < P.batch && ia < P.m && pa < P.k) {{ v = a[midx(u32(i32(z) * sba), ia, pa, rsa, csa)]; }}
        xa[r] = v;
        var pb = e / 32u; var jb = e % 32u;
        if (!b_by_j) {{ pb = e % 32u; jb = e / 32u; }}
        var w = T(0);
        if (z < P.batch && pb < P.k && jb < P.n) {{ w = b[midx(u32(i32(z) * sbb), pb, jb, rsb, csb)]; }}
        xb[r] = w;
    }}
    loop {{
        if (z >= P.batch) {{ break; }}
        for (var r = 0u; r < 4u; r = r + 1u) {{
            let e = t + 256u * r;
            var ia = e / 32u; var pa = e % 32u;
            if (!a_by_p) {{ ia = e % 32u; pa = e / 32u; }}
            Sa[buf * 256u + ia * 8u + pa / 4u][pa % 4u] = xa[r];
            var pb = e / 32u; var jb = e % 32u;
            if (!b_by_j) {{ pb = e % 32u; jb = e / 32u; }}
            Sb[buf * 256u + pb * 8u + jb / 4u][jb % 4u] = xb[r];
        }}
        workgroupBarrier();
        var zn = z; var sn = s + 1u;
        if (sn == ns) {{ zn = z + G; sn = 0u; }}
        for (var r = 0u; r < 4u; r = r + 1u) {{
            let e = t + 256u * r;
            var ia = e / 32u; var pa = e % 32u;
            if (!a_by_p) {{ ia = e % 32u; pa = e / 32u; }}
            let p = sn * 32u + pa;
            var v = T(0);
            if (zn < P.batch && ia < P.m && p < P.k) {{ v = a[midx(u32(i32(zn) * sba), ia, p, rsa, csa)]; }}
            xa[r] = v;
            var pb = e / 32u; var jb = e % 32u;
            if (!b_by_j) {{ pb = e % 32u; jb = e / 32u; }}
            let q = sn * 32u + pb;
            var w = T(0);
            if (zn < P.batch && q < P.k && jb < P.n) {{ w = b[midx(u32(i32(zn) * sbb), q, jb, rsb, csb)]; }}
            xb[r] = w;
        }}
        let ba = buf * 256u + i * 8u; let bb = buf * 256u + j4;
""" 
    for p4 in range(8):
        L += f"""        {{ let av = Sa[ba + {p4}u];
          acc = acc + av.x * Sb[bb + {(p4*4+0)*8}u] + av.y * Sb[bb + {(p4*4+1)*8}u] + av.z * Sb[bb + {(p4*4+2)*8}u] + av.w * Sb[bb + {(p4*4+3)*8}u]; }}
"""
    L += f"""        if (s + 1u == ns) {{
            if (i < P.m) {{
                let oc = u32(i32(z) * sbc);
                for (var q = 0u; q < 4u; q = q + 1u) {{
                    let j = j4 * 4u + q;
                    if (j < P.n) {{
                        let ic = midx(oc, i, j, rsc, csc);
                        var v = alpha * acc[q];
                        if (beta != T(0)) {{ v = v + beta * c[ic]; }}
                        c[ic] = v;
                    }}
                }}
            }}
            acc = vec4<T>(T(0));
        }}
        buf = 1u - buf;
        z = zn; s = sn;
    }}
}}
"""
    return L

out = {}
for T in ("f32", "f64"):
    for groups in (1056, 2112, 4224):
        out[f"gen32_{T}_g{groups}"] = gen32(T, groups)
for k, v in out.items():
    open(k + ".wgsl", "w").write(v)

def r10(T, jfast, per):
    mp = """    let bj = (t % tp % tpn) * 4u;
    let bi = (t % tp / tpn) * 4u;""" if jfast else """    let bi = (t % tp % tpm) * 4u;
    let bj = (t % tp / tpm) * 4u;"""
    return f"""//! per_wg={per} dt={T}
alias T = {T};
""" + HDR.format(A='T', B='T', C='T') + f"""
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {{
    let one = i32(min(P.batch, 1u));
    let rsa = i32(P.k) * one; let csa = one; let sba = i32(P.m * P.k) * one;
    let rsb = i32(P.n) * one; let csb = one; let sbb = i32(P.k * P.n) * one;
    let rsc = i32(P.n) * one; let csc = one; let sbc = i32(P.m * P.n) * one;
    let alpha = T(one); let beta = T(one - 1);
    let tpm = (P.m + 3u) / 4u;
    let tpn = (P.n + 3u) / 4u;
    let tp = tpm * tpn;
    let np = 256u / tp;
    let g = wid.x + wid.y * nwg.x;
    let lp = t / tp;
    let z = g * np + lp;
    let live = lp < np && z < P.batch;
{mp}
    var c0 = vec4<T>(T(0)); var c1 = vec4<T>(T(0)); var c2 = vec4<T>(T(0)); var c3 = vec4<T>(T(0));
    if (live) {{
        let oa = i32(z) * sba;
        let ob = i32(z) * sbb;
        let i0 = i32(min(bi, P.m - 1u)) * rsa;
        let i1 = i32(min(bi + 1u, P.m - 1u)) * rsa;
        let i2 = i32(min(bi + 2u, P.m - 1u)) * rsa;
        let i3 = i32(min(bi + 3u, P.m - 1u)) * rsa;
        let j0 = i32(min(bj, P.n - 1u)) * csb;
        let j1 = i32(min(bj + 1u, P.n - 1u)) * csb;
        let j2 = i32(min(bj + 2u, P.n - 1u)) * csb;
        let j3 = i32(min(bj + 3u, P.n - 1u)) * csb;
        var pa = oa;
        var pb = ob;
        for (var p = 0u; p < P.k; p = p + 1u) {{
            let bv = vec4<T>(b[u32(pb + j0)], b[u32(pb + j1)], b[u32(pb + j2)], b[u32(pb + j3)]);
            c0 = c0 + a[u32(pa + i0)] * bv;
            c1 = c1 + a[u32(pa + i1)] * bv;
            c2 = c2 + a[u32(pa + i2)] * bv;
            c3 = c3 + a[u32(pa + i3)] * bv;
            pa = pa + csa;
            pb = pb + rsb;
        }}
    }}
    if (!live) {{ return; }}
    let oc = i32(z) * sbc;
    let acc = array<vec4<T>, 4>(c0, c1, c2, c3);
    for (var r = 0u; r < 4u; r = r + 1u) {{
        let i = bi + r;
        for (var q = 0u; q < 4u; q = q + 1u) {{
            let j = bj + q;
            if (i < P.m && j < P.n) {{
                let ic = u32(oc + i32(i) * rsc + i32(j) * csc);
                var v = alpha * acc[r][q];
                if (beta != T(0)) {{ v = v + beta * c[ic]; }}
                c[ic] = v;
            }}
        }}
    }}
}}
"""

out = {}
for T in ("f32", "f64"):
    for jf in (0, 1):
        out[f"r10_{'j' if jf else 'i'}_{T}_n32"] = r10(T, jf, 4)
        out[f"r10_{'j' if jf else 'i'}_{T}_n16"] = r10(T, jf, 16)
for k, v in out.items():
    open(k + ".wgsl", "w").write(v)

def r10x(T, per, vec_store):
    base = r10(T, True, per)
    head, tail = base.split("    if (!live) { return; }\n    let oc")
    ep = ["    if (!live) { return; }",
          "    let oc = i32(z) * sbc;"]
    for r in range(4):
        for q in range(4):
            comp = "xyzw"[q]
            ep.append(f"    if (bi + {r}u < P.m && bj + {q}u < P.n) {{ let ic = u32(oc + i32(bi + {r}u) * rsc + i32(bj + {q}u) * csc);"
                      f" var v = alpha * c{r}.{comp}; if (beta != T(0)) {{ v = v + beta * c[ic]; }} c[ic] = v; }}")
    ep.append("}")
    return head + "\n".join(ep) + "\n"

out = {}
for T in ("f32", "f64"):
    out[f"r10x_{T}_n32"] = r10x(T, 4, False)
    out[f"r10x_{T}_n16"] = r10x(T, 16, False)
for k, v in out.items():
    open(k + ".wgsl", "w").write(v)

def r10u(T, per):
    s = r10x(T, per, False)
    body_old = """        for (var p = 0u; p < P.k; p = p + 1u) {"""
    step = """            {{ let bv = vec4<T>(b[u32(pb + j0)], b[u32(pb + j1)], b[u32(pb + j2)], b[u32(pb + j3)]);
            c0 = c0 + a[u32(pa + i0)] * bv;
            c1 = c1 + a[u32(pa + i1)] * bv;
            c2 = c2 + a[u32(pa + i2)] * bv;
            c3 = c3 + a[u32(pa + i3)] * bv;
            pa = pa + csa;
            pb = pb + rsb; }}
"""
    unrolled = "        let k4 = P.k / 4u * 4u;\n        for (var p = 0u; p < k4; p = p + 4u) {\n" + "".join(step.format() for _ in range(4)) + "        }\n        for (var p = k4; p < P.k; p = p + 1u) {"
    assert body_old in s
    return s.replace(body_old, unrolled)

out = {}
for T in ("f32", "f64"):
    out[f"r10u_{T}_n32"] = r10u(T, 4)
    out[f"r10u_{T}_n16"] = r10u(T, 16)
for k, v in out.items():
    open(k + ".wgsl", "w").write(v)
