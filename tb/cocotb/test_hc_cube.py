"""cocotb tests of hc_cube, the RTL cube, driven the way a user's own testbench drives it.

Table mode: the table image `hcube tables` wrote (docs/hardware/node.md §3) goes in through the
load port, tag x*K + l into slot l < K of node x (zero above) through the memory scan port, a
start pulse, then the simulator runs on its own until done_o (no Python in the cycles of the run).
The counters, the error counters of every node and the final memories are compared with what
`hcube run --json` of the same case reports (memory_digest, cycles, transfer_cycles, words,
local_cycles, hw_errors).

Routed mode (docs/hardware/router.md §11): the routed image `hcube messages --routed-image` wrote
goes in as tb/routed_run.cpp loads it — every node's message words (load region 1), then its
router header (region 2, whose configuration word switches the node to routed mode), the image's
initial memory through the scan port — then a start pulse and the run until done_o. The
counters, the stall sum, the deadlock flag, the router's error counters (lost, conflict) and the
final memories (all 2K words) are compared with `hcube run --route R --json` of the same case.

run.py builds the cube and passes the cases in HCUBE_COCOTB_CASES (a JSON list of
{"name", "mode", "image", "expect"}); every case is one cocotb test.
"""
import json
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import First, ReadOnly, RisingEdge, Timer

CASES = json.loads(os.environ.get('HCUBE_COCOTB_CASES', '[]'))
WORD = 32
PERIOD_NS = 10
# checks.md: the error kinds, in the order of err_count_o's 16-bit fields.
ERROR_KINDS = ('lost', 'nodata', 'fwd', 'slot', 'overrun', 'oneport', 'illegal', 'conflict',
               'dropped', 'overlap')
ERR_COUNT_BITS = 16


def read_image(path):
    """The table image: its header (dict) and its tables, {'*': words} or {node: words}."""
    header, tables = {}, {}
    with open(path) as f:
        lines = [ln.split('#', 1)[0].strip() for ln in f]
    lines = [ln for ln in lines if ln]
    if not lines or lines[0] != 'hcube-image 1':
        raise ValueError(f'{path}: not an hcube table image')
    i = 1
    while i < len(lines) and lines[i] != 'end':
        key, _, value = lines[i].partition(' ')
        if key == 'table':
            node, count = value.split()
            words = [int(w, 16) for w in lines[i + 1:i + 1 + int(count)]]
            tables['*' if node == '*' else int(node)] = words
            i += 1 + int(count)
        else:
            header[key] = value
            i += 1
    return header, tables


def memory_digest(nodes, words_per_node, memories):
    """sw/inspect/report.cpp memoryDigest: FNV-1a over the node count, the words per node and every
    word, little-endian bytes."""
    h = 0xcbf29ce484222325

    def mix(v, nbytes):
        nonlocal h
        for i in range(nbytes):
            h ^= (v >> (8 * i)) & 0xFF
            h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF

    mix(nodes, 8)
    mix(words_per_node, 8)
    for mem in memories:
        for w in mem:
            mix(w, 4)
    return f'fnv1a64:{h:016x}'


async def reset(dut):
    for name in ('one_port_i', 'mac_overlap_i', 'tbl_we_i', 'tbl_bcast_i', 'tbl_node_i',
                 'tbl_addr_i', 'tbl_wdata_i', 'tbl_wide_i', 'tbl_nodes_i', 'tbl_wide_wdata_i',
                 'mem_we_i', 'mem_addr_i', 'mem_wdata_i', 'start_i', 'err_node_i', 'flt_en_i',
                 'flt_node_i', 'flt_chan_i', 'flt_xor_i', 'flt_clr_i', 'flt_set_i', 'flt_kill_i'):
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    Clock(dut.clk_i, PERIOD_NS, unit='ns').start(start_high=False)
    for _ in range(2):
        await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await RisingEdge(dut.clk_i)


async def load_tables(dut, tables):
    """The load port: a `table *` image by broadcast writes, a per-node image node by node; one
    word per cycle."""
    dut.tbl_we_i.value = 1
    for node, words in tables.items():
        dut.tbl_bcast_i.value = 1 if node == '*' else 0
        dut.tbl_node_i.value = 0 if node == '*' else node
        for a, w in enumerate(words):
            dut.tbl_addr_i.value = a
            dut.tbl_wdata_i.value = w
            await RisingEdge(dut.clk_i)
    dut.tbl_we_i.value = 0
    dut.tbl_bcast_i.value = 0


