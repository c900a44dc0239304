// The project's browser viewer: it shows the documents of `hostapp serve` through the
// server's JSON API. Pages are images the chosen engine draws; over each page lie a
// transparent text layer (for selecting and copying), find hits, links and the
// annotations' hit areas. Geometry from the API is in points, origin at the page's top-left
// as displayed, so a point maps to a CSS pixel by multiplying with the view's scale.
//
// ES modules, one per part of the viewer, loaded by the browser as they are (no build
// step): this one starts the viewer, opens documents and wires the toolbar and keys.

import { closeEditor, deleteSelectedAnnotation, loadAnnotations, onLayerChange, replyToSelected, saveSelectedAnnotation, setTool } from "./annotations.js";
import { api } from "./api.js";
import { arrangeWithKey, settleArrangements } from "./arrange.js";
import { collaboration } from "./collaboration.js";
import { $, NARROW_SCREEN, showStatus } from "./dom.js";
import { offerMarkdownExport, wireMarkdownExport } from "./export.js";
import { resetRecognition, wireRecognition } from "./recognition.js";
import { drawHits, showHit, startSearch, wireFindAsYouType } from "./find.js";
import { loadForm } from "./forms.js";
import { t, translatePage } from "./i18n.js";
import { currentAnchor, goToNamedDestination, goToTypedPage, placeInAddress, recordPlace, refreshPageLabel, saveViewingState, scrollToPage, stepPage, updateCurrentPage } from "./navigation.js";
import { applyZoom, buildPages, drawVisiblePages, openingZoom, restoreLayout, rotateView, setScrollMode, setSpreads, setZoom, stepZoom } from "./pages.js";
import { syncOffline, wireOffline } from "./offline.js";
import { askForPassword } from "./password.js";
import { wirePictureInput } from "./picture.js";
import { stopPresentation, wirePresentation } from "./presentation.js";
import { cancelPrinting, printDocument, wireMenuPrinting, wirePrintDialog } from "./print.js";
import { offerDownload, showProperties } from "./properties.js";
import { forgetHistory, replayEdit } from "./history.js";
import { loadOptionalContent } from "./optional-content.js";
import { stopReading, wireReadAloud } from "./read-aloud.js";
import { closeReadingMode, wireReadingMode } from "./reading.js";
import { wireTouch } from "./touch.js";
import { forgetSignatures, showSignatures, wireSignDialog } from "./signatures.js";
import { addBookmark, buildThumbnails, loadAttachments, loadBookmarks, loadOutline, refreshThumbnails, showSidebarTab } from "./sidebar.js";
import { allows, pageViews, state } from "./state.js";
import { wireSelectionCopy } from "./text-layer.js";
import { listUpload, offerUploads } from "./upload.js";

window.addEventListener("DOMContentLoaded", start);

// Back and Forward: to the place the history entry holds, in this document or another.
window.addEventListener("popstate", (event) => {
  const wanted = new URLSearchParams(location.hash.slice(1)).get("doc");
  const place = placeInAddress(location.hash);
  if (wanted && wanted !== state.documentID) {
    if (wanted.startsWith("uploads/")) listUpload(wanted);
    $("document").value = wanted;
    openDocument(wanted, place).catch((error) => showStatus(error.message));
  } else if (event.state) {
    scrollToPage(event.state.pageIndex, event.state.offset);
  } else if (place.pageIndex !== undefined) {
    scrollToPage(place.pageIndex);
  } else if (place.destination) {
    goToNamedDestination(place.destination);
  }
});

/** This tab's name for this time it is open: a new one each time it opens (a reload, a return from the back-forward cache). */
let presenceName = "";

/**
 * Tells the server this tab `opened` or `closed`: one that serves this tab alone (`hostapp view`) stops when none is open.
 * The two go on connections of their own and may arrive in either order; the name pairs them.
 */
function tellPresence(what) {
  if (what === "opened") presenceName = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  fetch("/api/viewer/" + what + "?tab=" + presenceName, { method: "POST", credentials: "same-origin", keepalive: true }).catch(() => {});
}

