#include "session_browser.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include "impetus/session/session_reader.h"

namespace impetus::app {

SessionBrowser::SessionBrowser(const QString& folder, QWidget* parent)
    : QDialog(parent), folder_(folder) {
  setWindowTitle("Recorded sessions");
  resize(820, 420);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(QString("Sessions in %1").arg(folder)));
  auto* filters = new QHBoxLayout;
  operatorFilter_ = new QComboBox;
  operatorFilter_->setObjectName("operatorFilter");
  exerciseFilter_ = new QComboBox;
  exerciseFilter_->setObjectName("exerciseFilter");
  filters->addWidget(new QLabel("Operator"));
  filters->addWidget(operatorFilter_, 1);
  filters->addWidget(new QLabel("Exercise"));
  filters->addWidget(exerciseFilter_, 1);
  layout->addLayout(filters);
  connect(operatorFilter_, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });
  connect(exerciseFilter_, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });
  table_ = new QTableWidget(0, kColumns);
  table_->setObjectName("sessionTable");
  table_->setHorizontalHeaderLabels(
      {"Date", "Scene", "Duration", "Operator", "Exercise", "Score", "Result", "End", "File"});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  layout->addWidget(table_, 1);
  auto* buttons = new QDialogButtonBox;
  QPushButton* replay = buttons->addButton("Replay", QDialogButtonBox::AcceptRole);
  replay->setObjectName("replaySession");
  QPushButton* other = buttons->addButton("Open file…", QDialogButtonBox::ActionRole);
  buttons->addButton(QDialogButtonBox::Close);
  layout->addWidget(buttons);
  connect(replay, &QPushButton::clicked, this, &SessionBrowser::replaySelected);
  connect(table_, &QTableWidget::cellDoubleClicked, this, &SessionBrowser::replaySelected);
  connect(other, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Replay session", folder_,
                                                      "Impetus sessions (*.session)");
    if (path.isEmpty()) return;
    emit replayRequested(path);
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  refresh();
}

void SessionBrowser::refresh() {
  table_->setRowCount(0);
  const QFileInfoList files =
      QDir(folder_).entryInfoList({"*.session"}, QDir::Files, QDir::Time);  // newest first
  for (const QFileInfo& file : files) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    auto set = [&](int column, const QString& text) {
      auto* item = new QTableWidgetItem(text);
      if (column == kFile) item->setData(Qt::UserRole, file.absoluteFilePath());
      table_->setItem(row, column, item);
    };
    set(kFile, file.fileName());
    try {
      SessionReader reader(file.absoluteFilePath().toStdString());
      const SessionInfo& info = reader.info();
      const QDateTime created =
          QDateTime::fromString(QString::fromStdString(info.created), Qt::ISODate).toLocalTime();
      set(kDate, created.toString("yyyy-MM-dd HH:mm:ss"));
      set(kScene, QString::fromStdString(info.sceneName));
      set(kDuration, QString("%1 s").arg(info.duration(), 0, 'f', 1));
      set(kOperator, QString::fromStdString(info.operatorName));
      set(kEnd, info.endReason.empty() ? QString("interrupted (recovered)")
                                       : QString::fromStdString(info.endReason));
      if (info.exercise) {
        set(kExercise, QString::fromStdString(info.exercise->name));
        set(kScore, QString::number(info.exercise->score));
        set(kResult, !info.exercise->finished ? QString("unfinished")
                     : info.exercise->passed  ? QString("passed")
                                              : QString("failed"));
      }
    } catch (const SessionError& e) {
      set(kDate, file.lastModified().toString("yyyy-MM-dd HH:mm:ss"));
      set(kEnd, QString("cannot be read: %1").arg(QString::fromStdString(e.what())));
      for (int c = 0; c < kColumns; ++c)
        if (auto* item = table_->item(row, c)) item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    }
  }
  // The filters offer the names seen, keeping the choice.
  for (auto [box, column] :
       {std::pair{operatorFilter_, int(kOperator)}, {exerciseFilter_, int(kExercise)}}) {
    const QString chosen = box->currentText();
    QStringList names;
    for (int row = 0; row < table_->rowCount(); ++row)
      if (const QTableWidgetItem* item = table_->item(row, column); item && !item->text().isEmpty())
        names << item->text();
    names.removeDuplicates();
    names.sort();
    const QSignalBlocker block(box);
    box->clear();
    box->addItem("All");
    box->addItems(names);
    box->setCurrentIndex(std::max(0, box->findText(chosen)));
  }
  applyFilters();
  table_->resizeColumnsToContents();
  if (table_->rowCount() > 0) table_->selectRow(0);
}

void SessionBrowser::applyFilters() {
  for (int row = 0; row < table_->rowCount(); ++row) {
    bool shown = true;
    for (auto [box, column] :
         {std::pair{operatorFilter_, int(kOperator)}, {exerciseFilter_, int(kExercise)}}) {
      const QTableWidgetItem* item = table_->item(row, column);
      if (box->currentIndex() > 0 && (!item || item->text() != box->currentText())) shown = false;
    }
    table_->setRowHidden(row, !shown);
  }
}

QString SessionBrowser::pathAt(int row) const {
  const QTableWidgetItem* item = table_->item(row, kFile);
  return item ? item->data(Qt::UserRole).toString() : QString();
}

void SessionBrowser::replaySelected() {
  const int row = table_->currentRow();
  if (row < 0 || !(table_->item(row, kFile)->flags() & Qt::ItemIsEnabled)) return;
  emit replayRequested(pathAt(row));
  accept();
}

}  // namespace impetus::app
