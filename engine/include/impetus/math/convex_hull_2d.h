#pragma once
// The convex hull of points in a plane (Andrew's monotone chain), allocation-free: a walking
// controller's support polygon each step, the balance overlay's each frame.

#include <algorithm>
#include <span>
#include <utility>

#include <Eigen/Core>

namespace impetus {

/// Sorts `points` and writes their hull, counter-clockwise without collinear points, to `hull`
/// (room for points.size() + 1); returns its vertex count. Fewer than three points are returned
/// as they are.
inline int convexHull2d(std::span<Eigen::Vector2d> points, std::span<Eigen::Vector2d> hull) {
  using Vec2 = Eigen::Vector2d;
  const auto cross = [](const Vec2& o, const Vec2& a, const Vec2& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  // Insertion sort by x, then y: a few sole corners or contact points.
  for (size_t i = 1; i < points.size(); ++i)
    for (size_t j = i; j > 0; --j) {
      Vec2& a = points[j - 1];
      Vec2& b = points[j];
      if (a.x() < b.x() || (a.x() == b.x() && a.y() <= b.y())) break;
      std::swap(a, b);
    }
  const int n = int(points.size());
  if (n < 3) {
    std::copy(points.begin(), points.end(), hull.begin());
    return n;
  }
  // Each chain takes only the points on its side of the line from the first point to the last
  // (strictly: points on it are not hull vertices), so every point is written at most once and
  // the first twice: n + 1 at most. Testing every point in both chains, as the textbook does,
  // lets rounding keep a point of a nearly straight row (a track's contacts) in both and write
  // past n + 1; a NaN point, failing every test, is in neither.
  const Vec2 first = points.front(), last = points.back();
  const auto side = [&](int i) { return cross(first, last, points[size_t(i)]); };
  int h = 0;
  for (int i = 0; i < n; ++i) {
    if (i != 0 && i != n - 1 && !(side(i) < 0.0)) continue;  // the lower chain: right of it
    while (h >= 2 && cross(hull[size_t(h - 2)], hull[size_t(h - 1)], points[size_t(i)]) <= 0) --h;
    hull[size_t(h++)] = points[size_t(i)];
  }
  for (int i = n - 2, lower = h + 1; i >= 0; --i) {
    if (i != 0 && !(side(i) > 0.0)) continue;  // the upper chain: left of it
    while (h >= lower && cross(hull[size_t(h - 2)], hull[size_t(h - 1)], points[size_t(i)]) <= 0)
      --h;
    hull[size_t(h++)] = points[size_t(i)];
  }
  return h - 1;  // the first point closed the loop
}

}  // namespace impetus
