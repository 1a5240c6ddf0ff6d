#!/usr/bin/env bash
# Before/after comparison of `./spdl4j run` between two checkouts, alternated run by run.
#   perf/compare-run.sh BASE_DIR NEW_DIR ROUNDS [spdl4j run args...]
#   e.g. perf/compare-run.sh /work/baseline . 5 --data /work/photos --epochs 2
#
# Each round runs `./spdl4j run ARGS` once in BASE_DIR, then once in NEW_DIR (ORDER=rotate in the environment
# swaps who goes first every other round), each run its own JVM. A shared machine drifts between fast and slow
# states over minutes, so the figure to quote is the median of the per-round ratios (new / base), not the ratio
# of the medians: as perf/alternate.py does for JMH (docs/benchmarks.md). Printed per round and summarised:
# img/s, first batch after the pipeline's start (s), first batch counting the loader's construction (s), CPU s per
# 1,000 images, peak RSS (MiB) and the run's CPU use as a % of all cores, each as parsed from the run's summary
# lines. A run that used well under 100% of the cores with decode the bottleneck was sharing them with other jobs.
#
# Before the rounds, each checkout's launcher is run once with --version, which builds it if its sources are newer
# than its last build (the build is never inside a measured run), and then, unless WARMUP=0, one unmeasured
# `./spdl4j run ARGS` per checkout warms the page cache (and generates the built-in sample on first use).
# Every run's output is kept in LOG_DIR (default: a new folder under ${TMPDIR:-/tmp}); CSV=FILE also writes the
# figures as CSV. --no-progress is added to ARGS unless it is there. Exit status 1 when a run fails or its summary
# cannot be parsed (the run's output is shown), 2 for bad arguments.
set -euo pipefail

usage() { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
base="$(cd "$1" 2>/dev/null && pwd)" || { echo "compare-run: no folder $1" >&2; exit 2; }
new="$(cd "$2" 2>/dev/null && pwd)" || { echo "compare-run: no folder $2" >&2; exit 2; }
rounds="$3"
shift 3
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "compare-run: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
for d in "$base" "$new"; do
  [ -x "$d/spdl4j" ] || { echo "compare-run: $d has no ./spdl4j launcher" >&2; exit 2; }
done
order="${ORDER:-alternate}"
[ "$order" = alternate ] || [ "$order" = rotate ] || { echo "compare-run: ORDER is alternate or rotate" >&2; exit 2; }
args=("$@")
progress=0
for a in "${args[@]}"; do [ "$a" = --no-progress ] && progress=1; done
[ "$progress" = 1 ] || args=(--no-progress "${args[@]}")
logs="${LOG_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/compare-run.XXXXXX")}"
mkdir -p "$logs"

