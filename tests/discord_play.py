"""Playing whole games through the Discord front end, as users would: slash commands, buttons and menus.

The autopilot (engine.autopilot) says what a player would sensibly do; the
`Player` turns that into the matching command or click, alternating between
the two ways so that both are used, and prefers the moves that exercise the
rare parts of the interface (tunnels, ferries, souvenirs, the payment menu,
ticket draws). After every step it checks the channel: each public message
is scanned for secrets, and every turn message must carry the board image
with its alt text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord_harness import (
    Room,
    choose,
    click,
    custom_ids,
    message_text,
    panel,
    replies,
    reply_text,
    select_options,
    slash,
)
from simcord import InteractionResult, MemberActor

from bot.present.cards import format_cards
from bot.views.pay_codes import pay_code
from engine import Claim, ClaimOption, DrawCard, DrawTickets, Game, Keep, Move, Pass, Phase, PlaceStack, TunnelPay
from engine.autopilot import choose_move
from maps import GRAY, WILD


@dataclass
class SecretScan:
    """Every public message of a game, checked against what was secret when it appeared."""

    seen: set[tuple[int, str]] = field(default_factory=set)  # (message id, content): an edit is scanned again
    scanned: int = 0

    def check(self, room: Room, game: Game) -> None:
        colours = "|".join(re.escape(c) for c in [*game.rules.colors, WILD, game.rules.wild_name])
        blind = re.compile(rf"\b(drew|draws|drawn|picks?) (a |an |the )?({colours})\b", re.IGNORECASE)
        secret_labels: list[str] = []
        hands: list[str] = []
        if not game.finished:
            for p in game.state.players:
                for t in [*p.tickets, *(p.offered or [])]:
                    secret_labels.append(game.board.tickets[t].label())
                # a payment has at most two kinds of card (and is public), a hand listing may have more
                if sum(1 for n in p.hand.values() if n > 0) >= 3:
                    hands.append(format_cards(game.rules, p.hand))
        for message in room.public_messages():
            if (message.id, message_text(message)) in self.seen:
                continue
            self.seen.add((message.id, message_text(message)))
            self.scanned += 1
            texts = [message_text(message)]
            texts += [a.description or "" for a in message.attachments]
            for embed in message.embeds:
                texts.append(str(embed.to_dict()))
            public = "\n".join(texts)
            for label in secret_labels:
                assert label not in public, f"secret ticket {label!r} in a public message: {public!r}"
            for hand in hands:
                assert hand not in public, f"a secret hand ({hand}) in a public message: {public!r}"
            assert not blind.search(public), f"a blind draw revealed in a public message: {public!r}"
            assert "Your cards" not in public and "You drew" not in public, public


@dataclass
class Player:
    """Drives one game in a room; counts which parts of the interface were used."""

    room: Room
    game_id: int
    used: Counter[str] = field(default_factory=Counter)
    scan: SecretScan = field(default_factory=SecretScan)
    last: dict[int, InteractionResult] = field(default_factory=dict)  # the latest reply each user got
    stage_ids: list[int] = field(default_factory=list)
    ticket_draws: set[str] = field(default_factory=set)
    flip: int = 0

    @property
    def service(self) -> Any:
        return self.room.bot.service

    async def game(self) -> Game:
        game: Game = await self.service.reading.engine_game(self.game_id)
        return game

    async def member(self, player: str) -> MemberActor:
        info = await self.service.core.game(self.game_id)
        user = info.user_of(player)
        assert user is not None
        return self.room.member(user)

    def alternate(self) -> bool:
        self.flip += 1
        return self.flip % 2 == 0

    async def run(self, result: InteractionResult, member: MemberActor) -> InteractionResult:
        """Check an interaction's answer: acknowledged, private, never an apology."""
        assert result.acknowledged, f"{member.name}: the interaction was not answered"
        assert all(m.ephemeral for m in replies(result)), f"a public reply to {member.name}: {reply_text(result)}"
        assert "went wrong" not in reply_text(result), reply_text(result)
        self.last[member.id] = result
        return result

    async def check_channel(self) -> None:
        game = await self.game()
        self.scan.check(self.room, game)
        for message in self.room.public_messages():
            if custom_ids(message) and message.id not in self.stage_ids:
                self.stage_ids.append(message.id)
                assert message.attachments or "choose" in message_text(message).lower(), message_text(message)
                for attachment in message.attachments:
                    assert attachment.description, "an image without alt text"

    # ----- one step ----------------------------------------------------------------

    async def play(self, max_steps: int = 400) -> Game:
        for _ in range(max_steps):
            game = await self.game()
            if game.finished:
                await self.check_channel()
                return game
            await self.step(game)
            await self.check_channel()
        raise AssertionError("the game did not end")

    async def step(self, game: Game) -> None:
        s = game.state
        if s.phase is Phase.SETUP_KEEP:
            for name in game.waiting_for():
                await self.keep_at_start(game, name)
            return
        to_move = game.to_move()
        assert to_move is not None
        member = await self.member(to_move.player)
        if s.phase is Phase.SETUP_PLACE:
            await self.place(game, member, choose_move(game, to_move.player))
            return
        if to_move.must == "turn":
            await self.turn(game, member, to_move.player)
        elif to_move.must == "draw":
            move = choose_move(game, to_move.player)
            assert isinstance(move, DrawCard)
            await self.second_card(member, move.source)
        elif to_move.must == "keep":
            await self.keep_drawn(game, member, to_move.player)
        elif to_move.must == "tunnel":
            await self.tunnel(game, member, to_move.player)
        else:
            raise AssertionError(f"unexpected wait {to_move.must}")

    # ----- setup -------------------------------------------------------------------

    async def keep_at_start(self, game: Game, name: str) -> None:
        member = await self.member(name)
        move = choose_move(game, name)
        assert isinstance(move, Keep)
        keep_ids = [str(t) for t in _kept_ids(game, name, move)]
        if self.alternate():
            result = await self.run(await click(member, self.room.stage_message(), "ttr:setup:"), member)
            menu = panel(result, "ttrs:setupkeep:")
            await self.run(await choose(member, menu, "ttrs:setupkeep:", keep_ids), member)
            self.used["setup menu"] += 1
        else:
            offered = game.player(name).offered or []
            numbers = " ".join(str(offered.index(int(t)) + 1) for t in keep_ids)
            await self.run(await slash(member, self.room, "ttr keep", numbers=numbers), member)
            self.used["setup keep command"] += 1

    async def place(self, game: Game, member: MemberActor, move: Move) -> None:
        assert isinstance(move, PlaceStack)
        result = await self.run(await click(member, self.room.stage_message(), "ttr:place:"), member)
        if any(c.startswith("ttrs:symbol:") for m in replies(result) for c in custom_ids(m)):
            menu = panel(result, "ttrs:symbol:")
            result = await self.run(await choose(member, menu, "ttrs:symbol:", [move.symbol]), member)
            self.used["symbol menu"] += 1
        menu = panel(result, "ttrs:spot:")
        await self.run(await choose(member, menu, "ttrs:spot:", [move.at]), member)
        self.used["placement"] += 1

    # ----- a turn ------------------------------------------------------------------

    async def turn(self, game: Game, member: MemberActor, name: str) -> None:
        options = game.claim_options(name)
        special = _special_claim(game, options)
        if special is not None:
            await self.claim(game, member, name, special[0], special[1])
            return
        if name not in self.ticket_draws and game.can_draw_tickets(name):
            self.ticket_draws.add(name)
            await self.draw_tickets(member)
            return
        move = choose_move(game, name)
        if isinstance(move, DrawCard):
            await self.first_card(game, member, move.source)
        elif isinstance(move, DrawTickets):
            await self.draw_tickets(member)
        elif isinstance(move, Claim):
            route = _route_of(game, name, move)
            option = next(o for o in options if o.route.id == route)
            await self.claim(game, member, name, option, "autopilot")
        elif isinstance(move, Pass):
            await self.run(await click(member, self.room.stage_message(), "ttr:pass:"), member)
            self.used["pass"] += 1
        else:
            raise AssertionError(f"the autopilot chose {move}, which this test does not drive")

    async def first_card(self, game: Game, member: MemberActor, source: str) -> None:
        if self.alternate():
            message = self.room.stage_message()
            prefix = next(c for c in custom_ids(message) if c.startswith("ttr:draw:") and c.split(":")[4] == source)
            await self.run(await member.click(message, custom_id=prefix), member)
            self.used["draw button"] += 1
        else:
            await self.run(await slash(member, self.room, "ttr draw", card=source), member)
            self.used["draw command"] += 1

    async def second_card(self, member: MemberActor, source: str) -> None:
        last = self.last.get(member.id)
        if last is not None and self.alternate():
            menu = panel(last, "ttr:draw:")
            custom = next(c for c in custom_ids(menu) if c.split(":")[4] == source)
            await self.run(await member.click(menu, custom_id=custom), member)
            self.used["second card button"] += 1
        else:
            await self.run(await slash(member, self.room, "ttr draw", card=source), member)
            self.used["second card command"] += 1

    async def draw_tickets(self, member: MemberActor) -> None:
        if self.alternate():
            result = await self.run(await click(member, self.room.stage_message(), "ttr:tickets:"), member)
            self.used["tickets button"] += 1
            if _has(result, "ttr:ticketsok:"):  # confirmations on (the default): nothing drawn until confirmed
                await self.run(await click(member, panel(result, "ttr:ticketsok:"), "ttr:ticketsok:"), member)
                self.used["tickets confirmed"] += 1
        else:
            await self.run(await slash(member, self.room, "ttr tickets"), member)
            self.used["tickets command"] += 1

    async def keep_drawn(self, game: Game, member: MemberActor, name: str) -> None:
        move = choose_move(game, name)
        assert isinstance(move, Keep)
        keep_ids = _kept_ids(game, name, move)
        last = self.last[member.id]
        if self.alternate():
            menu = panel(last, "ttrs:keep:")
            await self.run(await choose(member, menu, "ttrs:keep:", [str(t) for t in keep_ids]), member)
            self.used["keep menu"] += 1
        else:
            offered = game.player(name).offered or []
            numbers = ", ".join(str(offered.index(t) + 1) for t in keep_ids)
            await self.run(await slash(member, self.room, "ttr keep", numbers=numbers), member)
            self.used["keep command"] += 1

    async def tunnel(self, game: Game, member: MemberActor, name: str) -> None:
        move = choose_move(game, name)
        assert isinstance(move, TunnelPay)
        menu = panel(self.last[member.id], "ttr:tunnel:")
        code = "giveup" if move.pay is None else pay_code(dict(move.pay))
        await self.run(
            await member.click(menu, custom_id=next(c for c in custom_ids(menu) if c.endswith(":" + code))), member
        )
        self.used["tunnel given up" if move.pay is None else "tunnel paid"] += 1

    async def claim(self, game: Game, member: MemberActor, name: str, option: ClaimOption, why: str) -> None:
        route = option.route
        self.used[f"claim {why}"] += 1
        if route.tunnel:
            self.used["tunnel claimed"] += 1
        if route.ferries:
            self.used["ferry claimed"] += 1
        if self.alternate():
            result = await self.run(await click(member, self.room.stage_message(), "ttr:claim:"), member)
            menu = panel(result, "ttrs:route:")
            menu_id = next(
                c
                for c in custom_ids(menu)
                if c.startswith("ttrs:route:") and str(route.id) in {o["value"] for o in select_options(menu, c)}
            )
            result = await self.run(await member.select(menu, [str(route.id)], custom_id=menu_id), member)
            self.used["claim menu"] += 1
        else:
            choices = await member.autocomplete(self.room.channel, "ttr claim", "route", route.a[:3])
            offered = {c["value"] for c in choices}
            claimable = {str(o.route.id) for o in game.claim_options(name)}
            assert offered <= claimable, "the autocomplete offered a route that cannot be claimed"
            assert str(route.id) in offered or len(choices) == 25
            result = await self.run(await slash(member, self.room, "ttr claim", route=str(route.id)), member)
            self.used["claim command"] += 1
        if _has(result, "ttrs:paypick:") and self.alternate():  # pay another way, then confirm that
            menu = panel(result, "ttrs:paypick:")
            code = select_options(menu, "ttrs:paypick:")[-1]["value"]
            result = await self.run(await choose(member, menu, "ttrs:paypick:", [code]), member)
            assert f":{code}" in next(
                c for c in custom_ids(panel(result, "ttr:claimok:")) if c.startswith("ttr:claimok:")
            )
            self.used["other payment picked"] += 1
        if _has(result, "ttr:claimok:"):  # confirmations on (the default): the claim waits for Confirm
            result = await self.run(await click(member, panel(result, "ttr:claimok:"), "ttr:claimok:"), member)
            self.used["claim confirmed"] += 1
        if _has(result, "ttrs:pay:"):
            menu = panel(result, "ttrs:pay:")
            code = select_options(menu, "ttrs:pay:")[0]["value"]
            result = await self.run(await choose(member, menu, "ttrs:pay:", [code]), member)
            self.used["payment menu"] += 1
        if _has(result, "ttrs:souvenir:"):
            menu = panel(result, "ttrs:souvenir:")
            end = select_options(menu, "ttrs:souvenir:")[-1]["value"]
            await self.run(await choose(member, menu, "ttrs:souvenir:", [end]), member)
            self.used["souvenir menu"] += 1


