#include "tables/verifier.h"

#include <algorithm>
#include <sstream>

#include "spec/matmul_layout.h"
#include "spec/reference.h"
#include "tables/mac.h"
#include "tables/sequencer.h"
#include "tables/table_text.h"

namespace hcube {
namespace {

constexpr u32 kEmpty = 0xFFFFFFFFU;
/// Values at and above this are sums formed by combining receives (SymbolicRun::sum); below it
/// they are element identities (requireSimulatable keeps N * M far below it).
constexpr u32 kSumBase = 0x80000000U;

struct Held {
  bool valid = false;
  u32 element = kEmpty;
};

class SymbolicRun {
 public:
  SymbolicRun(const TableSet& set, size_t max_errors)
      : set_(set),
        h_(set.header),
        nodes_(h_.nodes()),
        channels_(h_.channels()),
        words_(h_.memoryWords()),
        max_errors_(max_errors) {}

  VerifyReport run() {
    checkEnds();
    mem_.assign(nodes_ * words_, kEmpty);
    copies_.assign(nodes_ * h_.slots, 0);
    for (u64 x = 0; x < nodes_; ++x) {
      for (u64 l = 0; l < h_.slots; ++l) {
        // Elements that take no part in a personalized communication start as no element.
        if (!h_.perm.participates({x, l})) continue;
        mem_[x * words_ + l] = static_cast<u32>(x * h_.slots + l);
        copies_[x * h_.slots + l] = 1;
      }
    }
    seq_.clear();
    for (u64 x = 0; x < nodes_; ++x) {
      seq_.emplace_back(&set_.tableOf(x), h_.mac_units, h_.mac_overlap);
    }
    mac_issued_.assign(nodes_, 0);
    out_.assign(nodes_ * channels_, {});
    pass_prev_.assign(nodes_ * channels_, {});
    pass_next_.assign(nodes_ * channels_, {});
    copy_.assign(nodes_ * channels_, {});

    u64 cycle = 0;
    while (true) {
      bool busy = false;
      bool any_xfer = false;
      u64 skip = ~u64{0};
      for (const Sequencer& s : seq_) {
        if (s.done()) continue;
        busy = true;
        if (s.current().op == Opcode::kXfer || s.current().op == Opcode::kPermute) {
          any_xfer = true;
        }
        // A node at END whose MAC units still run (overlap mode) waits for them.
        skip = std::min(skip, s.current().op == Opcode::kEnd ? s.macLeft() : s.waitLeft());
      }
      if (!busy) break;
      const bool pending_pass =
          std::any_of(pass_prev_.begin(), pass_prev_.end(), [](const Held& p) { return p.valid; });
      if (!any_xfer && !pending_pass && skip > 1) {
        // Every busy node waits: jump to the last cycle of the shortest wait at once, so that a
        // WAIT costs the same as a one-cycle wait however long it is.
        for (Sequencer& s : seq_) {
          if (!s.done()) s.skipWait(skip - 1);
        }
        cycle += skip - 1;
      }
      step(cycle);
      ++report_.steps;
      for (Sequencer& s : seq_) s.advance();
      ++cycle;
    }
    report_.cycles = cycle;
    // PASS words still held when every node has ended are never forwarded.
    for (u64 x = 0; x < nodes_; ++x) {
      for (size_t c = 0; c < channels_; ++c) {
        const Held& held = pass_prev_[x * channels_ + c];
        if (!held.valid) continue;
        error(at(cycle, x, c) + ": the word received with PASS in cycle " +
              std::to_string(cycle - 1) + " (" + element(held.element) +
              ") is not forwarded (the node has ended)");
      }
    }
    checkFinal();
    return report_;
  }

 private:
  void error(const std::string& msg) {
    ++report_.total_errors;
    if (report_.errors.size() < max_errors_) report_.errors.push_back(msg);
  }

  std::string at(u64 cycle, u64 node, size_t channel) const {
    std::ostringstream o;
    o << "cycle " << cycle << ", node " << node << ", port " << channel / h_.lanes << ", lane "
      << channel % h_.lanes;
    return o.str();
  }

