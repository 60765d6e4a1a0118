"""Details a member met playing the try-out and the bot (found by playing it): each one a small thing the
member read wrong or could not use."""

from __future__ import annotations

from collections import Counter

from bot.present.i18n import speaking
from bot.service.choices import RouteChoice
from bot.service.kinds import Language
from bot.views.panels import route_view
from maps import load_board


def test_the_claim_menus_name_their_first_and_last_route_whole() -> None:
    """With more than 25 routes to claim, each menu says which routes it holds: "Routes Atlanta - Charleston …
    Montréal - Toronto", not the routes' labels cut after 20 characters ("… Montréal - Toronto (")."""
    board = load_board("usa")
    options = [RouteChoice(route, (Counter({"locomotive": route.length}),), ()) for route in board.routes]
    for language in Language:
        with speaking(language):
            view = route_view(1, 1, board.rules, options)
        placeholders = [item.to_component_dict().get("placeholder", "") for item in view.children]
        assert len(placeholders) > 1, placeholders
        for placeholder in placeholders:
            assert "(" not in placeholder and len(placeholder) <= 150, placeholder
            first, _, last = placeholder.partition(" … ")
            assert first.split(" ", 1)[1] in {f"{r.a} - {r.b}" for r in board.routes}, placeholder
            assert last in {f"{r.a} - {r.b}" for r in board.routes}, placeholder
