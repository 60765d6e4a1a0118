"""The shape of the code (docs/architecture.md): layers import one way, the game service knows nothing of Discord
and writes no sentences, no package imports in a circle, and classes and modules stay small."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest
from helpers.import_graph import circles

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("maps", "engine", "render", "bot")
MAX_CLASS_LINES = 300  # counting the lines of the project's own classes it inherits from
MAX_MODULE_LINES = 400


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _runtime_imports(tree: ast.Module, modules: Collection[str], typing_too: bool = False) -> Iterator[str]:
    """The modules a module imports when it runs (not those under `if TYPE_CHECKING:`, which only name types,
    unless `typing_too`); `from package import module` counts as the module only (as the engine's own test reads
    it)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if typing_too:
            break
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                yield inner if inner in modules else node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def _imports(typing_too: bool = False) -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: set(_runtime_imports(ast.parse(path.read_text(encoding="utf-8")), modules, typing_too))
        for name, path in modules.items()
    }


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


# who may not import whom: (importer, imported)
FORBIDDEN = [
    ("maps", "engine"),
    ("maps", "render"),
    ("maps", "bot"),
    ("engine", "render"),
    ("engine", "bot"),
    ("render", "bot"),
    # the game service knows nothing of Discord and writes no sentences: it returns data
    ("bot.service", "discord"),
    ("bot.service", "bot.present"),
    ("bot.service", "bot.table"),
    ("bot.service", "bot.cogs"),
    ("bot.service", "bot.views"),
    ("bot.service", "bot.runtime"),
    # storage sits below the service
    ("bot.store", "bot.service"),
    ("bot.store", "discord"),
    # the words know nothing of Discord's front end
    ("bot.present", "bot.table"),
    ("bot.present", "bot.cogs"),
    ("bot.present", "bot.views"),
    # the views (buttons, menus) are below the front that answers them
    ("bot.views", "bot.table"),
    ("bot.views", "bot.cogs"),
    ("bot.table", "bot.cogs"),
]


@pytest.mark.parametrize(("importer", "imported"), FORBIDDEN, ids=[f"{a} !-> {b}" for a, b in FORBIDDEN])
def test_layers_import_one_way(importer: str, imported: str) -> None:
    found = sorted(
        f"{name} imports {target}"
        for name, targets in _imports().items()
        if _within(name, importer)
        for target in targets
        if _within(target, imported)
    )
    assert found == []


def test_no_modules_import_in_a_circle() -> None:
    """Not even through the imports that only name types (`if TYPE_CHECKING:`): a circle there is a circle in
    the design, whatever Python does at run time."""
    modules = _modules()
    graph = {name: {t for t in targets if t in modules and t != name} for name, targets in _imports(True).items()}
    assert circles(graph) == []


def _classes() -> dict[str, tuple[str, list[str], int]]:
    """Every class of bot/: its module, the names of its bases, its own lines."""
    found: dict[str, tuple[str, list[str], int]] = {}
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                bases = [ast.unparse(b).split("[")[0].split(".")[-1] for b in node.bases]
                found.setdefault(node.name, (_name(path), bases, node.end_lineno - node.lineno + 1))
    return found


def test_no_class_in_bot_is_long_counting_its_project_bases() -> None:
    classes = _classes()

    def lines(name: str, seen: set[str]) -> int:
        if name in seen or name not in classes:
            return 0  # not the project's (discord.py's Cog, a Protocol, ...)
        seen.add(name)
        _, bases, own = classes[name]
        return own + sum(lines(b, seen) for b in bases)

    long = {f"{classes[n][0]}.{n}": total for n in classes if (total := lines(n, set())) > MAX_CLASS_LINES}
    assert long == {}


