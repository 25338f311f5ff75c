"""Draw a board of placed tiles as inline SVG (for the game page and the replay viewer)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.engine.tiles import TILE_DATA

EDGE_COLOURS = {number: colours for number, colours, _pattern, _family in TILE_DATA}

SIZE = 30.0
SQRT3 = math.sqrt(3)
FILL = {"R": "#c62828", "Y": "#e0b000", "B": "#1f5fbf", "G": "#2e7d32"}
# Edge i's midpoint direction, clockwise from the top (flat-topped hexagons).
EDGE_ANGLES = [-90.0, -30.0, 30.0, 90.0, 150.0, 210.0]


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)


def _edge_midpoint(x: float, y: float, edge: int) -> tuple[float, float]:
    angle = math.radians(EDGE_ANGLES[edge])
    apothem = SIZE * SQRT3 / 2
    return x + apothem * math.cos(angle), y + apothem * math.sin(angle)


def _hexagon(x: float, y: float) -> str:
    corners = (math.radians(60 * i) for i in range(6))
    return " ".join(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}" for a in corners)


def board_svg(placements: Iterable[dict], upto: int | None = None) -> SafeString:
    """SVG of the board after the first `upto` placements (all when None)."""
    placed = list(placements)[:upto] if upto is not None else list(placements)
    if not placed:
        return mark_safe(
            '<svg class="board" viewBox="-40 -40 80 80" role="img" aria-label="Empty board"></svg>'
        )
    shapes = []
    xs, ys = [], []
    # Drawn relative to the first tile: the rules let a game start on any cell, and coordinates
    # as large as 10**400 are valid but cannot become floats.
    origin_q, origin_r = placed[0]["q"], placed[0]["r"]
    for number, placement in enumerate(placed, start=1):
        q, r, rotation = placement["q"], placement["r"], placement["rotation"]
        colours = EDGE_COLOURS[placement["tile"]]
        x, y = _centre(q - origin_q, r - origin_r)
        xs.append(x)
        ys.append(y)
        edge_colour = [colours[(i - rotation) % 6] for i in range(6)]
        paths = []
        for colour in set(edge_colour):
            a, b = [i for i in range(6) if edge_colour[i] == colour]
            ax, ay = _edge_midpoint(x, y, a)
            bx, by = _edge_midpoint(x, y, b)
            paths.append((f"M{ax:.1f},{ay:.1f} Q{x:.1f},{y:.1f} {bx:.1f},{by:.1f}", FILL[colour]))
        shapes.append(
            format_html(
                "<g><title>placement {} · tile {} at q={} r={} rotation {}</title>"
                '<polygon points="{}" class="hex"/>{}</g>',
                number,
                placement["tile"],
                q,
                r,
                rotation,
                _hexagon(x, y),
                format_html_join("", '<path d="{}" stroke="{}" class="line"/>', paths),
            )
        )
    pad = SIZE * 1.2
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    return format_html(
        '<svg class="board" viewBox="{}" role="img" aria-label="Board with {} tiles">{}</svg>',
        " ".join(f"{value:.1f}" for value in box),
        len(placed),
        mark_safe("".join(shapes)),
    )
