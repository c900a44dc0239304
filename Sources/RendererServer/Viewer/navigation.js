// Moving through the document, and keeping the reading position.

import { api } from "./api.js";
import { $, POINTS_TO_CSS, showStatus } from "./dom.js";
import { pageViews, state } from "./state.js";

/** Scrolls so that `offset` (points, in the page) of page `index` is at the top left. */
export function scrollToPage(index, offset) {
  const view = pageViews[Math.max(0, Math.min(pageViews.length - 1, index || 0))];
  if (!view) return;
  const viewer = $("viewer");
  const top = view.element.offsetTop + (offset ? offset.y * state.scale : 0) - 8;
  viewer.scrollTop = Math.max(0, top);
  if (offset && offset.x) viewer.scrollLeft = Math.max(0, view.element.offsetLeft + offset.x * state.scale - 20);
  updateCurrentPage();
}

/** The page at the top of the view, and how far into it (points) the view is scrolled. */
export function currentAnchor() {
  const viewer = $("viewer");
  const top = viewer.scrollTop + 8;
  let pageIndex = 0;
  for (const view of pageViews) {
    if (view.element.offsetTop <= top) pageIndex = view.index;
    else break;
  }
  const view = pageViews[pageIndex];
  const y = view ? Math.max(0, (top - view.element.offsetTop) / state.scale) : 0;
  return { pageIndex, offset: { x: 0, y } };
}

export function updateCurrentPage() {
  const anchor = currentAnchor();
  const middle = $("viewer").scrollTop + $("viewer").clientHeight / 3;
  let index = anchor.pageIndex;
  for (const view of pageViews) if (view.element.offsetTop <= middle) index = view.index;
  if (index !== state.currentPage || $("page-number").value === "") {
    state.currentPage = index;
    refreshPageLabel();
    for (const thumbnail of document.querySelectorAll("#thumbnails .thumbnail")) {
      const current = Number(thumbnail.dataset.index) === index;
      thumbnail.classList.toggle("current", current);
    }
  }
}

export function refreshPageLabel() {
  const page = state.pages[state.currentPage];
  const input = $("page-number");
  if (document.activeElement !== input) input.value = page ? page.label || String(page.index + 1) : "";
  $("page-count").textContent = "/ " + state.pages.length + (page && page.label && page.label !== String(page.index + 1) ? " (" + (page.index + 1) + ")" : "");
}

export function goToTypedPage() {
  const text = $("page-number").value.trim();
  if (text === "") return;
  const byLabel = state.pages.findIndex((p) => p.label === text);
  const index = byLabel >= 0 ? byLabel : Number(text) - 1;
  if (Number.isInteger(index) && index >= 0 && index < state.pages.length) scrollToPage(index);
  else showStatus("There is no page " + text + ".");
  $("viewer").focus();
}

let saveTimer = null;

export function saveViewingState() {
  if (state.restoring || !state.documentID) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    const anchor = currentAnchor();
    const zoom = typeof state.zoom === "number" ? state.zoom : state.scale / POINTS_TO_CSS;
    api.send(api.base(state.documentID) + "/state", "PUT", { pageIndex: anchor.pageIndex, zoom, scrollOffset: anchor.offset }).catch(() => {});
  }, 400);
}