  std::string element(u32 e) const {
    if (e == kEmpty) return "no element";
    if (e >= kSumBase) {
      std::vector<u64> terms = sums_.at(e - kSumBase);
      std::sort(terms.begin(), terms.end());
      return describe(terms);
    }
    std::ostringstream o;
    o << "element " << e << " (from node " << e / h_.slots << " slot " << e % h_.slots << ")";
    return o.str();
  }

  /// A value given by its sorted terms (more than one, or a product).
  static std::string describe(const std::vector<u64>& terms) {
    std::ostringstream o;
    const bool products =
        std::any_of(terms.begin(), terms.end(), [](u64 t) { return t >> 32 != 0; });
    o << "the sum of " << terms.size() << (products ? " terms (" : " elements (");
    for (size_t i = 0; i < terms.size() && i < 8; ++i) {
      o << (i ? " + " : "");
      if (terms[i] >> 32 != 0) {
        o << (terms[i] >> 32) - 1 << "*" << (terms[i] & 0xFFFFFFFFU);
      } else {
        o << terms[i];
      }
    }
    if (terms.size() > 8) o << " + ...";
    o << ")";
    return o.str();
  }

  /// The identity of the element that starts in slot l of node x.
  u32 elementAt(u64 x, u64 l) const { return static_cast<u32>(x * h_.slots + l); }

  u64 resolve(u64 node, u32 slot, bool rel) const { return rel ? (slot ^ node) : slot; }

  void checkEnds() {
    for (size_t t = 0; t < set_.tables.size(); ++t) {
      const Table& table = set_.tables[t];
      const bool ends = std::any_of(table.begin(), table.end(),
                                    [](const Instruction& i) { return i.op == Opcode::kEnd; });
      if (!ends) {
        error((set_.shared ? std::string("shared table") : "table of node " + std::to_string(t)) +
              ": no END instruction (the sequencer would run past the table)");
      }
    }
  }

