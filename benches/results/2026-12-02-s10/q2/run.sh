#!/bin/sh
# Session 10 (2026-12-02), q2: strsm's row-parallel block solves (blocks of 32 / 64 / 128 rows)
# against the per-column one, with cuBLAS strsm.   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q2.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin; L3=$B/example-level3_report
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 120 $L3 --sections trsm --level3-n 1024,4096 --check 1024 --reps 11 --trsm-inverse off,rows32,rows64,rows128 > $O/trsm.log 2>&1; t trsm
grep -E "^ROW" $O/trsm.log; grep -E "FAIL|panicked|Error" $O/*.log | head
