"""Live tracking: from a camera stream to judged placements, without false alarms.

The pieces, from pixels to the table:

- :mod:`device.track.gate`: the stillness gate (nothing is judged while
  anything moves over a board or its ring);
- :mod:`device.track.watch`: one board in one camera's view, frame by frame
  (its place, its reference look, light and view changes, when to read);
- :mod:`device.track.observe`: finding boards (up to 4 in one view),
  keeping them oriented, reading their cells;
- :mod:`device.track.vote`: readings of the still frames voted into one
  :class:`~device.track.vote.Observation`;
- :mod:`device.track.rules`: what the tracker asks of each game's engine;
- :mod:`device.track.tracker`: one board's referee (placed, illegal,
  unsure; settling near ties with the game; re-basing on corrections);
- :mod:`device.track.camera`: every board one camera sees, kept in step
  with the table;
- :mod:`device.track.loop`: the capture loop ``tilewatch serve`` runs in a
  thread (:func:`~device.track.loop.run_loop`);
- :mod:`device.track.scenarios`: simulated play for tests, ``replay``,
  ``bench`` and ``eval track``.
"""
