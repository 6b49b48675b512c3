#pragma once
// Live plots: any probe (the CLI's probe names) picked into a chart that scrolls with sim time.

#include <QStringList>
#include <QWidget>
#include <vector>

#include "simulation_thread.h"

class QChart;
class QChartView;
class QComboBox;
class QLineSeries;
class QValueAxis;

namespace impetus::app {

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr double kWindowSeconds = 10.0;  ///< time span shown

  explicit PlotPanel(QWidget* parent = nullptr);

  /// The probes a scene offers (the picker's list); clears the chart.
  void setAvailable(const QStringList& probes);
  QStringList plotted() const { return plotted_; }
  /// Adds a curve (after the simulation accepted the probe).
  void addCurve(const QString& probe);
  void clearCurves();
  /// New samples, values in plotted() order.
  void append(const std::vector<ProbeSample>& samples);
  /// The points of curve `i` (tests).
  int pointCount(int i) const;
  double lastValue(int i) const;
  QComboBox* picker() const { return picker_; }

 signals:
  /// The operator asked for `probe` in addition to plotted().
  void addRequested(const QString& probe);
  void cleared();

 private:
  QComboBox* picker_ = nullptr;
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  QValueAxis* timeAxis_ = nullptr;
  QValueAxis* valueAxis_ = nullptr;
  QStringList plotted_;
  std::vector<QLineSeries*> series_;
};

}  // namespace impetus::app
