// The project's browser viewer: it shows the documents of `hostapp serve` through the
// server's JSON API. Pages are images the chosen engine draws; over each page lie a
// transparent text layer (for selecting and copying), find hits, links and the
// annotations' hit areas. Geometry from the API is in points, origin at the page's top-left
// as displayed, so a point maps to a CSS pixel by multiplying with the view's scale.
"use strict";

const POINTS_TO_CSS = 96 / 72;
const $ = (id) => document.getElementById(id);

/** A JSON API error as an exception whose message is the server's. */
class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const api = {
  base(id) {
    return "/api/documents/" + encodeURIComponent(id);
  },
  async request(path, options = {}) {
    const response = await fetch(path, { credentials: "same-origin", ...options });
    if (!response.ok) {
      let code = "http-" + response.status;
      let message = response.statusText;
      try {
        const body = await response.json();
        code = body.error.code;
        message = body.error.message;
      } catch (_) { /* not JSON */ }
      throw new APIError(response.status, code, message);
    }
    return response;
  },
  async json(path, options) {
    const response = await this.request(path, options);
    return response.status === 204 ? null : response.json();
  },
  send(path, method, body) {
    return this.json(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  },
};

/** What the viewer shows now. */
const state = {
  documentID: null,
  details: null,
  pages: [],            // PageInfo per page: size in points, label
  zoom: "fit-width",    // a number, "fit-width" or "fit-page"
  scale: 1,             // CSS pixels per point
  engine: null,
  compare: false,
  tool: "select",
  revision: 0,          // bumped after each edit, so page images are asked for again
  annotations: [],
  selectedAnnotation: null,
  hits: [],
  currentHit: -1,
  findController: null,
  currentPage: 0,
  restoring: true,
};

const pageViews = [];   // per page: { element, image, loaded, textLoaded, ... }
let visibilityObserver = null;
let thumbnailObserver = null;

// MARK: Starting

window.addEventListener("DOMContentLoaded", start);

async function start() {
  // The token came in the address once; the server set a cookie, so drop it from view.
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname + location.hash);
  collaboration.setUp();
  wireToolbar();
  wireKeyboard();
  wireSelectionCopy();
  try {
    const documents = await api.json("/api/documents");
    const select = $("document");
    for (const entry of documents) select.add(new Option(entry.id, entry.id));
    if (documents.length === 0) return showStatus("This server has no documents.");
    const wanted = new URLSearchParams(location.hash.slice(1)).get("doc");
    const id = documents.some((d) => d.id === wanted) ? wanted : documents[0].id;
    select.value = id;
    await openDocument(id);
  } catch (error) {
    showStatus(error.message);
  }
}

async function openDocument(id) {
  state.documentID = id;
  state.restoring = true;
  history.replaceState(null, "", collaboration.fragment(id));
  state.details = await api.json(api.base(id));
  document.title = (state.details.info.title || id) + " - PDF viewer";
  const engines = $("engine");
  engines.innerHTML = "";
  for (const renderer of state.details.renderers) engines.add(new Option(engineName(renderer), renderer));
  state.engine = state.details.renderer;
  engines.value = state.engine;
  $("compare").disabled = state.details.renderers.length < 2;
  // A read-only server (or one whose engines run isolated) takes no annotation edits; in a
  // collaboration, the reader's token says whether they may annotate.
  const editable = collaboration.active ? collaboration.canAnnotate() : state.details.editable;
  for (const button of document.querySelectorAll("#tools [data-tool]:not([data-tool=select])")) {
    button.disabled = !editable;
    button.title = editable ? button.title : (collaboration.active ? "Your token lets you read this layer only" : "This server is read-only");
  }
  if (collaboration.active) collaboration.listen(id, onLayerChange);
  const first = state.details.firstPage;
  const count = state.details.info.pageCount;
  // Lay the pages out at the first page's size at once; the real sizes follow.
  state.pages = Array.from({ length: count }, (_, index) => ({ index, size: first ? first.size : { width: 612, height: 792 }, label: String(index + 1) }));
  $("page-count").textContent = "/ " + count;
  const viewing = await api.json(api.base(id) + "/state").catch(() => null);
  if (viewing && viewing.zoom > 0) state.zoom = viewing.zoom;
  buildPages();
  applyZoom();
  if (viewing) scrollToPage(viewing.pageIndex, viewing.scrollOffset);
  state.restoring = false;
  api.json(api.base(id) + "/pages").then((pages) => {
    const anchor = currentAnchor();
    state.pages = pages;
    applyZoom();
    scrollToPage(anchor.pageIndex, anchor.offset);
    refreshPageLabel();
  }).catch((error) => showStatus(error.message));
  loadOutline();
  loadBookmarks();
  loadAnnotations();
}

function engineName(id) {
  return { mupdf: "MuPDF", poppler: "Poppler" }[id] || id;
}

// MARK: Pages

