"""The table: where Discord meets the game service.

Commands and components come here as "this user asked for this in this
channel"; the table finds the game, checks that the user may ask, makes one
service call, answers the user privately with what only they may see and what
they must decide next, and keeps the channel's public message up to date.

The channel always shows one message per stage of the game (the ticket choice
at the start, each tourist-stack placement, each turn, the end), posted with
the bot's token and remembered in the store under the stage's key. `publish`
posts the message of the current stage if it is missing, so calling it after
every action, and once for every game after a restart, is always right.

A moderator's undo can take the game back to a stage whose message was posted
long ago, and a replacement or a resume changes whose buttons count; then the
stage messages start a new *generation* ("turn:5#1"): the current stage is
posted again with buttons of the game's current version, and every stage
after it gets a message of its own again.

`deliver` is the one way every action's result reaches people, whether a
command, a button, a moderator or the clock caused it: the stage message (with
what happened since the last one, autopilot moves included), notes such as a
timeout or a moderator's action, the "your turn" notes with the catch-up
digest (by DM only: they name the player's tickets), and the lines for the
moderators' log channel.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import weakref
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.notify import Notifier
from bot.present.cards import CardTextError, parse_cards, parse_draw, parse_pay_code, pay_code
from bot.present.clock import timestamp
from bot.present.digest import digest_lines
from bot.present.events import private_text, public_text
from bot.present.image_words import IMAGE_WORDS
from bot.present.layout import chunks, clip, clip_head
from bot.present.lobby import lobby_text
from bot.present.moderation import mod_line
from bot.present.recap import recap_lines
from bot.present.seats import seat_labels
from bot.present.stage import breakdown_lines, final_content, must_text, place_content, setup_content, turn_content
from bot.present.status import hand_text, offered_text
from bot.present.words import card_name, plural
from bot.replies import Refusal, current_game, guarded, private
from bot.service import (
    ActionResult,
    ClockSettings,
    GameInfo,
    GameService,
    NotYourTurn,
    PrivateEvent,
    Stage,
    StaleVersion,
    TurnNotice,
)
from bot.service.history import stage_key
from bot.service.scores import final_scores
from bot.service.views import TableView
from bot.store import ACTIVE, GameStatus
from bot.views import panels
from bot.views.ids import ComponentId
from engine import Game, Phase
from maps import WILD, Board, Route, load_board
from render import RenderedImage, render_board, render_final, render_private

log = logging.getLogger(__name__)

OUT_OF_DATE = "This message is out of date, so nothing was done. Use the latest one"
NOT_STARTED = "The game has not started yet: the host starts it with `/ttr start`."
# Seconds to wait before posting a channel message again after Discord failed.
RETRY_DELAYS = (15.0, 60.0, 300.0, 900.0)
# Announcements the acting player is told in other words by their private events or the next panel.
_SAID_PRIVATELY = {"draw_deck", "draw_tickets", "keep", "final_scores", "game_over", "setup_done", "place_stacks"}
# Public events that are not moves (the recap of the next stage message tells the moves): told at the top
# of the next stage message, or in a message of their own if no stage message follows.
NOTES = frozenset({"timeout", "paused", "resumed", "extended", "replaced", "autopilot", "undone", "ended", "cancelled"})
# Private events a member who is not acting gets by DM (a moderator gave or took their seat).
_SEAT_NEWS = frozenset({"seat_given", "seat_taken"})
REMINDER = "reminder"  # the kind of a reminder posted in the channel for a member who refuses DMs
CLOCK_MARKS = ("\N{ALARM CLOCK}", "\N{DOUBLE VERTICAL BAR}", "\N{HOURGLASS}")  # the clock line of a stage message


@dataclass(frozen=True)
class Material:
    """A stage message, prepared off the event loop."""

    content: str
    image: RenderedImage | None
    filename: str
    extra: tuple[str, ...] = ()  # further messages (the score breakdown)


def stage_base(kind: str) -> str:
    """The stage of a stored message kind, without its generation: "turn:5#2" -> "turn:5"."""
    return kind.partition("#")[0]


def stage_generation(kind: str) -> int:
    _, sep, number = kind.partition("#")
    return int(number) if sep and number.isdigit() else 0


def generation_key(base: str, generation: int) -> str:
    return base if generation == 0 else f"{base}#{generation}"


def is_stage(kind: str) -> bool:
    """Is a stored message kind a stage of the game (the newest one holds the live buttons)?"""
    base = stage_base(kind)
    return base == "setup" or base == "final" or base.startswith(("place:", "turn:"))


def message_url(info: GameInfo, message_id: int | None) -> str:
    """A link to a message of the game's channel (to the channel itself without a message)."""
    base = f"https://discord.com/channels/{info.guild_id}/{info.channel_id}"
    return base if message_id is None else f"{base}/{message_id}"


def start_text(info: GameInfo, game: Game) -> str:
    return f"**The {info.title} game #{info.id} starts!** Seat order: {', '.join(game.names)}."


def image_file(image: RenderedImage, filename: str) -> discord.File:
    return discord.File(io.BytesIO(image.png), filename=filename, description=image.alt_text[:1024])


