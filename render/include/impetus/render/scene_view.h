#pragma once
// The 3D view: an osgViewer::Viewer on an embedded graphics window, so that a host toolkit (the Qt
// viewport widget) owns the GL context and only forwards size, input and "draw now".

#include <memory>
#include <optional>
#include <osg/Group>
#include <osg/Vec3d>
#include <osg/ref_ptr>
#include <osgGA/EventQueue>
#include <osgGA/FirstPersonManipulator>
#include <osgGA/OrbitManipulator>
#include <osgShadow/ShadowedScene>
#include <osgViewer/GraphicsWindow>
#include <osgViewer/Viewer>
#include <string>
#include <utility>

#include "impetus/render/scene_lighting.h"
#include "impetus/render/sky_dome.h"
#include "impetus/scene/light_desc.h"

namespace impetus::render {

class SceneView {
 public:
  /// Orbit: around a centre (the robot); Fly: free first-person camera (mouse drag turns, wheel
  /// moves); Onboard: a camera carried by a body (setOnboardView each frame).
  enum class CameraMode { Orbit, Fly, Onboard };
  static constexpr double kPipWidthShare = 0.32;  ///< picture-in-picture width / viewport width

  SceneView();

  /// Creates the embedded graphics window; call with the host's GL context current.
  void initialize(int width, int height);
  void resize(int width, int height);
  /// Renders one frame into the framebuffer object `defaultFbo` (Qt's widget FBO).
  void renderFrame(unsigned defaultFbo);

  osgGA::EventQueue* eventQueue() const;
  osg::Group* sceneRoot() const { return sceneRoot_.get(); }
  osgGA::OrbitManipulator* orbit() const { return orbit_.get(); }
  osg::Camera* camera() const { return viewer_->getCamera(); }
  /// The ray under window pixel (x, y) (OSG's window coordinates, y up): its points on the near
  /// and far planes, world.
  std::pair<osg::Vec3d, osg::Vec3d> rayAt(double x, double y) const;
  /// The node path to the first drawable under sceneRoot hit by the ray under (x, y), and the
  /// world point hit.
  std::optional<std::pair<osg::NodePath, osg::Vec3d>> pick(double x, double y) const;

  /// Window coordinates (origin bottom-left, pixels) of a world point in the last camera pose.
  osg::Vec3d worldToWindow(const osg::Vec3d& world) const;
  void setCameraMode(CameraMode mode);
  CameraMode cameraMode() const { return mode_; }
  /// Moves the orbit's centre (follow the robot) keeping distance and direction.
  void setOrbitCenter(const osg::Vec3d& center);
  /// The onboard camera's pose: camera frame -> world (looks along its -z, up +y).
  void setOnboardView(const osg::Matrixd& cameraToWorld);
  /// The onboard camera's lens: vertical field of view (degrees), kept while the main view is
  /// onboard (the window's aspect); the orbit and free views use 45 degrees.
  void setOnboardLens(double fieldOfViewDegrees);
  /// The picture in picture's lens and picture: vertical field of view (degrees) and the
  /// camera's resolution, whose aspect the inset takes (its width a share of the window's).
  void setPictureInPictureLens(double fieldOfViewDegrees, int width, int height);
  /// A second, smaller view in the top-right corner from `cameraToWorld` (an onboard camera).
  void setPictureInPicture(bool on);
  bool pictureInPicture() const { return pip_ && pip_->getNodeMask() != 0; }
  void setPictureInPictureView(const osg::Matrixd& cameraToWorld);
  osg::Camera* pictureInPictureCamera() const { return pip_.get(); }
  /// Debug overlays go here (drawn in the main view and the picture-in-picture).
  osg::Group* overlayRoot() const { return overlayRoot_.get(); }

  /// How much the picture costs: Off draws the lit scene as it is; Low adds the sun's shadows
  /// (view-dependent shadow maps, 1024^2); High sharper ones (2048^2, smaller filter steps).
  enum class Quality { Off, Low, High };
  void setQuality(Quality quality);
  Quality quality() const { return quality_; }
  /// The level a renderer holds the frame budget at: software GL (llvmpipe, softpipe, swrast)
  /// Off, a GPU High. `glRenderer` is GL_RENDERER.
  static Quality automaticQuality(const std::string& glRenderer);
  /// The sun, the robots' lamps, shadows and fog of the shadowed scene.
  SceneLighting& lighting() { return *lighting_; }
  /// The scene's fog (<fog>) on the shadowed scene and the sky's horizon, or none.
  void setFog(const std::optional<FogDesc>& fog);
  const SkyDome& sky() const { return sky_; }
  /// The shadowed part of the scene (the sun, the ground, the bodies; not the overlays).
  osgShadow::ShadowedScene* shadowedScene() const { return shadowed_.get(); }

  /// Puts the orbit camera at `distance` from `center`, looking from azimuth/elevation (rad).
  void setOrbit(const osg::Vec3d& center, double distance, double azimuth, double elevation);

 private:
  osg::ref_ptr<osgViewer::Viewer> viewer_;
  osg::ref_ptr<osgViewer::GraphicsWindowEmbedded> window_;
  osg::ref_ptr<osg::Group> root_;                    ///< lights + ground + scene
  osg::ref_ptr<osg::Group> sceneRoot_;               ///< bodies of the loaded scene go here
  osg::ref_ptr<osgShadow::ShadowedScene> shadowed_;  ///< sun, ground and bodies
  std::unique_ptr<SceneLighting> lighting_;
  SkyDome sky_;
  Quality quality_ = Quality::Off;
  osg::ref_ptr<osgGA::OrbitManipulator> orbit_;
  osg::ref_ptr<osgGA::FirstPersonManipulator> fly_;
  osg::ref_ptr<osg::Group> overlayRoot_;
  osg::ref_ptr<osg::Camera> pip_;
  CameraMode mode_ = CameraMode::Orbit;
  double onboardFov_ = 60.0, pipFov_ = 60.0, pipAspect_ = 4.0 / 3.0;  ///< degrees; w / h
  void applyProjection();
  int width_ = 1, height_ = 1;
  void placePictureInPicture();
};

}  // namespace impetus::render
