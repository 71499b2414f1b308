#include "tb/report/headline.h"

#include <cctype>

namespace td::report {

std::string limiting_resource(const TimingFigures& timing) {
  std::string limit = "datapath";
  double largest = timing.td_utilisation;
  for (const auto& [cause, share] : timing.stalls)
    if (share > largest) {
      largest = share;
      limit = cause;
    }
  return largest < 0.25 ? std::string("shader issue (TDs idle)") : limit;
}

Headline headline_of(const TimingFigures& timing) {
  Headline headline;
  headline.limited_by = limiting_resource(timing);
  headline.stalls = timing.stalls;
  for (const LevelFigures& level : timing.levels) headline.hit_rates.emplace_back(level.name, level.hit_rate());
  return headline;
}

void add_mshr_figures(Headline& headline, const TimingFigures& timing) {
  for (const LevelFigures& level : timing.levels) {
    std::string name = level.name + "_mshr_full";
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    headline.figures.push_back({name, "refusals", static_cast<double>(level.mshr_full)});
  }
}

void write_headline(sim::JsonWriter& json, const Headline& headline) {
  json.begin_object();
  write_headline_fields(json, headline);
  json.end_object();
}

void write_headline_fields(sim::JsonWriter& json, const Headline& headline) {
  json.key("primary").value(headline.figures.empty() ? std::string() : headline.figures.front().name);
  json.key("figures").begin_array();
  for (const HeadlineFigure& figure : headline.figures) {
    json.begin_object();
    json.key("name").value(figure.name);
    json.key("unit").value(figure.unit);
    json.key("value").value(figure.value);
    json.end_object();
  }
  json.end_array();
  json.key("limited_by").value(headline.limited_by);
  json.key("stalls").begin_object();
  for (const auto& [cause, share] : headline.stalls) json.key(cause).value(share);
  json.end_object();
  json.key("hit_rates").begin_object();
  for (const auto& [level, rate] : headline.hit_rates) json.key(level).value(rate);
  json.end_object();
}

}  // namespace td::report
