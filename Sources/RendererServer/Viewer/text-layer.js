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

/** The words put into spans before the page's thread is given back to the browser. */
const WORDS_PER_TASK = 400;

/**
 * A space between two words of a line wider than this share of the line's height starts a
 * new span (a column, a tab stop), and so does a word this share of it above or below the
 * one before (vertical writing): one span stretched over both would put the words between
 * in the wrong place.
 */
const RUN_GAP = 0.8;
const RUN_SHIFT = 0.5;

/** Each span's words: where each is in the span's text (`start`, `end`) and its box in points. */
const spanWords = new WeakMap();

/** Resolves in a task of its own, after what the browser has waiting (input, frames). */
function nextTask() {
  if (globalThis.scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Fills the page's text layer with its words, once the page's image is in. The spans are
 * built a few hundred words at a time, giving the browser its thread between, so that a
 * page's text never holds back scrolling or the next page's image; they go in at once, so
 * that the layer is either empty or whole.
 */
export async function loadTextLayer(view) {
  const generation = view.generation;
  const text = await pageJSON(view, "text?renderer=" + state.renderer).catch(() => null);
  // The words go in once the page's image is: building them holds the browser's thread, and
  // the image the reader waits for would wait for them.
  if (text) await generation.imageIn;
  const target = layer(view, "text-layer");
  if (!text || !target || view.generation !== generation) return;
  // A scan: its text can be recognised where the server reads scans on request.
  if (text.lines.length === 0) offerRecognition();
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
 * The words of a page's text (the API's text layer) as spans over it, in reading order
 * with a line break after each line: `scale` CSS `unit`s a point (pixels on screen, points
 * on a printed sheet).
 */
export function wordSpans(text, scale, unit) {
  return text.lines.flatMap((line) => lineSpans(line, scale, unit));
}

/**
 * The spans of one line: a span for each run of words the line holds without a wide space
 * between them, its text the words joined by spaces, stretched over the run's box, as
 * pdf.js lays a text run. A span a word would cost the page's layout twenty times as many
 * boxes (2,100 on a page of R's manual against about 110 runs); `spanWords` keeps where
 * each word is.
 */
function lineSpans(line, scale, unit) {
  const runs = [];
  for (const word of line.words) {
    const run = runs[runs.length - 1];
    const previous = run && run[run.length - 1].bounds;
    const height = previous && Math.max(previous.size.height, word.bounds.size.height);
    const gap = previous && word.bounds.origin.x - (previous.origin.x + previous.size.width);
    const shift = previous && Math.abs(word.bounds.origin.y - previous.origin.y);
    if (run && gap <= RUN_GAP * height && shift <= RUN_SHIFT * height) run.push(word);
    else runs.push([word]);
  }
  return runs.map((run, index) => runSpan(run, index === runs.length - 1 ? "\n" : " ", scale, unit));
}

/** One run of words as a span stretched over their box, ending in `end`. */
function runSpan(words, end, scale, unit) {
  const span = document.createElement("span");
  const placed = [];
  let text = "";
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  for (const word of words) {
    if (text) text += " ";
    placed.push({ start: text.length, end: text.length + word.text.length, box: word.bounds });
    text += word.text;
    const { origin, size } = word.bounds;
    left = Math.min(left, origin.x);
    top = Math.min(top, origin.y);
    right = Math.max(right, origin.x + size.width);
    bottom = Math.max(bottom, origin.y + size.height);
  }
  const width = right - left;
  const height = bottom - top;
  span.textContent = text + end;
  // The stretch is a ratio of lengths in one unit: the natural width at the box's height.
  const natural = measure.measureText(text).width * height / MEASURED_SIZE;
  span.style.cssText = "left:" + left * scale + unit + ";top:" + top * scale + unit
    + ";font-size:" + height * scale + unit
    + (natural > 0 ? ";transform:scaleX(" + width / natural + ")" : "");
  spanWords.set(span, placed);
  return span;
}

/**
 * The word of the text layer's `span` under the client point (`x`, `y`), or the nearest of
 * its words, as the range of its characters in the span's text; null for a span without words.
 */
export function wordAt(span, x, y) {
  const text = span.firstChild;
  const range = document.createRange();
  let nearest = null;
  let distance = Infinity;
  for (const word of (text && spanWords.get(span)) || []) {
    range.setStart(text, word.start);
    range.setEnd(text, word.end);
    const box = range.getBoundingClientRect();
    const away = Math.hypot(Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
    if (away < distance) {
      nearest = word;
      distance = away;
    }
  }
  return nearest && { start: nearest.start, end: nearest.end };
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
    for (const { origin, size } of selectedWordBoxes(range, textLayer)) {
      const box = { x: origin.x, y: origin.y, width: size.width, height: size.height };
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

/**
 * The boxes (in points) of the words of `textLayer` that `range` covers a character of: in
 * a span the range starts or ends in, the words from or up to its place there.
 */
function selectedWordBoxes(range, textLayer) {
  const boxes = [];
  for (const span of textLayer.children) {
    if (!range.intersectsNode(span)) continue;
    const text = span.firstChild;
    const from = range.startContainer === text ? range.startOffset : 0;
    const to = range.endContainer === text ? range.endOffset : Infinity;
    for (const word of spanWords.get(span) || []) {
      if (word.start < to && word.end > from) boxes.push(word.box);
    }
  }
  return boxes;
}
