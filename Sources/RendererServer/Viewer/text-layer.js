// The text layer over each page: selecting and copying text.

import { layer, pageJSON } from "./pages.js";
import { offerRecognition } from "./recognition.js";
import { allows, pageViews, state } from "./state.js";

// Words are measured in one font at one size: a word's width grows with the font's size, so
// its width at any height follows from this one by proportion (setting a canvas's font for
// each word costs more than the measuring).
const MEASURED_SIZE = 100;
const measure = document.createElement("canvas").getContext("2d");
measure.font = MEASURED_SIZE + "px sans-serif";

/** The words built into spans before the page's thread is given back to the browser. */
const WORDS_PER_TASK = 400;

/** Resolves in a task of its own, after what the browser has waiting (input, frames). */
function nextTask() {
  if (globalThis.scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Fills the page's text layer with its words. The spans are built a few hundred at a time,
 * giving the browser its thread between, so that a page's text never holds back scrolling
 * or the next page's image; they go in at once, so that the layer is either empty or whole.
 */
export async function loadTextLayer(view) {
  const text = await pageJSON(view, "text?renderer=" + state.renderer).catch(() => null);
  const target = layer(view, "text-layer");
  if (!text || !target) return;
  // A scan: its text can be recognised where the server reads scans on request.
  if (text.lines.length === 0) offerRecognition();
  const generation = view.generation;
  const fragment = document.createDocumentFragment();
  const scale = state.scale;
  let built = 0;
  for (const line of text.lines) {
    fragment.append(...lineSpans(line, scale, "px"));
    built += line.words.length;
    if (built >= WORDS_PER_TASK) {
      built = 0;
      await nextTask();
      // Drawn again or emptied meanwhile: these spans belong to no layer shown.
      if (view.generation !== generation) return;
    }
  }
  target.append(fragment);
}

/**
 * The words of a page's text (the API's text layer) as spans over it, each stretched to its
 * word's box, in reading order with a line break after each line: `scale` CSS `unit`s a
 * point (pixels on screen, points on a printed sheet). Each keeps its box in points.
 */
export function wordSpans(text, scale, unit) {
  return text.lines.flatMap((line) => lineSpans(line, scale, unit));
}

/** The spans of one line's words, as `wordSpans` makes them. */
function lineSpans(line, scale, unit) {
  return line.words.map((word, position) => {
    const span = document.createElement("span");
    span.textContent = word.text + (position === line.words.length - 1 ? "\n" : " ");
    const { origin, size } = word.bounds;
    // The stretch is a ratio of lengths in one unit: the natural width at the box's height.
    const natural = measure.measureText(word.text).width * size.height / MEASURED_SIZE;
    span.style.cssText = "left:" + origin.x * scale + unit + ";top:" + origin.y * scale + unit
      + ";font-size:" + size.height * scale + unit
      + (natural > 0 ? ";transform:scaleX(" + size.width / natural + ")" : "");
    span.dataset.x = origin.x;
    span.dataset.y = origin.y;
    span.dataset.width = size.width;
    span.dataset.height = size.height;
    return span;
  });
}

/** The selected text, one line per text line, words separated by single spaces. */
function selectedText() {
  return window.getSelection().toString()
    .split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line.length > 0).join("\n");
}

/**
 * Copies a selection of the pages' text as lines; a selection on the pages of a document
 * (or of reading mode's text) whose settings or PDF permissions forbid copying copies nothing (reading, finding and the
 * screen reader's text stay).
 */
export function wireSelectionCopy() {
  document.addEventListener("copy", (event) => {
    const selection = window.getSelection();
    // The pages' text layers and reading mode's text are the document's text alike.
    const texts = [document.getElementById("pages"), document.getElementById("reading-text")].filter(Boolean);
    if (!allows("copying") && selection.rangeCount > 0 && texts.some((text) => selection.getRangeAt(0).intersectsNode(text))) {
      event.preventDefault();
      return;
    }
    const text = selectedText();
    if (!text || !event.clipboardData) return;
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
  });
}

/** The words of the selection on each page, as quads per line: what a highlight covers. */
export function selectionQuads() {
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
