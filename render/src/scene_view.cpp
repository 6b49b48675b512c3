#include "impetus/render/scene_view.h"

#include <cmath>

#include <osgShadow/ShadowSettings>
#include <osgShadow/ViewDependentShadowMap>
#include <osgUtil/IntersectionVisitor>
#include <osgUtil/LineSegmentIntersector>
#include <osgViewer/ViewerEventHandlers>

#include "impetus/render/ground_grid.h"

namespace impetus::render {
namespace {

/// Node mask bit of what casts shadows: the bodies (every bit set), not the ground grid, which
/// only receives them (casting, its extent would stretch the shadow map's depth range over it).
constexpr unsigned kCastsShadow = 0x2;

/// View-dependent shadow maps with a steeper depth offset in the casting pass: OSG's default
/// (1.1, 4) left stripes of self-shadow on lit faces under llvmpipe's 24-bit depth.
class SunShadowMap : public osgShadow::ViewDependentShadowMap {
 public:
  void init() override {
    osgShadow::ViewDependentShadowMap::init();
    if (_polygonOffset) {
      _polygonOffset->setFactor(2.5f);
      _polygonOffset->setUnits(12.0f);
    }
  }
};

}  // namespace

SceneView::SceneView()
    : viewer_(new osgViewer::Viewer),
      root_(new osg::Group),
      sceneRoot_(new osg::Group),
      orbit_(new osgGA::OrbitManipulator),
      fly_(new osgGA::FirstPersonManipulator),
      overlayRoot_(new osg::Group) {
  // The sun, the ground and the bodies are one shadowed scene (shadows per setQuality); the
  // overlays are drawn over it, unshadowed.
  shadowed_ = new osgShadow::ShadowedScene;
  shadowed_->setName("shadowed");
  lighting_ = std::make_unique<SceneLighting>(shadowed_.get());
  osg::ref_ptr<osg::Node> ground = makeGroundGrid();
  ground->setNodeMask(~kCastsShadow);  // receives shadows, casts none
  shadowed_->addChild(ground);
  sceneRoot_->setName("scene");
  shadowed_->addChild(sceneRoot_);
  root_->addChild(sky_.node());
  root_->addChild(shadowed_);
  overlayRoot_->setName("overlays");
  root_->addChild(overlayRoot_);
  viewer_->setSceneData(root_);
  viewer_->setThreadingModel(osgViewer::Viewer::SingleThreaded);
  viewer_->setLightingMode(osg::View::NO_LIGHT);  // our sun is the only light
  viewer_->setKeyEventSetsDone(0);                // Escape must not end the viewer
  orbit_->setAllowThrow(false);
  fly_->setAllowThrow(false);
  fly_->setVerticalAxisFixed(true);
  viewer_->setCameraManipulator(orbit_, false);
  setOrbit({0, 0, 0.5}, 9.0, -2.3, 0.45);
}

void SceneView::initialize(int width, int height) {
  window_ = viewer_->setUpViewerAsEmbeddedInWindow(0, 0, width, height);
  osg::Camera* cam = viewer_->getCamera();
  cam->setClearColor({0.62f, 0.72f, 0.82f, 1.0f});
  cam->setProjectionMatrixAsPerspective(45.0, double(width) / std::max(height, 1), 0.05, 500.0);
  width_ = width;
  height_ = height;
  // The picture-in-picture: a slave camera on the same window, drawn after the main view.
  pip_ = new osg::Camera;
  pip_->setGraphicsContext(window_.get());
  pip_->setReferenceFrame(osg::Transform::ABSOLUTE_RF);  // its own view, not the master's
  pip_->setClearColor({0.55f, 0.65f, 0.75f, 1.0f});
  pip_->setClearMask(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  pip_->setRenderOrder(osg::Camera::POST_RENDER);
  pip_->setNodeMask(0);
  placePictureInPicture();
  viewer_->addSlave(pip_.get(), true);
  viewer_->realize();
}

void SceneView::placePictureInPicture() {
  if (!pip_) return;
  const int w = std::max(1, int(width_ * kPipWidthShare));
  const int h = std::max(1, std::min(height_ - 16, int(std::lround(w / pipAspect_))));
  pip_->setViewport(width_ - w - 8, height_ - h - 8, w, h);
  pip_->setProjectionMatrixAsPerspective(pipFov_, double(w) / h, 0.02, 200.0);
}

void SceneView::setQuality(Quality quality) {
  quality_ = quality;
  if (quality == Quality::Off) {
    shadowed_->setShadowTechnique(nullptr);
    lighting_->setShadows(false, 0.0f);
    return;
  }
  osg::ref_ptr<osgShadow::ShadowSettings> settings = new osgShadow::ShadowSettings;
  settings->setLightNum(0);
  settings->setBaseShadowTextureUnit(1);  // unit 0 is the meshes' own textures (the treads)
  settings->setTextureSize(quality == Quality::High ? osg::Vec2s(2048, 2048)
                                                    : osg::Vec2s(1024, 1024));
  // The view's visible range only (a robot's yard, not the 500 m far plane): a sharper map.
  settings->setMaximumShadowMapDistance(quality == Quality::High ? 60.0 : 30.0);
  settings->setShaderHint(osgShadow::ShadowSettings::NO_SHADERS);
  shadowed_->setShadowSettings(settings);
  settings->setCastsShadowTraversalMask(kCastsShadow);
  shadowed_->setShadowTechnique(new SunShadowMap);
  lighting_->setShadows(true, quality == Quality::High ? 1.0f / 2048.0f : 0.0f);
}

void SceneView::setFog(const std::optional<FogDesc>& fog) {
  lighting_->setFog(fog);
  sky_.setFogColour(
      fog ? std::optional(osg::Vec4(fog->colour[0], fog->colour[1], fog->colour[2], 1.0f))
          : std::nullopt);
}

SceneView::Quality SceneView::automaticQuality(const std::string& glRenderer) {
  // Software GL rasterises every shadow lookup on the CPU: in the yard at 1280 x 800 under
  // llvmpipe, Low took frames from 21 to 50 ms to put on screen (49 % late), High to 79 ms; Off
  // holds the 40 ms frame (0.2 % late; docs/benchmarks.md).
  for (const char* software : {"llvmpipe", "softpipe", "swrast", "Software Rasterizer"})
    if (glRenderer.find(software) != std::string::npos) return Quality::Off;
  return Quality::High;
}

void SceneView::setPictureInPicture(bool on) {
  if (!pip_) return;
  pip_->setNodeMask(on ? ~0u : 0u);
  // A masked-out slave still clears its corner: take it off the viewport instead.
  if (on)
    placePictureInPicture();
  else
    pip_->setViewport(0, 0, 0, 0);
}

void SceneView::setPictureInPictureView(const osg::Matrixd& cameraToWorld) {
  if (pip_) pip_->setViewMatrix(osg::Matrixd::inverse(cameraToWorld));
}

void SceneView::setCameraMode(CameraMode mode) {
  if (mode == mode_) return;
  const osg::Matrixd current = viewer_->getCamera()->getInverseViewMatrix();
  mode_ = mode;
  switch (mode) {
    case CameraMode::Orbit:
      viewer_->setCameraManipulator(orbit_, false);
      break;
    case CameraMode::Fly:
      fly_->setByMatrix(current);  // fly on from where the camera is
      viewer_->setCameraManipulator(fly_, false);
      break;
    case CameraMode::Onboard:
      viewer_->setCameraManipulator(nullptr, false);
      break;
  }
  if (window_) applyProjection();
}

void SceneView::setOrbitCenter(const osg::Vec3d& center) {
  orbit_->setCenter(center);
}

void SceneView::setOnboardLens(double fieldOfViewDegrees) {
  onboardFov_ = fieldOfViewDegrees;
  applyProjection();
}

void SceneView::setPictureInPictureLens(double fieldOfViewDegrees, int width, int height) {
  pipFov_ = fieldOfViewDegrees;
  pipAspect_ = double(std::max(width, 1)) / std::max(height, 1);
  if (pictureInPicture()) placePictureInPicture();
}

void SceneView::applyProjection() {
  const double fov = mode_ == CameraMode::Onboard ? onboardFov_ : 45.0;
  viewer_->getCamera()->setProjectionMatrixAsPerspective(fov, double(width_) / std::max(height_, 1),
                                                         0.05, 500.0);
}

void SceneView::setOnboardView(const osg::Matrixd& cameraToWorld) {
  if (mode_ == CameraMode::Onboard)
    viewer_->getCamera()->setViewMatrix(osg::Matrixd::inverse(cameraToWorld));
}

void SceneView::resize(int width, int height) {
  if (!window_) return;
  width_ = width;
  height_ = height;
  window_->resized(0, 0, width, height);
  window_->getEventQueue()->windowResize(0, 0, width, height);
  viewer_->getCamera()->setViewport(0, 0, width, height);
  applyProjection();
  if (pictureInPicture()) placePictureInPicture();
}

void SceneView::renderFrame(unsigned defaultFbo) {
  if (!window_) return;
  // Qt draws widgets into its own FBO; OSG must bind that one, not 0, when it resets targets.
  window_->setDefaultFboId(defaultFbo);
  viewer_->frame();
}

osgGA::EventQueue* SceneView::eventQueue() const {
  return window_ ? window_->getEventQueue() : nullptr;
}

osg::Vec3d SceneView::worldToWindow(const osg::Vec3d& world) const {
  const osg::Camera* cam = viewer_->getCamera();
  osg::Matrixd vpw = cam->getViewMatrix() * cam->getProjectionMatrix();
  if (cam->getViewport()) vpw = vpw * cam->getViewport()->computeWindowMatrix();
  return world * vpw;
}

void SceneView::setOrbit(const osg::Vec3d& center, double distance, double azimuth,
                         double elevation) {
  const osg::Vec3d eye =
      center + osg::Vec3d(std::cos(elevation) * std::cos(azimuth),
                          std::cos(elevation) * std::sin(azimuth), std::sin(elevation)) *
                   distance;
  orbit_->setTransformation(eye, center, osg::Vec3d(0, 0, 1));
  orbit_->setHomePosition(eye, center, osg::Vec3d(0, 0, 1));
  viewer_->getCamera()->setViewMatrixAsLookAt(eye, center, osg::Vec3d(0, 0, 1));
}

std::pair<osg::Vec3d, osg::Vec3d> SceneView::rayAt(double x, double y) const {
  const osg::Camera* c = camera();
  const osg::Matrixd toWindow =
      c->getViewMatrix() * c->getProjectionMatrix() * c->getViewport()->computeWindowMatrix();
  const osg::Matrixd fromWindow = osg::Matrixd::inverse(toWindow);
  return {osg::Vec3d(x, y, 0.0) * fromWindow, osg::Vec3d(x, y, 1.0) * fromWindow};
}

std::optional<std::pair<osg::NodePath, osg::Vec3d>> SceneView::pick(double x, double y) const {
  const auto [near, far] = rayAt(x, y);
  osg::ref_ptr<osgUtil::LineSegmentIntersector> hits =
      new osgUtil::LineSegmentIntersector(near, far);
  osgUtil::IntersectionVisitor visitor(hits.get());
  sceneRoot_->accept(visitor);
  if (!hits->containsIntersections()) return std::nullopt;
  const osgUtil::LineSegmentIntersector::Intersection& first = hits->getFirstIntersection();
  return std::pair(first.nodePath, first.getWorldIntersectPoint());
}

}  // namespace impetus::render