function buildPages() {
  const container = $("pages");
  container.innerHTML = "";
  pageViews.length = 0;
  if (visibilityObserver) visibilityObserver.disconnect();
  visibilityObserver = new IntersectionObserver(onVisibilityChange, { root: $("viewer"), rootMargin: "400px 0px" });
  for (const page of state.pages) {
    const element = document.createElement("div");
    element.className = "page";
    element.dataset.index = page.index;
    container.append(element);
    const view = { index: page.index, element, visible: false, drawn: null, textFor: null };
    pageViews.push(view);
    visibilityObserver.observe(element);
    wirePagePointer(view);
  }
  buildThumbnails();
}

function onVisibilityChange(entries) {
  for (const entry of entries) {
    const view = pageViews[Number(entry.target.dataset.index)];
    view.visible = entry.isIntersecting;
    if (view.visible) drawPage(view);
  }
}

/** The scale of a zoom setting, in CSS pixels per point. */
function scaleFor(zoom) {
  const viewer = $("viewer");
  const size = (state.pages[state.currentPage] || state.pages[0] || { size: { width: 612, height: 792 } }).size;
  if (zoom === "fit-width") return Math.max(0.1, (viewer.clientWidth - 40) / size.width);
  if (zoom === "fit-page") return Math.max(0.1, Math.min((viewer.clientWidth - 40) / size.width, (viewer.clientHeight - 24) / size.height));
  return Number(zoom) * POINTS_TO_CSS;
}

function applyZoom() {
  state.scale = scaleFor(state.zoom);
  const select = $("zoom");
  const value = String(state.zoom);
  if (![...select.options].some((o) => o.value === value)) select.add(new Option(Math.round(Number(state.zoom) * 100) + "%", value));
  select.value = value;
  for (const view of pageViews) {
    const size = state.pages[view.index].size;
    view.element.style.width = Math.round(size.width * state.scale) + "px";
    view.element.style.height = Math.round(size.height * state.scale) + "px";
    view.drawn = null;
    if (view.visible) drawPage(view);
  }
}

function setZoom(zoom) {
  const anchor = currentAnchor();
  state.zoom = zoom;
  applyZoom();
  scrollToPage(anchor.pageIndex, anchor.offset);
  saveViewingState();
}

function stepZoom(direction) {
  const steps = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6, 8];
  const current = state.scale / POINTS_TO_CSS;
  const next = direction > 0 ? steps.find((s) => s > current + 0.01) : [...steps].reverse().find((s) => s < current - 0.01);
  if (next) setZoom(next);
}

/** The address of a page image at the current scale, sharp on high-density screens. */
function imageURL(index, engine, dpi) {
  const params = new URLSearchParams({ dpi: dpi.toFixed(1), engine, v: state.revision });
  return api.base(state.documentID) + "/pages/" + index + "/image?" + params;
}

function currentDPI() {
  return Math.min(600, state.scale * 72 * (window.devicePixelRatio || 1));
}

function drawPage(view) {
  const key = [state.scale, state.engine, state.compare, state.revision].join("|");
  if (view.drawn === key) return;
  view.drawn = key;
  view.element.innerHTML = "";
  view.element.classList.remove("compared");
  if (state.compare) return drawComparison(view);
  const image = new Image();
  image.className = "render";
  image.alt = "Page " + (view.index + 1);
  image.dataset.engine = state.engine;
  image.addEventListener("error", () => {
    const failure = document.createElement("div");
    failure.className = "error";
    failure.textContent = "This page could not be drawn.";
    view.element.append(failure);
    api.request(image.src).catch((error) => { failure.textContent = error.message; });
  });
  image.src = imageURL(view.index, state.engine, currentDPI());
  view.element.append(image);
  for (const name of ["text-layer", "hit-layer", "link-layer"]) {
    const layer = document.createElement("div");
    layer.className = "layer " + name;
    view.element.append(layer);
  }
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.classList.add("annotation-layer");
  view.element.append(svg);
  loadTextLayer(view);
  loadLinks(view);
  drawHits(view);
  drawAnnotations(view);
}

function layer(view, name) {
  return view.element.querySelector("." + name);
}

function place(element, rect) {
  element.style.left = rect.origin.x * state.scale + "px";
  element.style.top = rect.origin.y * state.scale + "px";
  element.style.width = rect.size.width * state.scale + "px";
  element.style.height = rect.size.height * state.scale + "px";
}

// MARK: Text layer, selection and copy

const measure = document.createElement("canvas").getContext("2d");

