# The bot in a container, every byte of its data on the /data volume whatever .env says
# (DATA_DIR: a relative DATABASE_PATH lands inside it, any other path is refused with a sentence).
#   docker build -t citybuilders-bot .
#   docker run -d --env-file .env -v citybuilders-data:/data citybuilders-bot
# With PostgreSQL instead of SQLite: docker compose up -d (compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data \
    BOT_IN_IMAGE=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY render ./render
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 botuser \
    && mkdir -p /data && chown botuser /data

USER botuser
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
