//! The GPU context: adapter, device, queue, pipeline cache and counters.
//!
//! A [`Context`] owns one wgpu device. The BLAS layer ([`crate::blas`]) takes an explicit
//! `&Context`; the extension traits ([`crate::ext`]) use the lazily created shared context of
//! [`Context::shared`]. A `Context` is `Send + Sync`: many threads may call routines on it at
//! once, each call records and submits its own command buffer.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{Error, Result};
use crate::lab::ShaderChecks;

mod options;
mod queries;
use options::open_disk_cache;
pub(crate) use options::parse_flag;
pub use options::ContextOptions;

/// Counters of device traffic, for checking that chains of calls do not round-trip.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub submissions: AtomicU64,
    pub readbacks: AtomicU64,
    pub uploads: AtomicU64,
    pub dispatches: AtomicU64,
    /// Bind groups created (a cached one reused is not counted again).
    pub bind_groups: AtomicU64,
    /// Wall time spent in each [`Phase`] so far, in nanoseconds.
    pub phase_ns: [AtomicU64; Phase::ALL.len()],
    /// Wall time spent in each step of [`STEPS`] so far, in nanoseconds.
    pub step_ns: [AtomicU64; STEPS.len()],
}

/// The steps inside the phases of a call that reads back, timed for the host-path report
/// ([`Context::step_times`]): where a small host call's Submit and Wait go. In order: commands
/// encoded (params pages staged, passes recorded), `CommandEncoder::finish`, `Queue::submit`,
/// the submission's error scopes popped and the device error checked, the later chunks of a
/// pipelined read-back submitted, the upload staging buffers mapped again for the pool, the
/// read-back staging buffers' `map_async`, polling before blocking, blocking in
/// `Device::poll`, a fresh output's pages faulted in while the device copies
/// (`lab::set_prefault_outputs`); and for every call, read-back or held: its error scopes
/// pushed and its pipelines looked up, the recording of its dispatches (params slots, bind groups from the cache or
/// new), and a held call's error scopes popped with its new bind groups kept.
pub(crate) const STEPS: [&str; 13] = [
    "encode",
    "finish",
    "queue.submit",
    "error scopes",
    "later chunks",
    "staging map_async",
    "read-back map_async",
    "spin",
    "block",
    "prefault",
    "pipelines",
    "record",
    "held scopes",
];

/// A stage of a call's host-side work, timed by [`Context::phase_times`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Filling upload staging buffers from host arrays and recording their copies.
    Upload,
    /// Params uniforms, pipeline look-ups and bind groups of a call's dispatches.
    Record,
    /// Encoding, submitting, and checking the submission's error scopes.
    Submit,
    /// Waiting for the device to finish the submission (`Device::poll`).
    Wait,
    /// Waiting for the read-back buffers' map callbacks.
    Map,
    /// Copying mapped read-back memory into the caller's arrays.
    Copy,
}

impl Phase {
    /// Every phase, in the order a call passes through them.
    pub const ALL: [Phase; 6] = [
        Phase::Upload,
        Phase::Record,
        Phase::Submit,
        Phase::Wait,
        Phase::Map,
        Phase::Copy,
    ];
}

impl Counters {
    /// Add the time since `*since` to `phase`, and restart `since`.
    pub(crate) fn lap(&self, phase: Phase, since: &mut std::time::Instant) {
        let now = std::time::Instant::now();
        let ns = now.duration_since(*since).as_nanos() as u64;
        self.phase_ns[phase as usize].fetch_add(ns, Ordering::Relaxed);
        *since = now;
    }

    /// Add the time since `*since` to the step named `name` (one of [`STEPS`]), and restart
    /// `since`.
    pub(crate) fn step(&self, name: &str, since: &mut std::time::Instant) {
        let now = std::time::Instant::now();
        self.add_step(name, now.duration_since(*since));
        *since = now;
    }

    /// Add `time` to the step named `name` (one of [`STEPS`]).
    pub(crate) fn add_step(&self, name: &str, time: std::time::Duration) {
        debug_assert!(STEPS.contains(&name), "{name} is not a step");
        if let Some(i) = STEPS.iter().position(|&n| n == name) {
            self.step_ns[i].fetch_add(time.as_nanos() as u64, Ordering::Relaxed);
        }
    }
}

