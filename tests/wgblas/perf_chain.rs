//! Per-call host work of resident chains (issue 12): bind groups kept across calls, params
//! slots that stay right when they are shared, and the cache emptied when the pool lets a
//! buffer go.

use ndarray::Array1;
use wgblas::{blas, resident, Context, GpuVector};

/// `x` = ones and `y` = zeros, both of `n` elements, on `ctx`.
fn ones_and_zeros(ctx: &Context, n: usize) -> (GpuVector<'_, f32>, GpuVector<'_, f32>) {
    let x = ctx.upload_vector(&Array1::<f32>::ones(n)).unwrap();
    (x, GpuVector::<f32>::zeros(ctx, n).unwrap())
}

/// Assert that every element of `y` is `want`.
fn assert_all(y: &GpuVector<'_, f32>, want: f32) {
    assert_eq!(y.to_array().unwrap(), Array1::from_elem(y.len(), want));
}

#[test]
fn a_resident_saxpy_chain_creates_no_bind_group_or_staging_buffer_after_its_first_calls() {
    let ctx = Context::new().unwrap();
    let (x, mut y) = ones_and_zeros(&ctx, 256);
    // The first call's params go into a params page, the second's are promoted to a cached
    // slot, whose bind group the calls after it reuse.
    for _ in 0..3 {
        blas::saxpy(&ctx, 0.5, &x, &mut y).unwrap();
    }
    ctx.synchronize().unwrap();
    let (groups, staging) = (ctx.bind_groups_created(), ctx.staging_buffers_created());
    for _ in 0..200 {
        blas::saxpy(&ctx, 0.5, &x, &mut y).unwrap();
    }
    ctx.synchronize().unwrap();
    assert_eq!(ctx.bind_groups_created(), groups);
    assert_eq!(ctx.staging_buffers_created(), staging);
    assert_all(&y, 101.5);
}

#[test]
fn device_alphas_sharing_one_cached_params_slot_each_reach_their_own_call() {
    // Every saxpy below has the same params (alpha patched from a device scalar), so they
    // share one cached slot; each call's alpha is copied into it just before it runs.
    let ctx = Context::new().unwrap();
    let (ones, mut y) = ones_and_zeros(&ctx, 64);
    let mut want = 0.0f32;
    for k in 1..=12 {
        let v = ctx.upload_vector(&Array1::from_elem(64, k as f32)).unwrap();
        let alpha = resident::sdot(&ctx, &v, &ones).unwrap();
        blas::saxpy(&ctx, &alpha, &ones, &mut y).unwrap();
        want += 64.0 * k as f32;
    }
    assert_all(&y, want);
}

#[test]
fn host_alphas_that_repeat_and_change_give_each_call_its_own() {
    let ctx = Context::new().unwrap();
    let (x, mut y) = ones_and_zeros(&ctx, 32);
    let mut want = 0.0f32;
    for k in 0..40 {
        // Three alphas that recur (promoted) among ones seen once (params pages).
        let alpha = if k % 2 == 0 {
            [0.5f32, 2.0, 0.25][k % 3]
        } else {
            k as f32
        };
        blas::saxpy(&ctx, alpha, &x, &mut y).unwrap();
        want += alpha;
    }
    assert_all(&y, want);
}

#[test]
fn a_buffer_the_pool_lets_go_empties_the_bind_group_cache() {
    let ctx = Context::new().unwrap();
    let (x, mut y) = ones_and_zeros(&ctx, 64);
    let other = GpuVector::<f32>::zeros(&ctx, 64).unwrap();
    for _ in 0..3 {
        blas::saxpy(&ctx, 1.0, &x, &mut y).unwrap();
    }
    let groups = ctx.bind_groups_created();
    blas::saxpy(&ctx, 1.0, &x, &mut y).unwrap();
    assert_eq!(ctx.bind_groups_created(), groups);
    // With no room in the pool, the dropped vector's buffer is let go: no cached bind group
    // may keep it alive, so the cache starts again (one new group for the next call).
    ctx.set_pool_limit(0);
    drop(other);
    blas::saxpy(&ctx, 1.0, &x, &mut y).unwrap();
    blas::saxpy(&ctx, 1.0, &x, &mut y).unwrap();
    blas::saxpy(&ctx, 1.0, &x, &mut y).unwrap();
    assert!(ctx.bind_groups_created() > groups);
    assert_all(&y, 7.0);
}
