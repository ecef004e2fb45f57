#!/bin/sh
# Session 13 (2026-12-03) run 3 (final): the whole suite, the host path (after 256 MiB
# transfers, the default order, and with 1 MiB transfers first), the chains, the small
# products beside the tile kernel, quickstart twice, CG, and the references (PyTorch's pinned
# path, cuBLAS) in the same command.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
( timeout 230 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
  timeout 50 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
  timeout 30 $B/test-lib-wgblas --test-threads 8; timeout 20 $B/test-test-shaders ) > $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked" $O/tests.log | head -20
( timeout 40 $B/example-chain_report --reps 11
  timeout 80 $B/example-host_report --reps 11 --trace
  for i in 1 2; do s=$(date +%s%N); timeout 30 $B/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
  timeout 30 $B/example-cg $R/data/1138_bus.mtx --repeat 2 ) > $O/host.log 2>&1
t host; grep -E "^ROW|phases of (sgemm|sdot|chain)|quickstart|resident  " $O/host.log | head -40
timeout 80 $B/example-host_report --reps 11 --transfer 1048576 --trace > $O/host-small-transfer.log 2>&1
t host2; grep -E "^ROW,sgemm|phases of sgemm" $O/host-small-transfer.log
timeout 60 $B/example-kernel_lab --shapes 64x64x64,32x32x32,8x8x8,64x64x128,48x40x100 --layouts NN-C,TT-F --variants "auto;small=0" --reps 11 > $O/lab.log 2>&1
t lab; grep -E "us a call" $O/lab.log
REF_ONLY=host PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
t ref; grep -c "^REF" $O/ref.log; tail -3 $O/ref.log
