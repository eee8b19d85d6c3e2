// Triton's GPU conversion test matrix (kernels/TritonMatrix.h), compiled as Gluon compiles it
// (layouts as written, no passes):
//  - TritonMatrix.SampleAssemblesWithoutLocalMemory (CPU, in `make test`): a fixed sample of the
//    cases lowers for sm_90, ptxas accepts it, and none that fits in registers uses local memory;
//  - TritonMatrix.Full (CPU, only with LINLAYOUT_TRITON_MATRIX=FILE; scripts/triton-matrix.sh):
//    every case (LINLAYOUT_MATRIX_SHARD=i/n: every n-th from i; LINLAYOUT_MATRIX_NAMES=a,b:
//    those whose name contains a or b), ptxas' registers, stack and spills written to FILE as
//    JSON lines (LINLAYOUT_MATRIX_PATH=shared_memory: that path forced; LINLAYOUT_MATRIX_PTX=DIR:
//    each case's PTX and LLVM IR kept in DIR);
//  - TritonMatrixGpu.EveryCaseIsBitExact (GPU): every case runs and stores exactly its input;
//    LINLAYOUT_MATRIX_SHARD=i/n runs every n-th case from i, LINLAYOUT_MATRIX_NAMES=a,b those
//    whose name contains a or b, LINLAYOUT_TRITON_MATRIX=FILE writes
//    the driver's registers and local bytes per case (compared with Triton's by
//    scripts/gpu/triton_matrix.py).
#include "kernels/TritonMatrix.h"
#include "GpuTestSupport.h"

#include "linlayout/lower/Lower.h"
#include "linlayout/lower/Ptxas.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

using LowerTarget = decltype(lower::LowerOptions{}.target)::value_type;

// 32-bit words a thread holds of a tile in layout `l` (one per element up to 32 bits).
int64_t tileWords(const MatrixCase &c, const LayoutSpec &l) {
  auto ll = toLinearLayout(l, c.shape);
  return ll.ok() ? int64_t(ll->inDimSize(DimName::reg())) * ((ir::bitWidth(c.elem) + 31) / 32) : 0;
}

// 32-bit words a thread holds of the source and of the destination tile.
int64_t wordsPerThread(const MatrixCase &c) { return tileWords(c, c.src) + tileWords(c, c.dst); }

struct Assembled {
  std::string problem; // "" when it lowered and assembled
  lower::PtxasReport report;
  std::string paths;       // the conversions' paths, "+"-separated
  std::string ptx, llvmIr; // kept for LINLAYOUT_MATRIX_PTX
};

// The kernel of `c` lowered for sm_90, with `o`'s other options.
Expected<lower::LoweredKernel> loweredForSm90(const MatrixCase &c, lower::LowerOptions o = {}) {
  LL_ASSIGN_OR_RETURN(ir::Module m, matrixKernel(c));
  o.target = LowerTarget::parse("sm_90").value();
  return lower::lowerKernel(m, o);
}

Assembled lowerAndAssemble(const MatrixCase &c, const std::string &ptxas) {
  Assembled a;
  lower::LowerOptions o;
  o.keepLlvmIr = std::getenv("LINLAYOUT_MATRIX_PTX") != nullptr;
  // LINLAYOUT_MATRIX_PATH=shared_memory (a path's identifier): every conversion that can takes
  // that path, to compare paths' register use.
  if (const char *path = std::getenv("LINLAYOUT_MATRIX_PATH"); path && *path) {
    o.conversionPath = parseConversionPath(path);
    if (!o.conversionPath) {
      a.problem = std::string("LINLAYOUT_MATRIX_PATH is '") + path + "', not a path";
      return a;
    }
  }
  auto k = loweredForSm90(c, o);
  if (!k.ok()) {
    a.problem = "building or lowering: " + k.message();
    return a;
  }
  for (const auto &cv : k->conversions)
    a.paths += (a.paths.empty() ? "" : "+") + cv.path;
  a.ptx = k->kernel.ptx;
  a.llvmIr = k->llvmIr;
  auto run = lower::runPtxas(ptxas, k->kernel.ptx, k->kernel.target.name());
  if (!run.ok()) {
    a.problem = run.message();
    return a;
  }
  a.report = *run;
  if (!run->accepted)
    a.problem = "ptxas: " + run->log;
  return a;
}

