//! Reduction Level 1 driver (`wgsl/level1/reduction.wgsl`): a grid-stride pass with a
//! last-workgroup finish, or a grid-stride partial pass and a one-workgroup final pass ([`Path`]),
//! tree (pairwise) combination in both, in one submission.
//!
//! Every reduction carries the same 48-byte accumulator (`Acc` in the shader); the shader's `OP`
//! override picks the term and the combination (a sum, Blue's three sums of squares, an argmax,
//! an extended-precision sum), `WORDS` says how many `u32` words one element of `x` has in the
//! shader's bit view (1 for f32 data, 2 for f64 data), and [`Elem`] instantiates it in f32 or f64.
//! n past `65535 × 256` needs no second grid dimension: at most [`MAX_GROUPS`] workgroups run
//! and each invocation loops over its grid-stride share.

use crate::context::{Context, Elem};
use crate::error::Result;
use crate::launch::Dispatch;
use crate::layout::VecOperand;

mod ext;
mod total;
pub(crate) use total::{Reduce, Total, NRM2_BIG, NRM2_INF, NRM2_NAN, NRM2_SMALL};

super::shader!(SHADER, REDUCTION);

const WG: u64 = super::registry::REDUCTION.constant("WG") as u64;
/// At most this many workgroups in the partial pass: beyond it each invocation loops.
const MAX_GROUPS: u64 = 1024;
/// At most this many workgroups in a single pass (4 per compute unit of the H200's 132): its
/// last workgroup combines one partial accumulator per workgroup, so fewer shorten that
/// finish. On the H200 at n = 2^26 (2026-12-01, `benches/results/2026-12-01-s6/q2b`, `q2c`)
/// 528 read sdot, sasum, snrm2 and isamax 3–5% faster than 1024 (sasum 3477–3521 against
/// 3362–3384 GB/s) and 264 or 132 slower; an 8-unit loop (arrays of loads) read at half speed.
const MAX_SINGLE_GROUPS: u64 = 528;
/// Size of one accumulator in `u32` words (48 bytes).
const ACC_WORDS: usize = super::registry::REDUCTION.constant("ACC_WORDS") as usize;

/// The reduction (the shader's `OP` override).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variant {
    /// `Σ x_i·y_i` in `T`.
    Dot = 0,
    /// `Σ |x_i|` in `T`.
    Asum = 1,
    /// Blue's scaled sums of squares of f32 data, finished into the norm on the device.
    Nrm2 = 2,
    /// Index of the first largest `|x_i|`, comparing bit patterns as integers (exact).
    Iamax = 3,
    /// Index of the first largest `|x_i|`, comparing in `T` (NaN from bit patterns; Legacy).
    IamaxNative = 4,
    /// `Σ |x_i|` of f64 data in an extended format (i32 exponent, 64-bit integer mantissa)
    /// computed with integer arithmetic only.
    AsumExt = 5,
    /// dnrm2: the scaled sum of squares of the f64 elements above LAPACK's `tbig`, and the
    /// bands seen (flags in `k.x`, [`Total::nrm2_flags`]).
    Nrm2Big = 6,
    /// dnrm2: the sum of squares of the f64 elements between `tsml` and `tbig`, and the flags.
    Nrm2Medium = 7,
    /// dnrm2: the scaled sum of squares of the f64 elements below `tsml`, and the flags.
    Nrm2Small = 8,
}

/// One instance of the reduction shader: its variant, the element type the shader is instantiated for, and
/// the words per element of `x` in the bit view.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Instance {
    pub variant: Variant,
    pub elem: Elem,
    pub words: u32,
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
    /// Logical index of the dispatch's element 0 (a chunk's first index).
    base: u32,
    /// First slot of the partial accumulators that `partial_sums` writes.
    slot: u32,
}

