// The instructor's push (Simulation > Push a body): an impulse on a body's centre of mass at the
// next step, as `impetus-sim run --push` gives one, and recorded in a running session the same
// way, so that its replay pushes too.
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QStatusBar>

#include "main_window.h"

namespace impetus::app {

bool MainWindow::pushBody(const QString& body, const Vec3& impulse) {
  if (!sim_.hasSimulation()) return false;
  std::string error;
  sim_.withSimulation([&](Simulation& sim) {
    try {
      sim.schedulePush({body.toStdString(), sim.world().time() + sim.stepSize(), impulse});
    } catch (const std::invalid_argument& e) {
      error = e.what();
    }
  });
  if (!error.empty()) {
    statusBar()->showMessage(QString::fromStdString(error), 5000);
    return false;
  }
  statusBar()->showMessage(QString("pushed %1 with (%2, %3, %4) N s")
                               .arg(body)
                               .arg(impulse.x())
                               .arg(impulse.y())
                               .arg(impulse.z()),
                           5000);
  return true;
}

void MainWindow::pushDialog() {
  QDialog dialog(this);
  dialog.setWindowTitle("Push a body");
  auto* form = new QFormLayout(&dialog);
  auto* body = new QComboBox;
  for (size_t i = 0; i < bodyNames_.size(); ++i)
    if (bodyIsDynamic_[i]) body->addItem(QString::fromStdString(bodyNames_[i]));
  form->addRow("Body", body);
  QDoubleSpinBox* axes[3];
  const char* labels[] = {"Impulse x (N s, world)", "Impulse y (N s)", "Impulse z (N s)"};
  for (int k = 0; k < 3; ++k) {
    axes[k] = new QDoubleSpinBox;
    axes[k]->setRange(-1000.0, 1000.0);
    axes[k]->setDecimals(1);
    axes[k]->setObjectName(QString("pushImpulse%1").arg(k));
    form->addRow(labels[k], axes[k]);
  }
  axes[0]->setValue(25.0);  // the standing push
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() == QDialog::Accepted)
    pushBody(body->currentText(), Vec3(axes[0]->value(), axes[1]->value(), axes[2]->value()));
}

}  // namespace impetus::app
