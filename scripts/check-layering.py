#!/usr/bin/env python3
"""Fails when a folder includes what its layer may not (the layering of docs/design.md):
support -> std; layout -> support; ir -> layout; lower -> ir, layout, LLVM;
runtime -> support + the CUDA driver through dlopen (no CUDA headers); testing -> layout, rapidcheck;
testing/kernels (the kernels the tests and the GPU benchmark share) -> ir, layout.
Inside layout/, its libraries: algebra -> support; hardware -> algebra; planning -> hardware,
algebra; pictures -> algebra (a header linlayout/layout/X.h belongs to the library whose include
folder holds it).
Also: llvm:: never appears in lower/'s public headers."""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ours = {"support", "layout", "ir", "lower", "runtime", "testing", "jit"}
allowed = {
    "support": {"support"},
    "layout": {"support", "layout"},
    "ir": {"support", "layout", "ir"},
    "lower": {"support", "layout", "ir", "lower"},
    "runtime": {"support", "runtime"},
    "testing": {"support", "layout", "testing"},
    "testing/kernels": {"support", "layout", "ir"},
    "jit": {"support", "layout", "ir", "lower", "runtime", "jit"},
}
foreign = {  # third-party include prefixes and the layers that may use them
    "llvm/": {"lower"}, "llvm-c/": {"lower"}, "nlohmann/": set(), "Eigen/": set(),
    "cuda.h": set(), "cuda_runtime": set(), "rapidcheck": {"testing"}, "gtest/": set(),
    "benchmark/": set(),
}
bad = []
# layout/'s libraries and the ones each may include from.
layout_allowed = {
    "algebra": {"algebra"},
    "hardware": {"algebra", "hardware"},
    "planning": {"algebra", "hardware", "planning"},
    "pictures": {"algebra", "pictures"},
}
layout_owner = {}  # header name -> layout library
for lib in layout_allowed:
    d = os.path.join(root, "layout", lib, "include", "linlayout", "layout")
    for f in os.listdir(d) if os.path.isdir(d) else []:
        layout_owner[f] = lib
for entry in sorted(os.listdir(os.path.join(root, "layout"))):
    if os.path.isdir(os.path.join(root, "layout", entry)) and entry not in layout_allowed:
        bad.append(f"layout/{entry}: not one of layout/'s libraries {sorted(layout_allowed)}")

inc = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
for layer in sorted(allowed):
    base = os.path.join(root, layer)
    for dirpath, dirs, files in os.walk(base):
        # A sub-folder that is a layer of its own is checked as that layer.
        dirs[:] = [d for d in dirs if os.path.relpath(os.path.join(dirpath, d), root) not in allowed]
        for f in files:
            if not f.endswith((".h", ".hpp", ".cpp", ".cc")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                m = inc.match(line)
                if m:
                    h = m.group(1)
                    if h.startswith("linlayout/"):
                        target = h.split("/")[1]
                        if target in ours and target not in allowed[layer]:
                            bad.append(f"{rel}:{n}: {layer}/ may not include {h}")
                        if layer == "layout" and target == "layout":
                            lib = rel.split(os.sep)[1]
                            owner = layout_owner.get(h.split("/")[-1])
                            if owner is None:
                                bad.append(f"{rel}:{n}: no layout library has {h}")
                            elif lib in layout_allowed and owner not in layout_allowed[lib]:
                                bad.append(f"{rel}:{n}: layout/{lib} may not include {h} "
                                           f"(layout/{owner})")
                    for prefix, layers in foreign.items():
                        if h.startswith(prefix) and layer not in layers:
                            bad.append(f"{rel}:{n}: {layer}/ may not include {h}")
                if layer == "lower" and "/include/" in path and "llvm::" in line:
                    bad.append(f"{rel}:{n}: llvm:: in a public header of lower/")
for b in bad:
    print(b)
print(f"layering: {len(bad)} violation(s)")
sys.exit(1 if bad else 0)
