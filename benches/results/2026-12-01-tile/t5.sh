#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 100 ./bin/example-tile_probe --n 4096 --reps 11 k/*.wgsl 2>&1 | tee $O/probe4096.log
timeout 100 ./bin/example-kernel_lab --reps 7 --shapes 4096x4096x4096 --layouts NN-C --variants "auto;bm=64,bn=128,bk=16,nbuf=2;bm=64,bn=128,bk=16,nbuf=1" 2>&1 | tee $O/lab.log
