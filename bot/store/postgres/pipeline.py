"""Many units of work at once on one PostgreSQL connection: their statements in lockstep, pipelined.

Each unit of work (`query.Work`) yields one statement at a time and waits for
its answer. Run one after the other, a group of 50 actions costs some 500
round trips to the server. Here every work of the group is advanced together:
a round takes the next statement of each work, and the statements of one
kind (the same `Q`, answered the same way) go to the server as one
pipelined batch (asyncpg's `fetchmany` / `executemany`: all their Bind and
Execute messages, one Sync, one round trip). A batch's answers are told
apart by a marker: the statement is run with one more column, `$k`, in its
SELECT list or RETURNING clause, `k` being the work's place in the batch, so
the rows of each work are the rows carrying its number (and an UPDATE,
DELETE or INSERT changed as many rows as came back with it).

Works run in lockstep must touch rows of their own only (`core` gives this
module only writes of different games, by the key they name): then their
interleaving is as good as any order of them one after another. A work
that raises has its partial writes in the transaction too: the caller rolls
the transaction back and runs the others again without it. If the server
refuses a statement of a batch, the whole transaction is lost and it is not
known whose statement it was: `PipelineBroken`, and the caller runs the works
one after the other instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.postgres.connection import DB_ERRORS, Conn
from bot.store.query import MARKER, ConstraintError, Op, Work, execute_postgres, run_many

Outcome = tuple[bool, Any]  # (True, the work's result) or (False, the exception it raised)


class PipelineBroken(Exception):
    """The server refused a statement of a batch: the transaction is lost; run the works one after the other."""


async def run_lockstep(conn: Conn, works: Sequence[Work[Any]]) -> list[Outcome]:
    """Run `works` to their ends together on `conn` (inside the caller's transaction); each one's outcome."""
    outcomes: list[Outcome | None] = [None] * len(works)
    current: dict[int, Op] = {}

    def advance(i: int, answer: Any, first: bool = False) -> None:
        try:
            current[i] = next(works[i]) if first else works[i].send(answer)
        except StopIteration as stop:
            current.pop(i, None)
            outcomes[i] = (True, stop.value)
        except Exception as exc:
            current.pop(i, None)
            outcomes[i] = (False, exc)

    for i in range(len(works)):
        advance(i, None, first=True)
    while current:
        kinds: dict[tuple[int, str], list[int]] = {}
        for i, op in current.items():
            kinds.setdefault((id(op.q), op.mode), []).append(i)
        answers: list[tuple[int, Any]] = []
        for those in kinds.values():
            try:
                found = await run_batch(conn, [current[i] for i in those])
            except (*DB_ERRORS, ConstraintError) as exc:
                raise PipelineBroken(str(exc)) from exc
            answers.extend(zip(those, found, strict=True))
        for i, answer in answers:
            advance(i, answer)
    assert all(outcome is not None for outcome in outcomes)
    return [outcome for outcome in outcomes if outcome is not None]


async def run_batch(conn: Conn, ops: Sequence[Op]) -> list[Any]:
    """The answers to `ops` (one statement, one mode; each its own parameters), in one round trip when there are
    several."""
    first = ops[0]
    if first.q.only not in (None, "postgresql"):
        return [None] * len(ops)
    if first.mode == "many":
        await run_many(conn, first.q, [p for op in ops for p in op.params])  # type: ignore[misc]
        return [None] * len(ops)
    marked = first.q.marked("postgresql") if len(ops) > 1 else None
    if marked is None:
        return [await execute_postgres(conn, op) for op in ops]
    found = await conn.fetchmany(
        marked.sql,
        [marked.args({**op.params, MARKER: k}) for k, op in enumerate(ops)],  # type: ignore[dict-item]
    )
    mine: list[list[tuple[Any, ...]]] = [[] for _ in ops]
    for row in found:
        mine[row[-1]].append(tuple(row)[:-1])
    if first.mode == "changed":
        return [len(rows) for rows in mine]
    if first.mode == "all":
        return mine
    if first.mode == "scalar":
        return [rows[0][0] if rows else None for rows in mine]
    return [rows[0] if rows else None for rows in mine]
