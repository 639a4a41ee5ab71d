#include "luashims.h"
