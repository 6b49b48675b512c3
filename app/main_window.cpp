#include "main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <numbers>

#include "console_panel.h"
#include "exercise_panel.h"
#include "impetus/probes/probe.h"
#include "plot_panel.h"
#include "replay_session.h"
#include "replay_timeline.h"
#include "session_browser.h"
#include "ui_text.h"
#include "viewport_widget.h"

namespace impetus::app {
namespace {

osg::Matrixd poseMatrix(const Vec3& p, const Quat& q) {
  return osg::Matrixd::rotate(osg::Quat(q.x(), q.y(), q.z(), q.w())) *
         osg::Matrixd::translate(p.x(), p.y(), p.z());
}

/// A frame is late when it starts this long after its 40 ms slot (the timer's jitter is ~1 ms).
constexpr double kLateFrameSeconds = 0.050;

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("Impetus");
  viewport_ = new ViewportWidget(this);
  connect(viewport_, &ViewportWidget::perturbPressed, this, &MainWindow::perturbPress);
  connect(viewport_, &ViewportWidget::perturbMoved, this, &MainWindow::perturbMove);
  connect(viewport_, &ViewportWidget::perturbReleased, this, &MainWindow::perturbRelease);
  viewport_->setObjectName("viewport");
  setCentralWidget(viewport_);
  overlay_.attach(viewport_->sceneView().overlayRoot());
  buildDocks();
  buildMenus();

  statusTime_ = new QLabel(this);
  statusPhysics_ = new QLabel(this);
  statusFrame_ = new QLabel(this);
  statusGamepad_ = new QLabel(this);
  for (QLabel* l : {statusTime_, statusPhysics_, statusFrame_, statusGamepad_})
    statusBar()->addPermanentWidget(l);
  statusGamepad_->setText(gamepad_.available() ? "no joystick" : "joysticks unavailable");
  statusBar()->showMessage("Ready");

  viewport_->installEventFilter(this);
  console_->installEventFilter(this);
  frameTimer_.setTimerType(Qt::PreciseTimer);
  connect(&frameTimer_, &QTimer::timeout, this, &MainWindow::onFrame);
  frameTimer_.start(kFrameMilliseconds);
  frameClock_.start();
  rtfClock_.start();
}

MainWindow::~MainWindow() {
  frameTimer_.stop();
  sim_.stop();  // finishes a running recording
}

void MainWindow::closeEvent(QCloseEvent* event) {
  sim_.stop();
  event->accept();
}

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* panel,
                                 Qt::DockWidgetArea area) {
  panel->setObjectName(name);
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name + "Dock");
  dock->setWidget(panel);
  addDockWidget(area, dock);
  return dock;
}

