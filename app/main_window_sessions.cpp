// The main window's session features (issue #9): the record button with its elapsed time, the
// session browser, the replay timeline with kinematic playback, and "take control here".
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <algorithm>
#include <cmath>

#include "console_panel.h"
#include "exercise_panel.h"
#include "impetus/session/session_debrief.h"
#include "limit_plots.h"
#include "main_window.h"
#include "replay_session.h"
#include "replay_timeline.h"
#include "session_browser.h"
#include "ui_text.h"
#include "viewport_widget.h"

namespace impetus::app {
void MainWindow::buildSessionUi() {
  QMenu* session = menuBar()->addMenu("S&ession");
  recordAction_ = session->addAction("&Record");
  recordAction_->setCheckable(true);
  recordAction_->setShortcut(QKeySequence(Qt::Key_F9));
  recordAction_->setToolTip("Record this session (inputs, states, poses) for replay");
  connect(recordAction_, &QAction::triggered, this, &MainWindow::recordToggled);
  session->addAction("&Sessions…", this, [this] { showSessionBrowser(); });
  session->addAction("Replay &file…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Replay session", sessionsDirectory(),
                                                      "Impetus sessions (*.session)");
    if (!path.isEmpty()) openReplay(path);
  });

  statusRecording_ = new QLabel(this);
  statusRecording_->setObjectName("recordingStatus");
  statusBar()->insertPermanentWidget(0, statusRecording_);

  timeline_ = new ReplayTimeline;
  timeline_->setObjectName("timeline");
  auto* dock = new QDockWidget("Replay", this);
  dock->setObjectName("replayDock");
  dock->setWidget(timeline_);
  dock->setFeatures(QDockWidget::NoDockWidgetFeatures);
  addDockWidget(Qt::BottomDockWidgetArea, dock);
  dock->hide();
  connect(timeline_, &ReplayTimeline::playToggled, this, [this](bool on) {
    if (replay_) replay_->setPlaying(on);
  });
  connect(timeline_, &ReplayTimeline::seekRequested, this, [this](std::int64_t step) {
    if (replay_) replay_->seek(step);
  });
  connect(timeline_, &ReplayTimeline::frameStepRequested, this, [this](int frames) {
    if (replay_) replay_->stepFrames(frames);
  });
  connect(timeline_, &ReplayTimeline::speedChanged, this, [this](double f) {
    if (replay_) replay_->setSpeed(f);
  });
  connect(timeline_, &ReplayTimeline::takeControlRequested, this, [this] { takeControl(); });
  connect(timeline_, &ReplayTimeline::closeRequested, this, [this] { closeReplay(); });
  connect(exercise_, &ExercisePanel::exportRequested, this, [this] {
    if (!replay_) return;
    auto* dialog = new QFileDialog(this, "Export debrief", QDir::homePath(), "HTML (*.html)");
    dialog->setObjectName("exportDebriefDialog");
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix("html");
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString& file) { exportDebrief(file); });
    dialog->open();
  });
  connect(exercise_, &ExercisePanel::plotRequested, this, [this] { plotDebrief(); });
  connect(exercise_, &ExercisePanel::eventChosen, this, [this](double time) {
    if (!replay_) return;
    replay_->setPlaying(false);
    replay_->seek(std::llround(time / replay_->info().step));
  });
}

QString MainWindow::sessionsDirectory() {
  const QString env = qEnvironmentVariable("IMPETUS_SESSIONS_DIR");
  return env.isEmpty()
             ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/sessions"
             : env;
}

void MainWindow::recordToggled(bool on) {
  if (!on) {
    stopRecording();
    return;
  }
  bool ok = false;
  const QString last = QSettings().value("operatorName").toString();
  const QString name = QInputDialog::getText(
      this, "Record session", "Operator (trainee) name:", QLineEdit::Normal, last, &ok);
  if (!ok || !startRecording(name.trimmed())) recordAction_->setChecked(false);
}