export async function start() {
  // The token came in the address once; the server set a cookie, so drop it from view.
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname + location.hash);
  tellPresence("opened");
  window.addEventListener("pagehide", () => tellPresence("closed"));
  window.addEventListener("pageshow", (event) => { if (event.persisted) tellPresence("opened"); });
  translatePage();
  try { if (localStorage.getItem("dark") === "on") setDark(true); } catch (_) { /* light */ }
  collaboration.setUp();
  restoreLayout();
  wireToolbar();
  wireKeyboard();
  wireSelectionCopy();
  try {
    // The document the address names is asked for while the list of documents comes.
    const named = new URLSearchParams(location.hash.slice(1)).get("doc");
    if (named) state.prefetched = { id: named, details: api.json(api.base(named)).catch((error) => error) };
    const documents = await api.json("/api/documents");
    const select = $("document");
    for (const entry of documents) select.add(new Option(entry.id, entry.id));
    offerUploads((id) => openDocument(id));
    if (documents.length === 0) return showStatus(t("server.empty"));
    const wanted = new URLSearchParams(location.hash.slice(1)).get("doc");
    // An upload is in no list: the address that names it opens it (while the server keeps it).
    if (wanted && wanted.startsWith("uploads/")) listUpload(wanted);
    const id = documents.some((d) => d.id === wanted) || (wanted && wanted.startsWith("uploads/")) ? wanted : documents[0].id;
    select.value = id;
    await openDocument(id, placeInAddress(location.hash));
  } catch (error) {
    showStatus(error.message);
  }
}

/**
 * Opens document `id` at `place` (from the address: a page, a zoom, a search term), else
 * where the reader left it.
 */
async function openDocument(id, place = {}) {
  closeDocument();
  state.documentID = id;
  state.restoring = true;
  history.replaceState(null, "", collaboration.fragment(id));
  try {
    const prefetched = state.prefetched && state.prefetched.id === id ? await state.prefetched.details : null;
    state.prefetched = null;
    if (prefetched instanceof Error) throw prefetched;
    state.details = prefetched || await api.json(api.base(id));
    // The server's limits, which every drawing the viewer asks for keeps within, how it
    // reads scans, and what each kind of annotation is.
    if (!state.limits) {
      const [health, kinds] = await Promise.all([api.json("/api/health"), api.json("/api/annotation-kinds")]);
      state.limits = health.limits;
      state.textRecognition = health.textRecognition;
      state.annotationKinds = Object.fromEntries(kinds.map((entry) => [entry.kind, entry]));
    }
  } catch (error) {
    document.title = t("window.title", { title: id });
    if (error.code === "password-required") {
      await askForPassword(id, $("pages"));
      // Another document chosen meanwhile is the one shown.
      if (state.documentID === id) return openDocument(id, place);
      return;
    }
    // Why, in place of the pages: never the pages of the document shown before.
    const failure = document.createElement("p");
    failure.className = "open-failure";
    failure.setAttribute("role", "alert");
    failure.textContent = t("open.failed", { document: id, message: error.message });
    $("pages").append(failure);
    throw error;
  }
  document.title = t("window.title", { title: state.details.info.title || id });
  offerDownload();
  // What the server's settings and the PDF's permissions forbid is not offered.
  $("print").hidden = !allows("printing");
  $("presentation-open").hidden = !allows("fullScreen");
  $("dark-toggle").hidden = !allows("darkMode");
  if (!allows("darkMode")) setDark(false);
  $("download").hidden = !allows("download");
  offerMarkdownExport();
  resetRecognition();
  const engines = $("engine");
  engines.innerHTML = "";
  for (const renderer of state.details.renderers) engines.add(new Option(engineName(renderer), renderer));
  state.renderer = state.details.renderer;
  engines.value = state.renderer;
  $("compare").disabled = state.details.renderers.length < 2;
  // A read-only server (or one whose engines run isolated) takes no annotation edits; in a
  // collaboration, the reader's token says whether they may annotate.
  const editable = collaboration.active ? collaboration.canAnnotate() : state.details.editable;
  for (const button of document.querySelectorAll("#tools [data-tool]:not([data-tool=select]):not([data-tool=hand])")) {
    button.disabled = !editable;
    button.title = editable ? t(button.dataset.i18nTitle) : t(collaboration.active ? "tools.readOnlyLayer" : "tools.readOnlyServer");
  }
  // A layer holds annotations as JSON, without pictures: those go into the file itself.
  const picture = document.querySelector("#tools [data-tool=picture]");
  if (editable && collaboration.active) {
    picture.disabled = true;
    picture.title = t("picture.notInLayer");
  }
  if (collaboration.active) collaboration.listen(id, onLayerChange);
  const first = state.details.firstPage;
  const count = state.details.info.pageCount;
  // Lay the pages out at the first page's size at once; the real sizes follow.
  state.pages = Array.from({ length: count }, (_, index) => ({ index, size: first ? first.size : { width: 612, height: 792 }, label: String(index + 1) }));
  $("page-count").textContent = t("page.count", { count });
  const viewing = await api.json(api.base(id) + "/state").catch(() => null);
  state.zoom = openingZoom(id, place, viewing && viewing.zoom);
  // The first page drawn goes first: everything else the server is asked waits for it.
  const firstPaint = new Promise((resolve) => { state.onFirstPaint = resolve; });
  if (count === 0) state.onFirstPaint();
  buildPages();
  applyZoom();
  if (place.pageIndex !== undefined) scrollToPage(Math.min(place.pageIndex, count - 1));
  else if (viewing) scrollToPage(viewing.pageIndex, viewing.scrollOffset);
  else scrollToPage(0);
  recordPlace();
  state.restoring = false;
  if (place.destination && place.pageIndex === undefined) await goToNamedDestination(place.destination);
  if (place.search) {
    $("find").value = place.search;
    startSearch(place.search);
  }
  // The keyboard works at once: the pages have the focus unless the reader put it elsewhere.
  if (document.activeElement === document.body) $("viewer").focus({ preventScroll: true });
  await firstPaint;
  if (state.documentID !== id) return;
  api.json(api.base(id) + "/pages").then((pages) => {
    if (state.documentID !== id) return;
    const anchor = currentAnchor();
    state.pages = pages;
    applyZoom();
    scrollToPage(anchor.pageIndex, anchor.offset);
    refreshPageLabel();
    buildThumbnails();
  }).catch((error) => showStatus(error.message));
  loadOutline();
  loadBookmarks();
  if (!collaboration.active) loadAnnotations();
  loadForm();
  syncOffline();
  loadAttachments();
  loadOptionalContent();
  if (!$("signatures").hidden) showSignatures();
}

