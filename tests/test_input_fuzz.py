"""Whatever a member types or a control sends: a refusal with a clear message, or a valid action; never an exception.

The parsers behind every slash-command text option are fed arbitrary text
(unicode, signs, fractions, other scripts' digits, thousands of digits), and
so are the control handlers, with forged menu values and custom-id arguments,
against a real game service.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from helpers.service_support import play as play_on
from helpers.service_support import started_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cogs.mod_options import seat_of
from bot.present.misread import Span
from bot.service import GameService, ServiceError
from bot.table.controls import HANDLERS, Request
from bot.table.parsing import (
    MAX_TEXT,
    CardTextError,
    DurationError,
    find_routes,
    parse_cards,
    parse_draw,
    parse_keep_numbers,
    parse_reminders,
    read_duration,
)
from bot.table.play import Play
from bot.views.ids import Action
from bot.views.pay_codes import parse_pay_code
from bot.views.replies import Refusal
from maps import load_board

USA = load_board("usa")
SF = load_board("san_francisco")

ODD = [
    "",
    " ",
    "-1 red",
    "+2 red",
    "1.5 red",
    "0x2 red",
    "²",
    "2² red",
    "٣ red",
    "1e3 red",
    "−1 red",
    "nan",
    "inf",
    "1_0",
    "0",
    "00",
    "9" * 309,
    "9" * 309 + "h",
    "1" * 4301,
    "1" * 4301 + " red",
    "<@123>",
    "@everyone",
    "ttr:draw:1:1",
    "red" * 1000,
]
DIGITS = st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=20)
HUGE = st.integers(300, 5000).map(lambda n: "9" * n)
TEXT = st.one_of(
    st.sampled_from(ODD),
    st.text(),
    st.text(st.characters(codec="ascii"), max_size=30),
    DIGITS,
    HUGE,
    st.tuples(st.sampled_from(["", "-", "+", "1.", "0x"]), DIGITS, st.sampled_from(["", " red", "h", "%"])).map(
        "".join
    ),
)


@contextmanager
def refused_or_read(*kinds: type[Exception]) -> Iterator[None]:
    """The text was read, or refused with a message that is short and says something."""
    try:
        yield
    except (Refusal, *kinds) as exc:
        message = str(exc)
        assert message and len(message) <= 2000, message


@pytest.mark.parametrize(
    "text", ["-1 red", "+2 red", "1.5 red", "0x2 red", "²", "٣ red", "1e3 red", "−1 red", "12345 red"]
)
def test_an_odd_count_of_cards_is_refused_not_read_as_another(text: str) -> None:
    with pytest.raises(CardTextError, match="is not a count of cards: write a whole number") as caught:
        parse_cards(USA.rules, text)
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("text", ["9" * 309 + "h", "²", "1" * 4301 + "d", "٣h", "1e3h", "-1h", "x" * 5000])
def test_an_odd_duration_is_refused(text: str) -> None:
    with pytest.raises(Refusal) as caught:
        read_duration(text, Span.TURN_TIME)
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("text", ["nan", "inf", "1e3", "1_0", "٥٠%", "²", "9" * 5000])
def test_odd_reminders_are_refused(text: str) -> None:
    with pytest.raises(DurationError):
        parse_reminders(text)


@pytest.mark.parametrize("text", ["²", "٣", "1" * 4301, "9" * 309, "x" * (MAX_TEXT + 1)])
def test_odd_route_names_and_ticket_numbers_are_refused(text: str) -> None:
    with pytest.raises(Refusal):
        find_routes(USA, text)
    with pytest.raises(Refusal):
        parse_keep_numbers(text, [(1, "a"), (2, "b"), (3, "c")], 1)
    with pytest.raises(Refusal):
        parse_pay_code(text)


def test_plain_numbers_still_work() -> None:
    assert dict(parse_cards(USA.rules, "2x red + 1 wild")) == {"red": 2, "locomotive": 1}
    assert parse_keep_numbers("1, 3", [(7, "a"), (8, "b"), (9, "c")], 1) == [7, 9]
    assert read_duration("1.5h", Span.TURN_TIME) == 5400
    assert parse_reminders(".5 90%") == [0.5, 0.9]


@given(TEXT)
def test_every_typed_text_is_read_or_refused(text: str) -> None:
    for board in (USA, SF):
        with refused_or_read(CardTextError):
            cards = parse_cards(board.rules, text)
            assert all(isinstance(n, int) and n >= 1 for n in cards.values())
        assert parse_draw(board.rules, text) in (None, "deck", *board.rules.colors, "locomotive")
        with refused_or_read():
            assert find_routes(board, text)
    with refused_or_read():
        kept = parse_keep_numbers(text, [(5, "a"), (6, "b"), (7, "c")], 1)
        assert set(kept) <= {5, 6, 7}
    for span in Span:
        with refused_or_read():
            seconds = read_duration(text, span)
            assert seconds is None or seconds > 0
    with refused_or_read(DurationError):
        assert all(0 < f < 1 for f in parse_reminders(text))
    with refused_or_read():
        parse_pay_code(text)


# ----- the control handlers, against a real service -------------------------------------------


@dataclass
class User:
    id: int


@dataclass
class Sent:
    id: int


@dataclass
class Followup:
    """The interaction's webhook: a private answer sent (`wait=True` gives the message), an older panel edited."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    edited: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    async def send(self, **kwargs: Any) -> Sent:
        self.sent.append(kwargs)
        return Sent(len(self.sent))

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        self.edited.append((message_id, kwargs))