void MainWindow::buildDocks() {
  console_ = new ConsolePanel;
  addDock("Console", "console", console_, Qt::RightDockWidgetArea);
  // The orbit view follows the robot the keys drive.
  connect(console_, &ConsolePanel::robotSelected, this, [this](const std::string& robot) {
    for (size_t i = 0; i < bodyNames_.size(); ++i)
      if (bodyIsDynamic_[i] && bodyNames_[i].rfind(robot, 0) == 0) {
        followBody_ = int(i);
        break;
      }
  });
  connect(console_, &ConsolePanel::inputChanged, this,
          [this] { sim_.setInput(console_->channelValues()); });

  plots_ = new PlotPanel;
  addDock("Plots", "plot", plots_, Qt::BottomDockWidgetArea)->hide();  // View > Plots
  connect(plots_, &PlotPanel::addRequested, this, [this](const QString& p) { plotProbe(p); });
  connect(plots_, &PlotPanel::cleared, this, [this] { sim_.setPlotProbes({}); });

  exercise_ = new ExercisePanel;
  // Shown with a scene that sets an exercise.
  addDock("Exercise", "exercise", exercise_, Qt::LeftDockWidgetArea)->hide();
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open scene…", this, &MainWindow::openSceneDialog);
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu("Open &recent");
  rebuildRecentMenu();
  file->addSeparator();
  QAction* quit = file->addAction("&Quit", this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* sim = menuBar()->addMenu("&Simulation");
  pauseAction_ = sim->addAction("&Pause", this, &MainWindow::togglePause);
  pauseAction_->setCheckable(true);
  pauseAction_->setShortcut(Qt::Key_Space);
  QAction* step = sim->addAction("Single &step (10 ms)", this, &MainWindow::singleStep);
  step->setShortcut(Qt::Key_Period);
  QAction* reset = sim->addAction("&Reset", this, &MainWindow::resetScene);
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  sim->addAction("Push a &body…", this, &MainWindow::pushDialog);
  QMenu* speed = sim->addMenu("Spee&d");
  speedGroup_ = new QActionGroup(this);
  for (const double f : {0.25, 0.5, 1.0, 2.0, 4.0}) {
    QAction* a = speed->addAction(QString("x%1").arg(f), this, [this, f] { setSpeed(f); });
    a->setCheckable(true);
    a->setChecked(f == 1.0);
    a->setData(f);
    speedGroup_->addAction(a);
  }

  QMenu* view = menuBar()->addMenu("&View");
  cameraMenu_ = view->addMenu("&Camera");
  pipMenu_ = view->addMenu("&Picture in picture");
  rebuildCameraMenus();
  QMenu* overlays = view->addMenu("&Overlays");
  const std::pair<const char*, unsigned> layers[] = {
      {"Contact &points and normals", render::DebugOverlay::kContactPoints},
      {"Contact &forces", render::DebugOverlay::kContactForces},
      {"&Joint axes", render::DebugOverlay::kJointAxes},
      {"Centres of &mass", render::DebugOverlay::kCentresOfMass},
      {"&Balance: support polygon, ZMP, centre of mass, capture point, next step",
       render::DebugOverlay::kBalance},
      {"&Hands: targets and wrist forces", render::DebugOverlay::kHands}};
  for (const auto& [text, layer] : layers) {
    QAction* a = overlays->addAction(text);
    a->setCheckable(true);
    connect(a, &QAction::toggled, this, [this, layer = layer](bool on) {
      setOverlayLayers(on ? overlay_.layers() | layer : overlay_.layers() & ~layer);
    });
  }
  QAction* shapes = overlays->addAction("Collision &shapes (wire frame)");
  shapes->setCheckable(true);
  connect(shapes, &QAction::toggled, this, &MainWindow::setCollisionShapes);
  QAction* flex = overlays->addAction("&Flexing magnified 20 times");
  flex->setCheckable(true);
  connect(flex, &QAction::toggled, this, [this](bool on) { setFlexMagnified(on); });
  QMenu* quality = view->addMenu("Picture &quality");
  auto* qualityGroup = new QActionGroup(this);
  const QString chosen = QSettings().value("view/quality", "auto").toString();
  const std::pair<const char*, const char*> levels[] = {
      {"auto", "&Automatic (for this graphics renderer)"},
      {"off", "&Off: no shadows"},
      {"low", "&Low: the sun's shadows"},
      {"high", "&High: sharper shadows"}};
  for (const auto& [key, text] : levels) {
    QAction* a = quality->addAction(text, this, [this, key = QString(key)] { setQuality(key); });
    a->setCheckable(true);
    a->setChecked(chosen == key);
    a->setData(QString(key));
    qualityGroup->addAction(a);
  }
  setQuality(chosen);
  view->addSeparator();
  for (auto* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  view->addSeparator();
  QAction* shot = view->addAction("Save &screenshot…", this, &MainWindow::screenshotDialog);
  shot->setShortcut(QKeySequence(Qt::Key_F12));

  buildSessionUi();

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&About Impetus", this, &MainWindow::showAbout);
}

void MainWindow::rebuildCameraMenus() {
  cameraMenu_->clear();
  pipMenu_->clear();
  auto* modes = new QActionGroup(cameraMenu_);
  auto addMode = [&](const QString& text, const QString& mode) {
    QAction* a = cameraMenu_->addAction(text, this, [this, mode] { setCamera(mode); });
    a->setCheckable(true);
    a->setChecked(mode == cameraMode_);
    a->setData(mode);
    modes->addAction(a);
  };
  addMode("&Orbit around the robot", "orbit");
  addMode("&Free fly", "fly");
  auto* pips = new QActionGroup(pipMenu_);
  QAction* off = pipMenu_->addAction("Off", this, [this] { setPictureInPicture(""); });
  off->setCheckable(true);
  off->setChecked(pipCamera_.isEmpty());
  pips->addAction(off);
  if (!cameras_.empty()) cameraMenu_->addSeparator();
  for (const CameraDesc& c : cameras_) {
    const QString name = QString::fromStdString(c.name);
    addMode(QString("Onboard: %1").arg(name), name);
    QAction* a = pipMenu_->addAction(name, this, [this, name] { setPictureInPicture(name); });
    a->setCheckable(true);
    a->setChecked(name == pipCamera_);
    pips->addAction(a);
  }
}

QStringList MainWindow::recentScenes() {
  return QSettings().value("recentScenes").toStringList();
}

void MainWindow::rememberScene(const QString& path) {
  QStringList recent = recentScenes();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecentScenes) recent.removeLast();
  QSettings().setValue("recentScenes", recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = recentScenes();
  for (const QString& path : recent)
    recentMenu_->addAction(QFileInfo(path).fileName() + "  —  " + path, this,
                           [this, path] { openScene(path); });
  recentMenu_->setEnabled(!recent.isEmpty());
}

QString MainWindow::defaultScenePath() {
  return QStringLiteral(IMPETUS_SCENES_DIR "/mf4.xml");
}

bool MainWindow::openScene(const QString& path) {
  LoadedScene scene;
  try {
    scene = loadScene(path.toStdString());
  } catch (const SceneError& e) {
    // The old scene keeps running behind the dialog.
    showErrorDialog(this, "sceneError", "Cannot open scene", QString::fromStdString(e.what()));
    return false;
  }
  const bool paused = snapshot_.paused && !scenePath_.isEmpty() &&
                      QFileInfo(path) == QFileInfo(scenePath_);  // a reset keeps the pause
  closeReplay(false);
  sim_.stop();
  scenePath_ = path;
  presentScene(scene);
  runLive(std::make_unique<Simulation>(std::move(scene)), paused);
  statusBar()->showMessage(QString("Opened %1").arg(path), 3000);
  rememberScene(path);
  return true;
}

void MainWindow::presentScene(const LoadedScene& scene) {
  sceneName_ = scene.name;
  cameras_ = scene.cameras;
  lights_ = scene.lights;
  viewport_->sceneView().lighting().setLamps(lights_);
  viewport_->sceneView().setFog(scene.fog);
  bodyNames_.clear();
  bodyIsDynamic_.clear();
  followBody_ = -1;
  for (const RigidBody& b : scene.world->bodies()) {
    if (followBody_ < 0 && b.isDynamic()) followBody_ = int(bodyNames_.size());
    bodyNames_.push_back(b.name);
    bodyIsDynamic_.push_back(b.isDynamic());
  }
  // The orbit follows the robot: the body carrying the first onboard camera (a yard's door or
  // drum may come before the robot in the file), else the first moving body.
  for (const CameraDesc& c : scene.cameras)
    if (c.body != World::kGround && scene.world->body(c.body).isDynamic()) {
      followBody_ = c.body;
      break;
    }
  presenter_.build(viewport_->sceneView().sceneRoot(), scene.world->bodies(), scene.geoms,
                   scene.beams, scene.visuals);
  console_->build(scene.console);
  QStringList probes;
  for (const std::string& p : probeNames(*scene.world)) probes << QString::fromStdString(p);
  if (scene.scheme)  // scheme signals plot too (the humanoid's gait state, ZMP, capture point)
    for (const std::string& signal : scene.scheme->signalNames())
      probes << QString::fromStdString("scheme." + signal);
  plots_->setAvailable(probes);
  if (!findCamera(cameraMode_) && cameraMode_ != "fly") cameraMode_ = "orbit";
  if (!findCamera(pipCamera_)) pipCamera_.clear();
  rebuildCameraMenus();
  setCamera(cameraMode_);
  setPictureInPicture(pipCamera_);
  if (followBody_ >= 0) {
    const Vec3 c = scene.world->body(followBody_).position;
    viewport_->sceneView().setOrbit({c.x(), c.y(), c.z()}, 5.0, -2.4, 0.5);
  }
  setWindowTitle(QString("Impetus - %1").arg(QString::fromStdString(sceneName_)));
  if (auto* dock = findChild<QDockWidget*>("exerciseDock")) dock->setVisible(bool(scene.exercise));
}

void MainWindow::runLive(std::unique_ptr<Simulation> simulation, bool paused) {
  const double speed = speedGroup_->checkedAction()->data().toDouble();
  sim_.start(std::move(simulation), paused);
  sim_.setSpeed(speed);
  sim_.setInput(console_->channelValues());
  snapshot_ = sim_.snapshot();
  rtfSimTime_ = snapshot_.time;
  rtfClock_.restart();
}

int MainWindow::bodyIndex(const QString& name) const {
  for (size_t i = 0; i < bodyNames_.size(); ++i)
    if (bodyNames_[i] == name.toStdString()) return int(i);
  return -1;
}

const CameraDesc* MainWindow::findCamera(const QString& name) const {
  for (const CameraDesc& c : cameras_)
    if (QString::fromStdString(c.name) == name) return &c;
  return nullptr;
}

osg::Matrixd MainWindow::cameraToWorld(const CameraDesc& camera) const {
  osg::Matrixd m = poseMatrix(camera.position, camera.orientation);
  const size_t body = static_cast<size_t>(camera.body);
  if (camera.body >= 0 && body < snapshot_.positions.size())
    m = m * poseMatrix(snapshot_.positions[body], snapshot_.orientations[body]);
  return m;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if ((watched == viewport_ || watched == console_) &&
      (event->type() == QEvent::KeyPress || event->type() == QEvent::KeyRelease)) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier)) return false;
    if (key->isAutoRepeat()) return console_->handleKey(key->key(), true);
    if (console_->handleKey(key->key(), event->type() == QEvent::KeyPress)) return true;
  }
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::onFrame() {
  const double now = frameClock_.nsecsElapsed() * 1e-9;
  frameClock_.restart();
  if (frames_ > 0) {
    lastFrameSeconds_ = now;
    if (now > kLateFrameSeconds) ++lateFrames_;
  }
  ++frames_;

  if (gamepad_.available()) {
    const GamepadState& pad = gamepad_.poll();
    console_->applyGamepad(pad);
    statusGamepad_->setText(pad.connected
                                ? QString("joystick: %1").arg(QString::fromStdString(pad.name))
                                : QString("no joystick"));
  }
  if (replay_) {
    onReplayFrame();
  } else if (sim_.hasSimulation()) {
    snapshot_ = sim_.snapshot();
    presenter_.update(snapshot_.positions, snapshot_.orientations);
    presenter_.updateTracks(snapshot_.motorAngles);
    console_->showIndicators(snapshot_.indicators);
    if (snapshot_.exercise.present) exercise_->showStatus(snapshot_.exercise, snapshot_.time);
    if (!plots_->plotted().isEmpty()) plots_->append(sim_.takeSamples());
    followCameras();
    placeLamps();
    if (perturbBody_ >= 0 && size_t(perturbBody_) < snapshot_.positions.size())
      overlay_.setSpring(std::pair(snapshot_.positions[size_t(perturbBody_)], perturbTarget_));
    if (overlay_.layers() || perturbBody_ >= 0)
      overlay_.update(snapshot_.contacts, snapshot_.joints, snapshot_.positions, snapshot_.balance,
                      snapshot_.hands);
  }
  updateStatus();
  viewport_->requestFrame();
  lastFrameWorkSeconds_ = frameClock_.nsecsElapsed() * 1e-9;
  emit frameDone();
}