async function loadTextLayer(view) {
  const key = view.drawn;
  let text;
  try {
    text = await api.json(api.base(state.documentID) + "/pages/" + view.index + "/text?engine=" + state.engine);
  } catch (_) {
    return;
  }
  const target = layer(view, "text-layer");
  if (view.drawn !== key || !target) return;
  for (const line of text.lines) {
    line.words.forEach((word, position) => {
      const span = document.createElement("span");
      const last = position === line.words.length - 1;
      span.textContent = word.text + (last ? "\n" : " ");
      const height = word.bounds.size.height * state.scale;
      const width = word.bounds.size.width * state.scale;
      span.style.left = word.bounds.origin.x * state.scale + "px";
      span.style.top = word.bounds.origin.y * state.scale + "px";
      span.style.fontSize = height + "px";
      span.style.fontFamily = "sans-serif";
      measure.font = height + "px sans-serif";
      const natural = measure.measureText(word.text).width;
      if (natural > 0) span.style.transform = "scaleX(" + width / natural + ")";
      span.dataset.x = word.bounds.origin.x;
      span.dataset.y = word.bounds.origin.y;
      span.dataset.width = word.bounds.size.width;
      span.dataset.height = word.bounds.size.height;
      target.append(span);
    });
  }
}

/** The selected text, one line per text line, words separated by single spaces. */
function selectedText() {
  return window.getSelection().toString()
    .split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line.length > 0).join("\n");
}

function wireSelectionCopy() {
  document.addEventListener("copy", (event) => {
    const text = selectedText();
    if (!text || !event.clipboardData) return;
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
  });
}

/** The words of the selection on each page, as quads per line: what a highlight covers. */
function selectionQuads() {
  const selection = window.getSelection();
  if (selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const byPage = new Map();
  for (const view of pageViews) {
    const textLayer = layer(view, "text-layer");
    if (!textLayer || !range.intersectsNode(textLayer)) continue;
    const lines = new Map();
    for (const span of textLayer.children) {
      if (!range.intersectsNode(span)) continue;
      const box = { x: Number(span.dataset.x), y: Number(span.dataset.y), width: Number(span.dataset.width), height: Number(span.dataset.height) };
      const key = Math.round(box.y);
      const line = lines.get(key);
      if (!line) lines.set(key, box);
      else {
        const right = Math.max(line.x + line.width, box.x + box.width);
        const bottom = Math.max(line.y + line.height, box.y + box.height);
        line.x = Math.min(line.x, box.x);
        line.y = Math.min(line.y, box.y);
        line.width = right - line.x;
        line.height = bottom - line.y;
      }
    }
    if (lines.size > 0) byPage.set(view.index, [...lines.values()]);
  }
  return byPage.size > 0 ? byPage : null;
}

// MARK: Links

async function loadLinks(view) {
  const key = view.drawn;
  let links;
  try {
    links = await api.json(api.base(state.documentID) + "/pages/" + view.index + "/links?engine=" + state.engine);
  } catch (_) {
    return;
  }
  const target = layer(view, "link-layer");
  if (view.drawn !== key || !target) return;
  for (const link of links) {
    const anchor = document.createElement("a");
    place(anchor, link.area);
    if (link.destination.kind === "page") {
      const destination = link.destination;
      anchor.href = "#";
      anchor.title = "Go to page " + (destination.index + 1);
      anchor.addEventListener("click", (event) => {
        event.preventDefault();
        scrollToPage(destination.index, destination.point);
      });
    } else if (link.destination.kind === "uri") {
      const uri = link.destination.uri;
      anchor.className = "external";
      anchor.title = uri;
      // Never followed by a click on the page: the address is shown, and the reader opens it.
      anchor.addEventListener("click", (event) => {
        event.preventDefault();
        showStatus("Link to " + uri, uri);
      });
    }
    target.append(anchor);
  }
}

// MARK: Find

async function find(term) {
  if (state.findController) state.findController.abort();
  state.hits = [];
  state.currentHit = -1;
  pageViews.forEach(drawHits);
  if (!term) return setFindStatus("");
  const controller = new AbortController();
  state.findController = controller;
  setFindStatus("Searching...");
  const params = new URLSearchParams({ q: term, engine: state.engine });
  try {
    const response = await api.request(api.base(state.documentID) + "/search?" + params, { signal: controller.signal });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) if (line.trim()) onSearchLine(JSON.parse(line));
    }
  } catch (error) {
    if (error.name !== "AbortError") setFindStatus(error.message);
  }
}

function onSearchLine(line) {
  if (line.done) {
    setFindStatus(state.hits.length === 0 ? "No hits" : (state.currentHit + 1) + " of " + state.hits.length);
    return;
  }
  state.hits.push(line);
  drawHits(pageViews[line.pageIndex]);
  if (state.currentHit < 0) showHit(0);
  else setFindStatus((state.currentHit + 1) + " of " + state.hits.length + "...");
}

function showHit(position) {
  if (state.hits.length === 0) return;
  state.currentHit = (position + state.hits.length) % state.hits.length;
  const hit = state.hits[state.currentHit];
  pageViews.forEach((view) => view.element.querySelectorAll(".hit.current").forEach((e) => e.classList.remove("current")));
  const bounds = quadsBounds(hit.quads);
  scrollToPage(hit.pageIndex, { x: bounds.x, y: Math.max(0, bounds.y - 60) });
  drawHits(pageViews[hit.pageIndex]);
  setFindStatus((state.currentHit + 1) + " of " + state.hits.length);
}

