#!/usr/bin/env python3
"""cuBLAS (through PyTorch, strict FP32) beside examples/bandwidth_report.rs: REF lines in the
BENCH.md format for Level 1 at n = 2^20 and 2^26 and sgemv at the report's shapes. CUDA events
around 20 back-to-back calls after 3 warm-ups (GPU time per call, as the report's timestamps).
torch.dot and torch.mv call cuBLAS (sdot, sgemv); sasum, snrm2, isamax, saxpy, scopy and sscal are
PyTorch's own reductions and element-wise kernels, labelled `torch`.

    L1=20,26 GEMV=4096,8192,16384 SKINNY=23 python3 benches/cublas_bandwidth.py
"""
import os
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
print("# cublas device:", torch.cuda.get_device_name(0))


def timed(fn, reps=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(reps):
        fn()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / reps * 1e-3


def ints(var, default):
    return [int(v) for v in os.environ.get(var, default).split(",") if v]


for e in ints("L1", "20,26"):
    n = 1 << e
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    for name, ref, fn, by in (
        ("sdot", "cublas", lambda: torch.dot(x, y), 8),
        ("sasum", "torch", lambda: x.abs().sum(), 4),
        ("snrm2", "torch", lambda: torch.linalg.vector_norm(x), 4),
        ("isamax", "torch", lambda: torch.argmax(x.abs()), 4),
        ("saxpy", "torch", lambda: y.add_(x, alpha=0.5), 12),
        ("scopy", "torch", lambda: y.copy_(x), 8),
        ("sscal", "torch", lambda: x.mul_(1.0), 8),
    ):
        s = timed(fn)
        print(f"REF,{name},n={n},-,resident,GB/s,{ref},{by * n / s / 1e9:.0f}")
        print(f"# {ref} {name} n={n}: {s * 1e6:.2f} us")

shapes = [(n, n) for n in ints("GEMV", "4096,8192,16384")]
for e in ints("SKINNY", "23"):
    shapes += [(1 << e, 4), (4, 1 << e)]
for m, n in shapes:
    a = torch.randn(m, n, device="cuda")
    for t in "NT":
        op = a if t == "N" else a.t()
        x = torch.randn(op.shape[1], device="cuda")
        s = timed(lambda: torch.mv(op, x))
        by = 4 * (m * n + m + n)
        print(f"REF,sgemv,{m}x{n},{t}-C,resident,GB/s,cublas,{by / s / 1e9:.0f}")
        # The F-order operand of shape n×m is this C-order storage transposed.
        print(f"REF,sgemv,{n}x{m},{'T' if t == 'N' else 'N'}-F,resident,GB/s,cublas,{by / s / 1e9:.0f}")
    del a