/// Element type a shader is instantiated for (`alias T = f32;` or `alias T = f64;`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Elem {
    F32,
    /// Needs `SHADER_F64`: only for pipelines run when [`Context::native_f64`] holds.
    F64,
}

impl Elem {
    /// The WGSL line that instantiates a shader for this element type.
    fn prelude(self) -> &'static str {
        match self {
            Elem::F32 => "alias T = f32;\n",
            Elem::F64 => "alias T = f64;\n",
        }
    }
}

/// A WGSL source file from `wgsl/`, included at compile time.
#[derive(Debug)]
pub(crate) struct Shader {
    /// Path under `wgsl/`, used as the cache key and in error messages.
    pub name: &'static str,
    /// The WGSL text, written over `alias T`.
    pub source: &'static str,
}

/// Shared WGSL helpers prepended to every shader.
const COMMON_WGSL: &str = include_str!("../wgsl/common.wgsl");

type PipelineKey = (
    &'static str,
    &'static str,
    Elem,
    Vec<(&'static str, u64)>,
    ShaderChecks,
);
type ModuleKey = (&'static str, Elem, ShaderChecks);

/// A wgpu device with the crate's pipeline cache. See the module docs.
pub struct Context {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    limits: wgpu::Limits,
    features: wgpu::Features,
    modules: Mutex<HashMap<ModuleKey, wgpu::ShaderModule>>,
    pipelines: Mutex<HashMap<PipelineKey, Arc<wgpu::ComputePipeline>>>,
    pub(crate) counters: Counters,
    force_f64_fallback: AtomicBool,
    profiling: AtomicBool,
    /// Inside [`Context::time_batch`]: calls are held back even with profiling on.
    batching: AtomicBool,
    last_gpu_ns: AtomicU64,
    pub(crate) pool: Arc<Mutex<crate::pool::Pool>>,
    pub(crate) pending: Mutex<crate::launch::command::Held>,
    /// Bind groups kept for chains of calls (`launch/bindings.rs`).
    pub(crate) bind_cache: Mutex<crate::launch::command::BindCache>,
    pub(crate) staging: crate::pool::Staging,
    /// The last wgpu error that reached no error scope (see `launch.rs`), to be returned by
    /// the next call that can return an error.
    device_error: Arc<Mutex<Option<String>>>,
    /// The driver's pipeline cache (Vulkan, where wgpu offers `PIPELINE_CACHE`), kept on disk.
    disk_cache: Option<(wgpu::PipelineCache, std::path::PathBuf)>,
    pub(crate) id: u64,
    /// The most bytes one dispatch binds of a storage buffer ([`Context::max_binding`]).
    max_binding: AtomicU64,
    /// The most bytes of one buffer ([`Context::max_buffer`]); larger operands are segmented.
    max_buffer: AtomicU64,
    /// Bytes of C per block of a streamed host-form product ([`Context::stream_block`]).
    stream_block: AtomicU64,
    /// The device's memory ([`device_memory`]) and the most bytes of one operand
    /// ([`Context::max_memory`], at most that).
    device_memory: u64,
    max_memory: AtomicU64,
    /// Declared last, so dropped last: see [`DEVICE_LIFECYCLE`].
    _teardown: TeardownEnd,
}

/// Serialises the creation and the teardown of every context's device in this process.
///
/// NVIDIA's driver (580.159, H200) deadlocks when threads destroy devices at the same time: in
/// `vkDestroyDevice`, in `vkFreeMemory` (gpu-allocator's drop) and in EGL's teardown, all three
/// waiting in `libnvidia-eglcore` (backtraces in `benches/results/2026-11-30-hang/`).
/// `Context::drop` takes this lock; [`TeardownEnd`], the context's last field, releases it once
/// every other field (and with them the wgpu device) has been dropped.
pub(crate) static DEVICE_LIFECYCLE: Mutex<()> = Mutex::new(());

thread_local! {
    static TEARDOWN: std::cell::RefCell<Option<std::sync::MutexGuard<'static, ()>>> =
        const { std::cell::RefCell::new(None) };
}

impl Drop for Context {
    fn drop(&mut self) {
        let guard = crate::pool::lock(&DEVICE_LIFECYCLE);
        // At thread exit the slot may be gone: then the teardown runs unserialised.
        let _ = TEARDOWN.try_with(|t| *t.borrow_mut() = Some(guard));
    }
}

/// Run `f` holding [`DEVICE_LIFECYCLE`]. Native wgpu does the work of `Instance::new`,
/// `request_adapter`, `enumerate_adapters` and `request_device` inside the call and returns a
/// ready future, so serialising the call serialises the device creation, while the lock is
/// never held across an `.await` (the creation future stays `Send`).
fn serialised<R>(f: impl FnOnce() -> R) -> R {
    let _guard = crate::pool::lock(&DEVICE_LIFECYCLE);
    f()
}

/// Releases [`DEVICE_LIFECYCLE`] after the rest of a [`Context`] has been dropped.
#[derive(Debug, Default)]
struct TeardownEnd;

impl Drop for TeardownEnd {
    fn drop(&mut self) {
        let _ = TEARDOWN.try_with(|t| t.borrow_mut().take());
    }
}

/// Default bound of the buffer pool, in bytes, on a CPU adapter (lavapipe: the pool is host
/// memory).
const DEFAULT_POOL_LIMIT: u64 = 256 << 20;

/// Default bound of the buffer pool on a GPU: room for the three 512 MiB operands of a host
/// sgemm of order 8192 plus scratch, so that a stream of such calls creates no buffer.
const DEFAULT_POOL_LIMIT_GPU: u64 = 2 << 30;

/// The adapter's own binding limit: `max_storage_buffer_binding_size`, at most
/// `max_buffer_size`, rounded down to a multiple of 16.
fn device_binding(limits: &wgpu::Limits) -> u64 {
    limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        / 16
        * 16
}

/// The device-local memory of `adapter` in bytes: the largest memory heap with the
/// `DEVICE_LOCAL` flag of its Vulkan physical device (`vkGetPhysicalDeviceMemoryProperties`,
/// reached through `Adapter::as_hal`; wgpu itself reports no memory size). `u64::MAX` where
/// it cannot be read (other backends) and on CPU adapters, whose memory is the host's
/// (lavapipe reports a nominal 2 GiB heap on a 24 GiB host and allocates past it): then only
/// a failed allocation (the typed out-of-memory error, after the fact) bounds an operand.
fn device_memory(adapter: &wgpu::Adapter) -> u64 {
    #[cfg(any(target_os = "linux", target_os = "windows", target_os = "android"))]
    if adapter.get_info().device_type != wgpu::DeviceType::Cpu {
        // SAFETY: the hal adapter is only read (one query of its physical device) while
        // `adapter`, which owns it, lives.
        let heap = unsafe {
            adapter.as_hal::<wgpu::hal::api::Vulkan>().and_then(|a| {
                let props = a
                    .shared_instance()
                    .raw_instance()
                    .get_physical_device_memory_properties(a.raw_physical_device());
                let count = (props.memory_heap_count as usize).min(props.memory_heaps.len());
                // VK_MEMORY_HEAP_DEVICE_LOCAL_BIT = 0x1.
                props.memory_heaps[..count]
                    .iter()
                    .filter(|h| h.flags.as_raw() & 1 != 0)
                    .map(|h| h.size)
                    .max()
            })
        };
        if let Some(bytes) = heap {
            return bytes;
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "android")))]
    let _ = adapter;
    u64::MAX
}

