"""The Markdown report: means over cases per focus role, engine beside the baselines, the
acceptance targets of issue 23 beside the figures, the dolly zoom, and the radius check."""
import math

import numpy as np

BLUR_METHODS = ("engine", "gather", "scatter", "unblurred")
ROLES = (("subject", "focus on the subject (nothing in front)"),
         ("background", "focus on the background behind a blurred foreground"),
         ("middle", "focus on a middle layer (blurred layers in front and behind)"))
FIGURES = (
    ("psnr", "PSNR, whole image (dB)", "{:.1f}"),
    ("ssim", "SSIM, whole image", "{:.3f}"),
    ("psnr_edges", "PSNR in the band around depth edges (dB)", "{:.1f}"),
    ("psnr_focus", "PSNR in focus, away from edges (dB)", "{:.1f}"),
    ("psnr_blurred", "PSNR in blurred interiors, away from edges (dB)", "{:.1f}"),
    ("psnr_blurred_dim", "the same, away from bright input (no linear luma > 0.85 within the largest radius)", "{:.1f}"),
    ("silhouette_error", "mean error just inside a blurred foreground's silhouette (8-bit levels)", "{:.1f}"),
    ("rim_bias", "rim: luma bias on the sharp side of a blurred edge (8-bit levels, + = brighter)", "{:+.1f}"),
)
PSNR_CAP = 99.0  # a PSNR above this (an exact match) counts as this in means


def _value(row, key):
    v = row[key]
    return min(v, PSNR_CAP) if key.startswith("psnr") and not math.isnan(v) else v


def _mean(rows, key):
    values = [_value(row, key) for row in rows if not math.isnan(row[key])]
    return (float(np.mean(values)), len(values)) if values else (float("nan"), 0)


def _cell(fmt, value):
    return "" if math.isnan(value) else fmt.format(value)


def _blur_table(rows, title):
    lines = [f"| {title} | " + " | ".join(BLUR_METHODS) + " | cases |", "|---|" + "---:|" * (len(BLUR_METHODS) + 1)]
    for key, label, fmt in FIGURES:
        means = [_mean([r for r in rows if r["method"] == m], key) for m in BLUR_METHODS]
        lines.append(f"| {label} | " + " | ".join(_cell(fmt, v) for v, _ in means) + f" | {means[0][1]} |")
    return "\n".join(lines)


