"""Filing versions of a game's result (records, score sheets) and letting one stand."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games import hooks
from games.engine import jsonio
from games.models import (
    REPORT_STATUSES,
    EndReason,
    Game,
    GameRecord,
    GameReport,
    GameSeat,
    RecordSource,
    RecordStatus,
    ReportedGame,
    ReportKind,
    ReportRole,
    ReportStatus,
    ResultState,
)
from games.records.extensions import validate_extensions
from games.records.refusals import Refused
from games.reports import notes
from games.reports.access import (
    needs_agreement,
    other_sides,
    role_of,
)
from games.reports.fingerprint import game_fingerprint
from games.reports.notify import tell_opponents, tell_rulers, tell_sides_outcome
from games.reports.record_facts import match_id_of, played_at_of
from games.reports.results import announce_game, game_from_record
from games.score_sheet import ScoreSheet
from games.signals import game_result_changed, game_result_rewritten
from players.audit.transitions import transition
from players.models import Player
from players.roles import player_of
from players.types import User


def _next_number(reported: ReportedGame) -> int:
    last = reported.versions.aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


def new_version(reported: ReportedGame, *, status: str, **fields: Any) -> GameReport:
    """A new version, in a status its table lets a version start in (REPORT_STATUSES)."""
    return GameReport.objects.create(
        reported_game=reported,
        number=_next_number(reported),
        status=REPORT_STATUSES.first(status),
        **fields,
    )


def _same_result(a: GameReport, b: GameReport) -> bool:
    return (
        list(a.scores) == list(b.scores)
        and a.winner_seat == b.winner_seat
        and (a.end_reason or "") == (b.end_reason or "")
    )


def report_from_record(*, record: GameRecord, verdict: dict, document: dict) -> int | None:
    """File a valid record as a version of its game (inside the adjudication's transaction).

    Returns the id of a Game whose result now stands (higher apps are to be told), else None.
    """
    seats = list(record.seat_players)
    colours = [seat["colour"] for seat in document["players"]]
    is_pairs = len(seats) == 4 and colours[0] == colours[2] and colours[1] == colours[3]
    extensions = dict(record.extensions or {})
    fingerprint = game_fingerprint(document, seats)
    match_id = match_id_of(extensions)
    reported = ReportedGame.objects.filter(fingerprint=fingerprint).first()
    if reported is None and match_id is not None:
        _lock_match(match_id)
        # The other side may have sent this game's score sheet first: the record answers it.
        reported = _sheet_waiting(match_id, player_of(record.submitter))
        if reported is not None:
            reported.fingerprint = fingerprint
            reported.save(update_fields=["fingerprint", "updated"])
    if reported is None:
        reported, _created = ReportedGame.objects.get_or_create(
            fingerprint=fingerprint,
            defaults={
                "seat_players": seats,
                "is_pairs": is_pairs,
                "extensions": extensions,
                "match_id": match_id,
                "played_at": played_at_of(document, record.created),
            },
        )
    # Two records of one game adjudicated at once: the second waits here for the first.
    reported = ReportedGame.objects.select_for_update().get(pk=reported.pk)
    minutes = [round(s / 60) for s in document["clock"]] if document.get("clock") else None
    fields = {
        "kind": ReportKind.RECORD,
        "author": record.submitter,
        "record": record,
        "scores": list(verdict["scores"]),
        "winner_seat": verdict.get("winner"),
        "end_reason": verdict["end"],
        "minutes": minutes,
    }
    return _file(reported, record.submitter, fields, players_count=len(seats))


def _lock_match(match_id: int) -> None:
    """Serialise the reports of one match (a transaction-scoped PostgreSQL advisory lock), so
    two sides' first reports of one game cannot both start a game of their own. SQLite (the
    zero-setup `make run`: one process, tasks eager) has no concurrent writers and no advisory
    locks, so there it is a no-op."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_MATCH_LOCK_CLASS, match_id])


# The advisory lock space of match reports (the first key of the two-key form).
_MATCH_LOCK_CLASS = 12012


def _sheet_waiting(match_id: int, own: Player | None) -> ReportedGame | None:
    """The oldest game of this match that the other side reported as a score sheet (a record
    has a fingerprint) and that waits for us."""
    return _waiting_in_match(match_id, own, sheets_only=True)


