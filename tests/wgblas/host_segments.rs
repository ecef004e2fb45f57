//! The host forms (`gpu_scal`, `gpu_axpy`, `gpu_rot`, `gpu_rotm`) past one *buffer* (issue 15),
//! as their `_inplace` twins: the owned copy they return is held in several buffers like the
//! operand it replaces. Lowering the limit changes the shared context, which every other test of
//! this process uses, so a child process does it (as `host::out_of_memory_is_a_typed_error`
//! does). Values are small integers, so every result is exact and checked element by element.

use ndarray::Array1;
use wgblas::ext::Level1Ext;
use wgblas::Context;

/// Spread over three segments of 64 KiB (16,384 f32).
const N: usize = 40_000;

#[test]
#[ignore = "run by host_forms_past_one_buffer, in a process of its own"]
fn host_segments_child() {
    let ctx =
        Context::shared().expect("the tests need a GPU adapter (lavapipe on CPU-only machines)");
    assert_eq!(ctx.set_max_buffer(64 << 10), 64 << 10);
    let x = Array1::from_shape_fn(N, |i| (i % 7) as f32 - 3.0);
    let y = Array1::from_shape_fn(N, |i| (i % 5) as f32);
    let scaled = x.gpu_scal(2.0).expect("gpu_scal past one buffer");
    let axpy = x.gpu_axpy(2.0, &y).expect("gpu_axpy past one buffer");
    // c = 0, s = 1: x' = y, y' = -x.
    let (rx, ry) = x.gpu_rot(&y, 0.0, 1.0).expect("gpu_rot past one buffer");
    // flag 1 (param = [flag, h11, h21, h12, h22]): H = [[h11, 1], [-1, h22]],
    // x' = h11·x + y, y' = -x + h22·y.
    let (mx, my) = x
        .gpu_rotm(&y, [1.0, 2.0, 0.0, 0.0, 3.0])
        .expect("gpu_rotm past one buffer");
    for i in 0..N {
        let (xi, yi) = (x[i], y[i]);
        assert_eq!(scaled[i], 2.0 * xi, "gpu_scal element {i}");
        assert_eq!(axpy[i], 2.0 * xi + yi, "gpu_axpy element {i}");
        assert_eq!((rx[i], ry[i]), (yi, -xi), "gpu_rot element {i}");
        assert_eq!(
            (mx[i], my[i]),
            (2.0 * xi + yi, -xi + 3.0 * yi),
            "gpu_rotm element {i}"
        );
    }
    println!("HOST-SEGMENTS-CHILD-OK");
}

#[test]
fn host_forms_past_one_buffer() {
    crate::common::run_child_test(
        "",
        "host_segments::host_segments_child",
        "HOST-SEGMENTS-CHILD-OK",
    );
}
