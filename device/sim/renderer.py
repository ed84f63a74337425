"""Render a scene as a camera sees it, with the ground truth of the frame.

>>> from device.sim.board import BoardSpec
>>> from device.sim.conditions import Conditions
>>> from device.sim.scene import Scene
>>> board = BoardSpec.bits()
>>> renderer = Renderer(board, Conditions(), (320, 240))
>>> shot = renderer.render(Scene.from_text(board, "\\n".join(["......"] * 5 + ["RY...."])))
>>> shot.image.shape, shot.truth["board"][-1]
((240, 320, 3), 'RY....')

Per frame the work is one warp of a cached texture, a gain map and the
sensor; the texture is redrawn only when pieces change or something moves,
and the warp maps, light maps and table backdrop only when the camera moves.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from device.sim.art import table_texture
from device.sim.board import BoardSpec
from device.sim.camera import Camera
from device.sim.canvas import Canvas
from device.sim.conditions import Conditions
from device.sim.hands import HandsLayer
from device.sim.lighting import LightMaps, light_maps
from device.sim.paint import load_paint
from device.sim.scene import NO_BUMP, Bump, Piece, Placed, Scene
from device.sim.sensor import Sensor
from device.sim.solids import View
from device.sim.tabletop import Tabletop, detail_ppm

# A cell counts as occluded when this share of it is covered.
OCCLUDED_SHARE = 0.05
_TABLE_REACH_MM = 1500.0  # table drawn this far from the board; beyond, it repeats
_TABLE_PIXELS = 1.5e6


@dataclass
class Shot:
    image: np.ndarray  # BGR uint8 (height, width, 3)
    truth: dict[str, Any]


@dataclass
class _Pose:
    """Everything that depends only on where the camera is."""

    camera: Camera
    view: View
    maps: tuple[np.ndarray, np.ndarray]
    backdrop: np.ndarray
    light: LightMaps
    labels: np.ndarray  # int32 (h, w): 1 + cell index, 0 off the grid
    cell_area: np.ndarray  # pixels per cell
    corners: np.ndarray  # (4, 2) UL, UR, LR, LL


class _Lru(OrderedDict[Any, Any]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: Any, value: Any) -> Any:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value


class Renderer:
    """Renders scenes of one board under fixed ``conditions`` at ``size``
    (width, height). Keep one per sequence: the sensor's auto-exposure
    follows the frames in order (see :meth:`reset`)."""

    def __init__(
        self,
        board: BoardSpec,
        conditions: Conditions,
        size: tuple[int, int] = (640, 480),
        seed: int | None = None,
    ) -> None:
        if size[0] < 16 or size[1] < 16:
            raise ValueError(f"frame size {size[0]}x{size[1]} is too small")
        self.board = board
        self.conditions = conditions
        self.size = size
        paint = load_paint()
        variants = paint.board_variants(board.game)
        art = conditions.art or variants[0]
        if art not in variants:
            raise ValueError(
                f"condition art={art!r}: {board.game} boards are {', '.join(variants)}"
            )
        self.art = art
        self.seed = conditions.seed if seed is None else seed
        self.camera = Camera.frame_board(conditions, board, size)
        self.tabletop = Tabletop(board, conditions, art, detail_ppm(self._board_scale(self.camera)))
        self._table = self._table_canvas(self.camera)
        self.sensor = Sensor(conditions, size, self.seed)
        self._poses: _Lru = _Lru(4)
        self._textures: _Lru = _Lru(4)
        self._lit: _Lru = _Lru(4)

    # --- set-up ------------------------------------------------------------
    def _board_scale(self, camera: Camera) -> float:
        """The largest image pixels per board mm anywhere on the board."""
        x0, y0, x1, y1 = self.board.outer_rect_mm()
        best = 0.0
        for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, (y0 + y1) / 2)):
            uv = camera.project(
                np.array([[x, y, 0], [x + 1, y, 0], [x, y + 1, 0]], dtype=np.float64)
            )
            best = max(
                best, float(np.linalg.norm(uv[1] - uv[0])), float(np.linalg.norm(uv[2] - uv[0]))
            )
        return best

    def _table_canvas(self, camera: Camera) -> Canvas:
        """The whole visible table at modest resolution (the board region
        gets its own, finer texture)."""
        px, py = camera.plane_maps(step=16)
        ok = np.abs(px) < 1e5
        x0, y0, x1, y1 = self.board.outer_rect_mm()
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if ok.any():
            lo_x, hi_x = float(px[ok].min()), float(px[ok].max())
            lo_y, hi_y = float(py[ok].min()), float(py[ok].max())
        else:  # pragma: no cover - a camera that sees no table at all
            lo_x, hi_x, lo_y, hi_y = x0, x1, y0, y1
        pad = 150.0  # room for a knocked camera
        rect = (
            max(lo_x - pad, cx - _TABLE_REACH_MM),
            max(lo_y - pad, cy - _TABLE_REACH_MM),
            min(hi_x + pad, cx + _TABLE_REACH_MM),
            min(hi_y + pad, cy + _TABLE_REACH_MM),
        )
        area = (rect[2] - rect[0]) * (rect[3] - rect[1])
        ppm = min(self.tabletop.ppm, float(np.sqrt(_TABLE_PIXELS / max(area, 1.0))))
        image = table_texture(self.conditions.table, rect, ppm, self.conditions.seed)
        return Canvas(image, (rect[0], rect[1]), ppm)

    def reset(self) -> None:
        """Start a new sequence (auto-exposure settles afresh)."""
        self.sensor.reset()

    # --- poses -------------------------------------------------------------
    def camera_for(self, bump: Bump = NO_BUMP) -> Camera:
        if bump == NO_BUMP:
            return self.camera
        return self.camera.moved(bump[:3], bump[3:])

    def _pose(self, bump: Bump) -> _Pose:
        cached: _Pose | None = self._poses.get(bump)
        if cached is not None:
            return cached
        camera = self.camera_for(bump)
        px, py = camera.plane_maps()
        tex = self.tabletop.flat
        bx = (px - tex.origin[0]) * tex.ppm
        by = (py - tex.origin[1]) * tex.ppm
        maps = cv2.convertMaps(bx, by, cv2.CV_16SC2)
        tx = ((px - self._table.origin[0]) * self._table.ppm).astype(np.float32)
        ty = ((py - self._table.origin[1]) * self._table.ppm).astype(np.float32)
        backdrop = cv2.remap(
            self._table.image, tx, ty, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        labels, area = self._cell_labels(camera)
        corners = camera.project(
            np.array([[x, y, 0.0] for x, y in self.board.grid_corners_mm()], dtype=np.float64)
        )
        view = View((float(camera.centre[0]), float(camera.centre[1])), camera.elevation_mm)
        pose = _Pose(
            camera=camera,
            view=view,
            maps=maps,
            backdrop=backdrop,
            light=light_maps(self.conditions, self.board, camera, (px, py)),
            labels=labels,
            cell_area=area,
            corners=corners,
        )
        self._poses.put(bump, pose)
        return pose

    def _cell_labels(self, camera: Camera) -> tuple[np.ndarray, np.ndarray]:
        w, h = self.size
        labels = np.zeros((h, w), np.int32)
        s = self.board.cell_mm
        t = np.linspace(0, 1, 5)[:-1]
        for r in range(self.board.rows):
            for c in range(self.board.cols):
                x0, y0, x1, y1 = c * s, r * s, (c + 1) * s, (r + 1) * s
                # sides split so the curved (distorted) edges are followed
                pts = np.concatenate(
                    [
                        np.column_stack([x0 + (x1 - x0) * t, np.full_like(t, y0)]),
                        np.column_stack([np.full_like(t, x1), y0 + (y1 - y0) * t]),
                        np.column_stack([x1 - (x1 - x0) * t, np.full_like(t, y1)]),
                        np.column_stack([np.full_like(t, x0), y1 - (y1 - y0) * t]),
                    ]
                )
                uv = camera.project(np.column_stack([pts, np.zeros(len(pts))]))
                poly = np.round(np.clip(uv, -1e5, 1e5) * 8).astype(np.int32)
                cv2.fillPoly(labels, [poly], r * self.board.cols + c + 1, cv2.LINE_8, 3)
        area = np.bincount(labels.ravel(), minlength=self.board.rows * self.board.cols + 1)[1:]
        return labels, area

    # --- frames ------------------------------------------------------------
    def _texture(self, pose: _Pose, bump: Bump, resting: tuple[Piece, ...]) -> Canvas:
        key = (bump, resting)
        cached: Canvas | None = self._textures.get(key)
        if cached is None:
            cached = self.tabletop.texture(pose.view, resting)
            self._textures.put(key, cached)
        return cached

    def _light(
        self, image: np.ndarray, light: LightMaps, box: tuple[int, int, int, int] | None = None
    ) -> np.ndarray:
        gain, glare = light.gain, light.glare
        if box is not None:
            x0, y0, x1, y1 = box
            gain = gain[y0:y1, x0:x1]
            glare = glare[y0:y1, x0:x1] if glare is not None else None
        lit = cv2.multiply(image, gain, dtype=cv2.CV_32F)
        if glare is not None:
            lit = cv2.add(lit, glare)
        return cv2.convertScaleAbs(lit)

    def _still(self, pose: _Pose, bump: Bump, resting: tuple[Piece, ...]) -> np.ndarray:
        """The lit frame of the resting pieces alone (cached)."""
        key = (bump, resting)
        lit: np.ndarray | None = self._lit.get(key)
        if lit is None:
            texture = self._texture(pose, bump, resting)
            image = pose.backdrop.copy()
            cv2.remap(
                texture.image,
                pose.maps[0],
                pose.maps[1],
                cv2.INTER_LINEAR,
                dst=image,
                borderMode=cv2.BORDER_TRANSPARENT,
            )
            lit = self._light(image, pose.light)
            self._lit.put(key, lit)
        return lit

    def _moving_bounds(
        self, pose: _Pose, moving: tuple[Placed, ...]
    ) -> tuple[int, int, int, int] | None:
        """Pixel box that pieces in motion (with their shadows) can touch."""
        if not moving:
            return None
        s = self.board.cell_mm
        light = self.tabletop.light
        corners = []
        for placed in moving:
            rows = [r + placed.shift[0] for r, _ in placed.piece.cells]
            cols = [c + placed.shift[1] for _, c in placed.piece.cells]
            x0, x1 = min(cols) * s, (max(cols) + 1) * s
            y0, y1 = min(rows) * s, (max(rows) + 1) * s
            for height in (0.0, placed.lift_mm, placed.lift_mm + self.board.piece_height_mm):
                dx, dy = light.shadow_offset(height)
                for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
                    corners += [[x, y, -height], [x + dx, y + dy, 0.0]]
        uv = pose.camera.project(np.array(corners))
        pad = 6.0 + 3.0 * (1.0 + 0.12 * max(p.lift_mm for p in moving)) * self.tabletop.ppm
        w, h = self.size
        box = (
            int(np.clip(np.floor(uv[:, 0].min() - pad), 0, w)),
            int(np.clip(np.floor(uv[:, 1].min() - pad), 0, h)),
            int(np.clip(np.ceil(uv[:, 0].max() + pad), 0, w)),
            int(np.clip(np.ceil(uv[:, 1].max() + pad), 0, h)),
        )
        return box if box[2] > box[0] and box[3] > box[1] else None

    def render(self, scene: Scene, t: float = 0.0, index: int = 0) -> Shot:
        """The camera frame of ``scene`` at stream time ``t`` (frame number
        ``index`` picks the sensor noise), and what is true in it.

        Only the window where something moves is drawn afresh; the rest of
        the frame is the cached still frame of the resting pieces."""
        pose = self._pose(scene.bump)
        lit = self._still(pose, scene.bump, scene.resting)
        hands = None
        if scene.moving or scene.hands:
            layer = (
                HandsLayer(pose.camera, scene.hands, self.tabletop.light) if scene.hands else None
            )
            boxes = [
                b
                for b in (
                    layer.bounds() if layer else None,
                    self._moving_bounds(pose, scene.moving),
                )
                if b
            ]
            if boxes:
                x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
                x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
                texture = self._texture(pose, scene.bump, scene.resting)
                if scene.moving:
                    texture = self.tabletop.with_moving(texture, pose.view, scene.moving)
                window = pose.backdrop[y0:y1, x0:x1].copy()
                cv2.remap(
                    texture.image,
                    pose.maps[0][y0:y1, x0:x1],
                    pose.maps[1][y0:y1, x0:x1],
                    cv2.INTER_LINEAR,
                    dst=window,
                    borderMode=cv2.BORDER_TRANSPARENT,
                )
                if layer is not None:
                    hands = ((x0, y0, x1, y1), layer.draw(window, (x0, y0)))
                lit = lit.copy()
                lit[y0:y1, x0:x1] = self._light(window, pose.light, (x0, y0, x1, y1))
        frame = self.sensor.capture(lit, t, index)
        return Shot(frame, self._truth(scene, pose, hands))

    def _truth(
        self,
        scene: Scene,
        pose: _Pose,
        hands: tuple[tuple[int, int, int, int], np.ndarray] | None,
    ) -> dict[str, Any]:
        """What is true in the frame; ``hands`` is the window the hands were
        drawn in and their mask there."""
        n = self.board.rows * self.board.cols
        covered = np.zeros(n, np.float64)
        hand_visible = hand_over = False
        if hands is not None:
            (x0, y0, x1, y1), mask = hands
            hit = mask > 0
            hand_visible = bool(hit.any())
            counts = np.bincount(pose.labels[y0:y1, x0:x1][hit], minlength=n + 1)[1:]
            covered = counts / np.maximum(pose.cell_area, 1)
            hand_over = bool(counts.sum() > 0)
        for placed in scene.moving:
            for r, c in placed.piece.cells:
                rr, cc = r + placed.shift[0], c + placed.shift[1]
                for r0 in range(int(np.floor(rr)), int(np.floor(rr)) + 2):
                    for c0 in range(int(np.floor(cc)), int(np.floor(cc)) + 2):
                        if 0 <= r0 < self.board.rows and 0 <= c0 < self.board.cols:
                            overlap = max(0.0, 1 - abs(rr - r0)) * max(0.0, 1 - abs(cc - c0))
                            covered[r0 * self.board.cols + c0] += overlap
        occluded = [
            [int(i // self.board.cols), int(i % self.board.cols)]
            for i in np.flatnonzero(covered >= OCCLUDED_SHARE)
        ]
        return {
            "corners": np.round(pose.corners, 3).tolist(),
            "board": scene.board_text(self.board).splitlines(),
            "occluded": occluded,
            "hand": hand_visible,
            "hand_over_board": hand_over,
        }
