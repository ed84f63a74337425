"""``tilewatch markers``: a PDF or PNG sheet that prints to scale."""

import re
import struct
import zlib

import cv2
import numpy as np

from device.cli import main
from vision.markers import find_markers


def test_pdf_sheet_is_a4_with_a_readable_page_image(tmp_path):
    out = tmp_path / "markers.pdf"
    assert main(["markers", str(out), "--size-mm", "40", "--dpi", "100"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    # Every xref entry points at the object it names.
    xref = int(re.search(rb"startxref\n(\d+)", data)[1])
    entries = re.findall(rb"(\d{10}) 00000 n", data[xref:])
    for n, offset in enumerate(entries, start=1):
        assert data[int(offset) :].startswith(b"%d 0 obj" % n)
    box = [float(v) for v in re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data).groups()]
    assert abs(box[0] - 210 / 25.4 * 72) < 0.1 and abs(box[1] - 297 / 25.4 * 72) < 0.1
    m = re.search(rb"/Width (\d+) /Height (\d+).*?/Length (\d+) >>\nstream\n", data, re.S)
    w, h, length = map(int, m.groups())
    page = np.frombuffer(zlib.decompress(data[m.end() : m.end() + length]), np.uint8).reshape(h, w)
    found = find_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    side = np.linalg.norm(found[0][1] - found[0][0])
    assert abs(side - 40 * 100 / 25.4) < 2


def test_png_sheet_states_its_resolution(tmp_path):
    out = tmp_path / "markers.png"
    assert main(["markers", str(out), "--dpi", "200", "--paper", "letter"]) == 0
    data = out.read_bytes()
    i = data.index(b"pHYs")
    per_metre_x, per_metre_y, unit = struct.unpack(">IIB", data[i + 4 : i + 13])
    assert unit == 1 and abs(per_metre_x * 0.0254 - 200) < 0.5 and per_metre_x == per_metre_y
    page = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert page.shape == (round(279.4 / 25.4 * 200), round(215.9 / 25.4 * 200))
    assert sorted(find_markers(page)) == [0, 1, 2, 3]


def test_bad_requests_are_exit_2(tmp_path, capsys):
    assert main(["markers", str(tmp_path / "m.jpg")]) == 2
    assert main(["markers", str(tmp_path / "m.pdf"), "--size-mm", "500"]) == 2
    assert main(["markers", str(tmp_path / "no" / "dir" / "m.pdf")]) == 2
    assert capsys.readouterr().err.count("tilewatch markers:") == 3
