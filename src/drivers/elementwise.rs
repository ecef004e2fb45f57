//! Element-wise Level 1 driver (`wgsl/level1/elementwise.wgsl`): one invocation per element,
//! the operation chosen by the shader's `OP` override (axpy, copy, swap, scal, and the plane
//! rotation shared by rot and rotm).

use std::cell::OnceCell;

use crate::context::{Context, Elem};
use crate::launch::Dispatch;
use crate::layout::{self, Precision, Scalar, VecOperand};
use crate::pool::Buf;

super::shader!(SHADER, ELEMENTWISE);

const WG: u64 = super::registry::ELEMENTWISE.constant("WG") as u64;
/// vec4 units per invocation in `main_vec4`.
const UNROLL: u64 = super::registry::ELEMENTWISE.constant("UNROLL") as u64;

/// The per-element operation (the shader's `OP` override).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Variant {
    /// `y = alpha·x + y` (`alpha = h[0]`).
    Axpy = 0,
    /// `y = x`.
    Copy = 1,
    /// `x ↔ y`.
    Swap = 2,
    /// `x = alpha·x` (`alpha = h[0]`; `y` is a dummy).
    Scal = 3,
    /// `(x, y) = (h11·x + h12·y, h21·x + h22·y)`, `h = [h11, h12, h21, h22]`.
    Rot = 4,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    h: [f32; 4],
    /// Word of binding 5 (`sc`) holding a device alpha, for the `_dev` entries.
    sw: u32,
    _pad: [u32; 2],
}

/// Byte offset of `h[0]` (alpha) in the params, for a device scalar.
const ALPHA: usize = std::mem::offset_of!(Params, h);

/// The dispatches of `op` over the `x.len` elements of `x` and `y`, with coefficients
/// `h = [h11, h12, h21, h22]` (`[alpha, 0, 0, 0]` for axpy and scal). Where both vectors have
/// unit stride and offsets that are multiples of 4, the `vec4` kernel runs the first
/// `4·⌊n/4⌋` elements (each invocation four units, loads before stores) and the scalar kernel
/// the last `n mod 4`; otherwise (and below [`crate::lab::one_dispatch_below`] where `n mod 4`
/// is not 0) the scalar kernel, one element per invocation, runs them all.
pub(crate) fn dispatches<'a>(
    ctx: &Context,
    op: Variant,
    h: [f32; 4],
    x: &'a VecOperand,
    y: &'a VecOperand,
) -> Vec<Dispatch<'a>> {
    dispatches_as(ctx, op, h, x, y, Elem::F32, None)
}

/// A device alpha read by the `_dev` entries from a storage binding: the buffer (bound whole
/// at binding 5) and the word of the value in it.
pub(crate) type DevAlpha<'a> = Option<(&'a Buf, u32)>;

/// The entry of `entry` that reads alpha from binding 5 (`dev`) instead of the params.
fn dev_entry(entry: &'static str, dev: DevAlpha<'_>) -> &'static str {
    match (dev, entry) {
        (None, e) => e,
        (Some(_), "main") => "main_dev",
        (Some(_), "main_vec4") => "main_vec4_dev",
        (Some(_), "scal_one") => "scal_one_dev",
        (Some(_), e) => {
            debug_assert_eq!(e, "scal_vec4");
            "scal_vec4_dev"
        }
    }
}

