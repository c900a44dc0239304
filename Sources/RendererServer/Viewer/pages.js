// The pages: their views, zoom, and drawing each page with its optional content.

import { drawAnnotations, wirePagePointer } from "./annotations.js";
import { wireArranging } from "./arrange.js";
import { api, APIError } from "./api.js";
import { drawComparison } from "./compare.js";
import { $, POINTS_TO_CSS } from "./dom.js";
import { drawHits } from "./find.js";
import { drawForm } from "./forms.js";
import { t } from "./i18n.js";
import { loadLinks } from "./links.js";
import { currentAnchor, recordPlace, saveViewingState, scrollToPage, spreadsShown, updateCurrentPage } from "./navigation.js";
import { addOptionalContentParams, pageViews, state } from "./state.js";
import { loadStructure } from "./structure.js";
import { loadTextLayer } from "./text-layer.js";

let visibilityObserver = null;

/**
 * How many drawn pages out of view are kept drawn, as pdf.js keeps about ten: pages further
 * back are emptied (their image, text and layers), so that the tab's memory and its DOM stay
 * bounded however far one reads. A page is drawn again when it comes back into view.
 */
const DRAWN_PAGES_KEPT_OUT_OF_VIEW = 10;

/** How many pages after those in view are drawn ahead, once those in view are in. */
const PAGES_DRAWN_AHEAD = 2;

/** The drawn pages out of view, the one that left longest ago first. */
const drawnOutOfView = [];

/** What waits for the pages in view to have their images (`afterPagesInView`). */
let waitingForPages = [];

/**
 * Runs `action` once every page in view has its image in (at once when they have, and when
 * comparing), so that what it asks the server for (a thumbnail) does not compete with them.
 */
export function afterPagesInView(action) {
  if (pagesInViewShown()) action();
  else waitingForPages.push(action);
}

/**
 * Whether every page in view has its image in (or failed), counting a page being drawn that
 * is on the screen before its visibility is observed (one gone to is drawn at once, and the
 * thumbnails' observer may answer first in that frame).
 */
function pagesInViewShown() {
  return state.compare || pageViews.every((view) => view.imageShown || !(view.visible || (view.drawn && onScreen(view))));
}

function runWaitingForPages() {
  if (waitingForPages.length === 0 || !pagesInViewShown()) return;
  const actions = waitingForPages;
  waitingForPages = [];
  for (const action of actions) action();
}

export function buildPages() {
  const container = $("pages");
  container.innerHTML = "";
  // A list of pages while it holds pages (a password prompt or a failure takes its place).
  container.setAttribute("role", "list");
  pageViews.length = 0;
  drawnOutOfView.length = 0;
  waitingForPages = [];
  if (visibilityObserver) visibilityObserver.disconnect();
  visibilityObserver = new IntersectionObserver(onVisibilityChange, { root: $("viewer"), rootMargin: "400px" });
  for (const page of state.pages) {
    const element = document.createElement("div");
    element.className = "page";
    element.dataset.index = page.index;
    element.setAttribute("role", "listitem");
    element.setAttribute("aria-label", t("page.label", { page: page.label || page.index + 1 }));
    container.append(element);
    const view = { index: page.index, element, visible: false, drawn: null };
    pageViews.push(view);
    visibilityObserver.observe(element);
    wirePagePointer(view);
    wireArranging(view);
  }
}

function onVisibilityChange(entries) {
  const entered = [];
  for (const entry of entries) {
    const view = pageViews[Number(entry.target.dataset.index)];
    // A page of a document closed meanwhile.
    if (!view || view.element !== entry.target) continue;
    view.visible = entry.isIntersecting;
    const kept = drawnOutOfView.indexOf(view);
    if (kept >= 0) drawnOutOfView.splice(kept, 1);
    if (view.visible) entered.push(view);
    else {
      stopDrawing(view);
      if (view.drawn) drawnOutOfView.push(view);
    }
  }
  // Once every page's visibility is known: those on the screen first (drawAhead draws the
  // others once their images are in).
  for (const view of entered) if (onScreen(view) || pagesOnScreenShown()) drawPage(view);
  stopDrawingBehind();
  keepFewOutOfView();
  drawAhead();
  runWaitingForPages();
}

/**
 * Stops the pages drawn ahead of pages that have since left the view while their images are
 * still coming: after a jump they are ahead of nothing the reader reads.
 */
function stopDrawingBehind() {
  const shown = pageViews.filter((view) => view.visible);
  const last = shown.length > 0 ? shown[shown.length - 1].index : -1;
  for (const view of drawnOutOfView) {
    if (view.index > last && view.index <= last + PAGES_DRAWN_AHEAD) continue;
    stopDrawing(view);
  }
}