async def fill_tags(dut, nodes, k, m):
    """Slot l of every node x <- x*K + l for l < K, 0 for K <= l < M; one slot per cycle."""
    dut.mem_we_i.value = 1
    for l in range(m):
        dut.mem_addr_i.value = l
        dut.mem_wdata_i.value = sum((x * k + l if l < k else 0) << (x * WORD)
                                    for x in range(nodes))
        await RisingEdge(dut.clk_i)
    dut.mem_we_i.value = 0


async def read_memories(dut, nodes, m):
    """Every node's M words through the scan port's combinational read."""
    mems = [[0] * m for _ in range(nodes)]
    for l in range(m):
        dut.mem_addr_i.value = l
        await Timer(1, unit='ns')
        v = int(dut.mem_rdata_o.value)
        for x in range(nodes):
            mems[x][l] = (v >> (x * WORD)) & 0xFFFFFFFF
    return mems


async def read_errors(dut, nodes):
    """{(node, kind): count} of every non-zero error counter, through err_node_i."""
    errors = {}
    for x in range(nodes):
        dut.err_node_i.value = x
        await Timer(1, unit='ns')
        v = int(dut.err_count_o.value)
        for i, kind in enumerate(ERROR_KINDS):
            c = (v >> (i * ERR_COUNT_BITS)) & ((1 << ERR_COUNT_BITS) - 1)
            if c:
                errors[(x, kind)] = c
    return errors


def expected_errors(hw_errors):
    """hcube run --json's hw_errors as {(node, kind): count}."""
    out = {}
    for e in hw_errors:
        out[(int(e['node']), e['kind'])] = int(e['count'])
    return out


def read_routed_image(path):
    """The routed image (tb/routed_image.h): its header (dict) and per node its header words,
    message words and initial memory."""
    header, nodes = {}, []
    with open(path) as f:
        lines = [ln.split('#', 1)[0].split() for ln in f]
    lines = [ln for ln in lines if ln]
    if not lines or lines[0] != ['hcube-routed-image', '1']:
        raise ValueError(f'{path}: not an hcube routed image')
    for words in lines[1:]:
        key, values = words[0], words[1:]
        if key == 'end':
            break
        if key == 'node':
            if int(values[0]) != len(nodes):
                raise ValueError(f'{path}: node {values[0]} out of order')
            nodes.append({'header': [], 'messages': [], 'data': []})
        elif key in ('header', 'message', 'data'):
            nodes[-1]['messages' if key == 'message' else key] += [int(v, 16) for v in values]
        else:
            header[key] = values[0]
    return header, nodes


async def load_region(dut, region, lists):
    """Load port region 1 (messages) or 2 (router header): node x's words at index 0, 1, ...
    of the region, one node and word per cycle."""
    index_bits = len(dut.tbl_addr_i) - 2  # hc_pkg::LoadSelBits above the index
    dut.tbl_we_i.value = 1
    dut.tbl_bcast_i.value = 0
    for x, words in enumerate(lists):
        dut.tbl_node_i.value = x
        for a, w in enumerate(words):
            dut.tbl_addr_i.value = (region << index_bits) | a
            dut.tbl_wdata_i.value = w
            await RisingEdge(dut.clk_i)
    dut.tbl_we_i.value = 0


async def fill_memory(dut, nodes, data, m):
    """Slot l of node x <- data[x][l] for l < len(data[x]), 0 up to M; one slot per cycle."""
    dut.mem_we_i.value = 1
    for l in range(m):
        dut.mem_addr_i.value = l
        dut.mem_wdata_i.value = sum((data[x][l] if l < len(data[x]) else 0) << (x * WORD)
                                    for x in range(nodes))
        await RisingEdge(dut.clk_i)
    dut.mem_we_i.value = 0


async def run_until_done(dut, expect_cycles):
    """Start pulse, then the simulator runs on its own until done_o, and one edge more: the error
    counters register a cycle's events at the edge that ends it."""
    dut.start_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.start_i.value = 0
    limit = 2 * expect_cycles + 64  # a timeout only: the count itself is compared after
    await ReadOnly()
    if not int(dut.done_o.value):
        finished = await First(RisingEdge(dut.done_o), Timer(limit * PERIOD_NS, unit='ns'))
        assert isinstance(finished, RisingEdge) or int(dut.done_o.value), \
            f'hc_cube not done within {limit} cycles'
    await RisingEdge(dut.clk_i)
    await ReadOnly()


