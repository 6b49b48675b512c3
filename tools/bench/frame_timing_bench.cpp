// Frame timing of the operator application (issue #8): the real window with the MF-4 scene,
// driven around by a scripted drive joystick, for a given wall time (default 60 s). Per 40 ms frame
// it records the frame interval, the physics time of the frame's steps (simulation thread), the
// GUI thread's update, the OSG draw calls (paintGL) and the time from the frame's request until
// Qt has composed it on screen (frameSwapped); it prints their distributions and the share of
// frames that miss their 40 ms slot (interval > 50 ms). Under Xvfb the GL is software (llvmpipe).
//   frame_timing_bench [SECONDS] [SCENE.xml] [JOYSTICK]
// JOYSTICK: the console joystick the script deflects (default "drive", the MF-4's).
#include <QApplication>
#include <QElapsedTimer>
#include <QSurfaceFormat>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "console_panel.h"
#include "joystick_widget.h"
#include "main_window.h"
#include "viewport_widget.h"

namespace {

struct Series {
  std::vector<double> values;
  double mean() const {
    double s = 0;
    for (double v : values) s += v;
    return values.empty() ? 0.0 : s / double(values.size());
  }
  double percentile(double p) const {
    if (values.empty()) return 0.0;
    std::vector<double> v = values;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
  }
};

void print(const char* name, const Series& s) {
  std::printf("%-26s mean %7.2f ms  p50 %7.2f  p95 %7.2f  p99 %7.2f  max %7.2f\n", name,
              1e3 * s.mean(), 1e3 * s.percentile(0.5), 1e3 * s.percentile(0.95),
              1e3 * s.percentile(0.99), 1e3 * s.percentile(1.0));
}

}  // namespace

int main(int argc, char** argv) {
  impetus::app::ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  const double seconds = argc > 1 ? std::atof(argv[1]) : 60.0;
  const QString scene = argc > 2 ? argv[2] : impetus::app::MainWindow::defaultScenePath();
  impetus::app::MainWindow window;
  window.resize(1280, 800);
  window.show();
  // Picture quality: IMPETUS_QUALITY=auto|off|low|high (default auto, as a fresh install).
  const char* quality = std::getenv("IMPETUS_QUALITY");
  window.setQuality(quality ? quality : "auto");
  if (!window.openScene(scene)) return 1;
  impetus::app::JoystickWidget* drive = window.console()->joystick(argc > 3 ? argv[3] : "drive");
  // IMPETUS_LIGHT=on: the MF-4's headlight on (console key L), lit per pixel at every quality.
  const char* light = std::getenv("IMPETUS_LIGHT");
  if (light && std::string(light) == "on") {
    window.console()->handleKey(Qt::Key_L, true);
    window.console()->handleKey(Qt::Key_L, false);
  }

  Series interval, physics, update, draw, present;
  long long late = 0;
  QElapsedTimer wall;
  wall.start();
  const double simStart = window.simulation().snapshot().time;
  QObject::connect(&window, &impetus::app::MainWindow::frameDone, [&] {
    const double t = wall.nsecsElapsed() * 1e-9;
    // Drive a figure: 4 s forward, 2 s turning, repeated (contacts change, the arm swings).
    if (drive) {
      const double phase = std::fmod(t, 6.0);
      drive->setKeyDeflection(phase < 4.0 ? 0.0 : 1.0, phase < 4.0 ? 1.0 : 0.0);
    }
    if (window.frames() > 25) {  // skip the first second (window mapping, first draws)
      interval.values.push_back(window.lastFrameSeconds());
      physics.values.push_back(window.lastSnapshot().physicsSecondsPerFrame);
      update.values.push_back(window.lastFrameWorkSeconds());
      draw.values.push_back(window.viewport()->lastPaintSeconds());
      present.values.push_back(window.viewport()->lastPresentSeconds());
      if (window.lastFrameSeconds() > 0.050) ++late;
    }
    if (t >= seconds) app.quit();
  });
  QApplication::exec();
  const double simSeconds = window.simulation().snapshot().time - simStart;
  std::printf("gl_samples: %d\n", QSurfaceFormat::defaultFormat().samples());
  static const char* const kQualities[] = {"off", "low", "high"};
  std::printf("renderer: %s\nquality: %s\nlamps lit: %d\n", window.viewport()->glRenderer().c_str(),
              kQualities[static_cast<int>(window.viewport()->sceneView().quality())],
              window.viewport()->sceneView().lighting().lampsLit());
  std::printf("scene: %s\nwall_seconds: %.1f\nsim_seconds: %.1f\nframes: %zu\n",
              qPrintable(window.sceneName()), wall.nsecsElapsed() * 1e-9, simSeconds,
              interval.values.size());
  std::printf("late_frames: %lld (%.1f %%)\n", late,
              100.0 * double(late) / double(std::max<size_t>(1, interval.values.size())));
  print("frame interval", interval);
  print("physics per frame", physics);
  print("GUI update per frame", update);
  print("OSG draw per frame", draw);
  print("request to on screen", present);
  return 0;
}
