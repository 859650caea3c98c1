"""``/league``: create, join, leave, seasons, rules, the list, the standings (as text and as a
picture drawn by :mod:`render.leagues`) and a player's profile."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, games
from bot.community.base import CommunityError
from bot.community.leagues import Standing, Table
from bot.i18n import t
from cogs import limits, operations, weblinks
from cogs.clocks import clock_choices
from cogs.common import EMBED_COLOUR, game_choices, game_title, shown_name
from cogs.community.common import is_admin, locale_of, stamp
from render.leagues import rating_chart_png, standings_png

if TYPE_CHECKING:
    from cogs.app import CityBot


def table_png(table: Table, loc: str, page: int = 1) -> bytes:
    """One page of the standings picture of a league table (:data:`limits.LIST_ROWS` rows), in the
    reader's language."""
    rows, page, pages = limits.page_of(table.standings, page)
    title = t("community.league.title", loc, name=table.league.name, number=table.season.number)
    if pages > 1:
        title = t("community.league.title_page", loc, title=title, page=page, pages=pages)
    return standings_png(
        title,
        game_title(table.league.kind, loc),
        list(rows),
        rated=table.league.rated,
        loc=loc,
        first=(page - 1) * limits.LIST_ROWS + 1,
    )


class LeaguesCog(commands.Cog):
    """Leagues, seasons and standings."""

    league = app_commands.Group(name="league", description="Leagues, seasons and standings", guild_only=True)

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.leagues = bot.app.leagues

    async def _league_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        leagues = await self.leagues.leagues(interaction.guild_id or 0)
        return [
            app_commands.Choice(name=lg.name, value=lg.name) for lg, _ in leagues if current.lower() in lg.name.lower()
        ][:25]

    @league.command(name="create")
    @app_commands.describe(
        name="The league's name",
        game="Which game it is for",
        mode="Only games of this mode or variant count (leave empty: any)",
        rated="Show ratings (some communities prefer no public rankings)",
        forfeits="A resignation counts as a loss, or the game is not counted",
        abandoned="An abandoned game is not counted, or counts as a shared place",
        season_days="How long the first season lasts, in days",
    )
    @app_commands.choices(
        game=game_choices(),
        forfeits=[
            app_commands.Choice(name="count as a loss", value="loss"),
            app_commands.Choice(name="do not count the game", value="ignore"),
        ],
        abandoned=[
            app_commands.Choice(name="do not count the game", value="ignore"),
            app_commands.Choice(name="shared place for all", value="draw"),
        ],
    )
    async def league_create(
        self,
        interaction: discord.Interaction,
        name: str,
        game: str,
        mode: str | None = None,
        rated: bool = False,
        forfeits: str = "loss",
        abandoned: str = "ignore",
        season_days: app_commands.Range[int, 1, 3660] = 90,
    ) -> None:
        """Create a league for a game (server managers)."""
        if not await operations.defer(interaction, ephemeral=False):
            return  # Discord refused: the user saw a failure, so nothing is saved
        if not is_admin(interaction):
            raise CommunityError("community.error.league_admin")
        loc = locale_of(interaction)
        league = await self.leagues.create_league(
            interaction.guild_id or 0,
            name,
            game,
            mode=mode,
            rated=rated,
            forfeits=forfeits,
            abandoned=abandoned,
            season_days=season_days,
            created_by=interaction.user.id,
        )
        season = await self.leagues.season(league)
        await operations.reply(
            interaction,
            t(
                "community.league.created",
                loc,
                name=shown_name(league.name),
                title=game_title(game, loc),
                ends=stamp(season.ends_at),
            ),
            ephemeral=False,
        )

    @league_create.autocomplete("mode")
    async def _mode_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            rules = games.rules(str(getattr(interaction.namespace, "game", "")))
        except errors.GameError:
            return []
        if not rules.option_specs:
            return []
        return [
            app_commands.Choice(name=c, value=c) for c in rules.option_specs[0].choices if current.lower() in c.lower()
        ][:25]

    @league.command(name="join")
    @app_commands.describe(name="Which league")
    async def league_join(self, interaction: discord.Interaction, name: str) -> None:
        """Join a league: your finished games against other members count."""
        if not await operations.defer(interaction):
            return
        league = await self.leagues.join_league(
            interaction.guild_id or 0, name, interaction.user.id, interaction.user.display_name
        )
        await operations.reply(
            interaction, t("community.league.joined", locale_of(interaction), name=shown_name(league.name))
        )

    @league.command(name="leave")
    @app_commands.describe(name="Which league")
    async def league_leave(self, interaction: discord.Interaction, name: str) -> None:
        """Leave a league (your counted games stay in its history)."""
        if not await operations.defer(interaction):
            return
        league = await self.leagues.leave_league(interaction.guild_id or 0, name, interaction.user.id)
        await operations.reply(
            interaction, t("community.league.left", locale_of(interaction), name=shown_name(league.name))
        )

    @league.command(name="season")
    @app_commands.describe(name="Which league", days="How long the new season lasts, in days")
    async def league_season(
        self, interaction: discord.Interaction, name: str, days: app_commands.Range[int, 1, 3660] = 90
    ) -> None:
        """Start a new season now; the running one ends (server managers)."""
        if not await operations.defer(interaction, ephemeral=False):
            return
        if not is_admin(interaction):
            raise CommunityError("community.error.league_admin")
        season = await self.leagues.new_season(interaction.guild_id or 0, name, days)
        league = await self.leagues.league(interaction.guild_id or 0, name)
        loc = locale_of(interaction)
        text = t(
            "community.league.season",
            loc,
            name=shown_name(league.name),
            number=season.number,
            ends=stamp(season.ends_at),
        )
        if season.clock is not None:  # the time control it took from the league (issue 41)
            text += " " + t("community.league.season_clock", loc, clock=t(f"community.clock.{season.clock}", loc))
        await operations.reply(interaction, text, ephemeral=False)

    @league.command(name="edit")
    @app_commands.describe(
        name="Which league",
        rated="Show ratings",
        forfeits="How resignations count",
        abandoned="How abandoned games count",
        clock="The time bank this season's games start with, and the next seasons' (no time bank: the server's)",
    )
    @app_commands.choices(
        clock=clock_choices(),
        forfeits=[
            app_commands.Choice(name="count as a loss", value="loss"),
            app_commands.Choice(name="do not count the game", value="ignore"),
        ],
        abandoned=[
            app_commands.Choice(name="do not count the game", value="ignore"),
            app_commands.Choice(name="shared place for all", value="draw"),
        ],
    )
    async def league_edit(
        self,
        interaction: discord.Interaction,
        name: str,
        rated: bool | None = None,
        forfeits: str | None = None,
        abandoned: str | None = None,
        clock: str | None = None,
    ) -> None:
        """Change a league's rules (server managers)."""
        if not await operations.defer(interaction):
            return
        if not is_admin(interaction):
            raise CommunityError("community.error.league_admin")
        league = await self.leagues.edit_league(
            interaction.guild_id or 0, name, rated=rated, forfeits=forfeits, abandoned=abandoned, clock=clock
        )
        await operations.reply(
            interaction, t("community.league.edited", locale_of(interaction), name=shown_name(league.name))
        )

    @league.command(name="list")
    async def league_list(self, interaction: discord.Interaction) -> None:
        """The leagues of this server."""
        loc = locale_of(interaction)
        leagues = await self.leagues.leagues(interaction.guild_id or 0)
        if not leagues:
            await operations.reply(interaction, t("community.league.list.none", loc))
            return
        lines = []
        for lg, members in leagues:
            lines.append(
                t(
                    "community.league.list.line",
                    loc,
                    name=shown_name(lg.name),
                    title=game_title(lg.kind, loc),
                    mode=f" ({lg.mode})" if lg.mode else "",
                    members=members,
                    rated=t("community.league.rated", loc) if lg.rated else "",
                )
            )
        embed = discord.Embed(
            title=t("community.league.list.title", loc),
            description=limits.lines_text(lines, loc, rows=limits.LIST_ROWS),
            colour=EMBED_COLOUR,
        )
        await operations.reply(interaction, embed=embed)

    @league.command(name="table")
    @app_commands.describe(
        name="Which league",
        season="Season number (default: the running one)",
        page="Which page of the standings (25 players a page)",
    )
    async def league_table(
        self,
        interaction: discord.Interaction,
        name: str,
        season: app_commands.Range[int, 1, None] | None = None,
        page: app_commands.Range[int, 1, None] = 1,
    ) -> None:
        """The standings, as a picture and as text."""
        loc = locale_of(interaction)
        if not await operations.defer(interaction):  # private: a refusal (no such league) is only the asker's
            return  # the table catches up on the season's games: nothing when Discord refused
        table = await self.leagues.table(interaction.guild_id or 0, name, season)
        embed = self.table_embed(table, loc, page)
        image = await asyncio.to_thread(table_png, table, loc, page)
        view = weblinks.link_view(weblinks.LEAGUE, weblinks.league_url(self.bot, table.league.id, loc), loc)
        await operations.reply(interaction, embed=embed, file_png=image, view=view)

    def table_embed(self, table: Table, loc: str, page: int = 1) -> discord.Embed:
        rows, page, pages = limits.page_of(table.standings, page)
        first = (page - 1) * limits.LIST_ROWS + 1
        lines = [self.standing_line(first + i, s, table.league.rated, loc) for i, s in enumerate(rows)]
        embed = discord.Embed(
            title=t("community.league.title", loc, name=shown_name(table.league.name), number=table.season.number),
            description=limits.lines_text(lines, loc) or t("community.league.empty", loc),
            colour=EMBED_COLOUR,
        )
        footer = t("community.league.footer", loc, games=table.games, title=game_title(table.league.kind, loc))
        if pages > 1:
            footer += " · " + t("community.league.page", loc, page=page, pages=pages)
        embed.set_footer(text=footer)
        return embed

    @staticmethod
    def standing_line(position: int, s: Standing, rated: bool, loc: str) -> str:
        if rated:
            return t(
                "community.league.line.rated",
                loc,
                pos=position,
                player=shown_name(s.name),
                rating=f"{s.ordinal:.1f}",
                wins=s.wins,
                games=s.games,
            )
        return t(
            "community.league.line.unrated",
            loc,
            pos=position,
            player=shown_name(s.name),
            wins=s.wins,
            games=s.games,
            place=f"{s.average_place:.2f}" if s.games else "-",
        )

    @league.command(name="player")
    @app_commands.describe(
        name="Which league", player="Whose profile (default: yours)", season="Season number (default: the running one)"
    )
    async def league_player(
        self,
        interaction: discord.Interaction,
        name: str,
        player: discord.User | None = None,
        season: app_commands.Range[int, 1, None] | None = None,
    ) -> None:
        """A player's place, rating and counted games in a league."""
        loc = locale_of(interaction)
        user = player or interaction.user
        if not await operations.defer(interaction):  # the profile re-checks the season's games
            return
        profile = await self.leagues.profile(interaction.guild_id or 0, name, user.id, season)
        title = t(
            "community.league.profile.title",
            loc,
            player=shown_name(user.display_name),
            name=profile.league.name,
            number=profile.season.number,
        )
        s = profile.standing
        page = weblinks.links_of(self.bot).player(interaction.guild_id or 0, user.id, loc)
        view = weblinks.link_view(weblinks.PLAYER_PAGE, page, loc)
        if s is None or not s.games:
            await operations.reply(
                interaction, t("community.league.profile.none", loc, player=shown_name(user.display_name)), view=view
            )
            return
        rating = t("community.league.profile.rating", loc, rating=f"{s.ordinal:.1f}") if profile.league.rated else ""
        summary = t(
            "community.league.profile.summary", loc, pos=profile.position, wins=s.wins, games=s.games, rating=rating
        )
        lines = [
            t(
                "community.league.profile.line",
                loc,
                game=h["game"],
                when=stamp(h["finished_at"], "d"),
                rank=h["rank"],
                players=shown_name(str(h["players"])),
            )
            for h in profile.history
        ]
        described = limits.lines_text(
            lines, loc, limit=limits.EMBED_DESCRIPTION - len(summary) - 1, rows=limits.LIST_ROWS
        )
        embed = discord.Embed(
            title=title, description="\n".join(p for p in (summary, described) if p), colour=EMBED_COLOUR
        )
        chart = None
        if profile.league.rated and profile.ratings:
            chart = await asyncio.to_thread(
                rating_chart_png,
                t("community.league.chart.title", loc, player=user.display_name),
                profile.ratings,
                loc=loc,
            )
            embed.set_image(url="attachment://board.png")
        await operations.reply(interaction, embed=embed, file_png=chart, view=view)

    for _cmd in (league_join, league_leave, league_season, league_edit, league_table, league_player):
        _cmd.autocomplete("name")(_league_names)
    del _cmd
