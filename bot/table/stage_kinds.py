"""The kinds under which stage messages are recorded: a stage ("setup", "place:3", "turn:5", "final") and, when it
was posted again (after an undo, a replacement, a resume), its generation: "turn:5#2"."""

from __future__ import annotations


def stage_base(kind: str) -> str:
    """The stage of a stored message kind, without its generation: "turn:5#2" -> "turn:5"."""
    return kind.partition("#")[0]


def stage_generation(kind: str) -> int:
    _, sep, number = kind.partition("#")
    return int(number) if sep and number.isdigit() else 0


def generation_key(base: str, generation: int) -> str:
    return base if generation == 0 else f"{base}#{generation}"


def is_stage(kind: str) -> bool:
    """Is a stored message kind a stage of the game (the newest one holds the live buttons)?"""
    base = stage_base(kind)
    return base == "setup" or base == "final" or base.startswith(("place:", "turn:"))
