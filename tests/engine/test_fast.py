"""The fast engine against the literal one it replaced: the same verdict, key for key.

``games.engine.adjudicate`` accepts legal records itself and hands everything else to
``games.engine.literal``; ``legal_moves`` works on the fast board and falls back to the literal
board for hand-built positions its closure cannot hold. These tests generate legal and illegal
games (two, three, four players and pairs; endgames, deadlocks, resignations) and positions,
and require identical answers. ``python -m tests.engine.crosscheck`` runs the same comparison
on thousands of self-play games outside the suite.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import adjudicate, fastboard, legal_moves, literal, selfplay
from games.engine.errors import MalformedPosition
from games.engine.position import literal_legal_moves

from .support import (
    board_of,
    flower_record,
    frontier,
    matching_board,
    perturb,
    position,
    random_blob,
    rotations,
)

PLAYERS = st.sampled_from(["2", "3", "4", "pairs"])


def same(record: object) -> dict:
    """The fast verdict, after checking it equals the literal one (and as JSON text)."""
    verdict = adjudicate(record)
    assert verdict == literal.adjudicate(record)
    assert json.dumps(verdict) == json.dumps(literal.adjudicate(record))  # key order too
    return verdict


def cut_short(record: dict, rng: random.Random) -> None:
    """End the game early, by resignation, time or a (possibly false) claim."""
    upto = rng.randrange(len(record["placements"]) + 1)
    del record["placements"][upto:]
    seats = len(record["players"])
    record["end"] = rng.choice(
        [
            {"reason": "resigned", "player": rng.randrange(seats)},
            {"reason": "time", "player": rng.randrange(seats)},
            {"reason": "deadlock"},
            {"reason": "completed"},
        ]
    )
    record.pop("claimed_scores", None)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=PLAYERS, changes=st.integers(0, 3))
def test_fast_and_literal_agree_on_perturbed_games(seed: int, players: str, changes: int) -> None:
    rng = random.Random(seed)
    record = selfplay(seed, players)
    for _ in range(changes):
        perturb(record, rng)
    same(record)
    same(json.dumps(record))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=PLAYERS)
def test_fast_and_literal_agree_on_games_that_end_early(seed: int, players: str) -> None:
    rng = random.Random(seed)
    record = selfplay(seed, players)
    cut_short(record, rng)
    same(record)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=PLAYERS)
def test_complete_games_are_judged_by_the_fast_path(seed: int, players: str) -> None:
    record = selfplay(seed, players)
    verdict = same(record)
    assert verdict["valid"]
    assert verdict["end"] in ("completed", "deadlock")
    # The fast path accepted it by itself: no literal replay was needed.
    fast = __import__("games.engine.adjudicate", fromlist=["_judge"])
    assert fast._judge(record, None) == verdict


def test_deadlocks_and_placements_after_them() -> None:
    for upto in range(8):
        same(flower_record(upto=upto))
    for end in ({"reason": "completed"}, {"reason": "resigned", "player": 1}):
        same(flower_record(end=end))
    record = flower_record()
    record["placements"].append(dict(record["placements"][-1]))
    assert same(record)["error"]["code"] == "GAME_OVER"


def test_games_played_into_the_endgame_and_deadlocked_by_selfplay() -> None:
    kinds = set()
    for seed in range(120):
        verdict = same(selfplay(seed, ["2", "3", "4", "pairs"][seed % 4]))
        kinds.add(verdict["end"])
        assert verdict["endgame_from"] is None or verdict["endgame_from"] > 1
    assert "completed" in kinds


@pytest.mark.parametrize(
    "text",
    [
        # A duplicate key: strict JSON refuses it, whatever value would win.
        '{"format": "tantrix-game/1", "format": "tantrix-game/1"}',
        "NaN",
        "[1, 2]",
        "\ufeff{}",
        '{"a": Infinity}',
        "{",
    ],
)
def test_fast_reader_is_as_strict_as_the_literal_one(text: str) -> None:
    assert not same(text)["valid"]
    assert not same(text.encode("utf-8"))["valid"]


def test_strings_with_colons_quotes_and_escapes_are_read_like_the_literal_reader() -> None:
    record = selfplay(3)
    record["players"][0]["name"] = 'ana: "the \\":" one"'
    record["event"] = "final: table 1"
    record["played_at"] = "2026-05-01T12:30:00+02:00"
    text = json.dumps(record)
    assert same(text)["valid"]
    assert same(json.dumps(record, ensure_ascii=True, indent=2))["valid"]
    # The same key twice inside a placement, hidden among colons in strings.
    placement = '"rotation": ' + str(record["placements"][0]["rotation"])
    doubled = text.replace(placement, placement + ", " + placement, 1)
    assert same(doubled)["error"]["code"] == "MALFORMED"
    assert same(doubled.replace("final: table 1", "final"))["error"]["code"] == "MALFORMED"


def test_malformed_values_in_a_complete_game() -> None:
    base = selfplay(5)
    changes = [
        ("placements", 0, "rotation", 6),
        ("placements", 1, "tile", True),
        ("placements", 2, "q", 1.0),
        ("placements", 3, "player", 2),
        ("players", 0, "name", " "),
        ("players", 1, "colour", "pink"),
    ]
    for key, index, field, value in changes:
        record = json.loads(json.dumps(base))
        record[key][index][field] = value
        assert same(record)["error"]["code"] == "MALFORMED"
    for extra in ({"clock": [1.5, float("nan")]}, {"claimed_scores": [1]}, {"event": 3}):
        record = json.loads(json.dumps(base))
        record.update(extra)
        assert same(record)["error"]["code"] == "MALFORMED"
    record = json.loads(json.dumps(base))
    record["claimed_scores"] = [0, 0]
    assert same(record)["claimed_scores_match"] is False


def _with(record: dict, path: tuple, value: object) -> str:
    """The record as JSON text with the value at ``path`` replaced."""
    changed = json.loads(json.dumps(record))
    *parents, last = path
    holder = changed
    for step in parents:
        holder = holder[step]
    holder[last] = value
    return json.dumps(changed)


@pytest.mark.parametrize("field", ["player", "tile", "q", "r", "rotation"])
def test_look_alike_numbers_in_placements_are_malformed_as_text(field: str) -> None:
    """The fast reader checks the columns of JSON text in C (bytes(), array()), which take a
    bool for 0 or 1: each field where the game holds a 0 or a 1 gets false or true (the same
    number to Python), 0.0 or 1.0, a string, null or a list, and must stay MALFORMED."""
    wanted = {1} if field == "tile" else {0, 1}  # no tile is numbered 0
    base = next(
        record
        for record in map(selfplay, range(5, 60))
        if wanted <= {p[field] for p in record["placements"]}
    )
    assert same(json.dumps(base))["valid"]
    for number in wanted:
        index = next(i for i, p in enumerate(base["placements"]) if p[field] == number)
        for value in (bool(number), float(number), str(number), None, [number]):
            text = _with(base, ("placements", index, field), value)
            assert same(text)["error"]["code"] == "MALFORMED", (field, value)


def test_look_alike_tiles_and_out_of_range_numbers_as_text() -> None:
    base = selfplay(7)
    where = ("bag", base["bag"].index(1)) if 1 in base["bag"] else None
    for seat, hand in enumerate(base["hands"]):
        if 1 in hand:
            where = ("hands", seat, hand.index(1))
    assert where is not None
    for value in (True, 1.0, "1", None):
        assert same(_with(base, where, value))["error"]["code"] == "MALFORMED", value
    # Beyond what bytes() and array("q") hold: the literal engine words these.
    for field, value in (("q", 2**70), ("r", -(2**64)), ("tile", 300), ("rotation", 6)):
        verdict = same(_with(base, ("placements", 3, field), value))
        assert not verdict["valid"], (field, value)
    # A name that says true or false sends the document down the typed checks; still valid.
    base["players"][0]["name"] = "true false"
    assert same(json.dumps(base))["valid"]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=PLAYERS,
    bag_empty=st.booleans(),
    free=st.booleans(),
)
def test_legal_moves_agree_on_positions_from_games(
    seed: int, players: str, bag_empty: bool, free: bool
) -> None:
    rng = random.Random(seed)
    record = selfplay(seed, players)
    upto = rng.randrange(len(record["placements"]) + 1)
    board = board_of(record, upto)
    used = {tile for tile, _ in board.values()}
    rest = [tile for tile in range(1, 57) if tile not in used]
    if not rest:
        return
    hand = rng.sample(rest, min(len(rest), rng.randint(1, 6)))
    doc = position(board, hand, bag_empty, free)
    assert legal_moves(doc) == literal_legal_moves(doc)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(1, 24), bag_empty=st.booleans())
def test_legal_moves_agree_on_hand_built_boards(seed: int, size: int, bag_empty: bool) -> None:
    """Random colour-matched blobs: holes with four sides and failing closures included."""
    rng = random.Random(seed)
    try:
        board = matching_board(random_blob(rng, size))
    except AssertionError:  # no tile left that matches some cell of this blob
        assume(False)
    used = {tile for tile, _ in board.values()}
    hand = rng.sample([tile for tile in range(1, 57) if tile not in used], 6)
    doc = position(board, hand, bag_empty)
    assert legal_moves(doc) == literal_legal_moves(doc)


def _position_variants() -> list[object]:
    """A position and copies with one thing wrong (or odd but allowed) in each place."""
    board = matching_board([(0, 0), (1, 0), (1, -1)])
    good = position(board, [40, 41, 42])
    variants: list[object] = [good, json.dumps(good), position([], [7]), position([], [7, 7])]
    changes = [
        ("format", "tantrix-position/2"),
        ("format", None),
        ("bag_empty", 0),
        ("free_move_made", None),
        ("hand", []),
        ("hand", [1, 2, 3, 4, 5, 6, 7]),
        ("hand", [40, True]),
        ("hand", [40, 0]),
        ("hand", [40, 57]),
        ("hand", [40, 40]),
        ("hand", (40,)),
        ("board", {}),
        ("extra", 1),
    ]
    for key, value in changes:
        variants.append({**good, key: value})
    variants.append({key: value for key, value in good.items() if key != "hand"})
    entry_changes = [
        ("tile", 0),
        ("tile", 57),
        ("tile", 40),  # also in the hand
        ("tile", 1.0),
        ("q", True),
        ("r", 2**70),
        ("rotation", 6),
        ("rotation", -1),
        ("colour", "red"),
    ]
    for key, value in entry_changes:
        entries = [dict(entry) for entry in good["board"]]
        entries[1][key] = value
        variants.append({**good, "board": entries})
    entries = [dict(entry) for entry in good["board"]]
    del entries[2]["q"]
    variants.append({**good, "board": entries})
    entries = [dict(entry) for entry in good["board"]]
    entries[2]["q"], entries[2]["r"] = entries[0]["q"], entries[0]["r"]  # a cell twice
    variants.append({**good, "board": entries})
    variants.append({**good, "board": [*good["board"], "tile"]})
    return variants


@pytest.mark.parametrize("doc", _position_variants())
def test_the_plain_position_reader_accepts_only_what_the_full_one_accepts(doc: object) -> None:
    """``legal_moves`` reads a parsed position by columns and leaves anything it does not
    accept to the full reader: what it accepts, the full reader accepts with the same result."""
    from games.engine.position import _read_plain, read_position

    plain = _read_plain(doc)
    try:
        full = read_position(doc, whole=False)
    except MalformedPosition:
        assert plain is None
    else:
        # A well-formed parsed position is always read by columns (text goes the full way).
        assert plain == full if type(doc) is dict else plain is None


def test_malformed_positions_raise_the_literal_message() -> None:
    far = position(
        [{"tile": 1, "q": 0, "r": 0, "rotation": 0}, {"tile": 2, "q": 90, "r": 0, "rotation": 0}],
        [3],
    )
    board = matching_board([(0, 0), (1, 0)])
    tile, _ = board[(1, 0)]
    wrong = next(k for k in range(6) if k not in rotations(board, (1, 0), tile))
    board[(1, 0)] = (tile, wrong)
    near = position(board, [9])
    for doc in (far, near):
        with pytest.raises(MalformedPosition) as fast:
            legal_moves(doc)
        with pytest.raises(MalformedPosition) as slow:
            literal_legal_moves(doc)
        assert str(fast.value) == str(slow.value)


def test_a_tile_listed_before_its_neighbours_is_not_left_on_the_reused_grids() -> None:
    """The fast board's grids are zeroed over the box of the tiles and then reused; a
    position's tile that touches no tile listed before it must be zeroed too."""
    board = matching_board([(0, 0), (1, 0), (2, 0)])
    first, middle, last = board.items()
    doc = position(dict([first, last, middle]), [40, 41])
    assert legal_moves(doc) == literal_legal_moves(doc)
    grids = fastboard.grids_take()
    try:
        assert not any(any(grid) for grid in grids)
    finally:
        fastboard.grids_give(grids, 0, 0)