void MainWindow::followCameras() {
  render::SceneView& view = viewport_->sceneView();
  if (cameraMode_ == "orbit" && followBody_ >= 0 &&
      size_t(followBody_) < snapshot_.positions.size()) {
    const Vec3& c = snapshot_.positions[size_t(followBody_)];
    view.setOrbitCenter({c.x(), c.y(), c.z()});
  }
  if (const CameraDesc* onboard = findCamera(cameraMode_))
    view.setOnboardView(cameraToWorld(*onboard));
  if (const CameraDesc* pip = findCamera(pipCamera_))
    view.setPictureInPictureView(cameraToWorld(*pip));
}

void MainWindow::placeLamps() {
  std::vector<render::SceneLighting::LampState> lamps(lights_.size());
  const auto toOsg = [](const Vec3& v) {
    return osg::Vec3(float(v.x()), float(v.y()), float(v.z()));
  };
  for (size_t i = 0; i < lights_.size(); ++i) {
    const LightDesc& l = lights_[i];
    const size_t body = static_cast<size_t>(l.body);
    if (body >= snapshot_.positions.size()) continue;
    lamps[i].position =
        toOsg(snapshot_.positions[body] + snapshot_.orientations[body] * l.position);
    lamps[i].direction = toOsg(snapshot_.orientations[body] * l.direction);
    lamps[i].on = i < snapshot_.lightsOn.size() && snapshot_.lightsOn[i];
  }
  viewport_->sceneView().lighting().placeLamps(lamps);
}

