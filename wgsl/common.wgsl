// Shared helpers, prepended to every shader after `alias T = f32;` (or f64).

// The one encoding of a triangle in every shader (the `UPLO` overrides; gemm.wgsl's TRI_C,
// K_TRI and A_UPLO): none (the whole matrix), lower, upper. Rust: `drivers::uplo`.
const UPLO_NONE: u32 = 0u;
const UPLO_LOWER: u32 = 1u;
const UPLO_UPPER: u32 = 2u;

// Linear workgroup index of a grid split over x and y (see `Context::grid`).
fn linear_group(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

// Index of vector element `i` at offset `off` with signed stride `inc`.
fn vidx(off: u32, i: u32, inc: i32) -> u32 {
    return u32(i32(off) + i32(i) * inc);
}

// Index of matrix element (i, j) at offset `off` with signed strides `rs`, `cs`.
fn midx(off: u32, i: u32, j: u32, rs: i32, cs: i32) -> u32 {
    return u32(i32(off) + i32(i) * rs + i32(j) * cs);
}

// Special values are tested through bit patterns, never by comparing floats (DESIGN.md §3):
// WGSL lets an implementation assume that no operand of a comparison is NaN, and naga emits
// ordered SPIR-V comparisons, so `alpha != 0.0` is false for a NaN alpha on Vulkan. A NaN or
// Inf alpha or beta is not 0.

// Whether v is +0 or -0 (false for NaN, Inf and every other value).
fn f32_is_zero(v: f32) -> bool {
    return (bitcast<u32>(v) & 0x7fffffffu) == 0u;
}

// Whether v is exactly 1.0.
fn f32_is_one(v: f32) -> bool {
    return bitcast<u32>(v) == 0x3f800000u;
}
