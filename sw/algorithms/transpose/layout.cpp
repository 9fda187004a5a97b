// hcube: matrix layouts (Johnsson & Ho 1987 §2, Tables 1-2) and the transposition permutation
// between two of them (Definition 1). See layout.h for the string forms.
#include "algorithms/transpose/layout.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "base/error.h"

namespace hcube {
namespace {

constexpr int kMaxLocalBits = 24;  // K <= 2^24 elements per node, as for an AAPC.
constexpr int kMaxIndexBits = 30;  // P, Q <= 2^30.

bool parseInt(std::string_view text, int& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  std::string item;
  std::istringstream in{std::string(text)};
  while (std::getline(in, item, sep)) parts.push_back(item);
  if (!text.empty() && text.back() == sep) parts.emplace_back();
  return parts;
}

/// Bit of w = (u || v) that holds bit i of the row (row == true) or column index.
int matrixBit(bool row, int i, int q) { return row ? q + i : i; }

}  // namespace

u64 gf2Apply(const std::vector<u64>& rows, u64 x) {
  u64 y = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if ((std::popcount(x & rows[i]) & 1) != 0) y |= u64{1} << i;
  }
  return y;
}

std::vector<u64> gf2Inverse(const std::vector<u64>& rows, int bits) {
  // Gauss-Jordan on [rows | I]: row i of the augmented matrix is (rows[i], e_i).
  std::vector<u64> a = rows;
  std::vector<u64> inv(static_cast<size_t>(bits));
  for (int i = 0; i < bits; ++i) inv[static_cast<size_t>(i)] = u64{1} << i;
  for (int col = 0; col < bits; ++col) {
    int pivot = -1;
    for (int r = col; r < bits; ++r) {
      if (bitOf(a[static_cast<size_t>(r)], col)) {
        pivot = r;
        break;
      }
    }
    if (pivot < 0) throw Error("GF(2) matrix is singular (bit " + std::to_string(col) + ")");
    std::swap(a[static_cast<size_t>(col)], a[static_cast<size_t>(pivot)]);
    std::swap(inv[static_cast<size_t>(col)], inv[static_cast<size_t>(pivot)]);
    for (int r = 0; r < bits; ++r) {
      if (r != col && bitOf(a[static_cast<size_t>(r)], col)) {
        a[static_cast<size_t>(r)] ^= a[static_cast<size_t>(col)];
        inv[static_cast<size_t>(r)] ^= inv[static_cast<size_t>(col)];
      }
    }
  }
  // The same row operations turned rows into I and I into rows^-1 (E * rows = I).
  return inv;
}

