#!/usr/bin/env python3
"""Keeps the examples in the docs true: a fenced code block right after a line
`<!-- example: PATH -->` must equal the file PATH (which is built and run as a test), and a block
after `<!-- command: CMD -->` must equal what CMD prints when run from the build's bin folder's
parent (the repository root, with build/bin on PATH). A raw GPU result the docs cite
(bench/gpu/results/NAME) is in the tree, or the citation names the commit that has it
("... at 4ab3caf", bench/gpu/results/README.md)."""
import os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
docs = [os.path.join(root, "README.md")]
ddir = os.path.join(root, "docs")
if os.path.isdir(ddir):
    docs += [os.path.join(ddir, f) for f in sorted(os.listdir(ddir)) if f.endswith(".md")]
marker = re.compile(r"^<!-- (example|command): (.+?) -->\s*$")
result = re.compile(r"bench/gpu/results/([A-Za-z0-9_.-]+)[^\s`),;]*`?( at [0-9a-f]{7,40}\b)?")
bad, checked = [], 0
env = dict(os.environ, PATH=os.path.join(build, "bin") + os.pathsep + os.environ.get("PATH", ""))
for doc in docs:
    if not os.path.exists(doc):
        continue
    lines = open(doc, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        for r in result.finditer(line):
            if not r.group(2) and not os.path.exists(os.path.join(root, "bench/gpu/results", r.group(1))):
                bad.append(f"{os.path.relpath(doc, root)}:{i+1}: bench/gpu/results/{r.group(1)} is not in "
                           "the tree; cite it with the commit that has it (bench/gpu/results/README.md)")
        m = marker.match(line)
        if not m:
            continue
        j = i + 1
        if j >= len(lines) or not lines[j].startswith("```"):
            bad.append(f"{doc}:{i+1}: marker not followed by a code block")
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith("```"):
            k += 1
        block = "\n".join(lines[j + 1:k]).rstrip() + "\n"
        kind, arg = m.groups()
        if kind == "example":
            want = open(os.path.join(root, arg), encoding="utf-8").read().rstrip() + "\n"
        else:
            p = subprocess.run(arg, shell=True, cwd=root, env=env, capture_output=True, text=True, timeout=60)
            want = (p.stdout.rstrip() + "\n") if p.stdout.strip() else (p.stderr.rstrip() + "\n")
        checked += 1
        if block != want:
            bad.append(f"{os.path.relpath(doc, root)}:{i+1}: block differs from {kind} {arg}")
for b in bad:
    print(b)
print(f"docs: {checked} example(s) checked, {len(bad)} out of date")
sys.exit(1 if bad else 0)
