"""Who reads what, in which language (issue 13): whole SimCord games in Swedish and in Finnish.

A private text (an answer, a DM, a private image) follows the member's own
`/ttr settings language`, else their Discord client's locale, else the
server's language; a public text (the stage and lobby messages, the board
image, the announcements, the moderators' log) follows the server's
`/ttr config language`, else its preferred locale in Discord, else English.

Two kinds of test:
- with the real catalogues, a whole game in Swedish and one in Finnish: no
  English text of the catalogue reaches anyone (these need every text
  translated);
- with *marked* catalogues (every translated text ends with a tag of the
  language it was written in, e.g. "⟦sv⟧"), who got which language: this
  checks the wiring whatever the translations hold.
"""

from __future__ import annotations

import gettext
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po
from discord_harness import Room, make_room_in, message_text, replies, reply_text, set_locale, slash, turn_dms
from discord_play import Player, open_game
from simcord import Env, InteractionResult, MemberActor

import bot.present.i18n as i18n
from bot.cogs.member_settings import chosen_language
from bot.present.answers import apology_text
from bot.present.confirm import member_settings_text
from bot.present.i18n import LOCALE_DIR
from bot.service.errors import InvalidInput
from bot.service.kinds import Language
from bot.service.member_settings import MemberSettings
from bot.service.settings import GuildConfig, check_setting
from bot.views.replies import Refusal
from engine import Game


@pytest.fixture
def game_seed() -> int:
    """Reproducible seat orders and deals."""
    return 5


MINUTE = 60

# Texts that read the same in English and in Swedish or Finnish: the map San Francisco, also a city of the USA map,
# and India's bonus, the Indian Express (a name its rulebooks keep in every language).
# A text here is not counted as English when it appears in a Swedish or Finnish game.
SAME_IN_EVERY_LANGUAGE: frozenset[str] = frozenset({"San Francisco", "Indian Express"})


# ----- what people saw --------------------------------------------------------------------------


def shown(body: Any) -> Iterator[str]:
    """The texts a person sees in a message or an answer's JSON: content, labels, options, alt texts, choices."""
    if isinstance(body, list):
        for item in body:
            yield from shown(item)
    elif isinstance(body, dict):
        for key, value in body.items():
            if isinstance(value, str):
                if key in ("content", "title", "description", "label", "placeholder", "name", "text"):
                    yield value
            else:
                yield from shown(value)


def seen_since(env: Env, start: int = 0) -> list[tuple[str, str]]:
    """(path, text) of everything the bot sent people since request number `start`: channel messages and their
    edits, answers, DMs, components, alt texts, autocomplete choices (not the command definitions)."""
    out: list[tuple[str, str]] = []
    for request in env.http_requests[start:]:
        if request.method not in ("POST", "PATCH") or "/commands" in request.path:
            continue
        if isinstance(request.json, (dict, list)):
            out += [(request.path, text) for text in shown(request.json) if text]
    return out


def reply_texts(results: Sequence[InteractionResult]) -> list[str]:
    """Everything the answers to these interactions showed: words, buttons, menus, alt texts."""
    texts: list[str] = []
    for result in results:
        for message in replies(result):
            texts.append(message_text(message))
            texts += [a.description or "" for a in message.attachments]
            for row in message.components:
                texts += shown(row if isinstance(row, dict) else row.to_dict())
    return texts


def channel_texts(room: Room) -> list[str]:
    texts: list[str] = []
    for message in room.public_messages():
        texts.append(message_text(message))
        texts += [a.description or "" for a in message.attachments]
        for row in message.components:
            texts += shown(row if isinstance(row, dict) else row.to_dict())
    return texts


def dm_texts(room: Room, member: MemberActor) -> list[str]:
    return [m.content for m in room.dms(member)]


# ----- the English texts of the catalogue ---------------------------------------------------------


