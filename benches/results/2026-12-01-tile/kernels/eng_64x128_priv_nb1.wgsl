//! bm=64 bn=128 bk=16 nbuf=1 unroll=1 lx=16 g=128
struct Params { m: u32, n: u32, k: u32, pad: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> c: array<vec4<f32>>;
var<workgroup> As: array<vec4<f32>, 256>;
var<workgroup> Bs: array<vec4<f32>, 512>;
var<private> c0: vec4<f32>;
var<private> c1: vec4<f32>;
var<private> c2: vec4<f32>;
var<private> c3: vec4<f32>;
var<private> c4: vec4<f32>;
var<private> c5: vec4<f32>;
var<private> c6: vec4<f32>;
var<private> c7: vec4<f32>;
var<private> c8: vec4<f32>;
var<private> c9: vec4<f32>;
var<private> c10: vec4<f32>;
var<private> c11: vec4<f32>;
var<private> c12: vec4<f32>;
var<private> c13: vec4<f32>;
var<private> c14: vec4<f32>;
var<private> c15: vec4<f32>;
fn macp(a0: vec4<f32>, a1: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>) {
  c0 = c0 + a0.x * b0;
  c1 = c1 + a0.x * b1;
  c2 = c2 + a0.y * b0;
  c3 = c3 + a0.y * b1;
  c4 = c4 + a0.z * b0;
  c5 = c5 + a0.z * b1;
  c6 = c6 + a0.w * b0;
  c7 = c7 + a0.w * b1;
  c8 = c8 + a1.x * b0;
  c9 = c9 + a1.x * b1;
  c10 = c10 + a1.y * b0;
  c11 = c11 + a1.y * b1;
  c12 = c12 + a1.z * b0;
  c13 = c13 + a1.z * b1;
  c14 = c14 + a1.w * b0;
  c15 = c15 + a1.w * b1;
}
@compute @workgroup_size(128)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let i0 = wid.y * 64u; let j0 = wid.x * 128u;
  let k4 = P.k / 4u; let n4 = P.n / 4u;
  let grp = t / 128u; let lane = t % 128u;
  let lxx = lane % 16u; let lyy = lane / 16u;
  let rm = (grp / 1u) * 64u + lyy * 4u;   // first row of the thread's tile, in the workgroup tile
  let cn = (grp % 1u) * 128u + lxx * 4u;
  let ar0 = rm / 4u; let ar1 = (rm + 32u) / 4u;
  let bc0 = cn / 4u; let bc1 = (cn + 64u) / 4u;
  c0 = vec4<f32>(0.0);
  c1 = vec4<f32>(0.0);
  c2 = vec4<f32>(0.0);
  c3 = vec4<f32>(0.0);
  c4 = vec4<f32>(0.0);
  c5 = vec4<f32>(0.0);
  c6 = vec4<f32>(0.0);
  c7 = vec4<f32>(0.0);
  c8 = vec4<f32>(0.0);
  c9 = vec4<f32>(0.0);
  c10 = vec4<f32>(0.0);
  c11 = vec4<f32>(0.0);
  c12 = vec4<f32>(0.0);
  c13 = vec4<f32>(0.0);
  c14 = vec4<f32>(0.0);
  c15 = vec4<f32>(0.0);
  var xa0: vec4<f32>;
  var xa1: vec4<f32>;
  var xb0: vec4<f32>;
  var xb1: vec4<f32>;
  var xb2: vec4<f32>;
  var xb3: vec4<f32>;
  let slabs = P.k / 16u;
  for (var s = 0u; s < slabs; s = s + 1u) {
    { let e = t + 0u; xa0 = a[(i0 + e / 4u) * k4 + (s * 16u) / 4u + e % 4u]; }
    { let e = t + 128u; xa1 = a[(i0 + e / 4u) * k4 + (s * 16u) / 4u + e % 4u]; }
    { let e = t + 0u; xb0 = b[((s * 16u) + e / 32u) * n4 + j0 / 4u + e % 32u]; }
    { let e = t + 128u; xb1 = b[((s * 16u) + e / 32u) * n4 + j0 / 4u + e % 32u]; }
    { let e = t + 256u; xb2 = b[((s * 16u) + e / 32u) * n4 + j0 / 4u + e % 32u]; }
    { let e = t + 384u; xb3 = b[((s * 16u) + e / 32u) * n4 + j0 / 4u + e % 32u]; }
    { let e = t + 0u; let il = e / 4u; let pl = (e % 4u) * 4u;
      let base = (0u) * 256u + il / 4u; let ln = il % 4u;
      As[base + (pl + 0u) * 16u][ln] = xa0.x;
      As[base + (pl + 1u) * 16u][ln] = xa0.y;
      As[base + (pl + 2u) * 16u][ln] = xa0.z;
      As[base + (pl + 3u) * 16u][ln] = xa0.w;
    }
    { let e = t + 128u; let il = e / 4u; let pl = (e % 4u) * 4u;
      let base = (0u) * 256u + il / 4u; let ln = il % 4u;
      As[base + (pl + 0u) * 16u][ln] = xa1.x;
      As[base + (pl + 1u) * 16u][ln] = xa1.y;
      As[base + (pl + 2u) * 16u][ln] = xa1.z;
      As[base + (pl + 3u) * 16u][ln] = xa1.w;
    }
    Bs[(0u) * 512u + t + 0u] = xb0;
    Bs[(0u) * 512u + t + 128u] = xb1;
    Bs[(0u) * 512u + t + 256u] = xb2;
    Bs[(0u) * 512u + t + 384u] = xb3;
    workgroupBarrier();
    {
      let a0 = As[(0u) * 256u + 0u + ar0]; let a1 = As[(0u) * 256u + 0u + ar1];
      let b0 = Bs[(0u) * 512u + 0u + bc0]; let b1 = Bs[(0u) * 512u + 0u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 16u + ar0]; let a1 = As[(0u) * 256u + 16u + ar1];
      let b0 = Bs[(0u) * 512u + 32u + bc0]; let b1 = Bs[(0u) * 512u + 32u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 32u + ar0]; let a1 = As[(0u) * 256u + 32u + ar1];
      let b0 = Bs[(0u) * 512u + 64u + bc0]; let b1 = Bs[(0u) * 512u + 64u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 48u + ar0]; let a1 = As[(0u) * 256u + 48u + ar1];
      let b0 = Bs[(0u) * 512u + 96u + bc0]; let b1 = Bs[(0u) * 512u + 96u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 64u + ar0]; let a1 = As[(0u) * 256u + 64u + ar1];
      let b0 = Bs[(0u) * 512u + 128u + bc0]; let b1 = Bs[(0u) * 512u + 128u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 80u + ar0]; let a1 = As[(0u) * 256u + 80u + ar1];
      let b0 = Bs[(0u) * 512u + 160u + bc0]; let b1 = Bs[(0u) * 512u + 160u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 96u + ar0]; let a1 = As[(0u) * 256u + 96u + ar1];
      let b0 = Bs[(0u) * 512u + 192u + bc0]; let b1 = Bs[(0u) * 512u + 192u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 112u + ar0]; let a1 = As[(0u) * 256u + 112u + ar1];
      let b0 = Bs[(0u) * 512u + 224u + bc0]; let b1 = Bs[(0u) * 512u + 224u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 128u + ar0]; let a1 = As[(0u) * 256u + 128u + ar1];
      let b0 = Bs[(0u) * 512u + 256u + bc0]; let b1 = Bs[(0u) * 512u + 256u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 144u + ar0]; let a1 = As[(0u) * 256u + 144u + ar1];
      let b0 = Bs[(0u) * 512u + 288u + bc0]; let b1 = Bs[(0u) * 512u + 288u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 160u + ar0]; let a1 = As[(0u) * 256u + 160u + ar1];
      let b0 = Bs[(0u) * 512u + 320u + bc0]; let b1 = Bs[(0u) * 512u + 320u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 176u + ar0]; let a1 = As[(0u) * 256u + 176u + ar1];
      let b0 = Bs[(0u) * 512u + 352u + bc0]; let b1 = Bs[(0u) * 512u + 352u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 192u + ar0]; let a1 = As[(0u) * 256u + 192u + ar1];
      let b0 = Bs[(0u) * 512u + 384u + bc0]; let b1 = Bs[(0u) * 512u + 384u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 208u + ar0]; let a1 = As[(0u) * 256u + 208u + ar1];
      let b0 = Bs[(0u) * 512u + 416u + bc0]; let b1 = Bs[(0u) * 512u + 416u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 224u + ar0]; let a1 = As[(0u) * 256u + 224u + ar1];
      let b0 = Bs[(0u) * 512u + 448u + bc0]; let b1 = Bs[(0u) * 512u + 448u + bc1];
      macp(a0, a1, b0, b1);
    }
    {
      let a0 = As[(0u) * 256u + 240u + ar0]; let a1 = As[(0u) * 256u + 240u + ar1];
      let b0 = Bs[(0u) * 512u + 480u + bc0]; let b1 = Bs[(0u) * 512u + 480u + bc1];
      macp(a0, a1, b0, b1);
    }
    workgroupBarrier();
  }
  c[(i0 + rm + 0u) * n4 + (j0 + cn + 0u) / 4u] = c0;
  c[(i0 + rm + 0u) * n4 + (j0 + cn + 64u) / 4u] = c1;
  c[(i0 + rm + 1u) * n4 + (j0 + cn + 0u) / 4u] = c2;
  c[(i0 + rm + 1u) * n4 + (j0 + cn + 64u) / 4u] = c3;
  c[(i0 + rm + 2u) * n4 + (j0 + cn + 0u) / 4u] = c4;
  c[(i0 + rm + 2u) * n4 + (j0 + cn + 64u) / 4u] = c5;
  c[(i0 + rm + 3u) * n4 + (j0 + cn + 0u) / 4u] = c6;
  c[(i0 + rm + 3u) * n4 + (j0 + cn + 64u) / 4u] = c7;
  c[(i0 + rm + 32u) * n4 + (j0 + cn + 0u) / 4u] = c8;
  c[(i0 + rm + 32u) * n4 + (j0 + cn + 64u) / 4u] = c9;
  c[(i0 + rm + 33u) * n4 + (j0 + cn + 0u) / 4u] = c10;
  c[(i0 + rm + 33u) * n4 + (j0 + cn + 64u) / 4u] = c11;
  c[(i0 + rm + 34u) * n4 + (j0 + cn + 0u) / 4u] = c12;
  c[(i0 + rm + 34u) * n4 + (j0 + cn + 64u) / 4u] = c13;
  c[(i0 + rm + 35u) * n4 + (j0 + cn + 0u) / 4u] = c14;
  c[(i0 + rm + 35u) * n4 + (j0 + cn + 64u) / 4u] = c15;
}
