// hcube tables, verify and diff: a case's tables written as files, a table file checked by the
// static verifier, and two table files compared (sim/commands/commands.h).
#include <filesystem>
#include <iostream>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"
#include "exec/progress.h"
#include "tables/table_image.h"
#include "tables/table_text.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

void printDiff(const TableDiff& d, std::ostream& out) {
  for (const std::string& line : d.shown) out << "  " << line << "\n";
  if (d.total > d.shown.size()) out << "  ... and " << (d.total - d.shown.size()) << " more\n";
}

}  // namespace

int cmdTables(Args& args) {
  const CaseSpec spec = caseFrom(args);
  auto out = args.get("--out");
  args.finish();
  if (!out) throw Error("--out DIR is required");
  ProgressBar bar(stderrIsTerminal() ? &std::cerr : nullptr, "tables", 0);
  bar.phase("schedule + compile");
  const BuiltCase c = buildCase(spec);
  bar.phase("write");
  std::error_code ec;
  fs::create_directories(*out, ec);
  if (ec) throw Error(*out + ": cannot create directory: " + ec.message());
  const std::string text = (fs::path(*out) / "tables.hct").string();
  const std::string image = (fs::path(*out) / "tables.hex").string();
  writeTableTextFile(text, c.tables);
  writeImageFile(image, c.tables);
  bar.finish();
  std::cout << "wrote " << text << " and " << image << ": " << c.tables.tables.size()
            << (c.tables.shared ? " shared table" : " node tables") << ", " << c.tables.depth()
            << " instructions, " << c.tables.cycles() << " cycles\n";
  return 0;
}

int cmdVerify(Args& args) {
  args.finish(1);
  if (args.positional().size() != 1)
    throw Error("verify takes one PATH (a .hct file or a directory)");
  const LoadedTables t = loadTables(args.positional()[0]);
  if (!t.image_diff.same()) {
    std::cerr << args.positional()[0] << ": tables.hct and tables.hex describe different tables ("
              << t.image_diff.total << " difference(s)):\n";
    printDiff(t.image_diff, std::cerr);
    return 1;
  }
  return printVerify(verifyTables(t.set, kShownErrors, &t.origin), t.path);
}

int cmdDiff(Args& args) {
  args.finish(2);
  if (args.positional().size() != 2) {
    throw Error("diff takes two tables (a .hct or .hex file, or a directory)");
  }
  const std::string& a = args.positional()[0];
  const std::string& b = args.positional()[1];
  const TableDiff d = diffTables(loadTables(a).set, loadTables(b).set, a, b);
  if (d.same()) {
    std::cout << a << " and " << b << " describe the same tables\n";
    return 0;
  }
  std::cout << a << " and " << b << " differ (" << d.total << " difference(s)):\n";
  printDiff(d, std::cout);
  return 1;
}

}  // namespace hcube
