#!/bin/sh
# H200 probe p3 (session 5): streamed host sgemm with C's pages faulted in during the device's work; A/B of block sizes.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" > $O/meta.log
H="./bin/example-host_report --reps 11 --gemm 64,512,2048,4096 --dot 1024 --split 4096 --transfer 67108864"
for v in "default" "WGBLAS_STREAM_MIB=0" "WGBLAS_STREAM_MIB=16" "default" "WGBLAS_STREAM_MIB=16"; do
  echo "=== $v" >> $O/host_ab.log
  if [ "$v" = default ]; then timeout 90 $H >> $O/host_ab.log 2>&1; else env $v timeout 90 $H >> $O/host_ab.log 2>&1; fi
done
REF_ONLY=host PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -E "^===|sgemm [0-9x]+ host:|^# (upload|readback)|phases of sgemm (2048|4096)|sdot n=1024 host" $O/host_ab.log
grep -v "^#" $O/ref.log | tail -8