def _waiting_in_match(
    match_id: int, own: Player | None, *, sheets_only: bool = False
) -> ReportedGame | None:
    """For a score sheet: the oldest game of the match the other side reported (record or
    sheet; only sheets with ``sheets_only``) that waits for us."""
    if own is None:
        return None
    waiting = GameReport.objects.filter(
        reported_game__match_id=match_id,
        reported_game__state=ResultState.REPORTED,
        status=ReportStatus.OPEN,
    )
    if sheets_only:
        waiting = waiting.filter(reported_game__fingerprint="")
    waiting = (
        waiting.exclude(side_player=own)
        .order_by("created", "pk")
        .select_related("reported_game")
        .first()
    )
    if waiting is None or own.pk not in waiting.reported_game.seat_players:
        return None
    return waiting.reported_game


def score_sheet_submit(*, actor: User, extensions: dict, sheet: ScoreSheet) -> GameReport:
    """A face-to-face game's score sheet for a match (`extensions` names it), as a report.

    A side's sheet answers the other side's waiting report of that match: the same result
    confirms it, another result disputes it (the controllers rule). The championship's staff
    and site staff rule at once. Raises ValidationError / PermissionDenied; stores nothing then.
    """
    authorities = hooks.report_authorities()
    named = [name for name in extensions if name in authorities]
    if not named:
        raise ValidationError({"match": _("A score sheet is for a match: name the match.")})
    authority = authorities[named[0]]
    value = extensions[named[0]]
    seated = list(authority.seat_players(value)) if _plain_id(value) else []
    try:
        stored, _vouched = validate_extensions(actor, {named[0]: value}, seated)
    except Refused as exc:
        raise ValidationError(exc.refusal.errors) from None
    if stored.get(named[0]) is None:
        raise ValidationError({named[0]: _("A score sheet is for a match: name the match.")})
    seat_ids = [player.pk for player in seated]
    with transaction.atomic():
        match_id = match_id_of(stored)
        if match_id is not None:
            _lock_match(match_id)
        reported = None
        if role_of(actor, seat_ids, None) == ReportRole.SIDE and match_id is not None:
            reported = _waiting_in_match(match_id, player_of(actor))
        if reported is None:
            reported = ReportedGame.objects.create(
                seat_players=seat_ids,
                extensions=stored,
                match_id=match_id,
                played_at=timezone.now(),
            )
        reported = ReportedGame.objects.select_for_update().get(pk=reported.pk)
        # The sheet's sides follow the match; the game's seats may be the other way round
        # (a record's seat 0 moved first), and every version states its result in seat order.
        result = _sheet_result(sheet, flipped=list(reported.seat_players) != seat_ids)
        record = _sheet_record(actor, sheet, list(reported.seat_players), stored, result)
        fields = {"kind": ReportKind.SCORE_SHEET, "author": actor, "record": record, **result}
        _file(reported, actor, fields, players_count=2)
    return GameReport.objects.get(record=record)


def score_sheets_submit(
    *, actor: User, extensions: dict, sheets: list[ScoreSheet]
) -> list[GameReport]:
    """A face-to-face match's score form: one score sheet per game, in the order played.

    Each game is filed exactly as `score_sheet_submit` files one sheet (so confirmation,
    disputes, audit and the match's counting are the one flow's), all in one transaction: a
    game refused refuses the form, and nothing of it is stored (ValidationError keyed by the
    game's place, `games.<index>`, or PermissionDenied).
    """
    if not sheets:
        raise ValidationError({"games": _("Give the scores of at least one game.")})
    filed: list[GameReport] = []
    with transaction.atomic():
        for index, sheet in enumerate(sheets):
            try:
                filed.append(score_sheet_submit(actor=actor, extensions=extensions, sheet=sheet))
            except ValidationError as exc:
                if index == 0 or not hasattr(exc, "error_dict"):
                    raise
                # A later game refused once the first went in (the match just closed, say).
                raise ValidationError(
                    {f"games.{index}": [m for ms in exc.message_dict.values() for m in ms]}
                ) from None
    return filed


