#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
(command -v nsys; command -v ncu; nproc; free -g; nvidia-smi -q -d PERFORMANCE,CLOCK | head -60) > $O/sys.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw,pstate --format=csv -lms 20 > $O/clocks.csv 2>&1 &
SMI=$!
date +%T.%N > $O/host.log
WGBLAS_TRACE_UPLOAD=1 timeout 120 ./bin/example-host_report --reps 11 --gemm 2048,4096 --split 4096 --dot 1024 --probe --lone 4096,1024 >> $O/host.log 2>$O/trace.log
date +%T.%N >> $O/host.log
WGBLAS_COPY_THREADS=8 timeout 60 ./bin/example-host_report --reps 11 --only transfers > $O/host_ct8.log 2>&1
WGBLAS_COPY_THREADS=4 timeout 60 ./bin/example-host_report --reps 11 --only transfers > $O/host_ct4.log 2>&1
kill $SMI
tail -30 $O/host.log
