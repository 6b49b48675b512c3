// impetus-gui-soak: the training day in the window. The operator program's real window (under
// Xvfb when there is no display: tools/with-display.sh) is driven for M minutes of wall time by a
// tired trainee's mouse and keys - the spells of impetus-soak (trainee_spells.h) given as Qt
// input events on the console's sticks, buttons and sliders and on the viewport's keys, with a
// look around the View menu now and then - while the session is recorded from start to end.
//
//   impetus-gui-soak [--minutes M] [--seed S] [--sessions DIR] [SCENE.xml]
//
// Fails when the simulation stops (non-finite numbers), the recording fails or ends, the window
// stops drawing for 10 s, resident memory grows more than 2 MB over the run's second half, or the
// session does not re-simulate bit for bit. Prints one line and
// exits 1 on a failure; the session (in DIR, default the working directory) and a screenshot of the
// window (gui-soak.png) are kept either way.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QMenu>
#include <QSlider>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "console_panel.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_replay.h"
#include "joystick_widget.h"
#include "main_window.h"
#include "resident_memory.h"
#include "trainee_spells.h"
#include "viewport_widget.h"

using impetus::app::JoystickWidget;
using impetus::app::MainWindow;
using impetus::soak::residentBytes;
using impetus::soak::TraineeSpells;

namespace {

// Resident memory may grow this much over the run's second half. Not from the first minute, as
// impetus-soak: software GL (llvmpipe) compiles and keeps a shader variant for each drawing state
// it meets, and new views, overlays and poses keep bringing new ones for minutes (steps of
// 1-7 MB, 14 MB over the first 20 minutes of a half hour on the MF-4, heaptrack putting most of
// the heap's peak in swrast_dri). A leak grows in the second half as in the first.
constexpr double kMemoryGrowthBytes = 2e6;
constexpr double kStalledDrawingSeconds = 10.0;

/// The trainee at the window: a slam drags one stick to one of its stops past the rim and holds
/// it there, and holds one or two of the console's keys; a mash presses a button (held until
/// the next move), clicks a slider somewhere along its groove or presses a key; an idle spell
/// lets go of everything. Now and then the trainee picks a camera, a picture in picture, an
/// overlay or another robot's tab.
class WindowTrainee {
 public:
  WindowTrainee(MainWindow& window, std::uint64_t seed)
      : window_(window), spells_(seed), keys_(window.console()->keys()) {
    for (const char* title : {"&Camera", "&Picture in picture", "&Overlays"})
      for (QMenu* menu : window.findChildren<QMenu*>())
        if (menu->title() == title)
          for (QAction* a : menu->actions())
            if (!a->isSeparator() && !a->menu()) views_.push_back(a);
  }

  /// Shows every view and every robot's tab once, `dwellMs` each, and goes back to the views
  /// shown before: even a short run draws every camera, picture in picture and overlay.
  void tourViews(int dwellMs) {
    std::vector<QAction*> shown;
    for (QAction* a : views_)
      if (a->isChecked()) shown.push_back(a);
    for (QAction* a : views_) {
      a->trigger();
      QTest::qWait(dwellMs);
      if (a->isCheckable() && !a->actionGroup() && a->isChecked()) a->trigger();  // overlays off
    }
    for (QAction* a : shown)
      if (!a->isChecked()) a->trigger();
    if (auto* tabs = window_.console()->findChild<QTabWidget*>("robots"))
      for (int i = tabs->count() - 1; i >= 0; --i) {
        QTabBar* bar = tabs->tabBar();
        QTest::mouseClick(bar, Qt::LeftButton, Qt::NoModifier, bar->tabRect(i).center());
        QTest::qWait(dwellMs);
      }
  }

  /// Gives the input due at wall time t (s since the start).
  void act(double t) {
    if (!spells_.due(t)) return;
    letGo();
    switch (spells_.spell()) {
      case TraineeSpells::Spell::Slam:
        slam();
        break;
      case TraineeSpells::Spell::Mash:
        mash();
        break;
      case TraineeSpells::Spell::Idle:
        break;
    }
    if (spells_.uniform(0.0, 1.0) < 0.03) lookAround();
    spells_.moved(t);
  }

