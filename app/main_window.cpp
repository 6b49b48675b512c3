#include "main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QFileDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include "viewport_widget.h"

namespace impetus::app {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("Impetus");
  viewport_ = new ViewportWidget(this);
  viewport_->setObjectName("viewport");
  setCentralWidget(viewport_);
  buildMenus();

  statusFrames_ = new QLabel(this);
  statusBar()->addPermanentWidget(statusFrames_);
  statusBar()->showMessage("Ready");

  viewport_->installEventFilter(this);
  frameTimer_.setTimerType(Qt::PreciseTimer);
  connect(&frameTimer_, &QTimer::timeout, this, &MainWindow::onFrame);
  frameTimer_.start(kFrameMilliseconds);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open scene…", this, &MainWindow::openSceneDialog);
  open->setShortcut(QKeySequence::Open);
  file->addSeparator();
  QAction* quit = file->addAction("&Quit", qApp, &QApplication::quit);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* sim = menuBar()->addMenu("&Simulation");
  pauseAction_ = sim->addAction("&Pause", this, &MainWindow::togglePause);
  pauseAction_->setCheckable(true);
  pauseAction_->setShortcut(Qt::Key_Space);
  QAction* step = sim->addAction("Single &step (10 ms)", this, &MainWindow::singleStep);
  step->setShortcut(Qt::Key_Period);
  QAction* reset = sim->addAction("&Reset", this, &MainWindow::resetScene);
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  QMenu* speed = sim->addMenu("Spee&d");
  auto* speeds = new QActionGroup(this);
  for (const double f : {0.25, 0.5, 1.0, 2.0, 4.0}) {
    QAction* a = speed->addAction(QString("x%1").arg(f), this, [this, f] { setSpeed(f); });
    a->setCheckable(true);
    a->setChecked(f == 1.0);
    speeds->addAction(a);
  }

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&About Impetus", this, &MainWindow::showAbout);
}

QString MainWindow::defaultScenePath() {
  return QStringLiteral(IMPETUS_SCENES_DIR "/tracked-vehicle.xml");
}

bool MainWindow::openScene(const QString& path) {
  try {
    LoadedScene scene = loadScene(path.toStdString());
    runner_.setScene(std::move(scene));
    scenePath_ = path;
  } catch (const SceneError& e) {
    auto* box = new QMessageBox(QMessageBox::Critical, "Cannot open scene",
                                QString::fromStdString(e.what()), QMessageBox::Ok, this);
    box->setObjectName("sceneError");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal, does not block the frame timer: the old scene keeps running
    return false;
  }
  LoadedScene& s = runner_.scene();
  presenter_.build(viewport_->sceneView().sceneRoot(), s.world->bodies(), s.geoms);
  // Look at the first dynamic body from behind and above.
  Vec3 centre = Vec3::Zero();
  for (const RigidBody& b : s.world->bodies())
    if (b.isDynamic()) {
      centre = b.position;
      break;
    }
  viewport_->sceneView().setOrbit({centre.x(), centre.y(), centre.z()}, 5.0, -2.4, 0.5);
  setWindowTitle(QString("Impetus - %1").arg(QString::fromStdString(s.name)));
  statusBar()->showMessage(QString("Opened %1").arg(path), 3000);
  return true;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched == viewport_ &&
      (event->type() == QEvent::KeyPress || event->type() == QEvent::KeyRelease)) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (!key->isAutoRepeat()) {
      if (event->type() == QEvent::KeyPress)
        keysDown_.insert(key->key());
      else
        keysDown_.remove(key->key());
      applyKeys();
    }
  }
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::applyKeys() {
  if (!runner_.hasScene()) return;
  const std::vector<std::string> channels = runner_.scene().console.channels();
  for (const ControlDesc& c : runner_.scene().console.controls) {
    if (c.kind != ControlDesc::Kind::Joystick) continue;
    const bool wasd = c.keys == "WASD";
    const int up = wasd ? Qt::Key_W : Qt::Key_Up, down = wasd ? Qt::Key_S : Qt::Key_Down;
    const int left = wasd ? Qt::Key_A : Qt::Key_Left, right = wasd ? Qt::Key_D : Qt::Key_Right;
    const double x =
        (keysDown_.contains(right) ? 1.0 : 0.0) - (keysDown_.contains(left) ? 1.0 : 0.0);
    const double y = (keysDown_.contains(up) ? 1.0 : 0.0) - (keysDown_.contains(down) ? 1.0 : 0.0);
    for (size_t i = 0; i < channels.size(); ++i) {
      if (channels[i] == c.channels[0]) runner_.channels()[i] = x;
      if (channels[i] == c.channels[1]) runner_.channels()[i] = y;
    }
    break;  // the keyboard drives the first joystick
  }
}

void MainWindow::onFrame() {
  if (runner_.hasScene()) {
    const bool ok = runner_.advanceFrame();
    presenter_.update(runner_.scene().world->bodies());
    const StepStatistics& st = runner_.scene().world->statistics();
    statusFrames_->setText(
        ok ? QString("t = %1 s | iterations %2 | contacts %3 | physics %4 ms/step")
                 .arg(runner_.scene().world->time(), 0, 'f', 2)
                 .arg(st.velocityIterations)
                 .arg(st.contacts)
                 .arg(1000.0 * st.totalSeconds, 0, 'f', 3)
           : QString("stopped: %1").arg(QString::fromStdString(runner_.failure())));
  } else {
    statusFrames_->setText(QString("frame %1").arg(viewport_->framesRendered()));
  }
  viewport_->update();
}

void MainWindow::togglePause() {
  runner_.paused = !runner_.paused;
  pauseAction_->setChecked(runner_.paused);
  statusBar()->showMessage(runner_.paused ? "Paused" : "Running", 2000);
}

void MainWindow::singleStep() {
  if (!runner_.paused) togglePause();
  runner_.singleStep();
  presenter_.update(runner_.scene().world->bodies());
}

void MainWindow::resetScene() {
  if (!scenePath_.isEmpty()) {
    const bool paused = runner_.paused;
    openScene(scenePath_);
    runner_.paused = paused;
  }
}

void MainWindow::setSpeed(double factor) {
  runner_.setSpeed(factor);
  statusBar()->showMessage(QString("Speed x%1").arg(factor), 2000);
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
