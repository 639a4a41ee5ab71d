#ifndef FLOW_LUASHIMS_H
#define FLOW_LUASHIMS_H
#include "../../CLua/shim.h"
#endif
