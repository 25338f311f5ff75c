"""The replay viewer's data for one record, computed once and cached.

A record's body never changes once stored, so its replay is cached under the record id and the
body's hash, for a day: a game page is read far more often than a game is played, and a
56-placement replay with its SVG costs tens of milliseconds. A new engine version (which may judge
differently) changes CACHE_VERSION.

The board's SVG carries its labels in the reader's language, so the key names the language;
the script's sentences and the illegal placement's rule and reason are added for each reader
(`_in_words`), outside the cache.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine.replay import Replay, replay
from games.models import GameRecord
from games.records import verdicts
from games.replays.drawing import hand_svg, replay_svg, tile_sprites

CACHE_VERSION = 5
CACHE_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class ReplayView:
    svg: SafeString
    data: dict[str, Any]  # for the page's json_script: steps, hands, names, words
    total: int  # legal placements (plus one for an illegal placement that is drawn)
    illegal: dict[str, Any] | None
    forced: int
    endgame_from: int | None


def _words() -> dict[str, str]:
    # The script's sentences, translated here so the script holds no user-facing text.
    return {
        "start": _("Before the first placement"),
        "forced": _("a forced placement"),
        "endgame": _("the endgame starts: the bag is empty"),
        "illegal": _("%(rule)s. %(reason)s"),
        "end": _("The end: each colour's scoring line or loop is outlined"),
        "empty_hand": _("No tiles"),
    }


def _step_texts(view: ReplayView) -> list[str]:
    """Each placement in a sentence, filled in here rather than by the script: a language may
    inflect the words around a number (Hungarian "a 25-ös lapkát", tantrix_site.i18n.grammar)."""
    names = view.data["names"]
    return [
        _("Placement %(number)s of %(total)s: %(name)s placed tile %(tile)s")
        % {"number": k, "total": view.total, "name": names[step["seat"]], "tile": step["tile"]}
        for k, step in enumerate(view.data["steps"], 1)
    ]


def _tile_labels() -> dict[int, str]:
    """Every tile's name ("Tile 25"), for the hands the script draws."""
    return {tile: _("Tile %(tile)s") % {"tile": tile} for tile in range(1, 57)}


def _build(record: GameRecord) -> ReplayView | None:
    result: Replay | None = replay(record.body_bytes)
    if result is None:
        return None
    steps = [
        {
            "seat": step.seat,
            "tile": step.tile,
            "forced": step.forced,
            "endgame": step.endgame,
            "hands": [list(hand) for hand in step.hands],
        }
        for step in result.steps
    ]
    illegal = None
    total = len(steps)
    if result.illegal is not None:
        bad = result.illegal
        # What the words are made of (`_in_words` adds the rule and the reason).
        illegal = {
            "number": bad.number,
            "seat": bad.seat,
            "tile": bad.tile,
            "q": bad.q,
            "r": bad.r,
            "rotation": bad.rotation,
            "code": bad.code,
            "message": bad.message,
            # The record's first tile, which cells are told from (games/engine/places.py).
            "first": [result.steps[0].q, result.steps[0].r] if result.steps else [bad.q, bad.r],
        }
        total = bad.number
    endgame_from = next((n for n, step in enumerate(result.steps, 1) if step.endgame), None)
    data = {
        "names": list(result.names),
        "colours": list(result.colours),
        "start_hands": [list(hand) for hand in result.start_hands],
        "steps": steps,
        "illegal": illegal,
        "valid": bool(result.verdict.get("valid")),
        "lines": {
            colour: {"kind": line["kind"], "tiles": line["tiles"]}
            for colour, line in result.lines.items()
        },
    }
    return ReplayView(
        svg=replay_svg(result),
        data=data,
        total=total,
        illegal=illegal,
        forced=sum(step.forced for step in result.steps),
        endgame_from=endgame_from,
    )


def _in_words(view: ReplayView) -> ReplayView:
    """The view with its words in the reader's language: the script's sentences, and the rule
    and reason of an illegal placement."""
    illegal = view.illegal
    if illegal is not None:
        # The stored English sentence names cells by q, r: the page gets `reason` instead.
        stored = {key: value for key, value in illegal.items() if key != "message"}
        illegal = {
            **stored,
            "rule": verdicts.code_label(illegal["code"]),
            "reason": verdicts.placement_sentence(
                code=illegal["code"],
                number=illegal["number"],
                name=view.data["names"][illegal["seat"]],
                tile=illegal["tile"],
                q=illegal["q"],
                r=illegal["r"],
                rotation=illegal["rotation"],
                first=tuple(illegal["first"]),
            )
            or verdicts.english_sentence(illegal["message"], tuple(illegal["first"])),
        }
    data = {
        **view.data,
        "illegal": illegal,
        "words": _words(),
        "step_texts": _step_texts(view),
        "tile_labels": _tile_labels(),
    }
    return replace(view, data=data, illegal=illegal)


def replay_view(record: GameRecord) -> ReplayView | None:
    """The replay of a record (None for a record the engine cannot read), cached."""
    language = translation.get_language() or ""
    key = f"games:replay:{CACHE_VERSION}:{language}:{record.pk}:{record.body_sha256[:16]}"
    cached = cache.get(key)
    if cached is not None:
        if not cached:
            return None
        return _in_words(ReplayView(**{**cached, "svg": mark_safe(cached["svg"])}))
    view = _build(record)
    stored = {} if view is None else {**view.__dict__, "svg": str(view.svg)}
    cache.set(key, stored, CACHE_SECONDS)
    return None if view is None else _in_words(view)


@lru_cache(maxsize=1)
def sprites() -> SafeString:
    """The 56 tiles as SVG symbols, for the hands (the same for every page)."""
    return tile_sprites()


def replay_context(record: GameRecord) -> dict:
    """What a page shows of a record's replay: the viewer, its tiles, the hands at the end;
    empty when there is nothing to replay."""
    replay = replay_view(record)
    if replay is None or not replay.data["steps"] and not replay.illegal:
        return {}
    steps = replay.data["steps"]
    hands = steps[-1]["hands"] if steps else replay.data["start_hands"]
    return {
        "replay": replay,
        "sprites": sprites(),
        "final_hands": [
            {"name": name, "tiles": [hand_svg(tile) for tile in hand]}
            for name, hand in zip(replay.data["names"], hands, strict=True)
        ],
    }
