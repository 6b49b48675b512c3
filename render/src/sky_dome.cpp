#include "impetus/render/sky_dome.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <osg/Depth>
#include <osg/Geode>
#include <osg/Transform>
#include <osgUtil/CullVisitor>

namespace impetus::render {
namespace {

constexpr int kRings = 24;     ///< from the nadir to the zenith
constexpr int kSegments = 32;  ///< around the vertical

const osg::Vec4 kZenith{0.30f, 0.48f, 0.76f, 1.0f};
const osg::Vec4 kHorizon{0.80f, 0.85f, 0.90f, 1.0f};
const osg::Vec4 kDistantGround{0.58f, 0.60f, 0.60f, 1.0f};

/// Keeps its children centred on the eye of the camera culling it, so the dome never gets
/// nearer or farther whatever the view (the main view and the picture in picture alike).
class FollowEye : public osg::Transform {
 public:
  bool computeLocalToWorldMatrix(osg::Matrix& matrix, osg::NodeVisitor* nv) const override {
    if (const osgUtil::CullVisitor* cv = nv ? nv->asCullVisitor() : nullptr)
      matrix.preMultTranslate(cv->getEyeLocal());
    return true;
  }
  bool computeWorldToLocalMatrix(osg::Matrix& matrix, osg::NodeVisitor* nv) const override {
    if (const osgUtil::CullVisitor* cv = nv ? nv->asCullVisitor() : nullptr)
      matrix.postMultTranslate(-cv->getEyeLocal());
    return true;
  }
};

}  // namespace

SkyDome::SkyDome() : dome_(new osg::Geometry) {
  // A unit sphere: only its directions matter (drawn at the far plane's depth, see below).
  osg::ref_ptr<osg::Vec3Array> vertices = new osg::Vec3Array;
  for (int r = 0; r <= kRings; ++r) {
    const double elevation = std::numbers::pi * (double(r) / kRings - 0.5);
    for (int s = 0; s <= kSegments; ++s) {
      const double azimuth = 2.0 * std::numbers::pi * s / kSegments;
      vertices->push_back(osg::Vec3(float(std::cos(elevation) * std::cos(azimuth)),
                                    float(std::cos(elevation) * std::sin(azimuth)),
                                    float(std::sin(elevation))));
    }
  }
  dome_->setVertexArray(vertices);
  for (int r = 0; r < kRings; ++r) {
    osg::ref_ptr<osg::DrawElementsUShort> strip = new osg::DrawElementsUShort(GL_TRIANGLE_STRIP);
    for (int s = 0; s <= kSegments; ++s) {
      strip->push_back(static_cast<unsigned short>((r + 1) * (kSegments + 1) + s));
      strip->push_back(static_cast<unsigned short>(r * (kSegments + 1) + s));
    }
    dome_->addPrimitiveSet(strip);
  }
  dome_->setUseDisplayList(false);
  dome_->setUseVertexBufferObjects(true);
  paint();

  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  geode->setName("sky");
  geode->addDrawable(dome_);
  geode->setCullingActive(false);
  osg::StateSet* state = geode->getOrCreateStateSet();
  state->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  state->setMode(GL_FOG, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  state->setMode(GL_CULL_FACE, osg::StateAttribute::OFF);
  // At the far plane's depth whatever its size, written nowhere: behind everything, and it
  // stretches no near/far range (the scene's own bounds set those).
  state->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS, 1.0, 1.0, false));
  state->setRenderBinDetails(-1, "RenderBin");
  osg::ref_ptr<FollowEye> follow = new FollowEye;
  follow->setCullingActive(false);
  follow->addChild(geode);
  node_ = follow;
}

void SkyDome::setFogColour(std::optional<osg::Vec4> fog) {
  fog_ = fog;
  paint();
}

osg::Vec4 SkyDome::colourAt(double elevation) const {
  // As drawn: the rings' colours, interpolated between them.
  const double ring =
      std::clamp((elevation / std::numbers::pi + 0.5) * kRings, 0.0, double(kRings));
  const int below = std::min(int(ring), kRings - 1);
  const float t = float(ring - below);
  return ringColour(below) * (1.0f - t) + ringColour(below + 1) * t;
}

osg::Vec4 SkyDome::ringColour(int ring) const {
  const double elevation = std::numbers::pi * (double(ring) / kRings - 0.5);
  const osg::Vec4 horizon = fog_.value_or(kHorizon);
  const osg::Vec4 below = fog_.value_or(kDistantGround);
  if (elevation < 0.0) {  // the ground fades into the haze over the last few degrees
    const float t = float(std::clamp(-elevation / 0.08, 0.0, 1.0));
    return horizon * (1.0f - t) + below * t;
  }
  // Haze thins quickly above the horizon: most of the blue within 30 degrees. In fog the
  // zenith keeps some of the fog's colour.
  const float t = float(std::pow(std::sin(std::min(elevation, std::numbers::pi / 2)), 0.6));
  const osg::Vec4 zenith = fog_ ? kZenith * 0.4f + *fog_ * 0.6f : kZenith;
  return horizon * (1.0f - t) + zenith * t;
}

void SkyDome::paint() {
  osg::ref_ptr<osg::Vec4Array> colours = new osg::Vec4Array;
  for (int r = 0; r <= kRings; ++r) {
    const osg::Vec4 c = ringColour(r);
    for (int s = 0; s <= kSegments; ++s) colours->push_back(c);
  }
  dome_->setColorArray(colours, osg::Array::BIND_PER_VERTEX);
  dome_->dirtyGLObjects();
}

}  // namespace impetus::render
