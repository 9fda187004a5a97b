// hcube: the schedule-file commands (sim/commands/cmd_schedule.h, docs/schedule-format.md).
#include "cmd_schedule.h"

#include <filesystem>
#include <iostream>

#include "algorithms/schedule_file.h"
#include "base/error.h"
#include "tables/table_image.h"
#include "tables/table_text.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

// --width, --ports and --tau: the hardware a schedule file is compiled for. --width defaults to
// the lanes the schedule uses (slots form, moves form), 1 for the relative form.
CompileOptions compileOptionsFrom(Args& args, const ScheduleFile& s) {
  CompileOptions o;
  const long long width =
      args.number("--width", s.form == ScheduleFile::Form::kRelative ? 1 : s.lanes);
  if (width < 1 || width > 64) throw Error("--width " + std::to_string(width) + ": must be 1..64");
  o.lanes = static_cast<int>(width);
  o.one_port = args.get("--ports").value_or("all") == "one";  // CLI11 checked all|one
  const long long tau = args.number("--tau", 0);
  if (tau < 0 || tau > (1LL << 31) - 1) {
    throw Error("--tau " + std::to_string(tau) + ": must be 0.." + std::to_string((1LL << 31) - 1));
  }
  o.startup = static_cast<u64>(tau);
  return o;
}

}  // namespace

int cmdSchedule(Args& args) {
  const CaseSpec spec = caseFrom(args);
  auto out = args.get("--out");
  args.finish();
  if (!out) throw Error("--out FILE.hcs is required");
  const ScheduleFile s = scheduleOfCase(spec);
  writeScheduleFile(*out, s);
  std::cout << "wrote " << *out << ": " << s.algo << ", " << formName(s.form) << " form, "
            << s.steps() << " steps, perm " << s.perm.str() << "\n";
  return 0;
}

int cmdCompile(Args& args) {
  auto out = args.get("--out");
  if (args.positional().size() != 1) throw Error("compile takes one schedule file (F.hcs)");
  const ScheduleFile s = readScheduleFile(args.positional()[0]);
  const CompileOptions o = compileOptionsFrom(args, s);
  args.finish(1);
  if (!out) throw Error("--out FILE.hct or DIR is required");
  const TableSet tables = compileScheduleFile(s, o);
  std::string written;
  if (fs::path(*out).extension() == ".hct") {
    writeTableTextFile(*out, tables);
    written = *out;
  } else {
    std::error_code ec;
    fs::create_directories(*out, ec);
    if (ec) throw Error(*out + ": cannot create directory: " + ec.message());
    const std::string text = (fs::path(*out) / "tables.hct").string();
    const std::string image = (fs::path(*out) / "tables.hex").string();
    writeTableTextFile(text, tables);
    writeImageFile(image, tables);
    written = text + " and " + image;
  }
  std::cout << "wrote " << written << ": " << tables.tables.size()
            << (tables.shared ? " shared table" : " node tables") << ", " << tables.depth()
            << " instructions, " << tables.cycles() << " cycles\n";
  return 0;
}

BuiltCase caseFromScheduleArgs(Args& args, const std::string& path) {
  const std::optional<int> n = optionalDimension(args);
  const ScheduleFile s = readScheduleFile(path);
  const CompileOptions o = compileOptionsFrom(args, s);
  for (const std::string& opt : caseOptions(args)) {
    if (opt == "--width" || opt == "--ports" || opt == "--tau" || opt == "--schedule") continue;
    throw Error("--schedule cannot be combined with " + opt +
                " (the schedule file fixes the algorithm and the case; --width, --ports and "
                "--tau choose the hardware)");
  }
  if (n && *n != s.n) {
    throw Error(path + ": the schedule is for n = " + std::to_string(s.n) + ", not --n " +
                std::to_string(*n));
  }
  return caseFromSchedule(s, o);
}

}  // namespace hcube