@cache
def english_fragments() -> dict[str, str]:
    """Pieces of English text of the catalogue long enough to be recognised (at least 12 characters, or several
    words of 6 or more): the fixed words between placeholders of each msgid -> the module it comes from."""
    with open(LOCALE_DIR / "en" / "LC_MESSAGES" / "conductor.po", "rb") as po:
        catalogue = read_po(po)
    found: dict[str, str] = {}
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        where = message.locations[0][0] if message.locations else "?"
        for msgid in ids:
            for piece in re.split(r"\{[^{}]*\}", msgid):
                for line in piece.split("\n"):
                    text = line.strip(" .,:;!?()*`-")
                    if text in SAME_IN_EVERY_LANGUAGE:
                        continue
                    if len(text) >= 12 or (len(text.split()) >= 2 and len(text) >= 6):
                        found.setdefault(text, where)
    return found


def english_in(texts: Sequence[str]) -> dict[str, set[str]]:
    """The catalogue's English pieces found in `texts`, by module."""
    leaks: dict[str, set[str]] = defaultdict(set)
    joined = "\n".join(texts)
    for piece, module in english_fragments().items():
        if piece in joined:
            leaks[module].add(piece)
    return dict(leaks)


# Single English words a reader notices, which the fragments above are too short to catch: a game's status, the
# maps' titles, the autopilot's levels, the switches' values (names of members and commands aside).
ENGLISH_WORDS = re.compile(
    r"\b(playing|finished|cancelled|lobby|Switzerland|India|steady|strong|deck)\b|\w to [A-ZÅÄÖ]"
)


def english_words_in(texts: Sequence[str]) -> list[str]:
    """The texts with a single English word of `ENGLISH_WORDS` outside code spans (`/ttr ...`)."""
    return [t for t in texts if ENGLISH_WORDS.search(re.sub(r"`[^`]*`", "", t))]


# ----- each map's own words (bot/present/locale/GLOSSARY.md) ------------------------------------------------------

# Words of another map's rulebook, by language and map: a game on that map never shows them (code spans, the
# command names, aside). The Swedish USA rulebook builds routes ("bygga en rutt"); the other four claim stretches
# ("muta in en sträcka"); Amsterdam has contracts, jokers and carts; India and Switzerland tickets, locomotives, trains.
_SV_CLAIM_STRETCH = r"\bsträck|\bmut(a|ar|ade|as|at) in\b|\binmutad"
_SV_BUILD_ROUTE = r"\brutt(en|er|erna)?\b|\bbygg(a|er|de|s|as|t|d|da)?\b"
MAP_TERMS: dict[tuple[str, str], str] = {
    ("sv", "usa"): _SV_CLAIM_STRETCH + r"|\bkontrakt|\bjoker|\bkärr",
    ("sv", "amsterdam"): _SV_BUILD_ROUTE + r"|\bbiljett|\blok(omotiv)?\b|\btåg(vagn\w*)?\b",
    ("fi", "switzerland"): r"\bsopimu|\bjokeri|\bkärry",
    ("fi", "india"): r"\bsopimu|\bjokeri|\bkärry",
}


def other_maps_words(texts: Sequence[str], language: str, map_name: str) -> list[str]:
    """The texts with a word of another map's rulebook (outside code spans), but a member's settings (the same in
    every game)."""
    pattern = re.compile(MAP_TERMS[(language, map_name)], re.IGNORECASE)
    with i18n.speaking(Language(language)):
        settings_head = member_settings_text(MemberSettings(1), changed=False).split("\n")[0]
    return [t for t in texts if not t.startswith(settings_head) and pattern.search(re.sub(r"`[^`]*`|<[^>]*>", "", t))]


# ----- playing ---------------------------------------------------------------------------------


