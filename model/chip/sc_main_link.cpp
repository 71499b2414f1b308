// Debian's libsystemc.so carries SystemC's own main(), which calls the user's
// sc_main(), so every program linked with it needs an sc_main symbol. tdsim's
// programs (the CLI, the tests) have their own main() and drive the kernel
// with sc_start(); this definition only satisfies the linker. CMake forces it
// into each link with `-u sc_main`.
#include <cstdio>

extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) {
  std::fputs("tdsim: sc_main is not an entry point of this program\n", stderr);
  return 2;
}
