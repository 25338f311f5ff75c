"""Bulk entry (issue 28): an organiser pastes a list of names (or uploads a CSV), each line is
matched to the players the site knows (exactly, then close suggestions), the organiser chooses,
and one confirmation creates the unknown players (without an account) and registers everyone
through the one registration service, or stores nothing.

`matching` is pure (parsing, fuzzy suggestions: difflib, no Django); `selectors` matches lines
against the players; `services` confirms; `forms`, `views`, `api`, `urls` are thin.
"""
