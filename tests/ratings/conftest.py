# The real-worker fixtures live with the other integration tests; the ratings' own integration
# tests use them from here.
from tests.integration.conftest import start_worker  # noqa: F401
