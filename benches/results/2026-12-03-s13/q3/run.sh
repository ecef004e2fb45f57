#!/bin/sh
# Session 13 (2026-12-03) run 4 (probe): host sgemm at n = 2048 waits twice as long after the
# 256 MiB transfers of the same process (final/: 2.44 ms against 0.94): with the free staging
# buffers kept limited to 32 MiB a direction (lab set_staging_limit), the storage pool to
# 256 MiB (Context::set_pool_limit), both, against the defaults; the chain twice more.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
H="--gemm 512,2048,4096 --dot 1024 --split 2048 --trace"
timeout 60 $B/example-host_report $H > $O/host-a-default.log 2>&1; t a
timeout 60 $B/example-host_report $H --staging-limit 33554432 > $O/host-b-staging32m.log 2>&1; t b
timeout 60 $B/example-host_report $H --pool-limit 268435456 > $O/host-c-pool256m.log 2>&1; t c
timeout 60 $B/example-host_report $H --staging-limit 33554432 --pool-limit 268435456 > $O/host-d-both.log 2>&1; t d
for i in 1 2; do timeout 40 $B/example-chain_report --reps 11 > $O/chain-$i.log 2>&1; done; t chain
for f in $O/host-*.log; do echo "== $f"; grep -E "^ROW|phases of sgemm (2048|4096)|split sgemm" $f; done
grep -h "^ROW" $O/chain-*.log