  /// Releases the mouse and every key held.
  void letGo() {
    if (held_) QTest::mouseRelease(held_, Qt::LeftButton, Qt::NoModifier, heldAt_);
    held_ = nullptr;
    for (int key : keysHeld_) QTest::keyRelease(window_.viewport(), Qt::Key(key));
    keysHeld_.clear();
  }

  long long moves() const { return moves_; }

 private:
  template <class W>
  std::vector<W*> visible() const {
    std::vector<W*> out;
    for (W* w : window_.console()->findChildren<W*>())
      if (w->isVisibleTo(&window_) && w->isEnabled()) out.push_back(w);
    return out;
  }
  template <class W>
  W* any(const std::vector<W*>& list) {
    return list.empty() ? nullptr : list[size_t(spells_.pick(0, int(list.size()) - 1))];
  }

  void press(QWidget* w, QPoint at) {
    QTest::mousePress(w, Qt::LeftButton, Qt::NoModifier, at);
    held_ = w;
    heldAt_ = at;
    ++moves_;
  }
  void holdKey() {
    if (keys_.empty()) return;
    const int key = keys_[size_t(spells_.pick(0, int(keys_.size()) - 1))];
    if (std::find(keysHeld_.begin(), keysHeld_.end(), key) != keysHeld_.end()) return;
    QTest::keyPress(window_.viewport(), Qt::Key(key));
    keysHeld_.push_back(key);
    ++moves_;
  }

  void slam() {
    if (JoystickWidget* stick = any(visible<JoystickWidget>());
        stick && spells_.uniform(0.0, 1.0) < 0.7) {
      const double x = spells_.stickStop(), y = spells_.stickStop();
      const QPoint centre = stick->rect().center();
      const double reach = 0.6 * std::min(stick->width(), stick->height());  // past the rim
      press(stick, centre);
      heldAt_ = centre + QPoint(int(x * reach), int(-y * reach));
      QTest::mouseMove(stick, heldAt_);
    }
    if (spells_.uniform(0.0, 1.0) < 0.5)
      for (int k = spells_.pick(1, 2); k > 0; --k) holdKey();
  }

  void mash() {
    const double r = spells_.uniform(0.0, 1.0);
    if (r < 0.5) {
      if (QAbstractButton* button = any(visible<QAbstractButton>()))
        press(button, button->rect().center());
    } else if (r < 0.7) {
      if (QSlider* slider = any(visible<QSlider>())) {
        const QPoint at(spells_.pick(0, slider->width() - 1), slider->height() / 2);
        QTest::mouseClick(slider, Qt::LeftButton, Qt::NoModifier, at);
        ++moves_;
      }
    } else {
      holdKey();
    }
  }

  void lookAround() {
    auto* tabs = window_.console()->findChild<QTabWidget*>("robots");
    if (tabs && tabs->count() > 1 && spells_.uniform(0.0, 1.0) < 0.5) {
      QTabBar* bar = tabs->tabBar();
      QTest::mouseClick(bar, Qt::LeftButton, Qt::NoModifier,
                        bar->tabRect(spells_.pick(0, tabs->count() - 1)).center());
    } else if (QAction* view = any(views_)) {
      view->trigger();
    }
  }

  MainWindow& window_;
  TraineeSpells spells_;
  std::vector<int> keys_;
  std::vector<QAction*> views_;
  QWidget* held_ = nullptr;
  QPoint heldAt_;
  std::vector<int> keysHeld_;
  long long moves_ = 0;
};

void usage() {
  std::fprintf(stderr,
               "usage: impetus-gui-soak [--minutes M] [--seed S] [--sessions DIR] [SCENE.xml]\n");
}

}  // namespace

