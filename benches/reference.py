#!/usr/bin/env python3
"""Reference figures for wgblas's H200 results file: cuBLAS (through PyTorch and, for Level 1,
through cuBLAS itself by ctypes), a plain device copy, and PyTorch's pinned-memory host path.

Written from the shared `tools/cublas_ref.py`. Strict FP32 (TF32 off). Every figure is the
median of SAMPLES (default 11) timings after warm-up; a sample of a short call times a batch of
calls with CUDA events and divides, so that launch latency does not dominate. The minimum is
printed on a `#` line beside each row.

Output, one line per measurement, in the format of `benches/results/README.md`:

    REF,<routine>,<shape>,<layout>,<form>,<metric>,<reference>,<value>

`layout` is an fnmatch pattern: `*` matches any layout (`benches/join.py` applies it).
`reference` is one of:
  cublas          a cuBLAS routine (gemm, gemv, dot, bmm, trsm; Level 1 by ctypes)
  torch           a PyTorch CUDA kernel where cuBLAS has no call or ctypes failed (named so)
  copy-bandwidth  a device-to-device copy of the bytes the routine moves: read + write bytes / time
  torch-pinned    PyTorch's pinned-memory host path (upload, read-back, host-form sgemm)

Subsets (comma-separated in REF_ONLY; default: all):
  gemm    sgemm n = SIZES in NN/NT/TN/TT, C and F order, and the rectangular set
  level3  strsm left/right, ssyrk and sgemmtr (A·Aᵀ as gemm, n³ flops) at L3_SIZES
  level1  Level 1 at n = 2^20 and 2^26 (L1_EXPONENTS): cuBLAS and copy-bandwidth rows
  level2  strsv 4096/8192 (one right-hand side); sgemv N/T, C/F at 4096/8192/16384;
          tall-skinny and short-wide; copy rows for Level 2
  host    torch pinned upload/read-back of 256 MiB, host-form sgemm at HOST_SIZES
  f64     dgemm 4096/8192, ddot/daxpy/dnrm2 2^26 and f64 copy; dgemv N/T-C and dtrsv at
          F64_L2_SIZES (8192), copy rows for dsymv/dtrmv/dger/dsyr/dsyr2 there
  bmm     torch.bmm 10000x32x32x32 and 256x512x512x512, FP32 and f64
  scale   (not in the default list) sgemm NN-C at SCALE_SIZES (8192, 32768: 4 GiB per operand)
          and saxpy/sdot at n = 2^SCALE_L1 (26, 30: 4 GiB per vector), cuBLAS and copy rows,
          beside `examples/scale_report.rs`

    python3 benches/reference.py                       # everything, about a minute on an H200
    REF_ONLY=gemm,level1 SIZES=4096 python3 benches/reference.py

Byte counts (GB/s = bytes / time; the wgblas reports use the same):
  sdot 8n, sasum 4n, snrm2 4n, isamax 4n, saxpy 12n, scopy 8n, sscal 8n, sswap 16n, srot 16n,
  ddot 16n, daxpy 24n; sgemv 4(mn + m + n) (beta = 0: A, x read once, y written once);
  ssymv/strmv 4(n(n+1)/2 + 2n); sger 4(2mn + m + n); ssyr 4(n(n+1) + n); ssyr2 4(n(n+1) + 2n).
Flop counts: 2mnk for gemm and bmm (per batch entry, times the batch), n³ for ssyrk and sgemmtr,
m²n for left strsm (n²m for right).
"""
import ctypes
import os
import statistics
import sys
import time

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")

SAMPLES = int(os.environ.get("SAMPLES", "11"))
ONLY = set(os.environ.get("REF_ONLY", "gemm,level3,level1,level2,host,f64,bmm").split(","))
SIZES = [int(s) for s in os.environ.get("SIZES", "1024,2048,4096,8192").split(",")]
L3_SIZES = [int(s) for s in os.environ.get("L3_SIZES", "1024,4096").split(",")]
L1_EXPONENTS = [int(s) for s in os.environ.get("L1_EXPONENTS", "20,26").split(",")]
GEMV_SIZES = [int(s) for s in os.environ.get("GEMV_SIZES", "4096,8192,16384").split(",")]
HOST_SIZES = [int(s) for s in os.environ.get("HOST_SIZES", "64,512,2048,4096").split(",")]
SCALE_SIZES = [int(s) for s in os.environ.get("SCALE_SIZES", "8192,32768").split(",")]
SCALE_L1 = [int(s) for s in os.environ.get("SCALE_L1", "26,30").split(",")]
RECT = [(4096, 4096, 128), (4096, 4096, 1024), (128, 4096, 4096), (8192, 64, 8192),
        (64, 8192, 8192), (4097, 4097, 4097), (1000, 1000, 1000), (3000, 5000, 700)]
