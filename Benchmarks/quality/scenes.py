"""Layered test scenes, deterministic from a seed.

A scene is a list of layers, back to front, each premultiplied linear RGBA at full resolution with
a disparity (1/m; one number, or per pixel for a slanted plane). The all-in-focus photo is their
composite with "over"; the disparity map a phone would give is, per pixel, the disparity of the
front-most layer whose alpha exceeds ½.
"""
from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage, spatial, special

SUPERSAMPLING = 4  # per axis, for the coverage of hard edges and strands


@dataclass
class Layer:
    name: str
    rgba: np.ndarray  # premultiplied linear RGBA, H×W×4
    disparity: object  # a float, or an H×W array (a slanted plane)

    @property
    def alpha(self):
        return self.rgba[..., 3]

    def disparity_at(self, height, width):
        return np.broadcast_to(np.asarray(self.disparity, dtype=np.float64), (height, width))


@dataclass
class Scene:
    name: str
    layers: list
    focus: list = field(default_factory=list)  # names of the layers to focus on (one case each)
    subject: str = "subject"  # the layer the dolly zoom keeps the size of

    @property
    def height(self):
        return self.layers[0].rgba.shape[0]

    @property
    def width(self):
        return self.layers[0].rgba.shape[1]

    def layer(self, name):
        return next(layer for layer in self.layers if layer.name == name)

    def all_in_focus(self):
        """The composite of the layers, premultiplied linear RGBA."""
        out = np.zeros_like(self.layers[0].rgba)
        for layer in self.layers:
            out = layer.rgba + (1 - layer.alpha[..., None]) * out
        return out

    def owner(self):
        """Per pixel, the index of the front-most layer with alpha > ½ (0, the background, else)."""
        owner = np.zeros((self.height, self.width), np.int64)
        for index, layer in enumerate(self.layers):
            owner[layer.alpha > 0.5] = index
        return owner

    def low_disparity_map(self, factor):
        """The disparity map at 1/factor of the size (a sensor map, as a phone's 576×768 for 12 MP):
        the mean of each factor×factor block."""
        d = self.disparity_map()
        return d.reshape(self.height // factor, factor, self.width // factor, factor).mean(axis=(1, 3))

    def role(self, name):
        """The focus role of a case focused on layer `name`: "background" (behind a blurred
        foreground), "middle" (layers in front and behind) or "subject" (nothing in front)."""
        index = self.layers.index(self.layer(name))
        focus = np.max(self.layers[index].disparity)
        if index == 0:
            return "background"
        in_front = any(np.min(layer.disparity) > focus for layer in self.layers[index + 1:])
        return "middle" if in_front else "subject"

    def focus_rect(self, name, factor):
        """A square (x, y, size, size; full-resolution pixels, top-left origin) on the 1/factor map's
        pixel grid wholly inside layer `name` with 2 map pixels to spare, so the map is that layer's
        disparity all over it and the engine's focus disparity is exactly the layer's: the largest
        up to 6 % of the short side, nearest the middle of the region."""
        index = self.layers.index(self.layer(name))
        owned = self.owner() == index
        pure = owned.reshape(self.height // factor, factor, self.width // factor, factor).all(axis=(1, 3))
        pure = ndimage.binary_erosion(pure, iterations=2)
        if not pure.any():
            raise ValueError(f"{self.name}: no room for a focus rectangle on {name}")
        cy, cx = np.argwhere(pure).mean(axis=0)
        counts = np.pad(pure.astype(np.int64).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
        for size in range(max(2, round(0.06 * min(pure.shape))), 0, -1):
            box = counts[size:, size:] - counts[:-size, size:] - counts[size:, :-size] + counts[:-size, :-size]
            spots = np.argwhere(box == size * size)
            if len(spots):
                y, x = spots[np.argmin(np.hypot(spots[:, 0] + size / 2 - cy, spots[:, 1] + size / 2 - cx))]
                return (int(x) * factor, int(y) * factor, size * factor, size * factor)
        raise ValueError(f"{self.name}: no room for a focus rectangle on {name}")

    def disparity_map(self):
        """The front-most opaque-ish layer's disparity per pixel (full resolution)."""
        owner = self.owner()
        out = np.zeros((self.height, self.width))
        for index, layer in enumerate(self.layers):
            out = np.where(owner == index, layer.disparity_at(self.height, self.width), out)
        return out


def quantised(d):
    """A disparity on the 16-bit map's levels, so that the map the engine reads holds it exactly."""
    return round(d * 65535) / 65535


# Shapes: coverage (alpha) of a region, H×W floats in [0, 1]. Pixel centres are at (i + ½, j + ½).

def _grid(box, step):
    """Sample points over box (x0, y0, x1, y1) at `step` px: their x and y arrays (rows × columns)."""
    x0, y0, x1, y1 = box
    xs = x0 + (np.arange(int(round((x1 - x0) / step))) + 0.5) * step
    ys = y0 + (np.arange(int(round((y1 - y0) / step))) + 0.5) * step
    return np.meshgrid(xs, ys)


def _clip_box(box, height, width):
    x0, y0, x1, y1 = box
    return max(0, int(np.floor(x0))), max(0, int(np.floor(y0))), min(width, int(np.ceil(x1))), min(height, int(np.ceil(y1)))


def coverage(inside, height, width, box=None):
    """Coverage of each pixel (of `box`, x0, y0, x1, y1; default the frame) by the set
    `inside(x, y)` (boolean arrays from coordinate arrays), on a 4×4 grid of points per pixel."""
    alpha = np.zeros((height, width))
    x0, y0, x1, y1 = _clip_box(box or (0, 0, width, height), height, width)
    if x1 <= x0 or y1 <= y0:
        return alpha
    x, y = _grid((x0, y0, x1, y1), 1 / SUPERSAMPLING)
    hits = inside(x, y).astype(np.float64)
    alpha[y0:y1, x0:x1] = hits.reshape(y1 - y0, SUPERSAMPLING, x1 - x0, SUPERSAMPLING).mean(axis=(1, 3))
    return alpha


def blob(height, width, centre, radius, wobble=(), feather=0.0):
    """A star-shaped blob: points closer to `centre` than `radius·(1 + Σ a·cos(kθ + φ))` for
    (k, a, φ) in `wobble`. Hard-edged (pixel coverage) when `feather` is 0, else the soft edge
    ½·erfc(s/feather), s the radial distance outside the outline."""
    cx, cy = centre
    reach = radius * (1 + sum(abs(a) for _, a, _ in wobble)) + 4 * feather + 2

    def outside(x, y):
        theta = np.arctan2(y - cy, x - cx)
        outline = radius * (1 + sum(a * np.cos(k * theta + p) for k, a, p in wobble))
        return np.hypot(x - cx, y - cy) - outline

    box = (cx - reach, cy - reach, cx + reach, cy + reach)
    if feather == 0:
        return coverage(lambda x, y: outside(x, y) <= 0, height, width, box)
    alpha = np.zeros((height, width))
    x0, y0, x1, y1 = _clip_box(box, height, width)
    x, y = _grid((x0, y0, x1, y1), 1)
    alpha[y0:y1, x0:x1] = 0.5 * special.erfc(outside(x, y) / feather)
    return alpha


def curve(rng, start, angle, length, curl, step=0.25):
    """A random-walk polyline from `start` (x, y) heading `angle` (radians), points `step` px apart,
    the heading drifting by a normal of `curl` radians per px."""
    n = max(2, int(length / step))
    headings = angle + np.cumsum(rng.normal(0, curl * np.sqrt(step), n))
    points = np.cumsum(np.stack([np.cos(headings), np.sin(headings)], axis=1) * step, axis=0)
    return np.asarray(start) + points


def strands(height, width, curves, widths):
    """Coverage of polylines `curves` (arrays of (x, y), points at most ¼ px apart) drawn `widths`
    px wide (round caps): the share of each pixel's 4×4 sample points within width/2 of a point."""
    alpha = np.zeros((height, width))
    offsets = (np.arange(SUPERSAMPLING) + 0.5) / SUPERSAMPLING
    sx, sy = np.meshgrid(offsets, offsets)
    for points, w in zip(curves, widths):
        # Only pixels within reach of the curve are sampled.
        reach = int(np.ceil(w / 2)) + 1
        near = np.zeros((height, width), bool)
        px = np.floor(points).astype(np.int64)
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                x, y = px[:, 0] + dx, px[:, 1] + dy
                keep = (x >= 0) & (x < width) & (y >= 0) & (y < height)
                near[y[keep], x[keep]] = True
        rows, cols = np.nonzero(near)
        samples = np.stack([(cols[:, None] + sx.ravel()).ravel(), (rows[:, None] + sy.ravel()).ravel()], axis=1)
        distance, _ = spatial.cKDTree(points).query(samples, distance_upper_bound=w)
        cover = (distance <= w / 2).reshape(len(rows), -1).mean(axis=1)
        alpha[rows, cols] = np.maximum(alpha[rows, cols], cover)
    return alpha


def branch(rng, start, angle, length, width, depth=2):
    """A branch: a curve `width` px wide with twigs (half as wide, at least 1 px) off it, `depth` levels."""
    main = curve(rng, start, angle, length, curl=0.004)
    curves, widths = [main], [width]
    if depth > 0:
        for _ in range(int(rng.integers(3, 7))):
            at = main[int(rng.integers(len(main) // 5, len(main)))]
            side = rng.choice([-1, 1]) * rng.uniform(0.4, 1.1)
            twig_curves, twig_widths = branch(rng, at, angle + side, length * rng.uniform(0.25, 0.5),
                                              max(1.0, width / 2), depth - 1)
            curves += twig_curves
            widths += twig_widths
    return curves, widths


def hair(rng, centre, radius, count, length, arc=(-2.6, -0.5)):
    """Strands of 1 to 2 px leaving a round subject's outline over the angles `arc` (image y down,
    so negative angles are the top)."""
    cx, cy = centre
    curves, widths = [], []
    for _ in range(count):
        theta = rng.uniform(*arc)
        start = (cx + 0.97 * radius * np.cos(theta), cy + 0.97 * radius * np.sin(theta))
        curves.append(curve(rng, start, theta + rng.normal(0, 0.3), length * rng.uniform(0.5, 1), curl=0.03))
        widths.append(rng.uniform(1, 2))
    return curves, widths


def highlights(rng, rgb, count, value=1.0):
    """`rgb` with `count` small bright specks (radius 0.6 to 1.8 px, warm white, `value` at their
    brightest channel). The default 1 is a saturated speck: the engine reads 16-bit PNGs, so
    anything brighter would be clipped in its input and the reference would hold light that no
    renderer is given."""
    height, width, _ = rgb.shape
    out = rgb.copy()
    for _ in range(count):
        cx, cy = rng.uniform(0.05, 0.95) * width, rng.uniform(0.05, 0.95) * height
        x0, y0 = int(cx) - 3, int(cy) - 3  # a 7×7 window holds the speck
        cover = blob(7, 7, (cx - x0, cy - y0), rng.uniform(0.6, 1.8))[..., None]
        tint = np.array([1.0, rng.uniform(0.75, 0.95), rng.uniform(0.45, 0.8)])
        window = out[y0:y0 + 7, x0:x0 + 7]
        window[:] = window * (1 - cover) + value * tint * cover
    return out


def textured(rgb, alpha, gain=1.0):
    """A layer's premultiplied RGBA from a texture and a coverage."""
    return np.concatenate([rgb * gain * alpha[..., None], alpha[..., None]], axis=-1)


def slanted(height, width, near, far, axis):
    """A plane's disparity, linear from `far` at one edge to `near` at the other (axis 0: from the
    top row to the bottom one; axis 1: from the right column to the left one), at pixel centres."""
    if axis == 0:
        t = (np.arange(height) + 0.5) / height
        return np.broadcast_to((far + (near - far) * t)[:, None], (height, width)).copy()
    t = (np.arange(width) + 0.5) / width
    return np.broadcast_to((near + (far - near) * t)[None, :], (height, width)).copy()
