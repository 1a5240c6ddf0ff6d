#!/usr/bin/env bash
# spdl4j against its peers on one folder of images, in one run, alternated: `spdl4j run` (2 decode threads),
# OpenCV on one thread (perf/opencv_anchor.py: the per-core anchor, bytes in memory) and the PyTorch DataLoader with
# 2 workers (torch_baseline.py); the same work per image: decode -> RGB -> short side 256 bilinear -> center crop 224.
#   perf/peers-run.sh DATA TORCH_BASELINE [REPEATS (3)] [EPOCHS (3)]
#   e.g. perf/peers-run.sh /work/photos ../shared/bench/torch_baseline.py 3 3
#
# Each repeat runs the three once, each its own process, the order rotated every repeat; every run is wrapped in
# /usr/bin/time. Per run: img/s as the tool reports it (spdl4j's and OpenCV's clocks start after start-up; torch's
# before `import torch`), and CPU s per 1,000 images of the whole process and its children (/usr/bin/time: user +
# sys, start-up included), and images / wall s of the whole process. The summary gives the medians over the repeats and the ratios the per-core question asks
# for: spdl4j / (2 x OpenCV one thread), spdl4j / DataLoader, and CPU per image against the DataLoader's. Python
# contenders need Debian's python3-opencv, python3-torch, python3-pil (run with /usr/bin/python3).
# Every run's output is kept in LOG_DIR (default: a new folder under ${TMPDIR:-/tmp}). Exit status 1 when a run
# fails or its figures cannot be parsed, 2 for bad arguments.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
data="$1"; torch="$2"; repeats="${3:-3}"; epochs="${4:-3}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -d "$data" ] || { echo "peers-run: no folder $data" >&2; exit 2; }
[ -f "$torch" ] || { echo "peers-run: no torch baseline $torch" >&2; exit 2; }
logs="${LOG_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/peers-run.XXXXXX")}"
mkdir -p "$logs"
(cd "$here" && ./spdl4j --version) >"$logs/build.txt" 2>&1 || { cat "$logs/build.txt" >&2; exit 1; }
find "$data" -type f -exec cat {} + >/dev/null  # page cache warm for every contender
echo "data: $data, $epochs epoch(s), $repeats repeat(s); logs: $logs; $(git -C "$here" log -1 --format='%h %s' | cut -c1-80)"
uptime | sed 's/^ */machine: /'

run() { # name repeat command...
  local name="$1" r="$2"; shift 2
  local out="$logs/$name-$r.txt"
  /usr/bin/time -f 'TIME elapsed=%e user=%U sys=%S maxrss_kb=%M' "$@" >"$out" 2>&1 || { cat "$out" >&2; exit 1; }
  echo "$name repeat $r: $(grep -E 'img/s|img_per_s' "$out" | tail -1 | cut -c1-150)"
}
names=(spdl4j opencv torch)
for r in $(seq 1 "$repeats"); do
  for i in 0 1 2; do
    case "${names[$(( (i + r - 1) % 3 ))]}" in
      spdl4j) run spdl4j "$r" "$here/spdl4j" run --data "$data" --epochs "$epochs" --decode-threads 2 --no-progress ;;
      opencv) run opencv "$r" /usr/bin/python3 "$here/perf/opencv_anchor.py" "$data" --epochs "$epochs" ;;
      torch) run torch "$r" /usr/bin/python3 "$torch" "$data" --workers 2 --epochs "$epochs" ;;
    esac
  done
done
/usr/bin/python3 - "$logs" "$repeats" <<'PY'
import re, statistics, sys
logs, repeats = sys.argv[1], int(sys.argv[2])
def parse(name, r):
    t = open(f"{logs}/{name}-{r}.txt").read()
    tm = re.search(r"TIME elapsed=([\d.]+) user=([\d.]+) sys=([\d.]+)", t)
    cpu = float(tm.group(2)) + float(tm.group(3))
    if name == "spdl4j":
        m = re.search(r"throughput: (\d+) images .*?, ([\d.]+) img/s", t)
        own = re.search(r"([\d.]+) cpu-s per 1,000 images", t)
        n, ips, own_cpu = int(m.group(1)), float(m.group(2)), float(own.group(1))
    else:
        n = int(re.search(r"images=(\d+)", t).group(1))
        ips = float(re.search(r"img_per_s=([\d.]+)", t).group(1))
        own_cpu = 1000 * float(re.search(r"cpu_s=([\d.]+)", t).group(1)) / n
    return ips, 1000 * cpu / n, own_cpu, float(tm.group(1)), n / float(tm.group(1))
rows = {k: [parse(k, r) for r in range(1, repeats + 1)] for k in ("spdl4j", "opencv", "torch")}
med = {k: [statistics.median(x[i] for x in v) for i in range(5)] for k, v in rows.items()}
print("\n| contender | img/s (median) | runs | CPU s / 1,000 img, process (time) | CPU s / 1,000 img, tool's own | wall s |")
print("|---|---:|---|---:|---:|---:|")
label = {"spdl4j": "spdl4j run, 2 decode threads", "opencv": "OpenCV, one thread (bytes in memory)",
         "torch": "PyTorch DataLoader, 2 workers"}
for k in ("spdl4j", "opencv", "torch"):
    runs = ", ".join(f"{x[0]:.0f}" for x in rows[k])
    print(f"| {label[k]} | {med[k][0]:,.0f} | {runs} | {med[k][1]:.2f} | {med[k][2]:.2f} | {med[k][3]:.1f} |")
s, o, t = med["spdl4j"], med["opencv"], med["torch"]
print(f"\nspdl4j / (2 x OpenCV one thread): {s[0] / (2 * o[0]):.2f}x (goal >= 1.0)")
print(f"spdl4j / DataLoader: {s[0] / t[0]:.2f}x (goal >= 2.5)")
print(f"CPU per image, spdl4j / DataLoader: {s[1] / t[1]:.2f}x process, {s[2] / t[2]:.2f}x tools' own (goal <= 0.45x)")
print(f"CPU per image, spdl4j / OpenCV one thread: {s[1] / o[1]:.2f}x process, {s[2] / o[2]:.2f}x tools' own")
print(f"whole process (images / wall s, start-up included): spdl4j {s[4]:,.0f}, DataLoader {t[4]:,.0f} img/s: "
      f"{s[4] / t[4]:.2f}x (per repeat: " + ", ".join(f"{a[4] / b[4]:.2f}x" for a, b in zip(rows['spdl4j'], rows['torch']))
      + ")")
PY
