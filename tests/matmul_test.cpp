// Matrix multiplication of Johnsson & Ho 1988 (TR-623) §3 — the rotation algorithm
// A(.,1,1) and Cannon's algorithm A(.,2,1) — built as catalogue cases, verified statically (the
// verifier's product terms), run on the table executor and the TLM (and the RTL where a CI model
// is big enough), every element of A checked against C x D computed independently, and the
// exact counts: Table 5's arithmetic (PQR/N multiply-adds, / U), Table 6's element transfers
// and start-ups for the rotation, Cannon's rotations and alignment.
#include "algorithms/matmul/matmul.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <iostream>
#include <map>
#include <string>

#include "algorithms/algorithms.h"
#include "algorithms/transpose/transpose2d.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "spec/initial_values.h"
#include "spec/matmul_layout.h"
#include "spec/reference.h"
#include "spec/seeded_words.h"
#include "tables/verifier.h"
#include "test_util.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

using testing::errorList;

struct MatmulCase {
  const char* method;
  int n;
  u64 p, q, r;
  bool one_port = false;
  u32 tau = 0;
  u64 packet = 0;
  u32 units = 1;
  bool rtl = false;            ///< also on the RTL (a CI model must hold it: n <= 4, K <= 4 * 2^n)
  std::string grid = "";       ///< --grid (empty: the method's default)
  u64 seed = 0;                ///< seeded values (sw/spec/seeded_words.h) when non-zero, else tags
  std::string tree = "";       ///< --tree (broadcast)
  std::string transpose = "";  ///< --transpose (A(.,2,2) .. A(.,2,5))
  std::string grid3 = "";      ///< --grid3 (A(.,3,1))
};

BuiltCase build(const MatmulCase& m) {
  std::map<std::string, std::string> params = {
      {"method", m.method},
      {"shape", std::to_string(m.p) + "x" + std::to_string(m.q) + "x" + std::to_string(m.r)},
      {"tau", std::to_string(m.tau)},
      {"packet", std::to_string(m.packet)},
      {"units", std::to_string(m.units)}};
  if (!m.grid.empty()) params["grid"] = m.grid;
  if (!m.tree.empty()) params["tree"] = m.tree;
  if (!m.transpose.empty()) params["transpose"] = m.transpose;
  if (!m.grid3.empty()) params["grid3"] = m.grid3;
  return buildCase(testing::caseSpec("matmul", m.n, 0, 1, m.one_port, params));
}

/// The case on the table executor from tags.
RunResult runTable(const BuiltCase& c) {
  ExecOptions exec;
  exec.max_cycles = c.tables.cycles() + 1000;
  return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), exec);
}