bool MainWindow::startRecording(const QString& operatorName) {
  if (replay_ || !sim_.hasSimulation()) {
    statusBar()->showMessage("Recording needs a live scene", 4000);
    recordAction_->setChecked(false);
    return false;
  }
  QDir().mkpath(sessionsDirectory());
  QString slug = QString::fromStdString(sceneName_).toLower();
  slug.replace(QRegularExpression("[^a-z0-9]+"), "-");
  const QString path =
      QString("%1/%2-%3.session")
          .arg(sessionsDirectory(), QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss"), slug);
  RecordingOptions options;
  options.operatorName = operatorName.toStdString();
  try {
    sim_.startRecording(path.toStdString(), options);
  } catch (const SessionError& e) {
    showErrorDialog(this, "sessionError", "Cannot record", QString::fromStdString(e.what()));
    recordAction_->setChecked(false);
    return false;
  }
  operatorName_ = operatorName;
  QSettings().setValue("operatorName", operatorName);
  recordAction_->setChecked(true);
  snapshot_ = sim_.snapshot();
  updateRecordingStatus();
  return true;
}

QString MainWindow::stopRecording() {
  const QString path = QString::fromStdString(sim_.stopRecording());
  recordAction_->setChecked(false);
  if (!path.isEmpty()) statusBar()->showMessage(QString("Session saved: %1").arg(path), 5000);
  snapshot_ = sim_.snapshot();
  updateRecordingStatus();
  return path;
}

void MainWindow::updateRecordingStatus() {
  if (replay_) {
    statusRecording_->setStyleSheet("color: #2060c0; font-weight: bold;");
    statusRecording_->setText(QString("REPLAY %1  %2")
                                  .arg(minutesSeconds(replay_->time(), 1))
                                  .arg(replay_->playing() ? "playing" : "paused"));
    return;
  }
  if (snapshot_.recording) {
    statusRecording_->setStyleSheet("color: #c00000; font-weight: bold;");
    statusRecording_->setText(
        QString("● REC %1  %2").arg(minutesSeconds(snapshot_.recordedSeconds, 1), operatorName_));
  } else {
    statusRecording_->setStyleSheet("");
    statusRecording_->setText(snapshot_.recordingError.empty()
                                  ? QString()
                                  : QString("recording failed: %1")
                                        .arg(QString::fromStdString(snapshot_.recordingError)));
  }
  // A recording ends by itself when the simulation stops.
  if (recordAction_->isChecked() != snapshot_.recording)
    recordAction_->setChecked(snapshot_.recording);
}

SessionBrowser* MainWindow::showSessionBrowser() {
  auto* browser = new SessionBrowser(sessionsDirectory(), this);
  browser->setObjectName("sessionBrowser");
  browser->setAttribute(Qt::WA_DeleteOnClose);
  connect(browser, &SessionBrowser::replayRequested, this,
          [this](const QString& path) { openReplay(path); });
  browser->show();
  return browser;
}

bool MainWindow::openReplay(const QString& path) {
  std::unique_ptr<ReplaySession> replay;
  try {
    replay = std::make_unique<ReplaySession>(path.toStdString());
  } catch (const SessionError& e) {
    showErrorDialog(this, "sessionError", "Cannot replay session",
                    QString::fromStdString(e.what()));
    return false;
  }
  sim_.stop();  // the live scene (and a recording of it) ends here
  recordAction_->setChecked(false);
  recordAction_->setEnabled(false);
  replay_ = std::move(replay);
  presentScene(replay_->scene());
  console_->setInteractive(false);
  const SessionInfo& info = replay_->info();
  timeline_->setRecording(replay_->firstStep(), replay_->endStep(), info.step,
                          QString("%1 — %2").arg(QString::fromStdString(info.sceneName),
                                                 QString::fromStdString(info.operatorName)));
  findChild<QDockWidget*>("replayDock")->show();
  // A session with an exercise opens on its debrief; its events seek the replay.
  if (info.exercise && replay_->scene().exercise) {
    const double end = double(replay_->endStep()) * info.step;
    exercise_->showStatus(recordedStatus(*replay_->scene().exercise, *info.exercise), end);
    exercise_->showDebriefActions(true);
    findChild<QDockWidget*>("exerciseDock")->show();
    std::vector<EventStrip::Mark> marks;
    for (const ExerciseEvent& e : info.exercise->events) {
      using K = ExerciseEvent::Kind;
      const QColor colour = e.kind == K::ObjectiveDone || e.kind == K::Completed
                                ? QColor(40, 160, 40)
                            : e.kind == K::Warning ? QColor(230, 160, 0)
                            : e.kind == K::Hint    ? QColor(40, 90, 220)
                                                   : QColor(220, 30, 30);
      marks.push_back(
          {std::llround(e.time / info.step), colour,
           QString("%1 s  %2").arg(e.time, 0, 'f', 2).arg(QString::fromStdString(e.text))});
    }
    timeline_->setEventMarks(std::move(marks));
  }
  setWindowTitle(QString("Impetus - replay of %1").arg(QFileInfo(path).fileName()));
  onReplayFrame();
  return true;
}

void MainWindow::onReplayFrame() {
  replay_->advance();
  presenter_.update(replay_->positions(), replay_->orientations());
  console_->showRecordedInput(replay_->input());
  timeline_->showPosition(replay_->position(), replay_->playing());
  snapshot_.positions.assign(replay_->positions().begin(), replay_->positions().end());
  snapshot_.orientations.assign(replay_->orientations().begin(), replay_->orientations().end());
  snapshot_.time = replay_->time();
  snapshot_.stepIndex = replay_->position();
  followCameras();
}

std::optional<ExerciseDebrief> MainWindow::replayedDebrief() {
  if (!replay_) return std::nullopt;
  // The session is re-simulated: about a second for a minute of walking.
  QApplication::setOverrideCursor(Qt::WaitCursor);
  std::optional<ExerciseDebrief> debrief;
  try {
    debrief = replayExerciseDebrief(replay_->path());
  } catch (const std::exception& e) {
    QApplication::restoreOverrideCursor();
    showErrorDialog(this, "debriefError", "Cannot re-simulate the session",
                    QString::fromStdString(e.what()));
    return std::nullopt;
  }
  QApplication::restoreOverrideCursor();
  return debrief;
}

LimitPlots* MainWindow::plotDebrief() {
  const std::optional<ExerciseDebrief> debrief = replayedDebrief();
  if (!debrief || !replay_->scene().exercise) return nullptr;
  auto* plots = new LimitPlots(*replay_->scene().exercise, debrief->report, this);
  plots->setAttribute(Qt::WA_DeleteOnClose);
  plots->show();
  return plots;
}

bool MainWindow::exportDebrief(const QString& file) {
  const std::optional<ExerciseDebrief> debrief = replayedDebrief();
  if (!debrief) return false;
  const std::string& page = debrief->html;
  QString error;
  if (error.isEmpty()) {
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        out.write(page.data(), qint64(page.size())) != qint64(page.size()))
      error = QString("cannot write %1").arg(file);
  }
  if (!error.isEmpty()) {
    showErrorDialog(this, "exportError", "Cannot export the debrief", error);
    return false;
  }
  statusBar()->showMessage(QString("Debrief written to %1").arg(file), 5000);
  return true;
}

