#!/usr/bin/env bash
# Builds an ImageNet-like benchmark folder from real photographs: OUT_DIR/class00 .. class09, COUNT images in all.
#   perf/real-photos.sh OUT_DIR [COUNT]      (default COUNT=2000; SEED=1 in the environment picks another mix)
#
# The photographs come from Debian's wallpaper packages (lomiri-wallpapers-16.04, lomiri-wallpapers-20.04,
# mate-backgrounds, plasma-workspace-wallpapers: 37 photographs; their illustrations and renders are left out by
# an explicit list below), fetched with `apt-get download` and unpacked with `dpkg -x` into a temporary folder: no
# root needed while apt's package lists are present (`apt-get update` runs only when a download fails, as root or
# through `sudo -n`). Each output image is a random region of one photo (a class owns 3-4 photos), scaled down to
# an ImageNet-like size (short side 200-500, mean about 400x350, landscape, portrait and square aspect ratios,
# about 30% of them with a long side of exactly 500 as in ImageNet's Flickr images) and encoded as:
#   baseline JPEG, quality 75-95, 4:2:0 (the bulk)    progressive JPEG (~8%)    4:4:4 baseline JPEG (~3%)
#   greyscale JPEG (~3%)    CMYK JPEG, Adobe-inverted as Photoshop writes it (~2%)    RGB PNG (~2%)
# Deterministic for a given COUNT, SEED and package versions (recorded in OUT_DIR/.manifest.tsv, one line per image:
# path, source photo, crop box, size, format, quality). Idempotent: nothing is done when OUT_DIR/.complete exists;
# a half-built folder is OUT_DIR.partial, removed on the next run. The images are not part of the repository.
# Needs Debian's /usr/bin/python3 with PIL (python3-pil): installed with apt-get when missing and root or sudo is
# available, otherwise unpacked from the .debs next to the photos (PYTHONPATH / LD_LIBRARY_PATH, no root).
set -euo pipefail

usage() { sed -n '2,3p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
out="$1"
count="${2:-2000}"
seed="${SEED:-0}"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "real-photos: COUNT must be a positive integer, not '$count'" >&2; exit 2; }
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "real-photos: SEED must be a non-negative integer, not '$seed'" >&2; exit 2; }
out="$(realpath -m "$out")"

if [ -f "$out/.complete" ]; then
  want="count=$count seed=$seed"
  have="$(head -n1 "$out/.complete")"
  if [ "$have" != "$want" ]; then
    echo "real-photos: $out is complete but was built with '$have', not '$want'; remove it to rebuild" >&2
  else
    echo "real-photos: $out already built ($have); nothing to do" >&2
  fi
  exit 0
fi
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo "real-photos: $out exists, is not empty and has no .complete: not touching it" >&2
  exit 2
fi