void MainWindow::updateStatus() {
  updateRecordingStatus();
  if (replay_) {  // kinematic playback: no physics runs
    statusTime_->setText(
        QString("t = %1 s  x%2").arg(snapshot_.time, 0, 'f', 2).arg(replay_->speed()));
    statusPhysics_->clear();
    return;
  }
  if (!sim_.hasSimulation()) {
    statusTime_->setText(QString("frame %1").arg(viewport_->framesRendered()));
    return;
  }
  // Real-time factor over about one second of wall time.
  const double wall = rtfClock_.nsecsElapsed() * 1e-9;
  if (wall >= 1.0) {
    realTimeFactor_ = (snapshot_.time - rtfSimTime_) / wall;
    rtfSimTime_ = snapshot_.time;
    rtfClock_.restart();
  }
  QString state = snapshot_.failure.empty()
                      ? (snapshot_.paused ? " (paused)" : "")
                      : QString(" STOPPED: %1").arg(QString::fromStdString(snapshot_.failure));
  statusTime_->setText(
      QString("t = %1 s  x%2  RTF %3%4")
          .arg(snapshot_.time, 0, 'f', 2)
          .arg(snapshot_.speed)
          .arg(realTimeFactor_ > 0.0 ? QString::number(realTimeFactor_, 'f', 2) : QString("-"))
          .arg(state));
  statusPhysics_->setText(QString("physics %1 ms/frame  iterations %2  contacts %3  asleep %4")
                              .arg(1000.0 * snapshot_.physicsSecondsPerFrame, 0, 'f', 2)
                              .arg(snapshot_.iterations)
                              .arg(snapshot_.contactCount)
                              .arg(snapshot_.sleepingBodies));
  statusFrame_->setText(QString("frame %1 ms (render %2 ms)  late frames %3")
                            .arg(1000.0 * lastFrameSeconds_, 0, 'f', 0)
                            .arg(1000.0 * viewport_->lastPaintSeconds(), 0, 'f', 1)
                            .arg(lateFrames_));
}

