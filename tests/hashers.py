"""A quick password hasher for the test processes.

Django 5.2 hashes with 1,000,000 PBKDF2 iterations (about half a second here), and fixtures
create accounts by the hundred. The hash keeps the standard `pbkdf2_sha256` format with its
iteration count, so worker and web processes started by the tests verify it with Django's own
hasher.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
