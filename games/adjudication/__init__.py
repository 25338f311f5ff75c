"""Adjudication: records claimed (`claims`), judged by the engine and stored once (`services`),
and records left behind queued again (`sweep`). A submission queues its own record
(`games/records/queueing.py`). See docs/architecture.md, "Adjudication"."""