def _prepare(
    info: GameInfo,
    game: Game,
    table: TableView,
    key: str,
    lead: Sequence[str] = (),
    shown: Collection[str] = (),
    history: Sequence[Stage] = (),
    clock: str = "",
) -> Material:
    """The content and image of a stage message (CPU work: runs in a worker thread).

    `lead`: notes told first; `shown`: the stages that have a message already
    (the recap tells everything since the newest of them); `history`: the
    game's stages (`GameService.history`); `clock`: the clock's line.
    """
    recap = recap_lines(info, history, shown) if game.moves and key != "setup" else []
    head = "\n".join([*lead, *recap])
    labels = seat_labels(info)
    if key == "setup":
        return Material(setup_content(info, table, start_text(info, game), head, clock), None, "")
    if key == "final":
        scores = final_scores(info, game)
        extra = chunks(breakdown_lines(game.board, scores))
        content = final_content(info, head, scores, early=not game.finished)
        return Material(content, render_final(game, ended=True, words=IMAGE_WORDS), "final.png", tuple(extra))
    if key.startswith("place:"):
        return Material(
            place_content(info, table, head, clock), render_board(game, labels, words=IMAGE_WORDS), "board.png"
        )
    return Material(turn_content(info, table, head, clock), render_board(game, labels, words=IMAGE_WORDS), "board.png")


def find_routes(board: Board, text: str) -> list[Route]:
    """The routes a player's text names: a route id (what the autocomplete sends) or "A - B (colour, ...)"."""
    text = " ".join(text.split())
    if text.isdigit():
        index = int(text)
        if 0 <= index < len(board.routes):
            return [board.routes[index]]
        raise Refusal(f"There is no route number {index}. Pick a route from the list `/ttr claim` offers.")
    match = re.fullmatch(r"(.*?)\s*(?:\(([^)]*)\)?)?", text)
    assert match is not None
    main, extra = match.group(1), match.group(2)
    ends = _split_ends(board, main)
    if ends is None:
        raise Refusal(
            f"I cannot read {text!r} as a route. Pick one from the list, or write it like "
            f'"{board.routes[0].a} - {board.routes[0].b}".'
        )
    a, b = ends
    routes = board.routes_between(a, b)
    if not routes:
        raise Refusal(f"There is no route between {a} and {b}.")
    if extra:
        colour = extra.split(",")[0].strip().lower()
        coloured = [r for r in routes if r.color == colour]
        if coloured:
            routes = coloured
    return routes


def _split_ends(board: Board, text: str) -> tuple[str, str] | None:
    for separator in (" - ", " to ", "-", " – "):
        pieces = text.split(separator)
        for cut in range(1, len(pieces)):
            a = board.find_place(separator.join(pieces[:cut]).strip())
            b = board.find_place(separator.join(pieces[cut:]).strip())
            if a is not None and b is not None:
                return a, b
    return None


def _paid_colour(pay: Mapping[str, int]) -> str:
    colours = [c for c in pay if c != WILD and pay[c] > 0]
    return colours[0] if colours else WILD


