#include "linlayout/layout/PictureSvg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace linlayout {

namespace {

constexpr int kCell = 30;     // cell side
constexpr int kGap = 14;      // width of an elided run
constexpr int kMargin = 34;   // room for the row and column numbers
constexpr int kTitle = 16;    // height of a caption line
constexpr int kSliceGap = 26; // between the matrices of outer indices (with their label)

std::string hsl(double hue, double sat, double light) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "hsl(%.0f,%.0f%%,%.0f%%)", std::fmod(hue, 360.0), sat, light);
  return buf;
}

// Golden-angle hues keep neighbouring warps (banks) far apart in colour.
double hueOf(uint64_t i) { return double(i) * 137.508; }

std::string cellFill(const OwnerMap &map, int64_t e, int bitwidth, const PictureOptions &o) {
  auto hs = map.holders(e);
  if (hs.empty())
    return "#ffffff";
  const Holder &h = hs.front();
  if (map.isShared())
    return hsl(hueOf(uint64_t(bankOf(paddedAddress(h.index, o), bitwidth))), 60, 78);
  double lanes = std::max<double>(1.0, map.lanesPerWarp());
  double light = 88.0 - 40.0 * double(h.lane) / lanes;
  return hsl(hueOf(h.warp + uint64_t(map.numWarps()) * h.block), 65, light);
}

// A padded shared layout's cells show addresses: what its banks are of.
std::string cellLabel(const OwnerMap &map, int64_t e, const PictureOptions &o) {
  auto hs = map.holders(e);
  if (hs.empty())
    return "";
  // Tensor memory: the row (the colour is the warp that reaches it, the title has the column).
  const Holder &h = hs.front();
  uint64_t i = h.index;
  std::string t = std::to_string(map.isTensorMemory() ? uint64_t(h.lane) + 32 * h.warp
                                 : map.isShared()     ? paddedAddress(i, o)
                                                      : i);
  if (hs.size() > 1)
    t += "*"; // held several times: the tooltip lists every holder
  return t;
}

// Pixel positions of the shown indices of one axis; elided runs take a narrow gap.
struct Axis {
  std::vector<int64_t> shown;
  std::vector<int> pos;
  int length = 0;
};

Axis axisOf(std::vector<int64_t> shown) {
  Axis a;
  a.shown = std::move(shown);
  int p = 0;
  for (int64_t i : a.shown) {
    a.pos.push_back(p);
    p += i == kElided ? kGap : kCell;
  }
  a.length = p;
  return a;
}

std::vector<int64_t> allOrHeadTail(int64_t n, int64_t max) {
  std::vector<int64_t> out;
  if (n <= max) {
    for (int64_t i = 0; i < n; ++i)
      out.push_back(i);
    return out;
  }
  out = {0, 1, kElided, n - 1};
  return out;
}

} // namespace

std::string escapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // Control characters other than tab and newline are not allowed in XML 1.0 at all.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
        out += ' ';
      else
        out += c;
    }
  }
  return out;
}

