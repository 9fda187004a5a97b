// Tests of several AAPCs on successive axes (Johnsson & Ho 1992 §2.3, §4): the permutation,
// Table 3 as a memory trace through the table executor, exact transfer-cycle counts (Corollary 2
// where the pipelined complement-pair blocks meet it), every element against the reference
// model, and the static verifier.
#include "algorithms/aapc/multi_aapc.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "spec/reference.h"
#include "tables/compiler.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

constexpr u32 kNotInTable = 0xFFFFFFFFU;

MultiAapcShape shape(int n, int d, int s, int k) {
  MultiAapcShape sh;
  sh.n = n;
  sh.d = d;
  sh.s = s;
  sh.k = k;
  return sh;
}

/// Table 3's states, by name: state[slot][node].
struct Table3 {
  std::vector<std::string> mod2add;
  std::vector<std::pair<std::string, std::vector<std::vector<u32>>>> states;
};

Table3 readTable3() {
  const std::vector<std::string> lines = testing::goldenLines("jh_table3_d2.txt");
  Table3 t;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::istringstream in(lines[i]);
    std::string head;
    in >> head;
    if (head == "mod2add") {
      for (std::string w; in >> w;) t.mod2add.push_back(w);
      continue;
    }
    std::vector<std::vector<u32>> rows;
    for (int slot = 0; slot < 4; ++slot) {
      std::istringstream row(lines.at(++i));
      std::vector<u32> values;
      for (u32 v; row >> v;) values.push_back(v);
      rows.push_back(values);
    }
    t.states.emplace_back(head, rows);
  }
  return t;
}

/// The aligned view of a memory: what aligned slot m of node x holds (for kSlots, aligned slot
/// m is physical slot m ^ X(x); for kExplicit the memory is already aligned).
std::vector<std::vector<u32>> alignedView(const CubeMemory& mem, const MultiAapcShape& sh,
                                          bool physical_is_aligned) {
  std::vector<std::vector<u32>> rows(sh.slots(), std::vector<u32>(sh.nodes(), kNotInTable));
  for (u64 x = 0; x < sh.nodes(); ++x) {
    for (u32 m = 0; m < sh.slots(); ++m) {
      rows[m][x] = mem.at(x, physical_is_aligned ? m : m ^ axesXor(sh, x));
    }
  }
  return rows;
}

std::vector<std::vector<u32>> plainView(const CubeMemory& mem, const MultiAapcShape& sh) {
  return alignedView(mem, sh, true);
}

/// The first differing entry of two states, or "" if they are equal.
std::string firstDifference(const std::vector<std::vector<u32>>& got,
                            const std::vector<std::vector<u32>>& want) {
  for (size_t slot = 0; slot < want.size(); ++slot) {
    for (size_t node = 0; node < want[slot].size(); ++node) {
      if (got.at(slot).at(node) != want[slot][node]) {
        return "slot " + std::to_string(slot) + " of P" + std::to_string(node) + ": got " +
               std::to_string(got[slot][node]) + ", the paper has " +
               std::to_string(want[slot][node]);
      }
    }
  }
  return "";
}

RunResult runFor(const TableSet& set, u64 cycles) {
  ExecOptions opt;
  opt.max_cycles = cycles;
  opt.tagged_elements = set.header.nodes() * set.header.slots;
  return executeTables(set, taggedMemory(set.header.perm, set.header.memoryWords()), opt);
}

TEST(MultiAapcPermutation, TwoAxesOfTwoBitsIsTable3sPermutation) {
  // (k, j | i) -> (j, i | k): global bits i = 0..1, j = 2..3, k = 4..5.
  const PermutationSpec p = successiveAapcPermutation(shape(4, 2, 2, 2));
  EXPECT_EQ(p.str(), "dim n=4 k=2 delta=2,3,4,5,0,1");
  // Element 5 = (k=0, j=1 | i=1) ends at node (j=1, i=1) = 5, slot k = 0; 17 = (1,0|1) at node 1,
  // slot 1 (Table 3, last state).
  EXPECT_EQ(p.dest({1, 1}), (GlobalAddress{5, 0}));
  EXPECT_EQ(p.dest({4, 1}), (GlobalAddress{1, 1}));
}

TEST(MultiAapcPermutation, RepetitionBitsAndSpareNodeBitsStay) {
  // n = 7, d = 2, s = 3, k = 3: local bit 2 (h) and node bit 6 are not in the permutation.
  const PermutationSpec p = successiveAapcPermutation(shape(7, 2, 3, 3));
  EXPECT_EQ(p.str(), "dim n=7 k=3 delta=3,4,2,5,6,7,8,0,1,9");
}

