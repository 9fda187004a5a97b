// hcube testbench: a reusable driver of the Verilated hc_cube.
#include "cube_tb.h"

#include <verilated.h>
#ifndef HC_TRACE
#define HC_TRACE 1  // the model was verilated with --trace-fst
#endif
#if HC_TRACE
#include <verilated_fst_c.h>
#else
// A model without tracing has no FST writer (verilated_fst_c.cpp is not built): the testbench's
// trace_ pointer stays null, and this empty class lets it be destroyed.
class VerilatedFstC {};
#endif

#include <climits>
#include <sstream>

#include "cube_top.h"
#include "vl_bits.h"

#if !defined(HC_DIM) || !defined(HC_NUM_SLOTS) || !defined(HC_LANES) || !defined(HC_TABLE_DEPTH)
#error "define HC_DIM, HC_NUM_SLOTS, HC_LANES and HC_TABLE_DEPTH as the RTL was verilated"
#endif
#ifndef HC_WORD_WIDTH
#define HC_WORD_WIDTH 32
#endif
#ifndef HC_THREADS
#define HC_THREADS 1  // Verilator --threads of the model
#endif

namespace hcube::tb {

CubeConfig CubeConfig::FromBuild() {
  CubeConfig c;
  c.dim = HC_DIM;
  c.num_slots = HC_NUM_SLOTS;
  c.lanes = HC_LANES;
  c.word_width = HC_WORD_WIDTH;
  c.table_depth = HC_TABLE_DEPTH;
#ifdef HC_HAS_ROUTER
  c.has_router = HC_HAS_ROUTER != 0;
#endif
#ifdef HC_VCS
  c.vcs = HC_VCS;
#endif
  return c;
}

std::string CubeConfig::Describe() const {
  std::ostringstream os;
  os << "dim " << dim << ", memory " << num_slots << ", lanes " << lanes << ", table-depth "
     << table_depth << ", table-width " << TableWidth();
  if (vcs > 1) os << ", vcs " << vcs;
  return os.str();
}

CubeTb::CubeTb(const std::string& trace_path, int threads)
    : config_(CubeConfig::FromBuild()), context_(std::make_unique<VerilatedContext>()) {
  static_assert(HC_WORD_WIDTH == 32, "the testbench moves 32-bit words");
  // Assertions report each error kind once per node; the run goes on (docs/hardware/checks.md).
  context_->errorLimit(INT_MAX);
  context_->fatalOnError(false);
  // As many threads as the model was built with (the default is one per core, which would start
  // an idle pool thread for a single-threaded model).
  context_->threads(HC_THREADS);
#if HC_TRACE
  if (!trace_path.empty()) context_->traceEverOn(true);
#else
  if (!trace_path.empty()) throw NoTraceError();
#endif
  top_ = std::make_unique<CubeTop>(context_.get(), threads);
#if HC_TRACE
  if (!trace_path.empty()) {
    trace_ = std::make_unique<VerilatedFstC>();
    top_->trace(trace_.get(), 99);
    // Dumps are at 10 * tick (Tick()): with a 1 ns time unit a cycle reads as 10 ns.
    trace_->set_time_unit("1ns");
    trace_->set_time_resolution("1ns");
    trace_->open(trace_path.c_str());
    if (!trace_->isOpen()) throw std::runtime_error(trace_path + ": cannot open trace file");
  }
#endif
}

CubeTb::~CubeTb() {
#if HC_TRACE
  if (trace_) trace_->close();
#endif
  top_->final();
}

bool CubeTb::CanTrace() { return HC_TRACE != 0; }

void CubeTb::Dump(uint64_t time) {
  context_->time(time);
#if HC_TRACE
  if (trace_) trace_->dump(time);
#endif
}

void CubeTb::Tick() {
  ++ticks_;
  top_->clk_i = 0;
  // Settle the inputs changed since the last tick, so that the trace shows them before the
  // edge. Without a trace this eval is skipped: the rising-edge eval evaluates input changes
  // before the edge anyway, and each eval of a big cube costs.
  if (trace_) {
    top_->eval();
    Dump(10 * ticks_ - 2);
  }
  top_->clk_i = 1;
  top_->eval();
  Dump(10 * ticks_);
  top_->clk_i = 0;
  top_->eval();
  Dump(10 * ticks_ + 5);
  for (Hook& hook : hooks_) hook(*this);
}

void CubeTb::Reset(int cycles) {
  top_->one_port_i = 0;
  top_->mac_overlap_i = 0;
  top_->tbl_we_i = 0;
  top_->tbl_bcast_i = 0;
  ClearBits(top_->tbl_node_i);
  ClearBits(top_->tbl_addr_i);
  ClearBits(top_->tbl_wdata_i);
  top_->tbl_wide_i = 0;
  ClearBits(top_->tbl_nodes_i);
  ClearBits(top_->tbl_wide_wdata_i);
  top_->mem_we_i = 0;
  ClearBits(top_->mem_addr_i);
  ClearBits(top_->mem_wdata_i);
  top_->start_i = 0;
  ClearBits(top_->err_node_i);
  top_->flt_en_i = 0;
  ClearBits(top_->flt_node_i);
  ClearBits(top_->flt_chan_i);
  top_->flt_xor_i = 0;
  top_->flt_clr_i = 0;
  top_->flt_set_i = 0;
  top_->flt_kill_i = 0;
  top_->rst_ni = 0;
  for (int i = 0; i < cycles; ++i) Tick();
  top_->rst_ni = 1;
}

void CubeTb::LoadTableBroadcast(const std::vector<TableWord>& table) { LoadTable(-1, table); }

void CubeTb::LoadTable(int node, const std::vector<TableWord>& table) {
  if (static_cast<int>(table.size()) > config_.table_depth) {
    throw std::invalid_argument("LoadTable: " + std::to_string(table.size()) +
                                " words exceed the table depth " +
                                std::to_string(config_.table_depth));
  }
  LoadWords(node, Region::kTable, table);
}

void CubeTb::LoadWords(int node, Region region, const std::vector<TableWord>& words) {
  if (node >= config_.NumNodes()) {
    throw std::invalid_argument("LoadWords: node " + std::to_string(node) + " out of range");
  }
  if (region != Region::kTable && !config_.has_router) {
    throw std::invalid_argument("LoadWords: this model has no routers (HasRouter = 0)");
  }
  const int width = config_.LoadWidth();
  top_->tbl_we_i = 1;
  top_->tbl_bcast_i = node < 0 ? 1 : 0;
  SetBits(top_->tbl_node_i, 0, config_.dim, node < 0 ? 0 : static_cast<uint64_t>(node));
  const int index_bits = config_.LoadIndexBits();
  for (size_t a = 0; a < words.size(); ++a) {
    SetBits(top_->tbl_addr_i, 0, index_bits, a);
    if (config_.has_router) {
      SetBits(top_->tbl_addr_i, index_bits, config_.LoadSelBits(), static_cast<uint64_t>(region));
    }
    for (int lsb = 0; lsb < width; lsb += 32) {
      const size_t i = static_cast<size_t>(lsb / 32);
      SetBits(top_->tbl_wdata_i, lsb, std::min(32, width - lsb),
              i < words[a].size() ? words[a][i] : 0);
    }
    Tick();
  }
  top_->tbl_we_i = 0;
  top_->tbl_bcast_i = 0;
  ClearBits(top_->tbl_addr_i);
  ClearBits(top_->tbl_wdata_i);
}

void CubeTb::LoadWordsAll(Region region, const std::vector<std::vector<TableWord>>& words) {
  const int nodes = config_.NumNodes();
  if (static_cast<int>(words.size()) > nodes) {
    throw std::invalid_argument("LoadWordsAll: " + std::to_string(words.size()) +
                                " lists for a cube of " + std::to_string(nodes) + " nodes");
  }
  if (region != Region::kTable && !config_.has_router) {
    throw std::invalid_argument("LoadWordsAll: this model has no routers (HasRouter = 0)");
  }
  size_t longest = 0;
  for (const std::vector<TableWord>& list : words) longest = std::max(longest, list.size());
  const int width = config_.LoadWidth();
  const int index_bits = config_.LoadIndexBits();
  top_->tbl_we_i = 1;
  top_->tbl_wide_i = 1;
  for (size_t a = 0; a < longest; ++a) {
    SetBits(top_->tbl_addr_i, 0, index_bits, a);
    if (config_.has_router) {
      SetBits(top_->tbl_addr_i, index_bits, config_.LoadSelBits(), static_cast<uint64_t>(region));
    }
    ClearBits(top_->tbl_nodes_i);
    for (size_t x = 0; x < words.size(); ++x) {
      if (a >= words[x].size()) continue;
      SetBits(top_->tbl_nodes_i, static_cast<int>(x), 1, 1);
      const TableWord& w = words[x][a];
      const int base = static_cast<int>(x) * width;
      for (int lsb = 0; lsb < width; lsb += 32) {
        const size_t i = static_cast<size_t>(lsb / 32);
        SetBits(top_->tbl_wide_wdata_i, base + lsb, std::min(32, width - lsb),
                i < w.size() ? w[i] : 0);
      }
    }
    Tick();
  }
  top_->tbl_we_i = 0;
  top_->tbl_wide_i = 0;
  ClearBits(top_->tbl_nodes_i);
  ClearBits(top_->tbl_addr_i);
}

void CubeTb::LoadImage(const Image& image) {
  if (image.broadcast) {
    LoadTableBroadcast(image.tables.at(0));
    return;
  }
  for (size_t x = 0; x < image.tables.size(); ++x) {
    if (static_cast<int>(image.tables[x].size()) > config_.table_depth) {
      throw std::invalid_argument(
          "LoadImage: node " + std::to_string(x) + ": " + std::to_string(image.tables[x].size()) +
          " words exceed the table depth " + std::to_string(config_.table_depth));
    }
  }
  LoadWordsAll(Region::kTable, image.tables);
}

void CubeTb::WriteSlot(int slot, const std::vector<uint32_t>& words) {
  const int w = config_.word_width;
  top_->mem_we_i = 1;
  SetBits(top_->mem_addr_i, 0, config_.SlotBits(), static_cast<uint64_t>(slot));
  for (int x = 0; x < config_.NumNodes(); ++x) {
    SetBits(top_->mem_wdata_i, x * w, w, x < static_cast<int>(words.size()) ? words[x] : 0);
  }
  Tick();
  top_->mem_we_i = 0;
}

std::vector<uint32_t> CubeTb::ReadSlot(int slot) {
  const int w = config_.word_width;
  SetBits(top_->mem_addr_i, 0, config_.SlotBits(), static_cast<uint64_t>(slot));
  top_->eval();
  std::vector<uint32_t> words(config_.NumNodes());
  for (int x = 0; x < config_.NumNodes(); ++x) {
    words[x] = static_cast<uint32_t>(GetBits(top_->mem_rdata_o, x * w, w));
  }
  return words;
}

void CubeTb::FillTags(int data_slots) {
  std::vector<uint32_t> words(config_.NumNodes());
  for (int l = 0; l < config_.num_slots; ++l) {
    for (int x = 0; x < config_.NumNodes(); ++x) {
      words[x] =
          l < data_slots ? static_cast<uint32_t>(static_cast<uint64_t>(x) * data_slots + l) : 0;
    }
    WriteSlot(l, words);
  }
}

std::vector<std::vector<uint32_t>> CubeTb::ReadMemories() {
  std::vector<std::vector<uint32_t>> mem(config_.NumNodes(),
                                         std::vector<uint32_t>(config_.num_slots));
  for (int l = 0; l < config_.num_slots; ++l) {
    const std::vector<uint32_t> words = ReadSlot(l);
    for (int x = 0; x < config_.NumNodes(); ++x) mem[x][l] = words[x];
  }
  return mem;
}

void CubeTb::Start(bool one_port, bool mac_overlap) {
  top_->one_port_i = one_port ? 1 : 0;
  top_->mac_overlap_i = mac_overlap ? 1 : 0;
  top_->start_i = 1;
  Tick();
  top_->start_i = 0;
  // Settle once with start_i low. Tick() settles input changes only when tracing, but the
  // assertions sample hc_cube's signals as the previous eval left them: without this eval they
  // would see start_i still high in the first cycle of the run and miss its errors.
  top_->eval();
}

RunResult CubeTb::RunToDone(uint64_t max_cycles, const CycleHook& each_cycle, bool throw_on_timeout,
                            const CycleHook& after_done) {
  RunResult r;
  while (!top_->done_o) {
    if (r.ticks >= max_cycles) {
      r.timed_out = true;
      break;
    }
    if (each_cycle) each_cycle(r.ticks);
    Tick();
    ++r.ticks;
  }
  // The error counters register the events of a cycle at the edge that ends it; the first
  // cycle with done_o high can still count a `dropped` word, so clock one more edge (the cycle
  // counters no longer move once every node is done).
  if (!r.timed_out) {
    if (after_done) after_done(r.ticks);
    Tick();
  }
  r.cycles = top_->cycles_o;
  r.transfer_cycles = top_->xfer_cycles_o;
  r.words = top_->words_o;
  r.local_cycles = top_->local_cycles_o;
  r.mac_cycles = top_->mac_cycles_o;
  if (r.timed_out && throw_on_timeout) {
    throw TimeoutError("hc_cube did not finish within " + std::to_string(max_cycles) +
                       " cycles after start");
  }
  return r;
}

void CubeTb::ForEachWord(const SentFn& sent, const StoredFn& stored) {
  CycleTraffic t;
  CollectWords(t);
  for (const CycleTraffic::Sent& e : t.sent) sent(e.node, e.chan, e.word);
  for (const CycleTraffic::Stored& e : t.stored) stored(e.node, e.chan, e.word);
}

void CubeTb::RunAside(std::function<bool()> step) { top_->RunAside(std::move(step)); }

void CubeTb::WaitAside() { top_->WaitAside(); }

void CubeTb::CollectWords(CycleTraffic& out) {
  out.sent.clear();
  out.stored.clear();
  // What each node sends and stores (the flat model's public arrays node_out_valid,
  // node_out_data, node_store; the node-array model's node ports). Words are 32 bits: channel c's
  // word is word c of the data vector.
  const int chans = config_.NumChans();
  for (int x = 0; x < config_.NumNodes(); ++x) {
    const auto& data = top_->OutData(x);
    for (int base = 0; base < chans; base += 64) {
      const int n = std::min(64, chans - base);
      for (uint64_t v = GetBits(top_->OutValid(x), base, n); v != 0; v &= v - 1) {
        const int c = base + __builtin_ctzll(v);
        out.sent.push_back({x, c, GetWord(data, c)});
      }
      for (uint64_t st = GetBits(top_->Store(x), base, n); st != 0; st &= st - 1) {
        const int c = base + __builtin_ctzll(st);
        const int from = x ^ (1 << (c / config_.lanes));  // the word comes from the neighbour
        out.stored.push_back({x, c, GetWord(top_->OutData(from), c)});
      }
    }
  }
}

void CubeTb::SetFault(int node, int chan, uint32_t xor_bits, uint32_t clear_bits, uint32_t set_bits,
                      bool kill) {
  if (node < 0 || node >= config_.NumNodes() || chan < 0 || chan >= config_.NumChans()) {
    throw std::invalid_argument("SetFault: node " + std::to_string(node) + " channel " +
                                std::to_string(chan) + " out of range");
  }
  top_->flt_en_i = 1;
  SetBits(top_->flt_node_i, 0, config_.dim, static_cast<uint64_t>(node));
  SetBits(top_->flt_chan_i, 0, CubeConfig::Bits(config_.NumChans()), static_cast<uint64_t>(chan));
  top_->flt_xor_i = xor_bits;
  top_->flt_clr_i = clear_bits;
  top_->flt_set_i = set_bits;
  top_->flt_kill_i = kill ? 1 : 0;
}

void CubeTb::ClearFault() {
  top_->flt_en_i = 0;
  top_->flt_xor_i = 0;
  top_->flt_clr_i = 0;
  top_->flt_set_i = 0;
  top_->flt_kill_i = 0;
}

void CubeTb::CollectErrorEvents(std::vector<ErrorEvent>& out) {
  out.clear();
  for (int x = 0; x < config_.NumNodes(); ++x) {
    const uint64_t e = GetBits(top_->ErrEvent(x), 0, kNumErrorKinds);
    for (int k = 0; k < kNumErrorKinds && (e >> k) != 0; ++k) {
      if ((e >> k) & 1U) out.push_back({x, k});
    }
  }
}

std::vector<ErrorCounters> CubeTb::ReadErrorCounters() {
  std::vector<ErrorCounters> all(config_.NumNodes());
  // err_any_o ORs every node's "counter non-zero": when it is 0 every counter is, and the
  // N evals of the readout (each a full evaluation of the cube) are not needed.
  if (ErrorSummary() == 0) return all;
  for (int x = 0; x < config_.NumNodes(); ++x) {
    SetBits(top_->err_node_i, 0, config_.dim, static_cast<uint64_t>(x));
    top_->eval();
    for (int k = 0; k < kNumErrorKinds; ++k) {
      all[x][k] = static_cast<uint16_t>(GetBits(top_->err_count_o, 16 * k, 16));
    }
  }
  return all;
}

uint32_t CubeTb::ErrorSummary() {
  top_->eval();
  return top_->err_any_o;
}

}  // namespace hcube::tb
