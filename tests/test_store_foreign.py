"""A start refuses a database that is not Conductor's to open, on both stores, and writes nothing to it.

As an operator would get it wrong: the bot pointed at another program's SQLite file or PostgreSQL database, at
a Conductor database with a table dropped or a column added, or at one whose recorded revision was overwritten
with text that is no revision. `open_store` raises a typed MigrationError (bot/store/revisions/found.py) and
`python -m bot run` words it in one line and exits 2; the database's tables (and on SQLite its bytes, with
nothing left beside it) are as they were. An empty database is still set up.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from helpers.dumps import blank_postgres, restored_postgres

import bot.runtime.app
from bot.commands.cli import main
from bot.store import Database, ForeignDatabase, MigrationError, SchemaMismatch, UnknownRevision, describe, open_store
from bot.store.revisions import FOLDER, HEAD, config
from bot.store.revisions.found import known
from tools.pg_server import PgServer

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
# another program's tables, with a row each
OTHER_APP = (
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
    "INSERT INTO notes (id, body) VALUES (1, 'keep me')",
    "INSERT INTO users (id, name) VALUES (1, 'ann')",
)


def _sqlite(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
    finally:
        conn.close()


async def _pg(url: str, *statements: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def execute(database: Database, *statements: str) -> None:
    if isinstance(database, Path):
        _sqlite(database, *statements)
    else:
        asyncio.run(_pg(database, *statements))


async def _pg_state(url: str) -> object:
    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch(
            "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind IN ('r', 'p', 'v', 'S') AND n.nspname NOT LIKE 'pg\\_%' "
            "AND n.nspname <> 'information_schema' ORDER BY 1, 2"
        )
        version = None
        if await conn.fetchval("SELECT to_regclass('alembic_version')") is not None:
            version = await conn.fetch("SELECT version_num FROM alembic_version ORDER BY 1")
        return [tuple(t) for t in tables], version and [tuple(v) for v in version]
    finally:
        await conn.close()


def state(database: Database) -> object:
    """Everything a start could have written: on SQLite the file's bytes and what lies beside it, on PostgreSQL
    every table, view and sequence and the recorded revision."""
    if isinstance(database, Path):
        return hashlib.sha256(database.read_bytes()).hexdigest(), sorted(os.listdir(database.parent))
    return asyncio.run(_pg_state(database))


def tables(database: Database) -> list[str]:
    if isinstance(database, Path):
        conn = sqlite3.connect(database)
        try:
            return sorted(str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        finally:
            conn.close()
    found = state(database)
    assert isinstance(found, tuple)
    return sorted(name for schema, name in found[0] if schema == "public")


@pytest.fixture
def empty(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Database:
    """An empty database of the backend: no file yet, or a PostgreSQL database without a table."""
    if backend == "postgres":
        server: PgServer = request.getfixturevalue("pg_server")
        return blank_postgres(server)
    folder = tmp_path / "data"
    folder.mkdir()
    return folder / "conductor.sqlite3"


@pytest.fixture
def foreign(empty: Database) -> Database:
    """A database holding only another program's tables (on PostgreSQL one more in a schema of its own)."""
    if isinstance(empty, Path):
        execute(empty, *OTHER_APP)
    else:
        execute(empty, *OTHER_APP, "CREATE SCHEMA crm", "CREATE TABLE crm.contacts (id integer PRIMARY KEY)")
    return empty


def made(database: Database) -> Database:
    """The database made by this program, closed again."""

    async def run() -> None:
        await (await open_store(database)).close()

    asyncio.run(run())
    if isinstance(database, Path):
        _sqlite(database)  # checkpointed into the one file, so that its bytes say whether anything was written
    return database


def refused(database: Database) -> MigrationError:
    async def run() -> MigrationError:
        with pytest.raises(MigrationError) as caught:
            await open_store(database)
        return caught.value

    return asyncio.run(run())


