// verilated_models.h — the Verilated units' headers (generated code, not
// written to the project's warning flags), in one place.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#include "Vtd_box_datapath.h"
#include "Vtd_fp16_to_fp32.h"
#include "Vtd_fp32_add.h"
#include "Vtd_fp32_minmax.h"
#include "Vtd_fp32_mul.h"
#include "Vtd_fp32_ulp_up.h"
#include "Vtd_sort4.h"
#include "Vtd_tri_datapath.h"
#include "verilated.h"
#pragma GCC diagnostic pop