  void step(u64 cycle) {
    // Sends read the state at the start of the cycle.
    for (u64 x = 0; x < nodes_; ++x) {
      const Instruction& ins = seq_[x].current();
      if (seq_[x].macIssues()) {
        mac(cycle, x, ins.mac);
        mac_issued_[x] = cycle;
      }
      if (seq_[x].macBusy()) checkOverlap(cycle, x, ins, *seq_[x].macWork());
      Held* o = &out_[x * channels_];
      std::fill(o, o + channels_, Held{});
      Held* cp = &copy_[x * channels_];
      std::fill(cp, cp + channels_, Held{});
      const bool xfer = ins.op == Opcode::kXfer;
      if (ins.op == Opcode::kPermute) readCopies(cycle, x, ins, cp);
      int sending_ports = 0;
      int receiving_ports = 0;
      if (xfer) {
        for (int p = 0; p < h_.n; ++p) {
          bool sends = false;
          bool receives = false;
          for (int l = 0; l < h_.lanes; ++l) {
            const size_t c = static_cast<size_t>(p * h_.lanes + l);
            const Channel& ch = ins.channels[c];
            receives = receives || ch.in.op != InOp::kIdle;
            if (ch.out.op == OutOp::kMem) {
              const u64 slot = resolve(x, ch.out.idx, ch.out.rel);
              if (slot >= words_) {
                error(at(cycle, x, c) + ", slot " + std::to_string(slot) +
                      ": send slot outside the memory of " + std::to_string(words_) + " slots");
                continue;
              }
              const u32 e = mem_[x * words_ + slot];
              if (e == kEmpty) {
                error(at(cycle, x, c) + ", slot " + std::to_string(slot) +
                      ": sends a slot that holds no element");
              }
              o[c] = {true, e};
              hold(e);
            } else if (ch.out.op == OutOp::kFwd) {
              const Held& src = pass_prev_[x * channels_ + ch.out.idx];
              if (!src.valid) {
                error(at(cycle, x, c) + ": FWD from port " + std::to_string(ch.out.idx / h_.lanes) +
                      " lane " + std::to_string(ch.out.idx % h_.lanes) +
                      ", which received no PASS word in the previous cycle");
                continue;
              }
              o[c] = src;
              hold(src.element);
            }
            sends = sends || o[c].valid;
          }
          sending_ports += sends ? 1 : 0;
          receiving_ports += receives ? 1 : 0;
        }
      }
      if (h_.one_port && (sending_ports > 1 || receiving_ports > 1)) {
        error("cycle " + std::to_string(cycle) + ", node " + std::to_string(x) +
              ": one-port mode, but " + std::to_string(sending_ports) + " ports send and " +
              std::to_string(receiving_ports) + " ports receive");
      }
      for (size_t c = 0; c < channels_; ++c) {
        const Held& held = pass_prev_[x * channels_ + c];
        if (!held.valid) continue;
        bool forwarded = false;
        if (xfer) {
          for (const Channel& ch : ins.channels) {
            forwarded = forwarded || (ch.out.op == OutOp::kFwd && ch.out.idx == c);
          }
        }
        if (!forwarded) {
          error(at(cycle, x, c) + ": the word received with PASS in cycle " +
                std::to_string(cycle - 1) + " (" + element(held.element) + ") is not forwarded");
        }
      }
    }
    // Receives write at the end of the cycle.
    writes_.clear();
    for (u64 y = 0; y < nodes_; ++y) {
      const Instruction& ins = seq_[y].current();
      std::vector<u64> written;
      for (size_t c = 0; c < channels_; ++c) {
        const int port = static_cast<int>(c) / h_.lanes;
        const u64 x = neighbour(y, port);
        const Held& arriving = out_[x * channels_ + c];
        const InField in = ins.op == Opcode::kXfer ? ins.channels[c].in : InField{};
        if (pass_next_[y * channels_ + c].valid) release(pass_next_[y * channels_ + c].element);
        pass_next_[y * channels_ + c] = {};
        if (in.op == InOp::kIdle) {
          if (arriving.valid) {
            error(at(cycle, x, c) + ": sends " + element(arriving.element) + " to node " +
                  std::to_string(y) + ", which does not receive it (word lost" +
                  (ins.op == Opcode::kPermute ? ": it executes a PERMUTE)" : ")"));
          }
          continue;
        }
        if (!arriving.valid) {
          error(at(cycle, y, c) + ": expects a word from node " + std::to_string(x) +
                ", which sends none");
          continue;
        }
        if (in.op == InOp::kPass) {
          pass_next_[y * channels_ + c] = arriving;
          hold(arriving.element);
          addCopy(arriving.element, +1);
          continue;
        }
        const u64 slot = resolve(y, in.slot, in.rel);
        if (slot >= words_) {
          error(at(cycle, y, c) + ", slot " + std::to_string(slot) +
                ": receive slot outside the memory of " + std::to_string(words_) + " slots");
          continue;
        }
        if (std::find(written.begin(), written.end(), slot) != written.end()) {
          error(at(cycle, y, c) + ", slot " + std::to_string(slot) +
                ": a second word is written into this slot in the same cycle");
        }
        written.push_back(slot);
        const u32 old = mem_[y * words_ + slot];
        if (in.op == InOp::kAdd) {
          // The combining receive (docs/hardware/arithmetic.md §1). The slot's value (as at the
          // start of the cycle) and the arriving one become their sum; the old value is combined,
          // not lost, so it is no overwrite of a last copy.
          if (old == kEmpty) {
            error(at(cycle, y, c) + ", slot " + std::to_string(slot) +
                  ": ADD combines into a slot that holds no element");
          }
          writes_.push_back({y, c, slot, old, true});
          setMem(y * words_ + slot, combine(old, arriving.element));
          continue;
        }
        writes_.push_back({y, c, slot, old});
        setMem(y * words_ + slot, arriving.element);
        addCopy(arriving.element, +1);
      }
      if (ins.op == Opcode::kPermute) writeCopies(cycle, y, ins, written);
    }
    for (const Write& w : writes_) addCopy(w.old, -1);
    for (const Held& held : pass_prev_) {
      if (held.valid) addCopy(held.element, -1);
    }
    for (const Write& w : writes_) {
      if (w.combined || w.old == kEmpty || w.old >= kSumBase) continue;
      if (copies_[w.old] == 0) {
        error(at(cycle, w.node, w.channel) + ", slot " + std::to_string(w.slot) + ": overwrites " +
              element(w.old) + " before it was sent (its last copy)");
        copies_[w.old] = kReported;
      }
    }
    // The words in flight (sent and PERMUTE-read in this cycle) have landed.
    for (const Held& held : out_) {
      if (held.valid) release(held.element);
    }
    for (const Held& held : copy_) {
      if (held.valid) release(held.element);
    }
    std::fill(out_.begin(), out_.end(), Held{});
    std::fill(copy_.begin(), copy_.end(), Held{});
    std::swap(pass_prev_, pass_next_);
  }