TEST(MultiAapcPermutation, BadShapesNameTheOption) {
  auto message = [](const MultiAapcShape& sh) {
    try {
      checkMultiAapcShape(sh);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(shape(6, 2, 4, 2)),
            "--axes 4 with --d 2: 4 axes of 2 bits need 8 node bits, the cube has n = 6");
  EXPECT_EQ(message(shape(6, 3, 2, 2)),
            "--k 4: the AAPCs need K = 2^k elements per node with 3 <= k <= 24");
  EXPECT_EQ(message(shape(6, 2, 0, 2)), "--axes 0: at least one AAPC is needed");
}

TEST(MultiAapcTable3, ModTwoAddRowIsTheXorOfTheAxes) {
  const Table3 t = readTable3();
  const MultiAapcShape sh = shape(4, 2, 2, 2);
  ASSERT_EQ(t.mod2add.size(), 16U);
  for (u64 x = 0; x < 16; ++x) {
    EXPECT_EQ(testing::binary(axesXor(sh, x), 2), t.mod2add[x]) << "P" << x;
  }
}

// The paper's Table 3 through the table executor: explicit alignment (PERMUTE), the first AAPC
// (block period 0 on axis j), the second (period 1 on axis k), realignment.
TEST(MultiAapcTable3, ExplicitAlignmentPassesThroughEveryStateOfTable3) {
  const Table3 t = readTable3();
  ASSERT_EQ(t.states.size(), 5U);
  const MultiAapcShape sh = shape(4, 2, 2, 2);
  const PermutationSpec perm = successiveAapcPermutation(sh);
  const TableSet set = compileMoves(jhPipelinedAapcs(sh, MultiAapcAlignment::kExplicit), perm, {});
  ASSERT_TRUE(verifyTables(set).ok());
  // Phase 1: one PERMUTE (4 copies on 4 channels); each AAPC: K/2 = 2 transfer cycles.
  const std::vector<u64> at = {0, 1, 3, 5, 6};
  for (size_t i = 0; i < at.size(); ++i) {
    const RunResult r = runFor(set, at[i]);
    EXPECT_EQ(firstDifference(plainView(r.memory, sh), t.states[i].second), "")
        << "after " << at[i] << " cycles, state '" << t.states[i].first << "'";
  }
  const RunResult full = runFor(set, 1000);
  EXPECT_FALSE(full.timeout);
  EXPECT_EQ(full.cycles, 6U);
  EXPECT_EQ(full.transfer_cycles, 4U);
  EXPECT_EQ(full.local_cycles, 2U);
  EXPECT_TRUE(full.errors.empty());
}

// Without PERMUTEs the same schedule keeps aligned slot m of node x in physical slot m ^ X(x):
// the aligned view of the memory is Table 3 at every point, with no local cycles.
TEST(MultiAapcTable3, SlotChoiceReplacesTheAlignmentPhases) {
  const Table3 t = readTable3();
  const MultiAapcShape sh = shape(4, 2, 2, 2);
  const TableSet set = compileMoves(jhPipelinedAapcs(sh, MultiAapcAlignment::kSlots),
                                    successiveAapcPermutation(sh), {});
  ASSERT_TRUE(verifyTables(set).ok());
  const std::vector<std::pair<u64, size_t>> at = {{0, 1}, {2, 2}, {4, 3}};
  for (auto [cycles, state] : at) {
    const RunResult r = runFor(set, cycles);
    EXPECT_EQ(firstDifference(alignedView(r.memory, sh, false), t.states[state].second), "")
        << "after " << cycles << " cycles, state '" << t.states[state].first << "'";
  }
  EXPECT_EQ(firstDifference(plainView(runFor(set, 0).memory, sh), t.states[0].second), "");
  const RunResult full = runFor(set, 1000);
  EXPECT_EQ(firstDifference(plainView(full.memory, sh), t.states[4].second), "");
  EXPECT_EQ(full.cycles, 4U);
  EXPECT_EQ(full.local_cycles, 0U);
}

/// Checks a sliding group directly, without running it (d = 9 needs n = 18): "" if it is
/// sound, else the first problem. Sound: M pairs of complementary slots (distinct over all
/// copies, inside the K slots) that leave a multiple of d pairs for the blocks; every slot's
/// window of d steps inside the group's M steps; and for every subcube offset Y, each slot's
/// element crosses exactly the dimensions of its relative address (slot ^ Y, low d bits), each
/// once, inside its window, at most one move per slot and at most one per dimension (one
/// element per link direction at every node) in every step.
std::string slidingGroupProblem(const MultiAapcShape& sh, const SlidingGroup& g) {
  const u32 mask = (u32{1} << sh.d) - 1U;
  const u64 m = g.steps;
  if (g.copies < 1 || m < static_cast<u64>(sh.d)) return "group of " + std::to_string(m);
  if (g.slots.size() != 2 * m || g.starts.size() != 2 * m) return "slot count";
  if (g.copies * m > sh.slots() / 2 || (sh.slots() / 2 - g.copies * m) % sh.d != 0) {
    return "the rest is no multiple of d";
  }
  std::vector<bool> taken(sh.slots(), false);
  for (u64 c = 0; c < g.copies; ++c) {
    for (u32 slot : g.slots) {
      const u64 at = slot + (c << sh.d);
      if (at >= sh.slots() || taken[at]) return "slot " + std::to_string(at) + " twice or outside";
      taken[at] = true;
    }
  }
  for (size_t i = 0; i < g.slots.size(); i += 2) {
    if ((g.slots[i] ^ g.slots[i + 1]) != mask) return "slot " + std::to_string(i) + " unpaired";
  }
  for (size_t i = 0; i < g.starts.size(); ++i) {
    if (g.starts[i] < 0 || static_cast<u64>(g.starts[i] + sh.d) > m) {
      return "window of slot " + std::to_string(i);
    }
  }
  if (g.moves.size() != (size_t{1} << sh.d)) return "offset count";
  for (u32 y = 0; y <= mask; ++y) {
    const std::string at = "Y = " + std::to_string(y) + ": ";
    std::vector<u32> rem;
    for (u32 slot : g.slots) rem.push_back((slot ^ y) & mask);
    if (g.moves[y].size() != m) return at + "step count";
    for (u64 t = 0; t < m; ++t) {
      u32 dims_used = 0;
      std::vector<bool> moved(g.slots.size(), false);
      for (const auto& [j, i] : g.moves[y][t]) {
        const std::string mv = at + "step " + std::to_string(t) + ", slot " + std::to_string(i) +
                               ", dimension " + std::to_string(j) + ": ";
        if (j < 0 || j >= sh.d || i >= g.slots.size()) return mv + "out of range";
        if ((dims_used >> j) & 1U) return mv + "link used twice";
        if (moved[i]) return mv + "slot moves twice";
        if (t < static_cast<u64>(g.starts[i]) || t >= static_cast<u64>(g.starts[i] + sh.d)) {
          return mv + "outside the window";
        }
        if (((rem[i] >> j) & 1U) == 0) return mv + "not needed (or crossed before)";
        dims_used |= u32{1} << j;
        moved[i] = true;
        rem[i] &= ~(u32{1} << j);
      }
    }
    for (size_t i = 0; i < rem.size(); ++i) {
      if (rem[i] != 0) return at + "slot " + std::to_string(i) + " does not arrive";
    }
  }
  return "";
}

// d = 9 (the only d above 7 the cube allows with s >= 2: n = 18): the group comes from a code
// of pairs at pair distance >= 3. K = 512 (256 pairs = 28 blocks of 9 and 4): one group of 13
// pairs in 13 steps, 256 + 9 = 265 (blocks only: 9 * 29 + 9 = 270). K = 1024 (r = 8): two
// copies of it, one per repetition, 512 + 9 = 521 (blocks: 522).
TEST(MultiAapcSlidingGroup, NineBitAxesMeetCorollary2) {
  const MultiAapcShape sh = shape(18, 9, 2, 9);
  SlidingGroup g;
  ASSERT_TRUE(pipelinedSlidingGroup(sh, g));
  EXPECT_EQ(slidingGroupProblem(sh, g), "");
  EXPECT_EQ(g.copies, 1U);
  EXPECT_EQ(g.steps, 13U);
  const std::vector<u32> firsts{0, 7, 25, 30, 98, 101, 123, 124, 168, 175, 177, 182, 202};
  for (size_t u = 0; u < firsts.size(); ++u) {
    EXPECT_EQ(g.slots.at(2 * u), firsts[u]);
    EXPECT_EQ(g.starts.at(2 * u), u < 7 ? 0 : 4);
  }
  EXPECT_EQ(pipelinedAapcSteps(sh), 265U);
  EXPECT_EQ(corollary2Steps(sh), 265U);
  const MultiAapcShape twice = shape(18, 9, 2, 10);
  ASSERT_TRUE(pipelinedSlidingGroup(twice, g));
  EXPECT_EQ(slidingGroupProblem(twice, g), "");
  EXPECT_EQ(g.copies, 2U);
  EXPECT_EQ(g.steps, 13U);
  EXPECT_EQ(pipelinedAapcSteps(twice), 521U);
  EXPECT_EQ(corollary2Steps(twice), 521U);
  EXPECT_EQ(pipelinedAapcSteps(shape(16, 8, 2, 8)), 128U + 8U);  // 8 divides 128: blocks only
  EXPECT_FALSE(pipelinedSlidingGroup(shape(16, 8, 2, 8), g));
}

// The same check on the groups of smaller d (which the table executor also runs in full), and
// the checker against broken groups.
TEST(MultiAapcSlidingGroup, GroupsOfSmallerAxesAndBrokenGroups) {
  for (const MultiAapcShape& sh : {shape(6, 3, 2, 3), shape(6, 3, 2, 4), shape(10, 5, 2, 5),
                                   shape(10, 5, 2, 7), shape(12, 6, 2, 6), shape(14, 7, 2, 7)}) {
    SlidingGroup g;
    ASSERT_TRUE(pipelinedSlidingGroup(sh, g)) << "d = " << sh.d << ", k = " << sh.k;
    EXPECT_EQ(slidingGroupProblem(sh, g), "") << "d = " << sh.d << ", k = " << sh.k;
  }
  const MultiAapcShape sh = shape(10, 5, 2, 5);
  SlidingGroup good;
  ASSERT_TRUE(pipelinedSlidingGroup(sh, good));
  SlidingGroup g = good;
  g.moves[3][0].front().first = (g.moves[3][0].front().first + 1) % 5;  // another dimension
  EXPECT_NE(slidingGroupProblem(sh, g), "");
  g = good;
  g.moves[7].back().pop_back();  // one element stops short
  EXPECT_NE(slidingGroupProblem(sh, g), "");
  g = good;
  g.starts[0] += 1;  // a window that no longer holds the slot's moves (or leaves the group)
  EXPECT_NE(slidingGroupProblem(sh, g), "");
  g = good;
  g.slots[1] ^= 1U;  // no longer the complement of slot 0
  EXPECT_NE(slidingGroupProblem(sh, g), "");
  EXPECT_FALSE(pipelinedSlidingGroup(shape(8, 2, 2, 4), g));  // 2 divides K/2: no group
  EXPECT_FALSE(pipelinedSlidingGroup(shape(3, 3, 1, 3), g));  // s = 1: Algorithm 4
}

TEST(MultiAapcBounds, FormulasOfCorollary2AndTheorem2) {
  EXPECT_EQ(corollary2Steps(shape(6, 2, 3, 2)), 2U + 2U * 2U);
  EXPECT_EQ(corollary2Steps(shape(9, 3, 3, 3)), 4U + 2U * 3U);
  // Theorem 2: s <= 3 is the pipelined count; K <= 8d as well.
  EXPECT_EQ(theorem2Steps(shape(9, 3, 3, 3)), 10U);
  EXPECT_EQ(theorem2Steps(shape(4, 1, 4, 3)), 4U + 3U);  // K = 8 <= 8d
  // 8d <= K <= 2(s + 1)d: (s + 3)d. d = 2, s = 4, K = 16 (16 <= 16 <= 20).
  EXPECT_EQ(theorem2Steps(shape(8, 2, 4, 4)), 14U);
  // K >= 2(s + 1)d: K/2 + 2d. d = 1, s = 4, K = 16 (16 >= 10).
  EXPECT_EQ(theorem2Steps(shape(4, 1, 4, 4)), 10U);
}

struct Measured {
  u64 cycles = 0;
  u64 transfer_cycles = 0;
  u64 span = 0;
};

/// Builds, verifies and runs a pipelined case; checks every element against the reference.
Measured runPipelined(const MultiAapcShape& sh) {
  const PermutationSpec perm = successiveAapcPermutation(sh);
  const MoveSchedule schedule = jhPipelinedAapcs(sh, MultiAapcAlignment::kSlots);
  const TableSet set = compileMoves(schedule, perm, {});
  const VerifyReport v = verifyTables(set);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors.front());
  const RunResult r = runFor(set, u64{1} << 20);
  EXPECT_FALSE(r.timeout);
  EXPECT_TRUE(r.errors.empty());
  const CheckResult c = checkAgainstReference(perm, r.memory);
  EXPECT_EQ(c.correct, perm.elements());
  EXPECT_EQ(c.mismatches, 0U) << (c.first.empty() ? "" : describe(c.first.front(), sh.slots()));
  EXPECT_EQ(moveScheduleSpan(schedule, sh.nodes(), sh.slots(), sh.slots()), r.span);
  return {r.cycles, r.transfer_cycles, r.span};
}

