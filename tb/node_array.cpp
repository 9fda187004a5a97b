// hcube testbench: the node-array model of hc_cube (see node_array.h).
#include "node_array.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "cube_tb.h"
#include "vl_bits.h"

namespace hcube::tb {

namespace {

// Writes word i of a port; returns whether it changed.
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
bool SetWord(T& port, int i, uint32_t value) {
  const uint64_t mask = uint64_t{0xFFFFFFFFU} << (32 * i);
  const uint64_t old = static_cast<uint64_t>(port);
  const uint64_t now = (old & ~mask) | ((static_cast<uint64_t>(value) << (32 * i)) & mask);
  port = static_cast<T>(now);
  return static_cast<uint64_t>(port) != old;
}
template <std::size_t N>
bool SetWord(VlWide<N>& port, int i, uint32_t value) {
  uint32_t& w = port[static_cast<std::size_t>(i)];
  const bool changed = w != value;
  w = value;
  return changed;
}

// Assigns src to dst (same type); returns whether dst changed.
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
bool Assign(T& dst, const T& src) {
  const bool changed = dst != src;
  dst = src;
  return changed;
}
template <std::size_t N>
bool Assign(VlWide<N>& dst, const VlWide<N>& src) {
  bool changed = false;
  for (std::size_t i = 0; i < N; ++i) {
    changed |= dst[i] != src[i];
    dst[i] = src[i];
  }
  return changed;
}

// Writes bits [lsb +: width] of a port; returns whether they changed.
template <typename T>
bool SetField(T& port, int lsb, int width, uint64_t value) {
  const uint64_t old = GetBits(port, lsb, width);
  if (old == (value & LowMask(width))) return false;
  SetBits(port, lsb, width, value);
  return true;
}

// Copies 32-bit words [first, first + count) of src into dst; returns whether dst changed (the
// router's link packets: port d's packet starts on a word, hc_pkg::hc_pkt_stride, at the same
// place in the sender's output and the receiver's input).
template <std::size_t N>
bool CopyWords(VlWide<N>& dst, const VlWide<N>& src, int first, int count) {
  uint32_t diff = 0;
  for (int i = first; i < first + count; ++i) {
    diff |= dst[static_cast<std::size_t>(i)] ^ src[static_cast<std::size_t>(i)];
    dst[static_cast<std::size_t>(i)] = src[static_cast<std::size_t>(i)];
  }
  return diff != 0;
}
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
bool CopyWords(T& dst, const T& src, int first, int count) {
  return SetField(dst, 32 * first, 32 * count, GetBits(src, 32 * first, 32 * count));
}

// Copies bits [src_lsb +: width] of src into dst starting at bit 0, 32 bits at a time.
template <typename D, typename S>
void CopyBits(D& dst, const S& src, int src_lsb, int width) {
  for (int done = 0; done < width; done += 32) {
    const int n = std::min(32, width - done);
    SetBits(dst, done, n, GetBits(src, src_lsb + done, n));
  }
}

// Writes fields one after the other into a port, from bit 0 up: each 32-bit word is written
// once, whole (PackSummaries fills the controller's per-node vectors this way).
template <typename T>
class Packer {
 public:
  explicit Packer(T& port) : port_(port) {}
  void Put(uint64_t value, int width) {
    acc_ |= (value & LowMask(width)) << fill_;
    fill_ += width;
    while (fill_ >= 32) {
      SetWord(port_, word_++, static_cast<uint32_t>(acc_));
      acc_ >>= 32;
      fill_ -= 32;
    }
  }
  void Flush() {
    if (fill_ > 0) SetWord(port_, word_, static_cast<uint32_t>(acc_));
  }

 private:
  T& port_;
  uint64_t acc_ = 0;  // bits not yet written (fill_ < 32 of them between calls)
  int fill_ = 0;
  int word_ = 0;
};

constexpr CubeConfig kCfg = NodeArrayCube::kBuild;
constexpr int kChans = kCfg.NumChans();
constexpr int kLanes = kCfg.lanes;
constexpr int kErrKinds = kNumErrorKinds;  // cube_tb.h, hc_pkg::NumErrKinds
// hc_pkg::hc_pkt_stride: the words of a router link packet's place on the rt_pkt ports
// (docs/hardware/router.md §11, §13).
constexpr int kPktWords = kCfg.PktStride() / 32;
// hc_pkg::hc_stall_bits: a node's per-cycle stall count.
constexpr int kStallBits = kCfg.StallBits();
// Virtual channels per link (docs/hardware/router.md §13): port d's credit wires are bits d*V ..
// d*V + V - 1.
constexpr int kVcs = kCfg.vcs;

}  // namespace

// A pool of worker threads that run one function over node ranges, the caller taking the
// first range. Spinning, not sleeping: a cycle of a big cube is a few hundred microseconds and
// the workers are needed in every one of its phases; after kSpins polls a waiting thread yields
// its core, so that a machine with fewer free cores than threads still makes progress.
struct NodeArrayCube::Worker {
  static constexpr int kSpins = 1 << 14;

