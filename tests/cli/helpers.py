"""Running the command-line entry points: in this process (fast) or as real processes."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Ran:
    status: int
    out: str
    err: str


def run_main(*argv: str) -> Ran:
    """``python -m bot ARGV`` in this process, standard output and error captured."""
    from bot.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return Ran(status, out.getvalue(), err.getvalue())


def environment(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "FAKE_DISCORD_"))
        and k
        not in ("DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL", "DATA_DIR", "BOT_IN_IMAGE", "SHARD_COUNT", "SHARD_IDS")
    }
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env.update(extra)
    return env


def run_process(
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    timeout: float = 60,
) -> Ran:
    """``python ARGS`` as a child process."""
    proc = subprocess.run(
        [sys.executable, *args],
        env=env or environment(),
        cwd=cwd or ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Ran(proc.returncode, proc.stdout, proc.stderr)


def run_into_closed_pipe(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> Ran:
    """``python ARGS | head -0``: standard output is a pipe whose reader is gone before the child writes."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, *args],
            env=env or environment(),
            cwd=ROOT,
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=timeout,
        )
    finally:
        os.close(write_end)
    return Ran(proc.returncode, "", proc.stderr)


def one_sentence(err: str) -> str:
    """The single ``error:`` line of ``err`` (asserting there is exactly one line and no traceback; the prefix
    is in the terminal's language)."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    from bot.i18n import languages, t

    assert lines[0].startswith(tuple(f"{t('cli.error_prefix', lang)}: " for lang in languages())), err
    return lines[0]


async def local_web(tmp_path: Path, *game: str) -> asyncio.subprocess.Process:
    """``python -m bot local GAME… --web`` as a child process on any free port, its database and pictures in
    ``tmp_path``, its standard input, output and errors piped."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "local", *game, "--web", "--web-port", "0",
        "--db", str(tmp_path / "local.sqlite3"), "--out", str(tmp_path / "out"),
        cwd=str(ROOT), env=environment(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    return proc