/// Exact transfer cycles of the pipelined schedule: Corollary 2's K/2 + (s-1)d (blocks of d
/// complement pairs when d divides K/2, a leading sliding group otherwise; Algorithm 4 for
/// s = 1). The span is d for s = 1 and s * d for s > 1 (every slot stays in a window of d steps
/// per axis, and some element crosses all d dimensions of every axis).
void expectPipelined(int d, int s, int k) {
  const MultiAapcShape sh = shape(s * d, d, s, k);
  SCOPED_TRACE("d = " + std::to_string(d) + ", s = " + std::to_string(s) +
               ", K = " + std::to_string(sh.slots()));
  const u64 K = sh.slots();
  const u64 ud = static_cast<u64>(d);
  const u64 us = static_cast<u64>(s);
  const u64 expected = K / 2 + (us - 1) * ud;
  const Measured m = runPipelined(sh);
  EXPECT_EQ(m.transfer_cycles, expected);
  EXPECT_EQ(m.cycles, expected);
  EXPECT_EQ(m.span, s == 1 ? ud : us * ud);
  EXPECT_EQ(pipelinedAapcSteps(sh), expected);
  EXPECT_EQ(corollary2Steps(sh), expected);
}

TEST(MultiAapcPipelined, ExactCyclesOneAxis) {
  for (int d = 1; d <= 8; ++d) expectPipelined(d, 1, d);
}