/**
 * Whether `view`'s page is on the screen, not only in the margin around the view that the
 * pages are observed with: those on the screen are drawn first, so that after a jump the
 * page jumped to does not share the server and the browser with the one above it.
 */
function onScreen(view) {
  const box = view.element.getBoundingClientRect();
  const viewer = $("viewer").getBoundingClientRect();
  return box.bottom > viewer.top && box.top < viewer.bottom && box.right > viewer.left && box.left < viewer.right;
}

/** Whether every page on the screen has its image in (or failed); always when comparing. */
function pagesOnScreenShown() {
  return state.compare || pageViews.every((view) => !view.visible || view.imageShown || !onScreen(view));
}

function keepFewOutOfView() {
  while (drawnOutOfView.length > DRAWN_PAGES_KEPT_OUT_OF_VIEW) release(drawnOutOfView.shift());
}

/**
 * Once the pages on the screen have their images, draws those in the margin around it, and
 * once these are in too, the `PAGES_DRAWN_AHEAD` pages after those in view, so that
 * the next page is there when the reader turns to it, and the one after is under way while
 * they read it (the server draws two pages at once on two cores; with one page ahead, a
 * reader turning at once waited for each page's drawing). A page drawn ahead is out of view,
 * and its own drawing asks for nothing further.
 */
function drawAhead() {
  if (state.compare) return;
  const shown = pageViews.filter((view) => view.visible);
  if (shown.length === 0 || !pagesOnScreenShown()) return;
  for (const view of shown) if (!view.drawn) drawPage(view);
  if (shown.some((view) => !view.imageShown)) return;
  for (let index = shown[shown.length - 1].index + 1; index <= shown[shown.length - 1].index + PAGES_DRAWN_AHEAD; index += 1) {
    const next = pageViews[index];
    if (!next || next.visible || next.drawn) continue;
    drawPage(next);
    drawnOutOfView.push(next);
  }
  keepFewOutOfView();
}

/**
 * Empties a page out of view, unless what has the keyboard's focus is on it (a form field
 * or an editor being typed in): what it showed is drawn again from the state on its return.
 */
function release(view) {
  if (view.visible || view.element.contains(document.activeElement)) return;
  if (view.generation) view.generation.controller.abort();
  view.generation = null;
  view.drawn = null;
  const image = view.element.querySelector("img.render");
  if (image) image.removeAttribute("src");
  view.element.replaceChildren();
}

/**
 * Stops what a page that left the view still waits for (its image, its text and links), so
 * that scrolling fast asks the server only for the pages the reader stops at; the page is
 * drawn again when it comes back.
 */
function stopDrawing(view) {
  const image = view.element.querySelector("canvas.render");
  const waiting = (image && !image.dataset.state) || (view.generation && !view.generation.settled);
  if (!waiting) return;
  if (image && !image.dataset.state) image.dataset.state = "stopped";
  if (view.generation) view.generation.controller.abort();
  view.drawn = null;
}

/** A page's size as the view shows it: a quarter turn swaps its sides (not when comparing). */
function shownSize(size) {
  return !state.compare && state.rotation % 180 !== 0 ? { width: size.height, height: size.width } : size;
}

/**
 * The point of page space under the client point (`clientX`, `clientY`) on `view`'s page,
 * whatever the view's rotation.
 */
export function pagePoint(view, clientX, clientY) {
  const box = view.element.getBoundingClientRect();
  const size = state.pages[view.index].size;
  const width = size.width * state.scale;
  const height = size.height * state.scale;
  const x = clientX - box.left;
  const y = clientY - box.top;
  const [px, py] = { 0: [x, y], 90: [y, height - x], 180: [width - x, height - y], 270: [width - y, x] }[state.rotation];
  return { x: px / state.scale, y: py / state.scale };
}

/**
 * Lays the pages out in a column (`vertical`), a row (`horizontal`), rows that wrap
 * (`wrapped`) or one page, or spread, at a time (`page`), keeping the page read; the
 * choice is kept in this browser.
 */
export function setScrollMode(mode) {
  relayOut(() => { state.scrollMode = mode; }, "scroll-mode", mode);
}

/**
 * Shows pages side by side in spreads: `none`, `odd` (1-2, 3-4, ...) or `even` (1, 2-3,
 * ...), keeping the page read; the choice is kept in this browser.
 */
export function setSpreads(spreads) {
  relayOut(() => { state.spreads = spreads; }, "spreads", spreads);
}

