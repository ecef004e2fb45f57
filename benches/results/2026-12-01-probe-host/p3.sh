#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu,power.draw --format=csv -lms 20 > $O/clocks.csv 2>&1 &
SMI=$!
WGBLAS_TRACE=1 timeout 150 ./bin/example-host_report --reps 11 --gemm 64,512,2048,4096 --split "" --dot 1024,16777216 --lone 4096 > $O/host.log 2>$O/trace.log
kill $SMI
timeout 100 ./bin/example-host_report --reps 11 --gemm 2048,4096 --split 4096 --dot "" > $O/host2.log 2>&1
grep -v "^#" $O/host.log; grep "phases\|lone\|created\|split" $O/host.log $O/host2.log; grep "ROW" $O/host2.log
