#!/bin/sh
# Session 14 final run (c): main_rows at 2 lines for sger and ssyr2; the whole suite on the H200 with main_rows the rank updates' default
# and ssyr2k in two passes; Level 2 at n = 16384 (the rank updates with main_pre beside,
# lab rows 4 / 8 and the plain ceiling); Level 3 at 4096 (ssyr2k's rate against sgemm's);
# cuBLAS's Level 2 and Level 3 references (benches/reference.py).
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
( timeout 230 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
  timeout 50 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
  timeout 30 $B/test-lib-wgblas --test-threads 8; timeout 20 $B/test-test-shaders ) > $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked" $O/tests.log | head
timeout 150 $B/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq 16384 --trsv 8192 --rank-products 2 --rank-rows 2,4,8 --reps 11 > $O/l2.log 2>&1
t l2; grep -E "^ROW|^LAB|^REF" $O/l2.log
timeout 120 $B/example-level3_report --sections sgemm,level3 --n 4096 --layouts NN-C,TT-F --level3-n 4096 --trsm-inverse off --tri-order heavy > $O/l3.log 2>&1
t l3; grep -E "^ROW|TFLOP" $O/l3.log | head -30
REF_ONLY=level2,level3 SIZES=4096 PYTHONUNBUFFERED=1 timeout 120 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
t ref; grep -E "^REF|^ROW" $O/ref.log | head -30
