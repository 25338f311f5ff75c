"""What an event's JSON export holds, defined once for `exports.event_export`, which writes it,
and `imports`, which checks and reads it back (docs/organisers.md, "Exports and imports")."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import models

from games.models import Game, GameRecord, GameReport, GameSeat, ReportedGame
from players.models import Player
from tournaments.models import (
    Championship,
    Entry,
    Event,
    Match,
    MatchGame,
    Round,
    TableResult,
)

EXPORT_FORMAT = "tantrix-event"
EXPORT_VERSION = 1

#: The fields of a player that travel: what the players API shows everyone. The private ones
#: (date of birth, time zone, language: `players.services.PRIVATE_FIELDS`, shown only to the
#: player and staff) and the account never leave the site, and an import never sets them.
PLAYER_FIELDS = ("display_name", "country", "first_colour", "second_colour", "is_robot")

#: Who organised, registered, typed or answered something is the exporting site's business:
#: never exported, ignored if a file has it.
USER_FIELDS = frozenset(
    {
        "registered_by",
        "entered_by",
        "submitter",
        "created_by",
        "user",
        "author",
        "answered_by",
        "disputed_by",
    }
)


@dataclass(frozen=True)
class Section:
    """A part of the file: rows of one model. `refs` maps a field to the section whose ids it
    names; `fixed` are fields the import sets itself (the new event...), not read from the
    file; `only`, when given, the only fields read."""

    name: str
    model: type[models.Model]
    refs: dict[str, str] = field(default_factory=dict)
    fixed: tuple[str, ...] = ()
    only: tuple[str, ...] | None = None


CHAMPIONSHIP = Section("championship", Championship)
EVENT = Section("event", Event, refs={"champion": "entries"}, fixed=("championship", "feeds_from"))
SECTIONS = (
    Section("players", Player, only=PLAYER_FIELDS),
    Section("entries", Entry, refs={"player": "players"}, fixed=("event", "pair", "team")),
    Section("rounds", Round, fixed=("event",)),
    Section(
        "matches",
        Match,
        refs={
            "round": "rounds",
            "entry_a": "entries",
            "entry_b": "entries",
            "winner": "entries",
            "walkover_claimed_by": "entries",
            "next_match": "matches",
        },
        fixed=("event",),
    ),
    Section("table_results", TableResult, refs={"match": "matches"}),
    Section("records", GameRecord),
    Section("games", Game, refs={"record": "records"}, fixed=("event_id",)),
    Section("seats", GameSeat, refs={"game": "games", "player": "players"}),
    Section("match_games", MatchGame, refs={"match": "matches", "game": "games"}),
    Section("reported_games", ReportedGame, refs={"game": "games", "match_id": "matches"}),
    Section(
        "reports",
        GameReport,
        refs={
            "reported_game": "reported_games",
            "side_player": "players",
            "record": "records",
            "based_on": "reports",
        },
    ),
)
#: Sections a file may leave out (an event with no games yet).
OPTIONAL = frozenset(
    {"table_results", "records", "games", "seats", "match_games", "reported_games", "reports"}
)
