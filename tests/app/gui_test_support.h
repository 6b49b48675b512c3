#pragma once
// Helpers the GUI tests share: wait for frames, project world points into a grabbed image, read
// probes of the running simulation between two of its steps.
#include <QAction>
#include <QElapsedTimer>
#include <QImage>
#include <QTest>
#include <cmath>
#include <string>

#include "impetus/probes/probe.h"
#include "impetus/scheme/scheme.h"
#include "main_window.h"
#include "viewport_widget.h"

namespace gui_test {

using impetus::app::MainWindow;
using impetus::app::ViewportWidget;

inline int brightness(QRgb c) {
  return (qRed(c) + qGreen(c) + qBlue(c)) / 3;
}

/// Image pixel of a world point, or (-1,-1) when it is off screen.
inline QPoint project(ViewportWidget* vp, const QImage& image, osg::Vec3d world) {
  const osg::Vec3d w = vp->sceneView().worldToWindow(world);
  const int x = int(std::lround(w.x()));
  const int y = image.height() - 1 - int(std::lround(w.y()));
  if (x < 2 || y < 2 || x >= image.width() - 2 || y >= image.height() - 2) return {-1, -1};
  return {x, y};
}

/// The pixel in a (2r+1)^2 neighbourhood maximising `score` (lines are thin and antialiased).
template <class Score>
QRgb bestNear(const QImage& image, QPoint p, int r, Score score) {
  QRgb best = image.pixel(p);
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx) {
      const QPoint q(p.x() + dx, p.y() + dy);
      if (!image.rect().contains(q)) continue;
      if (score(image.pixel(q)) > score(best)) best = image.pixel(q);
    }
  return best;
}

/// Waits for two more frames of the 40 ms timer and grabs the viewport.
inline QImage renderNow(MainWindow& window) {
  ViewportWidget* vp = window.viewport();
  const long long before = vp->framesRendered();
  const bool drawn = QTest::qWaitFor([&] { return vp->framesRendered() >= before + 2; }, 5000);
  return drawn ? vp->grabFramebuffer() : QImage();
}

/// A probe's value now (read between two steps of the simulation thread).
inline double probe(MainWindow& window, const std::string& name) {
  double value = std::nan("");
  window.simulation().withSimulation([&](impetus::Simulation& sim) {
    const impetus::Scheme* scheme = sim.scene().scheme ? &*sim.scene().scheme : nullptr;
    value = impetus::resolveProbe(sim.world(), scheme, name)();
  });
  return value;
}

/// The window's menu action whose text starts with `prefix` (mnemonic '&' included), or null.
inline QAction* menuAction(MainWindow& window, const QString& prefix) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text().startsWith(prefix)) return a;
  return nullptr;
}

inline double simTime(MainWindow& window) {
  return window.simulation().snapshot().time;
}

/// Waits until sim time has advanced by `seconds` (false on timeout).
inline bool waitSimSeconds(MainWindow& window, double seconds, int timeoutMs = 30000) {
  const double t0 = simTime(window);
  return QTest::qWaitFor([&] { return simTime(window) >= t0 + seconds; }, timeoutMs);
}

/// Sim time per wall time over the next `wallMs` of wall clock (the simulation thread's pace).
inline double simPerWallTime(MainWindow& window, int wallMs) {
  QElapsedTimer wall;
  wall.start();
  const double t0 = simTime(window);
  QTest::qWait(wallMs);
  return (simTime(window) - t0) / (wall.nsecsElapsed() * 1e-9);
}

}  // namespace gui_test
