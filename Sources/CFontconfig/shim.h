/* fontconfig: which installed font covers a text's characters (RendererFonts' FontFace.covering). */
#include <fontconfig/fontconfig.h>
