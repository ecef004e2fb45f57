#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 200 ./bin/example-kernel_lab --reps 7 --dgemm 4096,8192 --variants "auto;bm=128,bn=128,bk=8,nbuf=2;bm=128,bn=128,bk=16,nbuf=1;bm=128,bn=64,bk=16,nbuf=2;bm=64,bn=128,bk=16,nbuf=2;bm=64,bn=64,bk=16,nbuf=2;bm=64,bn=64,bk=8,nbuf=2;bm=128,bn=128,bk=8,nbuf=1" > $O/lab.log 2>&1
cat $O/lab.log
