// hcube testbench: one routed run on the Verilated hc_cube (docs/hardware/router.md).
//
// The router statistics come from the RTL: the cube's stall counter and deadlock flag, each
// router's maximum FIFO occupancy and blocked heads, and the deliveries (with the tag each packet
// carries: source node and message index) seen in every cycle, from which the latencies are
// taken (delivery cycle + 1 - the message's release, as the golden model counts them).
#include "routed_run.h"

#include <verilated.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "aside_monitor.h"
#include "cube_tb.h"
#include "cube_top.h"
#include "exec/traffic_monitor.h"
#include "gtkw.h"
#include "result_file.h"
#include "routed_image.h"
#include "vl_bits.h"

namespace hcube::tb {

int RunRouted(const RoutedRunOptions& opt) {
  const CubeConfig config = CubeConfig::FromBuild();
  const RoutedImage image = ReadRoutedImage(opt.image, config);
  std::ofstream out(opt.out);
  if (!out) throw std::runtime_error(opt.out + ": cannot write the result file");

  const int nodes = config.NumNodes();
  const int n = config.dim;
  uint64_t messages = 0;
  uint64_t last_release = 0;
  uint64_t first_release = ~uint64_t{0};
  // Each message's release cycle and start flag, read out of the image once (a delivery looks
  // them up by its tag: a million times in an n = 10 AAPC).
  std::vector<std::vector<uint64_t>> release(static_cast<size_t>(nodes));
  std::vector<std::vector<uint8_t>> starts(static_cast<size_t>(nodes));
  for (int x = 0; x < nodes; ++x) {
    const RoutedNode& node = image.nodes[static_cast<size_t>(x)];
    messages += node.messages.size();
    release[x].resize(node.messages.size());
    starts[x].resize(node.messages.size());
    for (size_t i = 0; i < node.messages.size(); ++i) {
      release[x][i] = image.Release(config, x, i);
      starts[x][i] = image.Starts(config, x, i) ? 1 : 0;
      last_release = std::max(last_release, release[x][i]);
      first_release = std::min(first_release, release[x][i]);
    }
  }
  // Every message needs at most (hops + waits) cycles, plus its start-up tau (bits [41:32] of
  // the configuration word, docs/hardware/router.md §7); a generous bound that a correct router
  // with a working deadlock detector never reaches.
  const TableWord& cfg = image.nodes.at(0).header.at(0);
  const uint64_t tau = cfg.size() > 1 ? (cfg[1] & 0x3FFU) : 0;
  const uint64_t max_cycles =
      opt.max_cycles ? opt.max_cycles
                     : last_release + (messages + 2) * (static_cast<uint64_t>(2 * n + 4) + tau) +
                           image.deadlock + 16;

  // Before the first release nothing moves: no packet is in flight, no queue head is released,
  // the deadlock detector counts only released work (docs/hardware/router.md §5) and every
  // router's cycle count is the cube's. So the run starts `skip` cycles late, with every release
  // `skip` earlier, and adds `skip` to the cycles it measures, as the table executor and the
  // TLM cube jump over that idle stretch: a release at cycle 2^32 - 1 costs no simulated cycles.
  // (Idle stretches between releases are still simulated cycle by cycle.)
  uint64_t skip = messages == 0 ? 0 : first_release;
  if (opt.max_cycles != 0 && skip >= opt.max_cycles) skip = 0;  // the limit comes first
  const uint64_t tb_max_cycles = max_cycles - skip;

  CubeTb tb(opt.trace, opt.threads);
  tb.Reset();
  // Every node's messages and header through the wide load: one cycle per message index, not
  // one per message (docs/hardware/router.md §11).
  std::vector<std::vector<TableWord>> lists(static_cast<size_t>(nodes));
  for (int x = 0; x < nodes; ++x) {
    lists[x] = image.nodes[static_cast<size_t>(x)].messages;
    if (skip == 0) continue;
    const int lsb = config.ReleaseLsb();
    for (size_t i = 0; i < lists[x].size(); ++i) {
      const uint64_t rel = release[x][i] - skip;
      TableWord& m = lists[x][i];
      for (int b = 0; b < 32; ++b) {
        const int at = lsb + b;
        const uint32_t bit = uint32_t{1} << (at % 32);
        uint32_t& w = m[static_cast<size_t>(at / 32)];
        w = ((rel >> b) & 1U) != 0 ? (w | bit) : (w & ~bit);
      }
    }
  }
  tb.LoadWordsAll(CubeTb::Region::kMessages, lists);
  for (int x = 0; x < nodes; ++x) lists[x] = image.nodes[static_cast<size_t>(x)].header;
  tb.LoadWordsAll(CubeTb::Region::kRouterHeader, lists);
  for (int l = 0; l < config.num_slots; ++l) {
    std::vector<uint32_t> words(static_cast<size_t>(nodes), 0);
    for (int x = 0; x < nodes; ++x) {
      if (l < image.memory) words[static_cast<size_t>(x)] = image.nodes[x].data[l];
    }
    tb.WriteSlot(l, words);
  }

  TrafficMonitor monitor(static_cast<uint64_t>(nodes), n, image.tagged);
  const CubeTop& top = tb.top();
  const int tag_bits = config.TagBits();
  const int depth_bits = config.DepthBits();
  std::vector<uint64_t> latency;  // [l]: messages delivered with latency l
  uint64_t delivered = 0;
  uint64_t startups = 0;  // delivered first words of messages that paid tau
  struct Delivery {
    int node;
    uint64_t index;
    uint64_t cycle;
  };
  std::vector<Delivery> deliveries;  // with image.deliveries
  // The monitor takes a cycle's words aside from the cube (tb/aside_monitor.h); the local
  // copies' stores go with them. The deliveries' tags and latencies are read here.
  AsideMonitor aside(tb, monitor, config.lanes);
  auto each_cycle = [&](uint64_t tb_cycle) {
    const uint64_t cycle = tb_cycle + skip;  // the run's cycle
    std::vector<uint32_t>& copies = aside.Collect();
    for (int x = 0; x < nodes; ++x) {
      const uint64_t dlv = GetBits(top.RtDlv(x), 0, n + 1);
      if (dlv == 0) continue;
      for (int k = 0; k <= n; ++k) {
        if (((dlv >> k) & 1U) == 0) continue;
        const uint64_t tag = GetBits(top.RtDlvTag(x), k * tag_bits, tag_bits);
        const int src = static_cast<int>(tag >> depth_bits);
        const uint64_t index = tag & ((uint64_t{1} << depth_bits) - 1);
        if (src >= nodes || index >= release[src].size()) {
          throw std::runtime_error(opt.image + ": cycle " + std::to_string(cycle) + ", node " +
                                   std::to_string(x) + " delivered a packet tagged with message " +
                                   std::to_string(index) + " of node " + std::to_string(src) +
                                   ", which the image does not have");
        }
        if (release[src][index] > cycle) {
          throw std::runtime_error(
              opt.image + ": cycle " + std::to_string(cycle) + ", node " + std::to_string(x) +
              " delivered message " + std::to_string(index) + " of node " + std::to_string(src) +
              " before its release cycle " + std::to_string(release[src][index]));
        }
        const uint64_t l = cycle + 1 - release[src][index];
        if (l >= latency.size()) latency.resize(l + 1, 0);
        ++latency[l];
        ++delivered;
        if (starts[src][index] != 0) ++startups;
        if (image.deliveries) deliveries.push_back({src, index, cycle});
        if (k == n) copies.push_back(static_cast<uint32_t>(GetBits(top.RtCopyWord(x), 0, 32)));
      }
    }
    aside.Submit(cycle);
  };

  // The trace time of the edge that latches the start pulse (cycle `skip` of the run).
  const uint64_t run_start = kTraceTimePerCycle * (tb.tick_count() + 1);
  const auto t0 = std::chrono::steady_clock::now();
  tb.Start(false);
  RunResult r = tb.RunToDone(tb_max_cycles, each_cycle);
  aside.Finish();  // the monitor has every cycle's words
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // done_o rose at the edge before the one RunToDone clocks after it.
  const uint64_t run_done = kTraceTimePerCycle * (tb.tick_count() - (r.timed_out ? 0 : 1));
  r.cycles += skip;
  r.ticks += skip;
  const bool deadlock = top.rt_deadlock_o != 0;
  const uint64_t stalls = top.rt_stalls_o;
  const std::vector<ErrorCounters> errors = tb.ReadErrorCounters();
  const std::vector<std::vector<uint32_t>> mem = tb.ReadMemories();

  // The hardware error counters of a routed run are its router_errors below, not "hw_errors".
  nlohmann::ordered_json doc =
      ResultHead(r, wall, monitor.span(), monitor.linkWords(), config, image.memory, {});
  // The routed section (docs/hardware/testbench.md §4.1), in the golden model's terms.
  nlohmann::ordered_json routed;
  routed["fifo_depth"] = image.fifo_depth;
  routed["vcs"] = config.vcs;
  routed["messages"] = messages;
  routed["delivered"] = delivered;
  routed["stalls"] = stalls;
  routed["startups"] = startups;
  routed["idle_edges"] = top.idle_edges();
  // Per FIFO f = port * V + VC of each node (docs/hardware/router.md §13; with V = 1 the port).
  const int fifos = config.NumFifos();
  std::vector<uint64_t> max_fifo;
  max_fifo.reserve(static_cast<size_t>(nodes) * static_cast<size_t>(fifos));
  for (int x = 0; x < nodes; ++x) {
    for (int f = 0; f < fifos; ++f) {
      max_fifo.push_back(GetBits(top.RtOccMax(x), f * config.OccBits(), config.OccBits()));
    }
  }
  routed["max_fifo"] = std::move(max_fifo);
  nlohmann::ordered_json histogram = nlohmann::ordered_json::array();
  for (size_t l = 0; l < latency.size(); ++l) {
    if (latency[l] != 0) histogram.push_back({l, latency[l]});
  }
  routed["latency_histogram"] = std::move(histogram);
  if (image.deliveries) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Delivery& d : deliveries) list.push_back({d.node, d.index, d.cycle});
    routed["deliveries"] = std::move(list);
  }
  routed["deadlock"] = deadlock;
  if (deadlock) routed["deadlock_cycle"] = r.cycles - 1;
  nlohmann::ordered_json blocked = nlohmann::ordered_json::array();
  if (deadlock) {
    // The heads k < nV are the FIFOs (port * V + VC), then the injection queues Q_j; the output
    // requested is port * V + VC.
    const int v = config.vcs;
    const int fb = config.FifoBits();
    const int heads = fifos + n;
    for (int x = 0; x < nodes; ++x) {
      const uint64_t valid = GetBits(top.RtHeadValid(x), 0, heads);
      const uint64_t nocred = GetBits(top.RtHeadNoCredit(x), 0, heads);
      for (int k = 0; k < heads; ++k) {
        if (((valid >> k) & 1U) == 0) continue;
        const bool queue = k >= fifos;
        const uint64_t out_fifo = GetBits(top.RtHeadOut(x), k * fb, fb);
        blocked.push_back({{"node", x},
                           {"queue", queue},
                           {"input", queue ? k - fifos : k / v},
                           {"input_vc", queue ? 0 : k % v},
                           {"dst", GetBits(top.RtHeadDst(x), k * n, n)},
                           {"output", out_fifo / static_cast<uint64_t>(v)},
                           {"output_vc", out_fifo % static_cast<uint64_t>(v)},
                           {"no_credit", ((nocred >> k) & 1U) != 0}});
      }
    }
  }
  routed["blocked"] = std::move(blocked);
  nlohmann::ordered_json router_errors = nlohmann::ordered_json::array();
  for (size_t x = 0; x < errors.size(); ++x) {
    const uint64_t lost = errors[x][0];      // "lost": a packet pushed into a full FIFO
    const uint64_t conflict = errors[x][7];  // "conflict": two writes of one slot
    if (lost != 0 || conflict != 0) {
      router_errors.push_back(
          {{"node", x}, {"overflow", lost}, {"lost", lost}, {"conflict", conflict}});
    }
  }
  routed["router_errors"] = std::move(router_errors);
  doc["routed"] = std::move(routed);
  WriteResult(out, doc, mem, image.memory);
  out.close();
  if (!out) throw std::runtime_error(opt.out + ": error writing the result file");
  if (!opt.gtkw.empty()) {
    GtkwRun shown;
    shown.start = run_start;
    shown.done = run_done;
    shown.tag_words = std::min<uint64_t>(
        image.tagged, static_cast<uint64_t>(nodes) * static_cast<uint64_t>(image.slots));
    shown.tag_slots = static_cast<uint64_t>(std::max(1, image.slots));
    shown.routed = true;
    WriteGtkwSave(opt.gtkw, opt.trace, config, shown);
    for (uint64_t i = 0; i < GtkwTailCycles(shown); ++i) tb.Tick();  // results already read
  }
  if (r.timed_out) {
    std::cerr << "hcube-rtl-sim: " << opt.image << ": timeout: not done after " << max_cycles
              << " cycles\n";
  }
  return 0;
}

}  // namespace hcube::tb
