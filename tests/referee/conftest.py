"""Every scenario test runs twice: on a table whose reeds tell the colour of a man
(polarity) and on one with a single reed a slot (occupancy); the verdicts must agree."""

import pytest

from tests.referee import hands


@pytest.fixture(autouse=True, params=["polarity", "occupancy"])
def sensing(request):
    """The sensing mode of the table every scenario of the test runs on."""
    hands.SENSING[0] = request.param
    yield request.param
    hands.SENSING[0] = "polarity"
