// The links over each page.

import { showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { jumpTo } from "./navigation.js";
import { layer, pageJSON, place } from "./pages.js";
import { state } from "./state.js";

export async function loadLinks(view) {
  const links = await pageJSON(view, "links?renderer=" + state.renderer).catch(() => null);
  const target = layer(view, "link-layer");
  if (!links || !target) return;
  for (const link of links) {
    const anchor = document.createElement("a");
    place(anchor, link.area);
    if (link.destination.kind === "page") {
      const destination = link.destination;
      anchor.href = "#";
      anchor.title = t("link.toPage", { page: destination.index + 1 });
      anchor.addEventListener("click", (event) => {
        event.preventDefault();
        jumpTo(destination.index, destination.point);
      });
    } else if (link.destination.kind === "uri") {
      const uri = link.destination.uri;
      anchor.className = "external";
      anchor.title = uri;
      // Never followed by a click on the page: the address is shown, and the reader opens it.
      anchor.addEventListener("click", (event) => {
        event.preventDefault();
        showStatus(t("link.external", { uri }), uri);
      });
    }
    target.append(anchor);
  }
}
