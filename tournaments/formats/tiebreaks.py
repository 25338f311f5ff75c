"""Standings with an ordered list of tie-breaks chosen per event, from one registry.

Plain data in, plain data out: each competitor's results round by round (`RoundResult`), and
the event's list of criteria (keys of `CRITERIA`, e.g. ``("tp_total", "buchholz",
"sonneborn_berger")``). The first criterion is the *score*: TP total (the Tantrix way) or match
points; Buchholz, median Buchholz, Sonneborn-Berger and direct encounter are computed on it.
Whatever the list, a tie that survives every criterion is ended by the seed (better seed
first), so places are always distinct and explainable (`StandingRow.separated_by`).

Decisions (docs/tournament-formats.md, "Tie-breaks"):
- Match points: a win 1, a draw ½, a loss 0; a bye or a walkover counts as a win.
- TP% counts games played over the table only (a bye or walkover adds nothing), as the group
  tables do.
- Buchholz sums the scores of the opponents met over the table; a bye or a walkover adds
  nothing. Median Buchholz leaves out the best and the worst of them (from three opponents on).
- Sonneborn-Berger sums, over the games played, the opponent's score times the match points
  won against them (a full share for a win, half for a draw).
- Direct encounter is computed among the players still level when it is applied: their score
  (TPs or match points) in the games between just them. Applied once to the level set.
- Wins are games won over the table; rating is the rating the caller passes (none ranks last).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType

from .errors import FormatError, Phrase, gettext_noop

WIN = Decimal("1")
DRAW = Decimal("0.5")
LOSS = Decimal("0")
_ZERO = Decimal("0")
_GAME = Decimal("20")


@dataclass(frozen=True)
class RoundResult:
    """One round of one competitor. `opponent` None: a bye (nobody to meet)."""

    opponent: Hashable | None
    tps: Decimal
    opponent_tps: Decimal = _ZERO
    points: Decimal = WIN
    #: False for a bye or a walkover: nothing was played over the table.
    played: bool = True


@dataclass(frozen=True)
class Competitor:
    key: Hashable
    seed: int
    results: tuple[RoundResult, ...] = ()
    rating: float | None = None


@dataclass(frozen=True)
class StandingRow:
    key: Hashable
    place: int
    #: Each criterion's value, by criterion key, as used for the ranking.
    values: Mapping[str, Decimal | None] = field(default_factory=dict)
    #: The criterion that put this row below the previous one ("seed" when nothing else did);
    #: None for the first row.
    separated_by: str | None = None


Values = dict[Hashable, Decimal | None]


@dataclass(frozen=True)
class _Field:
    by_key: Mapping[Hashable, Competitor]
    score_key: str

    def score(self, key: Hashable) -> Decimal:
        return _SCORES[self.score_key](self.by_key[key])


def _tp_total(c: Competitor) -> Decimal:
    return sum((r.tps for r in c.results), _ZERO)


def _match_points(c: Competitor) -> Decimal:
    return sum((r.points for r in c.results), _ZERO)


_SCORES: dict[str, Callable[[Competitor], Decimal]] = {
    "tp_total": _tp_total,
    "match_points": _match_points,
}


def _each(fn: Callable[[_Field, Competitor], Decimal | None]) -> Callable[..., Values]:
    """A criterion that depends on one competitor only (not on who else is level)."""

    def compute(pool: _Field, level: Sequence[Hashable]) -> Values:
        return {key: fn(pool, pool.by_key[key]) for key in level}

    return compute


def _tp_percent(pool: _Field, c: Competitor) -> Decimal:
    played = [r for r in c.results if r.played and r.opponent is not None]
    if not played:
        return _ZERO
    return sum((r.tps for r in played), _ZERO) * 100 / (_GAME * len(played))


def _opponent_scores(pool: _Field, c: Competitor) -> list[Decimal]:
    return [pool.score(r.opponent) for r in c.results if r.played and r.opponent in pool.by_key]


def _buchholz(pool: _Field, c: Competitor) -> Decimal:
    return sum(_opponent_scores(pool, c), _ZERO)


def _median_buchholz(pool: _Field, c: Competitor) -> Decimal:
    scores = sorted(_opponent_scores(pool, c))
    if len(scores) >= 3:
        scores = scores[1:-1]
    return sum(scores, _ZERO)


def _sonneborn_berger(pool: _Field, c: Competitor) -> Decimal:
    return sum(
        (
            pool.score(r.opponent) * r.points
            for r in c.results
            if r.played and r.opponent in pool.by_key
        ),
        _ZERO,
    )


def _wins(pool: _Field, c: Competitor) -> Decimal:
    return Decimal(sum(1 for r in c.results if r.played and r.points == WIN))


def _rating(pool: _Field, c: Competitor) -> Decimal | None:
    return None if c.rating is None else Decimal(str(round(c.rating, 1)))


def _direct_encounter(pool: _Field, level: Sequence[Hashable]) -> Values:
    among = set(level)
    use_tps = pool.score_key == "tp_total"
    return {
        key: sum(
            (
                r.tps if use_tps else r.points
                for r in pool.by_key[key].results
                if r.played and r.opponent in among
            ),
            _ZERO,
        )
        for key in level
    }


@dataclass(frozen=True)
class Criterion:
    key: str
    label: str  # a column heading: "TP total"
    compute: Callable[[_Field, Sequence[Hashable]], Values]
    #: A score can open the list: Buchholz and its kin are computed on it.
    is_score: bool = False
    #: The criterion in a sentence, "ranked by TP total": its own words, for a language that
    #: declines the name after its "by" ("по сумме TP, затем по Бухгольцу").
    ranked_by: str = ""


CRITERIA: Mapping[str, Criterion] = MappingProxyType(
    {
        c.key: c
        for c in (
            Criterion(
                "tp_total",
                gettext_noop("TP total"),
                _each(lambda p, c: _tp_total(c)),
                True,
                gettext_noop("by TP total"),
            ),
            Criterion(
                "match_points",
                gettext_noop("Match points"),
                _each(lambda p, c: _match_points(c)),
                True,
                gettext_noop("by match points"),
            ),
            Criterion(
                "tp_percent",
                gettext_noop("TP%"),
                _each(_tp_percent),
                ranked_by=gettext_noop("by TP%"),
            ),
            Criterion(
                "buchholz",
                gettext_noop("Buchholz"),
                _each(_buchholz),
                ranked_by=gettext_noop("by Buchholz"),
            ),
            Criterion(
                "median_buchholz",
                gettext_noop("Median Buchholz"),
                _each(_median_buchholz),
                ranked_by=gettext_noop("by median Buchholz"),
            ),
            Criterion(
                "sonneborn_berger",
                gettext_noop("Sonneborn-Berger"),
                _each(_sonneborn_berger),
                ranked_by=gettext_noop("by Sonneborn-Berger"),
            ),
            Criterion(
                "direct_encounter",
                gettext_noop("Direct encounter"),
                _direct_encounter,
                ranked_by=gettext_noop("by direct encounter"),
            ),
            Criterion(
                "wins",
                gettext_noop("Number of wins"),
                _each(_wins),
                ranked_by=gettext_noop("by number of wins"),
            ),
            Criterion(
                "rating",
                gettext_noop("Rating"),
                _each(_rating),
                ranked_by=gettext_noop("by rating"),
            ),
        )
    }
)
#: The list an event starts with.
DEFAULT_CRITERIA = ("tp_total", "buchholz", "sonneborn_berger")


def criteria_check(keys: Iterable[str]) -> tuple[str, ...]:
    """The list as a tuple, or a `FormatError` saying what is wrong with it."""
    keys = tuple(keys)
    if not keys:
        raise FormatError(
            gettext_noop("choose at least one criterion: TP total or match points first")
        )
    unknown = [k for k in keys if k not in CRITERIA]
    if unknown:
        known = ", ".join(CRITERIA)
        raise FormatError(
            gettext_noop("unknown tie-break %(unknown)s (known: %(known)s)"),
            unknown=", ".join(map(str, unknown)),
            known=known,
        )
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise FormatError(
            gettext_noop("each tie-break once: %(repeated)s is repeated"),
            repeated=", ".join(repeated),
        )
    if not CRITERIA[keys[0]].is_score:
        raise FormatError(
            gettext_noop(
                "the first criterion is the score and must be TP total or match points, "
                "not %(criterion)s"
            ),
            criterion=Phrase(CRITERIA[keys[0]].label),
        )
    return keys


def _order(value: Decimal | None) -> Decimal:
    # Higher is better for every criterion; a missing value (no rating) comes last.
    return Decimal("-Infinity") if value is None else value


def separated_by(
    above: Mapping[str, Decimal | None], row: Mapping[str, Decimal | None], criteria: Sequence[str]
) -> str:
    """The criterion that put `row` below the row directly `above` it: the first in the event's
    order on which the two differ (the score first), or "seed" when they are level on all.

    Read from the two rows' values, not from the order in which the level sets were split: a
    set split off by one criterion is reordered by the next, so the row that ends up leading it
    is not the one that was split off. Two neighbours equal on every criterion before one were
    in the same level set when it was applied (a set is split only where values differ), so
    even direct encounter, computed per level set, compares like with like."""
    for key in criteria:
        if above.get(key) != row.get(key):
            return key
    return "seed"


def ranked_standings(
    competitors: Iterable[Competitor], criteria: Sequence[str]
) -> tuple[StandingRow, ...]:
    """Rank the competitors on the criteria in order, then by seed."""
    criteria = criteria_check(criteria)
    field_ = list(competitors)
    pool = _Field(by_key={c.key: c for c in field_}, score_key=criteria[0])
    values: dict[Hashable, dict[str, Decimal | None]] = {c.key: {} for c in field_}
    # Each level set is split by the next criterion, best first, the seed ordering the rest.
    groups: list[list[Hashable]] = [sorted(pool.by_key, key=lambda k: pool.by_key[k].seed)]
    for key in criteria:
        criterion = CRITERIA[key]
        split: list[list[Hashable]] = []
        whole = criterion.compute(pool, list(pool.by_key)) if key != "direct_encounter" else {}
        for group in groups:
            got = criterion.compute(pool, group) if key == "direct_encounter" else whole
            for member in group:
                values[member][key] = got[member]
            if len(group) == 1:
                split.append(group)
                continue
            ordered = sorted(group, key=lambda k: (-_order(got[k]), pool.by_key[k].seed))
            run = [ordered[0]]
            for member in ordered[1:]:
                if got[member] == got[run[-1]]:
                    run.append(member)
                else:
                    split.append(run)
                    run = [member]
            split.append(run)
        groups = split
    ranked = [member for group in groups for member in group]
    rows = []
    for place, member in enumerate(ranked, start=1):
        separated = None
        if place > 1:
            separated = separated_by(values[ranked[place - 2]], values[member], criteria)
        rows.append(StandingRow(member, place, dict(values[member]), separated))
    return tuple(rows)
