#include "model/sim/interrupt.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace td::sim {

namespace {

std::atomic<int> g_signal{0};

// A fixed table, so the handler touches no allocator: each slot is a path
// (NUL-terminated) and a flag saying it is in use.
constexpr int kSlots = 64;
constexpr size_t kPathBytes = 4096;
char g_paths[kSlots][kPathBytes];
std::atomic<bool> g_used[kSlots];

extern "C" void on_signal(int signal) {
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, signal)) return;  // first: stop at the next boundary
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) unlink(g_paths[i]);
  _exit(128 + g_signal.load());
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

int interrupt_exit_code() { return 128 + interrupt_signal(); }

void clear_interrupt() { g_signal.store(0); }

int register_temp_file(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    if (g_used[i].load()) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_used[i].store(true);
    return i;
  }
  return -1;
}

void unregister_temp_file(int slot) {
  if (slot >= 0 && slot < kSlots) g_used[slot].store(false);
}

}  // namespace td::sim
