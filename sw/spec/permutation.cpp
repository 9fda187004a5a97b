#include "spec/permutation.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <optional>
#include <sstream>

#include "base/error.h"

namespace hcube {
namespace {

constexpr int kMaxDims = 24;  // 2^24 nodes is far past what any executor can hold.

u64 parseUnsigned(std::string_view text, std::string_view what) {
  u64 value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    throw Error("permutation spec: " + std::string(what) + " '" + std::string(text) +
                "' is not a non-negative integer");
  }
  return value;
}

}  // namespace

PermutationSpec PermutationSpec::aapc(int n, u64 m) {
  if (n < 1 || n > kMaxDims) {
    throw Error("AAPC: n = " + std::to_string(n) + " is out of range (1.." +
                std::to_string(kMaxDims) + ")");
  }
  if (m < 1 || m > (u64{1} << 20)) {
    throw Error("AAPC: repetition count m = " + std::to_string(m) +
                " is out of range (K = m * 2^n with 1 <= m <= 2^20)");
  }
  PermutationSpec p;
  p.kind_ = Kind::kAapc;
  p.n_ = n;
  p.m_ = m;
  p.slots_ = m << n;
  return p;
}

PermutationSpec PermutationSpec::dimension(int n, int k, std::vector<int> delta) {
  if (n < 0 || k < 0 || n + k < 1 || n > kMaxDims || k > 30) {
    throw Error("dimension permutation: n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                " is out of range");
  }
  const int bits = n + k;
  if (static_cast<int>(delta.size()) != bits) {
    throw Error("dimension permutation: delta has " + std::to_string(delta.size()) +
                " entries, expected n + k = " + std::to_string(bits));
  }
  std::vector<bool> seen(bits, false);
  for (int b = 0; b < bits; ++b) {
    const int t = delta[b];
    if (t < 0 || t >= bits) {
      throw Error("dimension permutation: delta[" + std::to_string(b) + "] = " + std::to_string(t) +
                  " is not a bit position 0.." + std::to_string(bits - 1));
    }
    if (seen[t]) {
      throw Error("dimension permutation: delta is not a permutation (position " +
                  std::to_string(t) + " appears twice)");
    }
    seen[t] = true;
  }
  PermutationSpec p;
  p.kind_ = Kind::kDimension;
  p.n_ = n;
  p.k_ = k;
  p.slots_ = u64{1} << k;
  p.delta_ = std::move(delta);
  return p;
}

PermutationSpec PermutationSpec::linear(int n, int k, std::vector<u64> rows) {
  if (n < 0 || k < 0 || n + k < 1 || n > kMaxDims || k > 30) {
    throw Error("linear permutation: n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                " is out of range");
  }
  const int bits = n + k;
  if (static_cast<int>(rows.size()) != bits) {
    throw Error("linear permutation: " + std::to_string(rows.size()) +
                " rows, expected n + k = " + std::to_string(bits));
  }
  const u64 all = (u64{1} << bits) - 1;
  for (int b = 0; b < bits; ++b) {
    if ((rows[b] & ~all) != 0) {
      throw Error("linear permutation: row " + std::to_string(b) + " = " + std::to_string(rows[b]) +
                  " names a bit above n + k = " + std::to_string(bits));
    }
  }
  // Invertible over GF(2) iff Gaussian elimination finds a pivot for every row.
  std::vector<u64> m = rows;
  for (int col = 0, rank = 0; col < bits; ++col) {
    int pivot = -1;
    for (int r = rank; r < bits; ++r) {
      if (bitOf(m[r], col)) {
        pivot = r;
        break;
      }
    }
    if (pivot < 0) {
      throw Error("linear permutation: the rows are linearly dependent (address bit " +
                  std::to_string(col) + " is lost), so the map is not a permutation");
    }
    std::swap(m[rank], m[pivot]);
    for (int r = 0; r < bits; ++r) {
      if (r != rank && bitOf(m[r], col)) m[r] ^= m[rank];
    }
    ++rank;
  }
  PermutationSpec p;
  p.kind_ = Kind::kLinear;
  p.n_ = n;
  p.k_ = k;
  p.slots_ = u64{1} << k;
  p.rows_ = std::move(rows);
  return p;
}

PermutationSpec PermutationSpec::linear(int n, int k, std::vector<u64> rows,
                                        std::vector<u64> virtual_checks) {
  PermutationSpec p = linear(n, k, std::move(rows));
  const int bits = n + k;
  const u64 all = (u64{1} << bits) - 1;
  // Reduced copies of the checks seen so far, each with its own leading bit (independence test).
  std::vector<u64> basis;
  for (size_t i = 0; i < virtual_checks.size(); ++i) {
    const u64 c = virtual_checks[i];
    const std::string what =
        "linear permutation: virtual check " + std::to_string(i) + " = " + std::to_string(c);
    if (c == 0) throw Error(what + " is zero (it would make every element virtual)");
    if ((c & ~all) != 0) {
      throw Error(what + " names a bit above n + k = " + std::to_string(bits));
    }
    u64 r = c;
    for (const u64 b : basis) {
      if ((r ^ b) < r) r ^= b;  // clear b's leading bit from r when r has it
    }
    if (r == 0) {
      throw Error(what + " is the sum of earlier checks (the checks must be independent)");
    }
    basis.push_back(r);
    std::sort(basis.begin(), basis.end(), std::greater<u64>());
  }
  p.checks_ = std::move(virtual_checks);
  return p;
}

PermutationSpec PermutationSpec::personalized(int n, u64 m, bool gather, int l, u64 root) {
  PermutationSpec p = aapc(n, m);
  if (l < 0 || l > n) {
    throw Error(std::string(gather ? "gather" : "scatter") + ": subcube dimension l = " +
                std::to_string(l) + " is out of range (0..n = " + std::to_string(n) + ")");
  }
  if (root >= p.nodes()) {
    throw Error(std::string(gather ? "gather" : "scatter") + ": root " + std::to_string(root) +
                " is not a node of the " + std::to_string(n) + "-cube");
  }
  p.kind_ = Kind::kPersonalized;
  p.gather_ = gather;
  p.l_ = l;
  p.root_ = root;
  return p;
}

PermutationSpec PermutationSpec::collective(int n, u64 m, bool reduce, bool gray) {
  PermutationSpec p = aapc(n, m);
  p.kind_ = reduce ? Kind::kReduceAll : Kind::kBroadcastAll;
  p.gray_ = gray;
  return p;
}

PermutationSpec PermutationSpec::rooted(int n, u64 m, bool reduce, u64 root) {
  PermutationSpec p = aapc(n, m);
  if (root >= p.nodes()) {
    throw Error(std::string(reduce ? "reduce-one" : "broadcast-one") + ": root " +
                std::to_string(root) + " is not a node of the " + std::to_string(n) + "-cube");
  }
  p.kind_ = reduce ? Kind::kReduceOne : Kind::kBroadcastOne;
  p.slots_ = m;
  p.root_ = root;
  return p;
}

PermutationSpec PermutationSpec::matmul(int n, u64 p, u64 q, u64 r, int n1) {
  if (n1 < 0 || n1 > n) {
    throw Error("matmul: grid row dimensions " + std::to_string(n1) + " out of range (0.." +
                std::to_string(n) + ")");
  }
  const u64 rows = u64{1} << n1;
  const u64 cols = u64{1} << (n - n1);
  auto divides = [&](u64 value, const char* name, u64 by, const char* over) {
    if (value == 0 || value % by != 0) {
      throw Error("matmul: " + std::string(name) + " = " + std::to_string(value) +
                  " does not divide over the " + std::to_string(by) + " grid " + over + " (grid " +
                  std::to_string(rows) + "x" + std::to_string(cols) + ")");
    }
  };
  divides(p, "P", rows, "rows");
  divides(q, "Q", cols, "columns");
  divides(q, "Q", rows, "rows");
  divides(r, "R", cols, "columns");
  PermutationSpec s = aapc(n, 1);
  s.kind_ = Kind::kMatmul;
  s.l_ = n1;
  s.mm_[0] = p;
  s.mm_[1] = q;
  s.mm_[2] = r;
  const u64 c_words = (p / rows) * (q / cols);
  const u64 d_words = (q / rows) * (r / cols);
  const u64 a_words = (p / rows) * (r / cols);
  s.mm_[3] = c_words + d_words;
  s.slots_ = c_words + d_words + a_words;
  s.m_ = 1;
  return s;
}

bool PermutationSpec::participates(GlobalAddress a) const {
  if (!checks_.empty()) {
    const u64 g = (a.node << k_) | a.slot;
    for (const u64 c : checks_) {
      if ((std::popcount(g & c) & 1) != 0) return false;
    }
    return true;
  }
  if (kind_ == Kind::kBroadcastAll) return blockHome(a.slot / m_) == a.node;  // its own block
  if (kind_ == Kind::kBroadcastOne) return a.node == root_;
  if (kind_ != Kind::kPersonalized) return true;
  const u64 end = gather_ ? (a.slot & (nodes() - 1)) : a.node;
  return ((end ^ root_) >> l_) == 0;
}

u64 PermutationSpec::participating() const {
  if (!checks_.empty()) return elements() >> checks_.size();  // independent checks halve each
  if (kind_ == Kind::kBroadcastAll || kind_ == Kind::kBroadcastOne) return elements() >> n_;
  if (kind_ != Kind::kPersonalized) return elements();
  return elements() >> (n_ - l_);  // 2^l of the 2^n source or destination nodes
}

std::vector<u64> PermutationSpec::participatingPerNode() const {
  std::vector<u64> count(nodes(), 0);
  for (u64 x = 0; x < nodes(); ++x) {
    for (u64 l = 0; l < slots_; ++l) count[x] += participates({x, l}) ? 1 : 0;
  }
  return count;
}

u64 PermutationSpec::participatingDistance() const {
  u64 hops = 0;
  for (u64 x = 0; x < nodes(); ++x) {
    for (u64 l = 0; l < slots_; ++l) {
      if (participates({x, l})) hops += static_cast<u64>(hammingDistance(x, dest({x, l}).node));
    }
  }
  return hops;
}

PermutationSpec PermutationSpec::parse(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string kind;
  in >> kind;
  int n = -1;
  int k = -1;
  u64 m = 1;
  int l = 0;
  u64 root = 0;
  std::optional<std::string> enc;
  std::vector<int> delta;
  bool have_delta = false;
  std::vector<u64> rows;
  bool have_rows = false;
  std::vector<u64> checks;
  bool have_checks = false;
  u64 shape[3] = {0, 0, 0};
  bool have_shape = false;
  std::string field;
  while (in >> field) {
    const auto eq = field.find('=');
    if (eq == std::string::npos) {
      throw Error("permutation spec: field '" + field + "' is not of the form name=value");
    }
    const std::string name = field.substr(0, eq);
    const std::string value = field.substr(eq + 1);
    if (name == "n") {
      n = static_cast<int>(parseUnsigned(value, "n"));
    } else if (name == "k") {
      k = static_cast<int>(parseUnsigned(value, "k"));
    } else if (name == "m") {
      m = parseUnsigned(value, "m");
    } else if (name == "l") {
      l = static_cast<int>(std::min<u64>(parseUnsigned(value, "l"), 64));
    } else if (name == "root") {
      root = parseUnsigned(value, "root");
    } else if (name == "enc") {
      if (value != "binary" && value != "gray") {
        throw Error("permutation spec: enc= takes binary or gray, got '" + value + "'");
      }
      enc = value;
    } else if (name == "shape") {
      have_shape = true;
      std::string item;
      std::istringstream items(value);
      size_t i = 0;
      while (std::getline(items, item, 'x')) {
        if (i == 3) throw Error("permutation spec: shape= takes PxQxR, got '" + value + "'");
        shape[i++] = parseUnsigned(item, "shape entry");
      }
      if (i != 3) throw Error("permutation spec: shape= takes PxQxR, got '" + value + "'");
    } else if (name == "delta") {
      have_delta = true;
      std::string item;
      std::istringstream items(value);
      while (std::getline(items, item, ',')) {
        delta.push_back(static_cast<int>(parseUnsigned(item, "delta entry")));
      }
    } else if (name == "rows") {
      have_rows = true;
      std::string item;
      std::istringstream items(value);
      while (std::getline(items, item, ',')) rows.push_back(parseUnsigned(item, "rows entry"));
    } else if (name == "virtual") {
      have_checks = true;
      std::string item;
      std::istringstream items(value);
      while (std::getline(items, item, ',')) {
        checks.push_back(parseUnsigned(item, "virtual check"));
      }
      if (checks.empty() || value.back() == ',') {
        throw Error(
            "permutation spec: virtual= needs a comma-separated list of parity checks, "
            "got '" +
            value + "'");
      }
    } else {
      throw Error("permutation spec: unknown field '" + name + "'");
    }
  }
  if (have_checks && kind != "linear") {
    throw Error(
        "permutation spec: virtual= (virtual elements) is only for linear permutations, "
        "not '" +
        kind + "'");
  }
  if (enc && kind != "broadcast-all" && kind != "reduce-all") {
    throw Error(
        "permutation spec: enc= (the block encoding) is only for broadcast-all and "
        "reduce-all, not '" +
        kind + "'");
  }
  if (kind == "aapc") {
    if (n < 0) throw Error("permutation spec: aapc needs n=");
    return aapc(n, m);
  }
  if (kind == "matmul") {
    if (n < 0 || !have_shape) throw Error("permutation spec: matmul needs n=, shape= and l=");
    return matmul(n, shape[0], shape[1], shape[2], l);
  }
  if (kind == "broadcast-one" || kind == "reduce-one") {
    if (n < 0) throw Error("permutation spec: " + kind + " needs n=");
    return rooted(n, m, kind == "reduce-one", root);
  }
  if (kind == "broadcast-all" || kind == "reduce-all") {
    if (n < 0) throw Error("permutation spec: " + kind + " needs n=");
    return collective(n, m, kind == "reduce-all", enc == "gray");
  }
  if (kind == "scatter" || kind == "gather") {
    if (n < 0) throw Error("permutation spec: " + kind + " needs n=");
    return personalized(n, m, kind == "gather", l, root);
  }
  if (kind == "dim") {
    if (n < 0 || k < 0 || !have_delta) throw Error("permutation spec: dim needs n=, k= and delta=");
    return dimension(n, k, std::move(delta));
  }
  if (kind == "linear") {
    if (n < 0 || k < 0 || !have_rows) {
      throw Error("permutation spec: linear needs n=, k= and rows=");
    }
    return linear(n, k, std::move(rows), std::move(checks));
  }
  throw Error(
      "permutation spec: unknown kind '" + kind +
      "' (expected aapc, dim, linear, scatter, gather, broadcast-all, reduce-all, broadcast-one, "
      "reduce-one or matmul)");
}

std::string PermutationSpec::str() const {
  std::ostringstream out;
  if (kind_ == Kind::kAapc) {
    out << "aapc n=" << n_ << " m=" << m_;
  } else if (kind_ == Kind::kMatmul) {
    out << "matmul n=" << n_ << " shape=" << mm_[0] << "x" << mm_[1] << "x" << mm_[2]
        << " l=" << l_;
  } else if (kind_ == Kind::kBroadcastOne || kind_ == Kind::kReduceOne) {
    out << (kind_ == Kind::kReduceOne ? "reduce-one" : "broadcast-one") << " n=" << n_
        << " m=" << m_ << " root=" << root_;
  } else if (collective()) {
    out << (kind_ == Kind::kReduceAll ? "reduce-all" : "broadcast-all") << " n=" << n_
        << " m=" << m_ << (gray_ ? " enc=gray" : "");
  } else if (kind_ == Kind::kPersonalized) {
    out << (gather_ ? "gather" : "scatter") << " n=" << n_ << " m=" << m_ << " l=" << l_
        << " root=" << root_;
  } else if (kind_ == Kind::kDimension) {
    out << "dim n=" << n_ << " k=" << k_ << " delta=";
    for (size_t b = 0; b < delta_.size(); ++b) out << (b ? "," : "") << delta_[b];
  } else {
    out << "linear n=" << n_ << " k=" << k_ << " rows=";
    for (size_t b = 0; b < rows_.size(); ++b) out << (b ? "," : "") << rows_[b];
    if (!checks_.empty()) {
      out << " virtual=";
      for (size_t i = 0; i < checks_.size(); ++i) out << (i ? "," : "") << checks_[i];
    }
  }
  return out.str();
}

GlobalAddress PermutationSpec::dest(GlobalAddress a) const {
  if (collective()) {
    throw Error("permutation spec: " + str() + " is a collective, no element has one destination");
  }
  if (kind_ == Kind::kAapc || kind_ == Kind::kPersonalized) {
    const u64 low = (u64{1} << n_) - 1;
    const u64 h = a.slot >> n_;
    const u64 i = a.slot & low;
    return {i, (h << n_) | a.node};
  }
  const u64 src = (a.node << k_) | a.slot;
  u64 dst = 0;
  if (kind_ == Kind::kDimension) {
    for (size_t b = 0; b < delta_.size(); ++b) {
      if (bitOf(src, static_cast<int>(b))) dst |= u64{1} << delta_[b];
    }
  } else {
    for (size_t b = 0; b < rows_.size(); ++b) {
      if ((std::popcount(src & rows_[b]) & 1) != 0) dst |= u64{1} << b;
    }
  }
  return {dst >> k_, dst & (slots_ - 1)};
}

}  // namespace hcube