  // PERMUTE (docs/hardware/node.md §2.1), first half: every MEM/MEM channel reads its source slot
  // as it is at the start of the cycle; other non-idle channels are illegal.
  void readCopies(u64 cycle, u64 x, const Instruction& ins, Held* cp) {
    for (size_t c = 0; c < channels_; ++c) {
      const Channel& ch = ins.channels[c];
      if (ch.out.op == OutOp::kIdle && ch.in.op == InOp::kIdle) continue;
      if (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem) {
        error(at(cycle, x, c) + ": PERMUTE channel '" + formatChannel(ch) +
              "' is neither a local copy (MEM/MEM) nor idle (illegal)");
        continue;
      }
      const u64 slot = resolve(x, ch.out.idx, ch.out.rel);
      if (slot >= words_) {
        error(at(cycle, x, c) + ", slot " + std::to_string(slot) +
              ": PERMUTE copies from a slot outside the memory of " + std::to_string(words_) +
              " slots");
        continue;
      }
      const u32 e = mem_[x * words_ + slot];
      if (e == kEmpty) {
        error(at(cycle, x, c) + ", slot " + std::to_string(slot) +
              ": PERMUTE copies a slot that holds no element");
      }
      cp[c] = {true, e};
      hold(e);
    }
  }

  // PERMUTE, second half: the copies land at the end of the cycle, like received words.
  void writeCopies(u64 cycle, u64 y, const Instruction& ins, std::vector<u64>& written) {
    for (size_t c = 0; c < channels_; ++c) {
      const Held& held = copy_[y * channels_ + c];
      if (!held.valid) continue;
      const InField& in = ins.channels[c].in;
      const u64 slot = resolve(y, in.slot, in.rel);
      if (slot >= words_) {
        error(at(cycle, y, c) + ", slot " + std::to_string(slot) +
              ": PERMUTE copies into a slot outside the memory of " + std::to_string(words_) +
              " slots");
        continue;
      }
      if (std::find(written.begin(), written.end(), slot) != written.end()) {
        error(at(cycle, y, c) + ", slot " + std::to_string(slot) +
              ": PERMUTE copies a second word into this slot in the same cycle (conflict)");
      }
      written.push_back(slot);
      writes_.push_back({y, c, slot, mem_[y * words_ + slot]});
      setMem(y * words_ + slot, held.element);
      addCopy(held.element, +1);
    }
  }