@dataclass
class Response:
    # deferred as a command or a tap on a public message is: the answers are followups
    type: discord.InteractionResponseType = discord.InteractionResponseType.deferred_channel_message

    def is_done(self) -> bool:
        return True


class Client:
    """The bot: each example has its own, so that no member's private panel is kept from one example to the next."""


@dataclass
class FakeInteraction:
    """What the handlers use of an interaction: who, through which bot, and where the private answers go."""

    user: User
    client: Client
    response: Response = field(default_factory=Response)
    followup: Followup = field(default_factory=Followup)


class QuietDelivery:
    """The channel's side of a move is not what is tested here."""

    async def deliver(self, *args: Any, **kwargs: Any) -> None:
        return None


# what the bot's own controls send, so that some requests are valid moves
FAIR = st.sampled_from(["deck", "red", "locomotive", "0", "1", "2", "5", "giveup", "red1", "locomotive2", "red2"])
ARGS = st.lists(st.one_of(TEXT, FAIR), max_size=3).map(tuple)
# the actions a member's input reaches (the hand and the panels take none, and draw images)
FUZZED = [a for a in HANDLERS if a not in (Action.HAND, Action.SETUP, Action.PLACE)]


@pytest.mark.parametrize("map_name", ["usa", "san_francisco"])
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_every_control_value_is_acted_on_or_refused(service: GameService, map_name: str, data: Any) -> None:
    service.core.rng.seed(data.draw(st.integers(0, 2**32 - 1)))  # the deal: the same again when replayed
    game_id, users = await started_game(service, map_name, players=2)
    await play_on(service, game_id, data.draw(st.integers(0, 8)), random.Random(data.draw(st.integers(0, 99))))
    front, client = Play(service, QuietDelivery()), Client()  # type: ignore[arg-type]
    for _ in range(4):
        info = await service.core.game(game_id)
        action = data.draw(st.sampled_from(FUZZED))
        version = data.draw(st.one_of(st.none(), st.just(info.version), st.integers(-(2**70), 2**70)))
        if action is Action.SYMBOL and version is None:
            version = info.version  # a menu choice always carries its version
        request = Request(action, version, data.draw(ARGS), data.draw(ARGS))
        interaction = FakeInteraction(User(data.draw(st.sampled_from(users))), client)
        try:
            await HANDLERS[action](front, interaction, info, request)  # type: ignore[arg-type]
        except (Refusal, ServiceError) as exc:
            assert str(exc) or isinstance(exc, ServiceError)


async def test_moderators_name_players_or_are_refused(service: GameService) -> None:
    game_id, _ = await started_game(service, "usa", players=2)
    info = await service.core.game(game_id)
    for text in ODD:
        try:
            assert seat_of(info, text) in (0, 1)
        except Refusal as exc:
            assert len(str(exc)) < 500
