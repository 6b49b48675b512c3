#include "primitive_broadphase.h"

#include <cmath>
#include <limits>

namespace impetus {

WorldBox primitiveBox(const ShapeDesc& shape, const ShapePose& pose, double margin) {
  Vec3 half;
  switch (shape.type) {
    case ShapeType::Sphere:
      half.setConstant(shape.radius);
      break;
    case ShapeType::Capsule:  // the segment between the sphere centres (local z), swept by r
      half = 0.5 * shape.length * pose.rotation.col(2).cwiseAbs() + Vec3::Constant(shape.radius);
      break;
    case ShapeType::Box:
      half = pose.rotation.cwiseAbs() * (0.5 * shape.size);
      break;
    default: {  // a plane (static): every box reaches it
      constexpr double inf = std::numeric_limits<double>::infinity();
      return {Vec3::Constant(-inf), Vec3::Constant(inf)};
    }
  }
  half.array() += margin;
  return {pose.position - half, pose.position + half};
}

double primitiveBoundingRadius(const ShapeDesc& shape) {
  switch (shape.type) {
    case ShapeType::Sphere:
      return shape.radius;
    case ShapeType::Capsule:
      return 0.5 * shape.length + shape.radius;
    case ShapeType::Box:
      return 0.5 * shape.size.norm();
    default:
      return 0.0;
  }
}

void PrimitiveBroadphase::setBoxes(const std::vector<WorldBox>& boxes) {
  boxes_ = &boxes;
  const auto bounded = [&](int i) {
    return std::isfinite(boxes[static_cast<size_t>(i)].min.x()) &&
           std::isfinite(boxes[static_cast<size_t>(i)].max.x());
  };
  // Items keep their places from the last step (bodies move little in one): insertion sort is
  // then linear.
  if (order_.size() + unbounded_.size() != boxes.size()) {
    order_.clear();
    unbounded_.clear();
    for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
      (bounded(i) ? order_ : unbounded_).push_back(i);
  }
  for (size_t k = 1; k < order_.size(); ++k) {
    const int item = order_[k];
    const double key = boxes[static_cast<size_t>(item)].min.x();
    size_t m = k;
    for (; m > 0 && boxes[static_cast<size_t>(order_[m - 1])].min.x() > key; --m)
      order_[m] = order_[m - 1];
    order_[m] = item;
  }
}

}  // namespace impetus