/// [`dispatches`] with the shader instantiated for `elem` (`dcopy`, `dswap` in f64: the
/// operations without coefficients); with `dev` (f32 axpy and scal), alpha (`h[0]`) is read on
/// the device from that buffer's word by the `_dev` entries instead of the params.
pub(crate) fn dispatches_as<'a>(
    ctx: &Context,
    op: Variant,
    h: [f32; 4],
    x: &'a VecOperand,
    y: &'a VecOperand,
    elem: Elem,
    dev: DevAlpha<'a>,
) -> Vec<Dispatch<'a>> {
    let params = |n: usize, skip: u32| Params {
        n: n as u32,
        offx: (x.offset as i64 + i64::from(skip) * i64::from(x.inc)) as u32,
        incx: x.inc,
        offy: (y.offset as i64 + i64::from(skip) * i64::from(y.inc)) as u32,
        incy: y.inc,
        h,
        sw: dev.map_or(0, |(_, w)| w),
        _pad: [0; 2],
    };
    let c = [("OP", op as u32 as f64)];
    // The binding of a device alpha (the `_dev` entries' binding 5), added to each dispatch.
    let with_dev = |d: Dispatch<'a>| -> Dispatch<'a> {
        let Some((sc, _)) = dev else { return d };
        let mut b = d.buffers.clone();
        b.push((5, sc));
        Dispatch {
            entry: dev_entry(d.entry, dev),
            ..d
        }
        .bindings(&b)
    };
    // scal's y is x itself, unbound (or, under lab `Legacy`, a 16-byte dummy): only x decides.
    let aligned =
        |v: &VecOperand| v.inc == 1 && v.offset.is_multiple_of(4) && v.buffer.size() >= 16;
    let vec4 = matches!(
        crate::lab::get(crate::lab::Driver::Elementwise),
        crate::lab::Variant::Auto | crate::lab::Variant::Experimental
    ) && aligned(x)
        && (matches!(op, Variant::Scal) || aligned(y))
        && x.len >= 4
        && (x.len.is_multiple_of(4) || x.len as u64 >= u64::from(crate::lab::one_dispatch_below()));
    let alone = matches!(op, Variant::Scal) && scal_x();
    let scalar = |n: usize, skip: u32| {
        let groups = ctx.grid((n as u64).div_ceil(WG));
        let d = if alone {
            Dispatch::new(&SHADER, "scal_one", &params(n, skip), &[&x.buffer], groups)
        } else {
            Dispatch::new(
                &SHADER,
                "main",
                &params(n, skip),
                &[&x.buffer, &y.buffer],
                groups,
            )
        };
        with_dev(d.constants(&c).elem(elem))
    };
    if !vec4 {
        return vec![scalar(x.len, 0)];
    }
    let whole = x.len / 4 * 4;
    let groups = ctx.grid((whole as u64 / 4).div_ceil(WG * UNROLL));
    let d = if alone {
        Dispatch::new(&SHADER, "scal_vec4", &params(whole, 0), &[], groups)
            .bindings(&[(3, &x.buffer)])
    } else {
        Dispatch::new(&SHADER, "main_vec4", &params(whole, 0), &[], groups)
            .bindings(&[(3, &x.buffer), (4, &y.buffer)])
    };
    let mut d = vec![with_dev(d.constants(&c).elem(elem))];
    if whole < x.len {
        d.push(scalar(x.len - whole, whole as u32));
    }
    d
}

/// Whether f32 scal runs `scal_one` and `scal_vec4`, which bind x alone (the default; lab
/// `Legacy`: `main` with a dummy y, a fresh cleared buffer each call, so a clear command
/// before the dispatch). On the H200 (2026-12-01, `benches/results/2026-12-01-s4/p1`, n = 2^20)
/// sscal took 4.10 µs with x alone against 13.06 µs with the dummy (cuBLAS: 7.3 µs).
fn scal_x() -> bool {
    crate::lab::get(crate::lab::Driver::Elementwise) != crate::lab::Variant::Legacy
}

/// Whether f32 axpy and scal read a device alpha from a storage binding (the `_dev` entries;
/// the default) instead of a copy of it into their params (lab `Legacy` on
/// [`Driver::DeviceScalar`](crate::lab::Driver::DeviceScalar): `Dispatch::patch`, a copy
/// command before each dispatch, which ends the compute pass). On the H200 the binding took
/// an sscal by a device alpha from 35.8 to 7.5 µs a call, and the sdot → recip → sscal chain
/// from 22.7 to 15.6 µs a routine call (`benches/results/2026-12-02-s7/q1/l12.log`).
fn device_alpha() -> bool {
    crate::lab::get(crate::lab::Driver::DeviceScalar) != crate::lab::Variant::Legacy
}

