// The layers panel: the open document's optional-content layers, each shown or hidden by a
// checkbox; the pages, thumbnails and printed sheets are drawn with that choice.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { drawVisiblePages } from "./pages.js";
import { emptyNote, refreshThumbnails } from "./sidebar.js";
import { state } from "./state.js";

/**
 * Lists the open document's layers, each a checkbox checked when the layer is drawn (at
 * first as the document's default configuration says), with the configuration's name above.
 */
export async function loadLayers() {
  const id = state.documentID;
  const panel = $("layers");
  panel.innerHTML = "";
  let listed;
  try {
    listed = await api.json(api.base(id) + "/layers");
  } catch (error) {
    if (state.documentID === id) panel.append(emptyNote(error.message));
    return;
  }
  if (state.documentID !== id) return;
  if (listed.layers.length === 0) return panel.append(emptyNote(t("layers.none")));
  const configuration = listed.configurations.find((each) => each.isDefault);
  if (configuration && configuration.name) {
    const heading = document.createElement("p");
    heading.className = "configuration";
    heading.textContent = t("layers.configuration", { name: configuration.name });
    panel.append(heading);
  }
  const list = document.createElement("ul");
  for (const layer of listed.layers) {
    const item = document.createElement("li");
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = layer.isVisibleByDefault;
    box.dataset.index = layer.index;
    box.addEventListener("change", () => chooseLayer(layer, box.checked));
    label.append(box, document.createTextNode(" " + (layer.name || t("layers.unnamed", { number: layer.index + 1 }))));
    item.append(label);
    list.append(item);
  }
  panel.append(list);
}

/** Draws `layer` (shown true) or leaves it out, then the pages and thumbnails again. */
function chooseLayer(layer, shown) {
  state.shownLayers.delete(layer.index);
  state.hiddenLayers.delete(layer.index);
  if (shown !== layer.isVisibleByDefault) (shown ? state.shownLayers : state.hiddenLayers).add(layer.index);
  drawVisiblePages();
  refreshThumbnails();
}
