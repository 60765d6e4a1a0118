"""The channel messages the bot posted for a game (and each tournament's message), the members who refuse direct
messages, and the direct messages held back to be sent later."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, insert, select, update

from bot.store.columns import (
    GAME_COLUMNS,
    HELD_COLUMNS,
    MESSAGE_COLUMNS,
    game_row,
    held_row,
    message_row,
    now_text,
    time_text,
)
from bot.store.parts.base import Backend
from bot.store.parts.versioned import require_game
from bot.store.query import Q, Work, changed, insert_or_ignore, param, upsert
from bot.store.rows import GameRow, HeldRow, MessageRow
from bot.store.schema import dm_refusals, games, held_messages, messages, tournament_messages

MESSAGE_NAMES = tuple(c.strip() for c in MESSAGE_COLUMNS.split(","))
MESSAGE = tuple(messages.c[c] for c in MESSAGE_NAMES)
GAME = tuple(games.c[c.strip()] for c in GAME_COLUMNS.split(","))
HELD = tuple(held_messages.c[c.strip()] for c in HELD_COLUMNS.split(","))
MESSAGE_ORDER = (messages.c.created_at, messages.c.message_id)

ADD_MESSAGE = insert_or_ignore(messages, MESSAGE_NAMES)
GAME_MESSAGES = Q(select(*MESSAGE).where(messages.c.game_id == param("game_id")).order_by(*MESSAGE_ORDER))
GAME_MESSAGES_OF_KIND = Q(
    select(*MESSAGE)
    .where(messages.c.game_id == param("game_id"), messages.c.kind == param("kind"))
    .order_by(*MESSAGE_ORDER)
)
DELETE_MESSAGE = Q(delete(messages).where(messages.c.message_id == param("message_id")))
GAMES_WITH_BUTTONS = Q(
    select(*GAME).where(games.c.id.in_(select(messages.c.game_id).where(messages.c.buttons == 1))).order_by(games.c.id)
)
CLEAR_BUTTONS = Q(
    update(messages).where(messages.c.message_id == param("message_id"), messages.c.buttons == 1).values(buttons=0)
)
TOURNAMENT_MESSAGE = Q(
    select(tournament_messages.c.channel_id, tournament_messages.c.message_id).where(
        tournament_messages.c.tournament_id == param("tournament_id")
    )
)
PUT_TOURNAMENT_MESSAGE = upsert(tournament_messages, ("tournament_id",), ("channel_id", "message_id"))
DM_REFUSED = Q(select(dm_refusals.c.user_id).where(dm_refusals.c.user_id == param("user_id")))
ADD_DM_REFUSAL = insert_or_ignore(dm_refusals, ("user_id", "refused_at"))
DELETE_DM_REFUSAL = Q(delete(dm_refusals).where(dm_refusals.c.user_id == param("user_id")))
HELD_NAMES = ("user_id", "game_id", "kind", "wait", "text", "due_at", "created_at")
HOLD_MESSAGE = Q(insert(held_messages).values({c: param(c) for c in HELD_NAMES}).returning(held_messages.c.id))
HELD_ORDER = (held_messages.c.due_at, held_messages.c.id)
DUE_HELD = Q(select(*HELD).where(held_messages.c.due_at <= param("now")).order_by(*HELD_ORDER).limit(param("limit")))
HELD_OF_USER = Q(select(*HELD).where(held_messages.c.user_id == param("user_id")).order_by(*HELD_ORDER))
TAKE_HELD = Q(delete(held_messages).where(held_messages.c.id == param("held_id")))


class Messages:
    """`MessageStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def add_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, buttons: bool = False
    ) -> None:
        values = {
            "game_id": game_id,
            "kind": kind,
            "channel_id": channel_id,
            "message_id": message_id,
            "created_at": now_text(),
            "buttons": int(buttons),
        }

        def work() -> Work[None]:
            yield from require_game(game_id)
            yield changed(ADD_MESSAGE, **values)

        await self.backend.do_write(work)

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]:
        if kind is None:
            return [message_row(r) for r in await self.backend.fetch_all(GAME_MESSAGES, game_id=game_id)]
        return [message_row(r) for r in await self.backend.fetch_all(GAME_MESSAGES_OF_KIND, game_id=game_id, kind=kind)]

    async def delete_message(self, message_id: int) -> bool:
        return await self.backend.execute(DELETE_MESSAGE, message_id=message_id) >= 1

    async def games_with_buttons(self) -> list[GameRow]:
        return [game_row(r) for r in await self.backend.fetch_all(GAMES_WITH_BUTTONS)]

    async def clear_buttons(self, message_id: int) -> bool:
        # every key the message is recorded under (the live table is one message under many stage keys)
        return await self.backend.execute(CLEAR_BUTTONS, message_id=message_id) >= 1

    async def tournament_message(self, tournament_id: int) -> tuple[int, int] | None:
        row = await self.backend.fetch_one(TOURNAMENT_MESSAGE, tournament_id=tournament_id)
        return None if row is None else (int(row[0]), int(row[1]))

    async def set_tournament_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        await self.backend.execute(
            PUT_TOURNAMENT_MESSAGE, tournament_id=tournament_id, channel_id=channel_id, message_id=message_id
        )

    async def dm_refused(self, user_id: int) -> bool:
        return await self.backend.fetch_one(DM_REFUSED, user_id=user_id) is not None

    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        if refused:
            await self.backend.execute(ADD_DM_REFUSAL, user_id=user_id, refused_at=now_text())
        else:
            await self.backend.execute(DELETE_DM_REFUSAL, user_id=user_id)

    async def hold_message(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due_at: datetime
    ) -> int:
        row = await self.backend.write_one(
            HOLD_MESSAGE,
            user_id=user_id,
            game_id=game_id,
            kind=kind,
            wait=wait,
            text=text,
            due_at=time_text(due_at),
            created_at=now_text(),
        )
        assert row is not None
        return int(row[0])

    async def due_held_messages(self, now: datetime, limit: int = 100) -> list[HeldRow]:
        return [held_row(r) for r in await self.backend.fetch_all(DUE_HELD, now=time_text(now), limit=limit)]

    async def held_messages(self, user_id: int) -> list[HeldRow]:
        return [held_row(r) for r in await self.backend.fetch_all(HELD_OF_USER, user_id=user_id)]

    async def take_held_message(self, held_id: int) -> bool:
        return await self.backend.execute(TAKE_HELD, held_id=held_id) == 1