def _has(result: InteractionResult, prefix: str) -> bool:
    return any(c.startswith(prefix) for m in replies(result) for c in custom_ids(m))


def _kept_ids(game: Game, name: str, move: Keep) -> list[int]:
    offered = list(game.player(name).offered or [])
    out = []
    for ref in move.tickets:
        key = game.resolve_ticket(ref)
        match = next(t for t in offered if game.board.tickets[t].key == key and t not in out)
        out.append(match)
    return out


def _route_of(game: Game, name: str, move: Claim) -> int:
    candidates = game.board.routes_between(move.a, move.b)
    if move.route is not None:
        candidates = [r for r in candidates if r.color == move.route]
    claimable = {o.route.id for o in game.claim_options(name)}
    return next(r.id for r in candidates if r.id in claimable)


def _special_claim(game: Game, options: list[ClaimOption]) -> tuple[ClaimOption, str] | None:
    """A claim that shows a rare part of the interface, if one is open."""
    for option in options:
        if option.route.tunnel:
            return option, "tunnel"
    for option in options:
        if option.route.ferries:
            return option, "ferry"
    for option in options:
        if len(option.souvenirs) == 2:
            return option, "souvenir"
    for option in options:
        if option.route.color == GRAY:
            fewest = min(p[WILD] for p in option.payments)
            colours = {next((c for c in p if c != WILD), WILD) for p in option.payments if p[WILD] == fewest}
            if len(colours) > 1:
                return option, "several colours"
    return None


