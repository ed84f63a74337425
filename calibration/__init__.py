"""Calibration profiles: board geometry, orientation, palette, camera controls;
how a profile is made (one-confirm wizard, auto-fit) and stored. May use vision."""
