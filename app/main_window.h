#pragma once
// The operator program's main window: menus, status bar and the 3D viewport, redrawn every
// 40 ms frame (25 fps, the papers' frame budget).

#include <QMainWindow>
#include <QSet>
#include <QTimer>

#include "impetus/render/scene_presenter.h"
#include "scene_runner.h"

class QLabel;

namespace impetus::app {

class ViewportWidget;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  static constexpr int kFrameMilliseconds = 40;

  explicit MainWindow(QWidget* parent = nullptr);

  ViewportWidget* viewport() const { return viewport_; }
  SceneRunner& runner() { return runner_; }
  render::ScenePresenter& presenter() { return presenter_; }

  /// Loads a scene; on error shows the loader's file:line: message and keeps the current scene.
  bool openScene(const QString& path);
  /// Simulation menu actions (also keyboard: Space, Period, Ctrl+R).
  void togglePause();
  void singleStep();
  void resetScene();
  void setSpeed(double factor);
  /// The scene file opened when none is given (the tracked vehicle).
  static QString defaultScenePath();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void buildMenus();
  void onFrame();
  void openSceneDialog();
  void showAbout();

  /// Keys held down -> the first joystick's channels (WASD or arrows).
  void applyKeys();

  ViewportWidget* viewport_ = nullptr;
  QLabel* statusFrames_ = nullptr;
  QTimer frameTimer_;
  SceneRunner runner_;
  render::ScenePresenter presenter_;
  QSet<int> keysDown_;
  QString scenePath_;
  QAction* pauseAction_ = nullptr;
};

}  // namespace impetus::app
