//! [`MapWait`]: the future an `_async` form awaits while a helper thread drives the device
//! until a read-back's buffers are mapped.

use std::sync::Arc;

use crate::pool::lock;

/// Completion shared between [`MapWait`] and its polling thread.
#[derive(Default)]
struct MapWaitState {
    done: Option<std::result::Result<(), String>>,
    waker: Option<std::task::Waker>,
}

/// A future that resolves once the map callbacks behind `flags` have all run.
pub(crate) struct MapWait {
    state: Arc<std::sync::Mutex<MapWaitState>>,
}

impl MapWait {
    /// Start a thread that waits for submission `index` and polls until every flag is set,
    /// then wakes the future. The thread drops its device handle before it wakes the future,
    /// so the context's own handle stays the last one (see `DEVICE_LIFECYCLE`).
    ///
    /// Cancellation: when the future has been dropped, the thread still waits for the
    /// submission (the device keeps running it), then exits without waking anyone; if its
    /// device handle is then the last one (the context was dropped meanwhile), it is dropped
    /// under `DEVICE_LIFECYCLE`, as a context's own is.
    pub(super) fn spawn(
        device: wgpu::Device,
        index: wgpu::SubmissionIndex,
        flags: Vec<Arc<std::sync::Mutex<Option<bool>>>>,
    ) -> std::result::Result<Self, String> {
        let state = Arc::new(std::sync::Mutex::new(MapWaitState::default()));
        let shared = state.clone();
        std::thread::Builder::new()
            .name("wgblas read-back".into())
            .spawn(move || {
                // The future holds the other reference to `shared`: alone means dropped.
                let cancelled = |s: &Arc<std::sync::Mutex<MapWaitState>>| Arc::strong_count(s) == 1;
                // No timeout: waits in 10 ms slices (to exit soon after a cancellation) left
                // `several_read_backs_run_concurrently_on_spawned_tasks` pending forever in a
                // full parallel test run, with no read-back thread left; likely cause: in a
                // timed-out wait wgpu-core 30.0.2 asserts that an empty queue has reached the
                // awaited submission, which another thread's poll can break, so the thread
                // panicked before waking its future.
                let mut r = device
                    .poll(wgpu::PollType::Wait {
                        submission_index: Some(index),
                        timeout: None,
                    })
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                // Another thread's poll may have collected the callbacks and not run them yet.
                while r.is_ok() && !cancelled(&shared) && !flags.iter().all(|f| lock(f).is_some()) {
                    std::thread::yield_now();
                    if let Err(e) = device.poll(wgpu::PollType::Poll) {
                        r = Err(e.to_string());
                    }
                }
                if cancelled(&shared) {
                    let _serial = lock(&crate::context::DEVICE_LIFECYCLE);
                    drop(device);
                    return;
                }
                drop(device);
                let waker = {
                    let mut st = lock(&shared);
                    st.done = Some(r);
                    st.waker.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            })
            .map_err(|e| format!("starting the read-back thread: {e}"))?;
        Ok(MapWait { state })
    }
}

impl std::future::Future for MapWait {
    type Output = std::result::Result<(), String>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let mut st = lock(&self.state);
        match st.done.take() {
            Some(r) => std::task::Poll::Ready(r),
            None => {
                st.waker = Some(cx.waker().clone());
                std::task::Poll::Pending
            }
        }
    }
}
