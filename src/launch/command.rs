//! [`Command`]: a recorded command, held by the [`Context`](crate::Context) until its submission;
//! [`Held`], the held commands with the open params page; [`BindCache`], the cached bind groups.
//! Below both `context.rs` (which holds the pending list) and `launch.rs` (which records and
//! encodes them), so that neither names the other's file for it.

use std::collections::{HashMap, HashSet};
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

/// (pipeline, persistent params slot: buffer index and byte offset, storage bindings:
/// binding number, buffer, byte offset, bytes or `None` for the whole buffer).
pub(crate) type Key = (
    usize,
    (usize, u64),
    Vec<(u32, wgpu::Buffer, u64, Option<u64>)>,
);

/// The bind-group cache of `launch/bindings.rs` (see its module docs); here, below
/// `context.rs`, which holds it.
#[derive(Default)]
pub(crate) struct BindCache {
    /// `pool::released` when the cache was last emptied.
    pub released: u64,
    /// Persistent params buffers and the bytes used of the last one.
    pub pages: Vec<wgpu::Buffer>,
    pub used: u64,
    /// Promoted params: their slot (buffer index, byte offset, bytes bound).
    pub params: HashMap<Vec<u8>, (usize, u64, u64)>,
    /// Params seen once (promoted when seen again).
    pub seen: HashSet<Vec<u8>>,
    pub groups: HashMap<Key, wgpu::BindGroup>,
}

impl BindCache {
    pub fn clear(&mut self) {
        self.pages.clear();
        self.used = 0;
        self.params.clear();
        self.seen.clear();
        self.groups.clear();
    }
}
