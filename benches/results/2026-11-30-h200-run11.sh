#!/bin/bash
# Device run 2 of helper "tile": the final Level 3 report, a small lab, the whole suite.
cd /tmp/wgblas-bundle
OUT=${OUT:-/tmp}
./bin/example-level3_report --reps 11 --check 2048 2>&1 | grep -v XDG > $OUT/report.log
L=./bin/example-kernel_lab
( $L --reps 11 --trsm 32x4096,64x4096,1024x4096,4096x4096 --variants "auto;columns=0;split=1" 
  $L --reps 11 --shapes 4096x4096x4096 --layouts NN-C,TN-C,NT-F,TT-F --variants "auto;edge=1;bm=128,bn=128,bk=8,nbuf=1;bm=128,bn=128,bk=16,nbuf=2"
  $L --reps 11 --shapes 1000x1000x1000,4097x4097x4097,4096x4096x1024 --layouts NN-C --variants "auto;split=1;split=4;bm=128,bn=128,bk=16,nbuf=1;bm=128,bn=128,bk=16,nbuf=1,split=2;bm=128,bn=128,bk=16,nbuf=1,split=4"
  $L --reps 11 --shapes 128x4096x4096,8192x64x8192 --layouts NN-C,TT-F --variants "auto;split=4;split=16;bm=128,bn=64,bk=16,nbuf=1,split=8;bm=64,bn=128,bk=16,nbuf=1,split=8"
) 2>&1 | grep -v XDG > $OUT/lab2.log
timeout 200 ./bin/test-test-wgblas --test-threads 8 > $OUT/tests.log 2>&1
grep -E "test result|FAILED|panicked" $OUT/tests.log | head -20