/** Takes everything of the document shown off the screen, before another opens. */
function closeDocument() {
  stopReading();
  closeReadingMode();
  closeEditor();
  cancelPrinting();
  stopPresentation();
  state.details = null;
  state.pages = [];
  state.annotations = [];
  state.formFields = [];
  state.hits = [];
  state.currentHit = -1;
  state.currentPage = 0;
  if (state.findController) state.findController.abort();
  pageViews.length = 0;
  forgetHistory();
  state.shownGroups.clear();
  state.hiddenGroups.clear();
  for (const id of ["pages", "thumbnails", "outline", "bookmarks", "annotations", "attachments", "layers"]) $(id).innerHTML = "";
  forgetSignatures();
  $("pages").removeAttribute("role");
  $("page-count").textContent = "/ 0";
  $("page-number").value = "";
  $("find-status").textContent = "";
}

export function engineName(id) {
  return { mupdf: "MuPDF", poppler: "Poppler" }[id] || id;
}

function wireToolbar() {
  $("document").addEventListener("change", (event) => openDocument(event.target.value).catch((e) => showStatus(e.message)));
  // On a phone's screen the sidebar starts closed, and opens over the pages.
  if (window.matchMedia(NARROW_SCREEN).matches) {
    $("sidebar").classList.add("hidden");
    $("sidebar-toggle").setAttribute("aria-expanded", "false");
  }
  $("sidebar-toggle").addEventListener("click", () => {
    const hidden = $("sidebar").classList.toggle("hidden");
    $("sidebar-toggle").setAttribute("aria-expanded", String(!hidden));
    if (typeof state.zoom === "string") setZoom(state.zoom);
  });
  $("previous-page").addEventListener("click", () => stepPage(-1));
  $("next-page").addEventListener("click", () => stepPage(1));
  // Enter goes to the page typed (even the one shown); leaving the box shows the current page again.
  $("page-number").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    goToTypedPage();
  });
  $("page-number").addEventListener("blur", refreshPageLabel);
  $("zoom").addEventListener("change", (event) => {
    const value = event.target.value;
    setZoom(value === "auto" || value.startsWith("fit") ? value : Number(value));
  });
  $("zoom-in").addEventListener("click", () => stepZoom(1));
  $("rotate-cw").addEventListener("click", () => rotateView(90));
  $("scroll-mode").addEventListener("change", (event) => setScrollMode(event.target.value));
  $("spreads").addEventListener("change", (event) => setSpreads(event.target.value));
  $("rotate-ccw").addEventListener("click", () => rotateView(-90));
  $("zoom-out").addEventListener("click", () => stepZoom(-1));
  $("engine").addEventListener("change", (event) => {
    state.renderer = event.target.value;
    drawVisiblePages();
    refreshThumbnails();
    if (state.hits.length > 0) startSearch($("find").value);
  });
  $("compare").addEventListener("change", (event) => {
    state.compare = event.target.checked;
    const anchor = currentAnchor();
    applyZoom();
    scrollToPage(anchor.pageIndex);
  });
  for (const button of document.querySelectorAll("#tools [data-tool]")) button.addEventListener("click", () => setTool(button.dataset.tool));
  $("add-bookmark").addEventListener("click", addBookmark);
  wireFindAsYouType();
  wirePictureInput();
  for (const option of ["find-case", "find-whole", "find-diacritics"]) {
    // The search again with the new options; Enter then steps through its hits.
    $(option).addEventListener("change", () => {
      state.lastTerm = null;
      if ($("find").value) startSearch($("find").value);
    });
  }
  $("find-highlight-all").addEventListener("change", () => pageViews.forEach(drawHits));
  $("find-next").addEventListener("click", () => showHit(state.currentHit + 1));
  $("find-previous").addEventListener("click", () => showHit(state.currentHit - 1));
  const tabs = [...document.querySelectorAll("#sidebar .tabs button")];
  /** Shows the tab `name`, asking for what only that tab shows when it is first shown. */
  const chooseTab = (name) => {
    showSidebarTab(name);
    if (name === "signatures") showSignatures();
  };
  for (const button of tabs) {
    button.addEventListener("click", () => chooseTab(button.dataset.tab));
    // Arrow keys move between the tabs, as in any tab list.
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      event.stopPropagation();
      const next = tabs[(tabs.indexOf(button) + step + tabs.length) % tabs.length];
      chooseTab(next.dataset.tab);
      next.focus();
    });
  }
  $("editor-save").addEventListener("click", saveSelectedAnnotation);
  $("editor-reply-send").addEventListener("click", () => replyToSelected(null));
  $("editor-state").addEventListener("change", () => { if ($("editor-state").value) replyToSelected($("editor-state").value); });
  $("editor-delete").addEventListener("click", deleteSelectedAnnotation);
  $("editor-close").addEventListener("click", closeEditor);
  $("properties-open").addEventListener("click", showProperties);
  wireMarkdownExport();
  wireRecognition();
  $("print").addEventListener("click", printDocument);
  wirePrintDialog();
  wireMenuPrinting();
  wireSignDialog();
  wirePresentation();
  wireReadingMode();
  wireReadAloud();
  wireTouch();
  wireOffline();
  $("dark-toggle").addEventListener("click", () => setDark(!state.dark));
  $("status-close").addEventListener("click", () => { $("status").hidden = true; });
  $("viewer").addEventListener("scroll", () => {
    updateCurrentPage();
    saveViewingState();
  });
  window.addEventListener("resize", () => { if (typeof state.zoom === "string") setZoom(state.zoom); });
  // Ctrl and the wheel zoom the pages, not the viewer's page. Page by page, the wheel past
  // the end of the page shown turns to the next (past its start, to the one before).
  let turned = 0;
  $("viewer").addEventListener("wheel", (event) => {
    const viewer = $("viewer");
    if (event.ctrlKey) {
      event.preventDefault();
      stepZoom(event.deltaY < 0 ? 1 : -1);
    } else if (state.scrollMode === "page" && event.deltaY !== 0) {
      const atEnd = event.deltaY > 0 ? viewer.scrollTop + viewer.clientHeight >= viewer.scrollHeight - 1 : viewer.scrollTop <= 0;
      if (!atEnd) return;
      event.preventDefault();
      // One turn per gesture: the wheel's burst of events turns one page.
      if (event.timeStamp - turned > 300) stepPage(event.deltaY > 0 ? 1 : -1);
      turned = event.timeStamp;
    }
  }, { passive: false });
  wireHandTool();
}