/// The adapter's own buffer limit: `max_buffer_size`, rounded down to a multiple of 256.
fn device_buffer(limits: &wgpu::Limits) -> u64 {
    limits.max_buffer_size / 256 * 256
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("adapter", &self.info.name)
            .field("backend", &self.info.backend)
            .field("device_type", &self.info.device_type)
            .finish_non_exhaustive()
    }
}

static SHARED: OnceLock<std::result::Result<Context, Error>> = OnceLock::new();

impl Context {
    /// A new context on the adapter picked by the environment ([`ContextOptions::from_env`]).
    ///
    /// # Errors
    /// [`Error::NoAdapter`] when no adapter matches; [`Error::RequestDevice`] when the adapter
    /// refuses to create a device; [`Error::InvalidArgument`] for an unknown
    /// `WGBLAS_POWER_PREFERENCE`.
    pub fn new() -> Result<Self> {
        Self::with_options(&ContextOptions::from_env()?)
    }

    /// A new context on the adapter picked by `options`.
    ///
    /// The device is created with the adapter's own limits (not wgpu's conservative defaults)
    /// and with the optional features `SHADER_F64`, `SUBGROUP` and `TIMESTAMP_QUERY` where the
    /// adapter has them.
    ///
    /// # Errors
    /// As [`Context::new`].
    pub fn with_options(options: &ContextOptions) -> Result<Self> {
        pollster::block_on(Self::create(options))
    }

