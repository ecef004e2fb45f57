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
//! With [`Tuning::trsm_inverse`](super::gemm::Tuning::trsm_inverse) on (off by default), the
//! leaves are products instead of solves, as in MAGMA's GPU trsm (`magmablas_strsm`, its
//! diagonal blocks inverted by `strtri_diag`; Ries, De Marco, Zivieri and Guerrieri,
//! "Triangular matrix inversion on graphics processing unit", SC'09): first one
//! dispatch (entry `block_invert`) inverts every diagonal block of NI = 64 rows (32 where the
//! adapter's workgroup memory is short) at once, each column of an inverse by substitution on a
//! unit vector (Higham, §14.2.1, Method 1); then each leaf of NI rows is one tile-engine
//! product `w_i ← scale·T_ii⁻¹·X_i`, its inverse read as triangular (the zero triangle left out
//! of the sums, `AMode::TriangularDense`, so that a NaN or Inf of B reaches only the rows the
//! substitution reaches); the updates are unchanged, and a last dispatch (entry `copy_back`)
//! copies the solution from `w` into X. The residual of a leaf is then bounded by
//! `c·u·|T_ii|·|T_ii⁻¹|·|B_i|` instead of `c·u·|T_ii|·|X_i|` (Higham, §14.3 and Thm. 8.5): not
//! backward stable componentwise for an ill-conditioned diagonal block, which the tests' ill
//! conditioned triangles check against strsm's threshold. An Inf in the triangle of A may give
//! NaN where the substitution gives ±Inf (the inverse combines it with zeros and other
//! infinities in another order); NaN in A or B, alpha = 0, a NaN alpha and the unit diagonal
//! keep the substitution's rules.
//!
//! The leaf form is [`Tuning::trsm_leaf`](super::gemm::Tuning::trsm_leaf): the tile-engine
//! product above ([`TrsmLeaf::Engine`], alpha applied first by a product of depth 0 so that
//! `alpha·B` is formed as the formula says), or one dispatch per leaf (entry `inverse_leaf`:
//! `B ← alpha·B`, `X = T⁻¹·B`, written into X and `w`, no `copy_back`), by default with one step
//! of fixed-precision iterative refinement in the same dispatch (`R = B − T·X`,
//! `X ← X + T⁻¹·R` where finite; Higham §12.2, Thm. 12.3), which restores a componentwise
//! backward-stable leaf for blocks that are not too ill conditioned (dtrsm's order-33 edge).
//!
//! The diagonal blocks are solved row-parallel by default (entry `block_solve_rows`,
//! [`Tuning::trsm_rows`](super::gemm::Tuning::trsm_rows): the rows of a block of NR = 32, 64 or
//! 128 spread over a workgroup, one barrier per row of the same column-oriented substitution),
//! else by entry `block_solve` below.
//!
//! Block size `NB = 32`: the block solve is the serial part (one invocation per right-hand
//! side walks the block's rows), and a 32×32 triangle plus a 32×64 block of X fit 12 KiB of
//! workgroup memory, inside WebGPU's 16 KiB default.

use super::gemm::{self, Operand, TrsmLeaf, Variant};
use crate::context::{Context, Elem};
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::pool::Buf;

super::shader!(SHADER, TRSM);

/// Rows per diagonal block (the shader's `NB`).
pub(crate) const NB: usize = super::registry::TRSM.constant("NB") as usize;
/// Right-hand sides per block-solve workgroup (the shader's `NC`).
const NC: usize = super::registry::TRSM.constant("NC") as usize;
/// Elements of a fused leaf's workgroup (the shader's `LEAF_EL`): rows NI × columns.
const LEAF_EL: usize = super::registry::TRSM.constant("LEAF_EL") as usize;

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

/// The scratch of one blocked solve: `w`, the solved rows (C order, the updates' right
/// operand), and with [`Tuning::trsm_inverse`](super::gemm::Tuning::trsm_inverse) the inverted
/// diagonal blocks and their order.
pub(crate) struct Scratch {
    pub w: Buf,
    inv: Option<(Buf, usize)>,
    /// The leaf form ([`leaf_form`]).
    leaf: TrsmLeaf,
}

/// The [`Scratch`] of a solve of order `r`: `w` of `bytes`, and the inverted diagonal blocks
/// (⌈r/NI⌉ blocks of NI×NI elements of `e` bytes) where [`Tuning::trsm_inverse`] is on.
///
/// [`Tuning::trsm_inverse`]: super::gemm::Tuning::trsm_inverse
pub(crate) fn scratch(ctx: &Context, bytes: u64, r: usize, e: u64) -> Scratch {
    let on = gemm::tuning().and_then(|t| t.trsm_inverse).unwrap_or(false);
    let inv = on.then(|| {
        let ni = inverse_order(ctx, e);
        let len = (r.div_ceil(ni) * ni * ni) as u64 * e;
        (ctx.scratch(len), ni)
    });
    Scratch {
        w: ctx.scratch(bytes),
        inv,
        leaf: leaf_form(),
    }
}

