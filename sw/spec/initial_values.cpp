#include "spec/initial_values.h"

#include <string>

#include "base/error.h"
#include "spec/seeded_words.h"

namespace hcube {

CubeMemory seededMemory(const PermutationSpec& spec, u64 words_per_node, u64 seed) {
  requireSimulatable(spec.nodes(), words_per_node, "run of " + spec.str());
  const u64 k = spec.slots();
  if (words_per_node < k) {
    throw Error("memory of " + std::to_string(words_per_node) +
                " words per node cannot hold K = " + std::to_string(k) + " data slots");
  }
  CubeMemory mem{spec.nodes(), words_per_node, std::vector<u32>(spec.nodes() * words_per_node, 0)};
  for (u64 x = 0; x < spec.nodes(); ++x) {
    for (u64 l = 0; l < k; ++l) mem.at(x, l) = seededWord(seed, x, l, k);
  }
  return mem;
}

CubeMemory initialMemory(const PermutationSpec& spec, u64 words_per_node, std::optional<u64> seed) {
  if (!seed) return taggedMemory(spec, words_per_node);
  if (!spec.collective()) {
    throw Error("--seed: " + spec.str() +
                " is a permutation, checked by its tags; seeded values are for the collectives "
                "and matmul");
  }
  return seededMemory(spec, words_per_node, *seed);
}

CubeMemory expectedFromInitial(const PermutationSpec& spec, const CubeMemory& initial) {
  const u64 k = spec.slots();
  if (!spec.collective()) {
    throw Error("reference model: " + spec.str() + " is checked by tags, not from values");
  }
  if (initial.nodes != spec.nodes() || initial.words_per_node < k) {
    throw Error("reference model: initial memory of " + std::to_string(initial.nodes) + " x " +
                std::to_string(initial.words_per_node) + " words does not fit " + spec.str());
  }
  if (spec.kind() == PermutationSpec::Kind::kMatmul) return matmulExpected(spec, initial);
  // TR-623 §2 from the initial words alone (the same rules as expectedMemory for tags).
  CubeMemory mem{spec.nodes(), k, std::vector<u32>(spec.nodes() * k, 0)};
  const bool reduce = spec.reduction();
  const bool rooted = spec.kind() == PermutationSpec::Kind::kBroadcastOne;
  for (u64 x = 0; x < spec.nodes(); ++x) {
    for (u64 l = 0; l < k; ++l) {
      if (!spec.checkedAtEnd(x, l)) continue;
      u32 word = initial.at(rooted ? spec.root() : spec.blockHome(l / spec.repetitions()), l);
      if (reduce) {
        word = 0;
        for (u64 y = 0; y < spec.nodes(); ++y) word += initial.at(y, l);
      }
      mem.at(x, l) = word;
    }
  }
  return mem;
}

CheckResult checkFromInitial(const PermutationSpec& spec, const CubeMemory& initial,
                             const CubeMemory& final_memory, size_t keep_first) {
  const CubeMemory want = expectedFromInitial(spec, initial);
  if (final_memory.nodes != want.nodes || final_memory.words_per_node < want.words_per_node) {
    throw Error("final memory has " + std::to_string(final_memory.nodes) + " nodes x " +
                std::to_string(final_memory.words_per_node) + " words; " + spec.str() + " needs " +
                std::to_string(want.nodes) + " x " + std::to_string(want.words_per_node));
  }
  CheckResult r;
  for (u64 x = 0; x < want.nodes; ++x) {
    for (u64 l = 0; l < want.words_per_node; ++l) {
      if (!spec.checkedAtEnd(x, l)) continue;
      ++r.elements;
      const u32 found = final_memory.at(x, l);
      if (found == want.at(x, l)) {
        ++r.correct;
      } else {
        ++r.mismatches;
        if (r.first.size() < keep_first) r.first.push_back({x, l, found, want.at(x, l)});
      }
    }
  }
  return r;
}

CheckResult checkRun(const PermutationSpec& spec, const CubeMemory* initial,
                     const CubeMemory& final_memory) {
  if (initial == nullptr) return checkAgainstReference(spec, final_memory);
  return checkFromInitial(spec, *initial, final_memory);
}

}  // namespace hcube