// LINLAYOUT_MATRIX_SHARD=i/n: every n-th case from i (several processes share the matrix).
bool shardOf(size_t &shard, size_t &shards, std::string *error) {
  shard = 0;
  shards = 1;
  const char *s = std::getenv("LINLAYOUT_MATRIX_SHARD");
  if (!s)
    return true;
  if (std::sscanf(s, "%zu/%zu", &shard, &shards) == 2 && shards > 0 && shard < shards)
    return true;
  *error = std::string("LINLAYOUT_MATRIX_SHARD is '") + s + "', expected i/n with i < n";
  return false;
}

// LINLAYOUT_MATRIX_NAMES=a,b: whether the case's name contains one of these (every case when
// unset).
bool namedCase(const MatrixCase &c) {
  const char *s = std::getenv("LINLAYOUT_MATRIX_NAMES");
  if (!s)
    return true;
  for (std::string rest = s; !rest.empty();) {
    size_t comma = rest.find(',');
    std::string n = rest.substr(0, comma);
    if (!n.empty() && c.name.find(n) != std::string::npos)
      return true;
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  return false;
}

bool usesLocalMemory(const lower::PtxasReport &r) {
  return r.stackBytes > 0 || r.spillStoreBytes > 0 || r.spillLoadBytes > 0;
}

std::string jsonEscape(const std::string &s) {
  std::string o;
  for (char ch : s)
    if (ch == '"' || ch == '\\')
      o += std::string("\\") + ch;
    else if (ch == '\n')
      o += "\\n";
    else if (uint8_t(ch) >= 0x20)
      o += ch;
  return o;
}

} // namespace

// Cases whose two tiles fit in a thread's registers (at most 128 words of source and destination
// together) use no local memory; the others may (Triton's kernels spill there too).
TEST(TritonMatrix, SampleAssemblesWithoutLocalMemory) {
  std::optional<std::string> ptxas = lower::findPtxas();
  std::vector<MatrixCase> cases = tritonMatrixSample(53);
  ASSERT_GT(cases.size(), 100u);
  int assembled = 0;
  for (const MatrixCase &c : cases) {
    SCOPED_TRACE(c.name);
    if (!ptxas) {
      auto k = loweredForSm90(c);
      EXPECT_TRUE(k.ok()) << k.message();
      continue;
    }
    Assembled a = lowerAndAssemble(c, *ptxas);
    EXPECT_EQ(a.problem, "");
    if (!a.problem.empty())
      continue;
    ++assembled;
    if (wordsPerThread(c) <= 128) {
      EXPECT_FALSE(usesLocalMemory(a.report))
          << "stack " << a.report.stackBytes << ", spill stores " << a.report.spillStoreBytes
          << " bytes, " << a.report.registers << " registers";
    }
  }
  if (ptxas) {
    EXPECT_EQ(assembled, int(cases.size()));
  }
}

