// linlayout show LAYOUT... [--shape 16x16] [--bitwidth 16] [--inverse] [--threads] [--full]
//                          [--max-rows N] [--max-cols N] [--svg FILE] [--html FILE]
//
// LAYOUT is a linear layout or a hardware layout spec in JSON (QUERY-FORMAT.md), or a spec in
// TritonGPU attribute syntax, or @FILE to read one of those from a file.
#include "Show.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"
#include "linlayout/layout/PictureSvg.h"
#include "query/LayoutArg.h"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace linlayout::cli {

namespace {

// The width a picture aims for, in characters, when --max-cols is not given.
constexpr int64_t kTextWidth = 130;

constexpr const char *kUsage =
    "usage: linlayout show LAYOUT... [options]\n"
    "  LAYOUT             a linear layout or layout spec in JSON, a TritonGPU attribute\n"
    "                     (#ttg.blocked<{...}>, #alias with --aliases), a tensor type\n"
    "                     (tensor<16x16xf16, #ttg...>, which gives the shape), or @FILE\n"
    "  --shape 16x16      the tensor shape (needed for specs; checked for linear layouts)\n"
    "  --aliases FILE     read #name = ... alias definitions (a compiler dump) from FILE\n"
    "  --bitwidth N       element width for shared-memory banks (8, 16, 32, 64; default: the\n"
    "                     NVMMA layout's own, else 16)\n"
    "  --inverse          also show what each thread (shared: each 128 bytes) holds\n"
    "  --threads          draw thread ids as the TritonGPU docs do instead of T<thread>:<reg>\n"
    "  --full             never elide rows or columns\n"
    "  --max-rows N       elide past N rows (default 32); --max-cols N likewise (default:\n"
    "                     as many as fit in 130 characters)\n"
    "  --svg FILE         write a coloured SVG of the (single) layout\n"
    "  --html FILE        write an HTML page with every layout side by side\n";

int usageError(const std::string &why) {
  std::cerr << "linlayout show: " << why << "\n" << kUsage;
  return 2;
}

std::optional<int64_t> parsePositive(const std::string &s) {
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  int64_t v = std::stoll(s);
  if (v <= 0)
    return std::nullopt;
  return v;
}

std::optional<std::vector<int64_t>> parseShape(const std::string &s) {
  std::vector<int64_t> shape;
  std::string cur;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == 'x' || s[i] == ',') {
      auto v = parsePositive(cur);
      if (!v)
        return std::nullopt;
      shape.push_back(*v);
      cur.clear();
    } else {
      cur += s[i];
    }
  }
  return shape;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

bool writeFile(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return bool(f);
}

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

} // namespace

int runShow(int argc, char **argv) {
  std::vector<std::string> layouts;
  std::optional<std::vector<int64_t>> shape;
  std::string svgPath, htmlPath, aliasPath;
  std::optional<int> bitwidthArg;
  bool inverse = false;
  PictureOptions opts;
  bool autoCols = true; // without --max-cols, as many columns as fit in kTextWidth
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--shape") {
      if (!value(v) || !(shape = parseShape(v)))
        return usageError("--shape takes sizes like 16x16");
    } else if (a == "--bitwidth") {
      auto n = value(v) ? parsePositive(v) : std::nullopt;
      if (!n || (*n != 8 && *n != 16 && *n != 32 && *n != 64))
        return usageError("--bitwidth takes 8, 16, 32 or 64");
      bitwidthArg = int(*n);
    } else if (a == "--max-rows" || a == "--max-cols") {
      auto n = value(v) ? parsePositive(v) : std::nullopt;
      if (!n)
        return usageError(a + " takes a positive count");
      (a == "--max-rows" ? opts.maxRows : opts.maxCols) = *n;
      autoCols &= a != "--max-cols";
    } else if (a == "--inverse") {
      inverse = true;
    } else if (a == "--threads") {
      opts.style = CellStyle::ThreadIds;
    } else if (a == "--full") {
      opts.maxRows = opts.maxCols = opts.maxSlices = int64_t(1) << 40;
      autoCols = false;
    } else if (a == "--svg") {
      if (!value(svgPath))
        return usageError("--svg takes a file name");
    } else if (a == "--html") {
      if (!value(htmlPath))
        return usageError("--html takes a file name");
    } else if (a == "--aliases") {
      if (!value(aliasPath))
        return usageError("--aliases takes a file name");
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a.size() > 2 && a.rfind("--", 0) == 0) {
      return usageError("unknown option '" + a + "'");
    } else {
      layouts.push_back(a);
    }
  }
  if (layouts.empty())
    return usageError("no layout given");

  if (!svgPath.empty() && layouts.size() > 1)
    return usageError("--svg draws one layout; use --html for several");

  std::string aliasText;
  if (!aliasPath.empty() && !readFile(aliasPath, aliasText)) {
    std::cerr << "linlayout show: cannot read '" << aliasPath << "': " << std::strerror(errno)
              << "\n";
    return 1;
  }
  auto aliases = parseAttrAliases(aliasText);
  if (!aliases.ok()) {
    std::cerr << "linlayout show: " << aliasPath << ": " << aliases.message() << "\n";
    return 1;
  }

  std::vector<HtmlPanel> panels;
  for (size_t k = 0; k < layouts.size(); ++k) {
    std::string text = layouts[k];
    std::string origin = text;
    if (text.size() > 1 && text[0] == '@') {
      if (!readFile(text.substr(1), text)) {
        std::cerr << "linlayout show: cannot read '" << text.substr(1)
                  << "': " << std::strerror(errno) << "\n";
        return 1;
      }
    }
    auto layout = query::layoutFromArg(text, shape, *aliases);
    if (!layout.ok()) {
      std::cerr << "linlayout show: " << layout.message() << "\n";
      return 1;
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
      if (!svgPath.empty() && !writeFile(svgPath, svg)) {
        std::cerr << "linlayout show: cannot write '" << svgPath << "'\n";
        return 1;
      }
      so.title.clear();
      panels.push_back({origin, renderSvg(*map, so), ""});
    }
  }
  if (!htmlPath.empty() && !writeFile(htmlPath, renderHtml(panels, "linlayout pictures"))) {
    std::cerr << "linlayout show: cannot write '" << htmlPath << "'\n";
    return 1;
  }
  return 0;
}

} // namespace linlayout::cli
