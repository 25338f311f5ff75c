"""Draw boards and tiles as inline SVG (the game page, the replay viewer and the players' hands).

Everything is drawn relative to the first tile: the rules let a game start on any cell, and
coordinates as large as 10**400 are valid but cannot become floats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.replay import Replay
from games.engine.tiles import TILE_DATA

EDGE_COLOURS = {number: colours for number, colours, _pattern, _family in TILE_DATA}
LETTER_NAME = {"R": "red", "Y": "yellow", "B": "blue", "G": "green"}

SIZE = 30.0
SQRT3 = math.sqrt(3)
FILL = {"R": "#c62828", "Y": "#e0b000", "B": "#1f5fbf", "G": "#2e7d32"}
# Edge i's midpoint direction, clockwise from the top (flat-topped hexagons).
EDGE_ANGLES = [-90.0, -30.0, 30.0, 90.0, 150.0, 210.0]
# Farther than this from the first tile, a cell cannot touch a connected board of 56 tiles: an
# illegal placement out there is described in words, not drawn.
DRAWABLE_REACH = 60
MIN_VIEW_WIDTH = SIZE * 11
MIN_VIEW_HEIGHT = SIZE * 9


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)


def _edge_midpoint(x: float, y: float, edge: int) -> tuple[float, float]:
    angle = math.radians(EDGE_ANGLES[edge])
    apothem = SIZE * SQRT3 / 2
    return x + apothem * math.cos(angle), y + apothem * math.sin(angle)


def _hexagon(x: float, y: float) -> str:
    corners = (math.radians(60 * i) for i in range(6))
    return " ".join(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}" for a in corners)


def _tile_shapes(
    tile: int, rotation: int, x: float, y: float, best: Iterable[str] = ()
) -> SafeString:
    """The hexagon and its three coloured paths; a colour in `best` is marked as scoring."""
    colours = EDGE_COLOURS[tile]
    edge_colour = [colours[(i - rotation) % 6] for i in range(6)]
    best = set(best)
    paths = []
    for colour in dict.fromkeys(edge_colour):
        a, b = [i for i in range(6) if edge_colour[i] == colour]
        ax, ay = _edge_midpoint(x, y, a)
        bx, by = _edge_midpoint(x, y, b)
        name = LETTER_NAME[colour]
        paths.append(
            (
                f"M{ax:.1f},{ay:.1f} Q{x:.1f},{y:.1f} {bx:.1f},{by:.1f}",
                FILL[colour],
                f"line best best-{name}" if name in best else "line",
                name,
            )
        )
    return format_html(
        '<polygon points="{}" class="hex"/>{}',
        _hexagon(x, y),
        # Presentation attributes as well as the stylesheet: a hand draws the tile through
        # <use>, whose copy the page's selectors do not reach.
        format_html_join(
            "",
            '<path d="{}" stroke="{}" stroke-width="6" fill="none" class="{}" data-colour="{}"/>',
            paths,
        ),
    )


def _viewbox(points: Sequence[tuple[float, float]]) -> str:
    xs = [x for x, _y in points]
    ys = [y for _x, y in points]
    pad = SIZE * 1.2
    # At least about seven tiles across, so an early or short board is not drawn huge.
    width = max(max(xs) - min(xs) + 2 * pad, MIN_VIEW_WIDTH)
    height = max(max(ys) - min(ys) + 2 * pad, MIN_VIEW_HEIGHT)
    left = (min(xs) + max(xs) - width) / 2
    top = (min(ys) + max(ys) - height) / 2
    return " ".join(f"{value:.1f}" for value in (left, top, width, height))


def _tiles_label(count: int) -> str:
    # The English text has always said "tiles" for any count; other languages need the forms.
    return ngettext("Board with %(count)s tiles", "Board with %(count)s tiles", count) % {
        "count": count
    }


def _empty_board() -> SafeString:
    return format_html(
        '<svg class="board" viewBox="-40 -40 80 80" role="img" aria-label="{}"></svg>',
        _("Empty board"),
    )


def board_svg(placements: Iterable[dict], upto: int | None = None) -> SafeString:
    """SVG of the board after the first `upto` placements (all when None)."""
    placed = list(placements)[:upto] if upto is not None else list(placements)
    if not placed:
        return _empty_board()
    origin_q, origin_r = placed[0]["q"], placed[0]["r"]
    shapes, points = [], []
    for number, placement in enumerate(placed, start=1):
        x, y = _centre(placement["q"] - origin_q, placement["r"] - origin_r)
        points.append((x, y))
        shapes.append(
            format_html(
                "<g><title>{}</title>{}</g>",
                _("Placement %(number)s: tile %(tile)s")
                % {"number": number, "tile": placement["tile"]},
                _tile_shapes(placement["tile"], placement["rotation"], x, y),
            )
        )
    return format_html(
        '<svg class="board" viewBox="{}" role="img" aria-label="{}">{}</svg>',
        _viewbox(points),
        _tiles_label(len(placed)),
        mark_safe("".join(shapes)),
    )


def replay_svg(replay: Replay) -> SafeString:
    """The whole game as one SVG, each tile tagged with its placement number (`data-step`).

    The replay script hides the tiles after the step on show; without the script the page shows
    the final board. Forced placements carry the class `forced`, the illegal placement (if any)
    `illegal`, and the paths of each colour's scoring line or loop `best`, which the stylesheet
    shows only while the board is at its end (`at-end` on the SVG).
    """
    steps = replay.steps
    illegal = replay.illegal
    if not steps:
        return _empty_board()
    origin_q, origin_r = steps[0].q, steps[0].r
    best_at: dict[tuple[int, int], list[str]] = {}
    for colour, line in replay.lines.items():
        for q, r in line["cells"]:
            best_at.setdefault((q, r), []).append(colour)
    shapes, points = [], []
    for number, step in enumerate(steps, start=1):
        x, y = _centre(step.q - origin_q, step.r - origin_r)
        points.append((x, y))
        classes = "tile forced" if step.forced else "tile"
        if step.forced:
            label = _("Placement %(number)s: tile %(tile)s (forced)")
        else:
            label = _("Placement %(number)s: tile %(tile)s")
        label %= {"number": number, "tile": step.tile}
        shapes.append(
            format_html(
                '<g class="{}" data-step="{}"><title>{}</title>{}</g>',
                classes,
                number,
                label,
                _tile_shapes(step.tile, step.rotation, x, y, best_at.get((step.q, step.r), ())),
            )
        )
    if illegal is not None:
        dq, dr = illegal.q - origin_q, illegal.r - origin_r
        if abs(dq) <= DRAWABLE_REACH and abs(dr) <= DRAWABLE_REACH:
            x, y = _centre(dq, dr)
            points.append((x, y))
            shapes.append(
                format_html(
                    '<g class="tile illegal" data-step="{}"><title>{}</title>{}'
                    '<polygon points="{}" class="illegal-mark"/></g>',
                    illegal.number,
                    _("Placement %(number)s: tile %(tile)s, illegal")
                    % {"number": illegal.number, "tile": illegal.tile},
                    _tile_shapes(illegal.tile, illegal.rotation, x, y),
                    _hexagon(x, y),
                )
            )
    at_end = " at-end" if replay.verdict.get("valid") else ""
    return format_html(
        '<svg class="board replay-board{}" id="replay-board" viewBox="{}" role="img" '
        'aria-label="{}">{}</svg>',
        at_end,
        _viewbox(points),
        _tiles_label(len(steps)),
        mark_safe("".join(shapes)),
    )


def tile_sprites() -> SafeString:
    """Every tile once, as an SVG `<symbol>` (`#tile-N`), for drawing the hands."""
    symbols = format_html_join(
        "",
        '<symbol id="tile-{}" viewBox="-31 -27 62 54">{}</symbol>',
        ((number, _tile_shapes(number, 0, 0.0, 0.0)) for number in EDGE_COLOURS),
    )
    return format_html('<svg class="tile-sprites" aria-hidden="true">{}</svg>', symbols)


def hand_svg(tile: int) -> SafeString:
    """One tile of a hand, drawn from the sprites."""
    return format_html(
        '<svg class="hand-tile" viewBox="0 0 62 54" role="img" aria-label="{}">'
        '<use href="#tile-{}" width="62" height="54"/></svg>',
        _("Tile %(tile)s") % {"tile": tile},
        tile,
    )
