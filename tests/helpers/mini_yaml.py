"""A reader of the YAML the project's deploy files are written in (PyYAML is no dependency of the project).

Block mappings and sequences by indentation, `- key: value` items, plain, 'single' and "double" quoted scalars,
`#` comments; anything else (flow collections, anchors, block scalars, tabs) is refused with the line it is on.
Plain scalars stay text, except whole numbers (the deploy files use no other types).
"""

from __future__ import annotations

import json
from typing import Any


class YamlError(ValueError):
    pass


def load(text: str) -> Any:
    lines: list[tuple[int, str, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise YamlError(f"line {number}: a tab in the indentation")
        content = raw.strip()
        if not content or content.startswith("#"):
            continue
        if content[0] in "{[&*!|>" or content.startswith(("- {", "- [", "- |", "- >")):
            raise YamlError(f"line {number}: not in the subset read here: {content!r}")
        lines.append((len(raw) - len(raw.lstrip()), content, number))
    value, end = _block(lines, 0, 0 if not lines else lines[0][0])
    if end != len(lines):
        raise YamlError(f"line {lines[end][2]}: unexpected indentation")
    return value


def _block(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1] == "-" or lines[i][1].startswith("- "):
        return _sequence(lines, i, indent)
    return _mapping(lines, i, indent)


def _sequence(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    while i < len(lines) and lines[i][0] == indent and (lines[i][1] == "-" or lines[i][1].startswith("- ")):
        rest, number = lines[i][1][1:].lstrip(), lines[i][2]
        if not rest:
            item, i = _block(lines, i + 1, lines[i + 1][0])
        elif _key(rest, number) is not None:  # a mapping starts on the item's line
            inner = indent + 2
            item, i = _mapping([*lines[:i], (inner, rest, number), *lines[i + 1 :]], i, inner)
        else:
            item, i = _scalar(rest, number), i + 1
        items.append(item)
    return items, i


def _mapping(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[dict[str, Any], int]:
    found: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        content, number = lines[i][1], lines[i][2]
        split = _key(content, number)
        if split is None:
            raise YamlError(f"line {number}: expected `key: value`, got {content!r}")
        key, rest = split
        if key in found:
            raise YamlError(f"line {number}: the key {key!r} twice")
        if rest:
            found[key], i = _scalar(rest, number), i + 1
        elif i + 1 < len(lines) and (
            lines[i + 1][0] > indent or (lines[i + 1][0] == indent and lines[i + 1][1].startswith("- "))
        ):
            found[key], i = _block(lines, i + 1, lines[i + 1][0])
        else:
            found[key], i = None, i + 1
    if i < len(lines) and lines[i][0] > indent:
        raise YamlError(f"line {lines[i][2]}: unexpected indentation")
    return found, i


def _key(content: str, number: int) -> tuple[str, str] | None:
    """`key: rest` split, or None when the line is no mapping entry."""
    if content[0] in "'\"":
        key, end = _quoted(content, number)
        rest = content[end:]
    else:
        at = content.find(": ")
        if at < 0 and content.endswith(":"):
            at = len(content) - 1
        if at < 0 or " #" in content[:at]:
            return None
        key, rest = content[:at], content[at:]
    if not (rest == ":" or rest.startswith(": ")):
        return None
    return key, rest[1:].strip()


def _quoted(content: str, number: int) -> tuple[str, int]:
    quote = content[0]
    i = 1
    while i < len(content):
        if quote == "'" and content[i] == "'":
            if content[i + 1 : i + 2] == "'":
                i += 2
                continue
            return content[1:i].replace("''", "'"), i + 1
        if quote == '"' and content[i] == "\\":
            i += 2
            continue
        if quote == '"' and content[i] == '"':
            return str(json.loads(content[: i + 1])), i + 1
        i += 1
    raise YamlError(f"line {number}: a quoted text that does not end")


def _scalar(text: str, number: int) -> Any:
    if text[0] in "{[&*!|>%@`":
        raise YamlError(f"line {number}: not in the subset read here: {text!r}")
    if text[0] in "'\"":
        value, end = _quoted(text, number)
        tail = text[end:].strip()
        if tail and not tail.startswith("#"):
            raise YamlError(f"line {number}: text after a quoted value: {tail!r}")
        return value
    if " #" in text:
        text = text[: text.index(" #")].rstrip()
    return int(text) if text.isdigit() else text
