//! The buffer pools: storage buffers and staging buffers are reused across calls instead of
//! created and destroyed each time.
//!
//! Storage buffers are kept by size class (powers of two from 256 bytes). A buffer leaving use
//! (an operand's upload, a scratch buffer, a dropped [`GpuVector`](crate::GpuVector)) goes back
//! to the pool while the bytes the pool holds stay within its limit, and is dropped otherwise,
//! so the pool never holds more than [`Context::pool_limit`](crate::Context::pool_limit) bytes.
//!
//! Host data reaches a storage buffer through a *staging* buffer (`MAP_WRITE | COPY_SRC`) that
//! stays mapped while it waits in the pool: an upload writes (or gathers) the caller's elements
//! straight into that mapped memory, unmaps it, and records a buffer-to-buffer copy among the
//! context's held commands (`launch.rs`). The copy is ordered with every other command, so a
//! pooled storage buffer is never overwritten before the commands that read its previous
//! contents have run. After the submission that carries the copy, the staging buffer is mapped
//! again (`map_async`), and the callback puts it back into the pool once the device is done.
//! Read-back goes the other way through pooled `MAP_READ | COPY_DST` buffers. Transfers larger
//! than [`CHUNK`] bytes go through several staging buffers, so that the staging memory stays
//! bounded and the copies of one chunk overlap with the filling of the next.
//!
//! No pool lock is held across a wgpu call that can fail: buffers are created outside the
//! locks, and a poisoned lock is recovered (the pools hold only plain lists).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Smallest storage size class, in bytes.
const MIN_CLASS: u64 = 256;

/// Smallest staging size class, in bytes.
const MIN_STAGING: u64 = 4096;

/// Largest staging buffer, in bytes: bigger transfers are split into chunks of this size.
pub(crate) const CHUNK: u64 = 32 << 20;

/// Most bytes of free staging buffers kept, in each direction: [`crate::lab::staging_limit`]
/// (256 MiB by default).
fn staging_limit() -> u64 {
    crate::lab::staging_limit()
}

/// Lock `m`, recovering the data of a poisoned lock: every structure behind the crate's locks
/// stays valid after a panic elsewhere (lists and maps, changed in single statements).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[derive(Debug)]
pub(crate) struct Pool {
    free: HashMap<u64, Vec<wgpu::Buffer>>,
    free_bytes: u64,
    limit: u64,
    created: u64,
    /// Buffers let go (dropped, not kept), so far: see [`released`].
    released: u64,
}

impl Pool {
    pub fn new(limit: u64) -> Self {
        Pool {
            free: HashMap::new(),
            free_bytes: 0,
            limit,
            created: 0,
            released: 0,
        }
    }
}

/// A storage buffer that goes back to its pool when dropped (or a resident buffer, shared),
/// or a *window* of one: the bytes `offset .. offset + size` of a buffer that may be larger
/// than one storage binding, bound alone (see [`Buf::window`]).
///
/// An operand larger than one buffer of the device (`max_buffer_size`, issue 15) is a
/// *segmented* `Buf`: several buffers ([`Segments`]), each holding `seg` bytes of the operand
/// (the last one the rest), addressed as one range of bytes. Such a `Buf` is never bound
/// whole: dispatches bind windows of it, each inside one segment ([`Buf::window`]), and
/// transfers go segment by segment ([`Buf::segments`]). Its `Deref` gives the first segment.
#[derive(Debug)]
pub(crate) struct Buf {
    buffer: wgpu::Buffer,
    pool: Option<Arc<Mutex<Pool>>>,
    /// `(byte offset, bytes)` of the bound window; `None`: the whole buffer.
    window: Option<(u64, u64)>,
    /// The segments of an operand past one buffer; `None`: one buffer.
    segs: Option<Arc<Segments>>,
}

/// The buffers of a segmented [`Buf`]: segment `k` holds bytes `k·seg .. (k+1)·seg` of the
/// operand (`total` bytes in all).
#[derive(Debug)]
pub(crate) struct Segments {
    parts: Vec<Buf>,
    seg: u64,
    total: u64,
}