  // One poll of a spin wait: a pause (which leaves the core's resources to a thread sharing it),
  // or after kSpins polls a yield.
  static void Relax(int spins) {
    if (spins > kSpins) {
      std::this_thread::yield();
    } else {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }

  explicit Worker(int threads) : count(threads) {
    for (int t = 1; t < threads; ++t) {
      pool.emplace_back([this, t] { Loop(t); });
    }
    if (threads > 1) {
      // One thread per core (as many as there are): two spinning threads that the scheduler
      // leaves on one core take turns instead of running side by side.
      const int cores = static_cast<int>(std::thread::hardware_concurrency());
      if (cores > 1) {
        Pin(pthread_self(), 0 % cores);
        for (int t = 1; t < threads; ++t) Pin(pool[t - 1].native_handle(), t % cores);
      }
    }
  }
  static void Pin(pthread_t thread, int core) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    pthread_setaffinity_np(thread, sizeof set, &set);  // best effort: unpinned if refused
  }
  ~Worker() {
    stop.store(true, std::memory_order_release);
    generation.fetch_add(1, std::memory_order_acq_rel);
    for (std::thread& th : pool) th.join();
  }
  void Run(const std::function<void(int, int)>& fn, int total) {
    if (count == 1 || total <= 32) {
      fn(0, total);
      return;
    }
    job = &fn;
    job_total = total;
    pending.store(count - 1, std::memory_order_release);
    generation.fetch_add(1, std::memory_order_acq_rel);
    Range(0, total, fn);
    for (int spins = 0; pending.load(std::memory_order_acquire) != 0; ++spins) {
      if (!StepAside()) Relax(spins);
    }
  }

