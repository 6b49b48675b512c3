#pragma once
// An indicator lamp of the console: lit (green) when its signal exceeds 0.5, dark otherwise,
// grey when the signal is unknown (NaN).

#include <QWidget>

namespace impetus::app {

class IndicatorLamp : public QWidget {
  Q_OBJECT
 public:
  explicit IndicatorLamp(QWidget* parent = nullptr);
  void setValue(double value);
  bool lit() const { return value_ > 0.5; }
  QSize sizeHint() const override { return {22, 22}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  double value_ = 0.0;
};

}  // namespace impetus::app
