#!/bin/bash
# Mid-session H200 probe: lib-test hang fixed? host-call phases with and without the spin wait.
cd /tmp/wgblas-bundle
T=./bin/test-lib-wgblas
ok=0; bad=0
for i in $(seq 1 12); do
  if timeout 40 $T --test-threads 8 > /tmp/p.log 2>&1; then ok=$((ok+1)); else bad=$((bad+1)); tail -3 /tmp/p.log; fi
done
echo "lib tests, 8 threads, 12 passes: ok=$ok failed-or-hung=$bad"
for sp in 0 50 200 1000; do
  echo "== WGBLAS_SPIN_US=$sp"
  WGBLAS_SPIN_US=$sp ./bin/example-host_report --reps 11 --transfer 67108864 --gemm 64,512,2048,4096 --dot 1024 2>&1 | grep -v "^REF"
done
for i in 1 2 3; do s=$(date +%s%N); ./bin/example-quickstart 2>&1 | grep -i "ms\|context"; echo "quickstart process $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
