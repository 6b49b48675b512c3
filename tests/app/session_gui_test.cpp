// Session recording and replay in the window, as an instructor uses them (issue #9): record with
// the elapsed time shown, find the session in the browser, replay it on the timeline (seek, play
// at x8, frame step; the console shows what the operator did) and take control from a moment.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <cmath>

#include "console_panel.h"
#include "event_strip.h"
#include "exercise_panel.h"
#include "gui_test_support.h"
#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/scene/input_script.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/session_replay.h"
#include "impetus/session/simulation.h"
#include "indicator_lamp.h"
#include "joystick_widget.h"
#include "limit_plots.h"
#include "replay_session.h"
#include "replay_timeline.h"
#include "session_browser.h"
#include "viewport_widget.h"

using namespace gui_test;

namespace {

/// The translation the presenter draws a body at (float, as OSG holds it).
osg::Vec3d drawnAt(MainWindow& window, const char* body) {
  return window.presenter().bodyNode(window.bodyIndex(body))->getMatrix().getTrans();
}

/// Shows `window` with scenes/humanoid.xml standing 0.3 s, then records as "instructor".
bool openHumanoidRecording(MainWindow& window) {
  window.resize(1280, 800);
  window.show();
  const QString scene = QFileInfo(MainWindow::defaultScenePath()).dir().filePath("humanoid.xml");
  if (!QTest::qWaitForWindowExposed(&window) || !window.openScene(scene) ||
      !waitSimSeconds(window, 0.3))
    return false;
  renderNow(window);
  return window.startRecording("instructor");
}

}  // namespace

class SessionGuiTest : public QObject {
  Q_OBJECT
  QTemporaryDir sessions_;

 private slots:
  void initTestCase() {
    QVERIFY(sessions_.isValid());
    qputenv("IMPETUS_SESSIONS_DIR", sessions_.path().toUtf8());
    QDir().mkpath(IMPETUS_TEST_OUTPUT_DIR);
  }

