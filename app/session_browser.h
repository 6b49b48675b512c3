#pragma once
// The instructor's list of recorded sessions: every *.session file of a folder with its date,
// scene, duration, operator and how it ended (damaged files say why). Double-click or "Replay"
// opens one; "Open file…" replays a session from anywhere.

#include <QDialog>

class QTableWidget;

namespace impetus::app {

class SessionBrowser : public QDialog {
  Q_OBJECT
 public:
  enum Column { kDate, kScene, kDuration, kOperator, kEnd, kFile, kColumns };

  explicit SessionBrowser(const QString& folder, QWidget* parent = nullptr);
  /// Re-reads the folder (newest first).
  void refresh();
  QTableWidget* table() const { return table_; }
  /// The file of a row.
  QString pathAt(int row) const;

 signals:
  void replayRequested(const QString& path);

 private:
  void replaySelected();
  QString folder_;
  QTableWidget* table_ = nullptr;
};

}  // namespace impetus::app
