"""Every scenario file in tests/games/strategic/scenarios/ must hold."""

from pathlib import Path

import pytest

from engine.strategic.scenario import run_file
from renderers.strategic.painter import paint

SCENARIOS = sorted(Path(__file__).parent.glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    report = run_file(path, painter=paint)
    assert report.ok, "\n".join([f"{path.name}: {report.name}", *report.failures])