  void recordBrowseReplayAndTakeControl() {
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    QVERIFY(waitSimSeconds(window, 0.2));

    // Record: drive forward 1.5 s, close the gripper, stop.
    QVERIFY(window.startRecording("Alice"));
    auto* status = window.findChild<QLabel*>("recordingStatus");
    QVERIFY(status->text().contains("REC"));
    impetus::app::JoystickWidget* drive = window.console()->joystick("drive");
    const QPoint c = drive->rect().center();
    QTest::mousePress(drive, Qt::LeftButton, Qt::NoModifier, c);
    QTest::mouseMove(drive, c - QPoint(0, drive->height()), 5);
    QVERIFY(waitSimSeconds(window, 1.5));
    QTest::mouseRelease(drive, Qt::LeftButton, Qt::NoModifier, c);
    QTest::mouseClick(window.console()->button("gripper"), Qt::LeftButton);
    QVERIFY(waitSimSeconds(window, 1.0));
    QVERIFY2(status->text().contains("REC 0:02") && status->text().contains("Alice"),
             qPrintable(status->text()));
    const double recorded = window.simulation().snapshot().recordedSeconds;
    const QString path = window.stopRecording();
    QVERIFY(QFileInfo::exists(path));
    QVERIFY(!status->text().contains("REC"));

    // The browser lists it: date, scene, duration, operator, end.
    impetus::app::SessionBrowser* browser = window.showSessionBrowser();
    QTableWidget* table = browser->table();
    QCOMPARE(table->rowCount(), 1);
    using B = impetus::app::SessionBrowser;
    QCOMPARE(table->item(0, B::kScene)->text(), QString("MF-4"));
    QCOMPARE(table->item(0, B::kOperator)->text(), QString("Alice"));
    QCOMPARE(table->item(0, B::kEnd)->text(), QString("complete"));
    const double listed = table->item(0, B::kDuration)->text().split(' ')[0].toDouble();
    QVERIFY2(std::abs(listed - recorded) < 0.11, qPrintable(table->item(0, B::kDuration)->text()));
    QVERIFY(!table->item(0, B::kDate)->text().isEmpty());
    QVERIFY(browser->grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/session_browser.png"));
    QTest::mouseClick(browser->findChild<QPushButton*>("replaySession"), Qt::LeftButton);
    QVERIFY(window.replay());

    // The timeline: seek 1 s in -> the recorded poses are drawn, the stick shows the push.
    impetus::app::ReplaySession* replay = window.replay();
    impetus::app::ReplayTimeline* timeline = window.timeline();
    QVERIFY(timeline->isVisible());
    impetus::SessionReader reader(path.toStdString());
    const std::int64_t first = reader.info().firstStep;
    timeline->slider()->setValue(100);
    QCOMPARE(replay->position(), first + 100);
    renderNow(window);
    const auto poses = reader.posesAt(first + 100);
    QVERIFY(poses);
    const int hull = window.bodyIndex("hull");
    const impetus::Vec3 recordedHull = poses->second[size_t(hull)].position;
    QVERIFY(
        (drawnAt(window, "hull") - osg::Vec3d(recordedHull.x(), recordedHull.y(), recordedHull.z()))
            .length() < 1e-6);
    QCOMPARE(window.console()->joystick("drive")->yValue(), 1.0);
    QVERIFY(!window.console()->button("gripper")->isChecked());  // closed at 1.5 s, not yet
    QVERIFY(!window.console()->joystick("drive")->isEnabled());  // the operator's, not ours
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/session_replay.png"));

    // Frame step: one 40 ms frame (the forward button, or `.` as when live).
    QTest::mouseClick(timeline->findChildren<QToolButton*>().at(2), Qt::LeftButton);  // forward
    QCOMPARE(replay->position(), first + 104);
    window.singleStep();
    QCOMPARE(replay->position(), first + 108);

    // Play from the start at x8: the whole recording passes in an eighth of its duration.
    timeline->slider()->setValue(0);
    timeline->speedBox()->setCurrentIndex(timeline->speedBox()->findData(8.0));
    QElapsedTimer wall;
    wall.start();
    QTest::mouseClick(timeline->playButton(), Qt::LeftButton);
    QVERIFY(replay->playing());
    QVERIFY(QTest::qWaitFor([&] { return !replay->playing(); }, 5000));  // stops at the end
    // Paced by the clock (x8: 7-8 measured on an idle machine), but a frame that takes longer
    // than a quarter second is not caught up: on a loaded 2-core VM llvmpipe's frames do, so the
    // lower bound only says the speed took effect (well above x1), not how smooth it was.
    const double rate = double(reader.endStep() - first) * 0.01 / (wall.nsecsElapsed() * 1e-9);
    qInfo("replay at x8: %.2f x real time", rate);
    QVERIFY2(rate > 2.0 && rate < 10.0, qPrintable(QString::number(rate)));
    QCOMPARE(replay->position(), reader.endStep());
    QVERIFY(window.console()->button("gripper")->isChecked());

    // Take control at a recorded frame 2 s in (stick released, gripper closed): the live state
    // is the recorded one bit for bit, the gripper switch stays closed, and the trainee drives on.
    const auto later = reader.posesAt(first + 200);
    QVERIFY(later);
    timeline->slider()->setValue(int(later->first - first));
    QTest::mouseClick(timeline->takeControlButton(), Qt::LeftButton);
    QVERIFY(!window.replay());
    QVERIFY(!timeline->isVisible());
    const impetus::app::Snapshot live = window.lastSnapshot();
    QCOMPARE(live.stepIndex, later->first);
    for (size_t b = 0; b < live.positions.size(); ++b) {
      QVERIFY(live.positions[b] == later->second[b].position);
      QVERIFY(live.orientations[b].coeffs() == later->second[b].orientation.coeffs());
    }
    QVERIFY(window.console()->button("gripper")->isChecked());
    QCOMPARE(window.console()->channelValues()[1], 0.0);  // drive.y released
    window.viewport()->setFocus();
    const double x0 = probe(window, "body.hull.x");
    QTest::keyPress(window.viewport(), Qt::Key_W);
    QVERIFY(waitSimSeconds(window, 1.0));
    QTest::keyRelease(window.viewport(), Qt::Key_W);
    QVERIFY2(probe(window, "body.hull.x") > x0 + 0.5, "the trainee drives from there");
    // And the jaws close on (the switch stayed closed). When the recording's click came is
    // polled on the wall clock, so they may still be closing: up to 3 s more of simulation.
    const double closing = simTime(window);
    QVERIFY(QTest::qWaitFor(
        [&] {
          return probe(window, "joint.jaw_left.position") > 0.055 ||
                 simTime(window) > closing + 3.0;
        },
        60000));
    QVERIFY(probe(window, "joint.jaw_left.position") > 0.055);
  }

  void anInstructorsPushFellsTheHumanoidTheConsoleSaysSoAndTheReplayPushesToo() {
    // The humanoid standing, recorded; the instructor pushes the pelvis with 200 N s from
    // Simulation > Push a body (the must-show 6): the gait controller finds it fallen,
    // the console's lamp lights and its readout shows 3, and the session replays bit for bit
    // with the push in it.
    MainWindow window;
    QVERIFY(openHumanoidRecording(window));
    QVERIFY(waitSimSeconds(window, 0.3));
    QAction* push = menuAction(window, "Push a &body");
    QVERIFY(push);
    bool filled = false;
    QTimer::singleShot(200, [&] {
      auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      if (!dialog) return;
      dialog->findChild<QComboBox*>()->setCurrentText("pelvis");
      dialog->findChild<QDoubleSpinBox*>("pushImpulse0")->setValue(200.0);
      static_cast<QDialog*>(dialog)->accept();  // as the Save button does
      filled = true;
    });
    push->trigger();  // the modal dialog, filled and accepted above
    QVERIFY(filled);
    impetus::app::IndicatorLamp* fallen = window.console()->lamp("fallen_lamp");
    QVERIFY(fallen);
    QVERIFY(QTest::qWaitFor([&] { return fallen->lit(); }, 5000));
    QVERIFY(waitSimSeconds(window, 0.5));
    QCOMPARE(window.console()->readout("gait_state")->text().toDouble(), 3.0);
    QCOMPARE(probe(window, "scheme.gait.drives"), 0.0);  // the servos let go
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/humanoid_fallen.png"));
    const QString path = window.stopRecording();
    impetus::SessionReader reader(path.toStdString());
    QCOMPARE(reader.info().pushes.size(), size_t(1));
    QCOMPARE(reader.info().pushes[0].body, std::string("pelvis"));
    QCOMPARE(reader.info().pushes[0].impulse.x(), 200.0);
    impetus::SessionReplay replay(reader);
    const auto divergence = replay.verify();
    QVERIFY2(!divergence, divergence ? divergence->what.c_str() : "");
  }

  void theInstructorPullsTheRobotWithCtrlRightDragAndTheReplayPullsToo() {
    // The perturbation tool: Ctrl + right drag on the torso pulls it towards the cursor with a
    // spring (drawn in the view) until released; the recording keeps each step's pull.
    MainWindow window;
    QVERIFY(openHumanoidRecording(window));
    // Where the torso's centre of mass is drawn, in the widget's coordinates.
    impetus::app::ViewportWidget* view = window.viewport();
    const osg::Camera* camera = view->sceneView().camera();
    const int torso = window.bodyIndex("torso");
    const impetus::Vec3 c0 = window.lastSnapshot().positions[size_t(torso)];
    const osg::Vec3d onScreen = osg::Vec3d(c0.x(), c0.y(), c0.z()) *
                                (camera->getViewMatrix() * camera->getProjectionMatrix() *
                                 camera->getViewport()->computeWindowMatrix());
    const qreal ratio = view->devicePixelRatioF();
    const QPoint at(int(onScreen.x() / ratio), int(view->height() - onScreen.y() / ratio));
    QTest::mousePress(view, Qt::RightButton, Qt::ControlModifier, at);
    QTest::mouseMove(view, at + QPoint(120, 0));
    QVERIFY(waitSimSeconds(window, 0.6));
    renderNow(window);
    QVERIFY(window.overlay().lineCount() >= 1);  // the spring
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/humanoid_pulled.png"));
    const impetus::Vec3 pulledTo = window.lastSnapshot().positions[size_t(torso)];
    QTest::mouseRelease(view, Qt::RightButton, Qt::ControlModifier, at + QPoint(120, 0));
    QVERIFY(waitSimSeconds(window, 0.3));
    // Pulled sideways on the screen: the torso went that way (the camera's right), by cm.
    const osg::Vec3d right = osg::Vec3d(1, 0, 0) * osg::Matrixd::inverse(camera->getViewMatrix()) -
                             osg::Vec3d(0, 0, 0) * osg::Matrixd::inverse(camera->getViewMatrix());
    const impetus::Vec3 moved = pulledTo - c0;
    QVERIFY2(moved.x() * right.x() + moved.y() * right.y() + moved.z() * right.z() > 0.02,
             qPrintable(QString("%1 %2 %3").arg(moved.x()).arg(moved.y()).arg(moved.z())));
    const QString path = window.stopRecording();
    impetus::SessionReader reader(path.toStdString());
    QVERIFY2(reader.info().pushes.size() >= 50,
             qPrintable(QString::number(reader.info().pushes.size())));
    QCOMPARE(reader.info().pushes[0].body, std::string("torso"));
    impetus::SessionReplay replay(reader);
    const auto divergence = replay.verify();
    QVERIFY2(!divergence, divergence ? divergence->what.c_str() : "");
  }

  void theBrowserShowsExerciseScoresAndFiltersATraineesHistory() {
    // Three door exercises recorded headless: Alice passes, then touches the frame; Bob passes.
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString scenes = QFileInfo(MainWindow::defaultScenePath()).dir().path();
    const auto record = [&](const QString& file, const std::string& who, const char* script) {
      impetus::Simulation sim(impetus::loadScene((scenes + "/mf4-door.xml").toStdString()));
      impetus::SessionRecorder recorder(folder.filePath(file).toStdString(), sim,
                                        {.operatorName = who});
      impetus::ExerciseEvaluator exercise(*sim.scene().exercise, sim.world(), &*sim.scene().scheme);
      impetus::InputScript input = impetus::InputScript::read((scenes + "/" + script).toStdString(),
                                                              sim.scene().console.channels());
      while (sim.world().time() < 3.0 - 1e-9) {
        input.apply(sim.world().time(), sim.channels());
        if (!sim.step().ok) return false;
        recorder.afterStep(sim);
        exercise.afterStep(sim.world().time());
      }
      recorder.setExercise(impetus::outcomeOf(exercise));
      recorder.finish(sim);
      return true;
    };
    QVERIFY(record("a1.session", "Alice", "mf4-door.csv"));
    QVERIFY(record("a2.session", "Alice", "mf4-door-frame.csv"));
    QVERIFY(record("b1.session", "Bob", "mf4-door.csv"));
    impetus::app::SessionBrowser browser(folder.path());
    using B = impetus::app::SessionBrowser;
    QTableWidget* table = browser.table();
    QCOMPARE(table->rowCount(), 3);
    const auto rowOf = [&](const QString& file) {
      for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, B::kFile)->text() == file) return row;
      return -1;
    };
    QCOMPARE(table->item(rowOf("a1.session"), B::kExercise)->text(), QString("door"));
    QCOMPARE(table->item(rowOf("a1.session"), B::kScore)->text(), QString("100"));
    QCOMPARE(table->item(rowOf("a1.session"), B::kResult)->text(), QString("passed"));
    QCOMPARE(table->item(rowOf("a2.session"), B::kScore)->text(), QString("-25"));
    QCOMPARE(table->item(rowOf("a2.session"), B::kResult)->text(), QString("unfinished"));
    // Alice's history on the door exercise: her two sessions, nobody else's.
    QCOMPARE(browser.operatorFilter()->count(), 3);  // All, Alice, Bob
    browser.operatorFilter()->setCurrentText("Alice");
    browser.exerciseFilter()->setCurrentText("door");
    int shown = 0;
    for (int row = 0; row < table->rowCount(); ++row)
      if (!table->isRowHidden(row)) {
        ++shown;
        QCOMPARE(table->item(row, B::kOperator)->text(), QString("Alice"));
      }
    QCOMPARE(shown, 2);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    QVERIFY(browser.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/session_history.png"));
  }