// Cases that used local memory where Triton 3.6's kernels use none (H200, 2026-12-02) and no
// longer do: a dot operand's halves read element by element from a swizzled tile and re-paired
// after a barrier, bytes of a tile into the B operand that every warp holds, warp-local i64
// conversions (SinkToUse.h; 64-bit words shuffled and selected as 32-bit halves), and tiles
// whose shared loads now interleave with their global stores (wide ones: i64 and f32 into the B
// operand, mma2mma at 16 warps; not a narrow one: 1-6 64x1 i64, which ptxas spills that way),
// kernels ptxas spilled under `.maxntid` but not under `.reqntid` (Lower.cpp), a register
// permutation of a tile just loaded, its selects made where their inputs are (SinkToUse.h), the
// B operand every warp holds stored to the scratch by predicated stores, not in a branch
// (ConversionEmitter.cpp), and byte pairs stored in the order of the words they come from
// (StoreOrder.h). The last three spilled as much as Triton's kernels (32 bytes) or less, through
// shuffles that hold more words than 1.5 register budgets; they now go through shared memory
// (LowerConvert.cpp, sharedFitsBetter).
TEST(TritonMatrix, FormerSpillsUseNoLocalMemory) {
  std::optional<std::string> ptxas = lower::findPtxas();
  if (!ptxas)
    GTEST_SKIP() << "no ptxas";
  const char *names[] = {
      "convert2d/6-0/swizzled3/64x128/f16", "convert2d/6-7/swizzled4/64x128/f16",
      "convert2d/2-6/none/64x128/i8",       "convert2d/9-6/none/64x128/i8",
      "warp_local/5-13/none/32x32/i64",     "warp_local/12-13/none/32x32/i64",
      "convert2d/0-6/none/64x64/i64",       "convert2d/8-6/none/64x64/i64",
      "convert2d/0-6/none/64x128/f32",      "mma2mma/13-12/none/128x128/f32",
      "mma2mma/13-12/none/256x256/f16",     "convert2d/1-6/none/64x1/i64",
      "convert2d/2-6/none/64x64/i64",       "convert2d/6-0/swizzled1/64x64/f16",
      "warp_local/13-12/none/32x32/i64",    "convert2d/6-1/swizzled2/64x64/f16",
      "convert2d/6-9/none/64x128/i8",       "convert2d/9-10/swizzled3/64x128/f16",
      "convert2d/6-7/none/64x64/i64",       "warp_local/7-13/none/64x64/i64",
  };
  std::vector<MatrixCase> cases = tritonMatrix();
  for (const char *name : names) {
    SCOPED_TRACE(name);
    auto c = std::find_if(cases.begin(), cases.end(),
                          [&](const MatrixCase &m) { return m.name == name; });
    ASSERT_NE(c, cases.end());
    Assembled a = lowerAndAssemble(*c, *ptxas);
    ASSERT_EQ(a.problem, "");
    EXPECT_FALSE(usesLocalMemory(a.report))
        << "stack " << a.report.stackBytes << ", spill stores " << a.report.spillStoreBytes
        << " bytes, " << a.report.registers << " registers";
  }
}

// Where both kernels spill, ours spills less than Triton 3.6's (H200, 2026-12-02, in
// brackets): a kernel whose conversion cannot fit in registers declares `.minnctapersm 1`, so
// ptxas uses every register the block leaves a thread (Lower.cpp), and a warp-shuffle
// conversion whose source alone exceeds them goes through shared memory (LowerConvert.cpp),
// and global loads held back by a global store keep their order (SinkToUse.cpp), and a thread
// loads only the element it keeps of two (LoadChosenElement.h).
TEST(TritonMatrix, SpillsLessThanTriton) {
  std::optional<std::string> ptxas = lower::findPtxas();
  if (!ptxas)
    GTEST_SKIP() << "no ptxas";
  struct Limit {
    const char *name;
    int tritonBytes;
    bool minCtas; // whether the kernel declares `.minnctapersm 1`
  };
  const Limit limits[] = {
      {"mma2mma/2-3/none/256x256/f32", 72, true},   {"warp_local/13-4/none/64x64/i64", 1904, false},
      {"warp_local/9-8/none/64x64/i64", 40, false}, {"warp_local/0-8/none/64x64/i64", 32, false},
      {"warp_local/8-0/none/64x64/i64", 32, false}, {"convert2d/9-10/none/64x128/i64", 1440, true},
  };
  std::vector<MatrixCase> cases = tritonMatrix();
  for (const Limit &l : limits) {
    SCOPED_TRACE(l.name);
    auto c = std::find_if(cases.begin(), cases.end(),
                          [&](const MatrixCase &m) { return m.name == l.name; });
    ASSERT_NE(c, cases.end());
    Assembled a = lowerAndAssemble(*c, *ptxas);
    ASSERT_EQ(a.problem, "");
    EXPECT_LT(a.report.stackBytes, l.tritonBytes) << a.report.registers << " registers";
    EXPECT_EQ(a.ptx.find(".minnctapersm 1") != std::string::npos, l.minCtas);
  }
  // A conversion that fits keeps ptxas' own choice.
  auto c = std::find_if(cases.begin(), cases.end(), [](const MatrixCase &m) {
    return m.name == "warp_local/9-8/none/32x32/i64";
  });
  ASSERT_NE(c, cases.end());
  Assembled a = lowerAndAssemble(*c, *ptxas);
  ASSERT_EQ(a.problem, "");
  EXPECT_EQ(a.ptx.find(".minnctapersm"), std::string::npos);
}

