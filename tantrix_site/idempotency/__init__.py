"""Idempotency-Key: the first answer to a request that carried one, replayed for its repeats.

An app of its own (installed as `tantrix_site.idempotency`) because it keeps a table, and Django
keeps models only in installed apps; the project package itself is no app. It knows nothing of
games: a view opts in (`idempotent = True`, or the `idempotent` decorator) and the middleware
does the rest (docs/architecture.md, "Submissions").
"""
