// SVG chart rendering: axes, ticks, grid, legend, and the deferred drawing of
// lines, bars and annotations once the plot area is laid out.
#include "labgate/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "labgate/report/format.h"
#include "labgate/report/markup.h"

namespace labgate::report {

struct Frame {
  double left = 0, top = 0, width = 0, height = 0;
  const AxisSpec* x = nullptr;
  const AxisSpec* y = nullptr;

  static double unit(const AxisSpec& a, double v) {
    if (a.scale == Scale::kLog) {
      const double lv = std::log10(std::max(v, a.lo)), llo = std::log10(a.lo), lhi = std::log10(a.hi);
      return lhi > llo ? (lv - llo) / (lhi - llo) : 0.5;
    }
    return a.hi > a.lo ? (v - a.lo) / (a.hi - a.lo) : 0.5;
  }
  double px(double v) const { return left + std::clamp(unit(*x, v), 0.0, 1.0) * width; }
  double py(double v) const { return top + height - std::clamp(unit(*y, v), 0.0, 1.0) * height; }
  double right() const { return left + width; }
  double bottom() const { return top + height; }
};

namespace {

std::string one_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string text(double x, double y, const std::string& s, const char* anchor,
                 const std::string& extra = "") {
  return "<text x=\"" + one_decimal(x) + "\" y=\"" + one_decimal(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + xml_escape(s) + "</text>";
}

// A white outline behind text that sits on lines, so it stays legible.
const char* kHalo = " paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\" stroke-linejoin=\"round\"";

std::string nines_label(double x) {
  // x = -log10(1 - p); print p with as many nines as it has.
  const double p = 100.0 * (1.0 - std::pow(10.0, -x));
  char buf[32];
  const int decimals = std::max(0, static_cast<int>(std::lround(x)) - 2);
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, p);
  return buf;
}

std::string tick_text(const AxisSpec& a, double v) {
  if (a.tick_label) return a.tick_label(v);
  if (a.scale == Scale::kNines) return nines_label(v);
  return format_plain(v);
}

std::vector<double> log_multiples(const AxisSpec& a, const std::vector<int>& mults) {
  std::vector<double> out;
  for (int d = static_cast<int>(std::floor(std::log10(a.lo)));
       d <= static_cast<int>(std::ceil(std::log10(a.hi))); ++d)
    for (const int m : mults) {
      const double v = m * std::pow(10.0, d);
      if (v >= a.lo * (1 - 1e-9) && v <= a.hi * (1 + 1e-9)) out.push_back(v);
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<double> axis_ticks(const AxisSpec& a) {
  std::vector<double> out;
  if (!(a.hi > a.lo)) return {a.lo};
  switch (a.scale) {
    case Scale::kLog: {
      out = log_multiples(a, {1});
      if (a.hi / a.lo < 100 || out.size() < 3) out = log_multiples(a, {1, 2, 5});
      if (out.size() < 3) out = log_multiples(a, {1, 2, 3, 4, 5, 6, 7, 8, 9});
      return out;
    }
    case Scale::kNines:
      for (const double x : {std::log10(2.0), 1.0, 2.0, 3.0, 4.0, 5.0, 6.0})
        if (x >= a.lo - 1e-9 && x <= a.hi + 1e-9) out.push_back(x);
      return out;
    case Scale::kLinear: {
      const double raw = (a.hi - a.lo) / 6.0;
      const double mag = std::pow(10.0, std::floor(std::log10(raw)));
      double step = mag;
      for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
          step = m * mag;
          break;
        }
      for (double v = std::ceil(a.lo / step) * step; v <= a.hi + step * 1e-9; v += step)
        out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
      return out;
    }
  }
  return out;
}

Chart::Chart(std::string title, AxisSpec x, AxisSpec y)
    : title_(std::move(title)), x_(std::move(x)), y_(std::move(y)) {}

void Chart::line(std::vector<Point> pts, const std::string& colour, const std::string& legend, bool dashed) {
  if (!legend.empty()) legend_.emplace_back(colour, legend);
  draw_.push_back([pts = std::move(pts), colour, dashed](const Frame& f) {
    std::string p;
    for (const auto& pt : pts) p += one_decimal(f.px(pt.x)) + "," + one_decimal(f.py(pt.y)) + " ";
    return "<polyline fill=\"none\" stroke=\"" + colour +
           "\" stroke-width=\"1.6\" stroke-linejoin=\"round\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") +
           " points=\"" + p + "\"/>";
  });
}

void Chart::bars(std::vector<Bar> bars, const std::string& colour, const std::string& legend) {
  if (!legend.empty()) legend_.emplace_back(colour, legend);
  const double floor_y = y_.scale == Scale::kLog ? y_.lo : std::max(0.0, y_.lo);
  draw_.push_back([bars = std::move(bars), colour, floor_y](const Frame& f) {
    std::string s = "<g fill=\"" + colour + "\" fill-opacity=\"0.78\">";
    for (const auto& b : bars) {
      const double x0 = f.px(b.x0), x1 = f.px(b.x1), top = f.py(b.y), base = f.py(floor_y);
      s += "<rect x=\"" + one_decimal(x0) + "\" y=\"" + one_decimal(top) + "\" width=\"" +
           one_decimal(std::max(0.8, x1 - x0 - 0.4)) + "\" height=\"" +
           one_decimal(std::max(0.0, base - top)) + "\"><title>" + xml_escape(b.tooltip) + "</title></rect>";
    }
    return s + "</g>";
  });
}

void Chart::vline(double x, const std::string& colour, const std::string& label, int row) {
  draw_.push_back([=](const Frame& f) {
    return "<line x1=\"" + one_decimal(f.px(x)) + "\" x2=\"" + one_decimal(f.px(x)) + "\" y1=\"" +
           one_decimal(f.top) + "\" y2=\"" + one_decimal(f.bottom()) + "\" stroke=\"" + colour +
           "\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>";
  });
  labels_.push_back([=](const Frame& f) {
    // Near the right edge the label goes left of its line so it is not cut off.
    const bool left = f.px(x) > f.right() - 70;
    return text(f.px(x) + (left ? -3 : 3), f.top + 12 + 13 * row, label, left ? "end" : "start",
                std::string(" fill=\"") + colour + "\"" + kHalo);
  });
}

void Chart::hline(double y, const std::string& colour, const std::string& label, bool dashed) {
  draw_.push_back([=](const Frame& f) {
    return "<line x1=\"" + one_decimal(f.left) + "\" x2=\"" + one_decimal(f.right()) + "\" y1=\"" +
           one_decimal(f.py(y)) + "\" y2=\"" + one_decimal(f.py(y)) + "\" stroke=\"" + colour +
           "\" stroke-width=\"1.2\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>";
  });
  labels_.push_back([=](const Frame& f) {
    // At the left end: annotations of data (spikes, maxima) tend to sit at the right.
    return text(f.left + 4, f.py(y) - 4, label, "start", std::string(" fill=\"") + colour + "\"" + kHalo);
  });
}

void Chart::label(Point at, const std::string& colour, const std::string& s, bool left) {
  labels_.push_back([=](const Frame& f) {
    // About 6 px per character at 11 px: a label that would run past the plot's
    // right edge goes to the left of its point instead.
    const bool to_left = left || f.px(at.x) + 4 + 6.0 * static_cast<double>(s.size()) > f.right();
    return text(f.px(at.x) + (to_left ? -4 : 4), f.py(at.y) - 5, s, to_left ? "end" : "start",
                std::string(" fill=\"") + colour + "\"" + kHalo);
  });
}

void Chart::marker(Point at, const std::string& colour, const std::string& tooltip, bool hollow) {
  labels_.push_back([=](const Frame& f) {
    return "<circle cx=\"" + one_decimal(f.px(at.x)) + "\" cy=\"" + one_decimal(f.py(at.y)) +
           "\" r=\"4\" fill=\"" + (hollow ? std::string("#fff") : colour) + "\" stroke=\"" + colour +
           "\" stroke-width=\"1.6\"><title>" + xml_escape(tooltip) + "</title></circle>";
  });
}

void Chart::shade_x(double x0, double x1, const std::string& caption) {
  draw_.insert(draw_.begin(), [=](const Frame& f) {
    const double a = f.px(x0), b = f.px(x1);
    return "<rect x=\"" + one_decimal(a) + "\" y=\"" + one_decimal(f.top) + "\" width=\"" +
           one_decimal(std::max(0.0, b - a)) + "\" height=\"" + one_decimal(f.height) +
           "\" fill=\"#f3f4f6\"/>" +
           text((a + b) / 2, f.bottom() - 6, caption, "middle", " fill=\"#6b7280\" font-size=\"10\"");
  });
}

std::string Chart::svg(int width, int height) const {
  Frame f;
  // Room on the left for "1.00 ms" ticks beside a rotated axis title, and on the
  // right for half of the last x tick label ("99.999%").
  f.left = 72;
  f.top = legend_.empty() ? 30 : 46;
  f.width = width - f.left - 26;
  f.height = height - f.top - 46;
  f.x = &x_;
  f.y = &y_;
  std::string s = "<svg class=\"lg-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " +
                  std::to_string(width) + " " + std::to_string(height) + "\" role=\"img\" aria-label=\"" +
                  xml_escape(title_) +
                  "\" font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\" " +
                  "font-size=\"11\" fill=\"#374151\">";
  s += text(f.left, 17, title_, "start", " font-size=\"13\" font-weight=\"600\" fill=\"#111827\"");
  double lx = f.left;
  for (const auto& [colour, label] : legend_) {
    s += "<line x1=\"" + one_decimal(lx) + "\" x2=\"" + one_decimal(lx + 16) +
         "\" y1=\"33\" y2=\"33\" stroke=\"" + colour + "\" stroke-width=\"3\"/>" +
         text(lx + 20, 37, label, "start");
    lx += 28 + 6.2 * static_cast<double>(label.size());
  }
  // Grid: minor decade lines for log axes, then labelled ticks.
  std::string grid, ticks;
  const auto minor = [&](const AxisSpec& a, bool vertical) {
    if (a.scale != Scale::kLog || a.hi / a.lo < 10) return;
    for (const double v : log_multiples(a, {2, 3, 4, 5, 6, 7, 8, 9}))
      grid += vertical
                  ? "<line x1=\"" + one_decimal(f.px(v)) + "\" x2=\"" + one_decimal(f.px(v)) + "\" y1=\"" +
                        one_decimal(f.top) + "\" y2=\"" + one_decimal(f.bottom()) + "\" stroke=\"#f3f4f6\"/>"
                  : "<line x1=\"" + one_decimal(f.left) + "\" x2=\"" + one_decimal(f.right()) + "\" y1=\"" +
                        one_decimal(f.py(v)) + "\" y2=\"" + one_decimal(f.py(v)) + "\" stroke=\"#f3f4f6\"/>";
  };
  minor(x_, true);
  minor(y_, false);
  for (const double v : axis_ticks(x_)) {
    grid += "<line x1=\"" + one_decimal(f.px(v)) + "\" x2=\"" + one_decimal(f.px(v)) + "\" y1=\"" +
            one_decimal(f.top) + "\" y2=\"" + one_decimal(f.bottom()) + "\" stroke=\"#e5e7eb\"/>";
    ticks += text(f.px(v), f.bottom() + 15, tick_text(x_, v), "middle");
  }
  for (const double v : axis_ticks(y_)) {
    grid += "<line x1=\"" + one_decimal(f.left) + "\" x2=\"" + one_decimal(f.right()) + "\" y1=\"" +
            one_decimal(f.py(v)) + "\" y2=\"" + one_decimal(f.py(v)) + "\" stroke=\"#e5e7eb\"/>";
    ticks += text(f.left - 6, f.py(v) + 4, tick_text(y_, v), "end");
  }
  s += grid;
  for (const auto& d : draw_) s += d(f);
  s += "<rect x=\"" + one_decimal(f.left) + "\" y=\"" + one_decimal(f.top) + "\" width=\"" +
       one_decimal(f.width) + "\" height=\"" + one_decimal(f.height) +
       "\" fill=\"none\" stroke=\"#9ca3af\"/>";
  for (const auto& d : labels_) s += d(f);
  s += ticks;
  s += text(f.left + f.width / 2, f.bottom() + 34, x_.title, "middle", " fill=\"#111827\"");
  s += text(13, f.top + f.height / 2, y_.title, "middle",
            " fill=\"#111827\" transform=\"rotate(-90 13 " + one_decimal(f.top + f.height / 2) + ")\"");
  return s + "</svg>";
}

}  // namespace labgate::report
