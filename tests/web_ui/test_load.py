"""30 phones on the event stream while placements happen, against the real
service in its own process on loopback. Every phone must get every change;
latency and memory are measured and printed, never asserted (machines
differ): ``make bench`` or ``python -m web_ui.tools.loadtest`` for figures."""

from __future__ import annotations

from web_ui.tools import loadtest


def test_thirty_phones_each_get_every_change(benchmark, capsys):
    result = benchmark.pedantic(loadtest.run, kwargs={"clients": 30, "placements": 40}, rounds=1)
    benchmark.extra_info.update(
        latency_median_ms=result["latency_ms"]["median"],
        latency_p95_ms=result["latency_ms"]["p95"],
        server_rss_kb=result["server"]["rss_kb_after"],
    )
    with capsys.disabled():
        print("\n" + loadtest.report(result))
    assert result["connected"] == 30
    assert result["events"] == 40
    assert result["clients_with_every_event"] == 30
    assert result["deliveries"] == 30 * 40


def test_thirty_pages_refetching_after_each_change_still_get_every_change(capsys):
    """As the page's script does: each phone fetches the table again after a
    change; the server draws it once per change for all of them."""
    result = loadtest.run(clients=30, placements=15, gap=0.05, pages=True)
    with capsys.disabled():
        print("\n" + loadtest.report(result))
    assert result["clients_with_every_event"] == 30 and result["events"] == 15
    assert result["shown_ms"]["median"] is not None
