// Test support for lower/: run ptxas on emitted PTX, and match PTX / LLVM IR text against
// FileCheck-style patterns.
#pragma once

#include "linlayout/lower/KernelPtx.h"
#include "linlayout/lower/Ptxas.h"

#include <optional>
#include <string>
#include <string_view>

namespace linlayout::lower::testing {

/// The ptxas to use: $LINLAYOUT_PTXAS, else the one CMake found; nullopt when not executable.
std::optional<std::string> ptxasPath();

using lower::PtxasReport;

/// Runs `ptxas -v -arch=<arch>` on the text (lower::runPtxas; a report that is not accepted, with
/// the reason in its log, when ptxas cannot run). Requires: ptxasPath() has a value.
PtxasReport runPtxas(const std::string &ptx, const std::string &arch);

/// Assembles the kernel with ptxas for its own target: a test failure with ptxas' log when ptxas
/// rejects it, a skip with a message when ptxas is absent. When `requireNoSpills`, a failure also
/// when the kernel uses a stack frame or spills. Returns the report (empty when skipped).
/// With $LINLAYOUT_DUMP_PTX set to a folder, the PTX is also written there.
PtxasReport expectAssembles(const KernelPtx &kernel, bool requireNoSpills = true);

/// For properties (no gtest assertions): "" when ptxas accepts the kernel for its own target or
/// ptxas is absent, else ptxas' log.
std::string ptxasRejection(const KernelPtx &kernel);

/// Checks `text` against FileCheck-style directives, one per line of `patterns`:
///   CHECK: p         p occurs after the previous match
///   CHECK-NEXT: p    p occurs on the line after the previous match
///   CHECK-SAME: p    p occurs later on the line of the previous match
///   CHECK-NOT: p     p does not occur between the previous match and the next one (or the end)
///   CHECK-COUNT-n: p p occurs on n lines after the previous match
/// A pattern is literal text, except that {{re}} is a regular expression and a run of blanks
/// matches any run of blanks. Leading/trailing
/// blanks are ignored. Returns "" on success, else what failed and where.
std::string checkPatterns(std::string_view text, std::string_view patterns);

/// The number of lines of `text` that match the pattern (same syntax as checkPatterns).
int countLines(std::string_view text, std::string_view pattern);

} // namespace linlayout::lower::testing

/// Fails the test with a readable report when `text` does not match `patterns`.
#define EXPECT_PATTERNS(text, patterns)                                                            \
  do {                                                                                             \
    std::string ll_check_err_ = ::linlayout::lower::testing::checkPatterns((text), (patterns));    \
    EXPECT_TRUE(ll_check_err_.empty()) << ll_check_err_ << "\n--- text ---\n" << (text);           \
  } while (0)
