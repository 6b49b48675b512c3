#include "impetus/render/scene_presenter.h"

#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Material>
#include <osg/PolygonMode>
#include <osg/Shape>
#include <osg/ShapeDrawable>
#include <osgUtil/SmoothingVisitor>

#include "impetus/render/scene_lighting.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace impetus::render {
namespace {

osg::Vec3 toOsg(const Vec3& v) {
  return osg::Vec3(float(v.x()), float(v.y()), float(v.z()));
}
osg::Quat toOsg(const Quat& q) {
  return osg::Quat(q.x(), q.y(), q.z(), q.w());
}

/// A calm palette; tracks are dark rubber, static bodies concrete grey.
osg::Vec4 colourFor(BodyId id, const ShapeDesc& s, bool isStatic) {
  if (s.trackMotor >= 0) return {0.12f, 0.12f, 0.13f, 1.0f};
  if (isStatic) return {0.55f, 0.55f, 0.52f, 1.0f};
  static const osg::Vec4 palette[] = {{0.85f, 0.55f, 0.15f, 1}, {0.25f, 0.50f, 0.80f, 1},
                                      {0.60f, 0.75f, 0.30f, 1}, {0.75f, 0.35f, 0.35f, 1},
                                      {0.55f, 0.45f, 0.70f, 1}, {0.80f, 0.75f, 0.35f, 1}};
  return palette[static_cast<size_t>(id) % (sizeof(palette) / sizeof(palette[0]))];
}

/// The lit material every body's geode shares (colour from the drawable).
void applyMaterial(osg::Geode& geode) {
  osg::ref_ptr<osg::Material> material = new osg::Material;
  material->setColorMode(osg::Material::AMBIENT_AND_DIFFUSE);
  material->setSpecular(osg::Material::FRONT_AND_BACK, {0.2f, 0.2f, 0.2f, 1.0f});
  material->setShininess(osg::Material::FRONT_AND_BACK, 24.0f);
  geode.getOrCreateStateSet()->setAttributeAndModes(material);
  geode.getOrCreateStateSet()->setMode(GL_NORMALIZE, osg::StateAttribute::ON);
  SceneLighting::markColourMaterial(*geode.getOrCreateStateSet());
}

osg::ref_ptr<osg::Drawable> makeDrawable(const ShapeDesc& s, const osg::Vec4& colour) {
  const osg::Vec3 c = toOsg(s.position);
  const osg::Quat q = toOsg(s.orientation);
  osg::ref_ptr<osg::Shape> shape;
  switch (s.type) {
    case ShapeType::Box: {
      osg::ref_ptr<osg::Box> box =
          new osg::Box(c, float(s.size.x()), float(s.size.y()), float(s.size.z()));
      box->setRotation(q);
      shape = box;
      break;
    }
    case ShapeType::Sphere:
      shape = new osg::Sphere(c, float(s.radius));
      break;
    case ShapeType::Capsule: {
      osg::ref_ptr<osg::Capsule> capsule = new osg::Capsule(c, float(s.radius), float(s.length));
      capsule->setRotation(q);
      shape = capsule;
      break;
    }
    case ShapeType::Cylinder: {
      osg::ref_ptr<osg::Cylinder> cylinder = new osg::Cylinder(c, float(s.radius), float(s.length));
      cylinder->setRotation(q);
      shape = cylinder;
      break;
    }
    case ShapeType::Mesh:
    case ShapeType::ConvexHull: {
      osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
      osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
      const Mat3 r = s.orientation.toRotationMatrix();
      for (const Vec3& p : s.vertices) v->push_back(toOsg(s.position + r * p));
      g->setVertexArray(v);
      if (!s.triangles.empty()) {
        osg::ref_ptr<osg::DrawElementsUInt> tris = new osg::DrawElementsUInt(GL_TRIANGLES);
        for (int i : s.triangles) tris->push_back(static_cast<unsigned>(i));
        g->addPrimitiveSet(tris);
      } else {
        g->addPrimitiveSet(new osg::DrawArrays(GL_POINTS, 0, static_cast<int>(v->size())));
      }
      osgUtil::SmoothingVisitor::smooth(*g);
      g->setColorArray(new osg::Vec4Array(1, &colour), osg::Array::BIND_OVERALL);
      return g;
    }
    case ShapeType::Plane:
    case ShapeType::Heightfield:
      return nullptr;  // the ground grid shows the z = 0 plane; tilted planes get a large slab
  }
  osg::ref_ptr<osg::ShapeDrawable> drawable = new osg::ShapeDrawable(shape);
  drawable->setColor(colour);  // ShapeDrawable carries a colour array; the material follows it
  return drawable;
}

/// Rings along a beam's tube, sides of each ring; samples between two joints.
constexpr int kTubeSides = 12;
constexpr int kSamplesPerSegment = 6;

osg::ref_ptr<osg::Geometry> makeTube(size_t rings, const osg::Vec4& colour,
                                     osg::ref_ptr<osg::Vec3Array>& vertices,
                                     osg::ref_ptr<osg::Vec3Array>& normals) {
  osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
  g->setName("beam_tube");
  g->setDataVariance(osg::Object::DYNAMIC);  // rewritten every frame
  g->setUseDisplayList(false);
  g->setUseVertexBufferObjects(true);
  vertices = new osg::Vec3Array(rings * kTubeSides);
  normals = new osg::Vec3Array(rings * kTubeSides);
  g->setVertexArray(vertices);
  g->setNormalArray(normals, osg::Array::BIND_PER_VERTEX);
  g->setColorArray(new osg::Vec4Array(1, &colour), osg::Array::BIND_OVERALL);
  for (size_t r = 0; r + 1 < rings; ++r) {
    osg::ref_ptr<osg::DrawElementsUInt> strip = new osg::DrawElementsUInt(GL_TRIANGLE_STRIP);
    for (int k = 0; k <= kTubeSides; ++k) {
      const unsigned side = static_cast<unsigned>(k % kTubeSides);
      strip->push_back(static_cast<unsigned>(r * kTubeSides) + side);
      strip->push_back(static_cast<unsigned>((r + 1) * kTubeSides) + side);
    }
    g->addPrimitiveSet(strip);
  }
  return g;
}

}  // namespace

