//! Cached bind groups (issue 12): a chain of calls that binds the same buffers with the same
//! params reuses one bind group instead of creating one per call.
//!
//! A dispatch's params normally live in a slot of the submission's params page ([`Held`]),
//! which changes from call to call, so its bind group cannot be kept. Params seen a second time
//! are instead *promoted*: written once into a slot of a persistent uniform buffer that is never
//! written again while it is cached, except for the fields a dispatch patches from a device
//! scalar (alpha, beta), which every such dispatch copies into its slot just before it runs
//! (in queue order, so each one reads its own). Params patched in different fields get
//! different slots. A bind group over promoted params is keyed by (pipeline, params slot,
//! storage bindings) and kept.
//!
//! A cached bind group keeps its buffers alive. So that the cache never holds device memory
//! past the pool's limit, it is emptied whenever the pool lets a buffer go
//! ([`pool::released`]), and when it holds [`MAX_GROUPS`] groups or [`MAX_PARAMS`] params.
//! A bind group enters the cache only once the call that created it returned no error.
//!
//! [`Held`]: super::Held

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::command::{BindCache, Key};
use super::Dispatch;
use crate::context::Context;
use crate::pool::{self, lock};

/// Most bind groups kept.
const MAX_GROUPS: usize = 4096;

/// Most promoted params kept (and params seen once, remembered).
const MAX_PARAMS: usize = 2048;

/// Bytes of one persistent params buffer.
const PAGE: u64 = 64 << 10;

/// A bind group made for the cache, to be kept once its call returned no error.
pub(crate) type Fresh = (Key, wgpu::BindGroup);

impl Context {
    /// The bind group of `d` (run by `pipeline`) from the cache, or a new one over promoted
    /// params (returned in `fresh` too, for [`Context::keep_groups`]), with the params buffer
    /// and the byte offset of its slot (where `d`'s patches copy their fields before it runs);
    /// `None` when `d`'s params are not promoted (seen for the first time).
    pub(super) fn cached_group(
        &self,
        pipeline: &Arc<wgpu::ComputePipeline>,
        d: &Dispatch<'_>,
        fresh: &mut Vec<Fresh>,
    ) -> Option<(wgpu::BindGroup, wgpu::Buffer, u64)> {
        // Patched params get slots of their own, by the fields they patch: every call copies
        // those fields in before it runs, and the other bytes never change.
        let patched;
        let params = if d.patches.is_empty() {
            &d.params[..]
        } else {
            let mut key = d.params.clone();
            for &(field, _, _) in &d.patches {
                key.extend_from_slice(&field.to_le_bytes());
            }
            key.push(d.patches.len() as u8);
            patched = key;
            &patched[..]
        };
        let released = pool::released(&self.pool);
        let mut c = lock(&self.bind_cache);
        if c.released != released {
            c.clear();
            c.released = released;
        }
        let slot = match c.params.get(params) {
            Some(&s) => s,
            None => {
                if c.seen.len() >= MAX_PARAMS || c.params.len() >= MAX_PARAMS {
                    c.clear();
                }
                if c.seen.insert(params.to_vec()) {
                    return None;
                }
                let s = self.promote(&mut c, &d.params);
                c.params.insert(params.to_vec(), s);
                s
            }
        };
        let key: Key = (
            Arc::as_ptr(pipeline) as usize,
            (slot.0, slot.1),
            d.buffers
                .iter()
                .map(|&(binding, b)| {
                    let (buffer, offset, size) = b.bound();
                    (binding, buffer.clone(), offset, size)
                })
                .collect(),
        );
        let page = c.pages[slot.0].clone();
        if let Some(g) = c.groups.get(&key) {
            return Some((g.clone(), page, slot.1));
        }
        drop(c);
        if let Some((_, g)) = fresh.iter().find(|(k, _)| *k == key) {
            return Some((g.clone(), page, slot.1));
        }
        let group = self.bind_group(pipeline, d, &page, slot.1, slot.2);
        fresh.push((key, group.clone()));
        Some((group, page, slot.1))
    }

    /// A slot for `params` in the persistent params buffers, written at once
    /// (`Queue::write_buffer`, which lands before the next submission, the first that can
    /// bind it); never written again while cached.
    fn promote(&self, c: &mut BindCache, params: &[u8]) -> (usize, u64, u64) {
        let align = u64::from(self.limits().min_uniform_buffer_offset_alignment).max(16);
        let len = (params.len() as u64).max(16).div_ceil(16) * 16;
        let at = c.used.div_ceil(align) * align;
        if c.pages.is_empty() || at + len > c.pages[c.pages.len() - 1].size() {
            let size = PAGE.max(len);
            c.pages
                .push(self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("wgblas cached params"),
                    size,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }));
            c.used = 0;
        }
        let page = c.pages.len() - 1;
        let at = c.used.div_ceil(align) * align;
        let mut bytes = params.to_vec();
        bytes.resize(len as usize, 0);
        self.queue.write_buffer(&c.pages[page], at, &bytes);
        c.used = at + len;
        (page, at, len)
    }

    /// Keep the bind groups of a call that returned no error.
    pub(super) fn keep_groups(&self, fresh: Vec<Fresh>) {
        if fresh.is_empty() {
            return;
        }
        let mut c = lock(&self.bind_cache);
        if c.released != pool::released(&self.pool) {
            // Their buffers may be gone from the pool since: not kept.
            return;
        }
        for (key, group) in fresh {
            if c.groups.len() >= MAX_GROUPS {
                c.groups.clear();
            }
            c.groups.insert(key, group);
        }
    }

    /// The bind group of `d` with its params at bytes `slot .. slot + len` of `uniform`.
    pub(super) fn bind_group(
        &self,
        pipeline: &wgpu::ComputePipeline,
        d: &Dispatch<'_>,
        uniform: &wgpu::Buffer,
        slot: u64,
        len: u64,
    ) -> wgpu::BindGroup {
        let mut entries = Vec::with_capacity(d.buffers.len() + 1);
        entries.push(wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: uniform,
                offset: slot,
                size: std::num::NonZeroU64::new(len),
            }),
        });
        for &(binding, b) in &d.buffers {
            entries.push(wgpu::BindGroupEntry {
                binding,
                resource: b.binding(),
            });
        }
        self.counters.bind_groups.fetch_add(1, Ordering::Relaxed);
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(d.entry),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }
}
