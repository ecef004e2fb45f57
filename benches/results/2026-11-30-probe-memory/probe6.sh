#!/bin/sh
# sgemm n = 2048 in level3_report: slow after its first host check at 2048?
cd /tmp/wgblas-bundle
L="--reps 11 --sections sgemm --n 2048 --layouts NN-C,NT-C,TN-C,TT-C,NN-F,TT-F"
echo "== no checks"; ./bin/example-level3_report $L --check 0 2>&1 | grep "^ROW"
echo "== checks at 2048"; ./bin/example-level3_report $L --check 2048 2>&1 | grep "^ROW"
echo "== checks at 2048, OpenBLAS 4 threads"; OPENBLAS_NUM_THREADS=4 ./bin/example-level3_report $L --check 2048 2>&1 | grep "^ROW"