template <class PoseOf>
void ScenePresenter::bendBeams(const PoseOf& pose) {
  for (BeamTube& tube : beams_) {
    const BeamShape& shape = tube.shape;
    // Knots: the root, each segment's start (its joint) and the tip; tangents there the mean of
    // the neighbouring segments' axes. Cubic Hermite pieces between knots.
    const size_t n = shape.segments.size();
    std::vector<Vec3> knots, tangents;
    const auto [mountPosition, mountOrientation] = pose(shape.mount);
    knots.push_back(mountPosition + mountOrientation * shape.rootInMount);
    Vec3 previousAxis = (mountOrientation * shape.axisInMount).normalized();
    tangents.push_back(previousAxis);
    for (size_t k = 0; k < n; ++k) {
      const auto [position, orientation] = pose(shape.segments[k]);
      const Vec3 axis = orientation * Vec3::UnitX();
      knots.push_back(position - 0.5 * shape.segmentLengths[k] * axis);
      tangents.push_back((previousAxis + axis).normalized());
      if (k + 1 == n) {
        knots.push_back(position + 0.5 * shape.segmentLengths[k] * axis);
        tangents.push_back(axis);
      }
      previousAxis = axis;
    }
    if (flexScale_ != 1.0) {
      // Magnified bending: the knots' offsets from the chord root -> tip and the tangents'
      // turns away from it, times the scale; the ends stay where the bodies are.
      const Vec3 root = knots.front(), chord = knots.back() - root;
      const double length = chord.norm();
      if (length > 1e-9) {
        const Vec3 along = chord / length;
        for (Vec3& knot : knots) {
          const Vec3 onChord = root + along * along.dot(knot - root);
          knot = onChord + flexScale_ * (knot - onChord);
        }
        for (Vec3& tangent : tangents) {
          const Vec3 across = tangent - along * along.dot(tangent);
          tangent = (along * along.dot(tangent) + flexScale_ * across).normalized();
        }
      }
    }
    // Rings: centres along the curve, each ring's frame carried from the last (parallel
    // transport) so that the tube does not twist between segments.
    Vec3 normal = tangents.front().unitOrthogonal();
    size_t ring = 0;
    const auto addRing = [&](const Vec3& centre, const Vec3& tangent) {
      normal = (normal - normal.dot(tangent) * tangent).normalized();
      const Vec3 binormal = tangent.cross(normal);
      for (int k = 0; k < kTubeSides; ++k) {
        const double a = 2.0 * std::numbers::pi * k / kTubeSides;
        const Vec3 out = std::cos(a) * normal + std::sin(a) * binormal;
        (*tube.vertices)[ring * kTubeSides + k] = toOsg(centre + shape.radius * out);
        (*tube.normals)[ring * kTubeSides + k] = toOsg(out);
      }
      ++ring;
    };
    addRing(knots.front(), tangents.front());
    for (size_t j = 0; j + 1 < knots.size(); ++j) {
      const Vec3 &p0 = knots[j], &p1 = knots[j + 1];
      const double chord = (p1 - p0).norm();
      const Vec3 m0 = chord * tangents[j], m1 = chord * tangents[j + 1];
      for (int i = 1; i <= kSamplesPerSegment; ++i) {
        const double t = double(i) / kSamplesPerSegment, t2 = t * t, t3 = t2 * t;
        const Vec3 point = (2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * m0 +
                           (-2 * t3 + 3 * t2) * p1 + (t3 - t2) * m1;
        const Vec3 slope = (6 * t2 - 6 * t) * p0 + (3 * t2 - 4 * t + 1) * m0 +
                           (-6 * t2 + 6 * t) * p1 + (3 * t2 - 2 * t) * m1;
        addRing(point, slope.norm() > 1e-12 ? Vec3(slope.normalized()) : tangents[j + 1]);
      }
    }
    tube.vertices->dirty();
    tube.normals->dirty();
    tube.geometry->dirtyBound();
  }
}

void ScenePresenter::clear() {
  if (parent_ && root_) parent_->removeChild(root_);
  root_ = nullptr;
  bodyNodes_.clear();
  beams_.clear();
  visuals_.clear();
  visualNodes_.clear();
  hiddenGeoms_.clear();
}

void ScenePresenter::build(osg::Group* parent, std::span<const RigidBody> bodies,
                           std::span<const std::pair<BodyId, ShapeDesc>> geoms,
                           std::span<const BeamShape> beams, std::span<const VisualDesc> visuals) {
  clear();
  parent_ = parent;
  root_ = new osg::Group;
  root_->setName("scene_bodies");
  bodyNodes_.assign(bodies.size(), nullptr);
  std::vector<char> inBeam(bodies.size(), 0), hasVisual(bodies.size(), 0);
  const auto nodeOf = [&](BodyId id) -> osg::MatrixTransform* {
    osg::ref_ptr<osg::MatrixTransform>& node = bodyNodes_[static_cast<size_t>(id)];
    if (!node) {
      node = new osg::MatrixTransform;
      node->setName(bodies[static_cast<size_t>(id)].name);
      root_->addChild(node);
    }
    return node.get();
  };
  for (const VisualDesc& v : visuals) {
    if (v.body < 0 || static_cast<size_t>(v.body) >= bodies.size()) continue;
    DrawnVisual& drawn = visuals_.emplace_back(DrawnVisual{v, visualNodes_.make(v)});
    if (!drawn.node) continue;
    hasVisual[static_cast<size_t>(v.body)] = 1;
    nodeOf(v.body)->addChild(drawn.node);
  }
  for (const BeamShape& beam : beams) {
    for (const BodyId id : beam.segments) inBeam[static_cast<size_t>(id)] = 1;
    BeamTube tube;
    tube.shape = beam;
    const size_t rings = 1 + (beam.segments.size() + 1) * kSamplesPerSegment;
    tube.geometry = makeTube(rings, colourFor(beam.segments.front(), ShapeDesc{}, false),
                             tube.vertices, tube.normals);
    osg::ref_ptr<osg::Geode> geode = new osg::Geode;
    geode->addDrawable(tube.geometry);
    applyMaterial(*geode);
    root_->addChild(geode);
    beams_.push_back(std::move(tube));
  }
  for (const auto& [id, shape] : geoms) {
    if (inBeam[static_cast<size_t>(id)]) continue;  // the tube draws it
    const bool isStatic = bodies[static_cast<size_t>(id)].type == BodyType::Static;
    const osg::Vec4 colour = colourFor(id, shape, isStatic);
    osg::ref_ptr<osg::Drawable> drawable = makeDrawable(shape, colour);
    if (!drawable && shape.type == ShapeType::Plane &&
        shape.orientation.angularDistance(Quat::Identity()) > 1e-6) {
      ShapeDesc slab = shape;  // a tilted plane: a thin 20 m slab just below its surface
      slab.type = ShapeType::Box;
      slab.size = Vec3(20, 20, 0.02);
      slab.position = shape.position + shape.orientation * Vec3(0, 0, -0.011);
      drawable = makeDrawable(slab, colour);
    }
    if (!drawable) continue;
    osg::ref_ptr<osg::Geode> geode = new osg::Geode;
    geode->addDrawable(drawable);
    applyMaterial(*geode);
    nodeOf(id)->addChild(geode);
    if (hasVisual[static_cast<size_t>(id)]) hiddenGeoms_.push_back(geode);
  }
  parent_->addChild(root_);
  setWireframe(wireframe_);
  update(bodies);
}

void ScenePresenter::update(std::span<const RigidBody> bodies) {
  for (size_t i = 0; i < bodyNodes_.size() && i < bodies.size(); ++i) {
    if (!bodyNodes_[i]) continue;
    const RigidBody& b = bodies[i];
    bodyNodes_[i]->setMatrix(osg::Matrix::rotate(toOsg(b.orientation)) *
                             osg::Matrix::translate(toOsg(b.position)));
  }
  bendBeams([&](BodyId id) {
    const RigidBody& b = bodies[static_cast<size_t>(id)];
    return std::pair(b.position, b.orientation);
  });
}

void ScenePresenter::update(std::span<const Vec3> positions, std::span<const Quat> orientations) {
  const size_t n = std::min({bodyNodes_.size(), positions.size(), orientations.size()});
  for (size_t i = 0; i < n; ++i)
    if (bodyNodes_[i])
      bodyNodes_[i]->setMatrix(osg::Matrix::rotate(toOsg(orientations[i])) *
                               osg::Matrix::translate(toOsg(positions[i])));
  bendBeams([&](BodyId id) {
    const size_t i = static_cast<size_t>(id);
    return i < positions.size() && i < orientations.size()
               ? std::pair(positions[i], orientations[i])
               : std::pair(Vec3(Vec3::Zero()), Quat(Quat::Identity()));
  });
}

void ScenePresenter::updateTracks(std::span<const double> rotorAngles) {
  for (DrawnVisual& v : visuals_) {
    const int motor = v.desc.trackMotor;
    if (!v.node || motor < 0 || static_cast<size_t>(motor) >= rotorAngles.size()) continue;
    const double travel = v.desc.beltPerRotorRadian * rotorAngles[static_cast<size_t>(motor)];
    if (v.desc.rollRadius > 0.0) VisualNodes::roll(*v.node, v.desc, travel / v.desc.rollRadius);
    if (v.desc.treadPitch > 0.0)
      if (osg::TexMat* tread = VisualNodes::treadTexture(*v.node))
        // u runs backwards along the belt's bottom run (tools/assets): driving forward, the
        // belt there moves back under the hull, so its pattern's u goes up as the offset goes down.
        tread->setMatrix(osg::Matrix::translate(-std::fmod(travel / v.desc.treadPitch, 1.0), 0, 0));
  }
}

void ScenePresenter::setWireframe(bool on) {
  wireframe_ = on;
  for (const osg::ref_ptr<osg::Node>& geoms : hiddenGeoms_) geoms->setNodeMask(on ? ~0u : 0u);
  if (!root_) return;
  osg::StateSet* ss = root_->getOrCreateStateSet();
  if (on)
    ss->setAttributeAndModes(
        new osg::PolygonMode(osg::PolygonMode::FRONT_AND_BACK, osg::PolygonMode::LINE));
  else
    ss->removeAttribute(osg::StateAttribute::POLYGONMODE);
}

osg::MatrixTransform* ScenePresenter::bodyNode(BodyId id) const {
  return id >= 0 && static_cast<size_t>(id) < bodyNodes_.size()
             ? bodyNodes_[static_cast<size_t>(id)].get()
             : nullptr;
}

}  // namespace impetus::render
