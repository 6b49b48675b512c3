// The real main window under a real (X or Xvfb) display: does the viewport render the lit grid
// where the camera puts it, and does the mouse drive the orbit camera?
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

#include "gui_test_support.h"
#include "main_window.h"
#include "viewport_widget.h"

using impetus::app::MainWindow;
using impetus::app::ViewportWidget;
using namespace gui_test;

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

    // Sky at the top centre: the dome's colour at that elevation, just below the horizon in
    // this view (the haze fading into the distant ground), within 4 levels (8-bit rounding; the
    // screen interpolates a ring's colours almost as the elevation does).
    const QRgb sky = image.pixel(image.width() / 2, 3);
    const auto [near, far] = vp->sceneView().rayAt(image.width() / 2, image.height() - 1 - 3);
    const osg::Vec3d up = far - near;
    const osg::Vec4 expected =
        vp->sceneView().sky().colourAt(std::asin(up.z() / up.length())) * 255.0f;
    QVERIFY2(std::abs(qRed(sky) - expected.r()) < 4 && std::abs(qBlue(sky) - expected.b()) < 4,
             qPrintable(QString("sky pixel %1, expected %2 %3 %4")
                            .arg(sky, 0, 16)
                            .arg(expected.r())
                            .arg(expected.g())
                            .arg(expected.b())));

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
  QStandardPaths::setTestModeEnabled(true);  // settings (recent files) stay out of the user's
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "main_window_test.moc"
