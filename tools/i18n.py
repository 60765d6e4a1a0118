"""The catalogues' tool: extract the texts, update each language's catalogue, compile them, add a language.

    python -m tools.i18n extract      # bot/**.py -> bot/present/locale/conductor.pot
    python -m tools.i18n update       # the .pot merged into every LANG/LC_MESSAGES/conductor.po
    python -m tools.i18n compile      # every .po -> .mo (what the bot reads)
    python -m tools.i18n all          # the three in a row
    python -m tools.i18n init LANG    # a new language's catalogue, from the .pot

Babel (the `pybabel` library) does the work; the English catalogue is
filled with the English texts themselves, so English has its plural forms
and every language is read the same way. The slash commands' names,
descriptions and choices are extracted too (`bot.cogs.command_words`), so a
translator finds them in the same catalogue.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.present.i18n import MAP_CONTEXTS

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "bot" / "present" / "locale"
DOMAIN = "conductor"
POT = LOCALE / f"{DOMAIN}.pot"
# fixed header dates, so a catalogue changes only where its texts do (no merge conflicts over a date)
_FIXED: dict[str, Any] = {
    "creation_date": datetime(2026, 11, 25, tzinfo=UTC),
    "revision_date": datetime(2026, 11, 25, tzinfo=UTC),
    "version": "1",
    "copyright_holder": "the Conductor authors",
    "last_translator": "the Conductor authors",
    "language_team": "the Conductor authors",
    "fuzzy": False,
}
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "map_": (2,),
    "nmap_": (2, 3),
}
# the texts each map's rulebook words its own way (bot/present/i18n.py: map_), entered once more per map context
MAP_KEYWORDS = {"map_": (2,), "nmap_": (2, 3)}


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").exists())


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=120, sort_output=True, omit_header=False, include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def _command_messages() -> Iterable[tuple[str, str | None]]:
    """(text, context) of every slash command name, description and choice (none if the module is missing)."""
    try:
        module = importlib.import_module("bot.cogs.command_words")
    except ImportError:
        return []
    texts: Iterable[tuple[str, str | None]] = module.command_texts()
    return texts


def extracted() -> Catalog:
    """Every text marked in the code (and every command text), as a template catalogue."""
    catalog = Catalog(domain=DOMAIN, project="Conductor", charset="utf-8", **_FIXED)
    method_map = [("bot/**.py", "python")]
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map=method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for filename, lineno, message, comments, _context in extract_from_dir(
        str(ROOT), method_map=method_map, keywords=MAP_KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        for title in MAP_CONTEXTS.values():
            catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=title)
    for text, context in _command_messages():
        catalog.add(text, None, [("bot/cogs/command_words.py", 0)], context=context)
    return catalog


def compiled(language: str) -> bytes:
    """The .mo bytes of a language's .po as it is now."""
    buffer = io.BytesIO()
    write_mo(buffer, read(po_path(language), language), use_fuzzy=False)
    return buffer.getvalue()


def extract() -> Catalog:
    catalog = extracted()
    write(POT, catalog)
    print(f"{len(catalog)} texts -> {POT.relative_to(ROOT)}")
    return catalog


def _filled_english(catalog: Catalog) -> None:
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")


def update() -> None:
    for language in languages():
        # a fresh template per language: Catalog.update adds the template's own Message objects, which the English
        # filling below would otherwise write into every later language's new entries
        template = read(POT)
        path = po_path(language)
        catalog = read(path, language)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.fuzzy = False
        catalog.revision_date = _FIXED["revision_date"]
        catalog.creation_date = _FIXED["creation_date"]
        if language == "en":
            _filled_english(catalog)
        catalog.obsolete.clear()
        write(path, catalog)
        missing = [m.id for m in catalog if m.id and not _translated(m)]
        print(f"{language}: {len(catalog)} texts, {len(missing)} untranslated")


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings) and "fuzzy" not in message.flags


def compile_all() -> None:
    for language in languages():
        po_path(language).with_suffix(".mo").write_bytes(compiled(language))
        print(f"{language}: compiled")


def init(language: str) -> None:
    path = po_path(language)
    if path.exists():
        sys.exit(f"{path} exists already: run update")
    template = read(POT)
    catalog = Catalog(locale=language, domain=DOMAIN, project="Conductor", charset="utf-8", **_FIXED)
    catalog.update(template, no_fuzzy_matching=True)
    write(path, catalog)
    print(f"{language}: new catalogue {path.relative_to(ROOT)} with {len(catalog)} texts to translate")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.i18n", description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["extract", "update", "compile", "all", "init"])
    parser.add_argument("language", nargs="?")
    args = parser.parse_args(argv)
    if args.step == "init":
        if not args.language:
            parser.error("init needs a language code, like de")
        init(args.language)
        return
    if args.step in ("extract", "all"):
        extract()
    if args.step in ("update", "all"):
        update()
    if args.step in ("compile", "all"):
        compile_all()


if __name__ == "__main__":
    main()
