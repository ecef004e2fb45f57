#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
(cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; lscpu | head -20; nvidia-smi -q | grep -i -A3 "bar1\|pcie\|link") > $O/sys.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu,power.draw --format=csv -lms 20 > $O/clocks.csv 2>&1 &
SMI=$!
WGBLAS_TRACE=1 timeout 120 ./bin/example-host_report --reps 11 --transfer 67108864 --gemm 4096 --split "" --dot "" --lone 4096 > $O/host.log 2>$O/trace.log
kill $SMI
grep -v "^#" $O/host.log; grep "phases\|lone\|created" $O/host.log
