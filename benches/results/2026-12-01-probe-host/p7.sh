#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu,power.draw --format=csv -lms 50 > $O/clocks.csv 2>&1 &
SMI=$!
for r in 1 2; do timeout 100 ./bin/example-host_report --reps 11 --gemm 64,512,2048,4096 --split 4096 --dot 1024,16777216 > $O/host$r.log 2>&1; done
kill $SMI
grep -h -E "^ROW|readback|split|phases|created" $O/host1.log $O/host2.log
