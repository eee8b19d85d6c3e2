// `linlayout plan`: plans a layout conversion and explains it.
//   linlayout plan --src SPEC --dst SPEC --shape 128x128 --dtype f16 [--target sm_90] [--json]
//                  [--detail]
// SPEC is a layout spec as JSON (QUERY-FORMAT.md) or in TritonGPU's attribute syntax.
#pragma once

namespace linlayout::cli {

/// Runs `linlayout plan ARGS...` (argv[0] is "plan"). Returns the process exit code: 0 on
/// success, 1 when a layout cannot be read or the conversion cannot be planned, 2 for a usage
/// mistake.
int runPlan(int argc, char **argv);

} // namespace linlayout::cli
