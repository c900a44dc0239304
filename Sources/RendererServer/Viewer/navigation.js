// Moving through the document, its place in the address and the browser's history, and
// keeping the reading position.

import { api } from "./api.js";
import { collaboration } from "./collaboration.js";
import { $, POINTS_TO_CSS, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { drawPage } from "./pages.js";
import { readPage } from "./reading.js";
import { pageViews, state } from "./state.js";

// MARK: The place in the address and in the browser's history

/**
 * The address of a place in the document, as pdf.js writes it after the document's own
 * fragment: `#doc=ID&page=N&zoom=Z`, N from 1, Z a percentage or `page-width`/`page-fit`.
 */
export function placeFragment(anchor) {
  const zoom = typeof state.zoom === "number" ? String(Math.round(state.zoom * 100))
    : { "fit-width": "page-width", "fit-page": "page-fit", auto: "auto" }[state.zoom] || "page-width";
  return collaboration.fragment(state.documentID) + "&page=" + (anchor.pageIndex + 1) + "&zoom=" + zoom;
}

/**
 * The place an address names: its page (an index), named destination, zoom and search term,
 * each if given.
 */
export function placeInAddress(hash) {
  const fields = new URLSearchParams(hash.replace(/^#/, ""));
  const place = {};
  const page = Number(fields.get("page"));
  if (Number.isInteger(page) && page >= 1) place.pageIndex = page - 1;
  const zoom = fields.get("zoom");
  if (zoom === "page-width" || zoom === "page-fit" || zoom === "auto") place.zoom = { "page-width": "fit-width", "page-fit": "fit-page", auto: "auto" }[zoom];
  else if (zoom && Number(zoom.split(",")[0]) > 0) place.zoom = Math.min(8, Math.max(0.1, Number(zoom.split(",")[0]) / 100));
  if (fields.get("search")) place.search = fields.get("search");
  if (fields.get("nameddest")) place.destination = fields.get("nameddest");
  return place;
}

/** Writes the place at the top of the view into the address, without a history entry. */
export function recordPlace() {
  if (!state.documentID) return;
  const anchor = currentAnchor();
  history.replaceState({ pageIndex: anchor.pageIndex, offset: anchor.offset }, "", placeFragment(anchor));
}

/**
 * Goes to a place as a jump: the place left stays in the browser's history, so that Back
 * returns to it (following a link, an outline item, a bookmark, a typed page number).
 */
export function jumpTo(index, offset) {
  recordPlace();
  scrollToPage(index, offset);
  const anchor = currentAnchor();
  history.pushState({ pageIndex: anchor.pageIndex, offset: anchor.offset }, "", placeFragment(anchor));
}

/**
 * Goes to the named destination `name` of the open document, as the address's
 * `#nameddest=` asks; says so when the document has none by that name.
 */
export async function goToNamedDestination(name) {
  const id = state.documentID;
  try {
    const destination = await api.json(api.base(id) + "/destinations/" + encodeURIComponent(name));
    if (state.documentID !== id || destination.kind !== "page") return;
    scrollToPage(destination.index, destination.point);
    recordPlace();
  } catch (error) {
    if (state.documentID === id) showStatus(error.status === 404 ? t("destination.missing", { name }) : error.message);
  }
}

// MARK: Scrolling

/**
 * Whether pages are shown in spreads now: spreads apply to the vertical and page-by-page
 * layouts (sideways and in wrapped rows, as in pdf.js, pages are shown one by one).
 */
export function spreadsShown() {
  return state.spreads !== "none" && (state.scrollMode === "vertical" || state.scrollMode === "page");
}

/**
 * The first and last index of the pages shown beside page `index`: odd spreads pair pages
 * 1-2, 3-4, ...; even spreads show page 1 alone, then 2-3, 4-5, ...
 */
export function spreadOf(index) {
  if (!spreadsShown()) return [index, index];
  const first = state.spreads === "odd" ? index - (index % 2) : Math.max(0, index - ((index + 1) % 2));
  const last = state.spreads === "even" && index === 0 ? 0 : Math.min(first + 1, pageViews.length - 1);
  return [first, last];
}

/** Goes to the next page, or spread, (`direction` 1) or the one before (-1). */
export function stepPage(direction) {
  const [first, last] = spreadOf(state.currentPage);
  scrollToPage(direction > 0 ? last + 1 : first - 1);
}

/** The views laid out now: in page-by-page scrolling, only the page or spread shown. */
function laidOutViews() {
  if (state.scrollMode !== "page") return pageViews;
  return [...document.querySelectorAll("#pages .page.shown")].map((element) => pageViews[Number(element.dataset.index)]);
}

/** Shows, in page-by-page scrolling, the page or spread of page `index` and no other. */
function showOnly(index) {
  const [first, last] = spreadOf(index);
  for (const element of document.querySelectorAll("#pages .page.shown")) {
    const shown = Number(element.dataset.index);
    if (shown < first || shown > last) element.classList.remove("shown");
  }
  for (let page = first; page <= last; page += 1) pageViews[page].element.classList.add("shown");
}

/** Scrolls so that `offset` (points, in the page) of page `index` is at the top left. */
export function scrollToPage(index, offset) {
  // In reading mode, the page's text is read from the page on.
  if (state.reading) return readPage(index);
  const view = pageViews[Math.max(0, Math.min(pageViews.length - 1, index || 0))];
  if (!view) return;
  state.wantedPage = view.index;
  if (state.scrollMode === "page") {
    showOnly(view.index);
    // Turning to a page that starts at the top scrolls nothing: the place is kept here.
    saveViewingState();
  }
  const viewer = $("viewer");
  if (state.scrollMode === "horizontal") {
    viewer.scrollLeft = Math.max(0, view.element.offsetLeft - 8);
    updateCurrentPage();
    return;
  }
  // A place within a page is kept in an unturned view only.
  const within = state.rotation === 0 ? offset : null;
  const top = view.element.offsetTop + (within ? within.y * state.scale : 0) - 8;
  viewer.scrollTop = Math.max(0, top);
  if (within && within.x) viewer.scrollLeft = Math.max(0, view.element.offsetLeft + within.x * state.scale - 20);
  updateCurrentPage();
  // The page gone to is asked for now, not a frame later when its visibility is observed.
  if (!state.compare && state.pages.length > 0) drawPage(view);
}

/**
 * The page at the top of the view (at its left, when pages scroll sideways), and how far
 * into it (points) the view is scrolled.
 */
export function currentAnchor() {
  const viewer = $("viewer");
  // The pages are not laid out while reading mode shows their text: the page read holds.
  if (viewer.hidden) return { pageIndex: state.currentPage, offset: { x: 0, y: 0 } };
  if (state.scrollMode === "horizontal") {
    const last = lastStartingBefore(viewer.scrollLeft + 8, (element) => element.offsetLeft, true);
    return { pageIndex: Math.max(0, last), offset: { x: 0, y: 0 } };
  }
  const top = viewer.scrollTop + 8;
  let pageIndex;
  if (singleColumn()) {
    pageIndex = Math.max(0, lastStartingBefore(top, (element) => element.offsetTop, true));
  } else {
    // The first page of the last row that starts above the top (a row holds several pages
    // when wrapped or in spreads, and its pages' tops differ when their heights do).
    const views = laidOutViews();
    pageIndex = views.length ? views[0].index : 0;
    let rowTop = -Infinity;
    for (const view of views) {
      const viewTop = view.element.offsetTop;
      if (viewTop > top) break;
      if (viewTop > rowTop) [pageIndex, rowTop] = [view.index, viewTop];
    }
  }
  const view = pageViews[pageIndex];
  const y = view ? Math.max(0, (top - view.element.offsetTop) / state.scale) : 0;
  return { pageIndex, offset: { x: 0, y } };
}

/** Whether the pages stand one below the other, one to a row, all of them laid out. */
function singleColumn() {
  return state.scrollMode === "vertical" && !spreadsShown();
}

/**
 * The first index of `views` from which `after(view)` holds, or `views.length`: found by
 * halving, since pages laid out one after the other start further on with each index (a
 * document of thousands of pages is asked on every scroll, and a page's position costs a
 * layout). `after` must hold for every view after one it holds for.
 */
function firstWhere(views, after) {
  let low = 0;
  let high = views.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (after(views[middle])) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The index of the last page that starts at or before `position` (its `start`: offsetTop
 * down a column, offsetLeft along a row), or -1. With `rowFirst`, the first of the pages
 * that start where that one does (pages not laid out all start at 0).
 */
function lastStartingBefore(position, start, rowFirst = false) {
  const last = firstWhere(pageViews, (view) => start(view.element) > position) - 1;
  if (!rowFirst || last < 0) return last;
  const rowStart = start(pageViews[last].element);
  return firstWhere(pageViews, (view) => start(view.element) >= rowStart);
}

export function updateCurrentPage() {
  const viewer = $("viewer");
  if (viewer.hidden) return;
  const anchor = currentAnchor();
  let index = anchor.pageIndex;
  // Sideways, the page read is the one at the left edge (several may be in view). In rows
  // (wrapped, spreads), it is the one gone to in the row at the top, else the one read
  // before, else the row's first.
  if ((state.scrollMode === "wrapped" || spreadsShown()) && pageViews[index]) {
    const rowTop = pageViews[index].element.offsetTop;
    const row = laidOutViews().filter((view) => view.element.offsetTop === rowTop).map((view) => view.index);
    index = [state.wantedPage, state.currentPage].find((page) => row.includes(page)) ?? row[0];
  } else if (singleColumn()) {
    // The last page that starts above a third of the view's height.
    const middle = viewer.scrollTop + viewer.clientHeight / 3;
    const last = lastStartingBefore(middle, (element) => element.offsetTop);
    if (last >= 0) index = last;
  }
  if (index !== state.currentPage || $("page-number").value === "") {
    state.currentPage = index;
    refreshPageLabel();
    for (const thumbnail of document.querySelectorAll("#thumbnails .thumbnail.current")) {
      thumbnail.classList.remove("current");
      thumbnail.removeAttribute("aria-current");
    }
    const thumbnail = document.querySelector('#thumbnails .thumbnail[data-index="' + index + '"]');
    if (thumbnail) {
      thumbnail.classList.add("current");
      thumbnail.setAttribute("aria-current", "page");
      // The thumbnails follow the page read.
      if (!$("thumbnails").hidden) thumbnail.scrollIntoView({ block: "nearest" });
    }
  }
}

export function refreshPageLabel() {
  const page = state.pages[state.currentPage];
  const input = $("page-number");
  if (document.activeElement !== input) input.value = page ? page.label || String(page.index + 1) : "";
  const numbered = page && page.label && page.label !== String(page.index + 1);
  $("page-count").textContent = numbered ? t("page.countWithNumber", { count: state.pages.length, page: page.index + 1 }) : t("page.count", { count: state.pages.length });
}

export function goToTypedPage() {
  const text = $("page-number").value.trim();
  if (text === "") return;
  const byLabel = state.pages.findIndex((p) => p.label === text);
  const index = byLabel >= 0 ? byLabel : Number(text) - 1;
  if (Number.isInteger(index) && index >= 0 && index < state.pages.length) jumpTo(index);
  else showStatus(t("page.missing", { page: text }));
  $("viewer").focus();
}

let saveTimer = null;

export function saveViewingState() {
  if (state.restoring || !state.documentID) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    recordPlace();
    const anchor = currentAnchor();
    const zoom = typeof state.zoom === "number" ? state.zoom : state.scale / POINTS_TO_CSS;
    api.send(api.base(state.documentID) + "/state", "PUT", { pageIndex: anchor.pageIndex, zoom, scrollOffset: anchor.offset }).catch(() => {});
  }, 400);
}
