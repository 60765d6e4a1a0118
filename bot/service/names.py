"""Player names for the engine and the game record, made from Discord display names.

The record needs names that are unique and not empty; display names are
neither, and may hold anything (control characters, 300 emoji, nothing
visible at all). A display name with nothing visible is kept as "" (the
member has no visible name) and its seat plays as "player N". Where no seat
number tells members apart (a tournament's players, standings and export),
such a member is "member" and their id (`known_name`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

MAX_NAME_LENGTH = 32

# letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern)
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(ch: str) -> bool:
    """Whether a character draws something: not a control, format, mark, separator or blank character."""
    return unicodedata.category(ch)[0] not in "CMZ" and ch not in BLANKS


def clean_name(raw: str) -> str:
    """A display name as one tidy line: no control or invisible format characters, spaces collapsed, capped.

    "" if nothing in it is visible (only zero-width spaces, combining marks, blanks).
    """
    kept = "".join(" " if ch.isspace() else ch for ch in raw if unicodedata.category(ch)[0] != "C" or ch.isspace())
    name = " ".join(kept.split())[:MAX_NAME_LENGTH].strip()
    return name if any(visible(ch) for ch in name) else ""


def known_name(display_name: str, user_id: int) -> str:
    """A member's name where no seat number tells members apart: the display name, or "member" and the id when
    nothing in the name is visible, so that two members without a visible name are never shown alike."""
    return display_name if any(visible(ch) for ch in display_name) else f"member {user_id}"


def unique_names(display_names: Sequence[str]) -> list[str]:
    """One name per seat, in the same order; names equal but for case get " (2)", " (3)", ..."""
    cleaned = [clean_name(n) or f"player {i + 1}" for i, n in enumerate(display_names)]
    # every name as written is reserved, so that a suffixed copy never takes
    # the name another player really has
    taken = {n.casefold() for n in cleaned}
    first_seen: set[str] = set()
    out: list[str] = []
    for base in cleaned:
        if base.casefold() not in first_seen:
            first_seen.add(base.casefold())
            out.append(base)
            continue
        k = 2
        while True:
            suffix = f" ({k})"
            name = base[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
            if name.casefold() not in taken:
                break
            k += 1
        taken.add(name.casefold())
        out.append(name)
    return out
