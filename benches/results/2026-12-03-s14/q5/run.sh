#!/bin/sh
# Session 14 run q5 (probe): main_rows with 2 / 4 / 8 lines beside the default and main_pre's
# plain ceiling, n = 16384; the rank tests on the H200.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 90 $B/test-test-wgblas rank --test-threads 8 > $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked|differ" $O/tests.log | head
timeout 200 $B/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq 16384 --trsv "" --rank-products 2 --rank-rows 2,4,8 --reps 11 > $O/rank.log 2>&1
t rank; grep -E "^ROW,s(ger|syr)|^LAB|^REF,s(ger|syr)" $O/rank.log
