"""The words of Between Two Cities' campaigns in Discord (:mod:`cogs.btc`): the names of a mode and of a bonus
type, a bonus choice's label, a game's line in ``/btc campaign status``, what comes next, and the channel line for
a counted campaign game."""

from __future__ import annotations

from bot.btc_campaigns import FORFEIT, CampaignGameRow, CampaignRow, Recorded
from bot.i18n import resolve, t
from bot.rules.btc.movetypes import BtcBonus
from bot.rules.btc.viewtypes import BtcView
from bot.service import GameInfo
from cogs.common import mention


def mode_name(mode: str, loc: str) -> str:
    return t(f"btc.campaign.mode.{mode}", loc)


def type_name(category: str, loc: str) -> str:
    return t(f"btc.campaign.type.{category}", loc)


def _city_name(view: BtcView, city: int, locale: str = "en") -> str:
    for c in view.get("cities", []):
        if c.get("city") == city:
            return str(resolve(c.get("name", city), locale))
    return str(city)


def bonus_label(move: BtcBonus, view: BtcView, loc: str) -> str:
    """ "parks from Left City: 20 points" (doubled when the game is won)."""
    city = move["city"]
    scores: dict[str, int] = next((c.get("scores", {}) for c in view.get("cities", []) if c.get("city") == city), {})
    campaign = view.get("campaign")
    summary = campaign.get("summary") if campaign else None
    won = bool(summary.get("won") if summary else False)
    points = int(scores.get(move["type"], 0)) * (2 if won else 1)
    return t(
        "btc.campaign.bonus_label",
        loc,
        type=type_name(str(move["type"]), loc),
        city=_city_name(view, city, loc),
        points=points,
    )


def game_line(g: CampaignGameRow, loc: str) -> str:
    if g.outcome == FORFEIT:
        return t(
            "btc.campaign.status.forfeit_line", loc, number=g.number, type=type_name(g.bonus_type, loc), game=g.game_id
        )
    line = t(
        "btc.campaign.status.game_line",
        loc,
        number=g.number,
        score=g.score,
        outcome=t("btc.campaign.won" if g.won else "btc.campaign.lost", loc),
        type=type_name(g.bonus_type, loc),
        bonus=g.bonus,
        total=g.total,
        game=g.game_id,
    )
    if g.automas:
        automas = ", ".join(f"{resolve(a['name'], loc)} {a['total']}" for a in g.automas)
        line += "\n" + t("btc.campaign.status.automas", loc, automas=automas)
    return line


def next_text(c: CampaignRow, open_game: GameInfo | None, loc: str) -> str:
    if not c.running:
        return t("btc.campaign.status.next_none", loc)
    if open_game is not None:
        state = t(f"btc.campaign.status.{open_game.game.status}", loc)
        channel = f"<#{open_game.game.channel_xid}>" if open_game.game.channel_xid else "-"
        return t("btc.campaign.status.next_open", loc, game=c.next_game, id=open_game.id, channel=channel, state=state)
    return t("btc.campaign.status.next_new", loc, game=c.next_game)


def recorded_text(recorded: Recorded, loc: str) -> str:
    """The channel line for a counted campaign game, and what comes next (or the outcome)."""
    c, g = recorded.campaign, recorded.game
    player = mention(c.user_xid)
    if g.outcome == FORFEIT:
        lines = [
            t(
                "btc.campaign.recorded_forfeit",
                loc,
                player=player,
                game=g.number,
                length=c.length,
                type=type_name(g.bonus_type, loc),
                sum=c.total,
            )
        ]
    else:
        outcome = t("btc.campaign.won_doubled" if g.won else "btc.campaign.lost", loc)
        lines = [
            t(
                "btc.campaign.recorded",
                loc,
                player=player,
                game=g.number,
                length=c.length,
                score=g.points,
                outcome=outcome,
                type=type_name(g.bonus_type, loc),
                bonus=g.bonus,
                total=g.total,
                sum=c.total,
            )
        ]
    if recorded.complete:
        lines.append(t("btc.campaign.complete", loc, total=c.total, length=c.length))
        best = recorded.best_before
        if best is None:
            lines.append(t("btc.campaign.best_first", loc))
        elif c.total > best:
            lines.append(t("btc.campaign.best_new", loc, best=best))
        else:
            lines.append(t("btc.campaign.best_old", loc, best=best))
    else:
        lines.append(t("btc.campaign.next_hint", loc, game=c.next_game, length=c.length))
    return "\n".join(lines)
