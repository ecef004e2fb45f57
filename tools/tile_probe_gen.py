#!/usr/bin/env python3
"""Generate sgemm probe kernels (NN, C order, whole tiles only) for examples/tile_probe.rs."""
import itertools, os, sys

def kernel(bm=128, bn=128, bk=16, nbuf=2, unroll=True, lx=None, g=None, fma=False, style='vars'):
    nt = bm * bn // 64
    if lx is None:           # the engine's mapping: one group = the workgroup
        lx, g = bn // 8, nt
    ly = g // lx
    wm, wn = ly * 8, lx * 8
    gm, gn = bm // wm, bn // wn
    assert gm * gn * g == nt, (bm, bn, lx, g)
    ra = bm * bk // 4 // nt
    rb = bk * bn // 4 // nt
    assert ra >= 1 and rb >= 1 and bm * bk // 4 % nt == 0 and bk * bn // 4 % nt == 0
    L = []
    w = L.append
    w(f"//! bm={bm} bn={bn} bk={bk} nbuf={nbuf} unroll={int(unroll)} lx={lx} g={g}")
    w("struct Params { m: u32, n: u32, k: u32, pad: u32 }")
    w("@group(0) @binding(0) var<uniform> P: Params;")
    w("@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;")
    w("@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;")
    w("@group(0) @binding(3) var<storage, read_write> c: array<vec4<f32>>;")
    w(f"var<workgroup> As: array<vec4<f32>, {nbuf * bk * bm // 4}>;")
    w(f"var<workgroup> Bs: array<vec4<f32>, {nbuf * bk * bn // 4}>;")
    if style == 'priv':
        for q in range(16):
            w(f"var<private> c{q}: vec4<f32>;")
        w("fn macp(a0: vec4<f32>, a1: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>) {")
        k = 0
        for av in ("a0", "a1"):
            for comp in "xyzw":
                for bv in ("b0", "b1"):
                    w(f"  c{k} = c{k} + {av}.{comp} * {bv};")
                    k += 1
        w("}")
    if style == 'fn':
        w("fn mac(c: ptr<function, array<vec4<f32>, 16>>, a0: vec4<f32>, a1: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>) {")
        k = 0
        for av in ("a0", "a1"):
            for comp in "xyzw":
                for bv in ("b0", "b1"):
                    w(f"  (*c)[{k}] = (*c)[{k}] + {av}.{comp} * {bv};")
                    k += 1
        w("}")
    w(f"@compute @workgroup_size({nt})")
    w("fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {")
    w(f"  let i0 = wid.y * {bm}u; let j0 = wid.x * {bn}u;")
    w("  let k4 = P.k / 4u; let n4 = P.n / 4u;")
    w(f"  let grp = t / {g}u; let lane = t % {g}u;")
    w(f"  let lxx = lane % {lx}u; let lyy = lane / {lx}u;")
    w(f"  let rm = (grp / {gn}u) * {wm}u + lyy * 4u;   // first row of the thread's tile, in the workgroup tile")
    w(f"  let cn = (grp % {gn}u) * {wn}u + lxx * 4u;")
    w(f"  let ar0 = rm / 4u; let ar1 = (rm + {wm // 2}u) / 4u;")
    w(f"  let bc0 = cn / 4u; let bc1 = (cn + {wn // 2}u) / 4u;")
    if style == 'vars':
        for q in range(16):
            w(f"  var c{q} = vec4<f32>(0.0);")
    elif style == 'priv':
        for q in range(16):
            w(f"  c{q} = vec4<f32>(0.0);")
    else:
        w("  var acc: array<vec4<f32>, 16>;")
    for r in range(ra):
        w(f"  var xa{r}: vec4<f32>;")
    for r in range(rb):
        w(f"  var xb{r}: vec4<f32>;")
    def loads(p0):
        for r in range(ra):
            # element e = t + r*nt of the A slab: row e / (bk/4), vec4 e % (bk/4) along k
            w(f"    {{ let e = t + {r * nt}u; xa{r} = a[(i0 + e / {bk // 4}u) * k4 + ({p0}) / 4u + e % {bk // 4}u]; }}")
        for r in range(rb):
            w(f"    {{ let e = t + {r * nt}u; xb{r} = b[(({p0}) + e / {bn // 4}u) * n4 + j0 / 4u + e % {bn // 4}u]; }}")
    def stores(buf):
        for r in range(ra):
            w(f"    {{ let e = t + {r * nt}u; let il = e / {bk // 4}u; let pl = (e % {bk // 4}u) * 4u;")
            w(f"      let base = ({buf}) * {bk * bm // 4}u + il / 4u; let ln = il % 4u;")
            for q, comp in enumerate("xyzw"):
                w(f"      As[base + (pl + {q}u) * {bm // 4}u][ln] = xa{r}.{comp};")
            w("    }")
        for r in range(rb):
            w(f"    Bs[({buf}) * {bk * bn // 4}u + t + {r * nt}u] = xb{r};")
    def fmas(a0, a1, b0, b1):
        if style == 'priv':
            w(f"      macp({a0}, {a1}, {b0}, {b1});")
            return
        if style != 'vars':
            w(f"      mac(&acc, {a0}, {a1}, {b0}, {b1});")
            return
        k = 0
        for av in (a0, a1):
            for comp in "xyzw":
                for bv in (b0, b1):
                    if fma:
                        w(f"      c{k} = fma(vec4<f32>({av}.{comp}), {bv}, c{k});")
                    else:
                        w(f"      c{k} = c{k} + {av}.{comp} * {bv};")
                    k += 1
    def compute(buf):
        ab = f"({buf}) * {bk * bm // 4}u"
        bb = f"({buf}) * {bk * bn // 4}u"
        if unroll == 4:
            w(f"    for (var p4 = 0u; p4 < {bk}u; p4 = p4 + 4u) {{")
            for q in range(4):
                w("    {")
                w(f"      let p = p4 + {q}u;")
                w(f"      let a0 = As[{ab} + p * {bm // 4}u + ar0]; let a1 = As[{ab} + p * {bm // 4}u + ar1];")
                w(f"      let b0 = Bs[{bb} + p * {bn // 4}u + bc0]; let b1 = Bs[{bb} + p * {bn // 4}u + bc1];")
                fmas("a0", "a1", "b0", "b1")
                w("    }")
            w("    }")
        elif unroll:
            for p in range(bk):
                w("    {")
                w(f"      let a0 = As[{ab} + {p * bm // 4}u + ar0]; let a1 = As[{ab} + {p * bm // 4}u + ar1];")
                w(f"      let b0 = Bs[{bb} + {p * bn // 4}u + bc0]; let b1 = Bs[{bb} + {p * bn // 4}u + bc1];")
                fmas("a0", "a1", "b0", "b1")
                w("    }")
        else:
            w(f"    for (var p = 0u; p < {bk}u; p = p + 1u) {{")
            w(f"      let a0 = As[{ab} + p * {bm // 4}u + ar0]; let a1 = As[{ab} + p * {bm // 4}u + ar1];")
            w(f"      let b0 = Bs[{bb} + p * {bn // 4}u + bc0]; let b1 = Bs[{bb} + p * {bn // 4}u + bc1];")
            fmas("a0", "a1", "b0", "b1")
            w("    }")
    w(f"  let slabs = P.k / {bk}u;")
    if nbuf == 2:
        loads("0u")
        stores("0u")
        w("  workgroupBarrier();")
        w("  for (var s = 0u; s < slabs; s = s + 1u) {")
        w("    let cur = s & 1u;")
        w("    let more = s + 1u < slabs;")
        w("    if (more) {")
        loads(f"(s + 1u) * {bk}u")
        w("    }")
        compute("cur")
        w("    if (more) {")
        stores("1u - cur")
        w("    }")
        w("    workgroupBarrier();")
        w("  }")
    else:
        w("  for (var s = 0u; s < slabs; s = s + 1u) {")
        loads(f"s * {bk}u")
        stores("0u")
        w("    workgroupBarrier();")
        compute("0u")
        w("    workgroupBarrier();")
        w("  }")
    k = 0
    for half_m in (0, 1):
        for r in range(4):
            row = f"(i0 + rm + {half_m * (wm // 2) + r}u)"
            for half_n in (0, 1):
                col4 = f"(j0 + cn + {half_n * (wn // 2)}u) / 4u"
                w(f"  c[{row} * n4 + {col4}] = " + (f"acc[{k}];" if style == 'fn' else f"c{k};"))
                k += 1
    w("}")
    return "\n".join(L) + "\n"

VARIANTS = {
    "eng_64x128": dict(bm=64),
    "eng_64x128_priv": dict(bm=64, style='priv'),
    "eng_64x128_fn": dict(bm=64, style='fn'),
    "eng_64x128_nb1": dict(bm=64, nbuf=1),
    "eng_64x128_priv_nb1": dict(bm=64, style='priv', nbuf=1),
    "eng_128x128_nb1": dict(nbuf=1),
    "eng_128x128_priv_nb1": dict(nbuf=1, style='priv'),
}

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, kw in VARIANTS.items():
        with open(os.path.join(out, name + ".wgsl"), "w") as f:
            f.write(kernel(**kw))
    print(" ".join(sorted(VARIANTS)))
