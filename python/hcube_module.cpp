// The Python module `hcube`: the public C++ API (include/hcube/hcube.h) from Python, with
// pybind11. Schedules come as lists or numpy arrays, results are Python objects with numpy
// arrays where arrays fit, and the library's errors are hcube.Error (a RuntimeError) with the
// same messages.
//
//   import hcube
//   perm = hcube.Permutation.aapc(n=3)
//   s = hcube.Schedule.relative(n=3, steps=[[1, 2, 4], [7, 6, 5], [3, 7, 6], [5, 3, 7]])
//   r = hcube.run(s, perm, backend="table", width=1, tau=0)
//   r.cycles, r.lower_bound, r.mismatches, r.link_words
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "hcube/hcube.h"

namespace py = pybind11;
namespace hc = hcube::api;

namespace {

// One entry of a relative or slot schedule: an integer address, or None / a negative number
// for an idle channel.
std::uint32_t entry(const py::handle& v, size_t step, size_t col) {
  if (v.is_none()) return hc::Schedule::kIdle;
  long long x = 0;
  try {
    x = py::cast<long long>(v);
  } catch (const py::cast_error&) {
    throw hc::Error("step " + std::to_string(step) + ", entry " + std::to_string(col) + ": " +
                    std::string(py::str(py::repr(v))) + " is not an integer or None");
  }
  if (x < 0) return hc::Schedule::kIdle;
  if (x >= 0xFFFFFFFFLL) {
    throw hc::Error("step " + std::to_string(step) + ", entry " + std::to_string(col) + ": " +
                    std::to_string(x) + " is beyond 32 bits");
  }
  return static_cast<std::uint32_t>(x);
}

// The rows of a relative or slot schedule from a list of lists or a 2-D numpy array.
std::vector<std::vector<std::uint32_t>> entries(const py::object& steps) {
  std::vector<std::vector<std::uint32_t>> out;
  if (py::isinstance<py::array>(steps)) {
    auto a = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(steps);
    if (!a || a.ndim() != 2) throw hc::Error("steps: a numpy array must have two dimensions");
    auto v = a.unchecked<2>();
    out.resize(static_cast<size_t>(v.shape(0)));
    for (py::ssize_t t = 0; t < v.shape(0); ++t) {
      for (py::ssize_t j = 0; j < v.shape(1); ++j) {
        const long long x = v(t, j);
        out[t].push_back(x < 0 ? hc::Schedule::kIdle : static_cast<std::uint32_t>(x));
      }
    }
    return out;
  }
  size_t t = 0;
  for (const py::handle row : steps) {
    std::vector<std::uint32_t> r;
    size_t j = 0;
    for (const py::handle v : row) r.push_back(entry(v, t, j++));
    out.push_back(std::move(r));
    ++t;
  }
  return out;
}

// The steps of a move schedule: per step a list of hcube.Move or (node, slot, dim, to_slot)
// tuples, or an (m, 4) numpy array.
std::vector<std::vector<hc::Move>> moveSteps(const py::object& steps) {
  std::vector<std::vector<hc::Move>> out;
  size_t t = 0;
  for (const py::handle step : steps) {
    std::vector<hc::Move> moves;
    if (py::isinstance<py::array>(step)) {
      auto a = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(step);
      if (!a || a.ndim() != 2 || a.shape(1) != 4) {
        throw hc::Error("step " + std::to_string(t) +
                        ": a numpy array of moves must have shape (m, 4)");
      }
      auto v = a.unchecked<2>();
      for (py::ssize_t i = 0; i < v.shape(0); ++i) {
        moves.push_back({static_cast<std::uint64_t>(v(i, 0)), static_cast<std::uint32_t>(v(i, 1)),
                         static_cast<int>(v(i, 2)), static_cast<std::uint32_t>(v(i, 3))});
      }
    } else {
      for (const py::handle m : step) {
        if (py::isinstance<hc::Move>(m)) {
          moves.push_back(py::cast<hc::Move>(m));
          continue;
        }
        const auto f = py::cast<std::vector<long long>>(m);
        if (f.size() != 4) {
          throw hc::Error("step " + std::to_string(t) +
                          ": a move is (node, slot, dim, to_slot), got " +
                          std::string(py::str(py::repr(m))));
        }
        moves.push_back({static_cast<std::uint64_t>(f[0]), static_cast<std::uint32_t>(f[1]),
                         static_cast<int>(f[2]), static_cast<std::uint32_t>(f[3])});
      }
    }
    out.push_back(std::move(moves));
    ++t;
  }
  return out;
}

hc::Options options(const std::string& backend, int width, bool one_port, std::uint64_t tau,
                    bool verify, std::uint64_t max_cycles, const std::string& cache_dir,
                    bool progress) {
  hc::Options o;
  o.backend = backend;
  o.width = width;
  o.one_port = one_port;
  o.tau = tau;
  o.verify = verify;
  o.max_cycles = max_cycles;
  o.cache_dir = cache_dir;
  o.progress = progress;
  return o;
}

py::array_t<std::uint64_t> linkWords(const hc::Result& r) {
  const py::ssize_t n = r.n;
  const py::ssize_t nodes = n > 0 ? static_cast<py::ssize_t>(r.link_words.size()) / n : 0;
  py::array_t<std::uint64_t> a({nodes, n});
  std::copy(r.link_words.begin(), r.link_words.end(), a.mutable_data());
  return a;
}

}  // namespace