/// The parts of `x` and `y` (elements of `esize` bytes) for [`dispatches_split`]: none when
/// both fit one storage binding, else runs of elements (the same for both) whose windows each
/// fit one binding and lie in one segment ([`layout::vec_chunks`]). A `y` of `None` is `x`
/// itself, not bound (scal's `scal_one`, `scal_vec4`, `scal_sc`): each part's `y` is then its
/// part of `x`; scal's dummy `y` (f32 under lab `Legacy`) is bound whole in every part.
pub(crate) fn split(
    ctx: &Context,
    op: Variant,
    x: &VecOperand,
    y: Option<&VecOperand>,
    esize: u64,
) -> Vec<(VecOperand, VecOperand)> {
    let scal = matches!(op, Variant::Scal);
    let ops: Vec<&VecOperand> = match y {
        Some(y) if !scal => vec![x, y],
        _ => vec![x],
    };
    let chunks = layout::vec_chunks(ctx, x.len, esize, &ops);
    if chunks.len() == 1 {
        return Vec::new();
    }
    chunks
        .into_iter()
        .map(|(lo, hi)| {
            let xp = x.part(ctx, esize, lo, hi);
            let yp = match y {
                None => x.part(ctx, esize, lo, hi),
                Some(y) if scal => y.part(ctx, esize, 0, y.len.max(1)),
                Some(y) => y.part(ctx, esize, lo, hi),
            };
            (xp, yp)
        })
        .collect()
}

/// `(x, y)` itself where `parts` (from [`split`]) is empty, else each part in order.
fn pieces<'a>(
    x: &'a VecOperand,
    y: &'a VecOperand,
    parts: &'a [(VecOperand, VecOperand)],
) -> Vec<(&'a VecOperand, &'a VecOperand)> {
    if parts.is_empty() {
        return vec![(x, y)];
    }
    parts.iter().map(|(xp, yp)| (xp, yp)).collect()
}

/// The dispatches of `op` over `x` and `y` of any size, the shader instantiated for `elem`:
/// [`dispatches_as`] of the whole operands, or of each of `parts` (from [`split`]) in order.
pub(crate) fn dispatches_split<'a>(
    ctx: &Context,
    op: Variant,
    h: [f32; 4],
    (x, y): (&'a VecOperand, &'a VecOperand),
    parts: &'a [(VecOperand, VecOperand)],
    elem: Elem,
    dev: DevAlpha<'a>,
) -> Vec<Dispatch<'a>> {
    pieces(x, y, parts)
        .into_iter()
        .flat_map(|(xp, yp)| dispatches_as(ctx, op, h, xp, yp, elem, dev))
        .collect()
}

/// What the dispatches of one element-wise call borrow while they run, held by the caller
/// until the write-back: the parts of its operands past one storage binding, the dummy `y` of
/// scal (f32, lab `Legacy`), the scalar buffer and the copies of device scalars into it (f64).
#[derive(Default)]
pub(crate) struct Staged {
    dummy: OnceCell<VecOperand>,
    parts: OnceCell<Vec<(VecOperand, VecOperand)>>,
    sc: OnceCell<(Buf, ScalarCopies)>,
    /// The buffer of a device alpha bound by the `_dev` entries (f32, [`device_alpha`]).
    alpha: OnceCell<Buf>,
}

/// One element-wise call: `op` over `x` and `y` (`None` for scal) with the coefficients `h`
/// (none for copy and swap, `[alpha]` for axpy and scal, `[h11, h12, h21, h22]` for rot), for
/// `routine` (named in errors); what its dispatches borrow is kept in `staged`.
pub(crate) struct Call<'a, T> {
    pub routine: &'static str,
    pub op: Variant,
    pub h: &'a [Scalar<'a, T>],
    pub x: &'a VecOperand,
    pub y: Option<&'a VecOperand>,
    pub staged: &'a Staged,
}

/// The element types of the element-wise routines, each with its kernels, over operands of
/// any size in parts ([`split`], the same for both types): in f32 the `OP` entries
/// `main`/`main_vec4` with the coefficients in the params (a device alpha patched in); in f64
/// copy and swap through the same entries, and axpy, scal and rot through `axpy_sc`,
/// `scal_sc` and `rot_sc`, which read their coefficients as f64 from a small buffer
/// ([`scalars_f64`], one for all the parts).
pub(crate) trait Typed: Precision {
    /// The dispatches of `c`, in order.
    ///
    /// # Errors
    /// [`crate::Error::Gpu`] when a buffer cannot be created.
    fn dispatches<'a>(ctx: &Context, c: Call<'a, Self>) -> crate::error::Result<Vec<Dispatch<'a>>>;
}

