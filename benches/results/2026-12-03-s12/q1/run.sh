#!/bin/sh
# Session 12 (2026-12-03) lab run: rank updates main_pre beside main_vec4, strsv alone and after l2.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 60 $B/test-test-wgblas rank --test-threads 8 > $O/tests.log 2>&1
timeout 60 $B/test-test-wgblas trsv --test-threads 8 >> $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked" $O/tests.log | head
timeout 60 $B/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq "" --trsv 8192 --reps 11 > $O/trsv1.log 2>&1
t trsv1; grep -E "^ROW|CHECK" $O/trsv1.log
timeout 200 $B/example-bandwidth_report --sets x-l2 --gemv "" --skinny "" --sq 16384 --trsv 8192 --trsv-step 8,16 --reps 11 > $O/l2x.log 2>&1
t l2x; grep -E "^ROW|^LAB|FAIL" $O/l2x.log
timeout 60 $B/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq "" --trsv 8192 --reps 11 > $O/trsv2.log 2>&1
t trsv2; grep -E "^ROW" $O/trsv2.log
