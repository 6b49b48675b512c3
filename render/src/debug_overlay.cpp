#include "impetus/render/debug_overlay.h"

#include <osg/Depth>
#include <osg/LineWidth>

namespace impetus::render {
namespace {

osg::Vec3 toOsg(const Vec3& v) {
  return osg::Vec3(float(v.x()), float(v.y()), float(v.z()));
}

}  // namespace

DebugOverlay::DebugOverlay()
    : geode_(new osg::Geode),
      lines_(new osg::Geometry),
      vertices_(new osg::Vec3Array),
      colours_(new osg::Vec4Array),
      draw_(new osg::DrawArrays(GL_LINES, 0, 0)) {
  geode_->setName("debug_overlay");
  lines_->setUseDisplayList(false);
  lines_->setUseVertexBufferObjects(true);
  lines_->setDataVariance(osg::Object::DYNAMIC);
  lines_->setVertexArray(vertices_);
  lines_->setColorArray(colours_, osg::Array::BIND_PER_VERTEX);
  lines_->addPrimitiveSet(draw_);
  geode_->addDrawable(lines_);
  osg::StateSet* ss = geode_->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS, 0.0, 1.0, false));
  ss->setAttributeAndModes(new osg::LineWidth(2.0f));
  ss->setRenderBinDetails(100, "RenderBin");  // after the scene
  geode_->setNodeMask(0);
}

void DebugOverlay::attach(osg::Group* parent) {
  if (!parent->containsNode(geode_)) parent->addChild(geode_);
}

void DebugOverlay::setLayers(unsigned layers) {
  layers_ = layers;
  geode_->setNodeMask(layers || spring_ ? ~0u : 0u);
}

void DebugOverlay::setSpring(const std::optional<std::pair<Vec3, Vec3>>& spring) {
  spring_ = spring;
  geode_->setNodeMask(layers_ || spring_ ? ~0u : 0u);
}

void DebugOverlay::update(std::span<const ContactMark> contacts, std::span<const JointMark> joints,
                          std::span<const Vec3> centresOfMass, const BalanceMarks& balance,
                          std::span<const HandMark> hands) {
  vertices_->clear();
  colours_->clear();
  auto line = [this](const Vec3& a, const Vec3& b, const osg::Vec4& colour) {
    vertices_->push_back(toOsg(a));
    vertices_->push_back(toOsg(b));
    colours_->push_back(colour);
    colours_->push_back(colour);
  };
  if (layers_ & kContactPoints)
    for (const ContactMark& c : contacts) {
      // A small cross at the point and a 5 cm normal.
      const osg::Vec4 yellow(1.0f, 0.9f, 0.1f, 1.0f);
      for (int axis = 0; axis < 3; ++axis) {
        const Vec3 d = 0.015 * Vec3::Unit(axis);
        line(c.position - d, c.position + d, yellow);
      }
      line(c.position, c.position + 0.05 * c.normal, {0.1f, 0.9f, 1.0f, 1.0f});
    }
  if (layers_ & kContactForces)
    for (const ContactMark& c : contacts)
      if (c.force > 0.0)
        line(c.position, c.position + (c.force / kNewtonsPerMetre) * c.normal,
             {1.0f, 0.25f, 0.1f, 1.0f});
  if (layers_ & kJointAxes)
    for (const JointMark& j : joints)
      line(j.anchor - kAxisLength * j.axis, j.anchor + kAxisLength * j.axis,
           {0.95f, 0.2f, 0.95f, 1.0f});
  if (layers_ & kCentresOfMass)
    for (const Vec3& p : centresOfMass)
      for (int axis = 0; axis < 3; ++axis) {
        const Vec3 d = 0.04 * Vec3::Unit(axis);
        line(p - d, p + d, {1.0f, 1.0f, 1.0f, 1.0f});
      }
  if (layers_ & kBalance) {
    // Lifted 5 mm off the ground so that the lines do not fight with it.
    const Vec3 lift(0.0, 0.0, 0.005);
    const size_t n = balance.support.size();
    for (size_t i = 0; i < n; ++i)
      line(balance.support[i] + lift, balance.support[(i + 1) % n] + lift,
           {0.2f, 1.0f, 0.3f, 1.0f});
    const auto cross = [&](const Vec3& p, double r, const osg::Vec4& colour) {
      line(p + lift - Vec3(r, r, 0.0), p + lift + Vec3(r, r, 0.0), colour);
      line(p + lift - Vec3(r, -r, 0.0), p + lift + Vec3(r, -r, 0.0), colour);
    };
    const auto diamond = [&](const Vec3& p, double r, const osg::Vec4& colour) {
      const Vec3 c = p + lift;
      const Vec3 k[4] = {Vec3(r, 0, 0), Vec3(0, r, 0), Vec3(-r, 0, 0), Vec3(0, -r, 0)};
      for (int i = 0; i < 4; ++i) line(c + k[i], c + k[(i + 1) % 4], colour);
    };
    if (balance.zmp) cross(*balance.zmp, 0.03, {1.0f, 0.2f, 0.2f, 1.0f});  // red
    if (balance.centreOfMass) diamond(*balance.centreOfMass, 0.04, {1.0f, 1.0f, 1.0f, 1.0f});
    if (balance.capturePoint) diamond(*balance.capturePoint, 0.03, {0.2f, 0.6f, 1.0f, 1.0f});
    if (balance.footstep) cross(*balance.footstep, 0.06, {1.0f, 0.8f, 0.1f, 1.0f});  // amber
  }
  if (layers_ & kHands)
    for (const HandMark& h : hands) {
      // The target as a 3 cm cross (cyan), the force as an arrow at the contact-force scale
      // (orange), drawn from the target: where the hand should be and what pushes it off.
      for (int axis = 0; axis < 3; ++axis) {
        const Vec3 d = 0.03 * Vec3::Unit(axis);
        line(h.target - d, h.target + d, {0.1f, 0.9f, 0.9f, 1.0f});
      }
      if (h.force.norm() > 0.5)
        line(h.target, h.target + h.force / kNewtonsPerMetre, {1.0f, 0.55f, 0.1f, 1.0f});
    }
  if (spring_) line(spring_->first, spring_->second, {1.0f, 0.3f, 0.8f, 1.0f});  // magenta
  lineCount_ = static_cast<unsigned>(vertices_->size() / 2);
  draw_->setCount(static_cast<GLsizei>(vertices_->size()));
  vertices_->dirty();
  colours_->dirty();
  lines_->dirtyBound();
}

}  // namespace impetus::render
