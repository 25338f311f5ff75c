"""A rating's latest steps as a small line (an SVG polyline's points): pure, no Django."""

from __future__ import annotations

from collections.abc import Sequence

WIDTH = 96
HEIGHT = 24
# Room for the stroke at the top and bottom edges.
MARGIN = 2


def polyline_points(values: Sequence[float], *, width: int = WIDTH, height: int = HEIGHT) -> str:
    """ "x,y x,y ..." for an SVG polyline of `width` x `height` (y grows downwards); "" for
    fewer than two values. A flat series is drawn across the middle."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = high - low
    usable = height - 2 * MARGIN
    step = width / (len(values) - 1)
    points = []
    for i, value in enumerate(values):
        y = height / 2 if span == 0 else MARGIN + usable * (high - value) / span
        points.append(f"{i * step:.1f},{y:.1f}")
    return " ".join(points)