def _sheet_result(sheet: ScoreSheet, *, flipped: bool) -> dict:
    scores = list(sheet.scores)
    minutes = None
    if sheet.minutes_a is not None or sheet.minutes_b is not None:
        minutes = [sheet.minutes_a or 0, sheet.minutes_b or 0]
    winner = sheet.winner_seat
    if flipped:
        scores.reverse()
        minutes = minutes[::-1] if minutes else None
        winner = None if winner is None else 1 - winner
    return {
        "scores": scores,
        "winner_seat": winner,
        "end_reason": sheet.end_reason,
        "minutes": minutes,
    }


def _plain_id(value: Any) -> bool:
    text = str(value).strip()
    return text.isdigit() and len(text) <= 18


def _sheet_record(
    actor: User, sheet: ScoreSheet, seat_ids: list[int], extensions: dict, result: dict
) -> GameRecord:
    """The sheet kept as a record (valid at once: there are no moves to replay), so every
    result, on paper or online, has a record and a verdict, in the game's seat order."""
    body = json.dumps(sheet.as_dict(), sort_keys=True).encode()
    return GameRecord.objects.create(
        body=body,
        body_size=len(body),
        body_sha256=hashlib.sha256(body).hexdigest(),
        submitter=actor,
        source=RecordSource.SCORE_SHEET,
        status=RecordStatus.VALID,
        seat_players=seat_ids,
        extensions=extensions,
        verdict={
            "valid": True,
            "scores": result["scores"],
            "winner": result["winner_seat"],
            "end": result["end_reason"],
            "score_sheet": True,
        },
        adjudicated_at=timezone.now(),
    )


def _file(reported: ReportedGame, actor: User, fields: dict, *, players_count: int) -> int | None:
    """Add one submitted version to its game and settle what it means (the row is locked)."""
    role = role_of(actor, reported.seat_players, reported)
    own = player_of(actor) if role == ReportRole.SIDE else None
    fields = {**fields, "role": role, "side_player": own}
    if role != ReportRole.SIDE:
        version = new_version(reported, status=ReportStatus.RULED, **fields)
        return let_stand(reported, version, answer=None)
    if not needs_agreement(reported, players_count):
        version = new_version(
            reported,
            status=ReportStatus.CONFIRMED,
            answer_note=notes.NO_RATING,
            **fields,
        )
        return let_stand(reported, version, answer=None)
    if reported.state == ResultState.STANDING:
        # The same game again, after it stood: kept as what it is, a confirmation.
        new_version(reported, status=ReportStatus.CONFIRMATION, **fields)
        return None
    if reported.state in (ResultState.DISPUTED, ResultState.VOID):
        new_version(reported, status=ReportStatus.DISPUTED, **fields)
        return None
    open_versions = list(reported.versions.filter(status=ReportStatus.OPEN))
    theirs = [v for v in open_versions if v.side_player_id in other_sides(reported, own.pk)]
    for mine in (v for v in open_versions if v.side_player_id == own.pk):
        transition(mine, ReportStatus.SUPERSEDED)
    if theirs:
        version = new_version(reported, status=ReportStatus.CONFIRMATION, **fields)
        answered = theirs[0]
        if _same_result(answered, version):
            return answer_version(answered, actor, ReportStatus.CONFIRMED, notes.SAME_REPORT)
        dispute_version(answered, version, actor, notes.REPORTS_DIFFER)
        return None
    version = new_version(reported, status=ReportStatus.OPEN, **fields)
    transaction.on_commit(lambda: tell_opponents(version.pk))
    return None


# The audit entry a move writes, made once the move's other writes are done (it names the game).
AuditOf = Callable[[ReportedGame], Mapping[str, Any]]


