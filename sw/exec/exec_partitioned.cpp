#include "exec/exec_partitioned.h"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "base/error.h"
#include "exec/carried_span.h"
#include "exec/exec_program.h"
#include "exec/node_core.h"
#include "exec/traffic_monitor.h"
#include "tables/mac.h"

namespace hcube {

bool startedByMpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

int mpirunSize() {
  const char* s = std::getenv("OMPI_COMM_WORLD_SIZE");
  return s == nullptr ? 1 : std::atoi(s);
}

namespace {
bool g_session = false;
u64 g_exchanged_bytes = 0;
int g_rank = 0;
int g_size = 1;
}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
  if (!startedByMpirun()) return;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_session = true;
  if (g_rank != 0) {
    // Rank 0 speaks for the run: the others compute the same checks and reports.
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
      ::close(null);
    }
  }
}

MpiSession::~MpiSession() {
  if (g_session) MPI_Finalize();
}

bool mpiPartitioned() { return g_session; }
int mpiRank() { return g_rank; }
int mpiSize() { return g_size; }
u64 partitionedExchangedBytes() { return g_exchanged_bytes; }

namespace {

using carried::kNotSent;

/// What every rank learns of the whole cube after each cycle (one allreduce, MPI_MAX).
struct CubeStatus {
  u64 sent = 0;       ///< some node sent a word in the cycle
  u64 local = 0;      ///< some node ran a PERMUTE
  u64 mac = 0;        ///< the MAC units of some node were busy
  u64 running = 0;    ///< some node has not ended or its MAC units are busy
  u64 acting = 0;     ///< some node neither waits nor has ended, holds PASS words or a MAC
  u64 not_wait = 0;   ///< ~ the shortest wait left (the max of ~w is the min of w)
  u64 irregular = 0;  ///< some node holds PASS words or its MAC units are busy (no lockstep)
};
constexpr int kStatusFields = 7;

/// The engine of sw/exec/executor.cpp's general path (two sweeps per cycle, node-major memory) over
/// the rank's own nodes, with the cross-rank dimensions' words exchanged between the sweeps.
class PartEngine : private NodeCore<PartEngine> {
  friend class NodeCore<PartEngine>;

 public:
  PartEngine(const TableSet& set, const CubeMemory& initial, const ExecOptions& opt, int rank,
             int ranks)
      : NodeCore(set, initial, u64{1} << (set.header.n - crossDims(ranks)),
                 static_cast<u64>(rank) << (set.header.n - crossDims(ranks))),
        opt_(opt),
        rank_(rank),
        ranks_(ranks),
        cross_(crossDims(ranks)),
        local_dims_(h_.n - cross_),
        fault_(opt.fault != nullptr && opt.fault->onLink() ? opt.fault : nullptr) {
    link_words_.assign(nodes_ * static_cast<u64>(h_.n), 0);
    port_words_.assign(static_cast<size_t>(h_.n), 0);
    // The traffic log needs every word's send and store: no step runs as whole-row moves.
    record_ = opt.record_traffic;
    lockstep_ = p_.shared && relative_ && fault_ == nullptr && !record_;
    carried_ = lockstep_ && p_.all_lockstep && opt.max_cycles <= carried::kCarriedCycles &&
               distinctTags(opt.tagged_elements);
    if (opt.stats != nullptr) opt.stats->carried_span = carried_;
    if (carried_) first_sent_.assign(mem_.size(), kNotSent);
    if (lockstep_ && cross_ > 0) {
      const u64 stride = carried_ ? 2 * nodes_ : nodes_;
      send_ring_.assign(kRing * stride, 0);
      recv_ring_.assign(kRing * stride, 0);
      send_req_.assign(kRing, MPI_REQUEST_NULL);
      recv_.assign(kRing, {});
      pending_of_row_.assign(rows_, -1);
    }
    // With the first-send cycles carried, no per-element record is kept (as in one process).
    tagged_ = carried_ ? 0 : opt.tagged_elements;
    span_.assign(tagged_, {kNotSent, 0});
    out_.resize(static_cast<size_t>(cross_));
    in_.resize(static_cast<size_t>(cross_));
    for (int j = 0; j < cross_; ++j) {
      out_[static_cast<size_t>(j)].reserve(2 * nodes_ * h_.lanes);
      in_[static_cast<size_t>(j)].resize(2 * nodes_ * h_.lanes);
    }
    r_.backend = "table";
  }

