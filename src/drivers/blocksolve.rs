//! Triangular solve with many right-hand sides (Level 3, `strsm`), recursive: the rows split
//! in two halves, the first half (in solve order) solved recursively, the second half updated
//! by one tile-engine product (`wgsl/level3/gemm.wgsl`, through [`matmul::engine`]) of depth
//! r/2, r/4, ..., then solved recursively; blocks of [`NB`] rows are solved directly
//! (`wgsl/level3/trsm.wgsl`). All the dispatches go in one submission.
//!
//! This is the recursive blocked substitution (Elmroth, Gustavson, Jonsson and Kågström,
//! "Recursive blocked algorithms and hybrid data structures for dense matrix library
//! software", SIAM Review 46(1), 2004; Higham, *Accuracy and Stability of Numerical
//! Algorithms*, 2nd ed., §13.1 and Thm. 8.5 for the blocks): almost all of the r²·n flops are
//! in large products, at the engine's gemm speed, instead of in r/NB updates of depth NB.
//! `alpha` is applied once: the first block solved scales its rows, the first update of a row
//! range scales it (`beta = alpha`), every later step uses 1.
//!
//! Block size `NB = 32`: the block solve is the serial part (one invocation per right-hand
//! side walks the block's rows), and a 32×32 triangle plus a 32×64 block of X fit 12 KiB of
//! workgroup memory, inside WebGPU's 16 KiB default.

use super::matmul::{self, Operand, Variant};
use crate::context::Context;
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::pool::Buf;

super::shader!(SHADER, "level3/trsm.wgsl");

/// Rows per diagonal block (the shader's `NB`).
pub(crate) const NB: usize = 32;
/// Right-hand sides per block-solve workgroup (the shader's `NC`).
const NC: usize = 64;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    rsx: i32,
    csx: i32,
    scale: f32,
    _pad0: u32,
    _pad1: u32,
}

/// Elements of the scratch buffer `w` that [`trsm`] needs for `r` rows and `n` right-hand sides.
pub(crate) fn scratch_len(r: usize, n: usize) -> usize {
    r * n
}

/// The dispatches solving `L·X = alpha·X` in place in `x` (r×n; `dims = (r, n)`), `L` (r×r)
/// triangular in `uplo` (of that form), `unit` for an implicit unit diagonal. `w` is a scratch
/// buffer of [`scratch_len`] elements, which receives each solved block in C order (the
/// updates' right operand: `x` itself is their output). `alpha` must not be 0 (the caller's
/// quick return). The returned plans hold the updates' scratch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsm<'a>(
    ctx: &Context,
    (r, n): (usize, usize),
    uplo: Uplo,
    unit: bool,
    alpha: f32,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Buf,
) -> Vec<Step<'a>> {
    let mut out = Vec::new();
    let s = Solve {
        ctx,
        n,
        lower: uplo == Uplo::Lower,
        unit,
        alpha,
        l,
        x,
        w,
    };
    s.solve(0, r, false, &mut out);
    out
}

/// One dispatch or one engine call of a blocked solve.
pub(crate) enum Step<'a> {
    Block(Dispatch<'a>),
    Update(matmul::Plan<'a>),
}

/// The dispatches of a list of steps, in order.
pub(crate) fn dispatches<'s>(steps: &'s [Step<'_>]) -> Vec<Dispatch<'s>> {
    let mut out = Vec::new();
    for s in steps {
        match s {
            Step::Block(d) => out.push(d.clone()),
            Step::Update(p) => out.extend(p.dispatches()),
        }
    }
    out
}

struct Solve<'c, 'a> {
    ctx: &'c Context,
    n: usize,
    lower: bool,
    unit: bool,
    alpha: f32,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Buf,
}

impl<'a> Solve<'_, 'a> {
    /// Solve rows `r0..r1` (their earlier rows' contributions already subtracted), recursively:
    /// the first half in solve order, one tile-engine update of the second half by it, then
    /// the second half. `scaled`: the rows already hold alpha·B.
    fn solve(&self, r0: usize, r1: usize, scaled: bool, out: &mut Vec<Step<'a>>) {
        let len = r1 - r0;
        let scale = if scaled { 1.0 } else { self.alpha };
        if len <= NB {
            out.push(Step::Block(self.block(r0, len, scale)));
            return;
        }
        // Split at a multiple of NB, so that the leaves are whole blocks where possible.
        let mid = r0 + (len / 2).div_ceil(NB) * NB;
        // Solve order: top half first for lower, bottom half first for upper.
        let ((f0, f1), (s0, s1)) = if self.lower {
            ((r0, mid), (mid, r1))
        } else {
            ((mid, r1), (r0, mid))
        };
        self.solve(f0, f1, scaled, out);
        // X_second ← scale·X_second − L[second, first]·X_first (X_first read from w).
        let wop = Operand {
            buffer: self.w,
            offset: (f0 * self.n) as u32,
            rs: self.n as i32,
            cs: 1,
            bs: 0,
        };
        out.push(Step::Update(matmul::engine(
            self.ctx,
            (s1 - s0, self.n, f1 - f0),
            -1.0,
            self.l.at(s0, f0),
            wop,
            scale,
            self.x.at(s0, 0),
            Variant::default(),
        )));
        self.solve(s0, s1, true, out);
    }

    fn block(&self, k0: usize, nb: usize, scale: f32) -> Dispatch<'a> {
        let columns = matmul::tuning()
            .and_then(|t| t.trsm_columns)
            .unwrap_or(true);
        let constants = [
            ("LOWER", self.lower as u32 as f64),
            ("UNIT", self.unit as u32 as f64),
            ("COLUMNS", columns as u32 as f64),
        ];
        let params = Params {
            n: self.n as u32,
            k0: k0 as u32,
            nb: nb as u32,
            offa: self.l.offset,
            rsa: self.l.rs,
            csa: self.l.cs,
            offx: self.x.offset,
            rsx: self.x.rs,
            csx: self.x.cs,
            scale,
            _pad0: 0,
            _pad1: 0,
        };
        Dispatch::new(
            &SHADER,
            "block_solve",
            &params,
            &[self.l.buffer, self.x.buffer, self.w],
            self.ctx.grid(self.n.div_ceil(NC) as u64),
        )
        .constants(&constants)
    }
}