void expectMatmul(const MatmulCase& m) {
  SCOPED_TRACE(std::string(m.method) + " n = " + std::to_string(m.n) + " shape " +
               std::to_string(m.p) + "x" + std::to_string(m.q) + "x" + std::to_string(m.r) +
               (m.one_port ? " one-port" : "") + " tau " + std::to_string(m.tau) + " packet " +
               std::to_string(m.packet) + " U " + std::to_string(m.units));
  const BuiltCase c = build(m);
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  // Tags, or seeded values: the same initial memory on every executor.
  const CubeMemory init = m.seed != 0 ? seededMemory(c.perm, c.tables.header.memoryWords(), m.seed)
                                      : taggedMemory(c.perm, c.tables.header.memoryWords());
  ExecOptions exec;
  exec.tagged_elements = c.perm.elements();
  exec.max_cycles = c.tables.cycles() + 1000;
  const RunResult table = executeTables(c.tables, init, exec);
  TlmOptions tlm;
  tlm.initial = &init;
  testing::expectSameRun("tlm", runOnTlm(c.tables, tlm), table);
  if (m.rtl) {
    // A CI model must hold the case (tests/build_models.cmake: 4 * 2^n memory words, table depth
    // 16, 16, 64, 128 at n = 1 .. 4), or the run would build a model of its own.
    const size_t ci_depth[] = {0, 16, 16, 64, 128};
    ASSERT_LE(m.n, 4);
    EXPECT_LE(c.tables.header.memoryWords(), u64{4} << m.n);
    EXPECT_LE(c.tables.depth(), ci_depth[m.n]);
    RtlOptions opt;
    opt.progress = &std::cerr;
    opt.initial = &init;
    testing::expectSameRun("rtl", runOnRtl(c.tables, opt), table);
  }
  EXPECT_TRUE(table.errors.empty()) << errorList(table.errors);
  // Every element of A against C x D, by the reference model and once more here.
  const CheckResult check = m.seed != 0 ? checkFromInitial(c.perm, init, table.memory)
                                        : checkAgainstReference(c.perm, table.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, m.p * m.r);
  const MatmulLayout l = MatmulLayout::of(c.perm);
  for (u64 i = 0; i < m.p; ++i) {
    for (u64 k = 0; k < m.r; ++k) {
      const GlobalAddress a = l.aAt(i, k);
      u32 want = init.at(a.node, a.slot);
      for (u64 j = 0; j < m.q; ++j) {
        const GlobalAddress cc = l.cAt(i, j);
        const GlobalAddress d = l.dAt(j, k);
        want += init.at(cc.node, cc.slot) * init.at(d.node, d.slot);
      }
      ASSERT_EQ(table.memory.at(a.node, a.slot), want) << "A(" << i << "," << k << ")";
    }
  }
  // Exact counts.
  const u64 nodes = u64{1} << m.n;
  const u64 arithmetic = m.p * m.q * m.r / nodes / m.units;  // Table 5: 2PQR/N operations
  const bool rotation = std::string(m.method) == "rotation";
  u64 transfers = 0;
  u64 messages = 0;
  u64 local = 0;  // PERMUTE cycles
  if (std::string(m.method) == "broadcast" || std::string(m.method) == "doubling") {
    // TR-623 §3.2, A(.,2,1) by broadcasting on the grid N1 x N2 the case chose: C's blocks
    // (P/N1 x Q/N2) all-to-all within rows, D's (Q/N1 x R/N2) within columns. Table 8
    // (one-port SBTs): (N2-1) P/N1 Q/N2 + (N1-1) Q/N1 R/N2 element transfers, n start-ups.
    // Table 11 (n-port nRSBTs): max((N2-1)/n2 P/N1 Q/N2 + n2 tau, (N1-1)/n1 Q/N1 R/N2 + n1 tau)
    // (ceil(block / n2) words per part when n2 does not divide the block). SBTs on all ports:
    // the same max with one part.
    const int n1 = c.perm.gridRowDims();
    const int n2 = m.n - n1;
    const u64 rows = u64{1} << n1;
    const u64 cols = u64{1} << n2;
    const u64 cb = (m.p / rows) * (m.q / cols);
    const u64 db = (m.q / rows) * (m.r / cols);
    const bool nrsbt = m.tree.empty() ? !m.one_port : m.tree == "nrsbt";
    // One tree: step t moves 2^t blocks (parts of ceil(block / dims) words on nRSBTs) as
    // messages of `packet` words after tau each.
    auto tree = [&](u64 block, int dims, u64& words, u64& time) {
      const u64 part = dims == 0 ? 0 : nrsbt ? (block + dims - 1) / dims : block;
      words = time = 0;
      for (int t = 0; t < dims; ++t) {
        const u64 len = (u64{1} << t) * part;
        const u64 msgs = m.packet == 0 ? 1 : (len + m.packet - 1) / m.packet;
        words += len;
        time += len + msgs * m.tau;
      }
    };
    u64 c_words = 0, c_time = 0, d_words = 0, d_time = 0;
    tree(cb, n2, c_words, c_time);
    tree(db, n1, d_words, d_time);
    u64 comm = 0;
    if (m.one_port) {
      transfers = c_words + d_words;
      if (m.packet == 0) {
        EXPECT_EQ(transfers, (cols - 1) * cb + (rows - 1) * db) << "Table 8";
      }
      comm = c_time + d_time;
    } else {
      transfers = m.tau == 0 ? std::max(c_words, d_words) : c.lower_bound;
      comm = std::max(c_time, d_time);
    }
    if (m.tau == 0) {
      EXPECT_EQ(c.lower_bound, transfers);
    }
    EXPECT_EQ(table.transfer_cycles, transfers);
    EXPECT_EQ(table.cycles, arithmetic + comm);
    return;
  }
  auto msgs = [&](u64 words) {
    return words == 0 ? 0 : m.packet == 0 ? 1 : (words + m.packet - 1) / m.packet;
  };
  auto ceilDiv = [](u64 a, u64 b) { return (a + b - 1) / b; };
  const std::string method = m.method;
  if (method == "a131") {
    // TR-623 §3.3 on N1' x N2' x N3', the fiber in the column bits (N1' = N1, N2' N3' = N2,
    // N2' >= N1') or in the row bits (N1' N3' = N1, N2' = N2, N1' > N2'); default N2' = N1 when
    // N2 >= N1, else N1' = N2; --grid3 names it. The exchange of D's (column fiber) or C's (row
    // fiber) strips within the fibers (n3' dimensions), C's blocks broadcast over the N2'
    // direction and D's over the N1' direction (side by side on all ports), the reduction of
    // N3' partial blocks of A within the fibers. Each stream as its cycles: a step's messages of
    // `packet` words, each after tau idle cycles; parts = the subcube's dimensions on all-port
    // hardware.
    const int n1 = c.perm.gridRowDims();
    const int n2 = m.n - n1;
    bool rows_fiber = n1 > n2;
    int d3 = std::abs(n1 - n2);
    if (!m.grid3.empty()) {
      const u64 g1 = std::stoull(m.grid3.substr(0, m.grid3.find('x')));
      const u64 g2 = std::stoull(m.grid3.substr(m.grid3.find('x') + 1));
      rows_fiber = g1 > g2;
      d3 = std::countr_zero(std::stoull(m.grid3.substr(m.grid3.rfind('x') + 1)));
    }
    const int h = rows_fiber ? n1 - d3 : n1;   // n1'
    const int h2 = rows_fiber ? n2 : n2 - d3;  // n2'
    const u64 side = u64{1} << h;              // N1'
    const u64 lines = u64{1} << h2;            // N2'
    const u64 depth = u64{1} << d3;
    const u64 rows = u64{1} << n1;
    const u64 cols = u64{1} << n2;
    const u64 cb = (m.p / rows) * (m.q / cols);
    const u64 db = (m.q / rows) * (m.r / cols);
    const u64 ab = (m.p / rows) * (m.r / cols);
    const u64 moved = rows_fiber ? cb : db;  // the block whose strips the exchange moves
    using Timeline = std::vector<bool>;      // true: a cycle that moves words
    auto steps = [&](Timeline& tl, int dims, u64 words, int kind) {
      const u64 parts = m.one_port || dims == 0 ? 1 : static_cast<u64>(dims);
      for (int t = 0; t < dims; ++t) {
        const int e = kind == 0 ? dims - 1 : kind == 1 ? t : dims - 1 - t;  // 2^e pieces
        const u64 len = (u64{1} << e) * ceilDiv(words, parts);
        for (u64 at = 0; at < len; at += m.packet == 0 ? len : m.packet) {
          tl.insert(tl.end(), m.tau, false);
          tl.insert(tl.end(), std::min(len - at, m.packet == 0 ? len : m.packet), true);
          ++messages;
        }
      }
    };
    auto busy = [](const Timeline& tl) {
      return static_cast<u64>(std::count(tl.begin(), tl.end(), true));
    };
    Timeline xch, bc, bd, red;
    steps(xch, d3, moved / depth, 0);
    const u64 before = messages;
    steps(bc, h2, cb, 1);
    const u64 c_msgs = messages - before;
    steps(bd, h, db, 1);
    const u64 d_msgs = messages - before - c_msgs;
    steps(red, d3, ab, 2);
    u64 cycles = xch.size() + red.size();
    transfers = busy(xch) + busy(red);
    if (m.one_port) {
      cycles += bc.size() + bd.size();
      transfers += busy(bc) + busy(bd);
    } else {
      messages -= std::min(c_msgs, d_msgs);  // side by side: the longer stream's start-ups
      cycles += std::max(bc.size(), bd.size());
      for (size_t i = 0; i < std::max(bc.size(), bd.size()); ++i) {
        transfers += (i < bc.size() && bc[i]) || (i < bd.size() && bd[i]) ? 1 : 0;
      }
    }
    if (m.packet == 0) {
      const u64 n3 = static_cast<u64>(d3);
      const u64 s1 = side - 1;
      const u64 s2 = lines - 1;
      if (m.one_port) {
        // The broadcasts: Table 8's A(1,2,1) on the N1' x N2' grid with Q/N3' for Q; the
        // reduction: §3.3's sum over i = 1 .. n3' of P/N1' R/N2' / 2^i = (N3'-1) P/N1 R/N2; the
        // transformation into ld3 (lc3): Table 4's n3' M/2 with M = Q/N1 R/N2 (P/N1 Q/N2).
        EXPECT_EQ(busy(bc) + busy(bd), s2 * cb + s1 * db) << "Table 8 with Q/N3'";
        EXPECT_EQ(busy(red), (depth - 1) * ab) << "section 3.3 reduction";
        EXPECT_EQ(busy(xch), n3 * moved / 2) << "Table 4";
        EXPECT_EQ(messages, static_cast<u64>(m.n) + n3);
      } else if (h > 0 && h2 > 0 && cb % static_cast<u64>(h2) == 0 && db % h == 0 &&
                 (d3 == 0 || (ab % d3 == 0 && (moved / depth) % d3 == 0))) {
        // Table 11's A(n,2,1) transfer terms with Q/N3' and the n-port reduction and exchange.
        const u64 hh = static_cast<u64>(h);
        const u64 hh2 = static_cast<u64>(h2);
        EXPECT_EQ(std::max(busy(bc), busy(bd)), std::max(s2 * cb / hh2, s1 * db / hh))
            << "Table 11";
        if (d3 > 0) {
          EXPECT_EQ(busy(red), (depth - 1) * ab / n3) << "Table 3, n-port";
          EXPECT_EQ(busy(xch), moved / 2) << "Table 4, n-port";
        }
      }
    }
    EXPECT_EQ(c.lower_bound, transfers);
    EXPECT_EQ(table.transfer_cycles, transfers);
    EXPECT_EQ(table.cycles, arithmetic + cycles);
    return;
  }
  if (method == "a113" || method == "a114" || method.starts_with("a12")) {
    // Step by step: every phase is one stream, run alone, each step its messages of packet
    // words after tau. One-port: one part; all-port: parts = the dimensions of the subcube.
    const u64 n = static_cast<u64>(m.n);
    auto step = [&](u64 len) {
      transfers += len;
      messages += msgs(len);
    };
    // subcubeExchange over d dimensions of `words`-word strips: d steps of 2^(d-1) strips.
    auto exchange = [&](u64 d, u64 words) {
      const u64 parts = m.one_port ? 1 : d;
      for (u64 t = 0; t < d; ++t) step((u64{1} << (d - 1)) * ceilDiv(words, parts));
    };
    auto broadcast = [&](u64 d, u64 words) {
      const u64 parts = m.one_port ? 1 : d;
      for (u64 t = 0; t < d; ++t) step((u64{1} << t) * ceilDiv(words, parts));
    };
    auto reduce = [&](u64 d, u64 words) {
      const u64 parts = m.one_port ? 1 : d;
      for (u64 t = 0; t < d; ++t) step((u64{1} << (d - 1 - t)) * ceilDiv(words, parts));
    };
    u64 table = 0;  // the paper's element transfers (one-port, whole messages)
    u64 table_startups = 0;
    if (method == "a114") {
      exchange(n, (m.q / nodes) * (m.r / nodes));
      reduce(n, m.p * (m.r / nodes));
      // Table 6, A^c(1,1,4): (N-1) P R/N + n Q/2 R/N, 2n start-ups; A^c(n,1,4): (N-1) P R/N / n
      // + Q/2 R/N.
      table = m.one_port ? (nodes - 1) * m.p * (m.r / nodes) + n * (m.q / 2) * (m.r / nodes)
                         : (nodes - 1) * m.p * (m.r / nodes) / n + (m.q / 2) * (m.r / nodes);
      table_startups = 2 * n;
    } else if (method == "a113") {
      exchange(n, (m.p / nodes) * (m.q / nodes));
      broadcast(n, m.q * (m.r / nodes));
      exchange(n, (m.p / nodes) * (m.r / nodes));
      // Table 6, A^c(1,1,3): (N-1) Q R/N + n P/2 R/N + n P/2 Q/N, 3n start-ups; A^c(n,1,3):
      // (N-1) Q R/N / n + P/2 R/N + P/2 Q/N.
      table = m.one_port ? (nodes - 1) * m.q * (m.r / nodes) + n * (m.p / 2) * (m.r / nodes) +
                               n * (m.p / 2) * (m.q / nodes)
                         : (nodes - 1) * m.q * (m.r / nodes) / n + (m.p / 2) * (m.r / nodes) +
                               (m.p / 2) * (m.q / nodes);
      table_startups = 3 * n;
    } else {
      // Table 8 on the grid N1 x N2 the case chose. A transpose of M words on N1 != N2
      // (gridTranspose): an exchange of 2^e pieces within e = |n1 - n2| dimensions and the
      // square transpose of h = min(n1, n2) bit pairs, 2h steps of the whole block (n steps when
      // N1 = N2). With N1 > N2, A(.,2,4) and A(.,2,5) move D by whole blocks and A(.,2,3) and
      // A(.,2,5) move A by whole blocks: the square transpose alone.
      const u64 n1 = static_cast<u64>(c.perm.gridRowDims());
      const u64 n2 = n - n1;
      const u64 e = n1 > n2 ? n1 - n2 : n2 - n1;
      const u64 h = std::min(n1, n2);
      const u64 rows = u64{1} << n1;
      const u64 cols = u64{1} << n2;
      const u64 cb = (m.p / rows) * (m.q / cols);
      const u64 db = (m.q / rows) * (m.r / cols);
      const u64 ab = (m.p / rows) * (m.r / cols);
      const char which = method[3];
      const bool tc = which == '2' || which == '3';
      const bool ta = which == '3' || which == '5';
      const bool gc = which == '2' || which == '5';
      const bool tall = n1 > n2;
      u64 txp_steps = 0;  // start-ups of the transposes
      u64 txp_words = 0;  // their element transfers
      // The square part: §2.2's SBT transpose (one-port default), 2h steps of the whole block,
      // or a packet transpose of Johnsson & Ho 1987 §6.1 on the 2h dimensions (all-port
      // default: SPT, TR-623 Table 11), in packets of --packet or of the size that minimises the
      // §6.1 time; its start-ups are its packet steps, its transfers the longest packet moving
      // in each step (the planner's routes, transpose2dNodeRoutes).
      const std::string kind = !m.transpose.empty() ? m.transpose : m.one_port ? "sbt" : "spt";
      auto square = [&](u64 words) {
        if (h == 0) return;
        if (kind == "sbt") {
          for (u64 t = 0; t < 2 * h; ++t) step(words);
          txp_steps += 2 * h;
          txp_words += 2 * h * words;
          return;
        }
        const int sub = static_cast<int>(2 * h);
        auto time = [&](u64 b) {
          return kind == "spt"   ? sptFormulaCycles(sub, words, b, m.tau)
                 : kind == "dpt" ? dptFormulaCycles(sub, words, b, m.tau)
                                 : mptScheduleCycles(sub, words, b, m.tau);
        };
        u64 b = std::min(m.packet, words);
        if (b == 0) {
          b = 1;
          for (u64 size = 2; size <= words; ++size) {
            if (time(size) < time(b)) b = size;
          }
        }
        Transpose2dOptions to;
        to.algo = kind == "spt"   ? Transpose2dAlgo::kSpt
                  : kind == "dpt" ? Transpose2dAlgo::kDpt
                                  : Transpose2dAlgo::kMpt;
        to.packet = b;
        to.tau = m.tau;
        std::map<u64, u64> longest;  // packet step -> the longest packet crossing a link
        for (u64 x = 0; x < (u64{1} << sub); ++x) {
          for (const PacketRoute& r : transpose2dNodeRoutes(sub, x, words, b, to)) {
            for (u64 st : r.steps) longest[st] = std::max<u64>(longest[st], r.slots.size());
          }
        }
        const u64 steps = longest.rbegin()->first + 1;
        EXPECT_EQ(longest.size(), steps) << "a packet moves in every step";
        u64 busy = 0;
        for (const auto& [st, len] : longest) busy += len;
        transfers += busy;
        messages += steps;
        txp_steps += steps;
        txp_words += busy;
        if (words % b == 0) {
          EXPECT_EQ(steps * (b + m.tau), time(b)) << "Johnsson & Ho 1987 section 6.1";
        }
      };
      auto transpose = [&](u64 words, bool whole_blocks) {
        if (!whole_blocks) {
          exchange(e, words >> e);
          txp_steps += e;
          txp_words += e * (words >> e) * (u64{1} << e) / 2;
        }
        square(words);
      };
      transpose(tc ? cb : db, tall && which == '4');
      if (tall && which == '5') {
        // The strip of D a node keeps, Q/N1 x R/N1, copied into the dense D^T by PERMUTE, one
        // word per port and cycle.
        local = ((m.q / rows) * (m.r / rows) + n - 1) / n;
      }
      broadcast(tc ? n2 : n1, gc ? cb : db);  // in grid rows (A(.,2,2), A(.,2,3)) or columns
      reduce(tc ? n1 : n2, ab);
      if (ta) transpose(ab, tall && which == '3');
      // Table 8's broadcast and reduction terms: A(1,2,2): Q/N1 P/N2 (N2-1) + P/N1 R/N2 (N1-1);
      // A(1,2,3): Q/N1 R/N2 (N2-1) + R/N1 P/N2 (N1-1); A(1,2,4): R/N1 Q/N2 (N1-1) + P/N1 R/N2
      // (N2-1); A(1,2,5): P/N1 Q/N2 (N1-1) + R/N1 P/N2 (N2-1). Its transposes: n M each, 2n
      // start-ups (A(1,2,2), A(1,2,4)) or 3n (A(1,2,3), A(1,2,5)); ours, counted above, equal
      // those on square grids.
      const u64 r1 = rows - 1;
      const u64 r2 = cols - 1;
      const u64 terms = which == '2'   ? cb * r2 + ab * r1
                        : which == '3' ? db * r2 + ab * r1
                        : which == '4' ? db * r1 + ab * r2
                                       : cb * r1 + ab * r2;
      const u64 table8_txp =
          which == '2' || which == '3' ? n * cb + (ta ? n * ab : 0) : n * db + (ta ? n * ab : 0);
      if (n1 == n2 && kind == "sbt") {
        EXPECT_EQ(txp_words, table8_txp) << "Table 8's transposes on a square grid";
        EXPECT_EQ(txp_steps, ta ? 2 * n : n);
      }
      table = terms + txp_words;
      table_startups = txp_steps + n1 + n2;
      if (n1 == n2 && kind == "sbt") {
        EXPECT_EQ(table, terms + table8_txp);
        EXPECT_EQ(table_startups, ta ? 3 * n : 2 * n) << "Table 8";
      }
    }
    if (m.one_port && m.packet == 0) {
      EXPECT_EQ(transfers, table) << "Table 6 / Table 8";
      EXPECT_EQ(messages, table_startups);
    } else if (!m.one_port && method != "a113" && method != "a114" && m.packet == 0) {
      // nothing exact in Table 11 to compare (its optimum packet sizes)
    } else if (!m.one_port && m.packet == 0 && m.n > 0 && (m.p * m.r / nodes) % n == 0 &&
               (m.q / nodes) * (m.r / nodes) % n == 0 && (m.q * m.r / nodes) % n == 0 &&
               (m.p / nodes) * (m.q / nodes) % n == 0 && (m.p / nodes) * (m.r / nodes) % n == 0) {
      EXPECT_EQ(transfers, table) << "Table 6, n-port (n divides the blocks)";
      EXPECT_EQ(messages, table_startups);
    }
  } else if (rotation || method == "exchange") {
    // Table 6, A^l(1,1,1): (N-1) P Q/N element transfers; one message per step and packet. The
    // n-port Gray code exchange A(n,1,1) sends pieces of ceil(P/n) rows on the n ports at once:
    // (N-1) ceil(P/n) Q/N (Table 6, A^l(n,1,1): (N-1) P Q/N / n when n divides P).
    const u64 rows = rotation || m.one_port ? m.p : (m.p + m.n - 1) / static_cast<u64>(m.n);
    const u64 block = rows * (m.q / nodes);
    transfers = (nodes - 1) * block;
    messages = (nodes - 1) * (m.packet == 0 ? 1 : (block + m.packet - 1) / m.packet);
  } else {
    // Cannon on the N1 x N2 grid the case chose, simulating S x S (S = max(N1, N2)): C's
    // strips are P/N1 x Q/S (S/N2 per processor), D's Q/S x R/N2 (S/N1 per processor). The
    // alignment's step s moves C's strip in the rows a1 with a1 S/N1 >= s and D's in the
    // columns a2 with a2 S/N2 >= s; then S - 1 steps move both. Each step sends its strips
    // together on all ports, one after the other on one port.
    const int n1 = c.perm.gridRowDims();
    const u64 rows = u64{1} << n1;
    const u64 cols = nodes / rows;
    const u64 side = std::max(rows, cols);
    const u64 cs = (m.p / rows) * (m.q / side);
    const u64 ds = (m.q / side) * (m.r / cols);
    auto add = [&](u64 c_words, u64 d_words) {
      transfers += m.one_port ? c_words + d_words : std::max(c_words, d_words);
      messages += m.one_port ? msgs(c_words) + msgs(d_words) : msgs(std::max(c_words, d_words));
    };
    const u64 c_ring = cols > 1 ? cs : 0;  // a ring of one processor moves nothing
    const u64 d_ring = rows > 1 ? ds : 0;
    for (u64 s = 1; s < side; ++s) {
      add((rows - 1) * (side / rows) >= s ? c_ring : 0,
          (cols - 1) * (side / cols) >= s ? d_ring : 0);
    }
    for (u64 s = 1; s < side; ++s) add(c_ring, d_ring);
  }
  EXPECT_EQ(c.lower_bound, transfers);
  EXPECT_EQ(table.transfer_cycles, transfers);
  EXPECT_EQ(table.local_cycles, local);
  EXPECT_EQ(table.cycles, arithmetic + transfers + messages * m.tau + local);
}

