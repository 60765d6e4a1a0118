"""The slash commands in Swedish and Finnish: localized names and descriptions of every command, subcommand, option
and choice, within Discord's rules; the catalogue holds every text of the tree; a changed translation syncs again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from discord.ext import commands
from discord_harness import restart
from simcord import Env

import bot.cogs.command_words as command_words
from bot.cogs.command_words import (
    CHOICE,
    COMMAND_DESCRIPTION,
    COMMAND_NAME,
    OPTION_DESCRIPTION,
    OPTION_NAME,
    command_texts,
    translated,
    valid,
)
from bot.runtime.sync import command_payload
from bot.service.kinds import Language
from tools.i18n import po_path, read

LOCALES = ("sv-SE", "fi")
SUBCOMMAND = 1  # Discord's option types that are commands, not options
GROUP = 2

# /work/plan/COMMANDS_L10N.md: the names decided for the commands and options (English: sv-SE, fi)
COMMAND_NAMES = {
    "ttr": ("ttr", "ttr"),
    "ttrmod": ("ttrmod", "ttrmod"),
    "new": ("ny", "uusi"),
    "join": ("gå-med", "liity"),
    "leave": ("lämna", "poistu"),
    "start": ("starta", "aloita"),
    "cancel": ("avbryt", "peru"),
    "addbot": ("lägg-till-bot", "lisää-botti"),
    "removebot": ("ta-bort-bot", "poista-botti"),
    "draw": ("dra", "nosta"),
    "claim": ("bygg", "rakenna"),
    "tickets": ("biljetter", "liput"),
    "keep": ("behåll", "pidä"),
    "plan": ("planera", "suunnittele"),
    "hand": ("hand", "käsi"),
    "board": ("bräde", "lauta"),
    "status": ("läge", "tilanne"),
    "rules": ("regler", "säännöt"),
    "history": ("historik", "historia"),
    "replay": ("repris", "uusinta"),
    "export": ("exportera", "vie"),
    "settings": ("inställningar", "asetukset"),
    "leaderboard": ("topplista", "tulostaulu"),
    "profile": ("profil", "profiili"),
    "review": ("genomgång", "arvio"),
    "config": ("serverinställningar", "palvelinasetukset"),
    "pause": ("pausa", "tauko"),
    "resume": ("återuppta", "jatka"),
    "extend": ("förläng", "lisäaika"),
    "replace": ("ersätt", "korvaa"),
    "autopilot": ("autopilot", "autopilotti"),
    "undo": ("ångra", "kumoa"),
    "end": ("avsluta", "lopeta"),
    "reopen": ("återöppna", "avaa-uudelleen"),
    "log": ("logg", "loki"),
    # /ttrtour
    "ttrtour": ("ttrtour", "ttrtour"),
    "create": ("skapa", "luo"),
    "configure": ("ändra", "muokkaa"),
    "registration": ("anmälan", "rekisteröinti"),
    "checkin": ("checka-in", "ilmoittaudu"),
    "startround": ("starta-runda", "aloita-kierros"),
    "repair": ("para-om", "uusi-paritus"),
    "substitute": ("byt-in", "vaihda"),
    "drop": ("stryk", "pudota"),
    "disqualify": ("diskvalificera", "hylkää"),
    "adjudicate": ("avgör", "ratkaise"),
    "reinstate": ("återinsätt", "palauta"),
    "audit": ("granskning", "tarkastus"),
    "standings": ("ställning", "tilanne"),
    "info": ("info", "tiedot"),
}
OPTION_NAMES = {
    "map": ("karta", "kartta"),
    "max_players": ("max-spelare", "pelaajia-enintään"),
    "trains": ("vagnar", "vaunut"),
    "turn_time": ("dragtid", "vuoroaika"),
    "reserve": ("reserv", "varaaika"),
    "timeout_policy": ("vid-tidsgräns", "aikarajan-ylitys"),
    "bots": ("bottar", "botit"),
    "bots_level": ("bottarnas-nivå", "bottien-taso"),
    "name": ("namn", "nimi"),
    "card": ("kort", "kortti"),
    "route": ("rutt", "reitti"),
    "pay": ("betala", "maksa"),
    "numbers": ("nummer", "numerot"),
    "game": ("parti", "peli"),
    "turn": ("tur", "vuoro"),
    "confirmations": ("bekräftelser", "vahvistukset"),
    "language": ("språk", "kieli"),
    "turn_dms": ("dm-vid-tur", "vuoroviestit"),
    "quiet_hours": ("tysta-timmar", "hiljaiset-tunnit"),
    "timezone": ("tidszon", "aikavyöhyke"),
    "away": ("borta", "poissa"),
    "page": ("sida", "sivu"),
    "member": ("medlem", "jäsen"),
    "moderator_role": ("moderatorroll", "moderaattorirooli"),
    "log_channel": ("loggkanal", "lokikanava"),
    "reminders": ("påminnelser", "muistutukset"),
    "member_games": ("partier-per-medlem", "pelejä-per-jäsen"),
    "server_games": ("partier-på-servern", "pelejä-palvelimella"),
    "rated_casual": ("ranka-vanliga", "rankkaa-tavalliset"),
    "turn_messages": ("meddelande-per-tur", "viesti-joka-vuorolla"),
    "plans": ("planerade-turer", "suunnitellut-vuorot"),
    "step": ("steg", "vaihe"),
    "second": ("andra", "toinen"),
    "log_thread": ("loggtråd", "lokiketju"),
    "autopilot_level": ("autopilotnivå", "autopilotin-taso"),
    "reason": ("orsak", "syy"),
    "public": ("offentligt", "julkinen"),
    "duration": ("tid", "aika"),
    "player": ("spelare", "pelaaja"),
    "state": ("läge", "tila"),
    "count": ("antal", "määrä"),
    "score": ("poängsätt", "pisteytä"),
    # /ttrtour
    "tournament": ("turnering", "turnaus"),
    "rounds": ("rundor", "kierrokset"),
    "maps": ("kartor", "kartat"),
    "table_size": ("bordsstorlek", "pöytäkoko"),
    "deadline": ("tidsfrist", "määräaika"),
    "rated": ("rankad", "rankattu"),
    "final_table": ("finalbord", "finaalipöytä"),
    "cap": ("max-deltagare", "osallistujia-enintään"),
    "checkin_window": ("incheckning", "ilmoittautumisaika"),
    "round": ("runda", "kierros"),
    "table": ("bord", "pöytä"),
}
DISCORD_NAME = re.compile(r"[-_\w]{1,32}")


def _walk(payload: dict[str, Any], path: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(kind, path, payload) of every command, subcommand, option and choice under a top-level command's payload."""
    here = f"{path} {payload['name']}".strip()
    is_command = not path or payload.get("type") in (SUBCOMMAND, GROUP)
    yield ("command" if is_command else "option"), here, payload
    for option in payload.get("options", []):
        yield from _walk(option, here)
    for choice in payload.get("choices", []):
        yield "choice", f"{here}={choice['value']}", choice