def let_stand(
    reported: ReportedGame,
    version: GameReport,
    *,
    answer: str | None,
    audit: AuditOf | None = None,
) -> int | None:
    """Make `version` the standing result; create or update the Game. Returns a new Game's id.

    `answer`: the status the version moves to (None: it keeps its own). The game's move to
    standing comes last, with the Game it names, and writes `audit(reported)` when given (a
    ruling, a confirmation for a player without an account); without it the move is the
    consequence of an audited change, or needs no entry (the sides agreed)."""
    GameReport.objects.filter(reported_game=reported, standing=True).update(standing=False)
    transition(
        GameReport.objects.filter(reported_game=reported).exclude(pk=version.pk),
        ReportStatus.SUPERSEDED,
        from_=[ReportStatus.OPEN],
    )
    transition(version, answer or version.status, fields={"standing": True})
    source = version.based_on or version
    new_game_id = None
    if reported.game_id is not None:
        _game_rewrite(reported.game, source)
        game_id = reported.game_id
        game_result_rewritten.send(sender=Game, game_id=game_id)
        transaction.on_commit(lambda: game_result_changed.send_robust(sender=Game, game_id=game_id))
    else:
        game = _game_create(reported, source)
        reported.game = game
        new_game_id, record_id = game.pk, game.record_id
        extensions = dict(reported.extensions or {})
        transaction.on_commit(lambda: announce_game(new_game_id, record_id, extensions))
    transition(
        reported,
        ResultState.STANDING,
        field="state",
        fields={"game": reported.game, "updated": timezone.now()},
        audit=audit(reported) if audit is not None else None,
    )
    return new_game_id


def _result_fields(source: GameReport) -> dict:
    winner = source.winner_seat
    return {
        "winner_seat": winner,
        "is_draw": winner is None,
        "end_reason": source.end_reason or EndReason.COMPLETED,
        "clock": [m * 60 for m in source.minutes] if source.minutes else None,
    }


def _game_create(reported: ReportedGame, source: GameReport) -> Game:
    if source.kind == ReportKind.RECORD:
        # Read again: the adjudication wrote the verdict with an UPDATE, not on this instance.
        record = GameRecord.objects.get(pk=source.record_id)
        return game_from_record(record, record.verdict, jsonio.load(record.body_bytes))
    game = Game.objects.create(
        record=source.record,
        players_count=len(reported.seat_players),
        is_pairs=reported.is_pairs,
        placements=[],
        placements_count=0,
        turns=0,
        played_at=reported.played_at,
        **_result_fields(source),
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, player_id=player_id, colour=colour, score=score)
        for seat, (player_id, colour, score) in enumerate(
            zip(reported.seat_players, _SHEET_COLOURS, source.scores, strict=False)
        )
    )
    return game


# Score sheets say nothing of colours; the seats get two different ones for the game page.
_SHEET_COLOURS = ("red", "blue")


def _game_rewrite(game: Game, source: GameReport) -> None:
    """A new ruling on a result that already stood: the Game takes the ruled version's result
    (and its record, so the game still agrees with its record's verdict)."""
    fields = _result_fields(source)
    if source.kind == ReportKind.RECORD:
        verdict = source.record.verdict or {}
        fields.update(
            placements=jsonio.load(source.record.body_bytes)["placements"],
            placements_count=verdict.get("placements", 0),
            turns=verdict.get("turns", 0),
            endgame_from=verdict.get("endgame_from"),
        )
    else:
        fields.update(placements=[], placements_count=0, turns=0, endgame_from=None)
    Game.objects.filter(pk=game.pk).update(record=source.record, **fields)
    for seat, score in enumerate(source.scores):
        GameSeat.objects.filter(game=game, seat=seat).update(score=score)


def answer_version(
    version: GameReport, actor: User, status: str, note: str, *, audit: AuditOf | None = None
) -> int | None:
    """The other side's answer (or the sweep's): the version moves to `status` and stands."""
    version.answered_by = actor if getattr(actor, "is_authenticated", False) else None
    version.answered_at = timezone.now()
    version.answer_note = note
    version.save(update_fields=["answered_by", "answered_at", "answer_note"])
    game_id = let_stand(version.reported_game, version, answer=status, audit=audit)
    transaction.on_commit(lambda: tell_sides_outcome(version.pk))
    return game_id


def dispute_version(version: GameReport, other: GameReport | None, actor: User, note: str) -> None:
    now = timezone.now()
    for disputed in (version, other):
        if disputed is not None:
            transition(disputed, ReportStatus.DISPUTED)
    version.answered_by = actor if getattr(actor, "is_authenticated", False) else None
    version.answered_at, version.answer_note = now, note
    version.save(update_fields=["answered_by", "answered_at", "answer_note"])
    reported = version.reported_game
    transition(reported, ResultState.DISPUTED, field="state", fields={"updated": now})
    transaction.on_commit(lambda: tell_rulers(reported.pk, "disputed"))
