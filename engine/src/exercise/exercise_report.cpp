#include "impetus/exercise/exercise_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace impetus {
namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double v, const char* format = "%.4g") {
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

constexpr double kWidth = 760.0, kPlotHeight = 180.0, kMargin = 50.0;

/// The events as marks on a time axis from 0 to `duration`.
std::string timeline(const std::vector<ExerciseEvent>& events, double duration) {
  const double span = std::max(duration, 1e-9);
  std::string svg = "<svg width=\"" + number(kWidth + 2 * kMargin) +
                    "\" height=\"70\" xmlns=\"http://www.w3.org/2000/svg\">"
                    "<line x1=\"" +
                    number(kMargin) + "\" y1=\"40\" x2=\"" + number(kMargin + kWidth) +
                    "\" y2=\"40\" stroke=\"#444\"/>";
  for (double t : {0.0, duration})
    svg += "<text x=\"" + number(kMargin + kWidth * t / span) +
           "\" y=\"62\" font-size=\"11\" text-anchor=\"middle\">" + number(t, "%.1f") + " s</text>";
  for (const ExerciseEvent& e : events) {
    const char* colour =
        e.kind == ExerciseEvent::Kind::ObjectiveDone || e.kind == ExerciseEvent::Kind::Completed
            ? "#2a2"
        : e.kind == ExerciseEvent::Kind::Warning || e.kind == ExerciseEvent::Kind::Hint ? "#d90"
                                                                                        : "#d22";
    svg += "<circle cx=\"" + number(kMargin + kWidth * e.time / span) +
           "\" cy=\"40\" r=\"6\" fill=\"" + colour + "\"><title>" + number(e.time, "%.2f") + " s " +
           toString(e.kind) + ": " + escape(e.text) + "</title></circle>";
  }
  return svg + "</svg>";
}

/// A limit's quantity over time with its bounds (red, dashed) and warning band.
std::string plot(const ExerciseLimit& limit, const std::vector<std::pair<double, double>>& points,
                 double duration) {
  double lo = 1e300, hi = -1e300;
  for (const auto& [t, v] : points)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  for (double bound : {limit.min, limit.max})
    if (std::abs(bound) < 1e299) lo = std::min(lo, bound), hi = std::max(hi, bound);
  if (!(hi > lo)) hi = lo + 1.0;
  const double pad = 0.05 * (hi - lo);
  lo -= pad;
  hi += pad;
  const double span = std::max(duration, 1e-9);
  const auto x = [&](double t) { return kMargin + kWidth * t / span; };
  const auto y = [&](double v) { return 10.0 + kPlotHeight * (hi - v) / (hi - lo); };
  std::string svg = "<svg width=\"" + number(kWidth + 2 * kMargin) + "\" height=\"" +
                    number(kPlotHeight + 40) + "\" xmlns=\"http://www.w3.org/2000/svg\">";
  svg += "<rect x=\"" + number(kMargin) + "\" y=\"10\" width=\"" + number(kWidth) + "\" height=\"" +
         number(kPlotHeight) + "\" fill=\"none\" stroke=\"#aaa\"/>";
  for (double bound : {limit.min, limit.max}) {
    if (std::abs(bound) >= 1e299) continue;
    svg += "<line x1=\"" + number(x(0)) + "\" x2=\"" + number(x(span)) + "\" y1=\"" +
           number(y(bound)) + "\" y2=\"" + number(y(bound)) +
           "\" stroke=\"#d22\" stroke-dasharray=\"6 4\"/>";
  }
  std::string line;
  for (const auto& [t, v] : points)
    if (std::isfinite(v)) line += number(x(t), "%.1f") + "," + number(y(v), "%.1f") + " ";
  svg += "<polyline fill=\"none\" stroke=\"#22a\" stroke-width=\"1.5\" points=\"" + line + "\"/>";
  svg += "<text x=\"4\" y=\"" + number(y(hi - pad)) + "\" font-size=\"11\">" + number(hi - pad) +
         "</text><text x=\"4\" y=\"" + number(y(lo + pad)) + "\" font-size=\"11\">" +
         number(lo + pad) + "</text><text x=\"" + number(x(span)) + "\" y=\"" +
         number(kPlotHeight + 30) + "\" font-size=\"11\" text-anchor=\"end\">" +
         number(duration, "%.1f") + " s</text>";
  return svg + "</svg>";
}

}  // namespace

