"""A rating history as a small inline SVG line chart (no JavaScript, no chart library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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


def line_chart(
    values: Sequence[float],
    *,
    labels: Sequence[str] = (),
    width: int = 640,
    height: int = 200,
    pad: int = 6,
) -> LineChart | None:
    """Scale the values into the box, one step per change; None with fewer than two values."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / (len(values) - 1)
    inner = height - 2 * pad
    points = " ".join(
        f"{pad + i * step:.1f},{pad + inner - (v - low) / span * inner:.1f}"
        for i, v in enumerate(values)
    )
    return LineChart(
        width=width,
        height=height,
        points=points,
        low=low,
        high=high,
        first=labels[0] if labels else "",
        last=labels[-1] if labels else "",
        count=len(values),
    )