// A tile read from a buffer and converted at once, wider than half the registers: the
// conversion's scratch lies apart from the buffer, so no barrier stands between the tile's
// shared loads and the conversion's stores (stmatrix for 9-6, st.shared for 9-8), and each load
// moves down to the store that takes its word (Lower.cpp, SinkToUse.h). Sharing the bytes, both
// held the whole tile across a third barrier and spilled 32 bytes at 255 registers; Triton
// 3.6's kernels spill 24 (H200, 2026-12-02).
TEST(TritonMatrix, TileReadIntoAConversionInterleaves) {
  std::optional<std::string> ptxas = lower::findPtxas();
  std::vector<MatrixCase> cases = tritonMatrix();
  for (const char *name :
       {"convert2d/9-6/swizzled3/64x128/f16", "convert2d/9-8/swizzled4/64x128/f16"}) {
    SCOPED_TRACE(name);
    auto c = std::find_if(cases.begin(), cases.end(),
                          [&](const MatrixCase &m) { return m.name == name; });
    ASSERT_NE(c, cases.end());
    auto k = loweredForSm90(*c);
    ASSERT_TRUE(k.ok()) << k.message();
    // One after the tile's stores into the buffer, one between the conversion's stores and loads.
    size_t barriers = 0;
    for (size_t at = k->kernel.ptx.find("bar.sync"); at != std::string::npos;
         at = k->kernel.ptx.find("bar.sync", at + 1))
      ++barriers;
    EXPECT_EQ(barriers, 2u);
    if (!ptxas)
      continue;
    Assembled a = lowerAndAssemble(*c, *ptxas);
    ASSERT_EQ(a.problem, "");
    EXPECT_FALSE(usesLocalMemory(a.report))
        << "stack " << a.report.stackBytes << ", " << a.report.registers << " registers";
  }
}

// A source that gives each thread two candidates per element it keeps, too wide for the
// registers before the first global store: each thread loads only the element it keeps
// (LoadChosenElement.h), 64-bit loads where the source's layout has 128-bit ones.
TEST(TritonMatrix, ChosenElementsAreLoadedAlone) {
  std::vector<MatrixCase> cases = tritonMatrix();
  auto c = std::find_if(cases.begin(), cases.end(), [](const MatrixCase &m) {
    return m.name == "convert2d/9-10/none/64x128/i64";
  });
  ASSERT_NE(c, cases.end());
  auto k = loweredForSm90(*c);
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_EQ(k->kernel.ptx.find("ld.global.v2.u64"), std::string::npos);
  EXPECT_NE(k->kernel.ptx.find("ld.global.u64"), std::string::npos);
}

TEST(TritonMatrix, Full) {
  const char *out = std::getenv("LINLAYOUT_TRITON_MATRIX");
  if (!out)
    GTEST_SKIP() << "set LINLAYOUT_TRITON_MATRIX=FILE to compile every case (minutes)";
  std::optional<std::string> ptxas = lower::findPtxas();
  ASSERT_TRUE(ptxas) << "no ptxas";
  size_t shard, shards;
  std::string why;
  ASSERT_TRUE(shardOf(shard, shards, &why)) << why;
  std::ofstream f(out);
  ASSERT_TRUE(f) << "cannot write " << out;
  int failed = 0, local = 0, n = 0;
  std::vector<MatrixCase> cases = tritonMatrix();
  // LINLAYOUT_MATRIX_COPIES=1: only the cases whose destination threads hold copies (their
  // stores are predicated), to measure a change to such stores.
  const bool copiesOnly = std::getenv("LINLAYOUT_MATRIX_COPIES") != nullptr;
  // LINLAYOUT_MATRIX_PTX=DIR: each case's PTX and LLVM IR go to DIR/<name, '/' as '_'>.ptx, .ll.
  const char *ptxDir = std::getenv("LINLAYOUT_MATRIX_PTX");
  for (size_t i = shard; i < cases.size(); i += shards) {
    const MatrixCase &c = cases[i];
    if (!namedCase(c))
      continue;
    if (copiesOnly) {
      auto dst = toLinearLayout(c.dst, c.shape);
      bool copies = false;
      for (DimName in : {DimName::lane(), DimName::warp()})
        for (int b = 0; dst.ok() && b < dst->inDimBits(in); ++b) {
          auto v = dst->basis(in, b);
          copies |= std::all_of(v.begin(), v.end(), [](auto x) { return x == 0; });
        }
      if (!copies)
        continue;
    }
    Assembled a = lowerAndAssemble(c, *ptxas);
    if (ptxDir && !a.ptx.empty()) {
      std::string file = c.name;
      std::replace(file.begin(), file.end(), '/', '_');
      std::ofstream(std::string(ptxDir) + "/" + file + ".ptx") << a.ptx;
      std::ofstream(std::string(ptxDir) + "/" + file + ".ll") << a.llvmIr;
    }
    ++n;
    failed += !a.problem.empty();
    local += a.problem.empty() && usesLocalMemory(a.report);
    f << "{\"name\": \"" << c.name << "\", \"ok\": " << (a.problem.empty() ? "true" : "false")
      << ", \"registers\": " << a.report.registers << ", \"stack\": " << a.report.stackBytes
      << ", \"spill_stores\": " << a.report.spillStoreBytes
      << ", \"spill_loads\": " << a.report.spillLoadBytes << ", \"words\": " << wordsPerThread(c)
      << ", \"src_words\": " << tileWords(c, c.src) << ", \"path\": \"" << a.paths << "\"";
    if (!a.problem.empty())
      f << ", \"error\": \"" << jsonEscape(a.problem.substr(0, 300)) << "\"";
    f << "}\n";
  }
  std::cout << "[          ] " << n << " cases, " << failed << " failed, " << local
            << " use local memory\n";
  EXPECT_EQ(failed, 0);
}