def test_the_reused_grids_are_all_zero_after_legal_and_illegal_replays() -> None:
    """Zeroing only the box of the tiles leaves nothing behind: after complete, perturbed and
    cut-short games (replays that stop halfway through extending the closure) and positions
    with and without a bag, every grid in the pool is zero."""
    rng = random.Random(16)
    for seed in range(40):
        record = selfplay(seed, ["2", "3", "4", "pairs"][seed % 4])
        perturbed = json.loads(json.dumps(record))
        perturb(perturbed, rng)
        short = json.loads(json.dumps(record))
        cut_short(short, rng)
        for variant in (record, perturbed, short):
            adjudicate(json.dumps(variant))
        board = board_of(record, rng.randrange(len(record["placements"]) + 1))
        rest = [tile for tile in range(1, 57) if tile not in {t for t, _ in board.values()}]
        if rest:
            legal_moves(position(board, rng.sample(rest, min(6, len(rest))), seed % 3 == 0))
    pool = []
    while fastboard._POOL:
        pool.append(fastboard.grids_take())
    assert pool
    for grids in pool:
        assert not any(any(grid) for grid in grids)
        fastboard.grids_give(grids, 0, 0)


def _controlled_reference(cell: int, g: tuple[list[int], list[int], list[int]]) -> bool:
    """``fastboard.controlled_ok`` as first written (sets and a dict): the reference for the
    one that simulates the chain on the grid."""
    _, pat, cl = g
    in_closure, side, three = fastboard.IN_CLOSURE, fastboard.SIDE, 3 * fastboard.SIDE
    mine = cl[cell]
    if mine >= in_closure:
        return not any(in_closure <= cl[cell + d] < mine for d in fastboard.DELTAS)
    stack: list[int] = []
    for delta in fastboard.EMPTY_SIDES[pat[cell]]:
        space = cell + delta
        virtual = cl[space]
        if virtual >= in_closure:
            return False
        if pat[space] + side + virtual >= three:
            stack.append(space)
    around = {cell + d for d in fastboard.DELTAS}
    filled = {cell}
    added: dict[int, int] = {}
    while stack:
        space = stack.pop()
        filled.add(space)
        for delta in fastboard.EMPTY_SIDES[pat[space]]:
            near = space + delta
            virtual = cl[near]
            if virtual >= in_closure or near in filled:
                continue
            extra = added.get(near, 0) + 1
            added[near] = extra
            sides = ((pat[near] + virtual) >> 24) + extra + (near in around)
            if sides >= 4:
                return False
            if sides == 3:
                stack.append(near)
    return True


