//! Moving elements between ndarray views and mapped staging memory, without intermediate
//! copies: a [`Source`] gathers a view's elements straight into an upload staging buffer, a
//! [`Dest`] scatters read-back memory straight into a view. Large copies are split over
//! several threads of one pool (`rayon`, started once; memory copies into host-visible memory
//! and out of it are limited per core, not by the bus).
//!
//! A view reaches the device in one of two orders:
//! - **dense**: a view without gaps (C order, F order, transposed, negative strides: every
//!   address between its lowest and highest element is one of its elements) is copied as the
//!   memory span it covers, byte for byte, and the kernels address it through its strides;
//! - **packed**: any other view (a step of 2 or more, a sub-matrix of a wider array, a
//!   broadcast) is gathered element by element in its logical C order.
//!
//! Only the view's own elements are ever read or written: a view with gaps is never read as a
//! span, so memory between its elements, which safe code may hold mutably elsewhere (for
//! example the other half of `multi_slice_mut`), is never touched.

use std::marker::PhantomData;
use std::sync::OnceLock;

/// Bytes from which a zeroed allocation is cleared here in parts ([`zeros_vec`]).
const PAR_MIN_BYTES: usize = 1 << 20;

/// Bytes of the smallest part of a copy split over threads: [`crate::lab::copy_part`] (256 KiB
/// by default); a copy below two parts stays on the calling thread.
pub(crate) fn min_part() -> usize {
    crate::lab::copy_part()
}

/// Threads used for large host copies: `WGBLAS_COPY_THREADS`, or the available cores (at most
/// 16).
pub(crate) fn threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("WGBLAS_COPY_THREADS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1)
                    .min(16)
            })
    })
}

/// Threads a large copy is split over now: [`threads`], capped by
/// [`crate::lab::set_copy_threads`].
fn active_threads() -> usize {
    match crate::lab::copy_threads() {
        0 => threads(),
        n => threads().min(n as usize),
    }
}

/// The threads of the large host copies: a `rayon` pool of [`threads`] threads, made once per
/// process (spawning threads for each copy cost tens of microseconds a thread, per chunk).
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads())
            .thread_name(|i| format!("wgblas-copy-{i}"))
            .build()
            .expect("wgblas: the host copy threads could not be started")
    })
}

/// Run `f(lo, hi)` over `0..n` split into contiguous parts, on several threads (the copy pool;
/// the caller's thread takes the first part) when the parts are at least `min_part` long.
pub(crate) fn par_range(n: usize, min_part: usize, f: impl Fn(usize, usize) + Sync) {
    let parts = active_threads().min(n / min_part.max(1)).max(1);
    if parts == 1 {
        f(0, n);
        return;
    }
    let step = n.div_ceil(parts);
    let f = &f;
    pool().in_place_scope(|s| {
        for p in 1..parts {
            let lo = (p * step).min(n);
            let hi = ((p + 1) * step).min(n);
            s.spawn(move |_| f(lo, hi));
        }
        f(0, step.min(n));
    });
}

/// Bytes from which a fresh output is marked for huge pages ([`advise_huge_pages`]).
const LARGE_OUTPUT: usize = 4 << 20;

/// Whether fresh outputs are marked for huge pages: `WGBLAS_HUGE_PAGES`, a yes/no value as
/// `crate::context::parse_flag` reads it (checked when a context is created, so a value that
/// does not parse has already failed there), yes when unset.
fn huge_pages() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("WGBLAS_HUGE_PAGES").map_or(true, |v| {
            crate::context::parse_flag("WGBLAS_HUGE_PAGES", &v).unwrap_or(true)
        })
    })
}