TEST(TritonMatrixGpu, EveryCaseIsBitExact) {
  REQUIRE_GPU();
  size_t shard, shards;
  std::string why;
  ASSERT_TRUE(shardOf(shard, shards, &why)) << why;
  std::ofstream f;
  if (const char *out = std::getenv("LINLAYOUT_TRITON_MATRIX"))
    f.open(out);
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<MatrixCase> cases = tritonMatrix();
  int run = 0, wrong = 0;
  for (size_t i = shard; i < cases.size(); i += shards) {
    const MatrixCase &c = cases[i];
    if (!namedCase(c))
      continue;
    std::string problem;
    auto m = matrixKernel(c);
    std::shared_ptr<const jit::Kernel> k;
    if (!m.ok()) {
      problem = "building: " + m.message();
    } else if (auto kk = jitc->compile(*m, gputest::asBuilt()); !kk.ok()) {
      problem = "compiling: " + kk.message();
    } else {
      k = *kk;
      int64_t n = 1;
      for (int64_t d : c.shape)
        n *= d;
      int inBytes = ir::byteWidth(c.elem), outBytes = ir::byteWidth(matrixOutputType(c));
      std::vector<uint8_t> in = gputest::randomBytes(rng, size_t(n * inBytes));
      if (c.elem == ScalarKind::I1)
        for (uint8_t &v : in)
          v &= 1;
      auto dIn = runtime::DeviceBuffer::fromHost<uint8_t>(in);
      auto dOut = runtime::DeviceBuffer::allocate(size_t(n * outBytes));
      if (!dIn.ok() || !dOut.ok() || !dOut->fill(0x5a).ok())
        problem = "allocating";
      else if (Status s = k->launch({1u}, *dIn, *dOut); !s.ok())
        problem = "launching: " + s.message();
      else if (Status s2 = jitc->context().synchronize(); !s2.ok())
        problem = "running: " + s2.message();
      else if (auto out = dOut->toHost<uint8_t>(); !out.ok())
        problem = "copying back";
      else
        for (int64_t e = 0; e < n && problem.empty(); ++e) {
          uint64_t want = 0, got = 0;
          std::memcpy(&want, &in[size_t(e * inBytes)], size_t(inBytes));
          std::memcpy(&got, &(*out)[size_t(e * outBytes)], size_t(outBytes));
          if (want != got)
            problem = "element " + std::to_string(e) + " is " + std::to_string(got) +
                      ", expected " + std::to_string(want);
        }
    }
    ++run;
    if (!problem.empty()) {
      ++wrong;
      ADD_FAILURE() << c.name << ": " << problem;
    }
    if (f.is_open()) {
      f << "{\"name\": \"" << c.name << "\", \"ok\": " << (problem.empty() ? "true" : "false");
      if (k) {
        const jit::KernelMetadata &md = k->metadata();
        std::string paths;
        for (const auto &cv : md.conversions)
          paths += (paths.empty() ? "" : "+") + cv.path;
        f << ", \"registers\": " << md.registers << ", \"local_bytes\": " << md.localBytes
          << ", \"path\": \"" << paths << "\"";
      }
      if (!problem.empty())
        f << ", \"error\": \"" << jsonEscape(problem.substr(0, 300)) << "\"";
      f << "}\n";
    }
  }
  std::cout << "[          ] " << run << " cases run, " << wrong << " wrong\n";
  EXPECT_EQ(wrong, 0);
}