/// How a reduction runs: one pass with a last-workgroup finish where every word of its
/// accumulator is a `u32` (f32 data, `OP` 0–4; idamax's exact integer keys, `OP` 3 on f64 data),
/// reading `x` (and `y`) as `vec4` where both have unit stride and offsets that are multiples
/// of 4; the same loops split in two dispatches where the accumulator holds an f64 (ddot, dasum,
/// dnrm2's bands: `partial_vec4` or `partial_single`, then `final_sum`; WGSL has no f64
/// bitcast, so an f64 cannot pass through the single pass's `u32` atomics); or the first
/// two passes (`partial_sums`, one term per invocation and loop iteration, then `final_sum`)
/// for the extended dasum of the fallback, and under the lab's `Legacy`
/// ([`crate::lab::Driver::Reduction`] for every type, [`crate::lab::Driver::ReductionF64`] for
/// f64 data, where idamax then compares in f64: [`Variant::IamaxNative`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Path {
    TwoPass,
    Single,
    SingleVec4,
    Split,
    SplitVec4,
}

/// Whether f64 data runs the first two-pass reductions (the lab's `Legacy` on
/// [`crate::lab::Driver::Reduction`] or [`crate::lab::Driver::ReductionF64`]).
pub(crate) fn f64_legacy() -> bool {
    use crate::lab::{get, Driver, Variant::Legacy};
    get(Driver::Reduction) == Legacy || get(Driver::ReductionF64) == Legacy
}

impl Path {
    fn of(kind: Instance, x: Option<(&VecOperand, &VecOperand)>) -> Path {
        let atomic = kind.variant != Variant::AsumExt
            && ((kind.elem == Elem::F32 && kind.words == 1)
                || (kind.variant == Variant::Iamax && kind.words == 2));
        let split = kind.elem == Elem::F64 && kind.variant != Variant::Iamax;
        if !(atomic || split) || (kind.words == 2 && f64_legacy()) {
            return Path::TwoPass;
        }
        let aligned = |v: &VecOperand| v.inc == 1 && v.offset.is_multiple_of(4);
        let vec4 = match crate::lab::get(crate::lab::Driver::Reduction) {
            crate::lab::Variant::Legacy => return Path::TwoPass,
            crate::lab::Variant::Scalar => false,
            crate::lab::Variant::Auto | crate::lab::Variant::Experimental => {
                matches!(x, Some((x, y)) if aligned(x) && aligned(y) && x.len >= 4)
            }
        };
        match (atomic, vec4) {
            (true, true) => Path::SingleVec4,
            (true, false) => Path::Single,
            (false, true) => Path::SplitVec4,
            (false, false) => Path::Split,
        }
    }

    /// Whether the path runs the single pass (its scratch's counter zeroed by a dispatch).
    fn single(self) -> bool {
        matches!(self, Path::Single | Path::SingleVec4)
    }

    /// The entry of the partial dispatch of a path that ends in `final_sum`.
    fn partial_entry(self) -> &'static str {
        match self {
            Path::Split => "partial_single",
            Path::SplitVec4 => "partial_vec4",
            _ => "partial_sums",
        }
    }

    /// Workgroups for `n` elements: the two-pass reduction runs one term per invocation up to
    /// [`MAX_GROUPS`] workgroups; the single pass gives each invocation at least `UNROLL` (4)
    /// units (vec4 or scalar) before it spreads over more workgroups, so that small `n` keep
    /// the last workgroup's finish short.
    fn groups(self, n: usize) -> u32 {
        let n = n as u64;
        match self {
            Path::TwoPass => n.div_ceil(WG),
            Path::Single | Path::Split => n.div_ceil(WG * 4),
            Path::SingleVec4 | Path::SplitVec4 => (n / 4).div_ceil(WG * 4),
        }
        .clamp(1, lab_cap(self)) as u32
    }
}

/// [`MAX_GROUPS`], or for the single pass and its split form [`MAX_SINGLE_GROUPS`] or the lab's cap
/// ([`crate::lab::set_reduction_groups`], at most [`MAX_GROUPS`]).
fn lab_cap(path: Path) -> u64 {
    match (path, u64::from(crate::lab::reduction_groups())) {
        (Path::TwoPass, _) => MAX_GROUPS,
        (_, 0) => MAX_SINGLE_GROUPS,
        (_, g) => g.min(MAX_GROUPS),
    }
}