def counters(dut):
    return {'cycles': int(dut.cycles_o.value), 'transfer_cycles': int(dut.xfer_cycles_o.value),
            'words': int(dut.words_o.value), 'local_cycles': int(dut.local_cycles_o.value)}


async def run_routed_case(dut, case):
    header, image = read_routed_image(case['image'])
    expect = case['expect']
    dim, m = int(header['dim']), int(header['memory'])
    nodes = 1 << dim
    assert int(dut.Dim.value) == dim and int(dut.HasRouter.value) == 1, \
        'the routed image needs a cube of its size with routers'
    assert len(image) == nodes, f'{case["image"]}: {len(image)} node blocks for {nodes} nodes'
    await reset(dut)
    # tb/routed_run.cpp's order: every node's messages, then the headers (configuration last).
    await load_region(dut, 1, [n['messages'] for n in image])
    await load_region(dut, 2, [n['header'] for n in image])
    await fill_memory(dut, nodes, [n['data'] for n in image], int(dut.NumSlots.value))
    await run_until_done(dut, expect['cycles'])
    got = counters(dut)
    got['stalls'] = int(dut.rt_stalls_o.value)
    got['deadlock'] = bool(int(dut.rt_deadlock_o.value))
    await Timer(1, unit='ns')
    errors = await read_errors(dut, nodes)
    mems = await read_memories(dut, nodes, m)
    got['memory_digest'] = memory_digest(nodes, m, mems)
    want = {key: expect[key] for key in got}
    dut._log.info('%s: RTL %s', case['name'], got)
    assert got == want, f"{case['name']}: RTL {got}, hcube run --json {want}"
    # The router counts a push into a full FIFO as `lost` and two writes of one slot as
    # `conflict` (the runner's router-errors line); no other kind is counted in routed mode.
    want_errors = {}
    for e in expect['router_errors']:
        for kind in ('lost', 'conflict'):
            if int(e[kind]):
                want_errors[(int(e['node']), kind)] = int(e[kind])
    assert errors == want_errors, \
        f"{case['name']}: error counters {errors}, expected {expect['router_errors']}"


async def run_case(dut, case):
    header, tables = read_image(case['image'])
    expect = case['expect']
    dim, k, m = int(header['dim']), int(header['slots']), int(header['memory'])
    nodes = 1 << dim
    assert int(dut.Dim.value) == dim, 'the image is for another cube size'
    await reset(dut)
    dut.one_port_i.value = int(header.get('one-port', '0'))
    dut.mac_overlap_i.value = int(header.get('mac-overlap', '0'))
    await load_tables(dut, tables)
    await fill_tags(dut, nodes, k, m)
    # The run itself: no Python per cycle, the simulator runs until done_o or the limit.
    await run_until_done(dut, expect['cycles'])
    got = counters(dut)
    await Timer(1, unit='ns')
    errors = await read_errors(dut, nodes)
    mems = await read_memories(dut, nodes, m)
    got['memory_digest'] = memory_digest(nodes, m, mems)
    want = {key: expect[key] for key in got}
    dut._log.info('%s: RTL %s', case['name'], got)
    assert got == want, f"{case['name']}: RTL {got}, hcube run --json {want}"
    assert errors == expected_errors(expect['hw_errors']), \
        f"{case['name']}: error counters {errors}, expected {expect['hw_errors']}"


def _case_test(case):
    async def test(dut):
        await (run_routed_case if case['mode'] == 'routed' else run_case)(dut, case)
    test.__name__ = test.__qualname__ = 'rtl_matches_hcube_run_' + case['name'].replace('-', '_')
    test.__doc__ = f"{case['name']}: the RTL's counters, error counters and final memories are hcube run's."
    return test.__name__, cocotb.test(timeout_time=600, timeout_unit='sec')(test)


# One cocotb test per case, named after it.
for _case in CASES:
    _name, _test = _case_test(_case)
    globals()[_name] = _test
# cocotb collects every module-level test object: the loop variable would make the last case a
# second time.
del _case, _name, _test
