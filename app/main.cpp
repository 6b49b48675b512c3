// impetus: the operator program. Usage: impetus [SCENE.xml]
#include <QApplication>

#include "main_window.h"
#include "viewport_widget.h"

int main(int argc, char** argv) {
  impetus::app::ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Impetus");
  QApplication::setApplicationName("Impetus");
  impetus::app::MainWindow window;
  window.resize(1280, 800);
  window.show();
  const QStringList args = QApplication::arguments();
  window.openScene(args.size() > 1 ? args[1] : impetus::app::MainWindow::defaultScenePath());
  return QApplication::exec();
}
