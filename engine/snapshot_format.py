"""What every snapshot shares: its format number, the digest chain over the move log it stands for, its
checksum, and the error a snapshot that cannot be trusted raises."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from engine.moves import Move, move_to_json

FORMAT = 1
EMPTY_DIGEST = hashlib.sha256(b"conductor move log").hexdigest()


class SnapshotError(ValueError):
    """A snapshot that cannot be trusted: damaged, or not made from these moves."""


# one encoder for every call (json.dumps would build one each time); JSON values have no cycles to look for
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False)


def canonical_json(value: Any) -> str:
    """The one text of a JSON value that digests are taken over."""
    return _CANONICAL.encode(value)


def extend_digest(digest: str, move: Move) -> str:
    """The digest of a move log after `move` is appended to a log whose digest is `digest`.

    A chain rather than one hash of the whole log, so that recording a move
    costs the same on move 300 as on move 1.
    """
    return hashlib.sha256(f"{digest}\n{canonical_json(move_to_json(move))}".encode()).hexdigest()


def moves_digest(moves: Iterable[Move]) -> str:
    digest = EMPTY_DIGEST
    for move in moves:
        digest = extend_digest(digest, move)
    return digest


def check_value(body: dict[str, Any]) -> str:
    """The checksum a snapshot carries over the rest of its contents."""
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()
