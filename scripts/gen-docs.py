#!/usr/bin/env python3
"""Regenerates what the docs quote from the tool (`make docs`), or checks it is up to date (--check).

In README.md and docs/*.md:
  <!-- command: CMD -->      the fenced code block after it becomes what CMD prints (run from the
                             repository root with the build's bin/ on PATH; see check-docs.py);
  <!-- svg: PATH: ARGS -->   the picture docs/PATH becomes `linlayout show ARGS --svg docs/PATH`;
                             the next line must show it (a Markdown image of PATH).
With --check nothing is written: the exit code is 1 when a block or a picture differs."""
import os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if a != "--check"]
check = "--check" in sys.argv[1:]
build = os.path.abspath(args[0]) if args else os.path.join(root, "build")
env = dict(os.environ, PATH=os.path.join(build, "bin") + os.pathsep + os.environ.get("PATH", ""))
docs = [os.path.join(root, "README.md")]
ddir = os.path.join(root, "docs")
docs += [os.path.join(ddir, f) for f in sorted(os.listdir(ddir)) if f.endswith(".md")]
command = re.compile(r"^<!-- command: (.+?) -->\s*$")
svg = re.compile(r"^<!-- svg: ([A-Za-z0-9_./-]+\.svg): (.+?) -->\s*$")


def run(cmd):
    p = subprocess.run(cmd, shell=True, cwd=root, env=env, capture_output=True, text=True, timeout=120)
    return p


bad, changed, pictures = [], [], 0
for doc in docs:
    if not os.path.exists(doc):
        continue
    rel = os.path.relpath(doc, root)
    lines = open(doc, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = command.match(line)
        if m and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            k = i + 2
            while k < len(lines) and not lines[k].startswith("```"):
                k += 1
            p = run(m.group(1))
            text = p.stdout if p.stdout.strip() else p.stderr
            out.append(lines[i + 1])
            out.extend(text.rstrip("\n").split("\n"))
            if k < len(lines):
                out.append(lines[k])
            i = k + 1
            continue
        s = svg.match(line)
        if s:
            path, show = s.groups()
            target = os.path.join(os.path.dirname(doc), path)
            if i + 1 >= len(lines) or f"({path})" not in lines[i + 1]:
                bad.append(f"{rel}:{i+1}: svg marker not followed by an image of {path}")
            with tempfile.TemporaryDirectory() as tmp:
                fresh = os.path.join(tmp, "picture.svg")
                p = run(f"linlayout show {show} --svg {fresh} > /dev/null")
                if p.returncode != 0 or not os.path.exists(fresh):
                    bad.append(f"{rel}:{i+1}: linlayout show {show} failed: {p.stderr.strip()}")
                else:
                    new = open(fresh, encoding="utf-8").read()
                    old = open(target, encoding="utf-8").read() if os.path.exists(target) else None
                    pictures += 1
                    if new != old:
                        if check:
                            bad.append(f"{rel}:{i+1}: {os.path.relpath(target, root)} is out of date")
                        else:
                            os.makedirs(os.path.dirname(target), exist_ok=True)
                            open(target, "w", encoding="utf-8").write(new)
                            changed.append(os.path.relpath(target, root))
        i += 1
    text = "\n".join(out)
    if text != "\n".join(lines):
        if check:
            bad.append(f"{rel}: a command block is out of date")
        else:
            open(doc, "w", encoding="utf-8").write(text)
            changed.append(rel)
for b in bad:
    print(b)
verb = "checked" if check else "regenerated"
print(f"docs: {pictures} picture(s) {verb}; " +
      (f"{len(bad)} problem(s)" if check or bad else f"{len(changed)} file(s) changed"))
sys.exit(1 if bad else 0)