impl std::ops::Deref for Buf {
    type Target = wgpu::Buffer;
    fn deref(&self) -> &wgpu::Buffer {
        &self.buffer
    }
}

/// Drop one free buffer of the largest size class that `eligible` accepts; its class (bytes),
/// or `None` when no such class holds a buffer.
fn drop_largest(
    free: &mut HashMap<u64, Vec<wgpu::Buffer>>,
    eligible: impl Fn(u64) -> bool,
) -> Option<u64> {
    let largest = free
        .iter()
        .filter(|(c, v)| eligible(**c) && !v.is_empty())
        .map(|(c, _)| *c)
        .max()?;
    free.get_mut(&largest).and_then(Vec::pop).map(|_| largest)
}

impl Drop for Buf {
    fn drop(&mut self) {
        if let Some(pool) = &self.pool {
            let mut p = lock(pool);
            let size = self.buffer.size();
            // The buffer just used is the likeliest to be needed again (a stream of calls of
            // one shape): make room for it by dropping free buffers of other sizes, largest
            // first, rather than dropping it and creating a new one on the next call.
            while size <= p.limit && p.free_bytes + size > p.limit {
                let Some(dropped) = drop_largest(&mut p.free, |c| c != size) else {
                    break;
                };
                p.free_bytes -= dropped;
                p.released += 1;
            }
            if p.free_bytes + size <= p.limit {
                p.free_bytes += size;
                p.free.entry(size).or_default().push(self.buffer.clone());
            } else {
                p.released += 1;
            }
            // Otherwise the handle is dropped: wgpu frees the buffer once no recorded command
            // uses it (never `destroy()`, which would break commands still held back).
        }
    }
}

/// The buffers that hold an operand, `(byte start in the operand, buffer, bytes)` each.
pub(crate) type Pieces<'a> = Vec<(u64, &'a wgpu::Buffer, u64)>;

/// The buffers that hold an operand: [`Buf::segments`] for a `Buf`, the buffer itself for a
/// plain wgpu buffer; `(byte start in the operand, buffer, bytes)` each.
pub(crate) trait Segmented {
    fn pieces(&self) -> Vec<(u64, &wgpu::Buffer, u64)>;
}

impl Segmented for wgpu::Buffer {
    fn pieces(&self) -> Vec<(u64, &wgpu::Buffer, u64)> {
        vec![(0, self, self.size())]
    }
}

impl Segmented for Buf {
    fn pieces(&self) -> Vec<(u64, &wgpu::Buffer, u64)> {
        self.segments()
    }
}

/// What [`Buf::shared`] makes a handle on: a plain wgpu buffer, or a `Buf` (keeping its
/// segments).
pub(crate) trait Share {
    /// A handle on `self` that is never pooled.
    fn share(&self) -> Buf;
}

impl Share for wgpu::Buffer {
    fn share(&self) -> Buf {
        Buf {
            buffer: self.clone(),
            pool: None,
            window: None,
            segs: None,
        }
    }
}

impl Share for Buf {
    fn share(&self) -> Buf {
        Buf {
            buffer: self.buffer.clone(),
            pool: None,
            window: self.window,
            segs: self.segs.clone(),
        }
    }
}

impl Buf {
    /// A handle on a buffer owned elsewhere (a resident vector or matrix): never pooled.
    pub fn shared<B: Share + ?Sized>(buffer: &B) -> Self {
        buffer.share()
    }

    /// One `Buf` over `parts` (segments of `seg` bytes each, the last one possibly shorter,
    /// `total` bytes in all): see [`Segments`]. One part is that part itself.
    pub fn segmented(mut parts: Vec<Buf>, seg: u64, total: u64) -> Self {
        if parts.len() == 1 {
            return parts.pop().expect("one part");
        }
        Buf {
            buffer: parts[0].buffer.clone(),
            pool: None,
            window: None,
            segs: Some(Arc::new(Segments { parts, seg, total })),
        }
    }

    /// Bytes per segment of a segmented buffer (`None`: one buffer).
    pub fn segment_bytes(&self) -> Option<u64> {
        self.segs.as_ref().map(|s| s.seg)
    }

