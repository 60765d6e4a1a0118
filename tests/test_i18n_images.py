"""The images' words and alt texts, the clock, moderation, ratings and `/ttr rules` texts in Swedish and Finnish.

Each text is written for real games (the render tests' games, every map) and
checked three ways: no English text of these modules is left in a Swedish or
Finnish one, the words of that language are there, and every placeholder was
filled. The catalogue entries of these modules are checked too: translated, not
fuzzy, with the English text's placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po
from test_render_support import crowded_game, start_game

from bot.present import audit, clock, mod_answers, moderation, ratings
from bot.present.i18n import speaking
from bot.present.image_words import IMAGE_WORDS, image_words
from bot.present.rules import rules_text
from bot.service import ClockSettings, TimeoutPolicy
from bot.service.events import Ended, Extended, Outage, Paused, Reopened, Resumed, Timeout, Undone
from bot.service.kinds import Language
from bot.service.ratings import Leaderboard
from engine.game import Game
from maps import MAP_NAMES, load_board
from render import render_board, render_final, render_private
from render.words import ImageWords, LegendMark

LOCALE = Path(__file__).resolve().parent.parent / "bot" / "present" / "locale"
# the modules whose texts this test owns (their catalogue entries, by the file that uses them)
OWNED = (
    "bot/present/image_words.py",
    "bot/present/alt_texts.py",
    "bot/present/clock.py",
    "bot/present/moderation.py",
    "bot/present/mod_answers.py",
    "bot/present/audit.py",
    "bot/present/ratings.py",
    "bot/present/rules.py",
)
FOREIGN = (Language.SV, Language.FI)
PLACEHOLDER = re.compile(r"\{(\w*)\}")
WORD = re.compile(r"[A-Za-z]{4,}")


@cache
def catalogue(language: Language) -> list[Message]:
    path = LOCALE / language.value / "LC_MESSAGES" / "conductor.po"
    with path.open("rb") as f:
        return [m for m in read_po(f, locale=language.value) if m.id]


def owned(message: Message) -> bool:
    return any(file in OWNED for file, _ in message.locations)


def forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def english_pieces(language: Language) -> set[str]:
    """The English words of our texts that a translation must not keep: each msgid's text between placeholders
    (at least two words, one of them a long one), unless the translation itself has that text."""
    pieces: set[str] = set()
    # a game word of bot/present/words.py not translated yet is its own module's business, not ours
    elsewhere = {text for m in catalogue(language) if not owned(m) and not all(forms(m.string)) for text in forms(m.id)}
    for message in catalogue(language):
        if not owned(message):
            continue
        translated = " ".join(forms(message.string))
        for english in forms(message.id):
            for piece in PLACEHOLDER.split(english)[::2]:
                piece = piece.strip(" .,:;()*`-·")
                if " " in piece and WORD.search(piece) and piece not in translated and piece not in elsewhere:
                    pieces.add(piece)
    return pieces


def assert_written_in(language: Language, texts: list[str]) -> None:
    joined = "\n".join(texts)
    assert "{" not in joined and "}" not in joined, joined
    left = sorted(p for p in english_pieces(language) if p in joined)
    assert not left, (language, left)


# ----- the catalogue ------------------------------------------------------------------


@pytest.mark.parametrize("language", FOREIGN)
def test_the_check_finds_english_left_in_a_text(language: Language) -> None:
    assert len(english_pieces(language)) > 150
    with pytest.raises(AssertionError):
        assert_written_in(language, [IMAGE_WORDS.legend(LegendMark.TUNNEL, load_board("switzerland").rules)])
    with pytest.raises(AssertionError):
        assert_written_in(language, [mod_answers.role_step_text()])
    with pytest.raises(AssertionError):
        assert_written_in(language, ["Your cards: {cards}."])


@pytest.mark.parametrize("language", FOREIGN)
def test_every_text_of_these_modules_is_translated_with_its_placeholders(language: Language) -> None:
    mine = [m for m in catalogue(language) if owned(m)]
    assert len(mine) > 200
    for message in mine:
        assert "fuzzy" not in message.flags, message.id
        expected = {p for text in forms(message.id) for p in PLACEHOLDER.findall(text)}
        for text in forms(message.string):
            assert text, message.id
            assert set(PLACEHOLDER.findall(text)) <= expected, (message.id, text)


# ----- the images -----------------------------------------------------------------------


def games(map_name: str) -> Iterator[Game]:
    yield start_game(map_name)
    yield crowded_game(map_name)


def panel_words(words: ImageWords, map_name: str) -> list[str]:
    """The texts drawn in the panels (not in the alt text): headings, piles, legend, rows."""
    rules = load_board(map_name).rules
    texts = [
        words.turn_heading(rules, 12),
        words.setup_heading(rules),
        words.final_heading(rules),
        words.if_ended_heading(rules),
        words.points_heading(),
        words.final_score_heading(),
        words.face_up_heading(),
        words.piles(30, 4),
        words.tickets_left(rules, 7),
        words.merchandise_left(5),
        words.legend_heading(),
        words.board_caption(rules),
        words.hand_heading(9),
        words.no_cards(),
        words.tickets_heading(rules, 3),
        words.no_tickets_yet(),
        words.offer_heading(1),
        words.ticket_done(8),
        words.ticket_not_done(-8),
        words.winner_badge(),
        words.total(),
        words.routes_row(12, rules),
        words.tickets_done_row(rules, 2),
        words.tickets_failed_row(rules, 1),
        words.longest_row(rules, 9),
        words.merchandise_row(2),
        words.tourists_row(3),
        words.longest_note(rules, [], 0),
        words.longest_note(rules, ["Ann"], 9),
        words.longest_note(rules, ["Ann", "Bo"], 9),
        words.final_round(1),
        words.final_round(2),
        words.to_pay_tunnel("Ann", 2),
        words.to_place_stack("Ann"),
        words.to_keep_tickets(rules, "Ann"),
        words.to_draw_second("Ann"),
        words.drew_tickets("Ann", rules),
        words.kept_tickets("Ann", rules, 2),
        words.gave_up_tunnel("Ann"),
        words.passed("Ann"),
        words.placed_stack("Ann", "alcatraz", "Pier 39"),
        words.won(["Ann", "Bo", "Cy"]),
        words.choosing_tickets(rules, ["Ann", "Bo"]),
        words.nameless_player(0),
    ]
    texts += [words.legend(mark, rules) for mark in LegendMark]
    return texts


def image_texts(words: ImageWords, map_name: str) -> list[str]:
    texts = panel_words(words, map_name)
    for game in games(map_name):
        texts.append(render_board(game, words=words).alt_text)
        texts.append(render_private(game, 0, words=words).alt_text)
        texts.append(render_final(game, words=words).alt_text)
    return texts


@pytest.mark.parametrize("map_name", MAP_NAMES)
@pytest.mark.parametrize("language", FOREIGN)
def test_the_images_and_their_alt_texts_speak_the_language(language: Language, map_name: str) -> None:
    texts = image_texts(image_words(language), map_name)
    assert_written_in(language, texts)
    english = image_texts(IMAGE_WORDS, map_name)
    assert len(texts) == len(english)
    # every text differs from the English one but a few made of names and numbers only
    assert sum(a == b for a, b in zip(texts, english, strict=True)) <= 3


KEY_WORDS = {
    Language.SV: ("Slutpoäng", "Uppvända kort", "Spelare:", "Dina kort", "vinnare", "På brädet", "slänghögen"),
    Language.FI: ("Loppupisteet", "Näkyvät kortit", "Pelaajat:", "Korttisi", "voittaja", "Laudalla", "poistopakka"),
}
TITLES = {Language.SV: ("Schweiz", "Indien"), Language.FI: ("Sveitsi", "Intia")}


@pytest.mark.parametrize("language", FOREIGN)
def test_the_images_use_the_languages_own_words_and_map_titles(language: Language) -> None:
    joined = "\n".join(image_texts(image_words(language), "switzerland") + image_texts(image_words(language), "india"))
    for word in KEY_WORDS[language] + TITLES[language]:
        assert word.casefold() in joined.casefold(), word
    amsterdam = image_words(language).tickets_heading(load_board("amsterdam").rules, 2)
    assert amsterdam.startswith("Dina kontrakt" if language is Language.SV else "Sinun sopimukset"), amsterdam


def test_each_language_has_its_own_words_object_and_the_english_one_is_unchanged() -> None:
    assert image_words(Language.SV) is image_words(Language.SV)
    assert image_words(Language.SV) is not image_words(Language.FI)
    rules = load_board("amsterdam").rules
    assert IMAGE_WORDS.tickets_heading(rules, 2) == "Your contracts (2)"
    assert IMAGE_WORDS.final_round(1) == "Final round: 1 turn left"
    assert image_words(Language.FI).final_round(1) == "Viimeinen kierros: 1 vuoro jäljellä"
    assert image_words(Language.FI).final_round(5) == "Viimeinen kierros: 5 vuoroa jäljellä"
    assert image_words(Language.SV).final_round(5) == "Sista rundan: 5 turer kvar"


# ----- /ttr rules -------------------------------------------------------------------------

COMMANDS = {
    Language.EN: "`/ttr draw`, `/ttr claim`",
    Language.SV: "`/ttr dra`, `/ttr bygg`",
    Language.FI: "`/ttr nosta`, `/ttr rakenna`",
}


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_the_rules_exist_in_three_languages_paragraph_for_paragraph(map_name: str) -> None:
    board = load_board(map_name)
    texts = {}
    for language in Language:
        with speaking(language):
            texts[language] = rules_text(board)
        assert COMMANDS[language] in texts[language]
        assert len(texts[language]) <= 2000
    assert len(set(texts.values())) == 3
    paragraphs = {len(text.split("\n")) for text in texts.values()}
    assert len(paragraphs) == 1
    for language in FOREIGN:
        assert_written_in(language, [texts[language]])


def test_the_rules_name_each_maps_tickets_in_each_language() -> None:
    with speaking(Language.SV):
        assert "**Kontrakt:**" in rules_text(load_board("amsterdam"))
        assert "**Biljetter:**" in rules_text(load_board("usa"))
    with speaking(Language.FI):
        assert "**Sopimuskortit:**" in rules_text(load_board("amsterdam"))
        assert "**Menoliput:**" in rules_text(load_board("usa"))
        assert "**Sveitsi**" in rules_text(load_board("switzerland"))


# ----- clock, moderation, moderator answers, audit log, ratings -----------------------------


def timeout(count: int, policy: TimeoutPolicy) -> Timeout:
    return Timeout(0, "ann", "Ann", 11, count, policy)


SAMPLES: list[Callable[[], str]] = [
    lambda: clock.duration_text(2 * 86400 + 3 * 3600),
    lambda: clock.duration_text(5 * 3600 + 20 * 60),
    lambda: clock.settings_text(ClockSettings(turn_seconds=12 * 3600, reserve_seconds=86400)),
    lambda: clock.settings_text(ClockSettings(turn_seconds=3600, reserve_seconds=0, reminders=())),
    lambda: clock.settings_text(ClockSettings(turn_seconds=3600, policy=TimeoutPolicy.WAIT)),
    lambda: clock.outage_text(Outage(4000)),
    clock.paused_line,
    clock.out_of_time_line,
    lambda: moderation.timeout_text(timeout(1, TimeoutPolicy.AUTOPILOT)),
    lambda: moderation.timeout_text(timeout(1, TimeoutPolicy.WAIT)),
    lambda: moderation.paused_text(Paused("")),
    lambda: moderation.resumed_text(Resumed("", 600)),
    lambda: moderation.extended_text(Extended(3600, ("ann", "bob"), "")),
    lambda: moderation.undone_text(Undone(1, 9, 8, "bob", "")),
    lambda: moderation.undone_text(Undone(5, 9, 4, None, "")),
    lambda: moderation.ended_text(Ended(True, "")),
    lambda: moderation.ended_text(Ended(False, "")),
    lambda: moderation.reopened_text(Reopened(7200, "")),
    lambda: moderation._timeout_done(timeout(1, TimeoutPolicy.AUTOPILOT)),
    lambda: moderation._timeout_done(timeout(5, TimeoutPolicy.WAIT)),
    mod_answers.not_a_moderator_text,
    mod_answers.servers_only_text,
    mod_answers.no_game_in_progress_text,
    lambda: mod_answers.no_such_player_text("zed", 4, ["ann", "bob"]),
    lambda: mod_answers.no_such_player_text("zed", 4, []),
    lambda: mod_answers.paused_answer(4),
    lambda: mod_answers.undone_answer(2, 4),
    lambda: " ".join(mod_answers.confirm_button_labels(True) + mod_answers.confirm_button_labels(False)),
    lambda: mod_answers.confirm_stale_text(True, 600),
    lambda: mod_answers.confirm_stale_text(False, 600),
    lambda: mod_answers.end_question_text(4, "USA", scored=True, reopen_hours=24),
    lambda: mod_answers.end_question_text(4, "USA", scored=False, reopen_hours=24),
    lambda: mod_answers.ended_answer(4, scored=True),
    lambda: mod_answers.end_question_text(4, "USA", scored=False, reopen_hours=24, counted=True),
    lambda: mod_answers.ended_answer(4, scored=False, counted=True),
    mod_answers.role_step_text,
    mod_answers.managers_only_text,
    lambda: audit.audit_text(audit.AuditAction.EXTEND, {"player": "ann", "seconds": 60}, ""),
    lambda: audit.audit_text(audit.AuditAction.OUTAGE, {"seconds": 60}, ""),
    lambda: audit.audit_text(audit.AuditAction.PAUSE, {}, "lunch"),
    ratings.rated_switch_text,
    ratings.scale_note,
    lambda: " ".join(ratings.leaderboard_buttons()),
]


@pytest.mark.parametrize("language", FOREIGN)
def test_clock_moderation_and_ratings_texts_speak_the_language(language: Language) -> None:
    with speaking(language):
        texts = [sample() for sample in SAMPLES]
    english = [sample() for sample in SAMPLES]
    assert_written_in(language, texts)
    assert sum(a != b for a, b in zip(texts, english, strict=True)) >= len(SAMPLES) - 2


def test_slash_commands_in_texts_use_the_localized_names() -> None:
    with speaking(Language.SV):
        assert "`/ttrmod återuppta`" in mod_answers.paused_answer(1)
        assert "`/ttr serverinställningar ranka-vanliga:på`" in ratings.leaderboard_text(Leaderboard(1, None, 1, 1, ()))
        assert "`/ttrmod avsluta`" in mod_answers.confirm_stale_text(True, 60)
    with speaking(Language.FI):
        assert "`/ttrmod jatka`" in mod_answers.paused_answer(1)
        assert "`/ttrmod kumoa`" in mod_answers.confirm_stale_text(False, 60)
        assert "`/ttr palvelinasetukset`" in mod_answers.not_a_moderator_text()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (Language.EN, ("1 d 3 h", "1 game", "2 games", "5 games", "Took back 1 move in game #4.")),
        (Language.SV, ("1 d 3 t", "1 parti", "2 partier", "5 partier", "Tog tillbaka 1 drag i parti #4.")),
        (Language.FI, ("1 pv 3 t", "1 peli", "2 peliä", "5 peliä", "Peruttiin 1 siirto pelissä #4.")),
    ],
)
def test_counted_words_and_durations_in_each_language(language: Language, expected: tuple[str, ...]) -> None:
    with speaking(language):
        written = (
            clock.duration_text(86400 + 3 * 3600),
            ratings._games(1),
            ratings._games(2),
            ratings._games(5),
            mod_answers.undone_answer(1, 4),
        )
    assert written == expected