@pytest.mark.parametrize("seed", range(0, 400, 40))
def test_the_in_grid_r3_chain_equals_the_chain_over_sets(seed: int) -> None:
    """``fastboard.controlled_ok`` simulates a placement's chain on the closure grid itself and
    takes every change back. On geometric boards with virtual sides added at random (states a
    valid closure need not reach, so that chains also meet four sides and fail) it answers as
    the version over sets and a dict did, and leaves the grids as they were."""
    outcomes = set()
    for case in range(seed, seed + 40):
        rng = random.Random(case)
        cells = random_blob(rng, rng.randint(2, 30))
        q_low, r_low = min(q for q, _ in cells), min(r for _, r in cells)
        base = fastboard.base_of(q_low, r_low)
        g = fastboard.grids_take()
        try:
            for q, r in cells:
                fastboard.place(q * fastboard.STRIDE + r + base, 6, g, set())
            pat, cl = g[1], g[2]
            spaces = [q * fastboard.STRIDE + r + base for q, r in sorted(frontier(cells))]
            for cell in rng.sample(spaces, rng.randrange(len(spaces) // 3 + 1)):
                sides = (pat[cell] + cl[cell]) >> 24
                if sides < 2:
                    cl[cell] += fastboard.SIDE * rng.randint(1, 2 - sides)
            for cell in spaces:
                before = [list(grid) for grid in g]
                answer = fastboard.controlled_ok(cell, g)
                assert [list(grid) for grid in g] == before
                assert answer == _controlled_reference(cell, g), (case, cells, cell)
                outcomes.add(answer)
        finally:
            q_span, r_span = max(q for q, _ in cells) - q_low, max(r for _, r in cells) - r_low
            fastboard.grids_give(g, q_span, r_span)
    assert outcomes == {True, False}


def alternatives(record: dict, upto: int, rng: random.Random, count: int) -> list[dict]:
    """Records that replace placement ``upto`` (and everything after it) by one other placement,
    then end by a resignation, so that both replays judge that placement and, when it is legal,
    score the board: the mover's hand tiles in every rotation on frontier cells (legal, or
    breaking R1, R2, R3, the forced-play duty or the colours), and a few by the wrong seat, of a
    tile not in hand, on an occupied cell or far away."""
    placements = record["placements"]
    hands = [list(hand) for hand in record["hands"]]
    bag = list(record["bag"])
    for placement in placements[:upto]:
        hands[placement["player"]].remove(placement["tile"])
        if bag:
            hands[placement["player"]].append(bag.pop(0))
    mover = placements[upto]["player"]
    board = board_of(record, upto)
    cells = sorted(frontier(board)) or [(0, 0)]
    seats = len(record["players"])
    candidates = [
        (mover, tile, cell, rotation)
        for tile in hands[mover]
        for cell in cells
        for rotation in range(6)
    ]
    picked = rng.sample(candidates, min(count, len(candidates)))
    other = (mover + 1) % seats
    if hands[other]:
        picked.append((other, rng.choice(hands[other]), rng.choice(cells), 0))
    missing = [tile for tile in range(1, 57) if tile not in hands[mover]]
    picked.append((mover, rng.choice(missing), cells[0], 0))
    if hands[mover]:
        picked.append((mover, hands[mover][0], next(iter(board), (0, 0)), 0))
        picked.append((mover, hands[mover][0], (cells[0][0] + 9, cells[0][1]), 0))
    out = []
    for seat, tile, (q, r), rotation in picked:
        variant = json.loads(json.dumps(record))
        variant["placements"] = placements[:upto] + [
            {"player": seat, "tile": tile, "q": q, "r": r, "rotation": rotation}
        ]
        variant["end"] = {"reason": "resigned", "player": rng.randrange(seats)}
        variant.pop("claimed_scores", None)
        out.append(variant)
    return out


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=PLAYERS, cut=st.floats(0, 1, exclude_max=True))
def test_fast_and_literal_agree_on_every_kind_of_next_placement(
    seed: int, players: str, cut: float
) -> None:
    """Every rule at a random moment of a game, early (R1-R3 apply) or in the endgame."""
    record = selfplay(seed, players)
    upto = int(cut * len(record["placements"]))
    rng = random.Random(seed)
    for variant in alternatives(record, upto, rng, 12):
        same(variant)


def test_next_placements_reach_every_placement_rule() -> None:
    """The generator above does make records that break each placement rule, and legal ones."""
    codes = set()
    for seed in range(12):
        record = selfplay(seed, ["2", "3", "4", "pairs"][seed % 4])
        rng = random.Random(seed)
        for upto in range(1, len(record["placements"]), 4):
            for variant in alternatives(record, upto, rng, 10):
                verdict = same(variant)
                codes.add(verdict["error"]["code"] if not verdict["valid"] else "valid")
    expected = {
        "valid",
        "WRONG_PLAYER",
        "NOT_IN_HAND",
        "OCCUPIED",
        "NOT_ADJACENT",
        "COLOUR_MISMATCH",
        "FORCED_PLAY_REQUIRED",
        "THREE_OF_A_COLOUR",
        "FOUR_SIDED_SPACE",
        "CONTROLLED_SIDE",
    }
    assert expected <= codes, expected - codes


@pytest.mark.parametrize(("seed", "last"), [(0, 19), (13, 17), (52, 13)])
def test_filling_a_closure_space_before_an_earlier_one_is_judged_like_the_literal(
    seed: int, last: int
) -> None:
    """Moments (found by the generator above) where a candidate fills a space of the R3 closure
    while a neighbouring space the simulation fills earlier is still empty: a controlled side
    the fast replay must not accept."""
    record = selfplay(seed, ["2", "3", "4", "pairs"][seed % 4])
    rng = random.Random(seed)
    codes = set()
    for upto in range(1, last + 1, 2):
        for variant in alternatives(record, upto, rng, 12):
            verdict = same(variant)
            codes.add(verdict["error"]["code"] if not verdict["valid"] else "valid")
    assert "CONTROLLED_SIDE" in codes