    /// The buffers holding this operand's bytes: `(byte start in the operand, buffer, bytes
    /// of it that belong to the operand)`, in order; one for a plain buffer (its whole size).
    pub fn segments(&self) -> Vec<(u64, &wgpu::Buffer, u64)> {
        match &self.segs {
            None => vec![(0, &self.buffer, self.buffer.size())],
            Some(s) => s
                .parts
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    let start = k as u64 * s.seg;
                    (start, &p.buffer, s.seg.min(s.total - start))
                })
                .collect(),
        }
    }

    /// Bytes `at .. at + bytes` of this operand, piece by piece in its segments: `(buffer,
    /// byte offset in it, bytes, byte offset of the piece from `at`)`; one piece for a plain
    /// buffer.
    pub fn split(&self, at: u64, bytes: u64) -> Vec<(&wgpu::Buffer, u64, u64, u64)> {
        self.segments()
            .into_iter()
            .filter_map(|(start, b, len)| {
                let lo = at.max(start);
                let hi = (at + bytes).min(start + len);
                let plain = self.segs.is_none();
                (plain || hi > lo)
                    .then(|| (b, lo - start, if plain { bytes } else { hi - lo }, lo - at))
            })
            .collect()
    }

    /// Whether `b` is this buffer or one of its segments.
    pub fn holds(&self, b: &wgpu::Buffer) -> bool {
        self.segments().iter().any(|(_, s, _)| *s == b)
    }

    /// The bytes `offset .. offset + size` of this buffer (offset relative to this window),
    /// as a binding of their own: a handle that is never pooled. `offset` must be a multiple
    /// of the device's `min_storage_buffer_offset_alignment`, and the window must lie inside
    /// this one (the caller's contract, `layout.rs`); in a segmented buffer, inside one
    /// segment (`offset` is then relative to the segment's start plus the segment's start).
    pub fn window(&self, offset: u64, size: u64) -> Self {
        if let Some(s) = &self.segs {
            let k = (offset / s.seg) as usize;
            let part = &s.parts[k.min(s.parts.len() - 1)];
            let local = offset - k as u64 * s.seg;
            debug_assert!(local + size <= part.size(), "a window across two segments");
            return part.window(local, size);
        }
        let base = self.offset();
        debug_assert!(offset + size <= self.size());
        Buf {
            buffer: self.buffer.clone(),
            pool: None,
            window: Some((base + offset, size)),
            segs: None,
        }
    }

    /// The bytes of the segment holding byte `offset` (for a plain buffer: the whole
    /// buffer): `(its byte start, bytes the segment's buffer holds)`.
    pub fn segment_at(&self, offset: u64) -> (u64, u64) {
        match &self.segs {
            None => (0, self.size()),
            Some(s) => {
                let k = ((offset / s.seg) as usize).min(s.parts.len() - 1);
                (k as u64 * s.seg, s.parts[k].size())
            }
        }
    }

    /// Byte offset of the bound window in the buffer (0 for a whole buffer).
    pub fn offset(&self) -> u64 {
        self.window.map_or(0, |w| w.0)
    }

    /// Bytes bound: the window's size, or the whole buffer's (a segmented buffer's: every
    /// segment's bytes).
    pub fn size(&self) -> u64 {
        if let Some(s) = &self.segs {
            return s.total;
        }
        self.window.map_or_else(|| self.buffer.size(), |w| w.1)
    }

    /// What this buffer or window binds: the buffer, the byte offset, and the bytes (`None`:
    /// the whole buffer), as [`Buf::binding`] binds them.
    pub fn bound(&self) -> (&wgpu::Buffer, u64, Option<u64>) {
        match self.window {
            None => (&self.buffer, 0, None),
            Some((offset, size)) => (&self.buffer, offset, Some(size)),
        }
    }

    /// The wgpu binding of this buffer or window (never of a segmented buffer, whose windows
    /// are bound instead).
    pub fn binding(&self) -> wgpu::BindingResource<'_> {
        debug_assert!(self.segs.is_none(), "a segmented buffer bound whole");
        match self.window {
            None => self.buffer.as_entire_binding(),
            Some((offset, size)) => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &self.buffer,
                offset,
                size: std::num::NonZeroU64::new(size),
            }),
        }
    }
}

