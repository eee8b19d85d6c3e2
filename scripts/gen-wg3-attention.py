#!/usr/bin/env python3
"""Writes examples/attention_ws_pp_persistent_wg3_d64.tir, the head-dim-64 attention kernel with
three consumer warp groups, from examples/attention_ws_pp_persistent_tma_d64.tir (two): its
consumer region is that kernel's warp group 0 region, made once per warp group (rows, slots and
turn barriers apart), so that an edit to the parent carries over. With --check, compares instead
and exits 1 where the file differs (the `scripts.wg3_attention` test).

  python3 scripts/gen-wg3-attention.py [--check]
"""
import pathlib
import re
import sys

from kernelgen import write_or_check

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "examples/attention_ws_pp_persistent_tma_d64.tir"
DST = ROOT / "examples/attention_ws_pp_persistent_wg3_d64.tir"
GROUPS = 3
BUDGET, PRODUCER_BUDGET = 160, 24
BAR = "!ttg.memdesc<1xi64, #bar, #smem, mutable>"

HEADER = """\
// Written by scripts/gen-wg3-attention.py from attention_ws_pp_persistent_tma_d64.tir: edit the
// script or that file, not this one.
// examples/attention_ws_pp_persistent_tma_d64.tir with three consumer warp groups instead of two,
// as flash attention 3 runs head dim 64: a tile is 192 query rows, 64 a warp group, and the
// groups take their turns at the tensor cores in a ring (group w waits for turn w and passes it
// to w + 1 mod 3), so that two groups' softmax runs while the third's products do. With two
// groups at d64 the tensor pipe and the exponentials' MUFU pipe were each busy half the time
// (docs/attention.md, "What bounds d64"). A head has ceil(n_ctx / 192) tiles; in its last one a
// group whose rows start at or past n_ctx computes on the head's first rows and stores nothing
// (its O store is under scf.if), so that every group keeps the ring's protocol. Each stage is
// freed by 3 arrivals. Shared memory: the ring of 3 stages of K and V (96 KB), 3 Q slots and 3 O
// slots (24 KB each): 144 KB. 512 threads (3 consumer warp groups and the producer's, padded):
// budgets 160 / 160 / 160 / 24 (64512 of the 65536 registers). Arguments as the parent's;
// sm_scale > 0, n_ctx a multiple of 128.
"""


def edit(text, old, new):
    """text with its one `old` made `new`; a parent edited past this script's anchors stops here
    rather than yielding a kernel half rewritten."""
    if text.count(old) != 1:
        sys.exit(f"gen-wg3-attention.py: {old.strip()[:60]!r} occurs {text.count(old)} times, "
                 "not once, in the parent")
    return text.replace(old, new)


def rename(text, prefix):
    return re.sub(r"%(\w)", lambda m: "%" + prefix + m.group(1), text) if prefix else text


def retype(text):
    return text.replace("2x64x64xf16", f"{GROUPS}x64x64xf16").replace(
        "5x1xi64", f"{GROUPS + 3}x1xi64")


def consumer(body, w):
    """Warp group w's region from the parent's warp group 0 region."""
    out = []
    for line in body:
        ind = line[:len(line) - len(line.lstrip())]
        if line.strip().startswith("// Warp group 0:"):
            out.append(f"{ind}// Warp group {w}: query rows {64 * w}..{64 * w + 63} of the tile.")
            continue
        # Tiles of 192 query rows: ceil(n_ctx / 192) of them a head.
        line = re.sub(r"= arith\.(remsi|divsi) %(f_t|t|n_t), %nblk :", r"= arith.\1 %\2, %nq :",
                      line)
        line = re.sub(r"(%(?:f_|n_)?mblk = arith\.muli %(?:f_|n_)?pid_m), %c128", r"\1, %c192",
                      line)
        m = re.match(r"^(\s*)%((?:f_|n_)?)m0 = arith\.addi %\2mblk, %c0 : i32$", line)
        if m:
            p = m.group(2)
            out += [f"{ind}%{p}m0 = arith.addi %{p}mblk, %c{64 * w} : i32",
                    f"{ind}// Rows past the head: compute on its first rows, store nothing.",
                    f"{ind}%{p}m0ok = arith.cmpi slt, %{p}m0, %n_ctx : i32",
                    f"{ind}%{p}m0c = arith.select %{p}m0ok, %{p}m0, %c0 : i32"]
            continue
        line = re.sub(r"(%(?:f_|n_)?qrow0 = arith\.addi %(?:f_|n_)?hrow), %((?:f_|n_)?)m0 :",
                      r"\1, %\2m0c :", line)
        line = re.sub(r"%(q|o)buf\[%c0\]", lambda m: f"%{m.group(1)}buf[%c{w}]", line)
        # Turn w: the first is free for group 0; the others' come from the group before.
        line = re.sub(r"(%tq[abc] = arith\.xori %tp[abc]), %c1", rf"\1, %c{int(w == 0)}", line)
        line = line.replace("ttng.wait_barrier %turn0,", f"ttng.wait_barrier %turn{w},")
        line = line.replace("ttng.arrive_barrier %turn1,",
                            f"ttng.arrive_barrier %turn{(w + 1) % GROUPS},")
        if "ttng.async_tma_copy_local_to_global %o[%qrow0" in line:
            out += [f"{ind}scf.if %m0ok {{", "  " + line, f"{ind}}}"]
            continue
        if line.strip() == "ttg.warp_yield" and w > 0:
            line = line.replace("ttg.warp_yield", "ttg.warp_return")
        out.append(line)
    text = retype("\n".join(out))
    return rename(text, f"w{w}_" if w else "")


