"""Filters, recipes, depth photos and errors against the `graph` CLI's own outputs."""
import json
import os

import numpy as np
import pytest

import graphengine as ge
from conftest import PHOTO, PORTRAIT, run_graph

CHAIN = {
    "version": 1,
    "images": {
        "photo": {"file": PHOTO},
        "sepia": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}, "inputIntensity": 0.8}},
        "hue": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "sepia"}, "inputAngle": 0.5}},
        "blur": {"filter": "CIGaussianBlur", "inputs": {"inputImage": {"image": "hue"}, "inputRadius": 3}},
        "framed": {"filter": "CIColorControls", "crop": [10, 10, 120, 90],
                   "inputs": {"inputImage": {"image": "blur"}, "inputSaturation": 1.2, "inputContrast": 1.1}},
    },
    "outputs": [{"image": "framed", "file": "chain.png"}],
}


def _chain(intensity=0.8):
    return (ge.Image.open(PHOTO)
            .apply("CISepiaTone", inputIntensity=intensity)
            .hue_adjust(angle=0.5)                                  # builder names work too
            .gaussian_blur(radius=3)
            .apply("CIColorControls", inputSaturation=1.2, inputContrast=1.1)
            .crop(10, 10, 120, 90))


@pytest.fixture
def chain_recipe(tmp_path):
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(CHAIN))
    return path


def test_filter_chain_equals_the_cli_byte_for_byte(graph, chain_recipe, tmp_path):
    run_graph(graph, "run", str(chain_recipe))
    written = tmp_path / "chain.png"
    cli_pixels = ge.Image.open(written, color_space="data").numpy(dtype=np.uint8, bands=4)
    ours = _chain().numpy(dtype=np.uint8, bands=4)
    assert ours.shape == (90, 120, 4) and ours.std() > 10
    np.testing.assert_array_equal(ours, cli_pixels)
    mine = tmp_path / "mine.png"
    _chain().write(mine)
    assert mine.read_bytes() == written.read_bytes()


