"""Tournament formats for Tantrix championships, in pure Python.

Bracket seeding and sections, Swiss and round-robin pairing, group draws and tables, match
state and tournament points. Nothing here imports Django or the project's apps: the functions
take plain data (ints, Decimals, tuples, small frozen dataclasses) and return plain data, and
raise `FormatError` for anything an organiser should be told about.
"""

from .errors import FormatError
from .groups import (
    GroupDrawMethod,
    GroupEntrant,
    PlayedGame,
    Qualifier,
    TableRow,
    TieBreak,
    group_draw,
    group_qualifiers,
    group_table,
)
from .knockout import (
    BracketMatch,
    BracketSlot,
    QualifierPolicy,
    advance_bracket,
    bracket_size,
    chart_order,
    first_round_pairs,
    matches_in_round,
    next_slot,
    pair_positions,
    place_qualifiers,
    round_count,
    section_of,
    sections_draw,
    seeded_draw,
)
from .matches import MatchReason, MatchRules, MatchState, match_state
from .points import (
    CURRENT_TP_SCHEME,
    GAME_TPS,
    PAIRS_TIME_LIMIT,
    SINGLES_TIME_LIMIT,
    TP_SCHEMES,
    TPScheme,
    apply_time_penalties,
    bye_tps,
    game_tps,
    result_tps,
    time_penalty_tps,
    tp_scheme,
    tps_for_margin,
)
from .roundrobin import RoundRobinRound, berger_table, round_robin
from .swiss import SwissPlayer, SwissRound, swiss_pairings

__all__ = [
    "CURRENT_TP_SCHEME",
    "GAME_TPS",
    "PAIRS_TIME_LIMIT",
    "SINGLES_TIME_LIMIT",
    "TP_SCHEMES",
    "BracketMatch",
    "BracketSlot",
    "FormatError",
    "GroupDrawMethod",
    "GroupEntrant",
    "MatchReason",
    "MatchRules",
    "MatchState",
    "PlayedGame",
    "Qualifier",
    "QualifierPolicy",
    "RoundRobinRound",
    "SwissPlayer",
    "SwissRound",
    "TPScheme",
    "TableRow",
    "TieBreak",
    "advance_bracket",
    "apply_time_penalties",
    "bye_tps",
    "berger_table",
    "bracket_size",
    "chart_order",
    "first_round_pairs",
    "game_tps",
    "group_draw",
    "group_qualifiers",
    "group_table",
    "match_state",
    "matches_in_round",
    "next_slot",
    "pair_positions",
    "place_qualifiers",
    "result_tps",
    "round_count",
    "round_robin",
    "section_of",
    "sections_draw",
    "seeded_draw",
    "swiss_pairings",
    "time_penalty_tps",
    "tp_scheme",
    "tps_for_margin",
]
