"""Each part of the store's interface is served by one part of `bot/store/parts/`, and the store holds one of each.

`parts` below assigns each part of one SqliteStore to a variable of its
Protocol: mypy checks that (the last test runs it on this file), and the
other tests check at run time that every method a Protocol asks for is there,
with its signature, on the part that serves it, and nowhere else (the store
forwards nothing).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mypy import api as mypy_api

from bot.store import (
    GameStore,
    HistoryStore,
    MessageStore,
    NewGame,
    RateStore,
    RatingStore,
    SettingsStore,
    SqliteStore,
    Store,
    TimerStore,
    TournamentStore,
)
from bot.store.parts import Parts
from bot.store.parts.games import Games
from bot.store.parts.history import History
from bot.store.parts.messages import Messages
from bot.store.parts.rates import Rates
from bot.store.parts.ratings import Ratings
from bot.store.parts.settings import Settings
from bot.store.parts.timers import Timers
from bot.store.parts.tournaments import Tournaments

ROOT = Path(__file__).resolve().parents[1]
PARTS: tuple[type[Any], ...] = (
    GameStore,
    HistoryStore,
    TimerStore,
    MessageStore,
    SettingsStore,
    RatingStore,
    TournamentStore,
    RateStore,
)

# Every method of the store's interface: none may go missing when the Protocols change shape.
EVERY_METHOD = {
    "close",
    # GameStore
    "create_game",
    "game",
    "stored_game",
    "active_game",
    "latest_game",
    "games_of_user",
    "games_with_status",
    "open_games",
    "seats",
    "add_seat",
    "remove_seat",
    "set_status",
    "start_game",
    # HistoryStore
    "append_move",
    "moves",
    "snapshot",
    "save_snapshot",
    "clock",
    "apply_change",
    "audit_log",
    "add_audit",
    "undone_moves",
    "put_plan",
    "plans",
    "planned_games",
    "clear_plan",
    # TimerStore
    "add_timer",
    "timers",
    "due_timers",
    "next_timer",
    "delete_timer",
    "delete_timers",
    "timer",
    "postpone_timer",
    # MessageStore
    "add_message",
    "messages",
    "delete_message",
    "games_with_buttons",
    "clear_buttons",
    "dm_refused",
    "set_dm_refused",
    "hold_message",
    "due_held_messages",
    "held_messages",
    "take_held_message",
    "tournament_message",
    "set_tournament_message",
    # SettingsStore
    "guild_settings",
    "set_guild_setting",
    "member_settings",
    "settings_of_members",
    "set_member_setting",
    "command_digest",
    "set_command_digest",
    "alive_at",
    "set_alive_at",
    # RatingStore
    "record_rating",
    "is_rated",
    "ratings_page",
    "ratings_count",
    "rating_rank",
    "member_ratings",
    "member_results",
    "finished_unrated_since_setting",
    # TournamentStore
    "create_tournament",
    "tournament",
    "tournaments_of_guild",
    "recent_tournaments",
    "tournament_data",
    "change_tournament",
    "set_table_channel",
    "set_table_game",
    "table_of_game",
    "record_table_result",
    "tournament_audit",
    # RateStore
    "admit_request",
    "forget_rates",
}

# Which part of the store serves each Protocol: the store's attribute, and the class of `bot/store/parts/` it is.
SERVED_BY: dict[type[Any], tuple[str, type[Any]]] = {
    GameStore: ("games", Games),
    HistoryStore: ("history", History),
    TimerStore: ("timers", Timers),
    MessageStore: ("messages", Messages),
    SettingsStore: ("settings", Settings),
    RatingStore: ("ratings", Ratings),
    TournamentStore: ("tournaments", Tournaments),
    RateStore: ("rates", Rates),
}


def asked(protocol: type[Any]) -> dict[str, Callable[..., Any]]:
    """The methods a store Protocol asks for: its own and those of the Protocols it joins."""
    return {
        name: value
        for cls in protocol.__mro__
        if cls.__module__ == protocol.__module__
        for name, value in vars(cls).items()
        if inspect.isfunction(value) and not name.startswith("_")
    }


def shape(method: Callable[..., Any]) -> tuple[list[tuple[str, Any, Any]], dict[str, Any]]:
    """A method's parameters (name, kind, default) and its resolved type hints."""
    parameters = [(p.name, p.kind, p.default) for p in inspect.signature(method).parameters.values()]
    return parameters, typing.get_type_hints(method)


