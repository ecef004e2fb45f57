#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
( timeout 240 ./bin/kernel_lab --dgemm 4096,8192 --reps 11 --variants "auto;bm=128,bn=128,bk=16,nbuf=1,edge=0;bm=64,bn=128,bk=16,nbuf=2,edge=0;bm=64,bn=128,bk=16,nbuf=1,edge=0;bm=128,bn=64,bk=16,nbuf=1,edge=0;bm=64,bn=64,bk=16,nbuf=1,edge=0;bm=128,bn=128,bk=8,nbuf=1,edge=0;bm=64,bn=128,bk=8,nbuf=2,edge=0;bm=128,bn=128,bk=8,nbuf=2,edge=0" ) > $O/p7.log 2>&1
grep -E "^LAB|rror|panic" $O/p7.log
