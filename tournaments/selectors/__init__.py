"""Reads of the tournaments app, one module per subject; callers import this package
(`from tournaments import selectors`).

- `access`: who may see what;
- `events`: an event's entries, matches, tables, standings and places;
- `entries`: a player's entries, eligibility, seeding figures;
- from the sides room (`tournaments.sides.selectors`): rosters and their log, board lineups,
  team results.
"""

from __future__ import annotations

from tournaments.selectors.access import (
    audit_for,
    championships_visible_to,
    events_visible_to,
    games_visible_to,
    match_detail,
    match_visible_to,
)
from tournaments.selectors.entries import (
    SEEDING_BASES,
    age_confirmed,
    eligibility_problems,
    entries_of_player,
    entries_with_player,
    entry_seeding_figures,
    seeding_ratings,
    withdrawal_refusal,
)
from tournaments.selectors.events import (
    bracket_rounds,
    championship_names,
    entries_for_event,
    event_names_for_audit,
    final_places,
    group_table_rows,
    group_tables,
    match_open_for_games,
    matches_for_event,
    rounds_open_for_deadlines,
    swiss_standings,
    unattached_tournament_games,
)
from tournaments.sides.selectors import (
    roster_changes,
    team_match_boards,
    team_results,
    team_roster,
    teams_of,
)

__all__ = [
    "SEEDING_BASES",
    "audit_for",
    "bracket_rounds",
    "championship_names",
    "championships_visible_to",
    "age_confirmed",
    "eligibility_problems",
    "entries_for_event",
    "entries_of_player",
    "entries_with_player",
    "entry_seeding_figures",
    "event_names_for_audit",
    "events_visible_to",
    "final_places",
    "games_visible_to",
    "group_table_rows",
    "group_tables",
    "match_detail",
    "match_open_for_games",
    "match_visible_to",
    "matches_for_event",
    "rounds_open_for_deadlines",
    "roster_changes",
    "seeding_ratings",
    "swiss_standings",
    "team_match_boards",
    "team_results",
    "team_roster",
    "teams_of",
    "unattached_tournament_games",
    "withdrawal_refusal",
]
