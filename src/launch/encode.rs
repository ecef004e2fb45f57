//! Encoding of a submission's commands ([`Context::encode`]): the params pages through one
//! staging buffer first, then the dispatches (consecutive ones in one compute pass), copies and
//! clears in order.

use super::*;

impl Context {
    /// Encode `commands` in order: first the params pages ([`Command::Params`]), all through
    /// one staging buffer, then the rest: consecutive dispatches share one compute pass; copies
    /// and clears go between passes. With `timer`, timestamps 0 and 1 mark the start of the
    /// first pass and the end of the last. Returns the staging buffers used, each with the
    /// uniform buffers it filled, to recycle once submitted.
    pub(super) fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        commands: Vec<Command>,
        timer: Option<&wgpu::QuerySet>,
    ) -> Vec<(wgpu::Buffer, Vec<wgpu::Buffer>)> {
        let mut staged = Vec::new();
        // Params first: each page belongs to this submission alone (see `Command::Params`), so
        // writing them all before any dispatch changes nothing.
        let mut rest = Vec::with_capacity(commands.len());
        let mut pages = Vec::new();
        for c in commands {
            match c {
                Command::Params { uniform, bytes } => pages.push((uniform, bytes)),
                c => rest.push(c),
            }
        }
        if let Some(s) = self.stage_pages(encoder, pages) {
            staged.push(s);
        }
        encode_rest(encoder, rest, timer, &mut staged);
        staged
    }

    /// The copies of params `pages` into their uniform buffers, through one staging buffer
    /// (returned with the uniforms, to recycle once submitted). Where no staging buffer can
    /// be mapped (a lost device) or the pages pass [`pool::CHUNK`], through
    /// `Queue::write_buffer`, which also lands before this submission's commands.
    fn stage_pages(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pages: Vec<(wgpu::Buffer, Vec<u8>)>,
    ) -> Option<(wgpu::Buffer, Vec<wgpu::Buffer>)> {
        if pages.is_empty() {
            return None;
        }
        let mut offsets = Vec::with_capacity(pages.len());
        let mut total = 0u64;
        for (_, bytes) in &pages {
            offsets.push(total);
            total += (bytes.len() as u64).div_ceil(16) * 16;
        }
        if total <= pool::CHUNK {
            let staging = self.staging.take_write(&self.device, total);
            let filled = staging.get_mapped_range_mut(..total).map(|mut view| {
                for ((_, bytes), &at) in pages.iter().zip(&offsets) {
                    let at = at as usize;
                    view.slice(at..at + bytes.len()).copy_from_slice(bytes);
                }
            });
            if filled.is_ok() {
                staging.unmap();
                let mut uniforms = Vec::with_capacity(pages.len());
                for ((uniform, bytes), &at) in pages.into_iter().zip(&offsets) {
                    let len = (bytes.len() as u64).div_ceil(16) * 16;
                    encoder.copy_buffer_to_buffer(&staging, at, &uniform, 0, len);
                    uniforms.push(uniform);
                }
                return Some((staging, uniforms));
            }
        }
        for (uniform, mut bytes) in pages {
            bytes.resize(bytes.len().div_ceil(16) * 16, 0);
            self.queue.write_buffer(&uniform, 0, &bytes);
        }
        None
    }
}

/// The commands other than params of [`Context::encode`], in order; the upload staging
/// buffers they copy from are added to `staged`.
fn encode_rest(
    encoder: &mut wgpu::CommandEncoder,
    commands: Vec<Command>,
    timer: Option<&wgpu::QuerySet>,
    staged: &mut Vec<(wgpu::Buffer, Vec<wgpu::Buffer>)>,
) {
    let passes = {
        let mut count = 0;
        let mut in_pass = false;
        for c in &commands {
            let d = matches!(c, Command::Dispatch { .. });
            if d && !in_pass {
                count += 1;
            }
            in_pass = d;
        }
        count
    };
    let mut pass_index = 0;
    let mut iter = commands.into_iter().peekable();
    while let Some(c) = iter.next() {
        match c {
            Command::Copy {
                src,
                src_offset,
                dst,
                dst_offset,
                size,
            } => {
                encoder.copy_buffer_to_buffer(&src, src_offset, &dst, dst_offset, size);
            }
            Command::Clear {
                buffer,
                offset,
                size,
            } => encoder.clear_buffer(&buffer, offset, size),
            Command::Params { .. } => {}
            Command::Upload {
                staging,
                dst,
                dst_offset,
                size,
            } => {
                encoder.copy_buffer_to_buffer(&staging, 0, &dst, dst_offset, size);
                staged.push((staging, Vec::new()));
            }
            Command::Dispatch {
                pipeline,
                bind_group,
                groups,
            } => {
                let first = pass_index == 0;
                let last = pass_index + 1 == passes;
                pass_index += 1;
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("wgblas"),
                    timestamp_writes: timer.filter(|_| first || last).map(|set| {
                        wgpu::ComputePassTimestampWrites {
                            query_set: set,
                            beginning_of_pass_write_index: first.then_some(0),
                            end_of_pass_write_index: last.then_some(1),
                        }
                    }),
                });
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
                while let Some(Command::Dispatch { .. }) = iter.peek() {
                    if let Some(Command::Dispatch {
                        pipeline,
                        bind_group,
                        groups,
                    }) = iter.next()
                    {
                        pass.set_pipeline(&pipeline);
                        pass.set_bind_group(0, &bind_group, &[]);
                        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
                    }
                }
            }
        }
    }
}
