"""The pictures a link shows when it is sent (WhatsApp, Signal, Telegram): PNGs drawn here with
Pillow from what :mod:`kabes.server.http.preview_facts` read, never from the client.

A messaging app fetches a link's ``og:image`` once and shows it beside the link, so the
picture must say what the link is at a glance on a phone: a match as it stood at the end of
its last finished hand (the line, or the trains of Mexican Train, as domino tiles with their
pips, the same pips and colours as the web client's tiles.js), the players and the score; a
player as a card with their name and ratings; anything else (a private match, a code that
names nothing) as the one Kabès card, which shows nothing of any game.

Everything is pure and synchronous (the caller runs it in a thread): the same facts give the
same bytes. Every picture is 1200 x 630 (the size the apps crop to) and under
:data:`MOST_BYTES`: flat colours are drawn, then stored with a palette of at most 128
colours, fewer if ever needed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from kabes.server.http.preview_facts import MatchFacts, PlayerFacts

WIDTH, HEIGHT = 1200, 630
MOST_BYTES = 100_000
"""No picture is larger (PROTOCOL.md, "Players, replays and rankings")."""
FELT, FELT_DARK, IVORY, EDGE, INK = "#1d6a45", "#15553a", "#fbf6e9", "#a39a84", "#1b1b1b"
ACCENT, WHITE, PALE = "#ffb21e", "#ffffff", "#cfe3d6"
PIP_COLORS = ("#1b1b1b", "#0a6fb8", "#2e7d32", "#c62828", "#6d4c41", "#283593", "#e0a000",
              "#ad1457", "#00695c", "#6a1b9a", "#d84315", "#37474f", "#7a6a00")
"""A double-twelve set's colour per number, as the web client's tiles.js paints them."""
_C, _L, _R, _Y4 = (0.25, 0.5, 0.75), 0.27, 0.73, (0.17, 0.39, 0.61, 0.83)
PIPS: tuple[tuple[tuple[float, float], ...], ...] = (
    (),
    ((0.5, 0.5),),
    ((_C[0], _C[0]), (_C[2], _C[2])),
    ((_C[0], _C[0]), (0.5, 0.5), (_C[2], _C[2])),
    ((_C[0], _C[0]), (_C[2], _C[0]), (_C[0], _C[2]), (_C[2], _C[2])),
    ((_C[0], _C[0]), (_C[2], _C[0]), (0.5, 0.5), (_C[0], _C[2]), (_C[2], _C[2])),
    ((_L, 0.22), (_L, 0.5), (_L, 0.78), (_R, 0.22), (_R, 0.5), (_R, 0.78)),
    ((_L, 0.22), (_L, 0.5), (_L, 0.78), (0.5, 0.5), (_R, 0.22), (_R, 0.5), (_R, 0.78)),
    ((0.22, 0.22), (0.22, 0.5), (0.22, 0.78), (0.5, 0.33), (0.5, 0.67), (0.78, 0.22),
     (0.78, 0.5), (0.78, 0.78)),
    tuple((x, y) for x in _C for y in _C),
    (*((0.2, y) for y in _Y4), (0.5, 0.39), (0.5, 0.61), *((0.8, y) for y in _Y4)),
    (*((0.2, y) for y in _Y4), (0.5, 0.25), (0.5, 0.5), (0.5, 0.75), *((0.8, y) for y in _Y4)),
    tuple((x, y) for x in (0.2, 0.5, 0.8) for y in _Y4),
)
"""Where the pips of 0 to 12 sit in a half (x, y from 0 to 1), as tiles.js places them."""
BOARD = (40, 120, 1160, 500)
"""Where a match's tiles go: left, top, right, bottom."""


FONTS = ("DejaVuSans{}.ttf", "LiberationSans{}.ttf", "NotoSans{}.ttf")
"""Fonts looked for, in order, among the system's (Debian: fonts-dejavu-core): Pillow's own
font has no letters beyond ASCII, and names are written in every script."""
FONT_FOLDERS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts"),
                Path("/usr/local/share/fonts"), Path("/Library/Fonts"),
                Path("C:/Windows/Fonts"))


@cache
def font_file(bold: bool) -> Path | None:
    """The first of :data:`FONTS` found (bold or regular), or None."""
    for name in FONTS:
        wanted = name.format("-Bold" if bold else "" if "DejaVu" in name else "-Regular")
        for folder in FONT_FOLDERS:
            found = next(iter(folder.rglob(wanted)), None) if folder.is_dir() else None
            if found is not None:
                return found
    return None


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A system font (:data:`FONTS`) at ``size`` pixels, else Pillow's own."""
    found = font_file(bold)
    if found is not None:
        return ImageFont.truetype(str(found), size)
    return ImageFont.load_default(size)


def png(image: Image.Image) -> bytes:
    """``image`` as a PNG of at most :data:`MOST_BYTES`: a palette of 128 colours (the
    drawing's flat colours and the text's edges), fewer while it is too large. zlib's level
    6, not ``optimize``: a tenth larger, a fifth of the time (bench/previews.py)."""
    for colors in (128, 48, 16):
        out = io.BytesIO()
        image.quantize(colors, method=Image.Quantize.FASTOCTREE).save(out, "PNG",
                                                                      compress_level=6)
        if out.tell() <= MOST_BYTES:
            break
    return out.getvalue()


