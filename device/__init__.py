"""The running appliance: frame sources, the tracking loop, persistence, config,
the `tilewatch` CLI, systemd notify/watchdog. Uses engine, vision, calibration."""