function drawHits(view) {
  const target = view && layer(view, "hit-layer");
  if (!target) return;
  target.innerHTML = "";
  state.hits.forEach((hit, position) => {
    if (hit.pageIndex !== view.index) return;
    for (const quad of hit.quads) {
      const box = quadsBounds([quad]);
      const mark = document.createElement("div");
      mark.className = "hit" + (position === state.currentHit ? " current" : "");
      place(mark, { origin: { x: box.x, y: box.y }, size: { width: box.width, height: box.height } });
      target.append(mark);
    }
  });
}

function quadsBounds(quads) {
  const xs = [], ys = [];
  for (const q of quads) for (const p of [q.upperLeft, q.upperRight, q.lowerLeft, q.lowerRight]) { xs.push(p.x); ys.push(p.y); }
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function setFindStatus(text) {
  $("find-status").textContent = text;
}

// MARK: Compare mode

async function drawComparison(view) {
  const key = view.drawn;
  const [reference, candidate] = state.details.renderers;
  // Three images side by side in the view's width: both engines' and the differences.
  const width = Math.max(150, ($("viewer").clientWidth - 300) / 3);
  const size = state.pages[view.index].size;
  const dpi = Math.min(150, width / size.width * 72 * (window.devicePixelRatio || 1));
  const row = document.createElement("div");
  row.className = "comparison";
  const figure = (src, caption) => {
    const element = document.createElement("figure");
    const image = new Image();
    image.src = src;
    image.alt = caption;
    image.style.width = width + "px";
    const label = document.createElement("figcaption");
    label.textContent = caption;
    element.append(image, label);
    return element;
  };
  row.append(figure(imageURL(view.index, reference, dpi), engineName(reference)), figure(imageURL(view.index, candidate, dpi), engineName(candidate)));
  const figures = document.createElement("div");
  figures.className = "figures";
  figures.textContent = "Comparing...";
  row.append(figures);
  view.element.classList.add("compared");
  view.element.style.width = "auto";
  view.element.style.height = "auto";
  view.element.append(row);
  try {
    const comparison = await api.json(api.base(state.documentID) + "/pages/" + view.index + "/compare?dpi=" + dpi.toFixed(1) + "&v=" + state.revision);
    if (view.drawn !== key) return;
    row.insertBefore(figure(comparison.heatMap + "&v=" + state.revision, "Differences"), figures);
    const page = comparison.page;
    figures.className = "figures " + (page.passed ? "passed" : "failed");
    figures.innerHTML = "";
    const lines = [
      page.passed ? "The engines agree." : "The engines differ.",
      page.differingShare != null ? "Pixels differing: " + (page.differingShare * 100).toFixed(2) + "%" : null,
      page.psnr != null ? "PSNR: " + page.psnr.toFixed(1) + " dB" : null,
      page.textAgreement != null ? "Words agreeing: " + (page.textAgreement * 100).toFixed(1) + "%" : null,
      ...page.failures,
    ];
    for (const line of lines.filter(Boolean)) {
      const paragraph = document.createElement("p");
      paragraph.textContent = line;
      figures.append(paragraph);
    }
  } catch (error) {
    figures.textContent = error.message;
  }
}

// MARK: Annotations

async function loadAnnotations() {
  try {
    state.annotations = collaboration.active
      ? await collaboration.load(state.documentID)
      : await api.json(api.base(state.documentID) + "/annotations");
  } catch (error) {
    state.annotations = [];
    showStatus(error.message);
  }
  pageViews.forEach(drawAnnotations);
  listAnnotations();
}

function drawAnnotations(view) {
  const svg = view && view.element.querySelector("svg.annotation-layer");
  if (!svg) return;
  svg.innerHTML = "";
  for (const annotation of state.annotations) {
    if (annotation.pageIndex !== view.index || annotation.kind === "Link" || annotation.kind === "Popup") continue;
    const shapes = annotation.quads && annotation.quads.length > 0 ? annotation.quads.map((q) => quadsBounds([q])) : [rectBox(annotation.rect)];
    for (const box of shapes) {
      const shape = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      shape.setAttribute("x", box.x * state.scale);
      shape.setAttribute("y", box.y * state.scale);
      shape.setAttribute("width", Math.max(4, box.width * state.scale));
      shape.setAttribute("height", Math.max(4, box.height * state.scale));
      shape.classList.add("annotation");
      // The page image shows the file's own annotations; a layer's are drawn here.
      if (collaboration.active && collaboration.isLayerOwn(annotation)) {
        shape.classList.add("layer-own");
        shape.style.setProperty("--annotation-color", colorHex(annotation.color) || "#ffd800");
      }
      if (collaboration.active && collaboration.isForeign(annotation)) shape.classList.add("foreign");
      shape.dataset.id = annotation.id;
      if (state.selectedAnnotation && state.selectedAnnotation.id === annotation.id) shape.classList.add("selected");
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = annotation.kind + (annotation.contents ? ": " + annotation.contents : "");
      shape.append(title);
      shape.addEventListener("click", (event) => {
        if (state.tool !== "select") return;
        event.stopPropagation();
        selectAnnotation(annotation);
      });
      svg.append(shape);
    }
  }
}

function rectBox(rect) {
  return { x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height };
}

function listAnnotations() {
  const panel = $("annotations");
  panel.innerHTML = "";
  const shown = state.annotations.filter((a) => a.kind !== "Link" && a.kind !== "Popup");
  if (shown.length === 0) return panel.append(emptyNote("No annotations"));
  const list = document.createElement("ul");
  for (const annotation of shown) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.textContent = "p. " + (annotation.pageIndex + 1) + " " + annotation.kind + (annotation.contents ? ": " + annotation.contents : "")
      + (collaboration.active && annotation.author ? " (" + annotation.author + ")" : "");
    link.dataset.id = annotation.id;
    if (collaboration.active && collaboration.isForeign(annotation)) item.classList.add("foreign");
    link.addEventListener("click", () => {
      scrollToPage(annotation.pageIndex, annotation.rect.origin);
      selectAnnotation(annotation);
    });
    item.append(link);
    list.append(item);
  }
  panel.append(list);
}