class Reader(Player):
    """Plays the game like `Player`, keeping every answer each member got, and checks the channel without
    reading its words (they are not English here)."""

    def __init__(self, room: Room, game_id: int) -> None:
        super().__init__(room, game_id)
        self.answers: dict[int, list[InteractionResult]] = defaultdict(list)

    async def run(self, result: InteractionResult, member: MemberActor) -> InteractionResult:
        assert result.acknowledged, f"{member.name}: the interaction was not answered"
        assert all(m.ephemeral for m in replies(result)), f"a public reply to {member.name}"
        self.answers[member.id].append(result)
        self.last[member.id] = result
        return result

    async def check_channel(self) -> None:
        game = await self.game()
        self.scan.check(self.room, game)
        for message in self.room.public_messages():
            if message.components and message.id not in self.stage_ids:
                self.stage_ids.append(message.id)
                for attachment in message.attachments:
                    assert attachment.description, "an image without alt text"

    async def ask(self, member: MemberActor, command: str, **options: Any) -> InteractionResult:
        return await self.run(await slash(member, self.room, command, **options), member)


async def open_reader(room: Room, map_name: str, *, trains: int = 10) -> Reader:
    """The game opened as every test opens one (no words read: any language), played by a `Reader` that keeps
    the answers to the joins and the start too."""
    heard: list[tuple[MemberActor, InteractionResult]] = []
    game_id, _ = await open_game(
        room,
        map_name,
        trains=trains,
        words=False,
        heard=lambda m, r: heard.append((m, r)),
        turn_time="1h",
        reserve="none",
    )
    reader = Reader(room, game_id)
    for member, result in heard:
        await reader.run(result, member)
    return reader


async def look_around(reader: Reader, member: MemberActor) -> None:
    """The private views a member may ask for."""
    for command in ("ttr status", "ttr hand", "ttr board", "ttr history", "ttr settings"):
        await reader.ask(member, command)


async def misbehave(reader: Reader, member: MemberActor) -> None:
    """Wrong input of every kind: each is refused privately (in the member's language, as the scan checks)."""
    for command, options in (
        ("ttr draw", {"card": "purpurfärgad"}),  # no such card in any language
        ("ttr claim", {"route": "Nowhere - Elsewhere"}),  # no such places
        ("ttr keep", {"numbers": "9 9 9"}),  # no tickets offered
        ("ttr replay", {"turn": 999}),  # no such turn
    ):
        result = await reader.ask(member, command, **options)
        assert replies(result), f"{command}: no answer"
        text = reply_text(result)
        for language in Language:
            with i18n.speaking(language):
                assert apology_text() not in text, f"{command}: an apology, not a refusal that says what is wrong"


async def whole_game(reader: Reader) -> Game:
    """Looks, a turn left to run out (a reminder, a timeout, the autopilot playing for someone), then the game."""
    while (await reader.game()).state.phase.name.startswith("SETUP"):
        await reader.step(await reader.game())
    for member in reader.room.members:
        await look_around(reader, member)
        await misbehave(reader, member)
    for _ in range(4):  # reminders at half time and near the end, then the turn runs out: the autopilot plays
        await reader.room.env.advance_time(16 * MINUTE)
    audit = await reader.service.audit.audit(reader.game_id)
    assert any(a.action == "timeout" for a in audit), "no turn ran out: the test saw no reminder, no played-for DM"
    game = await reader.play()
    for member in reader.room.members:
        await look_around(reader, member)
    return game


# ----- the real catalogues: nothing English in a Swedish or a Finnish game ----------------------------


def leak_report(leaks: dict[str, set[str]]) -> str:
    return "\n".join(f"{module}: {sorted(pieces)}" for module, pieces in sorted(leaks.items()))


async def test_a_swedish_game_shows_no_english(simcord_env: Env) -> None:
    room = make_room_in(simcord_env, ["anna", "bertil"], guild_locale="sv-SE", locale="sv-SE")
    start = len(simcord_env.http_requests)
    reader = await open_reader(room, "amsterdam")
    game = await whole_game(reader)
    assert game.finished
    texts = [text for _, text in seen_since(simcord_env, start)]
    assert any(room.dms(m) for m in room.members), "no DM was sent: the test saw too little"
    leaks = english_in(texts)
    assert not leaks, "English in a Swedish game:\n" + leak_report(leaks)
    assert english_words_in(texts) == []
    assert other_maps_words(texts, "sv", "amsterdam") == []


