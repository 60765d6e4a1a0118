"""The payment a claim is made with when the player names none: of the payments the rules allow, those with the
fewest wilds, the first of them (shared by the claim menus, bot/service/choices.py, and planned turns)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from maps import WILD


def fewest_wilds(payments: Sequence[Counter[str]]) -> list[Counter[str]]:
    """The payments with the fewest wilds, in their order."""
    fewest = min(p[WILD] for p in payments)
    return [p for p in payments if p[WILD] == fewest]


def default_payment(payments: Sequence[Counter[str]]) -> Counter[str]:
    """The payment made when the player names none: of those with the fewest wilds, the first."""
    return fewest_wilds(payments)[0]