TEST(Matmul, RotationA111MatchesTables5And6) {
  expectMatmul({"rotation", 1, 2, 2, 2, false, 0, 0, 1, true});
  expectMatmul({"rotation", 2, 2, 4, 4, false, 0, 0, 1, true});
  expectMatmul({"rotation", 2, 2, 4, 8, true, 3, 0, 1, true});  // P x Q x R not square
  expectMatmul({"rotation", 3, 8, 8, 8, false, 2, 3, 1, false});
  expectMatmul({"rotation", 3, 4, 16, 8, false, 0, 0, 2, false});  // U = 2 divides Q/N = 2
  expectMatmul({"rotation", 4, 16, 16, 16, true, 5, 0, 1, false});
}

TEST(Matmul, GrayCodeExchangeA111AndAn11MatchTables5And6) {
  expectMatmul({"exchange", 1, 2, 2, 2, false, 0, 0, 1, true});
  expectMatmul({"exchange", 2, 2, 4, 4, true, 3, 0, 1, true});     // one-port
  expectMatmul({"exchange", 2, 2, 4, 4, false, 1, 0, 1, true});    // n-port: 2 pieces of a row
  expectMatmul({"exchange", 3, 8, 8, 8, false, 2, 3, 1, false});   // pieces 2, 3, 3 rows
  expectMatmul({"exchange", 3, 6, 16, 8, false, 0, 0, 2, false});  // 2 rows each, U = 2
  expectMatmul({"exchange", 4, 16, 16, 16, true, 5, 0, 1, false});
  expectMatmul({"exchange", 4, 2, 16, 16, false, 0, 0, 1, false});  // P < n: empty pieces
}

