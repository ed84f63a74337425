"""The notify protocol against a real datagram socket standing in for systemd."""

import os
import socket

import pytest

from device.notify import Notifier


@pytest.fixture
def systemd_socket(tmp_path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def test_ready_watchdog_status_reach_the_socket(systemd_socket, monkeypatch):
    path, sock = systemd_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier()
    assert notifier.enabled
    assert notifier.watchdog_interval == 15.0  # half of WatchdogSec=30
    assert notifier.ready("camera and page up")
    assert sock.recv(4096) == b"READY=1\nSTATUS=camera and page up"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_address(monkeypatch):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"tilewatch-test-{os.getpid()}"
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier("@" + name).ready()
        assert sock.recv(64) == b"READY=1"
    finally:
        sock.close()


def test_outside_systemd_everything_is_a_quiet_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    notifier = Notifier()
    assert not notifier.enabled and notifier.watchdog_interval is None
    assert notifier.ready() is False and notifier.watchdog() is False


def test_watchdog_meant_for_another_process_is_ignored(monkeypatch, tmp_path):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert Notifier(str(tmp_path / "x")).watchdog_interval is None


def test_a_vanished_socket_does_not_raise(tmp_path):
    assert Notifier(str(tmp_path / "gone.sock")).ready() is False


def test_a_receiver_that_does_not_read_never_blocks_the_sender(tmp_path):
    path = tmp_path / "full.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    try:
        notifier = Notifier(str(path))
        # Fill the receiver's queue: sends then fail (False) instead of blocking.
        results = [notifier.watchdog() for _ in range(5000)]
        assert results[0] is True
        assert results[-1] is False
    finally:
        sock.close()
