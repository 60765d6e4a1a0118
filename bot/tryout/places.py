"""The try-out's start page: where to look, the server's #games channel or one member's direct messages.

SimCord serves one preview page at a time, of one channel: #games, viewed
as any member of the server, or a member's direct messages with the bot,
viewed by that member alone (as in Discord, nobody else reads them). This
small page on the loopback address lists those places; choosing one closes
the page shown so far and opens the preview of that place, whose address
(with its own key) the browser then goes to. The page and its two calls
answer only with the try-out's key, which only the printed address holds.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

GAMES = "games"


@dataclass(frozen=True)
class Place:
    where: str  # "games", or "dm:USER_ID"
    label: str


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conductor try-out</title>
<link rel="stylesheet" href="/places.css">
</head>
<body>
<main>
<h1>Conductor try-out</h1>
<p>The real bot in a local simulated Discord. Open the server's channel to play, or a member's direct messages
with the bot (only that member reads them). One page is shown at a time: come back here to switch.</p>
<nav id="places" aria-label="Places"></nav>
<p id="status" role="status"></p>
</main>
<script src="/places.js"></script>
</body>
</html>
"""

SCRIPT = """
const key = location.hash.slice(1);
const status = document.getElementById("status");
const places = document.getElementById("places");

async function call(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: {"X-Tryout-Key": key, "Content-Type": "application/json"},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

async function show(where) {
  status.textContent = "Opening...";
  try {
    const answer = await call("/api/show", {where});
    location.href = answer.url;
  } catch (error) {
    status.textContent = "That place could not be opened: open the address the try-out printed.";
  }
}

async function load() {
  try {
    const answer = await call("/api/places");
    for (const place of answer.places) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = place.where === "games" ? "place games" : "place";
      button.dataset.where = place.where;
      button.textContent = place.label;
      button.addEventListener("click", () => show(place.where));
      places.append(button);
    }
  } catch (error) {
    status.textContent = "This page needs the full address the try-out printed (with its key after #).";
  }
}

load();
"""

STYLE = """
body { background: #313338; color: #dbdee1; font: 16px/1.5 system-ui, sans-serif; margin: 0; }
main { max-width: 640px; margin: 48px auto; padding: 0 24px; }
h1 { color: #f2f3f5; font-size: 24px; }
nav { display: flex; flex-direction: column; gap: 8px; margin: 24px 0; }
.place { background: #4e5058; color: #f2f3f5; border: 0; border-radius: 4px; padding: 10px 16px;
  font-size: 16px; text-align: left; cursor: pointer; }
.place.games { background: #5865f2; font-weight: 600; }
.place:hover { filter: brightness(1.1); }
"""

HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
    ),
}


class PlacesPage:
    """The start page on 127.0.0.1:`port`; `show(where)` opens a place and gives its preview's address."""

    def __init__(self, places: Sequence[Place], show: Callable[[str], Awaitable[str]]) -> None:
        self.places = tuple(places)
        self.show = show
        self.key = secrets.token_urlsafe(32)
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        assert self.port is not None
        return f"http://127.0.0.1:{self.port}/#{self.key}"

    async def start(self, port: int) -> None:
        app = web.Application()
        app.router.add_get("/", self._static(PAGE, "text/html"))
        app.router.add_get("/places.js", self._static(SCRIPT, "application/javascript"))
        app.router.add_get("/places.css", self._static(STYLE, "text/css"))
        app.router.add_get("/api/places", self._list)
        app.router.add_post("/api/show", self._show)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        server: Any = site._server
        self.port = int(server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _local(self, request: web.Request) -> bool:
        """A request for this address (not another name pointing here), from a page of this address."""
        hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        origin = request.headers.get("Origin")
        return request.headers.get("Host", "") in hosts and (origin is None or origin.split("//", 1)[-1] in hosts)

    def _authorized(self, request: web.Request) -> bool:
        supplied = request.headers.get("X-Tryout-Key", "")
        return self._local(request) and secrets.compare_digest(supplied, self.key)

    def _static(self, text: str, content_type: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            if not self._local(request):
                raise web.HTTPForbidden()
            return web.Response(text=text, content_type=content_type, headers=HEADERS)

        return handler

    async def _list(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            raise web.HTTPUnauthorized()
        places = [{"where": place.where, "label": place.label} for place in self.places]
        return web.json_response({"places": places}, headers=HEADERS)

    async def _show(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            raise web.HTTPUnauthorized()
        try:
            body = json.loads(await request.content.read(4096))
        except ValueError:
            raise web.HTTPBadRequest() from None
        where = body.get("where") if isinstance(body, dict) else None
        if where not in {place.where for place in self.places}:
            raise web.HTTPNotFound()
        return web.json_response({"url": await self.show(where)}, headers=HEADERS)
