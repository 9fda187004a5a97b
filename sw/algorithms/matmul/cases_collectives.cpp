// hcube: the all-to-all collectives of Johnsson & Ho 1988 (TR-623) §2 as catalogue entries —
// broadcast-all (SBT one-port, nRSBT n-port) and reduce-all (the same trees reversed, with
// combining receives). Tables from sw/algorithms/matmul/collectives.h; the bound is the paper's
// element transfers of Tables 2 and 3 (t_c = 1) plus n start-ups of tau.
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>

#include "algorithms/families.h"
#include "algorithms/matmul/collectives.h"
#include "base/error.h"
#include "spec/address.h"

namespace hcube {
namespace {

// What every collective asks of the case: a cube of 1..16 dimensions and one word per port and
// cycle.
void checkCubeAndWidth(const CaseSpec& spec) {
  if (spec.n < 1 || spec.n > 16) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1..16");
  }
  if (spec.lanes != 1) {
    throw Error("--width " + std::to_string(spec.lanes) + ": '" + spec.algo +
                "' sends one word per port and cycle (width 1)");
  }
}

// --tree sbt|nrsbt: whether the collective runs on the n-port nRSBTs. Default: the nRSBT on
// all-port hardware, the SBT on one-port hardware.
bool nPortTree(const CaseSpec& spec, const std::optional<std::string>& tree) {
  if (tree && *tree != "sbt" && *tree != "nrsbt") {
    throw Error("--tree '" + *tree + "': must be sbt (one-port) or nrsbt (n-port)");
  }
  const bool n_port = tree ? *tree == "nrsbt" : !spec.one_port;
  if (spec.one_port && n_port) {
    throw Error("--tree nrsbt: uses every port at once, not one-port hardware (--ports one)");
  }
  return n_port;
}

// --encoding binary|gray (TR-623 Table 1): whether block b lives in node b or node G(b).
bool grayEncoding(const std::optional<std::string>& encoding) {
  if (encoding && *encoding != "binary" && *encoding != "gray") {
    throw Error("--encoding '" + *encoding + "': must be binary or gray");
  }
  return encoding && *encoding == "gray";
}

BuiltCase buildCollective(const CaseSpec& spec, bool reduce) {
  CaseParams params(spec);
  checkCubeAndWidth(spec);
  const u64 nodes = u64{1} << spec.n;
  CollectiveOptions o;
  o.n = spec.n;
  if (spec.slots != 0 && spec.slots % nodes != 0) {
    throw Error("--k " + std::to_string(spec.slots) + ": '" + spec.algo +
                "' needs K = m * 2^n slots (blocks of m words, one per node)");
  }
  const long long m_default = spec.slots != 0 ? static_cast<long long>(spec.slots / nodes) : 1;
  o.m = static_cast<u64>(params.integer("m", m_default, 1, 1LL << 24));
  if (spec.slots != 0 && spec.slots != o.m * nodes) {
    throw Error("--k " + std::to_string(spec.slots) + " and --m " + std::to_string(o.m) +
                ": K must be m * 2^n = " + std::to_string(o.m * nodes));
  }
  o.tau = static_cast<u32>(params.integer("tau", 0, 0, 1LL << 20));
  const auto tree = params.text("tree");
  o.gray = grayEncoding(params.text("encoding"));
  params.finish();
  o.n_port = nPortTree(spec, tree);
  // (N-1) m transfers on the SBT, (N-1) ceil(m/n) on the nRSBT, of the K = m N slots, and n
  // start-ups: measured with hcube tables at n = 4, 6, K = 64, 1024, at most K instructions.
  const CaseSize size =
      perNodeSize(spec, sizeOption(spec, "m"),
                  static_cast<double>(o.m) * static_cast<double>(nodes), 1, false, 2.0 * spec.n);
  BuiltCase c;
  c.size = size;
  c.perm = PermutationSpec::collective(spec.n, o.m, reduce, o.gray);
  c.tables = reduce ? reduceAllTables(o) : broadcastAllTables(o);
  c.tables.header.one_port = spec.one_port;
  c.lower_bound = collectiveElementTransfers(o);
  std::ostringstream src;
  src << "Johnsson & Ho 1988 (TR-623) Table " << (reduce ? 3 : 2) << ", "
      << (o.n_port ? "nRSBT, (N-1) ceil(M/n)" : "SBT, (N-1)M") << " element transfers"
      << (reduce ? " (M/N = m per node finally)" : "") << ", t_c = 1, tau = 0; " << spec.n
      << " start-ups"
      << (o.gray ? "; Gray encoding: the same transfers, blocks ordered by G(pid)" : "");
  c.bound_source = src.str();
  return c;
}

BuiltCase buildRooted(const CaseSpec& spec, bool reduce) {
  CaseParams params(spec);
  checkCubeAndWidth(spec);
  const u64 nodes = u64{1} << spec.n;
  CollectiveOptions o;
  o.n = spec.n;
  const long long m_default = spec.slots != 0 ? static_cast<long long>(spec.slots) : 1;
  o.m = static_cast<u64>(params.integer("m", m_default, 1, 1LL << 24));
  if (spec.slots != 0 && spec.slots != o.m) {
    throw Error("--k " + std::to_string(spec.slots) + " and --m " + std::to_string(o.m) + ": '" +
                spec.algo + "' has K = m slots");
  }
  o.tau = static_cast<u32>(params.integer("tau", 0, 0, 1LL << 20));
  const u64 given_root =
      static_cast<u64>(params.integer("root", 0, 0, static_cast<long long>(nodes - 1)));
  const auto tree = params.text("tree");
  // Gray encoding: --root names processor index j, which is node G(j) (TR-623 Table 1); the m
  // words themselves are not partitioned, so nothing else changes.
  const bool gray = grayEncoding(params.text("encoding"));
  const u64 root = gray ? grayEncode(given_root) : given_root;
  params.finish();
  o.n_port = nPortTree(spec, tree);
  // n steps of m words on the SBT, of ceil(m/n) on the nRSBT (measured at n = 4, 6, K = 64,
  // 1024: 1.05 K instructions), and n start-ups.
  const CaseSize size = perNodeSize(spec, sizeOption(spec, "m"), static_cast<double>(o.m),
                                    o.n_port ? 1.5 : spec.n + 0.5, false, 2.0 * spec.n);
  BuiltCase c;
  c.size = size;
  c.perm = PermutationSpec::rooted(spec.n, o.m, reduce, root);
  c.tables = reduce ? reduceOneTables(o, root) : broadcastOneTables(o, root);
  c.tables.header.one_port = spec.one_port;
  const u64 ports = o.n_port ? static_cast<u64>(spec.n) : 1;
  c.lower_bound = std::max<u64>((o.m + ports - 1) / ports, static_cast<u64>(spec.n));
  c.bound_source = std::string("max(ceil(m / ports), n): the root ") +
                   (reduce ? "receives" : "sends") +
                   " m words over its ports and the farthest node is n hops away (the trees are "
                   "not pipelined: " +
                   std::to_string(spec.n) + " steps of ceil(m / ports) cycles)";
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> collectiveAlgorithms() {
  return {
      {{"broadcast-all",
        "all-to-all broadcast of --m words per node (K = m 2^n): --tree sbt (one-port) | "
        "nrsbt (n-port); --encoding binary | gray; --tau start-up",
        "Johnsson & Ho 1988 (TR-623), section 2, Table 2"},
       [](const CaseSpec& s) { return buildCollective(s, false); }},
      {{"reduce-all",
        "all-to-all reduction (combining receives) of K = m 2^n words per node to m per node: "
        "--tree sbt | nrsbt; --encoding binary | gray; --tau start-up",
        "Johnsson & Ho 1988 (TR-623), section 2, Table 3"},
       [](const CaseSpec& s) { return buildCollective(s, true); }},
      {{"broadcast-one",
        "one-to-all broadcast of --m words from --root (K = m): --tree sbt (one-port) | nrsbt "
        "(n-port); --encoding gray: root G(root); --tau start-up",
        "Johnsson & Ho 1988 (TR-623), section 2 (the trees of its reference [9])"},
       [](const CaseSpec& s) { return buildRooted(s, false); }},
      {{"reduce-one",
        "all-to-one reduction (combining receives) of --m words per node into --root: --tree "
        "sbt | nrsbt; --encoding gray: root G(root); --tau start-up",
        "Johnsson & Ho 1988 (TR-623), section 2 (the trees of its reference [9])"},
       [](const CaseSpec& s) { return buildRooted(s, true); }},
  };
}

}  // namespace hcube
