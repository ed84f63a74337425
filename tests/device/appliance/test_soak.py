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