TEST(Matmul, A114TransposesDAndReducesAMatchingTable6) {
  expectMatmul({"a114", 1, 1, 2, 2, false, 0, 0, 1, true});
  expectMatmul({"a114", 2, 2, 4, 4, true, 0, 0, 1, true});
  expectMatmul({"a114", 2, 2, 4, 4, false, 0, 0, 1, true});
  expectMatmul({"a114", 3, 8, 8, 8, false, 2, 0, 1, false});
  expectMatmul({"a114", 4, 4, 32, 16, true, 3, 0, 1, false});
  expectMatmul({"a114", 4, 16, 32, 16, false, 0, 0, 2, false});  // U = 2 divides Q/N = 2
  MatmulCase seeded{"a114", 3, 4, 8, 16, false, 1, 0, 1, false};
  seeded.seed = 31;
  expectMatmul(seeded);
}

TEST(Matmul, A114NPortAndPacketsMatchTable6) {
  // A^c(n,1,4) on all-port hardware (the n-port transpose and reduction), n | the blocks.
  expectMatmul({"a114", 2, 4, 8, 8, false, 0, 0, 1, false});
  expectMatmul({"a114", 3, 3, 24, 24, false, 0, 0, 1, false});  // strips 3x3, partials 3x3
  expectMatmul({"a114", 3, 8, 8, 8, false, 2, 0, 1, false});    // parts of 1 word, ceil
  // --packet: every step's messages of B words, each after tau.
  expectMatmul({"a114", 3, 8, 16, 8, true, 3, 2, 1, false});
  expectMatmul({"a114", 3, 8, 16, 8, false, 1, 3, 1, false});
  MatmulCase seeded{"a114", 2, 2, 4, 4, false, 2, 3, 1, true};
  seeded.seed = 5;
  expectMatmul(seeded);
}

TEST(Matmul, A113TransposesCAndAMatchingTable6) {
  // TR-623 §3.1, A(.,1,3): transpose C, broadcast D, multiply, transpose A adding into A.
  expectMatmul({"a113", 1, 2, 2, 2, true, 0, 0, 1, false});
  expectMatmul({"a113", 1, 2, 2, 2, false, 1, 0, 1, false});
  expectMatmul({"a113", 2, 4, 4, 4, true, 0, 0, 1, false});
  expectMatmul({"a113", 2, 8, 4, 8, false, 0, 0, 1, false});  // n = 2 divides every block
  expectMatmul({"a113", 3, 8, 16, 8, true, 2, 0, 2, false});  // U = 2 divides Q/N = 2
  expectMatmul({"a113", 3, 24, 24, 24, false, 0, 0, 1, false});
  expectMatmul({"a113", 3, 8, 8, 16, false, 3, 5, 1, false});  // packets, ceil parts
  expectMatmul({"a113", 4, 16, 16, 32, true, 1, 0, 1, false});
  MatmulCase seeded{"a113", 3, 16, 8, 8, false, 2, 0, 1, false};
  seeded.seed = 2024;
  expectMatmul(seeded);
}

TEST(Matmul, TwoDimensionalA122ToA125MatchTable8) {
  // TR-623 §3.2, Figure 2 and appendix B, square grids: Table 8's transfers and start-ups on
  // one-port hardware, nRSBT broadcasts and reductions on all-port.
  for (const char* method : {"a122", "a123", "a124", "a125"}) {
    expectMatmul({method, 2, 2, 2, 2, true, 0, 0, 1, true});
    expectMatmul({method, 2, 2, 2, 2, false, 1, 0, 1, true});
    expectMatmul({method, 4, 8, 8, 8, true, 2, 0, 1, true});
    expectMatmul({method, 4, 4, 8, 12, false, 0, 0, 1, true});  // P x Q x R not square
    expectMatmul({method, 4, 8, 4, 8, false, 3, 2, 1, false});  // packets
    expectMatmul({method, 6, 16, 8, 8, true, 0, 0, 1, false});
    expectMatmul({method, 6, 8, 16, 24, false, 1, 0, 2, false});  // U = 2 divides Q/S = 2
    MatmulCase seeded{method, 4, 8, 8, 4, false, 0, 0, 1, true};
    seeded.seed = 77;
    expectMatmul(seeded);
  }
}

TEST(Matmul, ThreeDimensionalA131) {
  // TR-623 §3.3 on N1 x N1 x N3' (the layout grid N1 x N2, N3' = N2/N1), one-port and all-port.
  auto a131 = [](int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, u64 packet, std::string grid,
                 bool rtl, u32 units = 1) {
    MatmulCase m{"a131", n, p, q, r, one_port, tau, packet, units, rtl};
    m.grid = std::move(grid);
    return m;
  };
  // On the RTL where the CI models hold them (n <= 4, memory 16 / 32 / 64 words at n = 2 / 3 / 4).
  expectMatmul(a131(2, 1, 4, 4, true, 0, 0, "", true));  // 1 x 1 x 4: reduction only
  expectMatmul(a131(2, 1, 4, 4, false, 1, 0, "", true));
  expectMatmul(a131(2, 2, 2, 2, false, 0, 0, "2x2", true));  // 2 x 2 x 1: A(.,2,1)
  expectMatmul(a131(3, 4, 8, 4, true, 0, 0, "", true));      // 2 x 2 x 2
  expectMatmul(a131(3, 4, 8, 4, false, 2, 0, "", true));
  expectMatmul(a131(4, 4, 16, 8, true, 0, 0, "", true));   // 2 x 2 x 4
  expectMatmul(a131(4, 4, 16, 8, false, 0, 0, "", true));  // n-port, 2 | every block
  expectMatmul(a131(4, 8, 16, 8, false, 0, 0, "", false));
  expectMatmul(a131(4, 8, 16, 16, false, 3, 5, "", false));     // packets
  expectMatmul(a131(4, 4, 32, 16, true, 1, 0, "1x16", false));  // 1 x 1 x 16
  expectMatmul(a131(5, 4, 32, 16, false, 0, 0, "", false));     // 2 x 2 x 8
  expectMatmul(a131(6, 8, 32, 16, true, 2, 0, "", false));      // 4 x 4 x 4
  expectMatmul(a131(6, 16, 32, 16, false, 0, 0, "", false, 2));
  MatmulCase rtl = a131(4, 4, 16, 8, false, 1, 3, "", true);
  rtl.seed = 13;
  expectMatmul(rtl);
  MatmulCase seeded = a131(6, 8, 16, 16, false, 1, 0, "4x16", false);
  seeded.seed = 131;
  expectMatmul(seeded);
}