class Table:
    def __init__(self, client: discord.Client, service: GameService, notifier: Notifier) -> None:
        self.client = client
        self.service = service
        self.notifier = notifier
        self._publishing: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._retries: set[asyncio.Task[None]] = set()

    # ----- finding the game and the player -------------------------------------------

    async def channel_game(self, interaction: discord.Interaction) -> GameInfo:
        """The active game of the channel the command was used in."""
        channel_id = interaction.channel_id
        info = None if channel_id is None else await self.service.active_game(channel_id)
        if info is None:
            mine = await self.service.games_of_user(interaction.user.id)
            if mine:
                where = ", ".join(f"#{g.id} in <#{g.channel_id}>" for g in mine[:3])
                raise Refusal(f"There is no game in this channel. Your games: {where}; use the commands there.")
            raise Refusal("There is no game in this channel. Open one with `/ttr new`.")
        current_game.set(info.id)
        return info

    async def component_game(self, interaction: discord.Interaction, game_id: int) -> GameInfo:
        current_game.set(game_id)
        info = await self.service.game(game_id)
        if interaction.channel_id != info.channel_id:
            raise Refusal(f"Game #{info.id} is played in <#{info.channel_id}>; act there.")
        return info

    def player(self, info: GameInfo, user_id: int) -> str:
        seat = info.seat_of(user_id)
        if seat is None:
            raise Refusal(
                f"You are not playing in game #{info.id}, so you cannot act in it. "
                "Watch along, or play the next one (`/ttr new`, `/ttr join`)."
            )
        if seat.player is None:
            raise Refusal(NOT_STARTED)
        return seat.player

    async def waiting_text(self, info: GameInfo) -> str:
        waiting = await self.service.waiting(info.id)
        if waiting is None:
            return "The game is over."
        rules = load_board(info.map).rules
        names = ", ".join(waiting.players)
        return f"Now waiting for {names} to {must_text(rules, waiting.must)}."

    # ----- the lobby -----------------------------------------------------------------

    async def announce(self, info: GameInfo, result: ActionResult, *, lobby: bool = True) -> None:
        """A lobby change in the channel (and its moderators' log lines, if it has any)."""
        lines = [public_text(result.game, e) for e in result.public]
        if lobby and result.game.status is GameStatus.LOBBY:
            lines.append(lobby_text(result.game))
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        await channel.send("\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())
        for entry in result.mod_log:
            await self.post_mod_log(info, mod_line(entry))

    async def new(
        self,
        interaction: discord.Interaction,
        map_name: str,
        max_players: int | None,
        trains: int | None,
        *,
        clock: ClockSettings | None = None,
        bots: int = 0,
    ) -> None:
        """Open a game; `clock` None takes the server's default clock, `bots` seats go to autopilot players."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        user = interaction.user
        result = await self.service.create_game(
            interaction.guild_id,
            interaction.channel_id,
            user.id,
            user.display_name,
            map_name,
            max_players,
            trains,
            clock=clock,
            bots=bots,
        )
        current_game.set(result.game.id)
        await self.announce(result.game, result)
        await private(
            interaction,
            f"You opened game #{result.game.id} and hold the first seat. When everyone has joined, `/ttr start`.",
        )

    async def join(self, interaction: discord.Interaction) -> None:
        info = await self.channel_game(interaction)
        result = await self.service.join(info.id, interaction.user.id, interaction.user.display_name)
        await self.announce(info, result)
        await private(interaction, f"You joined game #{info.id}. You will be mentioned when it starts.")

    async def leave(self, interaction: discord.Interaction) -> None:
        info = await self.channel_game(interaction)
        result = await self.service.leave(info.id, interaction.user.id)
        await self.announce(info, result)
        await private(interaction, f"You left game #{info.id}.")

    async def cancel(self, interaction: discord.Interaction) -> None:
        info = await self.channel_game(interaction)
        result = await self.service.cancel(info.id, interaction.user.id)
        await self.announce(info, result, lobby=False)
        await private(interaction, f"Game #{info.id} is cancelled.")

    async def start(self, interaction: discord.Interaction) -> None:
        info = await self.channel_game(interaction)
        result = await self.service.start(info.id, interaction.user.id)
        await self.deliver(result, actor=interaction.user.id, interaction=interaction)
        text, view = await self.panel(result.game, interaction.user.id)
        await private(interaction, f"Game #{info.id} has started. {text}", view=view)

    async def add_bot(self, interaction: discord.Interaction) -> None:
        info = await self.channel_game(interaction)
        result = await self.service.add_bot(info.id, interaction.user.id)
        await self.announce(info, result)
        await private(interaction, f"An autopilot player takes a seat in game #{info.id}.")

    async def remove_bot(self, interaction: discord.Interaction, name: str | None) -> None:
        info = await self.channel_game(interaction)
        bots = [s for s in info.seats if s.bot]
        if not bots:
            raise Refusal(f"Game #{info.id} has no autopilot player to remove.")
        if name is None or not name.strip():
            seat = bots[-1]
        else:
            wanted = " ".join(name.split()).casefold()
            found = [s for s in bots if s.display_name.casefold() == wanted or str(s.user_id) == name.strip()]
            if not found:
                listed = ", ".join(s.display_name for s in bots)
                raise Refusal(f"There is no autopilot player {name!r} in this game; there are: {listed}.")
            seat = found[0]
        result = await self.service.remove_bot(info.id, interaction.user.id, seat.user_id)
        await self.announce(info, result)
        await private(interaction, f"{seat.display_name} left game #{info.id}.")

    # ----- acting --------------------------------------------------------------------

    async def act(
        self, interaction: discord.Interaction, info: GameInfo, move: dict[str, Any], version: int | None
    ) -> None:
        """Make one move for the user, answer them privately, and update the channel."""
        user = interaction.user.id
        self.player(info, user)
        try:
            result = await self.service.act(info.id, user, move, expected_version=version)
        except StaleVersion:
            text, view = await self.panel(await self.service.game(info.id), user)
            await private(
                interaction, f"That was shown before the game moved on, so nothing was done. {text}", view=view
            )
            return
        except NotYourTurn:
            raise Refusal("It is not your turn. " + await self.waiting_text(info)) from None
        said = result.game
        lines = [
            private_text(said, e)
            for e in result.private_for(user)
            if e.kind != "draw_tickets" and e.kind not in _SEAT_NEWS
        ]
        lines += [public_text(said, e) for e in result.public if e.kind not in _SAID_PRIVATELY]
        text, view = await self.panel(result.game, user)
        await private(interaction, clip_head("\n".join([*lines, text]), 2000), view=view)
        await self.deliver(result, actor=user, interaction=interaction)

    async def panel(self, info: GameInfo, user: int) -> tuple[str, discord.ui.View | None]:
        """What this user must decide now, with the components to decide it."""
        if info.status is GameStatus.LOBBY:
            return NOT_STARTED, None
        if not info.status.active:
            return f"Game #{info.id} is {info.status.value}.", None
        view = await self.service.private_view(info.id, user)
        if not view.your_move or view.options is None:
            return await self.waiting_text(info), None
        rules = load_board(info.map).rules
        must, version, options = view.must, view.version, view.options
        if must == "keep":
            setup = info.status is GameStatus.SETUP
            offered, least = view.offered or (), view.keep_minimum or 0
            return (
                offered_text(rules, offered, least),
                panels.ticket_view(info.id, version, rules, offered, least, setup=setup),
            )
        if must == "draw":
            return "Draw your second card:", panels.draw_view(info.id, version, rules, options.card_draws)
        if must == "tunnel":
            table = (await self.service.public_view(info.id)).table
            assert table is not None and table.tunnel is not None
            payments = options.tunnel
            text = f"The tunnel asks for {plural(table.tunnel.surcharge, 'more card')}."
            text += " Pay it or give the tunnel up." if payments else " You cannot pay it: give the tunnel up."
            return text, panels.tunnel_view(info.id, version, rules, payments)
        if must == "place" and options.place is not None:
            symbols, places = options.place.symbols, options.place.places
            if len(symbols) == 1:
                symbol = symbols[0]
                text = f"Where does the {symbol.replace('_', ' ')} stack go?"
                return text, panels.spot_view(info.id, version, symbol, places)
            return "Which tourist stack do you place?", panels.symbol_view(info.id, version, symbols)
        table = (await self.service.public_view(info.id)).table
        assert table is not None
        face_up = list(table.face_up)
        if options.can_pass:
            return "Your turn, but there is nothing you can do: pass.", panels.turn_view(
                info.id, version, rules, face_up, can_pass=True
            )
        text = f"Your turn: {must_text(rules, 'turn')}."
        return text, panels.turn_view(info.id, version, rules, face_up)

    async def draw(self, interaction: discord.Interaction, info: GameInfo, source: str, version: int | None) -> None:
        rules = load_board(info.map).rules
        card = parse_draw(rules, source)
        if card is None:
            player = self.player(info, interaction.user.id)
            game = await self.service.engine_game(info.id)
            choices = ", ".join(card_name(rules, c) for c in game.card_draws(player)) or "nothing"
            raise Refusal(f'{source!r} is not a card you can draw. Choose "deck" or a face-up card: {choices}.')
        await self.act(interaction, info, {"draw": card}, version)

    async def draw_tickets(self, interaction: discord.Interaction, info: GameInfo, version: int | None) -> None:
        self.player(info, interaction.user.id)  # refuses before the game starts
        view = await self.service.private_view(info.id, interaction.user.id)
        if view.your_move and view.must == "keep":  # already offered (or the start): show the choice again
            text, panel = await self.panel(info, interaction.user.id)
            await private(interaction, text, view=panel)
            return
        await self.act(interaction, info, {"draw": "tickets"}, version)

    async def keep(self, interaction: discord.Interaction, info: GameInfo, ids: list[int], version: int | None) -> None:
        board = load_board(info.map)
        refs = [board.tickets[t].ref() for t in ids if 0 <= t < len(board.tickets)]
        # the choice at the start is made by everyone at once: their keeps move the version, so none is checked
        expected = None if info.status is GameStatus.SETUP else version
        await self.act(interaction, info, {"keep": refs}, expected)

    async def keep_numbers(self, interaction: discord.Interaction, info: GameInfo, numbers: str) -> None:
        self.player(info, interaction.user.id)
        if info.status is GameStatus.LOBBY:
            raise Refusal(NOT_STARTED)
        view = await self.service.private_view(info.id, interaction.user.id)
        offered = view.offered
        if not offered:
            raise Refusal("You have no tickets to choose from now. `/ttr tickets` draws some on your turn.")
        picks = re.findall(r"\d+|\S+", numbers)
        listing = "; ".join(f"{i}. {t.label}" for i, t in enumerate(offered, start=1))
        chosen: list[int] = []
        for pick in picks:
            if pick in (",", ";", "and"):
                continue
            if not pick.isdigit() or not 1 <= int(pick) <= len(offered):
                raise Refusal(
                    f'{pick!r} is not one of the numbers 1 to {len(offered)}. Write them like "1 3". '
                    f"The choice: {listing}."
                )
            if offered[int(pick) - 1].id not in chosen:
                chosen.append(offered[int(pick) - 1].id)
        least = view.keep_minimum or 0
        if len(chosen) < least:
            raise Refusal(f'Keep at least {least}: write their numbers like "1 3". The choice: {listing}.')
        await self.keep(interaction, info, chosen, view.version)

    # ----- claiming ------------------------------------------------------------------

    async def claim_text(
        self, interaction: discord.Interaction, info: GameInfo, route_text: str, pay_text: str | None
    ) -> None:
        """`/ttr claim`: a route as typed or picked, an optional payment as typed."""
        player = self.player(info, interaction.user.id)
        board = load_board(info.map)
        routes = find_routes(board, route_text)
        try:
            cards = None if pay_text is None or not pay_text.strip() else parse_cards(board.rules, pay_text)
        except CardTextError as exc:
            raise Refusal(str(exc)) from None
        game = await self.service.engine_game(info.id)
        claimable = {o.route.id for o in game.claim_options(player)}
        route = next((r for r in routes if r.id in claimable), routes[0])
        await self.claim(interaction, info, route, cards, None)

    async def claim(
        self,
        interaction: discord.Interaction,
        info: GameInfo,
        route: Route,
        cards: Counter[str] | None,
        version: int | None,
        souvenir: str | None = None,
    ) -> None:
        user = interaction.user.id
        player = self.player(info, user)
        game = await self.service.engine_game(info.id)
        self._check_turn(game, player)
        shown = version if version is not None else info.version
        rules = game.rules
        option = next((o for o in game.claim_options(player) if o.route.id == route.id), None)
        if cards is None:
            if option is None:
                raise Refusal(self._why_not(game, player, route))
            fewest = min(p[WILD] for p in option.payments)
            cheapest = [p for p in option.payments if p[WILD] == fewest]
            if len({_paid_colour(p) for p in cheapest}) > 1:
                view = panels.payment_view(info.id, shown, rules, route.id, option.payments)
                await private(interaction, f"{route.label()} can be paid in several colours: choose how.", view=view)
                return
            cards = cheapest[0]
        if souvenir is None and option is not None and len(option.souvenirs) == 2:
            ends = [(end, game.state.stacks[end].symbol) for end in option.souvenirs]
            view = panels.souvenir_view(info.id, shown, route.id, pay_code(cards), ends)
            await private(interaction, "Both ends hold a souvenir you do not have yet: choose one.", view=view)
            return
        move: dict[str, Any] = {"claim": [route.a, route.b], "pay": dict(cards)}
        if len(game.board.routes_between(route.a, route.b)) > 1:
            move["route"] = route.color
        if souvenir is not None:
            move["souvenir"] = souvenir
        await self.act(interaction, info, move, version)

    def _check_turn(self, game: Game, player: str) -> None:
        to_move = game.to_move()
        if game.state.phase is not Phase.PLAY or to_move is None:
            raise Refusal("Routes can be claimed once the game is under way.")
        if to_move.player != player:
            raise Refusal(f"It is not your turn: {to_move.player} is to move. You will be mentioned when it is yours.")
        if to_move.must != "turn":
            raise Refusal(f"First {must_text(game.rules, to_move.must)}.")

    def _why_not(self, game: Game, player: str, route: Route) -> str:
        seat = game.seat(player)
        p = game.state.players[seat]
        rules = game.rules
        hint = " The `route` list of `/ttr claim` shows only the routes you can claim now."
        status = game.route_status(seat, route)
        if status is not None:
            return f"You cannot claim {route.label()}: {status}.{hint}"
        if route.length > p.trains:
            need = f"it needs {route.length} {rules.piece_name}, you have {p.trains}"
            return f"You cannot claim {route.label()}: {need}.{hint}"
        colour = "cards of one colour" if route.color == "gray" else f"{route.color} cards"
        return (
            f"Your cards cannot pay for {route.label()}: it takes {route.length} {colour} "
            f"({card_name(rules, WILD)}s count as any colour where the map allows).{hint}"
        )

    async def claim_menu(self, interaction: discord.Interaction, info: GameInfo) -> None:
        player = self.player(info, interaction.user.id)
        game = await self.service.engine_game(info.id)
        self._check_turn(game, player)
        options = game.claim_options(player)
        if not options:
            raise Refusal(
                "No route can be claimed with your cards now: draw cards (or tickets) instead. "
                "`/ttr hand` shows your cards."
            )
        current = await self.service.game(info.id)
        view = panels.route_view(info.id, current.version, game.rules, options)
        more = "" if len(options) <= 100 else " More routes are open to you than fit here: `/ttr claim` lists them all."
        await private(interaction, f"You can claim {plural(len(options), 'route')} now.{more}", view=view)

    # ----- looking -------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, info: GameInfo) -> None:
        self.player(info, interaction.user.id)
        if info.status is GameStatus.LOBBY:
            raise Refusal(NOT_STARTED)
        view = await self.service.private_view(info.id, interaction.user.id)
        game = await self.service.engine_game(info.id)
        image = await asyncio.to_thread(render_private, game, view.seat, seat_labels(info), words=IMAGE_WORDS)
        text = hand_text(game.rules, view)
        await private(interaction, text, file=image_file(image, "hand.png"))

    async def show_board(self, interaction: discord.Interaction, info: GameInfo) -> None:
        if info.status is GameStatus.LOBBY:
            await private(interaction, lobby_text(info))
            return
        game = await self.service.engine_game(info.id)
        image = await asyncio.to_thread(render_board, game, seat_labels(info), words=IMAGE_WORDS)
        await private(interaction, f"The board of game #{info.id}:", file=image_file(image, "board.png"))

    # ----- telling everyone what an action did ---------------------------------------

    async def deliver(
        self,
        result: ActionResult,
        *,
        actor: int | None = None,
        lead: Sequence[str] | None = None,
        refresh: bool = False,
        interaction: discord.Interaction | None = None,
    ) -> None:
        """Post what an action did, whoever caused it (a player, a moderator, the clock).

        The stage message if a new stage began (`refresh`: post the current one
        again, as after an undo), with the notes (`lead`, by default the
        result's public events that are not moves) at its top, or the notes on
        their own; the moderators' log lines; the "your turn" notes by DM; the
        seat news of a replacement by DM. `actor` is the member who acted: their
        own answer already says all that, so they get no DM. With `interaction`,
        a failed stage message is reported to that member (it is posted again later).
        """
        info = result.game
        current_game.set(info.id)
        notes = list(lead) if lead is not None else [public_text(info, e) for e in result.public if e.kind in NOTES]
        posted = False
        if info.started and info.status is not GameStatus.CANCELLED:
            posted = await self._publish_safely(
                info.id, lead=notes, refresh=refresh, notices=result.notices, interaction=interaction
            )
        if notes and not posted:
            await self.post_lines(info, notes)
        for entry in result.mod_log:
            await self.post_mod_log(info, mod_line(entry))
        for event in result.private:
            if event.kind in _SEAT_NEWS and event.user_id != actor:
                await self.notifier.dm(event.user_id, self._seat_news(info, event), game_id=info.id)
        await self._send_notices(info, result.notices, skip=actor)

    async def post_lines(self, info: GameInfo, lines: Sequence[str]) -> None:
        """A message of its own in the game's channel; it pings nobody. Failures are logged, not raised."""
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        try:
            for chunk in chunks(lines):
                await channel.send(chunk, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("game #%d: could not post to its channel", info.id, exc_info=True)

    async def post_mod_log(self, info: GameInfo, text: str) -> None:
        """A line for the server's moderators' log channel (guild setting `mod_log_channel_id`), if there is one.

        The lines name members and channels with Discord's mention syntax: they are sent pinging nobody.
        """
        config = await self.service.guild_config(info.guild_id)
        if config.mod_log_channel_id is None:
            log.info("game #%d: no moderators' log channel set; not posted: %s", info.id, text)
            return
        channel = self.client.get_partial_messageable(config.mod_log_channel_id, guild_id=info.guild_id)
        try:
            await channel.send(clip(text), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("game #%d: could not post to the moderators' log channel", info.id, exc_info=True)

    async def remind(self, info: GameInfo, user_id: int, text: str) -> None:
        """A reminder that a member's time runs out: by DM, or where DMs are closed by one line in the game's channel.

        A member who refuses DMs is mentioned in one short message, and that
        message replaces the game's previous reminder (a new stage message
        removes it too), so reminders never pile up in the channel.
        """
        if user_id <= 0:
            return  # the autopilot needs no reminding
        current_game.set(info.id)
        url = message_url(info, await self.latest_stage(info.id))
        if await self.notifier.dm(user_id, f"{text} {url}", game_id=info.id):
            return
        await self._clear_reminders(info)
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        try:
            message = await channel.send(
                clip(f"<@{user_id}> {text}"),
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)]),
            )
        except discord.HTTPException:
            log.warning("game #%d: could not post a reminder for user %d", info.id, user_id, exc_info=True)
            return
        await self.service.store.add_message(info.id, REMINDER, info.channel_id, message.id)

    async def _clear_reminders(self, info: GameInfo) -> None:
        for row in await self.service.store.messages(info.id, REMINDER):
            channel = self.client.get_partial_messageable(row.channel_id, guild_id=info.guild_id)
            try:
                await channel.get_partial_message(row.message_id).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("game #%d: could not delete reminder %d", info.id, row.message_id, exc_info=True)
                continue
            await self.service.store.delete_message(row.message_id)

    async def _send_notices(self, info: GameInfo, notices: Sequence[TurnNotice], *, skip: int | None) -> None:
        """The "your turn" notes with the catch-up digest: by DM only, never in the channel (they name tickets).

        A member who refuses DMs learns it is their turn from the stage message's mention.
        """
        if not notices:
            return
        url = message_url(info, await self.latest_stage(info.id))
        where = f"your {info.title} game #{info.id} in <#{info.channel_id}>"
        for notice in notices:
            if notice.user_id <= 0 or notice.user_id == skip:
                continue
            body = digest_lines(info, notice.digest)
            if notice.deadline is not None:
                body.append(f"Deadline: {timestamp(notice.deadline)} (reserve included).")
            text = clip("\n".join([f"It is your turn in {where}: {url}", *body]))
            await self.notifier.dm(notice.user_id, text, game_id=info.id)

    def _seat_news(self, info: GameInfo, event: PrivateEvent) -> str:
        if event.kind == "seat_given":
            return (
                f"{private_text(info, event)} It is played in <#{info.channel_id}>: `/ttr hand` there shows your "
                "cards and tickets, and the turn message's buttons work for you now."
            )
        return private_text(info, event)

    # ----- the channel's messages ----------------------------------------------------

    async def latest_stage(self, game_id: int) -> int | None:
        rows = [m for m in await self.service.store.messages(game_id) if is_stage(m.kind)]
        return rows[-1].message_id if rows else None

    async def publish(
        self,
        game_id: int,
        *,
        lead: Sequence[str] = (),
        refresh: bool = False,
        notices: Sequence[TurnNotice] | None = None,
    ) -> bool:
        """Post the message of the game's current stage unless it is there already; True if it was posted now.

        `lead`: lines told at its top. `refresh`: post the current stage again
        as a new generation (after an undo, a replacement, a resume), with
        buttons of the game's current version. `notices`: the result's "your
        turn" notes, which the caller sends; without them (after a restart)
        the member to move gets a short DM with the link.
        """
        lock = self._publishing.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._publishing[game_id] = lock
        async with lock:
            info = await self.service.game(game_id)
            if not info.started or info.status is GameStatus.CANCELLED:
                return False
            game = await self.service.engine_game(game_id)
            rows = [m for m in await self.service.store.messages(game_id) if is_stage(m.kind)]
            generation = max((stage_generation(m.kind) for m in rows), default=0)
            if refresh and rows:
                generation += 1
            base = stage_key(game, info.status)
            key = generation_key(base, generation)
            posted = {m.kind: m for m in rows}
            channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            if key in posted:
                if base == "setup":
                    await self._refresh_setup(channel, posted[key].message_id, info, game)
                return False
            shown = {stage_base(m.kind) for m in rows if stage_generation(m.kind) == generation}
            history = await self.service.history(game_id) if game.moves and base != "setup" else ()
            table = (await self.service.public_view(game_id)).table
            assert table is not None
            clock = await self.clock_line(info, game) if base != "final" else ""
            material = await asyncio.to_thread(_prepare, info, game, table, base, lead, shown, history, clock)
            rules = game.rules
            view: discord.ui.View | None
            if base == "setup":
                view = panels.setup_view(game_id, info.version, rules)
            elif base.startswith("place:"):
                view = panels.place_view(game_id, info.version)
            elif base.startswith("turn:"):
                mover = game.to_move()
                stuck = mover is not None and not game.has_action(mover.player)
                view = panels.turn_view(game_id, info.version, rules, list(game.state.piles.face_up), can_pass=stuck)
            else:
                view = None
            kwargs: dict[str, Any] = {"content": material.content}
            if material.image is not None:
                kwargs["file"] = image_file(material.image, material.filename)
            if view is not None:
                kwargs["view"] = view
            message = await channel.send(**kwargs)
            await self.service.store.add_message(game_id, key, info.channel_id, message.id)
            for extra in material.extra:
                more = await channel.send(extra, allowed_mentions=discord.AllowedMentions.none())
                await self.service.store.add_message(game_id, "breakdown", info.channel_id, more.id)
            log.info("game #%d: posted %s (message %d)", game_id, key, message.id)
        await self._clear_reminders(info)
        await self._notify(info, game, base, message.jump_url, notices, first=generation == 0)
        return True

    async def clock_line(self, info: GameInfo, game: Game) -> str:
        """The clock's line of a stage message: the deadline of whoever must act, or that the game is paused."""
        if not info.clock.enabled or not info.status.active:
            return ""
        status = await self.service.clock_status(info.id)
        if status.paused:
            return "\N{DOUBLE VERTICAL BAR} **Paused** by a moderator: no clock runs and no move can be made."
        seats = [s for s in status.seats if s.waiting and not s.autopilot]
        if any(s.waiting_for_moderator for s in seats):
            return "\N{HOURGLASS} Time ran out: the game waits for a moderator (the move can still be made)."
        deadlines = [s.deadline for s in seats if s.deadline]
        if not deadlines:
            return ""
        return f"\N{ALARM CLOCK} Deadline {timestamp(min(deadlines))} (reserve included)."

    async def refresh_clock(self, game_id: int) -> None:
        """Bring the clock's line of the current stage message up to date (after a pause, an extension, a timeout)."""
        info = await self.service.game(game_id)
        message_id = await self.latest_stage(game_id)
        if message_id is None or not info.started or not info.status.active:
            return
        game = await self.service.engine_game(game_id)
        line = await self.clock_line(info, game)
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        try:
            message = await channel.fetch_message(message_id)
            lines = [x for x in message.content.split("\n") if not x.startswith(CLOCK_MARKS)]
            if line:
                lines.append(line)
            content = clip("\n".join(lines))
            if content != message.content:
                await message.edit(content=content)
        except discord.HTTPException:
            log.warning("game #%d: could not update the clock of message %d", game_id, message_id, exc_info=True)

    async def _publish_safely(
        self,
        game_id: int,
        *,
        lead: Sequence[str] = (),
        refresh: bool = False,
        notices: Sequence[TurnNotice] | None = None,
        interaction: discord.Interaction | None = None,
    ) -> bool:
        """Publish; if Discord fails, try again later (the game must not stall) and tell the member who acted."""
        try:
            return await self.publish(game_id, lead=lead, refresh=refresh, notices=notices)
        except Exception:
            log.exception("game #%d: could not post the channel message; retrying later", game_id)
            task = asyncio.create_task(self._retry_publish(game_id, refresh), name=f"conductor-republish-{game_id}")
            self._retries.add(task)
            task.add_done_callback(self._retries.discard)
            if interaction is not None:
                await private(
                    interaction,
                    "Your move counts, but I could not post the new turn message in the channel. "
                    "I will try again in a moment; `/ttr status` shows the game meanwhile.",
                )
            return False

    async def _retry_publish(self, game_id: int, refresh: bool = False) -> None:
        current_game.set(game_id)
        for delay in RETRY_DELAYS:
            await asyncio.sleep(delay)
            try:
                await self.publish(game_id, refresh=refresh)
                return
            except Exception:
                log.exception("game #%d: posting the channel message failed again", game_id)

    async def _refresh_setup(
        self, channel: discord.PartialMessageable, message_id: int, info: GameInfo, game: Game
    ) -> None:
        table = (await self.service.public_view(info.id)).table
        assert table is not None
        content = setup_content(info, table, start_text(info, game), clock=await self.clock_line(info, game))
        try:
            await channel.get_partial_message(message_id).edit(content=content)
        except discord.HTTPException:
            log.warning("game #%d: could not update the setup message %d", info.id, message_id, exc_info=True)

    async def _notify(
        self,
        info: GameInfo,
        game: Game,
        key: str,
        url: str,
        notices: Sequence[TurnNotice] | None,
        *,
        first: bool,
    ) -> None:
        """DMs for a new stage message: everyone at the start; the member to move if no "your turn" note tells them."""
        where = f"your {info.title} game #{info.id} in <#{info.channel_id}>"
        if key == "setup":
            if not first:
                return  # posted again: everyone was told at the start
            for seat in info.seats:
                if seat.user_id > 0 and not seat.autopilot:
                    text = f"Choose your starting {game.rules.ticket_name}s in {where}: {url}"
                    await self.notifier.dm(seat.user_id, text, game_id=info.id)
            return
        if key == "final" or notices is not None:
            return
        to_move = game.to_move()
        mover = None if to_move is None else next((s for s in info.seats if s.player == to_move.player), None)
        if mover is not None and mover.user_id > 0 and not mover.autopilot:
            await self.notifier.dm(mover.user_id, f"It is your turn in {where}: {url}", game_id=info.id)

    async def recover(self) -> None:
        """After a start: post any stage message a crash kept from being posted."""
        for row in await self.service.store.games_with_status(ACTIVE - {GameStatus.LOBBY}):
            current_game.set(row.id)
            try:
                await self.publish(row.id)
            except Exception:
                log.exception("game #%d: could not bring its channel message up to date", row.id)

    # ----- components ----------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, cid: ComponentId, values: list[str]) -> None:
        async def work() -> None:
            info = await self.component_game(interaction, cid.game)
            message = interaction.message
            if message is not None and not message.flags.ephemeral:
                latest = await self.latest_stage(info.id)
                if latest != message.id:
                    link = (
                        f": https://discord.com/channels/{info.guild_id}/{info.channel_id}/{latest}" if latest else "."
                    )
                    raise Refusal(OUT_OF_DATE + link)
            handler = getattr(self, f"_on_{cid.action}", None)
            if handler is None:
                raise Refusal("This control is no longer in use. Use the latest turn message or the `/ttr` commands.")
            await handler(interaction, info, cid, values)

        await guarded(interaction, work)

    async def _on_hand(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.show_hand(interaction, info)

    async def _on_setup(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        self.player(info, interaction.user.id)
        text, view = await self.panel(info, interaction.user.id)
        await private(interaction, text, view=view)

    _on_place = _on_setup

    async def _on_draw(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        source = cid.arg(0)
        if source in ("", "none"):
            raise Refusal("There is no card there.")
        await self.act(interaction, info, {"draw": source}, cid.version)

    async def _on_pass(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.act(interaction, info, {"pass": True}, cid.version)

    async def _on_claim(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.claim_menu(interaction, info)

    async def _on_tickets(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.draw_tickets(interaction, info, cid.version)

    async def _on_tunnel(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        choice = cid.arg(0)
        pay = None if choice == "giveup" else dict(parse_pay_code(choice))
        await self.act(interaction, info, {"tunnel": pay}, cid.version)

    async def _on_setupkeep(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.keep(interaction, info, [int(v) for v in values if v.isdigit()], None)

    async def _on_keep(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.keep(interaction, info, [int(v) for v in values if v.isdigit()], cid.version)

    async def _on_route(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        route = find_routes(load_board(info.map), values[0])[0]
        await self.claim(interaction, info, route, None, cid.version)

    async def _on_pay(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        route = find_routes(load_board(info.map), cid.arg(0))[0]
        await self.claim(interaction, info, route, parse_pay_code(values[0]), cid.version)

    async def _on_souvenir(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        route = find_routes(load_board(info.map), cid.arg(0))[0]
        await self.claim(interaction, info, route, parse_pay_code(cid.arg(1)), cid.version, values[0])

    async def _on_symbol(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        self.player(info, interaction.user.id)
        view = await self.service.private_view(info.id, interaction.user.id)
        if not view.your_move or view.must != "place" or view.options is None or view.options.place is None:
            raise Refusal("It is not your turn. " + await self.waiting_text(info))
        places = view.options.place.places
        symbol = values[0]
        text = f"Where does the {symbol.replace('_', ' ')} stack go?"
        await private(interaction, text, view=panels.spot_view(info.id, cid.version, symbol, places))

    async def _on_spot(
        self, interaction: discord.Interaction, info: GameInfo, cid: ComponentId, values: list[str]
    ) -> None:
        await self.act(interaction, info, {"place": {"symbol": cid.arg(0), "at": values[0]}}, cid.version)
