from __future__ import annotations

import copy
import json
from pathlib import Path

from games.engine import selfplay

SPEC_EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "examples"


def selfplay_record(seed: int, names: list[str], players: str = "2") -> dict:
    record = copy.deepcopy(selfplay(seed, players))
    for seat, name in zip(record["players"], names, strict=True):
        seat["name"] = name
    return record


def as_body(record: dict) -> bytes:
    return json.dumps(record).encode("utf-8")


def colour_mismatch_record(names: list[str]) -> dict:
    """A two-player game whose 2nd placement is rotated so an edge colour differs."""
    for seed in range(200):
        record = selfplay_record(seed, names)
        second = record["placements"][1]
        for rotation in range(6):
            if rotation == second["rotation"]:
                continue
            candidate = copy.deepcopy(record)
            candidate["placements"][1]["rotation"] = rotation
            from games.engine import adjudicate

            verdict = adjudicate(candidate)
            if not verdict["valid"] and verdict["error"]["code"] == "COLOUR_MISMATCH":
                return candidate
    raise AssertionError("no colour-mismatch mutation found")


def confirm_open_reports(*, record_ids: list[int] | None = None) -> list[int]:
    """Let open reports stand as their other side would confirm them (all, or those of these
    records), running the announcements (match counting, ratings) at once.

    For tests that need counted or rated games: a report by one player stands only when the
    other side agrees (games/reports). The opponent confirms when they have an account; for an
    opponent without one, the answer is recorded as the test's confirmation. Returns the ids of
    the games that now stand.
    """
    from django.db import transaction
    from django.test import TestCase

    from games.models import GameReport, ReportStatus
    from games.reports import report_confirm
    from games.reports.access import other_sides
    from games.reports.filing import answer_version
    from players.models import Player

    versions = GameReport.objects.filter(status=ReportStatus.OPEN)
    if record_ids is not None:
        versions = versions.filter(record_id__in=record_ids)
    stood = []
    with TestCase.captureOnCommitCallbacks(execute=True):
        for version in list(versions.select_related("reported_game").order_by("pk")):
            others = other_sides(version.reported_game, version.side_player_id)
            opponent = Player.objects.filter(pk__in=others, user__isnull=False).first()
            if opponent is not None:
                report_confirm(actor=opponent.user, report_id=version.pk)
            else:
                with transaction.atomic():
                    answer_version(version, None, ReportStatus.CONFIRMED, "confirmed in a test")
            version.reported_game.refresh_from_db()
            stood.append(version.reported_game.game_id)
    return stood


def confirm_after_commit(record_id: int) -> None:
    """Queue `confirm_open_reports` for this record after the adjudication's on-commit work."""
    from django.db import transaction

    transaction.on_commit(lambda: confirm_open_reports(record_ids=[record_id]))
