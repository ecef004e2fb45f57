#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for v in base fma base fma; do
  echo "== $v"; timeout 120 ./bin/example-kernel_lab_$v --reps 11 --shapes 4096x4096x4096,2048x2048x2048,1024x1024x1024 --layouts NN-C,TT-F --dgemm 4096 --variants "auto;edge=0"
done > $O/lab.log 2>&1
cat $O/lab.log
