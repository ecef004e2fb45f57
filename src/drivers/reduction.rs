//! Reduction Level 1 driver (`wgsl/level1/reduction.wgsl`): a grid-stride partial pass and a
//! one-workgroup final pass, pairwise (tree) summation in both.

use crate::context::Context;
use crate::error::Result;
use crate::launch::Dispatch;
use crate::layout::VecOperand;

super::shader!(SHADER, "level1/reduction.wgsl");

const WG: u64 = 256;
/// At most this many workgroups in the partial pass: beyond it each invocation loops.
const MAX_GROUPS: u64 = 1024;

/// The reduced term (the shader's `OP` override).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op {
    /// `Σ x_i·y_i`.
    Dot = 0,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    groups: u32,
    _pad: [u32; 2],
}

/// The scratch buffer of one reduction: `groups` partial results, then the total.
pub(crate) struct Scratch {
    pub buffer: wgpu::Buffer,
    pub groups: u32,
}

impl Scratch {
    pub fn new(ctx: &Context, n: usize) -> Self {
        let groups = (n as u64).div_ceil(WG).clamp(1, MAX_GROUPS) as u32;
        Scratch {
            buffer: ctx.zeroed((groups as u64 + 1) * 4),
            groups,
        }
    }

    /// Index of the total in `buffer`.
    pub fn total_index(&self) -> usize {
        self.groups as usize
    }
}

/// The two dispatches reducing `op` over `x` (and `y`) into `scratch`.
pub(crate) fn dispatches<'a>(
    op: Op,
    x: &'a VecOperand,
    y: &'a VecOperand,
    scratch: &'a Scratch,
) -> Vec<Dispatch<'a>> {
    let params = Params {
        n: x.len as u32,
        offx: x.offset,
        incx: x.inc,
        offy: y.offset,
        incy: y.inc,
        groups: scratch.groups,
        _pad: [0; 2],
    };
    let c = [("OP", op as u32 as f64)];
    vec![
        Dispatch::new(
            &SHADER,
            "partial_sums",
            &params,
            &[&x.buffer, &y.buffer, &scratch.buffer],
            [scratch.groups, 1, 1],
        )
        .constants(&c),
        Dispatch::new(&SHADER, "final_sum", &params, &[], [1, 1, 1])
            .bindings(&[(3, &scratch.buffer)])
            .constants(&c),
    ]
}

/// Run the reduction and read the total back.
pub(crate) fn run(
    ctx: &Context,
    routine: &'static str,
    op: Op,
    x: &VecOperand,
    y: &VecOperand,
) -> Result<f32> {
    let scratch = Scratch::new(ctx, x.len);
    let d = dispatches(op, x, y, &scratch);
    let out = ctx.execute::<f32>(routine, &d, &[(&scratch.buffer, scratch.total_index() + 1)])?;
    Ok(out[0][scratch.total_index()])
}