/// The scratch buffer of one reduction: `groups` partial accumulators, the total, and the
/// single pass's counter of finished workgroups.
pub(crate) struct Scratch {
    pub buffer: crate::pool::Buf,
    pub groups: u32,
    pub path: Path,
    /// Whether the single pass's counter is zeroed by a dispatch (`clear_counter`) before it,
    /// the buffer left uncleared: every single pass over operands in one binding. A clear
    /// command on the scratch would end the compute pass, so a `resident::sdot` between two
    /// dispatches keeps them in one pass (issue 12's chains). On the H200 it took sdot at
    /// n = 2^20 from 499 to 1073 GB/s and at 2^26 from 4013 to 4209, sasum at 2^26 from 3457
    /// to 3909 (`benches/results/2026-12-02-s7/q1/l12.log`). Every word the total is decoded
    /// from is written by the pass: each workgroup stores its accumulator's words of `OP`, the
    /// last one the total's. The split paths write every slot they read and neither clear
    /// nor count; the two-pass path (lab `Legacy`, the fallback's dasum) clears.
    counter: bool,
}

impl Scratch {
    pub fn new(ctx: &Context, kind: Instance, x: Option<(&VecOperand, &VecOperand)>) -> Self {
        let path = Path::of(kind, x);
        let groups = path.groups(x.map_or(0, |(x, _)| x.len));
        let bytes = (groups as u64 + 2) * ACC_WORDS as u64 * 4;
        let counter = x.is_some() && path.single();
        Scratch {
            buffer: if x.is_some() && path != Path::TwoPass {
                ctx.scratch(bytes)
            } else {
                ctx.zeroed(bytes)
            },
            groups,
            path,
            counter,
        }
    }

    /// Words of `buffer` to read back to reach the total.
    fn words(&self) -> usize {
        (self.groups as usize + 1) * ACC_WORDS
    }
}

/// The two dispatches reducing `kind` over `x` (and `y`) into `scratch`.
pub(crate) fn dispatches<'a>(
    kind: Instance,
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
        base: 0,
        slot: 0,
    };
    let c = [
        ("OP", kind.variant as u32 as f64),
        ("WORDS", f64::from(kind.words)),
    ];
    let groups = [scratch.groups, 1, 1];
    let mut d = Vec::new();
    // One workgroup finishes without the counter (it is the last one): no `clear_counter`
    // below the lab's one-dispatch length.
    let alone = scratch.groups == 1 && (x.len as u64) < u64::from(crate::lab::one_dispatch_below());
    if scratch.counter && !alone {
        d.push(
            Dispatch::new(&SHADER, "clear_counter", &params, &[], [1, 1, 1])
                .bindings(&[(5, &scratch.buffer)])
                .constants(&c)
                .elem(kind.elem),
        );
    }
    d.extend(match scratch.path {
        Path::Single => vec![Dispatch::new(&SHADER, "single_pass", &params, &[], groups)
            .bindings(&[
                (1, &x.buffer),
                (2, &y.buffer),
                (4, &x.buffer),
                (5, &scratch.buffer),
            ])
            .constants(&c)
            .elem(kind.elem)],
        Path::SingleVec4 => vec![
            Dispatch::new(&SHADER, "single_pass_vec4", &params, &[], groups)
                .bindings(&[
                    (1, &x.buffer),
                    (2, &y.buffer),
                    (4, &x.buffer),
                    (5, &scratch.buffer),
                    (6, &x.buffer),
                    (7, &y.buffer),
                    (8, &x.buffer),
                ])
                .constants(&c)
                .elem(kind.elem),
        ],
        Path::TwoPass | Path::Split | Path::SplitVec4 => vec![
            partial(scratch.path, &params, x, y, &scratch.buffer, groups)
                .constants(&c)
                .elem(kind.elem),
            Dispatch::new(
                &SHADER,
                "final_sum",
                &Params { slot: 1, ..params },
                &[],
                [1, 1, 1],
            )
            .bindings(&[(3, &scratch.buffer)])
            .constants(&c)
            .elem(kind.elem),
        ],
    });
    d
}

