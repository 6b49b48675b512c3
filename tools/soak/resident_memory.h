#pragma once
// Resident memory of this process, for the soaks' check that a training day does not grow it.
#include <unistd.h>
#include <fstream>

namespace impetus::soak {

/// Resident memory of this process (bytes), from /proc/self/statm.
inline double residentBytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return double(resident) * double(sysconf(_SC_PAGESIZE));
}

}  // namespace impetus::soak
