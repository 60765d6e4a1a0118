"""The public board image on every map: it renders, its pixels say who owns what, it stays small."""

from __future__ import annotations

import hashlib
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from test_render_support import (
    board_area,
    changed_pixels,
    claim_pair,
    crowded_game,
    decode,
    discs,
    outside,
    start_game,
)

from bot.present.image_words import IMAGE_WORDS
from engine import Game
from engine.random_play import random_move
from maps import MAP_NAMES, load_board
from render import (
    ROUTE_COLOURS,
    board_layout,
    last_claimed_route,
    last_move_route,
    player_style,
    render_board,
    render_final,
    render_private,
    static_board,
)
from render.pieces import cart_position, stack_radius

MAX_PNG = 2 * 1024 * 1024


@pytest.fixture(scope="module", params=MAP_NAMES)
def map_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _wrong_centres(game: Game, png: bytes) -> list[str]:
    """Spaces whose centre pixel is not the owner's colour (claimed) or the route's (unclaimed)."""
    image = decode(png)
    layout = board_layout(game.board.name)
    wrong = []
    for route in game.board.routes:
        seat = game.state.owner.get(route.id)
        expected = ROUTE_COLOURS[route.color] if seat is None else player_style(seat).rgb
        for index, space in enumerate(route.spaces):
            got = image.getpixel(layout.pixel_at(space.x, space.y))
            if got != expected:
                wrong.append(f"route {route.id} ({route.a}-{route.b}) space {index}: {got} != {expected}")
    return wrong


def test_the_start_renders_with_every_route_in_its_own_colour(map_name: str) -> None:
    game = start_game(map_name)
    image = render_board(game, words=IMAGE_WORDS)
    assert decode(image.png).size == (image.width, image.height)
    assert not game.state.owner
    assert _wrong_centres(game, image.png) == []
    assert image.alt_text


def test_a_crowded_end_shows_each_claimed_space_in_its_owners_colour(map_name: str) -> None:
    game = crowded_game(map_name)
    assert len(game.state.owner) >= len(game.board.routes) // 2, "the board should be crowded"
    image = render_board(game, words=IMAGE_WORDS)
    assert _wrong_centres(game, image.png) == []


def test_claiming_a_route_changes_its_spaces_and_nothing_else_of_the_board(map_name: str) -> None:
    before, after = claim_pair(map_name)
    (new_route,) = set(after.state.owner) - set(before.state.owner)
    route = after.board.routes[new_route]
    layout = board_layout(map_name)
    old = board_area(decode(render_board(before, words=IMAGE_WORDS).png), map_name)
    new = board_area(decode(render_board(after, words=IMAGE_WORDS).png), map_name)

    # Allowed to change: the new route, the route that lost the last-move halo,
    # a cart badge drawn over a claimed route, tourist stacks that lost a token.
    regions = []
    for route_id in {new_route, last_move_route(before)} - {None}:
        assert route_id is not None
        changed_route = after.board.routes[route_id]
        regions += [(*layout.to_pixel(s.x, s.y), layout.reach(changed_route)) for s in changed_route.spaces]
    if route.cart:
        regions.append((*cart_position(layout, route), layout.car_width * 1.2))
    if after.board.rules.tourists:
        for end in route.ends:
            place = after.board.places[end]
            regions.append((*layout.to_pixel(place.x, place.y), stack_radius(layout) * 2.4))
    changed = changed_pixels(old, new)
    assert changed.getbbox() is not None
    assert outside(changed, discs(old.size, regions)) is None

    colour = player_style(after.state.owner[new_route]).rgb
    for space in route.spaces:
        assert new.getpixel(layout.pixel_at(space.x, space.y)) == colour
        assert old.getpixel(layout.pixel_at(space.x, space.y)) == ROUTE_COLOURS[route.color]


def test_the_last_claimed_route_is_the_one_the_last_move_placed() -> None:
    before, after = claim_pair("usa")
    (new_route,) = set(after.state.owner) - set(before.state.owner)
    assert last_claimed_route(after) == new_route
    drawn = after.copy()
    move = next(m for m in drawn.legal_moves(drawn.names[drawn.state.current]) if type(m).__name__ == "DrawCard")
    drawn.apply(move)
    assert last_claimed_route(drawn) is None
    assert last_move_route(drawn) is None


def test_a_tunnel_waiting_for_its_surcharge_is_the_last_moves_route_but_not_claimed() -> None:
    game = Game(load_board("switzerland"), ["Zoë", "Björn"], seed=4)
    rng = random.Random(9)
    while game.state.tunnel is None:
        move = random_move(game, rng)
        assert move is not None
        game.apply(move)
    assert last_claimed_route(game) is None
    assert last_move_route(game) == game.state.tunnel.route
    assert "is trying the tunnel" in render_board(game, words=IMAGE_WORDS).alt_text


def test_every_image_stays_within_the_size_limits(map_name: str) -> None:
    for game in (start_game(map_name), crowded_game(map_name)):
        for image in (
            render_board(game, words=IMAGE_WORDS),
            render_private(game, 0, words=IMAGE_WORDS),
            render_final(game, words=IMAGE_WORDS),
        ):
            assert 1600 <= image.width <= 2000
            assert image.height <= 2000
            assert len(image.png) < MAX_PNG
            assert 0 < len(image.alt_text) <= 1024


def test_the_static_layer_is_cached_and_never_drawn_on(map_name: str) -> None:
    static = static_board(map_name, words=IMAGE_WORDS)
    digest = hashlib.sha256(static.image.tobytes()).hexdigest()
    render_board(crowded_game(map_name), words=IMAGE_WORDS)
    assert static_board(map_name, words=IMAGE_WORDS) is static
    assert hashlib.sha256(static.image.tobytes()).hexdigest() == digest


def test_every_space_lies_inside_the_board_area(map_name: str) -> None:
    layout = board_layout(map_name)
    board = static_board(map_name, words=IMAGE_WORDS).board
    for route in board.routes:
        for space in route.spaces:
            x, y = layout.to_pixel(space.x, space.y)
            assert 0 < x < layout.width and 0 < y < layout.height
    if board.height > board.width:  # India: a portrait board gets the panel beside it
        assert not layout.panel_below
    assert layout.width + (0 if layout.panel_below else layout.panel_width) == 1744


def test_renders_in_threads_match_a_serial_render() -> None:
    game = crowded_game("amsterdam")
    serial = render_board(game, words=IMAGE_WORDS).png
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: render_board(game, words=IMAGE_WORDS).png, range(4)))
    assert all(png == serial for png in results)