  // The aside job (NodeArrayCube::RunAside): state 1 while it is not finished; whoever holds
  // aside_lock may call its step.
  void SubmitAside(std::function<bool()> step) {
    WaitAside();
    if (count == 1) {
      while (!step()) {
      }
      return;
    }
    aside = std::move(step);
    aside_state.store(1, std::memory_order_release);
  }
  void WaitAside() {
    for (int spins = 0; aside_state.load(std::memory_order_acquire) != 0; ++spins) {
      if (!StepAside()) Relax(spins);
    }
  }
  // Does one step of the aside job if there is one and no other thread is doing one; returns
  // whether it did.
  bool StepAside() {
    if (aside_state.load(std::memory_order_acquire) == 0) return false;
    if (aside_lock.exchange(true, std::memory_order_acquire)) return false;
    const bool did = aside_state.load(std::memory_order_relaxed) != 0;
    if (did && aside()) {
      aside = nullptr;
      aside_state.store(0, std::memory_order_release);
    }
    aside_lock.store(false, std::memory_order_release);
    return did;
  }
  void Range(int t, int total, const std::function<void(int, int)>& fn) const {
    // Ranges of whole 32-node blocks, so that two threads never write one 32-bit word of the
    // controller's per-node vectors.
    const int blocks = (total + 31) / 32;
    const int lo = std::min(total, 32 * (blocks * t / count));
    const int hi = std::min(total, 32 * (blocks * (t + 1) / count));
    if (lo < hi) fn(lo, hi);
  }
  void Loop(int t) {
    uint64_t seen = 0;
    for (;;) {
      uint64_t g;
      for (int spins = 0; (g = generation.load(std::memory_order_acquire)) == seen; ++spins) {
        if (StepAside()) {
          spins = 0;
        } else {
          Relax(spins);
        }
      }
      seen = g;
      if (stop.load(std::memory_order_acquire)) return;
      Range(t, job_total, *job);
      pending.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  int count;
  std::vector<std::thread> pool;
  std::atomic<uint64_t> generation{0};
  std::atomic<int> pending{0};
  std::atomic<bool> stop{false};
  const std::function<void(int, int)>* job = nullptr;
  int job_total = 0;
  std::function<bool()> aside;
  std::atomic<int> aside_state{0};
  std::atomic<bool> aside_lock{false};
};

template <typename Fn>
void NodeArrayCube::ParallelFor(Fn&& fn) {
  const std::function<void(int, int)> f = std::forward<Fn>(fn);
  workers_->Run(f, kNodes);
}

NodeArrayCube::NodeArrayCube(VerilatedContext* context, int threads)
    : dirty_(kNodes, 1), evaluated_(kNodes, 1), clk_low_(kNodes, 0), skip_(kNodes, 0) {
  if (threads < 1) threads = 1;
  // HCUBE_EVERY_EDGE=1 clocks idle routed nodes too (the check that skipping them changes
  // nothing: tests/router_rtl_test.cpp).
  const char* every = std::getenv("HCUBE_EVERY_EDGE");
  skip_idle_ = every == nullptr || std::string(every) != "1";
  load_width_ = kCfg.LoadWidth();
  nodes_.reserve(kNodes);
  for (int x = 0; x < kNodes; ++x) {
    nodes_.push_back(std::make_unique<Vhc_node>(
        context, ("TOP.hc_cube.g_node[" + std::to_string(x) + "].u_node").c_str()));
    SetBits(nodes_.back()->node_id_i, 0, kDim, static_cast<uint64_t>(x));
  }
  ctl_ = std::make_unique<Vhc_cube_ctl>(context, "TOP.hc_cube.u_ctl");
  workers_ = std::make_unique<Worker>(threads);
}

NodeArrayCube::~NodeArrayCube() = default;

void NodeArrayCube::RunAside(std::function<bool()> step) { workers_->SubmitAside(std::move(step)); }

void NodeArrayCube::WaitAside() { workers_->WaitAside(); }

void NodeArrayCube::final() {
  for (auto& n : nodes_) n->final();
  ctl_->final();
}

void NodeArrayCube::ApplyPins() {
  // The shared inputs: every node the same value, so node 0 tells whether they changed.
  {
    const Vhc_node& n0 = node(0);
    const bool shared = n0.rst_ni != rst_ni || n0.one_port_i != one_port_i ||
                        n0.mac_overlap_i != mac_overlap_i || n0.tbl_addr_i != tbl_addr_i ||
                        n0.mem_we_i != mem_we_i || n0.mem_addr_i != mem_addr_i ||
                        n0.start_i != start_i;
    if (shared) {
      for (int x = 0; x < kNodes; ++x) {
        Vhc_node& n = node(x);
        n.rst_ni = rst_ni;
        n.one_port_i = one_port_i;
        n.mac_overlap_i = mac_overlap_i;
        n.tbl_addr_i = tbl_addr_i;
        n.mem_we_i = mem_we_i;
        n.mem_addr_i = mem_addr_i;
        n.start_i = start_i;
        dirty_[x] = 1;
      }
      any_dirty_ = true;
    }
  }
  // The load port (hc_cube g_node: tbl_we, tbl_wdata) and the scan port's data, per node. A
  // node's load word and scan word are read only while its write enable is high, so they are
  // copied then.
  const uint64_t node_sel = GetBits(tbl_node_i, 0, kDim);
  // (In a run both write enables are low and this loop changes nothing; skipping it then made
  // n = 10 runs 15 % slower, measured: touching every node here brings it into the caches
  // before the evaluations do.)
  for (int x = 0; x < kNodes; ++x) {
    Vhc_node& n = node(x);
    const bool we = tbl_we_i != 0 &&
                    (tbl_wide_i != 0 ? GetBits(tbl_nodes_i, x, 1) != 0
                                     : (tbl_bcast_i != 0 || node_sel == static_cast<uint64_t>(x)));
    bool changed = Assign(n.tbl_we_i, static_cast<CData>(we ? 1 : 0));
    if (we) {
      std::remove_reference_t<decltype(n.tbl_wdata_i)> w{};
      if (tbl_wide_i != 0) {
        CopyBits(w, tbl_wide_wdata_i, x * load_width_, load_width_);
      } else {
        w = tbl_wdata_i;
      }
      changed |= Assign(n.tbl_wdata_i, w);
    }
    if (mem_we_i != 0) {
      changed |= Assign(n.mem_wdata_i, static_cast<IData>(GetWord(mem_wdata_i, x)));
    }
    if (changed) {
      dirty_[x] = 1;
      any_dirty_ = true;
    }
  }
  // The controller's inputs from the pins.
  Vhc_cube_ctl& c = *ctl_;
  bool changed = Assign(c.rst_ni, rst_ni);
  changed |= Assign(c.start_i, start_i);
  changed |= Assign(c.flt_en_i, flt_en_i);
  changed |= Assign(c.flt_node_i, flt_node_i);
  changed |= Assign(c.flt_chan_i, flt_chan_i);
  changed |= Assign(c.flt_xor_i, flt_xor_i);
  changed |= Assign(c.flt_clr_i, flt_clr_i);
  changed |= Assign(c.flt_set_i, flt_set_i);
  changed |= Assign(c.flt_kill_i, flt_kill_i);
  if constexpr (kCfg.has_router) {
    // hc_cube g_rt_limit: the router configuration word (region 2, address 0) carries the
    // deadlock limit in bits [31:16]; a wide load takes node 0's word.
    const int index_bits = kCfg.LoadIndexBits();
    const bool cfg_we = tbl_we_i != 0 && GetBits(tbl_addr_i, 0, index_bits) == 0 &&
                        GetBits(tbl_addr_i, index_bits, 2) == 2;
    const uint64_t limit =
        tbl_wide_i != 0 ? GetBits(tbl_wide_wdata_i, 16, 16) : GetBits(tbl_wdata_i, 16, 16);
    changed |= Assign(c.rt_limit_we_i, static_cast<CData>(cfg_we ? 1 : 0));
    changed |= Assign(c.rt_limit_i, static_cast<SData>(limit));
  }
  if (changed) ctl_dirty_ = true;
}

// What a node gives its neighbours (hc_cube's links and router links): whether an evaluation
// changed it decides whether the neighbours' inputs need refreshing.
struct NodeArrayCube::LinkOutputs {
  std::remove_reference_t<decltype(Vhc_node::out_valid_o)> valid;
  std::remove_reference_t<decltype(Vhc_node::out_data_o)> data;
  // The router's links exist only in a model built with the router (a table-mode model's are
  // constant, and comparing their 1,660 bits at n = 10 cost about 5 % of a run).
  std::remove_reference_t<decltype(Vhc_node::rt_pkt_o)> pkt;
  std::remove_reference_t<decltype(Vhc_node::rt_credit_o)> credit;

  explicit LinkOutputs(const Vhc_node& n) : valid(n.out_valid_o), data(n.out_data_o) {
    if constexpr (kCfg.has_router) {
      pkt = n.rt_pkt_o;
      credit = n.rt_credit_o;
    }
  }
  bool Same(const Vhc_node& n) const {  // (VlWide has != only)
    if (valid != n.out_valid_o || data != n.out_data_o) return false;
    if constexpr (kCfg.has_router) return !(pkt != n.rt_pkt_o) && !(credit != n.rt_credit_o);
    return true;
  }
};

void NodeArrayCube::EvalDirty(int lo, int hi) {
  for (int x = lo; x < hi; ++x) {
    if (dirty_[x] == 0) {
      evaluated_[x] = 0;
      continue;
    }
    Vhc_node& n = *nodes_[x];
    const LinkOutputs before(n);
    n.eval();
    dirty_[x] = 0;
    evaluated_[x] = before.Same(n) ? 0 : 1;
    clk_low_[x] = 1;
  }
}

void NodeArrayCube::PackSummaries() {
  Vhc_cube_ctl& c = *ctl_;
  Packer done(c.node_done_i);
  Packer permute(c.node_permute_i);
  Packer mac(c.node_mac_i);
  Packer valid(c.node_out_valid_i);
  Packer event(c.node_err_event_i);
  Packer flags(c.node_err_flags_i);
  for (int x = 0; x < kNodes; ++x) {
    const Vhc_node& n = node(x);
    done.Put(n.done_o, 1);
    permute.Put(n.permute_o, 1);
    mac.Put(n.mac_o, 1);
    for (int base = 0; base < kChans; base += 32) {
      const int w = std::min(32, kChans - base);
      valid.Put(GetBits(n.out_valid_o, base, w), w);
    }
    event.Put(GetBits(n.err_event_o, 0, kErrKinds), kErrKinds);
    flags.Put(GetBits(n.err_flags_o, 0, kErrKinds), kErrKinds);
  }
  done.Flush();
  permute.Flush();
  mac.Flush();
  valid.Flush();
  event.Flush();
  flags.Flush();
  if constexpr (kCfg.has_router) {
    Packer work(c.node_rt_work_i);
    Packer moved(c.node_rt_moved_i);
    Packer stalls(c.node_rt_stalls_i);
    for (int x = 0; x < kNodes; ++x) {
      const Vhc_node& n = node(x);
      work.Put(n.rt_work_o, 1);
      moved.Put(n.rt_moved_o, 1);
      stalls.Put(GetBits(n.rt_stalls_o, 0, kStallBits), kStallBits);
    }
    work.Flush();
    moved.Flush();
    stalls.Flush();
  }
}

void NodeArrayCube::Propagate(int lo, int hi) {
  const Vhc_cube_ctl& c = *ctl_;
  using ValidT = std::remove_reference_t<decltype(Vhc_node::in_valid_i)>;
  for (int x = lo; x < hi; ++x) {
    // Only a neighbour whose link outputs an evaluation changed since the last propagation has
    // anything new for x.
    bool near = ctl_outputs_changed_;
    for (int d = 0; d < kDim && !near; ++d) near = evaluated_[x ^ (1 << d)] != 0;
    if (!near) continue;
    Vhc_node& n = node(x);
    bool changed = false;
    // The links (hc_cube `links`): port d's lanes from the neighbour across dimension d.
    if constexpr (std::is_integral_v<ValidT>) {
      uint64_t v = 0;
      for (int d = 0; d < kDim; ++d) {
        const uint64_t lanes = LowMask(kLanes) << (d * kLanes);
        v |= static_cast<uint64_t>(node(x ^ (1 << d)).out_valid_o) & lanes;
      }
      changed |= Assign(n.in_valid_i, static_cast<ValidT>(v));
    } else {
      for (int d = 0; d < kDim; ++d) {
        const Vhc_node& m = node(x ^ (1 << d));
        changed |=
            SetField(n.in_valid_i, d * kLanes, kLanes, GetBits(m.out_valid_o, d * kLanes, kLanes));
      }
    }
    for (int d = 0; d < kDim; ++d) {
      if (evaluated_[x ^ (1 << d)] == 0) continue;  // x has its link outputs already
      const Vhc_node& m = node(x ^ (1 << d));
      for (int l = 0; l < kLanes; ++l) {
        const int ch = d * kLanes + l;
        changed |= SetWord(n.in_data_i, ch, GetWord(m.out_data_o, ch));
      }
      if constexpr (kCfg.has_router) {
        // g_rt_link: router port d's packet and credits (one per VC).
        changed |= CopyWords(n.rt_pkt_i, m.rt_pkt_o, d * kPktWords, kPktWords);
        changed |= SetField(n.rt_credit_i, d * kVcs, kVcs, GetBits(m.rt_credit_o, d * kVcs, kVcs));
      }
    }
    // The controller's fault registers and halt (the same for every node).
    if (ctl_outputs_changed_) {
      changed |= Assign(n.flt_en_i, c.flt_en_q_o);
      changed |= Assign(n.flt_node_i, c.flt_node_q_o);
      changed |= Assign(n.flt_chan_i, c.flt_chan_q_o);
      changed |= Assign(n.flt_xor_i, c.flt_xor_q_o);
      changed |= Assign(n.flt_clr_i, c.flt_clr_q_o);
      changed |= Assign(n.flt_set_i, c.flt_set_q_o);
      changed |= Assign(n.flt_kill_i, c.flt_kill_q_o);
      changed |= Assign(n.rt_halt_i, c.rt_halt_o);
    }
    if (changed) dirty_[x] = 1;
  }
}

void NodeArrayCube::NoteControllerOutputs() {
  // Whether what the controller gives every node differs from what node 0 has now.
  const Vhc_cube_ctl& c = *ctl_;
  const Vhc_node& n = node(0);
  ctl_outputs_changed_ = n.flt_en_i != c.flt_en_q_o || n.flt_node_i != c.flt_node_q_o ||
                         n.flt_chan_i != c.flt_chan_q_o || n.flt_xor_i != c.flt_xor_q_o ||
                         n.flt_clr_i != c.flt_clr_q_o || n.flt_set_i != c.flt_set_q_o ||
                         n.flt_kill_i != c.flt_kill_q_o || n.rt_halt_i != c.rt_halt_o;
}

void NodeArrayCube::Settle() {
  for (int round = 0; any_dirty_ || ctl_dirty_; ++round) {
    if (round > 4 * kNodes + 16) {
      throw std::runtime_error("NodeArrayCube: the cube does not settle (a combinational loop)");
    }
    if (any_dirty_) {
      ParallelFor([this](int lo, int hi) { EvalDirty(lo, hi); });
      any_dirty_ = false;
      ctl_dirty_ = true;
    } else {
      std::fill(evaluated_.begin(), evaluated_.end(), 0);  // no node has new outputs
    }
    PackSummaries();
    ctl_->eval();
    ctl_dirty_ = false;
    NoteControllerOutputs();
    ParallelFor([this](int lo, int hi) { Propagate(lo, hi); });
    for (int x = 0; x < kNodes && !any_dirty_; ++x) any_dirty_ = dirty_[x] != 0;
  }
}

void NodeArrayCube::ClockEdge() {
  // A routed node whose edge changes none of its flip-flops (rt_idle_o, docs/hardware/router.md
  // §14) is not clocked: its outputs hold, so nothing else changes either. Its last evaluation saw
  // its present inputs (Settle evaluated every node whose inputs changed), so the flag is current.
  if constexpr (kCfg.has_router) {
    if (skip_idle_) {
      for (int x = 0; x < kNodes; ++x) {
        skip_[x] = node(x).rt_idle_o != 0 ? 1 : 0;
        idle_edges_ += skip_[x];
      }
    }
  }
  // Every node must have seen clk_i low since its last edge, or Verilator sees no edge now.
  for (int x = 0; x < kNodes; ++x) {
    if (kCfg.has_router && skip_[x] != 0) continue;
    if (clk_low_[x] == 0) {
      nodes_[x]->clk_i = 0;
      dirty_[x] = 1;
      any_dirty_ = true;
    }
  }
  // Settle propagated every change it made; what is flagged from here on is new.
  std::fill(evaluated_.begin(), evaluated_.end(), 0);
  if (any_dirty_) {
    ParallelFor([this](int lo, int hi) { EvalDirty(lo, hi); });
    any_dirty_ = false;
  }
  ParallelFor([this](int lo, int hi) {
    for (int x = lo; x < hi; ++x) {
      if (kCfg.has_router && skip_[x] != 0) continue;
      Vhc_node& n = *nodes_[x];
      const LinkOutputs before(n);
      n.clk_i = 1;
      n.eval();
      // Low again without an evaluation: the next evaluation (the settling below, or the next
      // edge's) sees it; the registers hold until the next rising edge.
      n.clk_i = 0;
      clk_low_[x] = 0;
      if (!before.Same(n)) evaluated_[x] = 1;  // (or flagged by the low evaluation above)
    }
  });
  ctl_->clk_i = 1;
  ctl_->eval();
  ctl_->clk_i = 0;
  ctl_dirty_ = true;
  // Every node's outputs are new: propagate them all (the controller's after it settles).
  ctl_outputs_changed_ = false;
  ParallelFor([this](int lo, int hi) { Propagate(lo, hi); });
  for (int x = 0; x < kNodes && !any_dirty_; ++x) any_dirty_ = dirty_[x] != 0;
}

void NodeArrayCube::GatherOutputs() {
  const Vhc_cube_ctl& c = *ctl_;
  done_o = c.done_o;
  cycles_o = c.cycles_o;
  xfer_cycles_o = c.xfer_cycles_o;
  words_o = c.words_o;
  local_cycles_o = c.local_cycles_o;
  mac_cycles_o = c.mac_cycles_o;
  err_any_o = c.err_any_o;
  rt_stalls_o = c.rt_stalls_o;
  rt_deadlock_o = c.rt_deadlock_o;
  err_count_o = node(static_cast<int>(GetBits(err_node_i, 0, kDim))).err_count_o;
  for (int x = 0; x < kNodes; ++x) SetWord(mem_rdata_o, x, node(x).mem_rdata_o);
}

void NodeArrayCube::eval() {
  ApplyPins();
  const bool rise = clk_i != 0 && last_clk_ == 0;
  last_clk_ = clk_i;
  if (rise) {
    Settle();
    ClockEdge();
  }
  Settle();
  GatherOutputs();
}

}  // namespace hcube::tb