async def _sent(env: Env) -> list[dict[str, Any]]:
    bot = env.bot
    assert isinstance(bot, commands.Bot)
    return await command_payload(bot.tree, None)


async def test_every_command_option_and_choice_has_swedish_and_finnish_words(simcord_env: Env) -> None:
    seen = {"command": 0, "option": 0, "choice": 0}
    for top in await _sent(simcord_env):
        for kind, path, item in _walk(top):
            seen[kind] += 1
            names = item.get("name_localizations") or {}
            assert set(names) == set(LOCALES), f"{path}: name localizations {names}"
            for locale in LOCALES:
                name = names[locale]
                if kind == "choice":
                    assert 1 <= len(name) <= 100, path
                    continue
                assert DISCORD_NAME.fullmatch(name) and name == name.lower(), f"{path}: {locale} name {name!r}"
                table = COMMAND_NAMES if kind == "command" else OPTION_NAMES
                assert name == table[item["name"]][LOCALES.index(locale)], f"{path}: {locale} name {name!r}"
                descriptions = item.get("description_localizations") or {}
                described = descriptions.get(locale)
                assert described and 1 <= len(described) <= 100, f"{path}: {locale} description {described!r}"
                assert described != item["description"], f"{path}: {locale} description left in English"
    assert seen["command"] >= 30 and seen["option"] >= 40 and seen["choice"] >= 15  # the whole tree was walked
    # the two groups keep their names; subcommands are translated
    ttr = next(top for top in await _sent(simcord_env) if top["name"] == "ttr")
    assert ttr["name_localizations"] == {"sv-SE": "ttr", "fi": "ttr"}
    new = next(o for o in ttr["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"sv-SE": "ny", "fi": "uusi"}
    on = next(c for o in ttr["options"] if o["name"] == "settings" for c in o["options"][0]["choices"])
    assert on["value"] == "on" and on["name_localizations"] == {"sv-SE": "på", "fi": "päällä"}


async def test_options_under_one_name_have_one_translation_across_commands(simcord_env: Env) -> None:
    """An option or command name is the same word wherever it appears (e.g. `game`, `map`, `export`)."""
    found: dict[tuple[str, str], set[str]] = {}
    for top in await _sent(simcord_env):
        for kind, _path, item in _walk(top):
            if kind != "choice":
                for locale, name in (item.get("name_localizations") or {}).items():
                    found.setdefault((item["name"], locale), set()).add(name)
    assert all(len(names) == 1 for names in found.values()), {k: v for k, v in found.items() if len(v) > 1}


def test_the_catalogue_has_every_text_of_the_tree_translated() -> None:
    texts = command_texts()
    contexts = {context for _, context in texts}
    assert contexts == {COMMAND_NAME, COMMAND_DESCRIPTION, OPTION_NAME, OPTION_DESCRIPTION, CHOICE}
    assert ("claim", COMMAND_NAME) in texts and ("ttrmod", COMMAND_NAME) in texts and ("on", CHOICE) in texts
    for language in ("sv", "fi"):
        catalog = read(po_path(language), language)
        for text, context in texts:
            message = catalog.get(text, context=context)
            assert message is not None, f"{language}: {context} {text!r} is not in the catalogue"
            assert message.string and "fuzzy" not in message.flags, f"{language}: {context} {text!r} untranslated"
    template = read(po_path("en"), "en")
    assert all(template.get(text, context=context) is not None for text, context in texts)


def test_a_translation_that_breaks_discords_rules_is_not_sent() -> None:
    assert valid(COMMAND_NAME, "gå-med") and valid(OPTION_NAME, "pelaajia-enintään")
    assert not valid(COMMAND_NAME, "Gå med") and not valid(COMMAND_NAME, "gå med") and not valid(OPTION_NAME, "")
    assert not valid(OPTION_NAME, "x" * 33) and not valid(COMMAND_NAME, "Ny")
    assert valid(COMMAND_DESCRIPTION, "x" * 100) and not valid(COMMAND_DESCRIPTION, "x" * 101)
    assert not valid(CHOICE, "")
    assert translated(Language.SV, COMMAND_NAME, "claim") == "bygg"
    assert translated(Language.FI, OPTION_NAME, "turn_time") == "vuoroaika"
    assert translated(Language.SV, COMMAND_NAME, "no such command") is None


def _syncs(env: Env) -> int:
    return len([r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")])


async def test_a_changed_translation_syncs_again_an_unchanged_one_does_not(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _syncs(simcord_env) == 1
    await restart(simcord_env)
    assert _syncs(simcord_env) == 1  # the same translations: no sync
    real = command_words.translated

    def changed(language: Language, context: str, text: str) -> str | None:
        found = real(language, context, text)
        return "lägg-en-bot" if (language, context, text) == (Language.SV, COMMAND_NAME, "addbot") else found

    monkeypatch.setattr(command_words, "translated", changed)
    await restart(simcord_env)
    assert _syncs(simcord_env) == 2  # one Swedish name changed: synced again
    ttr = next(top for top in await _sent(simcord_env) if top["name"] == "ttr")
    addbot = next(o for o in ttr["options"] if o["name"] == "addbot")
    assert addbot["name_localizations"]["sv-SE"] == "lägg-en-bot"
    await restart(simcord_env)
    assert _syncs(simcord_env) == 2
