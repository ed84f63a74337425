"""CIELAB conversions against published reference values and OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.colour import bgr_to_lab, chroma, lab_distance, lab_to_bgr, srgb_to_linear

# sRGB (R, G, B) -> CIELAB D65, reference values from Bruce Lindbloom's calculator.
REFERENCE = [
    ((255, 255, 255), (100.0, 0.0, 0.0)),
    ((0, 0, 0), (0.0, 0.0, 0.0)),
    ((255, 0, 0), (53.24, 80.09, 67.20)),
    ((0, 255, 0), (87.73, -86.18, 83.18)),
    ((0, 0, 255), (32.30, 79.19, -107.86)),
    ((128, 128, 128), (53.59, 0.0, 0.0)),
]


@pytest.mark.parametrize(("rgb", "lab"), REFERENCE)
def test_lab_matches_reference(rgb, lab):
    bgr = np.array(rgb[::-1], dtype=np.float64)
    assert np.allclose(bgr_to_lab(bgr), lab, atol=0.02)


def test_lab_is_true_cielab_not_opencv_8bit():
    # OpenCV's 8-bit Lab packs L*255/100 and a+128: white would read (255, 128, 128).
    white = np.full((1, 1, 3), 255, np.uint8)
    assert cv2.cvtColor(white, cv2.COLOR_BGR2Lab)[0, 0].tolist() == [255, 128, 128]
    assert np.allclose(bgr_to_lab(white.astype(float))[0, 0], [100, 0, 0], atol=1e-6)


def test_agrees_with_opencv_float_conversion():
    rng = np.random.default_rng(3)
    pix = rng.integers(0, 256, (500, 1, 3)).astype(np.uint8)
    theirs = cv2.cvtColor(pix.astype(np.float32) / 255, cv2.COLOR_BGR2Lab)
    # OpenCV uses slightly different white-point constants: agree to a fraction of a ΔE.
    assert np.abs(theirs - bgr_to_lab(pix.astype(float))).max() < 0.5


def test_round_trip():
    rng = np.random.default_rng(4)
    bgr = rng.uniform(0, 255, (200, 3))
    assert np.allclose(lab_to_bgr(bgr_to_lab(bgr)), bgr, atol=1e-6)


def test_linearisation_piecewise():
    assert srgb_to_linear(np.array([0.04045]))[0] == pytest.approx(0.04045 / 12.92)
    assert srgb_to_linear(np.array([1.0]))[0] == pytest.approx(1.0)
    assert srgb_to_linear(np.array([0.5]))[0] == pytest.approx(0.21404, abs=1e-5)


def test_distance_weights_lightness():
    a, b = np.array([50.0, 10, 10]), np.array([70.0, 10, 10])
    assert lab_distance(a, b) == pytest.approx(20.0)
    assert lab_distance(a, b, lightness_weight=0.5) == pytest.approx(10.0)
    assert chroma(np.array([60.0, 3.0, 4.0])) == pytest.approx(5.0)