async def open_game(
    room: Room,
    map_name: str,
    players: int | None = None,
    trains: int | None = None,
    *,
    words: bool = True,
    heard: Callable[[MemberActor, InteractionResult], None] | None = None,
    **options: Any,
) -> tuple[int, InteractionResult]:
    """The first member opens a game (`/ttr new` with `options`), the next ones join (`players` in all; everyone by
    default), the host starts it; the game id and the start's result.

    `words`: read the answers' English words (off where the members speak other languages: then the service says
    the game started); `heard`: told of each join's and the start's answer, with its member."""
    host = room.members[0]
    asked: dict[str, Any] = {"map": map_name, **options}
    if trains is not None:
        asked["trains"] = trains
    result = await slash(host, room, "ttr new", **asked)
    assert all(m.ephemeral for m in replies(result)), reply_text(result)
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None, reply_text(result)
    for member in room.members[1 : len(room.members) if players is None else players]:
        joined = await slash(member, room, "ttr join")
        if heard is not None:
            heard(member, joined)
        if words:
            assert "joined" in reply_text(joined), reply_text(joined)
    started = await slash(host, room, "ttr start")
    if heard is not None:
        heard(host, started)
    if words:
        assert "has started" in reply_text(started), reply_text(started)
    assert (await room.bot.service.core.game(info.id)).started
    return info.id, started


def stage_messages(room: Room) -> list[discord.Message]:
    return [m for m in room.public_messages() if custom_ids(m)]
