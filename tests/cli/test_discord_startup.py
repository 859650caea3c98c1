"""Start-up says which of Discord and the token failed (the database is checked first, see
test_startup.py), and prints no voice-support warnings for a bot that never speaks."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

from bot.testing.fakediscord.server import FakeDiscord
from tests.cli.helpers import environment

LAUNCH = "bot.testing.fakediscord.launch"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def launch(url: str, token: str, tmp_path: Path) -> tuple[int, str]:
    env = environment(
        DISCORD_TOKEN=token, DATABASE_PATH=str(tmp_path / "bot.sqlite3"), FAKE_DISCORD_URL=url, LOG_LEVEL="INFO"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        LAUNCH,
        env=env,
        cwd=str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, err.decode()


def last_sentence(err: str) -> str:
    assert "Traceback" not in err, err
    assert "PyNaCl" not in err and "davey" not in err and "voice" not in err, err
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and err.rstrip().endswith(errors[0]), err
    return errors[0]


async def test_discord_unreachable_says_so(tmp_path: Path) -> None:
    status, err = await launch(f"http://127.0.0.1:{free_port()}", "abc", tmp_path)
    sentence = last_sentence(err)
    assert status == 1
    assert "cannot reach Discord" in sentence and "database was fine" in sentence


async def test_a_refused_token_says_so(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    status, err = await launch(fake_discord.url, "not-" + fake_discord.token, tmp_path)
    sentence = last_sentence(err)
    assert status == 2
    assert "refused DISCORD_TOKEN" in sentence and "Reset Token" in sentence
