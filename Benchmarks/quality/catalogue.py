"""The benchmark's eight scenes. Each builder takes (rng, photo, height, width) and returns a
scenes.Scene; sizes scale with the width (designed at 768×576). Disparities are in 1/m and stay
within [0, 1] so a 16-bit data PNG holds them."""
import numpy as np

import scenes
from scenes import Layer, Scene, quantised, textured
from textures import crop


def _background(rng, photo, height, width, region, disparity, specks, flip=False, gain=1.0):
    rgb = crop(photo, region, height, width, zoom=width / 756, flip=flip) * gain
    rgb = scenes.highlights(rng, rgb, specks)
    return Layer("background", textured(rgb, np.ones((height, width))), quantised(disparity))


def portrait(rng, photo, height, width):
    """A round subject with hair-thin strands at its top, sharp against a far room with lamps."""
    s = width / 768
    centre, radius = (0.48 * width, 0.55 * height), 150 * s
    body = scenes.blob(height, width, centre, radius, [(2, 0.08, 0.3), (3, 0.05, 1.0), (5, 0.03, 2.0)])
    strands = scenes.strands(height, width, *scenes.hair(rng, centre, radius, 60, 40 * s))
    alpha = np.maximum(body, strands)
    rgb = crop(photo, "plaid", height, width, zoom=1.2 * s)
    return Scene("portrait", [
        _background(rng, photo, height, width, "room", 0.30, 25),
        Layer("subject", textured(rgb, alpha), quantised(0.70)),
    ], focus=["subject", "background"])


def floor(rng, photo, height, width):
    """A parquet floor slanting from the far wall (0.25) to the camera (0.55), a subject on it."""
    s = width / 768
    horizon = 0.45 * height
    plane = scenes.coverage(lambda x, y: y >= horizon, height, width)
    # 0.25 on the horizon row, 0.55 at the bottom edge.
    disparity = scenes.slanted(height, width, near=0.55, far=0.25 - (0.55 - 0.25) * horizon / (height - horizon), axis=0)
    subject = scenes.blob(height, width, (0.62 * width, 0.42 * height), 110 * s, [(2, 0.25, 0.0), (4, 0.05, 0.7)])
    return Scene("floor", [
        _background(rng, photo, height, width, "shelves", 0.25, 20),
        Layer("plane", textured(crop(photo, "floor", height, width, zoom=1.5 * s), plane), disparity),
        Layer("subject", textured(crop(photo, "plaid", height, width, zoom=s), subject), quantised(0.75)),
    ], focus=["subject", "background"])


def soft(rng, photo, height, width):
    """A feathered subject (8 px soft edge) with a thin branch in front of it."""
    s = width / 768
    subject = scenes.blob(height, width, (0.45 * width, 0.5 * height), 140 * s, [(3, 0.1, 0.2)], feather=8 * s)
    curves, widths = scenes.branch(rng, (0.98 * width, 0.15 * height), np.pi * 0.8, 420 * s, 4 * s)
    twigs = scenes.strands(height, width, curves, widths)
    return Scene("soft", [
        _background(rng, photo, height, width, "lamps", 0.35, 20),
        Layer("subject", textured(crop(photo, "sofa", height, width, zoom=1.3 * s), subject, 1.3), quantised(0.65)),
        Layer("branch", textured(crop(photo, "pillar", height, width, zoom=s), twigs, 0.4), quantised(0.90)),
    ], focus=["subject", "background"])


def branches(rng, photo, height, width):
    """A subject seen through 1–3 px branches close in front (disparities near each other)."""
    s = width / 768
    subject = scenes.blob(height, width, (0.5 * width, 0.55 * height), 130 * s, [(2, 0.15, 1.2), (6, 0.03, 0.0)])
    curves, widths = [], []
    for start, angle in [((0, 0.3 * height), 0.2), ((width, 0.8 * height), np.pi + 0.3), ((0.3 * width, height), -1.2)]:
        c, w = scenes.branch(rng, start, angle, 380 * s, 3 * s)
        curves += c
        widths += w
    twigs = scenes.strands(height, width, curves, widths)
    return Scene("branches", [
        _background(rng, photo, height, width, "room", 0.50, 20, flip=True),
        Layer("subject", textured(crop(photo, "shirt", height, width, zoom=s), subject, 1.5), quantised(0.70)),
        Layer("branches", textured(crop(photo, "sofa", height, width, zoom=s), twigs, 0.6), quantised(0.85)),
    ], focus=["subject", "background"])


