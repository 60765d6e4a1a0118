"""The examples the slash commands' option descriptions quote (tests/commands.json, what Discord shows) are what the
bot reads, in every language: a Swedish or Finnish description says `ingen` / `ei`, never the English "none", and
every quoted duration is one the parser accepts. `/ttrtour create|configure turn_time` said "none" in both."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.table.parsing import NONE_WORDS, parse_duration, parse_reminders

COMMANDS = Path(__file__).parent / "commands.json"
DURATIONS = {"turn_time", "reserve", "duration", "deadline", "away"}
QUOTED = re.compile(r'"([^"]+)"')


def options(nodes: list[dict[str, Any]], path: tuple[str, ...] = ()) -> Iterator[tuple[str, dict[str, Any]]]:
    for node in nodes:
        here = (*path, node["name"])
        if "options" in node:
            yield from options(node["options"], here)
        if path:
            yield "/".join(here), node


def descriptions(node: dict[str, Any]) -> dict[str, str]:
    return {"en": node.get("description", ""), **node.get("description_localizations", {})}


ALL = list(options(json.loads(COMMANDS.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("command", ["ttrtour/create/turn_time", "ttrtour/configure/turn_time"])
def test_the_tournament_turn_time_says_none_in_each_language(command: str) -> None:
    node = dict(ALL)[command]
    said = descriptions(node)
    assert '"ingen"' in said["sv-SE"] and '"ei"' in said["fi"], said
    assert '"none"' in said["en"]


def test_every_quoted_duration_or_none_word_is_read_by_the_bot() -> None:
    checked = 0
    for command, node in ALL:
        name = command.rsplit("/", 1)[1]
        for locale, text in descriptions(node).items():
            for example in QUOTED.findall(text):
                if locale != "en":
                    assert example != "none", f"{command} ({locale}) says the English {example!r}"
                if name in DURATIONS:
                    parse_duration(example)  # raises if the bot cannot read it
                    checked += 1
                elif name == "reminders":
                    assert example in NONE_WORDS or parse_reminders(example), (command, locale, example)
                    checked += 1
    assert checked >= 40
