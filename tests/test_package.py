"""Only the product in the package (issue 37): the wheel that ``pip install .`` and the image install holds no
test kit (``bot/testing``: the fake Discord with its OpenAPI description, the toy game's entry point) and no
benches (``bot/benches``), and its runtime dependencies leave out what only they need (jsonschema,
referencing: the extras ``test`` and ``bench`` have them)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KIT = ("bot/testing/", "bot/benches/")
KIT_ONLY = {"jsonschema", "referencing"}
"""Distributions only the test kit and the benches need."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel built from a copy of what the image copies (so the build leaves nothing in the checkout), with
    the checkout's egg-info beside it as an editable install leaves it (setuptools reads its file list)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("bot", "cogs", "render", *(p.name for p in ROOT.glob("*.egg-info"))):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (built,) = out.glob("*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_holds_no_test_kit_and_no_benches(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    assert "bot/__main__.py" in names and "bot/bench.py" in names and "cogs/app.py" in names
    assert any(n.startswith("bot/locales/en/") and n.endswith(".json") for n in names)
    shipped = [n for n in names if n.startswith(KIT)]
    assert not shipped, shipped[:5]


def test_the_wheels_runtime_dependencies_leave_out_the_kits(wheel: zipfile.ZipFile) -> None:
    (metadata,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    requires = [
        line.partition(":")[2].strip()
        for line in wheel.read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist:")
    ]
    runtime = {re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower() for r in requires if "extra ==" not in r}
    assert "discord.py" in runtime and "pillow" in runtime
    assert not runtime & KIT_ONLY, runtime & KIT_ONLY
    for extra in ("test", "bench"):
        given = {re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower() for r in requires if f'extra == "{extra}"' in r}
        assert given >= KIT_ONLY, (extra, given)


def test_nothing_in_the_wheel_imports_the_kits(wheel: zipfile.ZipFile) -> None:
    """The installed bot runs without them: no module of the wheel imports the test kit, the benches or what
    only they need (the bench's entry point names them only to say, in one sentence, that they are absent)."""
    found = []
    for name in wheel.namelist():
        if not name.endswith(".py") or name == "bot/bench.py":
            continue
        for node in ast.walk(ast.parse(wheel.read(name), name)):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            found += [
                f"{name}: {m}"
                for m in modules
                if m.split(".")[0] in KIT_ONLY or m.startswith(("bot.testing", "bot.benches"))
            ]
    assert not found, found


def test_the_image_installs_the_wheel_alone() -> None:
    """The image's last stage copies no source from the checkout and installs the built wheel without extras."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    last = max(i for i, line in enumerate(lines) if line.upper().startswith("FROM "))
    final = lines[last:]
    copies = [line for line in final if line.upper().startswith("COPY ")]
    assert copies and all(line.split()[1].startswith("--from=") for line in copies), copies
    installs = [line for line in final if "pip install" in line]
    assert len(installs) == 1 and ".whl" in installs[0] and "[" not in installs[0] and " -e " not in installs[0]
