"""The turn, event and status texts in Swedish and Finnish: whole games through the service, read in each language.

For every map a random game is played to its end through the service; its
public and private event sentences, history, status, hand, final message,
score breakdown and an undo preview are written in sv and fi, and checked:
no English sentence of these modules is left, no placeholder is left unfilled,
and the words of each map's rulebook appear. The counted nouns of
bot/present/words.py and bonus_words.py are checked for 1, 2 and 5 against a table written here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.present.bonus_words import kinds_counted, merchandise_counted, souvenirs_counted
from bot.present.confirm import claim_question, draw_tickets_label, draw_tickets_question
from bot.present.events import private_text, public_text
from bot.present.i18n import LOCALE_DIR, speaking
from bot.present.outline import undo_preview_text
from bot.present.recap import history_lines, recap_lines
from bot.present.retries import move_counted_text, previous_move_counted_text
from bot.present.stage import breakdown_lines, final_content, setup_content, start_text, turn_content
from bot.present.status import final_tickets_text, hand_text, offered_text, status_text
from bot.present.ties import tie_sentence
from bot.present.words import (
    card_count,
    cards_counted,
    ferry_spaces_counted,
    more_cards_counted,
    pieces_counted,
    points_counted,
    spaces_counted,
    tickets_counted,
)
from bot.service import GameInfo, GameService, Must
from bot.service.kinds import Language
from bot.service.scores import final_scores
from engine import Game
from engine.random_play import random_move
from maps import WILD, Rules, load_board
from tests.helpers.service_support import open_service, started_game
from tests.test_viewing_texts import recorded

MAPS = ["usa", "india", "switzerland", "amsterdam", "san_francisco"]
MY_MODULES = (
    "events.py",
    "moves.py",
    "recap.py",
    "stage.py",
    "status.py",
    "ties.py",
    "outline.py",
    "retries.py",
    "layout.py",
    "words.py",
    "bonus_words.py",
    "names.py",
    "confirm.py",
)

# Each map's own words, as its rulebook (bot/present/locale/GLOSSARY.md): they must show up in its texts.
KEY_WORDS: dict[tuple[str, Language], tuple[str, ...]] = {
    ("usa", Language.SV): ("biljett", "tågvagnar", "parti #", "Slutpoäng"),
    ("usa", Language.FI): ("menolippu", "vaunu", "peli #", "Loppupisteet"),
    ("india", Language.SV): ("biljett", "tåg", "Slutpoäng"),
    ("india", Language.FI): ("menolippu", "vaunu", "Loppupisteet"),
    ("switzerland", Language.SV): ("biljett", "tåg", "Slutpoäng"),
    ("switzerland", Language.FI): ("menolippu", "vaunu", "Loppupisteet"),
    ("amsterdam", Language.SV): ("kontrakt", "kärr", "handelsbonuskort"),
    ("amsterdam", Language.FI): ("sopimus", "kärry", "kauppavarabonuskort"),
    ("san_francisco", Language.SV): ("biljett", "spårvagn", "turisthög"),
    ("san_francisco", Language.FI): ("menolippu", "raitiovaunu", "turistipino"),
}


@cache
def english_sentences() -> tuple[tuple[str, str], ...]:
    """(msgid, its longest literal fragment) for the msgids of these modules whose fragment the translations change."""
    template = read_po((LOCALE_DIR / "conductor.pot").open("rb"))
    catalogues = {
        lang: read_po((LOCALE_DIR / lang / "LC_MESSAGES" / "conductor.po").open("rb"), locale=lang)
        for lang in ("sv", "fi")
    }
    found = []
    for message in template:
        if not message.id or not any(Path(path).name in MY_MODULES for path, _ in message.locations):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            fragment = max(re.split(r"\{\w+\}", msgid), key=len).strip()
            if len(fragment) < 12:
                continue
            translated = [catalogues[lang].get(message.id, context=message.context) for lang in catalogues]
            strings = [
                s
                for m in translated
                if m is not None
                for s in (m.string if isinstance(m.string, tuple) else (m.string,))
            ]
            if any(fragment in s for s in strings):
                continue  # the same in every language (a name)
            found.append((msgid, fragment))
    return tuple(found)


async def _play(service: GameService, game_id: int, rng: random.Random) -> tuple[list[object], list[object]]:
    """A random game to its end; every public and private event told on the way."""
    public: list[object] = []
    private: list[object] = []
    for _ in range(3000):
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        if move is None:
            break
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        result = await service.play.act(game_id, user, move, expected_version=info.version)
        public.extend(result.public)
        private.extend(result.private)
    return public, private


def _texts(
    info: GameInfo, game: Game, public: list[object], private: list[object], stages: tuple[object, ...]
) -> Iterator[str]:
    """Every text of these modules for a finished game, in the language spoken."""
    board = load_board(info.map)
    rules = board.rules
    for event in public:
        yield public_text(info, event)  # type: ignore[arg-type]
    for event in private:
        yield private_text(info, event)  # type: ignore[arg-type]
    yield from history_lines(info, stages)  # type: ignore[arg-type]
    yield from recap_lines(info, stages, ())  # type: ignore[arg-type]
    scores = final_scores(info, game)
    yield final_content(info, "", scores)
    yield final_content(info, "", scores, early=True)
    yield from breakdown_lines(board, scores)
    yield final_tickets_text(info, rules, scores)
    yield draw_tickets_label(rules)
    yield draw_tickets_question(rules)
    route = (
        next(r for r in board.routes if r.ferries or r.tunnel)
        if any(r.ferries or r.tunnel for r in board.routes)
        else board.routes[0]
    )
    yield claim_question(rules, route, {rules.colors[0]: 2, WILD: 1}, 2)
    yield move_counted_text(info.id, "https://discord.com/x", ("said",), "panel")
    yield previous_move_counted_text("tunnel", "panel")
    yield previous_move_counted_text("unknown", "panel")


async def _a_game(
    tmp_path: Path, map_name: str, seed: int
) -> tuple[GameService, int, list[int], list[object], list[object]]:
    service = await open_service(tmp_path / f"{map_name}.db", seed=seed)
    game_id, users = await started_game(service, map_name, players=3)
    public, private = await _play(service, game_id, random.Random(seed))
    return service, game_id, users, public, private


@pytest.mark.parametrize("map_name", MAPS)
async def test_a_whole_game_reads_in_swedish_and_finnish(tmp_path: Path, map_name: str) -> None:
    service, game_id, users, public, private = await _a_game(tmp_path, map_name, seed=MAPS.index(map_name) + 3)
    try:
        info = await service.core.game(game_id)
        game = await service.reading.engine_game(game_id)
        assert game.finished
        stages = await service.reading.history(game_id)
        view = await service.reading.public_view(game_id)
        hand = await service.reading.private_view(game_id, users[0])
        english = "\n".join(_texts(info, game, public, private, stages))
        for language in (Language.SV, Language.FI):
            with speaking(language):
                texts = [*_texts(info, game, public, private, stages)]
                texts.append(status_text(info, view, game.rules))
                texts.append(hand_text(game.rules, hand))
                text = "\n".join(texts)
            assert "{" not in text and "}" not in text, text
            left = [msgid for msgid, fragment in english_sentences() if fragment in text]
            assert not left, (language, left)
            for word in KEY_WORDS[(map_name, language)]:
                assert word in text, (language, word)
            assert text != english
    finally:
        await service.close()


async def test_a_game_in_play_reads_in_swedish_and_finnish(tmp_path: Path) -> None:
    """The turn message, setup message, status and hand in the middle of a game."""
    service = await open_service(tmp_path / "play.db", seed=5)
    try:
        game_id, _users = await started_game(service, "switzerland", players=3)
        info = await service.core.game(game_id)
        view = await service.reading.public_view(game_id)
        assert view.table is not None
        for language, words in ((Language.SV, ("väljer", "biljetter")), (Language.FI, ("valitse", "menoliput"))):
            with speaking(language):
                text = setup_content(info, view.table, start_text(info, view.table))
            assert "{" not in text and all(w in text.lower() for w in words), text
        rng = random.Random(5)
        for made in range(200):
            view = await service.reading.public_view(game_id)
            if made >= 20 and view.table is not None and view.table.to_move is not None:
                if view.table.to_move.must is Must.TURN:
                    break
            game = await service.reading.engine_game(game_id)
            move = random_move(game, rng)
            assert move is not None
            info = await service.core.game(game_id)
            user = info.user_of(move.player)
            assert user is not None
            await service.play.act(game_id, user, move, expected_version=info.version)
        info = await service.core.game(game_id)
        view = await service.reading.public_view(game_id)
        assert view.table is not None and view.table.to_move is not None
        hand = await service.reading.private_view(game_id, info.user_of(view.table.to_move.player) or 0)
        expected = {
            Language.SV: ("din tur", "Använd knapparna", "`/ttr dra`", "Högen:", "**Dina kort**", "kvar"),
            Language.FI: ("vuoro", "Käytä alla olevia", "`/ttr nosta`", "Pakka:", "**Korttisi**", "jäljellä"),
        }
        for language, words in expected.items():
            with speaking(language):
                texts = [
                    # as in a player's first turns: later turn messages leave the hint on the buttons out
                    turn_content(info, replace(view.table, turn=0), "head"),
                    status_text(info, view, load_board(info.map).rules),
                    hand_text(load_board(info.map).rules, hand),
                    offered_text(load_board(info.map).rules, view.table.players[0:0], 1),  # type: ignore[arg-type]
                ]
            text = "\n".join(texts)
            assert "{" not in text, text
            for word in words:
                assert word in text, (language, word, text)
            left = [msgid for msgid, fragment in english_sentences() if fragment in text]
            assert not left, (language, left)
    finally:
        await service.close()


def test_a_tie_reads_in_swedish_and_finnish() -> None:
    game = recorded("india/v02_3p_t3.json")
    tie = game.tie_break()
    assert tie is not None
    with speaking(Language.SV):
        sv = tie_sentence(tie, game.rules, str)
    with speaking(Language.FI):
        fi = tie_sentence(tie, game.rules, str)
    assert sv == (
        "ann och dee 2 med 0 biljetter klara var, och bonusen för Indian Express skiljer dem inte åt: "
        "ann och dee delar segern."
    )
    assert fi == (
        "ann ja dee 2, kullakin 0 menolippua valmiina, eikä Indian Express -bonus erota heitä: "
        "ann ja dee jakavat voiton."
    )


def test_an_undo_preview_reads_in_swedish_and_finnish() -> None:
    from bot.service import MoveKind, MoveOutline, UndoneOutline, UndoPreview

    moves = (
        UndoneOutline(MoveOutline("bob", MoveKind.DRAW_BLIND), cards_seen=1),
        UndoneOutline(MoveOutline("bob", MoveKind.DRAW_TICKETS), tickets_seen=3),
    )
    preview = UndoPreview(game_id=7, version=1, count=2, moves_before=10, moves=moves)
    rules = load_board("usa").rules
    with speaking(Language.SV):
        sv = undo_preview_text(rules, preview)
    with speaking(Language.FI):
        fi = undo_preview_text(rules, preview)
    assert sv.startswith("Ta tillbaka de senaste 2 dragen i parti #7?") and "bob har sett det" in sv
    assert "bob drog 3 biljetter: bob har sett 3 biljetter" in sv
    assert fi.startswith("Perutaanko pelin #7 viimeiset 2 siirtoa?") and "bob on nähnyt sen" in fi
    assert "bob nosti 3 menolippua: bob on nähnyt 3 menolippua" in fi


# ----- counted nouns: 1, 2 and 5 of each, in Swedish and Finnish --------------------------------------------------

COUNTED: dict[str, Callable[[int], str]] = {
    "usa tickets": lambda n: tickets_counted(load_board("usa").rules, n),
    "amsterdam tickets": lambda n: tickets_counted(load_board("amsterdam").rules, n),
    "usa pieces": lambda n: pieces_counted(load_board("usa").rules, n),
    "india pieces": lambda n: pieces_counted(load_board("india").rules, n),
    "amsterdam pieces": lambda n: pieces_counted(load_board("amsterdam").rules, n),
    "san_francisco pieces": lambda n: pieces_counted(load_board("san_francisco").rules, n),
    "usa wild": lambda n: card_count(load_board("usa").rules, WILD, n),
    "amsterdam wild": lambda n: card_count(load_board("amsterdam").rules, WILD, n),
    "san_francisco wild": lambda n: card_count(load_board("san_francisco").rules, WILD, n),
    "cards": cards_counted,
    "spaces": spaces_counted,
    "points": points_counted,
    "merchandise": merchandise_counted,
    "souvenirs": souvenirs_counted,
    "ferry spaces": ferry_spaces_counted,
    "more cards": more_cards_counted,
    "kinds": kinds_counted,
}

EXPECTED: dict[str, dict[Language, tuple[str, str, str]]] = {
    "usa tickets": {
        Language.SV: ("1 biljett", "2 biljetter", "5 biljetter"),
        Language.FI: ("1 menolippu", "2 menolippua", "5 menolippua"),
    },
    "amsterdam tickets": {
        Language.SV: ("1 kontrakt", "2 kontrakt", "5 kontrakt"),
        Language.FI: ("1 sopimus", "2 sopimusta", "5 sopimusta"),
    },
    "usa pieces": {
        Language.SV: ("1 tågvagn", "2 tågvagnar", "5 tågvagnar"),
        Language.FI: ("1 junavaunu", "2 junavaunua", "5 junavaunua"),  # the glossary's word (India fi rulebook)
    },
    "india pieces": {
        Language.SV: ("1 tåg", "2 tåg", "5 tåg"),
        Language.FI: ("1 junavaunu", "2 junavaunua", "5 junavaunua"),
    },
    "amsterdam pieces": {
        Language.SV: ("1 kärra", "2 kärror", "5 kärror"),
        Language.FI: ("1 kärry", "2 kärryä", "5 kärryä"),
    },
    "san_francisco pieces": {
        Language.SV: ("1 spårvagn", "2 spårvagnar", "5 spårvagnar"),
        Language.FI: ("1 raitiovaunu", "2 raitiovaunua", "5 raitiovaunua"),
    },
    "usa wild": {Language.SV: ("1 lok", "2 lok", "5 lok"), Language.FI: ("1 veturi", "2 veturia", "5 veturia")},
    "amsterdam wild": {
        Language.SV: ("1 joker", "2 jokrar", "5 jokrar"),
        Language.FI: ("1 jokeri", "2 jokeria", "5 jokeria"),
    },
    "san_francisco wild": {
        Language.SV: ("1 färjekort", "2 färjekort", "5 färjekort"),
        Language.FI: ("1 lauttakortti", "2 lauttakorttia", "5 lauttakorttia"),
    },
    "cards": {Language.SV: ("1 kort", "2 kort", "5 kort"), Language.FI: ("1 kortti", "2 korttia", "5 korttia")},
    "spaces": {Language.SV: ("1 ruta", "2 rutor", "5 rutor"), Language.FI: ("1 ruutu", "2 ruutua", "5 ruutua")},
    "points": {Language.SV: ("1 poäng", "2 poäng", "5 poäng"), Language.FI: ("1 piste", "2 pistettä", "5 pistettä")},
    "merchandise": {
        Language.SV: ("1 handelsbonuskort", "2 handelsbonuskort", "5 handelsbonuskort"),
        Language.FI: ("1 kauppavarabonuskortti", "2 kauppavarabonuskorttia", "5 kauppavarabonuskorttia"),
    },
    "souvenirs": {
        Language.SV: ("1 souvenir", "2 souvenirer", "5 souvenirer"),
        Language.FI: ("1 matkamuisto", "2 matkamuistoa", "5 matkamuistoa"),
    },
    "ferry spaces": {
        Language.SV: ("1 färjeruta", "2 färjerutor", "5 färjerutor"),
        Language.FI: ("1 lauttaruutu", "2 lauttaruutua", "5 lauttaruutua"),
    },
    "more cards": {
        Language.SV: ("1 kort till", "2 kort till", "5 kort till"),
        Language.FI: ("1 kortti lisää", "2 korttia lisää", "5 korttia lisää"),
    },
    "kinds": {Language.SV: ("1 sort", "2 sorter", "5 sorter"), Language.FI: ("1 laji", "2 lajia", "5 lajia")},
}


@pytest.mark.parametrize("noun", sorted(COUNTED))
@pytest.mark.parametrize("language", [Language.SV, Language.FI])
def test_counted_nouns_have_their_plural_forms(noun: str, language: Language) -> None:
    with speaking(language):
        got = tuple(COUNTED[noun](n) for n in (1, 2, 5))
    assert got == EXPECTED[noun][language]


def test_counted_nouns_stay_english_in_english() -> None:
    rules: Rules = load_board("amsterdam").rules
    assert [tickets_counted(rules, n) for n in (1, 2)] == ["1 contract", "2 contracts"]
    assert [card_count(rules, WILD, n) for n in (1, 2)] == ["1 joker", "2 jokers"]
    assert [merchandise_counted(n) for n in (1, 5)] == ["1 merchandise", "5 merchandise"]