def test_no_module_in_bot_is_long() -> None:
    long = {
        _name(p): count
        for p in (ROOT / "bot").rglob("*.py")
        if (count := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def _core_chain(node: ast.expr) -> bool:
    """`core` or `<anything>.core`: the service's core, however it is reached."""
    return (isinstance(node, ast.Name) and node.id == "core") or (
        isinstance(node, ast.Attribute) and node.attr == "core"
    )


def test_no_service_part_reaches_the_store_through_core() -> None:
    """Each part is given the store's parts it uses (bot/service/game_service.py); `core` is no back door to them:
    no `core.store` (nor the core's own private store parts) outside core.py."""
    reached = sorted(
        f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"
        for path in (ROOT / "bot" / "service").rglob("*.py")
        if path.name != "core.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and _core_chain(node.value)
        and (node.attr == "store" or node.attr.startswith("_"))
    )
    assert reached == []


def _assembly() -> dict[str, tuple[str, list[str], list[str]]]:
    """The parts `GameService.__init__` makes: each one's module (under bot/service/), the parts it is given, and the
    store parts it is given (`store.games` as `games`); the service's options (`rng=rng`...) are not parts."""
    tree = ast.parse((ROOT / "bot" / "service" / "game_service.py").read_text(encoding="utf-8"))
    modules = {
        alias.name: node.module.removeprefix("bot.service.").replace(".", "/") + ".py"
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot.service.")
        for alias in node.names
    }
    init = next(
        f
        for c in tree.body
        if isinstance(c, ast.ClassDef) and c.name == "GameService"
        for f in c.body
        if isinstance(f, ast.FunctionDef) and f.name == "__init__"
    )
    options = {a.arg for a in init.args.kwonlyargs}
    found: dict[str, tuple[str, list[str], list[str]]] = {}
    for node in ast.walk(init):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        if not (isinstance(call.func, ast.Name) and call.func.id in modules):
            continue
        (target, *_) = node.targets
        assert isinstance(target, ast.Attribute), ast.unparse(node)
        given = [
            *call.args,
            *(k.value for k in call.keywords if not (k.arg in options and k.arg == ast.unparse(k.value))),
        ]
        names = [ast.unparse(arg) for arg in given]
        found[target.attr] = (
            modules[call.func.id],
            [n for n in names if not n.startswith("store.")],
            [n.removeprefix("store.") for n in names if n.startswith("store.")],
        )
    return found


def _parts_table() -> dict[str, tuple[str, list[str], list[str]]]:
    """The parts table of docs/architecture.md: each part's module, the parts it uses, its store parts."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## The game service", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table: dict[str, tuple[str, list[str], list[str]]] = {}
    for row in rows:
        part, module, uses, stores = (cell.strip() for cell in row.strip("|").split("|")[:4])
        table[part.strip("`")] = (module, re.findall(r"`([\w.]+)`", uses), re.findall(r"`([\w.]+)`", stores))
    return table


def test_the_parts_table_of_the_architecture_page_is_the_assembly() -> None:
    """Each part the page's table names is made in `GameService.__init__`, of the module and with the parts and
    store parts the table lists, and each part made there is in the table."""
    table, assembly = _parts_table(), _assembly()
    assert len(assembly) > 15  # the reading of the assembly found it
    assert table == assembly


def test_every_module_that_lists_the_languages_is_named_where_a_language_is_added() -> None:
    """A module of bot/ that has a word, a locale or a choice for each language (it names `Language.FI`, the last
    one) is a place a new language must go: the page's "A language." names it."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    bullet = page.split("- **A language.**", 1)[1].split("\n- **", 1)[0]
    listing = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "bot").rglob("*.py")
        if "Language.FI" in path.read_text(encoding="utf-8")
    }
    assert len(listing) >= 5
    assert sorted(m for m in listing if f"`{m}`" not in bullet) == []


# the refusal catalogue: one entry per way a move can be refused, long by nature
LONG_ENGINE_MODULES = {"engine.errors"}


def test_no_module_in_the_engine_is_long() -> None:
    long = {
        _name(p): count
        for p in (ROOT / "engine").rglob("*.py")
        if (count := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
        and _name(p) not in LONG_ENGINE_MODULES
    }
    assert long == {}


def test_the_front_needs_the_parts_not_the_core() -> None:
    """The front (bot/table, bot/cogs, bot/views) is given the service's parts it uses, never `ServiceCore`."""
    found = sorted(
        f"{path.relative_to(ROOT)}"
        for package in ("table", "cogs", "views")
        for path in (ROOT / "bot" / package).rglob("*.py")
        if "ServiceCore" in path.read_text(encoding="utf-8") or ".core." in path.read_text(encoding="utf-8")
    )
    assert found == []


# the maps' rules that every map's game reaches: how they are called together, the base of a rule, what it is given
EXTRAS_FRAME = {"engine.extras", "engine.extras.registry", "engine.extras.base", "engine.extras.host"}


def test_the_maps_rules_are_reached_only_through_the_registry() -> None:
    """No module outside engine/extras imports a map's own rule (ferries, tunnels, tourists...): the core, the
    front and the drawings reach them through `engine.extras.registry`, which knows which board uses which."""
    rules = {name for name in _modules() if _within(name, "engine.extras") and name not in EXTRAS_FRAME}
    assert {"engine.extras.ferries", "engine.extras.tunnels", "engine.extras.tourists"} <= rules
    found = sorted(
        f"{name} imports {target}"
        for name, targets in _imports(True).items()
        if not _within(name, "engine.extras")
        for target in targets
        if target in rules
    )
    assert found == []
