// The SVG pictures are well-formed XML (checked with libxml2) and their cells are the text map's.
#include "linlayout/layout/PictureSvg.h"
#include "linlayout/testing/Generators.h"

#include "GTestProperty.h"

#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <map>
#include <sstream>

using namespace linlayout;

namespace {

struct SvgCell {
  std::string owners;
  std::string outer;
};
using CellMap = std::map<std::pair<int64_t, int64_t>, std::vector<SvgCell>>;

std::string attr(xmlNode *n, const char *name) {
  xmlChar *v = xmlGetProp(n, reinterpret_cast<const xmlChar *>(name));
  if (!v)
    return "";
  std::string s(reinterpret_cast<const char *>(v));
  xmlFree(v);
  return s;
}

void collect(xmlNode *n, CellMap &cells, int &count) {
  for (; n; n = n->next) {
    if (n->type == XML_ELEMENT_NODE &&
        std::string(reinterpret_cast<const char *>(n->name)) == "g" && attr(n, "class") == "cell") {
      cells[{std::stoll(attr(n, "data-row")), std::stoll(attr(n, "data-col"))}].push_back(
          {attr(n, "data-owners"), attr(n, "data-outer")});
      ++count;
    }
    collect(n->children, cells, count);
  }
}

// Parses `svg` as XML; fails the test when it is not well-formed.
::testing::AssertionResult parseSvg(const std::string &svg, CellMap &cells, int &count) {
  xmlDoc *doc = xmlReadMemory(svg.data(), int(svg.size()), "picture.svg", nullptr,
                              XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc)
    return ::testing::AssertionFailure() << "not well-formed XML";
  xmlNode *root = xmlDocGetRootElement(doc);
  std::string rootName = reinterpret_cast<const char *>(root->name);
  count = 0;
  collect(root, cells, count);
  xmlFreeDoc(doc);
  if (rootName != "svg")
    return ::testing::AssertionFailure() << "root element is " << rootName;
  return ::testing::AssertionSuccess();
}

// The cells of an Owners text map: row index (among shown rows) -> cells, "..." kept.
std::vector<std::vector<std::string>> textCells(const std::string &text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream is(text);
  std::string line;
  while (std::getline(is, line)) {
    if (line == " ...")
      continue;
    size_t a = line.find_first_not_of("[ ");
    size_t b = line.find_last_not_of("],");
    std::string body = line.substr(a, b - a + 1);
    std::vector<std::string> cells;
    size_t p = 0;
    while (true) {
      size_t q = body.find(", ", p);
      std::string c = body.substr(p, q == std::string::npos ? std::string::npos : q - p);
      c.erase(0, c.find_first_not_of(' '));
      cells.push_back(c);
      if (q == std::string::npos)
        break;
      p = q + 2;
    }
    out.push_back(cells);
  }
  return out;
}

LinearLayout blocked16() {
  std::vector<InDimBases> ins{{DimName::reg(), {{0, 1}, {1, 0}}},
                              {DimName::lane(), {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}},
                              {DimName::warp(), {{0, 8}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 16}, {DimName::dim(1), 16}};
  return *LinearLayout::fromBases(ins, outs);
}

// Why the SVG of `map` does not hold exactly the cells of its Owners text map ("" when it does).
std::string svgMismatch(const OwnerMap &map, const PictureOptions &o) {
  SvgOptions so;
  so.picture = o;
  so.title = "#ttg.blocked<{sizePerThread = [2, 2]}> & \"friends\"";
  CellMap cells;
  int count = 0;
  if (!parseSvg(renderSvg(map, so), cells, count))
    return "not well-formed XML";
  PictureOptions to = o;
  to.style = CellStyle::Owners;
  auto text = textCells(renderTensorMap(map, to));
  int rowDim = map.rank() - 2, colDim = map.rank() - 1;
  std::vector<int64_t> rows{0}, cols{0};
  if (rowDim >= 0)
    rows = shownIndices(map, rowDim, o.maxRows, o.rowHead, o.rowTail, o.groupHead, o.groupTail);
  if (colDim >= 0)
    cols = shownIndices(map, colDim, o.maxCols, o.colHead, o.colTail, o.groupHead, o.groupTail);
  std::vector<int64_t> realRows;
  for (int64_t r : rows)
    if (r != kElided)
      realRows.push_back(r);
  if (text.size() != realRows.size())
    return "text has " + std::to_string(text.size()) + " rows, expected " +
           std::to_string(realRows.size());
  int expected = 0;
  for (size_t ri = 0; ri < realRows.size(); ++ri) {
    if (text[ri].size() != cols.size())
      return "row " + std::to_string(ri) + " has " + std::to_string(text[ri].size()) + " cells";
    for (size_t ci = 0; ci < cols.size(); ++ci) {
      std::string at = std::to_string(realRows[ri]) + "," + std::to_string(cols[ci]);
      if (cols[ci] == kElided) {
        if (text[ri][ci] != "...")
          return "text cell " + at + " is not elided";
        continue;
      }
      auto it = cells.find({realRows[ri], cols[ci]});
      if (it == cells.end() || it->second.size() != 1)
        return "svg has no single cell " + at;
      if (it->second[0].owners != text[ri][ci])
        return "cell " + at + ": svg " + it->second[0].owners + ", text " + text[ri][ci];
      ++expected;
    }
  }
  if (count != expected)
    return "svg has " + std::to_string(count) + " cells, text " + std::to_string(expected);
  return "";
}

void expectSvgMatchesText(const OwnerMap &map, const PictureOptions &o) {
  EXPECT_EQ(svgMismatch(map, o), "");
}

} // namespace

TEST(PictureSvg, CellsMatchTheTextMap) {
  OwnerMap m = *OwnerMap::build(blocked16());
  expectSvgMatchesText(m, PictureOptions{});
}

TEST(PictureSvg, ElidedCellsMatchTheTextMap) {
  OwnerMap m = *OwnerMap::build(blocked16());
  PictureOptions o;
  o.maxRows = 8;
  o.maxCols = 8;
  expectSvgMatchesText(m, o);
}

TEST(PictureSvg, BroadcastAndCtaCellsMatchTheTextMap) {
  std::vector<InDimBases> ins{{DimName::reg(), {{0, 1}}},
                              {DimName::lane(), {{0, 2}, {1, 0}, {0, 0}}},
                              {DimName::warp(), {{0, 0}}},
                              {DimName::block(), {{2, 0}, {0, 0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 4}, {DimName::dim(1), 4}};
  OwnerMap m = *OwnerMap::build(*LinearLayout::fromBases(ins, outs));
  expectSvgMatchesText(m, PictureOptions{});
}

TEST(PictureSvg, SharedAndRankThreeAreWellFormed) {
  std::vector<InDimBases> shared{{DimName::offset(), {{0, 1}, {0, 2}, {1, 2}}}};
  std::vector<DimSize> outs2{{DimName::dim(0), 2}, {DimName::dim(1), 4}};
  OwnerMap s = *OwnerMap::build(*LinearLayout::fromBases(shared, outs2));
  CellMap cells;
  int count = 0;
  SvgOptions so;
  so.bitwidth = 32;
  ASSERT_TRUE(parseSvg(renderSvg(s, so), cells, count));
  EXPECT_EQ(count, 8);
  EXPECT_EQ((cells[{1, 0}][0].owners), "6");

  std::vector<InDimBases> ins{{DimName::lane(), {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {2, 0, 0}}}};
  std::vector<DimSize> outs3{{DimName::dim(0), 4}, {DimName::dim(1), 2}, {DimName::dim(2), 2}};
  OwnerMap r3 = *OwnerMap::build(*LinearLayout::fromBases(ins, outs3));
  cells.clear();
  ASSERT_TRUE(parseSvg(renderSvg(r3), cells, count));
  EXPECT_EQ(count, 16);
  EXPECT_EQ((cells[{1, 1}].size()), 4u);
  EXPECT_EQ((cells[{1, 1}][2].outer), "2");
  EXPECT_EQ((cells[{1, 1}][2].owners), "T11");
}

TEST(PictureHtml, ShowsPanelsSideBySide) {
  OwnerMap m = *OwnerMap::build(blocked16());
  std::string svg = renderSvg(m);
  std::vector<HtmlPanel> panels{{"a <blocked>", svg, "[[T0:0]]"}, {"b", svg, ""}};
  std::string html = renderHtml(panels, "two & more");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>two &amp; more</title>"), std::string::npos);
  EXPECT_NE(html.find("a &lt;blocked&gt;"), std::string::npos);
  EXPECT_NE(html.find("display: flex"), std::string::npos);
  size_t n = 0;
  for (size_t p = html.find(svg); p != std::string::npos; p = html.find(svg, p + 1))
    ++n;
  EXPECT_EQ(n, 2u);
}

TEST(PictureSvg, EscapesText) {
  EXPECT_EQ(escapeXml("<a href=\"x\">&'</a>\x01"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt; ");
}

LL_PROP(PictureSvgProps, CellsMatchTheTextMap, 1000, ()) {
  namespace lt = linlayout::testing;
  LinearLayout l = *lt::detail::distributedOver(lt::detail::splitBits(*rc::gen::inRange(0, 11), 2),
                                                lt::DistributedBounds{});
  auto m = OwnerMap::build(l);
  RC_ASSERT(m.ok());
  PictureOptions o;
  o.maxRows = *rc::gen::inRange<int64_t>(1, 40);
  o.maxCols = *rc::gen::inRange<int64_t>(1, 40);
  o.rowHead = *rc::gen::inRange<int64_t>(0, 5);
  o.colTail = *rc::gen::inRange<int64_t>(0, 5);
  std::string why = svgMismatch(*m, o);
  RC_LOG() << why;
  RC_ASSERT(why.empty());
}