function selectAnnotation(annotation) {
  state.selectedAnnotation = annotation;
  pageViews.forEach(drawAnnotations);
  $("editor").hidden = false;
  $("editor-kind").textContent = annotation.kind + " on page " + (annotation.pageIndex + 1);
  $("editor-color").value = colorHex(annotation.color) || "#ffff00";
  $("editor-contents").value = annotation.contents || "";
  const editable = collaboration.active ? collaboration.mayModify(annotation) : state.details.editable;
  const removable = collaboration.active ? collaboration.mayRemove(annotation) : state.details.editable;
  $("editor-author").textContent = (annotation.author ? "By " + annotation.author : "")
    + (collaboration.active && !editable ? " (not yours to change)" : "");
  for (const id of ["editor-save", "editor-color", "editor-contents"]) $(id).disabled = !editable;
  $("editor-delete").disabled = !removable;
}

function closeEditor() {
  state.selectedAnnotation = null;
  $("editor").hidden = true;
  pageViews.forEach(drawAnnotations);
}

function colorHex(color) {
  if (!color) return null;
  const part = (v) => Math.round(Math.max(0, Math.min(1, v)) * 255).toString(16).padStart(2, "0");
  return "#" + part(color.red) + part(color.green) + part(color.blue);
}

function hexColor(hex) {
  const value = parseInt(hex.slice(1), 16);
  return { red: ((value >> 16) & 255) / 255, green: ((value >> 8) & 255) / 255, blue: (value & 255) / 255, alpha: 1 };
}

async function saveSelectedAnnotation() {
  const annotation = { ...state.selectedAnnotation, color: hexColor($("editor-color").value), contents: $("editor-contents").value };
  const path = api.base(state.documentID) + "/annotations/" + encodeURIComponent(annotation.id);
  await changeAnnotations(
    () => collaboration.active ? collaboration.modify(state.documentID, annotation) : api.send(path, "PUT", annotation), [annotation.pageIndex]);
  closeEditor();
}

async function deleteSelectedAnnotation() {
  const annotation = state.selectedAnnotation;
  const path = api.base(state.documentID) + "/annotations/" + encodeURIComponent(annotation.id);
  await changeAnnotations(
    () => collaboration.active ? collaboration.remove(state.documentID, annotation) : api.json(path, { method: "DELETE" }), [annotation.pageIndex]);
  closeEditor();
}

/**
 * Runs an edit through the API, then redraws the pages it touched and the lists. A layer's
 * edit leaves the file, and so the page images, as they were.
 */
async function changeAnnotations(edit, pages) {
  try {
    const result = await edit();
    await loadAnnotations();
    if (collaboration.active) return result;
    state.revision += 1;
    for (const index of pages) {
      pageViews[index].drawn = null;
      if (pageViews[index].visible) drawPage(pageViews[index]);
    }
    refreshThumbnails(pages);
    return result;
  } catch (error) {
    showStatus(error.message);
    return null;
  }
}

function createAnnotation(annotation) {
  return changeAnnotations(
    () => collaboration.active ? collaboration.add(state.documentID, annotation) : api.send(api.base(state.documentID) + "/annotations", "POST", annotation),
    [annotation.pageIndex]);
}

/** Another reader's change of the layer (or "reload" after a lost connection): shown at once. */
function onLayerChange(action, annotation) {
  if (action === "reload") return loadAnnotations();
  const before = state.annotations.find((held) => held.id === annotation.id);
  state.annotations = state.annotations.filter((held) => held.id !== annotation.id);
  if (action !== "delete") state.annotations.push(annotation);
  const selected = state.selectedAnnotation;
  if (selected && selected.id === annotation.id) {
    if (action === "delete") closeEditor(); else state.selectedAnnotation = annotation;
  }
  for (const index of new Set([annotation.pageIndex, before ? before.pageIndex : annotation.pageIndex])) {
    if (pageViews[index]) drawAnnotations(pageViews[index]);
  }
  listAnnotations();
}

