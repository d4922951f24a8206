"""Draw the app icons (a white card with a green spade on dark green) as PNG, without libraries.

Run once: python scripts/make_icons.py  (writes static/icons/icon-192.png and icon-512.png).
"""

import struct
import zlib
from pathlib import Path

GREEN = (11, 93, 59)
WHITE = (250, 248, 240)


def inside_spade(x: float, y: float) -> bool:
    # Unit coordinates centred on the card: two lobes, a point at the top, a stem.
    lobes = (x + 0.17) ** 2 + (y - 0.05) ** 2 < 0.04 or (x - 0.17) ** 2 + (y - 0.05) ** 2 < 0.04
    body = y < 0.1 and y > -0.42 and abs(x) < (y + 0.42) * 0.85
    stem = 0.05 < y < 0.38 and abs(x) < 0.03 + (y - 0.05) * 0.35
    return lobes or body or stem


def pixel(px: int, py: int, size: int) -> tuple[int, int, int]:
    x = (px + 0.5) / size * 2 - 1
    y = (py + 0.5) / size * 2 - 1
    card = abs(x) < 0.55 and abs(y) < 0.72
    if not card:
        return GREEN
    return GREEN if inside_spade(x / 0.9, y / 0.9) else WHITE


def png(size: int) -> bytes:
    rows = b"".join(b"\x00" + bytes(c for px in range(size) for c in pixel(px, py, size)) for py in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parents[1] / "static" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))