  void aReplayedExerciseOpensOnItsDebriefAndItsEventsSeek() {
    // The gates course driven straight on, recorded headless: through the first gate, into the
    // second's post, the time up at 20 s.
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString scenes = QFileInfo(MainWindow::defaultScenePath()).dir().path();
    const QString path = folder.filePath("gates.session");
    {
      impetus::Simulation sim(impetus::loadScene((scenes + "/mf4-gates.xml").toStdString()));
      impetus::SessionRecorder recorder(path.toStdString(), sim, {.operatorName = "trainee"});
      impetus::ExerciseEvaluator exercise(*sim.scene().exercise, sim.world(), &*sim.scene().scheme);
      impetus::InputScript input = impetus::InputScript::read(
          (scenes + "/mf4-gates-straight.csv").toStdString(), sim.scene().console.channels());
      while (sim.world().time() < 21.0 - 1e-9) {
        input.apply(sim.world().time(), sim.channels());
        QVERIFY(sim.step().ok);
        recorder.afterStep(sim);
        exercise.afterStep(sim.world().time());
      }
      recorder.setExercise(impetus::outcomeOf(exercise));
      recorder.finish(sim);
    }
    const impetus::SessionReader reader(path.toStdString());
    QVERIFY(reader.info().exercise.has_value());
    const std::vector<impetus::ExerciseEvent>& stored = reader.info().exercise->events;

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openReplay(path));
    // The debrief: the verdict and why, the checklist as it ended, every event.
    impetus::app::ExercisePanel* panel = window.exercisePanel();
    QVERIFY(panel->isVisible());
    QVERIFY2(panel->verdict()->text().contains("FAILED") &&
                 panel->verdict()->text().contains("the time is up"),
             qPrintable(panel->verdict()->text()));
    QCOMPARE(panel->objectives()->count(), 4);
    QCOMPARE(panel->objectives()->item(0)->checkState(), Qt::Checked);  // the first gate
    QCOMPARE(panel->objectives()->item(1)->checkState(), Qt::Unchecked);
    QVERIFY(panel->limits()->item(0)->text().contains("broken"));  // the posts
    QCOMPARE(panel->events()->count(), int(stored.size()));
    // Clicking the first post touch seeks the replay to that step, paused.
    int touch = -1;
    for (size_t i = 0; i < stored.size() && touch < 0; ++i)
      if (stored[i].kind == impetus::ExerciseEvent::Kind::Violation) touch = int(i);
    QVERIFY(touch >= 0);
    QListWidgetItem* item = panel->events()->item(touch);
    panel->events()->scrollToItem(item);
    QTest::mouseClick(panel->events()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      panel->events()->visualItemRect(item).center());
    impetus::app::ReplaySession* replay = window.replay();
    QCOMPARE(replay->position(), std::llround(stored[size_t(touch)].time / reader.info().step));
    QVERIFY(!replay->playing());
    renderNow(window);
    QVERIFY(window.timeline()->slider()->value() > 0);
    QVERIFY(window.grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/exercise_debrief.png"));

    // The same events ticked under the seek slider: clicking the last (the time up) seeks there.
    impetus::app::EventStrip* strip = window.timeline()->eventStrip();
    QVERIFY(strip->isVisible());
    QCOMPARE(strip->marks().size(), stored.size());
    const std::int64_t timeUp = std::llround(stored.back().time / reader.info().step);
    QCOMPARE(strip->marks().back().step, timeUp);
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier,
                      QPoint(strip->xOf(timeUp), strip->height() / 2));
    QCOMPARE(replay->position(), timeUp);

