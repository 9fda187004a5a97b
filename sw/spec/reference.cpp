#include "spec/reference.h"

#include <sstream>

#include "base/error.h"
#include "spec/matmul_layout.h"

namespace hcube {
namespace {

void requireTaggable(const PermutationSpec& spec) {
  if (spec.elements() > (u64{1} << 32)) {
    throw Error("reference model: " + spec.str() + " has " + std::to_string(spec.elements()) +
                " elements, more than 32-bit tags can name");
  }
}

}  // namespace

void requireSimulatable(u64 nodes, u64 words_per_node, const std::string& what) {
  if (nodes * words_per_node > kMaxSimulatedWords) {
    throw Error(what + ": " + std::to_string(nodes) + " nodes x " + std::to_string(words_per_node) +
                " words is more than the " + std::to_string(kMaxSimulatedWords) +
                " words this tool simulates (tables can still be generated)");
  }
}

CubeMemory taggedMemory(const PermutationSpec& spec, u64 words_per_node) {
  return taggedMemory(spec, words_per_node, 0, spec.nodes());
}

CubeMemory taggedMemory(const PermutationSpec& spec, u64 words_per_node, u64 first_node,
                        u64 nodes) {
  requireTaggable(spec);
  requireSimulatable(spec.nodes(), words_per_node, "run of " + spec.str());
  if (words_per_node < spec.slots()) {
    throw Error("memory of " + std::to_string(words_per_node) +
                " words per node cannot hold K = " + std::to_string(spec.slots()) + " data slots");
  }
  if (first_node > spec.nodes() || nodes > spec.nodes() - first_node) {
    throw Error("initial memory of nodes " + std::to_string(first_node) + " to " +
                std::to_string(first_node + nodes) + ": the cube has " +
                std::to_string(spec.nodes()));
  }
  CubeMemory mem{nodes, words_per_node, std::vector<u32>(nodes * words_per_node, 0)};
  for (u64 i = 0; i < nodes; ++i) {
    for (u64 l = 0; l < spec.slots(); ++l) {
      mem.at(i, l) = static_cast<u32>(packAddress({first_node + i, l}, spec.slots()));
    }
  }
  return mem;
}

CubeMemory expectedMemory(const PermutationSpec& spec) {
  requireTaggable(spec);
  requireSimulatable(spec.nodes(), spec.slots(), "reference model of " + spec.str());
  const u64 k = spec.slots();
  if (spec.kind() == PermutationSpec::Kind::kMatmul)
    return matmulExpected(spec, taggedMemory(spec, k));
  CubeMemory mem{spec.nodes(), k, std::vector<u32>(spec.elements(), 0)};
  if (spec.collective()) {
    // TR-623 §2, computed here from the initial tags and nothing else: after an all-to-all
    // broadcast every node holds block b of its home node (b, or G(b) with the Gray encoding)
    // in its block b, the initial words there; after an all-to-all reduction block b of its
    // home node holds the sum over every node y of the word y started with in that slot (W = 32
    // bit wrap-around). Unchecked slots hold 0.
    // One-to-all broadcast: node root's words everywhere; all-to-one reduction: their sum in
    // node root.
    const bool reduce = spec.reduction();
    const bool rooted = spec.kind() == PermutationSpec::Kind::kBroadcastOne;
    for (u64 x = 0; x < spec.nodes(); ++x) {
      for (u64 l = 0; l < k; ++l) {
        if (!spec.checkedAtEnd(x, l)) continue;
        const u64 from = rooted ? spec.root() : spec.blockHome(l / spec.repetitions());
        u32 word = static_cast<u32>(packAddress({from, l}, k));
        if (reduce) {
          word = 0;
          for (u64 y = 0; y < spec.nodes(); ++y) word += static_cast<u32>(packAddress({y, l}, k));
        }
        mem.at(x, l) = word;
      }
    }
    return mem;
  }
  std::vector<bool> filled(spec.elements(), false);
  for (u64 x = 0; x < spec.nodes(); ++x) {
    for (u64 l = 0; l < k; ++l) {
      const GlobalAddress d = spec.dest({x, l});
      const u64 index = packAddress(d, k);
      if (d.node >= spec.nodes() || d.slot >= k || filled[index]) {
        throw Error("reference model: " + spec.str() + " is not a permutation");
      }
      filled[index] = true;
      mem.words[index] = static_cast<u32>(packAddress({x, l}, k));
    }
  }
  return mem;
}

CubeMemory matmulExpected(const PermutationSpec& spec, const CubeMemory& initial) {
  // TR-623 §3: A += C x D, computed here element by element from the initial words (W = 32 bit
  // wrap-around), independently of any schedule. Slots outside A's block hold 0 (not checked).
  const MatmulLayout l = MatmulLayout::of(spec);
  CubeMemory mem{spec.nodes(), spec.slots(), std::vector<u32>(spec.elements(), 0)};
  auto word = [&](GlobalAddress a) { return initial.at(a.node, a.slot); };
  for (u64 i = 0; i < l.p; ++i) {
    for (u64 k = 0; k < l.r; ++k) {
      const GlobalAddress a = l.aAt(i, k);
      u32 sum = word(a);
      for (u64 j = 0; j < l.q; ++j) sum += word(l.cAt(i, j)) * word(l.dAt(j, k));
      mem.at(a.node, a.slot) = sum;
    }
  }
  return mem;
}

CheckResult checkAgainstReference(const PermutationSpec& spec, const CubeMemory& final_memory,
                                  size_t keep_first) {
  const CubeMemory want = expectedMemory(spec);
  if (final_memory.nodes != want.nodes || final_memory.words_per_node < want.words_per_node) {
    throw Error("final memory has " + std::to_string(final_memory.nodes) + " nodes x " +
                std::to_string(final_memory.words_per_node) + " words; " + spec.str() + " needs " +
                std::to_string(want.nodes) + " x " + std::to_string(want.words_per_node));
  }
  CheckResult r;
  for (u64 x = 0; x < want.nodes; ++x) {
    for (u64 l = 0; l < want.words_per_node; ++l) {
      const u32 found = final_memory.at(x, l);
      const u32 expected = want.at(x, l);
      // Elements that take no part in a personalized communication are not checked, nor the
      // slots a reduction leaves with partial sums.
      if (spec.collective() ? !spec.checkedAtEnd(x, l)
                            : !spec.participates(unpackAddress(expected, want.words_per_node))) {
        continue;
      }
      ++r.elements;
      if (found == expected) {
        ++r.correct;
      } else {
        ++r.mismatches;
        if (r.first.size() < keep_first) r.first.push_back({x, l, found, expected});
      }
    }
  }
  return r;
}

std::string describe(const Mismatch& m, u64 k) {
  const GlobalAddress f = unpackAddress(m.found, k);
  const GlobalAddress e = unpackAddress(m.expected, k);
  std::ostringstream out;
  out << "node " << m.node << " slot " << m.slot << " holds tag " << m.found << " (from node "
      << f.node << " slot " << f.slot << "), the reference expects tag " << m.expected
      << " (from node " << e.node << " slot " << e.slot << ")";
  return out.str();
}

}  // namespace hcube
