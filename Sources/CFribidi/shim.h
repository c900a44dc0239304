/* GNU FriBidi: the Unicode bidirectional algorithm's embedding levels of a line, for the
   right-to-left runs RendererFonts shapes apart (FontFace.shape). */
#include <fribidi/fribidi.h>

/* A paragraph whose direction its first strong character decides (a macro Swift does not import). */
static const FriBidiParType cfribidi_paragraph_auto = FRIBIDI_PAR_ON;