// d = 3 (K/2 = 4), d = 5 (K/2 = 16) and d = 6 (K/2 = 32, r = 2) need the sliding group:
// 4 + 3 = 7 (blocks: 9), 16 + 5 = 21 (blocks: 25), 32 + 6 = 38 (blocks: 42).
TEST(MultiAapcPipelined, ExactCyclesTwoAxes) {
  for (int d = 1; d <= 6; ++d) expectPipelined(d, 2, d);
}

// d = 3: 4 + 6 = 10 (blocks: 12).
TEST(MultiAapcPipelined, ExactCyclesThreeAxes) {
  for (int d = 1; d <= 4; ++d) expectPipelined(d, 3, d);
}

TEST(MultiAapcPipelined, RepeatedAapcsWithMoreLocalBits) {
  expectPipelined(2, 2, 4);  // K = 16, 8 pairs in 4 blocks: 8 + 2
  // K = 16, d = 3: r = 2, the group takes 5 pairs, two of them with the same low bits (from two
  // repetitions), with windows at 0, 0, 1, 2, 2: 8 + 3 = 11 (blocks: 12).
  expectPipelined(3, 2, 4);
  expectPipelined(3, 2, 5);  // K = 32: r = 1, 16 + 3 = 19 (blocks: 21)
  expectPipelined(3, 3, 4);  // 8 + 6 = 14 (blocks: 15)
  // K = 128, d = 5: r = 4, four copies of a group of 6 pairs (one per repetition, each in 6
  // steps), then 8 blocks: 64 + 5 = 69 (blocks: 70).
  expectPipelined(5, 2, 7);
  expectPipelined(1, 3, 3);  // K = 8, d = 1: 4 + 2
}

// d = 5, s = 3: 16 + 10 = 26 (blocks: 30). d = 7, K = 128: r = 1, the group of the pairs of 0
// and of the unit vectors: 64 + 7 = 71 (blocks: 77).
TEST(MultiAapcPipelined, LongerCasesExactCycles_Long) {
  expectPipelined(5, 3, 5);
  expectPipelined(7, 2, 7);
  expectPipelined(5, 2, 6);  // K = 64: r = 2, 32 + 5 = 37 (blocks: 40)
}

/// A run of the pipelined transfer steps (alignment by slot choice) over tagged memory, one step
/// at a time without the whole move list (forEachPipelinedTransferStep), for shapes too large for
/// the compiler and the table executor. In every step all moved elements are read first (each
/// source slot must hold one), then written (each target slot must be empty), and a node sends
/// at most one element per dimension. `problem` is the first violation ("" if none).
class StreamedRun {
 public:
  explicit StreamedRun(const MultiAapcShape& sh)
      : sh_(sh),
        perm_(successiveAapcPermutation(sh)),
        mem_(taggedMemory(perm_, sh.slots())),
        link_step_(sh.nodes() * static_cast<u64>(sh.n), 0) {}

