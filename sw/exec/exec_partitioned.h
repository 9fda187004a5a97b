// hcube: the table executor partitioned over MPI ranks (docs/mpi.md). Rank r of 2^k ranks owns
// the subcube of the 2^(n-k) nodes whose top k address bits are r and steps only those nodes,
// with the step semantics and error counts of the table executor (sw/exec/executor.h), so that the
// result equals executeTables' field for field (wall time aside).
//
// Per cycle: the send sweep over the rank's nodes puts words for its own nodes straight into
// their input registers and packs the words that cross one of the k dimensions between ranks
// into one buffer per neighbour rank; the buffers are exchanged with non-blocking MPI; the
// receive sweep runs; one small allreduce tells every rank whether some node of the cube sent,
// ran a PERMUTE or a MAC in the cycle, whether some node still runs, and whether every node of
// the cube waits (then the stretch is skipped in one step, as the single process does). At the
// end counters, error counts, link words, span and the final memory are gathered to rank 0.
//
// A lockstep step (a shared table's XFER the decode proves error-free, sw/exec_program.h) runs
// as in one process, as row-to-row moves over the relative memory layout: a move along one of
// the rank's own dimensions sweeps two rows, a move across ranks sends the rank's whole row to
// the peer rank and receives the peer's, one message each way posted before the local moves.
// Every node of the cube is then at one step, so no reduction is needed after such a cycle.
//
// Every rank builds and decodes the whole case's tables (the tables are input); the initial
// memory may be given for the rank's own nodes only, and the simulation state a rank keeps
// (memories, sequencers, input and PASS registers, counters) is its own nodes' only. Where the
// steps are all lockstep and the tags distinct, the first-send cycle travels with each word (as
// in one process) and the span is reduced from each rank's stores; otherwise the span
// bookkeeping (the first send and last store cycle per element) is kept per element of the whole
// cube on every rank and reduced at the end.
#pragma once

#include "exec/executor.h"

namespace hcube {

/// Whether this process was started by mpirun (OpenMPI sets OMPI_COMM_WORLD_SIZE), and the
/// number of processes it started (1 if not started by mpirun).
bool startedByMpirun();
int mpirunSize();

/// MPI for the lifetime of the tool: initialises MPI when started by mpirun, finalises it at
/// the end. Ranks other than 0 write nothing to stdout or stderr (rank 0 speaks for the run).
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

/// True inside an MpiSession (started by mpirun, even with one rank): the partitioned executor
/// runs the table backend.
bool mpiPartitioned();
int mpiRank();
int mpiSize();
/// The bytes of link words all ranks sent each other in the last partitioned run (rank 0).
u64 partitionedExchangedBytes();

/// The nodes this rank owns of a cube of `cube_nodes` nodes: the subcube whose top k address
/// bits are the rank (the whole cube if the ranks do not split it; executePartitioned refuses
/// that run).
struct NodeRange {
  u64 first = 0;
  u64 nodes = 0;
};
NodeRange partitionedNodes(u64 cube_nodes);

/// Runs `set` from `initial` over the ranks of MPI_COMM_WORLD; every rank calls it with the
/// same tables. `initial` is the whole cube's memory or the rank's own nodes' only
/// (partitionedNodes; node first + i as node i), which is all a rank reads of it. Rank 0's result
/// holds the whole cube's memory, errors and link words; the other ranks' results hold the counters
/// only (their memory is empty). Throws Error if the rank count is not a power of two or exceeds
/// the cube's nodes, or if the traffic log is asked for.
RunResult executePartitioned(const TableSet& set, const CubeMemory& initial,
                             const ExecOptions& options);

}  // namespace hcube
