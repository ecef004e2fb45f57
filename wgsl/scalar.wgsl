// Arithmetic on device scalars (GpuScalar), one invocation:
//   OP = 0  out = a / b
//   OP = 1  out = -a
//   OP = 2  out = 1 / a
// a and b are f32 values at word offsets of their buffers (a reduction's scratch, say).

override OP: u32 = 0u;

struct Params {
    a_word: u32,
    b_word: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> a: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let x = bitcast<f32>(a[P.a_word]);
    let y = bitcast<f32>(b[P.b_word]);
    switch OP {
        case 1u: {
            out[0] = -x;
        }
        case 2u: {
            out[0] = 1.0 / x;
        }
        default: {
            out[0] = x / y;
        }
    }
}
