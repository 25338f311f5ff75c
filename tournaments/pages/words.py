"""The words public pages use for matches, their states and entries: never a stored code or id.

Matches are named by their round and players ("Semi-final: Ana v Bela"); a knockout slot still
waiting for a player by the match it waits for ("Winner of QF 2").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.format_words import early_round_style
from tournaments.formats.labels import knockout_round_names, waiting_slot
from tournaments.models import AuditAction, EventFormat, Match, MatchStatus

# Match.state_reason: the match formats' reasons, plus those the services write.
REASONS: Mapping[str, str] = {
    "in_progress": _("Games still to play"),
    "extra_game_needed": _("An extra game is needed: the lead is under the margin"),
    "decided_early": _("Decided early: the trailing side can no longer catch up"),
    "decided_on_tps": _("Decided on tournament points"),
    "decided_in_extra_games": _("Decided in extra games"),
    "decided_at_extra_cap": _("Decided on tournament points after the last extra game"),
    "level_needs_ruling": _("Level on tournament points: an organiser must rule"),
    "bye": pgettext_lazy("no opponent", "Bye"),
    "opponent_out": _("Walkover: the opponent is out"),
    "both_out": _("Both sides are out"),
    "withdrawal": _("Walkover: the opponent withdrew"),
    "ruling": _("Ruled by an organiser"),
    AuditAction.DEADLINE_LEADER: _("Deadline passed: the side ahead on tournament points won"),
    AuditAction.DEADLINE_WALKOVER: _("Deadline passed: walkover to the side that claimed it"),
    AuditAction.DEADLINE_BOTH_OUT: _("Deadline passed with no game played: both sides are out"),
    AuditAction.DEADLINE_LEVEL: _("Deadline passed with the match level: an organiser must rule"),
}

SEEDING_BASIS: Mapping[str, str] = {
    "organiser": _("organiser"),
    "qualifier_rank": _("qualifying rank"),
    "elo": _("tournament Elo"),
    "lobby": _("lobby ranking"),
    "registration": _("registration order"),
}


def reason_words(reason: str) -> str:
    """Why a match stands where it does, in words ("" for an unknown or empty reason)."""
    return str(REASONS.get(reason, ""))


def match_status_words(match: Match) -> str:
    """A short state for a bracket or a list: a bye is a bye, not a walkover."""
    if match.is_bye:
        return pgettext("no opponent", "Bye")
    if match.status == MatchStatus.WALKOVER:
        return gettext("Walkover")
    return match.get_status_display()


def round_title(match: Match, rounds_total: int) -> str:
    """The match's round in the singular: "Semi-final", "Group 3, round 2", "Round 4"."""
    if match.event.format == EventFormat.KNOCKOUT and rounds_total:
        return knockout_round_names(
            match.round.number, rounds_total, gettext=gettext, style=early_round_style()
        ).singular
    if match.group and match.event.format == EventFormat.GROUPS:
        return gettext("Group %(group)s, round %(round)s") % {
            "group": match.group,
            "round": match.round.number,
        }
    return gettext("Round %(number)s") % {"number": match.round.number}


def side_name(
    match: Match, side: int, feeders: Mapping[tuple[int, int], Match], rounds: int
) -> str:
    """A side's player, or what the slot waits for ("Winner of QF 2", "bye", "nobody")."""
    entry = match.entry_a if side == 0 else match.entry_b
    if entry is not None:
        return entry.name
    if match.is_bye:
        return pgettext("no opponent", "bye")
    feeder = feeders.get((match.pk, side))
    if feeder is None or not rounds:
        return gettext("to be decided")
    if feeder.is_final and feeder.winner_id is None:
        return gettext("nobody (both out)")
    return waiting_slot(
        feeder.round.number,
        rounds,
        feeder.bracket_index or 0,
        gettext=gettext,
        style=early_round_style(),
    )


def match_title(
    match: Match, rounds_total: int, feeders: Mapping[tuple[int, int], Match] | None = None
) -> str:
    """ "Semi-final: Ana v Bela", "Round of 128: Jana has a bye"."""
    feeders = feeders or {}
    title = round_title(match, rounds_total)
    if match.is_bye:
        player = match.entry_a or match.entry_b
        if player is not None:
            return gettext("%(round)s: %(player)s has a bye") % {
                "round": title,
                "player": player.name,
            }
    a = side_name(match, 0, feeders, rounds_total)
    b = side_name(match, 1, feeders, rounds_total)
    return gettext("%(round)s: %(a)s v %(b)s") % {"round": title, "a": a, "b": b}


@functools.cache
def _match_url_prefix() -> str:
    # One reverse() for a page of hundreds of match links (reverse costs ~0.3 ms each).
    sample = reverse("match-page", args=[1])
    if not sample.endswith("/1/"):
        raise ImproperlyConfigured(f"unexpected match page URL {sample}")
    return sample[: -len("1/")]


def match_url(match_id: int) -> str:
    return f"{_match_url_prefix()}{match_id}/"


def feeders_of(matches: list[Match]) -> dict[tuple[int, int], Match]:
    """(next match id, side) -> the match whose winner goes there, from matches in hand."""
    return {
        (m.next_match_id, m.next_side): m
        for m in matches
        if m.next_match_id is not None and m.next_side is not None
    }
