#include "primitive_contacts.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace impetus {
namespace {

/// Writes into a fixed array; points past its capacity are dropped (callers reduce first).
struct ContactWriter {
  PrimitiveContacts& out;
  int count = 0;
  void add(const Vec3& pointA, const Vec3& pointB, const Vec3& normal, double separation) {
    if (count < kMaxPrimitiveContacts)
      out[static_cast<size_t>(count++)] = {pointA, pointB, normal, separation};
  }
};

/// Two spheres (also a capsule's nearest point on its axis): one point, normal from A to B.
void sphereSphere(const Vec3& centreA, double radiusA, const Vec3& centreB, double radiusB,
                  double margin, ContactWriter& w) {
  const Vec3 d = centreB - centreA;
  const double distance = d.norm();
  const double separation = distance - radiusA - radiusB;
  if (separation > margin) return;
  const Vec3 normal = distance > 1e-12 ? Vec3(d / distance) : Vec3::UnitZ();
  w.add(centreA + radiusA * normal, centreB - radiusB * normal, normal, separation);
}

/// Parameters s, t in [0, 1] of the closest points of segments p1 + s d1 and p2 + t d2
/// (Ericson, Real-Time Collision Detection, 5.1.9).
std::pair<double, double> closestOnSegments(const Vec3& p1, const Vec3& d1, const Vec3& p2,
                                            const Vec3& d2) {
  const Vec3 r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  constexpr double kTiny = 1e-18;
  if (a <= kTiny && e <= kTiny) return {0.0, 0.0};
  if (a <= kTiny) return {0.0, std::clamp(f / e, 0.0, 1.0)};
  const double c = d1.dot(r);
  if (e <= kTiny) return {std::clamp(-c / a, 0.0, 1.0), 0.0};
  const double b = d1.dot(d2), denominator = a * e - b * b;
  double s =
      denominator > kTiny * a * e ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  return {s, t};
}

/// A capsule's axis segment in the world: from `start` along `axis` (full length).
struct Segment {
  Vec3 start, axis;
};
Segment capsuleSegment(const ShapeDesc& capsule, const ShapePose& pose) {
  const Vec3 axis = pose.rotation.col(2) * capsule.length;
  return {pose.position - 0.5 * axis, axis};
}

void planeSphere(const ShapePose& plane, const Vec3& centre, double radius, double margin,
                 ContactWriter& w) {
  const Vec3 n = plane.rotation.col(2);
  const double height = n.dot(centre - plane.position);
  const double separation = height - radius;
  if (separation > margin) return;
  const Vec3 onB = centre - radius * n;
  w.add(onB - separation * n, onB, n, separation);
}

void planeBox(const ShapePose& plane, const ShapeDesc& box, const ShapePose& pose, double margin,
              ContactWriter& w) {
  // The (up to) four lowest corners within the margin: a resting face, an edge or a corner.
  const Vec3 n = plane.rotation.col(2);
  const Vec3 h = 0.5 * box.size;
  std::array<std::pair<double, Vec3>, 8> corners;
  for (int i = 0; i < 8; ++i) {
    const Vec3 local((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
    const Vec3 corner = pose.position + pose.rotation * local;
    corners[static_cast<size_t>(i)] = {n.dot(corner - plane.position), corner};
  }
  std::sort(corners.begin(), corners.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (int i = 0; i < 4 && corners[static_cast<size_t>(i)].first <= margin; ++i) {
    const auto& [separation, corner] = corners[static_cast<size_t>(i)];
    w.add(corner - separation * n, corner, n, separation);
  }
}

void planeCapsule(const ShapePose& plane, const ShapeDesc& capsule, const ShapePose& pose,
                  double margin, ContactWriter& w) {
  const Segment s = capsuleSegment(capsule, pose);
  planeSphere(plane, s.start, capsule.radius, margin, w);
  planeSphere(plane, s.start + s.axis, capsule.radius, margin, w);
}

void sphereCapsule(const Vec3& centre, double radius, const ShapeDesc& capsule,
                   const ShapePose& pose, double margin, ContactWriter& w) {
  const Segment s = capsuleSegment(capsule, pose);
  const double t = s.axis.squaredNorm() > 0.0
                       ? std::clamp((centre - s.start).dot(s.axis) / s.axis.squaredNorm(), 0.0, 1.0)
                       : 0.0;
  sphereSphere(centre, radius, s.start + t * s.axis, capsule.radius, margin, w);
}

void capsuleCapsule(const ShapeDesc& a, const ShapePose& poseA, const ShapeDesc& b,
                    const ShapePose& poseB, double margin, ContactWriter& w) {
  const Segment sa = capsuleSegment(a, poseA), sb = capsuleSegment(b, poseB);
  const double la = sa.axis.norm(), lb = sb.axis.norm();
  // Nearly parallel and overlapping along the axis: the ends of the overlap, so that a capsule
  // lying on another does not rock on a single point.
  if (la > 1e-9 && lb > 1e-9 && sa.axis.cross(sb.axis).norm() < 1e-3 * la * lb) {
    const Vec3 u = sa.axis / la;
    const double b0 = (sb.start - sa.start).dot(u), b1 = (sb.start + sb.axis - sa.start).dot(u);
    const double lo = std::max(0.0, std::min(b0, b1)), hi = std::min(la, std::max(b0, b1));
    if (hi - lo > 1e-6) {
      for (double along : {lo, hi}) {
        const Vec3 onA = sa.start + along * u;
        const double t = std::clamp((onA - sb.start).dot(sb.axis) / (lb * lb), 0.0, 1.0);
        sphereSphere(onA, a.radius, sb.start + t * sb.axis, b.radius, margin, w);
      }
      return;
    }
  }
  const auto [s, t] = closestOnSegments(sa.start, sa.axis, sb.start, sb.axis);
  sphereSphere(sa.start + s * sa.axis, a.radius, sb.start + t * sb.axis, b.radius, margin, w);
}

void boxSphere(const ShapeDesc& box, const ShapePose& pose, const Vec3& centre, double radius,
               double margin, ContactWriter& w) {
  const Vec3 h = 0.5 * box.size;
  const Vec3 local = pose.rotation.transpose() * (centre - pose.position);
  const Vec3 clamped = local.cwiseMax(-h).cwiseMin(h);
  Vec3 normalLocal, surfaceLocal;
  double separation;
  if (clamped != local) {  // outside: the nearest surface point
    const Vec3 d = local - clamped;
    const double distance = d.norm();
    normalLocal = d / distance;
    surfaceLocal = clamped;
    separation = distance - radius;
  } else {  // centre inside: out through the nearest face
    int axis = 0;
    double least = h.x() - std::abs(local.x());
    for (int k = 1; k < 3; ++k)
      if (h(k) - std::abs(local(k)) < least) {
        least = h(k) - std::abs(local(k));
        axis = k;
      }
    normalLocal = Vec3::Zero();
    normalLocal(axis) = local(axis) >= 0.0 ? 1.0 : -1.0;
    surfaceLocal = local;
    surfaceLocal(axis) = normalLocal(axis) * h(axis);
    separation = -least - radius;
  }
  if (separation > margin) return;
  const Vec3 normal = pose.rotation * normalLocal;
  w.add(pose.position + pose.rotation * surfaceLocal, centre - radius * normal, normal, separation);
}

/// Signed distance from a point (box frame) to a box of half extents h: < 0 inside. Convex.
double boxSignedDistance(const Vec3& h, const Vec3& local) {
  const Vec3 q = local.cwiseAbs() - h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

void boxCapsule(const ShapeDesc& box, const ShapePose& pose, const ShapeDesc& capsule,
                const ShapePose& capsulePose, double margin, ContactWriter& w) {
  // The capsule as spheres on its axis: both ends (a capsule lying on a face rests on them) and
  // the axis point deepest in the box when that is neither end (a capsule across an edge). The
  // box's signed distance is convex along the axis, so that point is interior only if the
  // distance falls from both ends inwards; then a golden-section search finds it. (Resting on a
  // face or clear of the box, the common cases, cost the two probes only.)
  const Segment s = capsuleSegment(capsule, capsulePose);
  const Vec3 h = 0.5 * box.size;
  const Vec3 start = pose.rotation.transpose() * (s.start - pose.position);
  const Vec3 axis = pose.rotation.transpose() * s.axis;
  const auto distance = [&](double t) { return boxSignedDistance(h, start + t * axis); };
  constexpr double kEnd = 1e-3;  // an interior point this close to an end is that end
  boxSphere(box, pose, s.start, capsule.radius, margin, w);
  boxSphere(box, pose, s.start + s.axis, capsule.radius, margin, w);
  const double atStart = distance(0.0), atEnd = distance(1.0);
  const double nearStart = distance(kEnd), nearEnd = distance(1.0 - kEnd);
  if (!(nearStart < atStart - 1e-12 && nearEnd < atEnd - 1e-12)) return;
  // Below the secants through the probes the distance cannot go (convexity): where even their
  // crossing is beyond the capsule's reach, the interior adds no point.
  const double fall = (nearStart - atStart) / kEnd, rise = (atEnd - nearEnd) / kEnd;  // per unit t
  const double crossing = kEnd + (nearEnd - nearStart - rise * (1.0 - 2.0 * kEnd)) / (fall - rise);
  if (nearStart + fall * (crossing - kEnd) > capsule.radius + margin) return;
  constexpr double kGolden = 0.6180339887498949;
  double lo = 0.0, hi = 1.0;
  double x1 = hi - kGolden * (hi - lo), x2 = lo + kGolden * (hi - lo);
  double f1 = distance(x1), f2 = distance(x2);
  for (int i = 0; i < 40; ++i) {  // 0.618^40 ~ 4e-9 of the length
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1;
      x1 = hi - kGolden * (hi - lo), f1 = distance(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2;
      x2 = lo + kGolden * (hi - lo), f2 = distance(x2);
    }
  }
  const double deepest = 0.5 * (lo + hi);
  if (deepest > kEnd && deepest < 1.0 - kEnd && distance(deepest) < std::min(atStart, atEnd) - 1e-6)
    boxSphere(box, pose, s.start + deepest * s.axis, capsule.radius, margin, w);
}

/// Keeps the four of `count` points that best cover the patch: the deepest, the farthest from
/// it, then the two spanning the largest triangles on either side of their line.
int reduceToFour(std::array<std::pair<Vec3, double>, 8>& points, int count, const Vec3& normal) {
  if (count <= 4) return count;
  const auto take = [&](int slot, int index) {
    std::swap(points[size_t(slot)], points[size_t(index)]);
  };
  int best = 0;
  for (int i = 1; i < count; ++i)
    if (points[size_t(i)].second < points[size_t(best)].second) best = i;
  take(0, best);
  best = 1;
  for (int i = 2; i < count; ++i)
    if ((points[size_t(i)].first - points[0].first).squaredNorm() >
        (points[size_t(best)].first - points[0].first).squaredNorm())
      best = i;
  take(1, best);
  const Vec3 edge = points[1].first - points[0].first;
  const auto area = [&](int i) {
    return normal.dot(edge.cross(points[size_t(i)].first - points[0].first));
  };
  best = 2;
  for (int i = 3; i < count; ++i)
    if (area(i) > area(best)) best = i;
  take(2, best);
  best = 3;
  for (int i = 4; i < count; ++i)
    if (area(i) < area(best)) best = i;
  take(3, best);
  return 4;
}

/// Face contact of two boxes: the incident box's face most opposed to `normal` (unit, from the
/// reference box towards the incident one) clipped to the side planes of the reference face on
/// `axis`. Writes pairs (point on the reference face plane, point on the incident box).
void clipBoxFaces(const Vec3& hRef, const ShapePose& ref, int axis, const Vec3& normal,
                  const Vec3& hInc, const ShapePose& inc, double margin, bool referenceIsA,
                  ContactWriter& w) {
  const Vec3 faceCentre = ref.position + hRef(axis) * normal;
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  const Vec3 du = ref.rotation.col(u), dv = ref.rotation.col(v);
  // Incident face: the incident box's face whose outward normal is most anti-parallel to normal.
  int m = 0;
  for (int k = 1; k < 3; ++k)
    if (std::abs(inc.rotation.col(k).dot(normal)) > std::abs(inc.rotation.col(m).dot(normal)))
      m = k;
  const Vec3 outward = inc.rotation.col(m) * (inc.rotation.col(m).dot(normal) > 0.0 ? -1.0 : 1.0);
  const Vec3 incCentre = inc.position + hInc(m) * outward;
  const Vec3 e1 = inc.rotation.col((m + 1) % 3) * hInc((m + 1) % 3);
  const Vec3 e2 = inc.rotation.col((m + 2) % 3) * hInc((m + 2) % 3);
  std::array<Vec3, 8> polygon = {incCentre + e1 + e2, incCentre - e1 + e2, incCentre - e1 - e2,
                                 incCentre + e1 - e2};
  int n = 4;
  // Sutherland-Hodgman against |(p - faceCentre) . d| <= extent for d = du, dv.
  const auto clip = [&](const Vec3& d, double offset, double sign) {
    std::array<Vec3, 8> result;
    int count = 0;
    for (int i = 0; i < n; ++i) {
      const Vec3& p = polygon[size_t(i)];
      const Vec3& q = polygon[size_t((i + 1) % n)];
      const double dp = offset - sign * d.dot(p - faceCentre);  // >= 0 inside
      const double dq = offset - sign * d.dot(q - faceCentre);
      if (dp >= 0.0 && count < 8) result[size_t(count++)] = p;
      if ((dp >= 0.0) != (dq >= 0.0) && count < 8)
        result[size_t(count++)] = p + (q - p) * (dp / (dp - dq));
    }
    polygon = result;
    n = count;
  };
  clip(du, hRef(u), 1.0);
  if (n) clip(du, hRef(u), -1.0);
  if (n) clip(dv, hRef(v), 1.0);
  if (n) clip(dv, hRef(v), -1.0);
  std::array<std::pair<Vec3, double>, 8> kept;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const double depth = normal.dot(polygon[size_t(i)] - faceCentre);
    if (depth <= margin) kept[size_t(count++)] = {polygon[size_t(i)], depth};
  }
  count = reduceToFour(kept, count, normal);
  for (int i = 0; i < count; ++i) {
    const auto& [onIncident, depth] = kept[size_t(i)];
    const Vec3 onReference = onIncident - depth * normal;
    if (referenceIsA)
      w.add(onReference, onIncident, normal, depth);
    else
      w.add(onIncident, onReference, -normal, depth);
  }
}

void boxBox(const ShapeDesc& a, const ShapePose& pa, const ShapeDesc& b, const ShapePose& pb,
            double margin, ContactWriter& w) {
  // Separating axes: 3 face normals of each box and the 9 edge-edge cross products. The axis of
  // largest separation (least penetration) decides; faces win ties, as their contact is stabler.
  const Vec3 ha = 0.5 * a.size, hb = 0.5 * b.size;
  const Vec3 t = pb.position - pa.position;
  const Mat3& ra = pa.rotation;
  const Mat3& rb = pb.rotation;
  const Mat3 c = ra.transpose() * rb;  // B's axes in A's frame
  const Mat3 absC = c.cwiseAbs().array() + 1e-12;
  const Vec3 tA = ra.transpose() * t;
  double faceA = -1e300, faceB = -1e300, edge = -1e300;
  int axisA = 0, axisB = 0, edgeI = 0, edgeJ = 0;
  Vec3 edgeNormal = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    const double s = std::abs(tA(i)) - (ha(i) + hb.dot(absC.row(i)));
    if (s > margin) return;
    if (s > faceA) faceA = s, axisA = i;
  }
  for (int j = 0; j < 3; ++j) {
    const double s = std::abs(t.dot(rb.col(j))) - (hb(j) + ha.dot(absC.col(j)));
    if (s > margin) return;
    if (s > faceB) faceB = s, axisB = j;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Vec3 l = ra.col(i).cross(rb.col(j));
      const double length = l.norm();
      if (length < 1e-6) continue;  // parallel edges: the face axes cover them
      l /= length;
      const double s = std::abs(t.dot(l)) - (ha.dot((ra.transpose() * l).cwiseAbs()) +
                                             hb.dot((rb.transpose() * l).cwiseAbs()));
      if (s > margin) return;
      if (s > edge) edge = s, edgeI = i, edgeJ = j, edgeNormal = l;
    }
  constexpr double kFaceBias = 1e-4;  // m: a face axis within this of the best still wins
  const double bestFace = std::max(faceA, faceB);
  if (edge > bestFace + kFaceBias) {
    // Edge against edge: the closest points of the two supporting edges.
    if (edgeNormal.dot(t) < 0.0) edgeNormal = -edgeNormal;
    Vec3 onA = pa.position, onB = pb.position;
    for (int k = 0; k < 3; ++k) {
      if (k != edgeI) onA += ra.col(k) * (ra.col(k).dot(edgeNormal) > 0.0 ? ha(k) : -ha(k));
      if (k != edgeJ) onB += rb.col(k) * (rb.col(k).dot(edgeNormal) > 0.0 ? -hb(k) : hb(k));
    }
    const Vec3 da = ra.col(edgeI) * (2.0 * ha(edgeI)), db = rb.col(edgeJ) * (2.0 * hb(edgeJ));
    const auto [s, u] = closestOnSegments(onA - 0.5 * da, da, onB - 0.5 * db, db);
    const Vec3 pointA = onA - 0.5 * da + s * da, pointB = onB - 0.5 * db + u * db;
    w.add(pointA, pointB, edgeNormal, edgeNormal.dot(pointB - pointA));
    return;
  }
  if (faceA >= faceB - kFaceBias) {
    const Vec3 n = ra.col(axisA) * (tA(axisA) >= 0.0 ? 1.0 : -1.0);
    clipBoxFaces(ha, pa, axisA, n, hb, pb, margin, true, w);
  } else {
    const Vec3 n = rb.col(axisB) * (t.dot(rb.col(axisB)) >= 0.0 ? -1.0 : 1.0);  // from B to A
    clipBoxFaces(hb, pb, axisB, n, ha, pa, margin, false, w);
  }
}

/// Collides a (A) with b (B) for the type pairs written out below; false for the others (the
/// caller swaps them).
bool collideOrdered(const ShapeDesc& a, const ShapePose& pa, const ShapeDesc& b,
                    const ShapePose& pb, double margin, ContactWriter& w) {
  using T = ShapeType;
  switch (a.type) {
    case T::Plane:
      if (b.type == T::Sphere)
        planeSphere(pa, pb.position, b.radius, margin, w);
      else if (b.type == T::Box)
        planeBox(pa, b, pb, margin, w);
      else if (b.type == T::Capsule)
        planeCapsule(pa, b, pb, margin, w);
      else
        return false;
      return true;
    case T::Sphere:
      if (b.type == T::Sphere)
        sphereSphere(pa.position, a.radius, pb.position, b.radius, margin, w);
      else if (b.type == T::Capsule)
        sphereCapsule(pa.position, a.radius, b, pb, margin, w);
      else
        return false;
      return true;
    case T::Capsule:
      if (b.type != T::Capsule) return false;
      capsuleCapsule(a, pa, b, pb, margin, w);
      return true;
    case T::Box:
      if (b.type == T::Sphere)
        boxSphere(a, pa, pb.position, b.radius, margin, w);
      else if (b.type == T::Box)
        boxBox(a, pa, b, pb, margin, w);
      else if (b.type == T::Capsule)
        boxCapsule(a, pa, b, pb, margin, w);
      else
        return false;
      return true;
    default:
      return false;
  }
}

}  // namespace

bool isPrimitiveShape(ShapeType t) {
  return t == ShapeType::Plane || t == ShapeType::Sphere || t == ShapeType::Capsule ||
         t == ShapeType::Box;
}

int collidePrimitives(const ShapeDesc& a, const ShapePose& poseA, const ShapeDesc& b,
                      const ShapePose& poseB, double margin, PrimitiveContacts& out) {
  ContactWriter w{out};
  if (collideOrdered(a, poseA, b, poseB, margin, w)) return w.count;
  // The other order: the points swap sides and the normal turns round.
  collideOrdered(b, poseB, a, poseA, margin, w);
  for (int i = 0; i < w.count; ++i) {
    PrimitiveContact& c = out[static_cast<size_t>(i)];
    std::swap(c.pointA, c.pointB);
    c.normal = -c.normal;
  }
  return w.count;
}

}  // namespace impetus