async def test_a_finnish_game_set_by_the_server_shows_no_english(simcord_env: Env) -> None:
    room = make_room_in(simcord_env, ["aino", "eero"], guild_locale="en-US", locale="fi")
    manager = await server_manager(room, "fi")
    start = len(simcord_env.http_requests)
    await slash(manager, room, "ttr config", language="fi")
    reader = await open_reader(room, "switzerland")
    game = await whole_game(reader)
    assert game.finished
    texts = [text for _, text in seen_since(simcord_env, start)]
    leaks = english_in(texts)
    assert not leaks, "English in a Finnish game:\n" + leak_report(leaks)
    assert english_words_in(texts) == []
    assert other_maps_words(texts, "fi", "switzerland") == []


async def test_a_swedish_game_on_the_usa_map_shows_no_english(simcord_env: Env) -> None:
    room = make_room_in(simcord_env, ["anna", "bertil"], guild_locale="sv-SE", locale="sv-SE")
    start = len(simcord_env.http_requests)
    game = await whole_game(await open_reader(room, "usa"))
    assert game.finished
    texts = [text for _, text in seen_since(simcord_env, start)]
    leaks = english_in(texts)
    assert not leaks, "English in a Swedish game:\n" + leak_report(leaks)
    assert english_words_in(texts) == []
    assert other_maps_words(texts, "sv", "usa") == []


async def test_a_finnish_game_on_the_india_map_shows_no_english(simcord_env: Env) -> None:
    room = make_room_in(simcord_env, ["aino", "eero"], guild_locale="fi", locale="fi")
    start = len(simcord_env.http_requests)
    game = await whole_game(await open_reader(room, "india"))
    assert game.finished
    texts = [text for _, text in seen_since(simcord_env, start)]
    leaks = english_in(texts)
    assert not leaks, "English in a Finnish game:\n" + leak_report(leaks)
    assert english_words_in(texts) == []
    assert other_maps_words(texts, "fi", "india") == []


def test_the_other_maps_words_are_caught() -> None:
    """What a walk through the games found: a USA claim in the Amsterdam rulebook's words, and back."""
    assert other_maps_words(["Muta in en sträcka", "Astrid mutade in Dallas – Houston"], "sv", "usa") == [
        "Muta in en sträcka",
        "Astrid mutade in Dallas – Houston",
    ]
    assert other_maps_words(
        ["Astrid bygger Dam - Spui", "Du har inga biljetter", "`/ttr bygg`"], "sv", "amsterdam"
    ) == [
        "Astrid bygger Dam - Spui",
        "Du har inga biljetter",
    ]
    assert other_maps_words(["Bygga Dallas - Oklahoma City?", "Astrid bygger en rutt"], "sv", "usa") == []


def test_the_single_english_words_are_caught() -> None:
    assert english_words_in(["**Sveitsi, peli #1** · playing", "Astrid öppnar ett Switzerland-parti"]) == [
        "**Sveitsi, peli #1** · playing",
        "Astrid öppnar ett Switzerland-parti",
    ]
    assert english_words_in(["Bern to France 5, Deutschland 6"]) == ["Bern to France 5, Deutschland 6"]
    assert english_words_in(["Indian Express", "`/ttr dra kort:deck`", "Intia · peli #1", "Bern – France 5"]) == []


async def server_manager(room: Room, locale: str) -> MemberActor:
    """A member with Manage Server, whose client speaks `locale`."""
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = room.add_member("manager", roles=[managers])
    set_locale(room.env, manager, locale)
    return manager


# ----- marked catalogues: who got which language --------------------------------------------------

TAGS = {language: f"⟦{language.value}⟧" for language in Language}


