#!/bin/sh
# Session 13 (2026-12-03) run 2 (probe): the chain's submission interval again (16, 32, 64,
# 256, twice each), the host calls' wait (spin limit 1 ms, the default, against 20 ms) after
# large transfers and without them, smaller copy parts with lone small products on the
# small-product kernel (rule k <= 128, B as vec4s), and that rule's edges in the kernel lab.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
for rep in 1 2; do for mp in 16 32 64 256; do
  echo "== max-pending $mp (round $rep)" >> $O/chain.log
  timeout 40 $B/example-chain_report --reps 11 --max-pending $mp >> $O/chain.log 2>&1
done; done
t chain; grep -E "^== |^ROW" $O/chain.log
timeout 60 $B/example-kernel_lab --shapes 64x64x64,64x64x128,64x64x129,32x32x128,8x8x8 --layouts NN-C,TT-F --variants "auto;small=1" --reps 11 > $O/lab.log 2>&1
t lab; grep -E "us a call|^LAB" $O/lab.log
H="--gemm 64,512,2048,4096 --dot 1024 --split 2048 --trace"
timeout 80 $B/example-host_report $H > $O/host-a-default.log 2>&1; t a
timeout 80 $B/example-host_report $H --spin-us 20000 > $O/host-b-spin20ms.log 2>&1; t b
timeout 80 $B/example-host_report $H --transfer 1048576 > $O/host-c-small-transfer.log 2>&1; t c
timeout 80 $B/example-host_report $H --transfer 1048576 --spin-us 20000 > $O/host-d-small-transfer-spin20ms.log 2>&1; t d
timeout 80 $B/example-host_report $H --spin-us 20000 --single-small --copy-part 262144 > $O/host-e-all.log 2>&1; t e
timeout 80 $B/example-host_report $H --transfer 1048576 --single-small --copy-part 262144 > $O/host-f-small-part.log 2>&1; t f
for f in $O/host-*.log; do echo "== $f"; grep -E "^ROW|phases of|steps of sgemm (2048|4096)" $f; done
