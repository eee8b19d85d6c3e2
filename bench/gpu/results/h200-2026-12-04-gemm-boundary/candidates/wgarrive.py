"""Measurement-only PTX edit: empties counted per consumer warp group (init 2), the loop's
per-step bar.sync 1,256 before the empty arrive removed, warps 0 and 4 each arrive."""
import re, sys
src, dst = sys.argv[1], sys.argv[2]
s = open(src).read()
s = s.replace(".reg .pred \t%p<53>;", ".reg .pred \t%p<62>;")
s = re.sub(r"\.reg \.b32 \t%r<(\d+)>;", lambda m: f".reg .b32 \t%r<{int(m.group(1)) + 10}>;", s, 1)
for r in ("%r69", "%r75", "%r81"):
    s = s.replace(f"mbarrier.init.shared::cta.b64 [{r}], %r310;", f"mbarrier.init.shared::cta.b64 [{r}], 2;")
s = s.replace("\tsetp.eq.s32 \t%p52, %r3, 0;\n", "\tsetp.eq.s32 \t%p52, %r3, 0;\n\tand.b32 \t%r500, %r3, 3;\n\tsetp.eq.s32 \t%p60, %r500, 0;\n\tmov.b32 \t%r501, 2;\n", 1)
old = "\twgmma.wait_group.sync.aligned 1;\n\t// end inline asm\n\tbarrier.sync \t1, 256;\n\t@%p52 bra \t$L__BB0_41;"
assert old in s
s = s.replace(old, "\twgmma.wait_group.sync.aligned 1;\n\t// end inline asm\n\t@%p60 bra \t$L__BB0_41;")
old = "@%p30 mbarrier.arrive.shared::cta.b64 _, [%r199], %r310;"
assert old in s
s = s.replace(old, "@%p30 mbarrier.arrive.shared::cta.b64 _, [%r199], %r501;")
s = s.replace(".reg .b32 \t%r<318>", ".reg .b32 \t%r<502>")
open(dst, "w").write(s)
