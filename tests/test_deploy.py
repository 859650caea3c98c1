"""The Dockerfile, compose.yaml, .env.example, the settings and the README agree on every path and
variable, so that a user who follows the README keeps every byte of data on a volume.

No container engine runs on the machines the tests run on (and no image registry is reachable), so
these files are checked by reading them: the image's environment plus any ``.env`` must put the
database inside the image's volume, or refuse with a sentence.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml

from bot import settings, settingsdoc

ROOT = Path(__file__).resolve().parents[1]


def dockerfile() -> dict[str, Any]:
    """ENV pairs, VOLUME paths and RUN text of the Dockerfile (continuation lines joined)."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    env: dict[str, str] = {}
    volumes: list[str] = []
    runs: list[str] = []
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                env[key] = value
        elif word == "VOLUME":
            volumes += yaml.safe_load(rest) if rest.strip().startswith("[") else rest.split()
        elif word == "RUN":
            runs.append(rest)
    return {"env": env, "volumes": volumes, "run": " ".join(runs)}


def env_example() -> dict[str, str]:
    """Every KEY the example names, set (``KEY=value``) or shown commented out (``# KEY=``)."""
    keys: dict[str, str] = {}
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$", line.strip())
        if m:
            keys[m.group(1)] = m.group(2).strip() if not line.lstrip().startswith("#") else ""
    return keys


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def interpolated(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` with ``env``."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m.group(1)) or (m.group(2) or ""), value)


def compose_variables() -> set[str]:
    return set(re.findall(r"\$\{(\w+)", (ROOT / "compose.yaml").read_text(encoding="utf-8")))


def test_env_example_names_every_setting_and_nothing_else() -> None:
    named = set(env_example())
    assert set(settings.KEYS) <= named, f".env.example lacks {sorted(set(settings.KEYS) - named)}"
    unknown = named - set(settings.KEYS) - compose_variables()
    assert not unknown, f".env.example names settings the bot never reads: {sorted(unknown)}"


def test_readme_documents_every_setting_and_compose() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [k for k in settings.KEYS if f"`{k}`" not in readme]
    assert not missing, f"README's settings table lacks {missing}"
    assert "docker compose up" in readme


def differences(written: str, made: str, name: str) -> str:
    """What differs between a file and what the table makes of it, as a unified diff."""
    import difflib

    diff = difflib.unified_diff(
        written.splitlines(),
        made.splitlines(),
        f"{name} (as written)",
        f"{name} (from bot/settings.py)",
        lineterm="",
        n=0,
    )
    return "\n".join(diff)


def test_env_example_is_written_from_the_table_of_settings() -> None:
    written = (ROOT / ".env.example").read_text(encoding="utf-8")
    made = settingsdoc.env_example()
    assert written == made, "run python -m bot settings --env > .env.example:\n" + differences(
        written, made, ".env.example"
    )


def test_the_readme_settings_table_is_the_table_of_settings() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- the settings table:[^\n]*-->\n(.*?)\n<!-- end of the settings table -->", readme, re.S)
    assert m, "README.md lacks the settings table's markers"
    made = settingsdoc.markdown()
    assert m.group(1) == made, "paste python -m bot settings --markdown into README.md:\n" + differences(
        m.group(1), made, "README.md"
    )


def test_the_table_declares_each_setting_once_with_its_help_in_every_language() -> None:
    from bot.i18n import catalogue

    assert len(set(settings.KEYS)) == len(settings.KEYS) == len(settings.TABLE)
    for lang in ("en", "hu", "es", "ru", "pl"):
        missing = [s.name for s in (*settings.TABLE, *settings.COMPOSE_ONLY) if s.help_key not in catalogue(lang)]
        assert not missing, (lang, missing)
    stop = settings.BY_NAME["STOP_SECONDS"]  # the graceful stop's bound, shared with the run loop
    assert (stop.kind, stop.low, stop.high, stop.default) == ("int", 1, 300, "20")


def image_settings(dotenv: dict[str, str]) -> settings.Settings:
    """The settings the container reads: the image's ENV, then ``--env-file .env`` over it."""
    env = dict(dockerfile()["env"])
    env.update({"DISCORD_TOKEN": "x"} | {k: v for k, v in dotenv.items() if v != "" or k == "DATABASE_PATH"})
    return settings.load(env, env_file=ROOT / "no-such.env")


def test_the_image_keeps_its_database_on_its_volume_whatever_env_says() -> None:
    image = dockerfile()
    data_dir = image["env"].get("DATA_DIR")
    assert data_dir and data_dir in image["volumes"], "the image's DATA_DIR must be its VOLUME"
    assert f"mkdir -p {data_dir}" in image["run"] and f"chown botuser {data_dir}" in image["run"]
    volume = PurePosixPath(data_dir)
    # The README's way: cp .env.example .env, then docker run --env-file .env.
    for dotenv in (
        env_example(),
        {**env_example(), "DATABASE_PATH": "data/bot.sqlite3"},
        {**env_example(), "DATABASE_PATH": "bot.sqlite3"},
        {**env_example(), "DATABASE_PATH": f"{data_dir}/games/bot.sqlite3"},
    ):
        path = PurePosixPath(image_settings(dotenv).database_path.as_posix())
        assert path.is_relative_to(volume) and path != volume, (dotenv.get("DATABASE_PATH"), path)
    for outside in ("/app/data/bot.sqlite3", "/tmp/bot.sqlite3", "../bot.sqlite3", f"{data_dir}/../x.sqlite3"):
        with pytest.raises(settings.SettingsError) as refused:
            image_settings({**env_example(), "DATABASE_PATH": outside})
        assert "DATA_DIR" in str(refused.value) and outside in str(refused.value)


def test_the_image_marks_itself_and_its_volume_is_the_one_the_settings_know() -> None:
    image = dockerfile()
    assert image["env"].get(settings.IMAGE_MARK) == "1"
    assert image["env"]["DATA_DIR"] == settings.IMAGE_VOLUME and settings.IMAGE_VOLUME in image["volumes"]


@pytest.mark.parametrize("data_dir", ["/srv/x", "data", "/", "/data/games", ""])
def test_an_env_file_cannot_move_the_image_data_dir_off_its_volume(data_dir: str) -> None:
    """``docker run --env-file .env`` with a ``DATA_DIR`` line (even an empty one, which docker passes on)
    would put the database inside the container: refused with one sentence naming the volume."""
    env = {**dockerfile()["env"], "DISCORD_TOKEN": "x", "DATA_DIR": data_dir}
    with pytest.raises(settings.SettingsError) as refused:
        settings.load(env, env_file=ROOT / "no-such.env")
    text = str(refused.value)
    assert refused.value.key == "cli.settings.data_dir_image"
    assert f'"{data_dir}"' in text and settings.IMAGE_VOLUME in text and "--env-file" in text and "\n" not in text


@pytest.mark.parametrize("data_dir", ["/data", "/data/", "/data/."])
def test_the_image_volume_itself_is_accepted(data_dir: str) -> None:
    env = {**dockerfile()["env"], "DISCORD_TOKEN": "x", "DATA_DIR": data_dir}
    got = settings.load(env, env_file=ROOT / "no-such.env")
    assert got.database_path.as_posix() == "/data/bot.sqlite3"


def test_outside_the_image_any_data_dir_is_the_user_s_choice(tmp_path: Path) -> None:
    got = settings.load({"DISCORD_TOKEN": "x", "DATA_DIR": str(tmp_path)}, env_file=ROOT / "no-such.env")
    assert got.database_path == tmp_path / "bot.sqlite3"


def test_compose_keeps_every_byte_on_named_volumes() -> None:
    spec = compose()
    services, volumes = spec["services"], spec.get("volumes") or {}
    bot, db = services["bot"], services["db"]
    bot_env = {k: str(v) for k, v in bot["environment"].items()}
    image_dir = dockerfile()["env"]["DATA_DIR"]
    assert bot_env["DATA_DIR"] == image_dir
    mounts = {m.split(":")[1]: m.split(":")[0] for m in bot["volumes"]}
    assert mounts.get(image_dir) in volumes, "the bot's DATA_DIR must be a named volume"
    db_mounts = {m.split(":")[1]: m.split(":")[0] for m in db["volumes"]}
    pgdata = db.get("environment", {}).get("PGDATA", "/var/lib/postgresql/data")
    assert db_mounts.get(pgdata) in volumes, "PostgreSQL's data folder must be a named volume"
    assert bot["env_file"] in (".env", [".env"])
    # The bot's own settings in compose are settings it reads, and they override .env.
    assert set(bot_env) <= set(settings.KEYS), sorted(set(bot_env) - set(settings.KEYS))
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"


@pytest.mark.parametrize("password", [None, "s3cret"])
def test_compose_database_url_names_the_compose_database(password: str | None) -> None:
    spec = compose()
    shell = {"POSTGRES_PASSWORD": password} if password else {}
    db_env = {k: interpolated(str(v), shell) for k, v in spec["services"]["db"]["environment"].items()}
    url = interpolated(str(spec["services"]["bot"]["environment"]["DATABASE_URL"]), shell)
    m = re.fullmatch(r"postgresql://([^:@]+):([^@]*)@([^:/]+):(\d+)/(\w+)", url)
    assert m, url
    user, secret, host, port, name = m.groups()
    assert (user, secret, name) == (db_env["POSTGRES_USER"], db_env["POSTGRES_PASSWORD"], db_env["POSTGRES_DB"])
    assert host == "db" and port == "5432"
    assert secret == (password or secret) and secret


# --------------------------------------------------------------------------------------------------
# Signals, health and the build context (issue 30)
# --------------------------------------------------------------------------------------------------


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, rest) of every Dockerfile line (continuations joined, comments skipped)."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def exec_form(rest: str) -> list[str]:
    """An exec-form (JSON array) argument list; fails on the shell form, whose shell would be process 1
    and would not pass SIGTERM on."""
    assert rest.startswith("["), f"not the exec form: {rest}"
    words = json.loads(rest)
    assert isinstance(words, list) and all(isinstance(w, str) for w in words), rest
    return words


def seconds(duration: str) -> float:
    """A compose/Docker duration (``30s``, ``1m30s``, ``90``) in seconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(h|ms|m|s)?", duration.strip())
    assert parts and "".join(n + (u or "") for n, u in parts) == duration.strip(), duration
    scale = {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "": 1}
    return sum(float(n) * scale[u] for n, u in parts)


def test_the_image_runs_the_bot_itself_so_signals_reach_it() -> None:
    lines = instructions()
    cmds = [rest for word, rest in lines if word == "CMD"]
    assert len(cmds) == 1 and not [w for w, _ in lines if w == "ENTRYPOINT"]
    cmd = exec_form(cmds[0])
    assert cmd == ["python", "-m", "bot"], cmd  # process 1 is the bot, which handles SIGTERM and SIGINT
    stop = [rest for word, rest in lines if word == "STOPSIGNAL"]
    assert stop in ([], ["SIGTERM"]), stop


def test_the_image_and_compose_check_the_bots_health() -> None:
    checks = [rest for word, rest in instructions() if word == "HEALTHCHECK"]
    assert len(checks) == 1
    options, _, command = checks[0].partition("CMD ")
    assert exec_form(command.strip()) == ["python", "-m", "bot", "health"]
    given = dict(re.findall(r"--([a-z-]+)=(\S+)", options))
    assert seconds(given["timeout"]) < seconds(given["interval"]) and seconds(given["start-period"]) >= 30, given
    bot = compose()["services"]["bot"]
    assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]


def test_docker_and_compose_wait_longer_than_the_bots_own_stop() -> None:
    """Docker SIGKILLs a container that has not exited after its grace period (10 s by default): the
    README's ``docker run`` and compose give the bot more than ``STOP_SECONDS``."""
    grace = seconds(str(compose()["services"]["bot"]["stop_grace_period"]))
    assert grace > settings.DEFAULT_STOP_SECONDS, grace
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    runs = [shlex.split(m) for m in re.findall(r"docker run [^`\n]+", readme)]
    assert runs
    for run in runs:
        assert "--restart" in run and run[run.index("--restart") + 1] == "unless-stopped", run
        assert "--stop-timeout" in run and int(run[run.index("--stop-timeout") + 1]) > settings.DEFAULT_STOP_SECONDS
    for word in ("`STOP_SECONDS`", "python -m bot health", "SIGTERM"):
        assert word in readme, word