void MainWindow::togglePause() {
  if (replay_) {  // Space plays and pauses a replay too
    replay_->setPlaying(!replay_->playing());
    return;
  }
  const bool paused = !snapshot_.paused;
  sim_.setPaused(paused);
  snapshot_.paused = paused;  // until the thread publishes
  pauseAction_->setChecked(paused);
  statusBar()->showMessage(paused ? "Paused" : "Running", 2000);
}

void MainWindow::singleStep() {
  if (replay_) {  // and `.` steps it one frame
    replay_->stepFrames(1);
    return;
  }
  if (!snapshot_.paused) togglePause();
  sim_.requestStep();
}

void MainWindow::resetScene() {
  if (!scenePath_.isEmpty()) openScene(scenePath_);
}

void MainWindow::setSpeed(double factor) {
  sim_.setSpeed(factor);
  for (QAction* a : speedGroup_->actions()) a->setChecked(a->data().toDouble() == factor);
  statusBar()->showMessage(QString("Speed x%1").arg(factor), 2000);
}

void MainWindow::setCamera(const QString& mode) {
  render::SceneView& view = viewport_->sceneView();
  cameraMode_ = mode;
  if (mode == "fly")
    view.setCameraMode(render::SceneView::CameraMode::Fly);
  else if (const CameraDesc* onboard = findCamera(mode)) {
    view.setOnboardLens(onboard->fieldOfView * 180.0 / std::numbers::pi);
    view.setCameraMode(render::SceneView::CameraMode::Onboard);
  } else {
    cameraMode_ = "orbit";
    view.setCameraMode(render::SceneView::CameraMode::Orbit);
  }
  for (QAction* a : cameraMenu_->actions())
    if (a->isCheckable()) a->setChecked(a->data().toString() == cameraMode_);
}