/// The partial dispatch of a path that ends in `final_sum`: `partial_sums`, or the split
/// single pass (`vec4` loads bound at 6–8).
fn partial<'a>(
    path: Path,
    params: &Params,
    x: &'a VecOperand,
    y: &'a VecOperand,
    scratch: &'a crate::pool::Buf,
    groups: [u32; 3],
) -> Dispatch<'a> {
    let (xb, yb) = (&x.buffer, &y.buffer);
    let d = Dispatch::new(
        &SHADER,
        path.partial_entry(),
        params,
        &[xb, yb, scratch, xb],
        groups,
    );
    match path {
        Path::SplitVec4 => d.bindings(&[
            (1, xb),
            (2, yb),
            (3, scratch),
            (4, xb),
            (6, xb),
            (7, yb),
            (8, xb),
        ]),
        _ => d,
    }
}

/// One part of a reduction over operands past one storage binding: windows of `x` and `y`
/// over logical elements `base..base + x.len`, reduced by `groups` workgroups: by
/// `partial_sums` into the partial slots `slot..slot + groups` (two-pass kinds), or by the
/// single pass into its own region of the scratch buffer, bound as the window `words`.
struct Part {
    x: VecOperand,
    y: VecOperand,
    base: usize,
    groups: u32,
    slot: u32,
    path: Path,
    words: Option<crate::pool::Buf>,
}

/// A reduction planned for its operands: the scratch buffer and, for operands past one storage
/// binding, the parts, each a window of at most one binding, each reducing its elements with
/// the same kernel as a whole vector would (iamax indices offset by the part's first index).
/// f32 data: each part runs the single pass (vec4 where aligned) into its own region of the
/// scratch buffer, `region` accumulators apart, its total at slot `groups` of the region; two-
/// pass and split kinds (f64 data but idamax, the lab's `Legacy`): each part runs its partial
/// dispatch (`partial_sums`, `partial_vec4`, `partial_single`) into its own slots.
/// Then one `final_sum` combines the parts' accumulators with the same `combine` as within a
/// part: the same sums, Blue's three sums, and the iamax rules (the larger key wins, NaN above
/// every number, ties to the lower global index), so the result is the reduction of the whole
/// vector, within the same metric.
pub(crate) struct Plan {
    scratch: Scratch,
    parts: Vec<Part>,
    /// For single-pass parts: (accumulators per region, the total's slot in a region).
    region: Option<(u32, u32)>,
}

