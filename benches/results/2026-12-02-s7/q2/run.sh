#!/bin/sh
# Session 7, q2: the chooser after 6b11e8e (v2 only for a side of C below 512) on squares, with
# deeper splits of 128x128 tiles for the next round, one command:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q2.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
timeout 150 ./bin/example-kernel_lab --shapes 1024x1024x1024,1000x1000x1000,2048x2048x2048,8192x64x8192,64x8192x8192 --layouts NN-C --variants "auto;v2=0;bm=128,bn=128,bk=16,nbuf=1,split=6;bm=128,bn=128,bk=16,nbuf=1,split=8;bm=128,bn=128,bk=16,nbuf=1,split=2" --reps 11 > $O/lab.log 2>&1
grep "^LAB" $O/lab.log
