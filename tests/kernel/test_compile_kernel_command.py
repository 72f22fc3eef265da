"""``ashfall compile-kernel`` compiles (or loads) both of the kernel's entry points, as a setup step would want."""

from __future__ import annotations

from typing import Any, cast

from typer.testing import CliRunner

from ashfall.cli.app import app


def test_compile_kernel__leaves_play_batch_and_play_ready_for_the_simulator_and_the_recording_path() -> None:
    import ashfall.kernel.fight as kf

    done = CliRunner().invoke(app, ["compile-kernel"])
    assert done.exit_code == 0, done.output
    assert "fight kernel compiled and cached" in done.output
    assert len(cast(Any, kf.play_batch).signatures) == 1  # the simulator's loop
    assert len(cast(Any, kf.play).signatures) == 1  # the recording path's, the one play_batch calls