  void apply(const std::vector<Move>& step) {
    ++steps;
    if (!problem.empty()) return;
    const std::string at = "step " + std::to_string(steps - 1) + ": ";
    held_.resize(step.size());
    for (size_t i = 0; i < step.size(); ++i) {
      const Move& mv = step[i];
      u64& last = link_step_[mv.node * static_cast<u64>(sh_.n) + static_cast<u64>(mv.dim)];
      if (last == steps) {
        problem = at + "node " + std::to_string(mv.node) + " sends twice on dimension " +
                  std::to_string(mv.dim);
        return;
      }
      last = steps;
      held_[i] = mem_.at(mv.node, mv.slot);
      if (held_[i] == kHole) {
        problem = at + "slot " + std::to_string(mv.slot) + " of node " + std::to_string(mv.node) +
                  " is empty";
        return;
      }
      mem_.at(mv.node, mv.slot) = kHole;
    }
    for (size_t i = 0; i < step.size(); ++i) {
      const u64 to = neighbour(step[i].node, step[i].dim);
      u32& target = mem_.at(to, step[i].to_slot);
      if (target != kHole) {
        problem = at + "slot " + std::to_string(step[i].to_slot) + " of node " +
                  std::to_string(to) + " is written while full";
        return;
      }
      target = held_[i];
    }
    moves += step.size();
  }

  CheckResult check() const { return checkAgainstReference(perm_, mem_); }

  std::string problem;
  u64 steps = 0;
  u64 moves = 0;

 private:
  static constexpr u32 kHole = 0xFFFFFFFFU;
  MultiAapcShape sh_;
  PermutationSpec perm_;
  CubeMemory mem_;
  std::vector<u64> link_step_;  ///< per (node, dimension): last step it sent in, plus 1
  std::vector<u32> held_;
};

void expectStreamed(const MultiAapcShape& sh) {
  SCOPED_TRACE("n = " + std::to_string(sh.n) + ", d = " + std::to_string(sh.d) +
               ", s = " + std::to_string(sh.s) + ", K = " + std::to_string(sh.slots()));
  StreamedRun run(sh);
  forEachPipelinedTransferStep(sh, MultiAapcAlignment::kSlots,
                               [&](std::vector<Move>& step) { run.apply(step); });
  EXPECT_EQ(run.problem, "");
  EXPECT_EQ(run.steps, corollary2Steps(sh));
  // Every element crosses the d dimensions of its pair per axis: d/2 moves per slot and axis.
  EXPECT_EQ(run.moves, sh.nodes() * sh.slots() / 2 * static_cast<u64>(sh.d * sh.s));
  const CheckResult c = run.check();
  EXPECT_EQ(c.correct, sh.nodes() * sh.slots());
  EXPECT_EQ(c.mismatches, 0U);
}

// The streamed run agrees with the table executor's (runPipelined) on small shapes, with and
// without a sliding group, and notices a broken schedule.
TEST(MultiAapcPipelined, StreamedRunOfSmallShapes) {
  expectStreamed(shape(6, 3, 2, 3));
  expectStreamed(shape(9, 3, 3, 3));
  expectStreamed(shape(10, 5, 2, 5));
  expectStreamed(shape(8, 4, 2, 4));
  expectStreamed(shape(6, 3, 2, 4));
  const MultiAapcShape sh = shape(6, 3, 2, 3);
  const MoveSchedule schedule = jhPipelinedAapcs(sh, MultiAapcAlignment::kSlots);
  StreamedRun twice(sh);
  std::vector<Move> step = schedule.steps.front();
  step.push_back(step.front());  // the same node sends on the same dimension again
  twice.apply(step);
  EXPECT_EQ(twice.problem, "step 0: node 0 sends twice on dimension 0");
  StreamedRun empty(sh);
  empty.apply({{0, 0, 0, 0}, {0, 0, 1, 0}});  // slot 0 of node 0 leaves twice
  EXPECT_EQ(empty.problem, "step 0: slot 0 of node 0 is empty");
  StreamedRun full(sh);
  full.apply({{0, 0, 0, 0}});  // nothing leaves slot 0 of node 1
  EXPECT_EQ(full.problem, "step 0: slot 0 of node 1 is written while full");
  StreamedRun short_run(sh);
  for (size_t t = 0; t + 1 < schedule.steps.size(); ++t) short_run.apply(schedule.steps[t]);
  EXPECT_EQ(short_run.problem, "");
  EXPECT_GT(short_run.check().mismatches, 0U);  // the last step is missing
}

// d = 9 over the whole cube (n = 18, K = 512: 2^27 elements, 1.2 * 10^9 moves, about 1.2 GB
// and 1.5 to 2.5 minutes): 265 steps, every element where the reference model says.
TEST(MultiAapcPipelined, NineBitAxesStreamedOverTheWholeCube_Long) {
  expectStreamed(shape(18, 9, 2, 9));
}

