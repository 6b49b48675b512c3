// What the trainee sees (issue "visual fidelity"), in the real window under Xvfb: the MF-4 drawn
// from its visuals (assets/, <visual>) instead of its collision boxes, the treads and wheels
// moving with the tracks, the collision shapes still shown on demand, and the screenshots.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <numbers>

#include <osg/TexMat>

#include "console_panel.h"
#include "gui_test_support.h"
#include "joystick_widget.h"

using namespace gui_test;
using impetus::render::VisualNodes;

namespace {

/// The first visual node named `name` (a mesh's file stem), with its index; nullptr if none.
osg::MatrixTransform* visualNamed(MainWindow& window, const std::string& name, size_t* index) {
  for (size_t i = 0; i < window.presenter().visualCount(); ++i) {
    osg::MatrixTransform* node = window.presenter().visualNode(i);
    if (node && node->getName() == name) {
      if (index) *index = i;
      return node;
    }
  }
  return nullptr;
}

/// The angle (rad, in (-pi, pi]) by which a node's matrix turns its x axis about y.
double turnAboutY(const osg::Matrix& m) {
  const osg::Vec3d x = osg::Matrix::transform3x3(osg::Vec3d(1, 0, 0), m);
  return std::atan2(-x.z(), x.x());
}

}  // namespace

class VisualsGuiTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QDir().mkpath(IMPETUS_TEST_OUTPUT_DIR); }

  void theMf4IsDrawnFromItsVisualsAndItsTreadsMoveWithTheTracks() {
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(waitSimSeconds(window, 0.3));

    // Drawn from its visuals: the belts, the sprockets, the idlers and eight road wheels.
    size_t beltIndex = 0, wheelIndex = 0;
    osg::MatrixTransform* belt = visualNamed(window, "track_belt", &beltIndex);
    osg::MatrixTransform* wheel = visualNamed(window, "road_wheel", &wheelIndex);
    QVERIFY(belt && wheel && visualNamed(window, "sprocket", nullptr) &&
            visualNamed(window, "hull", nullptr));
    osg::TexMat* tread = VisualNodes::treadTexture(*belt);
    QVERIFY(tread);
    const double hullX0 = probe(window, "body.hull.x");
    const double angle0 = window.lastSnapshot().motorAngles.at(0);  // track_left, World order

    // Drive forward a second: the treads and wheels follow the left track's rotor.
    auto* drive = window.console()->joystick("drive");
    QVERIFY(drive);
    const QPoint c = drive->rect().center();
    QTest::mousePress(drive, Qt::LeftButton, Qt::NoModifier, c);
    QTest::mouseMove(drive, c + QPoint(0, -drive->height()), 5);
    QVERIFY(waitSimSeconds(window, 1.0));
    QTest::mouseRelease(drive, Qt::LeftButton, Qt::NoModifier, c);
    QVERIFY(waitSimSeconds(window, 0.5));
    renderNow(window);
    const double angle = window.lastSnapshot().motorAngles.at(0);
    const double travel = (angle - angle0) * 0.09 / 60.0;  // sprocket radius / gear ratio
    const double driven = probe(window, "body.hull.x") - hullX0;
    // The belt moved as far as the robot did (tracks slip a little under the turn-in torque).
    QVERIFY2(driven > 0.5 && std::abs(travel - driven) < 0.15 * driven,
             qPrintable(QString("belt %1 m, hull %2 m").arg(travel).arg(driven)));
    // The tread texture's offset is the belt's travel in tread pitches (mod 1), backwards.
    const double pitch = 0.052089, beltAngle = angle * 0.09 / 60.0;
    const double offset = tread->getMatrix().getTrans().x();
    QVERIFY2(std::abs(offset + std::fmod(beltAngle / pitch, 1.0)) < 1e-6,
             qPrintable(QString("offset %1 for %2 m of belt").arg(offset).arg(beltAngle)));
    // The road wheel (radius 0.05 m) has turned by the belt's travel over its radius.
    const double expected = std::remainder(beltAngle / 0.05, 2 * std::numbers::pi);
    const double turned = turnAboutY(wheel->getMatrix());
    QVERIFY2(std::abs(std::remainder(turned - expected, 2 * std::numbers::pi)) < 1e-4,
             qPrintable(QString("wheel at %1 rad, belt says %2").arg(turned).arg(expected)));

    // The collision shapes show over the visuals on demand (View > Overlays), hidden otherwise.
    const QImage plain = renderNow(window);
    window.setCollisionShapes(true);
    const QImage shapes = renderNow(window);
    window.setCollisionShapes(false);
    QVERIFY(plain != shapes);
    QVERIFY(shapes.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/mf4_collision_shapes.png"));

    // Close up: the painted hull, dark running gear.
    const osg::Vec3d hull(probe(window, "body.hull.x"), probe(window, "body.hull.y"), 0.2);
    window.viewport()->sceneView().setOrbit(hull, 1.8, -2.3, 0.35);
    const QImage image = renderNow(window);
    QVERIFY(image.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/mf4_visuals.png"));
    const QPoint centre = project(window.viewport(), image, hull);
    QVERIFY(centre.x() >= 0);
    const QRgb paint = bestNear(image, centre, 25, [](QRgb p) { return qGreen(p) - qBlue(p); });
    QVERIFY2(qGreen(paint) > qBlue(paint) + 40, qPrintable(QString::number(paint, 16)));
  }

  void theYardIsDrawnWithShadowsAtTheDoorAndAtTheContainer() {
    // The README's pictures: the MF-4 in the yard at the door and at the container, from behind
    // and through the gripper camera, with the sun's shadows (Low).
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setQuality("auto");
    QVERIFY(QTest::qWaitFor([&] { return !window.viewport()->glRenderer().empty(); }, 5000));
    using Quality = impetus::render::SceneView::Quality;
    const Quality automatic =
        impetus::render::SceneView::automaticQuality(window.viewport()->glRenderer());
    QCOMPARE(window.viewport()->sceneView().quality(), automatic);
    // Software GL holds the frame budget without shadows (docs/benchmarks.md), a GPU with them.
    QCOMPARE(impetus::render::SceneView::automaticQuality("llvmpipe (LLVM 15.0.6, 256 bits)"),
             Quality::Off);
    QCOMPARE(impetus::render::SceneView::automaticQuality("Mesa Intel(R) UHD Graphics 630"),
             Quality::High);
    window.setQuality("low");
    QCOMPARE(window.viewport()->sceneView().quality(), Quality::Low);
    const struct {
      const char* scene;
      const char* name;
    } places[] = {{"mf4-yard.xml", "yard_door"}, {"mf4-yard-container.xml", "yard_container"}};
    // The README's picture: the four views in a 2 x 2 sheet, each at half size.
    QImage sheet;
    int row = 0;
    for (const auto& place : places) {
      QVERIFY(window.openScene(QString(IMPETUS_SCENES_DIR) + "/" + place.scene));
      QVERIFY(waitSimSeconds(window, 0.3));
      const osg::Vec3d hull(probe(window, "body.hull.x"), probe(window, "body.hull.y"), 0.3);
      window.setCamera("orbit");
      window.viewport()->sceneView().setOrbit(hull + osg::Vec3d(0.4, 0, 0), 3.0, -2.6, 0.45);
      const QImage third = renderNow(window);
      QVERIFY(third.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/" + place.name + ".png"));
      // Shadows: the same view without them is brighter where the robot, the walls and the
      // props keep the sun off the ground (a few thousand pixels), nowhere darker.
      window.setQuality("off");
      const QImage flat = renderNow(window);
      QVERIFY(flat.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/" + place.name + "_unshadowed.png"));
      window.setQuality("low");
      int shaded = 0, darkenedByOff = 0;
      for (int y = 0; y < third.height(); ++y)
        for (int x = 0; x < third.width(); ++x) {
          const int d = brightness(flat.pixel(x, y)) - brightness(third.pixel(x, y));
          shaded += d > 25 ? 1 : 0;
          darkenedByOff += d < -25 ? 1 : 0;
        }
      QVERIFY2(shaded > 2000 && darkenedByOff < shaded / 20,
               qPrintable(QString("%1 pixels shaded, %2 brighter with shadows")
                              .arg(shaded)
                              .arg(darkenedByOff)));
      window.setCamera("gripper_camera");
      const QImage gripper = renderNow(window);
      // Through the gripper camera's own lens (robots/mf4.xml: 75 degrees vertical).
      double fovy = 0, aspect = 0, zNear = 0, zFar = 0;
      window.viewport()->sceneView().camera()->getProjectionMatrixAsPerspective(fovy, aspect, zNear,
                                                                                zFar);
      QVERIFY2(std::abs(fovy - 75.0) < 1e-6, qPrintable(QString::number(fovy)));
      QVERIFY(gripper.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/" + place.name + "_gripper.png"));
      window.setCamera("orbit");
      const QSize half = third.size() / 2;
      if (sheet.isNull()) {
        sheet = QImage(half.width() * 2, half.height() * 2, QImage::Format_RGB32);
        sheet.fill(Qt::black);
      }
      QPainter painter(&sheet);
      painter.drawImage(QRect(QPoint(0, row * half.height()), half), third);
      painter.drawImage(QRect(QPoint(half.width(), row * half.height()), half), gripper);
      ++row;
    }
    QVERIFY(sheet.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/yard.jpg", "JPG", 85));
    // The picture in picture takes the camera's picture's aspect (640 x 480).
    window.setPictureInPicture("gripper_camera");
    const osg::Viewport* inset =
        window.viewport()->sceneView().pictureInPictureCamera()->getViewport();
    QVERIFY(std::abs(inset->width() / inset->height() - 640.0 / 480.0) < 0.01);
    window.setPictureInPicture("");
    // The choice is remembered (QSettings) and Off turns the shadows off.
    window.setQuality("off");
    QCOMPARE(window.viewport()->sceneView().quality(), Quality::Off);
    QCOMPARE(QSettings().value("view/quality").toString(), QString("off"));
    window.setQuality("auto");
  }

  void theHeadlightLightsTheWayWhenSwitchedOn() {
    // robots/mf4.xml's headlight on the console's Light toggle (key L): the door ahead gets
    // brighter in the beam, in the cheapest picture quality too (the lamp needs per-pixel
    // lighting: a door is two triangles), and the scene goes back to per-vertex when it is off.
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setQuality("off");
    QVERIFY(window.openScene(QString(IMPETUS_SCENES_DIR) + "/mf4-yard.xml"));
    QVERIFY(waitSimSeconds(window, 0.3));
    impetus::render::SceneLighting& lighting = window.viewport()->sceneView().lighting();
    QCOMPARE(lighting.lampsLit(), 0);
    QCOMPARE(lighting.pipeline(), impetus::render::SceneLighting::Pipeline::FixedFunction);
    // Behind the robot and to its right, looking at the door 0.84 m ahead of the hull centre.
    const osg::Vec3d hull(probe(window, "body.hull.x"), probe(window, "body.hull.y"),
                          probe(window, "body.hull.z"));
    window.viewport()->sceneView().setOrbit(hull, 2.2, std::numbers::pi + 0.6, 0.3);
    const QImage dark = renderNow(window);
    QTest::keyClick(window.viewport(), Qt::Key_L);
    QVERIFY(waitSimSeconds(window, 0.1));
    const QImage lit = renderNow(window);
    QVERIFY(lit.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/mf4_headlight.png"));
    QCOMPARE(lighting.lampsLit(), 1);
    QCOMPARE(lighting.pipeline(), impetus::render::SceneLighting::Pipeline::Lamps);
    // Where the beam meets the door, 0.49 m from the lamp (0.35 m ahead of the hull centre,
    // 0.115 m up; its axis dips 0.15 m a metre), beside the arm. The sun gives the door
    // 0.39 + 0.8 cos(56 deg) = 0.84 of its colour; the lamp adds 1.2 / (1 + (0.49 / 6)^2) = 1.19
    // on its axis: 2.4 times as bright. The brightest spot near there must be > 1.8 times.
    const osg::Vec3d spot = hull + osg::Vec3d(0.84, -0.12, 0.115 - 0.49 * 0.15);
    const QPoint p = project(window.viewport(), lit, spot);
    QVERIFY(p.x() >= 0 && p.y() >= 0);
    double gain = 0.0;
    QPoint best = p;
    for (int dy = -30; dy <= 30; ++dy)
      for (int dx = -30; dx <= 30; ++dx) {
        const QPoint q = p + QPoint(dx, dy);
        if (!lit.rect().contains(q)) continue;
        const double g = double(brightness(lit.pixel(q))) / std::max(1, brightness(dark.pixel(q)));
        if (g > gain) {
          gain = g;
          best = q;
        }
      }
    QVERIFY2(gain > 1.8, qPrintable(QString("the door brightened %1 times").arg(gain)));
    const QPoint corner(5, 5);
    QCOMPARE(brightness(lit.pixel(corner)), brightness(dark.pixel(corner)));
    // Off again: back to per-vertex lighting, the picture as before.
    QTest::keyClick(window.viewport(), Qt::Key_L);
    QVERIFY(waitSimSeconds(window, 0.1));
    renderNow(window);
    QCOMPARE(lighting.lampsLit(), 0);
    QCOMPARE(lighting.pipeline(), impetus::render::SceneLighting::Pipeline::FixedFunction);
    // With shadows the sun and the lamp are lit per pixel.
    window.setQuality("low");
    QTest::keyClick(window.viewport(), Qt::Key_L);
    QVERIFY(waitSimSeconds(window, 0.1));
    const QImage shadowed = renderNow(window);
    QCOMPARE(lighting.pipeline(), impetus::render::SceneLighting::Pipeline::Shadowed);
    QVERIFY(brightness(shadowed.pixel(best)) > brightness(dark.pixel(best)) * 1.8);
    window.setQuality("auto");
  }

  void theSkyIsBlueOverheadAndFogHidesTheDistance() {
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setQuality("off");
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(waitSimSeconds(window, 0.1));
    // Level with the ground, looking along +x past the robot: the horizon across the middle.
    const osg::Vec3d hull(probe(window, "body.hull.x"), probe(window, "body.hull.y"), 0.5);
    window.viewport()->sceneView().setOrbit(hull, 6.0, std::numbers::pi, 0.0);
    const QImage clear = renderNow(window);
    QVERIFY(clear.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/sky.png"));
    // 22 degrees up at the top edge (45 degree lens): blue; 2 degrees up: pale haze.
    const impetus::render::SkyDome& sky = window.viewport()->sceneView().sky();
    const QRgb top = clear.pixel(clear.width() / 8, 2);
    const QPoint haze = project(window.viewport(), clear, hull + osg::Vec3d(300.0, 0.0, 10.0));
    QVERIFY(haze.x() >= 0);
    const QRgb low = clear.pixel(haze.x() / 4, haze.y());
    QVERIFY2(qBlue(top) > qRed(top) + 40, qPrintable(QString::number(top, 16)));
    QVERIFY2(brightness(low) > brightness(top) + 20, qPrintable(QString::number(low, 16)));
    // The dome is painted as SkyDome::colourAt says (8-bit rounding and interpolation).
    const osg::Vec4 expected = sky.colourAt(0.39);
    QVERIFY2(std::abs(qBlue(top) - expected.b() * 255) < 12,
             qPrintable(QString("%1 for %2").arg(qBlue(top)).arg(expected.b() * 255)));

    // The same place in fog from 4 to 20 m: the far ground and the horizon are the fog's colour,
    // the robot 6 m away still shows.
    QTemporaryDir folder;
    QFile scene(folder.filePath("fog.xml"));
    QVERIFY(scene.open(QIODevice::WriteOnly));
    scene.write(QString(R"(<scene name="fog">
  <world gravity="0 0 -9.81" step="0.01" frame="0.04"/>
  <body name="ground" fixed="true"><geom type="plane"/></body>
  <include file="%1/robots/mf4.xml"/>
  <fog start="4" end="20" color="0.6 0.62 0.64"/>
</scene>)")
                    .arg(IMPETUS_SCENES_DIR)
                    .toUtf8());
    scene.close();
    QVERIFY(window.openScene(scene.fileName()));
    QVERIFY(waitSimSeconds(window, 0.1));
    window.viewport()->sceneView().setOrbit(hull, 6.0, std::numbers::pi, 0.0);
    const QImage foggy = renderNow(window);
    QVERIFY(foggy.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/fog.png"));
    const QRgb fog = qRgb(153, 158, 163);
    const auto near = [](QRgb a, QRgb b) {
      return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
             std::abs(qBlue(a) - qBlue(b));
    };
    const QPoint farGround = project(window.viewport(), foggy, hull + osg::Vec3d(40.0, 3.0, -0.5));
    QVERIFY(farGround.x() >= 0);
    QVERIFY2(near(foggy.pixel(farGround), fog) < 12,
             qPrintable(QString::number(foggy.pixel(farGround), 16)));
    QVERIFY2(near(foggy.pixel(haze.x() / 4, haze.y()), fog) < 12,
             qPrintable(QString::number(foggy.pixel(haze.x() / 4, haze.y()), 16)));
    const QPoint robot = project(window.viewport(), foggy, hull);
    QVERIFY(near(bestNear(foggy, robot, 20, [&](QRgb p) { return near(p, fog); }), fog) > 60);
    window.setQuality("auto");
  }
};

int main(int argc, char** argv) {
  ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);
  QApplication::setOrganizationName("ImpetusTest");
  VisualsGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "visuals_gui_test.moc"
