// The operator application as a trainee uses it (issue #8's must-shows), in the real window under
// a real (X or Xvfb) display: the MF-4 driven from the on-screen joystick, the gripper and joint-
// select toggles, pause and single step, a malformed scene, plots, a physical joystick (SDL's
// virtual device), cameras and overlays, and a screenshot.
#include <SDL.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTest>
#include <chrono>
#include <cmath>
#include <thread>

#include <osg/Geometry>

#include <QTabBar>
#include <QTabWidget>

#include "console_panel.h"
#include "exercise_panel.h"
#include "gui_test_support.h"
#include "indicator_lamp.h"
#include "joystick_widget.h"
#include "plot_panel.h"

using impetus::app::JoystickWidget;
using namespace gui_test;

namespace {

constexpr double kPi = 3.14159265358979323846;
/// MF-4 track speed at full voltage, no load: 7580 rpm / 60 (gear) x 0.09 m sprocket
/// (scenes/robots/mf4.xml).
constexpr double kTrackSpeed = 7580.0 * 2.0 * kPi / 60.0 / 60.0 * 0.09;  // 1.19 m/s

/// Drags a joystick's knob from its centre by (dx, dy) of its radius (y up) and holds it there.
void pressStick(JoystickWidget* stick, double dx, double dy) {
  const QPoint c = stick->rect().center();
  const double r = 0.5 * std::min(stick->width(), stick->height()) - 14.0;
  QTest::mousePress(stick, Qt::LeftButton, Qt::NoModifier, c);
  for (int i = 1; i <= 5; ++i)
    QTest::mouseMove(stick, c + QPoint(int(dx * r * i / 5), int(-dy * r * i / 5)), 5);
}

void releaseStick(JoystickWidget* stick) {
  QTest::mouseRelease(stick, Qt::LeftButton, Qt::NoModifier, stick->rect().center());
}

struct OpenWindow {
  MainWindow window;
  OpenWindow() {
    window.resize(1280, 800);
    window.show();
  }
};

}  // namespace

class OperatorAppTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QDir().mkpath(IMPETUS_TEST_OUTPUT_DIR); }

  void theDriveJoystickDrivesTheMf4AndReleasingItStops() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QCOMPARE(window.sceneName(), QString("MF-4"));
    QVERIFY(waitSimSeconds(window, 0.3));  // settle on the tracks
    JoystickWidget* drive = window.console()->joystick("drive");
    QVERIFY(drive);
    const double x0 = probe(window, "body.hull.x"), t0 = simTime(window);
    pressStick(drive, 0.0, 1.3);  // beyond the rim: full forward
    QCOMPARE(drive->yValue(), 1.0);
    QVERIFY(waitSimSeconds(window, 2.0));
    releaseStick(drive);
    QCOMPARE(drive->yValue(), 0.0);  // springs back
    const double driven = probe(window, "body.hull.x") - x0, seconds = simTime(window) - t0;
    const double expected = kTrackSpeed * seconds;
    QVERIFY2(std::abs(driven - expected) < 0.2 * expected,
             qPrintable(QString("drove %1 m in %2 s, track speed implies %3 m")
                            .arg(driven)
                            .arg(seconds)
                            .arg(expected)));
    QVERIFY(waitSimSeconds(window, 1.0));
    const double speed = std::hypot(probe(window, "body.hull.vx"), probe(window, "body.hull.vy"));
    QVERIFY2(speed < 0.01, qPrintable(QString("still moving at %1 m/s").arg(speed)));
    const double stopped = probe(window, "body.hull.x");
    QVERIFY(waitSimSeconds(window, 0.5));
    QVERIFY(std::abs(probe(window, "body.hull.x") - stopped) < 1e-3);

    // The hull is drawn where the camera puts it (orbiting it): a lit body, not the grey ground.
    const QImage image = renderNow(window);
    const QPoint p = project(window.viewport(), image,
                             {probe(window, "body.hull.x"), probe(window, "body.hull.y"), 0.25});
    QVERIFY(p.x() >= 0);
    const QRgb hull = bestNear(image, p, 3, [](QRgb c) { return qGreen(c) - qBlue(c); });
    QVERIFY2(qGreen(hull) > qBlue(hull) + 30, qPrintable(QString::number(hull, 16)));
  }

  void theKeyboardDrivesTheSameJoystick() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    window.viewport()->setFocus();
    QVERIFY(waitSimSeconds(window, 0.2));
    const double yaw0 = probe(window, "body.hull.yaw");
    QTest::keyPress(window.viewport(), Qt::Key_D);  // turn right in place
    QCOMPARE(window.console()->joystick("drive")->xValue(), 1.0);
    QVERIFY(waitSimSeconds(window, 1.0));
    QTest::keyRelease(window.viewport(), Qt::Key_D);
    QCOMPARE(window.console()->joystick("drive")->xValue(), 0.0);
    QVERIFY2(probe(window, "body.hull.yaw") < yaw0 - 0.2,
             qPrintable(QString::number(probe(window, "body.hull.yaw") - yaw0)));
  }

  void theGripperToggleClosesTheJawsAndJointSelectRoutesTheArmStick() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    impetus::app::ConsolePanel* console = window.console();
    QAbstractButton* gripper = console->button("gripper");
    QAbstractButton* select = console->button("joint_select");
    QVERIFY(gripper && select);

    // Gripper: open (jaw_left at 0) -> closed against its 6 cm stop.
    QVERIFY(waitSimSeconds(window, 0.2));
    QVERIFY(probe(window, "joint.jaw_left.position") < 0.005);
    QTest::mouseClick(gripper, Qt::LeftButton);
    QVERIFY(gripper->isChecked());
    QVERIFY(waitSimSeconds(window, 1.5));
    QVERIFY2(probe(window, "joint.jaw_left.position") > 0.055,
             qPrintable(QString::number(probe(window, "joint.jaw_left.position"))));
    QVERIFY2(probe(window, "joint.jaw_right.position") < -0.055, "the repeater mirrors the jaw");
    QTest::mouseClick(gripper, Qt::LeftButton);
    QVERIFY(waitSimSeconds(window, 1.5));
    QVERIFY(probe(window, "joint.jaw_left.position") < 0.005);

    // Joint select off: the stick's x turns the turret, not the wrist.
    JoystickWidget* arm = console->joystick("arm");
    auto moveArmX = [&](double seconds) {
      const double turret = probe(window, "joint.turret_yaw.position");
      const double wrist = probe(window, "joint.wrist_pitch.position");
      pressStick(arm, 1.3, 0.0);
      waitSimSeconds(window, seconds);
      releaseStick(arm);
      waitSimSeconds(window, 0.2);
      return std::pair{probe(window, "joint.turret_yaw.position") - turret,
                       probe(window, "joint.wrist_pitch.position") - wrist};
    };
    auto [turret1, wrist1] = moveArmX(1.0);
    QVERIFY2(std::abs(turret1) > 0.1 && std::abs(wrist1) < 0.01,
             qPrintable(QString("turret %1 wrist %2").arg(turret1).arg(wrist1)));
    QTest::mouseClick(select, Qt::LeftButton);
    auto [turret2, wrist2] = moveArmX(1.0);
    QVERIFY2(std::abs(wrist2) > 0.1 && std::abs(turret2) < 0.01,
             qPrintable(QString("turret %1 wrist %2").arg(turret2).arg(wrist2)));
  }

  void theLightToggleLightsItsLampAndReadoutsShowTheirSignal() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    window.viewport()->setFocus();
    auto* lamp = window.console()->lamp("light_lamp");
    QVERIFY(lamp);
    QVERIFY(waitSimSeconds(window, 0.1));
    QVERIFY(!lamp->lit());
    QTest::keyClick(window.viewport(), Qt::Key_L);
    QVERIFY(window.console()->button("light")->isChecked());
    QVERIFY(QTest::qWaitFor([&] { return lamp->lit(); }, 5000));
    QLabel* force = window.console()->readout("grip_force");
    QVERIFY(force);
    QVERIFY(QTest::qWaitFor([&] { return force->text() != "–"; }, 5000));
    bool number = false;
    force->text().toDouble(&number);
    QVERIFY2(number, qPrintable(force->text()));
  }

  void pauseFreezesSimTimeWhileFramesRenderAndStepAdvancesTenMilliseconds() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(waitSimSeconds(window, 0.2));
    window.activateWindow();
    QApplication::setActiveWindow(&window);  // shortcuts go to the active window (no WM here)
    QVERIFY(QTest::qWaitFor([&] { return QApplication::activeWindow() == &window; }, 5000));
    window.viewport()->setFocus();
    QTest::keyClick(window.viewport(), Qt::Key_Space);  // the menu shortcut, as an operator would
    QVERIFY(QTest::qWaitFor([&] { return window.simulation().snapshot().paused; }, 2000));
    QTest::qWait(100);
    const impetus::app::Snapshot frozen = window.simulation().snapshot();
    const long long frames = window.viewport()->framesRendered();
    // Frames keep rendering while paused (25 a second on an idle machine; a loaded VM's llvmpipe
    // may take longer for five).
    QVERIFY2(
        QTest::qWaitFor([&] { return window.viewport()->framesRendered() >= frames + 5; }, 10000),
        "frames keep rendering while paused");
    QCOMPARE(window.simulation().snapshot().time, frozen.time);
    QCOMPARE(window.simulation().snapshot().stepIndex, frozen.stepIndex);
    QTest::keyClick(window.viewport(), Qt::Key_Period);
    QVERIFY(QTest::qWaitFor(
        [&] { return window.simulation().snapshot().stepIndex == frozen.stepIndex + 1; }, 2000));
    QVERIFY(std::abs(simTime(window) - (frozen.time + 0.01)) < 1e-12);
    QTest::qWait(200);
    QCOMPARE(window.simulation().snapshot().stepIndex, frozen.stepIndex + 1);  // one step only
    QTest::keyClick(window.viewport(), Qt::Key_Space);
    QVERIFY(waitSimSeconds(window, 0.2));
    // Speed: sim time runs at x4 and x0.25 of the wall clock (paced by the simulation thread).
    for (const double speed : {4.0, 0.25}) {
      window.setSpeed(speed);
      QTest::qWait(200);
      const double ratio = simPerWallTime(window, 2000);
      QVERIFY2(std::abs(ratio - speed) < 0.15 * speed, qPrintable(QString::number(ratio)));
    }
  }

  void aStalledSimulationDropsTheStepsItMissedAndKeepsTheWallClock() {
    // The simulation thread held up for a second (a step that slow, a machine busy elsewhere):
    // it catches up a quarter second of steps and drops the rest, so sim time then goes on at
    // the wall clock's pace (it once moved its anchor the wrong way and raced ahead).
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(waitSimSeconds(window, 0.2));
    const long long lateBefore = window.simulation().snapshot().lateSteps;
    window.simulation().withSimulation(
        [](impetus::Simulation&) { std::this_thread::sleep_for(std::chrono::seconds(1)); });
    QTest::qWait(300);  // the catch-up burst
    const double ratio = simPerWallTime(window, 2000);
    QVERIFY2(std::abs(ratio - 1.0) < 0.15, qPrintable(QString::number(ratio)));
    // 100 steps missed, 25 caught up.
    const long long dropped = window.simulation().snapshot().lateSteps - lateBefore;
    QVERIFY2(dropped >= 50 && dropped < 1000, qPrintable(QString::number(dropped)));
  }

  void malformedSceneShowsItsErrorAndTheOldSceneKeepsRunning() {
    OpenWindow w;
    MainWindow& window = w.window;
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
    QCOMPARE(window.sceneName(), QString("MF-4"));
    QVERIFY(waitSimSeconds(window, 0.3, 10000));  // still running behind the dialog
    box->close();
    QVERIFY(!MainWindow::recentScenes().contains(QFileInfo(bad).absoluteFilePath()));
    QVERIFY(MainWindow::recentScenes().value(0) ==
            QFileInfo(MainWindow::defaultScenePath()).absoluteFilePath());
  }

  void aBeamIsDrawnAsOneSmoothTubeThatSags() {
    // A 2 m cantilever (EI 200 N m^2, 2 kg/m) off a post, with a 0.5 kg tip payload: it sags
    // q L^4 / 8EI + P L^3 / 3EI = 0.26 m, and the tube drawn for it follows the segments.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString path = QString(IMPETUS_TEST_OUTPUT_DIR) + "/beam.xml";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"(<scene name="cantilever">
  <material name="steel" friction="0.5"/>
  <body name="ground" fixed="true"><geom type="plane" material="steel"/></body>
  <body name="post" pos="0 0 0.6" fixed="true">
    <geom type="box" size="0.2 0.2 1.2" material="steel"/>
    <beam name="boom" pos="0.1 0 0.5" length="2" mass_per_length="2" axial_stiffness="1e6"
          bending_stiffness="200" torsional_stiffness="150" damping_time="0.05" segments="10"
          radius="0.03" material="steel">
      <body name="payload" mass="0.5"><geom type="sphere" radius="0.06" material="steel"/></body>
    </beam>
  </body>
  <camera name="side" pos="1.1 -3.2 0.9" quat="0.7071 0.7071 0 0"/>
</scene>
)");
    file.close();
    QVERIFY(window.openScene(path));
    QVERIFY(waitSimSeconds(window, 3.0));
    QTest::qWait(200);
    const osg::Geometry* tube = window.presenter().beamTube(0);
    QVERIFY(tube);
    const auto* v = static_cast<const osg::Vec3Array*>(tube->getVertexArray());
    // Ring centres: the mean of each ring's vertices; root at the post, tip 0.26 m lower.
    const int sides = 12;
    const auto centre = [&](size_t ring) {
      osg::Vec3 c;
      for (int k = 0; k < sides; ++k) c += (*v)[ring * sides + k];
      return c / float(sides);
    };
    const size_t rings = v->size() / sides;
    QVERIFY(std::abs(centre(0).z() - 1.1f) < 1e-3f);
    const float sag = centre(0).z() - centre(rings - 1).z();
    QVERIFY2(std::abs(sag - 0.26f) < 0.03f, qPrintable(QString::number(sag)));
    // Smooth: no ring centre more than a sample's length from the last.
    for (size_t r = 1; r < rings; ++r) QVERIFY((centre(r) - centre(r - 1)).length() < 0.06f);
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/beam.png"));
  }

  void theContactStressSceneRunsInTheWindow() {
    // scenes/contact-stress.xml as an instructor would open it: a mesh wall loaded beside the
    // scene, small and fast bodies flying; the fast ball stays between the walls.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString scene =
        QFileInfo(MainWindow::defaultScenePath()).dir().filePath("contact-stress.xml");
    QVERIFY(window.openScene(scene));
    QCOMPARE(window.sceneName(), QString("contact stress"));
    QVERIFY(window.plotProbe("body.fast_ball.x"));
    QVERIFY(waitSimSeconds(window, 2.0));
    QTest::qWait(100);
    const double x = window.plots()->lastValue(0);
    QVERIFY2(x > -2.99 && x < 2.995, qPrintable(QString::number(x)));
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/contact_stress.png"));
  }

  void theFlexibleArmStrikesThePadInTheWindow() {
    // scenes/flexible-impact.xml as an instructor would show it: the arm falls, its end effector
    // strikes the pad at 0.57 s and then rests on it, pressed by part of the arm's weight.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(QString(IMPETUS_SCENES_DIR) + "/flexible-impact.xml"));
    QCOMPARE(window.sceneName(), QString("flexible impact"));
    QVERIFY(window.plotProbe("body.tip.z"));
    QVERIFY(window.plotProbe("sensor.touch.fz"));
    // At a quarter of the wall clock: the pause below lands within the resting spell even when a
    // loaded machine delays this thread's polling by a tenth of a second.
    window.setSpeed(0.25);
    QVERIFY(waitSimSeconds(window, 0.8));  // it rests on the pad from 0.7 to 1.0 s
    window.togglePause();
    QTest::qWait(100);
    QVERIFY2(simTime(window) < 1.0, qPrintable(QString::number(simTime(window))));
    const double z = window.plots()->lastValue(0), normal = window.plots()->lastValue(1);
    QVERIFY2(std::abs(z - 9.58) < 0.02, qPrintable(QString::number(z)));  // on the pad's top
    QVERIFY2(normal > 1000.0, qPrintable(QString::number(normal)));
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/flexible_impact.png"));
  }

  void theSpaceArmIsSteeredOntoThePayloadAndCatchesIt() {
    // scenes/space-arm.xml as a trainee flies it: C closes the snare, W holds the THC forward
    // until the fixture's pin is in the snare, which catches it (the Captured lamp).
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(QString(IMPETUS_SCENES_DIR) + "/space-arm.xml"));
    QCOMPARE(window.sceneName(), QString("space arm"));
    window.viewport()->setFocus();
    QVERIFY(waitSimSeconds(window, 0.2));
    const double x0 = probe(window, "body.end_effector.x");
    QTest::keyClick(window.viewport(), Qt::Key_C);
    QTest::keyPress(window.viewport(), Qt::Key_W);
    QCOMPARE(window.console()->joystick("thc_xy")->yValue(), 1.0);
    QVERIFY(QTest::qWaitFor([&] { return probe(window, "scheme.snare.captured") > 0.5; }, 30000));
    QTest::keyRelease(window.viewport(), Qt::Key_W);
    // 0.2 m/s forward: the pin was 1.64 m ahead, the snare catches it within 0.1 m.
    const double moved = probe(window, "body.end_effector.x") - x0;
    QVERIFY2(moved > 1.4 && moved < 1.7, qPrintable(QString::number(moved)));
    window.setCamera("station");
    window.setPictureInPicture("effector_camera");
    // Carried in vernier, the payload bends the booms by millimetres; View > Overlays >
    // Flexing magnified draws that 20 times as large: the tube's middle leaves the straight
    // line between its ends by 20 times as much.
    QTest::keyClick(window.viewport(), Qt::Key_V);
    QTest::keyPress(window.viewport(), Qt::Key_K);  // THC down
    QVERIFY(waitSimSeconds(window, 3.0));
    window.togglePause();
    QTest::qWait(100);
    const auto sag = [&](const osg::Geometry* tube) {
      const auto* v = static_cast<const osg::Vec3Array*>(tube->getVertexArray());
      const size_t sides = 12, rings = v->size() / sides;
      const auto centre = [&](size_t ring) {
        osg::Vec3 c;
        for (size_t k = 0; k < sides; ++k) c += (*v)[ring * sides + k];
        return c / float(sides);
      };
      const osg::Vec3 a = centre(0), b = centre(rings - 1), m = centre(rings / 2);
      osg::Vec3 along = b - a;
      along.normalize();
      const osg::Vec3 off = (m - a) - along * ((m - a) * along);
      return double(off.length());
    };
    const double actual = sag(window.presenter().beamTube(1));
    window.setFlexMagnified(true);
    const double magnified = sag(window.presenter().beamTube(1));
    QVERIFY2(actual > 1e-4 && std::abs(magnified / actual - 20.0) < 1.0,
             qPrintable(QString("%1 m, magnified %2 m").arg(actual).arg(magnified)));
    QTest::qWait(200);
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/space_arm.png"));
    QTest::keyRelease(window.viewport(), Qt::Key_K);
  }

  void theTeamsRobotsAreDrivenOneAtATime() {
    // scenes/mf4-team.xml: two MF-4s, each a console tab. W drives the robot whose tab is
    // shown; choosing the other tab hands the keys over.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString scene = QFileInfo(MainWindow::defaultScenePath()).dir().filePath("mf4-team.xml");
    QVERIFY(window.openScene(scene));
    impetus::app::ConsolePanel* console = window.console();
    QCOMPARE(console->robots(), (std::vector<std::string>{"red_", "blue_"}));
    auto* tabs = console->findChild<QTabWidget*>("robots");
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->tabText(0), QString("red"));
    QVERIFY(console->joystick("red_drive") && console->joystick("blue_drive"));
    window.viewport()->setFocus();
    QVERIFY(waitSimSeconds(window, 0.2));
    const double redStart = probe(window, "body.red_hull.x");
    const double blueStart = probe(window, "body.blue_hull.x");
    QTest::keyPress(window.viewport(), Qt::Key_W);
    QVERIFY(waitSimSeconds(window, 1.0));
    QTest::keyRelease(window.viewport(), Qt::Key_W);
    QVERIFY2(probe(window, "body.red_hull.x") - redStart > 0.5,
             qPrintable(QString::number(probe(window, "body.red_hull.x") - redStart)));
    QVERIFY(std::abs(probe(window, "body.blue_hull.x") - blueStart) < 0.01);
    // The blue tab, clicked as an operator would: now W drives blue, and red stays.
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, Qt::NoModifier,
                      tabs->tabBar()->tabRect(1).center());
    QCOMPARE(console->selectedRobot(), std::string("blue_"));
    window.viewport()->setFocus();
    // The orbit view follows blue now: it looks at blue's hull.
    window.viewport()->sceneView().setOrbit(
        {probe(window, "body.blue_hull.x"), probe(window, "body.blue_hull.y"), 0.3}, 7.0, -2.4,
        0.5);
    QVERIFY(waitSimSeconds(window, 1.0));  // red rolls to a stop
    const double redStopped = probe(window, "body.red_hull.x");
    QTest::keyPress(window.viewport(), Qt::Key_W);
    QVERIFY(waitSimSeconds(window, 1.0));
    QVERIFY2(probe(window, "body.blue_hull.x") - blueStart > 0.5,
             qPrintable(QString::number(probe(window, "body.blue_hull.x") - blueStart)));
    QVERIFY(std::abs(probe(window, "body.red_hull.x") - redStopped) < 0.01);
    renderNow(window);
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/mf4_team.png"));
    QTest::keyRelease(window.viewport(), Qt::Key_W);
  }

  void theHumanoidWalksFromTheKeys() {
    // scenes/humanoid.xml as a trainee opens it: W walks forward (walk.forward), D steps right
    // (walk.lateral is +1 to the left: the stick's x is inverted), the gait state shows walking.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString scene = QFileInfo(MainWindow::defaultScenePath()).dir().filePath("humanoid.xml");
    QVERIFY(window.openScene(scene));
    QCOMPARE(window.sceneName(), QString("humanoid"));
    QVERIFY(window.plotProbe("scheme.gait.com_x"));
    window.viewport()->setFocus();
    QVERIFY(waitSimSeconds(window, 0.5));
    QCOMPARE(probe(window, "scheme.gait.state"), 0.0);  // standing

    // View > Overlays > Balance: standing, the support polygon is the rectangle round both
    // soles (0.24 m long, 0.2 m between the feet plus a 0.13 m sole), the measured ZMP and the
    // centre of mass inside it; a line per polygon side, 2 (ZMP cross), 4 (centre of mass), 4
    // (capture point), 2 (next step).
    QAction* balance = menuAction(window, "&Balance");
    QVERIFY(balance);
    balance->trigger();
    QVERIFY(waitSimSeconds(window, 0.1));
    renderNow(window);
    {
      const impetus::render::BalanceMarks b = window.lastSnapshot().balance;
      // (4 corners, up to 8 when the soles stand a fraction of a millimetre apart in x)
      QVERIFY2(b.support.size() >= 4 && b.support.size() <= 8,
               qPrintable(QString::number(b.support.size())));
      double minX = 1e9, maxX = -1e9, minY = 1e9, maxY = -1e9;
      for (const impetus::Vec3& p : b.support) {
        minX = std::min(minX, p.x()), maxX = std::max(maxX, p.x());
        minY = std::min(minY, p.y()), maxY = std::max(maxY, p.y());
      }
      QVERIFY2(std::abs(maxX - minX - 0.24) < 0.005 && std::abs(maxY - minY - 0.33) < 0.005,
               qPrintable(QString("%1 x %2").arg(maxX - minX).arg(maxY - minY)));
      QVERIFY(b.zmp && b.centreOfMass && b.capturePoint && b.footstep);
      for (const impetus::Vec3& p : {*b.zmp, *b.centreOfMass})
        QVERIFY(p.x() > minX && p.x() < maxX && p.y() > minY && p.y() < maxY);
      QVERIFY2(std::abs(b.zmp->y()) < 0.01 && std::abs(b.centreOfMass->y()) < 0.01,
               "standing on both feet, over the middle");
      QCOMPARE(window.overlay().lineCount(), unsigned(b.support.size() + 12));
    }
    QTest::keyPress(window.viewport(), Qt::Key_D);
    QVERIFY(waitSimSeconds(window, 0.1));
    QVERIFY2(probe(window, "scheme.lateral") < -0.99,
             qPrintable(QString::number(probe(window, "scheme.lateral"))));
    QTest::keyRelease(window.viewport(), Qt::Key_D);
    QTest::keyPress(window.viewport(), Qt::Key_W);
    QVERIFY(waitSimSeconds(window, 0.1));
    QCOMPARE(probe(window, "scheme.forward"), 1.0);
    QVERIFY(waitSimSeconds(window, 1.5));
    QCOMPARE(probe(window, "scheme.gait.state"), 1.0);  // walking, upright
    QVERIFY(std::abs(probe(window, "body.pelvis.pitch")) < 0.1);
    // Walking, the next footstep is ahead of the robot.
    QVERIFY(window.lastSnapshot().balance.footstep->x() > probe(window, "body.pelvis.x"));
    // The README's picture: closer, from the front left, the balance overlay on the ground.
    window.viewport()->sceneView().setOrbit(
        {probe(window, "body.pelvis.x"), probe(window, "body.pelvis.y"), 0.7}, 3.2, -0.9, 0.35);
    QVERIFY(waitSimSeconds(window, 0.2));
    renderNow(window);
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/humanoid.png"));
    QTest::keyRelease(window.viewport(), Qt::Key_W);
    // The hand sticks' keys: I pushes the left hand forward, 8 raises it (W is released: the
    // walking stick's keys and the hands' are separate).
    QTest::keyPress(window.viewport(), Qt::Key_I);
    QTest::keyPress(window.viewport(), Qt::Key_8);
    QVERIFY(waitSimSeconds(window, 0.1));
    QCOMPARE(probe(window, "scheme.hand_x"), 1.0);
    QCOMPARE(probe(window, "scheme.hand_z"), 1.0);
    QCOMPARE(probe(window, "scheme.forward"), 0.0);
    QTest::keyRelease(window.viewport(), Qt::Key_I);
    QTest::keyRelease(window.viewport(), Qt::Key_8);
    QVERIFY(waitSimSeconds(window, 0.1));
    QCOMPARE(probe(window, "scheme.hand_x"), 0.0);
  }

  void theValveSceneOpensWithBothHandsOnTheKeysAndTheGripAndTurnOnTheConsole() {
    // scenes/humanoid-valve.xml (seed 002's valve task): I and 8 steer the left hand, H hands the
    // same keys to the right one, G closes both grippers; the console carries the grip toggle,
    // the wheel's turn slider and the grip and wrist force readouts.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(QString(IMPETUS_SCENES_DIR) + "/humanoid-valve.xml"));
    QCOMPARE(window.sceneName(), QString("humanoid-valve"));
    QVERIFY(waitSimSeconds(window, 0.3));
    for (const char* name : {"hands_grip", "valve_turn", "grip_force_left", "hand_force_right"})
      QVERIFY2(window.findChild<QWidget*>(name), name);
    window.viewport()->setFocus();
    const double left0 = probe(window, "scheme.hand_left.target_x");
    const double right0 = probe(window, "scheme.hand_right.target_z");
    QTest::keyPress(window.viewport(), Qt::Key_I);  // the left hand forward
    QVERIFY(waitSimSeconds(window, 0.5));
    QTest::keyRelease(window.viewport(), Qt::Key_I);
    QVERIFY(waitSimSeconds(window, 0.1));
    QVERIFY2(probe(window, "scheme.hand_left.target_x") > left0 + 0.04,
             qPrintable(QString::number(probe(window, "scheme.hand_left.target_x") - left0)));
    QTest::keyClick(window.viewport(), Qt::Key_H);  // steer the right hand
    QTest::keyPress(window.viewport(), Qt::Key_8);  // up
    QVERIFY(waitSimSeconds(window, 0.5));
    QTest::keyRelease(window.viewport(), Qt::Key_8);
    QVERIFY(waitSimSeconds(window, 0.1));
    QVERIFY2(probe(window, "scheme.hand_right.target_z") > right0 + 0.04,
             qPrintable(QString::number(probe(window, "scheme.hand_right.target_z") - right0)));
    const double jaw0 = probe(window, "joint.jaw_a_l.position");
    QTest::keyClick(window.viewport(), Qt::Key_G);  // both grippers close
    QVERIFY(waitSimSeconds(window, 0.5));
    QCOMPARE(probe(window, "scheme.hands_grip"), 1.0);
    QVERIFY(probe(window, "joint.jaw_a_l.position") > jaw0 + 0.02);
    QVERIFY(probe(window, "joint.jaw_a_r.position") > jaw0 + 0.02);
    // View > Overlays > Hands: each hand's target as a cross (three lines) where the hand block
    // puts it in the world; no wrist-force arrows while nothing pushes on the hands.
    QAction* hands = menuAction(window, "&Hands");
    QVERIFY(hands);
    hands->trigger();
    QVERIFY(waitSimSeconds(window, 0.1));
    renderNow(window);
    {
      const std::vector<impetus::render::HandMark>& marks = window.lastSnapshot().hands;
      QCOMPARE(marks.size(), size_t(2));
      QVERIFY(std::abs(marks[0].target.x() - probe(window, "scheme.hand_left.world_x")) < 0.01);
      QVERIFY(marks[0].target.y() > 0.1 && marks[1].target.y() < -0.1);  // left, right
      QCOMPARE(window.overlay().lineCount(), 6u);
    }
    // The picture: from behind the robot on its left, the wheel on its pipe ahead of it.
    window.viewport()->sceneView().setOrbit({0.35, 0.0, 1.0}, 2.6, 2.5, 0.3);
    QVERIFY(waitSimSeconds(window, 0.2));
    renderNow(window);
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/humanoid_valve.png"));
  }

  void anExerciseRunsWithItsChecklistAndEndsInADebrief() {
    // The door exercise (scenes/mf4-door.xml): open the door 30 degrees without touching its frame.
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(QString(IMPETUS_SCENES_DIR) + "/mf4-door.xml"));
    auto* dock = window.findChild<QDockWidget*>("exerciseDock");
    QVERIFY(dock && dock->isVisible());
    impetus::app::ExercisePanel* panel = window.exercisePanel();
    QVERIFY(waitSimSeconds(window, 0.1));
    QCOMPARE(panel->objectives()->count(), 1);
    QCOMPARE(panel->objectives()->item(0)->checkState(), Qt::Unchecked);
    QCOMPARE(panel->limits()->count(), 2);
    QVERIFY(panel->verdict()->text().isEmpty());
    window.viewport()->setFocus();
    QTest::keyPress(window.viewport(), Qt::Key_W);  // full forward into the door
    QVERIFY(waitSimSeconds(window, 0.3));
    QTest::keyRelease(window.viewport(), Qt::Key_W);
    QVERIFY(waitSimSeconds(window, 1.5));
    QCOMPARE(panel->objectives()->item(0)->checkState(), Qt::Checked);
    QVERIFY2(panel->verdict()->text().contains("PASSED"), qPrintable(panel->verdict()->text()));
    QVERIFY(panel->events()->count() >= 2);  // the objective, the completion
    QVERIFY(panel->events()->item(0)->text().contains("objective done"));
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/exercise.png"));
    // The other scenes have none: the panel goes away.
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(!dock->isVisible());
  }

  void plotsFollowAProbe() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    impetus::app::PlotPanel* plots = window.plots();
    QVERIFY(plots->picker()->findText("body.hull.z") >= 0);
    QVERIFY(!window.plotProbe("body.nothing.z"));
    plots->picker()->setEditText("body.hull.z");
    QTest::mouseClick(plots->findChild<QAbstractButton*>("plotAdd"), Qt::LeftButton);
    QCOMPARE(plots->plotted(), QStringList{"body.hull.z"});
    QVERIFY(waitSimSeconds(window, 1.0));
    QTest::qWait(100);
    QVERIFY2(plots->pointCount(0) >= 90, qPrintable(QString::number(plots->pointCount(0))));
    // The hull's centre rides 0.17 m above the ground (scenes/robots/mf4.xml), settled in a few mm.
    QVERIFY2(std::abs(plots->lastValue(0) - 0.17) < 0.01,
             qPrintable(QString::number(plots->lastValue(0))));
  }

  void aPhysicalJoystickDrivesAndMayBeUnplugged() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    // SDL's virtual joystick stands in for a gamepad plugged in now.
    const int device = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, 4, 4, 0);
    QVERIFY2(device >= 0, SDL_GetError());
    SDL_Joystick* pad = SDL_JoystickOpen(device);
    QVERIFY(pad);
    QVERIFY(waitSimSeconds(window, 0.2));
    const double x0 = probe(window, "body.hull.x");
    QVERIFY(SDL_JoystickSetVirtualAxis(pad, 1, -32767) == 0);  // stick pushed forward
    QVERIFY(waitSimSeconds(window, 1.0));
    QVERIFY2(window.console()->joystick("drive")->yValue() > 0.99, "the on-screen stick follows");
    const double driven = probe(window, "body.hull.x") - x0;
    QVERIFY2(driven > 0.6 * kTrackSpeed, qPrintable(QString::number(driven)));
    // Button 1 is the gripper toggle in the MF-4's console.
    QVERIFY(SDL_JoystickSetVirtualButton(pad, 1, 1) == 0);
    QVERIFY(
        QTest::qWaitFor([&] { return window.console()->button("gripper")->isChecked(); }, 2000));
    QVERIFY(SDL_JoystickSetVirtualButton(pad, 1, 0) == 0);
    // Unplugged while driving: the robot stops.
    SDL_JoystickClose(pad);
    QVERIFY(SDL_JoystickDetachVirtual(device) == 0);
    QVERIFY(waitSimSeconds(window, 1.0));
    QCOMPARE(window.console()->joystick("drive")->yValue(), 0.0);
    QVERIFY(std::abs(probe(window, "body.hull.vx")) < 0.01);
    QVERIFY(window.console()->button("gripper")->isChecked());  // toggles keep their state
  }

  void onboardCamerasPictureInPictureOverlaysAndScreenshot() {
    OpenWindow w;
    MainWindow& window = w.window;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(waitSimSeconds(window, 0.3));
    ViewportWidget* vp = window.viewport();

    // Overlays: every contact point gives 4 lines, joint axes one per joint.
    window.setOverlayLayers(impetus::render::DebugOverlay::kContactPoints |
                            impetus::render::DebugOverlay::kJointAxes);
    renderNow(window);
    const impetus::app::Snapshot s = window.lastSnapshot();
    QVERIFY(!s.contacts.empty());
    QCOMPARE(window.overlay().lineCount(), unsigned(4 * s.contacts.size() + s.joints.size()));

    // The picture in picture shows the gripper camera in the top-right corner.
    window.setPictureInPicture("gripper_camera");
    QImage image = renderNow(window);
    QVERIFY(image.save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/operator_pip.png"));
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/operator_window_pip.png"));
    osg::Camera* pip = vp->sceneView().pictureInPictureCamera();
    QVERIFY(pip && pip->getViewport()->width() > 100);
    // A good share of the corner's pixels change when the inset goes (the uniformly lit ground
    // fills the same pixels in both views where the gripper camera sees it: about half).
    const int insetWidth = int(pip->getViewport()->width()),
              insetHeight = int(pip->getViewport()->height());
    window.setPictureInPicture("");
    const QImage plain = renderNow(window);
    int changed = 0;
    for (int y = 10; y < insetHeight; y += 4)
      for (int x = image.width() - insetWidth; x < image.width() - 10; x += 4)
        changed += image.pixel(x, y) != plain.pixel(x, y) ? 1 : 0;
    const int sampled = ((insetHeight - 10 + 3) / 4) * ((insetWidth - 10 + 3) / 4);
    QVERIFY2(changed > sampled / 5,
             qPrintable(QString("the corner shows another view: %1 of %2 pixels changed")
                            .arg(changed)
                            .arg(sampled)));

    // Onboard: the main camera sits where the drive camera is mounted on the hull.
    window.setCamera("drive_camera");
    QVERIFY(
        renderNow(window).save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/operator_drive_camera.png"));
    const osg::Vec3d eye = osg::Vec3d() * vp->sceneView().camera()->getInverseViewMatrix();
    const double hx = probe(window, "body.hull.x");
    QVERIFY2(std::abs(eye.x() - (hx + 0.36)) < 0.02 && std::abs(eye.z() - 0.29) < 0.02,
             qPrintable(QString("eye %1 %2 %3").arg(eye.x()).arg(eye.y()).arg(eye.z())));
    window.setCamera("orbit");
    window.setOverlayLayers(0);
    renderNow(window);

    // The screenshot the README shows (the orbit camera behind the robot).
    const QString path = QString(IMPETUS_TEST_OUTPUT_DIR) + "/operator_mf4.png";
    QVERIFY(window.saveScreenshot(path));
    QImage saved(path);
    QCOMPARE(saved.size(), vp->grabFramebuffer().size());
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/operator_window.png"));
  }
};

int main(int argc, char** argv) {
  ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);
  QApplication::setOrganizationName("ImpetusTest");
  OperatorAppTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "operator_app_test.moc"
