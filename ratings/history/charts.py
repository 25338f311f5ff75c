"""Rating histories as inline SVG line charts (no JavaScript, no chart library).

`line_chart` scales plain values into a box with a labelled rating axis, dates along the bottom
and a dot per change whose tooltip gives the date and the rating; `history_chart` feeds it a
player's rating changes with dates in the site's format and time zone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils import formats, timezone

from ratings.history.dating import played_at

# Room for the axis labels: left for the ratings, bottom for the dates.
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 10, 26
# Beyond this many changes the dots would touch: every k-th is drawn (the line keeps them all).
MAX_DOTS = 150


@dataclass(frozen=True)
class Tick:
    at: float  # the coordinate along its axis
    label: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str  # "30 Nov 2026: 512.3"
    marked: bool = False  # the point a page is about (a review's change)


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    points: str
    """The polyline's points attribute, "x,y x,y ..."."""
    low: float
    high: float
    first: str
    last: str
    count: int
    left: int
    right: int
    top: int
    bottom: int
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    dots: tuple[Dot, ...]


def nice_step(span: float, wanted: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about `wanted` intervals."""
    if span <= 0:
        return 1.0
    raw = span / wanted
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def _plain(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def line_chart(
    values: Sequence[float],
    *,
    labels: Sequence[str] = (),
    number: Callable[[float, int], str] = _plain,
    width: int = 640,
    height: int = 240,
    marked: int | None = None,
) -> LineChart | None:
    """Scale the values into the box, one step per change; None without any value.

    `labels` name each value's moment (a date); they label the x axis (at most five, evenly
    spread) and each dot's tooltip. `number(value, decimals)` writes a rating (the reader's
    decimal mark: "512,3" in Russian). `marked`: the index of a point to mark (always dotted).
    """
    if not values:
        return None
    values = [float(v) for v in values]
    labels = list(labels) or [str(i + 1) for i in range(len(values))]
    low, high = min(values), max(values)
    step = nice_step(high - low or max(abs(high) * 0.02, 1.0))
    axis_low = math.floor(low / step) * step
    axis_high = math.ceil(high / step) * step
    if axis_high == axis_low:
        axis_low, axis_high = axis_low - step, axis_high + step
    right, bottom = width - RIGHT, height - BOTTOM
    inner_w, inner_h = right - LEFT, bottom - TOP

    def y_of(value: float) -> float:
        return bottom - (value - axis_low) / (axis_high - axis_low) * inner_h

    def x_of(index: int) -> float:
        if len(values) == 1:
            return LEFT + inner_w / 2
        return LEFT + index * inner_w / (len(values) - 1)

    xy = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    y_ticks = []
    tick = axis_low
    while tick <= axis_high + step / 2:
        y_ticks.append(Tick(at=round(y_of(tick), 1), label=number(tick, 0 if step >= 1 else 1)))
        tick += step
    shown = min(5, len(values))
    indexes = sorted({round(i * (len(values) - 1) / max(shown - 1, 1)) for i in range(shown)})
    x_ticks = [Tick(at=round(x_of(i), 1), label=labels[i]) for i in indexes]
    every = max(1, math.ceil(len(values) / MAX_DOTS))
    dotted = set(range(0, len(values), every)) | {len(values) - 1}
    if marked is not None and 0 <= marked < len(values):
        dotted.add(marked)
    dots = [
        Dot(
            x=round(xy[i][0], 1),
            y=round(xy[i][1], 1),
            label=f"{labels[i]}: {number(values[i], 1)}",
            marked=i == marked,
        )
        for i in sorted(dotted)
    ]
    return LineChart(
        width=width,
        height=height,
        points=" ".join(f"{x:.1f},{y:.1f}" for x, y in xy),
        low=low,
        high=high,
        first=labels[0],
        last=labels[-1],
        count=len(values),
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        y_ticks=tuple(y_ticks),
        x_ticks=tuple(x_ticks),
        dots=tuple(dots),
    )


def history_chart(history: Sequence, *, mark: int | None = None, **size) -> LineChart | None:
    """The chart of rating changes (oldest first), each dated by the game behind it
    (``ratings.history.dating``), in the site's format for the reader's language and in the reader's
    time zone. `mark`: a change id whose point is marked (its current version, when a replay
    has recalculated it)."""
    labels = [
        formats.date_format(timezone.localtime(played_at(change)), "DATE_FORMAT")
        for change in history
    ]
    return line_chart(
        [change.after for change in history],
        labels=labels,
        number=lambda value, decimals: formats.number_format(value, decimals),
        marked=next(
            (
                i
                for i, change in enumerate(history)
                if mark is not None
                and mark in (getattr(change, "pk", None), getattr(change, "origin_id", None))
            ),
            None,
        ),
        **size,
    )
