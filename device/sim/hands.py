"""A hand and forearm over the table, drawn in the image in true perspective.

The hand is a few flat parts (sleeve, forearm, palm, thumb, four fingers),
each an outline with a height per point, so projecting it through the same
:class:`~device.sim.camera.Camera` as the board puts it exactly where a real
hand at that height would appear, with its shadow cast on the board below.
Sizes are an adult hand's, in mm.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from device.sim.camera import Camera
from device.sim.scene import HandPose
from device.sim.solids import Light, inset

_SHIFT = 3
_LIMIT = 1e6

# (knuckle offset across the hand, length, width, splay degrees) for index,
# middle, ring and little finger; the thumb is on the +v side.
_FINGERS = (
    (26.0, 72.0, 17.0, -7.0),
    (8.0, 80.0, 18.0, -2.0),
    (-10.0, 76.0, 17.0, 3.0),
    (-27.0, 62.0, 15.0, 9.0),
)
_PALM_BACK, _PALM_FRONT, _PALM_HALF = -52.0, 42.0, 41.0
_ARM_RISE = math.tan(math.radians(18))


def _capsule(base: np.ndarray, tip: np.ndarray, width: float, n: int = 7) -> np.ndarray:
    """A finger-like outline: straight sides, round tip, flat base (2D)."""
    d = tip - base
    length = float(np.linalg.norm(d)) or 1.0
    u = d / length
    v = np.array([-u[1], u[0]])
    r = width / 2
    pts = [base + v * r]
    for k in range(n + 1):
        a = math.pi * k / n
        pts.append(tip - u * r + v * r * math.cos(a) + u * r * math.sin(a))
    pts.append(base - v * r)
    return np.array(pts)


def hand_parts(pose: HandPose) -> list[tuple[str, np.ndarray]]:
    """The hand's parts, farthest-from-camera first: ``(kind, (N, 3) board mm)``."""
    palm = np.array([pose.x_mm, pose.y_mm])
    toward = palm - np.asarray(pose.shoulder, dtype=np.float64)
    toward /= max(float(np.linalg.norm(toward)), 1e-6)
    across = np.array([-toward[1], toward[0]]) * (-1.0 if pose.left else 1.0)
    curl = min(max(pose.curl, 0.0), 1.0)

    def world(uv: np.ndarray, heights: np.ndarray | float) -> np.ndarray:
        xy = palm + uv[:, :1] * toward + uv[:, 1:2] * across
        h = np.broadcast_to(np.asarray(heights, dtype=np.float64), (len(uv),))
        return np.column_stack([xy, -h])

    parts: list[tuple[str, np.ndarray]] = []
    h = pose.height_mm
    # forearm and sleeve run straight back to the shoulder, rising as they go
    reach = float(np.linalg.norm(np.asarray(pose.shoulder) - palm)) + 40.0
    wrist = _PALM_BACK + 6
    for kind, start, end, w0, w1 in (
        ("sleeve", wrist - 170.0, -reach, 92.0, 108.0),
        ("arm", wrist, wrist - 180.0, 58.0, 78.0),
    ):
        if end >= start:
            continue
        uv = np.array([[start, w0 / 2], [end, w1 / 2], [end, -w1 / 2], [start, -w0 / 2]])
        heights = h + 10.0 + (wrist - uv[:, 0]) * _ARM_RISE
        parts.append((kind, world(uv, heights)))
    # palm: a rounded box, narrower at the wrist
    t = np.linspace(0, math.pi / 2, 5)
    r = 14.0
    front = [(_PALM_FRONT - r + r * math.sin(a), _PALM_HALF - r + r * math.cos(a)) for a in t]
    front += [(_PALM_FRONT - r + r * math.cos(a), -_PALM_HALF + r - r * math.sin(a)) for a in t]
    palm_uv = np.array([*front, (_PALM_BACK, -30.0), (_PALM_BACK, 30.0)])
    parts.append(("palm", world(palm_uv, h)))
    # thumb: from the palm's side, towards the fingers as the hand grips
    angle = math.radians(55 - 30 * curl)
    t_base = np.array([_PALM_BACK + 38, _PALM_HALF - 8])
    t_tip = t_base + 60 * (1 - 0.25 * curl) * np.array([math.cos(angle), math.sin(angle)])
    thumb = _capsule(t_base, t_tip, 23.0)
    parts.append(("thumb", world(thumb, h - 8 * curl - (thumb[:, 0] - t_base[0]) * 0.12 * curl)))
    for offset, length, width, splay in _FINGERS:
        a = math.radians(splay * (1 - 0.6 * curl))
        base = np.array([_PALM_FRONT - 10, offset])
        # curled fingers look shorter from above and reach down
        visible = length * (1 - 0.5 * curl)
        tip = base + visible * np.array([math.cos(a), math.sin(a)])
        finger = _capsule(base, tip, width)
        drop = (finger[:, 0] - base[0]) / max(visible, 1.0) * 28.0 * curl
        parts.append(("finger", world(finger, np.maximum(h - drop, 4.0))))
    return parts