// The window condition of §4.1 read off the moves: every aligned slot m (physical slot
// m ^ X(x) with alignment by slot choice) moves on axis t only within d consecutive steps over
// all nodes, and starts on axis t + 1 only after its last move on axis t in every node.
void expectSlotWindows(int d, int s, int k) {
  const MultiAapcShape sh = shape(s * d, d, s, k);
  SCOPED_TRACE("d = " + std::to_string(d) + ", s = " + std::to_string(s) +
               ", K = " + std::to_string(sh.slots()));
  const MoveSchedule schedule = jhPipelinedAapcs(sh, MultiAapcAlignment::kSlots);
  const u64 none = ~u64{0};
  std::vector<std::vector<u64>> first(static_cast<size_t>(s) + 1,
                                      std::vector<u64>(sh.slots(), none));
  std::vector<std::vector<u64>> last(static_cast<size_t>(s) + 1, std::vector<u64>(sh.slots(), 0));
  for (u64 step = 0; step < schedule.steps.size(); ++step) {
    for (const Move& mv : schedule.steps[step]) {
      ASSERT_NE(mv.dim, Move::kLocal);
      const size_t axis = static_cast<size_t>(mv.dim / d) + 1;
      const u32 m = mv.slot ^ axesXor(sh, mv.node);
      first[axis][m] = std::min(first[axis][m], step);
      last[axis][m] = std::max(last[axis][m], step);
    }
  }
  for (u32 m = 0; m < sh.slots(); ++m) {
    for (int t = 1; t <= s; ++t) {
      ASSERT_NE(first[t][m], none) << "slot " << m << " never moves on axis " << t;
      EXPECT_LT(last[t][m] - first[t][m], static_cast<u64>(d)) << "slot " << m << ", axis " << t;
      if (t > 1) {
        EXPECT_GT(first[t][m], last[t - 1][m]) << "slot " << m << ", axis " << t;
      }
    }
  }
}

TEST(MultiAapcPipelined, EverySlotKeepsOneWindowOfDStepsPerAxis) {
  expectSlotWindows(3, 2, 3);  // sliding group of 4 pairs
  expectSlotWindows(3, 3, 3);
  expectSlotWindows(3, 2, 4);  // two copies of the group, one per repetition index
  expectSlotWindows(5, 2, 5);  // sliding group of 6 pairs, then blocks
  expectSlotWindows(4, 2, 4);  // blocks only
}

TEST(MultiAapcPipelined, SpareNodeBitsAreIndependentSubcubes) {
  // n = 5 with two axes of 2 bits: node bit 4 names two independent copies.
  MultiAapcShape sh = shape(5, 2, 2, 2);
  const Measured m = runPipelined(sh);
  EXPECT_EQ(m.transfer_cycles, 4U);
}

/// Builds, verifies and runs Algorithm 5; checks every element against the reference and that
/// the run's transfer cycles are what the plan says.
RunResult runConcurrent(const MultiAapcShape& sh, ConcurrentAapcPlan& plan) {
  const PermutationSpec perm = successiveAapcPermutation(sh);
  const MoveSchedule schedule = jhConcurrentAapcs(sh, 1, &plan);
  const TableSet set = compileMoves(schedule, perm, {});
  const VerifyReport v = verifyTables(set);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors.front());
  const RunResult r = runFor(set, u64{1} << 20);
  EXPECT_FALSE(r.timeout);
  EXPECT_TRUE(r.errors.empty());
  const CheckResult c = checkAgainstReference(perm, r.memory);
  EXPECT_EQ(c.mismatches, 0U) << (c.first.empty() ? "" : describe(c.first.front(), sh.slots()));
  EXPECT_EQ(c.correct, perm.elements());
  EXPECT_EQ(r.transfer_cycles, plan.transfer_steps);
  EXPECT_EQ(r.local_cycles, plan.local_steps);
  EXPECT_EQ(r.cycles, r.transfer_cycles + r.local_cycles);
  return r;
}

/// Algorithm 5 on n = s*d with K = 2^k: the transfer cycles are exactly `expected` (measured,
/// typed here), `theorem2` is Theorem 2's bound (typed from the theorem's case), below the
/// pipelined K/2 + (s-1)d. With a second local axis (k >= 2d): within Theorem 2, at least
/// K/2 + d (every chain does another AAPC after its one on axis 1, which carries K/2 chain AAPCs
/// of d link uses each), and the alternate data sets cost local cycles only at the end; without
/// one the alternates need no local cycles.
void expectConcurrent(int d, int s, int k, u64 expected, u64 theorem2) {
  const MultiAapcShape sh = shape(s * d, d, s, k);
  SCOPED_TRACE("d = " + std::to_string(d) + ", s = " + std::to_string(s) +
               ", K = " + std::to_string(sh.slots()));
  ConcurrentAapcPlan plan;
  const RunResult r = runConcurrent(sh, plan);
  EXPECT_EQ(r.transfer_cycles, expected);
  EXPECT_EQ(theorem2Steps(sh), theorem2);
  EXPECT_LT(r.transfer_cycles, corollary2Steps(sh));
  EXPECT_FALSE(plan.alternate_starts.empty());
  if (k >= 2 * d) {
    EXPECT_LE(r.transfer_cycles, theorem2);
    EXPECT_GE(r.transfer_cycles, sh.slots() / 2 + static_cast<u64>(d));
    EXPECT_GE(r.local_cycles, 1U);
  } else {
    EXPECT_EQ(r.local_cycles, 0U);
  }
}

// With data sets of one label (2^(d-1) chains) Algorithm 5 comes within one step of K/2 + d
// for d <= 2, below Theorem 2.
TEST(MultiAapcConcurrent, MeetsTheorem2ThirdCase) {
  // K >= 2(s + 1)d: K/2 + 2d.
  expectConcurrent(1, 4, 4, 9, 8 + 2);    // pipelined: 11
  expectConcurrent(1, 5, 4, 9, 8 + 2);    // pipelined: 12
  expectConcurrent(1, 6, 4, 9, 8 + 2);    // pipelined: 13
  expectConcurrent(1, 5, 5, 17, 16 + 2);  // pipelined: 20
  expectConcurrent(2, 4, 5, 18, 16 + 4);  // pipelined: 22
}