TEST(Matmul, ThreeDimensionalA131WithN1PrimeNotN2Prime) {
  // TR-623 §3.3 with N1' != N2' (--grid3 N1'xN2'xN3', N1' = N1, N2' N3' = N2, N2' >= N1'): each
  // fiber position takes N2'/N1' sub-strips of every D block in the exchange.
  auto g3 = [](int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, u64 packet, std::string grid3,
               bool rtl, u64 seed = 0) {
    MatmulCase m{"a131", n, p, q, r, one_port, tau, packet, 1, rtl};
    m.grid3 = std::move(grid3);
    m.seed = seed;
    return m;
  };
  expectMatmul(g3(3, 2, 8, 8, true, 0, 0, "1x4x2", true));  // w = 4
  expectMatmul(g3(3, 2, 8, 8, false, 1, 0, "1x4x2", true, 31));
  expectMatmul(g3(3, 4, 8, 8, true, 0, 0, "1x8x1", false));  // A(.,2,1) on 1 x 8
  expectMatmul(g3(4, 4, 16, 8, true, 1, 0, "2x4x2", true));
  expectMatmul(g3(4, 4, 16, 8, false, 0, 0, "2x4x2", true, 41));
  expectMatmul(g3(4, 8, 16, 16, false, 2, 3, "1x4x4", false));  // packets
  expectMatmul(g3(5, 8, 32, 16, true, 0, 0, "2x8x2", false));
  expectMatmul(g3(5, 8, 32, 16, false, 0, 0, "2x4x4", false));
  expectMatmul(g3(6, 16, 64, 32, true, 1, 0, "2x8x4", false));
  expectMatmul(g3(6, 16, 64, 32, false, 0, 0, "2x16x2", false));
  expectMatmul(g3(6, 8, 64, 32, false, 1, 0, "4x8x2", false, 61));
  expectMatmul(g3(6, 16, 64, 32, false, 0, 0, "4x4x4", false));  // N1' = N2', the default's
  // N1' > N2': the fiber in the row bits, C's column sub-strips exchanged (grid N1' N3' x N2').
  expectMatmul(g3(3, 8, 8, 2, true, 0, 0, "4x1x2", true));
  expectMatmul(g3(3, 8, 8, 2, false, 1, 0, "4x1x2", true, 32));
  expectMatmul(g3(4, 8, 16, 4, true, 1, 0, "4x2x2", true));
  expectMatmul(g3(4, 8, 16, 4, false, 0, 0, "4x2x2", true, 42));
  expectMatmul(g3(4, 16, 16, 8, false, 2, 3, "4x1x4", false));  // packets
  expectMatmul(g3(5, 16, 32, 8, true, 0, 0, "8x2x2", false));
  expectMatmul(g3(6, 64, 64, 16, true, 1, 0, "8x2x4", false));
  expectMatmul(g3(6, 64, 64, 16, false, 0, 0, "16x2x2", false));
  expectMatmul(g3(6, 64, 64, 16, false, 1, 0, "8x1x8", false, 62));
  // The default on a grid with N1 > N2: N1' = N2, N3' = N1/N2.
  MatmulCase tall{"a131", 4, 16, 16, 8, false, 0, 0, 1, false};
  tall.grid = "8x2";
  expectMatmul(tall);
}

TEST(Matmul, A122AndA124OnGridsThatAreNotSquare) {
  // TR-623 §3.2 with N1 != N2: the transposes combine the one-dimensional exchange with the
  // square transpose (§2); A(.,2,2) on N1 < N2 and N1 > N2, A(.,2,4) on N1 < N2.
  auto ns = [](const char* method, int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, u64 packet,
               std::string grid, bool rtl) {
    MatmulCase m{method, n, p, q, r, one_port, tau, packet, 1, rtl};
    m.grid = std::move(grid);
    return m;
  };
  expectMatmul(ns("a122", 1, 2, 2, 2, true, 0, 0, "1x2", false));   // e = 1, h = 0
  expectMatmul(ns("a122", 1, 2, 2, 2, false, 1, 0, "2x1", false));  // column strips
  expectMatmul(ns("a124", 1, 2, 2, 2, true, 0, 0, "1x2", false));
  expectMatmul(ns("a122", 3, 4, 4, 4, true, 0, 0, "", true));      // 2 x 4
  expectMatmul(ns("a122", 3, 4, 4, 4, false, 2, 0, "4x2", true));  // 4 x 2
  expectMatmul(ns("a124", 3, 4, 4, 4, true, 1, 0, "", true));
  expectMatmul(ns("a124", 3, 4, 8, 4, false, 0, 0, "2x4", true));
  expectMatmul(ns("a122", 4, 8, 8, 8, true, 0, 0, "2x8", false));  // e = 2
  expectMatmul(ns("a122", 4, 8, 8, 8, true, 0, 0, "8x2", false));
  expectMatmul(ns("a124", 4, 8, 8, 8, true, 0, 0, "2x8", false));
  expectMatmul(ns("a122", 4, 8, 16, 8, false, 3, 2, "8x2", false));  // packets
  expectMatmul(ns("a124", 5, 8, 16, 32, true, 0, 0, "", false));     // 4 x 8
  expectMatmul(ns("a122", 5, 16, 16, 8, false, 1, 0, "8x4", false));
  expectMatmul(ns("a122", 6, 32, 32, 32, true, 0, 0, "2x32", false));  // e = 4
  expectMatmul(ns("a124", 6, 4, 64, 64, false, 0, 0, "1x64", false));
  MatmulCase seeded = ns("a122", 4, 8, 8, 8, false, 1, 0, "8x2", true);
  seeded.seed = 122;
  expectMatmul(seeded);
  MatmulCase seeded4 = ns("a124", 4, 4, 8, 8, false, 0, 3, "2x8", true);
  seeded4.seed = 124;
  expectMatmul(seeded4);
}

