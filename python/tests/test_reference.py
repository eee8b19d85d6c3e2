# Every reference case (tests/reference/*.jsonl.gz, ../shared/reference/*.jsonl) answers the same
# through Python as through `linlayout query`: the Python side goes through the package's own
# objects (LinearLayout methods, the Gluon-named classes, bank_conflicts), the CLI through JSON.
import glob
import gzip
import json
import os
import subprocess

import pytest

import linlayout as ll
from linlayout import LinearLayout

from conftest import SOURCE_DIR

ANSWER_KEYS = ("expect", "expect_error", "triton_crashed")


def corpora():
    shared = os.environ.get("LINLAYOUT_SHARED_DIR", os.path.join(SOURCE_DIR, "..", "shared"))
    files = sorted(glob.glob(os.path.join(SOURCE_DIR, "tests", "reference", "*.jsonl.gz")))
    files += sorted(glob.glob(os.path.join(shared, "reference", "*.jsonl")))
    return files


# Every case by default (~50,000; ~25 s on the 2-core build machine); a larger
# LINLAYOUT_REFERENCE_STRIDE samples every STRIDE-th case of the large Triton corpora.
STRIDE = int(os.environ.get("LINLAYOUT_REFERENCE_STRIDE", "1"))


def read_cases(path):
    opener = gzip.open if path.endswith(".gz") else open
    stride = STRIDE if path.endswith(".gz") else 1
    with opener(path, "rt") as f:
        return [json.loads(line) for i, line in enumerate(f) if line.strip() and i % stride == 0]


def layout_arg(spec):
    return ll.layout_from_json(spec) if isinstance(spec, dict) else spec


def through_python(case):
    op = case["op"]
    a = LinearLayout.from_json(case["a"]) if "a" in case and op != "to_linear" else None
    if op == "compose":
        return a.compose(LinearLayout.from_json(case["b"])).to_json()
    if op == "invert":
        return a.invert().to_json()
    if op == "pseudoinvert":
        return a.pseudoinvert().to_json()
    if op == "invert_and_compose":
        return a.invert_and_compose(LinearLayout.from_json(case["b"])).to_json()
    if op == "apply":
        return [list(p) for p in a.apply([tuple(p) for p in case["inputs"]])]
    if op == "is_surjective":
        return a.is_surjective()
    if op == "is_injective":
        return a.is_injective()
    if op == "to_linear":
        return ll.to_linear_layout(layout_arg(case["layout"]), case["shape"]).to_json()
    if op == "bank_conflicts":
        return ll.bank_conflicts(layout_arg(case["reg"]), layout_arg(case["shared"]),
                                 case["shape"], case["bitwidth"])
    fields = {k: v for k, v in case.items() if k not in ("op", "id")}
    return ll.query(op, **fields)


@pytest.mark.parametrize("path", corpora(), ids=os.path.basename)
def test_python_answers_as_the_cli(path, cli):
    cases = read_cases(path)
    requests = []
    for i, case in enumerate(cases):
        q = {k: v for k, v in case.items() if k not in ANSWER_KEYS}
        q["id"] = i
        requests.append(json.dumps(q))
    out = subprocess.run([cli, "query"], input="\n".join(requests) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert len(out) == len(cases)
    mismatches = []
    for case, line in zip(cases, out):
        answer = json.loads(line)
        try:
            got = {"result": through_python(case)}
        except (ValueError, TypeError, KeyError) as e:
            got = {"error": str(e)}
        if "result" in answer:
            same = got.get("result") == answer["result"]
        else:
            same = "error" in got
        if not same:
            mismatches.append((case.get("id"), case["op"], answer, got))
    assert not mismatches, "%d of %d differ; first: %s" % (len(mismatches), len(cases),
                                                            mismatches[:3])