/**
 * Dark mode on or off: the interface in dark colours, and the pages drawn by the engine for a
 * dark screen (when the document's settings make dark mode available). Kept in this browser.
 */
function setDark(dark) {
  if (state.dark === dark) return;
  state.dark = dark;
  document.body.classList.toggle("dark", dark);
  $("dark-toggle").setAttribute("aria-pressed", String(dark));
  try { localStorage.setItem("dark", dark ? "on" : "off"); } catch (_) { /* not remembered */ }
  drawVisiblePages();
  refreshThumbnails();
}

/** The hand tool: the pages are dragged to move through them. */
function wireHandTool() {
  const viewer = $("viewer");
  let drag = null;
  viewer.addEventListener("pointerdown", (event) => {
    if (state.tool !== "hand" || event.button !== 0) return;
    event.preventDefault();
    drag = { x: event.clientX, y: event.clientY, left: viewer.scrollLeft, top: viewer.scrollTop };
    viewer.setPointerCapture(event.pointerId);
    viewer.classList.add("grabbing");
  });
  viewer.addEventListener("pointermove", (event) => {
    if (!drag) return;
    viewer.scrollLeft = drag.left - (event.clientX - drag.x);
    viewer.scrollTop = drag.top - (event.clientY - drag.y);
  });
  const end = () => {
    drag = null;
    viewer.classList.remove("grabbing");
  };
  viewer.addEventListener("pointerup", end);
  viewer.addEventListener("pointercancel", end);
}