/// Mark the `bytes` bytes at `ptr` (a fresh allocation of the caller's) for transparent huge
/// pages where the kernel allows it (Linux `madvise(MADV_HUGEPAGE)`, a hint), when they are at
/// least [`LARGE_OUTPUT`]; from the first page boundary inside the allocation on.
fn advise_huge_pages(ptr: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    if bytes >= LARGE_OUTPUT && huge_pages() {
        let page = 4096usize;
        let start = (ptr as usize).div_ceil(page) * page;
        let end = ptr as usize + bytes;
        if end > start {
            // SAFETY: the range lies inside the caller's allocation (page-aligned start);
            // MADV_HUGEPAGE is a hint that changes no contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    let _ = (ptr, bytes);
}

/// An empty `Vec` with room for `len` elements, for an output that is about to be written in
/// full. Large ones are backed by transparent huge pages where the kernel allows it (Linux
/// `madvise(MADV_HUGEPAGE)`, a hint): writing fresh memory costs a page fault per 4 KiB page
/// otherwise, which on the H200 host limited read-back into a new array to about 1 GB/s per
/// thread, below the bus.
pub(crate) fn alloc_vec<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(v.as_ptr().cast(), len * std::mem::size_of::<T>());
    v
}

/// Bytes up to which the system allocator may hand out reused heap memory that it must clear
/// itself (glibc's largest mmap threshold, 32 MiB on 64-bit hosts): below it a large zeroed
/// allocation is cleared here on the copy threads instead, by parts.
const HEAP_ZEROED: usize = 32 << 20;

/// A zero-filled `Vec` of `len` elements, `None` when the host cannot allocate it (instead of
/// Rust's abort on a failed allocation). Large ones (at least [`HEAP_ZEROED`] bytes) come zeroed
/// from the allocator (`alloc_zeroed`: fresh pages from the operating system, which are zero
/// without being written), so nothing is written here: an output that a read-back is about to
/// fill costs no pass of its own, and its page faults are taken by the read-back's threads.
/// Smaller ones from 1 MiB on may be reused heap memory, which `alloc_zeroed` would clear on
/// the calling thread (0.8 ms for 16 MiB on the H200 host): they are cleared here in parallel
/// parts ([`par_range`]). Large ones are marked for transparent huge pages as in [`alloc_vec`].
pub(crate) fn zeros_vec<T: bytemuck::Zeroable + Copy + Send + Sync>(len: usize) -> Option<Vec<T>> {
    let size = std::mem::size_of::<T>();
    if len == 0 || size == 0 {
        return Some(vec![T::zeroed(); len]);
    }
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    let bytes = layout.size();
    let cleared_here = (PAR_MIN_BYTES..HEAP_ZEROED).contains(&bytes);
    // SAFETY: `layout` has a non-zero size (len > 0, size > 0).
    let ptr = unsafe {
        if cleared_here {
            std::alloc::alloc(layout)
        } else {
            std::alloc::alloc_zeroed(layout)
        }
    };
    if ptr.is_null() {
        return None;
    }
    advise_huge_pages(ptr, bytes);
    if cleared_here {
        let at = ptr as usize;
        par_range(bytes, PAR_MIN_BYTES / 4, |lo, hi| {
            // SAFETY: `[lo, hi)` lies inside the allocation; the parts are disjoint.
            unsafe { std::ptr::write_bytes((at + lo) as *mut u8, 0, hi - lo) }
        });
    }
    let ptr = ptr.cast::<T>();
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[T; len]`, and
    // all-zero bytes are a valid `T` (`Zeroable`), all written above or by `alloc_zeroed`, so
    // all `len` elements are initialised.
    Some(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// Fault in the pages of the `bytes` bytes at `ptr` ahead of a copy into them, on the copy
/// threads: each page's first byte is read and written back unchanged (volatile, so the write
/// is not elided), which maps a page that was reserved but never touched (a fresh zeroed
/// allocation) and costs nothing more on one already mapped. A fresh output costs a page fault
/// per page (or per huge page) on first write; taken here, while the device still computes,
/// they are off the read-back's path.
///
/// # Safety
/// The bytes are valid for reads and writes, and nothing else accesses them meanwhile.
pub(crate) unsafe fn touch_pages(ptr: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    let at = ptr as usize;
    let pages = bytes.div_ceil(PAGE);
    par_range(pages, (min_part() / PAGE).max(1), |lo, hi| {
        for p in lo..hi {
            let q = (at + p * PAGE) as *mut u8;
            // SAFETY: `p * PAGE < bytes`: inside the caller's range, which only this call
            // accesses meanwhile.
            unsafe { q.write_volatile(q.read_volatile()) };
        }
    });
}

/// A byte buffer that several threads write disjoint parts of (read-back chunks).
pub(crate) struct SharedBytes<'a> {
    ptr: SendPtr<u8>,
    len: usize,
    _b: PhantomData<&'a mut [u8]>,
}

impl<'a> SharedBytes<'a> {
    /// The spare capacity of `v` (its first `bytes` bytes), to be written in full before
    /// `set_len`.
    pub fn spare<T>(v: &'a mut Vec<T>, bytes: usize) -> Self {
        assert!(bytes <= v.capacity() * std::mem::size_of::<T>());
        SharedBytes {
            ptr: SendPtr(v.as_mut_ptr().cast()),
            len: bytes,
            _b: PhantomData,
        }
    }

    pub fn new(bytes: &'a mut [u8]) -> Self {
        SharedBytes {
            ptr: SendPtr(bytes.as_mut_ptr()),
            len: bytes.len(),
            _b: PhantomData,
        }
    }

    /// Fault in the buffer's pages ahead of the writes that fill it, on the copy threads, when
    /// it is at least [`LARGE_OUTPUT`] bytes: the first byte of each page is written (a zero,
    /// volatile, so the write is not elided; the buffer is about to be written in full), which
    /// maps a page that was reserved but never touched (a fresh allocation) and costs little on
    /// one already mapped.
    ///
    /// # Safety
    /// No other thread reads or writes the buffer meanwhile.
    pub unsafe fn fault_in(&self) {
        const PAGE: usize = 4096;
        if self.len < LARGE_OUTPUT {
            return;
        }
        let at = self.ptr;
        par_range(
            self.len.div_ceil(PAGE),
            (min_part() / PAGE).max(1),
            |lo, hi| {
                for p in lo..hi {
                    // SAFETY: `p * PAGE < len`: inside the buffer, which is written in full
                    // afterwards (the type's contract) and accessed by nothing else meanwhile
                    // (the function's).
                    unsafe { at.get().add(p * PAGE).write_volatile(0) };
                }
            },
        );
    }

    /// Copy `src` to byte `off` (clipped to the buffer).
    ///
    /// # Safety
    /// No other thread writes the same bytes at the same time.
    pub unsafe fn write(&self, off: usize, src: &[u8]) {
        let n = src.len().min(self.len.saturating_sub(off));
        // SAFETY: `off + n ≤ len`; disjointness is the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.get().add(off), n) };
    }
}

#[derive(Clone, Copy)]
struct SendPtr<T>(*mut T);
// SAFETY: used only to hand disjoint parts of one exclusively borrowed buffer to scoped
// threads.
unsafe impl<T> Send for SendPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SendPtr<T> {}
impl<T> SendPtr<T> {
    fn get(self) -> *mut T {
        self.0
    }
}

/// How a view's elements are laid out on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// The view's memory span, as it is: `base` is its lowest element.
    Dense,
    /// The elements in logical C order: `base` is logical element 0, `rs`, `cs` its strides.
    Packed {
        rows: usize,
        cols: usize,
        rs: isize,
        cs: isize,
    },
}

/// A view's elements as the device receives them (see the module docs).
pub(crate) struct Plan<'v, T> {
    base: *mut T,
    order: Order,
    len: usize,
    /// Elements of one line of a matrix on the device (the run along its unit-stride axis,
    /// where both axes are longer than 1), else 1: an operand held in several buffers is cut
    /// between lines only (`launch.rs`), so that every line lies in one buffer.
    line: usize,
    _v: PhantomData<&'v mut [T]>,
}

// SAFETY: a `Plan` is a borrow of the view's elements (shared for a `Source`, exclusive for a
// `Dest`); moving or sharing it between threads is as safe as for `&[T]` / `&mut [T]` with
// `T: Send + Sync` (the element types are plain numbers).
unsafe impl<T: Send + Sync> Send for Plan<'_, T> {}
// SAFETY: as above; threads touch disjoint parts only.
unsafe impl<T: Send + Sync> Sync for Plan<'_, T> {}

/// Gathers elements for an upload.
pub(crate) type Source<'v, T> = Plan<'v, T>;
/// Scatters read-back elements into a view.
pub(crate) type Dest<'v, T> = Plan<'v, T>;

/// The span of a view: offset (in elements, ≤ 0) of its lowest element from logical element 0,
/// and elements from lowest to highest inclusive.
pub(crate) fn span_of(shape: &[usize], strides: &[isize]) -> (isize, usize) {
    let mut low = 0isize;
    let mut high = 0isize;
    for (&n, &s) in shape.iter().zip(strides) {
        if n == 0 {
            return (0, 0);
        }
        let ext = (n as isize - 1) * s;
        if ext < 0 {
            low += ext;
        } else {
            high += ext;
        }
    }
    (low, (high - low) as usize + 1)
}

/// Whether the view's elements fill its span exactly: no gaps and no element seen twice.
pub(crate) fn is_dense(shape: &[usize], strides: &[isize]) -> bool {
    // Axes of length 1 do not matter; the others, sorted by |stride|, must each step by the
    // product of the lengths before them.
    let mut axes: Vec<(usize, usize)> = shape
        .iter()
        .zip(strides)
        .filter(|(&n, _)| n > 1)
        .map(|(&n, &s)| (s.unsigned_abs(), n))
        .collect();
    axes.sort_unstable();
    let mut expect = 1usize;
    for (s, n) in axes {
        if s != expect {
            return false;
        }
        expect *= n;
    }
    true
}

impl<'v, T: Copy + Send + Sync> Plan<'v, T> {
    /// A contiguous slice, as a dense source.
    pub fn slice(data: &'v [T]) -> Self {
        Plan {
            base: data.as_ptr().cast_mut(),
            order: Order::Dense,
            len: data.len(),
            line: 1,
            _v: PhantomData,
        }
    }

    /// The plan of a view given by its pointer to logical element 0, shape and strides (1-D:
    /// one axis). Returns the plan, the device offset of logical element 0 and the device
    /// strides.
    ///
    /// # Safety
    /// `ptr`, `shape` and `strides` must describe a valid ndarray view borrowed for `'v`
    /// (shared for reading, exclusive for writing through the plan).
    pub unsafe fn of_view(
        ptr: *mut T,
        shape: &[usize],
        strides: &[isize],
    ) -> (Self, usize, Vec<isize>) {
        let count: usize = shape.iter().product();
        if count == 0 {
            let p = Plan {
                base: ptr,
                order: Order::Dense,
                len: 0,
                line: 1,
                _v: PhantomData,
            };
            return (p, 0, vec![1; shape.len()]);
        }
        if is_dense(shape, strides) {
            let (low, len) = span_of(shape, strides);
            // Both axes longer than 1: a line is the run along the unit-stride axis.
            let line = match (shape, strides) {
                ([m, n], [rs, _]) if *m > 1 && *n > 1 && rs.unsigned_abs() == 1 => *m,
                ([m, n], _) if *m > 1 && *n > 1 => *n,
                _ => 1,
            };
            let p = Plan {
                // SAFETY: the lowest element of the view is `low` elements from element 0.
                base: unsafe { ptr.offset(low) },
                order: Order::Dense,
                len,
                line,
                _v: PhantomData,
            };
            return (p, (-low) as usize, strides.to_vec());
        }
        // SAFETY: the caller's contract.
        (unsafe { Self::of_view_packed(ptr, shape, strides) }, 0, {
            if shape.len() == 1 {
                vec![1]
            } else {
                vec![shape[1] as isize, 1]
            }
        })
    }

    /// The packed (logical C order) plan of a view, whatever its strides.
    ///
    /// # Safety
    /// As [`Plan::of_view`].
    pub unsafe fn of_view_packed(ptr: *mut T, shape: &[usize], strides: &[isize]) -> Self {
        let count: usize = shape.iter().product();
        let (rows, cols, rs, cs) = match (shape, strides) {
            // One row of n elements with stride s: a single strided run.
            ([n], [s]) => (1, *n, 0, *s),
            ([m, n], [rs, cs]) => (*m, *n, *rs, *cs),
            _ => unreachable!("views are 1-D or 2-D"),
        };
        Plan {
            base: ptr,
            order: Order::Packed { rows, cols, rs, cs },
            len: count,
            line: if rows > 1 && cols > 1 { cols } else { 1 },
            _v: PhantomData,
        }
    }

    /// Elements on the device.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Elements of one line on the device (see the field's docs).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The same plan with lines of `line` elements (a matrix handed over as a flat slice).
    pub fn with_line(mut self, line: usize) -> Self {
        self.line = line.max(1);
        self
    }

    /// The device order.
    #[cfg(test)]
    pub fn order(&self) -> Order {
        self.order
    }

    /// Copy device elements `lo..hi` between the view and `dev` (which points at device
    /// element `lo`): `to_dev` gathers from the view, otherwise scatters into it.
    ///
    /// # Safety
    /// `dev` must be valid for `hi - lo` elements (writes when `to_dev`, reads otherwise) and
    /// not overlap the view; `lo ≤ hi ≤ len`; for a scatter the plan must come from a view
    /// borrowed mutably.
    unsafe fn run(&self, lo: usize, hi: usize, dev: *mut T, to_dev: bool) {
        let size = std::mem::size_of::<T>().max(1);
        let dev = SendPtr(dev);
        par_range(hi - lo, min_part() / size, |a, b| {
            // SAFETY: parts are disjoint; see the function's contract.
            unsafe { self.run_serial(lo + a, lo + b, dev.get().add(a), to_dev) }
        });
    }

    /// [`Plan::run`] on the calling thread.
    unsafe fn run_serial(&self, lo: usize, hi: usize, dev: *mut T, to_dev: bool) {
        // SAFETY (for the whole body): in the dense order, device elements `lo..hi` are the
        // span's elements `lo..hi`, all of them the view's own; in the packed order, device
        // element `k` is logical element `(k / cols, k % cols)`, at `base + i·rs + j·cs`, an
        // element of the view. `dev` holds `hi - lo` elements (the caller's contract).
        unsafe {
            match self.order {
                Order::Dense => {
                    let v = self.base.add(lo);
                    if to_dev {
                        std::ptr::copy_nonoverlapping(v, dev, hi - lo);
                    } else {
                        std::ptr::copy_nonoverlapping(dev, v, hi - lo);
                    }
                }
                Order::Packed { cols, rs, cs, .. } => {
                    let mut k = lo;
                    while k < hi {
                        let (i, j) = (k / cols, k % cols);
                        let run = (cols - j).min(hi - k);
                        let row = self.base.offset(i as isize * rs + j as isize * cs);
                        let d = dev.add(k - lo);
                        if cs == 1 {
                            if to_dev {
                                std::ptr::copy_nonoverlapping(row, d, run);
                            } else {
                                std::ptr::copy_nonoverlapping(d, row, run);
                            }
                        } else {
                            for t in 0..run {
                                let v = row.offset(t as isize * cs);
                                if to_dev {
                                    *d.add(t) = *v;
                                } else {
                                    *v = *d.add(t);
                                }
                            }
                        }
                        k += run;
                    }
                }
            }
        }
    }

    /// Gather device elements `lo..hi` into `dev`.
    ///
    /// # Safety
    /// `dev` must be valid for writes of `hi - lo` elements and not overlap the view;
    /// `lo ≤ hi ≤ len`.
    pub unsafe fn fill(&self, lo: usize, hi: usize, dev: *mut T) {
        // SAFETY: the caller's contract.
        unsafe { self.run(lo, hi, dev, true) }
    }

    /// [`Plan::scatter`] on the calling thread (for callers that split the work themselves).
    ///
    /// # Safety
    /// As [`Plan::scatter`]; no other thread scatters the same elements at the same time.
    pub unsafe fn scatter_serial(&self, lo: usize, dev: &[T]) {
        let n = dev.len().min(self.len.saturating_sub(lo));
        // SAFETY: the caller's contract; `dev` is read only; `lo + n ≤ len`.
        unsafe { self.run_serial(lo, lo + n, dev.as_ptr().cast_mut(), false) }
    }

    /// Scatter `dev`, device elements `lo..lo + dev.len()`, into the view.
    ///
    /// # Safety
    /// The plan must come from a view borrowed mutably (`Plan::of_view` on `as_mut_ptr`), alive
    /// for this call; `lo + dev.len() ≤ len`.
    #[cfg(test)]
    pub unsafe fn scatter(&self, lo: usize, dev: &[T]) {
        // SAFETY: the caller's contract; `dev` is read only.
        unsafe { self.run(lo, lo + dev.len(), dev.as_ptr().cast_mut(), false) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array1, Array2};

    #[test]
    fn zeros_vec_is_zero_at_every_size_and_none_past_memory() {
        for len in [0usize, 1, 1000, 3 << 20] {
            let v = zeros_vec::<f32>(len).unwrap();
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x.to_bits() == 0), "len {len}");
        }
        let v = zeros_vec::<f64>(5 << 20).unwrap();
        assert!(v.iter().all(|&x| x.to_bits() == 0));
        // Past what any host can give: a typed `None`, not an abort.
        assert!(zeros_vec::<f64>(usize::MAX / 16).is_none());
        assert!(zeros_vec::<f32>(usize::MAX / 2).is_none());
    }

    #[test]
    fn dense_views() {
        assert!(is_dense(&[3, 4], &[4, 1]));
        assert!(is_dense(&[3, 4], &[1, 3]));
        assert!(is_dense(&[3, 4], &[-4, 1]));
        assert!(is_dense(&[3, 1], &[1, 7]));
        assert!(!is_dense(&[3, 1], &[7, 1]));
        assert!(is_dense(&[5], &[-1]));
        assert!(!is_dense(&[3, 4], &[8, 2]));
        assert!(!is_dense(&[3, 4], &[5, 1]));
        assert!(!is_dense(&[5], &[2]));
        // Broadcast: an element seen twice is not dense.
        assert!(!is_dense(&[3, 4], &[0, 1]));
    }

    #[test]
    fn gather_and_scatter_strided() {
        let a = Array2::<f32>::from_shape_fn((4, 6), |(i, j)| (10 * i + j) as f32);
        let v = a.slice(s![..;-2, 1..;2]);
        let (p, off, st) = unsafe { Plan::of_view(v.as_ptr().cast_mut(), v.shape(), v.strides()) };
        assert_eq!((off, st.as_slice()), (0, &[3isize, 1][..]));
        let mut dev = vec![0f32; p.len()];
        unsafe { p.fill(0, p.len(), dev.as_mut_ptr()) };
        assert_eq!(dev, vec![31., 33., 35., 11., 13., 15.]);

        let mut b = Array1::<f32>::zeros(7);
        let mut bv = b.slice_mut(s![..;3]);
        let (p, _, _) = unsafe { Plan::of_view(bv.as_mut_ptr(), bv.shape(), bv.strides()) };
        unsafe { p.scatter(1, &[5.0, 6.0]) };
        assert_eq!(b.to_vec(), vec![0., 0., 0., 5., 0., 0., 6.]);
    }

    #[test]
    fn dense_transposed_reversed() {
        let a = Array2::<f32>::from_shape_fn((3, 2), |(i, j)| (10 * i + j) as f32);
        let v = a.slice(s![..;-1, ..]);
        let (p, off, st) = unsafe { Plan::of_view(v.as_ptr().cast_mut(), v.shape(), v.strides()) };
        assert_eq!(p.order(), Order::Dense);
        assert_eq!((off, st.as_slice()), (4, &[-2isize, 1][..]));
        let mut dev = vec![0f32; p.len()];
        unsafe { p.fill(0, p.len(), dev.as_mut_ptr()) };
        assert_eq!(dev, vec![0., 1., 10., 11., 20., 21.]);
    }
}