// A conversion between layouts that differ only in how registers are numbered renames values:
// the PTX between the conversion's markers holds no instruction, for every element type (16-bit
// pairs and bytes included, which could have been repacked).
TEST(TritonMatrix, RegisterOnlyConversionsEmitNoInstruction) {
  // Lanes along dim0 and warps along dim1 whatever the order: only the registers' order differs.
  LayoutSpec rowMajor = BlockedSpec::make({2, 2}, {32, 1}, {1, 4}, {1, 0}).value();
  LayoutSpec colMajor = BlockedSpec::make({2, 2}, {32, 1}, {1, 4}, {0, 1}).value();
  for (ScalarKind e :
       {ScalarKind::F16, ScalarKind::F32, ScalarKind::I8, ScalarKind::I64, ScalarKind::I1})
    for (int dir = 0; dir < 2; ++dir) {
      MatrixCase c{"register_only",
                   "register_only",
                   dir ? colMajor : rowMajor,
                   dir ? rowMajor : colMajor,
                   std::nullopt,
                   {64, 64},
                   e,
                   4};
      SCOPED_TRACE(std::string(ir::name(e)) + (dir ? " col->row" : " row->col"));
      lower::LowerOptions o;
      o.annotateConversions = true;
      auto k = loweredForSm90(c, o);
      ASSERT_TRUE(k.ok()) << k.message();
      ASSERT_EQ(k->conversions.size(), 1u);
      EXPECT_EQ(k->conversions[0].path, "register_permute");
      EXPECT_EQ(k->conversions[0].selects, 0);
      const std::string &ptx = k->kernel.ptx;
      size_t begin = ptx.find("// begin convert_layout");
      size_t end = ptx.find("// end convert_layout");
      ASSERT_NE(begin, std::string::npos);
      ASSERT_NE(end, std::string::npos);
      std::istringstream lines(ptx.substr(begin, end - begin));
      std::string line;
      std::getline(lines, line); // the begin marker itself
      while (std::getline(lines, line)) {
        size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line.compare(first, 2, "//") == 0)
          continue;
        ADD_FAILURE() << "an instruction inside the conversion: " << line;
      }
    }
}

// Booleans move as bytes: an i1 tile's conversion is the i8 tile's (same path, same shuffles,
// selects, byte permutes and shared-memory accesses), never a 32-bit word per element.
TEST(TritonMatrix, BooleansMoveAsBytes) {
  int compared = 0;
  for (const MatrixCase &c : tritonMatrixSample(97)) {
    if (c.elem != ScalarKind::I8 || c.intermediate)
      continue;
    MatrixCase b = c;
    b.elem = ScalarKind::I1;
    SCOPED_TRACE(c.name);
    lower::LowerOptions o;
    o.target = LowerTarget::parse("sm_90").value();
    auto m8 = matrixKernel(c), m1 = matrixKernel(b);
    ASSERT_TRUE(m8.ok() && m1.ok());
    auto k8 = lower::lowerKernel(*m8, o), k1 = lower::lowerKernel(*m1, o);
    ASSERT_TRUE(k8.ok()) << k8.message();
    ASSERT_TRUE(k1.ok()) << k1.message();
    ASSERT_EQ(k8->conversions.size(), k1->conversions.size());
    for (size_t i = 0; i < k8->conversions.size(); ++i) {
      const lower::ConversionReport &x = k8->conversions[i], &y = k1->conversions[i];
      EXPECT_EQ(x.path, y.path);
      EXPECT_EQ(x.shuffles, y.shuffles);
      EXPECT_EQ(x.selects, y.selects);
      EXPECT_EQ(x.prmts, y.prmts);
      EXPECT_EQ(x.sharedStores, y.sharedStores);
      EXPECT_EQ(x.sharedLoads, y.sharedLoads);
    }
    ++compared;
  }
  EXPECT_GT(compared, 5);
}
