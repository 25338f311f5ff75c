"""CPU time used by the processes of a benchmark, read from /proc (Linux).

A process's CPU is its user plus system time; a process tree's is the sum over the processes
alive at the moment of reading. PostgreSQL starts a backend per connection and may end it, so
its figure also counts what the postmaster has reaped from ended backends (`cutime`, `cstime`).
Figures are differences of two readings, so a long-lived process contributes only what it used in
between.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class _Stat:
    pid: int
    ppid: int
    comm: str
    cpu: float  # seconds, this process
    reaped: float  # seconds, its ended and waited-for children


def _stat(pid: int) -> _Stat | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None  # ended between the listing and the reading
    # The command name is in parentheses and may hold spaces; the fields follow the last ")".
    comm = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return _Stat(pid, int(fields[1]), comm, (utime + stime) / _TICKS, (cutime + cstime) / _TICKS)


def _all() -> list[_Stat]:
    stats = (_stat(int(name)) for name in os.listdir("/proc") if name.isdigit())
    return [stat for stat in stats if stat is not None]


def tree_seconds(root_pids: list[int]) -> float:
    """CPU seconds of the processes in the trees under `root_pids` (roots included)."""
    stats = _all()
    children: dict[int, list[_Stat]] = {}
    for stat in stats:
        children.setdefault(stat.ppid, []).append(stat)
    by_pid = {stat.pid: stat for stat in stats}
    total, todo = 0.0, [by_pid[pid] for pid in root_pids if pid in by_pid]
    while todo:
        stat = todo.pop()
        total += stat.cpu + stat.reaped
        todo.extend(children.get(stat.pid, []))
    return total


def named_seconds(comm: str) -> float:
    """CPU seconds of every process called `comm` (e.g. "postgres", "redis-server"), plus what
    the topmost of them have reaped from ended children (PostgreSQL's ended backends)."""
    stats = [stat for stat in _all() if stat.comm.startswith(comm)]
    pids = {stat.pid for stat in stats}
    return sum(stat.cpu + (stat.reaped if stat.ppid not in pids else 0.0) for stat in stats)


@dataclass
class CpuMeter:
    """Readings of the web, worker, database and broker processes of a run."""

    web_roots: list[int]
    worker_roots: list[int]

    def read(self) -> dict[str, float]:
        return {
            "web": tree_seconds(self.web_roots),
            "worker": tree_seconds(self.worker_roots),
            "postgres": named_seconds("postgres"),
            "redis": named_seconds("redis-server"),
        }
