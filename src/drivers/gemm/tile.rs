//! The engine's choices: the workgroup [`Tile`], split-k and packing ([`Config`]), chosen from
//! the adapter's limits and the problem's shape ([`choose`]), and the per-thread [`Tuning`]
//! override.

use std::cell::Cell;

use crate::context::Context;

/// A workgroup tile: `bm × bn` of C per workgroup (8×8 per invocation, so `bm·bn/64`
/// invocations), `bk` deep slabs, `nbuf` workgroup-memory buffers (2: double-buffered).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tile {
    /// Rows of C per workgroup (64 or 128).
    pub bm: u32,
    /// Columns of C per workgroup (64 or 128).
    pub bn: u32,
    /// Depth of a staged slab (8, 16 or 32).
    pub bk: u32,
    /// Workgroup-memory buffers: 1, or 2 for double buffering.
    pub nbuf: u32,
}

impl Tile {
    /// Workgroup memory the tile needs, in bytes (f32).
    pub fn bytes(&self) -> u64 {
        u64::from(self.nbuf * self.bk * (self.bm + self.bn) * 4)
    }

    /// Invocations per workgroup.
    pub fn invocations(&self) -> u32 {
        self.bm * self.bn / 64
    }

    /// Whether the kernel supports this shape and `ctx`'s adapter can run it.
    pub fn fits(&self, limits: &wgpu::Limits) -> bool {
        let shape_ok = matches!(self.bm, 64 | 128)
            && matches!(self.bn, 64 | 128)
            && matches!(self.bk, 8 | 16 | 32)
            && matches!(self.nbuf, 1 | 2)
            // Each invocation stages between 1 and 8 vec4s of each operand per slab.
            && (1..=8).contains(&(16 * self.bk / self.bn))
            && (1..=8).contains(&(16 * self.bk / self.bm));
        shape_ok
            && self.bytes() <= u64::from(limits.max_compute_workgroup_storage_size)
            && self.invocations() <= limits.max_compute_invocations_per_workgroup
            && self.invocations() <= limits.max_compute_workgroup_size_x
    }
}

/// How one engine call runs: its tile, split-k and packing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// The workgroup tile.
    pub tile: Tile,
    /// Number of k slices (1: no split-k).
    pub split: usize,
    /// Pack operands the vec4 staging cannot read (unaligned or strided) when worth it.
    pub pack: bool,
    /// Solve `Cᵀ = Bᵀ·Aᵀ` when C is column-major.
    pub swap: bool,
}