PYBIND11_MODULE(hcube, m) {
  m.doc() =
      "hcube: compile, verify and run communication schedules on a cycle-accurate Boolean "
      "n-cube (table executor, SystemC-TLM or Verilated RTL), with the paper's lower bound "
      "beside the measured cycles.";
  m.attr("__version__") = hc::version();
  m.attr("IDLE") = hc::Schedule::kIdle;
  m.attr("LOCAL") = hc::Move::kLocal;
  py::register_exception<hc::Error>(m, "Error", PyExc_RuntimeError);

  py::class_<hc::Permutation>(m, "Permutation",
                              "What a communication must achieve, as the catalogue names it.")
      .def_static("aapc", &hc::Permutation::aapc, py::arg("n"), py::arg("m") = 1,
                  "All-to-all personalized communication on 2^n nodes, K = m * 2^n.")
      .def_static("dimension", &hc::Permutation::dimension, py::arg("n"), py::arg("k"),
                  py::arg("delta"), "Dimension permutation: address bit b goes to delta[b].")
      .def_static("parse", &hc::Permutation::parse, py::arg("text"),
                  "A permutation in its text form, e.g. 'aapc n=3 m=1'.")
      .def_property_readonly("n", &hc::Permutation::n)
      .def_property_readonly("nodes", &hc::Permutation::nodes)
      .def_property_readonly("slots", &hc::Permutation::slots)
      .def("__str__", &hc::Permutation::str)
      .def("__repr__",
           [](const hc::Permutation& p) { return "hcube.Permutation.parse('" + p.str() + "')"; });

  py::class_<hc::Move>(m, "Move", "One element crossing one link (dim = hcube.LOCAL: a copy).")
      .def(py::init([](std::uint64_t node, std::uint32_t slot, int dim, std::uint32_t to_slot) {
             return hc::Move{node, slot, dim, to_slot};
           }),
           py::arg("node"), py::arg("slot"), py::arg("dim"), py::arg("to_slot"))
      .def_readwrite("node", &hc::Move::node)
      .def_readwrite("slot", &hc::Move::slot)
      .def_readwrite("dim", &hc::Move::dim)
      .def_readwrite("to_slot", &hc::Move::to_slot)
      .def("__repr__", [](const hc::Move& v) {
        return "hcube.Move(" + std::to_string(v.node) + ", " + std::to_string(v.slot) + ", " +
               std::to_string(v.dim) + ", " + std::to_string(v.to_slot) + ")";
      });

  py::class_<hc::Schedule>(m, "Schedule", "An abstract schedule: relative, slots or moves.")
      .def_static(
          "relative",
          [](int n, const py::object& steps, const std::string& name) {
            return hc::Schedule::relative(n, entries(steps), name);
          },
          py::arg("n"), py::arg("steps"), py::arg("name") = "own",
          "steps[t][j]: the relative address sent across dimension j in step t (None or -1: "
          "idle); a list of lists or a 2-D numpy array.")
      .def_static(
          "slots",
          [](int n, int lanes, std::uint64_t k, const py::object& steps,
             const std::vector<bool>& block_starts, const std::string& name) {
            return hc::Schedule::slots(n, lanes, k, entries(steps), block_starts, name);
          },
          py::arg("n"), py::arg("lanes"), py::arg("k"), py::arg("steps"),
          py::arg("block_starts") = std::vector<bool>{}, py::arg("name") = "own",
          "steps[t][port * lanes + lane]: the relative slot that channel sends in step t.")
      .def_static(
          "moves",
          [](int n, const py::object& steps, const std::string& name, int lanes,
             std::uint64_t scratch) {
            return hc::Schedule::moves(n, moveSteps(steps), name, lanes, scratch);
          },
          py::arg("n"), py::arg("steps"), py::arg("name") = "own", py::arg("lanes") = 1,
          py::arg("scratch") = 0,
          "Per step the moves (node, slot, dim, to_slot) made in it, or (m, 4) numpy arrays.")
      .def_static("load", &hc::Schedule::load, py::arg("path"), "Reads a schedule file (.hcs).")
      .def("save", &hc::Schedule::save, py::arg("path"), py::arg("perm"),
           "Writes the schedule with its permutation as a schedule file (.hcs).")
      .def_property_readonly("n", &hc::Schedule::n)
      .def_property_readonly("name", &hc::Schedule::name)
      .def_property_readonly("form",
                             [](const hc::Schedule& s) {
                               switch (s.form()) {
                                 case hc::Schedule::Form::kRelative:
                                   return "relative";
                                 case hc::Schedule::Form::kSlots:
                                   return "slots";
                                 case hc::Schedule::Form::kMoves:
                                   return "moves";
                               }
                               return "?";
                             })
      .def_property_readonly("file_permutation", &hc::Schedule::filePermutation)
      .def("__len__", &hc::Schedule::steps);

  py::class_<hc::Verification>(m, "Verification", "The static verifier's verdict.")
      .def_readonly("ok", &hc::Verification::ok)
      .def_readonly("total_errors", &hc::Verification::total_errors)
      .def_readonly("errors", &hc::Verification::errors)
      .def_readonly("cycles", &hc::Verification::cycles)
      .def("__bool__", [](const hc::Verification& v) { return v.ok; });

  py::class_<hc::Result>(m, "Result", "What one run measured, beside the bound.")
      .def_readonly("backend", &hc::Result::backend)
      .def_readonly("algo", &hc::Result::algo)
      .def_readonly("permutation", &hc::Result::permutation)
      .def_readonly("n", &hc::Result::n)
      .def_readonly("lanes", &hc::Result::lanes)
      .def_readonly("one_port", &hc::Result::one_port)
      .def_readonly("cycles", &hc::Result::cycles)
      .def_readonly("transfer_cycles", &hc::Result::transfer_cycles)
      .def_readonly("local_cycles", &hc::Result::local_cycles)
      .def_readonly("words", &hc::Result::words)
      .def_readonly("span", &hc::Result::span)
      .def_readonly("lower_bound", &hc::Result::lower_bound)
      .def_readonly("bound_source", &hc::Result::bound_source)
      .def_readonly("elements", &hc::Result::elements)
      .def_readonly("mismatches", &hc::Result::mismatches)
      .def_readonly("first_mismatches", &hc::Result::first_mismatches)
      .def_readonly("timeout", &hc::Result::timeout)
      .def_property_readonly(
          "errors",
          [](const hc::Result& r) {
            py::list l;
            for (const hc::ErrorCount& e : r.errors) {
              l.append(py::make_tuple(e.node, e.kind, e.count));
            }
            return l;
          },
          "Non-zero hardware error counters: (node, kind, count).")
      .def_property_readonly("link_words", &linkWords,
                             "Words per directed link: a (2^n, n) numpy array [node, port].")
      .def_readonly("link_min", &hc::Result::link_min)
      .def_readonly("link_mean", &hc::Result::link_mean)
      .def_readonly("link_max", &hc::Result::link_max)
      .def_readonly("memory_digest", &hc::Result::memory_digest)
      .def_readonly("wall_seconds", &hc::Result::wall_seconds)
      .def_property_readonly("passed", &hc::Result::passed)
      .def_readonly("report", &hc::Result::report)
      .def_readonly("json", &hc::Result::json)
      .def("__repr__", [](const hc::Result& r) {
        return "<hcube.Result " + r.algo + " on " + r.backend + ": " + std::to_string(r.cycles) +
               " cycles, bound " + std::to_string(r.lower_bound) + ", " +
               std::to_string(r.mismatches) + " mismatches>";
      });

  m.def(
      "run",
      [](const hc::Schedule& s, const hc::Permutation& p, const std::string& backend, int width,
         bool one_port, std::uint64_t tau, bool verify, std::uint64_t max_cycles,
         const std::string& cache_dir, bool progress) {
        const hc::Options o =
            options(backend, width, one_port, tau, verify, max_cycles, cache_dir, progress);
        py::gil_scoped_release release;
        return hc::run(s, p, o);
      },
      py::arg("schedule"), py::arg("perm"), py::arg("backend") = "table", py::arg("width") = 1,
      py::arg("one_port") = false, py::arg("tau") = 0, py::arg("verify") = true,
      py::arg("max_cycles") = 0, py::arg("cache_dir") = "", py::arg("progress") = false,
      "Compiles the schedule for the hardware, verifies the tables, runs them on the backend "
      "('table', 'tlm' or 'rtl') and checks every element against the reference model.");
  m.def(
      "verify",
      [](const hc::Schedule& s, const hc::Permutation& p, int width, bool one_port,
         std::uint64_t tau) {
        const hc::Options o = options("table", width, one_port, tau, true, 0, "", false);
        py::gil_scoped_release release;
        return hc::verify(s, p, o);
      },
      py::arg("schedule"), py::arg("perm"), py::arg("width") = 1, py::arg("one_port") = false,
      py::arg("tau") = 0, "Compiles the schedule and verifies the tables statically.");
  m.def(
      "run_catalogue",
      [](const std::string& algo, int n, std::uint64_t k, const std::string& backend, int width,
         bool one_port, std::uint64_t tau, const std::map<std::string, std::string>& params,
         std::uint64_t max_cycles, const std::string& cache_dir, bool progress) {
        const hc::Options o =
            options(backend, width, one_port, tau, true, max_cycles, cache_dir, progress);
        py::gil_scoped_release release;
        return hc::runCatalogue(algo, n, o, k, params);
      },
      py::arg("algo"), py::arg("n"), py::arg("k") = 0, py::arg("backend") = "table",
      py::arg("width") = 1, py::arg("one_port") = false, py::arg("tau") = 0,
      py::arg("params") = std::map<std::string, std::string>{}, py::arg("max_cycles") = 0,
      py::arg("cache_dir") = "", py::arg("progress") = false,
      "A catalogue case, as `hcube run --algo ALGO --n N` builds it.");
  m.def(
      "catalogue",
      [] {
        py::list l;
        for (const hc::AlgorithmInfo& a : hc::catalogue()) {
          l.append(py::make_tuple(a.name, a.summary, a.source));
        }
        return l;
      },
      "The catalogue's algorithms: (name, summary, source).");
}