async function highlightSelection() {
  const quadsByPage = selectionQuads();
  if (!quadsByPage) return showStatus("Select some text first, then choose Highlight.");
  for (const [pageIndex, boxes] of quadsByPage) {
    const quads = boxes.map((b) => ({
      upperLeft: { x: b.x, y: b.y }, upperRight: { x: b.x + b.width, y: b.y },
      lowerLeft: { x: b.x, y: b.y + b.height }, lowerRight: { x: b.x + b.width, y: b.y + b.height },
    }));
    const bounds = quadsBounds(quads);
    await createAnnotation({
      kind: "Highlight", pageIndex, quads, color: { red: 1, green: 0.9, blue: 0, alpha: 1 },
      rect: { origin: { x: bounds.x, y: bounds.y }, size: { width: bounds.width, height: bounds.height } },
    });
  }
  window.getSelection().removeAllRanges();
  setTool("select");
}

/** Notes, ink and rectangles are drawn with the pointer on the page. */
function wirePagePointer(view) {
  let draft = null;
  const point = (event) => {
    const box = view.element.getBoundingClientRect();
    return { x: (event.clientX - box.left) / state.scale, y: (event.clientY - box.top) / state.scale };
  };
  view.element.addEventListener("pointerdown", (event) => {
    if (!["note", "ink", "rectangle"].includes(state.tool) || state.compare) return;
    event.preventDefault();
    const start = point(event);
    if (state.tool === "note") {
      createAnnotation({
        kind: "Text", pageIndex: view.index, iconName: "Note", contents: "",
        color: { red: 1, green: 0.85, blue: 0.2, alpha: 1 },
        rect: { origin: { x: start.x, y: start.y }, size: { width: 20, height: 20 } },
      }).then((created) => { if (created) selectAnnotation(created); });
      setTool("select");
      return;
    }
    view.element.setPointerCapture(event.pointerId);
    const svg = view.element.querySelector("svg.annotation-layer");
    const shape = document.createElementNS("http://www.w3.org/2000/svg", state.tool === "ink" ? "polyline" : "rect");
    shape.classList.add("draft");
    svg.append(shape);
    draft = { start, points: [start], shape };
  });
  view.element.addEventListener("pointermove", (event) => {
    if (!draft) return;
    const current = point(event);
    draft.points.push(current);
    if (state.tool === "ink") {
      draft.shape.setAttribute("points", draft.points.map((p) => p.x * state.scale + "," + p.y * state.scale).join(" "));
    } else {
      const box = boxOf(draft.start, current);
      draft.shape.setAttribute("x", box.x * state.scale);
      draft.shape.setAttribute("y", box.y * state.scale);
      draft.shape.setAttribute("width", box.width * state.scale);
      draft.shape.setAttribute("height", box.height * state.scale);
    }
  });
  view.element.addEventListener("pointerup", (event) => {
    if (!draft) return;
    const done = draft;
    draft = null;
    done.shape.remove();
    const end = point(event);
    const box = boxOf(done.start, end);
    const red = { red: 0.85, green: 0.1, blue: 0.1, alpha: 1 };
    if (state.tool === "ink" && done.points.length > 1) {
      const bounds = done.points.reduce((b, p) => boxOf({ x: Math.min(b.x, p.x), y: Math.min(b.y, p.y) }, { x: Math.max(b.x + b.width, p.x), y: Math.max(b.y + b.height, p.y) }), { x: done.start.x, y: done.start.y, width: 0, height: 0 });
      createAnnotation({ kind: "Ink", pageIndex: view.index, inkPaths: [done.points], color: red, borderWidth: 2, rect: { origin: { x: bounds.x, y: bounds.y }, size: { width: Math.max(1, bounds.width), height: Math.max(1, bounds.height) } } });
    } else if (state.tool === "rectangle" && box.width > 2 && box.height > 2) {
      createAnnotation({ kind: "Square", pageIndex: view.index, color: red, borderWidth: 2, rect: { origin: { x: box.x, y: box.y }, size: { width: box.width, height: box.height } } });
    }
  });
}

