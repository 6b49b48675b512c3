#pragma once
// The operator program's main window: the 3D viewport, the console panel generated from the
// scene, live plots, menus and the status bar. The simulation runs on its own thread
// (simulation_thread.h); every 40 ms frame (25 fps, the papers' frame budget) the window sends
// the console's input frame, takes the latest snapshot and draws it.

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <optional>

#include "gamepad_input.h"
#include "impetus/render/debug_overlay.h"
#include "impetus/render/scene_presenter.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_debrief.h"
#include "simulation_thread.h"

class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;

namespace impetus::app {

class ConsolePanel;
class PlotPanel;
class ExercisePanel;
class LimitPlots;
class ReplaySession;
class ReplayTimeline;
class SessionBrowser;
class ViewportWidget;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  static constexpr int kFrameMilliseconds = 40;
  static constexpr int kMaxRecentScenes = 8;

  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  ViewportWidget* viewport() const { return viewport_; }
  ConsolePanel* console() const { return console_; }
  PlotPanel* plots() const { return plots_; }
  ExercisePanel* exercisePanel() const { return exercise_; }
  SimulationThread& simulation() { return sim_; }
  render::ScenePresenter& presenter() { return presenter_; }
  render::DebugOverlay& overlay() { return overlay_; }
  /// The snapshot drawn in the last frame.
  const Snapshot& lastSnapshot() const { return snapshot_; }
  /// Index of a body of the open scene, or -1.
  int bodyIndex(const QString& name) const;
  QString sceneName() const { return QString::fromStdString(sceneName_); }

  /// Loads a scene; on error shows the loader's file:line: message and keeps the current scene.
  bool openScene(const QString& path);
  /// Simulation menu actions (also keyboard: Space, Period, Ctrl+R).
  void togglePause();
  void singleStep();
  void resetScene();
  void setSpeed(double factor);
  /// Schedules an impulse (N s, world) on a body's centre of mass at the next step
  /// (Simulation > Push a body); false and a status message if the body cannot be pushed.
  bool pushBody(const QString& body, const Vec3& impulse);
  void pushDialog();
  /// The perturbation tool (Ctrl + right drag in the view, OSG window pixels): grabs the body
  /// under the cursor and pulls its centre of mass towards the cursor, in the plane through it
  /// facing the camera, until released. The body grabbed, or -1.
  int perturbPress(double x, double y);
  void perturbMove(double x, double y);
  void perturbRelease();
  /// View menu: camera modes ("orbit", "fly", or an onboard camera's name).
  void setCamera(const QString& mode);
  /// Picture-in-picture from an onboard camera ("" turns it off).
  void setPictureInPicture(const QString& camera);
  void setOverlayLayers(unsigned layers);
  void setCollisionShapes(bool on);
  /// Picture quality: "auto" (the level for this GL renderer), "off", "low", "high"; remembered.
  void setQuality(const QString& level);
  /// View > Overlays > Flexing magnified: the beams drawn with their bending
  /// kFlexMagnification times as large (a stiff boom's centimetres made visible).
  static constexpr double kFlexMagnification = 20.0;
  void setFlexMagnified(bool on);
  /// Saves the viewport as PNG; false if it could not be written.
  bool saveScreenshot(const QString& path);
  /// Adds a probe to the plots (false and a status message if the scene has no such probe).
  bool plotProbe(const QString& probe);
  // Sessions (main_window_sessions.cpp).
  /// Where recordings go: $IMPETUS_SESSIONS_DIR, else the application's data folder.
  static QString sessionsDirectory();
  /// Starts recording the live simulation as `operatorName` (false and a message on failure).
  bool startRecording(const QString& operatorName);
  /// Stops recording; the file written, or empty if none was running.
  QString stopRecording();
  /// The session browser (shown, non-modal).
  SessionBrowser* showSessionBrowser();
  /// Replays a session file (kinematic playback); on error shows it and keeps the live scene.
  bool openReplay(const QString& path);
  /// Back to the live scene (`reopen`: the scene open before the replay).
  void closeReplay(bool reopen = true);
  /// Writes the replayed session's exercise debrief to `file` as HTML (the Exercise panel's
  /// "Export debrief…"); on error shows it and returns false.
  bool exportDebrief(const QString& file);
  /// The replayed session's probe limits plotted over it in a window of their own (the Exercise
  /// panel's "Plot the limits…"); null on error (shown).
  LimitPlots* plotDebrief();
  /// Turns the replay into a live session from its current moment.
  bool takeControl();
  ReplaySession* replay() const { return replay_.get(); }
  ReplayTimeline* timeline() const { return timeline_; }

