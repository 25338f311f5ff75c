"""Command line: ``python -m games.engine adjudicate|moves|selfplay`` (game-record.md).

- ``adjudicate RECORD.json [...]``: one verdict per line, in order (``-`` is standard input).
  Exit 0 when all are valid, 1 when any is invalid, 2 when any file cannot be read (its line
  is then an ``UNREADABLE`` verdict).
- ``moves POSITION.json``: ``{"moves": [...]}``. Exit 0; 1 for a malformed position (the
  reason goes to standard error); 2 when the file cannot be read.
- ``selfplay --seed N [--players 2|3|4|pairs]``: one complete random record.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .adjudicate import adjudicate, invalid
from .errors import UNREADABLE, MalformedPosition
from .position import legal_moves
from .selfplay import PLAYER_CHOICES, selfplay


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def _why(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def dump_record(record: dict[str, Any]) -> str:
    """A record as JSON laid out like the spec's examples: one placement per line."""
    lines = ["{"]
    items = list(record.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key == "placements" and value:
            lines.append(f"  {json.dumps(key)}: [")
            for i, placement in enumerate(value):
                tail = "," if i < len(value) - 1 else ""
                lines.append(f"    {json.dumps(placement)}{tail}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def _adjudicate(paths: list[str]) -> int:
    status = 0
    for path in paths:
        try:
            data = _read(path)
        except OSError as exc:
            name = "standard input" if path == "-" else path
            verdict = invalid(UNREADABLE, None, None, f"cannot read {name}: {_why(exc)}")
            status = 2
        else:
            verdict = adjudicate(data)
            if not verdict["valid"] and status == 0:
                status = 1
        print(json.dumps(verdict), flush=True)
    return status


def _moves(path: str) -> int:
    try:
        data = _read(path)
    except OSError as exc:
        print(f"cannot read {path}: {_why(exc)}", file=sys.stderr)
        return 2
    try:
        moves = legal_moves(data)
    except MalformedPosition as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(json.dumps({"moves": moves}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description="The Tantrix rules engine."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    judge = commands.add_parser("adjudicate", help="judge game records (tantrix-game/1)")
    judge.add_argument("records", nargs="+", metavar="RECORD.json", help="a file, or - for stdin")
    moves = commands.add_parser("moves", help="legal moves of a position (tantrix-position/1)")
    moves.add_argument("position", metavar="POSITION.json", help="a file, or - for stdin")
    play = commands.add_parser("selfplay", help="print a complete, randomly played record")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--players", choices=PLAYER_CHOICES, default="2")
    args = parser.parse_args(argv)

    if args.command == "adjudicate":
        return _adjudicate(args.records)
    if args.command == "moves":
        return _moves(args.position)
    print(dump_record(selfplay(args.seed, args.players)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
