"""The bundled DejaVu Sans fonts, and text that never shows a replacement box.

The fonts ship inside the package (render/fonts/, see its LICENSE) so that a
fresh install draws the same letters as a developer's machine. FreeType faces
are not safe to share between threads, so each thread loads its own.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from functools import cache
from importlib import resources

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"

_local = threading.local()


@cache
def _font_bytes(filename: str) -> bytes:
    return resources.files("render").joinpath("fonts", filename).read_bytes()


def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (or Sans Bold) at `size` pixels, cached per thread."""
    fonts: dict[tuple[int, bool], Font] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = {}
        _local.fonts = fonts
    key = (size, bold)
    loaded = fonts.get(key)
    if loaded is None:
        # The basic layout engine draws the same everywhere; Raqm may be missing.
        loaded = ImageFont.truetype(
            io.BytesIO(_font_bytes(BOLD if bold else REGULAR)), size, layout_engine=ImageFont.Layout.BASIC
        )
        fonts[key] = loaded
    return loaded


# A private-use code point: DejaVu has no glyph for it, so it draws the box
# that every missing character turns into.
_MISSING_PROBE = "\ue000"


@cache
def has_glyph(char: str, bold: bool = False) -> bool:
    """True when DejaVu Sans draws `char` itself rather than its replacement box."""
    if char.isspace() or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return True
    probe = font(24, bold)
    box = probe.getmask(_MISSING_PROBE)
    mask = probe.getmask(char)
    return bool(mask.size != box.size or bytes(mask) != bytes(box))


def missing_glyphs(text: str, bold: bool = False) -> list[str]:
    """The characters of `text` the bundled font would draw as boxes."""
    return [c for c in dict.fromkeys(text) if not has_glyph(c, bold)]


def drawable(text: str, fallback: str = "?", bold: bool = True) -> str:
    """`text` with characters the font lacks (emoji in a display name) removed.

    Returns `fallback` when nothing drawable is left.
    """
    text = unicodedata.normalize("NFC", text)
    kept = "".join(c for c in text if has_glyph(c, bold)).strip()
    return kept or fallback


def text_width(text: str, size: int, bold: bool = False) -> int:
    return int(font(size, bold).getlength(text) + 0.999)


# After the halving search, the next few cuts are measured too: a kerned pair
# may make a longer cut as narrow as a shorter one.
_FIT_LOOKAHEAD = 4


def fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis to the longest start that is at most `width` pixels wide.

    The cut is found by halving (a 4,000-character name takes a dozen
    measurements, not thousands); the start of a text never gets narrower as
    it grows, so this is the cut that trimming one character at a time finds.
    """
    if text_width(text, size, bold) <= width:
        return text

    def fits(cut: int) -> bool:
        return text_width(text[:cut] + "…", size, bold) <= width

    low, high = 0, len(text)  # the longest cut that fits lies in [low, high]; 0 stands for "none does"
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    for cut in range(min(len(text), low + _FIT_LOOKAHEAD), low, -1):
        if fits(cut):
            low = cut
            break
    return text[:low].rstrip() + "…"


def wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """`text` broken into lines at most `width` pixels wide; a word wider than a line is broken between letters
    (one far longer than a name may be, three lines and more, is shortened instead)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and text_width(candidate, size, bold) > width:
            lines.extend(_whole(line, width, size, bold))
            line = word
        else:
            line = candidate
    if line:
        lines.extend(_whole(line, width, size, bold))
    return lines


def _whole(line: str, width: int, size: int, bold: bool) -> list[str]:
    """A line of `wrap`: as it is, broken between letters, or (far too long) shortened."""
    wide = text_width(line, size, bold)
    if wide <= width:
        return [line]
    if wide <= 3 * width:
        return _broken(line, width, size, bold)
    return [fit(line, width, size, bold)]


# The smallest size a text is shrunk to before it wraps, as a share of its own size, and the legible floor no text
# goes below (pixels).
SHRINK = 0.8
FLOOR = 11


def _words_wrapped(words: list[str], width: int, size: int, bold: bool) -> list[str] | None:
    """`words` in lines at most `width` wide at `size`, or None when a word alone is wider."""
    lines: list[str] = []
    line = ""
    for word in words:
        if text_width(word, size, bold) > width:
            return None
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def _broken(text: str, width: int, size: int, bold: bool) -> list[str]:
    """`text` broken between letters into lines at most `width` wide (a word longer than a whole line)."""
    lines: list[str] = []
    line = ""
    for char in text:
        if line and text_width(line + char, size, bold) > width:
            lines.append(line.rstrip())
            line = char.lstrip()
        else:
            line += char
    if line:
        lines.append(line)
    return lines


def fitted(
    text: str, width: int, size: int, bold: bool = False, max_lines: int = 3, floor: int = FLOOR
) -> tuple[list[str], int]:
    """`text` drawn whole within `width`: (its lines, the size), never cut while it can be read.

    It stays on one line at `size` if it fits there, else at a smaller size down to `SHRINK` of it; else it
    wraps between words into at most `max_lines` lines, at the largest size from `size` down to `floor` where
    that works (between letters where a single word is wider than the line). Only a text that would not fit
    `max_lines` lines even at the floor (a name far longer than Discord allows) is cut with an ellipsis, by `fit`.
    """
    floor = min(floor, size)
    wide = text_width(text, size, bold)
    if wide <= width:
        return [text], size
    # a text's width grows about as its size: sizes that cannot help are not measured
    if wide * SHRINK <= width * 1.05:
        for smaller in range(size - 1, max(floor, int(size * SHRINK)) - 1, -1):
            if text_width(text, smaller, bold) <= width:
                return [text], smaller
    if max_lines < 2 or wide * floor / size > width * max_lines * 0.9:
        return [fit(text, width, floor, bold)], floor
    words = text.split()
    for smaller in range(size, floor - 1, -1):
        lines = _words_wrapped(words, width, smaller, bold)
        if lines is not None and len(lines) <= max_lines:
            return lines, smaller
    for smaller in range(size, floor - 1, -1):  # a word wider than the line: broken between letters
        lines = _broken(text, width, smaller, bold)
        if len(lines) <= max_lines:
            return lines, smaller
    return [fit(text, width, floor, bold)], floor


def line_height(size: int) -> int:
    """The distance between two lines of a text at `size`."""
    return round(size * 1.22)