function boxOf(a, b) {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

function setTool(tool) {
  if (tool === "highlight") return highlightSelection();
  state.tool = tool;
  for (const button of document.querySelectorAll("#tools [data-tool]")) button.classList.toggle("active", button.dataset.tool === tool);
  for (const view of pageViews) view.element.classList.toggle("drawing", tool !== "select");
}

// MARK: Sidebar: thumbnails, outline, bookmarks

function buildThumbnails() {
  const panel = $("thumbnails");
  panel.innerHTML = "";
  if (thumbnailObserver) thumbnailObserver.disconnect();
  thumbnailObserver = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const image = entry.target.querySelector("img");
      if (!image.src) image.src = thumbnailURL(Number(entry.target.dataset.index));
    }
  }, { root: panel, rootMargin: "200px 0px" });
  for (const page of state.pages) {
    const item = document.createElement("a");
    item.className = "thumbnail";
    item.dataset.index = page.index;
    const image = new Image();
    image.alt = "Page " + (page.index + 1);
    image.loading = "lazy";
    const caption = document.createElement("div");
    caption.textContent = page.label || String(page.index + 1);
    item.append(image, caption);
    item.addEventListener("click", () => scrollToPage(page.index));
    panel.append(item);
    thumbnailObserver.observe(item);
  }
}

function thumbnailURL(index) {
  return api.base(state.documentID) + "/pages/" + index + "/image?" + new URLSearchParams({ width: 120 * Math.min(2, window.devicePixelRatio || 1), engine: state.engine, v: state.revision });
}

function refreshThumbnails(pages) {
  for (const index of pages) {
    const image = document.querySelector('#thumbnails .thumbnail[data-index="' + index + '"] img');
    if (image && image.src) image.src = thumbnailURL(index);
  }
}

async function loadOutline() {
  const panel = $("outline");
  panel.innerHTML = "";
  try {
    const items = await api.json(api.base(state.documentID) + "/outline?engine=" + state.engine);
    if (items.length === 0) return panel.append(emptyNote("No outline"));
    panel.append(outlineList(items));
  } catch (error) {
    panel.append(emptyNote(error.message));
  }
}

function outlineList(items) {
  const list = document.createElement("ul");
  for (const item of items) {
    const entry = document.createElement("li");
    const link = document.createElement("a");
    link.textContent = item.title;
    const destination = item.destination;
    if (destination && destination.kind === "page") link.addEventListener("click", () => scrollToPage(destination.index, destination.point));
    else if (destination && destination.kind === "uri") link.addEventListener("click", () => showStatus("Link to " + destination.uri, destination.uri));
    entry.append(link);
    if (item.children.length > 0) entry.append(outlineList(item.children));
    list.append(entry);
  }
  return list;
}

async function loadBookmarks() {
  const panel = $("bookmarks");
  panel.innerHTML = "";
  let bookmarks = [];
  try {
    bookmarks = await api.json(api.base(state.documentID) + "/bookmarks");
  } catch (error) {
    return panel.append(emptyNote(error.message));
  }
  if (bookmarks.length === 0) return panel.append(emptyNote("No bookmarks"));
  const list = document.createElement("ul");
  for (const bookmark of bookmarks) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.textContent = bookmark.title;
    link.addEventListener("click", () => scrollToPage(bookmark.pageIndex));
    const remove = document.createElement("button");
    remove.textContent = "\u00d7";
    remove.title = "Remove the bookmark";
    remove.addEventListener("click", async () => {
      await api.json(api.base(state.documentID) + "/bookmarks/" + encodeURIComponent(bookmark.id), { method: "DELETE" }).catch((e) => showStatus(e.message));
      loadBookmarks();
    });
    item.append(link, remove);
    list.append(item);
  }
  panel.append(list);
}

async function addBookmark() {
  const page = state.currentPage;
  const label = state.pages[page] ? state.pages[page].label : String(page + 1);
  try {
    await api.send(api.base(state.documentID) + "/bookmarks", "POST", { pageIndex: page, title: "Page " + label });
    showSidebarTab("bookmarks");
    loadBookmarks();
  } catch (error) {
    showStatus(error.message);
  }
}

