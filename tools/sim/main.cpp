// impetus-sim: the headless command-line simulator.
#include <cstdio>
#include <cstring>

#include "impetus/version.h"

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("impetus-sim %s\n", impetus::version());
    return 0;
  }
  std::fprintf(stderr, "usage: impetus-sim --version\n");
  return 1;
}