def fitted(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    """``text`` cut short with an ellipsis so that it is at most ``width`` pixels wide."""
    if draw.textlength(text, font=font(size)) <= width:
        return text
    while text and draw.textlength(text + "…", font=font(size)) > width:
        text = text[:-1]
    return text + "…"


def tile(draw: ImageDraw.ImageDraw, a: int, b: int, x: float, y: float, s: float,
         vertical: bool, colored: bool) -> None:
    """The tile ``a-b`` with its short side ``s``: ``a`` on the left (or on top)."""
    w, h = (s, 2 * s) if vertical else (2 * s, s)
    radius = max(2, round(s * 0.13))
    shadow = max(1, round(s * 0.04))
    draw.rounded_rectangle((x + shadow, y + shadow, x + w + shadow, y + h + shadow), radius,
                           fill="#0f3f2a")
    draw.rounded_rectangle((x, y, x + w, y + h), radius, fill=IVORY, outline=EDGE,
                           width=max(1, round(s * 0.02)))
    if vertical:
        draw.line((x + s * 0.14, y + s, x + s * 0.86, y + s), fill=EDGE,
                  width=max(1, round(s * 0.03)))
    else:
        draw.line((x + s, y + s * 0.14, x + s, y + s * 0.86), fill=EDGE,
                  width=max(1, round(s * 0.03)))
    for number, (hx, hy) in ((a, (x, y)), (b, (x, y + s) if vertical else (x + s, y))):
        r = s * (0.074 if number >= 10 else 0.09)
        color = PIP_COLORS[number] if colored else INK
        for px, py in PIPS[number]:
            if not vertical:  # the vertical tile turned a quarter left, as tiles.js turns it
                px, py = py, 1 - px
            cx, cy = hx + (0.06 + px * 0.88) * s, hy + (0.06 + py * 0.88) * s
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color,
                         outline=INK if colored else None)


def line_layout(line: Sequence[tuple[int, int]], crosswise: bool,
                width: float, height: float) -> tuple[float, list[list[int]]]:
    """The largest short side (at most 48 px) at which ``line`` fits ``width`` x ``height``
    as a snake of rows, and the tiles (indexes) of each row."""
    size = 48.0
    while True:
        gap = size * 0.1
        rows: list[list[int]] = [[]]
        used = 0.0
        for index, (a, b) in enumerate(line):
            wide = size if crosswise and a == b else 2 * size
            if rows[-1] and used + gap + wide > width:
                rows.append([])
                used = 0.0
            used += (gap if rows[-1] else 0) + wide
            rows[-1].append(index)
        tall = sum(row_height(line, row, size, crosswise) for row in rows)
        if size <= 8 or tall + size * 0.5 * (len(rows) - 1) <= height:
            return size, rows
        size -= 2


def row_height(line: Sequence[tuple[int, int]], row: list[int], size: float,
               crosswise: bool) -> float:
    """How tall a row of the line is: twice the short side where a double stands across."""
    return 2 * size if crosswise and any(line[i][0] == line[i][1] for i in row) else size


def draw_line(draw: ImageDraw.ImageDraw, line: Sequence[tuple[int, int]], crosswise: bool,
              colored: bool) -> None:
    """The line, left to right and then back (a snake), centred in :data:`BOARD`."""
    left, top, right, bottom = BOARD
    size, rows = line_layout(line, crosswise, right - left, bottom - top)
    gap = size * 0.1
    heights = [row_height(line, row, size, crosswise) for row in rows]
    y = top + (bottom - top - sum(heights) - size * 0.5 * (len(rows) - 1)) / 2
    for number, (row, tall) in enumerate(zip(rows, heights, strict=True)):
        widths = [size if crosswise and line[i][0] == line[i][1] else 2 * size for i in row]
        x = left + (right - left - sum(widths) - gap * (len(row) - 1)) / 2
        backwards = number % 2 == 1
        order = list(zip(row, widths, strict=True))
        for index, wide in reversed(order) if backwards else order:
            a, b = line[index]
            across = crosswise and a == b
            a, b = (b, a) if backwards else (a, b)
            tile(draw, a, b, x, y + (tall - (2 * size if across else size)) / 2, size,
                 across, colored)
            x += wide + gap
        y += tall + size * 0.5


