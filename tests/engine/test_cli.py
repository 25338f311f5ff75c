"""``python -m games.engine``, run as a subprocess from the repository root."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .support import EXAMPLES, REPO, position


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def lines(result: subprocess.CompletedProcess[str]) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture(scope="module")
def game_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    result = run("selfplay", "--seed", "7")
    assert result.returncode == 0, result.stderr
    path.write_text(result.stdout)
    return path


def test_selfplay_prints_a_valid_reproducible_record(game_file: Path) -> None:
    again = run("selfplay", "--seed", "7")
    assert again.stdout == game_file.read_text()
    record = json.loads(again.stdout)
    assert record["format"] == "tantrix-game/1" and len(record["players"]) == 2
    pairs = run("selfplay", "--seed", "7", "--players", "pairs")
    assert len(json.loads(pairs.stdout)["players"]) == 4


def test_adjudicate_valid_records_exit_0(game_file: Path) -> None:
    result = run("adjudicate", str(game_file), str(game_file))
    assert result.returncode == 0
    verdicts = lines(result)
    assert len(verdicts) == 2 and all(v["valid"] for v in verdicts)


def test_adjudicate_reads_standard_input(game_file: Path) -> None:
    result = run("adjudicate", "-", stdin=game_file.read_text())
    assert result.returncode == 0 and lines(result)[0]["valid"]


@pytest.mark.skipif(not EXAMPLES.exists(), reason=f"{EXAMPLES} is absent")
def test_adjudicate_examples_in_order_exit_1_when_one_is_invalid() -> None:
    names = ["two-player", "invalid-rotation", "pairs"]
    result = run("adjudicate", *(str(EXAMPLES / f"{name}.json") for name in names))
    assert result.returncode == 1
    expected = [json.loads((EXAMPLES / f"{name}.verdict.json").read_text()) for name in names]
    assert lines(result) == expected


def test_malformed_record_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run("adjudicate", str(bad))
    assert result.returncode == 1
    assert lines(result)[0]["error"]["code"] == "MALFORMED"


def test_unreadable_file_exits_2_with_its_own_line(game_file: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    result = run("adjudicate", str(game_file), str(missing), str(game_file))
    assert result.returncode == 2
    verdicts = lines(result)
    assert [v["valid"] for v in verdicts] == [True, False, True]
    assert verdicts[1]["error"]["code"] == "UNREADABLE"
    assert str(missing) in verdicts[1]["error"]["message"]


def test_moves_prints_the_legal_moves(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position([], [3, 4])))
    result = run("moves", str(path))
    assert result.returncode == 0
    moves = json.loads(result.stdout)["moves"]
    assert len(moves) == 12 and {(m["q"], m["r"]) for m in moves} == {(0, 0)}


def test_moves_exit_1_for_a_malformed_position() -> None:
    result = run("moves", "-", stdin='{"format": "tantrix-position/1"}')
    assert result.returncode == 1
    assert "malformed position" in result.stderr and result.stdout == ""


def test_moves_exit_2_for_an_unreadable_file(tmp_path: Path) -> None:
    result = run("moves", str(tmp_path / "nowhere.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_usage_errors_exit_2() -> None:
    assert run().returncode == 2
    assert run("selfplay").returncode == 2
    assert run("selfplay", "--seed", "1", "--players", "5").returncode == 2
