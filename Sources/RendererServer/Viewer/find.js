// Finding text: the hits, streamed from the server, and their highlights.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { scrollToPage } from "./navigation.js";
import { layer, place } from "./pages.js";
import { pageViews, state } from "./state.js";

let typingTimer = null;

/**
 * Find as you type: the term is searched for a moment after the reader stops typing. Enter
 * right after typing shows that search's first hit; Enter again steps to the next.
 */
export function wireFindAsYouType() {
  const field = $("find");
  field.addEventListener("input", () => {
    state.findTyped = true;
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => startSearch(field.value), 300);
  });
  field.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    clearTimeout(typingTimer);
    const typed = state.findTyped;
    state.findTyped = false;
    if (field.value !== state.lastTerm) startSearch(field.value);
    else if (!typed && state.hits.length > 0) showHit(state.currentHit + (event.shiftKey ? -1 : 1));
  });
}

/** Searches for `term`, which becomes the term Enter steps through. */
export function startSearch(term) {
  state.lastTerm = term;
  find(term);
}

export async function find(term) {
  if (state.findController) state.findController.abort();
  state.hits = [];
  state.currentHit = -1;
  pageViews.forEach(drawHits);
  if (!term) return setFindStatus("");
  const controller = new AbortController();
  state.findController = controller;
  setFindStatus(t("find.searching"));
  // As pdf.js: case and accents ignored, parts of words found, unless the reader says otherwise.
  const params = new URLSearchParams({
    q: term, renderer: state.renderer, caseSensitive: $("find-case").checked, wholeWord: $("find-whole").checked,
    ignoreAccents: !$("find-diacritics").checked,
  });
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
    setFindStatus(state.hits.length === 0 ? t("find.none") : t("find.count", { current: state.currentHit + 1, total: state.hits.length }));
    return;
  }
  state.hits.push(line);
  drawHits(pageViews[line.pageIndex]);
  if (state.currentHit < 0) showHit(0);
  else setFindStatus(t("find.counting", { current: state.currentHit + 1, total: state.hits.length }));
}

export function showHit(position) {
  if (state.hits.length === 0) return;
  const before = state.hits[state.currentHit];
  state.currentHit = (position + state.hits.length) % state.hits.length;
  const hit = state.hits[state.currentHit];
  const bounds = quadsBounds(hit.quads);
  scrollToPage(hit.pageIndex, { x: bounds.x, y: Math.max(0, bounds.y - 60) });
  // The marks change on the pages of the hit left and of the hit shown only.
  if (before && before.pageIndex !== hit.pageIndex) drawHits(pageViews[before.pageIndex]);
  drawHits(pageViews[hit.pageIndex]);
  setFindStatus(t("find.count", { current: state.currentHit + 1, total: state.hits.length }));
}

/** Marks the hits on the page: all of them, or only the current one when "Highlight all" is off. */
export function drawHits(view) {
  const target = view && layer(view, "hit-layer");
  if (!target) return;
  target.innerHTML = "";
  const all = $("find-highlight-all").checked;
  state.hits.forEach((hit, position) => {
    if (hit.pageIndex !== view.index || (!all && position !== state.currentHit)) return;
    for (const quad of hit.quads) {
      const box = quadsBounds([quad]);
      const mark = document.createElement("div");
      mark.className = "hit" + (position === state.currentHit ? " current" : "");
      place(mark, { origin: { x: box.x, y: box.y }, size: { width: box.width, height: box.height } });
      target.append(mark);
    }
  });
}

export function quadsBounds(quads) {
  const xs = [], ys = [];
  for (const q of quads) for (const p of [q.upperLeft, q.upperRight, q.lowerLeft, q.lowerRight]) { xs.push(p.x); ys.push(p.y); }
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function setFindStatus(text) {
  $("find-status").textContent = text;
}
