#!/usr/bin/python3
"""OpenCV on one thread: the per-core anchor for spdl4j's image decode, on any folder of images.

Work per image, as spdl4j's evaluation transform and torch_baseline.py: decode -> RGB -> resize short side to 256
(cv2.INTER_LINEAR) -> center crop 224 -> uint8 HWC. Every file is read into memory before the clock starts, so the
figure is decode + resize + crop only (no file reads, no batching, no queues): one thread of OpenCV
(cv2.setNumThreads(1)), libjpeg-turbo's decoder and OpenCV's SIMD resize.

usage: opencv_anchor.py IMAGE_DIR [--epochs E]
Prints one line: mode=opencv threads=1 images=.. seconds=.. img_per_s=.. cpu_s=.. cpu_s_per_1000=..
Needs Debian's python3-opencv (apt-get install python3-opencv), run with /usr/bin/python3.
"""
import os, sys, time
import cv2
import numpy as np

root = sys.argv[1]
epochs = int(sys.argv[sys.argv.index("--epochs") + 1]) if "--epochs" in sys.argv else 1
exts = (".jpg", ".jpeg", ".png", ".webp", ".bmp")
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.lower().endswith(exts))
if not files:
    sys.exit(f"no images under {root}")
cv2.setNumThreads(1)
blobs = []
for f in files:
    with open(f, "rb") as fh:
        blobs.append(np.frombuffer(fh.read(), np.uint8))


def preprocess(blob):
    im = cv2.imdecode(blob, cv2.IMREAD_COLOR)  # BGR; grey, CMYK and PNG converted by OpenCV
    h, w = im.shape[:2]
    if w <= h:
        nw, nh = 256, int(256 * h / w)
    else:
        nw, nh = int(256 * w / h), 256
    im = cv2.resize(im, (nw, nh), interpolation=cv2.INTER_LINEAR)
    l, t = round((nw - 224) / 2), round((nh - 224) / 2)
    return cv2.cvtColor(im[t:t + 224, l:l + 224], cv2.COLOR_BGR2RGB)


n = 0
c0, t0 = time.process_time(), time.perf_counter()
for _ in range(epochs):
    for b in blobs:
        out = preprocess(b)
        assert out.shape == (224, 224, 3)
        n += 1
dt, cpu = time.perf_counter() - t0, time.process_time() - c0
print(f"mode=opencv threads=1 images={n} seconds={dt:.2f} img_per_s={n / dt:.1f} cpu_s={cpu:.2f} "
      f"cpu_s_per_1000={1000 * cpu / n:.3f}")
