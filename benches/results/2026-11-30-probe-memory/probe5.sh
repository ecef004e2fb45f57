#!/bin/sh
# sgemm n = 2048: which of the engine's choices makes six layouts slow (auto picks split-k = 2
# there: 256 tiles of 256 invocations are just under its 264·256 target).
cd /tmp/wgblas-bundle
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv
./bin/example-kernel_lab --reps 11 --shapes 2048x2048x2048 --layouts NN-C,NT-C,TN-C,TT-C,NN-F,TT-F --variants "auto;split=1;split=2;split=1,swap=0;split=2,pack=0" 2>&1 | grep -E "^LAB|rror"
./bin/example-kernel_lab --reps 11 --shapes 1536x1536x1536,2048x2048x1024,3072x3072x3072 --layouts NN-C,TN-C,NN-F --variants "auto;split=1" 2>&1 | grep -E "^LAB|rror"
