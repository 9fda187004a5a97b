#include "inspect/heatmap.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "base/error.h"

namespace hcube {
namespace {

constexpr int kLevels = 8;  // shades besides "idle"

// White for an idle cell, then kLevels shades from light to dark blue.
const char* const kShade[kLevels + 1] = {"#ffffff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6",
                                         "#4292c6", "#2171b5", "#08519c", "#08306b"};

u64 powerOfTwoAtLeast(u64 x) {
  u64 p = 1;
  while (p < x) p <<= 1;
  return p;
}

std::string escapeXml(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

std::string num(u64 v) { return std::to_string(v); }

// The shade of `words` out of a capacity of `capacity` words: 0 for none, else 1..kLevels by
// the share rounded up to the next eighth (exact integer arithmetic).
int level(u64 words, u64 capacity) {
  if (words == 0 || capacity == 0) return 0;
  const u64 l = (words * kLevels + capacity - 1) / capacity;
  return static_cast<int>(std::min<u64>(l, kLevels));
}

}  // namespace

u64 trafficLogBytesBound(const TableSet& set) {
  u64 sends = 0;
  for (const Table& t : set.tables) {
    for (const Instruction& ins : t) {
      if (ins.op != Opcode::kXfer) continue;
      for (const Channel& c : ins.channels) sends += c.out.op != OutOp::kIdle ? 1 : 0;
    }
  }
  if (set.shared) sends *= set.header.nodes();
  return sends * (sizeof(TrafficLog::Send) + sizeof(TrafficLog::Store));
}

std::string formatHeatmapSvg(const RunResult& run, int n, int lanes, const std::string& title,
                             const HeatmapLimits& limits) {
  if (!run.traffic.recorded) throw Error("heatmap: the run did not record its traffic log");
  if (n < 1 || lanes < 1) throw Error("heatmap: bad cube dimension or width");
  const u64 dims = static_cast<u64>(n);
  const u64 nodes = u64{1} << n;
  const u64 cycles = std::max<u64>(run.cycles, 1);
  // Bucket sizes: powers of two, so a group of links never straddles two dimensions.
  const u64 bucket = powerOfTwoAtLeast((cycles + limits.max_columns - 1) / limits.max_columns);
  const u64 columns = (cycles + bucket - 1) / bucket;
  const u64 group =
      std::min(nodes, powerOfTwoAtLeast((nodes * dims + limits.max_rows - 1) / limits.max_rows));
  const u64 rows_per_dim = nodes / group;
  const u64 rows = rows_per_dim * dims;

  // words[row * columns + column]; row = dimension * rows_per_dim + node / group.
  std::vector<u64> words(rows * columns, 0);
  std::vector<u64> per_dim(dims, 0);
  for (const TrafficLog::Send& s : run.traffic.sends) {
    if (s.node >= nodes || s.port < 0 || static_cast<u64>(s.port) >= dims) {
      throw Error("heatmap: a send on node " + num(s.node) + " port " + std::to_string(s.port) +
                  " is outside the " + std::to_string(n) + "-cube");
    }
    const u64 column = std::min(s.cycle / bucket, columns - 1);
    const u64 row = static_cast<u64>(s.port) * rows_per_dim + s.node / group;
    ++words[row * columns + column];
    ++per_dim[static_cast<u64>(s.port)];
  }

  // Geometry (pixels).
  const u64 cell_w = std::max<u64>(2, std::min<u64>(24, 720 / columns));
  const u64 cell_h = std::max<u64>(2, std::min<u64>(16, 480 / rows));
  const u64 left = 90;
  const u64 top = 56;
  const u64 map_w = cell_w * columns;
  const u64 map_h = cell_h * rows;
  const u64 legend_top = top + map_h + 56;
  const u64 bars_top = legend_top + 64;
  const u64 bar_h = 14;
  const u64 bar_max_w = 480;
  const u64 width = std::max<u64>(left + map_w + 30, 760);
  const u64 height = bars_top + dims * (bar_h + 6) + 30;

  std::string o;
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
       num(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o += "<text x=\"" + num(left) +
       "\" y=\"20\" font-size=\"15\">Link utilisation per cycle: " + escapeXml(title) + "</text>\n";
  o += "<text x=\"" + num(left) + "\" y=\"38\">" + num(nodes * dims) + " directed links x " +
       num(run.cycles) + " cycles; one column = " + num(bucket) +
       (bucket == 1 ? " cycle" : " cycles") + ", one row = " + num(group) +
       (group == 1 ? " link" : " links (consecutive nodes)") + "</text>\n";

  // The map: one rect per non-idle cell on a white background with a frame.
  o += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(map_w) +
       "\" height=\"" + num(map_h) + "\" fill=\"white\" stroke=\"#888\"/>\n";
  // Neighbouring cells of a row with the same shade are drawn as one rect (a fully busy run
  // is a few rects, not one per column).
  for (u64 row = 0; row < rows; ++row) {
    std::vector<int> shades(columns, 0);
    for (u64 column = 0; column < columns; ++column) {
      const u64 span = std::min(bucket, cycles - column * bucket);  // last column may be short
      shades[column] = level(words[row * columns + column], span * group * static_cast<u64>(lanes));
    }
    for (u64 column = 0; column < columns;) {
      u64 end = column + 1;
      while (end < columns && shades[end] == shades[column]) ++end;
      if (shades[column] != 0) {
        o += "<rect x=\"" + num(left + column * cell_w) + "\" y=\"" + num(top + row * cell_h) +
             "\" width=\"" + num((end - column) * cell_w) + "\" height=\"" + num(cell_h) +
             "\" fill=\"" + kShade[shades[column]] + "\"/>\n";
      }
      column = end;
    }
  }
  // Dimension separators and labels.
  for (u64 j = 0; j < dims; ++j) {
    const u64 y = top + j * rows_per_dim * cell_h;
    if (j > 0) {
      o += "<line x1=\"" + num(left - 6) + "\" y1=\"" + num(y) + "\" x2=\"" + num(left + map_w) +
           "\" y2=\"" + num(y) + "\" stroke=\"#c00\" stroke-width=\"1\"/>\n";
    }
    o += "<text x=\"" + num(left - 8) + "\" y=\"" + num(y + rows_per_dim * cell_h / 2 + 4) +
         "\" text-anchor=\"end\">dim " + num(j) + "</text>\n";
  }
  // Cycle axis: a label every power-of-two number of columns at least 64 px apart.
  const u64 axis_y = top + map_h + 14;
  const u64 tick = powerOfTwoAtLeast((64 + cell_w - 1) / cell_w);
  for (u64 column = 0; column < columns; column += tick) {
    o += "<text x=\"" + num(left + column * cell_w) + "\" y=\"" + num(axis_y) +
         "\" font-size=\"10\">" + num(column * bucket) + "</text>\n";
  }
  o += "<text x=\"" + num(left + map_w) + "\" y=\"" + num(axis_y + 16) +
       "\" text-anchor=\"end\">cycle (" + num(run.cycles) + " in all)</text>\n";

  // Legend.
  o += "<text x=\"" + num(left) + "\" y=\"" + num(legend_top) +
       "\">share of the capacity used (words / (cycles x " + std::to_string(lanes) +
       (lanes == 1 ? " lane" : " lanes") + (group == 1 ? "" : " x " + num(group) + " links") +
       "), rounded up to eighths):</text>\n";
  for (int l = 0; l <= kLevels; ++l) {
    const u64 x = left + static_cast<u64>(l) * 60;
    o += "<rect x=\"" + num(x) + "\" y=\"" + num(legend_top + 8) +
         "\" width=\"24\" height=\"14\" stroke=\"#888\" fill=\"" + kShade[l] + "\"/>\n";
    const std::string label = l == 0 ? "idle" : "&lt;=" + std::to_string(l * 100 / kLevels) + "%";
    o += "<text x=\"" + num(x) + "\" y=\"" + num(legend_top + 36) + "\" font-size=\"10\">" + label +
         "</text>\n";
  }

  // Per-dimension totals.
  const u64 most = std::max<u64>(1, *std::max_element(per_dim.begin(), per_dim.end()));
  o += "<text x=\"" + num(left) + "\" y=\"" + num(bars_top - 8) +
       "\">words per dimension (all links of the dimension, both directions):</text>\n";
  for (u64 j = 0; j < dims; ++j) {
    const u64 y = bars_top + j * (bar_h + 6);
    const u64 w = per_dim[j] * bar_max_w / most;
    o += "<text x=\"" + num(left - 8) + "\" y=\"" + num(y + bar_h - 3) +
         "\" text-anchor=\"end\">dim " + num(j) + "</text>\n";
    o += "<rect x=\"" + num(left) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" +
         num(bar_h) + "\" fill=\"#4292c6\"/>\n";
    o += "<text x=\"" + num(left + w + 6) + "\" y=\"" + num(y + bar_h - 3) + "\">" +
         num(per_dim[j]) + "</text>\n";
  }
  o += "</svg>\n";
  return o;
}

}  // namespace hcube
