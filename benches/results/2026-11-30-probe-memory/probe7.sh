#!/bin/sh
# Does the copy reference's second device halve the bandwidth figures? And host sgemm with
# OpenBLAS's threads idle before wgblas is timed.
cd /tmp/wgblas-bundle
echo "== bandwidth, with the second device"; ./bin/example-bandwidth_report --reps 11 --sets l1 --l1 26 2>&1 | grep -E "^# (sdot|saxpy|scopy|sasum)"
echo "== bandwidth, no second device"; WGBLAS_NO_COPIER=1 ./bin/example-bandwidth_report --reps 11 --sets l1 --l1 26 2>&1 | grep -E "^# (sdot|saxpy|scopy|sasum)"
echo "== mem_probe"; ./bin/example-mem_probe 256
echo "== host"; ./bin/example-host_report --reps 11 --gemm 512,2048,4096 --dot 1024 --split 4096 2>&1 | grep -E "^#|^ROW"
