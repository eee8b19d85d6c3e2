// `linlayout show LAYOUT...`: pictures of layouts, as text and optionally SVG / HTML. LAYOUT is
// a linear layout or a hardware layout spec in JSON (docs/query.md), a spec in TritonGPU
// attribute syntax or a tensor type, or @FILE to read one of those from a file.
#include "Args.h"
#include "Commands.h"

#include "linlayout/ir/VerifyLayoutSizes.h"
#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"
#include "linlayout/layout/PictureSvg.h"
#include "query/LayoutArg.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace linlayout::cli {

namespace {

// The width a picture aims for, in characters, when --max-cols is not given.
constexpr int64_t kTextWidth = 130;

std::string shapeText(const std::vector<int64_t> &shape) {
  if (shape.size() == 1)
    return std::to_string(shape[0]) + "-element";
  std::string t;
  for (size_t i = 0; i < shape.size(); ++i)
    t += (i ? "x" : "") + std::to_string(shape[i]);
  return t.empty() ? "scalar" : t;
}

// One line saying what the picture is of.
std::string summary(const OwnerMap &m) {
  std::ostringstream os;
  os << shapeText(m.shape()) << " tensor, ";
  if (m.isShared()) {
    os << m.numIndices() << " offsets per CTA";
  } else if (m.isTensorMemory()) {
    os << m.lanesPerWarp() * m.numWarps() << " rows x " << m.numIndices()
       << " 32-bit columns of tensor memory (cells: r<row>c<column>)";
  } else {
    uint64_t threads = uint64_t(m.numWarps()) * m.lanesPerWarp();
    os << threads << " thread" << (threads == 1 ? "" : "s") << " (" << m.numWarps() << " warp"
       << (m.numWarps() == 1 ? "" : "s") << " of " << m.lanesPerWarp() << " lanes), "
       << m.numIndices() << " register" << (m.numIndices() == 1 ? "" : "s") << " per thread";
  }
  if (m.numBlocks() > 1)
    os << ", " << m.numBlocks() << " CTAs";
  return os.str();
}

// The launch sizes of the module a dump holds, when it holds one (a line opening `module`):
// its "ttg.threads-per-warp", "ttg.num-warps" and "ttg.num-ctas", Triton's defaults (32, 4, 1)
// where one is not given.
std::optional<ir::LaunchSizes> moduleSizes(const std::string &dump) {
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line)) {
    size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line.compare(at, 6, "module") != 0 ||
        (line.size() > at + 6 && line[at + 6] != ' ' && line[at + 6] != '{'))
      continue;
    auto attr = [&](const std::string &name, int64_t fallback) {
      size_t k = line.find("\"" + name + "\" = ");
      return k == std::string::npos ? fallback
                                    : std::strtoll(line.c_str() + k + name.size() + 5, nullptr, 10);
    };
    return ir::LaunchSizes{attr("ttg.threads-per-warp", 32), attr("ttg.num-warps", 4),
                           attr("ttg.num-ctas", 1)};
  }
  return std::nullopt;
}

struct ShowArgs {
  std::vector<std::string> layouts;
  std::string shape, svgPath, htmlPath, aliasPath;
  int bitwidth = 0;                 // 0: the NVMMA layout's own, else 16
  int64_t threadsPerWarp = 0;       // 0: the --aliases module's, else the family's
  int64_t maxRows = 0, maxCols = 0; // 0: the defaults
  bool inverse = false, threads = false, full = false;
};

int usageError(const std::string &why) {
  std::cerr << "linlayout show: " << why << "\nRun 'linlayout show --help' for usage.\n";
  return 2;
}

