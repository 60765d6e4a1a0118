"""Names of places, routes, cards and things as people see and type them.

Place names match whatever the accents, case or punctuation, and by the board's aliases; the two tracks of a
double route that look alike are told apart; no raw id (a snake_case name from the code or the board data)
ever reaches a person, on any map, from the first turn to the final message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from enum import StrEnum
from typing import Any

import pytest
from discord_harness import Room, click, custom_ids, make_room, panel, reply_text, select_options, slash
from discord_play import Player, open_game
from hypothesis import given
from hypothesis import strategies as st
from simcord import Env

from bot.present.cards import format_cards
from bot.present.image_words import IMAGE_WORDS
from bot.present.words import plural
from bot.service import errors, kinds
from bot.table.parsing import parse_cards, parse_draw
from engine import Game, Phase
from maps import MAP_NAMES, WILD, load_board
from maps.names import SYMBOL_NAMES, fold, symbol_name

NAMES = ["alice", "bob", "carol"]
ID_TOKEN = re.compile(r"\b[a-z]+_[a-z_]+\b")


def known_ids() -> set[str]:
    """Every snake_case id the code or the board data has: people must never see one."""
    ids: set[str] = set(MAP_NAMES) | set(SYMBOL_NAMES)
    for module in (kinds, errors):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum):
                ids |= {str(member.value) for member in value}
    for name in MAP_NAMES:
        rules = load_board(name).rules
        if rules.tourists:
            ids |= {symbol for symbol, _ in rules.tourists.symbols}
    return {i for i in ids if "_" in i}


def shown(body: Any) -> Iterator[str]:
    """The texts a person sees in a message or an answer's JSON: content, embeds, labels, options, alt texts."""
    if isinstance(body, list):
        for item in body:
            yield from shown(item)
    elif isinstance(body, dict):
        for key, value in body.items():
            if isinstance(value, str):
                # "value" is shown in an embed field; in a menu option or a choice it is sent back, never shown
                if key in ("content", "title", "description", "label", "placeholder", "name", "text") or (
                    key == "value" and "inline" in body
                ):
                    yield value
            else:
                yield from shown(value)


def every_shown_text(env: Env) -> list[str]:
    texts: list[str] = []
    for request in env.http_requests:
        if request.method in ("POST", "PATCH") and isinstance(request.json, (dict, list)):
            texts += shown(request.json)
    return texts


# ----- the name matcher ----------------------------------------------------------------


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


ALL_PLACES = [(m, p) for m in MAP_NAMES for p in load_board(m).places]


@given(
    st.sampled_from(ALL_PLACES),
    st.lists(st.booleans(), min_size=40, max_size=40),
    st.booleans(),
)
def test_any_place_name_matches_whatever_its_accents_and_case(
    place: tuple[str, str], upper: list[bool], accents: bool
) -> None:
    board_name, name = place
    board = load_board(board_name)
    written = strip_accents(name) if accents else name
    written = "".join(
        c.upper() if up else c.lower() for c, up in zip(written, upper + [False] * len(written), strict=False)
    )
    assert board.find_place(written) == name
    assert board.find_place(f"  {written.replace(' ', '  ')} ") == name


@pytest.mark.parametrize(
    ("board_name", "typed", "place"),
    [
        ("switzerland", "Zurich", "Zürich"),
        ("switzerland", "Geneve", "Genève"),
        ("switzerland", "Geneva", "Genève"),
        ("switzerland", "Genf", "Genève"),
        ("switzerland", "Lucerne", "Luzern"),
        ("switzerland", "st gallen", "St. Gallen"),
        ("switzerland", "la chaux de fonds", "La Chaux-de-Fonds"),
        ("switzerland", "Osterreich 2", "Österreich 2"),
        ("usa", "Montreal", "Montréal"),
        ("usa", "St Louis", "Saint Louis"),
        ("india", "Mumbai", "Bombay"),
        ("india", "kolkata", "Calcutta"),
        ("san_francisco", "Fishermans Wharf", "Fisherman's Wharf"),
        ("san_francisco", "fisherman’s wharf", "Fisherman's Wharf"),
        ("san_francisco", "haight ashbury", "Haight-Ashbury"),
    ],
)
def test_aliases_and_spellings_name_the_place(board_name: str, typed: str, place: str) -> None:
    assert load_board(board_name).find_place(typed) == place


def test_a_name_that_could_be_several_places_is_not_guessed() -> None:
    board = load_board("san_francisco")
    assert set(board.place_candidates("golden gate")) == {"Golden Gate Bridge", "Golden Gate Park"}
    assert board.find_place("golden gate") is None
    assert fold("Zürich") == fold("ZURICH") == "zurich"


def test_symbols_and_wild_cards_have_their_board_names() -> None:
    assert symbol_name("lombard_street") == "Lombard Street" and symbol_name("cable_car") == "Cable Car"
    for name, wild in (("usa", "locomotive"), ("amsterdam", "joker"), ("san_francisco", "ferry card")):
        rules = load_board(name).rules
        assert format_cards(rules, {WILD: 2, rules.colors[0]: 1}).endswith(f"2 {wild}s")
        assert parse_cards(rules, f"2 {wild}s")[WILD] == 2 and parse_cards(rules, "1 wild")[WILD] == 1
        assert parse_draw(rules, wild) == WILD
    sf = load_board("san_francisco").rules
    assert parse_cards(sf, "1 blue 2 ferries")[WILD] == 2 and parse_cards(sf, "1 ferry")[WILD] == 1