  // ---- block multiply-accumulate (docs/hardware/arithmetic.md §2) ----
  // The whole MAC is applied in its first cycle: without overlap the node sends nothing and
  // takes no word while it runs (a word arriving meanwhile is reported lost by the receive
  // check), so no other node can see the difference; in overlap mode (docs/hardware/arithmetic.md
  // §3) the node's transfers meanwhile may not touch its blocks (checkOverlap reports those that
  // do). Each element c(i,j) becomes the sum of its old value and the product terms a(i,l) *
  // b(l,j), each a pair of element identities; a scratch slot that was never written holds 0 (the
  // executors clear scratch). Reported: a block outside the memory, C overlapping A or B (the
  // hardware's `conflict`), an operand slot that holds no element or holds a sum (products of sums
  // are not tracked), and a data slot with no element as C.
  void mac(u64 cycle, u64 x, const MacField& f) {
    const std::string where = "cycle " + std::to_string(cycle) + ", node " + std::to_string(x) +
                              ", MAC " + std::to_string(f.a) + " " + std::to_string(f.b) + " " +
                              std::to_string(f.c) + " " + std::to_string(f.m) + "x" +
                              std::to_string(f.k) + "x" + std::to_string(f.p);
    const u64 ends[3] = {f.a + u64{f.m} * f.k, f.b + u64{f.k} * f.p, f.c + u64{f.m} * f.p};
    if (ends[0] > words_ || ends[1] > words_ || ends[2] > words_) {
      error(where + ": a block runs past the memory of " + std::to_string(words_) + " slots");
      return;
    }
    if (macOverlap(f)) error(where + ": the C block overlaps the A or the B block (conflict)");
    u32* mem = &mem_[x * words_];
    auto operand = [&](u64 slot) -> u32 {
      const u32 e = mem[slot];
      if (e == kEmpty || e >= kSumBase) {
        error(where + ", slot " + std::to_string(slot) + ": multiplies " +
              (e == kEmpty ? std::string("a slot that holds no element")
                           : element(e) + ", a sum (products of sums are not tracked)"));
        return kEmpty;
      }
      return e;
    };
    for (u64 i = 0; i < f.m; ++i) {
      for (u64 j = 0; j < f.p; ++j) {
        const u64 c = f.c + i * f.p + j;
        if (mem[c] == kEmpty && c < h_.slots) {
          error(where + ", slot " + std::to_string(c) +
                ": accumulates into a data slot that holds no element (not known to be 0)");
        }
        // A sum held by this slot alone grows in place; anything else becomes a new sum.
        const bool own = isSum(mem[c]) && refs_[mem[c] - kSumBase] == 1;
        std::vector<u64> fresh;
        std::vector<u64>& terms = own ? sums_[mem[c] - kSumBase] : fresh;
        if (!own) appendTerms(mem[c], terms);
        for (u64 l = 0; l < f.k; ++l) {
          const u32 a = operand(f.a + i * f.k + l);
          const u32 b = operand(f.b + l * f.p + j);
          if (a == kEmpty || b == kEmpty) continue;
          terms.push_back(productTerm(a, b));
        }
        if (!own) setMem(x * words_ + c, newSum(std::move(fresh)));
      }
    }
  }

  // MAC overlap mode (docs/hardware/arithmetic.md §3): node x's units run MAC f, issued in cycle
  // mac_issued_[x], beside `ins`. Applying f in its issue cycle is exact as long as nothing else
  // touches its blocks meanwhile, which is what the hardware's `overlap` error checks: another
  // MAC, an XFER send of a C slot or receive into an A, B or C slot, a PERMUTE copy from C or
  // into A, B or C.
  void checkOverlap(u64 cycle, u64 x, const Instruction& ins, const MacField& f) {
    const std::string running =
        "the MAC " + std::to_string(f.a) + " " + std::to_string(f.b) + " " + std::to_string(f.c) +
        " " + std::to_string(f.m) + "x" + std::to_string(f.k) + "x" + std::to_string(f.p) +
        " issued in cycle " + std::to_string(mac_issued_[x]) + " still runs";
    if (ins.op == Opcode::kMac) {
      if (!seq_[x].macRefused()) return;  // without overlap: the running MAC's own instruction
      error("cycle " + std::to_string(cycle) + ", node " + std::to_string(x) +
            ": a MAC is issued while " + running + " (overlap: it is not started)");
      return;
    }
    if (ins.op != Opcode::kXfer && ins.op != Opcode::kPermute) return;
    const bool permute = ins.op == Opcode::kPermute;
    for (size_t c = 0; c < channels_; ++c) {
      const Channel& ch = ins.channels[c];
      if (permute && (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem)) continue;
      if (ch.out.op == OutOp::kMem) {
        const u64 slot = resolve(x, ch.out.idx, ch.out.rel);
        if (macReadHazard(f, slot)) {
          error(at(cycle, x, c) + ", slot " + std::to_string(slot) + ": " +
                (permute ? "PERMUTE copies from" : "sends") + " a slot of the C block while " +
                running + " (overlap)");
        }
      }
      if (ch.in.writes()) {
        const u64 slot = resolve(x, ch.in.slot, ch.in.rel);
        if (macWriteHazard(f, slot)) {
          error(at(cycle, x, c) + ", slot " + std::to_string(slot) + ": " +
                (permute ? "PERMUTE copies into" : "receives into") +
                " a slot of the A, B or C block while " + running + " (overlap)");
        }
      }
    }
  }

