#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 200 ./bin/example-tile_probe --n 4096 --reps 11 k/*.wgsl 2>&1 | tee $O/probe4096.log
timeout 200 ./bin/example-kernel_lab --reps 11 --shapes 4096x4096x4096,8192x8192x8192 --layouts NN-C,TT-F,NT-C --variants "auto;bm=64,bn=128,bk=16,nbuf=2;bm=128,bn=64,bk=16,nbuf=2;bm=64,bn=128,bk=32,nbuf=2;bm=64,bn=64,bk=16,nbuf=2;bm=64,bn=128,bk=16,nbuf=1" 2>&1 | tee $O/lab.log
timeout 100 ./bin/example-tile_probe --n 8192 --reps 7 k/w4_64x128.wgsl k/w8_64x128.wgsl k/w4_64x128_bk32.wgsl k/w4_64x64.wgsl 2>&1 | tee $O/probe8192.log
