"""The slash commands' words in every language: what the catalogue holds for them, and the translator Discord is sent.

Discord shows each member the commands in their client's language when the
commands carry localizations. discord.py asks a `Translator` for each name,
description and choice name of the tree at sync time (`CommandTranslator`,
set on the tree in bot/runtime/app.py); it looks them up in the gettext catalogues
(bot/present/locale) under these contexts:

    "command name", "command description"   (commands, subcommands and groups)
    "option name", "option description"     (the options of a command)
    "choice"                                (the names of an option's choices)

`command_texts()` lists every such text of the tree with its context, so
that `python -m tools.i18n extract` puts them in the catalogue: the tree is
read from the cogs' classes, offline (no bot, no database).

Discord refuses a whole sync with one bad localization, so a translation
that breaks its rules (a name: lowercase, 1-32 letters, digits, "-" or "_";
a description: 1-100 characters) is not sent: that language shows the
English text there, and the tests catch it first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.present.i18n import catalogue, language_of_locale
from bot.service.kinds import Language

log = logging.getLogger(__name__)

COMMAND_NAME = "command name"
COMMAND_DESCRIPTION = "command description"
OPTION_NAME = "option name"
OPTION_DESCRIPTION = "option description"
CHOICE = "choice"

CONTEXTS = {
    Where.command_name: COMMAND_NAME,
    Where.group_name: COMMAND_NAME,
    Where.command_description: COMMAND_DESCRIPTION,
    Where.group_description: COMMAND_DESCRIPTION,
    Where.parameter_name: OPTION_NAME,
    Where.parameter_description: OPTION_DESCRIPTION,
    Where.choice_name: CHOICE,
}
NAMES = (COMMAND_NAME, OPTION_NAME)

# Discord's rule for command and option names (lowercase where a letter has cases)
NAME_RULE = re.compile(r"[-_\w]{1,32}")
MAX_DESCRIPTION = 100
MAX_CHOICE_NAME = 100

# the Discord locales the bot localizes its commands for (English is the commands' own text)
LOCALES = {Language.SV: Locale.swedish, Language.FI: Locale.finnish}


def valid(context: str, text: str) -> bool:
    """Whether Discord takes `text` as a localization in `context`."""
    if context in NAMES:
        return NAME_RULE.fullmatch(text) is not None and text == text.lower()
    most = MAX_DESCRIPTION if context in (COMMAND_DESCRIPTION, OPTION_DESCRIPTION) else MAX_CHOICE_NAME
    return 1 <= len(text) <= most and text.strip() == text


def translated(language: Language, context: str, text: str) -> str | None:
    """`text` (in `context`) in `language`, if its catalogue has it; None if not, or if Discord would refuse it."""
    found = catalogue(language)
    entries: dict[str, str] = getattr(found, "_catalog", {})
    words = entries.get(f"{context}\x04{text}")
    if not words:
        return None
    if not valid(context, words):
        log.warning("the %s translation of the %s %r breaks Discord's rules: not sent", language.value, context, text)
        return None
    return words


class CommandTranslator(app_commands.Translator):
    """The slash commands' localizations for Discord, from the catalogues (Swedish and Finnish)."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = language_of_locale(locale)
        where = CONTEXTS.get(context.location)
        if language is None or language is Language.EN or where is None:
            return None
        return translated(language, where, string.message)


# ----- the texts of the tree, for the catalogue ----------------------------------------------------------------


def _cog_classes() -> list[type[Any]]:
    from bot.cogs.config import ConfigCog
    from bot.cogs.lobby import LobbyCog
    from bot.cogs.member_settings import MemberSettingsCog
    from bot.cogs.mod_clock import ModClockCog
    from bot.cogs.mod_reads import ModReadsCog
    from bot.cogs.moderation import ModerationCog
    from bot.cogs.plans import PlanCog
    from bot.cogs.play import PlayCog
    from bot.cogs.ratings import RatingsCog
    from bot.cogs.review import ReviewCog
    from bot.cogs.tour_desk import TournamentDeskCog, TournamentRecordsCog
    from bot.cogs.tour_players import TournamentCog
    from bot.cogs.tour_rounds import TournamentRoundsCog

    return [
        LobbyCog,
        PlayCog,
        PlanCog,
        MemberSettingsCog,
        RatingsCog,
        ReviewCog,
        ConfigCog,
        ModClockCog,
        ModerationCog,
        ModReadsCog,
        TournamentDeskCog,
        TournamentRecordsCog,
        TournamentRoundsCog,
        TournamentCog,
    ]


def tree_commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """The top-level commands and groups of the bot (its subcommands are read from their classes, not copied)."""
    from bot.cogs.mod_base import ttrmod_group
    from bot.cogs.tour_base import ttrtour_group
    from bot.cogs.ttr import ttr_group

    found: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
        ttr_group(),
        ttrtour_group(),
        ttrmod_group(),
    ]
    for cog in _cog_classes():
        found += cog.__cog_app_commands__
    return found


def _walk(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group,
) -> Iterator[tuple[str, str]]:
    yield str(command.name), COMMAND_NAME
    yield str(command.description), COMMAND_DESCRIPTION
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _walk(child)
        return
    for parameter in command.parameters:
        yield parameter.display_name, OPTION_NAME
        yield str(parameter.description), OPTION_DESCRIPTION
        for choice in parameter.choices:
            yield choice.name, CHOICE


def texts_of(commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group]) -> list[tuple[str, str]]:
    """(text, context) of every name, description and choice name of `commands` and what is under them, once each."""
    seen: dict[tuple[str, str], None] = {}
    for command in commands:
        for entry in _walk(command):
            seen.setdefault(entry, None)
    return list(seen)


def command_texts() -> list[tuple[str, str | None]]:
    """(text, msgctxt) of every name, description and choice name of the bot's slash commands (tools/i18n.py)."""
    return list(texts_of(tree_commands()))