  static u64 productTerm(u32 a, u32 b) {
    if (a > b) std::swap(a, b);
    return ((u64{a} + 1) << 32) | b;
  }

  void addCopy(u32 e, int delta) {
    if (e == kEmpty || e >= copies_.size() || copies_[e] == kReported) return;
    copies_[e] = static_cast<u32>(static_cast<int64_t>(copies_[e]) + delta);
  }

  /// Matrix multiplication (TR-623 §3): A's initial element plus the product of every C and D
  /// element pair of its inner product, as terms.
  std::vector<u64> expectedMatmul(u64 y, u64 slot) {
    const MatmulLayout l = MatmulLayout::of(h_.perm);
    const u64 a1 = l.gridRow(y);
    const u64 a2 = l.gridCol(y);
    const u64 i = a1 * l.a_rows + (slot - l.a_base) / l.a_cols;
    const u64 k = a2 * l.a_cols + (slot - l.a_base) % l.a_cols;
    auto id = [&](GlobalAddress g) { return elementAt(g.node, g.slot); };
    std::vector<u64> terms = {elementAt(y, slot)};
    for (u64 j = 0; j < l.q; ++j) terms.push_back(productTerm(id(l.cAt(i, j)), id(l.dAt(j, k))));
    return terms;
  }

  void checkFinal() {
    if (h_.perm.kind() == PermutationSpec::Kind::kMatmul) {
      for (u64 y = 0; y < nodes_; ++y) {
        for (u64 l = 0; l < h_.slots; ++l) {
          if (!h_.perm.checkedAtEnd(y, l)) continue;
          std::vector<u64> expected = expectedMatmul(y, l);
          const u32 got = mem_[y * words_ + l];
          if (holdsTerms(got, expected)) continue;
          std::sort(expected.begin(), expected.end());
          error("final state, node " + std::to_string(y) + ", slot " + std::to_string(l) +
                ": holds " + element(got) + ", the reference '" + h_.perm.str() + "' expects " +
                describe(expected));
        }
      }
      return;
    }
    const CubeMemory want = expectedMemory(h_.perm);
    u64 wrong = 0;
    for (u64 y = 0; y < nodes_; ++y) {
      for (u64 l = 0; l < h_.slots; ++l) {
        const u32 got = mem_[y * words_ + l];
        u32 expected = want.at(y, l);
        if (h_.perm.collective()) {
          if (!h_.perm.checkedAtEnd(y, l)) continue;
          // All-to-all reduction (TR-623 §2): the sum of the elements every node started with in
          // this slot; broadcast: the element the reference names (its word is its identity).
          if (h_.perm.reduction()) {
            std::vector<u64> terms;
            for (u64 x = 0; x < nodes_; ++x) terms.push_back(elementAt(x, l));
            if (holdsTerms(got, terms)) continue;
            ++wrong;
            std::sort(terms.begin(), terms.end());
            error("final state, node " + std::to_string(y) + ", slot " + std::to_string(l) +
                  ": holds " + element(got) + ", the reference '" + h_.perm.str() + "' expects " +
                  (terms.size() == 1 ? element(static_cast<u32>(terms[0])) : describe(terms)));
            continue;
          }
        } else if (!h_.perm.participates(unpackAddress(expected, h_.slots))) {
          continue;
        }
        if (got == expected) continue;
        ++wrong;
        error("final state, node " + std::to_string(y) + ", slot " + std::to_string(l) +
              ": holds " + element(got) + ", the reference '" + h_.perm.str() + "' expects " +
              element(expected));
      }
    }
    (void)wrong;
  }

  struct Write {
    u64 node;
    size_t channel;
    u64 slot;
    u32 old;
    bool combined = false;  ///< an ADD: the old value lives on in the sum
  };

