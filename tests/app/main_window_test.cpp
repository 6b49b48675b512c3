// The real main window under a real (X or Xvfb) display: does the viewport render the lit grid
// where the camera puts it, and does the mouse drive the orbit camera?
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

#include "main_window.h"
#include "viewport_widget.h"

using impetus::app::MainWindow;
using impetus::app::ViewportWidget;

namespace {

int brightness(QRgb c) {
  return (qRed(c) + qGreen(c) + qBlue(c)) / 3;
}

/// Image pixel of a world point, or (-1,-1) when it is off screen.
QPoint project(ViewportWidget* vp, const QImage& image, osg::Vec3d world) {
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

QImage renderNow(MainWindow& window) {
  ViewportWidget* vp = window.viewport();
  const long long before = vp->framesRendered();
  // The 40 ms frame timer draws; wait for two of its frames.
  const bool drawn = QTest::qWaitFor([&] { return vp->framesRendered() >= before + 2; }, 5000);
  return drawn ? vp->grabFramebuffer() : QImage();
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QDir().mkpath(IMPETUS_TEST_OUTPUT_DIR); }

  void rendersLitGridWhereTheCameraPutsIt() {
    MainWindow window;
    window.resize(1024, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QImage image = renderNow(window);
    QVERIFY2(!image.isNull(), "no frame was rendered");
    QVERIFY(image.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/main_window_grid.png"));
    ViewportWidget* vp = window.viewport();
    QVERIFY(image.width() > 300 && image.height() > 200);

    // Sky at the top centre: the clear colour (0.62, 0.72, 0.82).
    const QRgb sky = image.pixel(image.width() / 2, 3);
    QVERIFY2(std::abs(qRed(sky) - 158) < 6 && std::abs(qBlue(sky) - 209) < 6,
             qPrintable(QString("sky pixel %1").arg(sky, 0, 16)));

    // The +x axis is red and the +y axis green where the camera projects them.
    const QPoint onX = project(vp, image, {3, 0, 0});
    const QPoint onY = project(vp, image, {0, 3, 0});
    QVERIFY(onX.x() >= 0 && onY.x() >= 0);
    const QRgb red = bestNear(image, onX, 2, [](QRgb c) { return qRed(c) - qGreen(c); });
    const QRgb green = bestNear(image, onY, 2, [](QRgb c) { return qGreen(c) - qRed(c); });
    QVERIFY2(qRed(red) > 150 && qGreen(red) < 100, qPrintable(QString::number(red, 16)));
    QVERIFY2(qGreen(green) > 120 && qRed(green) < 100, qPrintable(QString::number(green, 16)));

    // A grid line (x = 2) is bright; the middle of a grid cell is the darker lit plane.
    const QPoint onLine = project(vp, image, {2, -3, 0});
    const QPoint inCell = project(vp, image, {2.5, -3.5, 0});
    QVERIFY(onLine.x() >= 0 && inCell.x() >= 0);
    const int line = brightness(bestNear(image, onLine, 2, brightness));
    const int plane = brightness(image.pixel(inCell));
    QVERIFY2(line > plane + 40, qPrintable(QString("line %1 plane %2").arg(line).arg(plane)));
    // The plane is lit: neither black nor the sky.
    const QRgb planeColor = image.pixel(inCell);
    QVERIFY2(plane > 50 && plane < 200 && planeColor != sky, qPrintable(QString::number(plane)));
  }

  void mouseDrivesTheOrbitCamera() {
    MainWindow window;
    window.resize(1024, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ViewportWidget* vp = window.viewport();
    renderNow(window);
    auto* orbit = vp->sceneView().orbit();
    const double distance0 = orbit->getDistance();
    const osg::Quat rotation0 = orbit->getRotation();

    // Left drag rotates.
    const QPoint c = vp->rect().center();
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, c);
    for (int i = 1; i <= 10; ++i) QTest::mouseMove(vp, c + QPoint(12 * i, 4 * i), 5);
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, c + QPoint(120, 40));
    renderNow(window);
    const osg::Quat rotation1 = orbit->getRotation();
    QVERIFY2((rotation1.asVec4() - rotation0.asVec4()).length() > 0.05, "drag did not rotate");

    // Wheel zooms.
    QWheelEvent wheel(QPointF(c), vp->mapToGlobal(QPointF(c)), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(vp, &wheel);
    renderNow(window);
    QVERIFY2(std::abs(orbit->getDistance() - distance0) > 0.05 * distance0, "wheel did not zoom");
    const QImage image = vp->grabFramebuffer();
    QVERIFY(image.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/main_window_orbited.png"));
  }

  void opensTheDefaultSceneAndDrivesWithTheKeyboard() {
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    impetus::World& world = *window.runner().scene().world;
    const impetus::BodyId hull = world.findBody("hull");
    QVERIFY(hull >= 0);
    ViewportWidget* vp = window.viewport();
    vp->setFocus();
    QTest::qWait(200);  // settle on the tracks
    const double x0 = world.body(hull).position.x(), t0 = world.time();
    QTest::keyPress(vp, Qt::Key_W);
    QVERIFY(QTest::qWaitFor([&] { return world.time() >= t0 + 2.0; }, 20000));
    QTest::keyRelease(vp, Qt::Key_W);
    const double driven = world.body(hull).position.x() - x0, seconds = world.time() - t0;
    // Track speed: sprocket 0.08 m x 1814 rpm / 30 = 0.507 m/s at full voltage.
    const double expected = 0.08 * 1814 * 2 * 3.14159265358979 / 60 / 30 * seconds;
    QVERIFY2(
        std::abs(driven - expected) < 0.2 * expected,
        qPrintable(
            QString("drove %1 m in %2 s, expected %3").arg(driven).arg(seconds).arg(expected)));
    const double t1 = world.time();
    QVERIFY(QTest::qWaitFor([&] { return world.time() >= t1 + 1.0; }, 20000));
    QVERIFY2(world.body(hull).linearVelocity.norm() < 0.02, "released joystick: the vehicle stops");
    const QImage image = vp->grabFramebuffer();
    QVERIFY(image.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/main_window_scene.png"));
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/main_window_full.png"));
    // The hull is drawn where the camera puts it: a lit green body, not the grey ground.
    const QPoint p = project(vp, image,
                             {world.body(hull).position.x(), world.body(hull).position.y(),
                              world.body(hull).position.z() + 0.2});
    QVERIFY(p.x() >= 0);
    const QRgb hullColour = bestNear(image, p, 3, [](QRgb c) { return qGreen(c) - qBlue(c); });
    QVERIFY2(qGreen(hullColour) > qBlue(hullColour) + 30,
             qPrintable(QString::number(hullColour, 16)));
  }

  void malformedSceneShowsItsErrorAndTheOldSceneKeepsRunning() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    const QString bad = QString(IMPETUS_TEST_OUTPUT_DIR) + "/bad.xml";
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("<scene>\n<body name='b' mass='-1'/>\n</scene>\n");
    file.close();
    QVERIFY(!window.openScene(bad));
    auto* box = window.findChild<QMessageBox*>("sceneError");
    QVERIFY(box && box->isVisible());
    QVERIFY2(box->text().contains("bad.xml:2: mass must be positive"), qPrintable(box->text()));
    QCOMPARE(QString::fromStdString(window.runner().scene().name), QString("tracked vehicle"));
    const double t = window.runner().scene().world->time();
    QVERIFY(
        QTest::qWaitFor([&] { return window.runner().scene().world->time() > t + 0.2; }, 10000));
    box->close();
  }

  void pauseFreezesSimTimeWhileFramesRenderAndStepAdvancesTenMilliseconds() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    const impetus::World& world = *window.runner().scene().world;
    QVERIFY(QTest::qWaitFor([&] { return world.time() > 0.2; }, 10000));
    QApplication::setActiveWindow(&window);  // shortcuts go to the active window (no WM here)
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.viewport()->setFocus();
    QTest::keyClick(window.viewport(), Qt::Key_Space);  // the menu shortcut, as an operator would
    QVERIFY(window.runner().paused);
    const double frozen = world.time();
    const long long frames = window.viewport()->framesRendered();
    QTest::qWait(400);
    QCOMPARE(world.time(), frozen);
    QVERIFY2(window.viewport()->framesRendered() >= frames + 5,
             "frames keep rendering while paused");
    QTest::keyClick(window.viewport(), Qt::Key_Period);
    QVERIFY(std::abs(world.time() - (frozen + 0.01)) < 1e-9);
    QTest::keyClick(window.viewport(), Qt::Key_Space);
    QVERIFY(QTest::qWaitFor([&] { return world.time() > frozen + 0.2; }, 10000));
    // Speed x4: every 40 ms frame advances 160 ms of sim time (x0.25: 10 ms).
    for (const double speed : {4.0, 0.25}) {
      window.setSpeed(speed);
      const double t0 = world.time();
      const long long f0 = window.runner().framesAdvanced();
      QVERIFY(QTest::qWaitFor([&] { return window.runner().framesAdvanced() >= f0 + 8; }, 10000));
      const double perFrame = (world.time() - t0) / double(window.runner().framesAdvanced() - f0);
      QVERIFY2(std::abs(perFrame - speed * 0.04) < 1e-9, qPrintable(QString::number(perFrame)));
    }
  }

  void menusOfferOpenQuitAbout() {
    MainWindow window;
    QStringList actions;
    for (QAction* menu : window.menuBar()->actions())
      for (QAction* a : menu->menu()->actions()) actions << a->text();
    QVERIFY(actions.contains("&Open scene…"));
    QVERIFY(actions.contains("&Quit"));
    QVERIFY(actions.contains("&About Impetus"));
    QVERIFY(actions.contains("&Pause"));
    QVERIFY(actions.contains("Single &step (10 ms)"));
  }
};

int main(int argc, char** argv) {
  ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "main_window_test.moc"
