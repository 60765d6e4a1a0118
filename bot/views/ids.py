"""Custom ids of the bot's buttons and menus: "ttr:ACTION:GAME:VERSION[:ARG...]".

Buttons start with "ttr:", select menus with "ttrs:". The version is the
game's version when the component was shown, so a click on an outdated
component can be recognised and refused instead of acted on. Discord allows
100 characters; the arguments are short (a colour, a route id, a payment code).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BUTTON = "ttr"
SELECT = "ttrs"
MAX_LENGTH = 100
_ARG = r"[A-Za-z0-9_.+\-]*"
BUTTON_TEMPLATE = rf"ttr:(?P<action>[a-z]+):(?P<game>\d+):(?P<version>\d+)(?P<args>(?::{_ARG})*)"
SELECT_TEMPLATE = rf"ttrs:(?P<action>[a-z]+):(?P<game>\d+):(?P<version>\d+)(?P<args>(?::{_ARG})*)"
_ARG_RE = re.compile(_ARG)


@dataclass(frozen=True)
class ComponentId:
    action: str
    game: int
    version: int
    args: tuple[str, ...] = ()

    def text(self, prefix: str) -> str:
        for arg in self.args:
            if not _ARG_RE.fullmatch(arg):
                raise ValueError(f"custom id argument {arg!r} has characters a custom id cannot carry")
        out = ":".join([prefix, self.action, str(self.game), str(self.version), *self.args])
        if len(out) > MAX_LENGTH:
            raise ValueError(f"custom id {out!r} is longer than {MAX_LENGTH} characters")
        return out

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        args = match.group("args")
        return cls(
            match.group("action"),
            int(match.group("game")),
            int(match.group("version")),
            tuple(args[1:].split(":")) if args else (),
        )

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default
