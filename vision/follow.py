"""Follow the view across a knock: how the picture moved, from the picture itself.

A knocked camera sees the same table from a slightly different place. The
grid locator finds the board afresh from its printed lines, but on a nearly
full ramp (few lines left to see) or a small, turned board it may find
nothing, and every placement until the board empties again would go
unseen. What moved is the whole picture, though, not the board in it: the
table's grain, the ramp's frame, the tiles' symbols all moved together by
one perspective map (the camera turned and shifted over a flat table).

So: corners (ORB) in the picture from before the knock and in the one
after, matched by their descriptors (Lowe's ratio test keeps only clear
matches), and one homography fitted to the matches with RANSAC: a hand in
one picture, or a tile put down since, are the minority RANSAC leaves out.
The grid's corners carried by that map are where the board is now.

>>> import cv2
>>> rng = np.random.default_rng(3)
>>> table = cv2.GaussianBlur(rng.integers(0, 255, (240, 320), np.uint8), (5, 5), 0)
>>> shift = np.array([[1.0, 0.0, 12.0], [0.0, 1.0, -7.0], [0.0, 0.0, 1.0]])
>>> knocked = cv2.warpPerspective(table, shift, (320, 240))
>>> H = view_shift(table, knocked)
>>> carried(np.array([[160.0, 120.0]]), H).round().tolist()
[[172.0, 113.0]]
>>> view_shift(table, np.full_like(table, 128)) is None
True
"""

from __future__ import annotations

import cv2
import numpy as np

# Corners looked for in each picture: enough that a hand over half the
# board leaves plenty, few enough for a few milliseconds at 640x480 (this
# runs only when the locator lost the board).
FEATURES = 1500
# Lowe's ratio test: a match counts only when the runner-up descriptor is
# clearly worse.
RATIO = 0.75
# RANSAC's reprojection tolerance, pixels (a JPEG-noisy corner is off by one
# or two; the ramp's height over the table adds a little parallax).
TOLERANCE_PX = 3.0
# A map is believed with at least this many inlier matches, making up at
# least this share of the clear matches.
MIN_INLIERS = 25
MIN_SHARE = 0.35
# The map's area scale (its linear part's determinant) between these: a
# camera knocked closer or farther by a third at most.
MIN_AREA = 0.5
# ... and turned in the picture by at most this (a camera on an arm knocked
# round by more than that looks at another table).
MAX_TURN_DEG = 25.0


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def view_shift(before: np.ndarray, after: np.ndarray) -> np.ndarray | None:
    """The homography (3x3) carrying pixels of ``before`` to ``after`` (BGR
    or grey images of one camera), or None when the pictures share too
    little to say (a blank view, a different scene)."""
    orb = cv2.ORB.create(FEATURES)
    k1, d1 = orb.detectAndCompute(_grey(before), None)
    k2, d2 = orb.detectAndCompute(_grey(after), None)
    if d1 is None or d2 is None or len(k1) < MIN_INLIERS or len(k2) < MIN_INLIERS:
        return None
    pairs = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(d1, d2, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    if len(good) < MIN_INLIERS:
        return None
    src = np.array([k1[m.queryIdx].pt for m in good], np.float32)
    dst = np.array([k2[m.trainIdx].pt for m in good], np.float32)
    H, inliers = cv2.findHomography(src, dst, cv2.RANSAC, TOLERANCE_PX)
    if H is None or inliers is None:
        return None
    n = int(inliers.sum())
    if n < MIN_INLIERS or n < MIN_SHARE * len(good):
        return None
    H = np.asarray(H, np.float64) / H[2, 2]
    # A knock turns and shifts the camera a little: the picture keeps its
    # handedness, roughly its scale and its way up (a mirror, or a map that
    # shrinks the table to a corner, is a coincidence of repeated corners).
    det = float(np.linalg.det(H[:2, :2]))
    turn = np.degrees(np.arctan2(H[1, 0] - H[0, 1], H[0, 0] + H[1, 1]))
    if not MIN_AREA < det < 1.0 / MIN_AREA or abs(turn) > MAX_TURN_DEG:
        return None
    return np.asarray(H)


def carried(corners: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """``corners`` (n, 2) image pixels moved by ``homography`` (3x3)."""
    pts = np.asarray(corners, np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(pts, homography).reshape(-1, 2))
