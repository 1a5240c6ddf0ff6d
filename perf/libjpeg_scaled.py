#!/usr/bin/python3
"""libjpeg-turbo's own scaled decode (M/8 in the DCT domain), through OpenCV, as an anchor for spdl4j's reduced-scale
JPEG path: one thread, bytes in memory, the same work as ImageDecodeBenchmark's evaluation transform up to the resize
(decode -> BGR -> short side 256, bilinear), at full scale, 1/4 and 1/8.

  perf/libjpeg_scaled.py FILE.jpg [FILE.jpg ...]

Make the benchmark's photos with
  bin/spdl4j-java -cp perf/target/benchmarks.jar org.spdl4j.perf.media.WritePhotoJpegs DIR 12mp 12mp-dense
Needs Debian's python3-opencv (run with /usr/bin/python3). Prints img/s per scale, the median of 5 one-second runs.
"""
import statistics
import sys
import time

import cv2
import numpy as np

SCALES = (("full", cv2.IMREAD_COLOR), ("1/4", cv2.IMREAD_REDUCED_COLOR_4), ("1/8", cv2.IMREAD_REDUCED_COLOR_8))


def rate(data, flag):
    for _ in range(3):
        cv2.imdecode(data, flag)
    runs = []
    for _ in range(5):
        start, n = time.perf_counter(), 0
        while time.perf_counter() - start < 1.0:
            img = cv2.imdecode(data, flag)
            h, w = img.shape[:2]
            s = 256 / min(h, w)
            cv2.resize(img, (max(256, round(w * s)), max(256, round(h * s))), interpolation=cv2.INTER_LINEAR)
            n += 1
        runs.append(n / (time.perf_counter() - start))
    return statistics.median(runs)


def main(files):
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    for f in files:
        data = np.frombuffer(open(f, "rb").read(), np.uint8)
        r = {label: rate(data, flag) for label, flag in SCALES}
        print(f"{f}: " + ", ".join(f"{k} {v:.1f} img/s" for k, v in r.items())
              + f"; 1/8 against full {r['1/8'] / r['full']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
