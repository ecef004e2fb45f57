#!/bin/sh
# Session 9 (2026-12-02), q0: the tile engine's guarded vec4 edges (vguard) and split/tile sweeps
# on the rectangles below 0.70 of cuBLAS.  R=$PWD; bash .gpu/device.sh sh $R/.gpu/q0.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin; L=$B/example-kernel_lab
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
( timeout 80 $L --shapes 1000x1000x1000,3000x5000x700,2000x2000x2000,1000x4000x1000 --layouts NN-C,TT-C,NN-F,TT-F --variants "auto;vguard=1" --reps 11
  timeout 40 $L --shapes 1000x1000x1000,3000x5000x700 --variants "vguard=1,split=2;vguard=1,split=4;vguard=1,split=6;vguard=1,split=8;vguard=1,bm=128,bn=128,bk=16,nbuf=2" --reps 11
) > $O/vguard.log 2>&1
echo "vguard $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
( timeout 60 $L --shapes 128x4096x4096,4096x4096x128,8192x64x8192 --variants "auto;split=4;split=8;split=16;split=24;split=32;bm=128,bn=128,bk=16,nbuf=1;bm=64,bn=128,bk=16,nbuf=2;bm=128,bn=64,bk=16,nbuf=2;bm=128,bn=128,bk=32,nbuf=1;bm=128,bn=128,bk=8,nbuf=2" --reps 11
  timeout 40 $L --shapes 1024x1024x1024 --layouts TT-C,TT-F,NN-C --variants "auto;split=2;split=3;split=6;split=8;bm=128,bn=128,bk=16,nbuf=2;bm=64,bn=128,bk=16,nbuf=1;bm=128,bn=128,bk=8,nbuf=1" --reps 11
) > $O/rect.log 2>&1
echo "rect $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
grep -h "^LAB" $O/*.log > $O/rows.txt; wc -l $O/rows.txt
grep -hE "FAIL|panicked|Error" $O/*.log | head -20
