// A small SVG chart drawn by C++ for the self-contained HTML report (no JS
// library, no network): linear, log10 and "nines" axes with readable ticks,
// lines, step lines, bars, reference lines, shaded ranges and markers.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace labgate::report {

/// kNines: x is already -log10(1 - p/100) (p50 -> 0.30, p99 -> 2, p99.9 -> 3);
/// ticks are labelled as percentiles ("99.9%").
enum class Scale { kLinear, kLog, kNines };

struct AxisSpec {
  Scale scale = Scale::kLinear;
  double lo = 0, hi = 1;  ///< data range; for kLog both must be > 0
  std::string title;      ///< with its unit, "round-trip time" / "time since warm-up (s)"
  /// Tick text for a data value; empty = a plain number.
  std::function<std::string(double)> tick_label;
};

struct Point {
  double x = 0, y = 0;
};

/// A bar from x0 to x1 rising to y (from the axis floor).
struct Bar {
  double x0 = 0, x1 = 0, y = 0;
  std::string tooltip;
};

/// Colours used consistently across every chart of the report.
namespace palette {
inline constexpr const char* kP50 = "#2563eb";
inline constexpr const char* kP99 = "#d97706";
inline constexpr const char* kMax = "#7c3aed";
inline constexpr const char* kData = "#0f766e";
inline constexpr const char* kBudget = "#dc2626";
inline constexpr const char* kPass = "#15803d";
inline constexpr const char* kFail = "#dc2626";
inline constexpr const char* kMuted = "#6b7280";
}  // namespace palette

/// The plot area and axes of a chart being drawn (defined in svg_chart.cc).
struct Frame;

class Chart {
 public:
  Chart(std::string title, AxisSpec x, AxisSpec y);

  /// A polyline (points outside the axes are clamped to the edge).
  void line(std::vector<Point> pts, const std::string& colour, const std::string& legend,
            bool dashed = false);
  /// Bars, filled with `colour`.
  void bars(std::vector<Bar> bars, const std::string& colour, const std::string& legend);
  /// A vertical reference line at x with a short label near its top; `row`
  /// staggers labels of lines that sit close together.
  void vline(double x, const std::string& colour, const std::string& label, int row = 0);
  /// A horizontal reference line at y with a label at its left end.
  void hline(double y, const std::string& colour, const std::string& label, bool dashed = true);
  /// A text label at a data point (drawn after lines so it stays readable);
  /// `left` puts the text to the left of the point instead of the right.
  void label(Point at, const std::string& colour, const std::string& text, bool left = false);
  /// A round marker with a hover tooltip.
  void marker(Point at, const std::string& colour, const std::string& tooltip, bool hollow = false);
  /// A shaded x range with a caption, e.g. "beyond the samples' resolution".
  void shade_x(double x0, double x1, const std::string& caption);

  /// The chart as an <svg> element with a viewBox (scales to its container).
  std::string svg(int width = 460, int height = 300) const;

 private:
  std::string title_;
  AxisSpec x_, y_;
  // Drawing is deferred until svg() knows the plot area; labels go last so
  // they sit on top of lines.
  std::vector<std::function<std::string(const Frame&)>> draw_, labels_;
  std::vector<std::pair<std::string, std::string>> legend_;  // colour, text
};

/// "Nice" tick positions for an axis (1-2-5 steps for linear, decades and
/// their 2/5 multiples for log, the usual nines for kNines).
std::vector<double> axis_ticks(const AxisSpec& a);

}  // namespace labgate::report