  /// The scene file opened when none is given (the MF-4).
  static QString defaultScenePath();
  /// Most recent first.
  static QStringList recentScenes();

  // Frame timing (status bar, frame benchmark).
  double lastFrameSeconds() const { return lastFrameSeconds_; }  ///< interval to the previous
  /// GUI-thread time of the last frame's update (snapshot, scene graph, panels; not the draw).
  double lastFrameWorkSeconds() const { return lastFrameWorkSeconds_; }
  long long frames() const { return frames_; }
  long long lateFrames() const { return lateFrames_; }

 signals:
  /// After every frame drawn (tests and the frame benchmark wait on it).
  void frameDone();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  /// The replayed session re-simulated with its exercise (a wait cursor meanwhile); on error
  /// shows it and returns nothing.
  std::optional<ExerciseDebrief> replayedDebrief();
  void buildMenus();
  void buildDocks();
  QDockWidget* addDock(const QString& title, const QString& name, QWidget* panel,
                       Qt::DockWidgetArea area);
  void buildSessionUi();
  void presentScene(const LoadedScene& scene);
  void runLive(std::unique_ptr<Simulation> simulation, bool paused);
  void onReplayFrame();
  void updateRecordingStatus();
  void recordToggled(bool on);
  void rebuildCameraMenus();
  void rebuildRecentMenu();
  void rememberScene(const QString& path);
  void onFrame();
  void updateStatus();
  /// Orbit centre on the robot, onboard and picture-in-picture views at the snapshot's poses.
  void followCameras();
  /// Moves the lamps with their bodies and switches them as the snapshot says.
  void placeLamps();
  void openSceneDialog();
  void screenshotDialog();
  void showAbout();
  osg::Matrixd cameraToWorld(const CameraDesc& camera) const;
  const CameraDesc* findCamera(const QString& name) const;

  ViewportWidget* viewport_ = nullptr;
  ConsolePanel* console_ = nullptr;
  PlotPanel* plots_ = nullptr;
  ExercisePanel* exercise_ = nullptr;
  QTimer frameTimer_;
  SimulationThread sim_;
  GamepadInput gamepad_;
  render::ScenePresenter presenter_;
  render::DebugOverlay overlay_;
  Snapshot snapshot_;

  // The open scene as the GUI needs it (the simulation itself lives on its thread).
  QString scenePath_;
  std::string sceneName_;
  std::vector<std::string> bodyNames_;
  std::vector<bool> bodyIsDynamic_;  ///< per body: whether it can be pushed
  int perturbBody_ = -1;             ///< the body the perturbation tool pulls, or -1
  Vec3 perturbPlanePoint_ = Vec3::Zero(), perturbPlaneNormal_ = Vec3::UnitZ();
  Vec3 perturbTarget_ = Vec3::Zero();
  std::vector<CameraDesc> cameras_;
  std::vector<LightDesc> lights_;  ///< the robots' lamps, placed every frame (placeLamps)
  int followBody_ = -1;            ///< the orbit camera's centre (the robot), or -1
  QString cameraMode_ = "orbit";
  QString pipCamera_;

  // Menus that change with the scene.
  QAction* pauseAction_ = nullptr;
  QMenu* cameraMenu_ = nullptr;
  QMenu* pipMenu_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QActionGroup* speedGroup_ = nullptr;

  // Sessions.
  std::unique_ptr<ReplaySession> replay_;
  ReplayTimeline* timeline_ = nullptr;
  QAction* recordAction_ = nullptr;
  QLabel* statusRecording_ = nullptr;
  QString operatorName_;

  // Status bar.
  QLabel* statusTime_ = nullptr;
  QLabel* statusPhysics_ = nullptr;
  QLabel* statusFrame_ = nullptr;
  QLabel* statusGamepad_ = nullptr;
  QElapsedTimer frameClock_;
  QElapsedTimer rtfClock_;
  double rtfSimTime_ = 0.0;
  double realTimeFactor_ = 0.0;
  double lastFrameSeconds_ = 0.0;
  double lastFrameWorkSeconds_ = 0.0;
  long long frames_ = 0;
  long long lateFrames_ = 0;
};

}  // namespace impetus::app
