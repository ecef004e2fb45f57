//! The engine's operands: [`Operand`] (a caller's matrix, in its `op` form), the plan's view
//! of one ([`Op`], on a caller's or a scratch buffer), its vec4 staging mode, and the packing of
//! an operand the staging cannot read (entry `pack`).

use super::{Params, Plan, Step, WG};
use crate::context::Context;
use crate::layout::MatOperand;
use crate::pool::Buf;

/// An operand of one engine call: element `(i, j)` of product `b` of a batch is
/// `buffer[offset + b·bs + i·rs + j·cs]` (`bs` = 0 outside batched calls).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Operand<'a> {
    pub buffer: &'a Buf,
    pub offset: u32,
    pub rs: i32,
    pub cs: i32,
    pub bs: i32,
}

impl<'a> Operand<'a> {
    /// The whole uploaded matrix.
    pub fn of(m: &'a MatOperand) -> Self {
        Operand {
            buffer: &m.buffer,
            offset: m.offset,
            rs: m.rs,
            cs: m.cs,
            bs: 0,
        }
    }

    /// A vector as a one-column matrix: element `(i, 0)` at `offset + i·inc` (the f64 Level 2
    /// routines, which run on this engine).
    pub fn column(v: &'a crate::layout::VecOperand) -> Self {
        Operand {
            buffer: &v.buffer,
            offset: v.offset,
            rs: v.inc,
            cs: 1,
            bs: 0,
        }
    }

    /// The sub-matrix whose element `(0, 0)` is element `(i, j)` of this one (which must exist).
    pub fn at(self, i: usize, j: usize) -> Self {
        let offset = self.offset as i64 + i as i64 * self.rs as i64 + j as i64 * self.cs as i64;
        Operand {
            offset: offset as u32,
            ..self
        }
    }

    /// The transpose: strides swapped, no copy.
    pub fn t(self) -> Self {
        Operand {
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }
}

/// A buffer of a plan: the caller's, or a scratch buffer the plan owns.
#[derive(Debug, Clone, Copy)]
pub(super) enum BufRef<'a> {
    Ext(&'a Buf),
    Scratch(usize),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Op<'a> {
    pub buf: BufRef<'a>,
    pub offset: u32,
    pub rs: i32,
    pub cs: i32,
    /// Batch stride (0 outside batched calls; packed operands are never batched).
    pub bs: i32,
}

impl<'a> Op<'a> {
    /// Scratch buffer `idx` of the plan from its start, with strides `rs`, `cs`.
    pub fn scratch(idx: usize, rs: i32, cs: i32) -> Self {
        Op {
            buf: BufRef::Scratch(idx),
            offset: 0,
            rs,
            cs,
            bs: 0,
        }
    }

    pub fn ext(o: Operand<'a>) -> Self {
        Op {
            buf: BufRef::Ext(o.buffer),
            offset: o.offset,
            rs: o.rs,
            cs: o.cs,
            bs: o.bs,
        }
    }

    pub fn t(self) -> Self {
        Op {
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }

    /// The sub-matrix whose element `(0, 0)` is element `(i, j)` of this one.
    pub fn at(self, i: usize, j: usize) -> Self {
        let offset = self.offset as i64 + i as i64 * self.rs as i64 + j as i64 * self.cs as i64;
        Op {
            offset: offset as u32,
            ..self
        }
    }
}

/// vec4 staging mode of the left (`left`) or right operand: 0 along its rows' index, 1 along
/// k, 2 none. For A (m×k) "along m" needs rs = 1; for B (k×n) "along n" needs cs = 1.
pub(super) fn vec_mode(o: &Op, size: u64, left: bool, esize: usize) -> u32 {
    if !size.is_multiple_of(4 * esize as u64) || !o.offset.is_multiple_of(4) || o.bs % 4 != 0 {
        return 2;
    }
    let (outer, inner) = if left { (o.rs, o.cs) } else { (o.cs, o.rs) };
    // outer: stride along m (A) or n (B); inner: along k.
    if outer == 1 && inner % 4 == 0 {
        0
    } else if inner == 1 && outer % 4 == 0 {
        1
    } else {
        2
    }
}

/// Pack the m×k operand `a` (read as `consts` say) into a new dense scratch operand: column-major
/// (vec4 staging along m) if `a` runs along m, else row-major; pitches a multiple of 4.
pub(super) fn pack<'a>(
    ctx: &Context,
    plan: &mut Plan<'a>,
    a: Op<'a>,
    (m, k): (usize, usize),
    consts: &[(&'static str, f64)],
) -> Op<'a> {
    let col_major = a.rs.abs() == 1 || a.cs.abs() != 1;
    let (fast, slow) = if col_major { (m, k) } else { (k, m) };
    let pitch = fast.div_ceil(4) * 4;
    plan.scratch
        .push(ctx.scratch(((pitch * slow).max(4) * plan.esize()) as u64));
    let idx = plan.scratch.len() - 1;
    if col_major {
        // Column-major: the transpose packed row-major (its triangle is the other one).
        let flipped: Vec<(&'static str, f64)> = consts
            .iter()
            .map(|&(c, v)| if c == "A_UPLO" { (c, 3.0 - v) } else { (c, v) })
            .collect();
        pack_into(ctx, plan, a.t(), (k, m), &flipped, (idx, 0, pitch, pitch));
        Op::scratch(idx, 1, pitch as i32)
    } else {
        pack_into(ctx, plan, a, (m, k), consts, (idx, 0, pitch, pitch));
        Op::scratch(idx, pitch as i32, 1)
    }
}

/// One `pack` dispatch: the m×k operand `a` into scratch buffer `idx`, row-major with row
/// `pitch`, its columns at `col0..col0 + width` (zero past k), `dst = (idx, col0, pitch,
/// width)`.
fn pack_into<'a>(
    ctx: &Context,
    plan: &mut Plan<'a>,
    a: Op<'a>,
    (m, k): (usize, usize),
    consts: &[(&'static str, f64)],
    (idx, col0, pitch, width): (usize, usize, usize, usize),
) {
    let params = Params {
        m: m as u32,
        n: width as u32,
        k: k as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offc: col0 as u32,
        tiles: pitch as u32,
        ..Params::default()
    };
    plan.steps.push(Step {
        entry: "pack",
        params,
        constants: consts.to_vec(),
        bindings: vec![(1, a.buf), (3, BufRef::Scratch(idx))],
        groups: ctx.grid(((m * width) as u64).div_ceil(WG)),
        beta: false,
    });
}
