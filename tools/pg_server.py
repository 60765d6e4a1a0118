"""A throwaway PostgreSQL server for the tests and the benchmarks: `initdb` and `pg_ctl` in a temporary folder.

`PgServer.start()` makes a cluster in a fresh folder, starts it on a free
port with its unix socket in that folder (fsync off: nothing here must
survive a power cut), and `stop()` stops it and removes the folder. Run as
root, the server runs as the `postgres` user (PostgreSQL refuses root).
`CONDUCTOR_TEST_PG_URL` names a server to use instead (then nothing is
started or stopped). The binaries are looked for on PATH, then in
/usr/lib/postgresql/*/bin (where Debian's `postgresql` package puts them).
A server that cannot be started is an error, never a reason to skip.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ENV_URL = "CONDUCTOR_TEST_PG_URL"


class PgServerError(RuntimeError):
    """The throwaway server could not be started; the message says why and what to install."""


def find_binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return candidate
    raise PgServerError(
        f"{name} was not found on PATH nor in /usr/lib/postgresql/*/bin: install PostgreSQL "
        f"(Debian: apt-get install -y postgresql) or set {ENV_URL} to a server the tests may use"
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_server_user() -> tuple[list[str], int | None, int | None]:
    """The command prefix to run the server's programs, and the uid/gid the folder must belong to."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise PgServerError("as root the server needs a postgres user (PostgreSQL refuses root)") from None
    runuser = shutil.which("runuser")
    prefix = [runuser, "-u", "postgres", "--"] if runuser else ["su", "postgres", "-s", "/bin/sh", "-c"]
    return prefix, user.pw_uid, user.pw_gid


@dataclass
class PgServer:
    """A running server; `url(database)` names one of its databases."""

    host: str  # the socket folder, or a host name
    port: int
    user: str
    password: str | None = None
    folder: Path | None = None  # ours to stop and remove; None for a server given by CONDUCTOR_TEST_PG_URL
    base_url: str | None = None
    _prefix: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, durable: bool = False) -> PgServer:
        """Start a server (`durable`: fsync and synchronous commits on, as in production, for benchmarks)."""
        given = os.environ.get(ENV_URL, "").strip()
        if given:
            return cls(host="", port=0, user="", base_url=given.rstrip("/"))
        initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        prefix, uid, gid = _as_server_user()
        folder = Path(tempfile.mkdtemp(prefix="conductor-pg-"))
        data = folder / "data"
        if uid is not None and gid is not None:
            os.chown(folder, uid, gid)
        port = free_port()
        user = "conductor"
        server = cls(host=str(folder), port=port, user=user, folder=folder, _prefix=prefix)
        options = f"-k {folder} -p {port} -c listen_addresses='' -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        server._run([initdb, "-D", str(data), "-U", user, "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        server._run([pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60", "-o", options, "start"])
        return server

    def _run(self, command: list[str]) -> None:
        if self._prefix and self._prefix[-1] == "-c":  # su: one shell command
            full = [*self._prefix, " ".join(_shell_quote(part) for part in command)]
        else:
            full = [*self._prefix, *command]
        done = subprocess.run(full, capture_output=True, text=True, cwd=self.folder or None)
        if done.returncode != 0:
            log = ""
            if self.folder is not None and (self.folder / "log").exists():
                log = (self.folder / "log").read_text(errors="replace")[-2000:]
            raise PgServerError(f"{' '.join(command[:2])} failed: {done.stderr.strip() or done.stdout.strip()} {log}")

    def url(self, database: str = "postgres") -> str:
        if self.base_url is not None:
            head, _, _ = self.base_url.rpartition("/")
            return f"{head}/{database}"
        return f"postgresql://{self.user}@/{database}?host={quote(self.host, safe='')}&port={self.port}"

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            self._run([find_binary("pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def new_database_name() -> str:
    return f"t_{uuid.uuid4().hex[:16]}"