int main(int argc, char** argv) {
  impetus::app::ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  double minutes = 30.0;
  std::uint64_t seed = 1;
  QString sessions = QDir::currentPath(), scene = MainWindow::defaultScenePath();
  const QStringList args = QApplication::arguments();
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == "--minutes" && i + 1 < args.size())
      minutes = args[++i].toDouble();
    else if (args[i] == "--seed" && i + 1 < args.size())
      seed = args[++i].toULongLong();
    else if (args[i] == "--sessions" && i + 1 < args.size())
      sessions = args[++i];
    else if (args[i].startsWith('-')) {
      usage();
      return 1;
    } else
      scene = args[i];
  }
  if (!(minutes > 0.0)) {
    usage();
    return 1;
  }
  // A bad scene is the loader's file:line: error here, not a dialog nobody closes.
  try {
    impetus::loadScene(scene.toStdString());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  QStandardPaths::setTestModeEnabled(true);  // the operator's settings and recent scenes stay
  qputenv("IMPETUS_SESSIONS_DIR", QDir(sessions).absolutePath().toUtf8());

  MainWindow window;
  window.resize(1280, 800);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window) || !window.openScene(scene) ||
      !window.startRecording("tired trainee")) {
    std::fprintf(stderr, "%s: the window could not open and record it\n", qPrintable(scene));
    return 1;
  }

  WindowTrainee trainee(window, seed);
  QElapsedTimer wall;
  wall.start();
  const double simStart = window.simulation().snapshot().time;
  trainee.tourViews(1000);
  const double seconds = 60.0 * minutes;
  double memoryAtHalf = -1.0, lastDrawn = 0.0;
  long long framesSeen = 0;
  std::string failure;
  QTimer input, check;
  QObject::connect(&input, &QTimer::timeout, [&] { trainee.act(wall.nsecsElapsed() * 1e-9); });
  QObject::connect(&check, &QTimer::timeout, [&] {
    const double t = wall.nsecsElapsed() * 1e-9;
    const impetus::app::Snapshot s = window.simulation().snapshot();
    if (!s.failure.empty())
      failure = "the simulation stopped: " + s.failure;
    else if (!s.recordingError.empty())
      failure = "the recording failed: " + s.recordingError;
    else if (!s.recording)
      failure = "the recording ended by itself";
    if (window.frames() > framesSeen) {
      framesSeen = window.frames();
      lastDrawn = t;
    } else if (t - lastDrawn > kStalledDrawingSeconds) {
      failure = "the window drew nothing for " + std::to_string(int(t - lastDrawn)) + " s";
    }
    if (memoryAtHalf < 0.0 && t >= 0.5 * seconds) memoryAtHalf = residentBytes();
    if (!failure.empty() || t >= seconds) app.quit();
  });
  input.start(20);
  check.start(1000);
  QApplication::exec();
  input.stop();
  check.stop();
  trainee.letGo();
  const double wallSeconds = wall.nsecsElapsed() * 1e-9;
  const double memoryGrowth = memoryAtHalf < 0.0 ? 0.0 : residentBytes() - memoryAtHalf;
  if (failure.empty() && memoryGrowth > kMemoryGrowthBytes)
    failure = "resident memory grew " + std::to_string(memoryGrowth / 1e6) + " MB";
  const impetus::app::Snapshot last = window.simulation().snapshot();
  QString session = window.stopRecording();
  if (session.isEmpty()) session = QString::fromStdString(last.recordingPath);  // ended by itself
  window.grab().save("gui-soak.png");
  window.close();

  // The session re-simulated from its first keyframe, every step's state against the recording
  // (a failed run's too: its session is what shows the failure again).
  long long steps = 0;
  std::string replayed = "no session";
  if (!session.isEmpty()) {
    try {
      impetus::SessionReader reader(session.toStdString());
      steps = reader.info().steps;
      impetus::SessionReplay replay(reader);
      const auto divergence = replay.verify();
      replayed = divergence ? "diverges from its replay at step " +
                                  std::to_string(divergence->step) + ": " + divergence->what
                            : "replayed bit for bit";
    } catch (const std::exception& e) {
      replayed = std::string("does not replay: ") + e.what();
    }
  }
  if (failure.empty() && replayed != "replayed bit for bit") failure = "the session " + replayed;
  std::printf(
      "%s: %.1f min in the window, %.1f s simulated, %lld frames (%lld late), %lld inputs, "
      "session %s (%lld steps, %s), memory %+.2f MB over the second half: %s\n",
      qPrintable(scene), wallSeconds / 60.0, last.time - simStart, window.frames(),
      window.lateFrames(), trainee.moves(), qPrintable(session), steps, replayed.c_str(),
      memoryGrowth / 1e6, failure.empty() ? "ok" : ("FAILED: " + failure).c_str());
  return failure.empty() ? 0 : 1;
}
