// Arithmetic on device scalars (GpuScalar), one invocation:
//   OP = 0  out = a / b
//   OP = 1  out = -a
//   OP = 2  out = 1 / a
//   OP = 3  out = 1 if the f32 a is not ±0 (NaN and Inf included), else 0, as f32
//   OP = 4  the same for the f64 a (words a_word, a_word + 1), as f64 (two words)
// a and b are f32 values (f64 for OP 4) at word offsets of their buffers (a reduction's
// scratch, say). OP 3 and 4 test bit patterns (no comparison a NaN could defeat): strsm's
// device alpha = 0 rule (`blas/level3/trsm.rs`).

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
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
    let x = bitcast<f32>(a[P.a_word]);
    let y = bitcast<f32>(b[P.b_word]);
    switch OP {
        case 1u: {
            out[0] = bitcast<u32>(-x);
        }
        case 2u: {
            out[0] = bitcast<u32>(1.0 / x);
        }
        case 3u: {
            out[0] = select(0x3f800000u, 0u, (a[P.a_word] & 0x7fffffffu) == 0u);
        }
        case 4u: {
            let zero = a[P.a_word] == 0u && (a[P.a_word + 1u] & 0x7fffffffu) == 0u;
            out[0] = 0u;
            out[1] = select(0x3ff00000u, 0u, zero);
        }
        default: {
            out[0] = bitcast<u32>(x / y);
        }
    }
}
