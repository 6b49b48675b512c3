#pragma once
// Small pieces of the window's text shared by its parts.

#include <QMessageBox>
#include <QString>

namespace impetus::app {

/// "m:ss.d" for a time in seconds (`decimals` after the point).
inline QString minutesSeconds(double seconds, int decimals) {
  const int minutes = int(seconds / 60.0);
  return QString("%1:%2").arg(minutes).arg(seconds - 60.0 * minutes, 3 + decimals, 'f', decimals,
                                           QChar('0'));
}

/// A window-modal error box that does not block the frame timer (the simulation keeps running);
/// `objectName` lets the GUI tests find it.
inline void showErrorDialog(QWidget* parent, const QString& objectName, const QString& title,
                            const QString& text) {
  auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, parent);
  box->setObjectName(objectName);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace impetus::app