def stack(rng, photo, height, width):
    """Three hard-edged layers: far room, a middle card, a near card overlapping it."""
    s = width / 768
    middle = scenes.coverage(lambda x, y: (abs(x - 0.4 * width) < 150 * s) & (abs(y - 0.45 * height) < 170 * s), height, width)
    near = scenes.blob(height, width, (0.72 * width, 0.7 * height), 120 * s, [(4, 0.12, 0.4)])
    return Scene("stack", [
        _background(rng, photo, height, width, "room", 0.30, 25),
        Layer("middle", textured(crop(photo, "plaid", height, width, zoom=1.3 * s, flip=True), middle), quantised(0.55)),
        Layer("near", textured(crop(photo, "pillar", height, width, zoom=s), near, 0.8), quantised(0.80)),
    ], focus=["near", "middle", "background"], subject="middle")


def wall(rng, photo, height, width):
    """A wall slanting away on the left (0.6 at the left edge to 0.3), a subject with strands."""
    s = width / 768
    edge = 0.35 * width
    plane = scenes.coverage(lambda x, y: x <= edge + 0.15 * (y - height / 2), height, width)
    # 0.6 at the left edge, 0.32 at the wall's farthest point (bottom right), behind the subject.
    reach = edge + 0.15 * height / 2
    disparity = scenes.slanted(height, width, near=0.60, far=0.60 - (0.60 - 0.32) * width / reach, axis=1)
    centre, radius = (0.68 * width, 0.5 * height), 120 * s
    body = scenes.blob(height, width, centre, radius, [(2, 0.1, 0.0)])
    strands = scenes.strands(height, width, *scenes.hair(rng, centre, radius, 50, 35 * s, arc=(-3.0, 0.0)))
    return Scene("wall", [
        _background(rng, photo, height, width, "lamps", 0.30, 25, flip=True),
        Layer("plane", textured(crop(photo, "sofa", height, width, zoom=s), plane), disparity),
        Layer("subject", textured(crop(photo, "shirt", height, width, zoom=1.5 * s, flip=True), np.maximum(body, strands), 1.3), quantised(0.75)),
    ], focus=["subject", "background"])


def wires(rng, photo, height, width):
    """A dark room with many lights, a subject, and 1–2 px wires crossing in front."""
    s = width / 768
    subject = scenes.blob(height, width, (0.4 * width, 0.6 * height), 120 * s, [(3, 0.1, 0.5)])
    curves = [scenes.curve(rng, (0, y * height), rng.uniform(-0.15, 0.15), 1.2 * width, curl=0.001) for y in (0.2, 0.35, 0.7)]
    wires = scenes.strands(height, width, curves, [1.0 * s, 1.5 * s, 2.0 * s])
    return Scene("wires", [
        _background(rng, photo, height, width, "shelves", 0.45, 60, gain=0.3),
        Layer("subject", textured(crop(photo, "hair", height, width, zoom=s), subject, 4.0), quantised(0.60)),
        Layer("wires", textured(np.full((height, width, 3), 0.02), wires), quantised(0.75)),
    ], focus=["subject", "background"])


def leaves(rng, photo, height, width):
    """Large near leaves in the corners, a subject with a hard and a soft part, a far room."""
    s = width / 768
    hard = scenes.blob(height, width, (0.5 * width, 0.45 * height), 100 * s, [(2, 0.1, 0.0)])
    soft = scenes.blob(height, width, (0.5 * width, 0.75 * height), 90 * s, [], feather=5 * s)
    leaf = np.zeros((height, width))
    for _ in range(7):
        corner = (rng.choice([0.0, 1.0]) * width, rng.choice([0.0, 1.0]) * height)
        centre = (corner[0] + rng.uniform(-60, 60) * s, corner[1] + rng.uniform(-60, 60) * s)
        leaf = np.maximum(leaf, scenes.blob(height, width, centre, rng.uniform(50, 90) * s, [(2, 0.45, rng.uniform(0, 6))]))
    green = crop(photo, "pillar", height, width, zoom=s) * np.array([0.35, 0.6, 0.25])
    return Scene("leaves", [
        _background(rng, photo, height, width, "room", 0.40, 25),
        Layer("subject", textured(crop(photo, "plaid", height, width, zoom=1.5 * s), np.maximum(hard, soft)), quantised(0.60)),
        Layer("leaves", textured(green, leaf), quantised(0.90)),
    ], focus=["leaves", "subject", "background"])


BUILDERS = [portrait, floor, soft, branches, stack, wall, wires, leaves]


def build(photo, height, width, seed=23, names=None):
    """The scenes (those in `names`, or all), each from its own generator seeded by `seed` and its index."""
    out = []
    for index, builder in enumerate(BUILDERS):
        if names is None or builder.__name__ in names:
            out.append(builder(np.random.default_rng([seed, index]), photo, height, width))
    return out
