"""NumPy arrays into images and back: exact round trips, strides, borrowing and lifetimes."""
import gc
import threading
import time
import weakref

import numpy as np
import pytest

import graphengine as ge

RNG = np.random.default_rng(27)


def _random(shape, dtype):
    if dtype == np.float32:
        return (RNG.random(shape, dtype=np.float32) * 1.5 - 0.25).astype(np.float32)  # extended range too
    return RNG.integers(0, np.iinfo(dtype).max + 1, size=shape, dtype=dtype)


def _premultiplied(array):
    """RGBA with colour no larger than alpha (valid premultiplied pixels)."""
    out = array.copy()
    out[..., :3] = np.minimum(out[..., :3], out[..., 3:4])
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("color_space", ["sRGB", "data"])
def test_round_trip_is_exact(dtype, channels, color_space):
    a = _random((37, 53) if channels == 1 else (37, 53, channels), dtype)
    if channels == 4:
        a = _premultiplied(a)
    if channels == 2:
        a[..., 0] = np.minimum(a[..., 0], a[..., 1])
    if dtype == np.float32 and color_space == "sRGB":
        a = np.abs(a)  # sRGB's curve is mirrored for negatives; keep to the common case
    out = ge.Image.from_array(a, color_space=color_space).numpy()
    assert out.dtype == a.dtype and out.shape == a.shape
    np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("copy", [True, False])
def test_round_trip_with_row_strides(dtype, channels, copy):
    big = _random((90, 120, channels), dtype)
    if channels == 4:
        big = _premultiplied(big)
    window = big[10:70:2, 7:90]           # every other row of a window: row stride 2 rows of 120 pixels
    if channels == 1:
        window = window[..., 0]           # one band reads back as (height, width)
    assert not window.flags.c_contiguous
    image = ge.Image.from_array(window, color_space="data", copy=copy)
    np.testing.assert_array_equal(image.numpy(), window)
    np.testing.assert_array_equal(np.asarray(image), window)


def test_non_packed_pixels_are_copied_or_refused():
    a = _random((20, 30, 4), np.uint8)
    flipped = a[:, ::-1]                  # negative pixel stride
    np.testing.assert_array_equal(ge.Image.from_array(flipped, color_space="data").numpy(), flipped)
    with pytest.raises(ValueError, match="copy=False needs each row's pixels packed"):
        ge.Image.from_array(flipped, copy=False)
    with pytest.raises(ValueError, match="2-channel float32"):
        ge.Image.from_array(np.zeros((4, 4, 2), np.float32), copy=False)


def test_numpy_dtype_and_bands():
    grey = np.full((8, 9), 0.5, np.float32)
    image = ge.Image.from_array(grey, color_space="data")
    assert image.numpy(dtype=np.uint8).tolist() == [[128] * 9] * 8
    assert image.numpy(dtype=np.uint16)[0, 0] == 32768
    rgba = image.numpy(bands=4)
    assert rgba.shape == (8, 9, 4) and rgba[0, 0].tolist() == [0.5, 0.5, 0.5, 1.0]
    assert np.asarray(image, dtype=np.float64).dtype == np.float64


def test_array_protocol_copy_semantics():
    image = ge.Image.from_array(np.zeros((4, 4), np.uint8))
    assert np.asarray(image).shape == (4, 4)
    with pytest.raises(ValueError, match="no pixels to share"):
        image.__array__(copy=False)


def test_copied_array_can_be_freed_while_the_image_is_lazy():
    a = _premultiplied(_random((64, 64, 4), np.uint8))
    expected = ge.Image.from_array(a.copy(), color_space="data").apply("CIGaussianBlur", inputRadius=2).numpy()
    blurred = ge.Image.from_array(a, color_space="data").apply("CIGaussianBlur", inputRadius=2)
    a[:] = 0                               # the image holds its own copy
    del a
    gc.collect()
    out = blurred.numpy()
    assert out[40, 40, 3] > 0
    np.testing.assert_array_equal(out, expected)


def test_borrowed_array_is_kept_alive_then_released():
    gc.collect()
    before = ge.borrowed_count()
    a = _random((50, 40), np.float32)
    expected = a.copy()
    alive = weakref.ref(a)
    image = ge.Image.from_array(a, color_space="data", copy=False)
    derived = image.apply("CIColorInvert")
    del a, image
    gc.collect()
    assert alive() is not None and ge.borrowed_count() == before + 1
    np.testing.assert_array_equal(derived.numpy(bands=1), 1 - expected)
    del derived
    gc.collect()
    assert alive() is None and ge.borrowed_count() == before


def test_borrowed_memory_is_read_in_place():
    a = np.zeros((10, 10), np.uint8)
    image = ge.Image.from_array(a, color_space="data", copy=False)
    a[3, 4] = 200                          # documented as not allowed; shows the pixels are shared
    assert image.numpy()[3, 4] == 200


def test_progress_and_cancellation():
    big = ge.Image.from_array(np.ones((1500, 1500, 4), np.float32)).apply("CIGaussianBlur", inputRadius=30)
    seen = []
    with pytest.raises(ge.CancelledError, match="render cancelled"):
        big.numpy(rect=(0, 0, 1500, 1500), progress=lambda f: seen.append(f) or True)
    assert seen, "the callback was called"
    fractions = []
    small = ge.Image.from_array(np.ones((64, 64), np.uint8))
    small.numpy(progress=fractions.append)
    assert fractions[-1] == 1.0


def test_render_releases_the_gil():
    image = ge.Image.from_array(np.ones((1500, 1500, 4), np.float32)).apply("CIGaussianBlur", inputRadius=20)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.perf_counter()
    image.numpy(rect=(0, 0, 1500, 1500))
    elapsed = time.perf_counter() - start
    done.set()
    counter.join()
    during = [t for t in ticks if start <= t <= start + elapsed]
    assert elapsed < 0.05 or len(during) > elapsed / 0.01, (elapsed, len(during))


def test_threads_render_at_once_with_the_same_results():
    from concurrent.futures import ThreadPoolExecutor
    arrays = [_random((120, 160, 3), np.float32) for _ in range(4)]
    images = [ge.Image.from_array(a, color_space="data").apply("CIGaussianBlur", inputRadius=3).crop(0, 0, 160, 120)
              for a in arrays]
    serial = [image.numpy() for image in images]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda image: image.numpy(), images))
    for one, other in zip(serial, parallel):
        np.testing.assert_array_equal(one, other)