/** The next hit of the last search (`direction` -1: the one before); with none, the find box. */
function findAgain(direction) {
  if (state.hits.length > 0) return showHit(state.currentHit + direction);
  if ($("find").value && $("find").value !== state.lastTerm) return startSearch($("find").value);
  $("find").focus();
  $("find").select();
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
    if ((event.ctrlKey || event.metaKey) && event.key === "p") {
      // The document's pages, not the viewer's screen.
      event.preventDefault();
      printDocument();
      return;
    }
    // F3 and Ctrl+G find the next hit, with Shift the one before (in the find box too).
    if (event.key === "F3" || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "g")) {
      event.preventDefault();
      findAgain(event.shiftKey ? -1 : 1);
      return;
    }
    if (typing) return;
    // Ctrl with =, + or - zooms the pages, not the viewer; Ctrl+0 goes back to the automatic zoom.
    if ((event.ctrlKey || event.metaKey) && ["=", "+", "-", "0"].includes(event.key)) {
      event.preventDefault();
      if (event.key === "0") setZoom("auto"); else stepZoom(event.key === "-" ? -1 : 1);
      return;
    }
    if (arrangeWithKey(event)) {
      event.preventDefault();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && ["z", "Z", "y"].includes(event.key)) {
      // Ctrl+Z takes back the reader's last edit; Ctrl+Shift+Z and Ctrl+Y make it again.
      event.preventDefault();
      replayEdit(event.key === "z" && !event.shiftKey, settleArrangements);
      return;
    }
    const actions = {
      PageDown: () => stepPage(1),
      PageUp: () => stepPage(-1),
      ArrowRight: () => stepPage(1),
      ArrowLeft: () => stepPage(-1),
      // As other readers: n and j forward, p and k back.
      n: () => stepPage(1),
      j: () => stepPage(1),
      p: () => stepPage(-1),
      k: () => stepPage(-1),
      Home: () => scrollToPage(0),
      End: () => scrollToPage(state.pages.length - 1),
      "+": () => stepZoom(1),
      "=": () => stepZoom(1),
      "-": () => stepZoom(-1),
      s: () => $("sidebar-toggle").click(),
      r: () => rotateView(90),
      R: () => rotateView(-90),
      Escape: () => { closeEditor(); setTool("select"); },
    };
    const action = actions[event.key];
    if (action && !event.ctrlKey && !event.altKey) {
      event.preventDefault();
      action();
    }
  });
}
