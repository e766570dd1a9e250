"""Writes the app icons of src/kabes/web/icons/ (run once; the output is committed).

The SVG is the source; the PNGs are the same drawing rasterized here by a tiny pure-Python
renderer (supersampled shapes) and PNG encoder, so nothing needs installing.
Run: python3 tests/browser/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "src" / "kabes" / "web" / "icons"
GREEN = (0x14, 0x55, 0x3A)
IVORY = (0xFB, 0xF6, 0xE9)
EDGE = (0xA3, 0x9A, 0x84)
PIP = (0x1B, 0x1B, 0x1B)

# The drawing, in a 512 x 512 frame: a vertical tile showing 3 over 6.
TILE = (176.0, 56.0, 336.0, 456.0, 30.0)  # x0, y0, x1, y1, corner radius
PIPS = [
    (216, 104),
    (256, 156),
    (296, 208),
    (216, 292),
    (216, 352),
    (216, 412),
    (296, 292),
    (296, 352),
    (296, 412),
]
PIP_R = 21.0


def svg(maskable: bool = False) -> str:
    radius = 0 if maskable else 96
    k = 0.8 if maskable else 1.0
    tx = 256 * (1 - k)
    x0, y0, x1, y1, r = TILE
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="{PIP_R}"/>' for x, y in PIPS)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f'<rect width="512" height="512" rx="{radius}" fill="#14553a"/>'
        f'<g transform="translate({tx} {tx}) scale({k})">'
        f'<rect x="{x0 + 8}" y="{y0 + 10}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" '
        'fill="#000" opacity=".3"/>'
        f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" '
        'fill="#fbf6e9" stroke="#a39a84" stroke-width="6"/>'
        f'<rect x="{x0 + 24}" y="251" width="{x1 - x0 - 48}" height="10" rx="5" fill="#a39a84"/>'
        f'<g fill="#1b1b1b">{pips}</g></g></svg>\n'
    )


def in_round_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def colour(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    if not maskable and not in_round_rect(x, y, 0, 0, 512, 512, 96):
        return (0, 0, 0, 0)
    if maskable:
        x, y = (x - 51.2) / 0.8, (y - 51.2) / 0.8
    x0, y0, x1, y1, r = TILE
    for px, py in PIPS:
        if (x - px) ** 2 + (y - py) ** 2 <= PIP_R * PIP_R:
            return (*PIP, 255)
    if x0 + 24 <= x <= x1 - 24 and 251 <= y <= 261:
        return (*EDGE, 255)
    if in_round_rect(x, y, x0 + 3, y0 + 3, x1 - 3, y1 - 3, r - 3):
        return (*IVORY, 255)
    if in_round_rect(x, y, x0 - 3, y0 - 3, x1 + 3, y1 + 3, r + 3):
        return (*EDGE, 255)
    if in_round_rect(x, y, x0 + 8, y0 + 10, x1 + 8, y1 + 10, r):
        return (int(GREEN[0] * 0.7), int(GREEN[1] * 0.7), int(GREEN[2] * 0.7), 255)
    return (*GREEN, 255)


def png(size: int, maskable: bool) -> bytes:
    n = 3
    scale = 512 / size
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            acc = [0, 0, 0, 0]
            for a in range(n):
                for b in range(n):
                    c = colour((i + (a + 0.5) / n) * scale, (j + (b + 0.5) / n) * scale, maskable)
                    for ch in range(3):
                        acc[ch] += c[ch] * c[3]
                    acc[3] += c[3]
            alpha = acc[3] / (n * n)
            if acc[3]:
                rows += bytes(round(acc[ch] / acc[3]) for ch in range(3))
            else:
                rows += b"\0\0\0"
            rows.append(round(alpha))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg())
    (OUT / "icon-maskable.svg").write_text(svg(maskable=True))
    (OUT / "icon-192.png").write_bytes(png(192, False))
    (OUT / "icon-512.png").write_bytes(png(512, False))
    (OUT / "icon-maskable-512.png").write_bytes(png(512, True))
    print("written to", OUT)