def test_recipe_run_with_overrides(chain_recipe, tmp_path):
    outputs = ge.Recipe.load(chain_recipe).run({"sepia.inputIntensity": 0.3})
    assert list(outputs) == ["framed"]
    np.testing.assert_array_equal(outputs["framed"].numpy(bands=4), _chain(0.3).numpy(bands=4))
    assert not np.array_equal(outputs["framed"].numpy(bands=4), _chain(0.8).numpy(bands=4))
    ge.Recipe.load(chain_recipe).run(write=True)
    assert (tmp_path / "chain.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_recipe_errors_name_the_json_path(chain_recipe):
    with pytest.raises(ge.RecipeError, match=r"inputIntensity"):
        ge.Recipe.load(chain_recipe).run({"sepia.inputIntensity": "strong"})


def test_disparity_equals_the_cli_16_bit_data_png(graph, tmp_path):
    recipe = {"version": 1,
              "images": {"disparity": {"file": PORTRAIT, "auxiliary": "disparity"},
                         "scaled": {"filter": "CIColorMatrix",   # 0...2 into 0...1 so nothing clips in 16 bits
                                    "inputs": {"inputImage": {"image": "disparity"}, "inputRVector": [0.5, 0, 0, 0],
                                               "inputGVector": [0, 0.5, 0, 0], "inputBVector": [0, 0, 0.5, 0]}}},
              "outputs": [{"image": "disparity", "file": "disparity.png", "colorSpace": "data", "bitDepth": 16},
                          {"image": "scaled", "file": "scaled.png", "colorSpace": "data", "bitDepth": 16}]}
    (tmp_path / "d.json").write_text(json.dumps(recipe))
    run_graph(graph, "run", str(tmp_path / "d.json"))
    photo = ge.DepthPhoto(PORTRAIT)
    disparity = np.asarray(photo.disparity)
    assert disparity.dtype == np.float32 and disparity.shape == (192, 144)
    low, high = photo.depth_data["storedRange"]
    assert disparity.min() == pytest.approx(low, abs=1e-6) and disparity.max() == pytest.approx(high, abs=1e-6)
    # The map as graph writes it (16-bit, clipped to 1), and the same map in real values halved.
    png = ge.Image.open(tmp_path / "disparity.png", color_space="data").numpy(dtype=np.uint16, bands=1)
    np.testing.assert_array_equal(photo.disparity.numpy(dtype=np.uint16), png)
    scaled = ge.Image.open(tmp_path / "scaled.png", color_space="data").numpy(dtype=np.uint16, bands=1)
    np.testing.assert_array_equal(np.round(disparity.astype(np.float64) / 2 * 65535).astype(np.uint16), scaled)


def test_depth_data_and_info_are_plain_values():
    photo = ge.DepthPhoto(PORTRAIT)
    data = photo.depth_data
    assert data["kind"] == "disparity" and (data["width"], data["height"]) == (144, 192)
    assert data["accuracy"] == "relative" and data["sourceFormat"] == "Apple JPEG (MPF)"
    assert isinstance(data["calibration"], (dict, type(None)))
    assert photo.info["format"] == "jpeg"
    assert {"disparity", "depth", "matte"} <= set(photo.auxiliary_images)
    matte = photo.matte.numpy()
    assert matte.dtype == np.float32 and 0 <= matte.min() and matte.max() <= 1
    depth = photo.depth.numpy()
    np.testing.assert_allclose(depth, 1 / np.asarray(photo.disparity), rtol=1e-5)


def test_write_with_depth_attached(tmp_path):
    photo = ge.DepthPhoto(PORTRAIT)
    x, y, width, height = photo.image.extent
    edited = photo.image.apply("CISepiaTone").crop(0, 0, width / 2, height / 2)
    target = tmp_path / "edited.jpg"
    edited.write(target, depth_from=photo)
    written = ge.DepthPhoto(target)
    assert written.disparity.width == 72 and written.disparity.height == 96
    assert written.depth_data["kind"] == "disparity"


def test_errors_carry_the_engine_message(tmp_path):
    image = ge.Image.from_array(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ge.UnknownFilterError, match=r'unknown filter "CIGausianBlur" \(did you mean "CIGaussianBlur"\?\)'):
        image.apply("CIGausianBlur")
    with pytest.raises(ge.InvalidParameterError, match=r'CIGaussianBlur has no input "inputRadiu" \(did you mean "inputRadius"\?\)'):
        image.apply("CIGaussianBlur", inputRadiu=3)
    with pytest.raises(ge.EngineIOError, match="missing.png"):
        ge.Image.open(tmp_path / "missing.png")
    with pytest.raises(ge.DepthError):
        ge.DepthPhoto(PHOTO).disparity
    with pytest.raises(ge.InvalidArgumentError, match='unknown colour space "P3"'):
        ge.Image.from_array(np.zeros((4, 4), np.uint8), color_space="P3")
    with pytest.raises(AttributeError, match="neither an Image attribute nor a filter"):
        image.gausian_blur


def test_catalogue_and_builders():
    assert "CIGaussianBlur" in ge.filter_names() and "CIDepthBlurEffect" in ge.filter_names()
    keys = [entry["key"] for entry in ge.catalogue()["CIGaussianBlur"]["inputs"]]
    assert keys == ["inputImage", "inputRadius"]
    image = ge.Image.from_array(np.eye(16, dtype=np.float32), color_space="data")
    np.testing.assert_array_equal(image.gaussian_blur(radius=2).numpy(), image.apply("CIGaussianBlur", inputRadius=2).numpy())
    red = ge.filters.constant_color_generator(color=(1, 0, 0, 1)).crop(0, 0, 2, 2).numpy()
    assert red.tolist() == [[[255, 0, 0, 255]] * 2] * 2


def test_files_default_to_their_channels_and_depth(tmp_path):
    assert ge.Image.open(PORTRAIT).numpy().shape == (1008, 756, 3)
    sixteen = tmp_path / "grey16.png"
    ge.Image.from_array(np.full((3, 5), 1000, np.uint16), color_space="data").write(sixteen, bit_depth=16)
    grey = ge.Image.open(sixteen, color_space="data")
    assert grey.numpy().dtype == np.uint16 and grey.numpy().tolist() == [[1000] * 5] * 3


def test_repr_png_for_jupyter():
    png = ge.Image.from_array(np.zeros((5, 6, 3), np.uint8))._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