def trains_layout(longest: int, trains: int, width: float, height: float
                  ) -> tuple[float, int]:
    """The largest short side (at most 40 px) for ``trains`` rows of at most ``longest``
    tiles in ``width`` x ``height``, and on how many lines (1 to 3) each train is then
    laid: a long train in a roomy picture wraps rather than shrinks."""
    pitch = height / max(1, trains)
    best = (0.0, 1)
    for lines in (1, 2, 3):
        per_line = -(-max(1, longest) // lines)
        size = min(40.0, pitch / (lines * 1.15 + 0.1), width / per_line / 2.1)
        if size > best[0] + 0.5:
            best = (size, lines)
    return best


def draw_trains(draw: ImageDraw.ImageDraw, facts: MatchFacts) -> None:
    """The engine, then a row for each train: its owner's name (a marker if marked) and its
    tiles from the engine outwards, wrapped onto a second or third line if that draws them
    larger."""
    left, top, right, bottom = BOARD
    trains = facts.trains
    label = 190
    longest = max((len(t.laid) for t in trains), default=0)
    room = right - left - label - 80
    size, lines = trains_layout(longest, len(trains), room, bottom - top)
    per_line = -(-max(1, longest) // lines)
    if facts.engine is not None:
        engine = facts.engine
        tile(draw, engine[0], engine[1], left, (top + bottom) / 2 - 30, 30, True,
             facts.colored)
    pitch = (bottom - top) / max(1, len(trains))
    text = max(14, min(26, round(pitch * 0.45)))
    for row, train in enumerate(trains):
        tall = lines * size * 1.15 - size * 0.15
        y = top + row * pitch + (pitch - tall) / 2
        middle = top + row * pitch + pitch / 2
        name = facts.public_train if train.owner is None else facts.names[train.owner]
        x = left + 50
        draw.text((x, middle), fitted(draw, name, text, label - 40), fill=WHITE,
                  font=font(text), anchor="lm")
        if train.marked:
            cx = x + label - 24
            draw.ellipse((cx - 7, middle - 7, cx + 7, middle + 7), fill=ACCENT)
        for index, (a, b) in enumerate(train.laid):
            line, place = divmod(index, per_line)
            tile(draw, a, b, x + label + place * 2.1 * size, y + line * size * 1.15, size,
                 False, facts.colored)


def match_image(facts: MatchFacts) -> bytes:
    """A public match at the end of its last finished hand: the variant and the hand at the
    top, the board in the middle, each side's names and score at the bottom."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 96), fill=FELT_DARK)
    draw.text((40, 48), "Kabès", fill=ACCENT, font=font(44, True), anchor="lm")
    draw.text((220, 48), fitted(draw, facts.title, 34, 560), fill=WHITE, font=font(34),
              anchor="lm")
    draw.text((WIDTH - 40, 48), fitted(draw, facts.hand_label, 30, 340), fill=PALE,
              font=font(30), anchor="rm")
    if facts.trains:
        draw_trains(draw, facts)
    elif facts.line:
        draw_line(draw, facts.line, facts.crosswise, facts.colored)
    else:
        draw.text((WIDTH / 2, (BOARD[1] + BOARD[3]) / 2), facts.no_hand, fill=PALE,
                  font=font(36), anchor="mm")
    draw.rectangle((0, 520, WIDTH, HEIGHT), fill=FELT_DARK)
    sides = facts.sides
    width = (WIDTH - 80) / max(1, len(sides))
    size = 30 if len(sides) <= 3 else 24 if len(sides) <= 5 else 18
    for number, (names, score, best) in enumerate(sides):
        x = 40 + number * width
        draw.text((x, 552), fitted(draw, names, size, width - 20), fill=WHITE,
                  font=font(size), anchor="lm")
        draw.text((x, 596), str(score), fill=ACCENT if best else PALE, font=font(size + 6),
                  anchor="lm")
    return png(image)


def player_image(facts: PlayerFacts) -> bytes:
    """A player's card: their name, then each variant's rating."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 96), fill=FELT_DARK)
    draw.text((40, 48), "Kabès", fill=ACCENT, font=font(44, True), anchor="lm")
    draw.text((WIDTH - 40, 48), fitted(draw, facts.label, 30, 600), fill=PALE, font=font(30),
              anchor="rm")
    draw.text((60, 170), fitted(draw, facts.name, 72, WIDTH - 120), fill=WHITE,
              font=font(72), anchor="lm")
    tile(draw, 6, 6, WIDTH - 150, 250, 70, True, False)
    if not facts.ratings:
        draw.text((60, 300), facts.unrated, fill=PALE, font=font(34), anchor="lm")
    for row, (title, rating) in enumerate(facts.ratings[:6]):
        y = 270 + row * 56
        draw.text((60, y), fitted(draw, title, 34, 700), fill=PALE, font=font(34),
                  anchor="lm")
        draw.text((860, y), str(round(rating)), fill=ACCENT, font=font(40), anchor="rm")
    return png(image)


def card_image(tagline: str) -> bytes:
    """The Kabès card: the name, ``tagline`` and a few tiles; nothing of any game."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.text((WIDTH / 2, 220), "Kabès", fill=ACCENT, font=font(150, True), anchor="mm")
    draw.text((WIDTH / 2, 345), fitted(draw, tagline, 34, WIDTH - 100), fill=WHITE,
              font=font(34), anchor="mm")
    for number, (a, b) in enumerate(((6, 6), (6, 3), (3, 1), (1, 1))):
        tile(draw, a, b, 330 + number * 140, 430, 60, False, False)
    return png(image)
