#pragma once
// Capacity with headroom for per-step buffers whose size follows the scene's busiest moment
// (contacts, the tree's nodes): grown to twice what is needed, a scene a little busier than any
// step before it does not allocate again (the zero-allocation step after warm-up).

#include <cstddef>
#include <vector>

namespace impetus {

/// Makes room for at least `size` elements; when it must grow, grows to twice that.
template <typename T, typename Allocator>
void reserveWithHeadroom(std::vector<T, Allocator>& v, std::size_t size) {
  if (v.capacity() < size) v.reserve(2 * size);
}

}  // namespace impetus