/// Tuning override (see [`set_tuning`]): fields given replace the engine's own choice.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tuning {
    /// Tile to use where it fits.
    pub tile: Option<Tile>,
    /// Number of k slices.
    pub split: Option<usize>,
    /// Pack every operand that the vec4 staging cannot read (`true`), or none (`false`),
    /// whatever the size.
    pub pack: Option<bool>,
    /// Transposed problem for column-major C on or off.
    pub swap: Option<bool>,
    /// `true`: the bounds-checked kernel everywhere; `false` or unset: the kernel without edge
    /// code (`EDGE = false`) wherever every tile and slab is whole and both operands
    /// vec4-readable (since the unrolled slab products, 1–3% faster on the H200:
    /// `benches/results/2026-12-01-tile/`, run t7).
    pub edge: Option<bool>,
    /// `strsm`'s diagonal blocks solved column-oriented (`true`, the default) or row-oriented.
    pub trsm_columns: Option<bool>,
    /// `strsm`'s diagonal blocks of 32 (unset: the default), 64 or 128 rows (`Some(nr)`) solved
    /// with their rows spread over a workgroup (entry `block_solve_rows`: nr rows × 256 / nr
    /// right-hand sides per workgroup, one barrier per row, the column-oriented substitution's
    /// operations in its order), or (any other value, 0 say) blocks of 32 rows each solved by
    /// one invocation per right-hand side (entry `block_solve`, 64 right-hand sides per
    /// workgroup; [`Tuning::trsm_columns`] applies to it). Ignored where
    /// [`Tuning::trsm_inverse`] is on. On the H200 at n = 4096
    /// (`benches/results/2026-12-02-s10/q2`), left / right TFLOP/s: per column 6.81 / 6.74,
    /// rows of 32 11.70 / 10.38, of 64 11.81 / 9.27, of 128 9.08 / 8.35.
    pub trsm_rows: Option<u32>,
    /// `strsm`'s leaves on inverted diagonal blocks (`true`: all diagonal blocks of 64 rows,
    /// 32 where the adapter's workgroup memory is short, inverted by one dispatch, then each
    /// leaf a tile-engine product with its inverse), or the 32-row block solves (`false` or
    /// unset, the default). On the H200 the inverted blocks doubled strsm at n = 4096 (left
    /// 6.80 to 13.80 TFLOP/s, right 6.51 to 12.27: `benches/results/2026-12-02-s7/q1/trsm.log`)
    /// but, made the default, failed two tests there (`benches/results/2026-12-02-s7/final/`):
    /// dtrsm's edge case of order 33 (upper, transposed, unit diagonal) reached a backward
    /// residual factor of 21.8 against the threshold 5, the bound of an inverted block growing
    /// with its condition number (Higham §14.2); and an infinite alpha gave −Inf where the
    /// formula's `alpha·B` first gives NaN (the first leaf applies alpha after its product).
    /// So it stays an option until both are mended. Since then alpha multiplies B before
    /// anything else does, on every leaf form, and the default leaf form ([`TrsmLeaf`],
    /// [`Tuning::trsm_leaf`]) refines each leaf once.
    pub trsm_inverse: Option<bool>,
    /// How `strsm`'s leaves on inverted diagonal blocks run (with [`Tuning::trsm_inverse`]
    /// on): [`TrsmLeaf::Refined`] (unset: the default), [`TrsmLeaf::Fused`] or
    /// [`TrsmLeaf::Engine`].
    pub trsm_leaf: Option<TrsmLeaf>,
    /// Batches of products with m, n ≤ 32 on the small-product kernel (`true`, the default)
    /// or on the tile kernel (`false`).
    pub batch_small: Option<bool>,
    /// A lone product of at most 256 blocks of 4×4 (m, n ≤ 64), k ≤ 128 and B read as vec4s on
    /// the small-product kernel, one workgroup reading A and B straight from the buffers (`true`
    /// or unset, the default), or on the tile kernel (`false`). On the H200
    /// (`benches/results/2026-12-03-s13/q1`, `q2`): 64³ 10.9 µs a call against 14.3, 8³ 3.7
    /// against 6.4, 32×32×128 15.5 against 18.6; a 64³ host call 64–70 µs against 70–75.
    pub single_small: Option<bool>,
    /// The chooser for shapes with few tiles ([`choose_v2`], `true` or unset, the default
    /// since `benches/results/2026-12-02-s7/q1/tile.log`: 8192×64×8192 22.8 to 28.5 TFLOP/s,
    /// 64×8192×8192 27.6 to 30.7, 1000³ 13.6 to 14.5, the others unchanged) instead of
    /// [`choose`] (`false`), for products outside a batch; the other fields still override
    /// its choice.
    pub chooser_v2: Option<bool>,
    /// Split-k to fill the last wave of workgroups ([`wave_split`]: `true` or unset, the
    /// default since `benches/results/2026-12-02-s8/q1/tile.log`: 4097³ 27.7 → 31.5 TFLOP/s,
    /// 1024³ to 8192³ and the other rectangles unchanged), or not (`false`), for products
    /// outside a batch whose tiles already fill the device.
    pub wave_fill: Option<bool>,
    /// Edge tiles and partial slabs of vec4-readable operands read as guarded vec4s (the
    /// shader's `VGUARD`: `true` or unset, the default since
    /// `benches/results/2026-12-02-s9/q0`: 1000³ 13.6 → 19.5 TFLOP/s, 2000³ 22.6 → 27.9,
    /// 3000×5000×700 26.7 → 28.4, 1000×4000×1000 20.6 → 25.8), or element by element
    /// (`false`).
    pub edge_vec4: Option<bool>,
    /// Products with a triangular A (`strmm`, the inverted leaves of `strsm`), whose rows of
    /// tiles have k ranges of different lengths: the rows taken longest first, each row's tiles
    /// in turn (the shader's `HEAVY_FIRST`: `true` or unset, the default), or in the grid's
    /// order, rows of each column of tiles in turn (`false`). A greedy schedule of 1024 tiles
    /// of 1 to 32 slabs on 264 slots ends at 65 slabs' time heavy-first against 85 in the
    /// grid's order (the ideal: 64).
    pub tri_heavy_first: Option<bool>,
    /// The most of k one dispatch runs over (unset: the engine's limit, 16,384),
    /// rounded down to a multiple of 32 (at least 32): longer k runs in chunks of one dispatch
    /// each, their raw sums added in a scratch that alpha then scales once. For tests that take
    /// the chunked path at small sizes.
    pub k_chunk: Option<usize>,
}

