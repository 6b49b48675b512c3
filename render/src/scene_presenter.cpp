#include "impetus/render/scene_presenter.h"

#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Material>
#include <osg/PolygonMode>
#include <osg/Shape>
#include <osg/ShapeDrawable>
#include <osgUtil/SmoothingVisitor>

#include <algorithm>

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

}  // namespace

void ScenePresenter::clear() {
  if (parent_ && root_) parent_->removeChild(root_);
  root_ = nullptr;
  bodyNodes_.clear();
}

void ScenePresenter::build(osg::Group* parent, std::span<const RigidBody> bodies,
                           std::span<const std::pair<BodyId, ShapeDesc>> geoms) {
  clear();
  parent_ = parent;
  root_ = new osg::Group;
  root_->setName("scene_bodies");
  bodyNodes_.assign(bodies.size(), nullptr);
  for (const auto& [id, shape] : geoms) {
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
    osg::ref_ptr<osg::MatrixTransform>& node = bodyNodes_[static_cast<size_t>(id)];
    if (!node) {
      node = new osg::MatrixTransform;
      node->setName(bodies[static_cast<size_t>(id)].name);
      root_->addChild(node);
    }
    osg::ref_ptr<osg::Geode> geode = new osg::Geode;
    geode->addDrawable(drawable);
    osg::ref_ptr<osg::Material> material = new osg::Material;
    material->setColorMode(osg::Material::AMBIENT_AND_DIFFUSE);
    material->setSpecular(osg::Material::FRONT_AND_BACK, {0.2f, 0.2f, 0.2f, 1.0f});
    material->setShininess(osg::Material::FRONT_AND_BACK, 24.0f);
    geode->getOrCreateStateSet()->setAttributeAndModes(material);
    geode->getOrCreateStateSet()->setMode(GL_NORMALIZE, osg::StateAttribute::ON);
    node->addChild(geode);
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
}

void ScenePresenter::update(std::span<const Vec3> positions, std::span<const Quat> orientations) {
  const size_t n = std::min({bodyNodes_.size(), positions.size(), orientations.size()});
  for (size_t i = 0; i < n; ++i)
    if (bodyNodes_[i])
      bodyNodes_[i]->setMatrix(osg::Matrix::rotate(toOsg(orientations[i])) *
                               osg::Matrix::translate(toOsg(positions[i])));
}

void ScenePresenter::setWireframe(bool on) {
  wireframe_ = on;
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