  /// k for 2^k ranks (a power of two, checked by the caller).
  static int crossDims(int ranks) {
    int k = 0;
    while ((1 << k) < ranks) ++k;
    return k;
  }

  RunResult run() {
    u64 cycle = 0;
    CubeStatus g = reduceStatus();
    while (g.running != 0) {
      if (cycle >= opt_.max_cycles) {
        r_.timeout = true;
        break;
      }
      if (g.acting == 0) {
        flushArrivals();
        const u64 skip = std::min(~g.not_wait, opt_.max_cycles - cycle);
        skipWaits(cycle, skip);
        cycle += skip;
        g = reduceStatus();
        continue;
      }
      // A lockstep step (every node of the cube at it, proved error-free) runs as its moves,
      // any other cycle as the two sweeps with the exchange between them.
      const ExecStep& s = p_.steps[seq_.pc[0]];
      if (lockstep_ && s.lockstep && g.irregular == 0) {
        if (carried_) {
          lockstepCycle<true>(s, cycle);
        } else {
          lockstepCycle<false>(s, cycle);
        }
        g = localStatus();
        if (opt_.stats != nullptr) ++opt_.stats->lockstep_cycles;
      } else {
        flushArrivals();
        sendPhase(cycle);
        exchange();
        receivePhase(cycle);
        g = reduceStatus();
        if (g.sent != 0) ++r_.transfer_cycles;
        if (g.local != 0) ++r_.local_cycles;
        if (g.mac != 0) ++r_.mac_cycles;
        sent_ = local_ = mac_ = false;
      }
      countEvents(cycle);
      ++cycle;
      ++r_.cycles;
      if (opt_.stats != nullptr) ++opt_.stats->stepped_cycles;
      if (opt_.progress) opt_.progress(r_.cycles);
    }
    flushArrivals();
    if (!r_.timeout) {
      for (u64 i = 0; i < nodes_; ++i) {
        if (pass_held_[i] != 0) raise(i, HwError::kDropped);
      }
      countEvents(cycle);
    }
    gather();
    return std::move(r_);
  }

 private:
  using Kind = ExecStep::Kind;

  /// Where slot `slot` of the rank's node i lives in mem_: by relative slot (slot XOR i, then i)
  /// where that costs at most twice the memory, as sw/exec/executor.cpp lays out the whole cube, so
  /// that a homogeneous step's sweep over the nodes runs through memory in order; else
  /// node-major.
  /// This rank's part of the cube's status. After a lockstep cycle it is the cube's: a shared
  /// table keeps every node of the cube at one step, with the same wait left.
  CubeStatus localStatus() const {
    CubeStatus s;
    s.sent = sent_ ? 1 : 0;
    s.local = local_ ? 1 : 0;
    s.mac = mac_ ? 1 : 0;
    s.running = seq_.active > 0 || seq_.mac_busy > 0 ? 1 : 0;
    s.acting = seq_.acting > 0 || held_ > 0 || seq_.mac_busy > 0 ? 1 : 0;
    s.not_wait = ~seq_.shortest_wait;
    s.irregular = held_ > 0 || seq_.mac_busy > 0 ? 1 : 0;
    return s;
  }

