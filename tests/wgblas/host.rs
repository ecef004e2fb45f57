//! The host path (issue 10) and its failure modes (issue 9, items 5 and 6): outputs with gaps
//! receive exactly their elements, views interleaved with memory written elsewhere are read
//! element by element, concurrent host calls stay correct, absurd sizes and exhausted memory
//! are typed errors, and the context stays usable after them.

use ndarray::{s, Array1, Array2, ShapeBuilder};
use wgblas::prelude::*;
use wgblas::{blas, Error, GpuMatrix, GpuVector, MatrixLayout};

use crate::common::{ctx, run_child_test};

/// Small integers: every product and sum below is exact in f32.
fn int_mat(m: usize, n: usize, seed: usize) -> Array2<f32> {
    Array2::from_shape_fn((m, n), |(i, j)| ((i * 7 + j * 3 + seed) % 11) as f32 - 5.0)
}

fn naive_gemm(a: &Array2<f32>, b: &Array2<f32>) -> Array2<f32> {
    let (m, k) = a.dim();
    let n = b.ncols();
    Array2::from_shape_fn((m, n), |(i, j)| (0..k).map(|p| a[[i, p]] * b[[p, j]]).sum())
}

#[test]
fn output_with_gaps_receives_exactly_its_elements() {
    let ctx = ctx();
    let a = int_mat(4, 3, 1);
    let b = int_mat(3, 5, 2);
    let ab = naive_gemm(&a, &b);
    // C is every other column of rows 1..5 of a 6×10 array: packed on the device, written
    // back into its own 20 elements only.
    for beta in [0.0f32, 1.0] {
        let mut big = Array2::<f32>::from_elem((6, 10), 7.0);
        let before = big.clone();
        {
            let c = big.slice_mut(s![1..5, ..;2]);
            blas::sgemm(
                ctx,
                Transpose::No,
                Transpose::No,
                1.0,
                a.view(),
                b.view(),
                beta,
                c,
            )
            .unwrap();
        }
        for ((i, j), &v) in big.indexed_iter() {
            if (1..5).contains(&i) && j % 2 == 0 {
                assert_eq!(v, ab[[i - 1, j / 2]] + beta * 7.0, "C({i},{j}) beta={beta}");
            } else {
                assert_eq!(
                    v,
                    before[[i, j]],
                    "element ({i},{j}) outside the view was written"
                );
            }
        }
    }
    // A dense view with reversed rows and F-order storage (no gaps: copied as its span).
    let mut cf = Array2::<f32>::zeros((5, 4).f());
    blas::sgemm(
        ctx,
        Transpose::Yes,
        Transpose::Yes,
        1.0,
        b.view(),
        a.view(),
        0.0,
        cf.slice_mut(s![..;-1, ..]),
    )
    .unwrap();
    let expect = ab.t().slice(s![..;-1, ..]).to_owned();
    assert_eq!(cf, expect);
    // A vector output with a step of 3 inside a longer vector.
    let x = Array1::from_vec(vec![1.0f32, -2.0, 3.0]);
    let mut y = Array1::<f32>::from_elem(9, 5.0);
    blas::sgemv(
        ctx,
        Transpose::No,
        1.0,
        a.view(),
        x.view(),
        0.0,
        y.slice_mut(s![..8;2]),
    )
    .unwrap();
    let ax: Vec<f32> = (0..4)
        .map(|i| (0..3).map(|p| a[[i, p]] * x[p]).sum())
        .collect();
    assert_eq!(
        y.to_vec(),
        vec![ax[0], 5.0, ax[1], 5.0, ax[2], 5.0, ax[3], 5.0, 5.0]
    );
}