/// The order NI of the inverted diagonal blocks: 64 where the adapter's workgroup memory holds
/// a 64×64 block of `e`-byte elements and a workgroup of 64 invocations, else 32.
fn inverse_order(ctx: &Context, e: u64) -> usize {
    let l = ctx.limits();
    let fits = 64 * 64 * e <= u64::from(l.max_compute_workgroup_storage_size);
    if fits && l.max_compute_invocations_per_workgroup >= 64 {
        64
    } else {
        32
    }
}

/// The dispatches solving `L·X = X` in place in `x` (r×n; `dims = (r, n)`), `L` (r×r)
/// triangular in `uplo` (of that form), `unit` for an implicit unit diagonal. `w` is a scratch
/// buffer of [`scratch_len`] elements, which receives each solved block in C order (the
/// updates' right operand: `x` itself is their output). The caller forms alpha·B first
/// (`blas::strsm`, for a host and a device alpha alike), so the solve runs with alpha = 1
/// (`Solve`'s alpha stays for the kernels' params). The returned plans hold the updates'
/// scratch. It does not fail: the `Result` is that of the solve it shares with [`trsm_f64`].
pub(crate) fn trsm<'a>(
    ctx: &Context,
    (r, n): (usize, usize),
    uplo: Uplo,
    unit: bool,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Scratch,
) -> crate::error::Result<Vec<Step<'a>>> {
    let mut out = Vec::new();
    let s = Solve {
        ctx,
        n,
        lower: uplo == Uplo::Lower,
        unit,
        alpha: 1.0,
        f64: None,
        l,
        x,
        w: &w.w,
        inv: w.inv.as_ref().map(|(b, ni)| (b, *ni)),
        leaf: w.leaf,
    };
    s.run(r, &mut out)?;
    Ok(out)
}

/// [`trsm`] in f64 (`dtrsm`): the shaders instantiated with `alias T = f64;`, alpha (1) read
/// as f64 from `sc` (its first element) by the block solves and passed exactly to the updates.
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
    sc: &'a Buf,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a Scratch,
) -> crate::error::Result<Vec<Step<'a>>> {
    let mut out = Vec::new();
    let s = Solve {
        ctx,
        n,
        lower: uplo == Uplo::Lower,
        unit,
        alpha: 1.0,
        f64: Some((routine, 1.0, sc)),
        l,
        x,
        w: &w.w,
        inv: w.inv.as_ref().map(|(b, ni)| (b, *ni)),
        leaf: w.leaf,
    };
    s.run(r, &mut out)?;
    Ok(out)
}

/// The scratch `w` (C order, `n` columns) from row `r0` on: the solved rows, the updates' right
/// operand; from row 0, also the (depth 0, never read) right operand of a scaling of rows
/// of `X`, since `X` itself is bound as the output.
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
    /// The inverted diagonal blocks and their order NI ([`Tuning::trsm_inverse`]), if on.
    ///
    /// [`Tuning::trsm_inverse`]: super::gemm::Tuning::trsm_inverse
    inv: Option<(&'a Buf, usize)>,
    /// The form of the leaves on inverted diagonal blocks ([`Tuning::trsm_leaf`]).
    ///
    /// [`Tuning::trsm_leaf`]: super::gemm::Tuning::trsm_leaf
    leaf: TrsmLeaf,
}

/// The rows per block of the row-parallel block solve ([`Tuning::trsm_rows`]: 32, 64 or 128;
/// unset: 32, the default), or `None` for the per-column solve on blocks of [`NB`] (any other
/// value, 0 say).
///
/// [`Tuning::trsm_rows`]: super::gemm::Tuning::trsm_rows
fn rows_order() -> Option<usize> {
    match gemm::tuning().and_then(|t| t.trsm_rows).unwrap_or(32) {
        nr @ (32 | 64 | 128) => Some(nr as usize),
        _ => None,
    }
}

/// The leaf form the tuning of this thread selects ([`TrsmLeaf::Refined`] where unset).
fn leaf_form() -> TrsmLeaf {
    gemm::tuning()
        .and_then(|t| t.trsm_leaf)
        .unwrap_or(TrsmLeaf::Refined)
}