/// The form of a leaf of `strsm` on inverted diagonal blocks ([`Tuning::trsm_leaf`]; rows
/// `r0..r0 + nb` of the solve, `T` its diagonal block, `B` its rows of the right-hand side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrsmLeaf {
    /// The product `X = T⁻¹·B` on the tile engine (its zero triangle left out of the sums),
    /// alpha applied first by a product of depth 0 on the first leaf (`B ← alpha·B`), and one
    /// copy of the whole solution into B at the end (the form measured on the H200 in session
    /// 7). Not backward stable for an ill-conditioned block (Higham, *Accuracy and Stability of
    /// Numerical Algorithms*, 2nd ed., §14.3).
    Engine,
    /// One dispatch per leaf (entry `inverse_leaf` of `wgsl/level3/trsm.wgsl`, `REFINE` off):
    /// `B ← scale·B`, `X = T⁻¹·B`, written into B and the updates' scratch at once (no copy at
    /// the end). As accurate as [`TrsmLeaf::Engine`].
    Fused,
    /// As [`TrsmLeaf::Fused`], with one step of fixed-precision iterative refinement in the
    /// same dispatch (`R = B − T·X`, `X ← X + T⁻¹·R` where finite; Higham §12.2, Thm. 12.3):
    /// componentwise backward stable where the block is not too ill conditioned. The default.
    Refined,
}

thread_local! {
    static TUNING: Cell<Option<Tuning>> = const { Cell::new(None) };
}

/// Set (or clear, with `None`) an override of the tile engine's choices for the calls made on
/// this thread, for tuning experiments (`examples/kernel_lab.rs`) and for tests that pin each
/// path. Results stay correct under any override: a tile that does not [`Tile::fits`] the
/// adapter is ignored.
pub fn set_tuning(t: Option<Tuning>) {
    TUNING.with(|c| c.set(t));
}

/// The override of this thread, if any.
pub(crate) fn tuning() -> Option<Tuning> {
    TUNING.with(Cell::get)
}

/// Invocations that keep a large GPU busy: wgpu does not report the number of compute units,
/// so this is a fixed target (two 256-invocation workgroups on each of the 132 SMs of an H200;
/// smaller GPUs then simply run more waves).
const TARGET_INVOCATIONS: usize = 264 * 256;

fn tiles(m: usize, n: usize, t: &Tile) -> usize {
    m.div_ceil(t.bm as usize).max(1) * n.div_ceil(t.bn as usize).max(1)
}

/// The engine's choice for an `m×n×k` call on `limits` (before any [`Tuning`] override);
/// `splittable`: split-k allowed (C general, A general). Measured on the H200
/// (benches/results/README.md, runs 10 and 11): 128×128 tiles, BK 16, single-buffered, where
/// they give 264·256 invocations (two workgroups per SM of an H200); below that, split-k, on 128×128 tiles while both sides of C
/// are at least 512 (1000³: 15.4 against 7.9 TFLOP/s on 64×64 tiles), else on a 128×64 (64×128)
/// tile whose long side runs along the longer side of C (128×4096×4096: 20–21 against 10).
pub fn choose(limits: &wgpu::Limits, (m, n, k): (usize, usize, usize), splittable: bool) -> Config {
    let tile = |bm, bn, bk| Tile {
        bm,
        bn,
        bk,
        nbuf: 1,
    };
    let fitting = |c: &[Tile]| c.iter().copied().find(|t| t.fits(limits));
    let big = fitting(&[
        tile(128, 128, 16),
        tile(128, 128, 8),
        tile(64, 64, 16),
        tile(64, 64, 8),
    ])
    .unwrap_or(tile(64, 64, 8));
    let enough = |t: &Tile| tiles(m, n, t) * t.invocations() as usize >= TARGET_INVOCATIONS;
    let mut t = big;
    if !enough(&big) && m.min(n) < 512 {
        let rect = if m >= n {
            tile(128, 64, 16)
        } else {
            tile(64, 128, 16)
        };
        t = fitting(&[rect, tile(64, 64, 16), tile(64, 64, 8)]).unwrap_or(big);
    }
    let mut split = 1;
    if splittable && !enough(&t) && k >= 512 {
        // Slices of at least 256 of k, so that each still streams.
        let groups = tiles(m, n, &t) * t.invocations() as usize;
        // k / 256 rounded to the nearest (1000³: 4 slices, 22.8 against 19.5 TFLOP/s for 3,
        // `benches/results/2026-12-02-s9/q0`).
        split = TARGET_INVOCATIONS
            .div_ceil(groups)
            .min((k + 128) / 256)
            .clamp(1, 32);
    }
    Config {
        tile: t,
        split,
        pack: true,
        swap: true,
    }
}