#[test]
fn views_interleaved_with_memory_written_elsewhere() {
    // The even elements are read by the GPU call while another thread writes the odd ones:
    // only the view's own elements may be read (DESIGN.md, issue 9 item 6).
    let n = 4096;
    let mut a =
        Array1::<f32>::from_shape_fn(2 * n, |i| if i % 2 == 0 { (i % 5) as f32 } else { 0.0 });
    let y = Array1::<f32>::from_shape_fn(n, |i| (i % 3) as f32);
    let expect: f32 = (0..n).map(|i| ((2 * i) % 5) as f32 * (i % 3) as f32).sum();
    let (even, mut odd) = a.multi_slice_mut((s![..;2], s![1..;2]));
    std::thread::scope(|sc| {
        sc.spawn(|| {
            for round in 0..200 {
                odd.fill(round as f32);
            }
        });
        for _ in 0..20 {
            assert_eq!(even.view().gpu_dot(&y).unwrap(), expect);
        }
    });
    // The same for a matrix: every other column of a C-order matrix as A.
    let mut m = Array2::<f32>::zeros((8, 16));
    let (left, mut right) = m.multi_slice_mut((s![.., ..;2], s![.., 1..;2]));
    let mut left = left;
    left.assign(&int_mat(8, 8, 3));
    let b = int_mat(8, 4, 4);
    let expect = naive_gemm(&left.to_owned(), &b);
    std::thread::scope(|sc| {
        sc.spawn(|| {
            for round in 0..200 {
                right.fill(-(round as f32));
            }
        });
        for _ in 0..10 {
            assert_eq!(left.view().gpu_gemm(&b).unwrap(), expect);
        }
    });
}

