"""Could this lattice be square cells seen through a camera lens?

A board's cells are squares. Seen through a pinhole camera (square pixels,
the optical centre near the middle of the picture, focal length unknown),
a plane's grid-to-image homography is ``K [r1 r2 t]`` up to scale, where
``r1`` and ``r2`` are the board's axes in the camera's frame: perpendicular
and of equal length. So for the right focal length, ``K^-1`` times the
homography's first two columns gives two perpendicular vectors of equal
length (Zhang's calibration constraints). A lattice found over half of a
board stretched to the whole grid (cells twice as tall as wide), or one
sheared across a ramp's rail, meets them for no focal length at all.

The misfit is the smaller, over plausible lenses (20 to 130 degrees across
the picture), of the larger of |cos| of the angle between the axes and
|log| of their length ratio. Boards found right score about 0.01 (up to
0.04 with a strong barrel), a lattice of 2:1 cells about 0.5.

>>> import numpy as np
>>> from vision.rectify import homography_from_corners
>>> square = homography_from_corners([[200, 100], [440, 100], [440, 340], [200, 340]], 6, 6)
>>> round(square_misfit(square, (640, 480)), 3)
0.0
>>> tall = homography_from_corners([[260, 100], [380, 100], [380, 340], [260, 340]], 6, 6)
>>> round(square_misfit(tall, (640, 480)), 2)
0.69
"""

from __future__ import annotations

import numpy as np

# Lenses tried: horizontal fields of view, degrees.
FIELDS_DEG = np.linspace(20.0, 130.0, 56)


def square_misfit(homography: np.ndarray, image_size: tuple[int, int]) -> float:
    """How far a lattice is from square cells seen by a camera (0 = could be).

    ``homography``: image -> grid (3x3, as :class:`vision.gridfit.GridFit`
    holds it); ``image_size``: (width, height) of the picture in pixels."""
    w, h = image_size
    try:
        to_image = np.linalg.inv(np.asarray(homography, dtype=np.float64))
    except np.linalg.LinAlgError:
        return float("inf")
    centred = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]]) @ to_image
    f = (w / 2) / np.tan(np.radians(FIELDS_DEG) / 2)  # (F,)
    axes = np.repeat(centred[None, :, :2], len(f), axis=0)  # (F, 3, 2)
    axes[:, :2, :] /= f[:, None, None]
    a, b = axes[..., 0], axes[..., 1]
    na, nb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
    if not (np.all(na > 0) and np.all(nb > 0)):
        return float("inf")
    cos = np.abs((a * b).sum(axis=-1)) / (na * nb)
    ratio = np.abs(np.log(na / nb))
    return float(np.maximum(cos, ratio).min())
