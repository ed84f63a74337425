"""Frame sources: everything that gives the tracking loop camera frames.

All sources share one small interface (:class:`FrameSource`) so the loop does
not care whether frames come from a Pi camera, a USB webcam, a video file, a
folder of photos or the simulator.
"""

from device.sources.base import Frame, FrameSource, SourceGone

__all__ = ["Frame", "FrameSource", "SourceGone"]
