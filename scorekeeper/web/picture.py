"""A result card (:mod:`scorekeeper.web.cards`) drawn as a PNG, with Pillow.

The letters are Noto Sans, which comes from PyPI (``fontpkg-noto-sans``, OFL) with the app's
dependencies, so the picture looks the same on every server, a fresh clone's CI among them, and
carries every language's letters (ä ö å é è ç ñ ¡ ¿ « », French's narrow no-break space). It
is a variable font: one file, each weight set on its axis.

The picture is 1,200 pixels wide, the shape a chat's preview of a link shows whole
(Open Graph's ``summary_large_image``), and 630 high, or taller for more than four players.
"""

from __future__ import annotations

from io import BytesIO

import fontpkg
from PIL import Image, ImageDraw, ImageFont

from scorekeeper.web.cards import Card

WIDTH = 1200
#: The least height: Open Graph's 1.91:1.
HEIGHT = 630
MARGIN = 64
ROW = 64
#: Where the players' lines start, and the room under them for the footer.
TOP = 262
FOOT = 96

FELT = (11, 93, 59)  # the app's colour (its theme-color), a card table's felt
INK = (255, 255, 255)
MUTED = (196, 226, 210)
RULE = (60, 130, 98)
MEDALS = {1: (242, 193, 78), 2: (201, 209, 217), 3: (208, 139, 91)}
ON_MEDAL = (20, 33, 27)

REGULAR, SEMIBOLD, BOLD = 400, 600, 700

def size_of(card: Card) -> tuple[int, int]:
    """The picture's width and height for this card: taller only when its players need it."""
    return WIDTH, max(HEIGHT, TOP + ROW * (len(card.lines) + bool(card.more)) + FOOT)


def face(size: int, weight: int) -> ImageFont.FreeTypeFont:
    """The font at one size and weight: an object of its own (a variation is set on the object).
    Each card makes its own (2 ms for the seven it uses), so that no two threads share a
    FreeType face, which is not for two at once."""
    font = ImageFont.truetype(str(fontpkg.path("Noto Sans")), size)
    font.set_variation_by_axes([weight, 100])  # the font's axes: weight, then width (100: normal)
    return font


def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis where it would be wider than ``width``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrapped(text: str, face: ImageFont.FreeTypeFont, width: float, most: int) -> list[str]:
    """``text`` in lines no wider than ``width``, at most ``most`` of them (the last cut)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[:most - 1], " ".join(lines[most - 1:])]
    return [fit(line, face, width) for line in lines]


def draw(card: Card) -> bytes:
    """The card as a PNG."""
    faces: dict[tuple[int, int], ImageFont.FreeTypeFont] = {}

    def font(size: int, weight: int) -> ImageFont.FreeTypeFont:
        if (size, weight) not in faces:
            faces[size, weight] = face(size, weight)
        return faces[size, weight]

    width, height = size_of(card)
    image = Image.new("RGB", (width, height), FELT)
    pen = ImageDraw.Draw(image)
    inner = width - 2 * MARGIN

    pen.text((MARGIN, 40), fit(card.club, font(28, SEMIBOLD), inner), font=font(28, SEMIBOLD), fill=MUTED)
    pen.text((MARGIN, 78), fit(card.title, font(54, BOLD), inner), font=font(54, BOLD), fill=INK)
    headline = _wrapped(card.headline, font(32, REGULAR), inner, 2)
    for i, line in enumerate(headline):
        pen.text((MARGIN, 152 + 40 * i), line, font=font(32, REGULAR), fill=INK)

    heads = font(22, SEMIBOLD)
    place_width = 150
    total_right = width - MARGIN
    pen.text((MARGIN, TOP - 34), card.heads[0], font=heads, fill=MUTED)
    pen.text((MARGIN + place_width, TOP - 34), card.heads[1], font=heads, fill=MUTED)
    pen.text((total_right, TOP - 34), card.heads[2], font=heads, fill=MUTED, anchor="ra")
    pen.line((MARGIN, TOP - 6, total_right, TOP - 6), fill=RULE, width=2)

    name_font, detail_font, total_font = font(32, SEMIBOLD), font(21, REGULAR), font(36, BOLD)
    for i, line in enumerate(card.lines):
        y = TOP + ROW * i
        middle = y + ROW // 2
        place_font = font(28, BOLD)
        if line.medal is not None:
            pen.rounded_rectangle((MARGIN, middle - 22, MARGIN + place_width - 24, middle + 22), radius=22,
                                  fill=MEDALS[line.medal])
            pen.text((MARGIN + (place_width - 24) // 2, middle), fit(line.place, place_font, place_width - 36),
                     font=place_font, fill=ON_MEDAL, anchor="mm")
        else:
            pen.text((MARGIN + (place_width - 24) // 2, middle), fit(line.place, place_font, place_width - 36),
                     font=place_font, fill=INK, anchor="mm")
        total_width = total_font.getlength(line.total)
        room = total_right - total_width - 24 - (MARGIN + place_width)
        x = MARGIN + place_width
        if line.detail:
            pen.text((x, middle - 4), fit(line.name, name_font, room), font=name_font, fill=INK, anchor="ls")
            pen.text((x, middle + 4), fit(line.detail, detail_font, room), font=detail_font, fill=MUTED, anchor="lt")
        else:
            pen.text((x, middle), fit(line.name, name_font, room), font=name_font, fill=INK, anchor="lm")
        pen.text((total_right, middle), line.total, font=total_font, fill=INK, anchor="rm")

    if card.more:
        # Cut in the font it is drawn in, to the room right of the places' column.
        more_font, x = font(26, REGULAR), MARGIN + place_width
        pen.text((x, TOP + ROW * len(card.lines) + ROW // 2), fit(card.more, more_font, total_right - x),
                 font=more_font, fill=MUTED, anchor="lm")
    foot = height - FOOT + 24
    pen.line((MARGIN, foot - 16, total_right, foot - 16), fill=RULE, width=2)
    pen.text((MARGIN, foot), fit(card.footer, font(26, REGULAR), inner), font=font(26, REGULAR), fill=MUTED)
    out = BytesIO()
    # zlib's default level: optimize=True took four times as long (88 ms against 21) to save 3%.
    image.save(out, "PNG")
    return out.getvalue()
