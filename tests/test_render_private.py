"""A player's private view shows their cards and tickets, and never another player's."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from test_render_support import board_area, changed_pixels, crowded_game, decode, discs, outside, start_game

from bot.present.image_words import IMAGE_WORDS
from engine import Game
from engine.record import parse_record, replay
from maps import MAP_NAMES
from render import board_layout, render_board, render_private, static_board
from render.palette import TICKET_MARK
from render.private import ticket_lines

RECORDS = Path(__file__).parent / "records"
TAG_ROOM = 130.0  # how far from a ticket place its ring and number tag may reach, in pixels


@pytest.fixture(scope="module", params=MAP_NAMES)
def map_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _places(game: Game, seat: int) -> set[str]:
    """The board places the tickets of `seat` name (countries stand for their border points)."""
    board = game.board
    out: set[str] = set()
    for ticket_id in game.state.players[seat].tickets:
        ticket = board.tickets[ticket_id]
        for end in (ticket.origin, *(t.name for t in ticket.targets)):
            out.update(board.nodes_of(end))
    return out


def _ring_radius(game: Game, place: str) -> float:
    layout = board_layout(game.board.name)
    return layout.city_radius + 40 if not game.board.places[place].country else 40 * layout.scale


def test_the_private_view_marks_only_the_viewers_ticket_places(map_name: str) -> None:
    game = crowded_game(map_name)
    layout = board_layout(map_name)
    static = static_board(map_name, words=IMAGE_WORDS)
    public = board_area(decode(render_board(game, words=IMAGE_WORDS).png), map_name)
    for seat in range(len(game.names)):
        private = board_area(decode(render_private(game, seat, words=IMAGE_WORDS).png), map_name)
        changed = changed_pixels(public, private)
        mine = _places(game, seat)
        assert mine, "every player keeps at least one ticket"
        centres = {p: layout.to_pixel(game.board.places[p].x, game.board.places[p].y) for p in game.board.places}
        regions = [(*centres[p], TAG_ROOM) for p in mine]
        for box in static.countries.values():  # tags for country tickets sit under the country's name
            regions.append(((box[0] + box[2]) / 2, box[3] + 15, (box[2] - box[0]) / 2 + 60))
        assert outside(changed, discs(public.size, regions)) is None

        # every ticket place of this player is ringed...
        for place in mine:
            x, y = centres[place]
            r = _ring_radius(game, place)
            assert changed.crop((int(x - r), int(y - r), int(x + r), int(y + r))).getbbox(), f"{place} is not marked"
        # ...and the places only other players need are left alone
        others = set().union(*(_places(game, s) for s in range(len(game.names)) if s != seat)) - mine
        far = [p for p in others if all(math.dist(centres[p], centres[q]) > TAG_ROOM * 2 for q in mine)]
        for place in far:
            x, y = centres[place]
            assert changed.crop((int(x - 25), int(y - 25), int(x + 25), int(y + 25))).getbbox() is None, place


def test_the_private_view_lists_the_viewers_tickets_and_cards_only(map_name: str) -> None:
    game = crowded_game(map_name)
    board = game.board
    for seat, player in enumerate(game.state.players):
        lines = ticket_lines(game, seat)
        assert [line.ticket_id for line in lines] == player.tickets
        alt = render_private(game, seat, words=IMAGE_WORDS).alt_text
        mine = {IMAGE_WORDS.ticket(board.tickets[t]) for t in player.tickets}
        others = {
            IMAGE_WORDS.ticket(board.tickets[t]) for p in game.state.players if p is not player for t in p.tickets
        }
        for text in sorted(mine)[:3]:  # the alt text may be cut at 1,024 characters
            assert text in alt
        for text in others - mine:
            assert text not in alt
        for card, count in player.hand.items():
            if count:
                assert f"{count} {card if card != 'locomotive' else board.rules.wild_name}" in alt


def test_tickets_on_offer_are_listed_with_letters_during_setup() -> None:
    game = start_game("usa")
    lines = ticket_lines(game, 0)
    offered = game.state.players[0].offered
    assert offered
    assert [line.ticket_id for line in lines] == offered
    assert [line.tag for line in lines] == ["A", "B", "C"]
    assert all(line.done is None for line in lines)
    assert render_private(game, 0, words=IMAGE_WORDS).width == 1744


def _ring_fill(image_png: bytes, game: Game, place: str) -> float:
    """The share of the ring's centre line, round `place`, drawn in the ticket colour."""
    layout = board_layout(game.board.name)
    image = decode(image_png)
    p = game.board.places[place]
    x, y = layout.to_pixel(p.x, p.y)
    r = layout.city_radius + 6 - 2  # the ring is 4 pixels wide, inside the radius it is drawn at
    hits = 0
    for k in range(72):
        a = math.radians(k * 5)
        if image.getpixel((int(x + r * math.cos(a)), int(y + r * math.sin(a)))) == TICKET_MARK:
            hits += 1
    return hits / 72


def test_done_tickets_get_a_solid_ring_and_open_ones_a_dashed_ring() -> None:
    with open(RECORDS / "switzerland" / "v01_3p_full.json", encoding="utf-8") as handle:
        game = replay(parse_record(json.load(handle)))
    board = game.board
    checked = {True: 0, False: 0}
    for seat in range(len(game.names)):
        progress = game.ticket_progress(seat)
        image = render_private(game, seat, words=IMAGE_WORDS).png
        state: dict[str, list[bool]] = {}
        for ticket_id, done, _points in progress:
            ticket = board.tickets[ticket_id]
            for end in (ticket.origin, *(t.name for t in ticket.targets)):
                if end in board.places and not board.places[end].country:
                    state.setdefault(end, []).append(done)
        for place, dones in state.items():
            fill = _ring_fill(image, game, place)
            if all(dones):
                assert fill > 0.8, place
                checked[True] += 1
            elif not any(dones):
                assert fill < 0.75, place
                checked[False] += 1
    assert checked[True] and checked[False]


def test_a_seat_outside_the_game_is_refused() -> None:
    with pytest.raises(ValueError):
        render_private(start_game("usa"), 5, words=IMAGE_WORDS)
