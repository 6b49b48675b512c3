#pragma once
// The 3D view: an osgViewer::Viewer on an embedded graphics window, so that a host toolkit (the Qt
// viewport widget) owns the GL context and only forwards size, input and "draw now".

#include <osg/Group>
#include <osg/Vec3d>
#include <osg/ref_ptr>
#include <osgGA/EventQueue>
#include <osgGA/OrbitManipulator>
#include <osgViewer/GraphicsWindow>
#include <osgViewer/Viewer>

namespace impetus::render {

class SceneView {
 public:
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

  /// Window coordinates (origin bottom-left, pixels) of a world point in the last camera pose.
  osg::Vec3d worldToWindow(const osg::Vec3d& world) const;
  /// Puts the orbit camera at `distance` from `center`, looking from azimuth/elevation (rad).
  void setOrbit(const osg::Vec3d& center, double distance, double azimuth, double elevation);

 private:
  osg::ref_ptr<osgViewer::Viewer> viewer_;
  osg::ref_ptr<osgViewer::GraphicsWindowEmbedded> window_;
  osg::ref_ptr<osg::Group> root_;       ///< lights + ground + scene
  osg::ref_ptr<osg::Group> sceneRoot_;  ///< bodies of the loaded scene go here
  osg::ref_ptr<osgGA::OrbitManipulator> orbit_;
};

}  // namespace impetus::render