TEST(MultiAapcConcurrent, MeetsTheorem2SecondCase) {
  // 8d <= K <= 2(s + 1)d: (s + 3)d. d = 1, s = 8, K = 16 (8 <= 16 <= 18): pipelined 15.
  expectConcurrent(1, 8, 4, 9, 11);
}

// d = 3 does not divide K/2, and a label-pair data set (8 chains) would add 8 chain AAPCs to
// its starting axis, more than the 2d = 6 steps Theorem 2 leaves: one-label data sets of 4
// chains, placed step by step. K/2 + 2d = 38 and 70; pipelined 41 and 73.
TEST(MultiAapcConcurrent, MeetsTheorem2WhenDDoesNotDivideHalfK) {
  expectConcurrent(3, 4, 6, 36, 32 + 6);
  expectConcurrent(3, 4, 7, 69, 64 + 6);
}

TEST(MultiAapcConcurrent, MeetsTheorem2WhenDDoesNotDivideHalfK_Long) {
  expectConcurrent(3, 4, 8, 132, 128 + 6);  // pipelined 137
  expectConcurrent(3, 5, 6, 36, 32 + 6);    // n = 15, pipelined 44
  expectConcurrent(3, 5, 7, 69, 64 + 6);    // n = 15, pipelined 76
  expectConcurrent(3, 6, 6, 36, 32 + 6);    // n = 18, pipelined 47
}

TEST(MultiAapcConcurrent, SmallestCaseReordersTwoDataSetsInOneCycle) {
  // d = 1, s = 4, K = 16: two alternate data sets starting on axes 2 and 3, each one label (with
  // one value of the two local bits above the axes i and v) and one chain, 2 elements per node;
  // those whose i and v bits differ end exchanged, one PERMUTE cycle of the 4 channels.
  ConcurrentAapcPlan plan;
  const RunResult r = runConcurrent(shape(4, 1, 4, 4), plan);
  EXPECT_EQ(plan.alternate_starts, (std::vector<int>{2, 3}));
  EXPECT_EQ(r.transfer_cycles, 9U);
  EXPECT_EQ(r.local_cycles, 1U);
  EXPECT_EQ(r.cycles, 10U);
}

// Without a second local axis (k < 2d) an alternate chain takes the route q, .., s, 1, .., q, 1:
// two AAPCs more, no local exchange. d = 3, K = 32: Theorem 2's 24 for s = 5 (second case, with
// four alternates starting on axes 2, 2, 2, 3; pipelined 28), and 24 against 22 for s = 4 (third
// case; one alternate; pipelined 25).
TEST(MultiAapcConcurrent, WithoutSecondLocalAxisAlternatesPassAxisOneTwice) {
  expectConcurrent(3, 4, 5, 24, 16 + 6);
  ConcurrentAapcPlan plan;
  runConcurrent(shape(12, 3, 4, 5), plan);
  EXPECT_EQ(plan.alternate_starts, (std::vector<int>{2}));
}

TEST(MultiAapcConcurrent, WithoutSecondLocalAxisAlternatesPassAxisOneTwice_Long) {
  expectConcurrent(3, 5, 5, 24, (5 + 3) * 3);  // n = 15, pipelined 28
  expectConcurrent(3, 6, 5, 27, (6 + 3) * 3);  // n = 18, pipelined 31
}

TEST(MultiAapcConcurrent, WhereNoAlternateHelpsItIsThePipeline) {
  ConcurrentAapcPlan plan;
  // k = 3 < 2d = 4: no second local axis; K/2 + (s-1)d = 4 + 6 = Theorem 2 (K <= 8d), which
  // an alternate passing axis 1 twice does not shorten.
  RunResult r = runConcurrent(shape(8, 2, 4, 3), plan);
  EXPECT_TRUE(plan.alternate_starts.empty());
  EXPECT_EQ(r.transfer_cycles, 10U);
  EXPECT_EQ(r.local_cycles, 0U);
  EXPECT_EQ(theorem2Steps(shape(8, 2, 4, 3)), 10U);
  // s = 2, d = 3, K = 64: the pipeline's K/2 + d = 35 (sliding group) is already the least an
  // alternate data set could give.
  r = runConcurrent(shape(6, 3, 2, 6), plan);
  EXPECT_TRUE(plan.alternate_starts.empty());
  EXPECT_EQ(r.transfer_cycles, 35U);
  EXPECT_EQ(r.local_cycles, 0U);
}

// Theorem 2's first case (s <= 3) is the pipeline's count, but with a second local axis one
// alternate data set starting on axis 2 shortens three AAPCs as well.
TEST(MultiAapcConcurrent, ThreeAxesGainFromOneAlternateDataSet) {
  expectConcurrent(2, 3, 4, 10, 8 + 4);   // pipelined 12
  expectConcurrent(3, 3, 6, 36, 32 + 6);  // n = 9, pipelined 38
  ConcurrentAapcPlan plan;
  runConcurrent(shape(6, 2, 3, 4), plan);
  EXPECT_EQ(plan.alternate_starts, (std::vector<int>{2}));
}

