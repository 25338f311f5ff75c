"""Games and records made directly from engine verdicts, for page tests.

The pages read what adjudication stored (GameRecord, Game, GameSeat); making those rows here
keeps the page tests about the pages, whatever the submission path does before them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from django.utils import timezone

from games.engine import adjudicate
from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from tests.games.helpers import selfplay_record


def record_row(record: dict, players, *, submitter=None, extensions=None) -> GameRecord:
    body = json.dumps(record).encode()
    verdict = adjudicate(record)
    error = verdict.get("error") or {}
    return GameRecord.objects.create(
        body=body,
        body_size=len(body),
        body_sha256=hashlib.sha256(body).hexdigest(),
        submitter=submitter if submitter is not None else players[0].user,
        source=RecordSource.WEB,
        status=RecordStatus.VALID if verdict["valid"] else RecordStatus.INVALID,
        seat_players=[player.pk for player in players],
        extensions=extensions or {},
        verdict=verdict,
        error_code=error.get("code") or "",
        error_placement=error.get("placement"),
        error_message=error.get("message") or "",
        adjudicated_at=timezone.now(),
    )


def game_row(
    players, *, seed: int = 3, extensions=None, played_at: dt.datetime | None = None, **fields
) -> Game:
    record = selfplay_record(seed, [player.display_name for player in players])
    row = record_row(record, players, extensions=extensions)
    verdict = row.verdict
    game = Game.objects.create(
        record=row,
        players_count=len(players),
        winner_seat=verdict["winner"],
        is_draw=verdict["winner"] is None,
        end_reason=verdict["end"],
        placements=record["placements"],
        placements_count=verdict["placements"],
        turns=verdict["turns"],
        endgame_from=verdict["endgame_from"],
        played_at=played_at or timezone.now(),
        **fields,
    )
    for seat, (player, colour) in enumerate(
        zip(players, [p["colour"] for p in record["players"]], strict=True)
    ):
        GameSeat.objects.create(
            game=game, seat=seat, player=player, colour=colour, score=verdict["scores"][seat]
        )
    return game
