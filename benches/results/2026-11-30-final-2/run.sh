#!/bin/sh
# Final H200 run of the session: suite, reports, cuBLAS/PyTorch references, one command.
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
git_rev=$(cat $R/.gpu/REV 2>/dev/null); echo "wgblas at $git_rev" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv >> $O/meta.log 2>&1
( timeout 150 ./bin/test-test-wgblas --test-threads 8; timeout 60 ./bin/test-lib-wgblas; timeout 60 ./bin/test-test-shaders ) > $O/tests.log 2>&1
grep -E "test result|FAILED|panicked" $O/tests.log
( timeout 100 ./bin/example-host_report --reps 11
  echo "== probe: sgemm sizes in reverse order"; timeout 60 ./bin/example-level3_report --reps 11 --check 0 --sections sgemm --n 4096,2048 --layouts TT-F,TN-F,NT-F,NN-F,TT-C,TN-C,NT-C,NN-C | sed "s/^ROW/PROBE/"
  timeout 100 ./bin/example-level3_report --reps 11 --check 2048
  timeout 100 ./bin/example-bandwidth_report --reps 11
  timeout 60 ./bin/example-chain_report --reps 11
  for i in 1 2; do /usr/bin/time -f "quickstart process wall %e s" timeout 30 ./bin/example-quickstart; done
  timeout 60 ./bin/example-cg data/1138_bus.mtx ) > $O/reports.log 2>&1
grep -c "^ROW" $O/reports.log
PYTHONUNBUFFERED=1 timeout 200 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log; tail -3 $O/ref.log
