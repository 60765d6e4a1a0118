"""Games anyone can verify, in words: the commitment posted at the start, the seed and chain head at the end."""

from __future__ import annotations

from bot.present.i18n import _
from bot.service.scores import FinalScores


def commitment_text(commitment: str) -> str:
    """The published commitment to the seed and both decks (engine/verify.py)."""
    return _("-# Fair deal: commitment `{commitment}`; the final message tells how to check it.").format(
        commitment=commitment
    )


def verification_text(scores: FinalScores) -> str | None:
    """What proves the game: the chain's head, and the seed (once the end is final: always, since a moderator's
    end with scores is final too)."""
    if scores.head is None:
        return None
    if scores.seed is None:
        return _("-# Chain head `{head}` (the seed stays secret: a moderator may reopen this game).").format(
            head=scores.head
        )
    return _(
        "-# Verify this game: seed `{seed}`, chain head `{head}`; `python -m bot verify RECORD` checks the record "
        "(the `/ttr export`) against them and the commitment posted at the start (SHA-256 of the map, the options, "
        "the seats and their members, the seed and both shuffled decks)."
    ).format(seed=scores.seed, head=scores.head)