/** Makes a change of layout, lays the pages out again at the page read, and keeps the choice. */
function relayOut(change, key, value) {
  const anchor = currentAnchor();
  change();
  applyLayout();
  if (typeof state.zoom === "string") applyZoom();
  scrollToPage(anchor.pageIndex);
  try { localStorage.setItem(key, value); } catch (_) { /* storage refused: not remembered */ }
}

/** Sets the pages' layout classes and the layout controls from the state. */
export function applyLayout() {
  const container = $("pages");
  container.classList.toggle("horizontal", state.scrollMode === "horizontal");
  container.classList.toggle("wrapped", state.scrollMode === "wrapped");
  container.classList.toggle("paged", state.scrollMode === "page");
  container.classList.toggle("spreads", spreadsShown());
  container.classList.toggle("spreads-even", spreadsShown() && state.spreads === "even");
  $("scroll-mode").value = state.scrollMode;
  $("spreads").value = state.spreads;
  $("spreads").disabled = state.scrollMode === "horizontal" || state.scrollMode === "wrapped";
}

/** The layout chosen in this browser before, else vertical and without spreads. */
export function restoreLayout() {
  try {
    const mode = localStorage.getItem("scroll-mode");
    const spreads = localStorage.getItem("spreads");
    if (["vertical", "horizontal", "wrapped", "page"].includes(mode)) state.scrollMode = mode;
    if (["none", "odd", "even"].includes(spreads)) state.spreads = spreads;
  } catch (_) { /* as never chosen */ }
  applyLayout();
}

/** Turns the view a quarter clockwise (`step` 90) or back (-90), keeping the page read. */
export function rotateView(step) {
  const anchor = currentAnchor();
  state.rotation = (state.rotation + step + 360) % 360;
  applyZoom();
  scrollToPage(anchor.pageIndex);
}

/** The scale of a zoom setting, in CSS pixels per point. */
function scaleFor(zoom) {
  const viewer = $("viewer");
  const size = shownSize((state.pages[state.currentPage] || state.pages[0] || { size: { width: 612, height: 792 } }).size);
  // Spreads fit two pages across.
  const across = spreadsShown() ? 2 : 1;
  const width = size.width * across + 12 * (across - 1);
  if (zoom === "fit-width") return Math.max(0.1, (viewer.clientWidth - 40) / width);
  // As pdf.js's automatic zoom: a portrait page at its width, at most 125%; a landscape one whole.
  if (zoom === "auto") {
    return size.width > size.height ? scaleFor("fit-page") : Math.min(scaleFor("fit-width"), 1.25 * POINTS_TO_CSS);
  }
  if (zoom === "fit-page") return Math.max(0.1, Math.min((viewer.clientWidth - 40) / width, (viewer.clientHeight - 24) / size.height));
  return Number(zoom) * POINTS_TO_CSS;
}

export function applyZoom() {
  state.scale = scaleFor(state.zoom);
  const select = $("zoom");
  const value = String(state.zoom);
  if (![...select.options].some((o) => o.value === value)) select.add(new Option(Math.round(Number(state.zoom) * 100) + "%", value));
  select.value = value;
  for (const view of pageViews) {
    const size = shownSize(state.pages[view.index].size);
    view.element.style.width = Math.round(size.width * state.scale) + "px";
    view.element.style.height = Math.round(size.height * state.scale) + "px";
  }
  drawVisiblePages();
}

/** Draws the pages in view again where what they show changed (drawPage compares). */
export function drawVisiblePages() {
  for (const view of pageViews) if (view.visible) drawPage(view);
}

/**
 * Keeps, in this browser, whether the reader chose a fixed zoom or a fitting one for the open
 * document, so that a fitting zoom stays fitting after a reload (the server keeps the number).
 */
function rememberZoomMode() {
  try {
    localStorage.setItem("zoom-mode:" + state.documentID, typeof state.zoom === "number" ? "fixed" : state.zoom);
  } catch (_) { /* storage refused: the zoom is then not remembered */ }
}

/**
 * The zoom to open document `id` at: the address's, else the mode chosen for it in this
 * browser (a fixed zoom being `saved`, the server's), else fit width for a document new here.
 */
export function openingZoom(id, place, saved) {
  if (place.zoom) return place.zoom;
  let mode = null;
  try { mode = localStorage.getItem("zoom-mode:" + id); } catch (_) { /* as never chosen */ }
  if (mode === "fixed") return saved > 0 ? saved : "fit-width";
  return ["auto", "fit-width", "fit-page"].includes(mode) ? mode : "fit-width";
}

