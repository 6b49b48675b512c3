#pragma once
// The operator program's main window: menus, status bar and the 3D viewport, redrawn every
// 40 ms frame (25 fps, the papers' frame budget).

#include <QMainWindow>
#include <QTimer>

class QLabel;

namespace impetus::app {

class ViewportWidget;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  static constexpr int kFrameMilliseconds = 40;

  explicit MainWindow(QWidget* parent = nullptr);

  ViewportWidget* viewport() const { return viewport_; }

 private:
  void buildMenus();
  void onFrame();
  void openSceneDialog();
  void showAbout();

  ViewportWidget* viewport_ = nullptr;
  QLabel* statusFrames_ = nullptr;
  QTimer frameTimer_;
};

}  // namespace impetus::app