  static bool isSum(u32 v) { return v != kEmpty && v >= kSumBase; }

  /// The value a combining receive forms from `old` (the slot's) and `add` (elements or sums):
  /// the multiset of their terms. A sum that only this slot holds grows in place (so that a
  /// block accumulated term by term costs its length, not its length squared); otherwise a new
  /// sum is made. An empty operand adds nothing (its error is reported where it is read).
  u32 combine(u32 old, u32 add) {
    if (isSum(old) && old != add && refs_[old - kSumBase] == 1) {
      appendTerms(add, sums_[old - kSumBase]);
      return old;
    }
    std::vector<u64> terms;
    appendTerms(old, terms);
    appendTerms(add, terms);
    return newSum(std::move(terms));
  }

  /// Appends the terms of value v (an element, a sum, or nothing) to `terms`.
  void appendTerms(u32 v, std::vector<u64>& terms) const {
    if (v == kEmpty) return;
    if (v >= kSumBase) {
      const std::vector<u64>& t = sums_[v - kSumBase];
      terms.insert(terms.end(), t.begin(), t.end());
    } else {
      terms.push_back(v);
    }
  }

  /// The value whose terms are `terms`: nothing, an element, or a new sum (held by no one yet).
  u32 newSum(std::vector<u64> terms) {
    if (terms.empty()) return kEmpty;
    if (terms.size() == 1 && terms[0] >> 32 == 0) return static_cast<u32>(terms[0]);
    u32 id;
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
      sums_[id - kSumBase] = std::move(terms);
    } else {
      id = static_cast<u32>(kSumBase + sums_.size());
      sums_.push_back(std::move(terms));
      refs_.push_back(0);
    }
    return id;
  }

  /// Whether value v has exactly the terms `want` (as a multiset).
  bool holdsTerms(u32 v, std::vector<u64> want) const {
    std::vector<u64> got;
    appendTerms(v, got);
    if (got.size() != want.size()) return false;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    return got == want;
  }

  /// Reference counts of sums: memory slots, PASS registers and the words in flight in a cycle
  /// hold them; a sum no one holds is freed and its identity reused.
  void hold(u32 v) {
    if (isSum(v)) ++refs_[v - kSumBase];
  }
  void release(u32 v) {
    if (!isSum(v)) return;
    if (--refs_[v - kSumBase] == 0) {
      std::vector<u64>().swap(sums_[v - kSumBase]);
      free_.push_back(v);
    }
  }
  /// Writes memory word `index` (node * words + slot), keeping the counts.
  void setMem(u64 index, u32 v) {
    u32& m = mem_[index];
    if (m == v) return;
    hold(v);
    release(m);
    m = v;
  }

  static constexpr u32 kReported = 0x80000000U;
  const TableSet& set_;
  const TableHeader& h_;
  u64 nodes_;
  size_t channels_;
  u64 words_;
  size_t max_errors_;
  VerifyReport report_;
  std::vector<u32> mem_;
  std::vector<u32> copies_;
  std::vector<Sequencer> seq_;
  std::vector<u64> mac_issued_;  ///< per node: the cycle its running MAC was issued
  std::vector<Held> out_;
  std::vector<Held> pass_prev_;
  std::vector<Held> pass_next_;
  std::vector<Held> copy_;  ///< per node and channel: the element a PERMUTE copy read
  std::vector<Write> writes_;
  /// Sum kSumBase + i: its terms, in no order; a term is an element identity e, or a product of
  /// elements a <= b as ((a + 1) << 32) | b (MAC). Sums are not shared between values that are
  /// only equal: the final check compares terms.
  std::vector<std::vector<u64>> sums_;
  std::vector<u32> refs_;  ///< holders of each sum (memory slots, PASS registers, words in flight)
  std::vector<u32> free_;  ///< identities of freed sums
};

}  // namespace

VerifyReport verifyTables(const TableSet& set, size_t max_errors, const HeaderOrigin* origin) {
  checkTableShape(set);
  requireWithinLimits(verifierEstimate(set), origin);
  return SymbolicRun(set, max_errors).run();
}

}  // namespace hcube
