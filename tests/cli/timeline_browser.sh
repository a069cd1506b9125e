# timeline_browser.sh - the SVG of `workbench timeline --svg` opens in a
# real browser: headless Chromium renders the stale-read fixture to a PNG
# screenshot, and the picture holds what the SVG draws (checked on the
# pixels, decoded with python3's zlib: white background, the blue of
# completed operations, the red of the witness, the amber of the unknown
# outcome).  Skips (77) without chromium.  Chromium runs with a profile in
# the test's temp dir and under timeout; nothing of it outlives the test.
. "$(dirname "$0")/../lib/common.sh"

chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || skip "chromium is not installed (apt package chromium)"
command -v python3 >/dev/null || skip "python3 is missing"

"$WB_BIN" --lang en timeline "$WB_FIXTURES/timeline/stale-read.jsonl" --svg "$T/t.svg" >/dev/null ||
	fail "timeline --svg failed"
size=$(python3 -c "
import xml.etree.ElementTree as E
r = E.parse('$T/t.svg').getroot()
print(r.get('width') + ',' + r.get('height'))")
# HOME and the profile in $T: the browser writes nothing of the user's
HOME="$T" timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--no-first-run --user-data-dir="$T/profile" --window-size="$size" \
	--screenshot="$T/shot.png" "file://$T/t.svg" >"$T/chrome.log" 2>&1 ||
	fail "chromium failed: $(tail -5 "$T/chrome.log")"
[ -s "$T/shot.png" ] || fail "no screenshot"
python3 - "$T/shot.png" "$size" <<'PY' || fail "the screenshot does not show the timeline"
import sys, zlib, struct
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
want_w, want_h = map(int, sys.argv[2].split(","))
assert (w, h) == (want_w, want_h), (w, h, want_w, want_h)
raw = zlib.decompress(idat)
stride = w * bpp
rows, prev, i = [], bytearray(stride), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
def count(rgb, tol=6):
    n = 0
    for line in rows:
        for x in range(0, stride, bpp):
            if all(abs(line[x + k] - rgb[k]) <= tol for k in range(3)):
                n += 1
    return n
white = count((255, 255, 255))
assert white > w * h // 4, "not a white page: %d" % white
for name, rgb in [("completed bars", (0xdb, 0xe8, 0xfb)), ("witness", (0xfe, 0xd7, 0xd7)),
                  ("witness edge", (0xc5, 0x30, 0x30)), ("unknown outcome", (0xfd, 0xf3, 0xd8))]:
    n = count(rgb)
    assert n > 20, "%s: %d pixels of %s" % (name, n, rgb)
print("pixels ok")
PY
cp "$T/shot.png" "${WB_TIMELINE_SHOT:-/dev/null}" 2>/dev/null || true
echo ok
