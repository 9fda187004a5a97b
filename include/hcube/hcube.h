// hcube — the public C++ API: hand the cube a schedule of your own, as a paper states it, and
// have it compiled for the hardware, verified and run on one of the three executors, with the
// paper's lower bound beside the measured cycles.
//
//   #include <hcube/hcube.h>
//   namespace hc = hcube::api;
//   hc::Permutation perm = hc::Permutation::aapc(3);          // AAPC on a 3-cube, K = 8
//   hc::Schedule s = hc::Schedule::relative(3, {{1, 2, 4}, {7, 6, 5}, {3, 7, 6}, {5, 3, 7}});
//   hc::Result r = hc::run(s, perm);                          // table executor, one lane, tau 0
//   std::cout << r.cycles << " cycles, bound " << r.lower_bound << "\n";
//
// The forms of a schedule are the compiler's (docs/schedule-format.md describes the same three
// as a file): a relative schedule (Edelman 1991 Theorem 3.2's array w_ij; Johnsson & Ho 1992
// §2.1), a slot schedule over all K relative slots with lanes and block starts (Johnsson &
// Ho 1992 §5, §6), and a general move schedule (node, slot, dimension, destination slot; local
// copies). Every function throws hcube::api::Error with a message that names what is wrong.
// Nothing else of the library is public: the headers below are the whole interface.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define HCUBE_API_VERSION_MAJOR 1
#define HCUBE_API_VERSION_MINOR 0

namespace hcube::api {

/// Every error of the library: the message names the input that is wrong and why.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// What a communication must achieve (the reference model's side): a case of the catalogue by
/// name and parameters. The text form is the one `hcube run --json` prints as "perm", e.g.
/// "aapc n=3 m=1", "dim n=2 k=2 delta=2,3,0,1", "linear n=1 k=1 rows=2,3".
class Permutation {
 public:
  /// All-to-all personalized communication on 2^n nodes with K = m * 2^n elements per node
  /// (Edelman 1991 §1; Johnsson & Ho 1992 §2.1): element (j | h, i) goes to (i | h, j).
  static Permutation aapc(int n, std::uint64_t m = 1);
  /// Dimension permutation of the n node bits and k local bits: bit b goes to bit delta[b]
  /// (Johnsson & Ho 1987 §7, Ho & Johnsson 1988 §2).
  static Permutation dimension(int n, int k, const std::vector<int>& delta);
  /// Any permutation in its text form.
  static Permutation parse(const std::string& text);

  int n() const { return n_; }
  std::uint64_t nodes() const { return std::uint64_t{1} << n_; }
  /// K, data slots per node.
  std::uint64_t slots() const { return slots_; }
  const std::string& str() const { return text_; }

 private:
  Permutation(std::string text, int n, std::uint64_t slots)
      : text_(std::move(text)), n_(n), slots_(slots) {}
  std::string text_;
  int n_ = 1;
  std::uint64_t slots_ = 2;
};

/// One element crossing one link in one step of a move schedule: the element in `slot` of
/// `node` crosses dimension `dim` and is stored in `to_slot` of node ^ (1 << dim); dim == kLocal
/// copies it inside the node (a PERMUTE). A step holds link moves or local copies, not both.
struct Move {
  static constexpr int kLocal = -1;
  std::uint64_t node = 0;
  std::uint32_t slot = 0;
  int dim = 0;
  std::uint32_t to_slot = 0;
};

/// An abstract schedule: what the paper says, before any hardware detail.
class Schedule {
 public:
  enum class Form { kRelative, kSlots, kMoves };
  /// An idle entry of a relative or slot schedule.
  static constexpr std::uint32_t kIdle = 0xFFFFFFFFU;

  /// A relative schedule: steps[t][j] is the relative address w sent across dimension j in
  /// step t (every node x sends its word at local address w ^ x), or kIdle. Each row has n
  /// entries. On an AAPC with K = m 2^n it runs once per repetition h (slots (h << n) | w).
  static Schedule relative(int n, const std::vector<std::vector<std::uint32_t>>& steps,
                           const std::string& name = "own");
  /// A slot schedule over all K relative slots: steps[t][port * lanes + lane] is the relative
  /// slot that channel sends in step t, or kIdle; block_starts[t] marks the steps that start a
  /// block transfer (one start-up tau each; empty: every step starts one).
  static Schedule slots(int n, int lanes, std::uint64_t k,
                        const std::vector<std::vector<std::uint32_t>>& steps,
                        const std::vector<bool>& block_starts = {},
                        const std::string& name = "own");
  /// A general move schedule; `lanes` is the most words it puts on one link in a step and
  /// `scratch` the slots per node it uses beyond the K data slots.
  static Schedule moves(int n, const std::vector<std::vector<Move>>& steps,
                        const std::string& name = "own", int lanes = 1, std::uint64_t scratch = 0);
  /// A schedule file (.hcs, docs/schedule-format.md), read and checked; its permutation is
  /// filePermutation().
  static Schedule load(const std::string& path);
  /// Writes the schedule with `perm` as a schedule file that `hcube run --schedule` runs.
  void save(const std::string& path, const Permutation& perm) const;

  Form form() const { return form_; }
  int n() const { return n_; }
  const std::string& name() const { return name_; }
  std::size_t steps() const;
  /// The permutation a loaded schedule file names (empty text for the other schedules).
  const std::string& filePermutation() const { return file_perm_; }