#[test]
fn eight_threads_of_host_calls() {
    let results: Vec<bool> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                sc.spawn(move || {
                    let a = int_mat(17 + t, 13, t);
                    let b = int_mat(13, 9 + t, 2 * t + 1);
                    let expect = naive_gemm(&a, &b);
                    let x = Array1::from_shape_fn(1000 + t, |i| ((i + t) % 7) as f32 - 3.0);
                    let dot: f32 = x.iter().map(|v| v * v).sum();
                    (0..15).all(|_| {
                        a.gpu_gemm(&b).unwrap() == expect
                            && x.gpu_dot(&x).unwrap() == dot
                            && a.t().gpu_gemm(&a).unwrap() == naive_gemm(&a.t().to_owned(), &a)
                    })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results, vec![true; 8]);
}

fn is_too_large<T: std::fmt::Debug>(r: Result<T, Error>, routine: &str) {
    match r {
        Err(Error::TooLarge { routine: r, .. }) => assert_eq!(r, routine),
        other => panic!("expected TooLarge from {routine}, got {other:?}"),
    }
}

#[test]
fn overflowing_sizes_are_typed_errors() {
    let ctx = ctx();
    is_too_large(GpuVector::<f32>::zeros(ctx, 1 << 62), "zeros");
    is_too_large(GpuVector::<f64>::zeros(ctx, usize::MAX), "zeros");
    is_too_large(
        GpuMatrix::<f32>::zeros(ctx, (1 << 31, 1 << 31), MatrixLayout::RowMajor),
        "zeros",
    );
    is_too_large(
        GpuMatrix::<f32>::zeros(ctx, (usize::MAX, 2), MatrixLayout::ColMajor),
        "zeros",
    );
    let one = Array1::from_elem(1, 1.0f32);
    let huge = one.broadcast(1usize << 40).unwrap();
    is_too_large(ctx.upload_vector(&huge), "upload");
    let one2 = Array2::from_elem((1, 1), 1.0f32);
    is_too_large(
        ctx.upload_matrix(&one2.broadcast((1 << 20, 1 << 20)).unwrap()),
        "upload",
    );
    // 2^32×1 times 1×2^32: the 2^64-element output is refused before any allocation.
    let a = one2.broadcast((1usize << 32, 1)).unwrap();
    let b = one2.broadcast((1, 1usize << 32)).unwrap();
    is_too_large(a.gpu_gemm(&b), "sgemm");
    is_too_large(huge.gpu_axpy(2.0, &huge), "saxpy");
    // The context is still usable.
    assert_eq!(one.gpu_dot(&one).unwrap(), 1.0);
}

/// A plain product whose shapes do not match is a `DimensionMismatch` naming `b`, even where
/// the output of those shapes would be too large to allocate (the shapes are checked first):
/// 2^20×3 times 5×2^20 (a 4 TiB C), also for gemmtr and the batched product.
#[test]
fn mismatched_shapes_are_reported_before_the_output_is_allocated() {
    let mismatch = |r: Result<(), Error>, routine: &str| match r {
        Err(Error::DimensionMismatch {
            routine: got, arg, ..
        }) => {
            assert_eq!((got, arg), (routine, "b"), "{routine}")
        }
        other => panic!("{routine}: {other:?}, want DimensionMismatch naming b"),
    };
    let one2 = Array2::from_elem((1, 1), 1.0f32);
    let a = one2.broadcast((1usize << 20, 3)).unwrap();
    let b = one2.broadcast((5, 1usize << 20)).unwrap();
    mismatch(a.gpu_gemm(&b).map(drop), "sgemm");
    let b = one2.broadcast((5, 1usize << 20)).unwrap();
    let a = one2.broadcast((1usize << 20, 3)).unwrap();
    mismatch(a.gpu_gemmtr(wgblas::Uplo::Lower, &b).map(drop), "sgemmtr");
    let one3 = ndarray::Array3::from_elem((1, 1, 1), 1.0f64);
    let a3 = one3.broadcast((4, 1usize << 20, 3)).unwrap();
    let b3 = one3.broadcast((4, 5, 1usize << 20)).unwrap();
    mismatch(a3.gpu_gemm_batched(&b3).map(drop), "dgemm_batched");
    let b3 = one3.broadcast((2, 3, 1usize << 20)).unwrap();
    mismatch(a3.gpu_gemm_batched(&b3).map(drop), "dgemm_batched");
}

/// Runs in a child process with its address space limited (see
/// [`out_of_memory_is_a_typed_error`]): allocates until the device runs out of memory.
#[test]
#[ignore = "run by out_of_memory_is_a_typed_error in a child process with RLIMIT_AS lowered"]
fn oom_child() {
    let ctx = ctx();
    // Half a storage binding a buffer: 64 MiB on lavapipe, whose buffers live in the process's
    // address space (the lowered RLIMIT_AS is what runs out); 1 GiB on a GPU with 2 GiB bindings,
    // whose own memory runs out first (512 of them pass the 141 GB of an H200).
    let limits = ctx.limits();
    let bytes = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        / 2;
    let len = (bytes / 4) as usize;
    // Host operands for the calls below, allocated while there is room: 40·10^6 f32 each
    // (160 MB, past lavapipe's 128 MiB binding).
    let bx = Array1::from_elem(40_000_000, 1.0f32);
    let mut by = Array1::from_elem(40_000_000, 1.0f32);
    let mut held = Vec::new();
    let mut err = None;
    for _ in 0..512 {
        match GpuVector::<f32>::zeros(ctx, len) {
            Ok(v) => held.push(v),
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    let n = held.len();
    let err = err.expect("512 buffers of half a binding each never ran out of memory");
    // On a discrete GPU, what the big buffers left is filled with smaller ones, so that the
    // operands of the saxpy below (320 MB) cannot fit whatever the device's memory: an H200
    // (141 GB) happened to keep less than that after the big buffers, an H100 (80 GB) more.
    // (On lavapipe the device's memory is the child's address space, which the host
    // allocations below need too.)
    let discrete = ctx.adapter_info().device_type != wgblas::wgpu::DeviceType::Cpu;
    if discrete {
        for part in [len / 16, len / 256] {
            while let Ok(v) = GpuVector::<f32>::zeros(ctx, part) {
                held.push(v);
            }
        }
    }
    assert!(
        matches!(
            err,
            Error::Gpu {
                routine: "zeros",
                ..
            }
        ),
        "{err:?}"
    );
    // A host call in the same state fails with a typed error, or succeeds. (Host arrays stay
    // small: a failed Rust allocation aborts by Rust's own rule, whatever the crate does.)
    let x = Array1::from_elem(4 << 20, 1.0f32);
    match x.gpu_dot(&x) {
        Ok(d) => assert_eq!(d, (4 << 20) as f32),
        Err(e) => assert!(matches!(e, Error::Gpu { .. }), "{e:?}"),
    }
    // Past the device's memory: a host call whose operands need more than is left is a typed
    // error, and its output is unchanged (issue 15).
    let r = blas::saxpy(ctx, 2.0, bx.view(), by.view_mut());
    assert!(
        matches!(
            r,
            Err(Error::Gpu {
                routine: "saxpy",
                ..
            })
        ),
        "{r:?}"
    );
    assert!(by.iter().all(|&v| v == 1.0), "saxpy wrote y after failing");
    // Past the host's memory: the 20,000×20,000 output (1.6 GB) of a plain form cannot be
    // allocated in what is left of the address space: a typed error, not an abort. Where the
    // device's memory is separate (a discrete GPU), the host allocation may succeed and the
    // device's then fail: that is the device's typed error instead.
    let one = Array2::<f32>::ones((1, 1));
    let r = one
        .broadcast((20_000, 1))
        .unwrap()
        .gpu_gemm(&one.broadcast((1, 20_000)).unwrap());
    assert!(
        matches!(
            r,
            Err(Error::OutOfHostMemory {
                routine: "sgemm",
                arg: "c",
                ..
            })
        ) || (discrete
            && matches!(
                r,
                Err(Error::Gpu {
                    routine: "sgemm",
                    ..
                })
            )),
        "{:?}",
        r.map(|c| c.dim())
    );
    drop(held);
    ctx.set_pool_limit(0);
    // After freeing, calls work again.
    let y = Array1::from_elem(1000, 2.0f32);
    assert_eq!(y.gpu_dot(&y).unwrap(), 4000.0);
    let a = int_mat(9, 9, 5);
    assert_eq!(a.gpu_gemm(&a).unwrap(), naive_gemm(&a, &a));
    println!("OOM-CHILD-OK after {n} buffers: {err}");
}

/// The child fills the device's memory. On lavapipe that memory is the child's own (bounded by
/// its RLIMIT_AS); on a discrete GPU it is the GPU's, shared with every other test of the
/// parent process running at the same time, which may then fail to allocate. So on a GPU
/// machine the H200 script runs this test alone, after the parallel run that skips it
/// (`benches/results/*/run.sh`).
#[test]
fn out_of_memory_is_a_typed_error() {
    // 6 GiB of address space: room for the driver, the test harness and a few dozen buffers.
    run_child_test("ulimit -v 6000000 &&", "host::oom_child", "OOM-CHILD-OK");
}

/// A read-back past one staging chunk (32 MiB) is pipelined, chunk by chunk: into a step-2
/// view it writes exactly its elements, and into a fresh array (`to_array`) every element, in
/// order; the gaps of the view keep their NaN bits.
#[test]
fn pipelined_read_back_writes_exactly_the_view() {
    let n = 9_000_000usize; // 36 MB of f32: two chunks and a part
    let x = Array1::from_shape_fn(n, |i| i as f32);
    let gx = ctx().upload_vector(&x).unwrap();
    assert_eq!(gx.to_array().unwrap(), x);
    let mut y = Array1::from_elem(2 * n, f32::NAN);
    blas::scopy(ctx(), &gx, y.slice_mut(s![..;2])).unwrap();
    for (k, v) in y.iter().enumerate() {
        if k % 2 == 0 {
            assert_eq!(*v, (k / 2) as f32, "element {}", k / 2);
        } else {
            assert!(v.is_nan(), "gap {k} written: {v}");
        }
    }
    // A matrix past one chunk, F order: its read-back keeps the layout and every element.
    let a = Array2::from_shape_fn((3000, 3000).f(), |(i, j)| (i * 3000 + j) as f32);
    let ga = ctx().upload_matrix(&a).unwrap();
    assert_eq!(ga.to_array().unwrap(), a);
}