impl Typed for f32 {
    fn dispatches<'a>(ctx: &Context, c: Call<'a, f32>) -> crate::error::Result<Vec<Dispatch<'a>>> {
        let (op, x, staged) = (c.op, c.x, c.staged);
        // scal's y is a dummy binding (WebGPU forbids binding x twice as read_write), or x
        // itself where `scal_one` and `scal_vec4` run (they bind x alone).
        let y = match c.y {
            Some(y) => Some(y),
            None if scal_x() => None,
            None => Some(staged.dummy.get_or_init(|| contiguous(ctx, 0))),
        };
        let parts = staged.parts.get_or_init(|| split(ctx, op, x, y, 4));
        let mut coef = [0.0; 4];
        for (v, s) in coef.iter_mut().zip(c.h) {
            *v = s.value();
        }
        let xy = (x, y.unwrap_or(x));
        if let [Scalar::Device(src, offset, _)] = c.h {
            if device_alpha() {
                // alpha on the device is read by the `_dev` entries from its own buffer, bound
                // whole: no copy, so a chain of calls stays in one compute pass.
                let sc: &'a Buf = staged.alpha.get_or_init(|| Buf::shared(*src));
                let dev = Some((sc, (*offset / 4) as u32));
                return Ok(dispatches_split(ctx, op, coef, xy, parts, Elem::F32, dev));
            }
        }
        let d = dispatches_split(ctx, op, coef, xy, parts, Elem::F32, None);
        Ok(match c.h {
            // alpha on the device is read into each dispatch's params; the shader tests it
            // there (DESIGN.md §3).
            [alpha] => d.into_iter().map(|d| alpha.apply(d, ALPHA)).collect(),
            _ => d,
        })
    }
}

impl Typed for f64 {
    fn dispatches<'a>(ctx: &Context, c: Call<'a, f64>) -> crate::error::Result<Vec<Dispatch<'a>>> {
        let (op, x) = (c.op, c.x);
        let parts = c.staged.parts.get_or_init(|| split(ctx, op, x, c.y, 8));
        let y = c.y.unwrap_or(x);
        if c.h.is_empty() {
            return Ok(dispatches_split(
                ctx,
                op,
                [0.0; 4],
                (x, y),
                parts,
                Elem::F64,
                None,
            ));
        }
        let made = scalars_f64(ctx, c.routine, c.h)?;
        let (sc, copies) = c.staged.sc.get_or_init(|| made);
        // A device scalar is copied into `sc` first, once for every part; `axpy_sc` leaves y
        // as it is for alpha = 0.
        let entry = match op {
            Variant::Axpy => "axpy_sc",
            Variant::Scal => "scal_sc",
            _ => "rot_sc",
        };
        let mut d = copies.dispatches();
        for (xp, yp) in pieces(x, y, parts) {
            d.push(with_scalars(ctx, entry, sc, xp, c.y.map(|_| yp)));
        }
        Ok(d)
    }
}

/// One dispatch of an f64 entry that reads its coefficients from the buffer `sc` (binding 5),
/// over `x` (binding 1) and `y` (binding 2), UNROLL elements per invocation: `axpy_sc`
/// (`y = alpha·x + y`, alpha its first f64), `scal_sc` (`x = alpha·x`, no `y`), `rot_sc`
/// (`(x, y) = (h11·x + h12·y, h21·x + h22·y)`, `[h11, h12, h21, h22]` its first four f64).
fn with_scalars<'a>(
    ctx: &Context,
    entry: &'static str,
    sc: &'a Buf,
    x: &'a VecOperand,
    y: Option<&'a VecOperand>,
) -> Dispatch<'a> {
    let params = Params {
        n: x.len as u32,
        offx: x.offset,
        incx: x.inc,
        offy: y.map_or(0, |y| y.offset),
        incy: y.map_or(1, |y| y.inc),
        h: [0.0; 4],
        sw: 0,
        _pad: [0; 2],
    };
    let groups = ctx.grid((x.len as u64).div_ceil(WG * UNROLL));
    let mut bindings = vec![(1, &x.buffer), (5, sc)];
    if let Some(y) = y {
        bindings.insert(1, (2, &y.buffer));
    }
    Dispatch::new(&SHADER, entry, &params, &[], groups)
        .bindings(&bindings)
        .elem(Elem::F64)
}

