// datapaths.h — the TD datapaths' implementations by name, as the
// configuration's td.datapath chooses (Ramulator2's pattern): `cpp` (the
// golden reference's maths, model/td) and, in a build with TDSIM_RTL,
// `rtl` (the Verilated units of rtl/, model/rtl). The chip hands the chosen
// one to its TDs (TdParams::datapaths); model/td knows neither list nor rtl.
#pragma once

#include <string>
#include <vector>

#include "model/td/datapath_factory.h"

namespace td::chip {

// Every implementation this build has, `cpp` first.
const std::vector<timing::DatapathFactory>& datapath_factories();
// Throws std::invalid_argument naming the choices for an unknown name (the
// configuration has refused it before; this guards other callers).
const timing::DatapathFactory& datapath_factory(const std::string& name);

}  // namespace td::chip