/// The size class of a storage buffer of `bytes` bytes: the next power of two, except where
/// that would pass `max` (the device's storage-binding limit): then the exact size, rounded up
/// to a multiple of 4.
fn class_of(bytes: u64, max: u64) -> u64 {
    match bytes.max(MIN_CLASS).checked_next_power_of_two() {
        Some(c) if c <= max => c,
        _ => bytes.div_ceil(4) * 4,
    }
}

/// Take a buffer of at least `bytes` bytes from `pool`, or create one (outside the lock). A
/// failed creation (out of memory, past `max_buffer_size`) is reported by wgpu to the error
/// scope of the caller, or to the context's error sink (`Context::take_device_error`).
pub(crate) fn take(pool: &Arc<Mutex<Pool>>, device: &wgpu::Device, bytes: u64, max: u64) -> Buf {
    let class = class_of(bytes, max);
    let reused = {
        let mut p = lock(pool);
        let b = p.free.get_mut(&class).and_then(Vec::pop);
        if b.is_some() {
            p.free_bytes -= class;
        } else {
            p.created += 1;
        }
        b
    };
    let buffer = reused.unwrap_or_else(|| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgblas pooled"),
            size: class,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    });
    Buf {
        buffer,
        pool: Some(pool.clone()),
        window: None,
        segs: None,
    }
}

/// Bytes per segment of an operand of `total` bytes, past one buffer of `max` bytes, whose
/// lines are `line` bytes long: whole lines, as few segments as fit, of equal size (so that
/// the cuts fall where the blocks of halved sides fall, e.g. at row 16,384 of a 32,768-row
/// matrix), in multiples of 64 lines and of 256 bytes where that still fits (windows inside a
/// segment then keep their alignment), else of fewer; `None` when one line passes `max`.
pub(crate) fn segment_size(max: u64, line: u64, total: u64) -> Option<u64> {
    let line = line.max(1);
    if line > max {
        return None;
    }
    let cap = max / line;
    let lines = total.div_ceil(line).max(1);
    let fewest = lines.div_ceil(cap);
    let aligned = 256 / gcd(line, 256);
    for q in [aligned * 64 / gcd(aligned, 64), aligned, 1] {
        for count in fewest..fewest + 4 {
            let per = lines.div_ceil(count).div_ceil(q) * q;
            if per <= cap {
                return Some(per * line);
            }
        }
    }
    Some(cap * line)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Bytes held by the pool (free buffers), and buffers created so far.
pub(crate) fn stats(pool: &Arc<Mutex<Pool>>) -> (u64, u64) {
    let p = lock(pool);
    (p.free_bytes, p.created)
}

/// Change the limit; frees buffers down to it.
pub(crate) fn set_limit(pool: &Arc<Mutex<Pool>>, limit: u64) {
    let mut p = lock(pool);
    p.limit = limit;
    let mut sizes: Vec<u64> = p.free.keys().copied().collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    for size in sizes {
        while p.free_bytes > limit {
            if p.free.get_mut(&size).and_then(Vec::pop).is_none() {
                break;
            }
            p.free_bytes -= size;
            p.released += 1;
        }
    }
}

/// Buffers the pool has let go so far (dropped rather than kept, or evicted): when this
/// changes, a buffer that a cached bind group holds may be one that nothing else holds any more
/// (`launch/bindings.rs` then empties its cache, so that it never keeps device memory alive).
pub(crate) fn released(pool: &Arc<Mutex<Pool>>) -> u64 {
    lock(pool).released
}

pub(crate) fn limit(pool: &Arc<Mutex<Pool>>) -> u64 {
    lock(pool).limit
}

/// Free staging buffers of one direction, by size class.
#[derive(Debug, Default)]
struct FreeList {
    free: HashMap<u64, Vec<wgpu::Buffer>>,
    bytes: u64,
}

impl FreeList {
    fn pop(&mut self, class: u64) -> Option<wgpu::Buffer> {
        let b = self.free.get_mut(&class).and_then(Vec::pop)?;
        self.bytes -= class;
        Some(b)
    }

    /// Keep `b` if it fits the limit, dropping free buffers of larger classes first: a few
    /// large transfers must not crowd out the small buffers every call needs.
    fn push(&mut self, b: wgpu::Buffer) {
        let size = b.size();
        let limit = staging_limit();
        while self.bytes + size > limit {
            let Some(dropped) = drop_largest(&mut self.free, |c| c > size) else {
                break;
            };
            self.bytes -= dropped;
        }
        if self.bytes + size <= limit {
            self.bytes += size;
            self.free.entry(size).or_default().push(b);
        }
    }
}

/// The staging pools (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Staging {
    /// `MAP_WRITE | COPY_SRC` buffers, mapped, ready to be written.
    write: Arc<Mutex<FreeList>>,
    /// `MAP_READ | COPY_DST` buffers, unmapped, ready to be copied into.
    read: Mutex<FreeList>,
    /// `UNIFORM | COPY_DST` buffers for the params of one call's dispatches, free.
    uniform: Arc<Mutex<FreeList>>,
    /// Staging buffers created so far (both directions).
    created: std::sync::atomic::AtomicU64,
}