impl Plan {
    pub fn new(
        ctx: &Context,
        kind: Instance,
        operands: Option<(&VecOperand, &VecOperand)>,
    ) -> Self {
        let whole = || Plan {
            scratch: Scratch::new(ctx, kind, operands),
            parts: Vec::new(),
            region: None,
        };
        let Some((x, y)) = operands else {
            return whole();
        };
        let elem = 4 * u64::from(kind.words);
        let chunks = crate::layout::vec_chunks(ctx, x.len, elem, &[x, y]);
        if chunks.len() == 1 {
            return whole();
        }
        let first = Path::of(kind, Some((x, y)));
        if !first.single() {
            // Parts that end in `final_sum`: each its own slots of one scratch buffer.
            let mut slot = 0u32;
            let parts: Vec<Part> = chunks
                .into_iter()
                .map(|(lo, hi)| {
                    let (xp, yp) = (x.part(ctx, elem, lo, hi), y.part(ctx, elem, lo, hi));
                    let path = Path::of(kind, Some((&xp, &yp)));
                    let groups = path.groups(hi - lo);
                    let p = Part {
                        x: xp,
                        y: yp,
                        base: lo,
                        groups,
                        slot,
                        path,
                        words: None,
                    };
                    slot += groups;
                    p
                })
                .collect();
            return Plan {
                scratch: Scratch {
                    buffer: ctx.zeroed((u64::from(slot) + 2) * ACC_WORDS as u64 * 4),
                    groups: slot,
                    path: Path::TwoPass,
                    counter: false,
                },
                parts,
                region: None,
            };
        }
        // Single-pass parts: every part with the groups of the longest, each in a region of
        // `per` accumulators (room for its partials, its total and its counter), regions
        // aligned for binding windows.
        let acc = ACC_WORDS as u64 * 4;
        let align = u64::from(ctx.limits().min_storage_buffer_offset_alignment).max(16);
        let q = align / gcd(acc, align);
        let longest = chunks.iter().map(|(lo, hi)| hi - lo).max().unwrap_or(1);
        let groups = Path::SingleVec4
            .groups(longest)
            .max(Path::Single.groups(longest));
        let per = (u64::from(groups) + 2).div_ceil(q) * q;
        let count = chunks.len() as u64;
        let buffer = ctx.zeroed((count * per + 2) * acc);
        let parts: Vec<Part> = chunks
            .into_iter()
            .enumerate()
            .map(|(c, (lo, hi))| {
                let (xp, yp) = (x.part(ctx, elem, lo, hi), y.part(ctx, elem, lo, hi));
                let path = Path::of(kind, Some((&xp, &yp)));
                Part {
                    x: xp,
                    y: yp,
                    base: lo,
                    groups,
                    slot: 0,
                    path,
                    words: Some(buffer.window(c as u64 * per * acc, per * acc)),
                }
            })
            .collect();
        Plan {
            scratch: Scratch {
                buffer,
                groups: (count * per) as u32,
                path: Path::TwoPass,
                counter: false,
            },
            parts,
            region: Some((per as u32, groups)),
        }
    }

    /// The dispatches over `x` and `y` (the operands the plan was made for).
    pub fn dispatches<'a>(
        &'a self,
        kind: Instance,
        x: &'a VecOperand,
        y: &'a VecOperand,
    ) -> Vec<Dispatch<'a>> {
        if self.parts.is_empty() {
            return dispatches(kind, x, y, &self.scratch);
        }
        let c = [
            ("OP", kind.variant as u32 as f64),
            ("WORDS", f64::from(kind.words)),
        ];
        let mut out: Vec<Dispatch<'a>> = self
            .parts
            .iter()
            .map(|p| {
                let params = Params {
                    n: p.x.len as u32,
                    offx: p.x.offset,
                    incx: p.x.inc,
                    offy: p.y.offset,
                    incy: p.y.inc,
                    groups: p.groups,
                    base: p.base as u32,
                    slot: p.slot,
                };
                let groups = [p.groups, 1, 1];
                let (xb, yb) = (&p.x.buffer, &p.y.buffer);
                let d = match (p.path, &p.words) {
                    (Path::SingleVec4, Some(w)) => {
                        Dispatch::new(&SHADER, "single_pass_vec4", &params, &[], groups).bindings(
                            &[(1, xb), (2, yb), (4, xb), (5, w), (6, xb), (7, yb), (8, xb)],
                        )
                    }
                    (Path::Single, Some(w)) => {
                        Dispatch::new(&SHADER, "single_pass", &params, &[], groups).bindings(&[
                            (1, xb),
                            (2, yb),
                            (4, xb),
                            (5, w),
                        ])
                    }
                    _ => partial(p.path, &params, &p.x, &p.y, &self.scratch.buffer, groups),
                };
                d.constants(&c).elem(kind.elem)
            })
            .collect();
        let (groups, slot, base) = match self.region {
            Some((per, total)) => (self.parts.len() as u32, per, total),
            None => (self.scratch.groups, 1, 0),
        };
        let params = Params {
            n: x.len as u32,
            offx: 0,
            incx: 1,
            offy: 0,
            incy: 1,
            groups,
            base,
            slot,
        };
        out.push(
            Dispatch::new(&SHADER, "final_sum", &params, &[], [1, 1, 1])
                .bindings(&[(3, &self.scratch.buffer)])
                .constants(&c)
                .elem(kind.elem),
        );
        out
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A reduction's total kept on the device: `words` words (2 for an f64 `t`) from word `word`
/// of `buffer`; whoever wants a `GpuScalar` wraps it (the BLAS layer).
pub(crate) struct Kept {
    pub buffer: crate::pool::Buf,
    pub word: usize,
    pub words: usize,
}

