// Disturbances an instructor gives: the push (Simulation > Push a body), an impulse on a body's
// centre of mass at the next step as `impetus-sim run --push` gives one, and the perturbation
// tool (Ctrl + right drag in the view), a spring pulling a body towards the cursor. Both reach
// the simulation as pushes, so that a running recording keeps them and its replay repeats them.
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QStatusBar>
#include <algorithm>
#include <cmath>

#include "main_window.h"
#include "viewport_widget.h"

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

int MainWindow::perturbPress(double x, double y) {
  perturbBody_ = -1;
  const auto hit = viewport_->sceneView().pick(x, y);
  if (!hit) return -1;
  for (size_t i = 0; i < bodyNames_.size(); ++i) {
    const osg::Node* node = presenter_.bodyNode(BodyId(i));
    if (!node || !bodyIsDynamic_[i]) continue;
    if (std::find(hit->first.begin(), hit->first.end(), node) == hit->first.end()) continue;
    if (i >= snapshot_.positions.size()) return -1;
    perturbBody_ = int(i);
    // The pull acts in the plane through the body's centre of mass facing the camera.
    perturbPlanePoint_ = snapshot_.positions[i];
    const auto [near, far] = viewport_->sceneView().rayAt(x, y);
    const osg::Vec3d d = far - near;
    perturbPlaneNormal_ = Vec3(d.x(), d.y(), d.z()).normalized();
    perturbTarget_ = perturbPlanePoint_;
    sim_.setPerturbation(BodyId(i), perturbTarget_);
    statusBar()->showMessage(QString("pulling %1 (release the right button to let go)")
                                 .arg(QString::fromStdString(bodyNames_[i])),
                             3000);
    return perturbBody_;
  }
  return -1;
}

void MainWindow::perturbMove(double x, double y) {
  if (perturbBody_ < 0) return;
  const auto [nearOsg, farOsg] = viewport_->sceneView().rayAt(x, y);
  const Vec3 near(nearOsg.x(), nearOsg.y(), nearOsg.z()), far(farOsg.x(), farOsg.y(), farOsg.z());
  const double across = (far - near).dot(perturbPlaneNormal_);
  if (std::abs(across) < 1e-12) return;
  const double s = (perturbPlanePoint_ - near).dot(perturbPlaneNormal_) / across;
  perturbTarget_ = near + s * (far - near);
  sim_.setPerturbation(BodyId(perturbBody_), perturbTarget_);
}

void MainWindow::perturbRelease() {
  if (perturbBody_ < 0) return;
  perturbBody_ = -1;
  sim_.setPerturbation(-1, Vec3::Zero());
  overlay_.setSpring(std::nullopt);
  overlay_.update(snapshot_.contacts, snapshot_.joints, snapshot_.positions, snapshot_.balance,
                  snapshot_.hands);
}

}  // namespace impetus::app