  CubeStatus reduceStatus() {
    const CubeStatus s = localStatus();
    CubeStatus g;
    MPI_Allreduce(&s, &g, kStatusFields, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return g;
  }

  void countEvents(u64 cycle) { seq_.countEvents(cycle, record_, r_.error_events); }

  /// The row of mem_ that holds relative slot `slot` of every node of the rank: slot XOR x
  /// XOR i for its node i, node x = base + i.
  u64 rowOf(u32 slot) const { return (u64{slot} ^ base_) << local_dims_; }

  /// Whether no tag (word below `tagged`) starts in two slots of the cube that a move reads
  /// (exec/executor.cpp, carried span): each rank marks the tags of its rows that moves read,
  /// and the marks of all ranks are OR-ed; the tags are distinct if no rank saw one twice and
  /// the OR holds as many marks as the ranks set together.
  bool distinctTags(u64 tagged) {
    std::vector<bool> read(rows_, false);
    for (const ExecMove& m : p_.moves) read[rowOf(m.from) >> local_dims_] = true;
    std::vector<u64> seen((tagged + 63) / 64, 0);
    u64 ok = 1;
    u64 marks = 0;
    for (u64 row = 0; row < rows_ && ok != 0; ++row) {
      if (!read[row]) continue;
      for (u64 i = 0; i < nodes_; ++i) {
        const u32 word = mem_[(row << local_dims_) | i];
        if (word >= tagged) continue;
        u64& bits = seen[word / 64];
        const u64 bit = u64{1} << (word % 64);
        if ((bits & bit) != 0) {
          ok = 0;
          break;
        }
        bits |= bit;
        ++marks;
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    if (ok == 0) return false;
    MPI_Allreduce(MPI_IN_PLACE, &marks, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    constexpr size_t kChunk = size_t{1} << 20;
    u64 union_marks = 0;
    for (size_t b = 0; b < seen.size(); b += kChunk) {
      const int len = static_cast<int>(std::min(kChunk, seen.size() - b));
      MPI_Allreduce(MPI_IN_PLACE, &seen[b], len, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
      for (int w = 0; w < len; ++w)
        union_marks += static_cast<u64>(__builtin_popcountll(seen[b + static_cast<size_t>(w)]));
    }
    return union_marks == marks;
  }

  // ---- Lockstep cycles (ExecStep::lockstep, as in exec/executor.cpp) ----
  // A move along one of the rank's own dimensions is a sweep along two rows of mem_, as in
  // one process. A move along a dimension between ranks sends the rank's whole `from` row
  // (every node i of the rank sends to node i of the peer rank) and receives the peer's for its
  // `to` row: one message each way and move, posted before the local moves run. The rows sent
  // are read at the start of the cycle; a row received is written when a later cycle first
  // needs it (see applyReceive), which no other write of the step can meet.
  //
  // With carried first-send cycles (carried_), a message holds the row's words and then their
  // first-send cycles; without, the sender records the first sends and the receiver the stores
  // in the per-element span record.

  using LockstepSpan = carried::LockstepSpan;

  template <bool kCarried>
  void moveWords(const u32* from, u32* from_first, u32* to, u32* to_first, u64 len, u64 cycle,
                 LockstepSpan& span) {
    if constexpr (kCarried) {
      carried::moveRow(from, from_first, to, to_first, len, static_cast<u32>(cycle),
                       opt_.tagged_elements, span);
    } else {
      for (u64 i = 0; i < len; ++i) {
        const u32 word = from[i];
        to[i] = word;
        monitorSpan(word, cycle);
      }
    }
  }

  template <bool kCarried>
  void swapWords(u64 at, u64 bit, u64 cycle, LockstepSpan& span) {
    if constexpr (kCarried) {
      carried::swapPair(mem_.data(), first_sent_.data(), at, bit, static_cast<u32>(cycle),
                        opt_.tagged_elements, span);
    } else {
      const u32 a = mem_[at];
      const u32 b = mem_[at + bit];
      mem_[at] = b;
      mem_[at + bit] = a;
      monitorSpan(a, cycle);
      monitorSpan(b, cycle);
    }
  }

  /// A word sent and stored in one cycle (both nodes in the rank): the span record only; the
  /// link counts of lockstep cycles are kept per port (port_words_).
  void monitorSpan(u32 word, u64 cycle) {
    if (word < tagged_) {
      const u32 c = static_cast<u32>(std::min<u64>(cycle, kNotSent - 1));
      ElementSpan& e = span_[word];
      e.first = std::min(e.first, c);
      e.last = std::max(e.last, c + 1);
    }
  }

  template <bool kCarried>
  void lockstepCycle(const ExecStep& s, u64 cycle) {
    const u64 n = nodes_;
    const int dims = local_dims_;
    const u32 now = static_cast<u32>(cycle);
    const u64 stride = kCarried ? 2 * n : n;
    LockstepSpan span;
    u32* first = kCarried ? first_sent_.data() : nullptr;
    auto firstOf = [&](u64 at) { return kCarried ? first + at : nullptr; };
    // A row still waiting for a word from another rank gets it before this cycle reads or
    // writes the row.
    for (u32 k = s.moves.begin; k < s.moves.end && cross_ > 0; ++k) {
      resolveRow(rowOf(p_.moves[k].from));
      resolveRow(rowOf(p_.moves[k].to));
    }
    // The moves across ranks: the rows they send, read at the start of the cycle, posted with
    // the receives of the peers' rows.
    const size_t moves = s.moves.end - s.moves.begin;
    for (u32 k = s.moves.begin; k < s.moves.end; ++k) {
      const ExecMove& m = p_.moves[k];
      if (static_cast<int>(m.port) < dims) continue;
      const u64 row = rowOf(m.from);
      const size_t send = sends_++ % kRing;
      MPI_Wait(&send_req_[send], MPI_STATUS_IGNORE);  // the slot's earlier message went out
      u32* out = &send_ring_[send * stride];
      std::copy_n(&mem_[row], n, out);
      if constexpr (kCarried) {
        for (u64 i = 0; i < n; ++i) first[row + i] = std::min(first[row + i], now);
        std::copy_n(&first[row], n, out + n);
      } else {
        for (u64 i = 0; i < n; ++i) {
          const u32 word = out[i];
          if (word < tagged_) {
            u32& f = span_[word].first;
            f = std::min(f, static_cast<u32>(std::min<u64>(cycle, kNotSent - 1)));
          }
        }
      }
      const int peer = rank_ ^ (1 << (static_cast<int>(m.port) - dims));
      const int tag = static_cast<int>(k - s.moves.begin);
      const size_t recv = receives_++ % kRing;
      if (recv_[recv].busy) applyReceive(recv);  // the ring is full: the oldest first
      Arrival& a = recv_[recv];
      a.row = rowOf(m.to);
      a.cycle = cycle;
      a.busy = true;
      pending_of_row_[a.row >> local_dims_] = static_cast<int>(recv);
      MPI_Irecv(&recv_ring_[recv * stride], static_cast<int>(stride), MPI_UINT32_T, peer, tag,
                MPI_COMM_WORLD, &a.req);
      MPI_Isend(out, static_cast<int>(stride), MPI_UINT32_T, peer, tag, MPI_COMM_WORLD,
                &send_req_[send]);
      exchanged_bytes_ += stride * sizeof(u32);
    }
    if (s.staged) {
      // Every row read before any is written: the local moves' words (and their first-send
      // cycles, kept in the sender's row too) go to the stage.
      const size_t need = moves * n;
      if (stage_.size() < need) stage_.resize(need);
      if (kCarried && stage_first_.size() < need) stage_first_.resize(need);
      for (u32 k = s.moves.begin; k < s.moves.end; ++k) {
        if (static_cast<int>(p_.moves[k].port) >= dims) continue;
        const u64 row = rowOf(p_.moves[k].from);
        const u64 at = static_cast<u64>(k - s.moves.begin) * n;
        std::copy_n(&mem_[row], n, &stage_[at]);
        if constexpr (kCarried) {
          for (u64 x = 0; x < n; ++x) first[row + x] = std::min(first[row + x], now);
          std::copy_n(&first[row], n, &stage_first_[at]);
        }
      }
    }
    for (u32 k = s.moves.begin; k < s.moves.end; ++k) {
      const ExecMove& m = p_.moves[k];
      port_words_[m.port] += 1;
      r_.words += n;
      if (static_cast<int>(m.port) >= dims) continue;
      const u64 bit = u64{1} << m.port;
      const u64 to = rowOf(m.to);
      if (m.in_place) {
        for (u64 base = 0; base < n; base += 2 * bit) {
          for (u64 i = base; i < base + bit; ++i) swapWords<kCarried>(to + i, bit, cycle, span);
        }
      } else {
        const bool staged = s.staged;
        const u64 at = static_cast<u64>(k - s.moves.begin) * n;
        const u32* from = staged ? &stage_[at] : &mem_[rowOf(m.from)];
        u32* from_first =
            staged ? (kCarried ? &stage_first_[at] : nullptr) : firstOf(rowOf(m.from));
        for (u64 base = 0; base < n; base += 2 * bit) {
          moveWords<kCarried>(from + base, from_first ? from_first + base : nullptr,
                              &mem_[to + base + bit], firstOf(to + base + bit), bit, cycle, span);
          moveWords<kCarried>(from + base + bit, from_first ? from_first + base + bit : nullptr,
                              &mem_[to + base], firstOf(to + base), bit, cycle, span);
        }
      }
    }
    if (moves != 0) ++r_.transfer_cycles;
    if (kCarried && span.tagged) carried_span_ = std::max(carried_span_, cycle + 1 - span.first);
    seq_.lockstepAdvance();
  }

  // Words from other ranks are written at the end of their cycle in effect, but into mem_ only
  // when a later cycle reads or writes their row (resolveRow), before any other cycle kind and
  // at the end (flushArrivals): until then the row is read or written by no one, so a rank may
  // run ahead of its peers by as many cycles as the schedule leaves a received row untouched,
  // and a rank that is not scheduled for a while holds up the others less often.

  /// The arrival in receive slot `slot`: waits for it and writes its row.
  void applyReceive(size_t slot) {
    Arrival& a = recv_[slot];
    MPI_Wait(&a.req, MPI_STATUS_IGNORE);
    const u64 n = nodes_;
    const u32* in = &recv_ring_[slot * (carried_ ? 2 * n : n)];
    std::copy_n(in, n, &mem_[a.row]);
    if (carried_) {
      std::copy_n(in + n, n, &first_sent_[a.row]);
      const u64 tagged = opt_.tagged_elements;
      LockstepSpan span;
      for (u64 i = 0; i < n; ++i) {
        const bool tag = in[i] < tagged;
        span.tagged |= tag;
        span.first = std::min(span.first, tag ? in[n + i] : kNotSent);
      }
      if (span.tagged) carried_span_ = std::max(carried_span_, a.cycle + 1 - span.first);
    } else {
      for (u64 i = 0; i < n; ++i) monitorStore(in[i], a.cycle);
    }
    pending_of_row_[a.row >> local_dims_] = -1;
    a.busy = false;
  }
  void resolveRow(u64 row) {
    const int slot = pending_of_row_[row >> local_dims_];
    if (slot >= 0) applyReceive(static_cast<size_t>(slot));
  }
  /// Every arrival written and every message sent.
  void flushArrivals() {
    for (size_t slot = 0; slot < recv_.size(); ++slot) {
      if (recv_[slot].busy) applyReceive(slot);
    }
    MPI_Waitall(static_cast<int>(send_req_.size()), send_req_.data(), MPI_STATUSES_IGNORE);
  }

  void skipWaits(u64 cycle, u64 skip) {
    seq_.skip(skip);
    countEvents(cycle + skip - 1);  // an overrun after a WAIT, in the wait's last cycle
    r_.cycles += skip;
    if (opt_.stats != nullptr) ++opt_.stats->skips;
    if (opt_.progress) opt_.progress(r_.cycles);
  }

  void monitorSend(u64 i, u32 port, u32 lane, u32 word, u64 cycle) {
    ++link_words_[i * static_cast<u64>(h_.n) + port];
    if (record_ && (opt_.record_word == ~u64{0} || word == opt_.record_word)) {
      log_.sends.push_back(
          {cycle, base_ + i, static_cast<int>(port), word, static_cast<int>(lane)});
    }
    if (word < tagged_) {
      u32& f = span_[word].first;
      f = std::min(f, static_cast<u32>(std::min<u64>(cycle, kNotSent - 1)));
    }
  }
  void monitorStore(u32 word, u64 cycle) {
    if (record_ && (opt_.record_word == ~u64{0} || word == opt_.record_word)) {
      log_.stores.push_back({cycle, word});
    }
    if (word < tagged_) {
      u32& l = span_[word].last;
      l = std::max(l, static_cast<u32>(std::min<u64>(cycle, kNotSent - 1) + 1));
    }
  }

  void sendPhase(u64 cycle) {
    for (auto& o : out_) o.clear();
    for (u64 i = 0; i < nodes_; ++i) {
      const u64 x = base_ + i;
      const ExecStep& s = p_.steps[seq_.pc[i]];
      Latch* pass = &pass_[i * channels_];
      if (s.kind == Kind::kXfer) {
        for (u32 o = s.sends.begin; o < s.sends.end; ++o) {
          const ExecSend& op = p_.sends[o];
          u32 word = 0;
          if (!sendWord(i, op, pass, word)) continue;
          const u32 lane = op.channel - op.port * h_.lanes;
          if (fault_ != nullptr &&
              !fault_->apply(x, static_cast<int>(op.port), static_cast<int>(lane), cycle, word)) {
            continue;
          }
          if (static_cast<int>(op.port) < local_dims_) {
            const u64 j = i ^ (u64{1} << op.port);
            inbox_[j * channels_ + op.channel] = {word, 1};
            ++arrivals_[j];
          } else {
            // The neighbour is node i of the rank across this dimension, on the same channel.
            std::vector<u32>& out = out_[op.port - static_cast<u32>(local_dims_)];
            out.push_back(static_cast<u32>(i * h_.lanes + lane));
            out.push_back(word);
          }
          ++r_.words;
          sent_ = true;
          monitorSend(i, op.port, lane, word, cycle);
        }
        if (s.one_port) raise(i, HwError::kOnePort);
      } else if (s.kind == Kind::kPermute) {
        local_ = true;
      }
      if (pass_held_[i] != 0) dropPassWords(i, s);
    }
  }

  /// The words of the cross-rank dimensions: one buffer to and one from each neighbour rank.
  void exchange() {
    if (cross_ == 0) return;
    std::vector<MPI_Request> req(2 * static_cast<size_t>(cross_));
    for (int j = 0; j < cross_; ++j) {
      const int peer = rank_ ^ (1 << j);
      MPI_Irecv(in_[static_cast<size_t>(j)].data(),
                static_cast<int>(in_[static_cast<size_t>(j)].size()), MPI_UINT32_T, peer, j,
                MPI_COMM_WORLD, &req[2 * static_cast<size_t>(j)]);
    }
    for (int j = 0; j < cross_; ++j) {
      const int peer = rank_ ^ (1 << j);
      std::vector<u32>& out = out_[static_cast<size_t>(j)];
      exchanged_bytes_ += out.size() * sizeof(u32);
      MPI_Isend(out.data(), static_cast<int>(out.size()), MPI_UINT32_T, peer, j, MPI_COMM_WORLD,
                &req[2 * static_cast<size_t>(j) + 1]);
    }
    std::vector<MPI_Status> st(req.size());
    MPI_Waitall(static_cast<int>(req.size()), req.data(), st.data());
    for (int j = 0; j < cross_; ++j) {
      int count = 0;
      MPI_Get_count(&st[2 * static_cast<size_t>(j)], MPI_UINT32_T, &count);
      const u32* in = in_[static_cast<size_t>(j)].data();
      const u32 port = static_cast<u32>(local_dims_ + j);
      for (int e = 0; e + 1 < count; e += 2) {
        const u64 i = in[e] / h_.lanes;
        const u32 channel = port * h_.lanes + in[e] % h_.lanes;
        inbox_[i * channels_ + channel] = {in[e + 1], 1};
        ++arrivals_[i];
      }
    }
  }

  void receivePhase(u64 cycle) {
    seq_.startCount();
    for (u64 i = 0; i < nodes_; ++i) fallingEdge(i, cycle);
  }

  /// Counters summed, errors, link words and memories gathered to rank 0, the span from the
  /// per-element first-send and last-store cycles reduced over the ranks.
  /// Every rank's `mine`, concatenated in rank order, at rank 0 (empty elsewhere).
  std::vector<u64> gatherAtRoot(const std::vector<u64>& mine) const {
    const int my_count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<size_t>(ranks_)), displs(static_cast<size_t>(ranks_));
    MPI_Gather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int q = 0; q < ranks_; ++q) {
      displs[static_cast<size_t>(q)] = total;
      total += counts[static_cast<size_t>(q)];
    }
    std::vector<u64> all(rank_ == 0 ? static_cast<size_t>(total) : 0);
    MPI_Gatherv(mine.data(), my_count, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
                MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return all;
  }

  /// The traffic log and the error events of every rank at rank 0, in the canonical order of
  /// one process (sw/exec/traffic_monitor.h): sends by (cycle, node, port, lane, word), stores by
  /// (cycle, word), error events by (cycle, node, kind).
  void gatherLog(bool root) {
    std::vector<u64> mine;
    mine.reserve(log_.sends.size() * 5);
    for (const TrafficLog::Send& e : log_.sends) {
      mine.insert(mine.end(),
                  {e.cycle, e.node, static_cast<u64>(e.port), e.word, static_cast<u64>(e.lane)});
    }
    const std::vector<u64> sends = gatherAtRoot(mine);
    mine.clear();
    for (const TrafficLog::Store& e : log_.stores) mine.insert(mine.end(), {e.cycle, e.word});
    const std::vector<u64> stores = gatherAtRoot(mine);
    mine.clear();
    for (const HwErrorEvent& e : r_.error_events) {
      mine.insert(mine.end(), {e.cycle, e.node, static_cast<u64>(e.kind)});
    }
    const std::vector<u64> events = gatherAtRoot(mine);
    r_.error_events.clear();
    r_.traffic = TrafficLog{};
    if (!root) return;
    r_.traffic.recorded = true;
    for (size_t e = 0; e + 4 < sends.size(); e += 5) {
      r_.traffic.sends.push_back({sends[e], sends[e + 1], static_cast<int>(sends[e + 2]),
                                  static_cast<u32>(sends[e + 3]), static_cast<int>(sends[e + 4])});
    }
    for (size_t e = 0; e + 1 < stores.size(); e += 2) {
      r_.traffic.stores.push_back({stores[e], static_cast<u32>(stores[e + 1])});
    }
    for (size_t e = 0; e + 2 < events.size(); e += 3) {
      r_.error_events.push_back({events[e], events[e + 1], static_cast<HwError>(events[e + 2])});
    }
    std::sort(r_.traffic.sends.begin(), r_.traffic.sends.end());
    std::sort(r_.traffic.stores.begin(), r_.traffic.stores.end());
    std::sort(r_.error_events.begin(), r_.error_events.end());
  }

  void gather() {
    const bool root = rank_ == 0;
    u64 words = r_.words;
    MPI_Reduce(&words, &r_.words, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    u64 bytes = exchanged_bytes_;
    MPI_Reduce(&bytes, &total_exchanged_, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    // Errors: (node, kind, count) triples, in node order (rank order is node order).
    std::vector<u64> mine;
    for (u64 i = 0; i < nodes_; ++i) {
      for (int k = 0; k < kHwErrorKinds; ++k) {
        const u32 count = seq_.errors(i, k);
        if (count != 0) mine.insert(mine.end(), {base_ + i, static_cast<u64>(k), count});
      }
    }
    const std::vector<u64> all = gatherAtRoot(mine);
    for (size_t e = 0; e + 2 < all.size(); e += 3) {
      r_.errors.push_back({all[e], static_cast<HwError>(all[e + 1]), static_cast<u32>(all[e + 2])});
    }
    if (record_) gatherLog(root);
    // Link words and memories: every rank's block, in rank order.
    const u64 cube = nodes_ << cross_;
    for (u64 i = 0; i < nodes_; ++i) {
      for (size_t port = 0; port < port_words_.size(); ++port)
        link_words_[i * port_words_.size() + port] += port_words_[port];
    }
    if (root) r_.link_words.resize(cube * static_cast<u64>(h_.n));
    MPI_Gather(link_words_.data(), static_cast<int>(link_words_.size()), MPI_UINT64_T,
               r_.link_words.data(), static_cast<int>(link_words_.size()), MPI_UINT64_T, 0,
               MPI_COMM_WORLD);
    r_.memory = {root ? cube : 0, words_, {}};
    if (root) r_.memory.words.resize(cube * words_);
    std::vector<u32> mine_mem;
    takeMemory(mine_mem);
    first_sent_ = {};
    MPI_Gather(mine_mem.data(), static_cast<int>(mine_mem.size()), MPI_UINT32_T,
               r_.memory.words.data(), static_cast<int>(mine_mem.size()), MPI_UINT32_T, 0,
               MPI_COMM_WORLD);
    // Span (Johnsson & Ho 1992, Def. 2, as sw/exec/traffic_monitor.h measures it): for each
    // element, its last store's cycle minus its first send's plus one, if it was stored after it
    // was sent.
    u64 span = 0;
    constexpr u64 kChunk = u64{1} << 20;
    std::vector<u32> first(kChunk), last(kChunk), my_first(kChunk), my_last(kChunk);
    for (u64 w0 = 0; w0 < tagged_; w0 += kChunk) {
      const int len = static_cast<int>(std::min(kChunk, tagged_ - w0));
      for (int w = 0; w < len; ++w) {
        my_first[static_cast<size_t>(w)] = span_[w0 + static_cast<u64>(w)].first;
        my_last[static_cast<size_t>(w)] = span_[w0 + static_cast<u64>(w)].last;
      }
      MPI_Reduce(my_first.data(), first.data(), len, MPI_UINT32_T, MPI_MIN, 0, MPI_COMM_WORLD);
      MPI_Reduce(my_last.data(), last.data(), len, MPI_UINT32_T, MPI_MAX, 0, MPI_COMM_WORLD);
      if (!root) continue;
      for (int w = 0; w < len; ++w) {
        if (first[static_cast<size_t>(w)] == kNotSent || last[static_cast<size_t>(w)] == 0)
          continue;
        const u64 stored = last[static_cast<size_t>(w)] - 1;
        if (stored >= first[static_cast<size_t>(w)]) {
          span = std::max<u64>(span, stored - first[static_cast<size_t>(w)] + 1);
        }
      }
    }
    u64 carried = carried_span_;
    MPI_Reduce(&carried, &carried_span_, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    r_.span = std::max(span, carried_span_);
    g_exchanged_bytes = total_exchanged_;
  }

  const ExecOptions& opt_;
  const int rank_;
  const int ranks_;
  const int cross_;       ///< k: the dimensions between ranks (the top k)
  const int local_dims_;  ///< n - k: the dimensions inside the rank
  const Fault* fault_;
  bool record_ = false;  ///< the traffic log is kept (this rank's sends and stores, gathered)
  TrafficLog log_;
  RunResult r_;
  std::vector<u64> link_words_;
  u64 tagged_ = 0;
  /// Per element: the first cycle this rank sent it, and 1 + the last cycle it stored it (0:
  /// never); side by side, so that a word sent and stored in a cycle costs one cache line.
  struct ElementSpan {
    u32 first;
    u32 last;
  };
  std::vector<ElementSpan> span_;
  std::vector<std::vector<u32>> out_,
      in_;                       ///< per cross-rank dimension: (node * lanes + lane, word)
  std::vector<u64> port_words_;  ///< lockstep cycles: words every node of the rank sent per port
  bool lockstep_ = false;        ///< lockstep steps run as moves (shared table, relative layout)
  bool carried_ = false;         ///< first-send cycles travel with the words (lockstepCycle)
  std::vector<u32> first_sent_;  ///< carried_: per slot of mem_, its word's first-send cycle
  u64 carried_span_ = 0;         ///< carried_: the span of the rank's stores so far
  std::vector<u32> stage_, stage_first_;  ///< a staged lockstep step's rows, read before writes
  /// Lockstep moves across ranks: rings of message slots (a row's words, then with carried_
  /// their first-send cycles), the sends' requests, the arrivals not yet written.
  static constexpr size_t kRing = 64;
  struct Arrival {
    u64 row = 0;    ///< where in mem_ its words go
    u64 cycle = 0;  ///< the cycle it was sent in
    bool busy = false;
    MPI_Request req = MPI_REQUEST_NULL;
  };
  std::vector<u32> send_ring_, recv_ring_;
  std::vector<MPI_Request> send_req_;
  std::vector<Arrival> recv_;
  std::vector<int> pending_of_row_;  ///< per row of mem_ (relative slot): its arrival, or -1
  u64 sends_ = 0, receives_ = 0;
  u64 exchanged_bytes_ = 0;
  u64 total_exchanged_ = 0;
  bool sent_ = false, local_ = false;
};

}  // namespace

NodeRange partitionedNodes(u64 cube_nodes) {
  const u64 ranks = static_cast<u64>(mpiSize());
  if ((ranks & (ranks - 1)) != 0 || ranks > cube_nodes) return {0, cube_nodes};
  const u64 nodes = cube_nodes / ranks;
  return {static_cast<u64>(mpiRank()) * nodes, nodes};
}

RunResult executePartitioned(const TableSet& set, const CubeMemory& initial,
                             const ExecOptions& opt) {
  checkTableShape(set);
  const int ranks = mpiSize();
  const u64 nodes = set.header.nodes();
  if ((ranks & (ranks - 1)) != 0 || static_cast<u64>(ranks) > nodes) {
    throw Error("mpirun -np " + std::to_string(ranks) +
                ": the ranks must be a power of two and at most the cube's " +
                std::to_string(nodes) + " nodes");
  }
  const NodeRange mine = partitionedNodes(nodes);
  if (initial.nodes != nodes && initial.nodes != mine.nodes) {
    throw Error("executor: initial memory has " + std::to_string(initial.nodes) +
                " nodes, the tables are for " + std::to_string(nodes) + " (a rank's part " +
                std::to_string(mine.nodes) + ")");
  }
  const u64 words = (nodes / static_cast<u64>(ranks)) * initial.words_per_node;
  if (words > u64{1} << 30) {
    throw Error("a rank's memory of " + std::to_string(words) +
                " words is more than one MPI message carries; use more ranks");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto started = std::chrono::steady_clock::now();
  RunResult r = PartEngine(set, initial, opt, mpiRank(), ranks).run();
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace hcube