export function setZoom(zoom) {
  const anchor = currentAnchor();
  state.zoom = zoom;
  rememberZoomMode();
  applyZoom();
  scrollToPage(anchor.pageIndex, anchor.offset);
  // The address says the new zoom at once (a reload reads it from there).
  recordPlace();
  saveViewingState();
}

/** The zooms the viewer offers, from the smallest to the largest. */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6, 8];

/**
 * Zooms to `zoom` (a number, within the steps' range) keeping the point of the page at
 * (`clientX`, `clientY`) on the screen where it is: what a pinch or a double tap zooms around.
 */
export function setZoomAround(zoom, clientX, clientY) {
  const view = pageViews.find((each) => {
    const box = each.element.getBoundingClientRect();
    return clientX >= box.left && clientX <= box.right && clientY >= box.top && clientY <= box.bottom;
  });
  if (!view) return setZoom(zoom);
  const before = view.element.getBoundingClientRect();
  const point = { x: (clientX - before.left) / state.scale, y: (clientY - before.top) / state.scale };
  state.zoom = Math.max(ZOOM_STEPS[0], Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], zoom));
  rememberZoomMode();
  applyZoom();
  const after = view.element.getBoundingClientRect();
  const viewer = $("viewer");
  viewer.scrollLeft += after.left + point.x * state.scale - clientX;
  viewer.scrollTop += after.top + point.y * state.scale - clientY;
  updateCurrentPage();
  recordPlace();
  saveViewingState();
}

export function stepZoom(direction) {
  const current = state.scale / POINTS_TO_CSS;
  const next = direction > 0 ? ZOOM_STEPS.find((s) => s > current + 0.01) : [...ZOOM_STEPS].reverse().find((s) => s < current - 0.01);
  if (next) setZoom(next);
}

/**
 * The address of a page image at `dpi`, as the reader has the document drawn (dark mode, the
 * optional content chosen, the document's revision); with `clip` (a rectangle of page points),
 * of that part of the page alone.
 */
export function imageURL(index, renderer, dpi, clip) {
  const params = new URLSearchParams({ dpi: dpi.toFixed(1), renderer, v: state.revision });
  if (clip) params.set("clip", [clip.origin.x, clip.origin.y, clip.size.width, clip.size.height].map((n) => n.toFixed(2)).join(","));
  if (state.dark) params.set("dark", "true");
  addOptionalContentParams(params);
  return api.base(state.documentID) + "/pages/" + index + "/image?" + params;
}

/**
 * The resolution a page of `size` (in points) is drawn at when `wanted` would show it sharp:
 * within the server's limits (its resolution for a screen, and the most pixels one image
 * may have), which the viewer holds none of its own.
 */
export function drawingDPI(size, wanted) {
  const limits = state.limits;
  const byPixels = 72 * Math.sqrt(limits.maximumPixelCount / Math.max(1, size.width * size.height));
  return Math.max(1, Math.min(wanted, limits.screenMaximumDPI, byPixels));
}

function currentDPI(view) {
  return drawingDPI(state.pages[view.index].size, state.scale * 72 * (window.devicePixelRatio || 1));
}

/**
 * The JSON at `path` under the page's address in the API, for this drawing of the page:
 * null when the page was drawn again while it was on the way (even with the same key, as
 * after an edit), so that what an earlier drawing asked for fills none of the new layers.
 * Throws the API's error.
 */
export function pageJSON(view, path) {
  return drawingJSON(view, api.base(state.documentID) + "/pages/" + view.index + "/" + path);
}

/**
 * The JSON answer at `url`, asked for the page's current drawing: counted among what the
 * drawing waits for, stopped with it, and null when the page was drawn again meanwhile.
 */
export async function drawingJSON(view, url) {
  const generation = view.generation;
  generation.pending += 1;
  try {
    const value = await api.json(url, { signal: generation.controller.signal });
    return view.generation === generation ? value : null;
  } finally {
    generation.pending -= 1;
    generation.settled = generation.pending === 0;
  }
}

/** Tells the document's opening that a first page is drawn (or could not be). */
function firstPaintDone() {
  if (state.onFirstPaint) {
    state.onFirstPaint();
    state.onFirstPaint = null;
  }
}