std::pair<int, int> parseMatrixShape(std::string_view text, const std::string& option) {
  const std::string t(text);
  const auto x = t.find('x');
  int rows = 0;
  int cols = 0;
  if (x == std::string::npos || !parseInt(std::string_view(t).substr(0, x), rows) ||
      !parseInt(std::string_view(t).substr(x + 1), cols)) {
    // Digits on both sides that do not fit an int are a shape, only too large to be one.
    auto digits = [](std::string_view s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (x != std::string::npos && digits(std::string_view(t).substr(0, x)) &&
        digits(std::string_view(t).substr(x + 1))) {
      throw Error(option + " '" + t + "': too large, at most 2^" + std::to_string(kMaxIndexBits) +
                  " rows and columns");
    }
    throw Error(option + " '" + t + "': expected PxQ, e.g. 64x64");
  }
  if (rows < 1 || cols < 1 || !isPowerOfTwo(static_cast<u64>(rows)) ||
      !isPowerOfTwo(static_cast<u64>(cols))) {
    throw Error(option + " '" + t +
                "': the rows P and columns Q must be powers of two (Johnsson & Ho 1987 §2)");
  }
  const int p = log2Exact(static_cast<u64>(rows));
  const int q = log2Exact(static_cast<u64>(cols));
  if (p > kMaxIndexBits || q > kMaxIndexBits) {
    throw Error(option + " '" + t + "': at most 2^" + std::to_string(kMaxIndexBits) +
                " rows and columns");
  }
  return {p, q};
}

MatrixLayout MatrixLayout::make(int p, int q, int n, std::string_view partition,
                                std::string_view encoding, const std::string& partition_option,
                                const std::string& encoding_option) {
  const std::string shape = std::to_string(u64{1} << p) + "x" + std::to_string(u64{1} << q);
  if (p < 0 || q < 0 || p > kMaxIndexBits || q > kMaxIndexBits) {
    throw Error("matrix " + shape + ": index bits out of range");
  }
  if (n < 1) throw Error("--n " + std::to_string(n) + ": a layout needs at least one node bit");
  if (p + q < n) {
    throw Error("--matrix " + shape + ": " + std::to_string(u64{1} << (p + q)) +
                " elements cannot give each of the " + std::to_string(u64{1} << n) +
                " nodes one element (needs PQ >= 2^n)");
  }
  if (p + q - n > kMaxLocalBits) {
    throw Error("--matrix " + shape + ": PQ / N = 2^" + std::to_string(p + q - n) +
                " elements per node is more than 2^" + std::to_string(kMaxLocalBits));
  }
  MatrixLayout l;
  l.p_ = p;
  l.q_ = q;
  l.real_p_ = p;
  l.real_q_ = q;
  l.n_ = n;
  l.partition_ = std::string(partition);
  l.encoding_ = std::string(encoding);
  const std::string opt = partition_option + " '" + l.partition_ + "'";
  auto needRows = [&](int bits, const char* what) {
    if (bits > p) {
      throw Error(opt + ": " + what + " needs " + std::to_string(bits) +
                  " row index bits for the node address, but the matrix " + shape +
                  " has only p = " + std::to_string(p) + " (use more rows or a smaller --n)");
    }
  };
  auto needCols = [&](int bits, const char* what) {
    if (bits > q) {
      throw Error(opt + ": " + what + " needs " + std::to_string(bits) +
                  " column index bits for the node address, but the matrix " + shape +
                  " has only q = " + std::to_string(q) + " (use more columns or a smaller --n)");
    }
  };
  const int nr = n - n / 2;
  const int nc = n / 2;
  std::vector<IndexField>& f = l.fields_;
  auto add = [&](bool row, int hi, int lo) {
    if (hi >= lo) f.push_back({row, hi, lo});
  };
  if (partition == "row-consecutive") {
    needRows(n, "a one-dimensional row partitioning on 2^n nodes");
    add(true, p - 1, p - n);
  } else if (partition == "row-cyclic") {
    needRows(n, "a one-dimensional row partitioning on 2^n nodes");
    add(true, n - 1, 0);
  } else if (partition == "col-consecutive") {
    needCols(n, "a one-dimensional column partitioning on 2^n nodes");
    add(false, q - 1, q - n);
  } else if (partition == "col-cyclic") {
    needCols(n, "a one-dimensional column partitioning on 2^n nodes");
    add(false, n - 1, 0);
  } else if (partition == "2d-consecutive" || partition == "2d-cyclic" ||
             partition == "2d-consecutive-cyclic" || partition == "2d-cyclic-consecutive") {
    needRows(nr, "a two-dimensional partitioning (ceil(n/2) row bits)");
    needCols(nc, "a two-dimensional partitioning (floor(n/2) column bits)");
    const bool rows_cons = partition == "2d-consecutive" || partition == "2d-consecutive-cyclic";
    const bool cols_cons = partition == "2d-consecutive" || partition == "2d-cyclic-consecutive";
    if (rows_cons) {
      add(true, p - 1, p - nr);
    } else {
      add(true, nr - 1, 0);
    }
    if (cols_cons) {
      add(false, q - 1, q - nc);
    } else {
      add(false, nc - 1, 0);
    }
  } else {
    // Combined assignment written as its fields: u7-5,v1-0 (Table 2).
    const auto items = split(partition, ',');
    if (items.empty()) throw Error(opt + ": empty partitioning");
    for (const std::string& item : items) {
      const auto bad = [&] {
        return Error(opt +
                     ": unknown partitioning (expected row-consecutive, row-cyclic, "
                     "col-consecutive, col-cyclic, 2d-consecutive, 2d-cyclic, "
                     "2d-consecutive-cyclic, 2d-cyclic-consecutive, or index fields "
                     "such as u7-5,v1-0); '" +
                     item + "' is not a field");
      };
      if (item.size() < 2 || (item[0] != 'u' && item[0] != 'v')) throw bad();
      const bool row = item[0] == 'u';
      const auto dash = item.find('-');
      int hi = 0;
      int lo = 0;
      if (dash == std::string::npos) {
        if (!parseInt(std::string_view(item).substr(1), hi)) throw bad();
        lo = hi;
      } else if (!parseInt(std::string_view(item).substr(1, dash - 1), hi) ||
                 !parseInt(std::string_view(item).substr(dash + 1), lo)) {
        throw bad();
      }
      const int limit = row ? p : q;
      if (lo < 0 || hi < lo || hi >= limit) {
        throw Error(opt + ": field '" + item + "' needs " + (row ? "row" : "column") +
                    " index bits " + std::to_string(lo) + ".." + std::to_string(hi) +
                    " (high bit first), but the matrix " + shape + " has bits 0.." +
                    std::to_string(limit - 1));
      }
      f.push_back({row, hi, lo});
    }
    u64 taken = 0;
    int width = 0;
    for (const IndexField& field : f) {
      for (int i = field.lo; i <= field.hi; ++i) {
        const u64 bit = u64{1} << matrixBit(field.row, i, q);
        if ((taken & bit) != 0) {
          throw Error(opt + ": " + (field.row ? "row" : "column") + " index bit " +
                      std::to_string(i) + " is used twice");
        }
        taken |= bit;
      }
      width += field.width();
    }
    if (width != n) {
      throw Error(opt + ": the fields name " + std::to_string(width) +
                  " node address bits, the cube has n = " + std::to_string(n));
    }
  }
  if (encoding != "binary" && encoding != "gray" && encoding != "gray-rows" &&
      encoding != "gray-cols") {
    throw Error(encoding_option + " '" + l.encoding_ +
                "': unknown encoding (expected binary, gray, gray-rows or gray-cols)");
  }
  for (const IndexField& field : f) {
    l.gray_.push_back(encoding == "gray" || (encoding == "gray-rows" && field.row) ||
                      (encoding == "gray-cols" && !field.row));
  }
  l.place_rows_ = l.computePlaceRows();
  l.element_rows_ = gf2Inverse(l.place_rows_, p + q);
  return l;
}

MatrixLayout MatrixLayout::makeExtended(int real_p, int real_q, int p, int q, int n,
                                        std::string_view partition, std::string_view encoding,
                                        const std::string& partition_option,
                                        const std::string& encoding_option) {
  if (real_p < 0 || real_q < 0 || real_p > p || real_q > q) {
    throw Error("matrix " + std::to_string(u64{1} << std::clamp(real_p, 0, kMaxIndexBits)) + "x" +
                std::to_string(u64{1} << std::clamp(real_q, 0, kMaxIndexBits)) +
                " cannot be extended with virtual elements to " +
                std::to_string(u64{1} << std::clamp(p, 0, kMaxIndexBits)) + "x" +
                std::to_string(u64{1} << std::clamp(q, 0, kMaxIndexBits)) +
                " (the extension must not be smaller)");
  }
  MatrixLayout l = make(p, q, n, partition, encoding, partition_option, encoding_option);
  l.real_p_ = real_p;
  l.real_q_ = real_q;
  return l;
}

std::pair<int, int> MatrixLayout::indexBitsNeeded(std::string_view partition, int n) {
  if (partition == "row-consecutive" || partition == "row-cyclic") return {n, 0};
  if (partition == "col-consecutive" || partition == "col-cyclic") return {0, n};
  if (partition == "2d-consecutive" || partition == "2d-cyclic" ||
      partition == "2d-consecutive-cyclic" || partition == "2d-cyclic-consecutive") {
    return {n - n / 2, n / 2};
  }
  int rows = 0;
  int cols = 0;
  for (const std::string& item : split(partition, ',')) {
    if (item.size() < 2 || (item[0] != 'u' && item[0] != 'v')) return {0, 0};
    const auto dash = item.find('-');
    int hi = 0;
    if (!parseInt(std::string_view(item).substr(
                      1, dash == std::string::npos ? std::string::npos : dash - 1),
                  hi) ||
        hi < 0 || hi >= kMaxIndexBits) {
      return {0, 0};
    }
    (item[0] == 'u' ? rows : cols) = std::max(item[0] == 'u' ? rows : cols, hi + 1);
  }
  return {rows, cols};
}

MatrixLayout MatrixLayout::parse(std::string_view text, int n) {
  const auto parts = split(text, '/');
  if (parts.size() != 3) {
    throw Error("matrix layout '" + std::string(text) +
                "': expected PxQ/partition/encoding, e.g. 64x64/col-cyclic/binary");
  }
  const std::string& shape = parts[0];
  const auto open = shape.find('(');
  if (open == std::string::npos) {
    const auto [p, q] = parseMatrixShape(shape, "matrix layout");
    return make(p, q, n, parts[1], parts[2]);
  }
  // PxQ(P'xQ'): the real matrix and its extension with virtual elements.
  if (shape.back() != ')' || open + 2 > shape.size()) {
    throw Error("matrix layout '" + std::string(text) +
                "': expected PxQ(P'xQ') for a matrix extended with virtual elements, e.g. "
                "8x64(64x64)");
  }
  const auto [rp, rq] = parseMatrixShape(shape.substr(0, open), "matrix layout");
  const auto [p, q] =
      parseMatrixShape(shape.substr(open + 1, shape.size() - open - 2), "matrix layout");
  return makeExtended(rp, rq, p, q, n, parts[1], parts[2]);
}

std::string MatrixLayout::str() const {
  const std::string shape = std::to_string(rows()) + "x" + std::to_string(cols());
  const std::string real = hasVirtual() ? std::to_string(u64{1} << real_p_) + "x" +
                                              std::to_string(u64{1} << real_q_) + "(" + shape + ")"
                                        : shape;
  return real + "/" + partition_ + "/" + encoding_;
}

std::vector<u64> MatrixLayout::virtualChecks() const {
  // Bit i of w = element(address) is parity(address & element_rows_[i]); a virtual element has
  // a one in some added (high-order) row or column index bit.
  std::vector<u64> checks;
  for (int i = real_p_; i < p_; ++i) checks.push_back(element_rows_[matrixBit(true, i, q_)]);
  for (int j = real_q_; j < q_; ++j) checks.push_back(element_rows_[matrixBit(false, j, q_)]);
  return checks;
}

u64 MatrixLayout::realDims() const {
  u64 r = 0;
  for (const IndexField& f : fields_) {
    for (int i = f.lo; i <= f.hi; ++i) r |= u64{1} << matrixBit(f.row, i, q_);
  }
  return r;
}

int MatrixLayout::rowNodeBits() const {
  int b = 0;
  for (const IndexField& f : fields_) b += f.row ? f.width() : 0;
  return b;
}

int MatrixLayout::colNodeBits() const { return n_ - rowNodeBits(); }

std::vector<u64> MatrixLayout::placeRows() const { return place_rows_; }

std::vector<u64> MatrixLayout::computePlaceRows() const {
  const int m = p_ + q_;
  const int k = this->k();
  std::vector<u64> rows(static_cast<size_t>(m), 0);
  // Node bits: the first field is the most significant.
  int top = n_ - 1;
  for (size_t fi = 0; fi < fields_.size(); ++fi) {
    const IndexField& f = fields_[fi];
    const int width = f.width();
    const int low_node_bit = top - width + 1;
    for (int t = 0; t < width; ++t) {
      u64 row = u64{1} << matrixBit(f.row, f.lo + t, q_);
      // Gray code of the field F: bit t is F_t ^ F_{t+1}.
      if (gray_[fi] && t + 1 < width) row |= u64{1} << matrixBit(f.row, f.lo + t + 1, q_);
      rows[static_cast<size_t>(k + low_node_bit + t)] = row;
    }
    top -= width;
  }
  // Slot bits: the remaining (virtual processor) dimensions in their order.
  const u64 real = realDims();
  int slot_bit = k - 1;
  for (int b = m - 1; b >= 0; --b) {
    if (bitOf(real, b)) continue;
    rows[static_cast<size_t>(slot_bit--)] = u64{1} << b;
  }
  return rows;
}

GlobalAddress MatrixLayout::place(u64 u, u64 v) const {
  const u64 g = gf2Apply(place_rows_, (u << q_) | v);
  return {g >> k(), g & (slots() - 1)};
}

std::pair<u64, u64> MatrixLayout::element(GlobalAddress a) const {
  const u64 w = gf2Apply(element_rows_, (a.node << k()) | a.slot);
  return {w >> q_, w & (cols() - 1)};
}

namespace {

/// The linear map g -> after.place(f(before.element(g))) with f the identity or the transpose.
PermutationSpec layoutMap(const MatrixLayout& before, const MatrixLayout& after, bool transpose,
                          const char* what) {
  if (before.n() != after.n()) {
    throw Error(std::string(what) + ": the layouts are for n = " + std::to_string(before.n()) +
                " and n = " + std::to_string(after.n()));
  }
  const int wantp = transpose ? before.q() : before.p();
  const int wantq = transpose ? before.p() : before.q();
  if (after.p() != wantp || after.q() != wantq) {
    throw Error(std::string(what) + ": the layout after (" + after.str() + ") must store a " +
                std::to_string(u64{1} << wantp) + "x" + std::to_string(u64{1} << wantq) +
                " matrix, the one before is " + before.str());
  }
  const int wantrp = transpose ? before.realQ() : before.realP();
  const int wantrq = transpose ? before.realP() : before.realQ();
  if (after.realP() != wantrp || after.realQ() != wantrq) {
    throw Error(std::string(what) + ": the layout after (" + after.str() + ") must hold a real " +
                std::to_string(u64{1} << wantrp) + "x" + std::to_string(u64{1} << wantrq) +
                " matrix, the one before is " + before.str());
  }
  const int m = before.p() + before.q();
  const std::vector<u64> from = gf2Inverse(before.placeRows(), m);
  const std::vector<u64> to = after.placeRows();
  std::vector<u64> rows(static_cast<size_t>(m), 0);
  for (int b = 0; b < m; ++b) {
    const u64 w = gf2Apply(from, u64{1} << b);
    u64 w2 = w;
    if (transpose) {
      const u64 u = w >> before.q();
      const u64 v = w & (before.cols() - 1);
      w2 = (v << before.p()) | u;
    }
    const u64 g = gf2Apply(to, w2);
    for (int i = 0; i < m; ++i) {
      if (bitOf(g, i)) rows[static_cast<size_t>(i)] |= u64{1} << b;
    }
  }
  if (!before.hasVirtual()) return PermutationSpec::linear(before.n(), before.k(), std::move(rows));
  return PermutationSpec::linear(before.n(), before.k(), std::move(rows), before.virtualChecks());
}

}  // namespace

PermutationSpec transposePermutation(const MatrixLayout& before, const MatrixLayout& after) {
  return layoutMap(before, after, true, "transpose");
}

PermutationSpec relayoutPermutation(const MatrixLayout& from, const MatrixLayout& to) {
  return layoutMap(from, to, false, "storage conversion");
}

std::string TransposeLayouts::str() const { return before.str() + ">" + after.str(); }

TransposeLayouts transposeLayoutsFromParams(CaseParams& params, const CaseSpec& spec,
                                            const std::string& default_partition) {
  LayoutDefaults d;
  d.partition = default_partition;
  return layoutsFromParams(params, spec, d);
}

TransposeLayouts layoutsFromParams(CaseParams& params, const CaseSpec& spec,
                                   const LayoutDefaults& defaults) {
  const int n = spec.n;
  int p = 0;
  int q = 0;
  const auto matrix = params.text("matrix");
  if (matrix) {
    std::tie(p, q) = parseMatrixShape(*matrix, "--matrix");
  } else {
    const u64 k = spec.slots == 0 ? (u64{1} << n) : spec.slots;
    if (!isPowerOfTwo(k)) {
      throw Error("--k " + std::to_string(k) +
                  ": a matrix of 2^p x 2^q elements has a power of two per node");
    }
    const int m = n + log2Exact(k);
    p = defaults.tall ? m : m - m / 2;
    q = defaults.tall ? 0 : m / 2;
  }
  const std::string partition = params.text("partition").value_or(defaults.partition);
  const std::string encoding = params.text("encoding").value_or(defaults.encoding);
  const std::string to_partition =
      params.text("to-partition")
          .value_or(defaults.to_partition.empty() ? partition : defaults.to_partition);
  const std::string to_encoding =
      params.text("to-encoding")
          .value_or(defaults.to_encoding.empty() ? encoding : defaults.to_encoding);
  // Virtual elements (Definition 2): the row and column index bits the node fields before and
  // after need; the rows of A^T are the columns of A.
  const auto [before_rows, before_cols] = MatrixLayout::indexBitsNeeded(partition, n);
  const auto [after_rows, after_cols] = MatrixLayout::indexBitsNeeded(to_partition, n);
  int ep = std::max({p, before_rows, defaults.transpose ? after_cols : after_rows});
  int eq = std::max({q, before_cols, defaults.transpose ? after_rows : after_cols});
  if (defaults.allow_virtual) {
    const std::string mode = params.text("virtual").value_or("needed");
    if (mode != "needed" && mode != "square") {
      throw Error("--virtual '" + mode +
                  "': must be needed (add only the index bits the layouts need) or square "
                  "(extend to the square matrix of Definition 2)");
    }
    if (mode == "square" && (ep != p || eq != q)) ep = eq = std::max(ep, eq);
  }
  // Without virtual elements the matrix itself must fill the nodes (make() says why not).
  const int kp = defaults.allow_virtual ? ep : p;
  const int kq = defaults.allow_virtual ? eq : q;
  if (spec.slots != 0 && (kp + kq < n || (u64{1} << (kp + kq - n)) != spec.slots)) {
    throw Error(
        "--k " + std::to_string(spec.slots) + ": the matrix " + std::to_string(u64{1} << p) + "x" +
        std::to_string(u64{1} << q) +
        (kp != p || kq != q ? " (with virtual elements " + std::to_string(u64{1} << kp) + "x" +
                                  std::to_string(u64{1} << kq) + ")"
                            : std::string()) +
        " on 2^" + std::to_string(n) + " nodes has PQ / N = " +
        (kp + kq < n ? std::string("less than one") : std::to_string(u64{1} << (kp + kq - n))) +
        " elements per node (leave --k out)");
  }
  const int ap = defaults.transpose ? q : p;
  const int aq = defaults.transpose ? p : q;
  if (!defaults.allow_virtual || (ep == p && eq == q)) {
    try {
      return TransposeLayouts{MatrixLayout::make(p, q, n, partition, encoding),
                              MatrixLayout::make(ap, aq, n, to_partition, to_encoding,
                                                 "--to-partition", "--to-encoding")};
    } catch (const Error& e) {
      if (ep == p && eq == q) throw;
      throw Error(std::string(e.what()) + "; " + spec.algo +
                  " takes no virtual elements (Johnsson & Ho 1987 Definition 2), the "
                  "transposes that build move schedules do (transpose-1d, storage-convert, "
                  "transpose-gray, transpose-gray-separate, transpose-assign1..3, spt, dpt, mpt)");
    }
  }
  const int eap = defaults.transpose ? eq : ep;
  const int eaq = defaults.transpose ? ep : eq;
  return TransposeLayouts{MatrixLayout::makeExtended(p, q, ep, eq, n, partition, encoding),
                          MatrixLayout::makeExtended(ap, aq, eap, eaq, n, to_partition, to_encoding,
                                                     "--to-partition", "--to-encoding")};
}

}  // namespace hcube