  // The form's contents, as given.
  const std::vector<std::vector<std::uint32_t>>& entries() const { return entries_; }
  const std::vector<std::vector<Move>>& moveSteps() const { return moves_; }
  const std::vector<bool>& blockStarts() const { return block_starts_; }
  int lanes() const { return lanes_; }
  std::uint64_t slotCount() const { return k_; }
  std::uint64_t scratch() const { return scratch_; }

 private:
  Form form_ = Form::kRelative;
  int n_ = 1;
  std::string name_;
  int lanes_ = 1;
  std::uint64_t k_ = 0;
  std::uint64_t scratch_ = 0;
  std::vector<std::vector<std::uint32_t>> entries_;
  std::vector<bool> block_starts_;
  std::vector<std::vector<Move>> moves_;
  std::string file_perm_;
};

/// The hardware a schedule is compiled for, and how it is run.
struct Options {
  std::string backend = "table";  ///< "table" (the golden executor), "tlm" or "rtl"
  int width = 1;                  ///< b, lanes per port and direction
  bool one_port = false;          ///< one-port hardware (else all-port)
  /// τ, start-up cycles per block transfer (Johnsson & Ho 1992 §5). A relative schedule with
  /// τ > 0 runs every step as its own block; slot schedules say where blocks start.
  std::uint64_t tau = 0;
  bool verify = true;            ///< statically verify the tables before running them
  std::uint64_t max_cycles = 0;  ///< cycle limit (0: the tables' own count plus a margin)
  std::string cache_dir;         ///< RTL model cache (empty: $HCUBE_CACHE or ~/.cache/hcube)
  /// The RTL sources the models are built from (empty: $HCUBE_DATA_DIR, the installed
  /// share/hcube, or the source tree). The CMake package sets HCUBE_PACKAGE_DATA_DIR to its
  /// own share/hcube, so a program built against an installed package uses it.
#ifdef HCUBE_PACKAGE_DATA_DIR
  std::string data_dir = HCUBE_PACKAGE_DATA_DIR;
#else
  std::string data_dir;
#endif
  bool progress = false;  ///< RTL model builds and runs report progress on stderr
};

/// The static verifier's verdict on compiled tables (docs/architecture.md §5).
struct Verification {
  bool ok = true;
  std::uint64_t total_errors = 0;
  std::vector<std::string> errors;  ///< the first violations, each naming node, cycle, port
  std::uint64_t cycles = 0;         ///< cycles of the symbolic run
};

/// A non-zero hardware error counter of one node (docs/hardware/checks.md).
struct ErrorCount {
  std::uint64_t node = 0;
  std::string kind;  ///< "lost", "nodata", "fwd", "slot", "overrun", "oneport", ...
  std::uint64_t count = 0;
};

/// What one run measured, beside the bound and the reference model's check.
struct Result {
  std::string backend;
  std::string algo;
  std::string permutation;
  int n = 1;
  int lanes = 1;
  bool one_port = false;
  std::uint64_t cycles = 0;           ///< start to the last node's done
  std::uint64_t transfer_cycles = 0;  ///< cycles in which some link carried a word
  std::uint64_t local_cycles = 0;     ///< cycles with a PERMUTE
  std::uint64_t words = 0;            ///< words moved over links
  std::uint64_t span = 0;             ///< Johnsson & Ho 1992 Definition 2
  std::uint64_t lower_bound = 0;      ///< the paper's bound on transfer cycles (0: none known)
  std::string bound_source;
  std::uint64_t elements = 0;    ///< elements checked against the reference model
  std::uint64_t mismatches = 0;  ///< elements not where the reference model says
  std::vector<std::string> first_mismatches;
  bool timeout = false;
  std::vector<ErrorCount> errors;         ///< hardware error counters that are not zero
  std::vector<std::uint64_t> link_words;  ///< words per directed link, index node * n + port
  double link_min = 0, link_mean = 0, link_max = 0;  ///< words / (cycles * lanes) per link
  std::string memory_digest;  ///< of the final memory, equal on every backend that agrees
  double wall_seconds = 0;    ///< the simulation proper

  /// Every element where the reference says, no hardware error, no timeout.
  bool passed() const { return mismatches == 0 && errors.empty() && !timeout; }
  /// The report `hcube run` prints, as text.
  std::string report;
  /// The report `hcube run --json` prints.
  std::string json;
};

/// Compiles `schedule` for the hardware of `options` and verifies the tables statically.
Verification verify(const Schedule& schedule, const Permutation& perm, const Options& options = {});

/// Compiles, verifies (options.verify; a failed verification throws Error with its first
/// violations), runs on options.backend and checks every element against the reference model.
Result run(const Schedule& schedule, const Permutation& perm, const Options& options = {});

/// A case of the catalogue (`hcube list`), as `hcube run --algo A --n N [--k K] --PARAM V`
/// builds it; options.width and one_port as --width and --ports; options.tau as --tau.
Result runCatalogue(const std::string& algo, int n, const Options& options = {},
                    std::uint64_t k = 0, const std::map<std::string, std::string>& params = {});

/// The algorithms of the catalogue: name, one line, paper and section.
struct AlgorithmInfo {
  std::string name, summary, source;
};
std::vector<AlgorithmInfo> catalogue();

/// The library's version, "major.minor.patch".
std::string version();

}  // namespace hcube::api
