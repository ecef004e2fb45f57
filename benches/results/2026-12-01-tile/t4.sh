#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
V="auto;bm=64,bn=128,bk=16,nbuf=2;bm=128,bn=64,bk=16,nbuf=2;bm=64,bn=128,bk=16,nbuf=1;bm=128,bn=128,bk=16,nbuf=2;bm=64,bn=64,bk=16,nbuf=2"
timeout 250 ./bin/example-kernel_lab --reps 7 --shapes 1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192 --layouts NN-C,TT-F,TN-C --variants "$V" 2>&1 | tee $O/lab_sq.log
timeout 200 ./bin/example-kernel_lab --reps 7 --shapes 4096x4096x128,128x4096x4096,8192x64x8192,64x8192x8192,4097x4097x4097,1000x1000x1000,3000x5000x700 --layouts NN-C --variants "$V" 2>&1 | tee $O/lab_rect.log
timeout 100 ./bin/example-kernel_lab --reps 5 --dgemm 4096 --variants "auto;bm=64,bn=128,bk=16,nbuf=2;bm=64,bn=64,bk=16,nbuf=2;bm=64,bn=64,bk=8,nbuf=2" 2>&1 | tee $O/lab_d.log
