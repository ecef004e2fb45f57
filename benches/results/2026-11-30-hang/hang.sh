#!/bin/bash
# Probe of the H200 lib-test hang: run the lib tests (8 threads) until one run hangs,
# then print which tests run and every thread's backtrace (cuda-gdb attached).
R=$1
T=$R/.gpu/test-lib-sym
chmod +x $T
which cuda-gdb; id
for i in $(seq 1 10); do
  $T --test-threads 8 > $OUT/run$i.log 2>&1 &
  pid=$!
  for s in $(seq 1 70); do sleep 1; kill -0 $pid 2>/dev/null || break; done
  if kill -0 $pid 2>/dev/null; then
    echo "run $i: hung after 70 s"; tail -5 $OUT/run$i.log
    grep "running for over" $OUT/run$i.log
    timeout 120 cuda-gdb -batch -p $pid -ex "info threads" -ex "thread apply all bt 40" > $OUT/bt.txt 2>&1
    echo "bt rc=$?"; wc -l $OUT/bt.txt
    kill -9 $pid; break
  else
    wait $pid; echo "run $i: rc=$? $(tail -1 $OUT/run$i.log)"
  fi
done
