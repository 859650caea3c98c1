# The bot in a container, every byte of its data on the /data volume whatever .env says
# (DATA_DIR: a relative DATABASE_PATH lands inside it, any other path is refused with a sentence).
#   docker build -t citybuilders-bot .
#   docker run -d --restart unless-stopped --stop-timeout 30 --env-file .env -v citybuilders-data:/data citybuilders-bot
# With PostgreSQL instead of SQLite: docker compose up -d (compose.yaml).
# `docker stop` sends SIGTERM to the bot itself (exec-form CMD: python is process 1, no shell between): it
# refuses new clicks, lets the moves in flight finish within STOP_SECONDS (20), hands the rest over and
# exits 0. Give it longer than that before the SIGKILL: --stop-timeout 30 (compose: stop_grace_period).
#
# Only the product: the first stage builds the bot's wheel, which leaves out the test kit (bot/testing: the fake
# Discord with its OpenAPI description) and the benches (bot/benches), and the image installs that wheel with the
# runtime dependencies alone; the sources stay in the first stage.
FROM python:3.11-slim AS wheel

WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY render ./render
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheel .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data \
    BOT_IN_IMAGE=1

WORKDIR /app
COPY --from=wheel /wheel /wheel
RUN pip install --no-cache-dir /wheel/*.whl \
    && rm -rf /wheel \
    && useradd --create-home --uid 10001 botuser \
    && mkdir -p /data && chown botuser /data

USER botuser
VOLUME ["/data"]
STOPSIGNAL SIGTERM
# Healthy when the running bot's heartbeat (/data/bot.sqlite3.health, rewritten every 5 s) says its
# gateway is connected and its database answers: `python -m bot health` exits 0, else 1 with a sentence.
# The web pages (WEB_PORT); publish it behind a reverse proxy with HTTPS (README, "Web pages").
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
