// The error values used across linlayout live in support/ (header-only, std only), so that
// runtime/, which must not depend on layout/, shares them.
#pragma once

#include "linlayout/support/Expected.h"