function showSidebarTab(name) {
  for (const button of document.querySelectorAll("#sidebar .tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const panel of document.querySelectorAll("#sidebar .panel")) panel.classList.toggle("active", panel.id === name);
}

function emptyNote(text) {
  const note = document.createElement("p");
  note.className = "empty";
  note.textContent = text;
  return note;
}

// MARK: Navigation and the reading position

/** Scrolls so that `offset` (points, in the page) of page `index` is at the top left. */
function scrollToPage(index, offset) {
  const view = pageViews[Math.max(0, Math.min(pageViews.length - 1, index || 0))];
  if (!view) return;
  const viewer = $("viewer");
  const top = view.element.offsetTop + (offset ? offset.y * state.scale : 0) - 8;
  viewer.scrollTop = Math.max(0, top);
  if (offset && offset.x) viewer.scrollLeft = Math.max(0, view.element.offsetLeft + offset.x * state.scale - 20);
  updateCurrentPage();
}

/** The page at the top of the view, and how far into it (points) the view is scrolled. */
function currentAnchor() {
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

function updateCurrentPage() {
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

function refreshPageLabel() {
  const page = state.pages[state.currentPage];
  const input = $("page-number");
  if (document.activeElement !== input) input.value = page ? page.label || String(page.index + 1) : "";
  $("page-count").textContent = "/ " + state.pages.length + (page && page.label && page.label !== String(page.index + 1) ? " (" + (page.index + 1) + ")" : "");
}

function goToTypedPage() {
  const text = $("page-number").value.trim();
  if (text === "") return;
  const byLabel = state.pages.findIndex((p) => p.label === text);
  const index = byLabel >= 0 ? byLabel : Number(text) - 1;
  if (Number.isInteger(index) && index >= 0 && index < state.pages.length) scrollToPage(index);
  else showStatus("There is no page " + text + ".");
  $("viewer").focus();
}

let saveTimer = null;
function saveViewingState() {
  if (state.restoring || !state.documentID) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    const anchor = currentAnchor();
    const zoom = typeof state.zoom === "number" ? state.zoom : state.scale / POINTS_TO_CSS;
    api.send(api.base(state.documentID) + "/state", "PUT", { pageIndex: anchor.pageIndex, zoom, scrollOffset: anchor.offset }).catch(() => {});
  }, 400);
}

// MARK: Wiring

function wireToolbar() {
  $("document").addEventListener("change", (event) => openDocument(event.target.value).catch((e) => showStatus(e.message)));
  $("sidebar-toggle").addEventListener("click", () => {
    $("sidebar").classList.toggle("hidden");
    if (typeof state.zoom === "string") setZoom(state.zoom);
  });
  $("previous-page").addEventListener("click", () => scrollToPage(state.currentPage - 1));
  $("next-page").addEventListener("click", () => scrollToPage(state.currentPage + 1));
  $("page-number").addEventListener("change", goToTypedPage);
  $("zoom").addEventListener("change", (event) => {
    const value = event.target.value;
    setZoom(value.startsWith("fit") ? value : Number(value));
  });
  $("zoom-in").addEventListener("click", () => stepZoom(1));
  $("zoom-out").addEventListener("click", () => stepZoom(-1));
  $("engine").addEventListener("change", (event) => {
    state.engine = event.target.value;
    pageViews.forEach((view) => { view.drawn = null; if (view.visible) drawPage(view); });
    document.querySelectorAll("#thumbnails img").forEach((image) => { if (image.src) image.src = thumbnailURL(Number(image.parentElement.dataset.index)); });
    if (state.hits.length > 0) find($("find").value);
  });
  $("compare").addEventListener("change", (event) => {
    state.compare = event.target.checked;
    const anchor = currentAnchor();
    applyZoom();
    scrollToPage(anchor.pageIndex);
  });
  for (const button of document.querySelectorAll("#tools [data-tool]")) button.addEventListener("click", () => setTool(button.dataset.tool));
  $("add-bookmark").addEventListener("click", addBookmark);
  $("find").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const term = $("find").value;
    if (term === state.lastTerm && state.hits.length > 0) showHit(state.currentHit + (event.shiftKey ? -1 : 1));
    else {
      state.lastTerm = term;
      find(term);
    }
  });
  $("find-next").addEventListener("click", () => showHit(state.currentHit + 1));
  $("find-previous").addEventListener("click", () => showHit(state.currentHit - 1));
  for (const button of document.querySelectorAll("#sidebar .tabs button")) button.addEventListener("click", () => showSidebarTab(button.dataset.tab));
  $("editor-save").addEventListener("click", saveSelectedAnnotation);
  $("editor-delete").addEventListener("click", deleteSelectedAnnotation);
  $("editor-close").addEventListener("click", closeEditor);
  $("status-close").addEventListener("click", () => { $("status").hidden = true; });
  $("viewer").addEventListener("scroll", () => {
    updateCurrentPage();
    saveViewingState();
  });
  window.addEventListener("resize", () => { if (typeof state.zoom === "string") setZoom(state.zoom); });
}

function wireKeyboard() {
  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if ((event.ctrlKey || event.metaKey) && event.key === "f") {
      event.preventDefault();
      $("find").focus();
      $("find").select();
      return;
    }
    if (typing) return;
    const actions = {
      PageDown: () => scrollToPage(state.currentPage + 1),
      PageUp: () => scrollToPage(state.currentPage - 1),
      ArrowRight: () => scrollToPage(state.currentPage + 1),
      ArrowLeft: () => scrollToPage(state.currentPage - 1),
      Home: () => scrollToPage(0),
      End: () => scrollToPage(state.pages.length - 1),
      "+": () => stepZoom(1),
      "=": () => stepZoom(1),
      "-": () => stepZoom(-1),
      s: () => $("sidebar-toggle").click(),
      Escape: () => { closeEditor(); setTool("select"); },
    };
    const action = actions[event.key];
    if (action && !event.ctrlKey && !event.altKey) {
      event.preventDefault();
      action();
    }
  });
}

/** A message at the bottom of the window; with `link`, an explicit way to open it. */
function showStatus(text, link) {
  $("status").hidden = false;
  $("status-text").textContent = text;
  const anchor = $("status-link");
  anchor.hidden = !link;
  if (link && /^(https?|mailto):/i.test(link)) anchor.href = link;
  else anchor.hidden = true;
}
