#include "algorithms/aapc/johnsson_ho.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"

namespace hcube {

namespace {

void requireDims(const std::string& what, int d) {
  if (d < 1 || d > kJhMaxDims) {
    throw Error(what + ": dimension d = " + std::to_string(d) + " is out of range (1.." +
                std::to_string(kJhMaxDims) + ")");
  }
}

u32 allOnes(int d) { return static_cast<u32>((u64{1} << d) - 1); }

std::string binary(u32 w, int d) {
  std::string s;
  for (int b = d - 1; b >= 0; --b) s += ((w >> b) & 1U) ? '1' : '0';
  return s;
}

/// The member of the complement pair (x, ~x) whose bit `dim` is set.
u32 pairMemberFor(u32 x, int dim, int d) { return bitOf(x, dim) ? x : (x ^ allOnes(d)); }

/// Schedules one exchange: `address` (or, for a pair, its member with bit `dim` set) crosses
/// `dim` in `step`. Throws Error if the link or the address is already busy in that step or
/// the address has no bit `dim`.
void placeExchange(u32 address, bool pair, u64 step, int dim, RelativeSchedule& s) {
  const int d = s.dims();
  auto at = [&]() {
    ExchangeRow row;
    row.address = address;
    row.pair = pair;
    return s.algo() + ": step " + std::to_string(step) + ", dimension " + std::to_string(dim) +
           ", " + formatExchangeRow(row, d);
  };
  if (step >= s.steps() || dim < 0 || dim >= d) {
    throw Error(at() + ": outside the " + std::to_string(s.steps()) + " x " + std::to_string(d) +
                " schedule");
  }
  const u32 w = pair ? pairMemberFor(address, dim, d) : address;
  if (!bitOf(w, dim))
    throw Error(at() + ": address " + binary(w, d) + " has no bit " + std::to_string(dim));
  if (s.at(step, dim) != RelativeSchedule::kIdle) {
    throw Error(at() + ": the link already carries address " + binary(s.at(step, dim), d));
  }
  for (int j = 0; j < d; ++j) {
    if (s.at(step, j) == w) {
      throw Error(at() + ": address " + binary(w, d) + " is already sent across dimension " +
                  std::to_string(j) + " in this step");
    }
  }
  s.set(step, dim, w);
}

/// Algorithm 2 on the pairs from .. from + m - 1 (pair from + u in dimension r in step
/// first_step + (u + r) mod m), written straight into `s`.
void placeAlgorithm2(u32 from, u32 m, u64 first_step, RelativeSchedule& s) {
  for (u32 u = 0; u < m; ++u) {
    for (int r = 0; r < s.dims(); ++r) {
      placeExchange(from + u, true, first_step + (u + static_cast<u64>(r)) % m, r, s);
    }
  }
}

/// Rows for complement pairs scheduled like Algorithm 1 (generating-table rows): pair u of
/// `pairs` in dimension (u + r) mod d in step r, over d steps.
ExchangeTable pairBlock(int d, const std::vector<u32>& pairs) {
  ExchangeTable t;
  t.d = d;
  for (size_t u = 0; u < pairs.size(); ++u) {
    ExchangeRow row;
    row.address = pairs[u];
    row.pair = true;
    for (int r = 0; r < d; ++r)
      row.dims.push_back(static_cast<int>((u + static_cast<size_t>(r)) % static_cast<size_t>(d)));
    t.rows.push_back(std::move(row));
  }
  return t;
}

/// Algorithm 2's rows for `pairs` over m steps: pair u in dimension r in step (u + r) mod m.
ExchangeTable algorithm2Rows(int d, const std::vector<u32>& pairs, u64 m) {
  ExchangeTable t;
  t.d = d;
  for (size_t u = 0; u < pairs.size(); ++u) {
    ExchangeRow row;
    row.address = pairs[u];
    row.pair = true;
    row.dims.assign(m, ExchangeRow::kNoExchange);
    for (int r = 0; r < d; ++r) row.dims[(u + static_cast<u64>(r)) % m] = r;
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<u32> pairRange(u32 from, u32 to) {
  std::vector<u32> v;
  for (u32 x = from; x < to; ++x) v.push_back(x);
  return v;
}

}  // namespace

GlobalAddress alignedSlotContent(const RelativeSchedule& s, u64 steps_done, u64 node, u32 aligned) {
  u64 moved = 0;  // dimensions aligned address `aligned` has crossed so far
  for (u64 t = 0; t < steps_done && t < s.steps(); ++t) {
    for (int j = 0; j < s.dims(); ++j) {
      if (s.at(t, j) == aligned) moved ^= u64{1} << j;
    }
  }
  const u64 source = node ^ moved;
  return {source, static_cast<u64>(alignedAddress(source, aligned))};
}

std::vector<std::pair<u32, u32>> complementPairs(int d) {
  requireDims("complement pairs", d);
  std::vector<std::pair<u32, u32>> v;
  for (u32 i = 0; i < (u32{1} << (d - 1)); ++i) v.emplace_back(i, i ^ allOnes(d));
  return v;
}

u32 rotateLeft(u32 a, int r, int d) {
  r %= d;
  if (r < 0) r += d;
  if (r == 0) return a;
  return ((a << r) | (a >> (d - r))) & allOnes(d);
}

int addressPeriod(u32 a, int d) {
  for (int r = 1; r < d; ++r) {
    if (rotateLeft(a, r, d) == a) return r;
  }
  return d;
}

u32 distinguishedAddress(u32 a, int d) {
  u32 best = a;
  for (int r = 1; r < d; ++r) best = std::min(best, rotateLeft(a, r, d));
  return best;
}

std::vector<u32> necklaceMembers(u32 a, int d) {
  const u32 first = distinguishedAddress(a, d);
  std::vector<u32> v;
  for (int r = 0; r < addressPeriod(a, d); ++r) v.push_back(rotateLeft(first, r, d));
  return v;
}

std::vector<std::pair<u32, u32>> cyclicComplementPairs(int d) {
  requireDims("cyclic complement pairs", d);
  std::vector<std::pair<u32, u32>> v;
  for (u32 x = 0; x < (u32{1} << (d - 1)); ++x) {
    // x < 2^(d-1) <= ~x; the complement of a cyclic address is cyclic.
    if (isCyclicAddress(x, d)) v.emplace_back(x, x ^ allOnes(d));
  }
  return v;
}

int jhCyclicRemainder(int d) {
  return static_cast<int>(cyclicComplementPairs(d).size() % static_cast<size_t>(d));
}

std::vector<std::vector<int>> generatingTable(int d) {
  requireDims("generating table", d);
  std::vector<std::vector<int>> g(static_cast<size_t>(d), std::vector<int>(static_cast<size_t>(d)));
  for (int row = 0; row < d; ++row) {
    for (int col = 0; col < d; ++col) g[row][col] = (row + col) % d;
  }
  return g;
}

std::string formatExchangeRow(const ExchangeRow& row, int d) {
  std::ostringstream o;
  if (row.pair) {
    o << '(' << binary(row.address, d) << ',' << binary(row.address ^ allOnes(d), d) << ')';
  } else {
    o << binary(row.address, d);
  }
  o << ':';
  for (int dim : row.dims) {
    o << ' ';
    if (dim == ExchangeRow::kNoExchange) {
      o << '-';
    } else {
      o << dim;
    }
  }
  return o.str();
}

ExchangeTable necklaceSchedule(u32 a, int d) {
  requireDims("necklace schedule", d);
  if (a > allOnes(d)) {
    throw Error("necklace schedule: address " + std::to_string(a) +
                " has more than d = " + std::to_string(d) + " bits");
  }
  if (isCyclicAddress(a, d)) {
    throw Error("necklace schedule: address " + binary(a, d) +
                " is cyclic; its necklace is not full (Lemma 2 needs a full necklace)");
  }
  const u32 first = distinguishedAddress(a, d);
  std::vector<int> ones;
  for (int b = 0; b < d; ++b) {
    if (bitOf(first, b)) ones.push_back(b);
  }
  ExchangeTable t;
  t.d = d;
  for (int r = 0; r < d; ++r) {
    ExchangeRow row;
    row.address = rotateLeft(first, r, d);
    for (int i : ones) row.dims.push_back((i + r) % d);
    t.rows.push_back(std::move(row));
  }
  return t;
}

ExchangeTable algorithm2Table(int d) {
  requireDims("jh2 table", d);
  if (d > 12) {
    throw Error("jh2 table: dimension d = " + std::to_string(d) +
                " is too large for a dense table (at most 12)");
  }
  const u32 half = u32{1} << (d - 1);
  return algorithm2Rows(d, pairRange(0, half), half);
}

ExchangeTable combinedGroupTable(int d, int c, JhLineDrawing drawing,
                                 const std::vector<u32>& pairs) {
  requireDims("jh4 combined group", d);
  if (c < 1 || c >= d) {
    throw Error("jh4 combined group: c = " + std::to_string(c) + " must be 1.." +
                std::to_string(d - 1) + " for d = " + std::to_string(d));
  }
  if (!pairs.empty() && pairs.size() != static_cast<size_t>(c)) {
    throw Error("jh4 combined group: " + std::to_string(pairs.size()) +
                " complement pairs given, c = " + std::to_string(c) + " needed");
  }
  const int lines = d - c;
  // step[i][j], dim[i][j]: where entry j (necklace member j) of line i lies in the
  // generating table; the entry's dimension is (row + column) mod d.
  std::vector<std::vector<int>> step(static_cast<size_t>(lines),
                                     std::vector<int>(static_cast<size_t>(d)));
  std::vector<std::vector<int>> dim = step;
  std::vector<std::vector<int>> owner(static_cast<size_t>(lines),
                                      std::vector<int>(static_cast<size_t>(d), -1));
  auto place = [&](int line, int entry, int row, int col) {
    if (owner[row][col] != -1) {
      throw Error("jh4 combined group: lines " + std::to_string(owner[row][col]) + " and " +
                  std::to_string(line) + " both cross generating-table entry (" +
                  std::to_string(row) + ", " + std::to_string(col) + ")");
    }
    owner[row][col] = line;
    step[line][entry] = col;
    dim[line][entry] = (row + col) % d;
  };
  for (int i = 0; i < lines; ++i) {
    if (drawing == JhLineDrawing::kDiagonal) {
      const int skew = (d % 2 == 0 && i >= d / 2) ? 1 : 0;
      for (int j = 0; j < d; ++j) place(i, j, i, (i + j + skew) % d);
    } else {
      int j = 0;
      for (int row = 0; row <= lines - 1 - i; ++row) place(i, j++, row, i);
      for (int col = i + 1; col <= i + c; ++col) place(i, j++, lines - 1 - i, col);
      for (int row = lines - i; row <= lines - 1; ++row) place(i, j++, row, i + c);
    }
  }
  // The necklace: member j has the bits of entry j of every line, and must be member 0
  // rotated left j times with d - c distinct bits, a full necklace.
  const char* name = drawing == JhLineDrawing::kDiagonal ? "diagonal" : "greedy";
  const std::string where = std::string("jh4 combined group, ") + name +
                            " line drawing, d = " + std::to_string(d) +
                            ", c = " + std::to_string(c) + ": ";
  std::vector<u32> member(static_cast<size_t>(d), 0);
  for (int j = 0; j < d; ++j) {
    for (int i = 0; i < lines; ++i) member[j] |= u32{1} << dim[i][j];
    if (popcount(member[j]) != lines) {
      throw Error(where + "member " + std::to_string(j) + " would cross a dimension twice");
    }
    if (member[j] != rotateLeft(member[0], j, d)) {
      throw Error(where + "member " + std::to_string(j) + " is not member 0 rotated " +
                  std::to_string(j) + " times");
    }
  }
  if (isCyclicAddress(member[0], d)) {
    throw Error(where + "the lines give the cyclic address " + binary(member[0], d) +
                ", not a full necklace");
  }
  ExchangeTable t;
  t.d = d;
  for (int j = 0; j < d; ++j) {
    ExchangeRow row;
    row.address = member[j];
    row.dims.assign(static_cast<size_t>(d), ExchangeRow::kNoExchange);
    for (int i = 0; i < lines; ++i) {
      int& slot = row.dims[step[i][j]];
      if (slot != ExchangeRow::kNoExchange) {
        throw Error(where + "member " + std::to_string(j) + " would be exchanged twice in step " +
                    std::to_string(step[i][j]));
      }
      slot = dim[i][j];
    }
    t.rows.push_back(std::move(row));
  }
  for (int k = 0; k < c; ++k) {
    ExchangeRow row;
    row.address = pairs.empty() ? 0 : pairs[k];
    row.pair = true;
    for (int col = 0; col < d; ++col) row.dims.push_back((lines + k + col) % d);
    t.rows.push_back(std::move(row));
  }
  return t;
}

void placeExchangeTable(const ExchangeTable& t, u64 first_step, RelativeSchedule& s) {
  for (const ExchangeRow& row : t.rows) {
    for (u64 k = 0; k < row.dims.size(); ++k) {
      if (row.dims[k] == ExchangeRow::kNoExchange) continue;
      placeExchange(row.address, row.pair, first_step + k, row.dims[k], s);
    }
  }
}

RelativeSchedule jhAlgorithm1(int d) {
  requireDims("jh1", d);
  const u32 half = u32{1} << (d - 1);
  const u64 blocks = (half + static_cast<u32>(d) - 1) / static_cast<u32>(d);
  RelativeSchedule s("jh1", d, blocks * static_cast<u64>(d));
  for (u64 q = 0; q < blocks; ++q) {
    const u32 from = static_cast<u32>(q * static_cast<u64>(d));
    const u32 to = std::min(half, from + static_cast<u32>(d));
    placeExchangeTable(pairBlock(d, pairRange(from, to)), q * static_cast<u64>(d), s);
  }
  return s;
}

RelativeSchedule jhAlgorithm2(int d) {
  requireDims("jh2", d);
  RelativeSchedule s("jh2", d, u64{1} << (d - 1));
  placeAlgorithm2(0, static_cast<u32>(s.steps()), 0, s);
  return s;
}

RelativeSchedule jhAlgorithm3(int d) {
  requireDims("jh3", d);
  const u32 half = u32{1} << (d - 1);
  const u32 m = static_cast<u32>(d) + half % static_cast<u32>(d);  // <= half for every d >= 1
  RelativeSchedule s("jh3", d, half);
  placeAlgorithm2(0, m, 0, s);
  for (u32 from = m; from < half; from += static_cast<u32>(d)) {
    placeExchangeTable(pairBlock(d, pairRange(from, from + static_cast<u32>(d))), from, s);
  }
  return s;
}

RelativeSchedule jhAlgorithm4(int d, JhLineDrawing drawing) {
  requireDims("jh4", d);
  RelativeSchedule s("jh4", d, u64{1} << (d - 1));
  std::vector<u32> cyclic;
  for (const auto& [x, complement] : cyclicComplementPairs(d)) cyclic.push_back(x);
  const int c = static_cast<int>(cyclic.size() % static_cast<size_t>(d));
  u64 t = 0;
  bool group = false;
  u32 used_necklace = 0;  // distinguished address of the necklace in the combined group
  if (c > 0) {
    group = true;
    const std::vector<u32> group_pairs(cyclic.begin(), cyclic.begin() + c);
    const ExchangeTable g = combinedGroupTable(d, c, drawing, group_pairs);
    used_necklace = distinguishedAddress(g.rows.front().address, d);
    placeExchangeTable(g, t, s);
    t += static_cast<u64>(d);
  }
  for (size_t from = static_cast<size_t>(c); from < cyclic.size(); from += static_cast<size_t>(d)) {
    const std::vector<u32> block(cyclic.begin() + static_cast<std::ptrdiff_t>(from),
                                 cyclic.begin() + static_cast<std::ptrdiff_t>(from) + d);
    placeExchangeTable(pairBlock(d, block), t, s);
    t += static_cast<u64>(d);
  }
  for (u32 a = 1; a <= allOnes(d); ++a) {
    if (isCyclicAddress(a, d) || distinguishedAddress(a, d) != a || (group && a == used_necklace))
      continue;
    const ExchangeTable n = necklaceSchedule(a, d);
    placeExchangeTable(n, t, s);
    t += n.steps();
  }
  if (t != s.steps()) {
    throw InternalError("jh4: internal error, the groups take " + std::to_string(t) +
                        " steps, not " + std::to_string(s.steps()));
  }
  return s;
}

std::vector<std::string> checkAapcRelativeSchedule(const RelativeSchedule& s) {
  std::vector<std::string> bad;
  const int d = s.dims();
  const u64 count = u64{1} << d;
  std::vector<u64> crossed(count, 0);
  for (u64 t = 0; t < s.steps(); ++t) {
    for (int j = 0; j < d; ++j) {
      const u32 w = s.at(t, j);
      if (w == RelativeSchedule::kIdle) continue;
      const std::string at = "step " + std::to_string(t) + ", dimension " + std::to_string(j);
      if (w >= count) {
        bad.push_back(at + ": address " + std::to_string(w) + " has more than d bits");
        continue;
      }
      if (!bitOf(w, j))
        bad.push_back(at + ": address " + binary(w, d) + " has no bit " + std::to_string(j));
      if ((crossed[w] >> j) & 1U) {
        bad.push_back(at + ": address " + binary(w, d) + " crosses this dimension again");
      }
      crossed[w] |= u64{1} << j;
      for (int k = 0; k < j; ++k) {
        if (s.at(t, k) == w) {
          bad.push_back(at + ": address " + binary(w, d) + " is also sent across dimension " +
                        std::to_string(k));
        }
      }
    }
  }
  for (u64 w = 0; w < count; ++w) {
    if (crossed[w] != w) {
      bad.push_back("address " + binary(static_cast<u32>(w), d) + " crosses dimensions " +
                    binary(static_cast<u32>(crossed[w]), d) + ", not its one bits");
    }
  }
  return bad;
}

}  // namespace hcube
