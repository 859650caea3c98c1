# Runs the bot with its database on a volume:
#   docker build -t citybuilders-bot .
#   docker run -d --env-file .env -v citybuilders-data:/data citybuilders-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3

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
