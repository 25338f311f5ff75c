"""What the arrangement pages show, as template variables: the match page's panel (for each
reader, in their zone and with the forms they may use) and the organisers' rows."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Player
from players.types import User
from tantrix_site.http.permissions import permission_context
from tournaments import selectors as tournament_selectors
from tournaments.arrangements import selectors
from tournaments.arrangements.forms import (
    WEEKDAYS,
    AcceptForm,
    NoShowForm,
    NoShowReplyForm,
    ProposeForm,
    WithdrawForm,
)
from tournaments.arrangements.times import free_time_for_reader, zone_named
from tournaments.models import Entry, Match
from tournaments.permissions import arranging_side


def show_choices() -> list[tuple[str, str]]:
    return [
        ("unarranged", _("No agreed time")),
        ("passed", _("Agreed time passed, not played")),
        ("all", _("All open matches")),
    ]


def _side_name(match: Match, side: int) -> str:
    entry = match.entry_a if side == 0 else match.entry_b
    return entry.name if entry is not None else ""


def organiser_rows(matches: list[Match]) -> list[dict[str, Any]]:
    return [
        {
            "match": m,
            "a": _side_name(m, 0),
            "b": _side_name(m, 1),
            "round": m.round,
            "agreed": m.agreed[0] if m.agreed else None,
            "proposals": len(m.open_proposals),
            "deadline": m.round.deadline,
        }
        for m in matches
    ]


def _speaker_players(entry: Entry | None) -> list[int]:
    if entry is None:
        return []
    if entry.team_id is not None:
        return [i for i in (entry.team.captain_id, entry.team.deputy_id) if i]
    return entry.members()


def _free_times(match: Match) -> list[dict[str, Any]]:
    """Each side's speakers' usual free times, in the reader's zone (the active one)."""
    reader = timezone.get_current_timezone()
    today = timezone.localdate()
    days = dict(WEEKDAYS)
    ids = {side: _speaker_players(e) for side, e in ((0, match.entry_a), (1, match.entry_b))}
    found = selectors.availability_of_players([i for side in ids.values() for i in side])
    names = dict(Player.objects.filter(pk__in=list(found)).values_list("pk", "display_name"))
    shown = []
    for side in (0, 1):
        for player_id in ids[side]:
            windows = found.get(player_id)
            if not windows:
                continue
            times = []
            for w in windows:
                seen = free_time_for_reader(
                    weekday=w.weekday,
                    starts=w.starts,
                    ends=w.ends,
                    written_in=zone_named(w.time_zone),
                    reader=reader,
                    today=today,
                )
                times.append(
                    {
                        "day": days[seen.weekday],
                        "starts": seen.starts,
                        "end_day": days[seen.end_weekday]
                        if seen.end_weekday != seen.weekday
                        else "",
                        "ends": seen.ends,
                    }
                )
            shown.append({"name": names.get(player_id, ""), "times": times})
    return shown


def arrangement_panel(user: User, match: Match) -> dict[str, Any]:
    """The match page's arrangement panel for this reader."""
    agreed = selectors.agreement_of(match)
    can = permission_context(user, match, "arrange", "manage", "see_arrangement")
    side = arranging_side(user, match)
    is_open = tournament_selectors.match_open_for_games(match) and not match.is_bye
    now = timezone.now()
    context: dict[str, Any] = {
        "match": match,
        "agreed": agreed,
        "is_open": is_open,
        "side": side,
        **can,
        "deadline": match.round.deadline if match.round_id else None,
    }
    if not (can["can_see_arrangement"] or can["can_manage"]):
        return context
    proposals = selectors.open_proposals(match)
    claims = selectors.no_show_claims(match)
    context.update(
        {
            "proposals": [
                {"proposal": p, "by": _side_name(match, p.side), "mine": p.side == side}
                for p in proposals
            ],
            "history": [a for a in selectors.arrangement_history(match) if a.status != "agreed"],
            "claims": [
                {
                    "claim": c,
                    "by": _side_name(match, c.side),
                    "other": _side_name(match, 1 - c.side),
                    "may_reply": side is not None and side != c.side and not c.reply,
                    "reply_form": NoShowReplyForm(initial={"claim": c.pk}, match=match),
                }
                for c in claims
            ],
            "free_times": _free_times(match),
        }
    )
    if side is not None and is_open:
        passed = agreed is not None and agreed.starts_at <= now
        context.update(
            {
                "propose_form": ProposeForm() if agreed is None else None,
                "can_accept": any(p.side != side for p in proposals),
                "accept_form": AcceptForm(match=match),
                "withdraw_form": WithdrawForm() if agreed and not passed else None,
                "no_show_form": (
                    NoShowForm()
                    if passed
                    and not match.games_played
                    and not any(
                        c["claim"].side == side
                        for c in context["claims"]
                        if c["claim"].arrangement_id == agreed.pk
                    )
                    else None
                ),
            }
        )
    elif can["can_manage"] and agreed is not None and agreed.starts_at > now and is_open:
        context["withdraw_form"] = WithdrawForm()
    return context