packages=(lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 mate-backgrounds plasma-workspace-wallpapers)
as_root=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo -n true 2>/dev/null; then as_root=(sudo -n); fi
can_root() { [ "$(id -u)" -eq 0 ] || [ ${#as_root[@]} -gt 0 ]; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/real-photos.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# apt-get download, after an apt-get update if the first try fails (stale or missing package lists).
download() {
  (cd "$tmp/debs" && apt-get download "$@" >"$tmp/apt.log" 2>&1) && return 0
  if can_root; then
    echo "real-photos: apt-get download failed; running apt-get update and trying again" >&2
    "${as_root[@]}" apt-get update -q >&2 || true
    (cd "$tmp/debs" && apt-get download "$@" >"$tmp/apt.log" 2>&1) && return 0
  fi
  cat "$tmp/apt.log" >&2
  echo "real-photos: could not download $* (apt-get download; run 'apt-get update' as root if the lists are missing)" >&2
  exit 1
}

mkdir -p "$tmp/debs" "$tmp/root"
py=/usr/bin/python3
if ! [ -x "$py" ]; then
  can_root || { echo "real-photos: needs Debian's python3 (/usr/bin/python3): apt-get install python3-pil" >&2; exit 1; }
  "${as_root[@]}" apt-get install -y -q --no-install-recommends python3-pil >&2
fi
if ! "$py" -c 'import PIL' 2>/dev/null; then
  if can_root && [ -z "${REAL_PHOTOS_NO_INSTALL:-}" ]; then
    echo "real-photos: installing python3-pil" >&2
    "${as_root[@]}" apt-get install -y -q --no-install-recommends python3-pil >&2 \
      || { "${as_root[@]}" apt-get update -q >&2; "${as_root[@]}" apt-get install -y -q --no-install-recommends python3-pil >&2; }
  else
    # No root: python3-pil and the libraries it needs that are not installed, unpacked next to the photos.
    echo "real-photos: python3-pil not installed; unpacking it into $tmp (no root)" >&2
    missing=(python3-pil)
    while read -r dep; do
      [ -n "$dep" ] || continue
      dpkg-query -W -f='${Status}\n' "$dep" 2>/dev/null | grep -q '^install ok installed' || missing+=("$dep")
    done < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
               --no-enhances --no-pre-depends python3-pil | grep -E '^(lib|python3-olefile)' | sort -u)
    download "${missing[@]}"
    for deb in "$tmp"/debs/*.deb; do dpkg -x "$deb" "$tmp/pil"; done
    rm -f "$tmp"/debs/*.deb
    export PYTHONPATH="$tmp/pil/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
    export LD_LIBRARY_PATH="$tmp/pil/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  "$py" -c 'import PIL.Image' || { echo "real-photos: PIL still not importable by $py" >&2; exit 1; }
fi

echo "real-photos: downloading ${packages[*]}" >&2
download "${packages[@]}"
versions=()
for deb in "$tmp"/debs/*.deb; do
  dpkg -x "$deb" "$tmp/root"
  versions+=("$(dpkg-deb -f "$deb" Package)=$(dpkg-deb -f "$deb" Version)")
done

rm -rf "$out.partial"
mkdir -p "$out.partial"
nice -n 10 "$py" - "$tmp/root" "$out.partial" "$count" "$seed" "${versions[*]}" <<'PY'
import glob, math, os, random, sys
import PIL
from PIL import Image, ImageChops, ImageMath, features

root, out, count, seed, versions = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
versions += f" PIL={PIL.__version__} libjpeg-turbo={features.version('libjpeg_turbo')}"
CLASSES = 10

# The photographs (paths inside the packages). Left out as not photographs: the packages' illustrations and
# renders, and lomiri's umang (a gradient) and analogpattern (a texture). Plasma ships each wallpaper in several
# sizes: the largest is taken.
SOURCES = [
    "usr/share/backgrounds/" + n for n in (
        "Bridge_by_Sander_Klootwijk.jpg", "Dragonfly_by_Bolly.jpg", "Picture_0B_by_freespace.jpg",
        "Picture_1A_by_freespace.jpg", "Wine_by_Jakkub_Mede.jpg", "aitzgorri_by_Aitzol_Berasategi.jpg",
        "free_by_Peter_Nerlich.jpg", "friends_by_Aitzol_Berasategi.jpg", "greentock_by_Peter_Nerlich.jpg",
        "life_by_Aitzol_Berasategi.jpg", "picosdeeuropa_by_Aitzol_Berasategi.jpg",
        "seeding_by_Clements_Engelhardt.jpg", "sunset_by_Aitzol_Berasategi.jpg")
] + [
    "usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg",
] + [
    "usr/share/backgrounds/mate/nature/" + n for n in (
        "Aqua.jpg", "Blinds.jpg", "Dune.jpg", "FreshFlower.jpg", "Garden.jpg", "GreenMeadow.jpg", "LadyBird.jpg",
        "RainDrops.jpg", "Storm.jpg", "TwoWings.jpg", "Wood.jpg", "YellowFlower.jpg")
] + [
    "usr/share/wallpapers/%s/contents/images/*.jpg" % n for n in (
        "BytheWater", "ColdRipple", "ColorfulCups", "DarkestHour", "EveningGlow", "FallenLeaf", "Grey", "Kite",
        "OneStandsOut", "Path", "summer_1am")
]
SOURCE_SHORT = 2400  # photos are scaled down to this short side first (the largest are 3,000-4,000)


def find(pattern):
    hits = sorted(glob.glob(os.path.join(root, pattern)))
    if not hits:  # mate's folder layout has moved between versions: look for the name anywhere
        hits = sorted(glob.glob(os.path.join(root, "usr/share/**/", os.path.basename(pattern)), recursive=True))
    best = None
    for h in sorted(set(os.path.realpath(h) for h in hits)):
        with Image.open(h) as im:
            px = im.size[0] * im.size[1]
        if best is None or px > best[0]:
            best = (px, h)
    return best and best[1]


sources = []
for pattern in SOURCES:
    path = find(pattern)
    if path is None:
        print(f"real-photos: {pattern} not found in the packages; going on without it", file=sys.stderr)
        continue
    sources.append(path)
if len(sources) < CLASSES * 2:
    sys.exit(f"real-photos: only {len(sources)} photographs found; the packages changed: update SOURCES")
# Class k owns the photos k, k+10, k+20, ... in this fixed order.
owners = {k: [s for i, s in enumerate(sources) if i % CLASSES == k] for k in range(CLASSES)}

rng = random.Random(seed)


def aspect():
    """Width / height: mostly landscape 4:3 and 3:2, some portrait, a few square and panoramic."""
    u = rng.random()
    if u < 0.10:
        return rng.uniform(0.9, 1.1)
    r = rng.choices([4 / 3, 3 / 2, 16 / 9, None], weights=[45, 35, 8, 12])[0] or rng.uniform(1.1, 2.0)
    return 1 / r if u < 0.36 else r


def size():
    r = aspect()
    if rng.random() < 0.30 and abs(r - 1) > 0.05:  # a Flickr-style 500-pixel long side: 500x375, 333x500, ...
        w, h = (500, round(500 / r)) if r > 1 else (round(500 * r), 500)
    else:
        short = 0
        while not 200 <= short <= 500:  # truncated, not clipped: no pile-up at 200
            short = round(rng.gauss(295, 70))
        w, h = (round(short * r), short) if r >= 1 else (short, round(short / r))
    return max(200, min(w, 1000)), max(200, min(h, 1000))


def kind():
    return rng.choices(["baseline", "progressive", "baseline444", "grey", "cmyk", "png"],
                       weights=[82, 8, 3, 3, 2, 2])[0]


# The plan first, so that every image's draws are fixed before any photo is read: the output does not depend on
# the order photos are processed in.
plan = []
per_class = [count // CLASSES + (1 if k < count % CLASSES else 0) for k in range(CLASSES)]
for k in range(CLASSES):
    for j in range(per_class[k]):
        src = rng.randrange(len(owners[k]))
        w, h = size()
        fmt = kind()
        q = rng.randint(75, 95)
        # The crop: the output's aspect ratio, a random scale between the whole photo's height (or width) and
        # 0.35 of it (never smaller than the output), a random position.
        zoom = math.exp(rng.uniform(math.log(0.35), 0.0))
        pos = (rng.random(), rng.random())
        ext = "png" if fmt == "png" else "jpg"
        plan.append((k, j, owners[k][src], w, h, fmt, q, zoom, pos, f"class{k:02d}/class{k:02d}_{j:05d}.{ext}"))


def load(path):
    im = Image.open(path)
    s = min(im.size)
    if s > SOURCE_SHORT:
        im.draft("RGB", (im.size[0] * SOURCE_SHORT // s, im.size[1] * SOURCE_SHORT // s))
    im = im.convert("RGB")
    s = min(im.size)
    if s > SOURCE_SHORT:
        im = im.resize((round(im.size[0] * SOURCE_SHORT / s), round(im.size[1] * SOURCE_SHORT / s)),
                       Image.Resampling.LANCZOS)
    return im


def to_cmyk(rgb):
    """RGB to CMYK with full black generation (K = 1 - max(R, G, B)), not PIL's K = 0 conversion."""
    r, g, b = rgb.split()
    mx = ImageChops.lighter(ImageChops.lighter(r, g), b)
    k = ImageChops.invert(mx)
    chans = [ImageMath.eval("convert(((m - c) * 255) / max(m, 1), 'L')", c=c, m=mx) for c in (r, g, b)]
    return Image.merge("CMYK", chans + [k])


for k in range(CLASSES):
    os.makedirs(os.path.join(out, f"class{k:02d}"), exist_ok=True)
rows = []
by_source = {}
for p in plan:
    by_source.setdefault(p[2], []).append(p)
for src in sources:
    if src not in by_source:
        continue
    photo = load(src)
    sw, sh = photo.size
    for k, j, _, w, h, fmt, q, zoom, pos, rel in by_source[src]:
        # the largest crop of the output's aspect ratio that fits the photo, scaled by zoom
        cw, ch = (sw, sw * h / w) if sw / sh <= w / h else (sh * w / h, sh)
        cw, ch = max(w, cw * zoom), max(h, ch * zoom)
        cw, ch = min(cw, sw), min(ch, sh)
        x0, y0 = pos[0] * (sw - cw), pos[1] * (sh - ch)
        box = (round(x0), round(y0), round(x0 + cw), round(y0 + ch))
        im = photo.resize((w, h), Image.Resampling.LANCZOS, box=box)
        dest = os.path.join(out, rel)
        if fmt == "png":
            im.save(dest, "PNG")
            q = 0
        elif fmt == "grey":
            im.convert("L").save(dest, "JPEG", quality=q)
        elif fmt == "cmyk":
            to_cmyk(im).save(dest, "JPEG", quality=q)
        else:
            im.save(dest, "JPEG", quality=q, progressive=(fmt == "progressive"),
                    subsampling=0 if fmt == "baseline444" else 2)
        rows.append((rel, os.path.relpath(src, root), box, w, h, fmt, q, os.path.getsize(dest)))
rows.sort()

with open(os.path.join(out, ".manifest.tsv"), "w") as f:
    f.write(f"# seed={seed} count={count} packages: {versions}\n")
    f.write("path\tsource\tcrop\twidth\theight\tformat\tquality\tbytes\n")
    for rel, src, box, w, h, fmt, q, n in rows:
        f.write(f"{rel}\t{src}\t{','.join(map(str, box))}\t{w}\t{h}\t{fmt}\t{q}\t{n}\n")

# What was built.
ws = sorted(r[3] for r in rows)
hs = sorted(r[4] for r in rows)
ss = sorted(min(r[3], r[4]) for r in rows)
nb = sorted(r[7] for r in rows)
pct = lambda v, p: v[min(len(v) - 1, int(p / 100 * len(v)))]
fmts = {}
for r in rows:
    fmts[r[5]] = fmts.get(r[5], 0) + 1
land = sum(1 for r in rows if r[3] > r[4] * 1.05)
port = sum(1 for r in rows if r[4] > r[3] * 1.05)
print(f"{len(rows)} images from {len(sources)} photographs in {CLASSES} classes ({versions})")
print(f"size: mean {sum(ws) / len(ws):.0f}x{sum(hs) / len(hs):.0f}; short side min {ss[0]} p10 {pct(ss, 10)} "
      f"median {pct(ss, 50)} p90 {pct(ss, 90)} max {ss[-1]}; long side 500 exactly: "
      f"{sum(1 for r in rows if max(r[3], r[4]) == 500)}")
print(f"aspect: {land} landscape, {port} portrait, {len(rows) - land - port} square-ish")
print("formats: " + ", ".join(f"{n} {k}" for k, n in sorted(fmts.items(), key=lambda kv: -kv[1])))
bpp = sorted(r[7] * 8 / (r[3] * r[4]) for r in rows)
print(f"bytes: total {sum(nb) / 2**20:.1f} MiB, per image median {pct(nb, 50) / 1024:.0f} KiB "
      f"(p10 {pct(nb, 10) / 1024:.0f}, p90 {pct(nb, 90) / 1024:.0f}), bits per pixel median {pct(bpp, 50):.2f} "
      f"(p10 {pct(bpp, 10):.2f}, p90 {pct(bpp, 90):.2f})")
PY

if [ -d "$out" ]; then rmdir "$out"; fi  # empty (checked above)
mv "$out.partial" "$out"
echo "count=$count seed=$seed" > "$out/.complete"
echo "${versions[*]}" >> "$out/.complete"
echo "real-photos: built $out" >&2
