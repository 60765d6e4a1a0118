"""Queries written once, for both backends: SQLAlchemy Core statements compiled once per dialect, and the work that
runs them.

A `Q` is one statement built with SQLAlchemy Core on the tables of `schema.py`,
with named parameters (`bindparam`). It is compiled the first time a backend
runs it and kept, so running it costs no more than the driver's own call: the
SQL text and the order of its parameters are looked up, not built again.
Where the two dialects need different statements (an upsert's ON CONFLICT is
spelled by each dialect's own `insert`, an advisory lock exists on PostgreSQL
only) the builder is given the `Flavor` of the backend; that is the one place
the dialects differ.

A unit of work that runs several statements (a transaction) is written once as
a generator: it yields an `Op` (a statement, its parameters and what is wanted
back: a row, all rows, the count of rows changed...) and receives the answer.
SQLite runs such a generator on its database thread in one go (`run_sync`),
which keeps its group commit; PostgreSQL runs it on a pooled connection,
awaiting each answer (`run_async`). Unique violations of either driver reach
the work as `UniqueViolation`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar, cast

import asyncpg
from sqlalchemy import BindParameter, Delete, Insert, Integer, Select, Table, Update, bindparam, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from bot.store.errors import StoreError

if TYPE_CHECKING:
    from bot.store.postgres.connection import Conn

T = TypeVar("T")
Row = tuple[Any, ...]
DialectName = Literal["sqlite", "postgresql"]
Mode = Literal["one", "all", "changed", "scalar", "many"]


class ConstraintError(StoreError):
    """The database refused a write by one of its rules: a key, a check, a trigger (either backend's driver)."""


class UniqueViolation(ConstraintError):
    """A row would repeat a unique key."""


@dataclass(frozen=True)
class Flavor:
    """What a statement builder may need to know about the backend."""

    name: DialectName
    insert: Callable[[Table], Any]  # the dialect's own INSERT (with its ON CONFLICT)


FLAVORS: dict[DialectName, Flavor] = {
    "sqlite": Flavor("sqlite", sqlite.insert),
    "postgresql": Flavor("postgresql", postgresql.insert),
}
DIALECTS: dict[DialectName, Dialect] = {"sqlite": SQLiteDialect_pysqlite(), "postgresql": PGDialect_asyncpg()}  # type: ignore[no-untyped-call]


@dataclass(frozen=True)
class Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters in the order the SQL text takes them
    defaults: Mapping[str, Any]  # the values SQLAlchemy bound itself (literals in the statement)
    _pick: Callable[[Mapping[str, Any]], Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_pick", itemgetter(*self.names) if len(self.names) > 1 else None)

    def args(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The statement's parameters in its order, from `params` by name (and its own literals)."""
        if self.defaults:
            params = {**self.defaults, **params}
        try:
            if self._pick is not None:
                return cast(tuple[Any, ...], self._pick(params))
            return tuple(params[name] for name in self.names)
        except KeyError as exc:
            raise TypeError(f"the query needs the parameter {exc.args[0]!r}") from None


class Q:
    """One statement (or a builder of it per dialect), compiled once per dialect when first run."""

    __slots__ = ("_build", "_compiled", "_marked", "_rows_of", "_unnested", "only")

    def __init__(
        self,
        build: ClauseElement | Callable[[Flavor], ClauseElement],
        only: DialectName | None = None,
        rows_of: tuple[Table, tuple[str, ...]] | None = None,
    ) -> None:
        self._build = build
        self._compiled: dict[DialectName, Compiled] = {}
        self._marked: dict[DialectName, Compiled | None] = {}
        self._rows_of = rows_of  # a plain INSERT of one row: its table and columns (`insert_rows`)
        self._unnested: Compiled | None = None
        self.only = only  # run on this dialect only; on the other the op is skipped (answers None)

    def compiled(self, dialect: DialectName) -> Compiled:
        found = self._compiled.get(dialect)
        if found is None:
            statement = self._build(FLAVORS[dialect]) if callable(self._build) else self._build
            found = _compiled(statement, dialect)
            self._compiled[dialect] = found
        return found

    def marked(self, dialect: DialectName) -> Compiled | None:
        """The statement with one more column, the parameter `MARKER`, in its SELECT list or RETURNING clause, to
        tell apart the rows of each parameter set run in one batch (bot/store/postgres/pipeline.py); None for a
        statement that cannot take it (a UNION, or one run on the other dialect only)."""
        if dialect in self._marked:
            return self._marked[dialect]
        statement = self._build(FLAVORS[dialect]) if callable(self._build) else self._build
        marker = bindparam(MARKER, type_=Integer)
        found: Compiled | None = None
        if self.only in (None, dialect):
            if isinstance(statement, Select):
                found = _compiled(statement.add_columns(marker), dialect)
            elif isinstance(statement, (Insert, Update, Delete)):
                found = _compiled(statement.returning(marker), dialect)
        self._marked[dialect] = found
        return found

    def unnested(self) -> Compiled | None:
        """PostgreSQL: the rows of many parameter sets of a plain INSERT (`insert_rows`) inserted by one statement,
        `INSERT ... SELECT * FROM unnest($1::type[], ...)`, each parameter an array of one column's values
        (`column_arrays`); one statement for the server to run instead of one per row. None for any other Q."""
        if self._rows_of is None:
            return None
        if self._unnested is None:
            table, names = self._rows_of
            dialect = DIALECTS["postgresql"]
            quote = dialect.identifier_preparer.quote
            arrays = ", ".join(f"${i}::{table.c[n].type.compile(dialect=dialect)}[]" for i, n in enumerate(names, 1))
            columns = ", ".join(quote(n) for n in names)
            sql = f"INSERT INTO {quote(table.name)} ({columns}) SELECT * FROM unnest({arrays})"
            self._unnested = Compiled(sql, names, {})
        return self._unnested


# The parameter a batch's statements carry back with each row (see `Q.marked`)
MARKER = "batch_marker"


def _compiled(statement: ClauseElement, dialect: DialectName) -> Compiled:
    compiled = statement.compile(dialect=DIALECTS[dialect])
    assert isinstance(compiled, SQLCompiler)
    if "POSTCOMPILE" in compiled.string:
        raise TypeError("a query's IN list must be parameters or literal columns, not Python values")
    # a parameter with a value of its own is a literal of the statement; the others must be given
    literals = {name: bind.value for name, bind in compiled.binds.items() if not bind.required}
    return Compiled(compiled.string, tuple(compiled.positiontup or ()), literals)


@dataclass(frozen=True)
class Op:
    """One statement of a unit of work, and what it answers: a row (or None), all rows, the rows changed, the first
    column of the first row, or nothing (`many`: the statement once per parameter set)."""

    q: Q
    mode: Mode
    params: Mapping[str, Any] | Sequence[Mapping[str, Any]]


Work: TypeAlias = Generator[Op, Any, T]


def one(q: Q, **params: Any) -> Op:
    return Op(q, "one", params)


def rows(q: Q, **params: Any) -> Op:
    return Op(q, "all", params)


def changed(q: Q, **params: Any) -> Op:
    return Op(q, "changed", params)


def scalar(q: Q, **params: Any) -> Op:
    return Op(q, "scalar", params)


def many(q: Q, params: Sequence[Mapping[str, Any]]) -> Op:
    return Op(q, "many", params)


UNIQUE_ERRORS = {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"}


def execute_sqlite(conn: sqlite3.Connection, op: Op) -> Any:
    """Run one op on an SQLite connection (on its database thread)."""
    if op.q.only not in (None, "sqlite"):
        return None
    compiled = op.q.compiled("sqlite")
    try:
        if op.mode == "many":
            assert isinstance(op.params, Sequence)
            conn.executemany(compiled.sql, [compiled.args(p) for p in op.params])
            return None
        assert isinstance(op.params, Mapping)
        cur = conn.execute(compiled.sql, compiled.args(op.params))
        if op.mode == "changed":
            return cur.rowcount
        found = cur.fetchall()  # to the end: a statement left running would hold the transaction
        if op.mode == "all":
            return found
        if op.mode == "scalar":
            return found[0][0] if found else None
        return found[0] if found else None
    except sqlite3.IntegrityError as exc:
        if getattr(exc, "sqlite_errorname", None) in UNIQUE_ERRORS:
            raise UniqueViolation(str(exc)) from exc
        raise ConstraintError(str(exc)) from exc


async def execute_postgres(conn: Conn | asyncpg.Pool[asyncpg.Record], op: Op) -> Any:
    """Run one op on a PostgreSQL connection."""
    if op.q.only not in (None, "postgresql"):
        return None
    compiled = op.q.compiled("postgresql")
    try:
        if op.mode == "many":
            assert isinstance(op.params, Sequence)
            await run_many(conn, op.q, op.params)
            return None
        assert isinstance(op.params, Mapping)
        args = compiled.args(op.params)
        if op.mode == "one":
            row = await conn.fetchrow(compiled.sql, *args)
            return None if row is None else tuple(row)
        if op.mode == "all":
            return [tuple(r) for r in await conn.fetch(compiled.sql, *args)]
        if op.mode == "scalar":
            return await conn.fetchval(compiled.sql, *args)
        return count_of(await conn.execute(compiled.sql, *args))
    except asyncpg.UniqueViolationError as exc:
        raise UniqueViolation(str(exc)) from exc
    except (asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError) as exc:
        raise ConstraintError(str(exc)) from exc


def upsert(table: Table, keys: Sequence[str], values: Sequence[str]) -> Q:
    """INSERT of `keys` and `values` (parameters of the same names), or else UPDATE of the `values` of that row."""

    def build(flavor: Flavor) -> ClauseElement:
        insert = flavor.insert(table).values({c: bindparam(c) for c in (*keys, *values)})
        return insert.on_conflict_do_update(  # type: ignore[no-any-return]
            index_elements=list(keys), set_={c: insert.excluded[c] for c in values}
        )

    return Q(build)


def insert_or_ignore(table: Table, names: Sequence[str]) -> Q:
    """INSERT of `names` (parameters of the same names), or nothing if the row would repeat any unique key."""

    def build(flavor: Flavor) -> ClauseElement:
        insert = flavor.insert(table).values({c: bindparam(c) for c in names})
        return insert.on_conflict_do_nothing()  # type: ignore[no-any-return]

    return Q(build)


def insert_rows(table: Table, names: Sequence[str]) -> Q:
    """INSERT of one row of `names` (parameters of the same names); run with many parameter sets (`many`),
    PostgreSQL inserts them with one statement (`Q.unnested`), SQLite one row after the other."""
    return Q(insert(table).values({c: bindparam(c) for c in names}), rows_of=(table, tuple(names)))


def column_arrays(compiled: Compiled, sets: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """The parameter sets of `sets` as one list of values per parameter of `compiled` (for `Q.unnested`)."""
    return [list(values) for values in zip(*(compiled.args(p) for p in sets), strict=True)]


async def run_many(conn: Conn | asyncpg.Pool[asyncpg.Record], q: Q, sets: Sequence[Mapping[str, Any]]) -> None:
    """PostgreSQL: the statement `q` once per parameter set of `sets` (none: nothing), as few statements as can be."""
    unnested = q.unnested() if len(sets) > 1 else None
    if unnested is not None:
        await conn.execute(unnested.sql, *column_arrays(unnested, sets))
    elif sets:
        compiled = q.compiled("postgresql")
        await conn.executemany(compiled.sql, [compiled.args(p) for p in sets])


def param(name: str) -> BindParameter[Any]:
    return bindparam(name)


def count_of(status: str) -> int:
    """The number of rows a statement's status line reports (`UPDATE 1`, `DELETE 0`, `INSERT 0 1`)."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def run_sync(work: Work[T], execute: Callable[[Op], Any]) -> T:
    """Run a unit of work to its end, each op answered by `execute` (SQLite: on the database thread)."""
    try:
        op = next(work)
        while True:
            try:
                answer = execute(op)
            except Exception as exc:
                op = work.throw(exc)
            else:
                op = work.send(answer)
    except StopIteration as stop:
        result: T = stop.value
        return result


async def run_async(work: Work[T], execute: Callable[[Op], Awaitable[Any]]) -> T:
    """Run a unit of work to its end, awaiting each op's answer (PostgreSQL)."""
    try:
        op = next(work)
        while True:
            try:
                answer = await execute(op)
            except Exception as exc:
                op = work.throw(exc)
            else:
                op = work.send(answer)
    except StopIteration as stop:
        result: T = stop.value
        return result
