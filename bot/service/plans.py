"""The players' planned turns: set, shown, changed and cleared by the member alone, while it is not their turn.

A plan is private: only its member reads it (`show`), it is never in a record, a log or a view. It is kept in the
store (`HistoryStore.put_plan`), written under the game's lock and only if the game is still as read, and played
by the runner when the member's turn comes (bot/service/plan_turns.py). A server can turn plans off
(`plans` in `/ttr config`), a tournament for its tables (its `plans` setting).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.dealt import dealt_game, seated
from bot.service.errors import IdKind, InvalidInput, NotAllowed, Why, WrongState
from bot.service.plan_eval import DECK, MAX_ITEMS, ItemKind, PlanItem, plan_of, plan_text, suggestion
from bot.service.plan_turns import plans_off
from bot.store import GameStatus, NewPlan
from bot.store.protocols import HistoryStore, SettingsStore, TournamentStore
from engine import Game
from maps import WILD


@dataclass(frozen=True)
class PlanView:
    """A member's plan as they see it: its items in order, and the player they play as."""

    game_id: int
    player: str
    map: str
    items: tuple[PlanItem, ...]


class PlanService:
    def __init__(
        self,
        core: ServiceCore,
        history_store: HistoryStore,
        settings_store: SettingsStore,
        tournament_store: TournamentStore,
    ) -> None:
        self.core = core
        self.history_store = history_store
        self.settings_store = settings_store
        self.tournament_store = tournament_store

    async def show(self, game_id: int, user_id: int) -> PlanView:
        """The member's plan in this game (no items: none set)."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> PlanView:
            live = await self.core.live(game_id)
            if live.game is None:
                raise WrongState(Why.NOT_DEALT)
            _, player, seat = seated(live.info, user_id)
            rows = await self.history_store.plans(game_id)
            items = next((plan_of(r.items) for r in rows if r.seat == seat and r.user_id == user_id), ())
            return PlanView(game_id, player, live.info.map, items)

        return await self.core.locked(game_id, work)

    async def add(self, game_id: int, user_id: int, item: PlanItem) -> PlanView:
        """Add an item at the end of the member's plan; the plan as it is now."""
        return await self._change(game_id, user_id, item, clear=False)

    async def clear(self, game_id: int, user_id: int) -> bool:
        """Clear the member's plan; whether there was one."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> bool:
            live = await self.core.live(game_id)
            if live.game is None:
                raise WrongState(Why.NOT_DEALT)
            _, _, seat = seated(live.info, user_id)
            had = await self.history_store.clear_plan(game_id, seat)
            self.core.known_plans.gone(game_id, (seat,))
            return had

        return await self.core.locked(game_id, work)

    async def set_plan(self, game_id: int, user_id: int, items: Sequence[PlanItem]) -> PlanView:
        """Replace the member's plan with `items` (the autopilot's suggestion taken, a plan written whole)."""
        view = await self._change(game_id, user_id, None, clear=True)
        for item in items:
            view = await self.add(game_id, user_id, item)
        return view

    async def suggest(self, game_id: int, user_id: int) -> PlanView:
        """The strong autopilot's suggestion, as if the member's turn were now and nothing changed before it (only
        what the member may know is read), set as their plan for them to change (bot/service/plan_eval.py)."""
        user_id = check_id(user_id, IdKind.USER)
        dealt = await dealt_game(self.core, game_id)
        _, player, _ = seated(dealt.info, user_id)
        items = await asyncio.to_thread(suggestion, dealt.game, player)
        return await self.set_plan(game_id, user_id, items)

    async def _change(self, game_id: int, user_id: int, item: PlanItem | None, *, clear: bool) -> PlanView:
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> PlanView:
            live = await self.core.live(game_id)
            info, game = live.info, live.game
            if info.status is GameStatus.LOBBY or game is None:
                raise WrongState(Why.NOT_STARTED)
            if not info.status.active:
                raise WrongState(Why.NO_MORE_MOVES, {"status": info.status})
            sitter, player, seat = seated(info, user_id)
            if sitter.autopilot:
                raise NotAllowed(Why.AUTOPILOT_SEAT)
            await self._check_allowed(info.guild_id, game_id)
            if player in game.waiting_for():
                raise WrongState(Why.PLAN_NOW)
            rows = await self.history_store.plans(game_id)
            items = () if clear else next((plan_of(r.items) for r in rows if r.seat == seat), ())
            if item is not None:
                if len(items) >= MAX_ITEMS:
                    raise InvalidInput(Why.PLAN_FULL, {"limit": MAX_ITEMS})
                items = (*items, check_item(game, item))
            plan = NewPlan(seat, user_id, plan_text(items), self.core.now())
            if items:
                await self.history_store.put_plan(game_id, info.version, plan)
            else:
                await self.history_store.clear_plan(game_id, seat)
            others = frozenset(r.seat for r in rows if r.seat != seat)
            self.core.known_plans.learn(game_id, others | {seat} if items else others)  # what the runner asks
            return PlanView(game_id, player, info.map, items)

        return await self.core.act(game_id, work)

    async def _check_allowed(self, guild_id: int, game_id: int) -> None:
        """PLANS_OFF unless the server (and the tournament, for its tables) allows plans."""
        off = await plans_off(self.settings_store, self.tournament_store, guild_id, game_id)
        if off is not None:
            raise NotAllowed(Why.PLANS_OFF, {"tournament": off})


def check_item(game: Game, item: PlanItem) -> PlanItem:
    """The item if it names things of this map (a route, cards); InvalidInput otherwise. Whether it can be played
    is asked when the turn comes, never here."""
    cards = (*game.rules.colors, WILD)
    if item.kind is ItemKind.CLAIM:
        if item.route is None or not 0 <= item.route < len(game.board.routes):
            raise InvalidInput(Why.NO_SUCH_ROUTE, {"route_id": item.route, "map": game.board.name})
        for card, count in item.pay or ():
            if card not in cards or not 0 < count <= 20:
                raise InvalidInput(Why.PLAN_CARD, {"value": card, "map": game.board.name})
    if item.kind is ItemKind.CARDS:
        if item.first not in cards:
            raise InvalidInput(Why.PLAN_CARD, {"value": str(item.first), "map": game.board.name})
        if item.second is not None and item.second not in (*cards, DECK):
            raise InvalidInput(Why.PLAN_CARD, {"value": item.second, "map": game.board.name})
    return item
