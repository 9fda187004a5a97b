#include "process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "base/error.h"

extern char** environ;

namespace hcube {

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::function<void(const std::string&)>& on_line) {
  if (argv.empty()) throw Error("runProcess: no program given");
  // Close-on-exec, so that a program started at the same time from another thread does not
  // inherit this pipe's write end and hold it open after this program has exited.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error("cannot create a pipe to run " + argv[0]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw Error("cannot run '" + argv[0] + "' (is it installed? run scripts/setup.sh)");
  }
  ProcessResult result;
  std::string pending;
  char buf[4096];
  while (true) {
    const ssize_t got = read(fds[0], buf, sizeof buf);
    if (got <= 0) break;
    result.output.append(buf, static_cast<size_t>(got));
    pending.append(buf, static_cast<size_t>(got));
    size_t nl = 0;
    while ((nl = pending.find('\n')) != std::string::npos) {
      if (on_line) on_line(pending.substr(0, nl));
      pending.erase(0, nl + 1);
    }
  }
  if (!pending.empty() && on_line) on_line(pending);
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return result;
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string findProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::filesystem::path p = std::filesystem::path(dir) / name;
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

}  // namespace hcube