def generate():
    lines = SRC.read_text().split("\n")
    at = lambda pred: next(i for i, l in enumerate(lines) if pred(l))
    d0 = at(lambda l: l.strip() == "default {")
    p0 = at(lambda l: l.strip().startswith("partition0("))
    p1 = at(lambda l: l.strip().startswith("partition1("))
    close = at(lambda l: l.strip().startswith("} : ("))
    body = lines[d0 + 1:p0 - 1]  # the default region, without its closing brace
    assert lines[p0 - 1].strip() == "}"
    # The partition's captures, named as the parent's partition 0 names them (w1_ ...).
    m = re.match(r"^(\s*)partition0\((.*)\) num_warps\(4\) \{$", lines[p0])
    ind = m.group(1)
    args = [a.split(": ", 1) for a in m.group(2).split(", %")]
    args = [(n.lstrip("%")[len("w1_"):], t) for n, t in args]
    args += [("turn2", BAR), ("nq", "i32")]

    out = [l for l in lines[:d0] if not l.startswith("//")]
    out = HEADER.rstrip("\n").split("\n") + out
    text = "\n".join(out)
    text = edit(text, f"@{SRC.stem}(", f"@{DST.stem}(")
    text = edit(
        text,
        "    %tiles = arith.muli %nblk, %heads : i32",
        "    // Query tiles of 192 rows per head, the last one partly past the head.\n"
        "    %c191 = arith.constant 191 : i32\n"
        "    %c192 = arith.constant 192 : i32\n"
        "    %nq0 = arith.addi %n_ctx, %c191 : i32\n"
        "    %nq = arith.divsi %nq0, %c192 : i32\n"
        "    %tiles = arith.muli %nq, %heads : i32")
    c4 = "    %c4 = arith.constant 4 : i32"
    text = edit(text, c4, c4 + "\n    %c5 = arith.constant 5 : i32")
    text = re.sub(r"(ttng\.init_barrier %empty\d), 2 :", rf"\1, {GROUPS} :", text)
    turn1 = f"    ttng.init_barrier %turn1, 1 : {BAR}"
    text = edit(text, turn1, turn1 + "\n"
                f"    %turn2 = ttg.memdesc_index %empties[%c5] : "
                f"!ttg.memdesc<5x1xi64, #bar, #smem, mutable> -> {BAR}\n"
                f"    ttng.init_barrier %turn2, 1 : {BAR}")
    text = edit(text, "%turn0, %turn1) attributes", "%turn0, %turn1, %turn2, %nq) attributes")
    budgets = lambda n: ", ".join([str(BUDGET)] * n + [str(PRODUCER_BUDGET)])
    text = re.sub(r"actualRegisters = array<i32: [0-9, ]+>, "
                  r"requestedRegisters = array<i32: [0-9, ]+>",
                  f"actualRegisters = array<i32: {budgets(GROUPS)}>, "
                  f"requestedRegisters = array<i32: {budgets(GROUPS - 1)}>", text)
    text = edit(text, "// The warp groups' turns (ping-pong)",
                "// The warp groups' turns (a ring of three)")
    text = edit(text, "each completed by the other's arrive.",
                "each completed by the previous group's arrive.")
    out = [retype(text), lines[d0], consumer(body, 0), f"{ind}}}"]
    consts = [f"{ind}  %c{c} = arith.constant {c} : i32" for c in (0, 1, 2, 64, 128, 192)]
    for w in range(1, GROUPS):
        sig = ", ".join(f"%w{w}_{n}: {t}" for n, t in args)
        out.append(retype(f"{ind}partition{w - 1}({sig}) num_warps(4) {{"))
        region = consumer(body, w).split("\n")
        out += [region[0]] + [rename(c, f"w{w}_") for c in consts] + region[1:]
        out.append(f"{ind}}}")
    producer = lines[p1:close]
    producer[0] = producer[0].replace("partition1(", f"partition{GROUPS - 1}(").replace(
        ") num_warps(1) {", f", %pturn2: {BAR}, %pnq: i32) num_warps(1) {{")
    producer = [l.replace("= arith.divsi %t, %pnblk :", "= arith.divsi %t, %pnq :")
                for l in producer]
    out.append(retype("\n".join(producer)))
    tail = "\n".join(lines[close:])
    tail = edit(tail, ") -> ()", f", {BAR}, i32) -> ()")
    inval1 = f"    ttng.inval_barrier %turn1 : {BAR}"
    tail = edit(tail, inval1, inval1 + f"\n    ttng.inval_barrier %turn2 : {BAR}")
    out.append(retype(tail))
    return "\n".join(out)


def main():
    return write_or_check(__doc__, "gen-wg3-attention.py",
                          {str(DST.relative_to(ROOT)): generate()})


if __name__ == "__main__":
    sys.exit(main())
