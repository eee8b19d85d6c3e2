// Pictures of layouts as SVG, and an HTML page that sets several of them side by side.
//
// The SVG draws the same shown cells as the text tensor map (Picture.h, the same elision), one
// square per element: for a distributed layout coloured by the warp of its first holder (one hue
// per warp) and shaded by its lane (lighter for lower lanes), with the register index written in
// it; for a shared layout coloured by bank with the offset written in it (the address, for a
// padded layout: PictureOptions::padding). Every cell is a
// `<g class="cell" data-row=".." data-col=".." data-owners="..">` whose data-owners is the text
// map's cell (cellText, Owners style) and whose <title> shows it on hover; a tensor of rank 3 or
// more is drawn one outer index below the other (data-outer="i,j").
#pragma once

#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"

#include <span>
#include <string>
#include <string_view>

namespace linlayout {

/// What an SVG picture shows.
struct SvgOptions {
  /// Which rows and columns are drawn (the style is ignored: cells carry Owners text).
  PictureOptions picture{};
  /// Element width for the banks of a shared layout (8, 16, 32 or 64; others read as 16).
  int bitwidth = 16;
  /// A caption drawn above the picture (escaped); none when empty.
  std::string title;
};

/// The SVG document of a layout's tensor map.
/// Ensures: well-formed XML (one <svg> root); one cell group per element the text map shows,
/// with data-owners == cellText(map, element, CellStyle::Owners).
std::string renderSvg(const OwnerMap &map, const SvgOptions &options = {});

/// One picture of an HTML page.
struct HtmlPanel {
  std::string title; // shown as the caption (escaped)
  std::string svg;   // an SVG document from renderSvg, inlined
  std::string text;  // optional text picture shown under it (escaped); none when empty
};

/// An HTML page showing the panels side by side (wrapping when the window is narrow).
/// Ensures: a complete HTML5 document; each panel's svg appears verbatim, titles and texts
/// escaped.
std::string renderHtml(std::span<const HtmlPanel> panels, std::string_view pageTitle);

/// `text` with &, <, >, " and ' replaced by XML entities.
std::string escapeXml(std::string_view text);

} // namespace linlayout
