#!/usr/bin/env python3
"""Check `linlayout query` against cases answered by Triton 3.6 (scripts/gpu/triton_cases.py).

usage: check_triton_cases.py CASES.jsonl[.gz] [--bin build/bin/linlayout] [--show 5]

A case with "expect" must get a result equal to it: linear layouts are compared after dropping
input dimensions without bases and output dimensions of size 1; pseudoinvert and
invert_and_compose answers are checked by their defining law, since several are correct. A case
with "expect_error" (Triton refused the input) must get an error line, unless linlayout accepts
such input on purpose (WIDER_THAN_TRITON: counted apart, each with its reason). A case marked
"triton_crashed" (Triton tripped one of its own assertions) has nothing to compare with: it only
needs an answer line, a result or an error. Prints the failures (the first --show of each kind),
a count per op, and exits 1 on any failure.
"""
import argparse
import collections
import gzip
import json
import subprocess
import sys


# The fields of a case that hold Triton's answer (the rest is the query).
ANSWER_KEYS = ("expect", "expect_error", "triton_crashed")

# Inputs Triton refuses and linlayout answers on purpose: (a phrase of Triton's message, why).
WIDER_THAN_TRITON = [
    ("each base must move in at most one dimension",
     "linlayout's linear layouts may have bases that move in several dimensions (an XOR of two "
     "unit bases, say); Triton's LinearEncodingAttr refuses them"),
    ("Expected input dimension 0 to be 'register'",
     "Gluon 3.6's to_linear_layout hands every answer to a distributed LinearEncodingAttr, which "
     "refuses tensor memory's row and col input dims; Triton's C++ toLinearLayout answers them "
     "(its LinearLayoutConversionsTest TensorMemory cases, held in tests/layout/"
     "TensorMemoryTest.cpp) and the tmem_reg_layout cases it composes them into agree"),
]


def comparable(layout):
    keep = [i for i, (_, size) in enumerate(layout["out_dims"]) if size != 1]
    ins = tuple((name, tuple(tuple(b[i] for i in keep) for b in bases))
                for name, bases in layout["in_dims"] if bases)
    outs = tuple(tuple(layout["out_dims"][i]) for i in keep)
    return ins, outs


def evaluate(layout, inputs):
    """The layout's outputs (name -> value) at inputs (name -> value)."""
    out = [0] * len(layout["out_dims"])
    for name, bases in layout["in_dims"]:
        value = inputs.get(name, 0)
        for bit, basis in enumerate(bases):
            if value >> bit & 1:
                out = [x ^ y for x, y in zip(out, basis)]
    return {name: v for (name, _), v in zip(layout["out_dims"], out)}


def unit_inputs(dims):
    """Every single-bit input of dims given as (name, size) or (name, bases)."""
    for name, extent in dims:
        bits = len(extent) if isinstance(extent, list) else extent.bit_length() - 1
        for bit in range(bits):
            yield {name: 1 << bit}


def same_outputs(got, want):
    return all(got.get(name, 0) == value for name, value in want.items()) and \
        all(value == 0 for name, value in got.items() if name not in want)


def correct(case, got):
    op, want = case["op"], case["expect"]
    if op in ("to_linear", "compose", "invert", "tmem_reg_layout"):
        return comparable(got) == comparable(want)
    if op == "apply":
        return same_outputs(dict(got), dict(want))
    if op in ("is_surjective", "is_injective"):
        return got is want
    if op == "bank_conflicts":
        return type(got) is int and got == want
    if op == "pseudoinvert":  # a(p(y)) = y for every output bit y of a
        a = case["a"]
        sizes = {name: 1 << len(bases) for name, bases in a["in_dims"]}
        if any(size != 1 and sizes.get(name) != size for name, size in got["out_dims"]):
            return False
        return all(same_outputs(evaluate(a, evaluate(got, y)), y)
                   for y in unit_inputs(a["out_dims"]))
    if op == "invert_and_compose":  # b(c(x)) = a(x) for every input bit x of a
        a, b = case["a"], case["b"]
        return all(same_outputs(evaluate(b, evaluate(got, x)), evaluate(a, x))
                   for x in unit_inputs(a["in_dims"]))
    raise ValueError("unknown op " + op)


def kind_of(case):
    spec = case.get("layout", case.get("reg"))
    if spec is None:
        return case["op"]
    kind = spec.split("<", 1)[0] if isinstance(spec, str) else spec["kind"]
    return case["op"] + "/" + kind


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("--bin", default="build/bin/linlayout")
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args()
    opener = gzip.open if args.cases.endswith(".gz") else open
    with opener(args.cases, "rt") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    queries = "".join(json.dumps({k: v for k, v in c.items() if k not in ANSWER_KEYS}) + "\n"
                      for c in cases)
    run = subprocess.run([args.bin, "query"], input=queries, capture_output=True, text=True,
                         timeout=600)
    answers = {}
    for line in run.stdout.splitlines():
        answer = json.loads(line)
        answers[answer.get("id")] = answer
    passed, failed = collections.Counter(), collections.Counter()
    reasons = set()  # the WIDER_THAN_TRITON reasons some answer relied on
    for case in cases:
        answer = answers.get(case["id"], {})
        key = kind_of(case) + (" (refused)" if "expect_error" in case else
                               " (Triton crashed)" if "triton_crashed" in case else "")
        if "triton_crashed" in case:
            ok, why = ("result" in answer or "error" in answer), "no answer line"
        elif "expect_error" in case:
            wider = [why for phrase, why in WIDER_THAN_TRITON if phrase in case["expect_error"]]
            if wider and "result" in answer:
                key = kind_of(case) + " (answered on purpose)"
                reasons.update(wider)
            ok = "error" in answer or wider
            why = "answered %s; Triton: %s" % (json.dumps(answer.get("result"))[:80],
                                               case["expect_error"][:160])
        elif "result" in answer:
            try:
                ok = correct(case, answer["result"])
            except (KeyError, TypeError, ValueError):
                ok = False
            why = "got %s, Triton %s" % (json.dumps(answer["result"])[:200],
                                         json.dumps(case["expect"])[:200])
        else:
            ok, why = False, "error: %s" % answer.get("error", "no answer")[:200]
        if ok:
            passed[key] += 1
            continue
        failed[key] += 1
        if failed[key] <= args.show:
            print("FAIL %s %s: %s" % (case["id"], key, why))
    for key in sorted(set(passed) | set(failed)):
        print("%-48s %5d/%d" % (key, passed[key], passed[key] + failed[key]))
    for why in sorted(reasons):
        print("answered on purpose: " + why)
    total = sum(passed.values())
    print("%d/%d cases agree with Triton 3.6" % (total, len(cases)))
    if run.returncode != 0:
        print("linlayout query exited %d: %s" % (run.returncode, run.stderr[-300:]))
        return 1
    return 0 if total == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