def test_counts_are_in_the_right_number() -> None:
    assert plural(1, "route point") == "1 route point" and plural(2, "route point") == "2 route points"
    words = IMAGE_WORDS
    assert words.tourists_row(1) == "tourists (1 kind)" and words.tourists_row(3) == "tourists (3 kinds)"


# ----- typing and picking routes in a game ---------------------------------------------------


async def playing(env: Env, map_name: str) -> tuple[Room, Player, Game, Any]:
    """A two-player game past the ticket choice; the game and the member to move."""
    room = make_room(env, NAMES[:2])
    game_id, _ = await open_game(room, map_name, 2)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    game = await player.game()
    mover = game.to_move()
    assert mover is not None
    return room, player, game, await player.member(mover.player)


# a seeded deal: with some random deals the player to move can claim no route of Zürich, and the list is empty
@pytest.mark.parametrize("game_seed", [1])
async def test_a_route_is_claimed_by_an_alias_and_an_accent_free_name(simcord_env: Env) -> None:
    room, player, game, member = await playing(simcord_env, "switzerland")
    name = game.to_move().player  # type: ignore[union-attr]
    # autocomplete: "zurich" (no accent) lists Zürich's routes, and only those
    choices = await member.autocomplete(room.channel, "ttr claim", "route", "zurich")
    options = {o.route.id for o in game.claim_options(name)}
    assert choices and all("Zürich" in c["name"] for c in choices)
    assert {c["value"] for c in choices} == {str(r) for r in options if "Zürich" in game.board.routes[r].ends}
    # typing: an accent-free and an aliased name claim the same route
    option = game.claim_options(name)[0]
    route = option.route
    typed = f"{strip_accents(route.a).upper()} - {strip_accents(route.b).lower()}"
    result = await slash(member, room, "ttr claim", route=typed)
    assert "cannot read" not in reply_text(result) and "no route" not in reply_text(result), reply_text(result)
    after = await player.game()
    assert after.state.turn > game.state.turn or "pay" in reply_text(result).lower(), reply_text(result)


async def test_geneva_and_an_ambiguous_name_in_typed_routes(simcord_env: Env) -> None:
    room, _player, _game, member = await playing(simcord_env, "switzerland")
    result = await slash(member, room, "ttr claim", route="Geneva - Italia 9")
    assert "cannot read" in reply_text(result)  # Geneva is read; "Italia 9" is no place
    result = await slash(member, room, "ttr claim", route="Geneva - Lausan")
    text = reply_text(result)
    assert "There is no route between" not in text and "cannot read" not in text, text
    result = await slash(member, room, "ttr claim", route="Lausanne - Ital")
    text = reply_text(result)
    assert result.response is not None and result.response.ephemeral
    assert "could be" in text and "Italia 1" in text and "Italia 5" in text, text


async def test_alike_double_tracks_are_labelled_apart_in_the_claim_menu(simcord_env: Env) -> None:
    room, player, game, member = await playing(simcord_env, "usa")
    # every player can pay for a gray route of one space: Dallas - Houston has two tracks that look alike
    result = await click(member, room.stage_message(), "ttr:claim:")
    menu = panel(result, "ttrs:route:")
    labels = [o["label"] for c in custom_ids(menu) if c.startswith("ttrs:route:") for o in select_options(menu, c)]
    assert len(labels) == len(set(labels)), [x for x in labels if labels.count(x) > 1]
    # the two alike tracks are one choice, named as the track a claim takes (the first free one)
    assert "Dallas - Houston (gray, 1, track 1/2)" in labels, labels
    assert "Dallas - Houston (gray, 1, track 2/2)" not in labels, labels
    choices = await member.autocomplete(room.channel, "ttr claim", "route", "houston dallas")
    assert [c["name"] for c in choices] == ["Dallas - Houston (gray, 1, track 1/2)"], choices
    colour = next(c for c, n in game.player(game.to_move().player).hand.items() if n > 0)  # type: ignore[union-attr]
    result = await slash(member, room, "ttr claim", route="Dallas - Houston", pay=f"1 {colour}")
    assert "claims Dallas - Houston (gray, 1, track 1/2)" in reply_text(result), reply_text(result)
    game = await player.game()
    assert [r.track for r in game.board.routes_between("Dallas", "Houston") if r.id in game.state.owner] == [1]


# ----- no raw id reaches a person --------------------------------------------------------------


@pytest.mark.parametrize("map_name", MAP_NAMES)
async def test_no_raw_id_is_shown_in_a_whole_game(simcord_env: Env, map_name: str) -> None:
    room = make_room(simcord_env, NAMES[:2])
    game_id, _ = await open_game(room, map_name, 2, trains=7)
    player = Player(room, game_id)
    await player.play()
    viewer = room.members[0]
    for command in ("ttr status", "ttr history", "ttr hand", "ttr board"):
        await slash(viewer, room, command)
    await slash(viewer, room, "ttr rules", map=map_name)
    texts = every_shown_text(simcord_env)
    ids = known_ids()
    leaks = sorted({t for text in texts for t in ID_TOKEN.findall(text) if t in ids})
    assert not leaks, leaks
    wild = load_board(map_name).rules.wild_name
    if wild != WILD:  # the map's own name for its wild card, never the generic one
        assert not [t for t in texts if WILD in t.lower()], [t for t in texts if WILD in t.lower()][:3]
