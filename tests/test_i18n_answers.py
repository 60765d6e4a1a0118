"""The answer and lookup texts in Swedish and Finnish: answers, lookups, refusals, the lobby, claims, the private
panel and its labels, DMs, the catch-up digest, paging, cards and seats.

Each text is rendered for real game states (a game of every map played a while by the autopilot) in each language,
and read for what a translation must do: no English text of these modules left in it, the placeholders filled, the
game's own words there, and the plural forms right for 1, 2 and 5.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.present import answers, claims, decisions, digest, dms, lobby, lookup, paging, played_for, refusals, seats
from bot.present.cards import format_cards
from bot.present.i18n import speaking
from bot.service import GameInfo, Must, SeatInfo, ServiceError, Why
from bot.service.choices import ClaimBlock, ClaimRefusal
from bot.service.digest import digest as make_digest
from bot.service.errors import ClockPart, IdKind
from bot.service.events import Cancelled, Created, HostChanged, Joined, Left, Started
from bot.service.kinds import Language
from bot.store import GameStatus
from engine import Game
from engine.autopilot import choose_move
from engine.errors import AlreadyClaimed
from maps import MAP_NAMES, WILD, load_board

LOCALE = Path(__file__).parent.parent / "bot" / "present" / "locale"
MODULES = (
    "refusals",
    "tournament_refusals",
    "answers",
    "lookup",
    "decisions",
    "claims",
    "lobby",
    "dms",
    "played_for",
    "paging",
    "digest",
    "cards",
    "seats",
)
OTHERS = (Language.SV, Language.FI)
START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
PLACEHOLDER = re.compile(r"\{[^}]*\}")
# the same in English and the translation (names, numbers, marks)
SAME = {
    (Language.SV, "#{game_id} · {title} · {status}"),
    (Language.FI, "#{game_id} · {title} · {status}"),
    (Language.SV, "{move} (autopilot)"),
    (Language.SV, "{player} (autopilot)"),
}


def _owned(message_locations: list[tuple[str, int | None]], context: str | None) -> bool:
    """A text of these modules, or one of the words they added to words.py (statuses, uncounted plurals)."""
    if any(Path(path).stem in MODULES and "bot/present" in path for path, _ in message_locations):
        return True
    return context is not None and (context == "game status" or context.endswith(", plural"))


def _catalogue(language: Language):  # type: ignore[no-untyped-def]
    with (LOCALE / language.value / "LC_MESSAGES" / "conductor.po").open("rb") as f:
        return read_po(f, locale=language.value)


def _forms(message_id: str | tuple[str, ...]) -> tuple[str, ...]:
    return message_id if isinstance(message_id, tuple) else (message_id,)


OWNED = [m for m in _catalogue(Language.EN) if m.id and _owned(m.locations, m.context)]
# the English words of the owned texts, between their placeholders: none of them may be in a translated text
FRAGMENTS = sorted(
    {
        part.strip()
        for m in OWNED
        for form in _forms(m.id)
        for part in PLACEHOLDER.split(form)
        if len(part.strip()) >= 12
    }
)


def test_the_owned_texts_are_many() -> None:
    assert len(OWNED) > 150
    assert "There is no game in this channel. Open one with `/ttr new`." in {m.id for m in OWNED}


@pytest.mark.parametrize("language", OTHERS)
def test_every_owned_text_is_translated_with_the_same_placeholders(language: Language) -> None:
    catalogue = _catalogue(language)
    for english in OWNED:
        message = catalogue.get(english.id, context=english.context)
        assert message is not None, english.id
        assert "fuzzy" not in message.flags, english.id
        strings = _forms(message.string)
        assert all(strings), english.id
        wanted = {p for form in _forms(english.id) for p in PLACEHOLDER.findall(form)}
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted, (english.id, string)
        if (language, _forms(english.id)[0]) not in SAME:
            assert strings[0] != _forms(english.id)[0], english.id


# ----- real game states --------------------------------------------------------------------------------------------


def _info(game: Game, status: GameStatus = GameStatus.PLAYING, trains: int | None = None) -> GameInfo:
    seated = tuple(SeatInfo(100 + i, name, i, name, autopilot=i == 1) for i, name in enumerate(game.names))
    return GameInfo(12, 1, 55, 100, game.board.name, status, 7, game.rules.max_players, trains, seated, START)


def _played(map_name: str) -> Game:
    """A game of `map_name` played by the autopilot into its turns, a few rounds in."""
    board = load_board(map_name)
    game = Game(board, ["ann", "bob", "cid"][: max(2, board.rules.min_players)], f"texts1-{map_name}")
    moves = 0
    while not game.finished and moves < 40:
        to_move = game.to_move()
        assert to_move is not None
        game.apply(choose_move(game, to_move.player))
        moves += 1
    return game


def _refusals(map_name: str) -> Iterator[ServiceError]:
    facts: dict[str, object] = {
        "map": map_name,
        "maps": tuple(MAP_NAMES),
        "type": "int",
        "last": 3,
        "value": "x",
        "name": "public",
        "high": 9,
        "low": 2,
        "count": 4,
        "choices": ("pass", "autopilot"),
        "names": ("turn",),
        "key": "reminders",
        "keys": ("reminders", "language"),
        "page": 5,
        "pages": 2,
        "levels": "easy, steady",
        "limit": 3,
        "turns": 30,
        "game_id": 12,
        "route_id": 7,
        "player": "ann",
        "claimed": "bob",
        "status": GameStatus.FINISHED,
        "seats": 4,
        "newer": 13,
        "hours": 24,
        "error": "boom",
        "index": 3,
        "joined": 1,
        "game_ids": (12, 13),
        # tournaments
        "tournament_id": 1,
        "round": 2,
        "table": 3,
        "rounds": 3,
        "players": 1,
    }
    for why in [*refusals.TEMPLATES, *refusals.WORDED]:
        if why is Why.AGAINST_RULES:
            continue  # the rules' own words
        if why is Why.BAD_ID:
            yield from (ServiceError(why, {**facts, "what": kind.value}) for kind in IdKind)
        elif why is Why.BAD_SECONDS:
            yield from (ServiceError(why, {**facts, "setting": part.value}) for part in ClockPart)
        elif why is Why.SEATED_MODERATOR:
            yield from (ServiceError(why, {**facts, "what": what}) for what in ("log", "record"))
        elif why is Why.CHANNEL_BUSY:
            yield ServiceError(why, {})
            yield ServiceError(why, facts)
        else:
            yield ServiceError(why, facts)


def _texts(map_name: str) -> Iterator[str]:
    """Every text of the owned modules, for a game of `map_name`."""
    game = _played(map_name)
    rules = game.rules
    info = _info(game)
    lobby_info = dataclasses.replace(_info(game, GameStatus.LOBBY), clock=info.clock)
    route = next(r for r in game.board.routes if r.color != "gray")
    gray = next((r for r in game.board.routes if r.color == "gray"), route)
    seat = game.names.index(game.to_move().player) if game.to_move() else 0  # type: ignore[union-attr]
    report = make_digest(info, game, seat)
    quiet = dataclasses.replace(report, moves=())  # the moves are the events' texts, not these modules'

    yield from (refusals.refusal_text(error) for error in _refusals(map_name))

    yield answers.opened_text(12)
    yield answers.joined_text(12)
    yield answers.you_left_text(12)
    yield answers.left_text("Autopilot 1", 12)
    yield answers.cancelled_text(12)
    yield answers.started_text(12, decisions.turn_prompt(rules))
    yield answers.bot_seated_text(12)
    yield answers.no_bot_to_remove_text(12)
    yield answers.no_such_bot_text("robo", ["Autopilot 1", "Autopilot 2"])
    yield answers.stale_text(decisions.second_draw_prompt())
    yield answers.not_drawable_text("mauve", ["red", "blue"])
    yield answers.not_drawable_text("mauve", [])
    yield answers.no_tickets_offered_text()
    yield answers.board_caption(12)
    yield answers.no_card_there_text()
    yield answers.out_of_date_text("https://discord.com/channels/1/55/9")
    yield answers.out_of_date_text(None)
    yield answers.no_longer_used_text()
    yield answers.stage_failed_text()
    for what in ("record", "log"):
        for status in GameStatus:
            yield answers.file_caption(what, 12, status.value)
    yield answers.deck_choice()
    yield answers.nothing_yet_text(started=True)
    yield answers.nothing_yet_text(started=False)
    yield answers.apology_text()
    yield answers.too_fast_text(5)

    yield lookup.not_started_text()
    yield lookup.no_game_here_text([(12, 55), (13, 56)])
    yield lookup.no_game_here_text([])
    yield lookup.played_elsewhere_text(12, 55)
    yield lookup.never_played_here_text()
    yield lookup.no_such_game_text(12)
    yield lookup.not_on_this_server_text(12)
    yield lookup.not_a_player_text(12)
    yield lookup.game_over_text()
    yield lookup.not_your_turn_text(lookup.game_over_text())
    yield lookup.no_scores_text(12)
    for status in GameStatus:
        yield lookup.game_choice_name(12, rules.title, status.value)
        yield decisions.game_is_text(12, status.value)

    yield decisions.second_draw_prompt()
    yield decisions.tunnel_prompt(2, can_pay=True)
    yield decisions.tunnel_prompt(1, can_pay=False)
    yield decisions.stack_prompt()
    yield decisions.nothing_to_do_prompt()
    pay = {rules.colors[0]: 2, WILD: 1}
    yield from (
        decisions.hand_label(),
        decisions.pass_label(),
        decisions.draw_deck_label(),
        decisions.claim_label(rules),
        decisions.take_card_label(rules, rules.colors[0]),
        decisions.keep_tickets_placeholder(rules, 2),
        decisions.pay_more_label(rules, pay),
        decisions.give_up_label(),
        decisions.route_example(rules, pay),
        decisions.routes_placeholder(rules, "Aa", "Bb"),
        decisions.choose_route_placeholder(rules),
        decisions.choose_payment_placeholder(),
        decisions.choose_souvenir_placeholder(),
        decisions.choose_tickets_label(rules),
        decisions.place_stack_label(),
        decisions.which_stack_placeholder(),
        decisions.go_on_label(),
        decisions.pay_another_way_placeholder(),
    )

    yield claims.claim_refusal_text(rules, ClaimRefusal(ClaimBlock.NOT_UNDER_WAY))
    yield claims.claim_refusal_text(rules, ClaimRefusal(ClaimBlock.NOT_YOUR_TURN, to_move="bob"))
    yield claims.claim_refusal_text(
        rules, ClaimRefusal(ClaimBlock.ROUTE_TAKEN, route=route, reason=AlreadyClaimed(route.a, route.b, route.color))
    )
    yield claims.claim_refusal_text(rules, ClaimRefusal(ClaimBlock.TOO_FEW_TRAINS, route=route, needs=5, has=2))
    yield claims.claim_refusal_text(rules, ClaimRefusal(ClaimBlock.CANNOT_PAY, route=route))
    yield claims.claim_refusal_text(rules, ClaimRefusal(ClaimBlock.CANNOT_PAY, route=gray))
    yield claims.payment_prompt(gray.label())
    yield claims.souvenir_prompt()
    yield claims.nothing_claimable_text(rules)
    yield claims.claimable_text(120, rules)

    yield lobby.created_text(Created("ann", map_name, 4, 0))
    yield lobby.created_text(Created("", map_name, 4, 2))
    yield lobby.joined_text(Joined("bob", 2, 4))
    yield lobby.joined_text(Joined("Autopilot 1", 3, 4, autopilot=True))
    yield lobby.left_text(Left("bob"))
    yield lobby.left_text(Left("Autopilot 1", autopilot=True))
    yield lobby.host_changed_text(HostChanged("bob"))
    yield from (lobby.cancelled_text(Cancelled(*flags)) for flags in ((False, False), (True, False), (False, True)))
    yield lobby.started_text(info, Started(tuple(game.names), ()))
    yield lobby.lobby_text(lobby_info)
    yield lobby.lobby_text(dataclasses.replace(lobby_info, trains=20))
    yield from (lobby.join_label(), lobby.leave_label(), lobby.start_label())

    url = "https://discord.com/channels/1/55/9"
    yield dms.your_turn_dm(info, url, digest.digest_lines(info, quiet), START)
    yield dms.choose_tickets_dm(info, url)
    yield dms.seat_given_dm(info, answers.bot_seated_text(12))
    yield played_for.played_for_dm(info, url, ())

    yield paging.not_your_pages_text()
    yield paging.page_footer(0, 3)
    yield from paging.pages(["one line", "another line"])
    yield paging.replay_caption(12, 0, 30)
    yield paging.replay_caption(12, 4, 30)
    yield from (paging.button_label(label) for label in (*paging.HISTORY_BUTTONS, *paging.REPLAY_BUTTONS))

    yield digest.digest_text(info, quiet)
    yield digest.digest_text(info, dataclasses.replace(quiet, since_move=0))
    yield format_cards(rules, {})

    yield seats.member_name("", 3)
    yield seats.member_name("")
    yield seats.mention(None)
    yield seats.mention(-1)
    yield seats.player_label(info, "bob")
    yield seats.player_label(info, None)


def _check(language: Language, texts: list[str]) -> None:
    assert texts
    for text in texts:
        assert "{" not in text and "}" not in text, text
        for fragment in FRAGMENTS:
            assert fragment not in text, (language, fragment, text)


@pytest.mark.parametrize("map_name", MAP_NAMES)
@pytest.mark.parametrize("language", OTHERS)
def test_the_texts_of_a_game_are_in_its_language(language: Language, map_name: str) -> None:
    english = list(_texts(map_name))
    with speaking(language):
        translated = list(_texts(map_name))
    _check(language, translated)
    assert len(translated) == len(english)
    changed = sum(a != b for a, b in zip(english, translated, strict=True))
    assert changed >= len(english) - 25  # a few are names and numbers only ("#12 · USA · finished" is not)
    # English stays English outside `speaking`
    _check_english(english)


def _check_english(texts: list[str]) -> None:
    assert "There is no game in this channel. Open one with `/ttr new`." in texts
    assert "Routes can be claimed once the game is under way." in texts
    assert "-# page 1 of 3" in texts


WORDS: dict[Language, tuple[str, ...]] = {
    # game, the route, claim, the autopilot, the host, the deck: the USA rulebook's (Swedish: "bygga en rutt")
    Language.SV: ("parti", "rutt", "bygg", "autopilot", "värd", "högen", "Partiet"),
    Language.FI: ("peli", "reitti", "rakenna", "autopilotti", "isäntä", "pakka", "Peli"),
}
# the route and the claim in the other four rulebooks, Amsterdam's among them ("muta in en sträcka")
OTHER_MAPS_WORDS: dict[Language, tuple[str, ...]] = {
    Language.SV: ("sträck", "muta in"),
    Language.FI: ("reitti", "rakenna"),
}


@pytest.mark.parametrize("language", OTHERS)
def test_the_game_words_are_the_languages_own(language: Language) -> None:
    with speaking(language):
        text = "\n".join(_texts("usa"))
        amsterdam = "\n".join(_texts("amsterdam"))
    for word in WORDS[language]:
        assert word in text, word
    for word in OTHER_MAPS_WORDS[language]:
        assert word in amsterdam, word
    if language is Language.SV:
        assert "sträck" not in text.replace("`", "") and "muta in" not in text
        assert " rutt" not in amsterdam and "bygger" not in amsterdam
    with speaking(language):
        assert "`/ttr " + {Language.SV: "starta", Language.FI: "aloita"}[language] + "`" in text
        assert lookup.no_game_here_text([]).endswith({Language.SV: "`/ttr ny`.", Language.FI: "`/ttr uusi`."}[language])


def test_uncounted_tickets_and_wilds_are_said_without_a_number() -> None:
    usa, amsterdam = load_board("usa").rules, load_board("amsterdam").rules
    assert decisions.choose_tickets_label(amsterdam) == "Choose my contracts"
    with speaking(Language.FI):
        assert decisions.choose_tickets_label(usa) == "Valitse menoliput"
        assert decisions.choose_tickets_label(amsterdam) == "Valitse sopimukset"
        gray = next(r for r in load_board("amsterdam").routes if r.color == "gray")
        assert "(jokerikortit käyvät" in claims.claim_refusal_text(
            amsterdam, ClaimRefusal(ClaimBlock.CANNOT_PAY, route=gray)
        )
    with speaking(Language.SV):
        assert decisions.keep_tickets_placeholder(amsterdam, 1) == "Behåll minst 1 av dessa kontrakt"


# ----- plural forms: 1, 2 and 5 ------------------------------------------------------------------------------------

PLURALS: dict[Language, dict[str, tuple[str, str, str]]] = {
    Language.SV: {
        "routes": ("Du kan muta in 1 sträcka nu.", "Du kan muta in 2 sträckor nu.", "Du kan muta in 5 sträckor nu."),
        "tunnel": ("Tunneln kräver 1 kort till.", "Tunneln kräver 2 kort till.", "Tunneln kräver 5 kort till."),
        "seats": ("1 plats tas av autopiloten.", "2 platser tas av autopiloten.", "5 platser tas av autopiloten."),
        "trains": ("1 tågvagn var", "2 tågvagnar var", "5 tågvagnar var"),  # the USA rulebook's train cars
    },
    Language.FI: {
        "routes": ("Voit rakentaa nyt 1 reitin.", "Voit rakentaa nyt 2 reittiä.", "Voit rakentaa nyt 5 reittiä."),
        "tunnel": (
            "Tunneli vaatii 1 kortin lisää.",
            "Tunneli vaatii 2 korttia lisää.",
            "Tunneli vaatii 5 korttia lisää.",
        ),
        "seats": ("Autopilotti vie 1 paikan.", "Autopilotti vie 2 paikkaa.", "Autopilotti vie 5 paikkaa."),
        "trains": ("1 junavaunu kullakin", "2 junavaunua kullakin", "5 junavaunua kullakin"),
    },
}


def _counted(what: str, n: int) -> str:
    game = Game(load_board("usa"), ["ann", "bob"], "plural")
    makers: dict[str, Callable[[], str]] = {
        "routes": lambda: claims.claimable_text(n),
        "tunnel": lambda: decisions.tunnel_prompt(n, can_pay=True),
        "seats": lambda: lobby.created_text(Created("ann", "usa", 5, n)),
        "trains": lambda: lobby.lobby_text(dataclasses.replace(_info(game, GameStatus.LOBBY), trains=n)),
    }
    return makers[what]()


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("what", ["routes", "tunnel", "seats", "trains"])
def test_counted_texts_have_each_languages_plural_forms(language: Language, what: str) -> None:
    for n, wanted in zip((1, 2, 5), PLURALS[language][what], strict=True):
        with speaking(language):
            assert wanted in _counted(what, n)
    # and English counts as before
    assert _counted("routes", 1) == "You can claim 1 route now."
    assert _counted("routes", 5) == "You can claim 5 routes now."
    assert _counted("tunnel", 1).startswith("The tunnel asks for 1 more card.")


def test_status_words_follow_the_language() -> None:
    assert lookup.game_choice_name(12, "USA", "finished") == "#12 · USA · finished"
    with speaking(Language.SV):
        assert lookup.game_choice_name(12, "USA", "finished") == "#12 · USA · avslutat"
        assert refusals.refusal_text(ServiceError(Why.ALREADY_OVER, {"status": GameStatus.CANCELLED})) == (
            "Partiet är redan avbrutet."
        )
    with speaking(Language.FI):
        assert decisions.game_is_text(12, "playing") == "Peli #12 on käynnissä."


def test_a_must_in_the_waiting_text_is_filled() -> None:
    rules = load_board("amsterdam").rules
    for language in OTHERS:
        with speaking(language):
            text = lookup.waiting_for_text(rules, ["ann", "b*b"], Must.KEEP)
        assert "{" not in text and "b\\*b" in text
        assert not text.startswith("Now waiting")


# ----- single words a reader notices: a map's title, a game's status, the autopilot's level, a card drawn ------------


def test_map_titles_statuses_and_levels_are_in_the_language_spoken() -> None:
    from bot.present import mod_answers, moves, status
    from bot.present.names import map_title_of
    from bot.present.words import drawn_card_name
    from bot.service.events import CardDrawn
    from bot.service.settings import GuildConfig
    from bot.service.views import public_view

    game = Game(load_board("switzerland"), ["ann", "bob"], "titles")
    info = _info(game)
    with speaking(Language.SV):
        assert lobby.created_text(Created("ann", "switzerland", 5, 0)).startswith("ann öppnar ett Schweiz-parti")
        assert lookup.game_choice_name(3, "India", "finished") == "#3 · Indien · avslutat"
        assert "stadig" in mod_answers.settings_answer(GuildConfig.of(1, {}))
        assert moves.card_drawn_text(game.board, CardDrawn("yellow")) == "Du drog ett gult kort."
        assert map_title_of("Switzerland") == "Schweiz"
    with speaking(Language.FI):
        assert "Sveitsi-pelissäsi" in dms.your_turn_dm(info, "https://x")
        assert "vakaa" in mod_answers.settings_answer(GuildConfig.of(1, {}))
        assert drawn_card_name(game.rules, WILD) == "veturikortin"
        text = status.status_text(info, public_view(info, game), game.rules)
    assert "playing" not in text and "Switzerland" not in text and "Sveitsi" in text, text
    # English as before
    assert moves.card_drawn_text(game.board, CardDrawn("yellow")) == "You drew yellow."
    assert "steady" in mod_answers.settings_answer(GuildConfig.of(1, {}))


def test_whom_the_game_waits_for_is_one_sentence_that_agrees() -> None:
    """Names joined as the language joins them, and the Finnish verb in the number of those waited for."""
    rules = load_board("switzerland").rules
    with speaking(Language.FI):
        one = lookup.waiting_for_text(rules, ["Cecilia"], Must.KEEP)
        two = lookup.waiting_for_text(rules, ["Björn", "Cecilia"], Must.KEEP)
    assert one == "Nyt odotetaan, että Cecilia valitsee pidettävät menoliput."
    assert two == "Nyt odotetaan, että Björn ja Cecilia valitsevat pidettävät menoliput."
    with speaking(Language.SV):
        usa = lookup.waiting_for_text(load_board("usa").rules, ["Cecilia"], Must.TURN)
        both = lookup.waiting_for_text(rules, ["Björn", "Cecilia"], Must.KEEP)
    assert usa == "Nu väntar vi på att Cecilia ska dra kort, bygga en rutt eller dra biljetter."
    assert both == "Nu väntar vi på att Björn och Cecilia ska välja biljetter att behålla."
    assert lookup.waiting_for_text(rules, ["ann", "bob"], Must.KEEP) == (
        "Now waiting for ann and bob to choose tickets to keep."
    )


def test_the_lobby_says_how_well_its_autopilot_players_play() -> None:
    """`/ttr new bots:2 bots_level:strong`: the opening message says which level was chosen, in each language."""
    strong = Created("ann", "usa", 5, 2, "strong")
    assert lobby.created_text(strong).endswith("2 seats are taken by the autopilot. Autopilot level: strong.")
    with speaking(Language.SV):
        assert lobby.created_text(strong).endswith("Autopilotens nivå: stark.")
    with speaking(Language.FI):
        assert "Autopilotin taso: " in lobby.created_text(Created("ann", "usa", 5, 1, "expert"))
    assert "level" not in lobby.created_text(Created("ann", "usa", 5, 0, "strong"))  # no autopilot player
