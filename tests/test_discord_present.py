"""The Discord layer's pure parts: reading what players type, custom ids, recaps, clocks and long texts."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.present.cards import format_cards
from bot.present.clock import clock_summary, timestamp
from bot.present.image_words import IMAGE_WORDS
from bot.present.layout import MESSAGE_LIMIT, chunks, clip_head
from bot.present.recap import recap_lines
from bot.present.rules import rules_text
from bot.present.seats import player_label, who
from bot.service import NO_CLOCK, Actor, ClockSettings, GameInfo, SeatInfo
from bot.service.history import stage_key, stages
from bot.store import GameStatus
from bot.table.controls import HANDLERS
from bot.table.parsing import (
    CardTextError,
    DurationError,
    find_routes,
    parse_cards,
    parse_draw,
    parse_duration,
    parse_reminders,
)
from bot.table.stage import generation_key, is_stage, stage_base, stage_generation
from bot.views.ids import BUTTON, BUTTON_TEMPLATE, Action, ComponentId
from bot.views.pay_codes import parse_pay_code, pay_code
from bot.views.replies import Refusal
from engine import Game
from engine.autopilot import choose_move
from maps import load_board
from render import render_board

USA = load_board("usa")
SF = load_board("san_francisco")


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("3 pink 1 locomotive", {"pink": 3, "locomotive": 1}),
        ("3 pink, 1 loco", {"pink": 3, "locomotive": 1}),
        ("2x red + 1 wild", {"red": 2, "locomotive": 1}),
        ("pink 3", {"pink": 3}),
        ("red red", {"red": 2}),
        ("4 Locomotives", {"locomotive": 4}),
        ("3 pink cards and 1 locomotive card", {"pink": 3, "locomotive": 1}),
    ],
)
def test_payments_are_read_as_people_write_them(text: str, cards: dict[str, int]) -> None:
    assert dict(parse_cards(USA.rules, text)) == cards


def test_each_map_names_its_own_wild() -> None:
    assert dict(parse_cards(SF.rules, "2 blue 1 ferry card")) == {"blue": 2, "locomotive": 1}
    assert format_cards(SF.rules, {"blue": 2, "locomotive": 1}) == "2 blue, 1 ferry card"
    assert parse_draw(SF.rules, "Ferry Cards") == "locomotive"
    assert parse_draw(USA.rules, " the  deck ") == "deck"
    assert parse_draw(USA.rules, "purple") is None


@pytest.mark.parametrize(
    ("text", "message"), [("3 pnk", "'pnk' is not a card"), ("3", "not followed by a card"), ("", "No cards")]
)
def test_an_unreadable_payment_says_what_would_work(text: str, message: str) -> None:
    with pytest.raises(CardTextError, match=message) as caught:
        parse_cards(USA.rules, text)
    assert '"3 pink 1 locomotive"' in str(caught.value)


def test_payment_codes_round_trip() -> None:
    assert pay_code({"red": 3, "locomotive": 1}) == "locomotive1+red3"
    assert dict(parse_pay_code("locomotive1+red3")) == {"red": 3, "locomotive": 1}


def test_routes_are_found_by_id_or_by_name() -> None:
    denver_omaha = [r for r in USA.routes if {r.a, r.b} == {"Denver", "Omaha"}]
    assert find_routes(USA, str(denver_omaha[0].id)) == denver_omaha[:1]
    assert find_routes(USA, "denver - omaha") == denver_omaha
    assert find_routes(USA, "Omaha to Denver (pink, 4)") == [r for r in denver_omaha if r.color == "pink"]
    hyphenated = next(r for r in SF.routes if "Haight-Ashbury" in r.ends)
    assert hyphenated in find_routes(SF, f"{hyphenated.a}-{hyphenated.b}")
    with pytest.raises(Refusal, match="cannot read"):
        find_routes(USA, "Atlantis - Denver")
    with pytest.raises(Refusal, match="no route between"):
        find_routes(USA, "Miami - Seattle")


def test_every_action_keeps_its_name_and_has_one_handler() -> None:
    # the names are in the custom ids of messages Discord keeps: the buttons of old messages must keep working
    assert [a.value for a in Action] == [
        "hand",
        "setup",
        "place",
        "draw",
        "pass",
        "claim",
        "tickets",
        "tunnel",
        "setupkeep",
        "keep",
        "route",
        "pay",
        "souvenir",
        "symbol",
        "spot",
        "ticketsok",
        "claimok",
        "paypick",
        "cancel",
        "plan",
    ]
    assert set(HANDLERS) == set(Action)


def test_custom_ids_fit_and_parse_back() -> None:
    cid = ComponentId("souvenir", 2**40, 10**6, ("123", "locomotive2+purple10"))
    text = cid.text(BUTTON)
    assert len(text) <= 100
    match = re.fullmatch(BUTTON_TEMPLATE, text)
    assert match is not None and ComponentId.from_match(match) == cid
    with pytest.raises(ValueError):
        ComponentId("spot", 1, 1, ("has space",)).text(BUTTON)
    with pytest.raises(ValueError):
        ComponentId("x", 1, 1, ("a" * 100,)).text(BUTTON)


def test_stages_split_a_game_into_setup_placements_and_turns() -> None:
    game = Game(SF, ["a", "b"], "seed", trains=5)
    while not game.finished:
        game.apply(choose_move(game, game.waiting_for()[0]))
    info = _info([SeatInfo(10, "a", 0, "a"), SeatInfo(11, "b", 1, "b")])
    told = stages(info, game, [Actor.PLAYER] * len(game.moves))
    keys = [s.key for s in told]
    assert keys[:3] == ["setup", "place:0", "place:1"]
    assert keys[3:] == [f"turn:{n}" for n in range(len(keys) - 3)]
    assert stage_key(game) == "final"
    assert sum(len(m.events) for s in told for m in s.moves) >= len(game.moves)


def test_long_texts_are_split_at_lines_within_discords_limit() -> None:
    lines = [f"line {i} " + "x" * 300 for i in range(30)]
    parts = chunks(lines)
    assert all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert "\n".join(parts).split("\n") == lines
    for name in ("usa", "india", "switzerland", "amsterdam", "san_francisco"):
        assert len(rules_text(load_board(name))) <= MESSAGE_LIMIT


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("12h", 43200), ("2d", 172800), ("30m", 1800), ("1d 12h", 129600), ("1d12h", 129600), ("90 min", 5400)],
)
def test_durations_are_read_as_people_write_them(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


def test_durations_that_make_no_sense_are_refused_with_an_example() -> None:
    assert parse_duration("none") is None and parse_duration(" Off ") is None
    for text in ("soon", "12", "h", "12 parsecs", "400d"):
        with pytest.raises(DurationError, match=r"12h|366 days"):
            parse_duration(text)
    assert parse_reminders("50% 90%") == [0.5, 0.9] == parse_reminders("0.9, 0.5")
    assert parse_reminders("none") == []
    with pytest.raises(DurationError):
        parse_reminders("100%")
    assert timestamp(datetime(2026, 1, 1, tzinfo=UTC)) == "<t:1767225600:R>"
    assert clock_summary(NO_CLOCK) == "no turn clock"
    assert clock_summary(ClockSettings(3600, 0, "wait")) == (
        "1 h per turn, no reserve; when time runs out, the game waits for a moderator"
    )


def _info(seats: list[SeatInfo]) -> GameInfo:
    return GameInfo(1, 2, 3, 10, "usa", GameStatus.PLAYING, 1, 4, None, tuple(seats), datetime(2026, 1, 1, tzinfo=UTC))


def test_autopilot_seats_are_named_and_never_mentioned() -> None:
    info = _info(
        [
            SeatInfo(10, "ann", 0, "ann"),
            SeatInfo(-1, "Autopilot 1", 1, "Autopilot 1", autopilot=True),
            SeatInfo(11, "bob", 2, "bob", autopilot=True),
        ]
    )
    assert who(info, "ann") == "<@10> (ann)"
    assert who(info, "Autopilot 1") == "Autopilot 1" and "<@" not in who(info, "Autopilot 1")
    assert who(info, "bob") == "bob (autopilot)" == player_label(info, "bob")
    game = Game(USA, ["ann", "Autopilot 1", "bob"], "seed", trains=5)
    labels = {0: "ann", 1: "Autopilot 1", 2: "bob (autopilot)"}
    assert "bob (autopilot)" in render_board(game, labels, words=IMAGE_WORDS).alt_text


def test_the_recap_tells_every_stage_since_the_last_message_and_marks_the_autopilot() -> None:
    info = _info([SeatInfo(10, "ann", 0, "ann"), SeatInfo(11, "bob", 1, "bob")])
    game = Game(USA, ["ann", "bob"], "seed", trains=8)
    while game.state.turn < 3:
        game.apply(choose_move(game, game.waiting_for()[0]))
    actors = [Actor.PLAYER] * len(game.moves)
    last_of_turn_1 = max(i for i, s in enumerate(stages(info, game, actors)) if s.key == "turn:1")
    index = stages(info, game, actors)[last_of_turn_1].moves[0].index
    actors[index] = Actor.TIMEOUT
    told = stages(info, game, actors)
    (one,) = recap_lines(info, told, {"turn:2"})
    assert one.startswith("**Last turn:** ann")
    several = recap_lines(info, told, {"turn:1"})
    assert [line.split(":**")[0] for line in several] == ["**Turn 2", "**Turn 3"]
    assert several[0].startswith("**Turn 2:** bob (autopilot, time ran out)")
    # no stage has a message of this generation yet (after an undo): the last stage only
    assert recap_lines(info, told, set()) == [one]
    assert clip_head("abcdef", 4) == "…def"


def test_stage_messages_have_generations() -> None:
    assert generation_key("turn:5", 0) == "turn:5" and generation_key("turn:5", 2) == "turn:5#2"
    assert stage_base("turn:5#2") == "turn:5" and stage_generation("turn:5#2") == 2 and stage_generation("setup") == 0
    assert all(is_stage(k) for k in ("setup", "setup#1", "place:0#3", "turn:7", "final#1"))
    assert not any(is_stage(k) for k in ("breakdown", "reminder", "lobby"))