    // Plot the limits…: the session re-simulated, the rollover limit's roll over its 21 s
    // against its bounds (+-30 degrees), in a window of its own.
    QTest::mouseClick(panel->plotButton(), Qt::LeftButton);
    auto* plots = window.findChild<impetus::app::LimitPlots*>("limitPlots");
    QVERIFY(plots && plots->isVisible());
    QCOMPARE(plots->charts().size(), size_t(1));  // the posts are a contact limit: no curve
    QChart* chart = plots->charts()[0];
    QCOMPARE(chart->series().size(), 3);  // the roll, the two bounds
    auto* roll = static_cast<QLineSeries*>(chart->series()[0]);
    QVERIFY2(roll->count() > 1000, qPrintable(QString::number(roll->count())));
    QVERIFY(std::abs(roll->points().back().x() - 21.0) < 0.05);
    QCOMPARE(static_cast<QLineSeries*>(chart->series()[2])->points()[0].y(), 30.0 * M_PI / 180.0);
    QVERIFY(plots->grab().save(QString(IMPETUS_TEST_OUTPUT_DIR) + "/debrief_plots.png"));
    plots->close();

    // Export debrief…: a save dialog, then the page with the same verdict and the plots.
    QPushButton* exportButton = panel->exportButton();
    QVERIFY(exportButton->isVisible());
    QTest::mouseClick(exportButton, Qt::LeftButton);
    auto* dialog = window.findChild<QFileDialog*>("exportDebriefDialog");
    QVERIFY(dialog && dialog->isVisible());
    const QString page = folder.filePath("debrief.html");
    dialog->selectFile(page);
    static_cast<QDialog*>(dialog)->accept();  // as the Save button does
    QFile file(page);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(file.readAll());
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(html.contains("Drive through the four gates"));
    QVERIFY(html.contains("the time is up"));
    QVERIFY(html.contains("<svg"));  // the rollover limit's roll, plotted
    window.closeReplay();
    QVERIFY(!exportButton->isVisible());
  }

  void damagedFilesAreListedAndRefusedWithTheirError() {
    QFile bad(sessions_.path() + "/notes.session");
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("this is not a session\n");
    bad.close();
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScene(MainWindow::defaultScenePath()));
    impetus::app::SessionBrowser* browser = window.showSessionBrowser();
    int row = -1;
    for (int r = 0; r < browser->table()->rowCount(); ++r)
      if (browser->pathAt(r).endsWith("notes.session")) row = r;
    QVERIFY(row >= 0);
    const QString end = browser->table()->item(row, impetus::app::SessionBrowser::kEnd)->text();
    QVERIFY2(end.startsWith("cannot be read:") && end.contains("notes.session"), qPrintable(end));
    browser->close();
    QVERIFY(!window.openReplay(bad.fileName()));
    auto* box = window.findChild<QMessageBox*>("sessionError");
    QVERIFY(box && box->isVisible());
    QVERIFY2(box->text().contains("notes.session"), qPrintable(box->text()));
    QVERIFY(!window.replay());
    QVERIFY(waitSimSeconds(window, 0.2, 10000));  // the live scene keeps running
    box->close();
  }
};

int main(int argc, char** argv) {
  ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);
  QApplication::setOrganizationName("ImpetusTest");
  SessionGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "session_gui_test.moc"