TEST(Matmul, A123A124A125OnGridsThatAreNotSquare) {
  // TR-623 §3.2 with N1 != N2. N1 < N2: A(.,2,3) and A(.,2,5) transpose C or D as A(.,2,2) and
  // A(.,2,4) do, reduce A^T in P/N2 x R/N2 pieces and transpose it back (the exchange within the
  // e extra dimensions, then the square transpose). N1 > N2: A(.,2,4) moves D by whole blocks
  // (the square transpose alone), A(.,2,3) reduces whole blocks of A (the paper's alternative
  // accumulation) and moves them home by the square transpose.
  auto ns = [](const char* method, int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, u64 packet,
               std::string grid, bool rtl, u64 seed = 0) {
    MatmulCase m{method, n, p, q, r, one_port, tau, packet, 1, rtl};
    m.grid = std::move(grid);
    m.seed = seed;
    return m;
  };
  expectMatmul(ns("a123", 1, 2, 2, 2, true, 0, 0, "1x2", false));  // e = 1, h = 0
  expectMatmul(ns("a123", 1, 2, 2, 2, false, 1, 0, "2x1", false));
  expectMatmul(ns("a125", 1, 2, 2, 2, true, 0, 0, "1x2", false));
  expectMatmul(ns("a124", 1, 2, 2, 2, true, 0, 0, "2x1", false));
  expectMatmul(ns("a123", 3, 4, 4, 4, true, 0, 0, "", true));  // 2 x 4
  expectMatmul(ns("a123", 3, 4, 4, 4, false, 2, 0, "4x2", true));
  expectMatmul(ns("a125", 3, 4, 4, 4, true, 1, 0, "2x4", true));
  expectMatmul(ns("a125", 3, 4, 8, 4, false, 0, 0, "2x4", false));
  expectMatmul(ns("a124", 3, 4, 4, 4, true, 0, 0, "4x2", true));
  expectMatmul(ns("a124", 3, 4, 8, 4, false, 1, 0, "4x2", false));
  expectMatmul(ns("a123", 4, 8, 8, 8, true, 0, 0, "2x8", false));  // e = 2
  expectMatmul(ns("a123", 4, 8, 8, 8, true, 0, 0, "8x2", false));
  expectMatmul(ns("a125", 4, 8, 8, 8, true, 0, 0, "2x8", false));
  expectMatmul(ns("a124", 4, 8, 8, 8, true, 0, 0, "8x2", false));
  expectMatmul(ns("a123", 4, 8, 16, 8, false, 3, 2, "8x2", false));  // packets
  expectMatmul(ns("a125", 4, 16, 8, 8, false, 2, 3, "2x8", false));
  expectMatmul(ns("a124", 4, 8, 16, 16, false, 1, 5, "8x2", false));
  expectMatmul(ns("a123", 5, 16, 16, 8, false, 0, 0, "", false));  // 4 x 8
  expectMatmul(ns("a125", 5, 8, 16, 16, true, 0, 0, "4x8", false));
  expectMatmul(ns("a124", 5, 16, 16, 32, true, 0, 0, "8x4", false));
  expectMatmul(ns("a123", 5, 16, 8, 16, false, 1, 0, "8x4", false));
  expectMatmul(ns("a123", 6, 32, 32, 32, true, 0, 0, "2x32", false));  // e = 4
  expectMatmul(ns("a125", 6, 64, 64, 64, false, 0, 0, "1x64", false));
  expectMatmul(ns("a124", 6, 32, 32, 32, false, 0, 0, "32x2", false));
  expectMatmul(ns("a123", 6, 32, 64, 32, true, 0, 0, "16x4", false));
  expectMatmul(ns("a123", 4, 8, 8, 8, false, 1, 0, "2x8", true, 123));
  expectMatmul(ns("a125", 4, 8, 8, 8, true, 0, 3, "2x8", true, 125));
  expectMatmul(ns("a124", 4, 8, 8, 8, true, 2, 0, "8x2", false, 124));
  expectMatmul(ns("a123", 4, 8, 8, 8, false, 0, 0, "8x2", true, 1123));
  // A(.,2,5) with N1 > N2: D's strips stacked dense, A^T's pieces landing as column strips.
  expectMatmul(ns("a125", 1, 2, 2, 2, true, 0, 0, "2x1", false));  // e = 1, h = 0
  expectMatmul(ns("a125", 3, 4, 4, 4, true, 0, 0, "4x2", true));
  expectMatmul(ns("a125", 3, 8, 4, 8, false, 1, 0, "4x2", false));
  expectMatmul(ns("a125", 4, 16, 16, 16, true, 1, 0, "8x2", false));
  expectMatmul(ns("a125", 4, 16, 16, 16, false, 2, 0, "16x1", false));
  expectMatmul(ns("a125", 4, 8, 16, 16, false, 1, 3, "8x2", false));  // packets
  expectMatmul(ns("a125", 5, 16, 16, 32, true, 0, 0, "8x4", false));
  expectMatmul(ns("a125", 6, 32, 64, 32, false, 1, 0, "32x2", false));
  expectMatmul(ns("a125", 6, 32, 32, 64, false, 0, 0, "16x4", false));
  expectMatmul(ns("a125", 4, 8, 8, 8, true, 1, 0, "8x2", true, 2125));
  expectMatmul(ns("a125", 3, 4, 4, 4, false, 1, 0, "4x2", true, 3125));
}

TEST(Matmul, NPortTransposesMatchTable11) {
  // TR-623 Table 11 on the square grid 4 x 4 (n = 4, n1 = n2 = 2), P = Q = R = 32, tau = 3: every
  // block is M = 64 words. A(n,2,2), A(n,2,4): n tau + (sqrt(M) + sqrt((n-1) tau))^2 + (M (N2-1)/n2
  // + M (N1-1)/n1); A(n,2,3), A(n,2,5) one more transpose term. The SPT transpose (Johnsson & Ho
  // 1987 §6.1.1) with the optimum packet B = sqrt(M tau / (n-1)) = 8, a divisor of M, takes
  // (M/B + n - 1)(B + tau) = 11 * 11 = 121 cycles, Table 11's term exactly; the nRSBT broadcast
  // and reduction 2 steps of 32 and 64 words, one start-up each.
  const u64 m_words = 64;
  const double n = 4;
  const double tau = 3;
  const double txp =
      std::pow(std::sqrt(static_cast<double>(m_words)) + std::sqrt((n - 1) * tau), 2);
  const double terms = 64.0 * 3 / 2 + 64.0 * 3 / 2;
  ASSERT_EQ(txp, 121.0);
  for (const char* method : {"a122", "a123", "a124", "a125"}) {
    SCOPED_TRACE(method);
    const bool two = std::string(method) == "a123" || std::string(method) == "a125";
    const MatmulCase m{method, 4, 32, 32, 32, false, 3, 0, 1, false};
    expectMatmul(m);
    const BuiltCase c = build(m);
    const RunResult r = runTable(c);
    const u64 table11 = static_cast<u64>(n * tau + (two ? 2 : 1) * txp + terms);
    EXPECT_EQ(table11, two ? 446U : 325U);
    EXPECT_EQ(r.cycles - r.mac_cycles, table11) << "Table 11";
    EXPECT_EQ(r.mac_cycles, 32U * 32 * 32 / 16) << "Table 5";
    // Element transfers: 11 packet steps of 8 words per transpose, 32 + 64 per tree.
    EXPECT_EQ(r.transfer_cycles, (two ? 2 : 1) * 88U + 96U + 96U);
    EXPECT_NE(c.bound_source.find(two ? "26 start-ups" : "15 start-ups"), std::string::npos)
        << c.bound_source;
  }
  // With tau = 0 the best packet is one word: M + n - 1 = 67 cycles for the transpose (Table 11's
  // continuous optimum, sqrt(M)^2 = 64, leaves out the pipeline's fill, n - 1 steps).
  const BuiltCase c0 = build({"a122", 4, 32, 32, 32, false, 0, 0, 1, false});
  const RunResult r0 = runTable(c0);
  EXPECT_EQ(r0.cycles - r0.mac_cycles, 67U + 96U + 96U);
}

TEST(Matmul, DualAndMultiplePathTransposes) {
  // The DPT and MPT transposes (Johnsson & Ho 1987 §6.1.2, §6.1.3) in place of Table 11's SPT:
  // the harness checks every packet step against the §6.1 time formulas.
  auto tp = [](const char* method, int n, u64 p, u64 q, u64 r, u32 tau, u64 packet,
               std::string grid, const char* kind, bool rtl, u64 seed = 0) {
    MatmulCase m{method, n, p, q, r, false, tau, packet, 1, rtl};
    m.grid = std::move(grid);
    m.transpose = kind;
    m.seed = seed;
    return m;
  };
  for (const char* kind : {"spt", "dpt", "mpt", "sbt"}) {
    SCOPED_TRACE(kind);
    expectMatmul(tp("a122", 2, 2, 2, 2, 1, 0, "", kind, true));
    expectMatmul(tp("a122", 2, 4, 4, 4, 1, 0, "", kind, false));
    expectMatmul(tp("a123", 4, 16, 16, 16, 2, 0, "", kind, false));
    expectMatmul(tp("a124", 4, 8, 16, 8, 0, 3, "", kind, false));  // packets of 3
    expectMatmul(tp("a122", 4, 4, 8, 8, 2, 5, "", kind, false));   // --packet 5 > M = 2
    expectMatmul(tp("a125", 6, 16, 16, 16, 4, 0, "", kind, false));
    expectMatmul(tp("a123", 5, 16, 16, 16, 1, 0, "4x8", kind, false));  // h = 2 of n = 5
    expectMatmul(tp("a124", 6, 16, 16, 32, 2, 0, "16x4", kind, false));
    expectMatmul(tp("a125", 6, 32, 32, 32, 1, 0, "16x4", kind, false));
    expectMatmul(tp("a125", 4, 8, 8, 8, 1, 0, "", kind, false, 11));
  }
  // The MPT beats the SPT as §6.1 says: 8 x 8 grid, M = 64, tau = 2.
  const BuiltCase spt = build(tp("a122", 6, 64, 64, 64, 2, 0, "", "spt", false));
  const BuiltCase mpt = build(tp("a122", 6, 64, 64, 64, 2, 0, "", "mpt", false));
  const RunResult rs = runTable(spt);
  const RunResult rm = runTable(mpt);
  EXPECT_LT(rm.cycles, rs.cycles);
}

