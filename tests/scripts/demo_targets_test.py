#!/usr/bin/env python3
"""`make demo` builds only what scripts/demo.sh runs: the CMake target `demo_programs` compiles
no test source (ninja's plan for it, printed without building anything)."""
import os, subprocess, sys

build = sys.argv[1]
p = subprocess.run(["ninja", "-C", build, "-t", "commands", "demo_programs"], capture_output=True,
                   text=True)
if p.returncode != 0:
    print(p.stdout + p.stderr)
    sys.exit(1)
# The source each compile command compiles: what follows " -c ".
sources = [l.split(" -c ")[-1].split()[0] for l in p.stdout.splitlines() if " -c " in l]
tests = [s for s in sources if "/tests/" in s]
assert not tests, "demo_programs compiles test sources:\n" + "\n".join(tests[:5])
assert "linlayout" in p.stdout
print(f"demo targets: {len(p.stdout.splitlines())} commands, none for tests/")
