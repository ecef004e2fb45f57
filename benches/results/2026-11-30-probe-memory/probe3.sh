#!/bin/bash
cd /tmp/wgblas-bundle
nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,pstate,power.draw --format=csv
./bin/example-mem_probe 64 256 1024
nvidia-smi --query-gpu=clocks.sm,clocks.mem,pstate --format=csv
./bin/example-bandwidth_report --reps 11 --sets l1,l2 --l1 26 --gemv 4096 --skinny 23 --sq 4096 --trsv 4096,8192 2>&1 | grep -E "^#|^ROW" | grep -v "LAB"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,pstate --format=csv
