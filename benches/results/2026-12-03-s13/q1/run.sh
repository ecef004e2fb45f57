#!/bin/sh
# Session 13 (2026-12-03) run 1 (probe): the chain's submission interval (lab set_max_pending),
# host calls with smaller copy parts (lab set_copy_part) and lone small products on the
# small-product kernel (Tuning::single_small), the small shapes in the kernel lab.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
for mp in 1024 256 128 64 32 16; do
  echo "== max-pending $mp" >> $O/chain.log
  timeout 40 $B/example-chain_report --reps 11 --max-pending $mp >> $O/chain.log 2>&1
done
t chain; grep -E "^== |^ROW|phases of chain" $O/chain.log
timeout 60 $B/example-kernel_lab --shapes 64x64x64,32x32x32,16x16x16,64x64x256,64x64x1024,48x40x100 --layouts NN-C,TN-C,NN-F,TT-F --variants "auto;small=1" --reps 11 > $O/lab.log 2>&1
t lab; grep -E "us a call" $O/lab.log
H="--gemm 64,512,2048 --dot 1024 --split 2048 --trace"
timeout 60 $B/example-host_report $H > $O/host-default.log 2>&1
t host-default
for part in 262144 131072 65536; do
  timeout 60 $B/example-host_report $H --transfer 16777216 --copy-part $part > $O/host-part$part.log 2>&1
  t host-part$part
done
timeout 60 $B/example-host_report $H --transfer 1048576 --single-small > $O/host-small.log 2>&1
t host-small
timeout 60 $B/example-host_report $H --transfer 1048576 --single-small --copy-part 131072 > $O/host-small-part.log 2>&1
t host-small-part
for f in $O/host-*.log; do echo "== $f"; grep -E "^ROW|^# lab|phases of" $f; done