def dockerignore() -> list[tuple[bool, re.Pattern[str]]]:
    """(exception, pattern) of every .dockerignore rule, in order (Docker's matching: ``*`` within a
    segment, ``**`` any segments, a leading ``!`` an exception; a rule that matches a folder covers
    everything in it)."""
    rules = []
    for raw in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").strip().strip("/")
        regex = ""
        for part in re.split(r"(\*\*/?|\*|\?)", pattern):
            if part in ("**", "**/"):
                regex += "(?:.*/)?" if part == "**/" else ".*"
            elif part == "*":
                regex += "[^/]*"
            elif part == "?":
                regex += "[^/]"
            else:
                regex += re.escape(part)
        rules.append((negate, re.compile(regex + "(?:/.*)?")))
    return rules


def ignored(path: str) -> bool:
    result = False
    for negate, pattern in dockerignore():
        if pattern.fullmatch(path):
            result = not negate
    return result


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".venv/lib/python3.11/site-packages/discord/client.py",
        "venv/bin/python",
        "data/bot.sqlite3",
        "data/bot.sqlite3.lock",
        ".git/HEAD",
        "bot/__pycache__/app.cpython-311.pyc",
        ".pytest_cache/v/cache",
        ".mypy_cache/3.11/bot.json",
        ".ruff_cache/content",
        "tests/data/main-878b588.sqlite3",
        "out/board.png",
        "htmlcov/index.html",
        ".coverage",
        "bot.sqlite3",
        "bot.sqlite3.health",
    ],
)
def test_the_build_context_leaves_out_secrets_data_and_caches(path: str) -> None:
    assert ignored(path), path


def test_the_build_context_keeps_everything_the_image_copies() -> None:
    # A COPY --from=<stage> copies from an earlier stage of the image, not from the build context.
    copied = [
        word
        for rule, rest in instructions()
        if rule == "COPY" and not rest.startswith("--from=")
        for word in rest.split()[:-1]
    ]
    assert copied and not any(w.startswith("--") for w in copied)
    for source in copied:
        target = ROOT / source
        files = (
            [target]
            if target.is_file()
            else [p for p in target.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        )
        assert files, source
        kept = [p.relative_to(ROOT).as_posix() for p in files if not ignored(p.relative_to(ROOT).as_posix())]
        assert len(kept) == len(files), sorted({p.relative_to(ROOT).as_posix() for p in files} - set(kept))[:5]
    assert not ignored(".env.example")