def _role_table(rows):
    lines = ["| focus role | cases | PSNR engine | gather | scatter | unblurred | edges engine | gather | scatter | engine − best baseline, whole / edges (target ≥ +1.5 / +2.0 dB) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for role, label in ROLES:
        sub = [r for r in rows if r["role"] == role]
        if not sub:
            continue
        whole = {m: _mean([r for r in sub if r["method"] == m], "psnr")[0] for m in BLUR_METHODS}
        edges = {m: _mean([r for r in sub if r["method"] == m], "psnr_edges")[0] for m in BLUR_METHODS}
        cases = len({(r["scene"], r["case"]) for r in sub})
        lead = whole["engine"] - max(whole["gather"], whole["scatter"])
        edge_lead = edges["engine"] - max(edges["gather"], edges["scatter"])
        lines.append(f"| {label} | {cases} | {whole['engine']:.1f} | {whole['gather']:.1f} | {whole['scatter']:.1f} | "
                     f"{whole['unblurred']:.1f} | {edges['engine']:.1f} | {edges['gather']:.1f} | {edges['scatter']:.1f} | "
                     f"{lead:+.1f} / {edge_lead:+.1f} |")
    return "\n".join(lines)


def _acceptance(rows, dolly_rows):
    def m(method, key, role=None):
        return _mean([r for r in rows if r["method"] == method and (role is None or r["role"] == role)], key)[0]

    def d(method, key):
        return _mean([r for r in dolly_rows if r["method"] == method], key)[0]


    lines = ["| issue 23 acceptance target | measured | met |", "|---|---|---|"]
    for role, label in ROLES:
        if not any(r["role"] == role for r in rows):
            continue
        lead = m("engine", "psnr", role) - max(m("gather", "psnr", role), m("scatter", "psnr", role))
        lines.append(f"| whole-image PSNR ≥ best of gather/scatter + 1.5 dB ({role}) | {lead:+.1f} dB | {'yes' if lead >= 1.5 else 'no'} |")
    edge_lead = m("engine", "psnr_edges") - max(m("gather", "psnr_edges"), m("scatter", "psnr_edges"))
    lines.append(f"| PSNR around depth edges ≥ both baselines + 2 dB | {edge_lead:+.1f} dB | {'yes' if edge_lead >= 2 else 'no'} |")
    sil, sil_gather = m("engine", "silhouette_error"), m("gather", "silhouette_error")
    lines.append(f"| error just inside a blurred foreground's silhouette ≤ the gather's | {sil:.2f} vs {sil_gather:.2f} | {'yes' if sil <= sil_gather else 'no'} |")
    blurred = m("engine", "psnr_blurred")
    lines.append(f"| PSNR in blurred interiors ≥ 50 dB | {blurred:.1f} dB | {'yes' if blurred >= 50 else 'no'} |")
    lines.append(f"| PSNR in focus no worse than today | {m('engine', 'psnr_focus'):.1f} dB | (compare with the results file of the base commit) |")
    if dolly_rows:
        lead = d("engine", "psnr_disoccluded") - d("warp", "psnr_disoccluded")
        ratio = _detail_ratio(dolly_rows, "engine")
        lines.append(f"| dolly zoom: PSNR in disocclusions ≥ nearest fill + 2 dB | {lead:+.1f} dB | {'yes' if lead >= 2 else 'no'} |")
        lines.append(f"| dolly zoom: fine-detail energy in disocclusions within 0.7–1.3× the truth's | {ratio:.2f}× | {'yes' if 0.7 <= ratio <= 1.3 else 'no'} |")
    return "\n".join(lines)


def _detail_ratio(rows, method):
    """Fine-detail energy in the disoccluded pixels of all cases ÷ the reference's there (pooled)."""
    sub = [r for r in rows if r["method"] == method]
    truth = sum(r["detail_truth"] for r in sub)
    return sum(r["detail"] for r in sub) / truth if truth > 0 else float("nan")


def _dolly_table(rows):
    lines = ["| GEDepthDollyZoom (means) | engine | forward warp + nearest fill |", "|---|---:|---:|"]
    for key, label in (("psnr", "PSNR, whole image (dB)"), ("psnr_disoccluded", "PSNR in disoccluded regions (dB)"),
                       ("psnr_steady", "PSNR on steady pixels: one surface seen whole in both views, 3 px from depth edges in either (dB)")):
        e, w = _mean([r for r in rows if r["method"] == "engine"], key)[0], _mean([r for r in rows if r["method"] == "warp"], key)[0]
        lines.append(f"| {label} | {_cell('{:.1f}', e)} | {_cell('{:.1f}', w)} |")
    lines.append("| fine-detail energy in disoccluded regions ÷ the true background's (pooled over cases) | "
                 f"{_detail_ratio(rows, 'engine'):.2f} | {_detail_ratio(rows, 'warp'):.2f} |")
    corner = max(r["corner_error"] for r in rows if r["method"] == "engine")
    lines.append(f"| geometry: largest radial misplacement at the frame corner, fitted (px) | {corner:.3f} | |")
    return "\n".join(lines)


def _scene_table(rows):
    scenes = sorted({r["scene"] for r in rows}, key=[r["scene"] for r in rows].index)
    lines = ["| scene | focus role | PSNR engine | gather | scatter | edges engine | gather | scatter |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for scene in scenes:
        for role, _ in ROLES:
            sub = [r for r in rows if r["scene"] == scene and r["role"] == role]
            if not sub:
                continue
            cells = [_mean([r for r in sub if r["method"] == m], key)[0] for key in ("psnr", "psnr_edges") for m in ("engine", "gather", "scatter")]
            lines.append(f"| {scene} | {role} | " + " | ".join(f"{v:.1f}" for v in cells) + " |")
    return "\n".join(lines)


def _blur_sections(rows, map_name):
    cases = len({(r["scene"], r["case"]) for r in rows})
    title = {"low": "a 1/4-size sensor map (refined by the engine; the baselines get its refinement)",
             "full": "the true map at the photo's size"}.get(map_name, map_name)
    out = [f"## CIDepthBlurEffect on {title}", "", _blur_table(rows, f"CIDepthBlurEffect, {cases} cases (means)"),
           "", "### By focus role", "", _role_table(rows)]
    for role, label in ROLES:
        sub = [r for r in rows if r["role"] == role]
        if sub:
            out += ["", f"### {label}", "", _blur_table(sub, f"{len({(r['scene'], r['case']) for r in sub})} cases (means)")]
    return out + ["", "### By scene", "", _scene_table(rows)]


def markdown(rows, dolly_rows, radius_table, notes, info):
    maps = info["maps"].split(",")
    cases = len({(r["scene"], r["case"]) for r in rows})
    text = [
        f"# Depth effect quality: {info['date']}",
        "",
        f"Engine: `{info['graph']}`, commit {info['commit']}, binary SHA-256 {info['sha256']}. "
        f"{info['scenes']} scenes at {info['size']}, apertures {', '.join(f'f/{a}' for a in info['apertures'])}, "
        f"{cases} CIDepthBlurEffect cases, grain (inputLumaNoiseScale) {info['grain']:g}"
        f"{', --quick' if info['quick'] else ''}. Run time {info['seconds']:.0f} s ({info['engine_seconds']:.0f} s in the engine, summed over scenes).",
        "Scores are against the layered reference in sRGB-encoded values (see README.md); means over cases "
        f"(a PSNR above {PSNR_CAP:.0f} dB counts as {PSNR_CAP:.0f}).",
        "",
    ]
    for map_name in maps:
        text += _blur_sections([r for r in rows if r["map"] == map_name], map_name) + [""]
    if dolly_rows:
        text += [f"## GEDepthDollyZoom, {len({(r['scene'], r['case']) for r in dolly_rows})} cases (full-resolution map)", "",
                 _dolly_table(dolly_rows), ""]
    table_rows = [r for r in rows if r["map"] == maps[0]]
    text += [f"## Issue 23 acceptance ({maps[0]} map)", "", _acceptance(table_rows, dolly_rows),
             "", "## Radius convention check (isolated 3×3 squares, full-resolution map)", "", radius_table]
    if notes:
        text += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    return "\n".join(text)
