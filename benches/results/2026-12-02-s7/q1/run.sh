#!/bin/sh
# Session 7 (2026-12-02), q1: the four helpers' lab variants, then the references, one command:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q1.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
L=$B/example-kernel_lab
# tile: shader checks, register tiles, dgemm tiles, rectangles (chooser v2), probes
( timeout 60 $L --shapes 4096x4096x4096,1024x1024x1024 --layouts NN-C,TT-F --variants "auto;checks=1;checks=2" --reps 11
  timeout 90 $L --shapes 4096x4096x4096,8192x8192x8192 --layouts NN-C,TN-F --variants "auto;bm=128,bn=256,bk=16,nbuf=1,tn=16;bm=128,bn=256,bk=16,nbuf=2,tn=16;bm=128,bn=256,bk=8,nbuf=2,tn=16;bm=128,bn=128,bk=16,nbuf=2,tn=16;bm=128,bn=256,bk=16,nbuf=1,tn=16,checks=2" --reps 11
  timeout 60 $L --dgemm 4096,8192 --variants "auto;bm=64,bn=128,bk=16,nbuf=2,tm=4;bm=128,bn=64,bk=16,nbuf=1,tm=4;bm=128,bn=128,bk=16,nbuf=1,tm=4;bm=128,bn=128,bk=8,nbuf=1;checks=2" --reps 11
  timeout 90 $L --shapes 1000x1000x1000,8192x64x8192,128x4096x4096,64x8192x8192,4096x4096x128,4097x4097x4097,3000x5000x700 --variants "auto;v2=1;bm=128,bn=64,bk=16,nbuf=1,split=4;bm=64,bn=64,bk=16,nbuf=1,split=4;bm=128,bn=128,bk=16,nbuf=1,split=6;v2=1,checks=2" --reps 11
) > $O/tile.log 2>&1
( timeout 40 $B/example-tile_probe --n 4096 --reps 11 $R/.gpu/tp/*.wgsl
  timeout 40 $B/example-tile_probe --n 4096 --reps 11 --unchecked $R/.gpu/tp/*.wgsl ) > $O/probe.log 2>&1
# l3: strsm with inverted diagonal blocks
timeout 120 $B/example-level3_report --sections trsm --level3-n 2048,4096 --trsm-inverse off,on --reps 11 --check 2048 > $O/trsm.log 2>&1
# l12: chains and CG with the storage-binding alpha and the counter dispatch
( timeout 40 $B/example-chain_report --reps 11
  timeout 40 $B/example-chain_report --reps 11 --storage-alpha
  timeout 40 $B/example-chain_report --reps 11 --storage-alpha --counter-dispatch
  timeout 30 $B/example-cg $R/data/1138_bus.mtx
  timeout 30 $B/example-cg $R/data/1138_bus.mtx --storage-alpha --counter-dispatch
  timeout 60 $B/example-bandwidth_report --sets l1,lab --l1 20,26 --reps 11
  timeout 60 $B/example-bandwidth_report --sets l1 --l1 26 --reps 11 --checks 2 ) > $O/l12.log 2>&1
# host: transfers (prefault, copy threads), small calls (trace, spin), large trace
H=$B/example-host_report
( timeout 30 $H --only transfers --reps 11 --trace
  timeout 30 $H --only transfers --reps 11 --trace --prefault
  for t in 4 8; do timeout 30 $H --only transfers --reps 11 --prefault --copy-threads $t; done
  timeout 30 $H --gemm 64,512 --dot 1024 --split "" --transfer 1048576 --trace --lone 64
  timeout 30 $H --gemm 64 --dot 1024 --split "" --transfer 1048576 --trace --spin-us 0
  timeout 30 $H --gemm 64 --dot 1024 --split "" --transfer 1048576 --trace --spin-us 5000
  timeout 60 $H --gemm 2048,4096 --split "" --dot "" --transfer 1048576 --trace ) > $O/host.log 2>&1
grep -E "Error|panicked" $O/*.log | head -20
REF_ONLY=gemm,level3,f64,host SIZES=1024,4096,8192 L3_SIZES=4096 PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log; tail -2 $O/ref.log
grep -h "^LAB" $O/tile.log | head -80
