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
    """`text` broken into lines at most `width` pixels wide (a long word gets shortened)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and text_width(candidate, size, bold) > width:
            lines.append(fit(line, width, size, bold))
            line = word
        else:
            line = candidate
    if line:
        lines.append(fit(line, width, size, bold))
    return lines
