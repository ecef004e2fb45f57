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
    /// A page of params uniforms: `bytes` copied into `uniform` (through one staging buffer
    /// shared by every page of the submission), encoded at the start of the submission (before
    /// every other command of it). The page holds the params of every dispatch recorded while
    /// it was open ([`Held`]); `uniform` returns to its pool only when that submission is done,
    /// so no other call can write it in between.
    Params {
        uniform: wgpu::Buffer,
        bytes: Vec<u8>,
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

/// The commands held back for the next submission, and the open page of params: the params of
/// the dispatches recorded since the last submission are written side by side into one pooled
/// uniform buffer (`page`), each dispatch binding its slot, so that a chain of calls maps,
/// unmaps and copies one staging buffer per submission instead of one per call.
#[derive(Default)]
pub(crate) struct Held {
    pub commands: Vec<Command>,
    /// The open page: its uniform buffer and the bytes of its slots so far.
    pub page: Option<(wgpu::Buffer, Vec<u8>)>,
}

impl Held {
    /// Close the open page: its bytes become a [`Command::Params`] among the commands.
    pub fn seal(&mut self) {
        if let Some((uniform, bytes)) = self.page.take() {
            self.commands.push(Command::Params { uniform, bytes });
        }
    }

    /// Every held command, the open page sealed among them; nothing is held after.
    pub fn take(&mut self) -> Vec<Command> {
        self.seal();
        std::mem::take(&mut self.commands)
    }
}
