"""What a member is told when Discord failed to carry the answer to their move: that the move counted."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import N_, _
from bot.present.layout import clip

# A move named by what the member asked for (the table's action names).
_MOVE_NAMES = {
    "draw": N_("draw"),
    "pass": N_("pass"),
    "tickets": N_("ticket draw"),
    "keep": N_("choice of tickets"),
    "setupkeep": N_("choice of tickets"),
    "route": N_("claim"),
    "pay": N_("claim"),
    "souvenir": N_("claim"),
    "tunnel": N_("tunnel payment"),
    "spot": N_("placement"),
}


def move_name(action: str) -> str:
    """ "draw", "claim", ...: what a member's request did, in a word or two."""
    name = _MOVE_NAMES.get(action)
    return _(name) if name else _("move")


def move_counted_text(game_id: int, url: str, said: Sequence[str] = (), panel: str = "") -> str:
    """The answer to a move could not be sent: the move counted (`said`: what it did for the member; `panel`: next)."""
    head = _("Your move in game #{id} counted (my first answer did not get through): {url}").format(id=game_id, url=url)
    return clip("\n".join(x for x in [head, *said, panel] if x))


def previous_move_counted_text(action: str, panel: str) -> str:
    """The member asked again for the move whose answer failed: it is not made twice."""
    name = move_name(action)
    return _(
        "Your previous {move} counted (my answer to it did not get through), so I did not make it again. "
        "If you meant another {move}, ask once more. {panel}"
    ).format(move=name, panel=panel)
