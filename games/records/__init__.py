"""Game records: a submission's envelope and refusals, the stored record, its answer, the
record's pages and API, and its verdict in words. See docs/architecture.md, "Submissions"."""
