# The RTL of one node, in the order the tools read it (the package first): hc_node and every
# module under it. The CMake builds of the Verilated models (tb/model/, sim/cosim/) take their
# source lists from here, so a module added under hc_node is added here and nowhere else.
# Scripts that read every rtl/*.sv (scripts/lint-rtl.sh, scripts/synth.sh) need no list.
set(HC_NODE_MODULES hc_pkg.sv hc_fifo.sv hc_rr_arb.sv hc_mac.sv hc_router.sv hc_node.sv)
