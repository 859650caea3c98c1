"""`local --web` (issue 35): a tab closed in the middle of its live stream prints nothing into the player's
terminal (before, aiohttp's ERROR and a 25-line traceback landed right after the move prompt)."""

from __future__ import annotations

import logging
import re
import socket
import struct
from pathlib import Path

import pytest

from bot import local


def open_stream(url: str) -> socket.socket:
    """An event stream of the page, read up to its first event."""
    host, port, path = re.fullmatch(r"http://([\d.]+):(\d+)(/\S+)", url).groups()  # type: ignore[union-attr]
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"GET {path.split('?')[0]}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    while b"event: version" not in data:
        chunk = sock.recv(4096)
        assert chunk, data
        data += chunk
    return sock


def test_a_tab_closed_mid_stream_prints_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out: list[str] = []
    err: list[str] = []
    answers = 0

    def answer(prompt: str = "") -> str:
        nonlocal answers
        captured = capsys.readouterr()
        out.append(captured.out)
        err.append(captured.err)
        answers += 1
        if answers == 1:
            url = re.search(r"http://127\.0\.0\.1:\d+/g/1/\S+", "".join(out))
            assert url is not None, "".join(out)
            reset = open_stream(url[0])  # a killed tab: a reset
            reset.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            reset.close()
            open_stream(url[0]).close()  # a closed tab
        if answers == 6:  # the moves meanwhile wrote to both streams, which found their viewers gone
            raise EOFError
        return "1"

    monkeypatch.setattr("builtins.input", answer)
    # As in the terminal: no handler is set up, so a record of WARNING or above would print on stderr
    # (logging's last resort) rather than land in pytest's capture.
    monkeypatch.setattr(logging.root, "handlers", [])
    code = local.main(
        [
            "quadropolis",
            "--ai",
            "1",
            "--level",
            "random",
            "--web",
            "--web-port",
            "0",
            "--db",
            str(tmp_path / "local.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    err.append(capsys.readouterr().err)
    assert code == 0
    assert "".join(err) == "", "".join(err)
