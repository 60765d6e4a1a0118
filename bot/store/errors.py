"""What the store refuses, whatever keeps the data."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The store could not do what was asked; the message says why."""


class VersionConflict(StoreError):
    """The game changed since the caller read it (another action came first)."""


class ClockChanged(StoreError):
    """The game's clock in the store is not the one the caller expected (another process changed it)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"the clock of game #{game_id} changed")


class UnknownGame(StoreError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game #{game_id}")


class TimerGone(StoreError):
    """The timer to be claimed is no longer there: it fired already, or the game moved on."""

    def __init__(self, timer_id: int) -> None:
        self.timer_id = timer_id
        super().__init__(f"timer {timer_id} is gone")


class ChannelBusy(StoreError):
    """The channel already has an active game."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        super().__init__(f"channel {channel_id} already has an active game (#{game_id})")


class OpenGamesLimit(StoreError):
    """A new game would pass a limit on open games: the server's (`member` False) or its host's (`member` True).

    Counted inside the transaction that would create the game, so processes opening games together cannot pass it.
    """

    def __init__(self, member: bool, limit: int, game_ids: tuple[int, ...]) -> None:
        self.member = member
        self.limit = limit
        self.game_ids = game_ids
        who = "the host" if member else "the server"
        super().__init__(f"{who} already has {limit} open games")


class UnknownTournament(StoreError):
    """No tournament has this id."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"there is no tournament #{tournament_id}")


class MigrationError(RuntimeError):
    """The schema cannot be brought up to date; the message says why."""


class ForeignDatabase(MigrationError):
    """The database holds tables but no record of Conductor's schema: another program's. Nothing is written to it.

    `tables` names what was found (tables of another PostgreSQL schema as `schema.table`); `revision` is what an
    `alembic_version` table of the other program records, if it has one.
    """

    def __init__(self, tables: tuple[str, ...], revision: str | None = None) -> None:
        self.tables = tables
        self.revision = revision
        shown = ", ".join(tables[:6]) + (f" and {len(tables) - 6} more" if len(tables) > 6 else "")
        recorded = (
            "no record of Conductor's schema"
            if revision is None
            else (f"a schema revision {revision} that is not Conductor's")
        )
        super().__init__(
            f"the database holds another program's tables ({shown}) and {recorded}; nothing was written to it. "
            "Give the bot a database of its own (an empty one is set up at the first start)"
        )


class SchemaMismatch(MigrationError):
    """The database records a revision of Conductor's schema, but its tables are not those the revision makes."""

    def __init__(self, revision: str, problems: tuple[str, ...]) -> None:
        self.revision = revision
        self.problems = problems
        super().__init__(
            f"the database records Conductor's schema revision {revision}, but {'; '.join(problems)}; nothing was "
            "written to it. Restore a backup made by `python -m bot backup`"
        )


class UnknownRevision(MigrationError):
    """The database records a schema revision that is neither in this program's history nor a newer one of it."""

    def __init__(self, recorded: tuple[str, ...], newest: str) -> None:
        self.recorded = recorded
        what = (
            f"the schema revision {recorded[0]}, which is not one of Conductor's"
            if len(recorded) == 1
            else f"{len(recorded)} schema revisions at once ({', '.join(recorded)}), where Conductor's history has one"
        )
        super().__init__(
            f"the database records {what} (this program knows 0001_initial to {newest}, and a newer program's would "
            f"be numbered after it); nothing was written to it. Restore a backup made by `python -m bot backup`"
        )
