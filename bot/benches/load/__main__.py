"""``python -m bot.benches.load``: the quick load figures as JSON (``python -m bot.bench --only load`` runs it too)."""

import json

from bot.benches.load import figures

if __name__ == "__main__":
    print(json.dumps(figures(quick=True), indent=2, sort_keys=True))