class Marked(gettext.NullTranslations):
    """A language's catalogue whose every text ends with the language's tag."""

    def __init__(self, real: gettext.NullTranslations, tag: str) -> None:
        super().__init__()
        self.real, self.tag = real, tag

    def gettext(self, message: str) -> str:
        return self.real.gettext(message) + self.tag

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.real.ngettext(msgid1, msgid2, n) + self.tag

    def pgettext(self, context: str, message: str) -> str:
        return self.real.pgettext(context, message) + self.tag

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.real.npgettext(context, msgid1, msgid2, n) + self.tag


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.catalogue
    marked_ones = {language: Marked(real(language), TAGS[language]) for language in Language}
    monkeypatch.setattr(i18n, "catalogue", lambda language: marked_ones[language])


def tags_in(texts: Sequence[str]) -> set[Language]:
    joined = "\n".join(texts)
    return {language for language, tag in TAGS.items() if tag in joined}


def only(texts: Sequence[str], language: Language, what: str, *, some: bool = True) -> None:
    """Everything of `texts` was written in `language` (and, with `some`, some of it through the catalogue)."""
    found = tags_in(texts)
    wrong = [t for t in texts if any(TAGS[x] in t for x in found - {language})][:5]
    assert found == {language} if some else found <= {language}, f"{what}: in {sorted(found)}: {wrong!r}"


async def test_a_member_with_english_set_reads_english_privately_in_a_swedish_game(
    simcord_env: Env, marked: None
) -> None:
    room = make_room_in(simcord_env, ["anna", "bertil"], guild_locale="sv-SE", locale="sv-SE")
    anna, bertil = room.members
    answer = await slash(anna, room, "ttr settings", language="en")
    only(reply_texts([answer]), Language.EN, "anna's settings answer")
    assert (await room.bot.service.members.member_settings(anna.id)).language is Language.EN
    await turn_dms(room, anna, bertil)  # they chose "your turn" DMs (at the table the default is a channel notice)
    reader = await open_reader(room, "amsterdam")
    await whole_game(reader)
    only(channel_texts(room), Language.SV, "the channel")
    only(reply_texts(reader.answers[anna.id]), Language.EN, "anna's answers")
    only(reply_texts(reader.answers[bertil.id]), Language.SV, "bertil's answers")
    assert room.dms(anna) and room.dms(bertil)
    only(dm_texts(room, anna), Language.EN, "anna's DMs")
    only(dm_texts(room, bertil), Language.SV, "bertil's DMs")
    # the board images: the channel's in Swedish (checked above), the hand anna asked for in English
    hands = [r for r in reader.answers[anna.id] if any(m.attachments for m in replies(r))]
    assert hands and tags_in([a.description or "" for r in hands for m in replies(r) for a in m.attachments]) == {
        Language.EN
    }


async def test_the_server_setting_changes_the_public_language(simcord_env: Env, marked: None) -> None:
    room = make_room_in(simcord_env, ["anna", "bertil"], guild_locale="en-US")
    manager = await server_manager(room, "en-US")
    await slash(room.members[0], room, "ttr new", map="usa", trains=10)
    only(channel_texts(room), Language.EN, "the lobby of a server without a language", some=False)
    answer = await slash(manager, room, "ttr config", language="fi")
    only(reply_texts([answer]), Language.EN, "the manager's answer (their client is English)")
    assert (await room.bot.service.settings.guild_config(room.guild.id)).language is Language.FI
    before = len(room.public_messages())
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    reader = Reader(room, info.id)
    await reader.ask(room.members[1], "ttr join")
    await reader.ask(room.members[0], "ttr start")
    await reader.play()
    later = room.public_messages()[before:]
    only(
        [message_text(m) for m in later] + [a.description or "" for m in later for a in m.attachments],
        Language.FI,
        "ch",
    )
    only(reply_texts([r for rs in reader.answers.values() for r in rs]), Language.EN, "the members' answers")
    # back to automatic: the server's preferred locale in Discord (English here)
    await slash(manager, room, "ttr config", language="auto")
    assert (await room.bot.service.settings.guild_config(room.guild.id)).language is None


