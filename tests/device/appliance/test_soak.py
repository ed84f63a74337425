"""A short soak (the README quotes the 10-minute run of `tilewatch soak`,
which spans several games): after warm-up the process does not grow
memory, threads or file handles while it tracks and serves."""

from device.soak import soak, summary


def test_memory_threads_and_files_stay_flat():
    result = summary(soak(minutes=1.0, every_s=15.0))
    assert result["stream_minutes"] >= 1.0
    threads, files = result["threads"], result["open_files"]
    assert threads["end"] == threads["after_warmup"]
    assert files["end"] <= files["after_warmup"] + 2
    # No steady climb: allow for allocator noise, not for a frame a second
    # (one 640x480 frame kept per second would be 55 MB over these 45 s).
    assert result["rss_mb"]["growth"] < 10


def test_a_replaced_tracker_is_freed(tmp_path):
    # Every demo game (and every calibration) runs the loop with a new
    # tracker; the table must not keep the old ones (and their frames) alive.
    import gc
    import weakref

    from device.store import Store
    from device.table import Table
    from device.track.camera import CameraTracker

    table = Table(Store(tmp_path / "t.sqlite"), pin="1234")
    tracker = CameraTracker(table)
    gone = weakref.ref(tracker)
    tracker.close()
    del tracker
    gc.collect()
    assert gone() is None
    table.close()
