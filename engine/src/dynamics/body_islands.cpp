#include "impetus/dynamics/body_islands.h"

#include <utility>

namespace impetus {

void BodyIslands::reset(size_t bodyCount) {
  parent_.resize(bodyCount);
  for (size_t i = 0; i < bodyCount; ++i) parent_[i] = static_cast<BodyId>(i);
}

BodyId BodyIslands::root(BodyId b) {
  auto at = [&](BodyId i) -> BodyId& { return parent_[static_cast<size_t>(i)]; };
  while (at(b) != b) {
    at(b) = at(at(b));  // path halving
    b = at(b);
  }
  return b;
}

void BodyIslands::join(BodyId a, BodyId b) {
  a = root(a);
  b = root(b);
  if (a == b) return;
  if (b < a) std::swap(a, b);
  parent_[static_cast<size_t>(b)] = a;
}

}  // namespace impetus
