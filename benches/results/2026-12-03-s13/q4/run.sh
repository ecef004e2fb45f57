#!/bin/sh
# Session 13 (2026-12-03) run 5 (probe): the slow wait after 256 MiB transfers against the
# storage pool: the defaults (twice, first and last), the pool's free buffers released after
# the transfers (--trim-after-transfers), and pool limits of 512 MiB and 1 GiB.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
H="--gemm 512,2048,4096 --dot 1024 --split 2048 --trace"
timeout 60 $B/example-host_report $H > $O/host-a-default.log 2>&1; t a
timeout 60 $B/example-host_report $H --trim-after-transfers > $O/host-b-trim.log 2>&1; t b
timeout 60 $B/example-host_report $H --pool-limit 536870912 > $O/host-c-pool512m.log 2>&1; t c
timeout 60 $B/example-host_report $H --pool-limit 1073741824 > $O/host-d-pool1g.log 2>&1; t d
timeout 60 $B/example-host_report $H > $O/host-e-default.log 2>&1; t e
for f in $O/host-*.log; do echo "== $f"; grep -E "^ROW|phases of sgemm (2048|4096)|trimmed|pool limit" $f; done
