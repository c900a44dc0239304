// The layers panel: the open document's optional-content groups (what readers know as
// layers), each shown or hidden by a checkbox; the pages, thumbnails and printed sheets are
// drawn with that choice.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { drawVisiblePages } from "./pages.js";
import { emptyNote, refreshThumbnails } from "./sidebar.js";
import { state } from "./state.js";

/**
 * Lists the open document's optional-content groups, each a checkbox checked when the group
 * is drawn (at first as the document's default configuration says), with the configuration's
 * name above.
 */
export async function loadOptionalContent() {
  const id = state.documentID;
  const panel = $("layers");
  panel.innerHTML = "";
  let listed;
  try {
    listed = await api.json(api.base(id) + "/optional-content");
  } catch (error) {
    if (state.documentID === id) panel.append(emptyNote(error.message));
    return;
  }
  if (state.documentID !== id) return;
  if (listed.groups.length === 0) return panel.append(emptyNote(t("layers.none")));
  const configuration = listed.configurations.find((each) => each.isDefault);
  if (configuration && configuration.name) {
    const heading = document.createElement("p");
    heading.className = "configuration";
    heading.textContent = t("layers.configuration", { name: configuration.name });
    panel.append(heading);
  }
  const list = document.createElement("ul");
  for (const group of listed.groups) {
    const item = document.createElement("li");
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = group.isVisibleByDefault;
    box.dataset.index = group.index;
    box.addEventListener("change", () => chooseGroup(group, box.checked));
    label.append(box, document.createTextNode(" " + (group.name || t("layers.unnamed", { number: group.index + 1 }))));
    item.append(label);
    list.append(item);
  }
  panel.append(list);
}

/** Draws `group` (shown true) or leaves it out, then the pages and thumbnails again. */
function chooseGroup(group, shown) {
  state.shownGroups.delete(group.index);
  state.hiddenGroups.delete(group.index);
  if (shown !== group.isVisibleByDefault) (shown ? state.shownGroups : state.hiddenGroups).add(group.index);
  drawVisiblePages();
  refreshThumbnails();
}
