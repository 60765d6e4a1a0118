"""The Discord layer's pure parts: reading what players type, custom ids, recaps and long texts."""

from __future__ import annotations

import re

import pytest

from bot.present.cards import CardTextError, format_cards, parse_cards, parse_draw, parse_pay_code, pay_code
from bot.present.recap import stage_key, stages
from bot.present.texts import MESSAGE_LIMIT, chunks, rules_text
from bot.replies import Refusal
from bot.table import find_routes
from bot.views.ids import BUTTON, BUTTON_TEMPLATE, ComponentId
from engine import Game
from engine.autopilot import choose_move
from maps import load_board

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
    hyphenated = [r for r in SF.routes if "Haight-Ashbury" in r.ends][0]
    assert hyphenated in find_routes(SF, f"{hyphenated.a}-{hyphenated.b}")
    with pytest.raises(Refusal, match="cannot read"):
        find_routes(USA, "Atlantis - Denver")
    with pytest.raises(Refusal, match="no route between"):
        find_routes(USA, "Miami - Seattle")


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
    keys = [s.key for s in stages(game)]
    assert keys[:3] == ["setup", "place:0", "place:1"]
    assert keys[3:] == [f"turn:{n}" for n in range(len(keys) - 3)]
    assert stage_key(game) == "final"
    assert sum(len(s.events) for s in stages(game)) >= len(game.moves)


def test_long_texts_are_split_at_lines_within_discords_limit() -> None:
    lines = [f"line {i} " + "x" * 300 for i in range(30)]
    parts = chunks(lines)
    assert all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert "\n".join(parts).split("\n") == lines
    for name in ("usa", "india", "switzerland", "amsterdam", "san_francisco"):
        assert len(rules_text(load_board(name))) <= MESSAGE_LIMIT
