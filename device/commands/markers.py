"""``tilewatch markers OUT.pdf|OUT.png``: the printable sheet of corner markers.

The page is drawn by :func:`vision.markers.marker_sheet` at the stated size;
a PNG carries its resolution (a ``pHYs`` chunk) and a PDF its page size, so
either prints at 100% with markers of exactly ``--size-mm``.
"""

from __future__ import annotations

import argparse
import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.cli import EXIT_OK, CliError
from vision.markers import PAPER_MM, marker_sheet


def png_with_dpi(image: np.ndarray, dpi: int) -> bytes:
    """PNG bytes of a grey or BGR image, stamped with ``dpi`` so viewers print it to scale."""
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise CliError("could not encode the PNG")
    raw = data.tobytes()
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, CRC
    return raw[:ihdr_end] + chunk + raw[ihdr_end:]


def pdf_of(gray: np.ndarray, page_mm: tuple[float, float]) -> bytes:
    """A one-page PDF showing a grey image over the whole page of ``page_mm``."""
    w_pt, h_pt = (v / 25.4 * 72 for v in page_mm)
    h, w = gray.shape
    pixels = zlib.compress(np.ascontiguousarray(gray, np.uint8).tobytes(), 9)
    content = f"q {w_pt:.2f} 0 0 {h_pt:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_pt:.2f} {h_pt:.2f}] "
            "/Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>"
        ).encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        (
            f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n"
        ).encode()
        + pixels
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    kind = out.suffix.lower()
    if kind not in (".pdf", ".png"):
        raise CliError(f"the sheet is written as .pdf or .png, not {out.name!r}")
    try:
        sheet = marker_sheet(args.size_mm, args.dpi, args.paper)
    except ValueError as err:
        raise CliError(str(err)) from None
    data = pdf_of(sheet, PAPER_MM[args.paper]) if kind == ".pdf" else png_with_dpi(sheet, args.dpi)
    try:
        out.write_bytes(data)
    except OSError as err:
        raise CliError(f"cannot write {out}: {err.strerror}") from None
    print(
        f"wrote {out}: four {args.size_mm:g} mm markers on {args.paper.upper()} at {args.dpi} dpi; "
        "print at 100% scale"
    )
    return EXIT_OK


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("markers", help="write a printable sheet of the four corner markers")
    p.add_argument("out", help="output file, .pdf or .png")
    p.add_argument("--size-mm", type=float, default=30.0, help="marker side in mm (default 30)")
    p.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")
    p.add_argument(
        "--paper", choices=sorted(PAPER_MM), default="a4", help="paper size (default a4)"
    )
    p.set_defaults(func=run)
