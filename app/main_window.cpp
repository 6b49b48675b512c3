#include "main_window.h"

#include <QApplication>
#include <QFileDialog>
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

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&About Impetus", this, &MainWindow::showAbout);
}

void MainWindow::onFrame() {
  viewport_->update();
  statusFrames_->setText(QString("frame %1").arg(viewport_->framesRendered()));
}

void MainWindow::openSceneDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, "Open scene", QString(), "Impetus scenes (*.xml)");
  if (path.isEmpty()) return;
  statusBar()->showMessage(QString("Scene files are not loadable yet: %1").arg(path), 5000);
}

void MainWindow::showAbout() {
  QMessageBox::about(this, "About Impetus",
                     "<b>Impetus</b> — real-time robot operator training simulator.<br>"
                     "Dynamics: maximal coordinates, sequential impulses, 10 ms step.<br>"
                     "Rendering: OpenSceneGraph in Qt 6.");
}

}  // namespace impetus::app
