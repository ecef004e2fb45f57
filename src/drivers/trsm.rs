//! Triangular solve with many right-hand sides (Level 3, `strsm`), recursive: the rows split
//! in two halves, the first half (in solve order) solved recursively, the second half updated
//! by one tile-engine product (`wgsl/level3/gemm.wgsl`, through [`gemm::engine`]) of depth
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

use super::gemm::{self, Operand, Variant};
use crate::context::{Context, Elem};
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::Scalar;
use crate::pool::Buf;

super::shader!(SHADER, TRSM);

/// Rows per diagonal block (the shader's `NB`).
pub(crate) const NB: usize = super::registry::TRSM.constant("NB") as usize;
/// Right-hand sides per block-solve workgroup (the shader's `NC`).
const NC: usize = super::registry::TRSM.constant("NC") as usize;

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
/// updates' right operand: `x` itself is their output). A host `alpha` must not be 0 (the
/// caller's quick return). A device `alpha` is applied after the solve, `X ← alpha·X`, by one
/// engine call of depth 0 with beta = alpha, so that alpha = 0 gives `X = 0` without reading
/// what the solve left (whatever A holds), as a host alpha = 0 does. The returned plans hold
/// the updates' scratch. It does not fail: the `Result` is that of the solve it shares with
/// [`trsm_f64`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsm<'a>(
    ctx: &Context,
    (r, n): (usize, usize),
    uplo: Uplo,
    unit: bool,
    alpha: Scalar<'a>,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Buf,
) -> crate::error::Result<Vec<Step<'a>>> {
    let mut out = Vec::new();
    let s = Solve {
        ctx,
        n,
        lower: uplo == Uplo::Lower,
        unit,
        alpha: alpha.host().unwrap_or(1.0),
        f64: None,
        l,
        x,
        w,
    };
    s.solve(0, r, false, &mut out)?;
    if alpha.host().is_none() {
        let scale = gemm::engine(
            ctx,
            (r, n, 0),
            0.0,
            l,
            rows_of(w, n, 0),
            alpha,
            x,
            Variant::default(),
        );
        out.push(Step::Update(scale));
    }
    Ok(out)
}

/// [`trsm`] in f64 (`dtrsm`): the shaders instantiated with `alias T = f64;`, alpha read as
/// f64 from `sc` (its first element) by the block solves and passed exactly to the updates. A
/// device `alpha` is applied after the solve, as in [`trsm`] (then `sc` holds 1).
///
/// # Errors
/// [`crate::Error::Gpu`] when an update's buffer of scalars cannot be created.
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsm_f64<'a>(
    ctx: &Context,
    routine: &'static str,
    (r, n): (usize, usize),
    uplo: Uplo,
    unit: bool,
    alpha: Scalar<'a, f64>,
    sc: &'a Buf,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Buf,
) -> crate::error::Result<Vec<Step<'a>>> {
    let mut out = Vec::new();
    let host = alpha.host().unwrap_or(1.0);
    let s = Solve {
        ctx,
        n,
        lower: uplo == Uplo::Lower,
        unit,
        alpha: if host == 1.0 { 1.0 } else { 2.0 },
        f64: Some((routine, host, sc)),
        l,
        x,
        w,
    };
    s.solve(0, r, false, &mut out)?;
    if alpha.host().is_none() {
        let v = Variant::default();
        let scale = gemm::engine_f64(
            ctx,
            routine,
            (r, n, 0),
            0.0,
            l,
            rows_of(w, n, 0),
            alpha,
            x,
            v,
        )?;
        out.push(Step::Update(scale));
    }
    Ok(out)
}

/// The scratch `w` (C order, `n` columns) from row `r0` on: the solved rows, the updates' right
/// operand; from row 0, also the (depth 0, never read) right operand of the scaling that
/// applies a device alpha after the solve, since `X` itself is bound as the output.
fn rows_of(w: &Buf, n: usize, r0: usize) -> Operand<'_> {
    Operand {
        buffer: w,
        offset: (r0 * n) as u32,
        rs: n as i32,
        cs: 1,
        bs: 0,
    }
}

/// One dispatch or one engine call of a blocked solve.
pub(crate) enum Step<'a> {
    Block(Dispatch<'a>),
    Update(gemm::Plan<'a>),
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
    /// alpha (f32), or in f64 its `SCAL` marker (1, or 2 for "read `sc`").
    alpha: f32,
    /// f64: the routine, alpha, and the buffer holding alpha.
    f64: Option<(&'static str, f64, &'a Buf)>,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Buf,
}

impl<'a> Solve<'_, 'a> {
    /// Solve rows `r0..r1` (their earlier rows' contributions already subtracted), recursively:
    /// the first half in solve order, one tile-engine update of the second half by it, then
    /// the second half. `scaled`: the rows already hold alpha·B.
    fn solve(
        &self,
        r0: usize,
        r1: usize,
        scaled: bool,
        out: &mut Vec<Step<'a>>,
    ) -> crate::error::Result<()> {
        let len = r1 - r0;
        let scale = if scaled { 1.0 } else { self.alpha };
        if len <= NB {
            out.push(Step::Block(self.block(r0, len, scale)));
            return Ok(());
        }
        // Split at a multiple of NB, so that the leaves are whole blocks where possible.
        let mid = r0 + (len / 2).div_ceil(NB) * NB;
        // Solve order: top half first for lower, bottom half first for upper.
        let ((f0, f1), (s0, s1)) = if self.lower {
            ((r0, mid), (mid, r1))
        } else {
            ((mid, r1), (r0, mid))
        };
        self.solve(f0, f1, scaled, out)?;
        // X_second ← scale·X_second − L[second, first]·X_first (X_first read from w).
        let dims = (s1 - s0, self.n, f1 - f0);
        let (l, wop, x) = (
            self.l.at(s0, f0),
            rows_of(self.w, self.n, f0),
            self.x.at(s0, 0),
        );
        let v = Variant::default();
        out.push(Step::Update(match self.f64 {
            None => gemm::engine(self.ctx, dims, -1.0, l, wop, scale, x, v),
            // f64: beta = alpha exactly (`scale` is its marker).
            Some((routine, alpha, _)) => {
                let beta = if scaled { 1.0 } else { alpha };
                gemm::engine_f64(self.ctx, routine, dims, -1.0, l, wop, beta, x, v)?
            }
        }));
        self.solve(s0, s1, true, out)
    }

    fn block(&self, k0: usize, nb: usize, scale: f32) -> Dispatch<'a> {
        let columns = gemm::tuning().and_then(|t| t.trsm_columns).unwrap_or(true);
        let constants = [
            (
                "UPLO",
                super::uplo(Some(if self.lower { Uplo::Lower } else { Uplo::Upper })),
            ),
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
        // Binding 4: alpha in f64 (SCAL), or `a` again (never read).
        let (sc, elem, scal) = match self.f64 {
            Some((_, _, sc)) => (sc, Elem::F64, 1.0),
            None => (self.l.buffer, Elem::F32, 0.0),
        };
        let mut constants = constants.to_vec();
        constants.push(("SCAL", scal));
        Dispatch::new(
            &SHADER,
            "block_solve",
            &params,
            &[self.l.buffer, self.x.buffer, self.w, sc],
            self.ctx.grid(self.n.div_ceil(NC) as u64),
        )
        .constants(&constants)
        .elem(elem)
    }
}
