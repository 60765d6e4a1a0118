"""Board data: the five boards have the counts stated in their data files' notes and docs/rules.md
(The boards), and the loader names every fault."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.commands.cli import main
from maps import MAP_NAMES, MapError, check_all, load_board, parse_board
from maps.loader import data_path

# (places, routes, tickets, deck) as stated in each data file's notes and docs/rules.md (The boards)
EXPECTED = {
    "usa": (36, 100, 30, 110),
    "india": (39, 108, 58, 110),
    "switzerland": (51, 88, 46, 110),
    "amsterdam": (20, 42, 24, 44),
    "san_francisco": (24, 51, 24, 44),
}


def raw(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(data_path(name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", MAP_NAMES)
def test_board_sizes_match_reference(name: str) -> None:
    board = load_board(name)
    places, routes, tickets, deck = EXPECTED[name]
    assert (len(board.places), len(board.routes), len(board.tickets), len(board.rules.deck())) == (
        places,
        routes,
        tickets,
        deck,
    )


@pytest.mark.parametrize("name", MAP_NAMES)
def test_every_route_has_one_drawn_space_per_train(name: str) -> None:
    board = load_board(name)
    assert all(len(r.spaces) == r.length for r in board.routes)
    assert all(0 <= s.x <= board.width and 0 <= s.y <= board.height for r in board.routes for s in r.spaces)


def test_aliases_are_kept() -> None:
    usa = load_board("usa")
    assert usa.resolve_place("Montreal") == "Montréal"
    assert usa.resolve_place("St. Louis") == "Saint Louis"
    assert load_board("india").resolve_place("Jorhat") == "Jarhat"
    assert load_board("amsterdam").resolve_place("Dam Square") == "Dam"


def test_switzerland_countries_and_spaces() -> None:
    ch = load_board("switzerland")
    assert {c: len(p) for c, p in ch.countries.items()} == {
        "France": 4,
        "Deutschland": 5,
        "Österreich": 3,
        "Italia": 5,
    }
    assert sum(r.tunnel for r in ch.routes) == 42
    assert sum(r.length for r in ch.routes) == 205


def test_rule_numbers() -> None:
    usa, india, ch = load_board("usa"), load_board("india"), load_board("switzerland")
    ams, sf = load_board("amsterdam"), load_board("san_francisco")
    assert (usa.rules.trains, india.rules.trains, ch.rules.trains, ams.rules.trains, sf.rules.trains) == (
        45,
        45,
        40,
        16,
        20,
    )
    assert (usa.rules.initial_deal, india.rules.initial_deal, ch.rules.initial_deal) == (3, 4, 5)
    assert ch.rules.returned_tickets_removed and not usa.rules.returned_tickets_removed
    assert ams.rules.starting_hand == sf.rules.starting_hand == 2
    assert sf.rules.tourists is not None and sf.rules.tourists.placed == ("lombard_street", "cable_car")
    assert ams.rules.merchandise is not None and ams.rules.merchandise.cards == 16
    assert india.rules.mandala_points(7) == 40 and india.rules.mandala_points(3) == 20


def _problems(name: str, change: Any) -> list[str]:
    data = copy.deepcopy(raw(name))
    change(data)
    with pytest.raises(MapError) as err:
        parse_board(name, data)
    return err.value.problems


def _route_to_atlantis(d: dict[str, Any]) -> None:
    d["routes"][0]["b"] = "Atlantis"


def _route_twice(d: dict[str, Any]) -> None:
    d["routes"].append(copy.deepcopy(d["routes"][0]))


def _three_tracks(d: dict[str, Any]) -> None:
    extra = copy.deepcopy(d["routes"][0])
    extra["double_index"] = 5
    extra["color"] = "red"
    d["routes"].append(extra)
    second = copy.deepcopy(d["routes"][0])
    second["double_index"] = 6
    second["color"] = "blue"
    d["routes"].append(second)


def _one_locomotive_too_many(d: dict[str, Any]) -> None:
    d["rules"]["train_cards"]["locomotives"] = 13


def _ticket_to_gotham(d: dict[str, Any]) -> None:
    d["tickets"][0]["b"] = "Gotham"


def _one_space_short(d: dict[str, Any]) -> None:
    d["routes"][0]["spaces"].pop()


@pytest.mark.parametrize(
    ("name", "change", "problem"),
    [
        pytest.param("usa", _route_to_atlantis, "unknown place 'Atlantis'", id="unknown place in a route"),
        pytest.param("usa", _route_twice, "duplicate route", id="duplicate route"),
        pytest.param("usa", _three_tracks, "a double route with 3 tracks", id="double route with three tracks"),
        pytest.param("usa", _one_locomotive_too_many, "109 cards, but the map says 110", id="wrong deck composition"),
        pytest.param("usa", _ticket_to_gotham, "unknown place 'Gotham'", id="ticket to an unknown place"),
        pytest.param(
            "amsterdam", _one_space_short, "drawn spaces for a route of length", id="space count must match length"
        ),
    ],
)
def test_the_loader_names_the_fault(name: str, change: Any, problem: str) -> None:
    assert any(problem in p for p in _problems(name, change))


def test_every_fault_is_listed_at_once() -> None:
    def change(d: dict[str, Any]) -> None:
        d["routes"][0]["a"] = "Nowhere"
        d["tickets"][0]["a"] = "Elsewhere"

    problems = _problems("india", change)
    assert len(problems) >= 2


def test_check_all_and_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_all() == dict.fromkeys(MAP_NAMES)
    assert main(["check-maps"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok ") == 5 and "FAIL" not in out


def test_unknown_map_name() -> None:
    with pytest.raises(MapError, match="unknown map"):
        load_board("atlantis")