void MainWindow::closeReplay(bool reopen) {
  if (!replay_) return;
  exercise_->showDebriefActions(false);
  replay_.reset();
  findChild<QDockWidget*>("replayDock")->hide();
  console_->setInteractive(true);
  recordAction_->setEnabled(true);
  if (reopen) openScene(scenePath_.isEmpty() ? defaultScenePath() : scenePath_);
}

bool MainWindow::takeControl() {
  if (!replay_) return false;
  std::unique_ptr<Simulation> simulation;
  const std::vector<double> input(replay_->input().begin(), replay_->input().end());
  try {
    simulation = replay_->takeControl();
  } catch (const SessionError& e) {
    showErrorDialog(this, "sessionError", "Cannot take control", QString::fromStdString(e.what()));
    return false;
  }
  const std::string sceneFile = replay_->info().sceneFile;
  replay_.reset();
  findChild<QDockWidget*>("replayDock")->hide();
  console_->setInteractive(true);
  recordAction_->setEnabled(true);
  console_->adoptInput(input);  // switches stay as the operator left them; sticks are released
  if (QFileInfo::exists(QString::fromStdString(sceneFile)))
    scenePath_ = QString::fromStdString(sceneFile);  // Reset reloads the recorded scene
  runLive(std::move(simulation), false);
  setWindowTitle(QString("Impetus - %1 (taken over at %2 s)")
                     .arg(QString::fromStdString(sceneName_))
                     .arg(snapshot_.time, 0, 'f', 2));
  statusBar()->showMessage("You have control", 4000);
  return true;
}

}  // namespace impetus::app
