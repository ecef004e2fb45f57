#!/bin/sh
# Session 14 run q2 (probe): does fma() round once on the H200; the rank updates' products by
# fma() and the plain-formula ceiling (lab set_rank_products) at n = 16384.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 30 $B/example-fma_probe > $O/fma.log 2>&1; cat $O/fma.log
timeout 90 $B/test-test-wgblas rank --test-threads 8 > $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked|differ" $O/tests.log | head
timeout 200 $B/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq 16384 --trsv "" --rank-products 1,2 --reps 11 > $O/rank.log 2>&1
t rank; grep -E "^ROW|^LAB|^REF" $O/rank.log
