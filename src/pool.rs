//! The buffer pool: storage buffers are reused across calls instead of created and destroyed
//! each time.
//!
//! Buffers are kept by size class (powers of two from 256 bytes). A buffer leaving use (an
//! operand's upload, a scratch buffer, a dropped [`GpuVector`](crate::GpuVector)) goes back to
//! the pool while the bytes the pool holds stay within its limit, and is destroyed otherwise,
//! so the pool never holds more than [`Context::pool_limit`](crate::Context::pool_limit)
//! bytes. Host data reaches a pooled buffer through `Queue::write_buffer`, which the queue
//! orders after every command submitted before it; the launch path submits the commands it
//! holds back before any such write (see `launch.rs`), so a buffer is never overwritten before
//! the commands that read its previous contents have run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Smallest size class, in bytes.
const MIN_CLASS: u64 = 256;

#[derive(Debug)]
pub(crate) struct Pool {
    free: HashMap<u64, Vec<wgpu::Buffer>>,
    free_bytes: u64,
    limit: u64,
    created: u64,
}

impl Pool {
    pub fn new(limit: u64) -> Self {
        Pool {
            free: HashMap::new(),
            free_bytes: 0,
            limit,
            created: 0,
        }
    }
}

/// A storage buffer that goes back to its pool when dropped (or a resident buffer, shared).
#[derive(Debug)]
pub(crate) struct Buf {
    buffer: wgpu::Buffer,
    pool: Option<Arc<Mutex<Pool>>>,
}

impl std::ops::Deref for Buf {
    type Target = wgpu::Buffer;
    fn deref(&self) -> &wgpu::Buffer {
        &self.buffer
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        if let Some(pool) = &self.pool {
            let mut p = pool.lock().expect("buffer pool poisoned");
            let size = self.buffer.size();
            if p.free_bytes + size <= p.limit {
                p.free_bytes += size;
                p.free.entry(size).or_default().push(self.buffer.clone());
            }
            // Otherwise the handle is dropped: wgpu frees the buffer once no recorded command
            // uses it (never `destroy()`, which would break commands still held back).
        }
    }
}

impl Buf {
    /// A handle on a buffer owned elsewhere (a resident vector or matrix): never pooled.
    pub fn shared(buffer: &wgpu::Buffer) -> Self {
        Buf {
            buffer: buffer.clone(),
            pool: None,
        }
    }
}

/// Take a buffer of at least `bytes` bytes from `pool`, or create one. Sizes are rounded up to
/// a power of two, except where that would pass `max` (the device's storage-binding limit):
/// such a buffer gets its exact size (a multiple of 4).
pub(crate) fn take(pool: &Arc<Mutex<Pool>>, device: &wgpu::Device, bytes: u64, max: u64) -> Buf {
    let class = match bytes.max(MIN_CLASS).next_power_of_two() {
        c if c > max => bytes.div_ceil(4) * 4,
        c => c,
    };
    let mut p = pool.lock().expect("buffer pool poisoned");
    let reused = p.free.get_mut(&class).and_then(Vec::pop);
    let buffer = match reused {
        Some(b) => {
            p.free_bytes -= class;
            b
        }
        None => {
            p.created += 1;
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgblas pooled"),
                size: class,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        }
    };
    Buf {
        buffer,
        pool: Some(pool.clone()),
    }
}

/// Bytes held by the pool (free buffers), and buffers created so far.
pub(crate) fn stats(pool: &Arc<Mutex<Pool>>) -> (u64, u64) {
    let p = pool.lock().expect("buffer pool poisoned");
    (p.free_bytes, p.created)
}

/// Change the limit; frees buffers down to it.
pub(crate) fn set_limit(pool: &Arc<Mutex<Pool>>, limit: u64) {
    let mut p = pool.lock().expect("buffer pool poisoned");
    p.limit = limit;
    let mut sizes: Vec<u64> = p.free.keys().copied().collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    for size in sizes {
        while p.free_bytes > limit {
            if p.free.get_mut(&size).and_then(Vec::pop).is_none() {
                break;
            }
            p.free_bytes -= size;
        }
    }
}

pub(crate) fn limit(pool: &Arc<Mutex<Pool>>) -> u64 {
    pool.lock().expect("buffer pool poisoned").limit
}