    /// [`Context::new`] as a future, for callers inside an async runtime (or on wasm, where
    /// blocking is not allowed). [`Context::new`] blocks on this same code.
    ///
    /// # Errors
    /// As [`Context::new`].
    pub async fn new_async() -> Result<Self> {
        Self::create(&ContextOptions::from_env()?).await
    }

    /// [`Context::with_options`] as a future (see [`Context::new_async`]).
    ///
    /// # Errors
    /// As [`Context::new`].
    pub async fn with_options_async(options: &ContextOptions) -> Result<Self> {
        Self::create(options).await
    }

    /// The adapter `options` pick among those of `backends`.
    async fn pick_adapter(
        backends: wgpu::Backends,
        options: &ContextOptions,
    ) -> Result<wgpu::Adapter> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let instance = serialised(|| wgpu::Instance::new(desc));
        Ok(match &options.adapter_name {
            Some(name) => {
                let want = name.to_lowercase();
                let adapters = serialised(|| instance.enumerate_adapters(backends)).await;
                let names: Vec<String> = adapters
                    .iter()
                    .map(|a| {
                        let i = a.get_info();
                        format!("{} [{:?}]", i.name, i.backend)
                    })
                    .collect();
                adapters
                    .into_iter()
                    .find(|a| a.get_info().name.to_lowercase().contains(&want))
                    .ok_or_else(|| Error::NoAdapter {
                        detail: format!(
                            "no adapter name contains {name:?} (WGPU_ADAPTER_NAME); found {names:?}"
                        ),
                    })?
            }
            None => serialised(|| {
                instance.request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: options.power_preference.unwrap_or_default(),
                    force_fallback_adapter: false,
                    compatible_surface: None,
                    ..Default::default()
                })
            })
            .await
            .map_err(|e| Error::NoAdapter {
                detail: format!(
                    "{e}. Install a GPU driver; on a machine without a GPU, install lavapipe \
                         (`apt-get install mesa-vulkan-drivers libvulkan1`)"
                ),
            })?,
        })
    }

    async fn create(options: &ContextOptions) -> Result<Self> {
        let env = options::EnvSettings::read()?;
        let explicit = options.backends.is_some();
        let backends = options
            .backends
            .unwrap_or(wgpu::InstanceDescriptor::new_without_display_handle_from_env().backends);
        if backends.is_empty() {
            return Err(Error::NoAdapter {
                detail: format!(
                    "no backend selected (WGPU_BACKEND={:?}; use vulkan, metal, dx12 or gl)",
                    std::env::var("WGPU_BACKEND").unwrap_or_default()
                ),
            });
        }
        // Unless the user names the backends, look at Vulkan, Metal and DX12 first, and start
        // GL (EGL) only where none of them has an adapter: EGL's start-up and teardown cost time
        // and, on NVIDIA, take part in the teardown deadlock of `DEVICE_LIFECYCLE`.
        let primary = backends & wgpu::Backends::PRIMARY;
        let adapter = if !explicit && !primary.is_empty() && primary != backends {
            match Self::pick_adapter(primary, options).await {
                Ok(a) => a,
                Err(_) => Self::pick_adapter(backends, options).await?,
            }
        } else {
            Self::pick_adapter(backends, options).await?
        };
        let info = adapter.get_info();
        let pool_limit = if info.device_type == wgpu::DeviceType::Cpu {
            DEFAULT_POOL_LIMIT
        } else {
            DEFAULT_POOL_LIMIT_GPU
        };
        let wanted = wgpu::Features::SHADER_F64
            | wgpu::Features::SUBGROUP
            | wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::PIPELINE_CACHE;
        let features = adapter.features() & wanted;
        let limits = adapter.limits();
        let memory = device_memory(&adapter);
        let (device, queue) = serialised(|| {
            adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("wgblas"),
                required_features: features,
                required_limits: limits.clone(),
                ..Default::default()
            })
        })
        .await
        .map_err(|e| Error::RequestDevice {
            adapter: info.name.clone(),
            detail: e.to_string(),
        })?;
        // wgpu's default handler panics on an error outside an error scope (for example a
        // buffer that cannot be allocated for a held command): keep it for the next call
        // instead, which returns it as `Error::Gpu`.
        let device_error = Arc::new(Mutex::new(None));
        let sink = device_error.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            *crate::pool::lock(&sink) = Some(e.to_string());
        }));
        let lost = device_error.clone();
        device.set_device_lost_callback(move |reason, message| {
            *crate::pool::lock(&lost) = Some(format!("device lost ({reason:?}): {message}"));
        });
        let disk_cache = open_disk_cache(&device, &info, features);
        Ok(Context {
            disk_cache,
            device,
            queue,
            info,
            features,
            modules: Mutex::new(HashMap::new()),
            pipelines: Mutex::new(HashMap::new()),
            counters: Counters::default(),
            force_f64_fallback: AtomicBool::new(env.f64_fallback),
            profiling: AtomicBool::new(false),
            batching: AtomicBool::new(false),
            last_gpu_ns: AtomicU64::new(u64::MAX),
            pool: Arc::new(Mutex::new(crate::pool::Pool::new(pool_limit))),
            pending: Mutex::new(crate::launch::command::Held::default()),
            bind_cache: Mutex::new(crate::launch::command::BindCache::default()),
            staging: crate::pool::Staging::default(),
            device_error,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            _teardown: TeardownEnd,
            max_binding: AtomicU64::new(device_binding(&limits)),
            max_buffer: AtomicU64::new(device_buffer(&limits)),
            stream_block: AtomicU64::new(env.stream_block),
            device_memory: memory,
            max_memory: AtomicU64::new(memory),
            limits,
        })
    }

    /// The shared default context, created on first use from the environment and reused by the
    /// extension traits.
    ///
    /// # Errors
    /// The error of the first creation attempt ([`Context::new`]), every time.
    pub fn shared() -> Result<&'static Context> {
        SHARED
            .get_or_init(Context::new)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The compute pipeline for (`shader`, `entry`, element type, override constants), created
    /// on first use and cached, its module built with the runtime checks of
    /// [`crate::lab::shader_checks`] (part of the cache key).
    pub(crate) fn pipeline(
        &self,
        routine: &'static str,
        shader: &'static Shader,
        entry: &'static str,
        elem: Elem,
        constants: &[(&'static str, f64)],
    ) -> Result<Arc<wgpu::ComputePipeline>> {
        let checks = crate::lab::shader_checks().resolve(shader.name);
        let key: PipelineKey = (
            shader.name,
            entry,
            elem,
            constants.iter().map(|&(k, v)| (k, v.to_bits())).collect(),
            checks,
        );
        if let Some(p) = crate::pool::lock(&self.pipelines).get(&key) {
            return Ok(p.clone());
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = {
            let mut modules = crate::pool::lock(&self.modules);
            modules
                .entry((shader.name, elem, checks))
                .or_insert_with(|| self.module(shader, elem, checks))
                .clone()
        };
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    zero_initialize_workgroup_memory: false,
                },
                cache: self.disk_cache.as_ref().map(|(c, _)| c),
            });
        if let Some(err) = pollster::block_on(scope.pop()) {
            // Drop the module too, so a later call reports the error again instead of
            // reusing a broken module.
            crate::pool::lock(&self.modules).remove(&(shader.name, elem, checks));
            return Err(Error::Gpu {
                routine,
                detail: format!("{}::{entry}: {err}", shader.name),
            });
        }
        let pipeline = Arc::new(pipeline);
        crate::pool::lock(&self.pipelines).insert(key, pipeline.clone());
        self.save_disk_cache();
        Ok(pipeline)
    }

    /// The module of `shader` in `elem`, compiled with `checks`.
    fn module(&self, shader: &Shader, elem: Elem, checks: ShaderChecks) -> wgpu::ShaderModule {
        let text = format!("{}{COMMON_WGSL}\n{}", elem.prelude(), shader.source);
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(shader.name),
            source: wgpu::ShaderSource::Wgsl(text.into()),
        };
        let runtime = match checks {
            ShaderChecks::Checked | ShaderChecks::Auto => {
                return self.device.create_shader_module(desc)
            }
            ShaderChecks::NoIndexClamps => wgpu::ShaderRuntimeChecks {
                bounds_checks: false,
                ..wgpu::ShaderRuntimeChecks::checked()
            },
            ShaderChecks::Unchecked => wgpu::ShaderRuntimeChecks {
                bounds_checks: false,
                force_loop_bounding: false,
                ..wgpu::ShaderRuntimeChecks::checked()
            },
        };
        // SAFETY: only the crate's own kernels (`wgsl/`, never user text) are built here: by
        // default the Level 1 shaders (`ShaderChecks::Auto`), and any shader when a report
        // binary or a test asks (`lab::set_shader_checks`). Without index
        // clamps, the indexes into workgroup and private arrays must be in range: each kernel
        // computes them from its tile constants (`Tile::fits` rejects shapes the kernel does
        // not support) and guards the rest with explicit bounds tests. Storage buffers keep
        // the driver's robust buffer access, which wgpu enables whatever the mode, so a stray
        // read there stays inside the binding. `Unchecked` also drops naga's loop bounding:
        // every loop of the kernels ends, its trip count bounded by the params' sizes and
        // strides by nonzero constants. Integer division keeps its guards in every mode.
        unsafe { self.device.create_shader_module_trusted(desc, runtime) }
    }

    /// Write the driver's pipeline cache to disk (best effort: a cache that cannot be written
    /// only costs compile time in the next process). Written to a temporary file, then
    /// renamed, so that concurrent processes never read a torn file.
    fn save_disk_cache(&self) {
        let Some((cache, path)) = &self.disk_cache else {
            return;
        };
        let Some(data) = cache.get_data() else {
            return;
        };
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, data).is_ok() {
            let _ = std::fs::rename(&tmp, path);
        }
    }

    /// Submit the held commands and wait until the device has finished every command
    /// submitted so far (for example before timing an upload).
    ///
    /// # Errors
    /// [`Error::Gpu`] when the device is lost or an earlier command failed.
    pub fn synchronize(&self) -> Result<()> {
        self.flush_pending();
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::Gpu {
                routine: "synchronize",
                detail: e.to_string(),
            })?;
        self.take_device_error("synchronize")
    }

    /// Where the pipeline cache of this adapter is kept on disk, if there is one (Vulkan
    /// adapters with `PIPELINE_CACHE`): `$WGBLAS_CACHE_DIR`, else `$XDG_CACHE_HOME/wgblas`, else
    /// `$HOME/.cache/wgblas`. Set `WGBLAS_CACHE_DIR` to an empty string to turn it off.
    pub fn pipeline_cache_path(&self) -> Option<&std::path::Path> {
        self.disk_cache.as_ref().map(|(_, p)| p.as_path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_made_and_dropped_on_many_threads_at_once_all_work() {
        // On NVIDIA's driver, threads tearing devices down at the same time deadlocked (see
        // `DEVICE_LIFECYCLE`); here eight threads make, use and drop contexts together, and one
        // of each pair also fails a submission first, as the failed-read-back test does.
        std::thread::scope(|s| {
            let runs: Vec<_> = (0..8)
                .map(|t| {
                    s.spawn(move || {
                        for round in 0..3 {
                            let ctx = Context::new().expect("the tests need a GPU adapter");
                            let data = [t as f32, round as f32];
                            let src = crate::transfer::Source::slice(&data);
                            let buf = ctx.upload_source("test", &src).unwrap();
                            if t % 2 == 1 {
                                // A failed read must not undo `buf`'s upload, held before it.
                                let lost = ctx.alloc("test", 8).unwrap();
                                lost.destroy();
                                assert!(ctx.execute::<f32>("test", &[], &[(&lost, 2)]).is_err());
                            }
                            let data = ctx.execute::<f32>("test", &[], &[(&buf, 2)]).unwrap();
                            assert_eq!(data[0], vec![t as f32, round as f32]);
                        }
                    })
                })
                .collect();
            for r in runs {
                r.join().unwrap();
            }
        });
    }

    #[test]
    fn context_is_send_sync() {
        fn check<T: Send + Sync>() {}
        check::<Context>();
    }
}
