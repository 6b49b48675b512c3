#include "limit_plots.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QPen>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace impetus::app {

namespace {
constexpr double kNoBound = 1e299;  // ExerciseLimit's open ends are +-1e300
}

LimitPlots::LimitPlots(const ExerciseDesc& exercise, const ExerciseReport& report, QWidget* parent)
    : QDialog(parent) {
  setObjectName("limitPlots");
  setWindowTitle(QString("Debrief: %1").arg(QString::fromStdString(exercise.title)));
  auto* charts = new QWidget;
  auto* column = new QVBoxLayout(charts);
  for (size_t k = 0; k < exercise.limits.size() && k < report.samples.size(); ++k) {
    const ExerciseLimit& limit = exercise.limits[k];
    if (limit.kind != ExerciseLimit::Kind::Probe) continue;
    auto* chart = new QChart;
    chart->setTitle(QString("%1 (%2)").arg(QString::fromStdString(limit.text),
                                           QString::fromStdString(limit.probe)));
    chart->legend()->hide();
    auto* values = new QLineSeries;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& [t, v] : report.samples[k])
      if (std::isfinite(v)) {
        values->append(t, v);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    chart->addSeries(values);
    // The bounds the limit holds the quantity to, across the session.
    for (const double bound : {limit.min, limit.max}) {
      if (std::abs(bound) > kNoBound) continue;
      auto* line = new QLineSeries;
      line->append(0.0, bound);
      line->append(report.duration, bound);
      line->setPen(QPen(QColor(220, 30, 30), 1.5, Qt::DashLine));
      chart->addSeries(line);
      lo = std::min(lo, bound);
      hi = std::max(hi, bound);
    }
    auto* time = new QValueAxis;
    time->setTitleText("t (s)");
    time->setRange(0.0, std::max(report.duration, 1e-3));
    auto* value = new QValueAxis;
    if (lo <= hi) {
      const double pad = std::max(1e-6, 0.08 * (hi - lo));
      value->setRange(lo - pad, hi + pad);
    }
    chart->addAxis(time, Qt::AlignBottom);
    chart->addAxis(value, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
      s->attachAxis(time);
      s->attachAxis(value);
    }
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    column->addWidget(view);
    charts_.push_back(chart);
  }
  auto* scroll = new QScrollArea;
  scroll->setWidget(charts);
  scroll->setWidgetResizable(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(scroll);
  resize(760, std::min(720, 60 + 240 * int(std::max<size_t>(1, charts_.size()))));
}

}  // namespace impetus::app