std::string renderSvg(const OwnerMap &map, const SvgOptions &options) {
  const PictureOptions &o = options.picture;
  int bitwidth = options.bitwidth;
  if (bitwidth != 8 && bitwidth != 16 && bitwidth != 32 && bitwidth != 64)
    bitwidth = 16;
  int rank = map.rank();
  int rowDim = rank >= 2 ? rank - 2 : -1;
  int colDim = rank >= 1 ? rank - 1 : -1;
  Axis rows = axisOf(rowDim >= 0 ? shownIndices(map, rowDim, o.maxRows, o.rowHead, o.rowTail,
                                                o.groupHead, o.groupTail)
                                 : std::vector<int64_t>{0});
  Axis cols = axisOf(colDim >= 0 ? shownIndices(map, colDim, o.maxCols, o.colHead, o.colTail,
                                                o.groupHead, o.groupTail)
                                 : std::vector<int64_t>{0});

  // Outer indices (rank >= 3): every combination of the shown ones, one matrix each.
  std::vector<std::vector<int64_t>> outers{{}};
  for (int d = 0; d + 2 < rank; ++d) {
    std::vector<std::vector<int64_t>> next;
    for (const auto &prefix : outers)
      for (int64_t v : allOrHeadTail(map.shape()[size_t(d)], o.maxSlices)) {
        auto p = prefix;
        p.push_back(v);
        next.push_back(p);
      }
    outers = std::move(next);
  }

  int top = kMargin;
  int sliceHeight = rows.length + (rank >= 3 ? kSliceGap : 0);
  int width = kMargin + cols.length + 8;
  int height = top + int(outers.size()) * sliceHeight + 8;
  // Room for the legend: one swatch per warp (distributed) below the matrices.
  uint64_t legendWarps =
      map.isShared() ? 0 : std::min<uint64_t>(map.numWarps() * map.numBlocks(), 16);
  if (legendWarps > 1)
    height += 24;
  width = std::max(width, legendWarps > 1 ? kMargin + int(legendWarps) * 64 : 0);
  // The caption wraps to the picture's width (about 7.2 pixels per character at 12 pixels).
  std::vector<std::string> titleLines;
  size_t perLine = std::max<size_t>(20, size_t(double(width - 8) / 7.3));
  // Lines break after a space, a comma or an opening bracket where one falls past the line's
  // first third, so that a word is cut only when it is longer than two thirds of a line.
  const std::string &title = options.title;
  for (size_t p = 0; p < title.size();) {
    size_t n = std::min(perLine, title.size() - p);
    if (p + n < title.size()) {
      size_t cut = title.find_last_of(" ,<{[", p + n - 1);
      if (cut != std::string::npos && cut >= p + perLine / 3)
        n = cut + 1 - p;
    }
    titleLines.push_back(title.substr(p, n));
    p += n;
  }
  top += int(titleLines.size()) * kTitle;
  height += int(titleLines.size()) * kTitle;

  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
     << "\" viewBox=\"0 0 " << width << " " << height
     << "\" font-family=\"monospace\" font-size=\"10\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (size_t i = 0; i < titleLines.size(); ++i)
    os << "<text x=\"4\" y=\"" << 15 + int(i) * kTitle << "\" font-size=\"12\">"
       << escapeXml(titleLines[i]) << "</text>\n";

  int y0 = top;
  for (const auto &outer : outers) {
    bool elidedSlice = std::find(outer.begin(), outer.end(), kElided) != outer.end();
    if (rank >= 3) {
      std::string label = "[";
      for (int64_t v : outer)
        label += (v == kElided ? std::string("...") : std::to_string(v)) + ", ";
      label += ":, :]";
      os << "<text x=\"4\" y=\"" << y0 - 4 << "\" fill=\"#444444\">" << escapeXml(label)
         << "</text>\n";
      y0 += kSliceGap;
    }
    if (elidedSlice) {
      y0 += rows.length;
      continue;
    }
    // Column numbers above, row numbers to the left.
    for (size_t ci = 0; ci < cols.shown.size(); ++ci) {
      int x = kMargin + cols.pos[ci];
      bool el = cols.shown[ci] == kElided;
      os << "<text x=\"" << x + (el ? kGap : kCell) / 2 << "\" y=\"" << y0 - 6
         << "\" text-anchor=\"middle\" fill=\"#888888\">"
         << (el ? std::string("&#8943;") : std::to_string(cols.shown[ci])) << "</text>\n";
    }
    for (size_t ri = 0; ri < rows.shown.size(); ++ri) {
      int y = y0 + rows.pos[ri];
      bool el = rows.shown[ri] == kElided;
      os << "<text x=\"" << kMargin - 4 << "\" y=\"" << y + (el ? kGap : kCell) / 2 + 3
         << "\" text-anchor=\"end\" fill=\"#888888\">"
         << (el ? std::string("&#8942;") : std::to_string(rows.shown[ri])) << "</text>\n";
    }
    for (size_t ri = 0; ri < rows.shown.size(); ++ri) {
      if (rows.shown[ri] == kElided)
        continue;
      for (size_t ci = 0; ci < cols.shown.size(); ++ci) {
        if (cols.shown[ci] == kElided)
          continue;
        std::vector<int64_t> coords = outer;
        if (rowDim >= 0)
          coords.push_back(rows.shown[ri]);
        if (colDim >= 0)
          coords.push_back(cols.shown[ci]);
        int64_t e = map.elementIndex(coords);
        std::string owners = cellText(map, e, CellStyle::Owners);
        int x = kMargin + cols.pos[ci], y = y0 + rows.pos[ri];
        os << "<g class=\"cell\" data-row=\"" << (rowDim >= 0 ? rows.shown[ri] : 0)
           << "\" data-col=\"" << (colDim >= 0 ? cols.shown[ci] : 0) << "\"";
        if (rank >= 3) {
          std::string ot;
          for (size_t k = 0; k < outer.size(); ++k)
            ot += (k ? "," : "") + std::to_string(outer[k]);
          os << " data-outer=\"" << ot << "\"";
        }
        os << " data-owners=\"" << escapeXml(owners) << "\">";
        std::string where = "(";
        for (size_t k = 0; k < coords.size(); ++k)
          where += (k ? "," : "") + std::to_string(coords[k]);
        where += ")";
        os << "<title>" << escapeXml(where + " " + owners) << "</title>";
        os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCell << "\" height=\""
           << kCell << "\" fill=\"" << cellFill(map, e, bitwidth, options.picture)
           << "\" stroke=\"#ffffff\" stroke-width=\"1\"/>";
        os << "<text x=\"" << x + kCell / 2 << "\" y=\"" << y + kCell / 2 + 3
           << "\" text-anchor=\"middle\">" << escapeXml(cellLabel(map, e, options.picture))
           << "</text>";
        os << "</g>\n";
      }
    }
    y0 += rows.length;
  }

  if (legendWarps > 1) {
    int y = y0 + 8;
    for (uint64_t w = 0; w < legendWarps; ++w) {
      int x = kMargin + int(w) * 64;
      uint64_t warp = w % map.numWarps(), block = w / map.numWarps();
      std::string label = (map.numBlocks() > 1 ? "C" + std::to_string(block) + " " : "") +
                          (map.isTensorMemory() ? "rows " + std::to_string(32 * warp) + "+"
                                                : "warp " + std::to_string(warp));
      os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\""
         << hsl(hueOf(w), 65, 68) << "\"/>";
      os << "<text x=\"" << x + 15 << "\" y=\"" << y + 10 << "\">" << escapeXml(label)
         << "</text>\n";
    }
  }
  os << "</svg>\n";
  return os.str();
}

std::string renderHtml(std::span<const HtmlPanel> panels, std::string_view pageTitle) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
     << escapeXml(pageTitle) << "</title>\n<style>\n"
     << "body { font-family: sans-serif; margin: 16px; }\n"
     << ".panels { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }\n"
     << "figure { margin: 0; }\n"
     << "figcaption { font: 12px monospace; max-width: 60em; overflow-wrap: anywhere; "
        "margin-bottom: 6px; }\n"
     << "pre { font-size: 11px; }\n"
     << "</style>\n</head>\n<body>\n<h1>" << escapeXml(pageTitle) << "</h1>\n"
     << "<div class=\"panels\">\n";
  for (const HtmlPanel &p : panels) {
    os << "<figure>\n<figcaption>" << escapeXml(p.title) << "</figcaption>\n" << p.svg;
    if (!p.text.empty())
      os << "<pre>" << escapeXml(p.text) << "</pre>\n";
    os << "</figure>\n";
  }
  os << "</div>\n</body>\n</html>\n";
  return os.str();
}

} // namespace linlayout
