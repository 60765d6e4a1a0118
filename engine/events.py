"""What happened in a move, with the public and the secret parts kept apart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    `public` may be shown to everyone; `private` only to `player` (the card
    drawn blind, the tickets offered or kept).
    """

    kind: str
    player: str | None
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)


# A move that passed every check, ready to be carried out: calling it changes
# the game and says what happened.
Action = Callable[[], list[Event]]