void MainWindow::setPictureInPicture(const QString& camera) {
  const CameraDesc* pip = findCamera(camera);
  pipCamera_ = pip ? camera : QString();
  if (pip)
    viewport_->sceneView().setPictureInPictureLens(pip->fieldOfView * 180.0 / std::numbers::pi,
                                                   pip->width, pip->height);
  viewport_->sceneView().setPictureInPicture(!pipCamera_.isEmpty());
}

void MainWindow::setOverlayLayers(unsigned layers) {
  sim_.setOverlayData(layers != 0);
  overlay_.setLayers(layers);
  overlay_.update(snapshot_.contacts, snapshot_.joints, snapshot_.positions, snapshot_.balance,
                  snapshot_.hands);
}

void MainWindow::setCollisionShapes(bool on) {
  presenter_.setWireframe(on);
}

void MainWindow::setQuality(const QString& level) {
  using Choice = ViewportWidget::QualityChoice;
  const Choice choice = level == "off"    ? Choice::Off
                        : level == "low"  ? Choice::Low
                        : level == "high" ? Choice::High
                                          : Choice::Automatic;
  viewport_->setQualityChoice(choice);
  QSettings().setValue("view/quality", level);  // remembered for the next start
  for (QAction* a : findChildren<QAction*>())
    if (a->isCheckable() && a->actionGroup() && a->data().toString() == level) a->setChecked(true);
}

void MainWindow::setFlexMagnified(bool on) {
  presenter_.setFlexScale(on ? kFlexMagnification : 1.0);
  if (!snapshot_.positions.empty()) presenter_.update(snapshot_.positions, snapshot_.orientations);
}

bool MainWindow::plotProbe(const QString& probe) {
  QStringList wanted = plots_->plotted();
  wanted << probe;
  std::vector<std::string> names;
  for (const QString& p : wanted) names.push_back(p.toStdString());
  try {
    sim_.setPlotProbes(names);
  } catch (const std::invalid_argument& e) {
    statusBar()->showMessage(QString::fromStdString(e.what()), 5000);
    return false;
  }
  plots_->clearCurves();
  for (const QString& p : wanted) plots_->addCurve(p);
  if (auto* dock = findChild<QDockWidget*>("plotDock")) dock->show();
  return true;
}

bool MainWindow::saveScreenshot(const QString& path) {
  const QImage image = viewport_->grabFramebuffer();
  const bool ok = !image.isNull() && image.save(path, "PNG");
  statusBar()->showMessage(
      ok ? QString("Saved %1").arg(path) : QString("Could not write %1").arg(path), 4000);
  return ok;
}

void MainWindow::screenshotDialog() {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
  const QString name =
      QString("impetus-%1.png").arg(QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss"));
  const QString path =
      QFileDialog::getSaveFileName(this, "Save screenshot", dir + "/" + name, "PNG images (*.png)");
  if (!path.isEmpty()) saveScreenshot(path);
}

void MainWindow::openSceneDialog() {
  const QString path = QFileDialog::getOpenFileName(this, "Open scene", QString(IMPETUS_SCENES_DIR),
                                                    "Impetus scenes (*.xml)");
  if (!path.isEmpty()) openScene(path);
}

void MainWindow::showAbout() {
  QMessageBox::about(this, "About Impetus",
                     "<b>Impetus</b> — real-time robot operator training simulator.<br>"
                     "Dynamics: maximal coordinates, sequential impulses, 10 ms step.<br>"
                     "Rendering: OpenSceneGraph in Qt 6.");
}

}  // namespace impetus::app