describe() { git -C "$1" log -1 --format='%h %s' 2>/dev/null | cut -c1-90 || echo "(not a git checkout)"; }
dirty() { [ -z "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ] || echo " (uncommitted changes)"; }
echo "base: $base: $(describe "$base")$(dirty "$base")"
echo "new:  $new: $(describe "$new")$(dirty "$new")"
echo "args: ${args[*]}"
echo "rounds: $rounds ($order order); logs: $logs"
{ uptime; } 2>/dev/null | sed 's/^ */machine: /'

for d in "$base" "$new"; do
  (cd "$d" && ./spdl4j --version) >"$logs/build-$(basename "$d").txt" 2>&1 || {
    echo "compare-run: building or starting $d failed:" >&2; tail -20 "$logs/build-$(basename "$d").txt" >&2; exit 1; }
done

# One run: `./spdl4j run ARGS` in $1, output into $2; prints "img/s first first_with_build cpu_per_1000 rss cores%".
run_one() {
  local dir="$1" log="$2" rc=0
  (cd "$dir" && ./spdl4j run "${args[@]}") >"$log" 2>&1 || rc=$?
  local figures
  figures="$(sed -n -E \
    -e 's/^throughput: .* ([0-9.]+) img\/s; first batch after ([0-9.]+) s( \(([0-9.]+) s counting the loader.s construction\))?;.*/T \1 \2 \4/p' \
    -e 's/^cpu: .* ([0-9]+)% of [0-9]+ cores; ([0-9.]+) cpu-s per 1,000 images; peak RSS ([0-9.]+) MiB.*/C \2 \3 \1/p' \
    "$log")"
  local t c
  t="$(grep '^T ' <<<"$figures" | tail -1 || true)"
  c="$(grep '^C ' <<<"$figures" | tail -1 || true)"
  if [ "$rc" -ne 0 ] || [ -z "$t" ] || [ -z "$c" ]; then
    echo "compare-run: ./spdl4j run in $dir failed (exit $rc) or printed no summary; its output ($log):" >&2
    tail -25 "$log" >&2
    exit 1
  fi
  read -r _ ips first firstb <<<"$t"
  read -r _ cpu rss cores <<<"$c"
  echo "$ips $first ${firstb:-nan} $cpu $rss $cores"
}

if [ "${WARMUP:-1}" != 0 ]; then
  for d in "$base" "$new"; do run_one "$d" "$logs/warmup-$(basename "$d").txt" >/dev/null; done
fi

results="$logs/figures.txt"
: >"$results"
printf '%-6s %-5s %10s %10s %12s %12s %9s %7s\n' round who img/s first_s first+build cpu/1000img rss_MiB cores%
for ((r = 1; r <= rounds; r++)); do
  who=(base new)
  if [ "$order" = rotate ] && [ $((r % 2)) -eq 0 ]; then who=(new base); fi
  for w in "${who[@]}"; do
    if [ "$w" = base ]; then d="$base"; else d="$new"; fi
    f="$(run_one "$d" "$logs/round$r-$w.txt")"
    echo "$r $w $f" >>"$results"
    read -r ips first firstb cpu rss cores <<<"$f"
    printf '%-6s %-5s %10s %10s %12s %12s %9s %7s\n' "$r/$rounds" "$w" "$ips" "$first" "$firstb" "$cpu" "$rss" "$cores"
  done
done

python3 - "$results" "${CSV:-}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
names = ["img/s", "first batch s", "first batch + loader s", "cpu-s/1000 img", "peak RSS MiB", "cpu % of cores"]
fig = {(int(r[0]), r[1]): [float(x) for x in r[2:]] for r in rows}
rounds = sorted({k[0] for k in fig})
print(f"\nmedians over {len(rounds)} rounds; ratio = new / base within each round: median [min-max]")
print(f"  {'':24s} {'base':>10s} {'new':>10s}   ratio")
for i, name in enumerate(names):
    b = [fig[(r, "base")][i] for r in rounds]
    n = [fig[(r, "new")][i] for r in rounds]
    ratios = [nn / bb for nn, bb in zip(n, b) if bb == bb and nn == nn and bb != 0]  # nan != nan
    mb = statistics.median(b) if all(x == x for x in b) else float("nan")
    mn = statistics.median(n) if all(x == x for x in n) else float("nan")
    cell = f"{statistics.median(ratios):.3f}x [{min(ratios):.3f}-{max(ratios):.3f}]" if ratios else "-"
    fmt = "{:10.1f}" if name in ("img/s", "peak RSS MiB", "cpu % of cores") else "{:10.3f}"
    print(f"  {name:24s} {fmt.format(mb)} {fmt.format(mn)}   {cell}")
if sys.argv[2]:
    with open(sys.argv[2], "w") as f:
        f.write("round,variant,img_per_s,first_batch_s,first_batch_with_loader_s,cpu_s_per_1000,peak_rss_mib,"
                "cpu_pct_of_cores\n")
        for (r, who), v in sorted(fig.items()):
            f.write(f"{r},{who}," + ",".join(str(x) for x in v) + "\n")
PY
