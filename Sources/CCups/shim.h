#include <cups/cups.h>
#include <cups/raster.h>