def _to_int(points: np.ndarray) -> np.ndarray:
    fixed: np.ndarray = np.round(np.clip(points, -_LIMIT, _LIMIT) * (1 << _SHIFT)).astype(np.int32)
    return fixed


def draw_hands(
    image: np.ndarray, camera: Camera, hands: tuple[HandPose, ...], light: Light
) -> np.ndarray:
    """Draw ``hands`` (and their shadows) onto ``image`` (BGR uint8, in
    place); returns the mask (uint8, 255 = hand or arm) of covered pixels."""
    mask = np.zeros(image.shape[:2], np.uint8)
    if not hands:
        return mask
    _shade_board(image, camera, hands, light)
    for pose in hands:
        skin = np.asarray(pose.skin, dtype=np.float64)
        for kind, pts in hand_parts(pose):
            outline = _to_int(camera.project(pts))
            base = np.asarray(pose.sleeve if kind == "sleeve" else skin, dtype=np.float64)
            # a darker rim first, then the lit inside: reads as rounded flesh
            # and separates the fingers
            rim = tuple(float(v) for v in base * 0.72)
            cv2.fillPoly(image, [outline], rim, cv2.LINE_AA, _SHIFT)
            cv2.fillPoly(mask, [outline], 255, cv2.LINE_8, _SHIFT)
            inner = np.column_stack([inset(pts[:, :2], 2.2), pts[:, 2]])
            lit = base * (1.06 if kind in ("finger", "thumb") else 1.0)
            cv2.fillPoly(
                image,
                [_to_int(camera.project(inner))],
                tuple(float(v) for v in np.clip(lit, 0, 255)),
                cv2.LINE_AA,
                _SHIFT,
            )
    return mask


def _shade_board(
    image: np.ndarray, camera: Camera, hands: tuple[HandPose, ...], light: Light
) -> None:
    """Soft shadows of the hands on the board, drawn at quarter resolution."""
    h, w = image.shape[:2]
    small = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
    height_sum = 0.0
    count = 0
    for pose in hands:
        for _, pts in hand_parts(pose):
            heights = -pts[:, 2]
            ground = pts[:, :2] + np.array([light.shadow_offset(float(z)) for z in heights])
            flat = np.column_stack([ground, np.zeros(len(ground))])
            cv2.fillPoly(small, [_to_int(camera.project(flat) / 4.0)], 1.0, cv2.LINE_8, _SHIFT)
            height_sum += float(heights.mean())
            count += 1
    # the higher the hand, the softer its shadow (the lamp is not a point)
    softness_mm = 0.08 * height_sum / max(count, 1) + 3.0
    sigma = softness_mm * camera.focal / max(camera.elevation_mm, 1.0) / 4.0
    small = cv2.GaussianBlur(small, (0, 0), max(sigma, 0.6))
    factor = 1.0 - 0.42 * cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    image[:] = cv2.multiply(image, cv2.merge([factor, factor, factor]), dtype=cv2.CV_8U)
