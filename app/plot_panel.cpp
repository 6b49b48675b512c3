#include "plot_panel.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace impetus::app {

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* row = new QHBoxLayout;
  picker_ = new QComboBox;
  picker_->setObjectName("probePicker");
  picker_->setEditable(true);
  picker_->setInsertPolicy(QComboBox::NoInsert);
  picker_->setMinimumContentsLength(28);
  picker_->completer()->setFilterMode(Qt::MatchContains);
  picker_->completer()->setCompletionMode(QCompleter::PopupCompletion);
  auto* add = new QPushButton("Plot");
  add->setObjectName("plotAdd");
  auto* clear = new QPushButton("Clear");
  row->addWidget(picker_, 1);
  row->addWidget(add);
  row->addWidget(clear);
  layout->addLayout(row);

  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(2, 2, 2, 2));
  timeAxis_ = new QValueAxis;
  timeAxis_->setTitleText("t (s)");
  timeAxis_->setRange(0, kWindowSeconds);
  valueAxis_ = new QValueAxis;
  chart_->addAxis(timeAxis_, Qt::AlignBottom);
  chart_->addAxis(valueAxis_, Qt::AlignLeft);
  view_ = new QChartView(chart_);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(180);
  layout->addWidget(view_, 1);

  connect(add, &QPushButton::clicked, this, [this] {
    const QString probe = picker_->currentText().trimmed();
    if (!probe.isEmpty() && !plotted_.contains(probe)) emit addRequested(probe);
  });
  connect(picker_->lineEdit(), &QLineEdit::returnPressed, add, &QPushButton::click);
  connect(clear, &QPushButton::clicked, this, [this] {
    clearCurves();
    emit cleared();
  });
}

void PlotPanel::setAvailable(const QStringList& probes) {
  clearCurves();
  picker_->clear();
  picker_->addItems(probes);
  picker_->setCurrentIndex(-1);
}

void PlotPanel::addCurve(const QString& probe) {
  auto* series = new QLineSeries;
  series->setName(probe);
  chart_->addSeries(series);
  series->attachAxis(timeAxis_);
  series->attachAxis(valueAxis_);
  series_.push_back(series);
  plotted_ << probe;
}

void PlotPanel::clearCurves() {
  chart_->removeAllSeries();  // deletes them
  series_.clear();
  plotted_.clear();
}

void PlotPanel::append(const std::vector<ProbeSample>& samples) {
  if (samples.empty() || series_.empty()) return;
  const double now = samples.back().time;
  const double start = std::max(0.0, now - kWindowSeconds);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (size_t i = 0; i < series_.size(); ++i) {
    QList<QPointF> points = series_[i]->points();
    for (const ProbeSample& s : samples)
      if (i < s.values.size() && std::isfinite(s.values[i])) points.append({s.time, s.values[i]});
    const auto first = std::find_if(points.begin(), points.end(),
                                    [start](const QPointF& p) { return p.x() >= start; });
    points.erase(points.begin(), first);
    for (const QPointF& p : points) lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
    series_[i]->replace(points);
  }
  timeAxis_->setRange(start, std::max(start + kWindowSeconds, now));
  if (lo <= hi) {
    const double pad = std::max(1e-6, 0.08 * (hi - lo));
    valueAxis_->setRange(lo - pad, hi + pad);
  }
}

int PlotPanel::pointCount(int i) const {
  return i >= 0 && size_t(i) < series_.size() ? int(series_[size_t(i)]->count()) : 0;
}

double PlotPanel::lastValue(int i) const {
  if (pointCount(i) == 0) return std::numeric_limits<double>::quiet_NaN();
  return series_[size_t(i)]->points().back().y();
}

}  // namespace impetus::app
