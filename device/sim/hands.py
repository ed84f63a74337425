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
from device.sim.solids import Light

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
    angle = math.radians(55 - 40 * curl)
    t_base = np.array([_PALM_BACK + 38, _PALM_HALF - 8])
    t_tip = t_base + 60 * (1 - 0.3 * curl) * np.array([math.cos(angle), math.sin(angle)])
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
        if curl < 0.6:  # nails show on a flat hand, face down on a gripping one
            u = (tip - base) / max(float(np.linalg.norm(tip - base)), 1e-6)
            nail = _capsule(tip - u * 13.0, tip - u * 3.0, width * 0.55, n=5)
            parts.append(("nail", world(nail, np.maximum(h - 28.0 * curl, 4.0) - 0.5)))
    return parts


def _to_int(points: np.ndarray) -> np.ndarray:
    fixed: np.ndarray = np.round(np.clip(points, -_LIMIT, _LIMIT) * (1 << _SHIFT)).astype(np.int32)
    return fixed


_CREASED = ("finger", "thumb")  # parts whose outline shows as a crease over the hand
_SHADOW_DARKNESS = 0.42


class HandsLayer:
    """Hands projected into one camera, ready to draw: their outlines and
    shadows in pixels, so the renderer can ask where they are before it
    decides which part of the frame to redraw."""

    def __init__(self, camera: Camera, hands: tuple[HandPose, ...], light: Light) -> None:
        self.camera = camera
        self.size = camera.size
        self.parts: list[tuple[str, np.ndarray, tuple[float, float, float]]] = []
        self.shadows: list[np.ndarray] = []
        per_mm = light.shadow_offset(1.0)  # the offset grows linearly with height
        heights = []
        for pose in hands:
            skin = np.asarray(pose.skin, dtype=np.float64)
            nail = skin * 0.55 + np.array([215.0, 215.0, 240.0]) * 0.45
            for kind, pts in hand_parts(pose):
                colour = (
                    nail
                    if kind == "nail"
                    else np.asarray(pose.sleeve if kind == "sleeve" else skin)
                )
                self.parts.append((kind, camera.project(pts), tuple(float(v) for v in colour)))  # type: ignore[arg-type]
                if kind == "nail":
                    continue
                lift = -pts[:, 2]
                ground = pts[:, :2] + lift[:, None] * per_mm
                self.shadows.append(
                    camera.project(np.column_stack([ground, np.zeros(len(ground))]))
                )
                heights.append(float(lift.mean()))
        # the higher the hand, the softer its shadow (the lamp is not a point)
        softness_mm = 0.08 * float(np.mean(heights)) + 3.0 if heights else 3.0
        self.shadow_sigma = max(softness_mm * camera.focal / max(camera.elevation_mm, 1.0), 2.4)

    def bounds(self) -> tuple[int, int, int, int] | None:
        """Pixel box (x0, y0, x1, y1) the hands and their shadows touch."""
        if not self.parts:
            return None
        pts = np.concatenate([p for _, p, _ in self.parts] + self.shadows)
        w, h = self.size
        pad = 3 * self.shadow_sigma + 2
        x0 = int(np.clip(np.floor(pts[:, 0].min() - pad), 0, w))
        y0 = int(np.clip(np.floor(pts[:, 1].min() - pad), 0, h))
        x1 = int(np.clip(np.ceil(pts[:, 0].max() + pad), 0, w))
        y1 = int(np.clip(np.ceil(pts[:, 1].max() + pad), 0, h))
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def draw(self, image: np.ndarray, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
        """Draw shadows and hands onto ``image`` (BGR uint8, in place), a
        window of the frame whose top-left pixel is ``origin``; returns the
        mask (uint8, 255 = hand or arm) of the window."""
        mask = np.zeros(image.shape[:2], np.uint8)
        if not self.parts:
            return mask
        shift = np.asarray(origin, dtype=np.float64)
        self._shade(image, shift)
        colour = np.zeros_like(image)
        creases = np.zeros(image.shape[:2], np.uint8)
        for kind, px, col in self.parts:
            outline = _to_int(px - shift)
            if kind == "nail":
                cv2.fillPoly(colour, [outline], col, cv2.LINE_AA, _SHIFT)
                continue
            cv2.fillPoly(colour, [outline], col, cv2.LINE_8, _SHIFT)
            cv2.fillPoly(mask, [outline], 255, cv2.LINE_AA, _SHIFT)
            if kind in _CREASED:
                cv2.polylines(creases, [outline], True, 255, 1, cv2.LINE_8, _SHIFT)
        bx, by, bw, bh = cv2.boundingRect(mask)
        if bw == 0 or bh == 0:
            return mask
        roi = (slice(by, by + bh), slice(bx, bx + bw))
        # rounded shading: darker towards every edge and crease, lit on the crest
        inside = ((mask[roi] > 127) & (creases[roi] == 0)).astype(np.uint8)
        distance = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
        scale_px = 7.0 * self.camera.focal / max(self.camera.elevation_mm - 60.0, 1.0)
        shade = 0.66 + 0.4 * np.clip(distance / scale_px, 0.0, 1.0) ** 0.6
        shade3 = cv2.merge([shade.astype(np.float32)] * 3)
        lit = cv2.multiply(colour[roi], shade3, dtype=cv2.CV_8U)
        alpha = mask[roi].astype(np.float32) * (1.0 / 255.0)
        image[roi] = cv2.blendLinear(lit, image[roi], alpha, 1.0 - alpha)
        mask[mask < 128] = 0
        return mask

    def _shade(self, image: np.ndarray, shift: np.ndarray) -> None:
        """Soft shadows on the board, drawn at quarter resolution."""
        h, w = image.shape[:2]
        small = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
        for px in self.shadows:
            cv2.fillPoly(small, [_to_int((px - shift) / 4.0)], 1.0, cv2.LINE_8, _SHIFT)
        small = cv2.GaussianBlur(small, (0, 0), self.shadow_sigma / 4.0)
        full = cv2.resize(
            small, (small.shape[1] * 4, small.shape[0] * 4), interpolation=cv2.INTER_LINEAR
        )
        factor = 1.0 - _SHADOW_DARKNESS * full[:h, :w]
        image[:] = cv2.multiply(image, cv2.merge([factor, factor, factor]), dtype=cv2.CV_8U)


def draw_hands(
    image: np.ndarray, camera: Camera, hands: tuple[HandPose, ...], light: Light
) -> np.ndarray:
    """Draw ``hands`` (and their shadows) onto a whole frame ``image`` (BGR
    uint8, in place); returns the mask (uint8, 255 = hand or arm)."""
    return HandsLayer(camera, hands, light).draw(image)
