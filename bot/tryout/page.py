"""What the try-out adds to SimCord's preview page: actions in order with the clock, commands in the page's language.

The page's actions and the clock's steps are both SimCord operations, which
must not overlap: the preview's own handler of the page's actions is wrapped
to take the try-out's lock (`order_actions`).

SimCord's preview offers the slash commands under their own names only
(`/ttr claim`), whatever the page's locale, while Discord shows a member
the names in their client's language (`/ttr bygg`, the commands'
`name_localizations`), and the bot's messages name them so. The try-out
rewrites what the page's command list shows: each command, option and
choice under its name for the page's locale, with its description there.
The page sends what a member chose under those names; before SimCord reads
an action, its option names go back to the commands' own (as Discord sends
them to the bot), and the command itself is named by its id and path,
which stay the commands' own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any

from simcord.preview import Preview

SUBCOMMAND_TYPES = (1, 2)  # a subcommand, a subcommand group
OPTION_KEY = ":option:"  # in the page's keys of a command's option: "command:ID:PATH:option:NAME"

Action = Callable[[str | None, Any], Awaitable[dict[str, Any]]]


def localized(node: Mapping[str, Any], field: str, locale: str) -> str:
    """The node's `field` ("name" or "description") for `locale`, or its own where it has none."""
    names = node.get(f"{field}_localizations") or {}
    return str(names.get(locale) or node.get(field, ""))


def leaf_nodes(command: Mapping[str, Any], path: list[str]) -> Sequence[Mapping[str, Any]] | None:
    """The nodes along `path` (the command, its group, its subcommand), or None if it has no such path."""
    if not path or path[0] != command.get("name"):
        return None
    nodes = [command]
    for name in path[1:]:
        children = [o for o in nodes[-1].get("options") or [] if o.get("type") in SUBCOMMAND_TYPES]
        child = next((o for o in children if o.get("name") == name), None)
        if child is None:
            return None
        nodes.append(child)
    return nodes


def options_of(nodes: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    return (o for o in nodes[-1].get("options") or [] if o.get("type") not in SUBCOMMAND_TYPES)


def localize_entry(entry: dict[str, Any], command: Mapping[str, Any], locale: str) -> None:
    """Rewrite one entry of the page's command list (SimCord's wire form) for `locale`, in place."""
    nodes = leaf_nodes(command, list(entry.get("path") or []))
    if nodes is None:
        return
    entry["invocation"] = " ".join(localized(node, "name", locale) for node in nodes)
    entry["description"] = localized(nodes[-1], "description", locale)
    specs = {str(o.get("name")): o for o in options_of(nodes)}
    for option in entry.get("options") or []:
        spec = specs.get(option.get("name"))
        if spec is None:
            continue
        option["name"] = localized(spec, "name", locale)
        option["description"] = localized(spec, "description", locale)
        choices = {str(c.get("value")): c for c in spec.get("choices") or []}
        for choice in option.get("choices") or []:
            found = choices.get(str(choice.get("value")))
            if found is not None:
                choice["name"] = localized(found, "name", locale)


def localize_catalog(catalog: Mapping[str, Any], commands: Sequence[Mapping[str, Any]], locale: str) -> None:
    """Rewrite the page's command list (SimCord's wire form) for `locale`, in place: the names it shows."""
    by_id = {str(c.get("id")): c for c in commands}
    for entry in catalog.get("entries") or []:
        command = by_id.get(str(entry.get("commandId")))
        if command is not None:
            localize_entry(entry, command, locale)


def option_names(command: Mapping[str, Any], path: list[str], locale: str) -> dict[str, str]:
    """The command's options' names for `locale` -> their own names."""
    nodes = leaf_nodes(command, path)
    if nodes is None:
        return {}
    return {localized(o, "name", locale): str(o.get("name")) for o in options_of(nodes)}


def own_names(body: Any, commands: Sequence[Mapping[str, Any]], locale: str) -> Any:
    """An action of the page with its command's options named as the bot declared them (the page shows `locale`'s)."""
    if not isinstance(body, Mapping):
        return body
    kind = body.get("kind")
    if kind in ("run_command", "autocomplete_command"):
        command = next((c for c in commands if str(c.get("id")) == str(body.get("command_id"))), None)
        path = body.get("path")
        if command is None or not isinstance(path, list) or not all(isinstance(p, str) for p in path):
            return body
        names = option_names(command, path, locale)
        body = dict(body)
        if isinstance(body.get("options"), Mapping):
            body["options"] = {names.get(k, k): v for k, v in body["options"].items()}
        if isinstance(body.get("focused"), str):
            body["focused"] = names.get(body["focused"], body["focused"])
        return body
    key = body.get("control_key")
    if kind == "browse_candidates" and isinstance(key, str) and key.startswith("command:") and OPTION_KEY in key:
        head, name = key.rsplit(OPTION_KEY, 1)
        parts = head.split(":")
        command = next((c for c in commands if len(parts) == 3 and str(c.get("id")) == parts[1]), None)
        if command is not None:
            names = option_names(command, parts[2].split("."), locale)
            return {**body, "control_key": f"{head}{OPTION_KEY}{names.get(name, name)}"}
    return body


def visible_commands(preview: Preview, page: Any) -> Sequence[Mapping[str, Any]]:
    commands: list[dict[str, Any]] = preview.env.backend.visible_commands(
        user_id=page.viewer.id, channel_id=page.channel_id
    )
    return list(commands)


def order_actions(preview: Preview, lock: asyncio.Lock, published: Callable[[], None]) -> None:
    """Run the page's actions under the lock the clock takes too (SimCord runs one operation at a time)."""
    action: Action = preview._action

    async def ordered(context_id: str | None, body: Any) -> dict[str, Any]:
        async with lock:
            result = await action(context_id, body)
        published()
        return result

    preview._action = ordered  # type: ignore[method-assign]


def speak_locale(preview: Preview, locale: str) -> None:
    """Have the page show the commands under their names for `locale` (and read what it sends back)."""
    if locale.startswith("en"):
        return  # the commands' own names are the English ones
    publish: Callable[..., None] = preview._publish
    action: Action = preview._action

    def published(page: Any, **kwargs: Any) -> None:
        publish(page, **kwargs)
        if page.command_catalog.get("entries"):
            localize_catalog(page.command_catalog, visible_commands(preview, page), locale)

    async def read_back(context_id: str | None, body: Any) -> dict[str, Any]:
        page = preview._pages.get(context_id) if isinstance(context_id, str) else None
        if page is not None:
            body = own_names(body, visible_commands(preview, page), locale)
        return await action(context_id, body)

    preview._publish = published  # type: ignore[method-assign]
    preview._action = read_back  # type: ignore[method-assign]
