"""The camera feed tells the table once when the lamp is past what the camera corrects (too
dim), keeps quiet while it stays so, a new hand's fresh tracker included, and says when the
light is right again."""

from __future__ import annotations

import numpy as np

from table.live.camera import CameraFeed
from vision.calibration import calibrate
from vision.mat import mat_layout
from vision.simulator import MatScene

from .camera_fakes import PlaySession, standard_faces


def test_a_dark_mat_is_told_once_and_its_end_too() -> None:
    session = PlaySession()
    scene = MatScene.create(mat_layout(3), standard_faces(), 21)
    feed = CameraFeed(lambda: session, 3, calibration=calibrate(scene.render(), scene.layout))
    light = {"gain": 1.0}

    def watch(frames: int) -> None:
        for _ in range(frames):
            feed.process(np.clip(scene.render() * light["gain"], 0, 255).astype(np.uint8))

    def kinds() -> list[str]:
        return [a.kind for a in session.alerts]

    watch(20)
    assert kinds() == []
    light["gain"] = 0.1
    watch(20)
    assert kinds() == ["camera-dark"]
    assert "too dark" in session.alerts[0].text and session.alerts[0].details["fault"] == "dark"
    assert feed.tracker is not None
    feed.use_calibration(feed.tracker.calibration)     # the next hand's fresh tracker
    watch(20)
    assert kinds() == ["camera-dark"]
    light["gain"] = 1.0
    watch(20)
    assert kinds() == ["camera-dark", "camera-light-ok"]
