"""What a member is told when Discord failed to carry the answer to their move: that the move counted."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.layout import clip

# A move named by what the member asked for (the table's action names).
_MOVE_NAMES = {
    "draw": "draw",
    "pass": "pass",
    "tickets": "ticket draw",
    "keep": "choice of tickets",
    "setupkeep": "choice of tickets",
    "route": "claim",
    "pay": "claim",
    "souvenir": "claim",
    "tunnel": "tunnel payment",
    "spot": "placement",
}


def move_name(action: str) -> str:
    """ "draw", "claim", ...: what a member's request did, in a word or two."""
    return _MOVE_NAMES.get(action, "move")


def move_counted_text(game_id: int, url: str, said: Sequence[str] = (), panel: str = "") -> str:
    """The answer to a move could not be sent: the move counted (`said`: what it did for the member; `panel`: next)."""
    head = f"Your move in game #{game_id} counted (my first answer did not get through): {url}"
    return clip("\n".join(x for x in [head, *said, panel] if x))


def previous_move_counted_text(action: str, panel: str) -> str:
    """The member asked again for the move whose answer failed: it is not made twice."""
    name = move_name(action)
    return (
        f"Your previous {name} counted (my answer to it did not get through), so I did not make it again. "
        f"If you meant another {name}, ask once more. {panel}"
    )
