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