def parts(
    store: SqliteStore,
) -> tuple[
    Store, GameStore, HistoryStore, TimerStore, MessageStore, SettingsStore, RatingStore, TournamentStore, RateStore
]:
    whole: Store = store
    games: GameStore = store.games
    history: HistoryStore = store.history
    timers: TimerStore = store.timers
    messages: MessageStore = store.messages
    settings: SettingsStore = store.settings
    ratings: RatingStore = store.ratings
    tournaments: TournamentStore = store.tournaments
    rates: RateStore = store.rates
    return whole, games, history, timers, messages, settings, ratings, tournaments, rates


def test_each_method_is_in_one_part_and_the_store_holds_every_part() -> None:
    names = [set(asked(part)) for part in PARTS]
    assert sum(len(n) for n in names) == len(set().union(*names))
    assert set().union(*names) | {"close"} == EVERY_METHOD
    held = {name for name, _ in SERVED_BY.values()}
    assert set(SERVED_BY) == set(PARTS)
    assert set(asked(Store)) == {"close"}  # the parts are properties, not methods
    assert {name for name, value in vars(Store).items() if isinstance(value, property)} == held | {"backend"}


def test_each_part_has_every_method_its_protocol_asks_for_with_its_signature() -> None:
    for protocol, (_, served_by) in SERVED_BY.items():
        for name, wanted in asked(protocol).items():
            found = getattr(served_by, name, None)
            assert found is not None, f"{served_by.__name__} has no {protocol.__name__}.{name}"
            assert inspect.iscoroutinefunction(found), name
            assert shape(found) == shape(wanted), name
    close = SqliteStore.close
    assert inspect.iscoroutinefunction(close)
    assert shape(close) == shape(Store.close)


async def test_the_store_holds_the_parts_and_forwards_nothing(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "held.sqlite3")
    try:
        for attribute, served_by in SERVED_BY.values():
            assert type(getattr(store, attribute)) is served_by, attribute
    finally:
        await store.close()
    forwarded = {name for name in EVERY_METHOD - {"close"} if hasattr(Parts, name) or hasattr(SqliteStore, name)}
    assert forwarded == set()


async def test_one_sqlite_store_serves_through_each_part(tmp_path: Path) -> None:
    whole, games, history, timers, messages, settings, _ratings, _tournaments, rates = parts(
        await SqliteStore.open(tmp_path / "parts.sqlite3")
    )
    try:
        await settings.set_command_digest("global", "abc")
        assert await settings.command_digest("global") == "abc"
        row = await games.create_game(NewGame(guild_id=1, channel_id=2, host_user_id=3, host_name="ann", map="usa"))
        assert await games.active_game(2) == row
        assert await history.moves(row.id) == []
        timer = await timers.add_timer(row.id, "deadline", datetime(2030, 1, 1, tzinfo=UTC))
        assert await timers.next_timer() == timer
        await messages.add_message(row.id, "stage", 2, 99)
        assert [m.message_id for m in await messages.messages(row.id)] == [99]
        assert await rates.admit_request(3, 1000.0, 1, 10.0) is None
        assert await rates.admit_request(3, 1004.0, 1, 10.0) == 6.0
    finally:
        await whole.close()


def test_mypy_accepts_sqlite_store_as_each_part() -> None:
    out, err, status = mypy_api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            str(Path(__file__).resolve()),
        ]
    )
    assert status == 0, out + err
