#!/usr/bin/env python3
"""Generate sgemm probe kernels (NN, C order, whole tiles only) for examples/tile_probe.rs."""
import itertools, os, sys

def kernel(bm=128, bn=128, bk=16, nbuf=2, unroll=True, lx=None, g=None, fma=False, style='vars',
           tm=8, tn=8):
    # tm x tn: the register tile of C per invocation (multiples of 4; 8x8 as the engine, or
    # larger with style 'vars': 8x16 or 16x8 give 128x256 or 256x128 tiles at 256 invocations).
    assert tm % 4 == 0 and tn % 4 == 0 and (style == 'vars' or (tm, tn) == (8, 8))
    ta, tb = tm // 4, tn // 4  # vec4s of A and B per k step
    nt = bm * bn // (tm * tn)
    if lx is None:           # the engine's mapping: one group = the workgroup
        lx, g = bn // tn, nt
    ly = g // lx
    wm, wn = ly * tm, lx * tn
    gm, gn = bm // wm, bn // wn
    assert gm * gn * g == nt, (bm, bn, lx, g)
    ra = bm * bk // 4 // nt
    rb = bk * bn // 4 // nt
    assert ra >= 1 and rb >= 1 and bm * bk // 4 % nt == 0 and bk * bn // 4 % nt == 0
    L = []
    w = L.append
    w(f"//! bm={bm} bn={bn} bk={bk} nbuf={nbuf} unroll={int(unroll)} lx={lx} g={g} tm={tm} tn={tn}")
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
    for h in range(ta):
        w(f"  let ar{h} = (rm + {h * (wm // ta)}u) / 4u;")
    for h in range(tb):
        w(f"  let bc{h} = (cn + {h * (wn // tb)}u) / 4u;")
    if style == 'vars':
        for q in range(ta * 4 * tb):
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
    def fmas(av_list, bv_list):
        if style != 'vars':
            a0, a1 = av_list
            b0, b1 = bv_list
        if style == 'priv':
            w(f"      macp({a0}, {a1}, {b0}, {b1});")
            return
        if style != 'vars':
            w(f"      mac(&acc, {a0}, {a1}, {b0}, {b1});")
            return
        k = 0
        for av in av_list:
            for comp in "xyzw":
                for bv in bv_list:
                    if fma:
                        w(f"      c{k} = fma(vec4<f32>({av}.{comp}), {bv}, c{k});")
                    else:
                        w(f"      c{k} = c{k} + {av}.{comp} * {bv};")
                    k += 1
    def reads(ab, bb, pa, pb):
        # One k step: the ta vec4s of A and tb of B from workgroup memory, then the products.
        for h in range(ta):
            w(f"      let a{h} = As[{ab} + {pa} + ar{h}];")
        for h in range(tb):
            w(f"      let b{h} = Bs[{bb} + {pb} + bc{h}];")
        fmas([f"a{h}" for h in range(ta)], [f"b{h}" for h in range(tb)])
    def compute(buf):
        ab = f"({buf}) * {bk * bm // 4}u"
        bb = f"({buf}) * {bk * bn // 4}u"
        if unroll == 4:
            w(f"    for (var p4 = 0u; p4 < {bk}u; p4 = p4 + 4u) {{")
            for q in range(4):
                w("    {")
                w(f"      let p = p4 + {q}u;")
                reads(ab, bb, f"p * {bm // 4}u", f"p * {bn // 4}u")
                w("    }")
            w("    }")
        elif unroll:
            for p in range(bk):
                w("    {")
                reads(ab, bb, f"{p * bm // 4}u", f"{p * bn // 4}u")
                w("    }")
        else:
            w(f"    for (var p = 0u; p < {bk}u; p = p + 1u) {{")
            reads(ab, bb, f"p * {bm // 4}u", f"p * {bn // 4}u")
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
    for half_m in range(ta):
        for r in range(4):
            row = f"(i0 + rm + {half_m * (wm // ta) + r}u)"
            for half_n in range(tb):
                col4 = f"(j0 + cn + {half_n * (wn // tb)}u) / 4u"
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

# Larger register tiles per invocation (issue 11): 8x16 and 16x8 outputs, 128x256 and 256x128
# workgroup tiles at 256 invocations (48 KiB of workgroup memory double-buffered at bk 16, so
# single-buffered ones too), 128x128 at 128 invocations, and the engine's 8x8 reference.
BIG = {
    "eng_128x128_nb1": dict(nbuf=1),
    "r8x16_128x256": dict(bn=256, tn=16),
    "r8x16_128x256_nb1": dict(bn=256, tn=16, nbuf=1),
    "r16x8_256x128": dict(bm=256, tm=16),
    "r16x8_256x128_nb1": dict(bm=256, tm=16, nbuf=1),
    "r8x16_128x128": dict(tn=16),
    "r16x8_128x128_nb1": dict(tm=16, nbuf=1),
    "r8x16_64x256_nb1": dict(bm=64, bn=256, tn=16, nbuf=1),
    "r8x16_128x256_bk8": dict(bn=256, tn=16, bk=8),
}

SETS = {"r7": VARIANTS, "big": BIG}

if __name__ == "__main__":
    # python3 tools/tile_probe_gen.py DIR [SET]: SET r7 (the default, the last set measured)
    # or big (the larger register tiles).
    out = sys.argv[1]
    chosen = SETS[sys.argv[2] if len(sys.argv) > 2 else "r7"]
    os.makedirs(out, exist_ok=True)
    for name, kw in chosen.items():
        with open(os.path.join(out, name + ".wgsl"), "w") as f:
            f.write(kernel(**kw))
    print(" ".join(sorted(chosen)))