int runShow(const ShowArgs &a) {
  const std::vector<std::string> &layouts = a.layouts;
  std::optional<std::vector<int64_t>> shape;
  if (!a.shape.empty()) {
    auto s = parseShape(a.shape);
    if (!s.ok())
      return usageError("--shape takes sizes like 16x16: " + s.message());
    shape = *s;
  }
  const std::string &svgPath = a.svgPath, &htmlPath = a.htmlPath, &aliasPath = a.aliasPath;
  const std::optional<int> bitwidthArg = a.bitwidth ? std::optional<int>(a.bitwidth) : std::nullopt;
  const bool inverse = a.inverse;
  PictureOptions opts;
  // Without --max-cols, as many columns as fit in kTextWidth.
  bool autoCols = !a.maxCols;
  if (a.maxRows)
    opts.maxRows = a.maxRows;
  if (a.maxCols)
    opts.maxCols = a.maxCols;
  if (a.threads)
    opts.style = CellStyle::ThreadIds;
  if (a.full) {
    opts.maxRows = opts.maxCols = opts.maxSlices = int64_t(1) << 40;
    autoCols = false;
  }
  if (!svgPath.empty() && layouts.size() > 1)
    return usageError("--svg draws one layout; use --html for several");

  std::string aliasText;
  if (!aliasPath.empty()) {
    auto t = readFile(aliasPath);
    if (!t.ok()) {
      std::cerr << "linlayout show: " << t.message() << "\n";
      return 1;
    }
    aliasText = *t;
  }
  auto aliases = parseAttrAliases(aliasText);
  if (!aliases.ok()) {
    std::cerr << "linlayout show: " << aliasPath << ": " << aliases.message() << "\n";
    return 1;
  }
  const std::optional<ir::LaunchSizes> module = moduleSizes(aliasText);

  std::vector<HtmlPanel> panels;
  for (size_t k = 0; k < layouts.size(); ++k) {
    std::string text = layouts[k];
    std::string origin = text;
    if (text.size() > 1 && text[0] == '@') {
      auto t = readFile(text.substr(1));
      if (!t.ok()) {
        std::cerr << "linlayout show: " << t.message() << "\n";
        return 1;
      }
      text = *t;
    }
    auto layout = query::layoutFromArg(text, shape, *aliases);
    if (!layout.ok()) {
      std::cerr << "linlayout show: " << layout.message() << "\n";
      return 1;
    }
    // A hardware layout must fill the warps it runs on, as the verifier requires of a module's
    // layouts: the module's of --aliases, else --threads-per-warp or the family's warp (warps and
    // CTAs are then free). A linear layout in JSON or CuTe's form is drawn as it is.
    if (layout->spec && layout->spec->isDistributed()) {
      ir::LaunchSizes sizes =
          module.value_or(ir::LaunchSizes{ir::defaultThreadsPerWarp(*layout->spec), 0, 0});
      if (a.threadsPerWarp)
        sizes.threadsPerWarp = a.threadsPerWarp;
      if (auto bad = ir::layoutSizeMismatch(layout->layout, sizes)) {
        const bool lanes = std::string(bad->attribute) == "ttg.threads-per-warp";
        std::cerr << "linlayout show: " << origin << " " << bad->text() << ", ";
        if (lanes && a.threadsPerWarp)
          std::cerr << "not the " << bad->required << " of --threads-per-warp\n";
        else if (module)
          std::cerr << "the module of " << aliasPath << " " << bad->required << " (\""
                    << bad->attribute << "\")\n";
        else
          std::cerr << "a warp has " << bad->required << " (--threads-per-warp " << bad->layout
                    << " draws it for warps of " << bad->layout << " lanes)\n";
        return 1;
      }
    }
    // Banks count bytes: an NVMMA layout knows its element width; otherwise --bitwidth or 16.
    int bitwidth = bitwidthArg.value_or(16);
    if (!bitwidthArg && layout->spec)
      if (const auto *nv = layout->spec->as<NvmmaSharedSpec>())
        bitwidth = nv->elementBitwidth();
    auto map = OwnerMap::build(layout->layout);
    if (!map.ok()) {
      std::cerr << "linlayout show: " << map.message() << "\n";
      return 1;
    }
    PictureOptions o = opts;
    // A padded layout's banks are those of its addresses (the offsets spread out by padding).
    if (layout->spec)
      for (const PadInterval &p : sharedPadding(*layout->spec))
        o.padding.push_back({p.interval, p.padding});
    if (autoCols)
      o.maxCols = columnsThatFit(*map, o.style, kTextWidth);
    // Past the limit, each tile keeps about half the budget at its start and a quarter at its end.
    o.rowHead = std::max<int64_t>(1, o.maxRows / 2);
    o.rowTail = std::max<int64_t>(1, o.maxRows / 4);
    o.colHead = std::max<int64_t>(1, o.maxCols / 2);
    o.colTail = std::max<int64_t>(1, o.maxCols / 4);
    std::ostringstream out;
    if (layouts.size() > 1)
      out << (k ? "\n" : "") << "== " << origin << "\n";
    out << summary(*map) << "\n";
    if (map->isShared()) {
      out << "offsets:\n" << renderTensorMap(*map, o);
      if (!o.padding.empty()) {
        std::string pairs;
        for (const auto &[interval, padding] : o.padding)
          pairs += (pairs.empty() ? "" : ", ") + std::to_string(interval) + ":+" +
                   std::to_string(padding);
        out << "addresses (offsets padded by [" << pairs << "]):\n" << *renderAddresses(*map, o);
      }
      auto banks = renderBanks(*map, bitwidth, o);
      out << "banks (" << bitwidth << "-bit elements, 32 banks of 4 bytes):\n" << *banks;
    } else {
      out << renderTensorMap(*map, o);
    }
    if (inverse) {
      auto inv = renderInverse(*map, o, bitwidth);
      if (!inv.ok()) {
        std::cerr << "linlayout show: " << inv.message() << "\n";
        return 1;
      }
      out << (map->isShared() ? "elements by offset:\n" : "elements by thread:\n") << *inv;
    }
    std::cout << out.str();

    if (!svgPath.empty() || !htmlPath.empty()) {
      SvgOptions so;
      so.picture = o;
      so.bitwidth = bitwidth;
      so.title = origin.size() > 400 ? origin.substr(0, 397) + "..." : origin;
      std::string svg = renderSvg(*map, so);
      if (!svgPath.empty()) {
        Status w = writeFile(svgPath, svg);
        if (!w.ok()) {
          std::cerr << "linlayout show: " << w.message() << "\n";
          return 1;
        }
      }
      so.title.clear();
      panels.push_back({origin, renderSvg(*map, so), ""});
    }
  }
  if (!htmlPath.empty()) {
    Status w = writeFile(htmlPath, renderHtml(panels, "linlayout pictures"));
    if (!w.ok()) {
      std::cerr << "linlayout show: " << w.message() << "\n";
      return 1;
    }
  }
  return 0;
}

} // namespace

