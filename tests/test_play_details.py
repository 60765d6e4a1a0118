"""Details a member met playing the try-out and the bot (found by playing it): each one a small thing the
member read wrong or could not use."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from bot.present.i18n import speaking
from bot.present.image_words import image_words
from bot.present.names import ticket_label
from bot.present.recap import recap_lines
from bot.present.refusals import refusal_text
from bot.service import Actor, GameInfo, SeatInfo, ServiceError, Why
from bot.service.choices import RouteChoice
from bot.service.errors import IdKind
from bot.service.history import stage_key, stages
from bot.service.kinds import Language
from bot.service.scores import ticket_labels
from bot.store import GameStatus
from bot.views.panels import route_view, ticket_view
from engine import Game
from engine.autopilot import choose_move
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


def test_the_first_turn_message_does_not_call_the_starting_tickets_the_last_turn() -> None:
    """When a member takes the first turn, its message tells what happened before it: only the starting tickets.
    That is no turn: "**Tickets at the start:** ...", not "**Last turn:** ann keeps 2 starting tickets"."""
    info = GameInfo(
        1,
        2,
        3,
        10,
        "usa",
        GameStatus.PLAYING,
        1,
        4,
        None,
        (SeatInfo(10, "ann", 0, "ann"), SeatInfo(11, "bob", 1, "bob")),
        datetime(2026, 1, 1, tzinfo=UTC),
    )
    game = Game(load_board("usa"), ["ann", "bob"], "seed", trains=8)
    while stage_key(game) == "setup":
        game.apply(choose_move(game, game.waiting_for()[0]))
    told = stages(info, game, [Actor.PLAYER] * len(game.moves))
    assert [stage.key for stage in told] == ["setup"]
    for language, title in ((Language.EN, "Tickets at the start"), (Language.SV, "Biljetter vid start")):
        with speaking(language):
            (line,) = recap_lines(info, told, set())
        assert line.startswith(f"**{title}:** ann "), line


def test_the_ticket_menu_words_a_country_ticket_in_the_members_language() -> None:
    """Switzerland's country tickets: the text lists "Italia till France 11, ..." in Swedish, and the menu beside
    it must say the same, not the board's English "Italia to France 11, ..."."""
    board = load_board("switzerland")
    country = [t for t in range(len(board.tickets)) if board.tickets[t].is_country_ticket]
    offered = ticket_labels(board, [*country[:3], next(t for t in range(len(board.tickets)) if t not in country)])
    for language in Language:
        with speaking(language):
            view = ticket_view(1, 1, board.rules, offered, 1, setup=True)
            wanted = [ticket_label(board, t.id) for t in offered]
        (menu,) = view.children
        labels = [option["label"] for option in menu.to_component_dict()["options"]]
        assert labels == wanted, (language, labels)
    with speaking(Language.SV):
        view = ticket_view(1, 1, board.rules, offered, 1, setup=True)
    (menu,) = view.children
    assert all(" till " in option["label"] for option in menu.to_component_dict()["options"][:3])


def test_a_leaderboard_page_that_is_not_there_counts_the_pages_in_words() -> None:
    """`/ttr leaderboard page:5` with one page: "the leaderboard has 1 page", not "1 page(s)" ("1 sida/sidor")."""
    wanted = {
        Language.EN: ("has 1 page.", "has 2 pages."),
        Language.SV: ("har 1 sida.", "har 2 sidor."),
        Language.FI: ("on 1 sivu.", "on 2 sivua."),
    }
    for language, (one, two) in wanted.items():
        with speaking(language):
            single = refusal_text(ServiceError(Why.BAD_PAGE, {"page": 5, "pages": 1}))
            double = refusal_text(ServiceError(Why.BAD_PAGE, {"page": 0, "pages": 2}))
        assert single.endswith(one) and "5" in single, single
        assert double.endswith(two) and "0" in double, double
        assert not {"(", "/"} & set(single + double), (single, double)


def test_the_board_image_says_tickets_are_being_chosen_not_cards() -> None:
    """At the start and after a ticket draw the image's header tells who chooses tickets; in Swedish and Finnish it
    said "cards" ("vilka kort de behåller", "pidettävät kortit"), a different thing in this game."""
    for language, ticket, card in ((Language.SV, "biljett", "kort"), (Language.FI, "menolip", "kortt")):
        words = image_words(language)
        rules = load_board("usa").rules
        for said in (words.choosing_tickets(rules, ["Åsa", "Robin"]), words.to_keep_tickets(rules, "Åsa")):
            assert ticket in said.lower() and card not in said.lower(), said
            assert "Åsa" in said, said


def test_a_game_number_that_cannot_be_one_is_refused_in_a_sentence() -> None:
    """`/ttr hand game:-1` answered "the game id must be a positive whole number, not -1": a clause (lower case,
    no full stop) among refusals that are all sentences. In every language it is one now."""
    for language in Language:
        for kind in IdKind:
            with speaking(language):
                said = refusal_text(ServiceError(Why.BAD_ID, {"what": kind.value, "value": -1}))
            assert said[0].isupper() and said.endswith("."), (language, said)
            assert said.rstrip(".").endswith("-1"), said
