//! [`Command`]: a recorded command, held by the [`Context`](crate::Context) until its submission.
//! Below both `context.rs` (which holds the pending list) and `launch.rs` (which records and
//! encodes them), so that neither names the other's file for it.

use std::sync::Arc;

/// A recorded command, held until its submission.
#[derive(Clone)]
pub(crate) enum Command {
    Dispatch {
        pipeline: Arc<wgpu::ComputePipeline>,
        bind_group: wgpu::BindGroup,
        groups: [u32; 3],
    },
    Copy {
        src: wgpu::Buffer,
        src_offset: u64,
        dst: wgpu::Buffer,
        dst_offset: u64,
        size: u64,
    },
    /// Zero `size` bytes of `buffer` from byte `offset` (`None`: to its end).
    Clear {
        buffer: wgpu::Buffer,
        offset: u64,
        size: Option<u64>,
    },
    /// The params of one call's dispatches: a copy of `size` bytes from an (unmapped) staging
    /// buffer into `uniform`, encoded at the start of the submission (before every other
    /// command of it). Both buffers return to their pools only when that submission is done,
    /// so no other call can write `uniform` in between.
    Params {
        staging: wgpu::Buffer,
        uniform: wgpu::Buffer,
        size: u64,
    },
    /// A copy out of an (unmapped) upload staging buffer, which is mapped again for reuse once
    /// the submission that carries it is done.
    Upload {
        staging: wgpu::Buffer,
        dst: wgpu::Buffer,
        dst_offset: u64,
        size: u64,
    },
}
