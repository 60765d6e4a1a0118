"""A map's own words are found by the map's id, never by its English title: a title by mistake is refused at once
(it would otherwise lose the map's words silently)."""

from __future__ import annotations

import pytest

from bot.present.i18n import map_, nmap_, speaking
from bot.present.words import pieces_plural, tickets_plural, wilds_plural
from bot.service.kinds import Language
from maps import MAP_NAMES, load_board


def test_a_title_is_refused_where_a_map_id_is_asked_for() -> None:
    with pytest.raises(ValueError, match="not a map id"):
        map_("USA", "Claim a route")
    with pytest.raises(ValueError, match="not a map id"):
        nmap_("San Francisco", "{count} route", "{count} routes", 2)


def test_the_usa_rulebook_words_a_claim_its_own_way_by_the_maps_id() -> None:
    with speaking(Language.SV):
        assert map_("usa", "Claim a route") != map_("india", "Claim a route")
        assert map_("", "Claim a route") == map_("india", "Claim a route")


@pytest.mark.parametrize("name", MAP_NAMES)
def test_every_maps_words_are_found_by_its_id(name: str) -> None:
    rules = load_board(name).rules
    assert rules.name == name
    for language in Language:
        with speaking(language):
            assert tickets_plural(rules) and pieces_plural(rules) and wilds_plural(rules)
    with speaking(Language.EN):
        expected = "contracts" if name == "amsterdam" else "tickets"
        assert tickets_plural(rules) == expected


def test_every_table_of_map_words_is_keyed_by_every_maps_id() -> None:
    from bot.present import bonus_words, words

    tables = {
        f"{module.__name__}.{name}": table
        for module in (words, bonus_words)
        for name, table in vars(module).items()
        if name.isupper() and isinstance(table, dict) and "amsterdam" in table
    }
    assert len(tables) >= 8
    for name, table in tables.items():
        assert set(table) == set(MAP_NAMES), name