/// The engine's chooser (the default; [`Tuning::chooser_v2`] `false` selects [`choose`]): as
/// [`choose`], but where a side of C is below 512 and there are too few tiles to fill the
/// device, split-k into the largest power of two of slices that the invocation target allows
/// (session 7 aimed at twice the target, 17 slices on 8192×64×8192; 8 read 30.0 against 28.1
/// TFLOP/s there, `benches/results/2026-12-02-s9/q0`), with slices of at least 128 of k (not
/// 256), for k ≥ 256. On the H200 (`benches/results/2026-12-02-s7/q1/tile.log`) the first
/// form took 8192×64×8192 from 22.8 to 28.5 TFLOP/s and 64×8192×8192 from 27.6 to 30.7.
///
/// Where both sides of C are at least 512 it chooses as [`choose`]: a first form that also
/// took the 128×64 (64×128) tile there and split deeper read 14.5 against 13.6 TFLOP/s at
/// 1000³ but 19.2 against 26.8 at 1024³ (`benches/results/2026-12-02-s7/final/l3.log`
/// against `q1/tile.log`).
pub fn choose_v2(
    limits: &wgpu::Limits,
    (m, n, k): (usize, usize, usize),
    splittable: bool,
) -> Config {
    let base = choose(limits, (m, n, k), splittable);
    if m.min(n) >= 512 {
        return base;
    }
    let enough = |t: &Tile| tiles(m, n, t) * t.invocations() as usize >= TARGET_INVOCATIONS;
    let t = base.tile;
    let mut split = 1;
    if splittable && !enough(&t) && k >= 256 {
        let groups = tiles(m, n, &t) * t.invocations() as usize;
        // A power of two at most the invocation target's share, so that slices stay whole
        // multiples of each other (s9/q0: 128×4096×4096 26.7 → 30.0 TFLOP/s with 8 slices
        // against 17, 8192×64×8192 28.1 → 30.0).
        let share = (TARGET_INVOCATIONS / groups).max(1);
        split = (1usize << share.ilog2()).min(k / 128).clamp(1, 32);
    }
    Config {
        tile: t,
        split,
        ..base
    }
}

/// Split-k for a product whose `tiles` workgroups of `invocations` each already fill the
/// device but leave its last wave mostly idle: with `slots` = `TARGET_INVOCATIONS` (264·256) /
/// `invocations` workgroups running at once, `w` workgroups take ⌈w/slots⌉ waves, a share
/// `w / (⌈w/slots⌉·slots)` of them busy. Where one slice (s = 1) keeps less than 90% busy, the
/// smallest s ≤ 8 that keeps at least 97% busy (else the best one), with slices of at least 512
/// of k. On 4097³ (1089 tiles of 128×128, 4.1 waves of 264) s = 1 keeps 82.5% busy, s = 4
/// 97.1%.
pub fn wave_split(tiles: usize, invocations: usize, k: usize) -> usize {
    let slots = (TARGET_INVOCATIONS / invocations.max(1)).max(1);
    let busy = |s: usize| {
        let w = tiles * s;
        w as f64 / (w.div_ceil(slots) * slots) as f64
    };
    if tiles < slots || busy(1) >= 0.9 {
        return 1;
    }
    let candidates = (2..=8).filter(|&s| k / s >= 512);
    candidates
        .clone()
        .find(|&s| busy(s) >= 0.97)
        .or_else(|| candidates.max_by(|&x, &y| busy(x).total_cmp(&busy(y))))
        .filter(|&s| busy(s) > busy(1))
        .unwrap_or(1)
}