TEST(Matmul, BroadcastWithPackets) {
  auto bc = [](int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, u64 packet, std::string grid,
               bool rtl) {
    MatmulCase m{"broadcast", n, p, q, r, one_port, tau, packet, 1, rtl};
    m.grid = std::move(grid);
    return m;
  };
  expectMatmul(bc(2, 2, 2, 4, true, 2, 1, "2x2", true));
  expectMatmul(bc(2, 2, 4, 4, true, 2, 3, "2x2", false));
  expectMatmul(bc(4, 8, 8, 8, true, 1, 3, "4x4", false));
  expectMatmul(bc(4, 8, 8, 8, false, 2, 1, "4x4", false));
  expectMatmul(bc(3, 8, 8, 8, false, 1, 4, "1x8", false));  // A(.,1,1)'s doubling form
}

TEST(Matmul, DoublingA111MatchesTable6) {
  // TR-623 §3.1, "A Doubling Algorithm A(.,1,1)": C broadcast over the cube, Table 6's
  // A^c(1,1,1), (N-1) P Q/N element transfers and n start-ups; nRSBTs on all-port hardware.
  expectMatmul({"doubling", 2, 1, 4, 4, true, 0, 0, 1, true});
  expectMatmul({"doubling", 2, 1, 4, 4, false, 1, 0, 1, true});
  expectMatmul({"doubling", 2, 4, 4, 4, true, 0, 0, 1, false});
  expectMatmul({"doubling", 3, 6, 8, 8, false, 2, 0, 1, false});
  expectMatmul({"doubling", 4, 16, 16, 16, true, 3, 5, 1, false});
}

TEST(Matmul, CannonA121WithItsAlignment) {
  expectMatmul({"cannon", 2, 2, 2, 2, false, 0, 0, 1, true});
  expectMatmul({"cannon", 2, 2, 2, 4, true, 1, 0, 1, true});   // blocks 1x1, 1x2, 1x2
  expectMatmul({"cannon", 2, 4, 2, 6, true, 1, 0, 1, false});  // blocks 2x1, 1x3, 2x3
  expectMatmul({"cannon", 4, 8, 8, 8, false, 0, 0, 1, true});
  expectMatmul({"cannon", 4, 8, 4, 12, false, 4, 3, 1, false});
  expectMatmul({"cannon", 4, 8, 8, 8, true, 2, 0, 2, false});
  expectMatmul({"cannon", 6, 16, 16, 16, false, 0, 0, 1, false});
}

TEST(Matmul, CannonOnGridsThatAreNotSquare) {
  // TR-623 §3.2: for N1 != N2 each processor simulates S/N2 (or S/N1) processors of the S x S
  // grid, S = max(N1, N2); its C (or D) block is cut into strips along Q.
  auto cn = [](int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, u64 packet, std::string grid,
               bool rtl) {
    MatmulCase m{"cannon", n, p, q, r, one_port, tau, packet, 1, rtl};
    m.grid = std::move(grid);
    return m;
  };
  expectMatmul(cn(3, 4, 8, 8, false, 0, 0, "2x4", true));  // D in strips (N2 > N1)
  expectMatmul(cn(3, 4, 4, 2, true, 1, 0, "4x2", true));   // C in column strips (N1 > N2)
  expectMatmul(cn(3, 8, 8, 4, true, 1, 0, "4x2", false));
  expectMatmul(cn(3, 8, 8, 8, false, 0, 0, "", false));  // n odd: the default grid 2x4
  expectMatmul(cn(4, 4, 16, 8, false, 2, 3, "2x8", false));
  expectMatmul(cn(4, 16, 16, 4, true, 0, 5, "8x2", false));
  expectMatmul(cn(3, 8, 8, 8, false, 0, 0, "1x8", false));  // D never moves: its strips are local
  expectMatmul(cn(3, 8, 8, 8, true, 2, 0, "8x1", false));
  expectMatmul(cn(5, 8, 32, 16, false, 1, 0, "4x8", false));
}

TEST(Matmul, BroadcastA121OnSbtsAndNrsbtsMatchesTables8And11) {
  auto bc = [](int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, std::string grid, bool rtl,
               std::string tree = "") {
    MatmulCase m{"broadcast", n, p, q, r, one_port, tau, 0, 1, rtl};
    m.grid = std::move(grid);
    m.tree = std::move(tree);
    return m;
  };
  expectMatmul(bc(2, 2, 2, 2, true, 0, "2x2", true));           // SBTs, one-port
  expectMatmul(bc(2, 2, 2, 2, false, 0, "2x2", true));          // nRSBTs (n2 = n1 = 1)
  expectMatmul(bc(3, 2, 4, 4, false, 0, "2x4", true));          // N1 < N2, nRSBT rows
  expectMatmul(bc(3, 4, 4, 2, true, 2, "4x2", true));           // N1 > N2: per-row MACs
  expectMatmul(bc(4, 8, 8, 8, false, 0, "4x4", true));          // nRSBTs, 2 | blocks
  expectMatmul(bc(4, 8, 8, 8, false, 3, "4x4", false, "sbt"));  // SBTs on all ports
  expectMatmul(bc(4, 8, 8, 8, true, 3, "4x4", false));          // Table 8 with tau
  expectMatmul(bc(4, 8, 16, 8, false, 5, "2x8", false));        // n2 = 3 does not divide
  expectMatmul(bc(5, 8, 16, 32, false, 2, "4x8", false));       // N1 != N2, tau
  expectMatmul(bc(5, 32, 16, 8, true, 0, "8x4", false));        // N1 > N2, one-port
  expectMatmul(bc(4, 16, 16, 16, false, 0, "1x16", false));     // a 1 x N grid
  expectMatmul(bc(4, 16, 16, 16, false, 0, "16x1", false));     // an N x 1 grid
}

TEST(Matmul, SeededValuesOnEveryExecutor) {
  MatmulCase rot{"rotation", 2, 2, 4, 8, true, 3, 0, 1, true};
  rot.seed = 7;
  expectMatmul(rot);
  MatmulCase cannon{"cannon", 4, 8, 8, 8, false, 0, 0, 1, true};
  cannon.seed = 12345;
  expectMatmul(cannon);
  MatmulCase bc{"broadcast", 3, 4, 4, 2, false, 1, 0, 1, true};
  bc.grid = "4x2";
  bc.seed = 99;
  expectMatmul(bc);
}

TEST(Matmul, GridAutoIsTable9) {
  // TR-623 Table 9, A(1,2,1): N1 = sqrt(P N / R), N2 = sqrt(R N / P), to powers of two.
  auto grid = [](const char* method, int n, const char* shape) {
    const BuiltCase c = buildCase(testing::caseSpec(
        "matmul", n, 0, 1, false, {{"method", method}, {"shape", shape}, {"grid", "auto"}}));
    return c.perm.gridRowDims();
  };
  EXPECT_EQ(grid("broadcast", 4, "16x16x16"), 2);  // 4 x 4
  EXPECT_EQ(grid("broadcast", 4, "64x16x4"), 4);   // sqrt(64 * 16 / 4) = 16: 16 x 1
  EXPECT_EQ(grid("broadcast", 4, "4x16x64"), 0);   // 1 x 16
  EXPECT_EQ(grid("broadcast", 6, "32x16x8"), 4);   // sqrt(32 * 64 / 8) = 16: 16 x 4
  EXPECT_EQ(grid("broadcast", 5, "16x16x16"), 2);  // sqrt(32): the tie goes to N1 = 4
  EXPECT_EQ(grid("cannon", 4, "8x8x32"), 1);       // sqrt(8 * 16 / 32) = 2: 2 x 8
  EXPECT_EQ(grid("rotation", 3, "8x8x8"), 0);
  EXPECT_EQ(grid("a113", 4, "16x16x16"), 0);
  EXPECT_EQ(grid("a124", 4, "64x16x4"), 3);   // A(1,2,4): sqrt(P N / Q) = 8: 8 x 2
  EXPECT_EQ(grid("a122", 4, "16x16x64"), 1);  // A(1,2,2): sqrt(Q N / R) = 2: 2 x 8
  EXPECT_EQ(grid("a123", 6, "16x64x16"), 4);  // A(1,2,3): sqrt(Q N / P) = 16: 16 x 4
  EXPECT_EQ(grid("a125", 4, "8x8x32"), 3);    // A(1,2,5): sqrt(R N / Q) = 8: 8 x 2
  EXPECT_EQ(grid("a131", 6, "16x16x16"), 2);  // 4 x 16: N1 x N1 x N3' = 4 x 4 x 4
}

