"""The simulated camera: realistic frames of BITS and Battle of LITS play,
with the ground truth of every frame.

The pieces, one job each:

- :class:`BoardSpec` the physical board in mm; :class:`Conditions` camera,
  lens, art, light and sensor as named, seeded knobs; ``paint.toml`` the
  nominal colours of the pieces (the renderer's only colour source; the
  reader has its own palettes and must not read this).
- :class:`Scene` what is on the table at one instant (:class:`Piece` at
  rest, :class:`Placed` pieces in motion, :class:`HandPose` hands, a camera
  knock); :class:`Renderer` turns a scene into a frame plus its truth.
- :class:`Script` a timeline of scenes and events; :class:`Choreographer`
  the movements of play; ``games.bits_game`` / ``games.lits_game`` whole
  seeded games through the engines; ``stills.still`` one random position.
- ``device.sources.simulated.SimulatedSource`` serves a script as a frame
  source; ``tilewatch simulate`` writes one to disk.

>>> board = BoardSpec.bits()
>>> shot = Renderer(board, Conditions(tilt_deg=30), (320, 240)).render(Scene())
>>> [len(shot.truth["corners"]), shot.truth["board"][0]]
[4, '......']
"""

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.motion import Choreographer
from device.sim.renderer import Renderer, Shot
from device.sim.scene import HandPose, Piece, Placed, Scene
from device.sim.script import Script

__all__ = [
    "BoardSpec",
    "Choreographer",
    "Conditions",
    "HandPose",
    "Piece",
    "Placed",
    "Renderer",
    "Scene",
    "Script",
    "Shot",
]
