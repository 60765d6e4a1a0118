"""Bad game records through `replay_text` and `python -m bot replay`.

docs/game-record.md: on a bad record, exit status 1 and
{"error": {"move": INDEX_OR_NULL, "message": "..."}} where INDEX is the 0-based
position of the first move that is not legal, null when the record itself is
wrong. Records here are example records cut and altered, or small records
built with a known deck so every hand is known.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.rules_support import WILD, deck_with

from engine.record import replay_text
from maps import load_board

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).parent.parent


def example(path):
    return json.loads((RECORDS / path).read_text(encoding="utf-8"))


USA = example("usa/v01_4p_t10.json")  # ann, eve, bob, MAX; moves 0-3 keeps, 4-5 ann draws, 6-7 eve draws


def run(doc):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return replay_text(text)


def error_at(doc):
    status, out = run(doc)
    assert status == 1, out
    assert set(out) == {"error"}
    assert set(out["error"]) == {"move", "message"}
    assert isinstance(out["error"]["message"], str) and out["error"]["message"].strip()
    return out["error"]["move"]


def usa_with(moves_after, keep=4):
    doc = copy.deepcopy(USA)
    doc["moves"] = doc["moves"][:keep] + moves_after
    return doc


def built(map_name, players, top=(), extra=(), trains=None):
    """A record with a known card deck, tickets in board order, and everyone keeping the minimum."""
    board = load_board(map_name)
    r = board.rules
    moves = []
    for i, name in enumerate(players):
        offered = board.tickets[i * r.initial_deal : (i + 1) * r.initial_deal]
        moves.append({"player": name, "keep": [t.ref() for t in offered[: r.initial_keep]]})
    doc = {
        "format": 1,
        "map": map_name,
        "players": list(players),
        "seed": f"bad-{map_name}",
        "decks": {"cards": deck_with(map_name, top), "tickets": [t.ref() for t in board.tickets]},
        "moves": moves + list(extra),
    }
    if trains is not None:
        doc["options"] = {"trains": trains}
    return doc


def test_base_examples_are_valid():
    assert run(USA)[0] == 0
    assert run(usa_with([]))[0] == 0
    assert run(usa_with([], keep=6))[1]["to_move"] == {"player": "eve", "must": "turn"}


# --------------------------------------------------- illegal moves at index


@pytest.mark.parametrize(
    ("extra", "index"),
    [
        ([{"player": "eve", "draw": "deck"}], 4),  # wrong player: ann starts
        ([{"player": "zed", "draw": "deck"}], 4),  # not a player
        ([{"player": "ann", "draw": "tickets"}, {"player": "ann", "draw": "deck"}], 5),  # keep is due
        ([{"player": "ann", "draw": "deck"}, {"player": "ann", "draw": "tickets"}], 5),  # second card is due
        (
            [{"player": "ann", "draw": "deck"}, {"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": {"red": 2}}],
            5,
        ),
        ([{"player": "ann", "draw": "deck"}, {"player": "eve", "draw": "deck"}], 5),  # ann's second card
        ([{"player": "ann", "keep": [["Denver", "El Paso"]]}], 4),  # nothing offered
        ([{"player": "ann", "tunnel": None}], 4),  # no tunnel
        ([{"player": "ann", "tunnel": {"red": 1}}], 4),
        ([{"player": "ann", "place": {"symbol": "cable_car", "at": "Denver"}}], 4),  # not San Francisco
        ([{"player": "ann", "pass": True}], 4),  # ann can draw
        ([{"player": "ann", "draw": "purple"}], 4),  # not a USA card
        ([{"player": "ann", "draw": "joker"}], 4),
        ([{"player": "ann", "draw": "Deck"}], 4),
        ([{"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": {"red": 2}, "souvenir": "Denver"}], 4),
        ([{"player": "ann", "claim": ["Denver", "Atlantis"], "pay": {"red": 2}}], 4),
        ([{"player": "ann", "claim": ["Denver", "Miami"], "pay": {"red": 2}}], 4),  # no such route
        ([{"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": {"red": 9}}], 4),  # wrong total / not held
        ([{"player": "ann", "claim": ["Kansas City", "Saint Louis"], "pay": {"blue": 2}}], 4),  # ambiguous
        ([{"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": {"red": 2}, "route": "purple"}], 4),
    ],
)
def test_illegal_move_reported_at_its_index(extra, index):
    assert error_at(usa_with(extra)) == index


def test_move_after_the_game_is_over():
    assert run(USA)[1]["finished"] is True
    doc = copy.deepcopy(USA)
    n = len(doc["moves"])
    doc["moves"].append({"player": "ann", "draw": "deck"})
    assert error_at(doc) == n
    doc["moves"][-1] = {"player": "ann", "pass": True}
    assert error_at(doc) == n


def test_turn_move_during_setup():
    doc = copy.deepcopy(USA)
    doc["moves"] = [*doc["moves"][:2], {"player": "ann", "draw": "deck"}, *doc["moves"][2:]]
    assert error_at(doc) == 2


def test_setup_keep_twice_and_bad_keeps():
    doc = copy.deepcopy(USA)
    first = doc["moves"][0]
    assert error_at(usa_with([first], keep=1)) == 1  # ann keeps again
    assert error_at(usa_with([{"player": "ann", "keep": [["Miami", "Boston"]]}], keep=0)) == 0  # fewer than 2
    assert error_at(usa_with([{"player": "ann", "keep": [["Miami", "Boston"], ["Denver", "El Paso"]]}], keep=0)) == 0
    dup = {"player": "ann", "keep": [["Miami", "Boston"], ["Boston", "Miami"]]}
    assert error_at(usa_with([dup], keep=0)) == 0
    # any order of refs, either order of places, is fine
    ok = {"player": "ann", "keep": [["Santa Fe", "Vancouver"], ["Boston", "Miami"]]}
    assert run(usa_with([ok], keep=0))[0] == 0


# ---------------------------------------------------------- malformed moves


@pytest.mark.parametrize(
    "bad",
    [
        {"player": "ann", "draw": "deck", "colour": "red"},  # unknown key
        {"player": "ann", "draw": "deck", "pay": {"red": 1}},  # key of another action
        {"player": "ann", "draw": "deck", "claim": ["Denver", "Santa Fe"]},  # two actions
        {"player": "ann", "draw": "deck", "pass": True},
        {"player": "ann"},  # no action
        {"draw": "deck"},  # no player
        {"player": 7, "draw": "deck"},
        "draw deck",
        ["ann", "deck"],
        None,
        42,
        {"player": "ann", "claim": ["Denver", "Santa Fe"]},  # no pay
        {"player": "ann", "claim": "Denver-Santa Fe", "pay": {"red": 2}},
        {"player": "ann", "claim": ["Denver", "Santa Fe", "El Paso"], "pay": {"red": 2}},
        {"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": {"red": -2}},
        {"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": {"red": 1.5}},
        {"player": "ann", "claim": ["Denver", "Santa Fe"], "pay": ["red", "red"]},
        {"player": "ann", "pass": False},
        {"player": "ann", "draw": 3},
        {"player": "ann", "keep": "Denver-El Paso"},
        {"player": "ann", "place": {"symbol": "cable_car"}},
    ],
)
def test_malformed_move(bad):
    assert error_at(usa_with([bad])) == 4


# ---------------------------------------------------- record-level errors


def mutated(change):
    doc = copy.deepcopy(USA)
    change(doc)
    return doc


def _set(key, value):
    def change(doc):
        doc[key] = value

    return change


def _drop(key):
    def change(doc):
        del doc[key]

    return change


def _swap_card(doc):
    cards = doc["decks"]["cards"]
    i = cards.index("red")
    cards[i] = "blue"


def _short_deck(doc):
    doc["decks"]["cards"].pop()


def _long_deck(doc):
    doc["decks"]["cards"].append("red")


def _dup_ticket(doc):
    doc["decks"]["tickets"][1] = doc["decks"]["tickets"][0]


def _missing_ticket(doc):
    doc["decks"]["tickets"].pop()


def _unknown_ticket(doc):
    doc["decks"]["tickets"][0] = ["Denver", "Atlantis"]


def _not_a_ticket(doc):
    doc["decks"]["tickets"][0] = ["Denver", "Miami"]


def _option(value):
    def change(doc):
        doc["options"] = value

    return change


@pytest.mark.parametrize(
    "change",
    [
        _set("map", "europe"),
        _set("map", "USA"),
        _drop("map"),
        _set("players", ["ann"]),  # 1 player
        _set("players", ["a", "b", "c", "d", "e", "f"]),  # 6 players on USA
        _set("players", ["ann", "eve", "ann", "MAX"]),  # duplicate
        _set("players", ["ann", "", "bob", "MAX"]),
        _set("players", []),
        _set("players", "ann, eve"),
        _set("players", ["ann", 3, "bob", "MAX"]),
        _drop("players"),
        _drop("seed"),
        _set("seed", None),
        _set("seed", 1.5),
        _set("seed", True),
        _set("seed", ["x"]),
        _swap_card,
        _short_deck,
        _long_deck,
        _dup_ticket,
        _missing_ticket,
        _unknown_ticket,
        _not_a_ticket,
        _option({"trains": 2}),
        _option({"trains": 61}),
        _option({"trains": "10"}),
        _option({"trains": 10, "speed": 2}),
        _option({"speed": 2}),
        _option([10]),
        _set("format", 2),
        _set("format", "1"),
        _set("format", True),
        _set("moves", {"0": {"player": "ann"}}),
        _set("pass_round_ends", "true"),  # the bot's extension (docs/game-record.md, section 9): a boolean
        _set("pass_round_ends", 1),
        _set("pass_round_ends", 0),
        _set("pass_round_ends", None),
        _set("pass_round_ends", [True]),
    ],
)
def test_record_level_errors_have_move_null(change):
    assert error_at(mutated(change)) is None


@pytest.mark.parametrize(
    ("map_name", "players"),
    [
        ("switzerland", ["a", "b", "c", "d"]),
        ("india", ["a", "b", "c", "d", "e"]),
        ("amsterdam", ["a"]),
        ("san_francisco", ["a", "b", "c", "d", "e"]),
    ],
)
def test_wrong_player_count_per_map(map_name, players):
    doc = built(map_name, players[:2])
    doc["players"] = players
    doc["moves"] = []
    assert error_at(doc) is None


def test_deck_of_another_map_and_wild_named_by_the_map():
    doc = built("amsterdam", ["ann", "bob"])
    doc["decks"]["cards"] = [("joker" if c == WILD else c) for c in doc["decks"]["cards"]]
    assert error_at(doc) is None
    doc = built("usa", ["ann", "bob"])
    doc["map"] = "amsterdam"
    assert error_at(doc) is None


def test_record_errors_win_over_bad_moves():
    doc = mutated(_set("players", ["ann"]))
    doc["moves"] = [None, {"player": "x"}]
    assert error_at(doc) is None


@pytest.mark.parametrize("text", ["", "   ", "{", "not json", "[1, 2", "{'map': 'usa'}", "[]", "null", "42", '"usa"'])
def test_not_a_record_at_all(text):
    assert error_at(text) is None


# ---------------------------------------------------- accepted variations


def test_accepted_record_variations():
    assert run(mutated(_drop("format")))[0] == 0
    assert run(mutated(_set("comment", {"anything": [1, 2]})))[0] == 0  # unknown top-level keys are ignored
    assert run(mutated(_set("seed", "711236")))[0] == 0  # a string seed
    assert run(mutated(_drop("options")))[0] == 0
    plain = run(copy.deepcopy(USA))
    assert plain[0] == 0
    for rule in (False, True):  # a game that is not stuck replays alike with the bot's rule or without
        assert run(mutated(_set("pass_round_ends", rule))) == plain
    for trains in (3, 60):
        doc = mutated(_option({"trains": trains}))
        doc["moves"] = doc["moves"][:4]
        status, out = run(doc)
        assert status == 0
        assert [p["trains"] for p in out["players"]] == [trains] * 4


def test_record_without_decks_is_playable():
    doc = {"map": "usa", "players": ["ann", "bob"], "seed": 5, "moves": []}
    status, out = run(doc)
    assert status == 0
    assert out["to_move"] == {"player": "ann", "must": "keep"}


def test_aliases_in_moves_and_ticket_deck():
    doc = built("usa", ["ann", "bob"])
    doc["decks"]["tickets"] = [[("Montreal" if x == "Montréal" else x) for x in t] for t in doc["decks"]["tickets"]]
    assert run(doc)[0] == 0


def test_whitespace_player_name_is_a_name_like_any_other():
    # docs/game-record.md: players have unique, non-empty names. " " is a non-empty name; the record
    # is accepted, so its moves must be too (or the record refused with move null).
    doc = built("amsterdam", ["ann", " "])
    status, out = run(doc)
    assert (status, out.get("to_move")) == (0, {"player": "ann", "must": "turn"})


# ------------------------------------------------- map-specific move errors


def test_switzerland_locomotive_on_an_ordinary_route_at_its_index():
    top = [WILD, WILD, "pink", "pink"] + ["white"] * 4 + ["blue", "white", "green", "black", "yellow"]
    bad = {"player": "ann", "claim": ["Pfäffikon", "Schwyz"], "pay": {"locomotive": 1}}  # pink 1
    assert error_at(built("switzerland", ["ann", "bob"], top, [bad])) == 2
    ok = {"player": "ann", "claim": ["Pfäffikon", "Schwyz"], "pay": {"pink": 1}}
    assert run(built("switzerland", ["ann", "bob"], top, [ok]))[0] == 0


def sw_tunnel(extra):
    # ann: 4 red; face-up blue white green black yellow; deck top red, green, white
    top = ["red"] * 4 + ["pink"] * 4 + ["blue", "white", "green", "black", "yellow"] + ["red", "green", "white"]
    claim = {"player": "ann", "claim": ["Brig", "Wassen"], "pay": {"red": 4}}  # red 4 tunnel: surcharge 1
    return built("switzerland", ["ann", "bob"], top, [claim, *extra])


def test_tunnel_flow_in_a_record():
    status, out = run(sw_tunnel([]))
    assert (status, out["to_move"]) == (0, {"player": "ann", "must": "tunnel"})
    status, out = run(sw_tunnel([{"player": "ann", "tunnel": None}]))
    assert (status, out["to_move"]) == (0, {"player": "bob", "must": "turn"})
    assert out["players"][0]["routes"] == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"player": "ann", "draw": "deck"},
        {"player": "bob", "draw": "deck"},
        {"player": "ann", "tunnel": {"red": 1}},  # the laid reds are not in hand for the surcharge
        {"player": "ann", "tunnel": {"red": 2}},
        {"player": "ann", "tunnel": {}},
        {"player": "ann", "tunnel": {"pink": 1}},
        {"player": "ann", "tunnel": {"red": 1}, "pay": {"red": 1}},
        {"player": "ann", "pass": True},
    ],
)
def test_tunnel_errors_in_a_record(bad):
    assert error_at(sw_tunnel([bad])) == 3


def sf_record(extra):
    # ann: 2 purple; bob places cable_car at Presidio and lombard_street at Marina
    top = ["purple", "purple", "blue", "blue", "green", "black", "red", "orange", "blue"]
    places = [
        {"player": "bob", "place": {"symbol": "cable_car", "at": "Presidio"}},
        {"player": "bob", "place": {"symbol": "lombard_street", "at": "Marina"}},
    ]
    return built("san_francisco", ["ann", "bob"], top, places + list(extra))


def test_san_francisco_souvenir_choice_in_a_record():
    claim = {"player": "ann", "claim": ["Golden Gate Bridge", "Presidio"], "pay": {"purple": 2}}  # purple 2
    assert error_at(sf_record([claim])) == 4  # both ends qualify: souvenir required
    status, out = run(sf_record([dict(claim, souvenir="Presidio")]))
    assert status == 0
    assert out["players"][0]["souvenirs"] == 1
    assert error_at(sf_record([dict(claim, souvenir="Marina")])) == 4  # not an end


@pytest.mark.parametrize(
    ("moves", "index"),
    [
        ([{"player": "ann", "place": {"symbol": "cable_car", "at": "Presidio"}}], 2),  # bob places
        ([{"player": "bob", "place": {"symbol": "cable_car", "at": "Alcatraz"}}], 2),  # has a stack
        ([{"player": "bob", "place": {"symbol": "alcatraz", "at": "Presidio"}}], 2),  # not a free symbol
        ([{"player": "bob", "place": {"symbol": "cable_car", "at": "Atlantis"}}], 2),
        ([{"player": "bob", "place": {"symbol": "cable_car", "at": "Presidio", "size": 1}}], 2),
        ([{"player": "ann", "draw": "deck"}], 2),  # stacks first
        (
            [
                {"player": "bob", "place": {"symbol": "cable_car", "at": "Presidio"}},
                {"player": "bob", "place": {"symbol": "cable_car", "at": "Marina"}},
            ],
            3,
        ),
    ],
)
def test_san_francisco_place_errors(moves, index):
    top = ["purple", "purple", "blue", "blue", "green", "black", "red", "orange", "blue"]
    assert error_at(built("san_francisco", ["ann", "bob"], top, moves)) == index


def test_san_francisco_to_move_is_place_after_keeps():
    top = ["purple", "purple", "blue", "blue", "green", "black", "red", "orange", "blue"]
    status, out = run(built("san_francisco", ["ann", "bob", "cid"], top))
    assert (status, out["to_move"]) == (0, {"player": "cid", "must": "place"})


def test_amsterdam_merchandise_counted_in_the_outcome():
    # ann: blue blue, bob: green green; ann draws two blind cards, bob claims a green 2 cart route
    top = ["blue", "blue", "green", "green", "pink", "black", "red", "orange", "pink"]
    moves = [{"player": "ann", "draw": "deck"}, {"player": "ann", "draw": "deck"}]
    claim = {"player": "bob", "claim": ["Haarlemmerpoort", "Westerdok"], "pay": {"green": 2}}
    status, out = run(built("amsterdam", ["ann", "bob"], top, [*moves, claim]))
    assert status == 0
    assert [p["merchandise_cards"] for p in out["players"]] == [0, 1]
    assert [p["score"] for p in out["players"]] == [0, 2]


def test_india_ferry_without_locomotive_at_its_index():
    top = ["red", "red", "pink", "pink"] + ["white"] * 4 + ["blue", "white", "green", "black", "yellow"]
    bad = {"player": "ann", "claim": ["Calcutta", "Chittagong"], "pay": {"red": 2}}  # gray 2, one ferry
    assert error_at(built("india", ["ann", "bob"], top, [bad])) == 2


def test_setup_to_move_is_the_first_player_who_has_not_kept():
    doc = built("usa", ["ann", "bob", "cid"])
    doc["moves"] = [doc["moves"][1]]  # bob kept first
    status, out = run(doc)
    assert (status, out["to_move"]) == (0, {"player": "ann", "must": "keep"})
    assert out["finished"] is False and out["winners"] is None
    assert all(p["tickets"] is None and p["bonus"] is None for p in out["players"])


# -------------------------------------------------------------------- CLI


def cli(tmp_path, text, name="rec.json", stdin=False):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    args = [sys.executable, "-m", "bot", "replay", "-" if stdin else str(path)]
    return subprocess.run(
        args, cwd=ROOT, input=text if stdin else None, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("text", "status", "move"),
    [
        (json.dumps(usa_with([{"player": "eve", "draw": "deck"}])), 1, 4),
        (json.dumps(mutated(_set("map", "europe"))), 1, None),
        ("{ not json", 1, None),
        ("", 1, None),
        (json.dumps(usa_with([None])), 1, 4),
        (json.dumps(USA), 0, "ok"),
    ],
)
def test_cli_prints_exactly_one_json_line(tmp_path, text, status, move):
    proc = cli(tmp_path, text)
    assert proc.returncode == status
    lines = proc.stdout.splitlines()
    assert len(lines) == 1 and proc.stdout.endswith("\n")
    out = json.loads(lines[0])
    assert "Traceback" not in proc.stdout + proc.stderr
    if move == "ok":
        assert out["finished"] is True and "error" not in out
    else:
        assert out["error"]["move"] == move


def test_cli_reads_standard_input(tmp_path):
    proc = cli(tmp_path, json.dumps(usa_with([{"player": "ann", "pass": True}])), stdin=True)
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert set(out) == {"error"} and out["error"]["move"] == 4 and out["error"]["message"]
    assert "Traceback" not in proc.stderr


def test_cli_missing_file(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(tmp_path / "nope.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert len(proc.stdout.splitlines()) == 1
    assert json.loads(proc.stdout)["error"]["move"] is None
    assert "Traceback" not in proc.stderr
