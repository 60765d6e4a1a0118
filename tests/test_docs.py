"""The README and docs/ stay true: every relative link leads somewhere, every command they name exists.

The README is the front door (at most 400 lines) and every page of docs/ can be reached from it. Commands are
checked against `tests/commands.json` (what Discord is sent, English names and their Swedish and Finnish
localizations) and against the subcommands of `python -m bot`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from bot.commands.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!\\)\]\(([^)\s]+)\)")
SLASH = re.compile(r"(?<![\w/])/(ttr|ttrmod|ttrtour) ([^\W\d_][^\s`|,.;:()\[\]\"'*]*)")
CLI = re.compile(r"python -m bot ([a-z][a-z-]*)")


def _text_outside_code(path: Path) -> str:
    """The page without its fenced code blocks (a link in a block of shell is not a link)."""
    kept: list[str] = []
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(line)
    return "\n".join(kept)


def anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[`*_]", "", title.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in _text_outside_code(path).splitlines():
        found.update(re.findall(r'<a id="([^"]+)"></a>', line))
        match = re.match(r"^#{1,6} (.+)$", line)
        if match:
            base = anchor(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(_text_outside_code(path))]


def _commands() -> dict[str, set[str]]:
    """Each group's subcommand names, in English, Swedish and Finnish."""
    names: dict[str, set[str]] = {}
    for group in json.loads((ROOT / "tests" / "commands.json").read_text(encoding="utf-8")):
        subs: set[str] = set()
        for option in group.get("options", []):
            if option.get("type") in (1, 2):
                subs.add(option["name"])
                subs.update((option.get("name_localizations") or {}).values())
        names[group["name"]] = subs
    return names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    broken: list[str] = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):  # https:, mailto: ...
            continue
        file_part, _, fragment = target.partition("#")
        dest = page if not file_part else (page.parent / unquote(file_part)).resolve()
        if not dest.exists():
            broken.append(f"{target}: no such file")
            continue
        if fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {dest.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_command_named_exists(page: Path) -> None:
    known = _commands()
    subcommands = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    text = page.read_text(encoding="utf-8")
    unknown = [f"/{g} {n}" for g, n in SLASH.findall(text) if n not in known[g]]
    unknown += [f"python -m bot {n}" for n in CLI.findall(text) if n not in subcommands]
    assert not unknown, f"{page.name} names commands that do not exist: {sorted(set(unknown))}"


def test_the_readme_is_a_front_door_to_every_page() -> None:
    readme = ROOT / "README.md"
    assert len(readme.read_text(encoding="utf-8").splitlines()) <= 400
    reached: set[Path] = set()
    todo = [readme.resolve()]
    while todo:
        page = todo.pop()
        if page in reached:
            continue
        reached.add(page)
        for target in links(page):
            file_part = target.partition("#")[0]
            if file_part.endswith(".md") and not re.match(r"^[a-z]+:", file_part):
                todo.append((page.parent / unquote(file_part)).resolve())
    missing = [p.name for p in PAGES if p.resolve() not in reached]
    assert not missing, f"not reachable from the README: {missing}"


def test_the_checks_find_what_is_wrong(tmp_path: Path) -> None:
    """The checks above can fail: a broken link, a missing heading and an unknown command are caught."""
    page = tmp_path / "page.md"
    page.write_text("# Top\n\nSee [x](nowhere.md), [y](#no-such-heading), [z](#top).\n", encoding="utf-8")
    assert links(page) == ["nowhere.md", "#no-such-heading", "#top"]
    assert anchors(page) == {"top"}
    assert not (tmp_path / "nowhere.md").exists()
    known = _commands()
    assert "claim" in known["ttr"] and "bygg" in known["ttr"] and "rakenna" in known["ttr"]
    assert [n for g, n in SLASH.findall("use `/ttr build` or /ttrmod pause") if n not in known[g]] == ["build"]
    assert anchor("What an ended game reveals, and when") == "what-an-ended-game-reveals-and-when"


def test_the_docs_list_every_command_with_its_swedish_and_finnish_name() -> None:
    players = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    moderators = (ROOT / "docs" / "moderators.md").read_text(encoding="utf-8")
    for group in json.loads((ROOT / "tests" / "commands.json").read_text(encoding="utf-8")):
        page = players if group["name"] == "ttr" else moderators
        for option in group.get("options", []):
            if option.get("type") not in (1, 2):
                continue
            loc = option.get("name_localizations") or {}
            name = group["name"]
            row = f"| `/{name} {option['name']}` | `/{name} {loc['sv-SE']}` | `/{name} {loc['fi']}` |"
            assert row in page, f"missing from the names table: {row}"


def test_the_operators_page_lists_every_setting() -> None:
    """Every setting of .env.example has its row, with its default, in docs/operators.md's settings table."""
    page = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")
    keys = [
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#") and "=" in line
    ]
    assert len(keys) >= 10
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    missing = [key for key in keys if not any(f"`{key}`" in row.split(" | ")[0] for row in rows)]
    assert not missing, f"settings missing from docs/operators.md: {missing}"
