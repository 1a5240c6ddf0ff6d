#!/usr/bin/env bash
# The start-up tax: one epoch as a whole process (JVM start, loader construction, warm-up and exit included) with the
# launcher's JDK 25 AOT cache and without it, against the steady-state rate of a 3-epoch run, alternated.
#   perf/startup-run.sh DATA_DIR ROUNDS
# Per round: `SPDL4J_AOT=off ./spdl4j run --data DATA --epochs 1`, the same with the cache, then a 3-epoch run whose
# own img/s figure is the steady state. Prints per run the wall time, the whole process's img/s (images / wall time),
# the run's own img/s, its first batch counting the loader's construction and from the process's start (the run's
# start-up line), then the medians and the ratio
# whole-process / steady. Run from the repository root of a checkout whose sources do not change meanwhile (the
# launcher rebuilds, and records a new cache, after any change).
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
data="$1"; rounds="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/spdl4j" --version >/dev/null
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
declare -A whole
steady=()
for r in $(seq 1 "$rounds"); do
  for mode in off on; do
    s=$(date +%s.%N)
    out=$(SPDL4J_AOT=$mode "$root/spdl4j" run --data "$data" --epochs 1 --no-progress 2>&1)
    e=$(date +%s.%N)
    n=$(echo "$out" | sed -n 's/^throughput: \([0-9]*\) images.*/\1/p')
    ips=$(echo "$out" | sed -n 's/.*batches, [0-9.]* s, \([0-9.]*\) img\/s.*/\1/p')
    fb=$(echo "$out" | sed -n 's/.*(\([0-9.]*\) s counting the loader.s construction).*/\1/p')
    ps=$(echo "$out" | sed -n 's/^start-up: first batch \([0-9.]*\) s after the process started (\([0-9.]*\) s.*/\1 s from the process start, \2 s of it before the loader/p')
    w=$(echo "$e - $s" | bc -l)
    wp=$(echo "$n / $w" | bc -l)
    whole[$mode]+="$wp "
    printf 'round %s aot=%-3s wall %6.2f s  whole process %7.1f img/s  run %7.1f img/s  first batch %s s (%s)\n' \
      "$r" "$mode" "$w" "$wp" "$ips" "$fb" "$ps"
  done
  out=$(SPDL4J_AOT=on "$root/spdl4j" run --data "$data" --epochs 3 --no-progress 2>&1)
  ips=$(echo "$out" | sed -n 's/.*batches, [0-9.]* s, \([0-9.]*\) img\/s.*/\1/p')
  steady+=("$ips")
  printf 'round %s steady state (3 epochs, the run'"'"'s own figure) %7.1f img/s\n' "$r" "$ips"
done
m_off=$(echo ${whole[off]} | tr ' ' '\n' | median)
m_on=$(echo ${whole[on]} | tr ' ' '\n' | median)
m_st=$(printf '%s\n' "${steady[@]}" | median)
printf 'medians: whole process %.1f img/s without the cache, %.1f with it; steady state %.1f img/s\n' "$m_off" "$m_on" "$m_st"
printf 'whole process / steady state: %.2f without the cache, %.2f with it\n' "$(echo "$m_off / $m_st" | bc -l)" \
  "$(echo "$m_on / $m_st" | bc -l)"
