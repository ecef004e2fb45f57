#!/bin/sh
# Session 12 (2026-12-03) run 3 (final): rank-update tests, Level 1 and Level 2 (rank updates
# beside main_vec4 and the pair form, strsv), cuBLAS and the device copy in the same command.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 60 $B/test-test-wgblas rank syr --test-threads 8 > $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked" $O/tests.log | head
timeout 170 $B/example-bandwidth_report --sets l1,x-l2 --reps 11 > $O/l12.log 2>&1
t l12; grep -E "^ROW,(sger|ssyr|strsv)|^LAB,(vec4|pair)|FAIL" $O/l12.log
REF_ONLY=level1,level2 PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
t ref; grep -c "^REF" $O/ref.log; tail -1 $O/ref.log
