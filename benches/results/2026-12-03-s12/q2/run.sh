#!/bin/sh
# Session 12 (2026-12-03) run 2: the whole suite on the H200 (rank updates on main_pre by
# default, staged strsm leaf removed), then the rank updates beside main_vec4 and the pair
# form, and strsv, with the device copy in the same command.
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
timeout 200 $B/example-bandwidth_report --sets x-l2 --gemv "" --skinny "" --sq 16384 --trsv 8192 --reps 11 > $O/l2x.log 2>&1
t l2x; grep -E "^ROW|^LAB|FAIL|CHECK.*(pair|pre)" $O/l2x.log