def started(database: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """`python -m bot run` on the database, in this process: its exit status 2 and its one line, which it returns."""

    def create_bot(settings: object) -> None:
        raise AssertionError("the bot was created on a database it should have refused")

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("CONDUCTOR_DATABASE", str(database))
    monkeypatch.setattr(bot.runtime.app, "create_bot", create_bot)
    assert main(["run"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert lines[0].startswith("error: the bot will not start on the database ")
    return lines[0]


@pytest.fixture(autouse=True)
def _no_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the working copy is read
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "CONDUCTOR_")):
            monkeypatch.delenv(name)


def test_another_programs_database_is_refused_naming_its_tables(foreign: Database) -> None:
    before = state(foreign)
    error = refused(foreign)
    assert isinstance(error, ForeignDatabase)
    expected = ("notes", "users") if isinstance(foreign, Path) else ("crm.contacts", "notes", "users")
    assert error.tables == expected
    assert f"another program's tables ({', '.join(expected)}) and no record of Conductor's schema" in str(error)
    assert "nothing was written" in str(error)
    assert state(foreign) == before  # not a table added, not a byte changed (nor the journal mode)


def test_the_bot_will_not_start_on_another_programs_database(
    foreign: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before, listed = state(foreign), tables(foreign)
    line = started(foreign, monkeypatch, capsys)
    assert "another program's tables (" in line and "notes, users" in line
    assert "Give the bot a database of its own" in line
    assert f"on the database {describe(foreign)}: " in line  # a URL without its password
    assert state(foreign) == before
    assert tables(foreign) == listed


@pytest.mark.parametrize("backend", ["sqlite"])
def test_python_m_bot_run_refuses_it_in_one_line(foreign: Database, tmp_path: Path) -> None:
    before = state(foreign)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CONDUCTOR_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-real-token", "CONDUCTOR_DATABASE": str(foreign)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"error: the bot will not start on the database {foreign}: the database holds another program's" in (
        done.stderr
    )
    assert state(foreign) == before


def test_another_alembic_programs_database_is_foreign_too(empty: Database) -> None:
    execute(
        empty,
        *OTHER_APP,
        "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)",
        "INSERT INTO alembic_version VALUES ('ab12cd34ef56')",
    )
    before = state(empty)
    error = refused(empty)
    assert isinstance(error, ForeignDatabase)
    assert error.revision == "'ab12cd34ef56'"
    assert "(notes, users) and a schema revision 'ab12cd34ef56' that is not Conductor's" in str(error)
    assert state(empty) == before


def test_a_database_at_head_with_a_table_dropped_is_refused_at_start(
    database: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made(database)
    execute(database, "DROP TABLE tournament_messages")
    before = state(database)
    error = refused(database)
    assert isinstance(error, SchemaMismatch)
    assert error.problems == ("its table tournament_messages is missing",)
    assert f"records Conductor's schema revision {HEAD}, but its table tournament_messages is missing" in str(error)
    assert state(database) == before
    line = started(database, monkeypatch, capsys)
    assert "its table tournament_messages is missing" in line
    assert state(database) == before


def test_a_column_added_or_missing_at_head_is_named(database: Database) -> None:
    made(database)
    execute(database, "ALTER TABLE heartbeat ADD COLUMN extra TEXT", "ALTER TABLE member_rates DROP COLUMN moments")
    before = state(database)
    error = refused(database)
    assert isinstance(error, SchemaMismatch)
    assert error.problems == (
        "its table heartbeat has the column extra, which this program does not make",
        "its table member_rates lacks the column moments",
    )
    assert state(database) == before


@pytest.mark.parametrize("garbage", ["from_the_future", "", "x'); DROP TABLE games; --", "0012_never_made"])
def test_a_garbage_revision_is_not_called_newer(database: Database, garbage: str) -> None:
    made(database)
    execute(database, f"UPDATE alembic_version SET version_num = '{garbage.replace(chr(39), chr(39) * 2)}'")
    before = state(database)
    error = refused(database)
    assert isinstance(error, UnknownRevision)
    assert f"records the schema revision {garbage!r}, which is not one of Conductor's" in str(error)
    assert "newer than this program knows" not in str(error)
    assert state(database) == before


def test_several_revisions_at_once_are_named(database: Database) -> None:
    made(database)
    execute(database, "INSERT INTO alembic_version VALUES ('0099_elsewhere')")
    error = refused(database)
    assert isinstance(error, UnknownRevision)
    assert "2 schema revisions at once" in str(error) and "'0099_elsewhere'" in str(error)


def test_a_revision_numbered_after_head_is_a_newer_programs(
    database: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made(database)
    execute(database, "UPDATE alembic_version SET version_num = '0099_from_a_newer_bot'")
    before = state(database)
    error = refused(database)
    assert not isinstance(error, UnknownRevision)
    assert f"revision 0099_from_a_newer_bot is newer than this program knows ({HEAD})" in str(error)
    assert "newer than this program knows" in started(database, monkeypatch, capsys)
    assert state(database) == before


def test_an_empty_database_is_still_set_up(empty: Database) -> None:
    made(empty)
    assert "games" in tables(empty) and "alembic_version" in tables(empty)
    again = tables(empty)
    made(empty)  # a second start finds it at HEAD
    assert tables(empty) == again


def test_an_empty_sqlite_file_is_set_up(tmp_path: Path) -> None:
    path = tmp_path / "conductor.sqlite3"
    path.write_bytes(b"")
    made(path)
    assert "games" in tables(path)


def test_an_older_database_missing_a_table_is_refused_after_its_history_and_left_as_it_was(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The history runs on it in its transaction, then what it left is checked: the check rolls it all back."""
    database: Database
    if backend == "postgres":
        database = restored_postgres(request.getfixturevalue("pg_server"), "main-0016.postgres.sql")
    else:
        database = tmp_path / "conductor.sqlite3"
        conn = sqlite3.connect(database)
        try:
            conn.executescript((FIXTURES / "main-0016.sqlite.sql").read_text(encoding="utf-8"))
        finally:
            conn.close()
    execute(database, "DROP TABLE tournament_messages")
    before = state(database)
    error = refused(database)
    assert isinstance(error, SchemaMismatch)
    assert "brought up to date from 0016_baseline, its table tournament_messages is missing" in str(error)
    assert state(database) == before  # neither member_rates nor alembic_version was kept


def test_the_known_revisions_are_alembics() -> None:
    from alembic.script import ScriptDirectory

    assert known(FOLDER) == {script.revision for script in ScriptDirectory.from_config(config()).walk_revisions()}


def test_a_database_the_bot_cannot_reach_is_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = f"postgresql://nobody:secret@/conductor?host={tmp_path / 'no-server'}"
    line = started(nowhere, monkeypatch, capsys)
    assert "cannot connect to the database" in line and "secret" not in line


@pytest.mark.parametrize("backend", ["postgres"])
def test_migrate_store_and_backup_leave_another_programs_postgres_database_alone(
    foreign: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = made(tmp_path / "source.sqlite3")
    before = state(foreign)
    assert main(["migrate-store", str(source), str(foreign)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"migrate-store failed: TO ({describe(foreign)}): the database holds another program's")
    assert main(["backup", str(tmp_path / "copy.sqlite3"), "--database", str(foreign)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another program's tables" in err and "Traceback" not in err
    assert not (tmp_path / "copy.sqlite3").exists()
    assert state(foreign) == before