// For s <= 3 Theorem 2 is Corollary 2's K/2 + (s-1)d, and Algorithm 5 is the pipeline, which
// meets it for every d here (the sliding group where d does not divide K/2).
TEST(MultiAapcConcurrent, UpToThreeAxesItIsThePipelineAtTheorem2) {
  for (int s = 1; s <= 3; ++s) {
    for (int d = 1; d * s <= 9 && d <= 8; ++d) {
      const MultiAapcShape sh = shape(s * d, d, s, d);
      SCOPED_TRACE("d = " + std::to_string(d) + ", s = " + std::to_string(s));
      ConcurrentAapcPlan plan;
      const RunResult r = runConcurrent(sh, plan);
      const u64 K = sh.slots();
      const u64 ud = static_cast<u64>(d);
      const u64 us = static_cast<u64>(s);
      EXPECT_EQ(theorem2Steps(sh), K / 2 + (us - 1) * ud);
      EXPECT_EQ(r.transfer_cycles, K / 2 + (us - 1) * ud);
      EXPECT_EQ(r.local_cycles, 0U);
    }
  }
}

TEST(MultiAapcConcurrent, LargerCubesMeetTheorem2) {
  expectConcurrent(2, 5, 5, 18, 16 + 4);  // n = 10, pipelined 24
  expectConcurrent(1, 7, 5, 17, 16 + 2);  // pipelined 22
  expectConcurrent(1, 8, 6, 33, 32 + 2);  // pipelined 39
}

TEST(MultiAapcPipelined, ExplicitAlignmentOnOddChannelCounts) {
  // n = 3 (3 channels): each node's alignment swap is one PERMUTE; d = 1, s = 3, K = 2.
  for (const MultiAapcShape& sh : {shape(3, 1, 3, 1), shape(6, 2, 3, 2), shape(5, 2, 2, 3)}) {
    const PermutationSpec perm = successiveAapcPermutation(sh);
    const TableSet set =
        compileMoves(jhPipelinedAapcs(sh, MultiAapcAlignment::kExplicit), perm, {});
    ASSERT_TRUE(verifyTables(set).ok()) << perm.str();
    const RunResult r = runFor(set, 1000);
    EXPECT_EQ(checkAgainstReference(perm, r.memory).mismatches, 0U) << perm.str();
    EXPECT_EQ(r.transfer_cycles, pipelinedAapcSteps(sh)) << perm.str();
    // Phase 1 and phase 3: K/2 swaps of 2 copies per node, floor(n/2) swaps per PERMUTE.
    const u64 per_phase =
        (sh.slots() / 2 + static_cast<u64>(sh.n / 2) - 1) / static_cast<u64>(sh.n / 2);
    EXPECT_EQ(r.local_cycles, 2 * per_phase) << perm.str();
  }
}

TEST(MultiAapcConcurrent, TwelveCubesMeetTheorem2_Long) {
  expectConcurrent(2, 6, 5, 18, 16 + 4);   // n = 12, pipelined 26
  expectConcurrent(1, 12, 5, 17, 16 + 2);  // n = 12, pipelined 27
}

TEST(MultiAapcLocal, BigCyclesAreSplitIntoPermuteCyclesOfAtMostTheChannels) {
  // A 5-cycle on one node with 2 channels: each step <= 2 copies, the rotation exact.
  std::vector<std::vector<u32>> to(1, {1, 2, 3, 4, 0});
  const auto steps = localPermutationSteps(to, 2);
  MoveSchedule s;
  s.algo = "rotate";
  s.dims = 1;
  s.steps = steps;
  for (const auto& step : steps) EXPECT_LE(step.size(), 2U);
  EXPECT_EQ(moveScheduleSpan(s, 1, 5, 5), 0U);
  // Apply the steps and check the rotation.
  std::vector<u32> mem = {10, 11, 12, 13, 14};
  for (const auto& step : steps) {
    std::vector<u32> next = mem;
    for (const Move& m : step) next[m.to_slot] = mem[m.slot];
    mem = next;
  }
  EXPECT_EQ(mem, (std::vector<u32>{14, 10, 11, 12, 13}));
  EXPECT_THROW(localPermutationSteps(to, 1), Error);
}

TEST(MultiAapcCatalogue, Jh4PipelinedCaseCarriesCorollary2) {
  CaseSpec spec;
  spec.algo = "jh4-pipelined";
  spec.n = 6;
  spec.params = {{"axes", "3"}};
  const BuiltCase c = buildCase(spec);
  EXPECT_EQ(c.perm.str(), "dim n=6 k=2 delta=2,3,4,5,6,7,0,1");
  EXPECT_EQ(c.lower_bound, 6U);
  EXPECT_EQ(c.tables.cycles(), 6U);
  EXPECT_EQ(c.schedule_span, 6U);
  EXPECT_TRUE(verifyTables(c.tables).ok());

  spec.params = {{"axes", "3"}, {"align", "sideways"}};
  EXPECT_THROW(buildCase(spec), Error);
  spec.params = {{"axes", "4"}, {"d", "2"}};
  try {
    buildCase(spec);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--axes 4 with --d 2: 4 axes of 2 bits need 8 node bits, the cube has n = 6");
  }
  spec.algo = "jh5";
  spec.n = 4;
  spec.slots = 16;
  spec.params = {{"axes", "4"}};
  const BuiltCase c5 = buildCase(spec);
  EXPECT_EQ(c5.lower_bound, 10U);
  EXPECT_EQ(c5.tables.cycles(), 10U);  // 9 transfer cycles and one PERMUTE
  EXPECT_TRUE(verifyTables(c5.tables).ok());
  spec.algo = "jh4-pipelined";
  spec.n = 6;
  spec.slots = 0;
  spec.params = {{"axes", "3"}, {"tau", "2"}};
  EXPECT_THROW(buildCase(spec), Error);
  spec.params = {{"axes", "2"}};
  spec.slots = 12;
  EXPECT_THROW(buildCase(spec), Error);
}

}  // namespace
}  // namespace hcube