async def test_a_dm_follows_the_members_setting_else_their_client_last_seen(simcord_env: Env, marked: None) -> None:
    room = make_room_in(simcord_env, ["anna", "bertil", "cecilia"], guild_locale="en-US")
    anna, bertil, cecilia = room.members
    set_locale(simcord_env, bertil, "sv-SE")  # no setting: his client's language
    set_locale(simcord_env, cecilia, "de")  # a language the bot does not speak: the server's
    await slash(anna, room, "ttr settings", language="fi")  # from an English client
    await turn_dms(room, anna, bertil, cecilia)  # they chose "your turn" DMs (the default: a channel notice)
    reader = await open_reader(room, "usa")
    assert (await room.bot.service.members.member_settings(bertil.id)).client_locale == "sv-SE"
    await whole_game(reader)
    assert room.dms(anna) and room.dms(bertil) and room.dms(cecilia)
    only(dm_texts(room, anna), Language.FI, "anna's DMs")
    only(dm_texts(room, bertil), Language.SV, "bertil's DMs")
    only(dm_texts(room, cecilia), Language.EN, "cecilia's DMs")
    only(channel_texts(room), Language.EN, "the channel")


async def test_the_clients_locale_is_written_only_when_it_changes(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room_in(simcord_env, ["bertil"], guild_locale="en-US", locale="sv-SE")
    bertil = room.members[0]
    service = room.bot.service
    written: list[str] = []
    real = service.members.remember_client_locale

    async def remember(user_id: int, locale: str) -> None:
        written.append(locale)
        await real(user_id, locale)

    monkeypatch.setattr(service.members, "remember_client_locale", remember)
    for _ in range(3):
        await slash(bertil, room, "ttr settings")
    assert written == ["sv-SE"]
    set_locale(simcord_env, bertil, "fi")
    await slash(bertil, room, "ttr settings")
    await slash(bertil, room, "ttr settings")
    assert written == ["sv-SE", "fi"]
    assert (await service.members.member_settings(bertil.id)).client_locale == "fi"


# ----- the settings themselves ---------------------------------------------------------------------


def test_a_stored_language_that_makes_no_sense_counts_as_unset() -> None:
    assert MemberSettings.of(1, {"language": "sv", "client_locale": "fi"}) == MemberSettings(1, True, Language.SV, "fi")
    assert MemberSettings.of(1, {"language": "de", "client_locale": 7}) == MemberSettings(1)
    assert MemberSettings.of(1, {"client_locale": "x" * 40}).client_locale is None
    assert GuildConfig.of(1, {"language": "fi"}).language is Language.FI
    assert GuildConfig.of(1, {"language": "klingon"}).language is None
    assert check_setting("language", "sv") == "sv" and check_setting("language", None) is None
    with pytest.raises(InvalidInput):
        check_setting("language", "de")


def test_a_forged_language_is_refused() -> None:
    assert chosen_language("auto") is None and chosen_language("sv") is Language.SV
    with pytest.raises(Refusal, match="English, svenska, suomi or automatic"):
        chosen_language("de")


async def test_autocomplete_choices_are_in_the_typing_members_language(simcord_env: Env, marked: None) -> None:
    room = make_room_in(simcord_env, ["anna", "bertil"], guild_locale="en-US", locale="sv-SE")
    reader = await open_reader(room, "usa")
    while (await reader.game()).state.phase.name.startswith("SETUP"):
        await reader.step(await reader.game())
    mover = (await reader.game()).to_move()
    assert mover is not None
    member = await reader.member(mover.player)
    choices = await member.autocomplete(room.channel, "ttr draw", "card", "")
    assert choices
    only([c["name"] for c in choices], Language.SV, "the choices for a Swedish app")
    await slash(member, room, "ttr settings", language="fi")
    choices = await member.autocomplete(room.channel, "ttr draw", "card", "")
    only([c["name"] for c in choices], Language.FI, "the choices for a member who chose Finnish")
