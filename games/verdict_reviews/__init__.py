"""Verdict reviews: stored records judged again by the current engine (`readjudication`), and
the reviews of changed verdicts that site staff approve or reject (`services`, `selectors`, the
pages and the API). History is never rewritten without a review."""