TEST(Matmul, SplitMix64KnownAnswers) {
  // Vigna's splitmix64.c seeded with 0 gives e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f.
  EXPECT_EQ(splitmix64At(0, 0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64At(0, 1), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64At(0, 2), 0x06c45d188009454fULL);
  // A seeded memory: output x K + l in data slot l of node x, low 32 bits; scratch 0.
  const PermutationSpec s = PermutationSpec::matmul(1, 2, 2, 2, 0);  // K = 2 + 2 + 2 = 6
  const CubeMemory m = seededMemory(s, 8, 12345);
  EXPECT_EQ(m.at(0, 0), 0xa9d111a0U);
  EXPECT_EQ(m.at(0, 1), 0xf713f8edU);
  EXPECT_EQ(m.at(0, 2), 0x80e6721dU);
  EXPECT_EQ(m.at(1, 3), static_cast<u32>(splitmix64At(12345, 9)));
  EXPECT_EQ(m.at(1, 6), 0U);
  EXPECT_EQ(m.at(1, 7), 0U);
}

TEST(Matmul, BadInputIsNamed) {
  auto err = [](std::map<std::string, std::string> params, int n = 2) {
    return testing::errorOf(
        [&] { buildCase(testing::caseSpec("matmul", n, 0, 1, false, std::move(params))); });
  };
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "4x4x3"}}),
            "matmul: R = 3 does not divide over the 2 grid columns (grid 2x2)");
  EXPECT_EQ(err({{"method", "rotation"}, {"shape", "4x6x4"}}),
            "matmul: Q = 6 does not divide over the 4 grid columns (grid 1x4)");
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "4x4x4"}, {"grid", "2x4"}}),
            "--grid 2x4: N1 x N2 must be the 4 processors of the 2-cube, powers of two");
  EXPECT_EQ(err({{"method", "strassen"}, {"shape", "4x4x4"}}),
            "--method 'strassen': unknown matmul method (rotation, exchange, doubling, a113, a114, "
            "cannon, broadcast, a122, a123, a124, a125, a131)");
  EXPECT_EQ(err({{"method", "a131"}, {"shape", "8x8x8"}, {"grid3", "2x4x1"}, {"grid", "4x2"}}, 3),
            "--grid3 2x4x1 with --grid 4x2: A(.,3,1) is built on the grid N1' x N2' N3' when N2' "
            ">= N1', N1' N3' x N2' otherwise");
  EXPECT_EQ(err({{"method", "a131"}, {"shape", "8x8x6"}, {"grid3", "2x2x2"}}, 3),
            "matmul: R = 6 does not divide over the 4 grid columns (grid 2x4)");
  EXPECT_EQ(err({{"method", "a131"}, {"shape", "8x8x8"}, {"grid3", "2x2x4"}}, 3),
            "--grid3 2x2x4: N1' x N2' x N3' must be the 8 processors of the 3-cube, powers of "
            "two");
  EXPECT_EQ(err({{"method", "a131"}, {"shape", "8x8x8"}, {"grid3", "2x2"}}, 3),
            "--grid3 '2x2': expected N1'xN2'xN3' (positive integers)");
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "8x8x8"}, {"grid3", "2x2x2"}}, 3),
            "--grid3: only --method a131 has a three-dimensional grid");
  EXPECT_EQ(err({{"method", "a131"}, {"shape", "8x2x8"}}, 3),
            "matmul: Q = 2 does not divide over the 4 grid columns (grid 2x4)");
  EXPECT_EQ(err({{"method", "a114"}, {"shape", "4x4x4"}, {"grid", "2x2"}}),
            "--method a114: A(.,1,4) is the one-dimensional column partitioning, grid 1x4 (got "
            "2x2)");
  EXPECT_EQ(err({{"method", "a113"}, {"shape", "6x4x4"}}),
            "--method a113: P = 6 does not divide over the 4 processors (A(.,1,3) transposes C "
            "into P/N row strips)");
  EXPECT_EQ(err({{"method", "a113"}, {"shape", "4x4x4"}, {"grid", "2x2"}}),
            "--method a113: A(.,1,3) is the one-dimensional column partitioning, grid 1x4 (got "
            "2x2)");
  EXPECT_EQ(err({{"method", "a123"}, {"shape", "2x8x8"}}, 3),
            "--method a123: P = 2 does not divide over the 4 grid columns (A(.,2,3) reduces A^T "
            "into P/N2 x R/N1 blocks)");
  EXPECT_EQ(err({{"method", "a125"}, {"shape", "4x8x8"}, {"grid", "1x8"}}, 3),
            "--method a125: P = 4 does not divide over the 8 grid columns (A(.,2,5) reduces A^T "
            "into P/N2 x R/N1 blocks)");
  EXPECT_EQ(err({{"method", "a125"}, {"shape", "8x8x2"}, {"grid", "4x2"}}, 3),
            "--method a125: R = 2 does not divide over the 4 grid rows (A(.,2,5) transposes D "
            "into Q/N2 x R/N1 blocks)");
  EXPECT_EQ(err({{"method", "a124"}, {"shape", "8x8x8"}, {"grid", "2x2"}}, 3),
            "--grid 2x2: N1 x N2 must be the 8 processors of the 3-cube, powers of two");
  EXPECT_EQ(err({{"method", "a123"}, {"shape", "8x4x8"}, {"grid", "8x1"}}, 3),
            "matmul: Q = 4 does not divide over the 8 grid rows (grid 8x1)");
  EXPECT_EQ(err({{"method", "a122"}, {"shape", "2x8x8"}}, 3),
            "--method a122: P = 2 does not divide over the 4 grid columns (A(.,2,2) transposes C "
            "into P/N2 x Q/N1 blocks)");
  EXPECT_EQ(err({{"method", "a122"}, {"shape", "4x4x4"}, {"transpose", "fast"}}),
            "--transpose 'fast': must be sbt (TR-623 section 2.2, one port at a time) or spt, "
            "dpt, mpt (Johnsson & Ho 1987 section 6.1, all ports)");
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "4x4x4"}, {"transpose", "spt"}}),
            "--transpose: only --method a122 .. a125 transpose a block-partitioned matrix (sbt, "
            "spt, dpt, mpt)");
  EXPECT_EQ(testing::errorOf([] {
              buildCase(testing::caseSpec(
                  "matmul", 2, 0, 1, true,
                  {{"method", "a123"}, {"shape", "4x4x4"}, {"transpose", "mpt"}}));
            }),
            "--transpose mpt: the packet transposes use every port at once, not one-port "
            "hardware (--ports one takes --transpose sbt)");
  EXPECT_EQ(err({{"method", "broadcast"}, {"shape", "4x4x4"}, {"tree", "fat"}}),
            "--tree 'fat': must be sbt (one-port) or nrsbt (n-port)");
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "4x4x4"}, {"tree", "sbt"}}),
            "--tree: only --method broadcast and doubling have broadcast trees (sbt, nrsbt)");
  EXPECT_EQ(err({{"method", "broadcast"}, {"shape", "64x2x1"}, {"grid", "auto"}}, 4),
            "matmul: Q = 2 does not divide over the 16 grid rows (grid 16x1)");
  EXPECT_EQ(err({{"method", "rotation"}, {"shape", "4x4"}}),
            "--shape '4x4': expected PxQxR (positive integers)");
  EXPECT_EQ(err({{"shape", "4x4x4"}}),
            "--method is required for matmul (rotation, exchange, doubling, a113, a114, cannon, "
            "broadcast, a122, a123, a124, a125, a131)");
}

TEST(Matmul, SpecReadsBackFromText) {
  const PermutationSpec s = PermutationSpec::matmul(4, 8, 4, 12, 2);
  EXPECT_EQ(s.str(), "matmul n=4 shape=8x4x12 l=2");
  EXPECT_EQ(PermutationSpec::parse(s.str()).str(), s.str());
  EXPECT_EQ(s.slots(), 2U * 1U + 1U * 3U + 2U * 3U);
}

}  // namespace
}  // namespace hcube
