#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 200 ./bin/example-kernel_lab --reps 7 --shapes 4096x4096x4096,8192x8192x8192,2048x2048x2048 --layouts NN-C,TT-F --variants "auto;bm=64,bn=128,bk=16,nbuf=2,edge=0;bm=64,bn=128,bk=16,nbuf=1,edge=0;bm=128,bn=128,bk=16,nbuf=1,edge=0;bm=128,bn=64,bk=16,nbuf=2,edge=0;bm=128,bn=128,bk=16,nbuf=2,edge=0" 2>&1 | tee $O/lab.log
timeout 100 ./bin/example-kernel_lab --reps 5 --dgemm 4096 --variants "auto;bm=128,bn=128,bk=16,nbuf=1,edge=0;bm=64,bn=128,bk=16,nbuf=1,edge=0;bm=64,bn=64,bk=16,nbuf=2,edge=0" 2>&1 | tee $O/lab_d.log