/// Run the reduction, keeping the total on the device: the result is `word` of the total
/// accumulator (0: `t`, 10: the iamax index, 11: the nrm2 norm). With no operands (an empty
/// vector) nothing runs and the words read 0.
pub(crate) fn run_device(
    ctx: &Context,
    routine: &'static str,
    kind: Instance,
    operands: Option<(&VecOperand, &VecOperand)>,
    word: usize,
) -> Result<Kept> {
    let plan = Plan::new(ctx, kind, operands);
    if let Some((x, y)) = operands {
        let d = plan.dispatches(kind, x, y);
        ctx.execute::<u32>(routine, &d, &[])?;
    }
    let scratch = plan.scratch;
    let at = scratch.words() - ACC_WORDS + word;
    // `t` of an f64 reduction spans two words.
    let words = if word == 0 && kind.elem == Elem::F64 {
        2
    } else {
        1
    };
    Ok(Kept {
        buffer: scratch.buffer,
        word: at,
        words,
    })
}

/// Run the reduction and read its total back, waiting as `wait` says: the core of every
/// reduction routine's blocking form and its `_async` twin.
pub(crate) async fn run_in(
    ctx: &Context,
    routine: &'static str,
    kind: Instance,
    x: &VecOperand,
    y: &VecOperand,
    wait: crate::launch::Wait,
) -> Result<Total> {
    let plan = Plan::new(ctx, kind, Some((x, y)));
    let d = plan.dispatches(kind, x, y);
    let scratch = &plan.scratch;
    let out = ctx
        .execute_then_in::<u32>(
            routine,
            &d,
            Vec::new(),
            &[(&scratch.buffer, scratch.words())],
            wait,
        )
        .await?;
    let words = &out[0][scratch.words() - ACC_WORDS..];
    Ok(Total(words.try_into().expect("one accumulator")))
}

#[cfg(test)]
mod tests {
    use super::{Path, MAX_GROUPS, MAX_SINGLE_GROUPS, WG};

    /// Mesa's llvmpipe stops an invocation's loops after 65,535 iterations in all (DESIGN.md §3):
    /// the grid-stride loop of `partial_sums` runs ⌈n / (MAX_GROUPS·WG)⌉ times, and n < 2^31
    /// (`check_dim`), so it stays far below; the tree and `final_sum` loops are bounded by WG and
    /// MAX_GROUPS. The single pass and its split form (`share_scalar`, `share_vec4`) run
    /// ⌈n / (groups·WG)⌉ terms or units per invocation in all (4 per trip, then the rest one
    /// by one): at most ⌈n / (4·WG)⌉ / groups + 4 trips below the cap of [`MAX_SINGLE_GROUPS`]
    /// workgroups, and n / (MAX_SINGLE_GROUPS·WG) at it.
    #[test]
    fn per_invocation_loops_stay_below_mesa_limit() {
        let n_max = i32::MAX as u64 + 1;
        assert!(n_max.div_ceil(MAX_GROUPS * WG) + 8 + MAX_GROUPS / WG + 8 < 16_384);
        for n in [1u64, 1000, 1 << 20, 1 << 26, n_max] {
            for path in [Path::Single, Path::Split, Path::SingleVec4, Path::SplitVec4] {
                let groups = u64::from(path.groups(n as usize));
                let trips = n.div_ceil(groups * WG);
                assert!(
                    groups <= MAX_SINGLE_GROUPS && trips < 16_384,
                    "{path:?} n={n}"
                );
            }
        }
    }
}
