#!/bin/sh
# Session 17 run q2: the whole suite on the H200 (alpha once past one binding: depth panels
# summed unscaled; the shared-dimension argument rule; dnrm2 +0); sgemv on gemv_coldot_once
# (--gemv-one-pass) beside the default two passes; Level 3 at 4096 (strmm on the right after
# the triangular-B engine of a1efdbe); cuBLAS references in the same command.
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
timeout 150 $B/example-bandwidth_report --sets l2 --gemv 4096,8192 --skinny 23 --gemv-one-pass --sq 16384 --trsv "" --reps 11 > $O/l2.log 2>&1
t l2; grep -E "^ROW|^LAB|^REF|CHECK" $O/l2.log | head -60
timeout 90 $B/example-level3_report --sections sgemm,level3 --n 4096 --layouts NN-C --level3-n 4096 --trsm-inverse off --tri-order heavy > $O/l3.log 2>&1
t l3; grep -E "^ROW|TFLOP" $O/l3.log | head -30
REF_ONLY=level2,level3 SIZES=4096 PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
t ref; grep -E "^REF|^ROW" $O/ref.log | head -40
