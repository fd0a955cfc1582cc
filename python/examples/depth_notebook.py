# %% [markdown]
# # A portrait's depth with graphengine and NumPy
#
# A notebook in plain Python (`# %%` cells: VS Code, Jupyter's jupytext, Spyder and PyCharm run them
# one by one; `python python/examples/depth_notebook.py` runs them all). It loads an iPhone
# Portrait photo, shows its disparity map, makes a depth mask with NumPy, hands it back to the
# engine for `CIBlendWithMask`, blurs the background with `CIDepthBlurEffect` and writes both
# with the photo's depth attached. Outputs go to `$OUT` (default `python/examples/output`).

# %%
import os

import numpy as np

import graphengine as ge

HERE = os.path.dirname(os.path.abspath(__file__))
PORTRAIT = os.environ.get("PORTRAIT", os.path.join(HERE, "..", "..", "Examples", "depth", "portrait.jpg"))
OUT = os.environ.get("OUT", os.path.join(HERE, "output"))
os.makedirs(OUT, exist_ok=True)

photo = ge.DepthPhoto(PORTRAIT)
print(photo)                                  # its auxiliary images
print(photo.depth_data["kind"], photo.depth_data["storedRange"], photo.depth_data["sourceFormat"])
photo.image                                   # in Jupyter, the photo shows itself (_repr_png_)

# %% [markdown]
# The disparity map: 1/m, upright like the photo, at its own resolution (about a fifth of it).

# %%
disparity = np.asarray(photo.disparity)       # float32, shape (height, width)
print("disparity", disparity.shape, disparity.dtype, "%.3f...%.3f 1/m" % (disparity.min(), disparity.max()))
try:
    import matplotlib
    if "ipykernel" not in __import__("sys").modules:
        matplotlib.use("Agg")                 # no window outside a notebook: the figure goes to a file
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(8, 5))
    axes[0].imshow(photo.image.numpy(dtype=np.uint8, bands=3))
    axes[0].set_title("photo")
    shown = axes[1].imshow(disparity, cmap="magma")
    axes[1].set_title("disparity (1/m)")
    figure.colorbar(shown, ax=axes[1])
    figure.savefig(os.path.join(OUT, "disparity-plot.png"))
except ImportError:
    print("matplotlib is not installed: no plot (pip install matplotlib)")

# %% [markdown]
# A depth mask in NumPy: 1 for what is nearer than the photo's median disparity plus a margin,
# a soft ramp around it. Then back into the engine as a data image (never colour-converted),
# scaled up to the photo's size.

# %%
threshold = np.median(disparity) + 0.05
mask = np.clip((disparity - threshold) / 0.04 + 0.5, 0, 1).astype(np.float32)
print("mask covers %.0f %% of the photo" % (100 * mask.mean()))
mask_image = ge.Image.from_array(mask, color_space="data")
width, height = photo.image.width, photo.image.height
mask_full = (mask_image.clamped()
             .transformed(width / mask.shape[1], 0, 0, height / mask.shape[0], 0, 0)
             .crop(0, 0, width, height))

# %% [markdown]
# The subject in colour over a grey, darkened background: `CIBlendWithMask` takes the mask.

# %%
background = photo.image.apply("CIColorControls", inputSaturation=0, inputBrightness=-0.1)
highlight = photo.image.apply("CIBlendWithMask", inputBackgroundImage=background, inputMaskImage=mask_full)
highlight.write(os.path.join(OUT, "highlight.jpg"), depth_from=photo)
print("wrote", os.path.join(OUT, "highlight.jpg"))
highlight

# %% [markdown]
# Portrait blur from the same disparity map (f/2, focused on the middle of the frame), written
# with the photo's depth data and matte, which `DepthPhoto` reads back.

# %%
blurred = photo.image.depth_blur_effect(
    disparityImage=photo.disparity, aperture=2.0, focusRect=(0.3, 0.35, 0.4, 0.3))
target = os.path.join(OUT, "portrait-blur.jpg")
blurred.write(target, depth_from=photo)
written = ge.DepthPhoto(target)
print("wrote", target, "with", ", ".join(written.auxiliary_images) or "no depth")
blurred
