/* HarfBuzz: a font's glyphs and metrics, and a subset of its program (hb-subset), for the
   font a visible signature's appearance embeds (RendererSignatures' AppearanceFont). */
#include <hb.h>
#include <hb-ot.h>
#include <hb-subset.h>
