"""What the kernel generators (scripts/gen-*.py) share: writing their files, or with
--check comparing them, so that the tests that run them with --check fail on a stale file."""
import argparse
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def write_or_check(doc, script, files):
    """files: {path under ROOT: text}. Writes them, or with --check (on the command line) prints
    the stale ones and returns 1. doc: the script's docstring (its first line is --help's)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the files, write nothing")
    check = ap.parse_args().check
    stale = []
    for rel, text in files.items():
        path = ROOT / rel
        if not check:
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            stale.append(rel)
    if stale:
        print(f"out of date (run python3 scripts/{script}): " + ", ".join(stale))
        return 1
    return 0
