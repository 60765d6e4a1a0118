"""What `verify` found (engine/verify.py): each check, the seat changes it checked, what each posted value covers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# what a posted value may cover, in the order verify names them
SETUP_PARTS = ("the map", "the options", "the seats and their members at the start")
DEAL = "the seed and decks"
MOVES = "every move"
CHANGES = "every seat change"
ALL_PARTS = (*SETUP_PARTS, DEAL, MOVES, CHANGES)
OLDER = "an older commitment: it covers the seed and decks only, not the map, options and seats"
OLDER_SETUP = "a commitment of version 2: its chain may cover the moves only, not the seat changes"


@dataclass
class Check:
    """One thing `verify` checked: what, whether it holds, and the detail."""

    what: str
    ok: bool
    detail: str = ""


@dataclass
class Verdict:
    checks: list[Check] = field(default_factory=list)
    commitment: str | None = None
    head: str | None = None
    seat_changes: list[str] = field(default_factory=list)  # the seat changes the chain holds, in words
    notes: list[str] = field(default_factory=list)  # what each posted value covers, where the record ends
    covered: set[str] = field(default_factory=set)  # the parts of the record (ALL_PARTS) a posted value covers

    @property
    def uncovered(self) -> list[str]:
        """The parts of the record that no posted value covers."""
        return [p for p in ALL_PARTS if p not in self.covered]

    def cover(self, by: str, parts: Sequence[str]) -> None:
        """`by` (a posted value, as verify names it) matched, and covers these parts."""
        self.notes.append(f"{by} covers {listed(parts)}")
        self.covered.update(parts)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def summary(self) -> str:
        if not self.ok:
            return "NOT VERIFIED"
        done = "VERIFIED: this record is the game that was committed to"
        if not self.uncovered:
            return done
        return f"{done}, as far as the posted values go: nothing posted covers {listed(self.uncovered)}"

    def add(self, what: str, ok: bool, detail: str = "") -> None:
        self.checks.append(Check(what, ok, detail))


def listed(parts: Sequence[str]) -> str:
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