/// The staging size class for `bytes` (at most [`CHUNK`], which callers split by).
pub(crate) fn staging_class(bytes: u64) -> u64 {
    bytes
        .max(MIN_STAGING)
        .next_power_of_two()
        .min(CHUNK.max(MIN_STAGING))
}

/// The label and usage of upload staging buffers (`MAP_WRITE`).
const UPLOAD: (&str, wgpu::BufferUsages) = (
    "wgblas upload staging",
    wgpu::BufferUsages::MAP_WRITE.union(wgpu::BufferUsages::COPY_SRC),
);
/// The label and usage of params uniforms.
const PARAMS: (&str, wgpu::BufferUsages) = (
    "wgblas params",
    wgpu::BufferUsages::UNIFORM.union(wgpu::BufferUsages::COPY_DST),
);
/// The label and usage of read-back staging buffers (`MAP_READ`).
const READ_BACK: (&str, wgpu::BufferUsages) = (
    "wgblas read-back staging",
    wgpu::BufferUsages::MAP_READ.union(wgpu::BufferUsages::COPY_DST),
);

impl Staging {
    /// A new staging buffer of `size` bytes, of one kind ([`UPLOAD`], [`PARAMS`],
    /// [`READ_BACK`]), counted in `created`.
    fn create(
        &self,
        device: &wgpu::Device,
        (label, usage): (&'static str, wgpu::BufferUsages),
        size: u64,
        mapped_at_creation: bool,
    ) -> wgpu::Buffer {
        self.created
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation,
        })
    }

    /// A mapped `MAP_WRITE` staging buffer of at least `bytes` (≤ [`CHUNK`]) bytes.
    pub fn take_write(&self, device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
        let class = staging_class(bytes);
        if let Some(b) = lock(&self.write).pop(class) {
            return b;
        }
        // Let finished submissions run their map callbacks, then look again.
        let _ = device.poll(wgpu::PollType::Poll);
        if let Some(b) = lock(&self.write).pop(class) {
            return b;
        }
        self.create(device, UPLOAD, class, true)
    }

    /// Map `b` (a `MAP_WRITE` staging buffer just submitted) again; it returns to the pool when
    /// the device is done with the submission, and so do `uniforms` (the params pages that `b`
    /// filled in that submission), which no command can use any more by then.
    pub fn recycle_write(&self, b: wgpu::Buffer, uniforms: Vec<wgpu::Buffer>) {
        let free = self.write.clone();
        let pool = self.uniform.clone();
        let again = b.clone();
        b.map_async(wgpu::MapMode::Write, .., move |r| {
            if r.is_ok() {
                lock(&free).push(again);
                let mut free = lock(&pool);
                for u in uniforms {
                    free.push(u);
                }
            }
        });
    }

    /// A `UNIFORM | COPY_DST` buffer of at least `bytes` bytes, not used by any command that
    /// is held or running.
    pub fn take_uniform(&self, device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
        let class = staging_class(bytes);
        let pooled = lock(&self.uniform).pop(class);
        pooled.unwrap_or_else(|| self.create(device, PARAMS, class, false))
    }

    /// An unmapped `MAP_READ` staging buffer of at least `bytes` (≤ [`CHUNK`]) bytes.
    pub fn take_read(&self, device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
        let class = staging_class(bytes);
        let pooled = lock(&self.read).pop(class);
        pooled.unwrap_or_else(|| self.create(device, READ_BACK, class, false))
    }

    /// Put an unmapped read staging buffer back.
    pub fn recycle_read(&self, b: wgpu::Buffer) {
        lock(&self.read).push(b);
    }

    /// Staging buffers created so far.
    pub fn created(&self) -> u64 {
        self.created.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes() {
        assert_eq!(class_of(1, 1 << 30), 256);
        assert_eq!(class_of(1000, 1 << 30), 1024);
        assert_eq!(class_of(3 << 20, 4 << 20), 4 << 20);
        assert_eq!(class_of(5 << 20, 4 << 20), 5 << 20);
        // Past u64's largest power of two: the exact size, no overflow.
        assert_eq!(class_of((1 << 63) + 4, u64::MAX), (1 << 63) + 4);
        assert_eq!(staging_class(1), 4096);
        assert_eq!(staging_class(CHUNK + 1), CHUNK);
    }

    #[test]
    fn segments_hold_whole_lines_aligned_where_they_can() {
        let max = 4094 << 20;
        // 2^30 f32 (4 GiB) in two halves; a 32768² f32 matrix in two halves of whole rows.
        assert_eq!(segment_size(max, 4, 4 << 30), Some(2 << 30));
        assert_eq!(segment_size(max, 32_768 * 4, 4 << 30), Some(2 << 30));
        // 32,000² f32 (3.8 GiB) fits one buffer; 33,000 rows of 33,000 do not: two segments of
        // 16,512 rows (a multiple of 64 rows, and of 256 bytes).
        let s = segment_size(max, 132_000, 33_000 * 132_000).unwrap();
        assert_eq!((s / 132_000, s % 256), (16_512, 0));
        // 301 rows of 1,028 bytes in 64 KiB: 63 rows fit, 64 do not: five segments of 61.
        assert_eq!(segment_size(64 << 10, 1028, 301 * 1028), Some(61 * 1028));
        // Vectors of 100,003 f32 in 64 KiB: seven segments of 14,336 elements.
        assert_eq!(segment_size(64 << 10, 4, 400_012), Some(14_336 * 4));
        assert_eq!(segment_size(1000, 1001, 5000), None);
    }

    #[test]
    fn a_returning_buffer_evicts_other_sizes_instead_of_being_dropped() {
        let ctx = crate::Context::new().expect("the tests need a GPU adapter");
        ctx.set_pool_limit(4 << 20);
        drop(ctx.alloc("test", 4 << 20).unwrap());
        assert_eq!(ctx.pool_bytes(), 4 << 20);
        // A 1 MiB buffer returns to a full pool: the free 4 MiB one goes, it stays.
        drop(ctx.alloc("test", 1 << 20).unwrap());
        assert_eq!(ctx.pool_bytes(), 1 << 20);
        // So a stream of 1 MiB calls creates nothing more.
        let created = ctx.buffers_created();
        for _ in 0..5 {
            drop(ctx.alloc("test", 1 << 20).unwrap());
        }
        assert_eq!(ctx.buffers_created(), created);
        assert!(ctx.pool_bytes() <= ctx.pool_limit());
        // A buffer larger than the whole limit is never kept, and evicts nothing.
        drop(ctx.alloc("test", 8 << 20).unwrap());
        assert_eq!(ctx.pool_bytes(), 1 << 20);
    }
}
