cd /tmp/wgblas-bundle
T=./bin/test-lib-wgblas
probe() { name=$1; shift; ok=0; hang=0
  for i in 1 2 3 4 5 6; do
    if timeout 15 $T --test-threads 8 "$@" > /tmp/p.log 2>&1; then ok=$((ok+1)); else hang=$((hang+1)); fi
  done; echo "$name: ok=$ok hang/fail=$hang"; }
probe "all" 
probe "launch only" launch::tests
probe "skip failed_map" --skip a_failed_map
probe "skip failed_read_back" --skip a_failed_read_back
probe "skip past_max" --skip a_buffer_past_max
probe "skip context::tests" --skip context::tests
probe "launch, skip failed_map" launch::tests --skip a_failed_map
# where a hung run waits
timeout -s KILL 12 $T --test-threads 8 > /tmp/h.log 2>&1 &
sleep 8; pid=$(pgrep -f test-lib-wgblas | head -1)
for t in /proc/$pid/task/*; do echo "$(cat $t/comm) $(cat $t/wchan)"; done | sort | uniq -c
tail -5 /tmp/h.log
