// The text layer over each page: selecting and copying text.

import { layer, pageJSON } from "./pages.js";
import { pageViews, state } from "./state.js";

const measure = document.createElement("canvas").getContext("2d");

export async function loadTextLayer(view) {
  const text = await pageJSON(view, "text?renderer=" + state.renderer).catch(() => null);
  const target = layer(view, "text-layer");
  if (!text || !target) return;
  target.append(...wordSpans(text, state.scale, "px"));
}

/**
 * The words of a page's text (the API's text layer) as spans over it, each stretched to its
 * word's box, in reading order with a line break after each line: `scale` CSS `unit`s a
 * point (pixels on screen, points on a printed sheet). Each keeps its box in points.
 */
export function wordSpans(text, scale, unit) {
  const spans = [];
  for (const line of text.lines) {
    line.words.forEach((word, position) => {
      const span = document.createElement("span");
      span.textContent = word.text + (position === line.words.length - 1 ? "\n" : " ");
      const { origin, size } = word.bounds;
      span.style.left = origin.x * scale + unit;
      span.style.top = origin.y * scale + unit;
      span.style.fontSize = size.height * scale + unit;
      span.style.fontFamily = "sans-serif";
      // The stretch is a ratio of lengths in one unit: measured at the box's height in pixels.
      measure.font = size.height + "px sans-serif";
      const natural = measure.measureText(word.text).width;
      if (natural > 0) span.style.transform = "scaleX(" + size.width / natural + ")";
      span.dataset.x = origin.x;
      span.dataset.y = origin.y;
      span.dataset.width = size.width;
      span.dataset.height = size.height;
      spans.push(span);
    });
  }
  return spans;
}

/** The selected text, one line per text line, words separated by single spaces. */
function selectedText() {
  return window.getSelection().toString()
    .split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line.length > 0).join("\n");
}

export function wireSelectionCopy() {
  document.addEventListener("copy", (event) => {
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
