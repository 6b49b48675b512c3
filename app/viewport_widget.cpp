#include "viewport_widget.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QWheelEvent>
#include <algorithm>

namespace impetus::app {
namespace {

int osgButton(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton:
      return 1;
    case Qt::MiddleButton:
      return 2;
    case Qt::RightButton:
      return 3;
    default:
      return 0;
  }
}

}  // namespace

ViewportWidget::ViewportWidget(QWidget* parent)
    : QOpenGLWidget(parent), view_(std::make_unique<render::SceneView>()) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setMinimumSize(320, 240);
  connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
    if (presentClock_.isValid()) lastPresentSeconds_ = presentClock_.nsecsElapsed() * 1e-9;
    presentClock_.invalidate();
  });
}

void ViewportWidget::requestFrame() {
  if (!presentClock_.isValid()) presentClock_.start();
  update();
}

ViewportWidget::~ViewportWidget() {
  // OSG releases GL objects in its destructors: give it the context.
  makeCurrent();
  view_.reset();
  doneCurrent();
}

void ViewportWidget::setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  // 4x multisampling smooths edges; on software GL it costs about 10 ms a frame to present
  // (tools/bench/frame_timing_bench), so a machine without a GPU's render nodes (/dev/dri: the
  // format is chosen before any GL context exists to ask) gets none. IMPETUS_GL_SAMPLES=N says.
  bool ok = false;
  const int samples = qEnvironmentVariableIntValue("IMPETUS_GL_SAMPLES", &ok);
  format.setSamples(ok ? std::max(0, samples) : QFileInfo::exists("/dev/dri") ? 4 : 0);
  QSurfaceFormat::setDefaultFormat(format);
}

void ViewportWidget::initializeGL() {
  const qreal ratio = devicePixelRatioF();
  view_->initialize(int(width() * ratio), int(height() * ratio));
  const auto* renderer = context()->functions()->glGetString(GL_RENDERER);
  glRenderer_ = renderer ? reinterpret_cast<const char*>(renderer) : "";
  applyQuality();
}

void ViewportWidget::setQualityChoice(QualityChoice choice) {
  qualityChoice_ = choice;
  if (!glRenderer_.empty()) applyQuality();  // else once the context exists
}

void ViewportWidget::applyQuality() {
  using Quality = render::SceneView::Quality;
  switch (qualityChoice_) {
    case QualityChoice::Automatic:
      view_->setQuality(render::SceneView::automaticQuality(glRenderer_));
      break;
    case QualityChoice::Off:
      view_->setQuality(Quality::Off);
      break;
    case QualityChoice::Low:
      view_->setQuality(Quality::Low);
      break;
    case QualityChoice::High:
      view_->setQuality(Quality::High);
      break;
  }
}

void ViewportWidget::resizeGL(int width, int height) {
  const qreal ratio = devicePixelRatioF();
  view_->resize(int(width * ratio), int(height * ratio));
}

void ViewportWidget::paintGL() {
  QElapsedTimer clock;
  clock.start();
  view_->renderFrame(defaultFramebufferObject());
  lastPaintSeconds_ = clock.nsecsElapsed() * 1e-9;
  ++frames_;
}

float ViewportWidget::toOsgX(double x) const {
  return float(x * devicePixelRatioF());
}
float ViewportWidget::toOsgY(double y) const {
  return float((height() - y) * devicePixelRatioF());
}

void ViewportWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::RightButton && (event->modifiers() & Qt::ControlModifier)) {
    perturbing_ = true;
    emit perturbPressed(toOsgX(event->position().x()), toOsgY(event->position().y()));
    return;
  }
  if (auto* q = view_->eventQueue()) {
    q->getCurrentEventState()->setMouseYOrientation(osgGA::GUIEventAdapter::Y_INCREASING_UPWARDS);
    q->mouseButtonPress(toOsgX(event->position().x()), toOsgY(event->position().y()),
                        osgButton(event->button()));
  }
  update();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* event) {
  if (perturbing_ && event->button() == Qt::RightButton) {
    perturbing_ = false;
    emit perturbReleased();
    return;
  }
  if (auto* q = view_->eventQueue())
    q->mouseButtonRelease(toOsgX(event->position().x()), toOsgY(event->position().y()),
                          osgButton(event->button()));
  update();
}

void ViewportWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  if (auto* q = view_->eventQueue())
    q->mouseDoubleButtonPress(toOsgX(event->position().x()), toOsgY(event->position().y()),
                              osgButton(event->button()));
  update();
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* event) {
  if (perturbing_) {
    emit perturbMoved(toOsgX(event->position().x()), toOsgY(event->position().y()));
    return;
  }
  if (auto* q = view_->eventQueue())
    q->mouseMotion(toOsgX(event->position().x()), toOsgY(event->position().y()));
  update();
}

void ViewportWidget::wheelEvent(QWheelEvent* event) {
  if (auto* q = view_->eventQueue())
    q->mouseScroll(event->angleDelta().y() > 0 ? osgGA::GUIEventAdapter::SCROLL_UP
                                               : osgGA::GUIEventAdapter::SCROLL_DOWN);
  update();
}

}  // namespace impetus::app