export function drawPage(view) {
  const size = state.pages[view.index].size;
  const key = [state.scale, size.width, size.height, state.rotation, state.renderer, state.compare, state.revision, state.dark,
    addOptionalContentParams(new URLSearchParams())].join("|");
  if (view.drawn === key) return;
  view.drawn = key;
  view.imageShown = false;
  // This drawing's identity, which `pageJSON` checks, and what stops its requests.
  if (view.generation) view.generation.controller.abort();
  const generation = { controller: new AbortController(), pending: 0, settled: false };
  // Settled once the image is drawn, has failed or was given up (`drawImage`).
  generation.imageIn = new Promise((resolve) => { generation.imageSettled = resolve; });
  view.generation = generation;
  emptyImage(view);
  view.element.innerHTML = "";
  view.element.classList.remove("compared");
  if (state.compare) {
    firstPaintDone();
    return drawComparison(view);
  }
  // The page as drawn, in a box of its own size turned to the view's rotation.
  const content = document.createElement("div");
  content.className = "page-content";
  const width = size.width * state.scale;
  const height = size.height * state.scale;
  content.style.width = width + "px";
  content.style.height = height + "px";
  content.style.transform = {
    0: "", 90: "translate(" + height + "px, 0) rotate(90deg)",
    180: "translate(" + width + "px, " + height + "px) rotate(180deg)", 270: "translate(0, " + width + "px) rotate(270deg)",
  }[state.rotation];
  view.element.append(content);
  const image = document.createElement("canvas");
  image.className = "render";
  image.setAttribute("role", "img");
  image.setAttribute("aria-label", t("page.label", { page: view.index + 1 }));
  image.dataset.renderer = state.renderer;
  image.dataset.src = imageURL(view.index, state.renderer, currentDPI(view));
  content.append(image);
  drawImage(view, image);
  for (const name of ["text-layer", "hit-layer", "link-layer"]) {
    const layer = document.createElement("div");
    layer.className = "layer " + name;
    content.append(layer);
  }
  // The page's text and links: for a page on the screen, asked for once its image is in (or
  // failed), since the reader waits for the image and the server's cores would share out
  // their time between them; for a page drawn ahead, beside its image, so that both are in
  // when the reader turns to it. The structure for screen readers follows the words.
  const loadWords = () => {
    if (view.generation !== generation || generation.controller.signal.aborted) return;
    loadTextLayer(view).then(() => loadStructure(view));
    loadLinks(view);
  };
  if (onScreen(view)) generation.imageIn.then(loadWords);
  else loadWords();
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.classList.add("annotation-layer");
  content.append(svg);
  const form = document.createElement("div");
  form.className = "layer form-layer";
  content.append(form);
  drawHits(view);
  drawAnnotations(view);
  drawForm(view);
}

/**
 * Draws the page image at `canvas.dataset.src` into `canvas` and marks it `data-state`
 * `drawn` (or `failed`, with the server's reason shown on the page; `stopped` when the page
 * left the view first). A canvas, not an image
 * element: the browser keeps every image element's decoded pixels in a cache of its own long
 * after the page is emptied, while a canvas's pixels go with it (`emptyImage`), so the
 * tab's memory stays that of the pages kept drawn.
 */
async function drawImage(view, canvas) {
  const generation = view.generation;
  try {
    const response = await api.request(canvas.dataset.src, { signal: generation.controller.signal });
    const bitmap = await createImageBitmap(await response.blob());
    if (view.generation !== generation) return bitmap.close();
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext("bitmaprenderer").transferFromImageBitmap(bitmap);
    canvas.dataset.state = "drawn";
  } catch (error) {
    // A drawing stopped because the page left the view, or was drawn again, is no failure.
    if (error.name === "AbortError" || view.generation !== generation) return;
    canvas.dataset.state = "failed";
    const failure = document.createElement("div");
    failure.className = "error";
    failure.textContent = error instanceof APIError ? error.message : t("page.failed");
    view.element.append(failure);
  } finally {
    generation.imageSettled();
  }
  // Once the image is in (or failed), the next pages are drawn ahead.
  firstPaintDone();
  if (view.generation !== generation) return;
  view.imageShown = true;
  drawAhead();
  runWaitingForPages();
}

/** Gives back the pixels of a page's image, if it has one. */
function emptyImage(view) {
  const canvas = view.element.querySelector("canvas.render");
  if (!canvas) return;
  canvas.width = 0;
  canvas.height = 0;
  delete canvas.dataset.state;
}

export function layer(view, name) {
  return view.element.querySelector("." + name);
}

export function place(element, rect) {
  element.style.left = rect.origin.x * state.scale + "px";
  element.style.top = rect.origin.y * state.scale + "px";
  element.style.width = rect.size.width * state.scale + "px";
  element.style.height = rect.size.height * state.scale + "px";
}
