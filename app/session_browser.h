#pragma once
// The instructor's list of recorded sessions: every *.session file of a folder with its date,
// scene, duration, operator, how it ended (damaged files say why) and, for an exercise, its
// score and result. Filtered to one operator and one exercise it is that trainee's history on
// it, newest first. Double-click or "Replay" opens one; "Open file…" replays one from anywhere.

#include <QDialog>

class QComboBox;
class QTableWidget;

namespace impetus::app {

class SessionBrowser : public QDialog {
  Q_OBJECT
 public:
  enum Column {
    kDate,
    kScene,
    kDuration,
    kOperator,
    kExercise,
    kScore,
    kResult,
    kEnd,
    kFile,
    kColumns
  };

  explicit SessionBrowser(const QString& folder, QWidget* parent = nullptr);
  /// Re-reads the folder (newest first).
  void refresh();
  QTableWidget* table() const { return table_; }
  /// The filters ("All" or a name seen in the folder).
  QComboBox* operatorFilter() const { return operatorFilter_; }
  QComboBox* exerciseFilter() const { return exerciseFilter_; }
  /// The file of a row.
  QString pathAt(int row) const;

 signals:
  void replayRequested(const QString& path);

 private:
  void replaySelected();
  void applyFilters();
  QString folder_;
  QTableWidget* table_ = nullptr;
  QComboBox* operatorFilter_ = nullptr;
  QComboBox* exerciseFilter_ = nullptr;
};

}  // namespace impetus::app
