// headline.h — the few figures of a report that a sweep tabulates and plots
// (`tdsim sweep`, scripts/plot): the headline rate first, then the other
// figures with their units, the resource that limited the run, the stall
// causes and the hit rate of each cache level. Every report JSON carries its
// headline under "headline", so a sweep reads any command the same way.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/sim/json_writer.h"
#include "tb/report/chip_figures.h"

namespace td::report {

struct HeadlineFigure {
  std::string name;  // snake_case, e.g. "rays_per_s"
  std::string unit;  // e.g. "rays/s", "tests/s", "cycles", "fraction"
  double value = 0;
};

struct Headline {
  std::vector<HeadlineFigure> figures;                  // the first is the headline rate
  std::string limited_by;                               // the limiting resource, in words
  std::vector<std::pair<std::string, double>> stalls;   // cause -> share of TD-cycles (causes overlap)
  std::vector<std::pair<std::string, double>> hit_rates;  // "L0", "L1", "L2" -> hit rate (NaN: no accesses)
};

// The stall shares, hit rates and limit of a timed run, figures left to the caller.
Headline headline_of(const TimingFigures& timing);

// Appends each cache level's MSHR-full refusals ("l1_mshr_full", unit
// "refusals"): how often a level turned a miss away for want of an MSHR.
void add_mshr_figures(Headline& headline, const TimingFigures& timing);

// What limited a timed run: the largest of the datapaths' busy share ("datapath")
// and each stall cause's share; when even that is under a quarter of the
// TD-cycles, the TDs mostly sat empty: "shader issue (TDs idle)" (occupancy,
// ALU work between instructions, too few rays).
std::string limiting_resource(const TimingFigures& timing);

// Writes `headline` as a JSON object: {"primary", "figures": [{name, unit, value}], "limited_by", "stalls", "hit_rates"}.
void write_headline(sim::JsonWriter& json, const Headline& headline);
// The same keys, into the object being written (results.json's points).
void write_headline_fields(sim::JsonWriter& json, const Headline& headline);

}  // namespace td::report
