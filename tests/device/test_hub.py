"""The change fan-out: ids, catch-up after a reconnect, resync, closing."""

from __future__ import annotations

import threading

import pytest

from device.hub import Hub, HubClosed


def test_a_new_listener_resyncs_then_follows():
    hub = Hub()
    hub.publish("game", {"n": 1})
    sub = hub.subscribe()
    assert sub.resync
    hub.publish("game", {"n": 2})
    got = sub.next(timeout=1)
    assert [m.data["n"] for m in got] == [2]
    assert got[0].id == f"{hub.run}-2"


def test_a_reconnecting_listener_gets_exactly_what_it_missed():
    hub = Hub()
    first = hub.publish("game", {"n": 1})
    for n in (2, 3, 4):
        hub.publish("game", {"n": n})
    sub = hub.subscribe(last_event_id=first.id)
    assert not sub.resync
    assert [m.data["n"] for m in sub.next(timeout=1)] == [2, 3, 4]


def test_an_id_from_another_run_or_garbage_means_resync():
    hub = Hub()
    hub.publish("game", {})
    for stale in ("deadbeef-1", "nonsense", "", "x" * 500, f"{hub.run}-999"):
        assert hub.subscribe(last_event_id=stale).resync, stale


def test_a_listener_too_far_behind_is_told_to_resync():
    hub = Hub(keep=3)
    sub = hub.subscribe()
    sub.resync = False
    for n in range(10):
        hub.publish("game", {"n": n})
    assert sub.next(timeout=1) == []
    assert sub.resync
    hub.publish("game", {"n": 10})
    assert [m.data["n"] for m in sub.next(timeout=1)] == [10]


def test_next_times_out_empty_and_close_wakes_waiters():
    hub = Hub()
    sub = hub.subscribe()
    assert sub.next(timeout=0.01) == []
    woke: list[str] = []

    def wait() -> None:
        try:
            sub.next(timeout=30)
        except HubClosed:
            woke.append("closed")

    th = threading.Thread(target=wait)
    th.start()
    hub.close()
    th.join(timeout=5)
    assert woke == ["closed"]
    with pytest.raises(HubClosed):
        sub.next(timeout=1)


def test_many_listeners_each_get_every_message_once():
    hub = Hub()
    subs = [hub.subscribe() for _ in range(30)]
    seen: list[list[int]] = [[] for _ in subs]

    def follow(i: int) -> None:
        while len(seen[i]) < 50:
            seen[i].extend(m.data["n"] for m in subs[i].next(timeout=5))

    threads = [threading.Thread(target=follow, args=(i,)) for i in range(30)]
    for th in threads:
        th.start()
    for n in range(50):
        hub.publish("game", {"n": n})
    for th in threads:
        th.join(timeout=10)
    assert all(s == list(range(50)) for s in seen)
