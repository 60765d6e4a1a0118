"""The final image: every score broken down, and the longest path drawn in gold."""

from __future__ import annotations

import pytest
from PIL import Image
from test_render_support import board_area, changed_pixels, crowded_game, decode, discs, outside, start_game

from bot.present.image_words import IMAGE_WORDS
from maps import MAP_NAMES
from render import board_layout, render_board, render_final
from render.final import longest_path_routes, score_rows
from render.palette import LONGEST


@pytest.fixture(scope="module", params=MAP_NAMES)
def map_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _gold(image: Image.Image) -> Image.Image:
    """An L image, white where a pixel is exactly the longest-path gold."""
    return changed_pixels(image, Image.new("RGB", image.size, LONGEST)).point(lambda v: 0 if v else 255)


def test_each_score_breakdown_adds_up_to_the_total(map_name: str) -> None:
    game = crowded_game(map_name)
    for seat, score in enumerate(game.score()):
        rows = score_rows(game, score, seat, IMAGE_WORDS)
        assert sum(points for _label, points in rows) == score.total
        assert rows[0][1] == game.state.players[seat].route_points


def test_the_longest_path_is_drawn_in_gold_and_only_there(map_name: str) -> None:
    game = crowded_game(map_name)
    layout = board_layout(map_name)
    longest = longest_path_routes(game, game.score())
    assert longest
    final = board_area(decode(render_final(game, words=IMAGE_WORDS).png), map_name)
    public = board_area(decode(render_board(game, words=IMAGE_WORDS).png), map_name)
    gold = _gold(final)
    assert _gold(public).getbbox() is None
    regions = []
    for route_id in longest:
        route = game.board.routes[route_id]
        for space in route.spaces:
            x, y = layout.to_pixel(space.x, space.y)
            regions.append((x, y, layout.reach(route)))
            # gold shows around each space of the path
            r = layout.reach(route)
            assert gold.crop((int(x - r), int(y - r), int(x + r), int(y + r))).getbbox(), (route.a, route.b)
    assert outside(gold, discs(final.size, regions)) is None


def test_the_final_alt_text_gives_every_total(map_name: str) -> None:
    game = crowded_game(map_name)
    alt = render_final(game, words=IMAGE_WORDS).alt_text
    assert alt.startswith("Final scores")
    for score in game.score():
        assert f"{score.total} (" in alt


def test_an_unfinished_game_shows_scores_as_if_it_ended_now() -> None:
    image = render_final(start_game("india"), words=IMAGE_WORDS)
    assert image.alt_text.startswith("Scores on the India board if the game ended now")