dev = "cuda"


def row(routine, shape, layout, form, metric, reference, value, minimum=None):
    text = f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"  # four digits, never an exponent
    print(f"REF,{routine},{shape},{layout},{form},{metric},{reference},{text}", flush=True)
    if minimum is not None:
        print(f"# {routine} {shape} {layout} {reference}: best sample {minimum:.4g} {metric}", flush=True)


def gpu_ms(fn, target_ms=1.0):
    """Median and minimum, over SAMPLES, of the CUDA-event time of one call (ms). A sample times a
    batch of `inner` calls, chosen so that a batch takes about `target_ms`."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    s.record()
    fn()
    e.record()
    torch.cuda.synchronize()
    one = max(s.elapsed_time(e), 1e-3)
    inner = max(1, min(1000, int(target_ms / one)))
    times = []
    for _ in range(SAMPLES):
        s.record()
        for _ in range(inner):
            fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / inner)
    return statistics.median(times), min(times)


def wall_ms(fn):
    """Median and minimum of the wall time of `fn` (ms), which must synchronize itself."""
    for _ in range(3):
        fn()
    times = []
    for _ in range(SAMPLES):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), min(times)


def rate(amount, ms_pair, scale):
    """(median, best) rate of `amount` units per call; scale 1e9 for TFLOP/s (flops/ms), 1e6 for GB/s."""
    med, best = ms_pair
    return amount / med / scale, amount / best / scale


def emit_rate(routine, shape, layout, form, metric, reference, amount, ms_pair):
    scale = 1e9 if metric == "TFLOP/s" else 1e6
    med, best = rate(amount, ms_pair, scale)
    row(routine, shape, layout, form, metric, reference, med, best)


def copy_rate(nbytes, dtype=torch.float32):
    """GB/s of a device copy that moves `nbytes` in all (half read, half written)."""
    elems = max(1, nbytes // 2 // torch.tensor([], dtype=dtype).element_size())
    src = torch.randn(elems, device=dev, dtype=dtype)
    dst = torch.empty_like(src)
    return rate(2 * elems * src.element_size(), gpu_ms(lambda: dst.copy_(src)), 1e6)


def emit_copy(routine, shape, nbytes, dtype=torch.float32, layout="-"):
    med, best = copy_rate(nbytes, dtype)
    row(routine, shape, layout, "resident", "GB/s", "copy-bandwidth", med, best)


print("# reference device:", torch.cuda.get_device_name(0), "torch", torch.__version__,
      "cuda", torch.version.cuda, file=sys.stderr, flush=True)

# ---------------------------------------------------------------- sgemm
if "gemm" in ONLY:
    for n in SIZES:
        a = torch.randn(n, n, device=dev)
        b = torch.randn(n, n, device=dev)
        c = torch.empty(n, n, device=dev)
        measured = {}
        for ta in "NT":
            for tb in "NT":
                A = a.t() if ta == "T" else a
                B = b.t() if tb == "T" else b
                measured[ta + tb] = gpu_ms(lambda: torch.mm(A, B, out=c))
        flops = 2 * n ** 3
        for ops, ms in measured.items():
            emit_rate("sgemm", f"{n}x{n}x{n}", f"{ops}-C", "resident", "TFLOP/s", "cublas", flops, ms)
            # F order: C = op(A)·op(B) in column-major storage is, read as row-major, the product
            # Cᵀ = op(B)ᵀ·op(A)ᵀ: square operands, the same call with the two transposes swapped.
            emit_rate("sgemm", f"{n}x{n}x{n}", f"{ops}-F", "resident", "TFLOP/s", "cublas", flops,
                      measured[ops[1] + ops[0]])
        del a, b, c
    for (m, n, k) in RECT:
        shape = f"{m}x{n}x{k}"
        a = torch.randn(m, k, device=dev)
        b = torch.randn(k, n, device=dev)
        c = torch.empty(m, n, device=dev)
        emit_rate("sgemm", shape, "NN-C", "resident", "TFLOP/s", "cublas", 2 * m * n * k,
                  gpu_ms(lambda: torch.mm(a, b, out=c)))
        # F order: the row-major product Cᵀ (n×m) = Bᵀ (n×k) · Aᵀ (k×m).
        bt = b.t().contiguous()
        at = a.t().contiguous()
        ct = torch.empty(n, m, device=dev)
        emit_rate("sgemm", shape, "NN-F", "resident", "TFLOP/s", "cublas", 2 * m * n * k,
                  gpu_ms(lambda: torch.mm(bt, at, out=ct)))
        del a, b, c, at, bt, ct

# ---------------------------------------------------------------- Level 3 beside gemm
if "level3" in ONLY:
    for n in L3_SIZES:
        shape = f"{n}x{n}x{n}"
        b = torch.randn(n, n, device=dev)
        t = torch.tril(torch.randn(n, n, device=dev) / (10 * n)) + 2 * torch.eye(n, device=dev)
        n3 = n ** 3
        emit_rate("strsm", shape, "L*", "resident", "TFLOP/s", "cublas", n3,
                  gpu_ms(lambda: torch.linalg.solve_triangular(t, b, upper=False, left=True)))
        emit_rate("strsm", shape, "R*", "resident", "TFLOP/s", "cublas", n3,
                  gpu_ms(lambda: torch.linalg.solve_triangular(t, b, upper=False, left=False)))
        a = torch.randn(n, n, device=dev)
        c = torch.empty(n, n, device=dev)
        syrk = gpu_ms(lambda: torch.mm(a, a.t(), out=c))
        # ssyrk and sgemmtr compute one triangle (n³ flops); cuBLAS's gemm of A·Aᵀ computes both.
        emit_rate("ssyrk", shape, "*", "resident", "TFLOP/s", "cublas", n3, syrk)
        emit_rate("sgemmtr", shape, "*", "resident", "TFLOP/s", "cublas", n3, syrk)
        del a, b, c, t

# ---------------------------------------------------------------- Level 1
L1_BYTES = {"sdot": 8, "sasum": 4, "snrm2": 4, "isamax": 4, "saxpy": 12, "scopy": 8,
            "sscal": 8, "sswap": 16, "srot": 16}


def load_cublas():
    """cuBLAS through ctypes, on PyTorch's current stream, pointer mode device (no sync per call).
    None where the library or a symbol cannot be found."""
    torch.mm(torch.ones(2, 2, device=dev), torch.ones(2, 2, device=dev))  # loads libcublas
    names = ["libcublas.so.12", "libcublas.so.13", "libcublas.so.11", "libcublas.so"]
    try:
        import nvidia.cublas  # the pip wheel's copy, which PyTorch loaded
        names = [os.path.join(list(nvidia.cublas.__path__)[0], "lib", nm) for nm in names] + names
    except ImportError:
        pass
    for nm in names:
        try:
            lib = ctypes.CDLL(nm)
            handle = ctypes.c_void_p()
            if lib.cublasCreate_v2(ctypes.byref(handle)) != 0:
                continue
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            if lib.cublasSetStream_v2(handle, stream) != 0:
                continue
            if lib.cublasSetPointerMode_v2(handle, 1) != 0:  # CUBLAS_POINTER_MODE_DEVICE
                continue
            return lib, handle
        except OSError:
            continue
    return None


def level1_calls(n, cublas):
    """{routine: (reference name, zero-argument call)} for Level 1 at n."""
    x = torch.randn(n, device=dev)
    y = torch.randn(n, device=dev)
    z = torch.randn(n, device=dev)  # sscal's own vector, so that x keeps its values
    out = torch.zeros((), device=dev)
    iout = torch.zeros((), device=dev, dtype=torch.int32)
    half = torch.full((1,), 0.5, device=dev)
    cs = torch.tensor([0.6], device=dev)
    sn = torch.tensor([0.8], device=dev)
    calls = {}
    if cublas is not None:
        lib, h = cublas
        p = lambda t: ctypes.c_void_p(t.data_ptr())
        cn = ctypes.c_int(n)
        one = ctypes.c_int(1)
        calls = {
            "sdot": lambda: lib.cublasSdot_v2(h, cn, p(x), one, p(y), one, p(out)),
            "sasum": lambda: lib.cublasSasum_v2(h, cn, p(x), one, p(out)),
            "snrm2": lambda: lib.cublasSnrm2_v2(h, cn, p(x), one, p(out)),
            "isamax": lambda: lib.cublasIsamax_v2(h, cn, p(x), one, p(iout)),
            "saxpy": lambda: lib.cublasSaxpy_v2(h, cn, p(half), p(x), one, p(y), one),
            "scopy": lambda: lib.cublasScopy_v2(h, cn, p(x), one, p(y), one),
            "sscal": lambda: lib.cublasSscal_v2(h, cn, p(half), p(z), one),
            "sswap": lambda: lib.cublasSswap_v2(h, cn, p(x), one, p(y), one),
            "srot": lambda: lib.cublasSrot_v2(h, cn, p(x), one, p(y), one, p(cs), p(sn)),
        }
        # a non-zero status means the call did not run: check each once
        bad = [k for k, f in calls.items() if f() != 0]
        torch.cuda.synchronize()
        for k in bad:
            print(f"# cuBLAS {k} returned an error status; falling back to PyTorch", file=sys.stderr)
            del calls[k]
        calls = {k: ("cublas", f) for k, f in calls.items()}
    fallback = {
        "sdot": ("cublas", lambda: torch.dot(x, y, out=out)),  # torch.dot is cublasSdot
        "sasum": ("torch", lambda: torch.linalg.vector_norm(x, 1, out=out)),
        "snrm2": ("torch", lambda: torch.linalg.vector_norm(x, out=out)),
        "saxpy": ("torch", lambda: y.add_(x, alpha=0.5)),
        "scopy": ("torch", lambda: y.copy_(x)),
        "sscal": ("torch", lambda: z.mul_(0.5)),
    }
    for k, v in fallback.items():
        calls.setdefault(k, v)
    return calls


if "level1" in ONLY:
    cublas = load_cublas()
    if cublas is None:
        print("# cuBLAS not reachable by ctypes: Level 1 rows from PyTorch kernels ('torch')",
              file=sys.stderr)
    for ex in L1_EXPONENTS:
        n = 1 << ex
        shape = f"n={n}"
        for routine, (ref, fn) in level1_calls(n, cublas).items():
            emit_rate(routine, shape, "-", "resident", "GB/s", ref, L1_BYTES[routine] * n, gpu_ms(fn))
        for routine, per in L1_BYTES.items():
            emit_copy(routine, shape, per * n)
        torch.cuda.empty_cache()

# ---------------------------------------------------------------- sizes past one binding
if "scale" in ONLY:
    for n in SCALE_SIZES:
        a = torch.randn(n, n, device=dev)
        b = torch.randn(n, n, device=dev)
        c = torch.empty(n, n, device=dev)
        emit_rate("sgemm", f"{n}x{n}x{n}", "NN-C", "resident", "TFLOP/s", "cublas", 2 * n ** 3,
                  gpu_ms(lambda: torch.mm(a, b, out=c)))
        del a, b, c
        torch.cuda.empty_cache()
    cublas = load_cublas()
    for ex in SCALE_L1:
        n = 1 << ex
        shape = f"n={n}"
        calls = level1_calls(n, cublas)
        for routine in ("saxpy", "sdot"):
            ref, fn = calls[routine]
            emit_rate(routine, shape, "-", "resident", "GB/s", ref, L1_BYTES[routine] * n, gpu_ms(fn))
            emit_copy(routine, shape, L1_BYTES[routine] * n)
        del calls
        torch.cuda.empty_cache()

# ---------------------------------------------------------------- Level 2
def gemv_bytes(m, n):
    return 4 * (m * n + m + n)


def emit_gemv(m, n):
    """sgemv on an m×n A in the four (trans, order) layouts, each measured as the torch.mv it is."""
    shape = f"{m}x{n}"
    ac = torch.randn(m, n, device=dev)       # C order: row-major m×n
    af = torch.randn(n, m, device=dev).t()   # F order: a column-major m×n view
    xn = torch.randn(n, device=dev)
    xm = torch.randn(m, device=dev)
    ym = torch.empty(m, device=dev)
    yn = torch.empty(n, device=dev)
    for layout, fn in (("N-C", lambda: torch.mv(ac, xn, out=ym)),
                       ("T-C", lambda: torch.mv(ac.t(), xm, out=yn)),
                       ("N-F", lambda: torch.mv(af, xn, out=ym)),
                       ("T-F", lambda: torch.mv(af.t(), xm, out=yn))):
        emit_rate("sgemv", shape, layout, "resident", "GB/s", "cublas", gemv_bytes(m, n), gpu_ms(fn))
    emit_copy("sgemv", shape, gemv_bytes(m, n), layout="*")
    del ac, af


if "level2" in ONLY:
    # strsv as cuBLAS runs it through PyTorch: a triangular solve with one right-hand side.
    for n in (4096, 8192):
        t = torch.tril(torch.randn(n, n, device=dev) / n) + torch.eye(n, device=dev)
        x = torch.randn(n, 1, device=dev)
        med, best = gpu_ms(lambda: torch.linalg.solve_triangular(t, x, upper=False, left=True))
        row("strsv", f"{n}x{n}", "*", "resident", "ms", "cublas", med, best)
        del t, x
    for n in GEMV_SIZES:
        emit_gemv(n, n)
    emit_gemv(1 << 23, 4)   # tall-skinny
    emit_gemv(4, 1 << 23)   # short-wide
    for n in GEMV_SIZES:
        tri = n * (n + 1) // 2
        emit_copy("ssymv", f"{n}x{n}", 4 * (tri + 2 * n), layout="*")
        emit_copy("strmv", f"{n}x{n}", 4 * (tri + 2 * n), layout="*")
        emit_copy("sger", f"{n}x{n}", 4 * (2 * n * n + 2 * n), layout="*")
        emit_copy("ssyr", f"{n}x{n}", 4 * (2 * tri + n), layout="*")
        emit_copy("ssyr2", f"{n}x{n}", 4 * (2 * tri + 2 * n), layout="*")
    torch.cuda.empty_cache()

# ---------------------------------------------------------------- host path
if "host" in ONLY:
    n = 1 << 26  # 256 MiB of f32
    h = torch.randn(n).pin_memory()
    d = torch.empty(n, device=dev)

    def upload():
        d.copy_(h, non_blocking=True)
        torch.cuda.synchronize()

    def readback():
        h.copy_(d, non_blocking=True)
        torch.cuda.synchronize()

    med, best = rate(4 * n, wall_ms(upload), 1e6)
    row("upload", f"n={n}", "-", "host", "GB/s", "torch-pinned", med, best)
    med, best = rate(4 * n, wall_ms(readback), 1e6)
    row("readback", f"n={n}", "-", "host", "GB/s", "torch-pinned", med, best)
    del h, d
    for n in HOST_SIZES:
        ah = torch.randn(n, n).pin_memory()
        bh = torch.randn(n, n).pin_memory()
        ch = torch.empty(n, n).pin_memory()

        def host():  # what a PyTorch user pays for a product of two CPU arrays
            c = ah.to(dev, non_blocking=True) @ bh.to(dev, non_blocking=True)
            ch.copy_(c, non_blocking=True)
            torch.cuda.synchronize()

        med, best = wall_ms(host)
        row("sgemm", f"{n}x{n}x{n}", "*", "host", "ms", "torch-pinned", med, best)
        del ah, bh, ch

# ---------------------------------------------------------------- f64
if "f64" in ONLY:
    for n in (4096, 8192):
        a = torch.randn(n, n, device=dev, dtype=torch.float64)
        b = torch.randn(n, n, device=dev, dtype=torch.float64)
        c = torch.empty(n, n, device=dev, dtype=torch.float64)
        emit_rate("dgemm", f"{n}x{n}x{n}", "*", "resident", "TFLOP/s", "cublas", 2 * n ** 3,
                  gpu_ms(lambda: torch.mm(a, b, out=c)))
        del a, b, c
    n = 1 << 26
    x = torch.randn(n, device=dev, dtype=torch.float64)
    y = torch.randn(n, device=dev, dtype=torch.float64)
    out = torch.zeros((), device=dev, dtype=torch.float64)
    emit_rate("ddot", f"n={n}", "-", "resident", "GB/s", "cublas", 16 * n,
              gpu_ms(lambda: torch.dot(x, y, out=out)))
    emit_rate("daxpy", f"n={n}", "-", "resident", "GB/s", "torch", 24 * n,
              gpu_ms(lambda: y.add_(x, alpha=0.5)))
    emit_copy("ddot", f"n={n}", 16 * n, torch.float64)
    emit_copy("daxpy", f"n={n}", 24 * n, torch.float64)
    # dnrm2 (8n bytes): cuBLAS by ctypes where reachable, else PyTorch's norm kernel.
    cublas = load_cublas()
    if cublas is not None:
        lib, h = cublas
        p = lambda t: ctypes.c_void_p(t.data_ptr())
        nrm2 = lambda: lib.cublasDnrm2_v2(h, ctypes.c_int(n), p(x), ctypes.c_int(1), p(out))
        if nrm2() == 0:
            emit_rate("dnrm2", f"n={n}", "-", "resident", "GB/s", "cublas", 8 * n, gpu_ms(nrm2))
        else:
            cublas = None
    if cublas is None:
        emit_rate("dnrm2", f"n={n}", "-", "resident", "GB/s", "torch", 8 * n,
                  gpu_ms(lambda: torch.linalg.vector_norm(x, out=out)))
    emit_copy("dnrm2", f"n={n}", 8 * n, torch.float64)
    del x, y
    torch.cuda.empty_cache()
    # f64 Level 2 at the bandwidth report's --sq64 sizes (F64_L2_SIZES), byte counts as its
    # f32 rows with 8-byte elements: dgemv 8(n² + 2n) (cublasDgemv through torch.mv), dtrsv in
    # ms (one right-hand side), and copy rows for dsymv 8(n(n+1)/2 + 3n), dtrmv
    # 8(n(n+1)/2 + 2n), dger 16n², dsyr and dsyr2 8n(n+1).
    for n in [int(v) for v in os.environ.get("F64_L2_SIZES", "8192").split(",")]:
        shape = f"{n}x{n}"
        a = torch.randn(n, n, device=dev, dtype=torch.float64)
        xv = torch.randn(n, device=dev, dtype=torch.float64)
        yv = torch.empty(n, device=dev, dtype=torch.float64)
        for layout, fn in (("N-C", lambda: torch.mv(a, xv, out=yv)),
                           ("T-C", lambda: torch.mv(a.t(), xv, out=yv))):
            emit_rate("dgemv", shape, layout, "resident", "GB/s", "cublas", 8 * (n * n + 2 * n),
                      gpu_ms(fn))
        emit_copy("dgemv", shape, 8 * (n * n + 2 * n), torch.float64, layout="*")
        t = torch.tril(a / n) + torch.eye(n, device=dev, dtype=torch.float64)
        rhs = torch.randn(n, 1, device=dev, dtype=torch.float64)
        med, best = gpu_ms(lambda: torch.linalg.solve_triangular(t, rhs, upper=False, left=True))
        row("dtrsv", shape, "*", "resident", "ms", "cublas", med, best)
        tri = n * (n + 1) // 2
        emit_copy("dsymv", shape, 8 * (tri + 3 * n), torch.float64, layout="*")
        emit_copy("dtrmv", shape, 8 * (tri + 2 * n), torch.float64, layout="*")
        emit_copy("dger", shape, 16 * n * n, torch.float64, layout="*")
        emit_copy("dsyr", shape, 16 * tri, torch.float64, layout="*")
        emit_copy("dsyr2", shape, 16 * tri, torch.float64, layout="*")
        del a, t, xv, yv, rhs
        torch.cuda.empty_cache()

# ---------------------------------------------------------------- batched gemm
if "bmm" in ONLY:
    for dtype, routine in ((torch.float32, "sgemm_batched"), (torch.float64, "dgemm_batched")):
        for (bt, m) in ((10000, 32), (256, 512)):
            a = torch.randn(bt, m, m, device=dev, dtype=dtype)
            b = torch.randn(bt, m, m, device=dev, dtype=dtype)
            c = torch.empty(bt, m, m, device=dev, dtype=dtype)
            emit_rate(routine, f"{bt}x{m}x{m}x{m}", "*", "resident", "TFLOP/s", "cublas",
                      2 * bt * m ** 3, gpu_ms(lambda: torch.bmm(a, b, out=c)))
            del a, b, c
