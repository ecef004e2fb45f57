#!/usr/bin/env python3
"""Reference rows for the host path (issue 10): PyTorch's pinned-memory host path on the same
GPU, printed as `REF,<routine>,<shape>,<layout>,<form>,<metric>,torch-pinned,<value>` rows
(../shared/BENCH.md). Written from ../shared/tools/cublas_ref.py; strict FP32 (TF32 off).

- upload / readback, n = 2^26 f32: a pinned host tensor copied to the device and back
  (`.cuda()`, `.cpu()` into a preallocated pinned tensor), wall time with synchronisation;
- host sgemm (n = 64, 512, 2048, 4096): pinned A and B uploaded, multiplied, C read back;
- host sdot (n = 1024, 2^24): x and y uploaded, dot, the scalar read back.
Medians of 11 after 3 warm-ups. Run: python3 benches/host_ref.py
"""
import os
import time

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
REPS = int(os.environ.get("REPS", "11"))
dev = torch.device("cuda")
print("# torch", torch.__version__, "device:", torch.cuda.get_device_name(0))


def median_ms(f, reps=REPS, warm=3):
    for _ in range(warm):
        f()
    ts = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        f()
        torch.cuda.synchronize()
        ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    return ts[len(ts) // 2], ts[0]


n = 1 << 26
h = torch.ones(n, dtype=torch.float32).pin_memory()
d = torch.empty(n, dtype=torch.float32, device=dev)
back = torch.empty(n, dtype=torch.float32).pin_memory()
gb = n * 4 / 1e9
up, up_min = median_ms(lambda: d.copy_(h, non_blocking=True))
down, down_min = median_ms(lambda: back.copy_(d, non_blocking=True))
print(f"REF,upload,n={n},-,host,GB/s,torch-pinned,{gb / up * 1e3:.2f}")
print(f"REF,readback,n={n},-,host,GB/s,torch-pinned,{gb / down * 1e3:.2f}")
print(f"# torch pinned best: upload {gb / up_min * 1e3:.2f} GB/s, readback {gb / down_min * 1e3:.2f} GB/s")
# Pageable (not pinned) host memory: what a plain CPU tensor costs.
hp = torch.ones(n, dtype=torch.float32)
pu, _ = median_ms(lambda: d.copy_(hp))
pd, _ = median_ms(lambda: d.cpu())
print(f"# torch pageable: upload {gb / pu * 1e3:.2f} GB/s, readback {gb / pd * 1e3:.2f} GB/s")
del h, d, back, hp

for n in (64, 512, 2048, 4096):
    ah = torch.randn(n, n).pin_memory()
    bh = torch.randn(n, n).pin_memory()
    ms, ms_min = median_ms(
        lambda: (ah.cuda(non_blocking=True) @ bh.cuda(non_blocking=True)).cpu(),
        reps=REPS if n >= 2048 else 101,
    )
    shape = f"{n}x{n}x{n}"
    print(f"REF,sgemm,{shape},NN-C,host,ms,torch-pinned,{ms:.4f}")
    if n <= 64:
        print(f"REF,sgemm,{shape},NN-C,host,us/call,torch-pinned,{ms * 1e3:.1f}")
    print(f"# torch host sgemm {shape}: median {ms:.4f} ms, min {ms_min:.4f}")

for n in (1024, 1 << 24):
    xh = torch.randn(n).pin_memory()
    yh = torch.randn(n).pin_memory()
    ms, ms_min = median_ms(
        lambda: torch.dot(xh.cuda(non_blocking=True), yh.cuda(non_blocking=True)).item(),
        reps=REPS if n > 1 << 16 else 1001,
    )
    metric, val = ("us/call", ms * 1e3) if n <= 1 << 16 else ("ms", ms)
    print(f"REF,sdot,n={n},-,host,{metric},torch-pinned,{val:.4f}")
