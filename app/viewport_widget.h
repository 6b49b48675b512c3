#pragma once
// Hosts the OpenSceneGraph view in a Qt widget (the osgQt pattern): OSG renders into the widget's
// framebuffer object through an embedded graphics window; Qt input is forwarded to OSG's queue.

#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <memory>
#include <string>

#include "impetus/render/scene_view.h"

namespace impetus::app {

class ViewportWidget : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit ViewportWidget(QWidget* parent = nullptr);
  ~ViewportWidget() override;

  /// The GL surface every viewport needs (depth buffer, multisampling); call before QApplication.
  static void setDefaultSurfaceFormat();

  render::SceneView& sceneView() { return *view_; }
  /// Frames rendered so far (the GUI tests wait on it).
  long long framesRendered() const { return frames_; }
  /// Picture quality (render::SceneView::Quality); Automatic: the level this GL renderer holds
  /// the frame budget at, chosen once the GL context exists.
  enum class QualityChoice { Automatic, Off, Low, High };
  void setQualityChoice(QualityChoice choice);
  QualityChoice qualityChoice() const { return qualityChoice_; }
  /// GL_RENDERER of the context (empty until the widget is first shown).
  const std::string& glRenderer() const { return glRenderer_; }
  /// Wall time of the last paintGL (OSG cull + draw calls), seconds.
  double lastPaintSeconds() const { return lastPaintSeconds_; }
  /// Asks for a frame; the time until it is on screen (draw, read-back, composition) is measured.
  void requestFrame();
  /// Wall time from the last requestFrame() to its frameSwapped, seconds.
  double lastPresentSeconds() const { return lastPresentSeconds_; }

 signals:
  /// Ctrl + right drag (the perturbation tool): pressed, moved, released; OSG window pixels.
  void perturbPressed(double x, double y);
  void perturbMoved(double x, double y);
  void perturbReleased();

 protected:
  void initializeGL() override;
  void resizeGL(int width, int height) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  /// Qt logical coordinates -> OSG window pixels (OSG's y axis points up).
  float toOsgX(double x) const;
  float toOsgY(double y) const;

  std::unique_ptr<render::SceneView> view_;
  long long frames_ = 0;
  double lastPaintSeconds_ = 0.0;
  double lastPresentSeconds_ = 0.0;
  QElapsedTimer presentClock_;
  bool perturbing_ = false;  ///< a Ctrl + right drag is on (not forwarded to the camera)
  QualityChoice qualityChoice_ = QualityChoice::Automatic;
  std::string glRenderer_;
  void applyQuality();
};

}  // namespace impetus::app