std::string exerciseReportHtml(const ExerciseEvaluator& exercise, const ExerciseReport& report) {
  const ExerciseDesc& d = exercise.desc();
  double points = 0.0;
  for (size_t i = 0; i < d.objectives.size(); ++i)
    if (exercise.doneAt(i) >= 0.0) points += d.objectives[i].weight;
  std::string why;
  if (!exercise.passed()) {
    why = !exercise.finished() ? "not finished" : "score below the pass mark";
    const auto& events = exercise.events();
    if (!events.empty() && events.back().kind == ExerciseEvent::Kind::Failed)
      why = events.back().text;
  }
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Debrief: " + escape(d.title) +
      "</title><style>body{font-family:sans-serif;margin:2em;max-width:900px}"
      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
      ".pass{background:#aea;padding:8px}.fail{background:#faa;padding:8px}</style></head><body>\n";
  html += "<h1>" + escape(d.title) + "</h1>\n<p>Scene " + escape(report.scene) + ", operator " +
          (report.operatorName.empty() ? std::string("-") : escape(report.operatorName)) +
          ", recorded " + escape(report.recorded) + ", " + number(report.duration, "%.1f") +
          " s.</p>\n";
  html += std::string("<p class=\"") + (exercise.passed() ? "pass" : "fail") + "\"><b>" +
          (exercise.passed() ? "PASSED" : "FAILED") + "</b>" +
          (why.empty() ? "" : ": " + escape(why)) + "<br>score " + number(exercise.score()) +
          " (objectives " + number(points) + ", penalties " + number(exercise.penalties()) +
          "; pass mark " + number(d.passMark) + ")</p>\n";
  html += "<h2>Objectives</h2>\n<table><tr><th>objective</th><th>points</th><th>done</th></tr>\n";
  for (size_t i = 0; i < d.objectives.size(); ++i)
    html += "<tr><td>" + escape(d.objectives[i].text) + "</td><td>" +
            number(d.objectives[i].weight) + "</td><td>" +
            (exercise.doneAt(i) >= 0.0 ? "at " + number(exercise.doneAt(i), "%.2f") + " s"
                                       : std::string("not done")) +
            "</td></tr>\n";
  html += "</table>\n<h2>Limits</h2>\n<table><tr><th>limit</th><th>violations</th></tr>\n";
  for (size_t i = 0; i < d.limits.size(); ++i)
    html += "<tr><td>" + escape(d.limits[i].text) + "</td><td>" +
            std::to_string(exercise.violations(i)) + "</td></tr>\n";
  html += "</table>\n<h2>Timeline</h2>\n" + timeline(exercise.events(), report.duration) + "\n";
  html += "<table><tr><th>time</th><th>event</th><th>what</th></tr>\n";
  for (const ExerciseEvent& e : exercise.events())
    html += "<tr><td>" + number(e.time, "%.2f") + " s</td><td>" + toString(e.kind) + " '" +
            escape(e.name) + "'</td><td>" + escape(e.text) + "</td></tr>\n";
  html += "</table>\n";
  for (size_t i = 0; i < d.limits.size() && i < report.samples.size(); ++i) {
    if (d.limits[i].kind != ExerciseLimit::Kind::Probe) continue;
    html += "<h2>" + escape(d.limits[i].text) + "</h2>\n<p>" + escape(d.limits[i].probe) +
            " against its bounds (dashed)</p>\n" +
            plot(d.limits[i], report.samples[i], report.duration) + "\n";
  }
  return html + "</body></html>\n";
}

}  // namespace impetus