/// The engine's choice for a batch of `m×n×k` products: no split-k (the batch fills the
/// device) and no packing (a pack would copy every product); the smallest tile side (64) along
/// a side of C of at most 64, so that a batch of small products wastes less of each tile.
fn choose_batched(limits: &wgpu::Limits, (m, n, _): (usize, usize, usize)) -> Config {
    let tile = |bm, bn| Tile {
        bm,
        bn,
        bk: 16,
        nbuf: 1,
    };
    let bm = if m <= 64 { 64 } else { 128 };
    let bn = if n <= 64 { 64 } else { 128 };
    let t = [tile(bm, bn), tile(64, 64)]
        .into_iter()
        .chain([Tile {
            bk: 8,
            ..tile(64, 64)
        }])
        .find(|t| t.fits(limits))
        .unwrap_or(Tile {
            bk: 8,
            ..tile(64, 64)
        });
    Config {
        tile: t,
        split: 1,
        pack: false,
        swap: true,
    }
}

/// The choice for this call, and forced packing and edge decisions from a [`Tuning`] override.
pub(super) fn config(
    ctx: &Context,
    dims: (usize, usize, usize),
    batch: usize,
    splittable: bool,
    esize: usize,
) -> (Config, Option<bool>, Option<bool>) {
    // Tiles are sized in f32 elements: an f64 tile needs twice the workgroup memory.
    let mut scaled = ctx.limits().clone();
    scaled.max_compute_workgroup_storage_size /= (esize / 4).max(1) as u32;
    let limits = &scaled;
    let tuning = TUNING.with(Cell::get);
    let v2 = tuning.and_then(|t| t.chooser_v2) != Some(false);
    let mut c = if batch > 1 {
        choose_batched(limits, dims)
    } else if v2 {
        choose_v2(limits, dims, splittable)
    } else {
        choose(limits, dims, splittable)
    };
    if batch <= 1 && splittable && c.split == 1 && tuning.and_then(|t| t.wave_fill) != Some(false) {
        let t = c.tile;
        c.split = wave_split(tiles(dims.0, dims.1, &t), t.invocations() as usize, dims.2);
    }
    if let Some(t) = tuning {
        if let Some(tile) = t.tile.filter(|t| t.fits(limits)) {
            c.tile = tile;
        }
        if let Some(s) = t.split {
            c.split = s.max(1);
        }
        if let Some(p) = t.pack {
            c.pack = p;
        }
        if let Some(s) = t.swap {
            c.swap = s;
        }
    }
    if !splittable {
        c.split = 1;
    }
    (c, tuning.and_then(|t| t.pack), tuning.and_then(|t| t.edge))
}

#[cfg(test)]
mod tests {
    use super::wave_split;

    /// Hand-computed: 264 workgroups of 256 invocations run at once.
    #[test]
    fn wave_split_fills_the_last_wave() {
        // 4097³ on 128×128 tiles: 1089 workgroups, 4.125 waves, 82.5% busy; s = 2: 2178 of
        // 9·264 = 2376 (91.7%); s = 3: 3267 of 3432 (95.2%); s = 4: 4356 of 4488 (97.1%).
        assert_eq!(wave_split(1089, 256, 4097), 4);
        // 4096³: 1024 workgroups, 3.88 waves, 97% busy: no split.
        assert_eq!(wave_split(1024, 256, 4096), 1);
        // Fewer workgroups than slots: the split-k rule for few tiles decides, not this one.
        assert_eq!(wave_split(64, 256, 1024), 1);
        // Slices of at least 512 of k: with k = 1024 only s = 2 (91.7%) is allowed.
        assert_eq!(wave_split(1089, 256, 1024), 2);
        // k too short to split at all.
        assert_eq!(wave_split(1089, 256, 1000), 1);
    }
}
