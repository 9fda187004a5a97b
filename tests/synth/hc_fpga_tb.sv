// Testbench of rtl/hc_fpga.sv (the cube behind the serial port), run by tests/synth/fpga_tb.sh
// with `verilator --binary`: every command of the port, on a 2-cube.
//
// It writes a distinct word into slots 0..3 of every node and reads them back, broadcasts a
// three-instruction table (XFER across dimension 0 on slot 0, XFER across dimension 1 on slot 1,
// PERMUTE swapping slots 2 and 3), runs it and checks every node's memory and the counters
// (3 cycles, 2 transfer cycles, 8 words, 1 local cycle). Then it overwrites node 2's first
// instruction with END through a per-node write and runs again: node 2 loses the words of nodes
// 3 (dimension 0) and 0 (dimension 1), which in turn get no word; the error counters and err_o
// must say exactly that. Prints "PASS" or the first mismatch and stops with $fatal.

module hc_fpga_tb;
  localparam int unsigned Dim = 2;
  localparam int unsigned NumSlots = 8;
  localparam int unsigned Lanes = 1;
  localparam int unsigned WordWidth = 32;
  localparam int unsigned TableDepth = 16;
  localparam int unsigned NumNodes = 1 << Dim;
  // As hc_fpga derives them.
  localparam int unsigned TableWidth = hc_pkg::hc_table_width(Dim, Lanes, NumSlots);
  localparam int unsigned DataBits = hc_pkg::hc_max(TableWidth, WordWidth);
  localparam int unsigned AddrBits = hc_pkg::hc_max(
      hc_pkg::hc_max(hc_pkg::hc_bits(TableDepth), hc_pkg::hc_bits(NumSlots)), 4);
  localparam int unsigned CmdBits = 3 + Dim + AddrBits + DataBits;

  // Table words (docs/hardware/node.md §3), ChanBits = 12 at n = 2, M = 8: channel c at [2 + 12c].
  // XFER, channel 0: out MEM slot 0, in MEM slot 0 (field 0x041).
  localparam logic [63:0] XferDim0 = 64'h1 | (64'h041 << 2);
  // XFER, channel 1: out MEM slot 1, in MEM slot 1 (field 0x249).
  localparam logic [63:0] XferDim1 = 64'h1 | (64'h249 << 14);
  // PERMUTE, channel 0: slot 2 -> slot 3 (0x651); channel 1: slot 3 -> slot 2 (0x459).
  localparam logic [63:0] Swap23 = 64'h3 | (64'h651 << 2) | (64'h459 << 14);

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic sdi = 1'b0;
  logic shift = 1'b0;
  logic exec_cmd = 1'b0;
  logic sdo, done, err;

  hc_fpga #(
    .Dim        (Dim),
    .NumSlots   (NumSlots),
    .Lanes      (Lanes),
    .WordWidth  (WordWidth),
    .TableDepth (TableDepth)
  ) dut (
    .clk_i   (clk),
    .rst_ni  (rst_n),
    .sdi_i   (sdi),
    .shift_i (shift),
    .exec_i  (exec_cmd),
    .sdo_o   (sdo),
    .done_o  (done),
    .err_o   (err)
  );

  always #5 clk <= ~clk;

  // The testbench drives and samples at the falling edge; the design works on the rising edge.
  task automatic command(input logic [2:0] op, input int unsigned node, input int unsigned addr,
                         input logic [63:0] data);
    logic [CmdBits-1:0] cmd;
    cmd = {op, Dim'(node), AddrBits'(addr), DataBits'(data)};
    for (int unsigned i = 0; i < CmdBits; i++) begin
      @(negedge clk);
      sdi   = cmd[i];
      shift = 1'b1;
    end
    @(negedge clk);
    shift    = 1'b0;
    exec_cmd = 1'b1;
    @(negedge clk);
    exec_cmd = 1'b0;
  endtask

  // Shifts the answer of the last READ or STATUS out of sdo.
  task automatic answer(output logic [31:0] value);
    for (int unsigned i = 0; i < 32; i++) begin
      value[i] = sdo;
      shift    = 1'b1;
      @(negedge clk);
    end
    shift = 1'b0;
  endtask

  task automatic expect_word(input string what, input logic [31:0] got, input logic [31:0] want);
    if (got !== want) $fatal(1, "FAIL %s: got 0x%0h, want 0x%0h", what, got, want);
  endtask

  task automatic expect_slot(input int unsigned node, input int unsigned slot,
                             input logic [31:0] want);
    logic [31:0] got;
    command(3'd4, node, slot, 64'd0);
    answer(got);
    expect_word($sformatf("node %0d slot %0d", node, slot), got, want);
  endtask

  task automatic expect_status(input string what, input int unsigned node,
                               input int unsigned addr, input logic [31:0] want);
    logic [31:0] got;
    command(3'd5, node, addr, 64'd0);
    answer(got);
    expect_word(what, got, want);
  endtask

  task automatic run_to_done();
    command(3'd6, 0, 0, 64'd0);
    for (int unsigned i = 0; i < 100 && !done; i++) @(negedge clk);
    if (!done) $fatal(1, "FAIL: the cube did not reach END within 100 cycles");
  endtask

  function automatic logic [31:0] init_word(input int unsigned node, input int unsigned slot);
    init_word = 32'hC0DE_0000 | 32'(node << 8) | 32'(slot);
  endfunction

  initial begin
    repeat (3) @(negedge clk);
    rst_n = 1'b1;

    for (int unsigned x = 0; x < NumNodes; x++) begin
      for (int unsigned s = 0; s < 4; s++) command(3'd3, x, s, 64'(init_word(x, s)));
    end
    for (int unsigned x = 0; x < NumNodes; x++) begin
      for (int unsigned s = 0; s < 4; s++) expect_slot(x, s, init_word(x, s));
    end

    command(3'd2, 0, 0, XferDim0);
    command(3'd2, 0, 1, XferDim1);
    command(3'd2, 0, 2, Swap23);
    command(3'd2, 0, 3, 64'd0);  // END
    run_to_done();
    for (int unsigned x = 0; x < NumNodes; x++) begin
      expect_slot(x, 0, init_word(x ^ 1, 0));
      expect_slot(x, 1, init_word(x ^ 2, 1));
      expect_slot(x, 2, init_word(x, 3));
      expect_slot(x, 3, init_word(x, 2));
    end
    expect_status("cycles", 0, 0, 32'd3);
    expect_status("transfer cycles", 0, 1, 32'd2);
    expect_status("words", 0, 2, 32'd8);
    expect_status("local cycles", 0, 3, 32'd1);
    expect_status("err_any", 0, 4, 32'd0);
    if (err !== 1'b0) $fatal(1, "FAIL: err_o high after a clean run");

    command(3'd1, 2, 0, 64'd0);  // node 2 only: END first
    run_to_done();
    expect_status("cycles (node 2 at END)", 0, 0, 32'd3);
    expect_status("words (node 2 at END)", 0, 2, 32'd6);
    expect_status("err_any (node 2 at END)", 0, 4, 32'b11);  // lost and nodata
    expect_status("node 2 lost", 2, 5 + hc_pkg::ErrLost, 32'd2);
    expect_status("node 2 nodata", 2, 5 + hc_pkg::ErrNodata, 32'd0);
    expect_status("node 3 nodata", 3, 5 + hc_pkg::ErrNodata, 32'd1);
    expect_status("node 0 nodata", 0, 5 + hc_pkg::ErrNodata, 32'd1);
    expect_status("node 1 nodata", 1, 5 + hc_pkg::ErrNodata, 32'd0);
    expect_status("node 3 lost", 3, 5 + hc_pkg::ErrLost, 32'd0);
    if (err !== 1'b1) $fatal(1, "FAIL: err_o low after lost words");

    $display("PASS hc_fpga: load, scan, run, counters and error counters through the serial port");
    $finish;
  end
endmodule