impl<'a> Solve<'_, 'a> {
    /// All the steps of the solve of `r` rows: with inverted diagonal blocks, their inversion
    /// first and the copy of the solution from `w` into X last.
    fn run(&self, r: usize, out: &mut Vec<Step<'a>>) -> crate::error::Result<()> {
        let Some((inv, ni)) = self.inv else {
            return self.solve(0, r, false, out);
        };
        out.push(Step::Block(self.inverse_dispatch(
            "block_invert",
            r,
            inv,
            r.div_ceil(ni) as u64,
        )));
        self.solve(0, r, false, out)?;
        if self.leaf != TrsmLeaf::Engine {
            // The fused leaves wrote X themselves.
            return Ok(());
        }
        let groups = ((r * self.n) as u64).div_ceil(256);
        out.push(Step::Block(self.inverse_dispatch(
            "copy_back",
            r,
            inv,
            groups,
        )));
        Ok(())
    }

    /// Entry `block_invert` (the inverses of the diagonal blocks of L, of order NI, into
    /// `inv`) or `copy_back` (X ← w) of `wgsl/level3/trsm.wgsl`, for `r` rows.
    fn inverse_dispatch(
        &self,
        entry: &'static str,
        r: usize,
        inv: &'a Buf,
        groups: u64,
    ) -> Dispatch<'a> {
        let ni = self.inv.map_or(NB, |(_, ni)| ni);
        let lower = if self.lower { Uplo::Lower } else { Uplo::Upper };
        let params = self.params(0, r, 1.0);
        let (constants, bindings) = if entry == "block_invert" {
            let c = vec![
                ("UPLO", super::uplo(Some(lower))),
                ("UNIT", self.unit as u32 as f64),
                ("NI", ni as f64),
            ];
            (c, vec![(1, self.l.buffer), (3, inv)])
        } else {
            (Vec::new(), vec![(2, self.x.buffer), (3, self.w)])
        };
        let elem = if self.f64.is_some() {
            Elem::F64
        } else {
            Elem::F32
        };
        Dispatch::new(&SHADER, entry, &params, &[], self.ctx.grid(groups))
            .bindings(&bindings)
            .constants(&constants)
            .elem(elem)
    }

    /// The leaf of rows `r0..r0 + len` on inverted diagonal blocks: `w_rows ← scale·inv·X_rows`,
    /// one tile-engine product with the block's inverse (read as triangular, its zero triangle
    /// left out of the sums, so that a NaN or Inf of B reaches only the rows that the
    /// substitution would reach).
    fn inverse_leaf(
        &self,
        (r0, len): (usize, usize),
        scaled: bool,
        (inv, ni): (&'a Buf, usize),
        out: &mut Vec<Step<'a>>,
    ) -> crate::error::Result<()> {
        if self.leaf != TrsmLeaf::Engine {
            let refine = self.leaf != TrsmLeaf::Fused;
            out.push(Step::Block(self.fused_leaf(
                (r0, len),
                scaled,
                (inv, ni),
                refine,
            )));
            return Ok(());
        }
        // The formula's alpha·B first (a NaN or Inf alpha meets the zeros of B too): rows
        // r0.. ← alpha·rows, a product of depth 0 whose operands A and B are never read.
        let first = (len, self.n, 0);
        let (any, rows) = (rows_of(self.w, self.n, 0), self.x.at(r0, 0));
        match self.f64 {
            None if !scaled && self.alpha != 1.0 => {
                let v = Variant::default();
                let p = gemm::engine(self.ctx, first, 0.0, self.l, any, self.alpha, rows, v);
                out.push(Step::Update(p));
            }
            Some((routine, alpha, _)) if !scaled && alpha != 1.0 => {
                let (l, v) = (self.l, Variant::default());
                let p = gemm::engine_f64(self.ctx, routine, first, 0.0, l, any, alpha, rows, v)?;
                out.push(Step::Update(p));
            }
            _ => {}
        }
        let a = Operand {
            buffer: inv,
            offset: ((r0 / ni) * ni * ni) as u32,
            rs: ni as i32,
            cs: 1,
            bs: 0,
        };
        let lower = if self.lower { Uplo::Lower } else { Uplo::Upper };
        let v = Variant {
            a_mode: gemm::AMode::TriangularDense(lower),
            ..Variant::default()
        };
        let (dims, b, c) = (
            (len, self.n, len),
            self.x.at(r0, 0),
            rows_of(self.w, self.n, r0),
        );
        out.push(Step::Update(match self.f64 {
            None => gemm::engine(self.ctx, dims, 1.0, a, b, 0.0, c, v),
            Some((routine, ..)) => gemm::engine_f64(self.ctx, routine, dims, 1.0, a, b, 0.0, c, v)?,
        }));
        Ok(())
    }

    /// The leaf of rows `r0..r0 + len` as one dispatch (entry `inverse_leaf`): `B ← scale·B`
    /// (alpha where not `scaled`), `X = T⁻¹·B`, with `refine` one step of iterative refinement
    /// (`R = B − T·X`, `X ← X + T⁻¹·R` where finite), X written into the rows of X and of `w`.
    fn fused_leaf(
        &self,
        (r0, len): (usize, usize),
        scaled: bool,
        (inv, ni): (&'a Buf, usize),
        refine: bool,
    ) -> Dispatch<'a> {
        let lower = if self.lower { Uplo::Lower } else { Uplo::Upper };
        let params = self.params(r0, len, if scaled { 1.0 } else { self.alpha });
        // Binding 4: alpha in f64 (SCAL), or `a` again (never read).
        let (sc, elem) = match self.f64 {
            Some((_, _, sc)) => (sc, Elem::F64),
            None => (self.l.buffer, Elem::F32),
        };
        let constants = [
            ("UPLO", super::uplo(Some(lower))),
            ("UNIT", self.unit as u32 as f64),
            ("NI", ni as f64),
            ("REFINE", refine as u32 as f64),
            ("SCAL", self.f64.is_some() as u32 as f64),
        ];
        let bindings = [
            (1, self.l.buffer),
            (2, self.x.buffer),
            (3, self.w),
            (4, sc),
            (5, inv),
        ];
        let columns = LEAF_EL / ni;
        let groups = self.n.div_ceil(columns) as u64;
        Dispatch::new(&SHADER, "inverse_leaf", &params, &[], self.ctx.grid(groups))
            .bindings(&bindings)
            .constants(&constants)
            .elem(elem)
    }

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
        let leaf = self
            .inv
            .map_or_else(|| rows_order().unwrap_or(NB), |(_, ni)| ni);
        if len <= leaf {
            match self.inv {
                None => out.push(Step::Block(self.block(r0, len, scale))),
                Some(inv) => self.inverse_leaf((r0, len), scaled, inv, out)?,
            }
            return Ok(());
        }
        // Split at a multiple of the leaf, so that the leaves are whole blocks where possible
        // (and, inverted, start where the diagonal blocks do).
        let mid = r0 + (len / 2).div_ceil(leaf) * leaf;
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

    /// The params of a dispatch on rows `k0..k0 + nb` (`block_invert`, `copy_back`: `nb` = r).
    fn params(&self, k0: usize, nb: usize, scale: f32) -> Params {
        Params {
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
        }
    }

    /// The block solve of rows `k0..k0 + nb`: entry `block_solve_rows` (row-parallel on
    /// blocks of NR rows, [`Tuning::trsm_rows`], the default), or `block_solve` (one invocation
    /// per right-hand side, column- or row-oriented by [`Tuning::trsm_columns`]).
    ///
    /// [`Tuning::trsm_columns`]: super::gemm::Tuning::trsm_columns
    /// [`Tuning::trsm_rows`]: super::gemm::Tuning::trsm_rows
    fn block(&self, k0: usize, nb: usize, scale: f32) -> Dispatch<'a> {
        let columns = gemm::tuning().and_then(|t| t.trsm_columns).unwrap_or(true);
        let mut constants = vec![
            (
                "UPLO",
                super::uplo(Some(if self.lower { Uplo::Lower } else { Uplo::Upper })),
            ),
            ("UNIT", self.unit as u32 as f64),
        ];
        let params = self.params(k0, nb, scale);
        // Binding 4: alpha in f64 (SCAL), or `a` again (never read).
        let (sc, elem, scal) = match self.f64 {
            Some((_, _, sc)) => (sc, Elem::F64, 1.0),
            None => (self.l.buffer, Elem::F32, 0.0),
        };
        constants.push(("SCAL", scal));
        // Row-parallel (`block_solve_rows`: blocks of NR rows, 256 / NR columns per
        // workgroup) or one invocation per column (`block_solve`, NC columns per workgroup).
        let (entry, per_group) = match rows_order() {
            Some(nr) => {
                constants.push(("NR", nr as f64));
                ("block_solve_rows", 256 / nr)
            }
            None => {
                constants.push(("COLUMNS", columns as u32 as f64));
                ("block_solve", NC)
            }
        };
        Dispatch::new(
            &SHADER,
            entry,
            &params,
            &[self.l.buffer, self.x.buffer, self.w, sc],
            self.ctx.grid(self.n.div_ceil(per_group) as u64),
        )
        .constants(&constants)
        .elem(elem)
    }
}
