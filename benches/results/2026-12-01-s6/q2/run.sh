#!/bin/sh
# Session 6 probe q2 (2026-12-01): ssymv's two passes (lab Experimental, LAB tag twopass) beside
# the promoted defaults (symv_lines; dgemv/dsymv/dtrmv on the wide kernels), the resident chains
# with their phases and parts, and CG on 1138_bus. One device command:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q2.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
timeout 60 ./bin/example-chain_report --reps 11 > $O/chain.log 2>&1
timeout 200 ./bin/example-bandwidth_report --sets x-l2,f64 --gemv 4096 --skinny 23 --sq 16384 --trsv 8192 --sq64 8192 --reps 11 > $O/l2.log 2>&1
timeout 60 ./bin/example-cg data/1138_bus.mtx > $O/cg.log 2>&1
grep -E "^#|ROW" $O/chain.log
grep -E "ssymv|dsymv|dgemv|dtrmv|FAIL|Error|panicked" $O/l2.log | grep -v "^#" | head -40
grep -iE "resident|iterations|wall" $O/cg.log | head -12
