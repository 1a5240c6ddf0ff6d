#!/usr/bin/env bash
# spdl4j against DJL's own ImageFolder loader, same model, data and transform, alternated run by run.
#   perf/djl-vs-spdl4j.sh DATA_DIR ROUNDS [DjlTrainExample options...]
#   e.g. perf/djl-vs-spdl4j.sh /work/photos 3 --size 64 --steps 60 --threads 2
#
# Each round runs, each in its own JVM: training (--model cnn) with --loader spdl4j, then with --loader djl, then
# loading alone (--model none) with each loader (ORDER=rotate swaps who goes first every other round). Per run it
# prints the example's figures: img/s, the share of step time spent waiting for data, CPU s per 1,000 measured
# images (the whole process, start and warm-up included) and peak RSS. The figures to quote are the medians of the
# per-round ratios (spdl4j / djl). Needs the examples built (./spdl4j --version builds them).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
data="$1"; rounds="$2"; shift 2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/spdl4j" --version >/dev/null
cp="$root/examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:$root/examples/target/lib/*"
log="${LOG_DIR:-$(mktemp -d)}"
mkdir -p "$log"
echo "djl-vs-spdl4j: logs in $log" >&2
run() { # loader model round [options...]
  local loader="$1" model="$2" round="$3"; shift 3
  local out="$log/$loader-$model-$round.txt"
  OPT_OUT_TRACKING=true "$root/bin/spdl4j-java" -Dai.djl.offline=true -cp "$cp" \
    org.spdl4j.examples.djl.DjlTrainExample --data "$data" --loader "$loader" --model "$model" "$@" > "$out" 2>&1 \
    || { echo "run $loader $model failed:"; tail -20 "$out"; exit 1; }
  local ips wait cpu rss
  ips=$(sed -n 's/^\([0-9.]*\) img\/s;.*/\1/p' "$out")
  wait=$(sed -n 's/^waiting for data: \([0-9.]*\)%.*/\1/p' "$out")
  cpu=$(sed -n 's/.*, \([0-9.]*\) cpu-s per 1,000 measured images.*/\1/p' "$out")
  rss=$(sed -n 's/.*peak RSS \([0-9]*\) MiB.*/\1/p' "$out")
  printf '%-7s %-5s round %s: %8s img/s  wait %5s%%  %6s cpu-s/1000  %5s MiB\n' "$loader" "$model" "$round" "$ips" "$wait" "$cpu" "$rss"
}
extra=("$@")
for r in $(seq 1 "$rounds"); do
  first=spdl4j; second=djl
  if [ "${ORDER:-}" = rotate ] && [ $((r % 2)) -eq 0 ]; then first=djl; second=spdl4j; fi
  for model in cnn none; do
    run "$first" "$model" "$r" "${extra[@]}"
    run "$second" "$model" "$r" "${extra[@]}"
  done
done