/// A device buffer of `n` zeros addressed contiguously (offset 0, stride 1): the output of
/// `copy` (whose `y` is never read), or the dummy `y` of `scal`.
pub(crate) fn contiguous(ctx: &Context, n: usize) -> VecOperand {
    contiguous_as(ctx, n, 4)
}

/// [`contiguous`] for elements of `esize` bytes.
pub(crate) fn contiguous_as(ctx: &Context, n: usize, esize: u64) -> VecOperand {
    VecOperand {
        buffer: ctx.zeroed_vector(n as u64 * esize),
        offset: 0,
        inc: 1,
        len: n,
        span: n,
    }
}

/// The copies of device f64 scalars into a routine's scalar buffer (binding `sc` of the f64
/// entries here and in `wgsl/level3/gemm.wgsl`): `(source, destination)` pairs of one element.
pub(crate) struct ScalarCopies(Vec<(VecOperand, VecOperand)>);

impl ScalarCopies {
    /// The copy dispatches (entry `main`, `OP` = copy, in f64; one workgroup each), to run
    /// before the routine's own.
    pub fn dispatches(&self) -> Vec<Dispatch<'_>> {
        self.0
            .iter()
            .map(|(x, y)| {
                let params = Params {
                    n: 1,
                    offx: x.offset,
                    incx: 1,
                    offy: y.offset,
                    incy: 1,
                    h: [0.0; 4],
                    sw: 0,
                    _pad: [0; 2],
                };
                Dispatch::new(&SHADER, "main", &params, &[&x.buffer, &y.buffer], [1, 1, 1])
                    .constants(&[("OP", Variant::Copy as u32 as f64)])
                    .elem(Elem::F64)
            })
            .collect()
    }
}

/// The marker of an f64 alpha or beta that the kernels read with its buffer
/// ([`scalars_f64`]): 3 for a device value (tested on the device), 0 for 0, 1 for 1 where `one`
/// (beta: C kept as it is), 2 for any other host value.
pub(crate) fn scalar_mark(s: &Scalar<'_, f64>, one: bool) -> f32 {
    match s.host() {
        None => 3.0,
        Some(0.0) => 0.0,
        Some(v) if one && v == 1.0 => 1.0,
        Some(_) => 2.0,
    }
}

/// The scalar buffer of an f64 routine holding `scalars` in order: host values uploaded with
/// it (0 in the place of a device one), device values ([`GpuScalar<f64>`](crate::GpuScalar))
/// copied into their places on the device by the returned copies, which must run first.
///
/// # Errors
/// [`crate::Error::Gpu`] when the buffer cannot be created.
pub(crate) fn scalars_f64(
    ctx: &Context,
    routine: &'static str,
    scalars: &[Scalar<'_, f64>],
) -> crate::error::Result<(Buf, ScalarCopies)> {
    let host: Vec<f64> = scalars.iter().map(|s| s.host().unwrap_or(0.0)).collect();
    let buf = ctx.upload_source(routine, &crate::transfer::Source::slice(&host))?;
    let mut copies = Vec::new();
    for (i, s) in scalars.iter().enumerate() {
        if let Scalar::Device(src, offset, _) = *s {
            debug_assert!(offset.is_multiple_of(8), "an f64 scalar at byte {offset}");
            let one = |buffer, offset| VecOperand {
                buffer,
                offset,
                inc: 1,
                len: 1,
                span: offset as usize + 1,
            };
            copies.push((
                one(Buf::shared(src), (offset / 8) as u32),
                one(Buf::shared(&buf), i as u32),
            ));
        }
    }
    Ok((buf, ScalarCopies(copies)))
}
