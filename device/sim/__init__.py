"""The simulated camera: realistic frames of BITS and Battle of LITS play,
with the ground truth of every frame.

``Renderer`` draws a :class:`Scene` (pieces at rest and in motion, hands,
camera knocks) under named :class:`Conditions`; scripts in ``device.sim``
turn games into timed scenes; ``device.sources.simulated`` serves them as
a frame source.
"""
