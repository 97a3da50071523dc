// Test helpers: is a process or process group really gone? kill(pid, 0) also
// succeeds for a zombie that its (new) parent has not reaped yet, so these read
// /proc and ignore zombies, and give the reaper a moment.
#pragma once

#include <dirent.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace labgate::transport::testing {

// State and process group of a pid from /proc/PID/stat, or false if it is gone.
inline bool read_stat(long pid, char& state, long& pgrp) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(f, line)) return false;
  const auto close = line.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return false;
  std::istringstream rest(line.substr(close + 2));
  long ppid = 0;
  rest >> state >> ppid >> pgrp;
  return static_cast<bool>(rest);
}

inline bool pid_running(long pid) {
  char state = 0;
  long pgrp = 0;
  return read_stat(pid, state, pgrp) && state != 'Z' && state != 'X';
}

inline bool group_running(long pgid) {
  DIR* d = opendir("/proc");
  if (!d) return false;
  bool found = false;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    char state = 0;
    long pgrp = 0;
    if (read_stat(pid, state, pgrp) && pgrp == pgid && state != 'Z' && state != 'X') {
      found = true;
      break;
    }
  }
  closedir(d);
  return found;
}

// Live (non-zombie) pids whose command line, words joined by spaces, is `cmdline`.
inline std::vector<long> pids_with_cmdline(const std::string& cmdline) {
  std::vector<long> out;
  DIR* d = opendir("/proc");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    std::ifstream f("/proc/" + std::to_string(pid) + "/cmdline");
    std::string words((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    while (!words.empty() && words.back() == '\0') words.pop_back();
    for (char& c : words) c = c == '\0' ? ' ' : c;
    if (words == cmdline && pid_running(pid)) out.push_back(pid);
  }
  closedir(d);
  return out;
}

// True once `alive()` turns false within `limit`.
template <typename F>
bool gone_within(F alive, std::chrono::milliseconds limit = std::chrono::milliseconds(2000)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (alive()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace labgate::transport::testing