void addShowCommand(CLI::App &app, int &status) {
  CLI::App *cmd = app.add_subcommand("show", "Draw layouts: who holds each element.");
  auto a = std::make_shared<ShowArgs>();
  cmd->add_option("LAYOUT", a->layouts,
                  "a linear layout or layout spec in JSON, a TritonGPU attribute "
                  "(#ttg.blocked<{...}>, #alias with --aliases), a tensor type "
                  "(tensor<16x16xf16, #ttg...>, which gives the shape), or @FILE holding one")
      ->required();
  cmd->add_option("--shape", a->shape,
                  "the tensor shape, like 16x16 (needed for specs; checked for linear layouts)");
  cmd->add_option("--aliases", a->aliasPath,
                  "read #name = ... alias definitions (a compiler dump) from FILE")
      ->type_name("FILE");
  cmd->add_option("--bitwidth", a->bitwidth,
                  "element width for shared-memory banks (default: the NVMMA layout's own, else "
                  "16)")
      ->type_name("8|16|32|64")
      ->check(CLI::IsMember({8, 16, 32, 64}));
  cmd->add_option("--threads-per-warp", a->threadsPerWarp,
                  "the lanes of a warp, which a hardware layout must fill (default: the --aliases "
                  "module's \"ttg.threads-per-warp\", else 64 for AMD MFMA layouts, 32 otherwise)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--inverse", a->inverse,
                "also show what each thread (shared: each 128 bytes) holds");
  cmd->add_flag("--threads", a->threads,
                "draw thread ids as the TritonGPU docs do instead of T<thread>:<reg>");
  cmd->add_flag("--full", a->full, "never elide rows or columns");
  cmd->add_option("--max-rows", a->maxRows, "elide rows past N (default 32)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-cols", a->maxCols,
                  "elide columns past N (default: as many as fit in 130 characters)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--svg", a->svgPath,
                  "write a coloured SVG of the (single) layout, elided as the text picture is "
                  "(--full draws every element)")
      ->type_name("FILE");
  cmd->add_option("--html", a->htmlPath, "write an HTML page with every layout side by side")
      ->type_name("FILE");
  cmd->callback([a, &status] { status = runShow(*a); });
}

} // namespace linlayout::cli
